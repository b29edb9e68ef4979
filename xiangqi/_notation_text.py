"""Move texts read without a position: the notations' tables (numerals, piece names, qualifiers) and the decoding
of one move's text (Chinese, WXF, ICCS) into a description that :mod:`xiangqi.notation` resolves on a board.
This module is the notation module's own; its names are not part of the public API.
"""

from __future__ import annotations

import re
from typing import Dict, Optional, Tuple

from xiangqi.core import ADVISOR, CANNON, ELEPHANT, HORSE, KING, NULL_MOVE_TEXTS, PAWN, ROOK, SAME_SQUARE_REASON, Move
from xiangqi.errors import InvalidMoveError

# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------

RED_NUMERALS = "一二三四五六七八九"
_ASCII_DIGITS = "123456789"
_FULLWIDTH_DIGITS = "１２３４５６７８９"

#: numeral character (any script) -> 1..9
_NUMERAL: Dict[str, int] = {}
for _i in range(9):
    _NUMERAL[RED_NUMERALS[_i]] = _i + 1
    _NUMERAL[_ASCII_DIGITS[_i]] = _i + 1
    _NUMERAL[_FULLWIDTH_DIGITS[_i]] = _i + 1

ANY = -1  # colour hint: the character names either side's piece

#: piece character -> (piece type, colour hint: 1 Red, 0 Black, -1 either)
_CHINESE_PIECE: Dict[str, Tuple[int, int]] = {
    "帅": (KING, 1), "帥": (KING, 1), "将": (KING, 0), "將": (KING, 0),
    "仕": (ADVISOR, ANY), "士": (ADVISOR, ANY),
    "相": (ELEPHANT, ANY), "象": (ELEPHANT, ANY),
    "马": (HORSE, ANY), "馬": (HORSE, ANY), "傌": (HORSE, ANY), "㐷": (HORSE, ANY),
    "车": (ROOK, ANY), "車": (ROOK, ANY), "俥": (ROOK, ANY), "伡": (ROOK, ANY),
    "炮": (CANNON, ANY), "砲": (CANNON, ANY), "包": (CANNON, ANY),
    "兵": (PAWN, 1), "卒": (PAWN, 0),
}

_CHINESE_DIRECTION: Dict[str, int] = {"进": 1, "進": 1, "上": 1, "退": -1, "下": -1, "平": 0}

# Qualifiers: which of the pieces standing on one file (counted front to back).
# 1..5 are ordinals.
LAST = -1          # 后/後, WXF "--"
MIDDLE = 0         # 中 (either middle one of four)
W_FRONT = 10       # WXF "+": first of 2 or 3, second of 4 or 5
W_REAR = 11        # WXF "-": last of 2 or 3, second to last of 4 or 5
W_FILE = 12        # WXF "P3": the only one, the middle of 3 or 5, else any that can move so
ALL = 13           # Chinese "兵三": the only one, else any that can move so
W_MID_OR_ORD = 20  # "33": WXF's middle of 3 or 5, or pyffish's ordinal (code - 20) on that file

_CHINESE_QUALIFIER: Dict[str, int] = {"前": 1, "中": MIDDLE, "后": LAST, "後": LAST}
for _i, _c in enumerate("一二三四五"):
    _CHINESE_QUALIFIER[_c] = _i + 1
for _i in range(5):
    _CHINESE_QUALIFIER[_ASCII_DIGITS[_i]] = _i + 1
    _CHINESE_QUALIFIER[_FULLWIDTH_DIGITS[_i]] = _i + 1

_WXF_PIECE: Dict[str, int] = {
    "K": KING, "A": ADVISOR, "E": ELEPHANT, "B": ELEPHANT, "H": HORSE, "N": HORSE,
    "R": ROOK, "C": CANNON, "P": PAWN,
}
for _k in list(_WXF_PIECE):
    _WXF_PIECE[_k.lower()] = _WXF_PIECE[_k]
_WXF_OP: Dict[str, int] = {"+": 1, "-": -1, ".": 0, "=": 0}
_WXF_SYMBOL_QUALIFIER: Dict[str, int] = {"+": W_FRONT, "-": W_REAR, ".": MIDDLE,
                                         "a": 1, "b": 2, "c": 3, "d": 4, "e": 5}

#: by piece type: advisors, elephants and horses move diagonally (last number = file)
DIAGONAL = (False, False, True, True, True, False, False, False)
#: diagonal movers: |file change| -> |rank change|
_DIAGONAL_STEP: Dict[int, Dict[int, int]] = {HORSE: {1: 2, 2: 1}, ELEPHANT: {2: 2}, ADVISOR: {1: 1}}

PIECE_WORD = ("piece", "pawn", "advisor", "elephant", "horse", "cannon", "rook", "king")
#: by piece type: the word with its indefinite article ("an advisor", "a horse")
_A_PIECE = tuple(("an " if w[0] in "aeiou" else "a ") + w for w in PIECE_WORD)
SIDE_WORD = ("Black", "Red")

_SIMPLIFIED_PIECES = ("?卒士象马炮车将", "?兵仕相马炮车帅")   # [colour][piece type]
_TRADITIONAL_PIECES = ("?卒士象馬炮車將", "?兵仕相馬炮車帥")
WXF_LETTERS = "?PAEHCRK"
ORDINALS = "前二三四五"


class Style:
    """The characters of one Chinese writing style."""

    __slots__ = ("pieces", "numerals", "directions", "rear", "key")

    def __init__(self, traditional: bool, fullwidth: bool) -> None:
        self.pieces = _TRADITIONAL_PIECES if traditional else _SIMPLIFIED_PIECES
        #: [colour][number 1-9]
        self.numerals = ("?" + (_FULLWIDTH_DIGITS if fullwidth else _ASCII_DIGITS), "?" + RED_NUMERALS)
        #: [direction 0 / 1 / -1]: sideways, forward, backward
        self.directions = ("平", "進" if traditional else "进", "退")
        self.rear = "後" if traditional else "后"
        self.key = (traditional, fullwidth)


STYLES = {(t, f): Style(t, f) for t in (False, True) for f in (False, True)}

# ---------------------------------------------------------------------------
# Decoding: text -> description (no position needed)
# ---------------------------------------------------------------------------

KIND_ICCS = 0
KIND_CHINESE = 1
_KIND_WXF = 2
KIND_NAMES = ("ICCS", "Chinese", "WXF")

#: Resolution by one lookup for one side: (piece code, file index 0-8, square delta).
_Fast = Optional[Tuple[int, int, int]]


class Desc:
    """A decoded token.

    ``selectors`` are ``(qualifier, file)`` alternatives: ``file`` is the
    mover's file number 1–9, or 0 for "any file holding two or more of the
    piece"; ``qualifier`` is one of the codes above.  An ICCS token has its
    move code in ``code``.
    """

    __slots__ = ("kind", "text", "ptype", "hint", "selectors", "direction", "number", "code")

    def __init__(self, kind: int, text: str, ptype: int = 0, hint: int = ANY,
                 selectors: Tuple[Tuple[int, int], ...] = (), direction: int = 0, number: int = 0,
                 code: int = -1) -> None:
        self.kind = kind
        self.text = text
        self.ptype = ptype
        self.hint = hint
        self.selectors = selectors
        self.direction = direction
        self.number = number
        self.code = code

    def __repr__(self) -> str:
        return (f"Desc({KIND_NAMES[self.kind]}, {self.text!r}, ptype={self.ptype}, hint={self.hint}, "
                f"selectors={self.selectors}, direction={self.direction}, number={self.number}, code={self.code})")

    def fast(self, red: bool) -> _Fast:
        """The one-lookup resolution for side ``red`` when the token names the piece's file."""
        if self.kind == KIND_ICCS or len(self.selectors) != 1:
            return None
        q, f = self.selectors[0]
        if not f or q not in (ALL, W_FILE) or self.hint not in (ANY, int(red)):
            return None
        fi = file_index(f, red)
        delta = delta_of(self.ptype, red, fi, self.direction, self.number)
        return None if delta is None else (int(red) << 3 | self.ptype, fi, delta)


#: A cache entry: (fast path for Black, fast path for Red, description, ICCS move code or -1).
Entry = Tuple[_Fast, _Fast, Desc, int]


def _entry(desc: Desc) -> Entry:
    return (desc.fast(False), desc.fast(True), desc, desc.code if desc.kind == KIND_ICCS and desc.code else -1)


def file_index(number: int, red: bool) -> int:
    """ICCS file index (0 = a) of the mover's file ``number`` (1–9 from the mover's right)."""
    return 9 - number if red else number - 1


def file_number_of(fi: int, red: bool) -> int:
    """The mover's number (1–9) of ICCS file index ``fi``."""
    return 9 - fi if red else fi + 1


def delta_of(ptype: int, red: bool, fi: int, direction: int, number: int) -> Optional[int]:
    """The square delta of the move from file index ``fi``, or None when there is no such move."""
    if DIAGONAL[ptype]:
        if direction == 0:
            return None
        tf = file_index(number, red)
        dr = _DIAGONAL_STEP[ptype].get(abs(tf - fi))
        if dr is None:
            return None
        return tf - fi + direction * dr * (9 if red else -9)
    if direction == 0:
        tf = file_index(number, red)
        return None if tf == fi else tf - fi
    return direction * number * (9 if red else -9)


class Invalid(Exception):
    """Raised by the decoders; the public functions turn it into :class:`InvalidMoveError`."""


def _check_geometry(ptype: int, direction: int, number: int, file_number: int, s: str) -> None:
    """Reject what no position makes legal: a horse sideways, an elephant one file across."""
    if DIAGONAL[ptype]:
        if direction == 0:
            raise Invalid(f"{_A_PIECE[ptype]} never moves sideways (平, '.' or '=')")
        if file_number and abs(number - file_number) not in _DIAGONAL_STEP[ptype]:
            raise Invalid(f"{_A_PIECE[ptype]} cannot go from file {file_number} to file {number}")
    elif direction == 0 and file_number and number == file_number:
        raise Invalid(f"a sideways move (平, '.' or '=') must change the file, not stay on {number}")


def _decode_chinese(s: str) -> Desc:
    n = len(s)
    if n not in (4, 5):
        raise Invalid(f"a Chinese move has 4 characters (piece, file, direction, number) or 5 (前兵九平八), "
                       f"not {n}")
    direction = _CHINESE_DIRECTION.get(s[-2])
    number = _NUMERAL.get(s[-1])
    if direction is None:
        raise Invalid(f"{s[-2]!r} is not a direction (进/進/上, 退/下, 平)")
    if number is None:
        raise Invalid(f"{s[-1]!r} is not a numeral (一…九, 1…9, １…９)")
    c0, c1 = s[0], s[1]
    if n == 4:
        piece = _CHINESE_PIECE.get(c0)
        if piece is not None:
            f = _NUMERAL.get(c1)
            if f is None:
                raise Invalid(f"{c1!r} after the piece {c0!r} is not a file numeral")
            _check_geometry(piece[0], direction, number, f, s)
            return Desc(KIND_CHINESE, s, piece[0], piece[1], ((ALL, f),), direction, number)
        q = _CHINESE_QUALIFIER.get(c0)
        if q is None:
            raise Invalid(f"{c0!r} is neither a piece nor 前/中/后 or an ordinal")
        piece = _CHINESE_PIECE.get(c1)
        if piece is not None:
            _check_geometry(piece[0], direction, number, 0, s)
            return Desc(KIND_CHINESE, s, piece[0], piece[1], ((q, 0),), direction, number)
        f = _NUMERAL.get(c1)
        if f is None:
            raise Invalid(f"{c1!r} after {c0!r} is neither a piece nor a file numeral")
        _check_geometry(PAWN, direction, number, f, s)
        return Desc(KIND_CHINESE, s, PAWN, ANY, ((q, f),), direction, number)
    q = _CHINESE_QUALIFIER.get(c0)
    piece = _CHINESE_PIECE.get(c1)
    f = _NUMERAL.get(s[2])
    if q is None or piece is None or f is None:
        bad = c0 if q is None else c1 if piece is None else s[2]
        raise Invalid(f"a five-character move is qualifier, piece, file, direction, number (前兵九平八); "
                       f"{bad!r} does not fit there")
    _check_geometry(piece[0], direction, number, f, s)
    return Desc(KIND_CHINESE, s, piece[0], piece[1], ((q, f),), direction, number)


def _digit(c: str) -> int:
    return ord(c) - 48 if "1" <= c <= "9" else 0


def _decode_wxf(s: str) -> Desc:
    if len(s) != 4:
        raise Invalid(f"a WXF move has 4 characters (piece, file, operator, number), not {len(s)}")
    direction = _WXF_OP.get(s[2])
    number = _digit(s[3])
    if direction is None:
        raise Invalid(f"{s[2]!r} is not an operator (+ advance, - retreat, . or = traverse)")
    if not number:
        raise Invalid(f"{s[3]!r} is not a digit 1-9")
    c0, c1 = s[0], s[1]
    ptype = _WXF_PIECE.get(c0)
    sel: Tuple[Tuple[int, int], ...]
    file_number = 0
    if ptype is not None and _digit(c1):
        file_number = _digit(c1)
        sel = ((W_FILE, file_number),)
    elif ptype is not None and c1 in _WXF_SYMBOL_QUALIFIER:
        sel = ((_WXF_SYMBOL_QUALIFIER[c1], 0),)
    elif c1 in _WXF_PIECE and c0 in _WXF_SYMBOL_QUALIFIER:  # xqbase: +C-2
        ptype = _WXF_PIECE[c1]
        sel = ((_WXF_SYMBOL_QUALIFIER[c0], 0),)
    elif c0 == c1 and c0 in "+-":
        ptype = PAWN
        sel = ((1 if c0 == "+" else LAST, 0),)
    elif _digit(c0) and c1 in "+-":
        ptype = PAWN
        sel = ((W_FRONT if c1 == "+" else W_REAR, _digit(c0)),)
    elif _digit(c0) and _digit(c1):
        ptype, o, f = PAWN, _digit(c0), _digit(c1)
        if o == f:
            sel = ((W_MID_OR_ORD + o, f),)
        elif o <= 5:
            sel = ((o, f),)
        else:
            raise Invalid(f"{s[:2]!r}: a pawn ordinal before the file is 1-5")
    else:
        raise Invalid(f"{s[:2]!r} is not a piece letter (K A E H R C P, B, N) with a file or +/-")
    _check_geometry(ptype, direction, number, file_number, s)
    return Desc(_KIND_WXF, s, ptype, ANY, sel, direction, number)


_ICCS_RE = re.compile(r"([a-i])([0-9])-?([a-i])([0-9])", re.ASCII | re.IGNORECASE)
_ICCS1_RE = re.compile(r"([a-i])(10|[1-9])-?([a-i])(10|[1-9])", re.ASCII | re.IGNORECASE)


def _decode_iccs(s: str, one_based: bool) -> Optional[Desc]:
    m = (_ICCS1_RE if one_based else _ICCS_RE).fullmatch(s)
    if m is None:
        return Desc(KIND_ICCS, s, code=0) if s in NULL_MOVE_TEXTS else None
    base = 1 if one_based else 0
    a, r1, b, r2 = m.groups()
    frm = (int(r1) - base) * 9 + ord(a.lower()) - 97
    to = (int(r2) - base) * 9 + ord(b.lower()) - 97
    if frm == to:
        raise Invalid(SAME_SQUARE_REASON)
    return Desc(KIND_ICCS, s, code=frm << 7 | to)


#: Full-width ASCII (Ｃ２．５, Ｈ２－Ｅ２) folds to ASCII before WXF and ICCS are tried.
_FOLD = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_MAX_LEN = 16


#: Annotation marks that may follow a complete move (炮二平五!, C2.5?!, h2e2+, 车一进一#, 马八进七。).
_MARKS = "!?+#。！？"
#: The last character of every complete move: a numeral of some script (ICCS ranks include 0).
_MOVE_END = frozenset("0123456789０１２３４５６７８９" + RED_NUMERALS)


def _prepare(text: str) -> str:
    s = text.strip()
    if s and s[-1] in _MARKS:
        # Only marks after a complete move (4 characters or more, ending in a numeral) go: C2+ and P++ keep
        # their WXF operators and are reported as short moves.
        t = s.rstrip(_MARKS).rstrip()
        if len(t) >= 4 and t[-1] in _MOVE_END:
            s = t
    if not s:
        raise Invalid("empty move text")
    if len(s) > _MAX_LEN:
        raise Invalid(f"too long for a move ({len(s)} characters)")
    return s


def _fold_ascii(s: str) -> str:
    """``s`` with full-width ASCII (letters, digits, signs) folded, when that makes it ASCII.

    A Chinese token stays as it is (its full-width numerals are read as such);
    ``C２.5``, ``h２e２`` and ``Ｃ２．５`` become ``C2.5``, ``h2e2`` and ``C2.5``.
    """
    if s.isascii():
        return s
    folded = s.translate(_FOLD)
    return folded if folded.isascii() else s


def _decode_any(text: str, one_based: bool) -> Desc:
    s = _fold_ascii(_prepare(text))
    if not s.isascii():
        if any("\u3400" <= c <= "\u9fff" for c in s):
            return _decode_chinese(s)
        raise Invalid("neither Chinese, WXF nor ICCS (unexpected script)")
    d = _decode_iccs(s, one_based)
    if d is not None:
        return d
    try:
        return _decode_wxf(s)
    except Invalid as exc:
        if not one_based and _ICCS1_RE.fullmatch(s):
            raise Invalid("not ICCS (h2e2, ranks 0-9) nor WXF; it looks like 1-based coordinates (h3e3, a10a9): "
                           "read those with one_based=True") from None
        if len(s) in (4, 5, 6) and s[0].lower() in "abcdefghi" and s[1].isdigit():
            form = "h3e3, ranks 1-10" if one_based else "h2e2, ranks 0-9"
            raise Invalid(f"not ICCS ({form}) nor WXF ({exc})") from None
        raise Invalid(f"not WXF ({exc}) nor ICCS (h2e2)") from None


_CACHE_LIMIT = 100_000
CHINESE_CACHE: Dict[str, Entry] = {}
WXF_CACHE: Dict[str, Entry] = {}
ICCS_CACHE: Tuple[Dict[str, Entry], Dict[str, Entry]] = ({}, {})
ANY_CACHE: Tuple[Dict[str, Entry], Dict[str, Entry]] = ({}, {})


def _remember(cache: Dict[str, Entry], text: str, desc: Desc) -> Entry:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    e = cache[text] = _entry(desc)
    return e


def chinese_entry(text: str) -> Entry:
    e = CHINESE_CACHE.get(text)
    return e if e is not None else _remember(CHINESE_CACHE, text, _decode_chinese(_prepare(text)))


def wxf_entry(text: str) -> Entry:
    e = WXF_CACHE.get(text)
    return e if e is not None else _remember(WXF_CACHE, text, _decode_wxf(_fold_ascii(_prepare(text))))


def iccs_entry(text: str, one_based: bool) -> Entry:
    cache = ICCS_CACHE[one_based]
    e = cache.get(text)
    if e is None:
        d = _decode_iccs(_fold_ascii(_prepare(text)), one_based)
        if d is None:
            raise Invalid("expected a file a-i and a rank 1-10 twice, e.g. 'h3e3' or 'a10a9'" if one_based else
                           "expected a file a-i and a rank 0-9 twice, e.g. 'h2e2' or 'H2-E2'")
        e = _remember(cache, text, d)
    return e


def any_entry(text: str, one_based: bool) -> Entry:
    cache = ANY_CACHE[one_based]
    e = cache.get(text)
    return e if e is not None else _remember(cache, text, _decode_any(text, one_based))
