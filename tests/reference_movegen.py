"""A deliberately naive, obviously-correct pure-Python xiangqi move generator.

This module is an *oracle* for the tests: it shares no code with the C core
(nor with :mod:`xiangqi`), favours clarity over speed, and follows the rules
as they are written, square by square:

* the board is a list of 90 piece codes (``color << 3 | piece_type``, 0 for an
  empty square), square = ``rank * 9 + file``, a0 = 0 … i9 = 89;
* pseudo-legal moves are found by walking from each piece of the side to move;
* a move is legal when, after making it, the mover's king is not attacked and
  the two kings do not face each other on an open file (the flying general).

Region rule for pieces standing where they never could in a game (odd FENs):
every target must lie inside the piece's own region (king and advisor: own
palace; elephant: own half of the board). Pawns always move forward, and also
sideways once they stand on the far side of the river.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Set, Tuple

__all__ = [
    "RED", "BLACK", "PAWN", "ADVISOR", "ELEPHANT", "HORSE", "CANNON", "ROOK", "KING",
    "START_FEN", "RefPosition", "RefFenError", "parse_fen", "perft", "perft_divide",
    "pseudo_targets", "is_attacked", "attackers", "checkers", "kings_face",
    "square_name", "parse_square",
]

RED = 1
BLACK = 0

PAWN = 1
ADVISOR = 2
ELEPHANT = 3
HORSE = 4
CANNON = 5
ROOK = 6
KING = 7

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

_LETTER_TO_TYPE = {"p": PAWN, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE,
                   "h": HORSE, "c": CANNON, "r": ROOK, "k": KING}
_TYPE_TO_LETTER = {PAWN: "p", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", CANNON: "c",
                   ROOK: "r", KING: "k"}

# (file step, rank step) directions.
_ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
_DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
# Horse: (leg, destination) offsets; the leg is the orthogonal neighbour on the long side.
_HORSE_STEPS = [
    ((0, 1), (1, 2)), ((0, 1), (-1, 2)),
    ((0, -1), (1, -2)), ((0, -1), (-1, -2)),
    ((1, 0), (2, 1)), ((1, 0), (2, -1)),
    ((-1, 0), (-2, 1)), ((-1, 0), (-2, -1)),
]


class RefFenError(ValueError):
    """The reference parser could not read a FEN."""


def color_of(code: int) -> int:
    """The colour (1 Red, 0 Black) of a non-zero piece code."""
    return code >> 3


def type_of(code: int) -> int:
    """The piece type (1..7) of a non-zero piece code."""
    return code & 7


def square_name(sq: int) -> str:
    """ICCS name of a square: ``square_name(0) == 'a0'``."""
    return "abcdefghi"[sq % 9] + str(sq // 9)


def parse_square(name: str) -> int:
    """Inverse of :func:`square_name`."""
    return (int(name[1]) * 9) + "abcdefghi".index(name[0])


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 9 and 0 <= rank < 10


def in_palace(color: int, sq: int) -> bool:
    """True when ``sq`` is in the palace of ``color`` (files d-f, ranks 0-2 Red / 7-9 Black)."""
    file, rank = sq % 9, sq // 9
    if not 3 <= file <= 5:
        return False
    return rank <= 2 if color == RED else rank >= 7


def in_own_half(color: int, sq: int) -> bool:
    """True when ``sq`` is on ``color``'s side of the river (ranks 0-4 Red, 5-9 Black)."""
    rank = sq // 9
    return rank <= 4 if color == RED else rank >= 5


def pseudo_targets(board: List[int], sq: int) -> List[int]:
    """Every square the piece on ``sq`` could move to, ignoring king safety.

    Targets holding a piece of the mover's own colour are excluded.
    """
    code = board[sq]
    if not code:
        return []
    color, ptype = color_of(code), type_of(code)
    file, rank = sq % 9, sq // 9
    out: List[int] = []

    def add(f: int, r: int) -> None:
        t = r * 9 + f
        if board[t] == 0 or color_of(board[t]) != color:
            out.append(t)

    if ptype == KING:
        for df, dr in _ORTHOGONAL:
            f, r = file + df, rank + dr
            if _on_board(f, r) and in_palace(color, r * 9 + f):
                add(f, r)
    elif ptype == ADVISOR:
        for df, dr in _DIAGONAL:
            f, r = file + df, rank + dr
            if _on_board(f, r) and in_palace(color, r * 9 + f):
                add(f, r)
    elif ptype == ELEPHANT:
        for df, dr in _DIAGONAL:
            f, r = file + 2 * df, rank + 2 * dr
            if not _on_board(f, r) or not in_own_half(color, r * 9 + f):
                continue
            eye = (rank + dr) * 9 + (file + df)
            if board[eye] == 0:
                add(f, r)
    elif ptype == HORSE:
        for (lf, lr), (df, dr) in _HORSE_STEPS:
            f, r = file + df, rank + dr
            if not _on_board(f, r):
                continue
            leg = (rank + lr) * 9 + (file + lf)
            if board[leg] == 0:
                add(f, r)
    elif ptype == ROOK:
        for df, dr in _ORTHOGONAL:
            f, r = file + df, rank + dr
            while _on_board(f, r):
                t = r * 9 + f
                if board[t] == 0:
                    out.append(t)
                else:
                    if color_of(board[t]) != color:
                        out.append(t)
                    break
                f, r = f + df, r + dr
    elif ptype == CANNON:
        for df, dr in _ORTHOGONAL:
            f, r = file + df, rank + dr
            # Quiet moves: slide over empty squares.
            while _on_board(f, r) and board[r * 9 + f] == 0:
                out.append(r * 9 + f)
                f, r = f + df, r + dr
            # (f, r) is now the screen (or off the board); jump exactly one screen.
            f, r = f + df, r + dr
            while _on_board(f, r):
                t = r * 9 + f
                if board[t] != 0:
                    if color_of(board[t]) != color:
                        out.append(t)
                    break
                f, r = f + df, r + dr
    elif ptype == PAWN:
        forward = 1 if color == RED else -1
        if _on_board(file, rank + forward):
            add(file, rank + forward)
        crossed = not in_own_half(color, sq)
        if crossed:
            for df in (-1, 1):
                if _on_board(file + df, rank):
                    add(file + df, rank)
    return out


def find_king(board: List[int], color: int) -> Optional[int]:
    """The square of ``color``'s king, or None."""
    want = color << 3 | KING
    for sq in range(90):
        if board[sq] == want:
            return sq
    return None


def is_attacked(board: List[int], sq: int, by_color: int) -> bool:
    """True when some piece of ``by_color`` has a pseudo-legal move to ``sq``."""
    for s in range(90):
        code = board[s]
        if code and color_of(code) == by_color and sq in pseudo_targets(board, s):
            return True
    return False


def attackers(board: List[int], color: int, sq: int) -> Set[int]:
    """Squares of the pieces of ``color`` that could capture on ``sq`` if an enemy piece stood there.

    Pins are ignored; the occupant of ``sq`` does not matter (defenders count).
    """
    probe = list(board)
    probe[sq] = (1 - color) << 3 | PAWN  # any enemy piece: only its presence matters
    out = set()
    for s in range(90):
        code = probe[s]
        if s != sq and code and color_of(code) == color and sq in pseudo_targets(probe, s):
            out.add(s)
    return out


def checkers(board: List[int], color: int) -> Set[int]:
    """Squares of the enemy pieces attacking ``color``'s king (the facing king is not counted)."""
    k = find_king(board, color)
    return set() if k is None else attackers(board, 1 - color, k)


def kings_face(board: List[int]) -> bool:
    """True when both kings stand on one file with nothing between them."""
    rk, bk = find_king(board, RED), find_king(board, BLACK)
    if rk is None or bk is None or rk % 9 != bk % 9:
        return False
    lo, hi = min(rk, bk), max(rk, bk)
    return all(board[s] == 0 for s in range(lo + 9, hi, 9))


def king_in_danger(board: List[int], color: int) -> bool:
    """``color``'s king is attacked, or the kings face each other."""
    k = find_king(board, color)
    if k is None:
        return False
    return is_attacked(board, k, 1 - color) or kings_face(board)


class RefPosition:
    """A position: 90 piece codes, the side to move and the two FEN counters."""

    def __init__(self, board: List[int], turn: int, halfmove: int = 0, fullmove: int = 1) -> None:
        self.board = board
        self.turn = turn
        self.halfmove = halfmove
        self.fullmove = fullmove

    def copy(self) -> "RefPosition":
        """An independent copy."""
        return RefPosition(list(self.board), self.turn, self.halfmove, self.fullmove)

    def pseudo_moves(self) -> Iterator[Tuple[int, int]]:
        """(from, to) pairs of every pseudo-legal move of the side to move."""
        for sq in range(90):
            code = self.board[sq]
            if code and color_of(code) == self.turn:
                for t in pseudo_targets(self.board, sq):
                    yield sq, t

    def legal_pairs(self) -> List[Tuple[int, int]]:
        """(from, to) pairs of every legal move."""
        out = []
        board = self.board
        for f, t in list(self.pseudo_moves()):
            captured = board[t]
            board[t], board[f] = board[f], 0
            ok = not king_in_danger(board, self.turn)
            board[f], board[t] = board[t], captured
            if ok:
                out.append((f, t))
        return out

    def legal_moves(self) -> Set[str]:
        """Every legal move as an ICCS string (``h2e2``)."""
        return {square_name(f) + square_name(t) for f, t in self.legal_pairs()}

    def is_check(self) -> bool:
        """The side to move's king is attacked (the kings facing counts too)."""
        return king_in_danger(self.board, self.turn)

    def is_checkmate(self) -> bool:
        """In check with no legal move."""
        return self.is_check() and not self.legal_pairs()

    def is_stalemate(self) -> bool:
        """Not in check and no legal move (a loss for the side to move in xiangqi)."""
        return not self.is_check() and not self.legal_pairs()

    def push(self, iccs: str) -> None:
        """Play ``iccs`` (no legality check beyond a piece of the side to move on the from-square)."""
        f, t = parse_square(iccs[:2]), parse_square(iccs[2:4])
        code = self.board[f]
        if not code or color_of(code) != self.turn:
            raise ValueError(f"no piece of the side to move on {iccs[:2]} in {self.fen()}")
        captured = self.board[t]
        self.board[t], self.board[f] = code, 0
        self.halfmove = 0 if captured else self.halfmove + 1
        if self.turn == BLACK:
            self.fullmove += 1
        self.turn = 1 - self.turn

    def board_fen(self) -> str:
        """The board field of the FEN, canonical letters KABNRCP."""
        rows = []
        for rank in range(9, -1, -1):
            row, empty = "", 0
            for file in range(9):
                code = self.board[rank * 9 + file]
                if not code:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                letter = _TYPE_TO_LETTER[type_of(code)]
                row += letter.upper() if color_of(code) == RED else letter
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)

    def fen(self) -> str:
        """The full FEN: board, side (w/b), ``- -``, halfmove clock, fullmove number."""
        side = "w" if self.turn == RED else "b"
        return f"{self.board_fen()} {side} - - {self.halfmove} {self.fullmove}"


def parse_fen(fen: str, *, allow_missing_king: bool = False) -> RefPosition:
    """Read a FEN: ``KABNRCP`` (and ``H``/``E``) in both cases, side ``w``/``r``/``b``.

    The side and the counters are optional (Red to move, 0, 1). Raises
    :class:`RefFenError` on anything else, including a side without exactly one king
    (at most one with ``allow_missing_king``: a side without a king is never in check).
    """
    parts = fen.split()
    if not parts:
        raise RefFenError("empty FEN")
    rows = parts[0].split("/")
    if len(rows) != 10:
        raise RefFenError(f"expected 10 rows, got {len(rows)}: {fen!r}")
    board = [0] * 90
    for i, row in enumerate(rows):
        rank = 9 - i
        file = 0
        for ch in row:
            if ch in "123456789":
                file += int(ch)
            elif ch.lower() in _LETTER_TO_TYPE:
                if file >= 9:
                    raise RefFenError(f"row {i + 1} too long: {fen!r}")
                color = RED if ch.isupper() else BLACK
                board[rank * 9 + file] = color << 3 | _LETTER_TO_TYPE[ch.lower()]
                file += 1
            else:
                raise RefFenError(f"bad character {ch!r}: {fen!r}")
            if file > 9:
                raise RefFenError(f"row {i + 1} too long: {fen!r}")
        if file != 9:
            raise RefFenError(f"row {i + 1} has {file} squares: {fen!r}")
    for color in (RED, BLACK):
        n = board.count(color << 3 | KING)
        if n > 1 or (n == 0 and not allow_missing_king):
            raise RefFenError(f"{'red' if color else 'black'} has {n} kings: {fen!r}")
    side = parts[1] if len(parts) > 1 else "w"
    if side not in ("w", "r", "b"):
        raise RefFenError(f"bad side {side!r}: {fen!r}")
    turn = BLACK if side == "b" else RED
    halfmove = int(parts[4]) if len(parts) > 4 else 0
    fullmove = int(parts[5]) if len(parts) > 5 else 1
    return RefPosition(board, turn, halfmove, fullmove)


def perft(pos: RefPosition, depth: int) -> int:
    """Number of leaf nodes of the legal move tree ``depth`` plies deep."""
    if depth == 0:
        return 1
    pairs = pos.legal_pairs()
    if depth == 1:
        return len(pairs)
    total = 0
    for f, t in pairs:
        child = pos.copy()
        child.push(square_name(f) + square_name(t))
        total += perft(child, depth - 1)
    return total


def perft_divide(pos: RefPosition, depth: int) -> Dict[str, int]:
    """``{iccs: perft(child, depth - 1)}`` for every legal move (depth >= 1)."""
    out: Dict[str, int] = {}
    for f, t in pos.legal_pairs():
        child = pos.copy()
        mv = square_name(f) + square_name(t)
        child.push(mv)
        out[mv] = perft(child, depth - 1)
    return out
