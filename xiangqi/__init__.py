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
from xiangqi.core import (
    ADVISOR, BB_ALL, BB_EMPTY, BLACK, CANNON, COLOR_NAMES, COLORS, ELEPHANT, FILE_NAMES, HORSE, KING, PAWN,
    PIECE_NAMES, PIECE_SYMBOLS, PIECE_TYPES, RANK_NAMES, RED, ROOK, SQUARE_NAMES, SQUARES, STARTING_BOARD_FEN,
    STARTING_FEN, Bitboard, Color, Move, Piece, PieceType, Square, SquareSet, parse_square, square, square_file,
    square_flip, square_mirror, square_name, square_rank,
)
from xiangqi.errors import (
    AmbiguousMoveError, ConcurrentUseError, IllegalMoveError, InternalError, InvalidFenError, InvalidMoveError,
    InvalidRecordError, XiangqiError,
)
from xiangqi.outcome import Outcome, Termination
from xiangqi.perft import perft

__all__ = [
    "__version__", "BaseBoard", "Board", "LegalMoveGenerator", "PseudoLegalMoveGenerator", "Status",
    "ADVISOR", "BB_ALL", "BB_EMPTY", "BLACK", "CANNON", "COLOR_NAMES", "COLORS", "ELEPHANT", "FILE_NAMES", "HORSE",
    "KING", "PAWN", "PIECE_NAMES", "PIECE_SYMBOLS", "PIECE_TYPES", "RANK_NAMES", "RED", "ROOK", "SQUARE_NAMES",
    "SQUARES", "STARTING_BOARD_FEN", "STARTING_FEN", "Bitboard", "Color", "Move", "Piece", "PieceType", "Square",
    "SquareSet", "parse_square", "square", "square_file", "square_flip", "square_mirror", "square_name",
    "square_rank", "AmbiguousMoveError", "ConcurrentUseError", "IllegalMoveError", "InternalError", "InvalidFenError",
    "InvalidMoveError", "InvalidRecordError", "XiangqiError", "Outcome", "Termination", "perft",
]
