"""Squares, colours, pieces, moves and square sets: the library's vocabulary.

Everything here is pure Python and uses the same integers as the C core:

* squares are ``rank * 9 + file`` (``A0 = 0`` … ``I9 = 89``), files a–i from
  Red's left, ranks 0–9 from Red's back rank (the ICCS/UCCI/Pikafish layout);
* colours are ``RED = True`` and ``BLACK = False`` (``int(color)`` is the C
  value);
* piece types are ``PAWN = 1`` … ``KING = 7`` and a piece code is
  ``color << 3 | piece_type``;
* a move is 16 bits, ``from_square << 7 | to_square``; 0 is the null move.
  No move has its from and to squares equal, so no coordinate text (``a0a0``)
  reads as the null move: it is written ``0000`` (``--`` is read too).
"""

from __future__ import annotations

from typing import Iterable, Iterator, List, Optional, Union

from xiangqi.errors import InvalidMoveError

__all__ = [
    "Color", "Square", "PieceType", "Bitboard",
    "RED", "BLACK", "COLORS", "COLOR_NAMES",
    "PAWN", "ADVISOR", "ELEPHANT", "HORSE", "CANNON", "ROOK", "KING", "PIECE_TYPES",
    "PIECE_SYMBOLS", "PIECE_NAMES", "FILE_NAMES", "RANK_NAMES", "SQUARES", "SQUARE_NAMES",
    "STARTING_FEN", "STARTING_BOARD_FEN",
    "square", "square_file", "square_rank", "square_name", "parse_square", "square_mirror",
    "square_flip", "square_distance", "square_manhattan_distance", "flip_vertical", "flip_horizontal", "between",
    "ray", "Piece", "Move", "SquareSet", "BB_EMPTY", "BB_ALL", "BB_SQUARES", "NULL_MOVE_TEXT", "NULL_MOVE_TEXTS",
    "SAME_SQUARE_REASON", "same_square_message", "moves_of", "iter_moves",
]

Color = bool
Square = int
PieceType = int
Bitboard = int

RED: Color = True  #: Red, the side that moves first (``True``).
BLACK: Color = False  #: Black (``False``).
COLORS = [RED, BLACK]  #: Both colours, Red first.
COLOR_NAMES = ["black", "red"]  #: Colour names indexed by ``int(color)``.

PAWN: PieceType = 1  #: Pawn (兵/卒).
ADVISOR: PieceType = 2  #: Advisor (仕/士).
ELEPHANT: PieceType = 3  #: Elephant (相/象).
HORSE: PieceType = 4  #: Horse (马).
CANNON: PieceType = 5  #: Cannon (炮).
ROOK: PieceType = 6  #: Rook (车).
KING: PieceType = 7  #: King (帅/将).
PIECE_TYPES = [PAWN, ADVISOR, ELEPHANT, HORSE, CANNON, ROOK, KING]  #: The piece types 1-7 in order.
#: FEN letters by piece type (index 0 unused); upper case is Red.
PIECE_SYMBOLS = [None, "p", "a", "b", "n", "c", "r", "k"]
PIECE_NAMES = [None, "pawn", "advisor", "elephant", "horse", "cannon", "rook", "king"]  #: English piece names by piece type (index 0 unused).
#: Chinese piece characters (simplified), ``[color][piece_type]``.
_CHINESE_PIECES = [
    [None, "卒", "士", "象", "马", "炮", "车", "将"],
    [None, "兵", "仕", "相", "马", "炮", "车", "帅"],
]

FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]  #: File letters a-i, from Red's left.
RANK_NAMES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]  #: Rank digits 0-9, from Red's back rank (ICCS).

#: The squares by name, as python-chess's ``E2``: ``A0 = 0`` (Red's left corner) … ``I0 = 8`` on rank 0, up to
#: ``I9 = 89``.
A0, B0, C0, D0, E0, F0, G0, H0, I0 = range(0, 9)
#: The squares of rank 1, files a to i: ``A1 = 9`` … ``I1 = 17``.
A1, B1, C1, D1, E1, F1, G1, H1, I1 = range(9, 18)
#: The squares of rank 2, files a to i: ``A2 = 18`` … ``I2 = 26``.
A2, B2, C2, D2, E2, F2, G2, H2, I2 = range(18, 27)
#: The squares of rank 3, files a to i: ``A3 = 27`` … ``I3 = 35``.
A3, B3, C3, D3, E3, F3, G3, H3, I3 = range(27, 36)
#: The squares of rank 4, files a to i: ``A4 = 36`` … ``I4 = 44``.
A4, B4, C4, D4, E4, F4, G4, H4, I4 = range(36, 45)
#: The squares of rank 5, files a to i: ``A5 = 45`` … ``I5 = 53``.
A5, B5, C5, D5, E5, F5, G5, H5, I5 = range(45, 54)
#: The squares of rank 6, files a to i: ``A6 = 54`` … ``I6 = 62``.
A6, B6, C6, D6, E6, F6, G6, H6, I6 = range(54, 63)
#: The squares of rank 7, files a to i: ``A7 = 63`` … ``I7 = 71``.
A7, B7, C7, D7, E7, F7, G7, H7, I7 = range(63, 72)
#: The squares of rank 8, files a to i: ``A8 = 72`` … ``I8 = 80``.
A8, B8, C8, D8, E8, F8, G8, H8, I8 = range(72, 81)
#: The squares of rank 9, files a to i: ``A9 = 81`` … ``I9 = 89``.
A9, B9, C9, D9, E9, F9, G9, H9, I9 = range(81, 90)

SQUARES = list(range(90))  #: All squares, ``rank * 9 + file``: a0 = 0 ... i9 = 89.
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]  #: Square names by square (``'a0'`` ... ``'i9'``).
__all__ += [name.upper() for name in SQUARE_NAMES]  # the named squares A0 ... I9

STARTING_BOARD_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"  #: The piece placement of the start position.
STARTING_FEN = STARTING_BOARD_FEN + " w - - 0 1"  #: The FEN of the start position, Red to move.

BB_EMPTY: Bitboard = 0  #: The empty bitboard.
BB_ALL: Bitboard = (1 << 90) - 1  #: The bitboard of all 90 squares.
BB_SQUARES = [1 << sq for sq in SQUARES]  #: The one-square bitboard of each square, ``1 << square``.

#: Unicode's order of the xiangqi symbols of a side: general, mandarin, elephant, horse, chariot, cannon, soldier.
_UNICODE_ORDER = {KING: 0, ADVISOR: 1, ELEPHANT: 2, HORSE: 3, ROOK: 4, CANNON: 5, PAWN: 6}

_SYMBOL_TO_TYPE = {"p": PAWN, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE,
                   "h": HORSE, "c": CANNON, "r": ROOK, "k": KING}


def square(file_index: int, rank_index: int) -> Square:
    """The square at ``file_index`` (0–8, a–i) and ``rank_index`` (0–9).

    Unchecked (a fast path): indices outside the board give a number outside 0–89.

    >>> square(4, 0), square_name(square(7, 2))
    (4, 'h2')
    """
    return rank_index * 9 + file_index


def square_file(sq: Square) -> int:
    """The file of a square, 0 (a) to 8 (i).

    >>> square_file(parse_square("h2"))
    7
    """
    return sq % 9


def square_rank(sq: Square) -> int:
    """The rank of a square, 0 (Red's back rank) to 9.

    >>> square_rank(parse_square("h2"))
    2
    """
    return sq // 9


def square_name(sq: Square) -> str:
    """The ICCS name of a square (0–89; another int raises :class:`IndexError` or wraps around, as a list index).

    >>> square_name(0), square_name(89)
    ('a0', 'i9')
    """
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """The square named ``name`` (``'e0'``), the inverse of :func:`square_name`.

    >>> parse_square("e0"), parse_square("i9")
    (4, 89)

    Raises:
        :class:`ValueError`: ``name`` is not a file a–i followed by a rank 0–9.
    """
    if len(name) == 2 and name[0] in "abcdefghi" and name[1] in "0123456789":
        return square(ord(name[0]) - 97, ord(name[1]) - 48)
    raise ValueError(f"not a square name: {name!r} (expected a file a-i and a rank 0-9, e.g. 'e0')")


def square_mirror(sq: Square) -> Square:
    """The square mirrored vertically, rank 0 ↔ 9 on the same file (python-chess's ``square_mirror``: the
    square seen from the other side's back rank). :func:`square_flip` also swaps the files.

    >>> square_name(square_mirror(parse_square("b2")))
    'b7'
    """
    return (9 - sq // 9) * 9 + sq % 9


def square_flip(sq: Square) -> Square:
    """The square seen from the other side: rank 0↔9 and file a↔i (a half turn).

    >>> square_name(square_flip(parse_square("b2")))
    'h7'
    """
    return 89 - sq


def square_distance(a: Square, b: Square) -> int:
    """The number of king steps from ``a`` to ``b`` on an empty board with no palace (the Chebyshev distance;
    python-chess's ``square_distance``).

    >>> square_distance(A0, I9), square_distance(E0, F1)
    (9, 1)
    """
    return max(abs(a % 9 - b % 9), abs(a // 9 - b // 9))


def square_manhattan_distance(a: Square, b: Square) -> int:
    """The number of orthogonal one-square steps from ``a`` to ``b`` (the taxicab distance).

    >>> square_manhattan_distance(A0, I9)
    17
    """
    return abs(a % 9 - b % 9) + abs(a // 9 - b // 9)


_RANK_MASK = (1 << 9) - 1
_REVERSED_RANK = [int(f"{i:09b}"[::-1], 2) for i in range(1 << 9)]


def flip_vertical(bb: Bitboard) -> Bitboard:
    """The bitboard mirrored vertically, rank 0 ↔ 9 (python-chess's ``flip_vertical``; for
    :meth:`~xiangqi.position.BaseBoard.transform`).

    >>> flip_vertical(1 << A0) == 1 << A9
    True
    """
    out = 0
    for r in range(10):
        out |= (bb >> (9 * r) & _RANK_MASK) << (9 * (9 - r))
    return out


def flip_horizontal(bb: Bitboard) -> Bitboard:
    """The bitboard mirrored left to right, file a ↔ i (python-chess's ``flip_horizontal``).

    >>> flip_horizontal(1 << B2 | 1 << E9) == 1 << H2 | 1 << E9
    True
    """
    out = 0
    for r in range(10):
        out |= _REVERSED_RANK[bb >> (9 * r) & _RANK_MASK] << (9 * r)
    return out


def _line(a: Square, b: Square) -> "tuple[int, int]":
    """The step (file, rank) from ``a`` towards ``b`` if they share a file, rank or diagonal, else (0, 0)."""
    df, dr = b % 9 - a % 9, b // 9 - a // 9
    if a == b or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return 0, 0
    return (df > 0) - (df < 0), (dr > 0) - (dr < 0)


def ray(a: Square, b: Square) -> Bitboard:
    """Every square of the rank, file or diagonal through ``a`` and ``b`` (both included), edge to edge; 0 when
    they are not aligned (python-chess's ``ray``).

    >>> ray(A0, A5) == sum(1 << sq for sq in range(A0, A9 + 1, 9))
    True
    """
    sf, sr = _line(a, b)
    if not (sf or sr):
        return 0
    mask = 0
    for direction in (1, -1):
        f, r = a % 9, a // 9
        while 0 <= f < 9 and 0 <= r < 10:
            mask |= 1 << (r * 9 + f)
            f, r = f + direction * sf, r + direction * sr
    return mask


def between(a: Square, b: Square) -> Bitboard:
    """The squares strictly between ``a`` and ``b`` on their rank, file or diagonal; 0 when they are not aligned
    (python-chess's ``between``: what a rook's path or a cannon's screen crosses).

    >>> between(A0, A3) == 1 << A1 | 1 << A2, between(A0, B2)
    (True, 0)
    """
    sf, sr = _line(a, b)
    mask = 0
    if sf or sr:
        f, r = a % 9 + sf, a // 9 + sr
        while r * 9 + f != b:
            mask |= 1 << (r * 9 + f)
            f, r = f + sf, r + sr
    return mask


class Piece:
    """A piece: a type and a colour (unchecked: the type should be 1–7).

    >>> Piece.from_symbol("R")
    Piece.from_symbol('R')
    >>> Piece(HORSE, BLACK).symbol(), Piece(HORSE, RED).chinese()
    ('n', '马')
    """

    __slots__ = ("piece_type", "color")

    def __init__(self, piece_type: PieceType, color: Color) -> None:
        self.piece_type = piece_type
        self.color = color

    @property
    def code(self) -> int:
        """The C piece code, ``color << 3 | piece_type``.

        >>> Piece(ROOK, RED).code, Piece(ROOK, BLACK).code
        (14, 6)
        """
        return int(self.color) << 3 | self.piece_type

    @classmethod
    def from_code(cls, code: int) -> "Piece":
        """The piece with C piece code ``code``, the inverse of :attr:`code`.

        >>> Piece.from_code(14)
        Piece.from_symbol('R')

        Raises:
            :class:`ValueError`: ``code`` is not ``color << 3 | piece_type`` with a colour 0–1 and a type 1–7.
        """
        if not (1 <= code & 7 <= 7) or code >> 3 not in (0, 1):
            raise ValueError(f"not a piece code: {code!r}")
        return cls(code & 7, bool(code >> 3))

    def symbol(self) -> str:
        """The FEN letter: upper case for Red.

        >>> Piece(CANNON, RED).symbol(), Piece(CANNON, BLACK).symbol()
        ('C', 'c')
        """
        s = PIECE_SYMBOLS[self.piece_type]
        assert s is not None
        return s.upper() if self.color else s

    def chinese(self) -> str:
        """The simplified Chinese character (帅/将, 仕/士, 相/象, 马, 车, 炮, 兵/卒).

        >>> Piece(KING, RED).chinese(), Piece(KING, BLACK).chinese()
        ('帅', '将')
        """
        s = _CHINESE_PIECES[int(self.color)][self.piece_type]
        assert s is not None
        return s

    def unicode_symbol(self, *, invert_color: bool = False) -> str:
        """The piece's character in Unicode's xiangqi symbols (🩠 … 🩭, U+1FA60–U+1FA6D), as python-chess's
        ``unicode_symbol`` gives its chess symbol; ``invert_color`` gives the other side's. Few fonts draw them:
        :meth:`chinese` gives the characters books print.

        >>> Piece(KING, RED).unicode_symbol() == "\U0001FA60", Piece(PAWN, BLACK).unicode_symbol() == "\U0001FA6D"
        (True, True)
        """
        red = self.color != invert_color
        return chr(0x1FA60 + (0 if red else 7) + _UNICODE_ORDER[self.piece_type])

    @classmethod
    def from_symbol(cls, symbol: str) -> "Piece":
        """The piece for a FEN letter (``H``/``E`` accepted for horse/elephant), the inverse of :meth:`symbol`.

        >>> Piece.from_symbol("H") == Piece.from_symbol("N") == Piece(HORSE, RED)
        True

        Raises:
            :class:`ValueError`: ``symbol`` is not one of ``KABNRCP``, ``kabnrcp``, ``H``/``h`` or ``E``/``e``.
        """
        t = _SYMBOL_TO_TYPE.get(symbol.lower()) if len(symbol) == 1 else None
        if t is None:
            raise ValueError(f"not a piece symbol: {symbol!r} (expected one of KABNRCP/kabnrcp, H, E)")
        return cls(t, symbol.isupper())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Piece) and self.code == other.code

    def __hash__(self) -> int:
        return self.code

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"

    def __str__(self) -> str:
        return self.symbol()


#: How the null move is written; :data:`NULL_MOVE_TEXTS` are read as it.
NULL_MOVE_TEXT = "0000"
#: The texts read as the null move in every notation (``0000``, and ``--`` as some PGN programs write it).
NULL_MOVE_TEXTS = frozenset(["0000", "--"])


#: Why a move between one square and itself (``a0a0``) is refused, wherever it is read.
SAME_SQUARE_REASON = "its from and to squares are the same (the null move is written 0000)"


def same_square_message(text: str) -> str:
    """The one message for a move whose from and to squares are the same (``a0a0``).

    >>> same_square_message("a0a0")
    "invalid move 'a0a0': its from and to squares are the same (the null move is written 0000)"
    """
    return f"invalid move {text!r}: {SAME_SQUARE_REASON}"


class Move:
    """A move from one square to another, in ICCS coordinates.

    >>> m = Move.from_iccs("h2e2")
    >>> m.from_square, m.to_square, m.iccs(), m.code
    (25, 22, 'h2e2', 3222)
    >>> Move.from_code(3222) == m
    True

    ``Move(from_square, to_square)`` takes squares 0–89; ``Move(0, 0)`` is the null move (:meth:`null`).

    Raises:
        :class:`ValueError`: a square is outside 0–89.
        :class:`InvalidMoveError`: the two squares are the same (and not both a0, the null move).
    """

    __slots__ = ("from_square", "to_square")

    #: Always ``None``: xiangqi has no promotion (python-chess's ``move.promotion``, so that its checks read false).
    promotion: None = None
    #: Always ``None``: xiangqi has no drops (python-chess's ``move.drop``).
    drop: None = None

    def __init__(self, from_square: Square, to_square: Square) -> None:
        if not (0 <= from_square < 90 and 0 <= to_square < 90):
            raise ValueError(f"squares must be 0-89 (a0-i9): Move({from_square!r}, {to_square!r})")
        if from_square == to_square and from_square:
            raise InvalidMoveError(same_square_message(SQUARE_NAMES[from_square] * 2))
        self.from_square = from_square
        self.to_square = to_square

    @property
    def code(self) -> int:
        """The 16-bit move code used by the C core: ``from << 7 | to``.

        >>> Move.from_iccs("a0a1").code == 0 << 7 | 9
        True
        """
        return self.from_square << 7 | self.to_square

    @classmethod
    def from_code(cls, code: int) -> "Move":
        """The move with 16-bit code ``code`` (0 is the null move), the inverse of :attr:`code`.

        >>> Move.from_code(3222)
        Move.from_iccs('h2e2')

        Raises:
            :class:`ValueError`: ``code`` has bits above the 14 of two squares, or a square above 89.
            :class:`InvalidMoveError`: its from and to squares are the same.
        """
        f, t = code >> 7, code & 127
        if code and not (0 <= code < 1 << 14 and f < 90 and t < 90):
            raise ValueError(f"not a move code: {code!r}")
        if f == t and code:
            raise InvalidMoveError(same_square_message(SQUARE_NAMES[f] * 2))
        return cls(f, t)

    @classmethod
    def null(cls) -> "Move":
        """The null move (``0000``): it passes the turn and is false in a boolean context.

        >>> bool(Move.null()), Move.null().iccs(), Move.from_iccs("--") == Move.null()
        (False, '0000', True)
        """
        return cls(0, 0)

    def __bool__(self) -> bool:
        return bool(self.from_square or self.to_square)

    @classmethod
    def from_iccs(cls, text: str) -> "Move":
        """Parse ``h2e2`` or ``H2-E2`` (ranks 0–9); ``0000`` or ``--`` is the null move.

        ``from_uci`` is the same method (UCCI uses the same coordinates). :meth:`iccs` is the inverse.

        >>> Move.from_iccs("H2-E2"), Move.from_uci("0000")
        (Move.from_iccs('h2e2'), Move.from_iccs('0000'))

        Raises:
            :class:`InvalidMoveError`: ``text`` is not ICCS, or is a move between one square and itself (``a0a0``).
            :class:`TypeError`: ``text`` is not a :class:`str`.
        """
        if not isinstance(text, str):
            raise TypeError(f"move text must be a str, not {type(text).__name__}")
        s = text.strip().lower()
        if len(s) == 5 and s[2] == "-":
            s = s[:2] + s[3:]
        if s in NULL_MOVE_TEXTS:
            return cls.null()
        if len(s) == 4 and s[0] in "abcdefghi" and s[2] in "abcdefghi" and s[1].isdigit() and s[3].isdigit() \
                and s[1].isascii() and s[3].isascii():
            if s[:2] == s[2:]:
                raise InvalidMoveError(same_square_message(text))
            return cls(parse_square(s[:2]), parse_square(s[2:]))
        raise InvalidMoveError(f"invalid ICCS move {text!r}: expected a file a-i and a rank 0-9 twice, e.g. 'h2e2'")

    from_uci = from_iccs

    def iccs(self) -> str:
        """The ICCS/UCCI text, e.g. ``h2e2`` (``0000`` for the null move); ``uci`` is the same method.

        >>> Move(25, 22).iccs(), Move.null().uci()
        ('h2e2', '0000')
        """
        if not self:
            return NULL_MOVE_TEXT
        return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]

    uci = iccs

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.from_square == other.from_square and \
            self.to_square == other.to_square

    def __hash__(self) -> int:
        return self.code

    def __repr__(self) -> str:
        return f"Move.from_iccs({self.iccs()!r})"

    def __str__(self) -> str:
        return self.iccs()


_SquaresLike = Union["SquareSet", int, Iterable[int]]


def _mask_of(squares: _SquaresLike) -> int:
    if isinstance(squares, SquareSet):
        return squares.mask
    if isinstance(squares, int):
        return squares & BB_ALL
    m = 0
    for sq in squares:
        if not isinstance(sq, int) or not 0 <= sq < 90:
            raise ValueError(f"not a square: {sq!r} (expected an int 0-89)")
        m |= 1 << sq
    return m


#: One shared :class:`Move` per valid move code, indexed by the code (``None`` for a code that is no move), made
#: on first use (:func:`moves_of`, :func:`iter_moves`).
_MOVE_TABLE: List[Optional[Move]] = []


def _move_table() -> List[Optional[Move]]:
    if not _MOVE_TABLE:
        table: List[Optional[Move]] = [None] * (90 << 7)
        for f in range(90):
            for t in range(90):
                if f != t or not f:
                    table[f << 7 | t] = Move(f, t)
        _MOVE_TABLE[:] = table
    return _MOVE_TABLE


def iter_moves(codes: Iterable[int]) -> Iterator[Move]:
    """:func:`moves_of` as an iterator, for codes the C core made (every one a move: not checked).

    >>> list(iter_moves([Move.from_iccs("h2e2").code]))
    [Move.from_iccs('h2e2')]
    """
    return map(_move_table().__getitem__, codes)  # type: ignore[arg-type]


def moves_of(codes: Iterable[int]) -> List[Move]:
    """The moves of 16-bit move codes (``from << 7 | to``; 0 is the null move), one shared :class:`Move` per code,
    so that listing a board's moves or a game's main line creates no move objects.

    >>> moves_of([Move.from_iccs("h2e2").code, 0])
    [Move.from_iccs('h2e2'), Move.from_iccs('0000')]

    Raises:
        :class:`ValueError`: a code names a square outside 0-89; :class:`~xiangqi.errors.InvalidMoveError` (a
            ValueError too) one square twice.
    """
    table = _move_table()
    try:
        # A code that is no move finds None (or, negative, an entry from the end): Move then says what is wrong.
        return [table[c] or Move(c >> 7, c & 127) for c in codes]
    except IndexError:
        return [Move(c >> 7, c & 127) for c in codes]


class SquareSet:
    """A mutable set of squares backed by a 90-bit integer (bit ``i`` is square ``i``), as in python-chess.

    >>> s = SquareSet([0, 4, 89])
    >>> list(s), len(s), 4 in s
    ([0, 4, 89], 3, True)
    >>> s - SquareSet([4]) == SquareSet([0, 89]), (s ^ 1) == SquareSet([4, 89]), SquareSet([0]) <= s
    (True, True, True)
    >>> len(~s), s.isdisjoint([1, 2]), int(s & 0b10001)
    (87, True, 17)

    ``repr`` shows the bitboard in hex and ``print`` the grid, rank 9 at the top, as python-chess's:

    >>> print(SquareSet.between(A0, A9) | SquareSet([E0]))
    . . . . . . . . .
    1 . . . . . . . .
    1 . . . . . . . .
    1 . . . . . . . .
    1 . . . . . . . .
    1 . . . . . . . .
    1 . . . . . . . .
    1 . . . . . . . .
    1 . . . . . . . .
    . . . . 1 . . . .

    Operators take another ``SquareSet``, an int bitboard or an iterable of squares; ``~`` complements within
    the 90 squares. Comparisons (``<=``, ``<``, ``>=``, ``>``) are subset and superset tests, and ``==`` also
    compares with an int bitboard.

    Raises:
        :class:`ValueError`: (the constructor, the operators and the named methods) an iterable holds something
            other than an int 0–89; an int bitboard is cut to the 90 squares instead.
    """

    __slots__ = ("mask",)

    def __init__(self, squares: _SquaresLike = 0) -> None:
        self.mask = _mask_of(squares)

    # ---- the set protocol

    def __iter__(self) -> Iterator[Square]:
        m = self.mask
        while m:
            low = m & -m
            yield low.bit_length() - 1
            m ^= low

    def __reversed__(self) -> Iterator[Square]:
        m = self.mask
        while m:
            top = m.bit_length() - 1
            yield top
            m ^= 1 << top

    def __len__(self) -> int:
        return bin(self.mask).count("1")

    def __contains__(self, sq: object) -> bool:
        return isinstance(sq, int) and 0 <= sq < 90 and bool(self.mask >> sq & 1)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SquareSet):
            return self.mask == other.mask
        if isinstance(other, int):
            return self.mask == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    # ---- operators

    def __or__(self, other: _SquaresLike) -> "SquareSet":
        return SquareSet(self.mask | _mask_of(other))

    __ror__ = __or__

    def __and__(self, other: _SquaresLike) -> "SquareSet":
        return SquareSet(self.mask & _mask_of(other))

    __rand__ = __and__

    def __xor__(self, other: _SquaresLike) -> "SquareSet":
        return SquareSet(self.mask ^ _mask_of(other))

    __rxor__ = __xor__

    def __sub__(self, other: _SquaresLike) -> "SquareSet":
        return SquareSet(self.mask & ~_mask_of(other))

    def __rsub__(self, other: _SquaresLike) -> "SquareSet":
        return SquareSet(_mask_of(other) & ~self.mask)

    def __invert__(self) -> "SquareSet":
        return SquareSet(~self.mask & BB_ALL)

    def __ior__(self, other: _SquaresLike) -> "SquareSet":
        self.mask |= _mask_of(other)
        return self

    def __iand__(self, other: _SquaresLike) -> "SquareSet":
        self.mask &= _mask_of(other)
        return self

    def __ixor__(self, other: _SquaresLike) -> "SquareSet":
        self.mask ^= _mask_of(other)
        return self

    def __isub__(self, other: _SquaresLike) -> "SquareSet":
        self.mask &= ~_mask_of(other)
        return self

    def __le__(self, other: _SquaresLike) -> bool:
        return self.issubset(other)

    def __lt__(self, other: _SquaresLike) -> bool:
        o = _mask_of(other)
        return self.mask & ~o == 0 and self.mask != o

    def __ge__(self, other: _SquaresLike) -> bool:
        return self.issuperset(other)

    def __gt__(self, other: _SquaresLike) -> bool:
        o = _mask_of(other)
        return o & ~self.mask == 0 and self.mask != o

    # ---- named set methods

    def add(self, square: Square) -> None:
        """Add a square (0–89; another value raises :class:`ValueError`).

        >>> s = SquareSet(); s.add(89); s.squares()
        [89]
        """
        self.mask |= _mask_of([square])

    def discard(self, square: Square) -> None:
        """Remove a square if present.

        >>> s = SquareSet([3]); s.discard(3); s.discard(3); len(s)
        0
        """
        self.mask &= ~_mask_of([square])

    def remove(self, square: Square) -> None:
        """Remove a square (:meth:`discard` does not mind if it is absent).

        >>> s = SquareSet([3, 4])
        >>> s.remove(3); s
        SquareSet(0x000_0000_0000_0000_0000_0010)

        Raises:
            :class:`KeyError`: ``square`` is not in the set.
        """
        if square not in self:
            raise KeyError(square)
        self.mask ^= 1 << square

    def pop(self) -> Square:
        """Remove and return the lowest square.

        >>> s = SquareSet([7, 3])
        >>> s.pop(), list(s)
        (3, [7])

        Raises:
            :class:`KeyError`: the set is empty.
        """
        if not self.mask:
            raise KeyError("pop from an empty SquareSet")
        low = self.mask & -self.mask
        self.mask ^= low
        return low.bit_length() - 1

    def clear(self) -> None:
        """Remove every square."""
        self.mask = 0

    def copy(self) -> "SquareSet":
        """A copy of the set."""
        return SquareSet(self.mask)

    def isdisjoint(self, other: _SquaresLike) -> bool:
        """Whether no square is in both sets.

        >>> SquareSet([1, 2]).isdisjoint([3]), SquareSet([1, 2]).isdisjoint(SquareSet([2]))
        (True, False)
        """
        return not self.mask & _mask_of(other)

    def issubset(self, other: _SquaresLike) -> bool:
        """Whether every square of this set is in ``other``.

        >>> SquareSet([1]).issubset([1, 2]), SquareSet([1, 5]).issubset([1, 2])
        (True, False)
        """
        return not self.mask & ~_mask_of(other)

    def issuperset(self, other: _SquaresLike) -> bool:
        """Whether every square of ``other`` is in this set."""
        return not _mask_of(other) & ~self.mask

    def union(self, other: _SquaresLike) -> "SquareSet":
        """``self | other``.

        >>> SquareSet([1]).union([2]).squares()
        [1, 2]
        """
        return self | other

    def intersection(self, other: _SquaresLike) -> "SquareSet":
        """``self & other``."""
        return self & other

    def difference(self, other: _SquaresLike) -> "SquareSet":
        """``self - other``."""
        return self - other

    def symmetric_difference(self, other: _SquaresLike) -> "SquareSet":
        """``self ^ other``."""
        return self ^ other

    def update(self, *others: _SquaresLike) -> None:
        """Add the squares of every argument.

        >>> s = SquareSet([1]); s.update([2], SquareSet([3])); s.squares()
        [1, 2, 3]
        """
        for o in others:
            self.mask |= _mask_of(o)

    def intersection_update(self, *others: _SquaresLike) -> None:
        """Keep only the squares in every argument."""
        for o in others:
            self.mask &= _mask_of(o)

    def difference_update(self, other: _SquaresLike) -> None:
        """Remove the squares of ``other``."""
        self.mask &= ~_mask_of(other)

    def symmetric_difference_update(self, other: _SquaresLike) -> None:
        """Toggle the squares of ``other``."""
        self.mask ^= _mask_of(other)

    def tolist(self) -> "list[bool]":
        """90 booleans, square 0 first.

        >>> flags = SquareSet([0, 89]).tolist(); len(flags), flags[0], flags[1], flags[89]
        (90, True, False, True)
        """
        return [bool(self.mask >> i & 1) for i in range(90)]

    def squares(self) -> "list[Square]":
        """The squares as a sorted list.

        >>> SquareSet([89, 4, 0]).squares()
        [0, 4, 89]
        """
        return list(self)

    def carry_rippler(self) -> Iterator[Bitboard]:
        """Every subset of the set, as int bitboards, the empty one first (python-chess's ``carry_rippler``).

        >>> [bin(b) for b in SquareSet([0, 2]).carry_rippler()]
        ['0b0', '0b1', '0b100', '0b101']
        """
        mask, subset = self.mask, 0
        while True:
            yield subset
            subset = (subset - mask) & mask
            if not subset:
                return

    def mirror(self) -> "SquareSet":
        """The set mirrored vertically, rank 0 ↔ 9 (python-chess's ``SquareSet.mirror``).

        >>> SquareSet.from_square(B2).mirror() == SquareSet.from_square(B7)
        True
        """
        return SquareSet(flip_vertical(self.mask))

    @classmethod
    def from_square(cls, square: Square) -> "SquareSet":
        """The set of the one square ``square``.

        >>> SquareSet.from_square(E0) == 1 << 4
        True

        Raises:
            :class:`ValueError`: ``square`` is not an int 0–89.
        """
        return cls([square])

    @classmethod
    def ray(cls, a: Square, b: Square) -> "SquareSet":
        """The rank, file or diagonal through ``a`` and ``b``, edge to edge (empty when not aligned; :func:`ray`).

        >>> print(SquareSet.ray(E0, E2))
        . . . . 1 . . . .
        . . . . 1 . . . .
        . . . . 1 . . . .
        . . . . 1 . . . .
        . . . . 1 . . . .
        . . . . 1 . . . .
        . . . . 1 . . . .
        . . . . 1 . . . .
        . . . . 1 . . . .
        . . . . 1 . . . .
        """
        return cls(ray(a, b))

    @classmethod
    def between(cls, a: Square, b: Square) -> "SquareSet":
        """The squares strictly between ``a`` and ``b`` on their rank, file or diagonal (:func:`between`).

        >>> SquareSet.between(H2, B2).squares() == [C2, D2, E2, F2, G2]
        True
        """
        return cls(between(a, b))

    def __repr__(self) -> str:
        return f"SquareSet({self.mask:#030_x})"

    def __str__(self) -> str:
        rows = []
        for r in range(9, -1, -1):
            rows.append(" ".join("1" if self.mask >> (r * 9 + f) & 1 else "." for f in range(9)))
        return "\n".join(rows)
