"""The :class:`Board`: one C position plus the move stack, in python-chess's style."""

from __future__ import annotations

import enum
import operator
import re
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence

from xiangqi import _ffi
from xiangqi._ffi import ffi, lib
from xiangqi.core import (
    ADVISOR, BLACK, ELEPHANT, KING, PAWN, RED, STARTING_FEN, Color, Move, Piece, Square,
    SquareSet, square_file, square_rank,
)
from xiangqi.errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from xiangqi.outcome import Outcome, Termination
from xiangqi.rules import rule_set_name

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from xiangqi.rules import MoveFacts

__all__ = ["Board", "Status", "LegalMoveGenerator", "PseudoLegalMoveGenerator"]

_FEN_PREVIEW = 80


def _preview(text: str) -> str:
    return text if len(text) <= _FEN_PREVIEW else text[:_FEN_PREVIEW] + f"… ({len(text)} characters)"


class Status(enum.IntFlag):
    """Soft problems of a position that the C core accepts (see :meth:`Board.status`)."""

    VALID = 0
    KING_OUTSIDE_PALACE = 1
    ADVISOR_OUTSIDE_REGION = 2
    ELEPHANT_OUTSIDE_REGION = 4
    PAWN_ON_IMPOSSIBLE_SQUARE = 8
    KINGS_FACING = 16
    OPPOSITE_CHECK = 32


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

_DIAGRAM_CHINESE = {
    "K": "帅", "A": "仕", "B": "相", "N": "马", "R": "车", "C": "炮", "P": "兵",
    "k": "将", "a": "士", "b": "象", "n": "马", "r": "车", "c": "炮", "p": "卒",
}


class _MoveView:
    __slots__ = ("_board",)

    def __init__(self, board: "Board") -> None:
        self._board = board

    def _codes(self) -> List[int]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[Move]:
        for code in self._codes():
            yield Move(code >> 7, code & 127)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __len__(self) -> int:
        return len(self._codes())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ({', '.join(m.iccs() for m in self)})>"


class LegalMoveGenerator(_MoveView):
    """The legal moves of a board: iterable, sized, supports ``in``."""

    __slots__ = ()

    def _codes(self) -> List[int]:
        return self._board.legal_move_codes()

    def __len__(self) -> int:
        return int(lib.xq_count_legal(self._board._pos))

    def __bool__(self) -> bool:
        return bool(lib.xq_count_legal(self._board._pos) > 0)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)


class PseudoLegalMoveGenerator(_MoveView):
    """Moves that obey each piece's movement rules but may leave the own king attacked."""

    __slots__ = ()

    def _codes(self) -> List[int]:
        b = self._board
        n = lib.xq_gen_pseudo_legal(b._pos, b._movebuf, _ffi.MAX_MOVES)
        if n < 0:
            _ffi.raise_internal(n, "xq_gen_pseudo_legal")
        return list(ffi.unpack(b._movebuf, n))

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and bool(lib.xq_pos_is_pseudo_legal(self._board._pos, move.code))


class Board:
    """A xiangqi position with its move stack.

    >>> board = Board()
    >>> board.turn == RED, len(board.legal_moves)
    (True, 44)
    >>> board.push_iccs("h2e2")
    Move.from_iccs('h2e2')
    >>> board.fen()
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
    >>> board.pop()
    Move.from_iccs('h2e2')

    A Board is not thread-safe; copy it (:meth:`copy`) for each thread.
    """

    def __init__(self, fen: Optional[str] = STARTING_FEN) -> None:
        self._pos: Any = ffi.new("xq_pos *")
        self._cap = 64
        self._undo: Any = ffi.new("xq_undo[]", self._cap)
        self._movebuf: Any = ffi.new("xq_move[]", _ffi.MAX_MOVES)
        self.move_stack: List[Move] = []
        self._start_fen = STARTING_FEN
        self.set_fen(STARTING_FEN if fen is None else fen)

    # ------------------------------------------------------------------ FEN

    def set_fen(self, fen: str) -> None:
        """Set the position from a FEN and clear the move stack.

        Accepts ``KABNRCP``/``kabnrcp`` with ``H``/``E`` aliases, side ``w``/``r``/``b``,
        optional ``- -`` fields and counters. Raises :class:`InvalidFenError`.
        """
        if not isinstance(fen, str):
            raise TypeError(f"FEN must be a str, not {type(fen).__name__}")
        try:
            data = fen.encode("ascii")
        except UnicodeEncodeError as exc:
            raise InvalidFenError(
                f"invalid FEN: non-ASCII character {fen[exc.start]!r} at offset {exc.start} in {_preview(fen)!r}",
                fen=fen, offset=exc.start) from None
        off = ffi.new("size_t *")
        st = lib.xq_pos_set_fen(self._pos, data, len(data), off)
        if st != _ffi.OK:
            raise _fen_error(fen, data, st, int(off[0]))
        self.move_stack = []
        self._start_fen = self.fen()

    def fen(self) -> str:
        """The FEN of the position (canonical letters ``KABNRCP``, side ``w``/``b``)."""
        buf = ffi.new("char[]", _ffi.FEN_MAX)
        n = lib.xq_pos_fen(self._pos, buf, _ffi.FEN_MAX)
        if n < 0:
            _ffi.raise_internal(n, "xq_pos_fen")
        return str(ffi.unpack(buf, n).decode("ascii"))

    def board_fen(self) -> str:
        """The piece placement part of the FEN."""
        return self.fen().split(" ", 1)[0]

    @property
    def starting_fen(self) -> str:
        """The FEN the move stack starts from."""
        return self._start_fen

    def root(self) -> "Board":
        """A new board at the start of the move stack."""
        return Board(self._start_fen)

    # ------------------------------------------------------------ accessors

    @property
    def turn(self) -> Color:
        """The side to move: :data:`RED` (True) or :data:`BLACK` (False)."""
        return bool(self._pos.side)

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture."""
        return int(self._pos.halfmove)

    @property
    def fullmove_number(self) -> int:
        """The FEN fullmove number (incremented after Black's move)."""
        return int(self._pos.fullmove)

    @property
    def ply(self) -> int:
        """Plies played since the starting FEN (the length of the move stack)."""
        return len(self.move_stack)

    def piece_at(self, square: Square) -> Optional[Piece]:
        """The piece on ``square``, or ``None``."""
        code = self._pos.board[square] if 0 <= square < 90 else 0
        return Piece(code & 7, bool(code >> 3)) if code else None

    def piece_codes(self) -> bytes:
        """The 90 C piece codes (``color << 3 | type``, 0 = empty), square 0 first."""
        return bytes(ffi.buffer(self._pos.board, 90))

    def piece_map(self) -> Dict[Square, Piece]:
        """A dict of every occupied square to its piece."""
        codes = self.piece_codes()
        return {sq: Piece(c & 7, bool(c >> 3)) for sq, c in enumerate(codes) if c}

    def pieces_mask(self, piece_type: int, color: Color) -> int:
        """The squares of the pieces of one type and colour, as an int bitboard."""
        if piece_type not in _PIECE_WORDS:
            raise ValueError(f"piece type must be 1-7 (PAWN … KING), not {piece_type!r}")
        out = ffi.new("uint64_t[2]")
        lib.xq_pos_pieces(self._pos, _color_index(color), piece_type, out)
        return _ffi.join_bb(out)

    def pieces(self, piece_type: int, color: Color) -> SquareSet:
        """The squares of the pieces of one type and colour."""
        return SquareSet(self.pieces_mask(piece_type, color))

    def king(self, color: Color) -> Optional[Square]:
        """The square of ``color``'s king (every accepted position has both)."""
        return int(self._pos.king_sq[int(color)])

    def zobrist_hash(self) -> int:
        """The 64-bit Zobrist key of the position (side to move included)."""
        return int(self._pos.key)

    # ---------------------------------------------------------------- moves

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves (iterable; ``len()`` and ``in`` run in C)."""
        return LegalMoveGenerator(self)

    @property
    def pseudo_legal_moves(self) -> PseudoLegalMoveGenerator:
        """Moves by the piece rules alone, ignoring the own king's safety."""
        return PseudoLegalMoveGenerator(self)

    def legal_move_codes(self) -> List[int]:
        """The legal moves as 16-bit codes (fastest form)."""
        n = lib.xq_gen_legal(self._pos, self._movebuf, _ffi.MAX_MOVES)
        if n < 0:
            _ffi.raise_internal(n, "xq_gen_legal")
        return list(ffi.unpack(self._movebuf, n))

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        try:
            code = move.code
        except AttributeError:
            raise TypeError(f"expected a Move, not {type(move).__name__} (use parse_move for text)") from None
        return bool(lib.xq_pos_is_legal(self._pos, code))

    def is_pseudo_legal(self, move: Move) -> bool:
        """Whether ``move`` obeys the piece rules (the own king may be left attacked)."""
        return bool(lib.xq_pos_is_pseudo_legal(self._pos, move.code))

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` captures an enemy piece."""
        code = self._pos.board[move.to_square]
        return bool(code) and bool(code >> 3) != self.turn

    def gives_check(self, move: Move) -> bool:
        """Whether ``move`` (pseudo-legal) checks the opponent's king."""
        return bool(lib.xq_gives_check(self._pos, move.code))

    def push(self, move: Move) -> None:
        """Play ``move``. Fast and only partly checked, as in python-chess.

        The move must be legal for the result to mean anything; a move from an
        empty square or the wrong side, or onto an own piece or a king, raises
        :class:`IllegalMoveError`. The null move (:meth:`Move.null`, ``0000``)
        passes the turn, for analysis. Use :meth:`push_iccs` or
        :meth:`is_legal` when the move comes from outside.
        """
        n = len(self.move_stack)
        if n == self._cap:
            self._grow()
        code = move.from_square << 7 | move.to_square
        st = lib.xq_pos_do_move(self._pos, code, self._undo + n) if code else lib.xq_pos_do_null(self._pos, self._undo + n)
        if st:
            raise IllegalMoveError(f"cannot push {move.iccs()!r} in {self.fen()}: {_ffi.status_str(st)}")
        self.move_stack.append(move)

    def push_code(self, code: int) -> None:
        """:meth:`push` for a 16-bit move code (same checks)."""
        if not (0 < code < 1 << 14 and code >> 7 < 90 and code & 127 < 90):
            raise InvalidMoveError(f"not a move code: {code!r} (expected from << 7 | to with squares 0-89) "
                                   f"in {self.fen()}")
        n = len(self.move_stack)
        if n == self._cap:
            self._grow()
        st = lib.xq_pos_do_move(self._pos, code, self._undo + n)
        if st:
            raise IllegalMoveError(f"cannot push {Move.from_code(code).iccs()!r} in {self.fen()}: {_ffi.status_str(st)}")
        self.move_stack.append(Move(code >> 7, code & 127))

    def push_codes(self, codes: "Sequence[int]", *, check_legal: bool = True) -> None:
        """Play many 16-bit move codes in one C call (a game's main line, a search path).

        With ``check_legal`` (the default) every move must be legal; otherwise
        only :meth:`push`'s checks apply. At the first refused move this
        raises :class:`IllegalMoveError` naming it and its ply; the moves
        before it stay played.
        """
        n = len(codes)
        if not n:
            return
        start = len(self.move_stack)
        while self._cap < start + n:
            self._grow()
        try:
            buf = ffi.new("xq_move[]", list(codes))
        except (OverflowError, TypeError) as exc:
            raise InvalidMoveError(f"move codes must be ints 0-65535: {exc}") from None
        played = lib.xq_pos_play_codes(self._pos, buf, n, self._undo + start, 1 if check_legal else 0)
        if played < 0:
            _ffi.raise_internal(played, "xq_pos_play_codes")
        self.move_stack.extend(Move.from_code(int(c)) for c in codes[:played])
        if played < n:
            code = int(codes[played])
            text = Move.from_code(code).iccs() if code >> 7 < 90 and code & 127 < 90 else str(code)
            raise IllegalMoveError(f"move {played + 1} of {n} ({text!r}, ply {start + played}) refused in "
                                   f"{self.fen()}")

    def pop(self) -> Move:
        """Take back the last move and return it. Raises :class:`IndexError` on an empty stack."""
        move = self.move_stack.pop()
        if move.to_square or move.from_square:
            lib.xq_pos_undo_move(self._pos, self._undo + len(self.move_stack))
        else:
            lib.xq_pos_undo_null(self._pos, self._undo + len(self.move_stack))
        return move

    def peek(self) -> Move:
        """The last move played. Raises :class:`IndexError` on an empty stack."""
        return self.move_stack[-1]

    def _grow(self) -> None:
        new = ffi.new("xq_undo[]", self._cap * 2)
        ffi.memmove(new, self._undo, ffi.sizeof("xq_undo") * self._cap)
        self._undo = new
        self._cap *= 2

    def parse_iccs(self, text: str, *, one_based: bool = False) -> Move:
        """Parse a coordinate move (``h2e2``, ``H2-E2``) and check it is legal here.

        ``one_based=True`` reads Fairy-Stockfish/pyffish's ranks 1–10 (``h3e3``,
        ``a10a9``); it is never guessed. ``0000`` is the null move. Raises :class:`InvalidMoveError` or
        :class:`IllegalMoveError` (saying why the move is illegal).
        """
        move = parse_coordinates(text, one_based=one_based)
        if not move:
            return move  # "0000": the null move, as python-chess reads it
        if not lib.xq_pos_is_legal(self._pos, move.code):
            from xiangqi import notation
            notation.parse_iccs(self, text, one_based=one_based)  # raises, in the notation module's words
            raise IllegalMoveError(f"illegal ICCS move {text!r} in {self.fen()}: "  # pragma: no cover
                                   f"{notation.illegal_reason(self, move)}")
        return move

    def illegal_reason(self, move: Move) -> str:
        """Why ``move`` is not legal here, in one phrase (or ``'legal'``): :func:`xiangqi.notation.illegal_reason`."""
        from xiangqi import notation
        return notation.illegal_reason(self, move)

    parse_uci = parse_iccs

    def push_iccs(self, text: str, *, one_based: bool = False) -> Move:
        """Parse a coordinate move, check it, play it and return it."""
        move = self.parse_iccs(text, one_based=one_based)
        self.push(move)
        return move

    push_uci = push_iccs

    # Notation (implemented in xiangqi.notation).

    def chinese(self, move: Move, *, traditional: bool = False, fullwidth: bool = True, compact: bool = False) -> str:
        """The move in Chinese notation, e.g. ``炮二平五`` (see :func:`xiangqi.notation.format_chinese`)."""
        from xiangqi import notation
        return notation.format_chinese(self, move, traditional=traditional, fullwidth=fullwidth, compact=compact)

    def parse_chinese(self, text: str) -> Move:
        """Parse Chinese notation (simplified or traditional) into a legal move."""
        from xiangqi import notation
        return notation.parse_chinese(self, text)

    def push_chinese(self, text: str) -> Move:
        """Parse Chinese notation, play the move and return it."""
        move = self.parse_chinese(text)
        self.push(move)
        return move

    def wxf(self, move: Move) -> str:
        """The move in WXF letters, e.g. ``C2.5``."""
        from xiangqi import notation
        return notation.format_wxf(self, move)

    def parse_wxf(self, text: str) -> Move:
        """Parse WXF notation into a legal move."""
        from xiangqi import notation
        return notation.parse_wxf(self, text)

    def push_wxf(self, text: str) -> Move:
        """Parse WXF notation, play the move and return it."""
        move = self.parse_wxf(text)
        self.push(move)
        return move

    def parse_move(self, text: str, *, one_based: bool = False) -> Move:
        """Parse a move in any notation this library reads (Chinese, WXF, ICCS)."""
        from xiangqi import notation
        return notation.parse_move(self, text, one_based=one_based)

    def push_move(self, text: str, *, one_based: bool = False) -> Move:
        """Parse a move in any notation, play it and return it."""
        move = self.parse_move(text, one_based=one_based)
        self.push(move)
        return move

    # --------------------------------------------------------------- status

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        return bool(lib.xq_pos_in_check(self._pos))

    def checkers_mask(self) -> int:
        """The pieces giving check, as an int bitboard."""
        out = ffi.new("uint64_t[2]")
        lib.xq_pos_checkers(self._pos, out)
        return _ffi.join_bb(out)

    def checkers(self) -> SquareSet:
        """The pieces giving check."""
        return SquareSet(self.checkers_mask())

    def attackers_mask(self, color: Color, square: Square) -> int:
        """The pieces of ``color`` attacking ``square``, as an int bitboard."""
        if not 0 <= square < 90:
            raise ValueError(f"square out of range: {square!r} (expected 0-89)")
        out = ffi.new("uint64_t[2]")
        lib.xq_attackers_to(self._pos, square, _color_index(color), out)
        return _ffi.join_bb(out)

    def attackers(self, color: Color, square: Square) -> SquareSet:
        """The pieces of ``color`` that attack ``square`` (could capture there, pins ignored)."""
        return SquareSet(self.attackers_mask(color, square))

    def is_attacked_by(self, color: Color, square: Square) -> bool:
        """Whether any piece of ``color`` attacks ``square``."""
        return self.attackers_mask(color, square) != 0

    def attack_map(self, color: Color) -> "npt.NDArray[np.uint8]":
        """Attacker counts of ``color`` per square: a ``(10, 9)`` uint8 array, rank 9 first (as a diagram reads)."""
        import numpy as np

        out = np.zeros(90, dtype=np.uint8)
        lib.xq_attack_counts(self._pos, _color_index(color), ffi.from_buffer("uint8_t[]", out, require_writable=True))
        return np.ascontiguousarray(out.reshape(10, 9)[::-1])

    def is_checkmate(self) -> bool:
        """In check with no legal move."""
        return self.is_check() and lib.xq_count_legal(self._pos) == 0

    def is_stalemate(self) -> bool:
        """Not in check and no legal move (困毙): a loss for the side to move in xiangqi."""
        return not self.is_check() and lib.xq_count_legal(self._pos) == 0

    def outcome(self, *, rules: str = "axf") -> Optional[Outcome]:
        """The game's outcome, or ``None`` while it goes on.

        Checkmate and stalemate lose for the side to move; repetition rulings
        and the natural move limit come from :mod:`xiangqi.rules` when
        available.
        """
        if lib.xq_count_legal(self._pos) == 0:
            loser = self.turn
            checked = self.is_check()
            side = "Red" if loser else "Black"
            return Outcome(
                Termination.CHECKMATE if checked else Termination.STALEMATE,
                winner=not loser,
                reason=f"{side} is {'checkmated' if checked else 'stalemated (no legal move)'} and loses",
                reason_zh=f"{'红' if loser else '黑'}方{'被将死' if checked else '困毙'}，负",
            )
        from xiangqi import rules as rulings
        return rulings.adjudicate(self, rules=rules_name(rules))

    def is_game_over(self) -> bool:
        """Whether :meth:`outcome` is not ``None``."""
        return self.outcome() is not None

    def status(self) -> Status:
        """Soft validity problems of the position (the C core rejects only what breaks it)."""
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
        rk, bk = self.king(RED), self.king(BLACK)
        if rk is not None and bk is not None and square_file(rk) == square_file(bk):
            if all(codes[s] == 0 for s in range(rk + 9, bk, 9)):
                st |= Status.KINGS_FACING
        undo = ffi.new("xq_undo *")
        lib.xq_pos_do_null(self._pos, undo)
        if lib.xq_pos_in_check(self._pos):
            st |= Status.OPPOSITE_CHECK
        lib.xq_pos_undo_null(self._pos, undo)
        return st

    def is_valid(self) -> bool:
        """Whether :meth:`status` is ``VALID``."""
        return self.status() == Status.VALID

    # ---------------------------------------------------------------- perft

    def perft(self, depth: int, *, bulk: bool = True) -> int:
        """Count the leaf nodes of the legal move tree to ``depth`` (in C)."""
        return int(lib.xq_perft(self._pos, check_depth(depth), 1 if bulk else 0))

    # ----------------------------------------------------------------- misc

    def copy(self, *, stack: bool = True) -> "Board":
        """A copy of the board; with ``stack=False`` the copy has no move history."""
        b = Board.__new__(Board)
        b._pos = ffi.new("xq_pos *")
        lib.xq_pos_copy(b._pos, self._pos)
        b._movebuf = ffi.new("xq_move[]", _ffi.MAX_MOVES)
        if stack:
            b._cap = self._cap
            b._undo = ffi.new("xq_undo[]", self._cap)
            ffi.memmove(b._undo, self._undo, ffi.sizeof("xq_undo") * self._cap)
            b.move_stack = list(self.move_stack)
            b._start_fen = self._start_fen
        else:
            b._cap = 64
            b._undo = ffi.new("xq_undo[]", b._cap)
            b.move_stack = []
            b._start_fen = self.fen()
        return b

    __copy__ = copy

    def key_history(self) -> List[int]:
        """Zobrist keys of every position from the starting FEN to now (``ply + 1`` keys)."""
        keys = [int(self._undo[i].key) for i in range(len(self.move_stack))]
        keys.append(self.zobrist_hash())
        return keys

    def captured_history(self) -> bytes:
        """Per ply, the C code of the piece captured by that move (0 if none)."""
        return bytes(int(self._undo[i].captured) for i in range(len(self.move_stack)))

    def diagram(self, *, chinese: bool = False) -> str:
        """A text diagram, rank 9 at the top; ``chinese=True`` uses 帅车马… (full-width)."""
        codes = self.piece_codes()
        rows = []
        for r in range(9, -1, -1):
            cells = []
            for f in range(9):
                code = codes[r * 9 + f]
                if code:
                    sym = Piece(code & 7, bool(code >> 3)).symbol()
                    cells.append(_DIAGRAM_CHINESE[sym] if chinese else sym)
                else:
                    cells.append("．" if chinese else ".")
            rows.append(f"{r} " + ("" if chinese else " ").join(cells))
        rows.append("  " + ("" if chinese else " ").join("ａｂｃｄｅｆｇｈｉ" if chinese else "abcdefghi"))
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.diagram()

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.fen() == other.fen()

    __hash__ = None  # type: ignore[assignment]

    # ---- rulings (xiangqi.rules)

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position has occurred at least ``count`` times (back to the last capture).

        ``count`` must be at least 2 (:class:`ValueError` otherwise).
        """
        from xiangqi import rules
        return rules.is_repetition(self, count)

    def can_claim_draw(self, rules: str = "axf") -> bool:
        """Whether a draw can be claimed: the natural limit, or a repetition where nobody alone breaks the rules."""
        from xiangqi import rules as rulings
        return rulings.can_claim_draw(self, rules)

    def move_facts(self, ply: int, *, rules: str = "axf") -> MoveFacts:
        """What move ``ply`` (1-based, -1 = last) does for the rulings: check, chases (with squares and why).

        Returns a :class:`xiangqi.rules.MoveFacts`; raises :class:`IndexError` for a ply outside 1..len(move_stack)
        (or -1..-len(move_stack)).
        """
        from xiangqi import rules as rulings
        return rulings.move_facts(self, ply, rules=rules)


def _color_index(color: object) -> int:
    if color is True or color is False or color == 0 or color == 1:
        return int(color)
    raise ValueError(f"colour must be RED (True) or BLACK (False), not {color!r}")


def check_depth(depth: object) -> int:
    """``depth`` as a perft depth (an int from 0 to 64), or a clear error."""
    d = operator.index(depth)  # type: ignore[arg-type]
    if not 0 <= d <= 64:
        raise ValueError(f"depth must be between 0 and 64, not {d}")
    return d


def parse_coordinates(text: str, *, one_based: bool = False) -> Move:
    """Read ``h2e2`` / ``H2-E2`` (ranks 0–9) or, with ``one_based``, ``h3e3`` / ``a10a9`` (ranks 1–10)."""
    if not one_based:
        return Move.from_iccs(text)
    s = text.strip().lower().replace("-", "")
    m = _ONE_BASED.fullmatch(s)
    if m is None:
        raise InvalidMoveError(f"invalid 1-based coordinate move {text!r}: expected e.g. 'h3e3' or 'a10a9'")
    r1, r2 = int(m.group(2)) - 1, int(m.group(4)) - 1
    if not (0 <= r1 <= 9 and 0 <= r2 <= 9):
        raise InvalidMoveError(f"invalid 1-based coordinate move {text!r}: ranks must be 1-10")
    return Move(r1 * 9 + ord(m.group(1)) - 97, r2 * 9 + ord(m.group(3)) - 97)


_ONE_BASED = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])")


#: Normalise a rule-set name (:func:`xiangqi.rules.rule_set_name`: ``axf``/``asian``/``asia``, ``cxa``/``chinese``).
rules_name = rule_set_name


def _pawn_square_possible(sq: Square, color: Color) -> bool:
    r, f = square_rank(sq), square_file(sq)
    if color == BLACK:
        r, f = 9 - r, 8 - f
    if r < 3:
        return False
    if r <= 4:
        return f % 2 == 0  # not yet over the river: still on its starting file
    return True


_PIECE_WORDS = {1: "pawn", 2: "advisor", 3: "elephant", 4: "horse", 5: "cannon", 6: "rook", 7: "king"}
_MAX_COUNT = {1: 5, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1}


def _fen_error(fen: str, data: bytes, status: int, offset: int) -> InvalidFenError:
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
                key = ("red " if p.color else "black ") + _PIECE_WORDS[p.piece_type]
                counts[key] = counts.get(key, 0) + 1
        problems = []
        for side in ("red", "black"):
            k = counts.get(f"{side} king", 0)
            if k == 0:
                problems.append(f"no {side} king")
            elif k > 1:
                problems.append(f"{k} {side} kings")
            for t, cap in _MAX_COUNT.items():
                if t != 7 and counts.get(f"{side} {_PIECE_WORDS[t]}", 0) > cap:
                    problems.append(f"{counts[f'{side} {_PIECE_WORDS[t]}']} {side} {_PIECE_WORDS[t]}s (at most {cap})")
        return InvalidFenError(f"invalid FEN: {', '.join(problems) or 'unusable position'} in {shown!r}",
                               fen=fen, offset=-1)
    return InvalidFenError(f"invalid FEN ({_ffi.status_str(status)}) in {shown!r}", fen=fen, offset=offset)

