"""The :class:`BaseBoard`: one C position plus the move stack, in python-chess's style.

This is the layer just above :mod:`xiangqi.core`: positions, moves, the move stack, attacks, editing, copies.
:mod:`xiangqi.notation` and :mod:`xiangqi.rules` build on it, and :class:`xiangqi.board.Board` adds their methods
(Chinese and WXF notation, outcomes with repetition rulings) on top, so imports run one way:
core → position → notation, rules → board.
"""

from __future__ import annotations

import enum
import functools
import operator
import re
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, TypeVar, overload

from xiangqi import _ffi
from xiangqi._ffi.position import (
    FEN_ALLOW_ANY_COUNT, FEN_ALLOW_NO_KING, NO_SQUARE, NativePosition, PerftTable, attackers_on_placement, legal_codes_after, native_perft, perft_after,
)
from xiangqi.core import (
    ADVISOR, BB_ALL, BLACK, CANNON, ELEPHANT, HORSE, KING, NULL_MOVE_TEXTS, PAWN, PIECE_NAMES, RED, ROOK, SAME_SQUARE_REASON,
    SQUARE_NAMES, STARTING_FEN,
    Bitboard, Color, Move, Piece, PieceType, Square, SquareSet, iter_moves, same_square_message, square_file, square_flip,
    square_mirror, square_rank,
)
from xiangqi._reasons import why_illegal
from xiangqi.errors import ConcurrentUseError, IllegalMoveError, InvalidFenError, InvalidMoveError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["BaseBoard", "Status", "LegalMoveGenerator", "PseudoLegalMoveGenerator", "check_depth", "MAX_PERFT_DEPTH",
           "parse_coordinates", "RootProgress"]

_B = TypeVar("_B", bound="BaseBoard")

_FEN_PREVIEW = 80


def _preview(text: str) -> str:
    return text if len(text) <= _FEN_PREVIEW else text[:_FEN_PREVIEW] + f"… ({len(text)} characters)"


class Status(enum.IntFlag):
    """Soft problems of a position that the C core accepts (see :meth:`Board.status`).

    ``NO_RED_KING`` and ``NO_BLACK_KING`` occur only in a position being set up (``Board(None)``, the editing
    methods, ``allow_missing_king=True``): a FEN without a king is refused everywhere else. So do
    ``TOO_MANY_RED_PIECES`` and ``TOO_MANY_BLACK_PIECES``: only the editing methods (:meth:`BaseBoard.set_piece_at`,
    :meth:`BaseBoard.set_piece_map`, :meth:`BaseBoard.set_board_fen`) place a third horse, as python-chess's
    accept any placement and report it here.

    >>> BaseBoard().status()
    <Status.VALID: 0>
    >>> BaseBoard("4k4/9/9/9/9/9/9/9/9/4K4 w").status()
    <Status.KINGS_FACING|OPPOSITE_CHECK: 48>
    """

    VALID = 0
    KING_OUTSIDE_PALACE = 1
    ADVISOR_OUTSIDE_REGION = 2
    ELEPHANT_OUTSIDE_REGION = 4
    PAWN_ON_IMPOSSIBLE_SQUARE = 8
    KINGS_FACING = 16
    OPPOSITE_CHECK = 32
    NO_RED_KING = 64
    NO_BLACK_KING = 128
    #: More pieces of a kind than the set holds (a third horse, a sixth pawn): only an edit sets this up.
    TOO_MANY_RED_PIECES = 256
    #: As :attr:`TOO_MANY_RED_PIECES`, for Black.
    TOO_MANY_BLACK_PIECES = 512


_EMPTY_FEN = "9/9/9/9/9/9/9/9/9/9 w - - 0 1"
#: What an edit may set up that a FEN may not: a side without a king, more pieces of a type than the set holds.
# (annotated: mypy 2.4 took the bare `A | B` of two imported ints for a type alias, and crashed on it)
_EDIT_FLAGS: int = FEN_ALLOW_NO_KING | FEN_ALLOW_ANY_COUNT
#: FEN text (ASCII) and C flags -> the position it set and its FEN as written (:meth:`BaseBoard._load`), for at
#: most :data:`_LOADED_MAX` texts (then cleared: a file of many set-ups costs no more than before).
_LOADED: Dict["tuple[bytes, int]", "tuple[Any, str]"] = {}
_LOADED_MAX = 1024
_FULLMOVE_MAX = 999_999_999  # XQ_FULLMOVE_MAX: the nine digits FEN readers take
_NO_KING = NO_SQUARE

_RED_ADVISOR_SQUARES = {3, 5, 13, 21, 23}
_RED_ELEPHANT_SQUARES = {2, 6, 18, 22, 26, 38, 42}
_RED_PALACE = {3, 4, 5, 12, 13, 14, 21, 22, 23}


def _flip(sqs: "set[int]") -> "set[int]":
    return {89 - s for s in sqs}


_REGIONS = {
    (KING, RED): _RED_PALACE, (KING, BLACK): _flip(_RED_PALACE),
    (ADVISOR, RED): _RED_ADVISOR_SQUARES, (ADVISOR, BLACK): _flip(_RED_ADVISOR_SQUARES),
    (ELEPHANT, RED): _RED_ELEPHANT_SQUARES, (ELEPHANT, BLACK): _flip(_RED_ELEPHANT_SQUARES),
}



class _MoveView:
    __slots__ = ("_board",)

    def __init__(self, board: "BaseBoard") -> None:
        self._board = board

    def _codes(self) -> List[int]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[Move]:
        return iter_moves(self._codes())

    def __bool__(self) -> bool:
        return len(self) > 0

    def __len__(self) -> int:
        return len(self._codes())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ({', '.join(m.iccs() for m in self)})>"


class LegalMoveGenerator(_MoveView):
    """The legal moves of a board (:attr:`BaseBoard.legal_moves`): iterable, sized, supports ``in``.

    It is a live view: it always lists the board's current moves.

    >>> board = BaseBoard()
    >>> moves = board.legal_moves
    >>> len(moves), Move.from_iccs("h2e2") in moves, moves.count()
    (44, True, 44)
    >>> board.push_iccs("h2e2"); len(moves)
    Move.from_iccs('h2e2')
    45
    """

    __slots__ = ()

    def _codes(self) -> List[int]:
        return self._board.legal_move_codes()

    def __len__(self) -> int:
        return self._board._native_count_legal()

    def __bool__(self) -> bool:
        return self._board._native_count_legal() > 0

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def count(self) -> int:
        """The number of legal moves (python-chess's ``legal_moves.count()``), counted in C.

        >>> BaseBoard().legal_moves.count()
        44
        """
        return self._board._native_count_legal()


class PseudoLegalMoveGenerator(_MoveView):
    """Moves that obey each piece's movement rules but may leave the own king attacked
    (:attr:`BaseBoard.pseudo_legal_moves`).

    Here the king may capture the rook on e1 by the piece rules, but would then face the other king:

    >>> board = BaseBoard("4k4/9/9/9/9/9/9/9/4r4/4K4 w")
    >>> sorted(m.iccs() for m in board.pseudo_legal_moves), sorted(m.iccs() for m in board.legal_moves)
    (['e0d0', 'e0e1', 'e0f0'], ['e0d0', 'e0f0'])
    """

    __slots__ = ()

    def _codes(self) -> List[int]:
        return self._board._native_pseudo_legal_codes()

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board._native_is_pseudo_legal(move.code)

    def count(self) -> int:
        """The number of pseudo-legal moves.

        >>> BaseBoard().pseudo_legal_moves.count()
        44
        """
        return len(self._codes())


class _BoardFen:
    """``board.board_fen()``: the piece placement part of the FEN; ``board.board_fen = placement`` sets it, as
    :meth:`BaseBoard.set_board_fen` does (an edit). A method to call, as in python-chess, that also takes an
    assignment: a plain method would be shadowed by one without a word, and calling it would then fail.

    >>> board = BaseBoard()
    >>> board.board_fen = "4k4/9/9/9/9/9/9/9/9/4K4"
    >>> board.board_fen(), board.fen()
    ('4k4/9/9/9/9/9/9/9/9/4K4', '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1')
    """

    @overload
    def __get__(self, board: None, owner: "type[BaseBoard]") -> "_BoardFen": ...
    @overload
    def __get__(self, board: "BaseBoard", owner: "type[BaseBoard]") -> Callable[[], str]: ...

    def __get__(self, board: "Optional[BaseBoard]", owner: "type[BaseBoard]") -> "_BoardFen | Callable[[], str]":
        return self if board is None else board._board_fen

    def __set__(self, board: "BaseBoard", placement: str) -> None:
        board.set_board_fen(placement)


class BaseBoard(NativePosition):
    """A xiangqi position with its move stack (:class:`xiangqi.Board` adds notation and rulings).

    >>> board = BaseBoard()
    >>> board.turn == RED, len(board.legal_moves)
    (True, 44)
    >>> board.push_iccs("h2e2")
    Move.from_iccs('h2e2')
    >>> board.fen()
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
    >>> board.pop()
    Move.from_iccs('h2e2')

    ``BaseBoard(None)`` is an empty board, to set up a position piece by piece (as in python-chess). A FEN must
    hold both kings (a FEN without one raises :class:`~xiangqi.errors.InvalidFenError`, as every game reader
    does); the editing methods (:meth:`set_piece_at`, :meth:`clear`, ...) and ``allow_missing_king=True`` also
    accept a side without a king, which :meth:`status` reports.

    A Board is not thread-safe: give each thread its own :meth:`copy`. Overlapping :meth:`push` and
    :meth:`pop` calls from two threads are detected after the fact (the move stack and the C undo records no
    longer agree) and raise :class:`~xiangqi.errors.ConcurrentUseError`; the board is then unusable. The check
    costs one length comparison per call; making every method safe would cost a lock per call.

    Raises:
        :class:`~xiangqi.errors.InvalidFenError` or :class:`TypeError`: ``fen`` is refused, as by :meth:`set_fen`.
    """

    def __init__(self, fen: Optional[str] = STARTING_FEN, *, allow_missing_king: bool = False) -> None:
        self._alloc(64)
        self.set_fen(_EMPTY_FEN if fen is None else fen, allow_missing_king=fen is None or allow_missing_king)

    def _alloc(self, cap: int) -> None:
        """Fresh C buffers: the position, ``cap`` undo records and a move list."""
        self._native_alloc(cap)
        self.move_stack: List[Move] = []
        self._start_fen = STARTING_FEN

    # ------------------------------------------------------------------ FEN

    def set_fen(self, fen: str, *, allow_missing_king: bool = False) -> None:
        """Set the position from a FEN and clear the move stack.

        Accepts ``KABNRCP``/``kabnrcp`` with ``H``/``E`` aliases, side ``w``/``r``/``b``,
        optional ``- -`` fields and counters.

        >>> board = BaseBoard()
        >>> board.set_fen("4k4/9/9/9/9/9/9/9/9/4K4 b"); board.fen()
        '4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1'

        Raises:
            :class:`InvalidFenError`: the FEN cannot be read (its ``offset`` says where), holds more pieces than a
                side has, or a side has no king and ``allow_missing_king`` is false (a position being set up:
                :meth:`status` then reports it). The board is left as it was.
            :class:`TypeError`: ``fen`` is not a :class:`str`.
        """
        if not isinstance(fen, str):
            raise TypeError(f"FEN must be a str, not {type(fen).__name__}")
        try:
            data = fen.encode("ascii")
        except UnicodeEncodeError as exc:
            raise InvalidFenError(
                f"invalid FEN: non-ASCII character {fen[exc.start]!r} at offset {exc.start} in {_preview(fen)!r}",
                fen=fen, offset=exc.start) from None
        self._load(fen, data, FEN_ALLOW_NO_KING if allow_missing_king else 0)

    def _load(self, fen: str, data: bytes, flags: int) -> None:
        """Set the position from ``data`` (``fen`` encoded) with C's flags and clear the move stack.

        A FEN read before is set from the position it gave then (:data:`_LOADED`): reading it again and writing
        the starting FEN cost three times that copy, and readers and game records start from the same few."""
        key = (data, flags)
        hit = _LOADED.get(key)
        if hit is not None:
            self._native_restore(hit[0])
            self.move_stack = []
            self._start_fen = hit[1]
            return
        st, off = self._native_set_fen(data, flags)
        if st != _ffi.OK:
            raise _fen_error(fen, data, st, off, edit=flags == _EDIT_FLAGS)
        self.move_stack = []
        self._start_fen = self.fen()
        if len(_LOADED) >= _LOADED_MAX:
            _LOADED.clear()
        _LOADED[key] = (self._native_snapshot(), self._start_fen)

    def _edit(self, fen: str) -> None:
        """Load a FEN this board wrote or an edit built (ASCII): any placement the C position can hold (a side
        without a king, a third horse), which :meth:`status` reports."""
        self._load(fen, fen.encode("ascii"), _EDIT_FLAGS)

    @classmethod
    def _set_up(cls: "type[_B]", fen: str) -> _B:
        """A new board of this class at ``fen`` read as an edit (:meth:`_edit`)."""
        board = cls.__new__(cls)
        board._alloc(64)
        board._edit(fen)
        return board

    def fen(self) -> str:
        """The FEN of the position (canonical letters ``KABNRCP``, side ``w``/``b``); :meth:`set_fen` reads it.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/9/3EK4 r").fen()
        '4k4/9/9/9/9/9/9/9/9/3BK4 w - - 0 1'
        """
        return self._native_fen()

    def _board_fen(self) -> str:
        """The piece placement part of the FEN (``board.board_fen()``).

        >>> BaseBoard().board_fen() == STARTING_FEN.split()[0]
        True
        """
        return self.fen().split(" ", 1)[0]

    #: ``board.board_fen()`` is the piece placement part of the FEN, e.g.
    #: ``'4k4/9/9/9/9/9/9/9/9/4K4'``; ``board.board_fen = placement`` sets it, as :meth:`set_board_fen` does
    #: (an edit: the move stack is cleared), raising :class:`~xiangqi.errors.InvalidFenError` as it does.
    board_fen = _BoardFen()

    # -------------------------------------------------------------- editing
    #
    # Every edit builds the new position's FEN and loads it through the one FEN reader with the edit flags
    # (_EDIT_FLAGS), which accept any placement the C position can hold: at most one king a side, and no more
    # pieces than a move list holds. Everything else play cannot reach (a side without a king, a third horse, a
    # king outside its palace, kings facing) is accepted and reported by status(), as python-chess does; an
    # edit the C position refuses raises InvalidFenError and leaves the board as it was. An edit starts a new history: the move stack is cleared and the edited position becomes the
    # starting FEN (the undo records of the old moves would not undo into it).

    def _set_codes(self, codes: "bytes | bytearray", turn: Optional[Color] = None) -> None:
        side = self.turn if turn is None else turn
        self._edit(f"{_placement(codes)} {'w' if side else 'b'} - - {self.halfmove_clock} {self.fullmove_number}")

    def set_board_fen(self, fen: str) -> None:
        """Set the piece placement (the FEN's first field), keeping the side to move and the counters.

        >>> board = BaseBoard()
        >>> board.set_board_fen("4k4/9/9/9/9/9/9/9/9/4K4"); board.fen()
        '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1'

        Any placement is accepted (a third horse, a king outside its palace) and reported by :meth:`status`,
        as python-chess's ``set_board_fen`` does, but a second king of a side.

        Raises:
            :class:`InvalidFenError`: ``fen`` is not one placement field of 10 rows of 9 squares, or places two
                kings of a side or more pieces than its move list could hold (the board is unchanged).
            :class:`TypeError`: ``fen`` is not a :class:`str`.
        """
        if not isinstance(fen, str):
            raise TypeError(f"board FEN must be a str, not {type(fen).__name__}")
        if not fen.strip() or len(fen.split()) != 1:
            raise InvalidFenError(f"invalid board FEN {_preview(fen)!r}: expected the piece placement alone "
                                  "(10 rows of 9 squares)", fen=fen, offset=0)
        side = "w" if self.turn else "b"
        full = f"{fen.strip()} {side} - - {self.halfmove_clock} {self.fullmove_number}"
        try:
            data = full.encode("ascii")
        except UnicodeEncodeError as exc:
            raise InvalidFenError(f"invalid board FEN: non-ASCII character {full[exc.start]!r} at offset "
                                  f"{exc.start} in {_preview(fen)!r}", fen=fen, offset=exc.start) from None
        self._load(full, data, _EDIT_FLAGS)

    def set_piece_at(self, square: Square, piece: Optional[Piece], promoted: bool = False) -> None:
        """Put ``piece`` on ``square`` (``None`` empties it), replacing what stood there. ``promoted`` is
        python-chess's flag for a promoted piece, which xiangqi never has: only ``False`` is accepted.

        >>> board = BaseBoard(None)
        >>> board.set_piece_at(4, Piece(KING, RED)); board.set_piece_at(85, Piece(KING, BLACK)); board.board_fen()
        '4k4/9/9/9/9/9/9/9/9/4K4'

        Raises:
            :class:`TypeError`: ``piece`` is neither a :class:`Piece` nor ``None``.
            :class:`ValueError`: ``square`` is not an int 0–89, or ``promoted`` is true.
            :class:`InvalidFenError`: a second king of a side (the C position holds one), or more pieces than
                a side's move list could hold (sixteen rooks); the board is left as it was. Anything else is set up and reported by :meth:`status` (a third horse:
                ``Status.TOO_MANY_RED_PIECES``).
        """
        sq = _square_index(square)
        if piece is not None and not isinstance(piece, Piece):
            raise TypeError(f"piece must be a Piece or None, not {type(piece).__name__}")
        if promoted:
            raise ValueError("promoted=True: xiangqi has no promotion")
        codes = bytearray(self.piece_codes())
        codes[sq] = piece.code if piece is not None else 0
        self._set_codes(codes)

    def remove_piece_at(self, square: Square) -> Optional[Piece]:
        """Empty ``square`` and return the piece that stood there (``None`` if it was empty).

        Removing a king is allowed: :meth:`status` then reports the side without one.

        >>> board = BaseBoard()
        >>> board.remove_piece_at(0), board.piece_at(0)
        (Piece.from_symbol('R'), None)

        Raises:
            :class:`ValueError`: ``square`` is not an int 0–89.
        """
        piece = self.piece_at(_square_index(square))
        if piece is not None:
            self.set_piece_at(square, None)
        return piece

    def set_piece_map(self, pieces: "Mapping[Square, Piece]") -> None:
        """Set the whole placement from a mapping of squares to pieces (other squares empty); the inverse of
        :meth:`piece_map`.

        >>> board = BaseBoard()
        >>> board.set_piece_map({4: Piece(KING, RED), 84: Piece(KING, BLACK)}); board.board_fen()
        '3k5/9/9/9/9/9/9/9/9/4K4'

        Raises:
            :class:`TypeError`: a value is not a :class:`Piece`.
            :class:`ValueError`: a key is not an int 0–89.
            :class:`InvalidFenError`: two kings of one colour, or more pieces than a side's move list could
                hold (the board is unchanged); any other placement is set up and reported by :meth:`status`.
        """
        codes = bytearray(90)
        for sq, piece in pieces.items():
            if not isinstance(piece, Piece):
                raise TypeError(f"pieces[{sq!r}] must be a Piece, not {type(piece).__name__}")
            codes[_square_index(sq)] = piece.code
        self._set_codes(codes)

    def reset(self) -> None:
        """Back to the starting position, with an empty move stack.

        >>> board = BaseBoard(None); board.reset(); board.fen() == STARTING_FEN
        True
        """
        self.set_fen(STARTING_FEN)

    def reset_board(self) -> None:
        """Put the pieces back where the game starts, keeping the side to move and the counters (python-chess's
        ``reset_board``; an edit: the move stack is cleared). :meth:`reset` also resets those.

        >>> board = BaseBoard("4k4/9/9/9/9/9/9/9/9/4K4 b - - 7 30"); board.reset_board(); board.fen()
        'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 30'
        """
        self.set_board_fen(STARTING_FEN.split()[0])

    def clear(self) -> None:
        """An empty board, Red to move, counters reset and an empty move stack (python-chess's ``clear``): set
        the position up with :meth:`set_piece_at`.

        >>> board = BaseBoard(); board.clear(); board.fen(), board.status()
        ('9/9/9/9/9/9/9/9/9/9 w - - 0 1', <Status.NO_RED_KING|NO_BLACK_KING: 192>)
        """
        self._edit(_EMPTY_FEN)

    def clear_board(self) -> None:
        """Take every piece off, keeping the side to move and the counters (python-chess's ``clear_board``; an
        edit, so the move stack is cleared).

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.clear_board(); board.fen()
        Move.from_iccs('h2e2')
        '9/9/9/9/9/9/9/9/9/9 b - - 1 1'
        """
        self._set_codes(bytes(90))

    @classmethod
    def empty(cls: "type[_B]") -> _B:
        """A new empty board, Red to move (python-chess's ``empty``; ``cls(None)``).

        >>> BaseBoard.empty().fen()
        '9/9/9/9/9/9/9/9/9/9 w - - 0 1'
        """
        return cls(None)

    def apply_transform(self, f: "Callable[[Bitboard], Bitboard]") -> None:
        """Move every piece by a bitboard function, as python-chess's ``apply_transform``: each piece's squares
        ``bb`` become ``f(bb)`` (:func:`~xiangqi.core.flip_horizontal`, :func:`~xiangqi.core.flip_vertical`, or
        any function of 90-bit ints; bits beyond the board are dropped, and where two pieces land on one square
        the later piece type wins). The side to move and the counters stay; it is an edit, so the move stack is
        cleared.

        >>> from xiangqi import flip_horizontal
        >>> board = BaseBoard(); board.apply_transform(flip_horizontal); board == BaseBoard()
        True
        """
        codes = self.piece_codes()
        out = bytearray(90)
        for code in sorted(set(codes) - {0}):
            mask = 0
            for sq, c in enumerate(codes):
                if c == code:
                    mask |= 1 << sq
            image = f(mask) & BB_ALL
            while image:
                low = image & -image
                out[low.bit_length() - 1] = code
                image ^= low
        self._set_codes(out)

    def transform(self: _B, f: "Callable[[Bitboard], Bitboard]") -> _B:
        """A copy without the move stack, with :meth:`apply_transform` applied (python-chess's ``transform``).

        >>> from xiangqi import flip_horizontal
        >>> BaseBoard("4k4/9/9/9/9/9/9/9/9/3K5 w").transform(flip_horizontal).board_fen()
        '4k4/9/9/9/9/9/9/9/9/5K3'
        """
        board = self.copy(stack=False)
        board.apply_transform(f)
        return board

    def apply_mirror(self) -> None:
        """Mirror the board vertically (rank 0 ↔ 9) and swap the colours of the pieces and the side to move, as
        python-chess's ``apply_mirror``: the position is the same modulo colour. An edit: the move stack is
        cleared.

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.apply_mirror(); board.fen()
        Move.from_iccs('h2e2')
        'rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 1 1'
        """
        self._set_codes(_mapped(self.piece_codes(), _RANK_MIRROR, True), not self.turn)

    def mirror(self: _B) -> _B:
        """A mirrored copy without the move stack (python-chess's ``mirror``): see :meth:`apply_mirror`. It keeps
        the legal moves (mirrored) and perft counts; mirrored twice it is the board again.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/4R4/3K5 w").mirror().fen()
        '3k5/4r4/9/9/9/9/9/9/9/4K4 b - - 0 1'
        """
        board = self.copy(stack=False)
        board.apply_mirror()
        return board

    def flip(self: _B) -> _B:
        """A copy seen from the other side: the board turned half round and the colours swapped (Red plays
        Black's part); the side to move and the move stack follow.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/4R4/3K5 w").flip().fen()
        '5k3/4r4/9/9/9/9/9/9/9/4K4 b - - 0 1'
        """
        image = [square_flip(s) for s in range(90)]
        start = BaseBoard._set_up(self._start_fen)
        b = type(self)._set_up(start.fen())  # counters kept; placement and side set below
        b._set_codes(_mapped(start.piece_codes(), image, True), not start.turn)
        for m in self.move_stack:
            b.push(Move(image[m.from_square], image[m.to_square]) if m else m)
        return b

    @property
    def starting_fen(self) -> str:
        """The FEN the move stack starts from.

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.starting_fen == STARTING_FEN
        Move.from_iccs('h2e2')
        True
        """
        return self._start_fen

    def root(self: _B) -> _B:
        """A new board at the start of the move stack.

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.root().move_stack
        Move.from_iccs('h2e2')
        []
        """
        return type(self)._set_up(self._start_fen)

    # ------------------------------------------------------------ accessors

    @property
    def turn(self) -> Color:
        """The side to move: :data:`RED` (True) or :data:`BLACK` (False).

        Setting it is an edit (the move stack is cleared, as for :meth:`set_piece_at`).

        >>> board = BaseBoard(); board.turn = BLACK; board.fen()
        'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1'

        Raises:
            :class:`ValueError`: (setting) the colour is not ``RED``/``BLACK`` (or 1/0).
        """
        return bool(self._native_side())

    @turn.setter
    def turn(self, color: Color) -> None:
        side = bool(_color_index(color))
        if side != self.turn or self.move_stack:
            self._set_codes(self.piece_codes(), side)

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/9/4K4 w - - 17 40").halfmove_clock
        17
        """
        return self._native_halfmove()

    @property
    def fullmove_number(self) -> int:
        """The FEN fullmove number (incremented after Black's move). Setting it is an edit (the move stack is
        cleared).

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.push_iccs("h9g7"); board.fullmove_number
        Move.from_iccs('h2e2')
        Move.from_iccs('h9g7')
        2
        >>> board.fullmove_number = 30; board.fen()
        'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 30'

        Raises:
            :class:`ValueError`: (setting) the number is outside 1 to 999,999,999.
        """
        return self._native_fullmove()

    @fullmove_number.setter
    def fullmove_number(self, number: int) -> None:
        """Set the fullmove number (an edit).

        Raises:
            :class:`ValueError`: the number is outside 1 to 999,999,999.
        """
        n = operator.index(number)
        if not 1 <= n <= _FULLMOVE_MAX:
            raise ValueError(f"fullmove_number must be 1-{_FULLMOVE_MAX}, not {number!r}")
        self._edit(f"{self._board_fen()} {'w' if self.turn else 'b'} - - {self.halfmove_clock} {n}")

    def ply(self) -> int:
        """The number of half-moves since the start of the game, from the fullmove number and the side to move
        (as python-chess counts): 0 at the starting position, 1 after Red's first move. ``len(move_stack)``
        counts the moves pushed on this board instead.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 10").ply(), len(BaseBoard().move_stack)
        (19, 0)
        """
        return 2 * (self._native_fullmove() - 1) + (not self._native_side())

    def piece_at(self, square: Square) -> Optional[Piece]:
        """The piece on ``square``, or ``None`` (also for a number outside 0–89).

        >>> BaseBoard().piece_at(4), BaseBoard().piece_at(40)
        (Piece.from_symbol('K'), None)
        """
        code = self._native_code_at(square) if 0 <= square < 90 else 0
        return Piece(code & 7, bool(code >> 3)) if code else None

    def piece_codes(self) -> bytes:
        """The 90 C piece codes (``color << 3 | type``, 0 = empty), square 0 first.

        >>> codes = BaseBoard().piece_codes(); len(codes), codes[0] == Piece.from_symbol("R").code
        (90, True)
        """
        return self._native_codes()

    def piece_map(self, *, mask: Bitboard = BB_ALL) -> Dict[Square, Piece]:
        """A dict of every occupied square (of ``mask``, an int bitboard or :class:`SquareSet`, as in
        python-chess) to its piece; :meth:`set_piece_map` reads it back.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/9/4K4 w").piece_map()
        {4: Piece.from_symbol('K'), 85: Piece.from_symbol('k')}
        >>> BaseBoard().piece_map(mask=0b11)
        {0: Piece.from_symbol('R'), 1: Piece.from_symbol('N')}
        """
        codes = self.piece_codes()
        m = int(mask)
        if m & BB_ALL == BB_ALL:
            return {sq: Piece(c & 7, bool(c >> 3)) for sq, c in enumerate(codes) if c}
        return {sq: Piece(c & 7, bool(c >> 3)) for sq, c in enumerate(codes) if c and m >> sq & 1}

    def piece_type_at(self, square: Square) -> Optional[PieceType]:
        """The type of the piece on ``square`` (:data:`~xiangqi.core.PAWN` … :data:`~xiangqi.core.KING`), or
        ``None`` for an empty square (python-chess's ``piece_type_at``).

        >>> from xiangqi import E0, E4, KING
        >>> BaseBoard().piece_type_at(E0) == KING, BaseBoard().piece_type_at(E4)
        (True, None)

        Raises:
            :class:`ValueError`: ``square`` is not an int 0–89.
        """
        code = self._native_code_at(_square_index(square))
        return code & 7 if code else None

    def color_at(self, square: Square) -> Optional[Color]:
        """The colour of the piece on ``square``, or ``None`` for an empty square (python-chess's ``color_at``).

        >>> from xiangqi import A0, A9, E4
        >>> BaseBoard().color_at(A0), BaseBoard().color_at(A9), BaseBoard().color_at(E4)
        (True, False, None)

        Raises:
            :class:`ValueError`: ``square`` is not an int 0–89.
        """
        code = self._native_code_at(_square_index(square))
        return bool(code >> 3) if code else None

    @property
    def occupied(self) -> Bitboard:
        """The occupied squares, an int bitboard (python-chess's ``occupied``; read-only here: edit with
        :meth:`set_piece_at`).

        >>> bin(BaseBoard().occupied).count("1")
        32
        """
        return int(self.piece_codes().translate(_OCCUPIED)[::-1], 2)

    @property
    def occupied_co(self) -> "List[Bitboard]":
        """The squares of each colour's pieces, indexed by colour: ``occupied_co[RED]`` (python-chess's
        ``occupied_co``; a new list each time, so assigning into it changes nothing).

        >>> board = BaseBoard()
        >>> board.occupied_co[RED] | board.occupied_co[BLACK] == board.occupied, board.occupied_co[RED] & 1
        (True, 1)
        """
        codes = self.piece_codes()
        return [int(codes.translate(_OCCUPIED_BY[0])[::-1], 2), int(codes.translate(_OCCUPIED_BY[1])[::-1], 2)]

    def pieces_mask(self, piece_type: int, color: Color) -> int:
        """The squares of the pieces of one type and colour, as an int bitboard.

        >>> from xiangqi import CANNON
        >>> BaseBoard().pieces_mask(CANNON, RED) == 1 << 19 | 1 << 25
        True

        Raises:
            :class:`ValueError`: ``piece_type`` is not 1–7, or ``color`` is not ``RED``/``BLACK``.
        """
        if piece_type not in _MAX_COUNT:
            raise ValueError(f"piece type must be 1-7 (PAWN … KING), not {piece_type!r}")
        return self._native_pieces(_color_index(color), piece_type)

    def pieces(self, piece_type: int, color: Color) -> SquareSet:
        """The squares of the pieces of one type and colour.

        >>> from xiangqi import CANNON
        >>> list(BaseBoard().pieces(CANNON, BLACK))  # b7, h7
        [64, 70]

        Raises:
            :class:`ValueError`: as :meth:`pieces_mask`.
        """
        return SquareSet(self.pieces_mask(piece_type, color))

    def king(self, color: Color) -> Optional[Square]:
        """The square of ``color``'s king, or ``None`` if it has none (a position being set up).

        >>> BaseBoard().king(RED), BaseBoard().king(BLACK), BaseBoard(None).king(RED)
        (4, 85, None)

        Raises:
            :class:`ValueError`: ``color`` is not ``RED``/``BLACK``.
        """
        sq = self._native_king(_color_index(color))
        return None if sq == _NO_KING else sq

    def _require_kings(self, what: str) -> None:
        """Raise :class:`InvalidFenError` naming the missing kings, if a side has none: ``what`` needs both."""
        missing = [side for side, color in (("red", RED), ("black", BLACK)) if self.king(color) is None]
        if missing:
            fen = self.fen()
            raise InvalidFenError(f"{what} needs both kings: {' and '.join(f'no {m} king' for m in missing)} "
                                  f"in {_preview(fen)!r}", fen=fen, offset=-1)

    def zobrist_hash(self) -> int:
        """The 64-bit Zobrist key of the position (side to move included).

        >>> a, b = BaseBoard(), BaseBoard()
        >>> a.push_iccs("h2e2"); a.pop(); a.zobrist_hash() == b.zobrist_hash()
        Move.from_iccs('h2e2')
        Move.from_iccs('h2e2')
        True
        """
        return self._native_key()

    # ---------------------------------------------------------------- moves

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves (iterable; ``len()`` and ``in`` run in C), a live :class:`LegalMoveGenerator`.

        >>> board = BaseBoard()
        >>> len(board.legal_moves), Move.from_iccs("h2e2") in board.legal_moves
        (44, True)
        """
        return LegalMoveGenerator(self)

    @property
    def pseudo_legal_moves(self) -> PseudoLegalMoveGenerator:
        """Moves by the piece rules alone, ignoring the own king's safety (a :class:`PseudoLegalMoveGenerator`).

        >>> len(BaseBoard().pseudo_legal_moves)
        44
        """
        return PseudoLegalMoveGenerator(self)

    def legal_move_codes(self) -> List[int]:
        """The legal moves as 16-bit codes (fastest form; :meth:`Move.from_code` reads one).

        >>> codes = BaseBoard().legal_move_codes(); len(codes), Move.from_iccs("h2e2").code in codes
        (44, True)
        """
        return self._native_legal_codes()

    def generate_legal_moves(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The legal moves from a square of ``from_mask`` to one of ``to_mask`` (int bitboards or
        :class:`SquareSet`), as python-chess's ``generate_legal_moves``.

        >>> from xiangqi import BB_SQUARES, H2
        >>> [m.iccs() for m in BaseBoard().generate_legal_moves(BB_SQUARES[H2], BB_SQUARES[H2 - 3])]
        ['h2e2']
        """
        return self._filtered(self.legal_move_codes(), from_mask, to_mask)

    def generate_pseudo_legal_moves(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """:attr:`pseudo_legal_moves` from ``from_mask`` to ``to_mask``, as :meth:`generate_legal_moves`.

        >>> board = BaseBoard("4k4/9/9/9/9/9/9/9/4r4/4K4 w")
        >>> sorted(m.iccs() for m in board.generate_pseudo_legal_moves(to_mask=1 << 13))
        ['e0e1']
        """
        return self._filtered(self.pseudo_legal_moves._codes(), from_mask, to_mask)

    def generate_legal_captures(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The legal captures from ``from_mask`` to ``to_mask`` (python-chess's ``generate_legal_captures``).

        >>> [m.iccs() for m in BaseBoard().generate_legal_captures()]
        ['b2b9', 'h2h9']
        """
        return self.generate_legal_moves(from_mask, int(to_mask) & self.occupied_co[not self.turn])

    def generate_pseudo_legal_captures(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The pseudo-legal captures from ``from_mask`` to ``to_mask`` (python-chess's
        ``generate_pseudo_legal_captures``).

        >>> [m.iccs() for m in BaseBoard().generate_pseudo_legal_captures()]
        ['b2b9', 'h2h9']
        """
        return self.generate_pseudo_legal_moves(from_mask, int(to_mask) & self.occupied_co[not self.turn])

    def is_into_check(self, move: Move) -> bool:
        """Whether the pseudo-legal ``move`` would leave the mover's king attacked (facing the other king
        included), as python-chess's ``is_into_check``; ``False`` for a move that is not pseudo-legal.

        >>> board = BaseBoard("4k4/9/9/9/9/9/9/9/4R4/4K4 w")  # the rook on e1 shields the king from the other
        >>> board.is_into_check(Move.from_iccs("e1d1")), board.is_into_check(Move.from_iccs("e1e5"))
        (True, False)

        Raises:
            :class:`TypeError`: ``move`` is not a :class:`Move`.
        """
        code = _move_code(move)
        return self._native_is_pseudo_legal(code) and not self._native_is_legal(code)

    def _filtered(self, codes: List[int], from_mask: Bitboard, to_mask: Bitboard) -> Iterator[Move]:
        f, t = int(from_mask), int(to_mask)
        if f & BB_ALL == BB_ALL and t & BB_ALL == BB_ALL:
            return iter_moves(codes)
        return iter_moves([c for c in codes if f >> (c >> 7) & 1 and t >> (c & 127) & 1])

    def find_move(self, from_square: Square, to_square: Square) -> Move:
        """The legal move from ``from_square`` to ``to_square`` (python-chess's ``find_move``; xiangqi has no
        promotion to choose).

        >>> from xiangqi import H2, E2
        >>> BaseBoard().find_move(H2, E2)
        Move.from_iccs('h2e2')

        Raises:
            :class:`IllegalMoveError`: no legal move goes from ``from_square`` to ``to_square`` (the message says
                why).
            :class:`ValueError`: a square is not an int 0–89.
        """
        if _square_index(from_square) == _square_index(to_square):
            raise IllegalMoveError(f"no matching legal move for {SQUARE_NAMES[from_square] * 2}: "
                                   f"{SAME_SQUARE_REASON}")
        move = Move(from_square, to_square)
        if not self.is_legal(move):
            raise IllegalMoveError(f"no matching legal move for {move.iccs()} ({SQUARE_NAMES[from_square]} -> "
                                   f"{SQUARE_NAMES[to_square]}) in {self.fen()}: {self.illegal_reason(move)}")
        return move

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here.

        >>> BaseBoard().is_legal(Move.from_iccs("h2e2")), BaseBoard().is_legal(Move.from_iccs("a0a5"))
        (True, False)

        Raises:
            :class:`TypeError`: ``move`` is not a :class:`Move` (text goes through :meth:`parse_iccs`).
        """
        try:
            code = move.code
        except AttributeError:
            raise TypeError(f"expected a Move, not {type(move).__name__} (use parse_move for text)") from None
        return self._native_is_legal(code)

    def is_pseudo_legal(self, move: Move) -> bool:
        """Whether ``move`` obeys the piece rules (the own king may be left attacked).

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/4r4/4K4 w").is_pseudo_legal(Move.from_iccs("e0e1"))
        True

        Raises:
            :class:`TypeError`: ``move`` is not a :class:`Move`.
        """
        return self._native_is_pseudo_legal(_move_code(move))

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` captures an enemy piece.

        >>> BaseBoard().is_capture(Move.from_iccs("h2h9")), BaseBoard().is_capture(Move.from_iccs("h2e2"))
        (True, False)

        Raises:
            :class:`TypeError`: ``move`` is not a :class:`Move`.
        """
        code = self._native_code_at(_move_code(move) & 127)
        return bool(code) and bool(code >> 3) != self.turn

    def is_zeroing(self, move: Move) -> bool:
        """Whether ``move`` resets the halfmove clock: a capture (pawn moves do not, unlike in chess).

        >>> BaseBoard().is_zeroing(Move.from_iccs("h2h9")), BaseBoard().is_zeroing(Move.from_iccs("a3a4"))
        (True, False)

        Raises:
            :class:`TypeError`: ``move`` is not a :class:`Move`.
        """
        return self.is_capture(move)

    def is_irreversible(self, move: Move) -> bool:
        """Whether no later position can repeat one before ``move``: a capture or a pawn's step forward.

        >>> BaseBoard().is_irreversible(Move.from_iccs("a3a4")), BaseBoard().is_irreversible(Move.from_iccs("h2e2"))
        (True, False)

        Raises:
            :class:`TypeError`: ``move`` is not a :class:`Move`.
        """
        code = _move_code(move)
        if self.is_capture(move):
            return True
        piece = self._native_code_at(code >> 7) if code >> 7 < 90 else 0
        return piece & 7 == PAWN and (code & 127) // 9 != (code >> 7) // 9

    def gives_check(self, move: Move) -> bool:
        """Whether ``move`` (pseudo-legal) checks the opponent's king.

        >>> board = BaseBoard("3k5/9/9/9/9/9/9/9/4R4/4K4 w")
        >>> board.gives_check(Move.from_iccs("e1d1")), board.gives_check(Move.from_iccs("e1e2"))
        (True, False)

        Raises:
            :class:`TypeError`: ``move`` is not a :class:`Move`.
        """
        return self._native_gives_check(_move_code(move))

    def push(self, move: Move) -> None:
        """Play ``move``. Fast and only partly checked, as in python-chess.

        The move must be legal for the result to mean anything; a move from an
        empty square or the wrong side, or onto an own piece or a king, raises
        :class:`IllegalMoveError`. The null move (:meth:`Move.null`, ``0000``)
        passes the turn, for analysis. Use :meth:`push_iccs` or
        :meth:`is_legal` when the move comes from outside.

        >>> board = BaseBoard(); board.push(Move.from_iccs("h2e2")); board.turn == BLACK
        True

        Raises:
            :class:`IllegalMoveError`: the C core refuses the move (see above); the board is unchanged.
            :class:`ConcurrentUseError`: another thread changed the move stack during the call.
            :class:`TypeError`: ``move`` is not a :class:`Move` (text goes through :meth:`push_iccs`).
        """
        try:
            code = move.from_square << 7 | move.to_square
        except AttributeError:  # costs nothing until it happens
            raise TypeError(f"expected a Move, not {type(move).__name__} (use push_move for text)") from None
        stack = self.move_stack
        n = len(stack)
        st = self._native_push(code, n)
        if st:
            raise IllegalMoveError(f"cannot push {move.iccs()!r} in {self.fen()}: {_ffi.status_str(st)}")
        stack.append(move)
        if len(stack) != n + 1:
            raise _concurrent_use("push")

    def push_code(self, code: int) -> None:
        """:meth:`push` for a 16-bit move code (same checks).

        >>> board = BaseBoard(); board.push_code(Move.from_iccs("h2e2").code); board.peek()
        Move.from_iccs('h2e2')

        Raises:
            :class:`InvalidMoveError`: ``code`` is not ``from << 7 | to`` of two different squares 0–89.
            :class:`IllegalMoveError`: as :meth:`push`.
        """
        if not (0 < code < 1 << 14 and code >> 7 < 90 and code & 127 < 90):
            raise InvalidMoveError(f"not a move code: {code!r} (expected from << 7 | to with squares 0-89) "
                                   f"in {self.fen()}")
        if code >> 7 == code & 127:
            raise InvalidMoveError(same_square_message(SQUARE_NAMES[code & 127] * 2))
        st = self._native_do_move(code, len(self.move_stack))
        if st:
            raise IllegalMoveError(f"cannot push {Move.from_code(code).iccs()!r} in {self.fen()}: {_ffi.status_str(st)}")
        self.move_stack.append(Move(code >> 7, code & 127))

    def push_codes(self, codes: "Sequence[int]", *, check_legal: bool = True) -> None:
        """Play many 16-bit move codes in one C call (a game's main line, a search path).

        With ``check_legal`` (the default) every move must be legal; otherwise
        only :meth:`push`'s checks apply. At the first refused move this
        raises naming it and its ply; the moves before it stay played.

        >>> board = BaseBoard()
        >>> board.push_codes([Move.from_iccs(t).code for t in ("h2e2", "h9g7")]); board.move_stack
        [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')]

        Raises:
            :class:`IllegalMoveError`: a move is refused (not legal, with ``check_legal``).
            :class:`InvalidMoveError`: a code is not an int 0–65535, or a move between one square and itself.
        """
        n = len(codes)
        if not n:
            return
        start = len(self.move_stack)
        try:
            played = self._native_play_codes(codes, start, check_legal)
        except (OverflowError, TypeError) as exc:
            raise InvalidMoveError(f"move codes must be ints 0-65535: {exc}") from None
        self.move_stack.extend(Move.from_code(int(c)) for c in codes[:played])
        if played < n:
            code = int(codes[played])
            if code and code >> 7 == code & 127 and code >> 7 < 90:
                raise InvalidMoveError(f"move {played + 1} of {n} (ply {start + played}): "
                                       + same_square_message(SQUARE_NAMES[code & 127] * 2))
            text = Move.from_code(code).iccs() if code >> 7 < 90 and code & 127 < 90 else str(code)
            raise IllegalMoveError(f"move {played + 1} of {n} ({text!r}, ply {start + played}) refused in "
                                   f"{self.fen()}")

    def pop(self) -> Move:
        """Take back the last move and return it.

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.pop(), board.fen() == STARTING_FEN
        Move.from_iccs('h2e2')
        (Move.from_iccs('h2e2'), True)

        Raises:
            :class:`IndexError`: the move stack is empty.
            :class:`ConcurrentUseError`: another thread changed the board during the call.
        """
        stack = self.move_stack
        move = stack.pop()
        # The C side checks that the undo record is this move's: a stack another thread changed meanwhile fails.
        if self._native_pop(move.from_square << 7 | move.to_square, len(stack)):
            raise _concurrent_use("pop")
        return move

    def peek(self) -> Move:
        """The last move played.

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.peek()
        Move.from_iccs('h2e2')
        Move.from_iccs('h2e2')

        Raises:
            :class:`IndexError`: the move stack is empty.
        """
        return self.move_stack[-1]

    def parse_iccs(self, text: str, *, one_based: bool = False) -> Move:
        """Parse a coordinate move (``h2e2``, ``H2-E2``) and check it is legal here.

        ``one_based=True`` reads Fairy-Stockfish/pyffish's ranks 1–10 (``h3e3``,
        ``a10a9``); it is never guessed. ``0000`` is the null move. ``parse_uci`` is the same method.

        >>> BaseBoard().parse_iccs("H2-E2"), BaseBoard().parse_uci("h3e3", one_based=True)
        (Move.from_iccs('h2e2'), Move.from_iccs('h2e2'))

        Raises:
            :class:`InvalidMoveError`: ``text`` is no coordinate move.
            :class:`IllegalMoveError`: the move is not legal here (the message says why).
            :class:`TypeError`: ``text`` is not a :class:`str`.
        """
        move = parse_coordinates(text, one_based=one_based)
        if not move:
            return move  # "0000": the null move, as python-chess reads it
        if not self._native_is_legal(move.code):
            raise IllegalMoveError(f"illegal ICCS move {text!r} in {self.fen()}: {self.illegal_reason(move)}")
        return move

    def illegal_reason(self, move: Move) -> str:
        """Why ``move`` is not legal here, in one phrase (or ``'legal'``), in the words every parser and record
        reader of this library uses (:func:`xiangqi.notation.illegal_reason`).

        >>> BaseBoard().illegal_reason(Move.from_iccs("a0a5"))
        'the Red rook on a0 is blocked by the piece on a3'

        Raises:
            :class:`TypeError`: ``move`` is not a :class:`Move`.
        """
        _move_code(move)
        if not move:
            return "the null move passes the turn (it is not a legal move)"
        if move.from_square < 90 and move.to_square < 90 and self.is_legal(move):
            return "legal"
        return why_illegal(self.piece_codes(), bool(self.turn), move.from_square, move.to_square)

    parse_uci = parse_iccs

    def push_iccs(self, text: str, *, one_based: bool = False) -> Move:
        """Parse a coordinate move, check it, play it and return it (``push_uci`` is the same method).

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.push_uci("h9g7"); len(board.move_stack)
        Move.from_iccs('h2e2')
        Move.from_iccs('h9g7')
        2

        Raises:
            :class:`InvalidMoveError` or :class:`IllegalMoveError`: as :meth:`parse_iccs`; the board is unchanged.
        """
        move = self.parse_iccs(text, one_based=one_based)
        self.push(move)
        return move

    push_uci = push_iccs

    # --------------------------------------------------------------- status

    def is_check(self) -> bool:
        """Whether the side to move is in check.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/4r4/4K4 w").is_check(), BaseBoard().is_check()
        (True, False)
        """
        return self._native_in_check()

    def checkers_mask(self) -> int:
        """The pieces giving check, as an int bitboard.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/4r4/4K4 w").checkers_mask() == 1 << 13
        True
        """
        return self._native_checkers()

    def checkers(self) -> SquareSet:
        """The pieces giving check.

        >>> list(BaseBoard("4k4/9/9/9/9/9/9/9/4r4/4K4 w").checkers())  # the rook on e1
        [13]
        """
        return SquareSet(self.checkers_mask())

    def attackers_mask(self, color: Color, square: Square) -> int:
        """The pieces of ``color`` attacking ``square``, as an int bitboard.

        >>> BaseBoard().attackers_mask(RED, 3) == 1 << 4  # d0: the king on e0
        True

        Raises:
            :class:`ValueError`: ``square`` is outside 0–89, or ``color`` is not ``RED``/``BLACK``.
        """
        if not 0 <= square < 90:
            raise ValueError(f"square out of range: {square!r} (expected 0-89)")
        return self._native_attackers(square, _color_index(color))

    def attackers(self, color: Color, square: Square) -> SquareSet:
        """The pieces of ``color`` that attack ``square`` (could capture there, pins ignored).

        >>> list(BaseBoard().attackers(RED, 3))
        [4]

        Raises:
            :class:`ValueError`: as :meth:`attackers_mask`.
        """
        return SquareSet(self.attackers_mask(color, square))

    def attacks_mask(self, square: Square) -> int:
        """The squares the piece on ``square`` attacks (could capture on), as an int bitboard; 0 if empty.

        >>> BaseBoard().attacks_mask(1) == 1 << 18 | 1 << 20  # the horse on b0: a2 and c2
        True

        Raises:
            :class:`ValueError`: ``square`` is not an int 0–89.
        """
        sq = _square_index(square)
        code = self._native_code_at(sq)
        return self._native_attacks_from(sq, code >> 3) if code else 0

    def attacks(self, square: Square) -> SquareSet:
        """The squares the piece on ``square`` attacks (the same attacks :meth:`attackers` counts).

        >>> list(BaseBoard().attacks(1))
        [18, 20]

        Raises:
            :class:`ValueError`: as :meth:`attacks_mask`.
        """
        return SquareSet(self.attacks_mask(square))

    def _pinners(self, color: Color, square: Square) -> int:
        """Enemy pieces that attack ``color``'s king once the piece on ``square`` is gone but not before."""
        sq = _square_index(square)
        code = self._native_code_at(sq)
        if not code or bool(code >> 3) != bool(_color_index(color)) or code & 7 == KING:
            return 0
        ksq = self.king(color)
        if ksq is None:
            return 0  # no king to shield
        codes = bytearray(self.piece_codes())
        codes[sq] = 0
        return _attackers_in(codes, ksq, not color) & ~self.attackers_mask(not color, ksq)

    def is_pinned(self, color: Color, square: Square) -> bool:
        """Whether the piece of ``color`` on ``square`` shields its king: taken away, an enemy piece would attack
        the king (along a line, through a cannon screen, over a horse leg, or the other king). ``False`` for an
        empty square, a piece of the other colour or a king.

        >>> BaseBoard("4k4/9/9/9/4r4/9/9/9/4R4/4K4 w").is_pinned(RED, 13)  # the rook on e1
        True

        Raises:
            :class:`ValueError`: ``square`` is not an int 0–89, or ``color`` is not ``RED``/``BLACK``.
        """
        return bool(self._pinners(color, square))

    def pin_mask(self, color: Color, square: Square) -> int:
        """:meth:`pin` as an int bitboard.

        >>> BaseBoard().pin_mask(RED, 13) == BB_ALL
        True

        Raises:
            :class:`ValueError`: as :meth:`is_pinned`.
        """
        pinners = self._pinners(color, square)
        if not pinners:
            return BB_ALL
        ksq = self.king(color)
        assert ksq is not None  # a piece has pinners only if its king is there
        codes = self.piece_codes()
        piece, mask = codes[square], 1 << square
        for t in range(90):
            if t == square or codes[t] and (codes[t] >> 3 == piece >> 3 or codes[t] & 7 == KING):
                continue
            moved = bytearray(codes)
            moved[square], moved[t] = 0, piece
            if not _attackers_in(moved, ksq, not color) & pinners & ~(1 << t):
                mask |= 1 << t
        return mask

    def pin(self, color: Color, square: Square) -> SquareSet:
        """Where the pinned piece of ``color`` on ``square`` may stand and still shield its king (its own square
        included, capturing the pinner if it can); every square when it is not pinned (python-chess's
        convention). Only the shield is considered: which of these squares the piece can reach is
        :attr:`legal_moves`'s business.

        >>> list(BaseBoard("4k4/9/9/9/4r4/9/9/9/4R4/4K4 w").pin(RED, 13))  # e1 to e5, the pinner's square
        [13, 22, 31, 40, 49]

        Raises:
            :class:`ValueError`: as :meth:`is_pinned`.
        """
        return SquareSet(self.pin_mask(color, square))

    def was_into_check(self) -> bool:
        """Whether the side that just moved left its own king attacked (the position is then not reachable by
        legal play).

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/9/4K4 w").was_into_check()  # kings facing: Black's king is attacked
        True
        """
        ksq = self.king(not self.turn)
        return ksq is not None and self.is_attacked_by(self.turn, ksq)

    def is_attacked_by(self, color: Color, square: Square) -> bool:
        """Whether any piece of ``color`` attacks ``square``.

        >>> BaseBoard().is_attacked_by(BLACK, 1), BaseBoard().is_attacked_by(BLACK, 40)  # b0 (cannon over b2), e4
        (True, False)

        Raises:
            :class:`ValueError`: as :meth:`attackers_mask`.
        """
        return self.attackers_mask(color, square) != 0

    def attack_map(self, color: Color) -> "npt.NDArray[np.uint8]":
        """Attacker counts of ``color`` per square: a ``(10, 9)`` uint8 array, rank 9 first (as a diagram reads).

        >>> counts = BaseBoard().attack_map(RED); counts.shape, int(counts[8, 4])  # e1: the king and both advisors
        ((10, 9), 3)

        Raises:
            :class:`ValueError`: ``color`` is not ``RED``/``BLACK``.
        """
        import numpy as np

        out = np.zeros(90, dtype=np.uint8)
        self._native_attack_counts(_color_index(color), out)
        return np.ascontiguousarray(out.reshape(10, 9)[::-1])

    def is_checkmate(self) -> bool:
        """In check with no legal move.

        >>> BaseBoard("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b").is_checkmate()
        True
        """
        return self.is_check() and self._native_count_legal() == 0

    def is_stalemate(self) -> bool:
        """Not in check and no legal move (困毙): a loss for the side to move in xiangqi.

        >>> BaseBoard("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b").is_stalemate()
        True
        """
        return not self.is_check() and self._native_count_legal() == 0

    def has_insufficient_material(self, color: Color) -> bool:
        """Whether ``color`` has nothing left to attack with: no rook, horse, cannon or pawn (its advisors and
        elephants never cross the river). As python-chess's, ``True`` means that side can no longer win by
        checkmate; it can still lose, and win by the other side's stalemate or a repetition ruling.

        >>> board = BaseBoard("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w")
        >>> board.has_insufficient_material(RED), BaseBoard().has_insufficient_material(RED)
        (True, False)

        Raises:
            :class:`ValueError`: ``color`` is not ``RED``/``BLACK``.
        """
        side = _color_index(color) << 3
        codes = self.piece_codes()
        return not any(side | t in codes for t in (PAWN, HORSE, CANNON, ROOK))

    def is_insufficient_material(self) -> bool:
        """Whether neither side has a rook, horse, cannon or pawn left (:meth:`has_insufficient_material`).

        >>> BaseBoard("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w").is_insufficient_material()
        True
        """
        return self.has_insufficient_material(RED) and self.has_insufficient_material(BLACK)

    def status(self) -> Status:
        """Soft validity problems of the position (the C core rejects only what breaks it), a :class:`Status`.

        >>> BaseBoard("4k4/9/9/9/9/9/9/9/9/K8 w").status()
        <Status.KING_OUTSIDE_PALACE: 1>
        """
        st = Status.VALID
        codes = self.piece_codes()
        for sq, code in enumerate(codes):
            if not code:
                continue
            t, c = code & 7, bool(code >> 3)
            region = _REGIONS.get((t, c))
            if region is not None and sq not in region:
                st |= {KING: Status.KING_OUTSIDE_PALACE, ADVISOR: Status.ADVISOR_OUTSIDE_REGION,
                       ELEPHANT: Status.ELEPHANT_OUTSIDE_REGION}[t]
            if t == PAWN and not _pawn_square_possible(sq, c):
                st |= Status.PAWN_ON_IMPOSSIBLE_SQUARE
        for code in set(codes) - {0}:
            if codes.count(code) > _MAX_COUNT[code & 7]:
                st |= Status.TOO_MANY_RED_PIECES if code >> 3 else Status.TOO_MANY_BLACK_PIECES
        rk, bk = self.king(RED), self.king(BLACK)
        if rk is None:
            st |= Status.NO_RED_KING
        if bk is None:
            st |= Status.NO_BLACK_KING
        if rk is not None and bk is not None and square_file(rk) == square_file(bk):
            if all(codes[s] == 0 for s in range(rk + 9, bk, 9)):
                st |= Status.KINGS_FACING
        if self._native_opposite_in_check():
            st |= Status.OPPOSITE_CHECK
        return st

    def is_valid(self) -> bool:
        """Whether :meth:`status` is ``VALID``.

        >>> BaseBoard().is_valid(), BaseBoard("4k4/9/9/9/9/9/9/9/9/K8 w").is_valid()
        (True, False)
        """
        return self.status() == Status.VALID

    # ---------------------------------------------------------------- perft

    def perft(self, depth: int, *, bulk: bool = True, hash_mb: float = 0) -> int:
        """Count the leaf nodes of the legal move tree to ``depth`` (0 to :data:`MAX_PERFT_DEPTH`, in C);
        ``bulk=False`` visits every leaf. ``hash_mb`` > 0 keeps the count of every subtree in a transposition
        table of that many MiB (keyed by the full Zobrist key and the depth, so exact): a position reached again
        is counted once, which makes deep counts several times faster. From depth 5 (seconds and more) the count
        runs in a worker thread, so that Ctrl-C (:class:`KeyboardInterrupt`) stops it within a fraction of a second.

        >>> BaseBoard().perft(2), BaseBoard().perft(2, bulk=False), BaseBoard().perft(4, hash_mb=1)
        (1920, 1920, 3290240)

        Raises:
            :class:`ValueError`: ``depth`` is outside 0 to :data:`MAX_PERFT_DEPTH` (:func:`check_depth`),
                ``hash_mb`` is negative or too small for one table entry, or is given with ``bulk=False``.
            :class:`TypeError`: ``depth`` is not an integer.
        """
        d = check_depth(depth)
        table = perft_table(hash_mb, bulk) if hash_mb else None
        if d < INTERRUPTIBLE_DEPTH:
            if table is None:
                return native_perft(self, d, bulk)
            return perft_after(self, (), d, bulk, None, table)
        return sum(count_by_root_move(self, self.legal_move_codes(), d, bulk, 1, None, table))

    # ----------------------------------------------------------------- misc

    def copy(self: _B, *, stack: "bool | int" = True) -> _B:
        """A copy of the board (of the same class) with its move history: all of it (``stack=True``), none
        (``False``) or the last ``stack`` moves (an int, as python-chess's ``copy(stack=N)``; the copy's
        :attr:`starting_fen` is then the position before them).

        ``copy.copy`` and ``copy.deepcopy`` give the same full copy (moves are immutable, so they are shared).

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.push_iccs("h9g7")
        Move.from_iccs('h2e2')
        Move.from_iccs('h9g7')
        >>> board.copy().move_stack, board.copy(stack=False).move_stack, board.copy(stack=1).move_stack
        ([Move.from_iccs('h2e2'), Move.from_iccs('h9g7')], [], [Move.from_iccs('h9g7')])

        Raises:
            :class:`ValueError`: ``stack`` is a negative int.
        """
        if stack is True or stack is False:
            b = type(self).__new__(type(self))
            b._alloc(64)
            b._native_copy_from(self, len(self.move_stack) if stack else 0)
            if stack:
                b.move_stack = list(self.move_stack)
                b._start_fen = self._start_fen
            else:
                b._start_fen = self.fen()
            return b
        keep = operator.index(stack)
        if keep < 0:
            raise ValueError(f"stack must be True, False or a number of moves >= 0, not {stack!r}")
        if keep >= len(self.move_stack):
            return self.copy()
        moves = self.move_stack[len(self.move_stack) - keep:]
        earlier = self.copy()
        for _ in moves:
            earlier.pop()
        b = earlier.copy(stack=False)
        for m in moves:
            b.push(m)
        return b

    def clear_stack(self) -> None:
        """Forget the move history: the current position becomes the :attr:`starting_fen` (python-chess's
        ``clear_stack``).

        >>> board = BaseBoard(); board.push_iccs("h2e2"); board.clear_stack(); board.move_stack, board.turn
        Move.from_iccs('h2e2')
        ([], False)
        """
        self._edit(self.fen())

    def __copy__(self: _B) -> _B:
        return self.copy()

    def __deepcopy__(self: _B, memo: Dict[int, object]) -> _B:
        return self.copy()

    def __getstate__(self) -> Dict[str, object]:
        """What pickle keeps: the starting FEN and the move codes, replayed on load (not the C structs, whose
        layout is the build's)."""
        return {"fen": self._start_fen, "moves": [m.from_square << 7 | m.to_square for m in self.move_stack]}

    def __setstate__(self, state: Dict[str, object]) -> None:
        fen, moves = state["fen"], state["moves"]
        if not isinstance(fen, str) or not isinstance(moves, list):
            raise TypeError("not a pickled Board: expected a FEN str and a list of move codes")
        self._alloc(64)
        self._edit(fen)
        codes: List[int] = moves
        start = 0
        # Play back as push did: no legality check, null moves (code 0) pass the turn.
        while start < len(codes):
            try:
                stop = codes.index(0, start)
            except ValueError:
                stop = len(codes)
            self.push_codes(codes[start:stop], check_legal=False)
            if stop < len(codes):
                self.push(Move.null())
            start = stop + 1

    def key_history(self) -> List[int]:
        """Zobrist keys of every position from the starting FEN to now (``len(move_stack) + 1`` keys).

        >>> board = BaseBoard(); board.push_iccs("h2e2"); keys = board.key_history()
        Move.from_iccs('h2e2')
        >>> len(keys), keys[0] == BaseBoard().zobrist_hash(), keys[-1] == board.zobrist_hash()
        (2, True, True)
        """
        keys = self._native_keys(len(self.move_stack))
        keys.append(self.zobrist_hash())
        return keys

    def captured_history(self) -> bytes:
        """Per ply, the C code of the piece captured by that move (0 if none).

        >>> board = BaseBoard()
        >>> for text in ("h2e2", "h7e7", "e2e6"): _ = board.push_iccs(text)
        >>> board.captured_history()  # the last move took a black pawn (code 1)
        b'\\x00\\x00\\x01'
        """
        return self._native_captured(len(self.move_stack))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseBoard):
            return NotImplemented
        return self.fen() == other.fen()

    __hash__ = None  # type: ignore[assignment]



def _concurrent_use(what: str) -> ConcurrentUseError:
    return ConcurrentUseError(
        f"Board.{what}: the move stack changed during the call: the board is being used from two threads at once "
        "(a Board is not thread-safe; give each thread its own copy()). Its position and history are no longer "
        "consistent; discard it.")


def _move_code(move: object) -> int:
    try:
        return int(move.from_square << 7 | move.to_square)  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError(f"expected a Move, not {type(move).__name__} (use parse_move for text)") from None


def _attackers_in(codes: "bytes | bytearray", square: Square, color: Color) -> int:
    """Pieces of ``color`` attacking ``square`` on a board of piece codes (side to move Red; it does not
    matter for attacks)."""
    return attackers_on_placement(f"{_placement(codes)} w".encode("ascii"), square, _color_index(color))


def _square_index(square: object) -> int:
    if isinstance(square, int) and not isinstance(square, bool) and 0 <= square < 90:
        return square
    raise ValueError(f"square must be an int 0-89 (a0-i9), not {square!r}")


def _placement(codes: "bytes | bytearray") -> str:
    """The FEN placement field of 90 piece codes (square 0 = a0 first)."""
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for c in codes[r * 9:r * 9 + 9]:
            if c:
                if empty:
                    row += str(empty)
                    empty = 0
                row += Piece.from_code(c).symbol()
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


_RANK_MIRROR = [square_mirror(s) for s in range(90)]
# bytes.translate tables from piece codes to the digits of a bitboard (square 89 first once reversed).
_OCCUPIED = bytes([48] + [49] * 255)
_OCCUPIED_BY = [bytes(49 if c and c >> 3 == side else 48 for c in range(256)) for side in (0, 1)]


def _mapped(codes: bytes, image: List[int], swap_colors: bool) -> bytearray:
    out = bytearray(90)
    for s, c in enumerate(codes):
        if c:
            out[image[s]] = c ^ 8 if swap_colors else c
    return out


def _color_index(color: object) -> int:
    if color is True or color is False or color == 0 or color == 1:
        return int(color)
    raise ValueError(f"colour must be RED (True) or BLACK (False), not {color!r}")


#: Called after each root move's subtree is counted: (root moves done, root moves in all, nodes so far).
RootProgress = Callable[[int, int, int], None]
#: From this depth perft runs in worker threads, so the calling thread stays free to take Ctrl-C.
INTERRUPTIBLE_DEPTH = 5


#: With threads, a root with fewer moves than this many per thread is split one ply deeper (one task per reply to
#: each root move), so that the threads stay busy to the end.
_SPLIT_BELOW = 8


def perft_table(hash_mb: float, bulk: bool = True) -> Optional[PerftTable]:
    """A hashed perft's table of ``hash_mb`` MiB, None for 0 (no table); ValueError for a size below one entry
    or below 0, or a table with ``bulk=False`` (the hashed perft bulk-counts)."""
    if hash_mb == 0:
        return None
    if not hash_mb > 0:
        raise ValueError(f"hash_mb must be >= 0, not {hash_mb}")
    if not bulk:
        raise ValueError("a hashed perft counts the last ply in bulk: hash_mb needs bulk=True")
    return PerftTable(int(hash_mb * 2**20))


def count_by_root_move(board: "BaseBoard", codes: List[int], depth: int, bulk: bool, threads: int,
                        on_root_move: Optional[RootProgress], table: Optional[PerftTable] = None,
                        verify_every: int = 0) -> List[int]:
    """The node count under each root move, counted in ``threads`` worker threads that a Ctrl-C stops
    (:func:`xiangqi._ffi.run_stoppable`; :meth:`BaseBoard.perft`, :func:`xiangqi.perft.perft`), with ``table``
    (if any) shared by the threads. With few root moves for the threads, each reply is a task of its own."""
    stop = _ffi.new_stop_flag()
    paths: List[Sequence[int]] = [(c,) for c in codes]
    if threads > 1 and depth >= 3 and len(codes) < _SPLIT_BELOW * threads:
        paths = [(c, r) for c in codes for r in legal_codes_after(board, c)]
    counts = [0] * len(codes)
    left = {c: 0 for c in codes}
    for path in paths:
        left[path[0]] += 1
    index = {c: i for i, c in enumerate(codes)}
    done_roots = [0, 0]  # root moves done, nodes so far

    def root_done() -> None:
        done_roots[0] += 1
        if on_root_move is not None:
            on_root_move(done_roots[0], len(codes), done_roots[1])

    for c in codes:
        if not left[c]:  # a root move after which the opponent has no move: 0 below it
            root_done()

    def done(i: int, nodes: int) -> None:
        root = paths[i][0]
        counts[index[root]] += nodes
        done_roots[1] += nodes
        left[root] -= 1
        if not left[root]:
            root_done()

    calls = [functools.partial(perft_after, board, path, depth - len(path), bulk, stop, table, verify_every)
             for path in paths]
    _ffi.run_stoppable(calls, threads, stop, done)
    return counts


#: The deepest perft any entry point counts (:meth:`BaseBoard.perft`, :func:`xiangqi.perft`, :func:`xiangqi.batch.perft`,
#: ``xiangqi perft``): far beyond what finishes (depth 10 from the start is about 10**16 leaves), and a bound on the
#: C recursion.
MAX_PERFT_DEPTH = 64


def check_depth(depth: object) -> int:
    """``depth`` as a perft depth (an int from 0 to :data:`MAX_PERFT_DEPTH`), or a clear error: the one check of
    every perft entry point, so that they accept the same depths and say the same when they do not.

    >>> check_depth(3)
    3

    Raises:
        :class:`ValueError`: ``depth`` is outside 0 to :data:`MAX_PERFT_DEPTH`.
        :class:`TypeError`: ``depth`` is not an integer (``3.0`` is refused).
    """
    d = operator.index(depth)  # type: ignore[arg-type]
    if not 0 <= d <= MAX_PERFT_DEPTH:
        raise ValueError(f"depth must be between 0 and {MAX_PERFT_DEPTH}, not {d}")
    return d


def parse_coordinates(text: str, *, one_based: bool = False) -> Move:
    """Read ``h2e2`` / ``H2-E2`` (ranks 0–9) or, with ``one_based``, ``h3e3`` / ``a10a9`` (ranks 1–10).

    Only the text is read: the move need not be legal anywhere (:meth:`BaseBoard.parse_iccs` checks it).

    >>> parse_coordinates("h2e2"), parse_coordinates("a10a9", one_based=True)
    (Move.from_iccs('h2e2'), Move.from_iccs('a9a8'))

    Raises:
        :class:`InvalidMoveError`: ``text`` is not a coordinate move of that kind, or one between a square and
            itself (``a0a0``, 1-based ``a1a1``); ``0000`` and ``--`` are the null move in both.
        :class:`TypeError`: ``text`` is not a :class:`str`.
    """
    if not one_based:
        return Move.from_iccs(text)
    if not isinstance(text, str):
        raise TypeError(f"move text must be a str, not {type(text).__name__}")
    s = text.strip().lower()
    if s in NULL_MOVE_TEXTS:
        return Move.null()
    s = s.replace("-", "")
    m = _ONE_BASED.fullmatch(s)
    if m is None:
        raise InvalidMoveError(f"invalid 1-based coordinate move {text!r}: expected e.g. 'h3e3' or 'a10a9'")
    r1, r2 = int(m.group(2)) - 1, int(m.group(4)) - 1
    if not (0 <= r1 <= 9 and 0 <= r2 <= 9):
        raise InvalidMoveError(f"invalid 1-based coordinate move {text!r}: ranks must be 1-10")
    src, dst = r1 * 9 + ord(m.group(1)) - 97, r2 * 9 + ord(m.group(3)) - 97
    if src == dst:  # a1a1 is not the null move (Move(0, 0) would be)
        raise InvalidMoveError(same_square_message(text))
    return Move(src, dst)


_ONE_BASED = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])")


def _pawn_square_possible(sq: Square, color: Color) -> bool:
    r, f = square_rank(sq), square_file(sq)
    if color == BLACK:
        r, f = 9 - r, 8 - f
    if r < 3:
        return False
    if r <= 4:
        return f % 2 == 0  # not yet over the river: still on its starting file
    return True


_MAX_COUNT = {1: 5, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1}


def _fen_error(fen: str, data: bytes, status: int, offset: int, *, edit: bool = False) -> InvalidFenError:
    shown = _preview(fen)
    if status == _ffi.E_FEN_SYNTAX:
        if offset < len(data):
            what = f"unexpected character {chr(data[offset])!r} at offset {offset}"
            board_part = data.split(b" ", 1)[0]
            if offset < len(board_part):
                rows = board_part[:offset].count(b"/")
                if data[offset:offset + 1] == b"/" or rows >= 9:
                    what += f" (row {rows + 1} of the board has the wrong number of squares or rows)"
        else:
            what = f"the board is incomplete at offset {offset} (expected 10 rows of 9 squares)"
        return InvalidFenError(f"invalid FEN: {what} in {shown!r}", fen=fen, offset=offset)
    if status == _ffi.E_FEN_POSITION:
        counts: Dict[str, int] = {}
        placement = fen.split()[0] if fen.split() else ""
        for ch in placement:
            if ch.isalpha():
                p = Piece.from_symbol(ch)
                key = f"{'red' if p.color else 'black'} {PIECE_NAMES[p.piece_type]}"
                counts[key] = counts.get(key, 0) + 1
        problems = []
        for side in ("red", "black"):
            k = counts.get(f"{side} king", 0)
            if k == 0:
                problems.append(f"no {side} king")
            elif k > 1:
                problems.append(f"{k} {side} kings")
            for t, cap in _MAX_COUNT.items():
                if t != 7 and counts.get(f"{side} {PIECE_NAMES[t]}", 0) > cap:
                    problems.append(f"{counts[f'{side} {PIECE_NAMES[t]}']} {side} {PIECE_NAMES[t]}s (at most {cap})")
        if edit:  # what an edit may not set up: a second king, or more pieces than a move list holds
            kings = [p for p in problems if p.endswith(" kings")]
            why = (f"{', '.join(kings)}: a side has at most one king" if kings else
                   f"so many pieces: one side's could have more than {_ffi.MAX_MOVES} moves")
            return InvalidFenError(f"cannot set up {why} (the board is unchanged) in {shown!r}", fen=fen, offset=-1)
        return InvalidFenError(f"invalid FEN: {', '.join(problems) or 'unusable position'} in {shown!r}",
                               fen=fen, offset=-1)
    return InvalidFenError(f"invalid FEN ({_ffi.status_str(status)}) in {shown!r}", fen=fen, offset=offset)

