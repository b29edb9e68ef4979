"""xiangqi: Xiangqi (Chinese chess) for Python, on a C bitboard core.

* :class:`Board` in python-chess's style: FEN, legal moves, push/pop, check,
  mate and stalemate, attack maps, Zobrist keys, perft;
* notation: ICCS coordinates, Chinese (炮二平五, simplified and traditional)
  and WXF letters (:mod:`xiangqi.notation`);
* game records: PGN, XQF, DhtmlXQ (:mod:`xiangqi.pgn`, :mod:`xiangqi.xqf`,
  :mod:`xiangqi.dhtmlxq`);
* repetition rulings (long check, long chase) under the Asian and Chinese
  rules (:mod:`xiangqi.rules`), bulk validation (:mod:`xiangqi.validate`) and
  numpy batch APIs (:mod:`xiangqi.batch`).

>>> import xiangqi
>>> board = xiangqi.Board()
>>> len(board.legal_moves)
44
"""

from xiangqi._ffi import __version__
from xiangqi.board import BaseBoard, Board, LegalMoveGenerator, PseudoLegalMoveGenerator, Status
from xiangqi.core import (  # the named squares, as python-chess's chess.E2
    A0, B0, C0, D0, E0, F0, G0, H0, I0,
    A1, B1, C1, D1, E1, F1, G1, H1, I1,
    A2, B2, C2, D2, E2, F2, G2, H2, I2,
    A3, B3, C3, D3, E3, F3, G3, H3, I3,
    A4, B4, C4, D4, E4, F4, G4, H4, I4,
    A5, B5, C5, D5, E5, F5, G5, H5, I5,
    A6, B6, C6, D6, E6, F6, G6, H6, I6,
    A7, B7, C7, D7, E7, F7, G7, H7, I7,
    A8, B8, C8, D8, E8, F8, G8, H8, I8,
    A9, B9, C9, D9, E9, F9, G9, H9, I9,
)
from xiangqi.core import (
    ADVISOR, BB_ALL, BB_EMPTY, BB_SQUARES, BLACK, CANNON, COLOR_NAMES, COLORS, ELEPHANT, FILE_NAMES, HORSE, KING, PAWN,
    PIECE_NAMES, PIECE_SYMBOLS, PIECE_TYPES, RANK_NAMES, RED, ROOK, SQUARE_NAMES, SQUARES, STARTING_BOARD_FEN,
    STARTING_FEN, Bitboard, Color, Move, Piece, PieceType, Square, SquareSet, between, flip_horizontal, flip_vertical,
    parse_square, ray, square, square_distance, square_file, square_flip, square_manhattan_distance, square_mirror,
    square_name, square_rank,
)
from xiangqi.errors import (
    AmbiguousMoveError, ConcurrentUseError, IllegalMoveError, InternalError, InvalidFenError, InvalidMoveError,
    InvalidRecordError, XiangqiError,
)
from xiangqi.outcome import Outcome, Termination
from xiangqi.perft import perft

__all__ = [
    "__version__", "BaseBoard", "Board", "LegalMoveGenerator", "PseudoLegalMoveGenerator", "Status",
    "ADVISOR", "BB_ALL", "BB_EMPTY", "BB_SQUARES", "BLACK", "CANNON", "COLOR_NAMES", "COLORS", "ELEPHANT", "FILE_NAMES", "HORSE",
    "KING", "PAWN", "PIECE_NAMES", "PIECE_SYMBOLS", "PIECE_TYPES", "RANK_NAMES", "RED", "ROOK", "SQUARE_NAMES",
    "SQUARES", "STARTING_BOARD_FEN", "STARTING_FEN", "Bitboard", "Color", "Move", "Piece", "PieceType", "Square",
    "SquareSet", "parse_square", "square", "square_file", "square_flip", "square_mirror", "square_name",
    "square_rank", "square_distance", "square_manhattan_distance", "flip_vertical", "flip_horizontal", "between",
    "ray", "AmbiguousMoveError", "ConcurrentUseError", "IllegalMoveError", "InternalError", "InvalidFenError",
    "InvalidMoveError", "InvalidRecordError", "XiangqiError", "Outcome", "Termination", "perft",
    "A0", "B0", "C0", "D0", "E0", "F0", "G0", "H0", "I0",
    "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1",
    "A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2", "I2",
    "A3", "B3", "C3", "D3", "E3", "F3", "G3", "H3", "I3",
    "A4", "B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4",
    "A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "I5",
    "A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6", "I6",
    "A7", "B7", "C7", "D7", "E7", "F7", "G7", "H7", "I7",
    "A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8", "I8",
    "A9", "B9", "C9", "D9", "E9", "F9", "G9", "H9", "I9",
]
