"""Move notation: Chinese (simplified, traditional, full-width), WXF letters and ICCS coordinates.

Reading is lenient and writing follows one documented convention.  A token is
*decoded* once into a small description that does not depend on the position
(cached by its text).  The description is then *resolved* against a position,
given as the 90 C piece codes, the side to move and a legality test on 16-bit
move codes.  Resolving a plain token such as ``車二進六`` takes one slice of the
piece codes, one count and one legality query.

Reading
=======

Chinese (four-character vertical-line notation, 纵线记谱):

* pieces: 帅帥 / 将將 (king), 仕士 (advisor), 相象 (elephant), 马馬傌㐷 (horse),
  车車俥伡 (rook), 炮砲包 (cannon), 兵 / 卒 (pawn).  帅帥兵 belong to Red and
  将將卒 to Black: such a character for the wrong side raises
  :class:`IllegalMoveError`.  The others name either side's piece.
* directions: 进進 and the older 上 (forward), 退 and the older 下 (backward),
  平 (sideways).
* numerals: 一…九, ``1``…``9`` and full-width ``１``…``９``.  Either script
  is read for either side.  A number always counts in the mover's own
  numbering, from the mover's right.
* several pieces of one kind on one file: 前/后(後) for two; 前/中/后 for
  three; 前 (or 一), 二, 三, 四, 五 (and 后 for the last) for four or five.
  Pawns on two files that each hold two or more take the file as well, either
  with five characters (``前兵九平八``) or with the piece left out
  (``前九平八``, ``二7平6``).  An ordinal with the piece and no file
  (``二兵进一``) counts xqbase's way: every pawn on a file holding two or
  more, files in order from the mover's right, then front to back.
  Advisors and elephants do not need 前/后 but may have it.  A piece written
  with its file when others of its kind stand on that file is read when only
  one of them can make the move.

WXF: letters ``K A E H R C P`` (``B``/``N`` too, either case), operators ``+``
``-`` and ``.`` or ``=``.  Several pieces on a file: ``R+.3``, ``C-+1``; pawns
``P+``/``P-`` (2 or 3), ``P3`` (the middle pawn of 3 or 5), ``++``/``P+``/
``P-``/``--`` (4 or 5), ``3+``/``33``/``3-`` (two files with tandem pawns:
file digit first), pyffish's ``17=6`` (ordinal, then file), and xqbase's
``C+-2``, ``+C-2``, ``Pa+1``, ``P.+1``.

ICCS: ``h2e2``, ``H2-E2`` (ranks 0–9).  Fairy-Stockfish's and pyffish's
1-based ranks (``h3e3``, ``a10a9``) are read only with ``one_based=True``.

Writing (the canonical forms)
=============================

Chinese: four characters.  Simplified: 帅仕相车马炮兵 / 将士象车马炮卒,
进退平, 后; traditional (``traditional=True``): 帥仕相車馬炮兵 / 將士象車馬炮卒,
進退平, 後 (exactly as the CCPD corpus writes them).  Red's numerals are
一…九; Black's are full-width ``１``…``９`` (or ``1``…``9`` with
``fullwidth=False``).  Pieces on one file: 前/后 (2), 前/中/后 (3),
前/二/三/四/五 (4 or 5); advisors and elephants get 前/后 only when the
direction alone does not tell them apart.  Pawns when two files each hold two
or more: qualifier, file, direction, number (``前九平八``), the Chinese
national rules' four-character form.

WXF: upper-case letters ``K A E H R C P`` for both sides, operators
``+ - .``; ``R+``/``R-`` for two pieces on a file; pawns ``P+ P-`` (2),
``P+ P<f> P-`` (3), ``++ P+ P- --`` (4), ``++ P+ P<f> P- --`` (5);
two files with tandem pawns ``<f>+``, ``<f><f>`` (middle of 3), ``<f>-``.

ICCS: lower case ``h2e2``; ``one_based=True`` writes ``h3e3``.

Bulk
====

:func:`parse_game`, :func:`format_game` and :func:`convert_game` work on a
whole game (a FEN and a list of tokens or moves) with one board and the
decoding cache, and return 16-bit move codes or strings.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, NoReturn, Optional, Sequence, Tuple, Union

from xiangqi.core import (
    ADVISOR,
    CANNON,
    ELEPHANT,
    HORSE,
    KING,
    PAWN,
    ROOK,
    SQUARE_NAMES,
    STARTING_FEN,
    Move,
)
from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:  # pragma: no cover
    from xiangqi.board import Board

__all__ = [
    "format_chinese",
    "parse_chinese",
    "format_wxf",
    "parse_wxf",
    "format_iccs",
    "parse_iccs",
    "parse_move",
    "parse_game",
    "format_game",
    "convert_game",
    "NOTATIONS",
]

#: Notation names accepted by the bulk functions.
NOTATIONS = ("chinese", "wxf", "iccs")

# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------

_RED_NUMERALS = "一二三四五六七八九"
_ASCII_DIGITS = "123456789"
_FULLWIDTH_DIGITS = "１２３４５６７８９"

#: numeral character -> 1..9 (any script).
_NUMERAL: Dict[str, int] = {}
for _i in range(9):
    _NUMERAL[_RED_NUMERALS[_i]] = _i + 1
    _NUMERAL[_ASCII_DIGITS[_i]] = _i + 1
    _NUMERAL[_FULLWIDTH_DIGITS[_i]] = _i + 1

_ANY = -1  # colour hint: the character names either side's piece

#: piece character -> (piece type, colour hint: 1 Red, 0 Black, -1 either).
_CHINESE_PIECE: Dict[str, Tuple[int, int]] = {
    "帅": (KING, 1), "帥": (KING, 1), "将": (KING, 0), "將": (KING, 0),
    "仕": (ADVISOR, _ANY), "士": (ADVISOR, _ANY),
    "相": (ELEPHANT, _ANY), "象": (ELEPHANT, _ANY),
    "马": (HORSE, _ANY), "馬": (HORSE, _ANY), "傌": (HORSE, _ANY), "㐷": (HORSE, _ANY),
    "车": (ROOK, _ANY), "車": (ROOK, _ANY), "俥": (ROOK, _ANY), "伡": (ROOK, _ANY),
    "炮": (CANNON, _ANY), "砲": (CANNON, _ANY), "包": (CANNON, _ANY),
    "兵": (PAWN, 1), "卒": (PAWN, 0),
}

_CHINESE_DIRECTION: Dict[str, int] = {"进": 1, "進": 1, "上": 1, "退": -1, "下": -1, "平": 0}

# Qualifier codes (which of the pieces on a file, counted front to back).
# 1..5 are ordinals.
_LAST = -1      # 后/後, WXF "--"
_MIDDLE = 0     # 中; for four pieces: either middle one
_W_FRONT = 10   # WXF "+": first of 2-3, second of 4-5
_W_REAR = 11    # WXF "-": last of 2-3, second to last of 4-5
_W_FILE = 12    # WXF "P3": the only one, the middle of 3 or 5, else any
_ALL = 13       # Chinese "兵三": the only one, else any that can make the move
_W_MID_OR_ORD = 20  # WXF "33" / pyffish "33": middle of 3 or 5, else ordinal (code - 20)

_CHINESE_QUALIFIER: Dict[str, int] = {"前": 1, "中": _MIDDLE, "后": _LAST, "後": _LAST}
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
_WXF_SYMBOL_QUALIFIER: Dict[str, int] = {"+": _W_FRONT, "-": _W_REAR, ".": _MIDDLE,
                                         "a": 1, "b": 2, "c": 3, "d": 4, "e": 5}

_DIAGONAL = (False, False, True, True, True, False, False, False)  # by piece type: A, E, H
#: For diagonal movers: |file change| -> |rank change|.
_DIAGONAL_STEP: Dict[int, Dict[int, int]] = {HORSE: {1: 2, 2: 1}, ELEPHANT: {2: 2}, ADVISOR: {1: 1}}

_PIECE_WORD = ("", "pawn", "advisor", "elephant", "horse", "cannon", "rook", "king")
_SIDE_WORD = ("Black", "Red")

# Writing tables, indexed [colour][piece type].
_SIMPLIFIED_PIECES = ("?卒士象马炮车将", "?兵仕相马炮车帅")
_TRADITIONAL_PIECES = ("?卒士象馬炮車將", "?兵仕相馬炮車帥")
_WXF_LETTERS = "?PAEHCRK"


class _Style:
    """The characters one Chinese writing style uses."""

    __slots__ = ("pieces", "numerals", "advance", "retreat", "across", "rear", "key")

    def __init__(self, traditional: bool, fullwidth: bool) -> None:
        self.pieces = _TRADITIONAL_PIECES if traditional else _SIMPLIFIED_PIECES
        self.numerals = ("?" + (_FULLWIDTH_DIGITS if fullwidth else _ASCII_DIGITS), "?" + _RED_NUMERALS)
        self.advance = "進" if traditional else "进"
        self.retreat = "退"
        self.across = "平"
        self.rear = "後" if traditional else "后"
        self.key = (traditional, fullwidth)


_STYLES = {(t, f): _Style(t, f) for t in (False, True) for f in (False, True)}

# ---------------------------------------------------------------------------
# Decoding: text -> description (independent of the position)
# ---------------------------------------------------------------------------

_KIND_ICCS = 0
_KIND_CHINESE = 1
_KIND_WXF = 2
_KIND_NAMES = ("ICCS", "Chinese", "WXF")

#: Fast path for one side: (piece code, file index 0-8, square delta), or None.
_Fast = Optional[Tuple[int, int, int]]


class _Desc:
    """A decoded token.

    ``selectors`` is a tuple of ``(qualifier, file)`` alternatives: ``file``
    is the mover's file number 1–9 or 0 for "every file holding two or more";
    ``qualifier`` one of the codes above.  For ICCS tokens ``code`` is the
    move code and the rest is unused.
    """

    __slots__ = ("kind", "text", "ptype", "hint", "selectors", "direction", "number", "code")

    def __init__(self, kind: int, text: str, ptype: int = 0, hint: int = _ANY,
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
        return (f"_Desc({_KIND_NAMES[self.kind]}, {self.text!r}, ptype={self.ptype}, hint={self.hint}, "
                f"selectors={self.selectors}, direction={self.direction}, number={self.number}, code={self.code})")

    def fast(self, red: bool) -> _Fast:
        """The one-lookup resolution for the side ``red``, when the token names a file."""
        if self.kind == _KIND_ICCS or len(self.selectors) != 1:
            return None
        q, f = self.selectors[0]
        if f == 0 or q not in (_ALL, _W_FILE):
            return None
        if self.hint != _ANY and self.hint != int(red):
            return None
        delta = _delta(self.ptype, red, _file_index(f, red), self.direction, self.number)
        if delta is None:
            return None
        return (int(red) << 3 | self.ptype, _file_index(f, red), delta)


#: A cache entry: (fast path for Black, fast path for Red, description).
_Entry = Tuple[_Fast, _Fast, _Desc]


def _entry(desc: _Desc) -> _Entry:
    return (desc.fast(False), desc.fast(True), desc)


def _file_index(number: int, red: bool) -> int:
    """ICCS file index (0 = a) of the mover's file ``number`` (1–9, from the mover's right)."""
    return 9 - number if red else number - 1


def _delta(ptype: int, red: bool, fi: int, direction: int, number: int) -> Optional[int]:
    """The square delta of a move from file index ``fi``, or None if no such move exists."""
    if _DIAGONAL[ptype]:
        if direction == 0:
            return None
        tf = _file_index(number, red)
        dr = _DIAGONAL_STEP[ptype].get(abs(tf - fi))
        if dr is None:
            return None
        return tf - fi + direction * dr * (9 if red else -9)
    if direction == 0:
        tf = _file_index(number, red)
        return None if tf == fi else tf - fi
    return direction * number * (9 if red else -9)


class _Invalid(Exception):
    """Raised by the decoders; turned into :class:`InvalidMoveError` with the position."""


def _check_direction_geometry(ptype: int, direction: int, number: int, file_number: int, text: str) -> None:
    """Reject tokens that no position can make legal (a horse sideways, a horse three files away)."""
    if _DIAGONAL[ptype]:
        if direction == 0:
            raise _Invalid(f"{text!r}: a {_PIECE_WORD[ptype]} never moves sideways (平 / '.')")
        if file_number and abs(number - file_number) not in _DIAGONAL_STEP[ptype]:
            raise _Invalid(f"{text!r}: a {_PIECE_WORD[ptype]} cannot move from file {file_number} "
                           f"to file {number}")
    elif direction == 0 and file_number and number == file_number:
        raise _Invalid(f"{text!r}: a sideways move (平 / '.') must change the file")


def _decode_chinese_public(text: str) -> _Desc:
    """Decode a Chinese token (no position needed).  Raises :class:`InvalidMoveError`."""
    try:
        return _decode_chinese(text.strip(), text)
    except _Invalid as exc:
        raise InvalidMoveError(f"invalid Chinese move {_show(text)}: {exc}") from None


def _decode_chinese(s: str, text: str) -> _Desc:
    n = len(s)
    if n not in (4, 5):
        raise _Invalid(f"expected 4 characters (piece, file, direction, number) or 5 (前兵九平八), "
                       f"got {n}")
    direction = _CHINESE_DIRECTION.get(s[-2])
    number = _NUMERAL.get(s[-1])
    if direction is None:
        raise _Invalid(f"{s[-2]!r} is not a direction (进/進/上, 退/下, 平)")
    if number is None:
        raise _Invalid(f"{s[-1]!r} is not a numeral (一…九, 1…9, １…９)")
    c0, c1 = s[0], s[1]
    if n == 4:
        piece = _CHINESE_PIECE.get(c0)
        if piece is not None:
            f = _NUMERAL.get(c1)
            if f is None:
                raise _Invalid(f"{c1!r} after the piece {c0!r} is not a file numeral")
            ptype, hint = piece
            _check_direction_geometry(ptype, direction, number, f, s)
            return _Desc(_KIND_CHINESE, s, ptype, hint, ((_ALL, f),), direction, number)
        q = _CHINESE_QUALIFIER.get(c0)
        if q is None:
            raise _Invalid(f"{c0!r} is neither a piece nor 前/中/后/an ordinal")
        piece = _CHINESE_PIECE.get(c1)
        if piece is not None:
            ptype, hint = piece
            _check_direction_geometry(ptype, direction, number, 0, s)
            return _Desc(_KIND_CHINESE, s, ptype, hint, ((q, 0),), direction, number)
        f = _NUMERAL.get(c1)
        if f is None:
            raise _Invalid(f"{c1!r} after {c0!r} is neither a piece nor a file numeral")
        _check_direction_geometry(PAWN, direction, number, f, s)
        return _Desc(_KIND_CHINESE, s, PAWN, _ANY, ((q, f),), direction, number)
    q = _CHINESE_QUALIFIER.get(c0)
    piece = _CHINESE_PIECE.get(c1)
    f = _NUMERAL.get(s[2])
    if q is None or piece is None or f is None:
        raise _Invalid("a five-character move is qualifier, piece, file, direction, number (前兵九平八)")
    ptype, hint = piece
    _check_direction_geometry(ptype, direction, number, f, s)
    return _Desc(_KIND_CHINESE, s, ptype, hint, ((q, f),), direction, number)


def _decode_wxf_public(text: str) -> _Desc:
    """Decode a WXF token (no position needed).  Raises :class:`InvalidMoveError`."""
    try:
        return _decode_wxf(text.strip(), text)
    except _Invalid as exc:
        raise InvalidMoveError(f"invalid WXF move {_show(text)}: {exc}") from None


def _digit(c: str) -> int:
    return ord(c) - 48 if "1" <= c <= "9" and len(c) == 1 else 0


def _decode_wxf(s: str, text: str) -> _Desc:
    if len(s) != 4:
        raise _Invalid(f"expected 4 characters (piece, file, operator, number), got {len(s)}")
    direction = _WXF_OP.get(s[2])
    number = _digit(s[3])
    if direction is None:
        raise _Invalid(f"{s[2]!r} is not an operator (+ advance, - retreat, . or = traverse)")
    if not number:
        raise _Invalid(f"{s[3]!r} is not a digit 1-9")
    c0, c1 = s[0], s[1]
    ptype = _WXF_PIECE.get(c0)
    sel: Tuple[Tuple[int, int], ...]
    f = 0
    if ptype is not None and _digit(c1):
        f = _digit(c1)
        sel = ((_W_FILE, f),)
    elif ptype is not None and c1 in _WXF_SYMBOL_QUALIFIER:
        sel = ((_WXF_SYMBOL_QUALIFIER[c1], 0),)
    elif c1 in _WXF_PIECE and c0 in _WXF_SYMBOL_QUALIFIER:
        ptype = _WXF_PIECE[c1]
        sel = ((_WXF_SYMBOL_QUALIFIER[c0], 0),)
    elif c0 == c1 and c0 in "+-":
        ptype = PAWN
        sel = ((1 if c0 == "+" else _LAST, 0),)
    elif _digit(c0) and c1 in "+-":
        ptype, f = PAWN, _digit(c0)
        sel = ((_W_FRONT if c1 == "+" else _W_REAR, f),)
    elif _digit(c0) and _digit(c1):
        ptype, f = PAWN, _digit(c1)
        o = _digit(c0)
        if o == f:
            sel = ((_W_MID_OR_ORD + o, f),)
        elif o <= 5:
            sel = ((o, f),)
        else:
            raise _Invalid(f"{s[:2]!r}: a pawn ordinal is 1-5")
    else:
        raise _Invalid(f"{s[:2]!r} is not a piece letter (KAEHRCP, B/N) with a file or +/-")
    _check_direction_geometry(ptype, direction, number, f if len(sel) == 1 and sel[0][0] == _W_FILE else 0, s)
    return _Desc(_KIND_WXF, s, ptype, _ANY, sel, direction, number)


_ICCS_RE = re.compile(r"([a-i])([0-9])-?([a-i])([0-9])", re.ASCII | re.IGNORECASE)
_ICCS1_RE = re.compile(r"([a-i])(10|[1-9])-?([a-i])(10|[1-9])", re.ASCII | re.IGNORECASE)


def _decode_iccs(s: str, one_based: bool) -> Optional[_Desc]:
    m = (_ICCS1_RE if one_based else _ICCS_RE).fullmatch(s)
    if m is None:
        if s == "0000":
            return _Desc(_KIND_ICCS, s, code=0)
        return None
    base = 1 if one_based else 0
    a, r1, b, r2 = m.groups()
    frm = (int(r1) - base) * 9 + ord(a.lower()) - 97
    to = (int(r2) - base) * 9 + ord(b.lower()) - 97
    return _Desc(_KIND_ICCS, s, code=frm << 7 | to)


# Full-width ASCII (Ｈ２－Ｅ２, Ｃ２．５) is folded to ASCII before ICCS and WXF are tried.
_FOLD = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_FOLD[0x3000] = 0x20


def _decode_any(text: str, one_based: bool) -> _Desc:
    s = text.strip()
    if not s:
        raise _Invalid("empty move text")
    if len(s) > 16:
        raise _Invalid(f"too long ({len(s)} characters) for a move in any notation")
    if not s.isascii():
        folded = s.translate(_FOLD)
        if folded.isascii() and any("Ａ" <= c <= "ｚ" or c in "＋－．＝" for c in s):
            s = folded
    if s.isascii():
        d = _decode_iccs(s, one_based)
        if d is not None:
            return d
        try:
            return _decode_wxf(s, text)
        except _Invalid as exc:
            if len(s) == 4 and s[0] in "abcdefghiABCDEFGHI" and s[1].isdigit():
                raise _Invalid(f"not ICCS ({'ranks 1-10' if one_based else 'ranks 0-9'}), and as WXF: {exc}")
            raise _Invalid(f"not ICCS (h2e2) and, as WXF: {exc}") from None
    return _decode_chinese(s, text)


_CacheKey = Union[str, Tuple[str, bool]]
_CHINESE_CACHE: Dict[str, _Entry] = {}
_WXF_CACHE: Dict[str, _Entry] = {}
_ANY_CACHE: Dict[Tuple[str, bool], _Entry] = {}
_CACHE_LIMIT = 200_000


def _chinese_entry(text: str) -> _Entry:
    e = _CHINESE_CACHE.get(text)
    if e is None:
        e = _entry(_decode_chinese(text.strip(), text))
        if len(_CHINESE_CACHE) >= _CACHE_LIMIT:
            _CHINESE_CACHE.clear()
        _CHINESE_CACHE[text] = e
    return e


def _wxf_entry(text: str) -> _Entry:
    e = _WXF_CACHE.get(text)
    if e is None:
        s = text.strip()
        if not s.isascii():
            folded = s.translate(_FOLD)
            if folded.isascii():
                s = folded
        e = _entry(_decode_wxf(s, text))
        if len(_WXF_CACHE) >= _CACHE_LIMIT:
            _WXF_CACHE.clear()
        _WXF_CACHE[text] = e
    return e


def _any_entry(text: str, one_based: bool) -> _Entry:
    key = (text, one_based)
    e = _ANY_CACHE.get(key)
    if e is None:
        e = _entry(_decode_any(text, one_based))
        if len(_ANY_CACHE) >= _CACHE_LIMIT:
            _ANY_CACHE.clear()
        _ANY_CACHE[key] = e
    return e


# ---------------------------------------------------------------------------
# Resolution against a position
# ---------------------------------------------------------------------------

Legal = Callable[[int], bool]


class _Fail(Exception):
    """Raised by the resolver; the public functions add the token and the FEN."""

    def __init__(self, cls: type, reason: str) -> None:
        super().__init__(reason)
        self.cls = cls
        self.reason = reason


def _file_squares(pc: Union[bytes, bytearray], fi: int, code: int, red: bool) -> List[int]:
    """Squares of piece ``code`` on file index ``fi``, front (nearest the opponent) first."""
    col = pc[fi::9]
    ranks = [r for r in range(10) if col[r] == code]
    if red:
        ranks.reverse()
    return [r * 9 + fi for r in ranks]


def _select(seq: List[int], q: int) -> List[int]:
    """The pieces a qualifier picks among ``seq`` (one file, front to back)."""
    k = len(seq)
    if k == 0:
        return []
    if 1 <= q <= 5:
        return [seq[q - 1]] if q <= k else []
    if q == _LAST:
        return [seq[-1]]
    if q == _ALL:
        return seq
    if q == _W_FILE:
        return [seq[k // 2]] if k in (1, 3, 5) else seq
    if q == _MIDDLE:
        if k % 2:
            return [seq[k // 2]] if k >= 3 else []
        return seq[k // 2 - 1:k // 2 + 1] if k >= 4 else []
    if q == _W_FRONT:
        return [seq[0] if k <= 3 else seq[1]]
    if q == _W_REAR:
        return [seq[-1] if k <= 3 else seq[-2]]
    if q >= _W_MID_OR_ORD:
        if k in (3, 5):
            return [seq[k // 2]]
        o = q - _W_MID_OR_ORD
        return [seq[o - 1]] if o <= k else []
    raise AssertionError(q)  # pragma: no cover


def _files_from_right(red: bool) -> range:
    return range(8, -1, -1) if red else range(9)


def _candidates(desc: _Desc, pc: Union[bytes, bytearray], red: bool) -> List[int]:
    """From-squares the description can mean (before looking at the move itself)."""
    code = int(red) << 3 | desc.ptype
    out: List[int] = []
    for q, f in desc.selectors:
        if f:
            out.extend(_select(_file_squares(pc, _file_index(f, red), code, red), q))
            continue
        groups = [g for g in (_file_squares(pc, fi, code, red) for fi in _files_from_right(red)) if len(g) >= 2]
        if 1 <= q <= 5 and len(groups) > 1:
            combined = [sq for g in groups for sq in g]  # xqbase: files from the right, then front to back
            out.extend(combined[q - 1:q])
        else:
            for g in groups:
                out.extend(_select(g, q))
    return list(dict.fromkeys(out))


def _destination(desc: _Desc, frm: int, red: bool) -> int:
    """The to-square of the described move from ``frm``, or -1 if there is none."""
    delta = _delta(desc.ptype, red, frm % 9, desc.direction, desc.number)
    if delta is None:
        return -1
    to = frm + delta
    return to if 0 <= to < 90 else -1


def _piece_name(code: int) -> str:
    return f"{_SIDE_WORD[code >> 3]} {_PIECE_WORD[code & 7]}"


def _resolve(desc: _Desc, pc: Union[bytes, bytearray], red: bool, legal: Legal) -> int:
    """The move code the description names in the position, or raise :class:`_Fail`."""
    if desc.kind == _KIND_ICCS:
        code = desc.code
        if code == 0:
            return 0
        frm, to = code >> 7, code & 127
        if frm >= 90 or to >= 90:  # pragma: no cover - the pattern forbids it
            raise _Fail(InvalidMoveError, "square out of range")
        if legal(code):
            return code
        raise _Fail(IllegalMoveError, _why_illegal(pc, red, frm, to))
    side = _SIDE_WORD[int(red)]
    pname = f"{side} {_PIECE_WORD[desc.ptype]}"
    if desc.hint != _ANY and desc.hint != int(red):
        raise _Fail(IllegalMoveError, f"{desc.text[0] if desc.kind == _KIND_CHINESE else desc.text!r} "
                    f"names {_SIDE_WORD[desc.hint]}'s {_PIECE_WORD[desc.ptype]}, but {side} is to move")
    cands = _candidates(desc, pc, red)
    if not cands:
        raise _Fail(IllegalMoveError, _no_piece_reason(desc, pc, red, pname))
    moves: List[int] = []
    reasons: List[str] = []
    for frm in cands:
        to = _destination(desc, frm, red)
        if to < 0:
            reasons.append(f"the {pname} on {SQUARE_NAMES[frm]} cannot make that move (it would leave the board "
                           f"or the file)")
            continue
        code = frm << 7 | to
        if legal(code):
            moves.append(code)
        else:
            reasons.append(f"{SQUARE_NAMES[frm]}{SQUARE_NAMES[to]}: {_why_illegal(pc, red, frm, to)}")
    if len(moves) == 1:
        return moves[0]
    if not moves:
        raise _Fail(IllegalMoveError, "; ".join(reasons))
    squares = " and ".join(SQUARE_NAMES[c >> 7] for c in moves)
    hint = "前/后 (or 前/中/后, 一…五)" if desc.kind == _KIND_CHINESE else "+/- after the letter"
    raise _Fail(AmbiguousMoveError, f"the {pname}s on {squares} can all make it "
                f"({', '.join(SQUARE_NAMES[c >> 7] + SQUARE_NAMES[c & 127] for c in moves)}); "
                f"tell them apart with {hint}")


def _no_piece_reason(desc: _Desc, pc: Union[bytes, bytearray], red: bool, pname: str) -> str:
    code = int(red) << 3 | desc.ptype
    parts = []
    for q, f in desc.selectors:
        if f:
            fi = _file_index(f, red)
            n = pc[fi::9].count(code)
            if n == 0:
                parts.append(f"there is no {pname} on {side_file_name(f, red)} (file {'abcdefghi'[fi]})")
            else:
                parts.append(f"that qualifier picks none of the {n} {pname}(s) on {side_file_name(f, red)}")
        else:
            counts = [pc[fi::9].count(code) for fi in range(9)]
            tandem = sum(1 for c in counts if c >= 2)
            if not tandem:
                parts.append(f"no two {pname}s stand on one file, so 前/中/后/ordinals do not apply")
            else:
                parts.append(f"that qualifier picks none of the {pname}s standing two or more on a file")
    return "; ".join(dict.fromkeys(parts))


def side_file_name(number: int, red: bool) -> str:
    """How the mover calls its file ``number``: ``'file 二'`` for Red, ``'file 2'`` for Black."""
    return f"file {_RED_NUMERALS[number - 1] if red else number}"


def _between(a: int, b: int, pc: Union[bytes, bytearray]) -> List[int]:
    """Occupied squares strictly between two squares on one rank or file."""
    step = 1 if a // 9 == b // 9 else 9
    lo, hi = min(a, b), max(a, b)
    return [sq for sq in range(lo + step, hi, step) if pc[sq]]


def _in_palace(sq: int, red: bool) -> bool:
    r, f = divmod(sq, 9)
    return 3 <= f <= 5 and (r <= 2 if red else r >= 7)


def _why_illegal(pc: Union[bytes, bytearray], red: bool, frm: int, to: int) -> str:
    """Why a move is not legal, in words (pseudo-legal checks first, then king safety)."""
    p = pc[frm]
    fs, ts = SQUARE_NAMES[frm], SQUARE_NAMES[to]
    side = _SIDE_WORD[int(red)]
    if not p:
        return f"there is no piece on {fs}"
    if (p >> 3) != int(red):
        return f"the piece on {fs} is a {_piece_name(p)}, but {side} is to move"
    name = f"the {_piece_name(p)} on {fs}"
    if frm == to:
        return f"{name} would not move"
    if pc[to] and (pc[to] >> 3) == int(red):
        return f"{name} cannot take its own {_PIECE_WORD[pc[to] & 7]} on {ts}"
    pt = p & 7
    fr, ff = divmod(frm, 9)
    tr, tf = divmod(to, 9)
    dr, df = tr - fr, tf - ff
    fwd = 1 if red else -1
    if pt == KING or pt == ADVISOR:
        step_ok = (abs(dr) + abs(df) == 1) if pt == KING else (abs(dr) == 1 and abs(df) == 1)
        if not step_ok:
            return f"{name} moves one point {'orthogonally' if pt == KING else 'diagonally'}, not to {ts}"
        if not _in_palace(to, red):
            return f"{name} cannot leave the palace ({ts})"
    elif pt == ELEPHANT:
        if not (abs(dr) == 2 and abs(df) == 2):
            return f"{name} moves two points diagonally, not to {ts}"
        if (tr >= 5) if red else (tr <= 4):
            return f"{name} cannot cross the river ({ts})"
        eye = (frm + to) // 2
        if pc[eye]:
            return f"{name} is blocked: its eye {SQUARE_NAMES[eye]} is occupied"
    elif pt == HORSE:
        if sorted((abs(dr), abs(df))) != [1, 2]:
            return f"{name} cannot jump to {ts}"
        leg = frm + (9 if dr > 0 else -9) if abs(dr) == 2 else frm + (1 if df > 0 else -1)
        if pc[leg]:
            return f"{name} is hobbled: its leg {SQUARE_NAMES[leg]} is occupied"
    elif pt == ROOK or pt == CANNON:
        if dr and df:
            return f"{name} moves along a rank or a file, not to {ts}"
        between = _between(frm, to, pc)
        if pt == ROOK and between:
            return f"{name} is blocked by the piece on {SQUARE_NAMES[between[0]]}"
        if pt == CANNON:
            if pc[to] and len(between) != 1:
                return f"{name} captures only over exactly one screen ({len(between)} between it and {ts})"
            if not pc[to] and between:
                return f"{name} is blocked by the piece on {SQUARE_NAMES[between[0]]}"
    elif pt == PAWN:
        crossed = (fr >= 5) if red else (fr <= 4)
        if dr == fwd and df == 0:
            pass
        elif dr == 0 and abs(df) == 1:
            if not crossed:
                return f"{name} moves sideways only after crossing the river"
        elif dr * fwd < 0:
            return f"{name} never moves backwards"
        else:
            return f"{name} moves one point forward (or sideways across the river), not to {ts}"
    return f"{name} to {ts} would leave the {side} king in check (or facing the other king)"


# ---------------------------------------------------------------------------
# Board plumbing
# ---------------------------------------------------------------------------


def _legal_fn(board: "Board") -> Legal:
    is_legal = board.is_legal

    def legal(code: int) -> bool:
        return bool(is_legal(Move(code >> 7, code & 127)))

    return legal


def _show(text: object) -> str:
    r = repr(text)
    return r if len(r) <= 40 else r[:37] + "...'"


def _raise(fail: _Fail, text: str, board: "Board", what: str) -> NoReturn:
    word = {InvalidMoveError: "invalid", IllegalMoveError: "illegal", AmbiguousMoveError: "ambiguous"}
    raise fail.cls(f"{word.get(fail.cls, 'bad')} {what} move {_show(text)} in {board.fen()}: {fail.reason}") \
        from None


def _parse_entry(board: "Board", text: str, e: _Entry, what: str) -> Move:
    red = bool(board.turn)
    pc = board.piece_codes()
    fast = e[1] if red else e[0]
    if fast is not None:
        code, fi, delta = fast
        col = pc[fi::9]
        if col.count(code) == 1:
            frm = col.index(code) * 9 + fi
            to = frm + delta
            if 0 <= to < 90:
                m = Move(frm, to)
                if board.is_legal(m):
                    return m
    try:
        c = _resolve(e[2], pc, red, _legal_fn(board))
    except _Fail as fail:
        _raise(fail, text, board, what)
    return Move(c >> 7, c & 127)


def _check_text(text: object, board: "Board", what: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"expected a move text (str), got {type(text).__name__}: {_show(text)}")
    return text


def parse_chinese(board: "Board", text: str) -> Move:
    """The move that the Chinese token ``text`` names in ``board``'s position.

    >>> from xiangqi import Board
    >>> parse_chinese(Board(), "炮二平五")
    Move.from_iccs('h2e2')

    Raises :class:`InvalidMoveError` (not Chinese notation), :class:`IllegalMoveError`
    (no such legal move: the message says which piece and why) or
    :class:`AmbiguousMoveError` (several pieces can make it: the message names them).
    """
    _check_text(text, board, "Chinese")
    try:
        e = _chinese_entry(text)
    except _Invalid as exc:
        raise InvalidMoveError(f"invalid Chinese move {_show(text)} in {board.fen()}: {exc}") from None
    return _parse_entry(board, text, e, "Chinese")


def parse_wxf(board: "Board", text: str) -> Move:
    """The move that the WXF token ``text`` (``C2.5``, ``h8+7``, ``R+.3``, ``P++1``) names in ``board``.

    Raises :class:`InvalidMoveError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`.
    """
    _check_text(text, board, "WXF")
    try:
        e = _wxf_entry(text)
    except _Invalid as exc:
        raise InvalidMoveError(f"invalid WXF move {_show(text)} in {board.fen()}: {exc}") from None
    return _parse_entry(board, text, e, "WXF")


def parse_iccs(board: "Board", text: str, *, one_based: bool = False) -> Move:
    """The legal move for ICCS text ``h2e2`` or ``H2-E2`` (``one_based=True``: ``h3e3``, ``a10a9``).

    ``0000`` is the null move and is returned as such.  Raises
    :class:`InvalidMoveError` or :class:`IllegalMoveError`.
    """
    _check_text(text, board, "ICCS")
    s = text.strip()
    d = _decode_iccs(s, one_based)
    if d is None:
        form = "a file a-i and a rank 1-10 twice, e.g. 'h3e3'" if one_based else \
            "a file a-i and a rank 0-9 twice, e.g. 'h2e2' or 'H2-E2'"
        raise InvalidMoveError(f"invalid ICCS move {_show(text)} in {board.fen()}: expected {form}")
    if d.code == 0:
        return Move.null()
    m = Move(d.code >> 7, d.code & 127)
    if board.is_legal(m):
        return m
    pc = board.piece_codes()
    raise IllegalMoveError(f"illegal ICCS move {_show(text)} in {board.fen()}: "
                           f"{_why_illegal(pc, bool(board.turn), m.from_square, m.to_square)}")


def parse_move(board: "Board", text: str, *, one_based: bool = False) -> Move:
    """The move ``text`` names in ``board``, in any notation: Chinese, WXF or ICCS (detected).

    ``one_based`` reads coordinates with ranks 1–10 (Fairy-Stockfish UCI);
    it is never guessed.  Raises :class:`InvalidMoveError`,
    :class:`IllegalMoveError` or :class:`AmbiguousMoveError`.
    """
    _check_text(text, board, "")
    try:
        e = _any_entry(text, one_based)
    except _Invalid as exc:
        raise InvalidMoveError(f"invalid move {_show(text)} in {board.fen()}: {exc}") from None
    d = e[2]
    if d.kind == _KIND_ICCS:
        if d.code == 0:
            return Move.null()
        m = Move(d.code >> 7, d.code & 127)
        if board.is_legal(m):
            return m
    return _parse_entry(board, text, e, _KIND_NAMES[d.kind])


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def _file_number(fi: int, red: bool) -> int:
    return 9 - fi if red else fi + 1


_ORDINALS_45 = "前二三四五"


def _qualifier_text(k: int, i: int, style: _Style) -> str:
    if k == 2:
        return "前" if i == 0 else style.rear
    if k == 3:
        return "前中"[i] if i < 2 else style.rear
    return _ORDINALS_45[i]


def _needs_qualifier(pc: Union[bytes, bytearray], red: bool, frm: int, to: int, p: int,
                     legal: Optional[Legal]) -> bool:
    """Whether the file form (piece + file) does not single the piece out."""
    fi = frm % 9
    col = pc[fi::9]
    k = col.count(p)
    if k == 1:
        return False
    if (p & 7) not in (ADVISOR, ELEPHANT):
        return True
    # Advisors and elephants: the direction usually tells them apart.
    delta = to - frm
    for r in range(10):
        sq = r * 9 + fi
        if sq != frm and col[r] == p:
            other = sq + delta
            if 0 <= other < 90 and other % 9 == to % 9 and (legal is None or legal(sq << 7 | other)):
                return True
    return False


def _move_tail(pt: int, red: bool, frm: int, to: int) -> Tuple[int, int]:
    """(direction -1/0/1, number 1-9) of a move."""
    dr = to // 9 - frm // 9
    if not red:
        dr = -dr
    if dr == 0:
        return 0, _file_number(to % 9, red)
    return (1 if dr > 0 else -1), (_file_number(to % 9, red) if _DIAGONAL[pt] else abs(dr))


def _tandem(pc: Union[bytes, bytearray], red: bool, frm: int, p: int) -> Tuple[int, int, int]:
    """(pieces on the file k, index front to back i, files holding two or more)."""
    fi = frm % 9
    seq = _file_squares(pc, fi, p, red)
    files = sum(1 for f in range(9) if pc[f::9].count(p) >= 2)
    return len(seq), seq.index(frm), files


def _chinese_text(pc: Union[bytes, bytearray], red: bool, frm: int, to: int, style: _Style,
                  legal: Optional[Legal]) -> str:
    p = pc[frm]
    pt = p & 7
    c = int(red)
    direction, number = _move_tail(pt, red, frm, to)
    tail = (style.across, style.advance, style.retreat)[direction] + style.numerals[c][number]
    piece = style.pieces[c][pt]
    fnum = _file_number(frm % 9, red)
    if not _needs_qualifier(pc, red, frm, to, p, legal):
        return piece + style.numerals[c][fnum] + tail
    k, i, files = _tandem(pc, red, frm, p)
    q = _qualifier_text(k, i, style)
    if files == 1:
        return q + piece + tail
    if pt == PAWN:
        return q + style.numerals[c][fnum] + tail
    return q + piece + style.numerals[c][fnum] + tail


def _wxf_text(pc: Union[bytes, bytearray], red: bool, frm: int, to: int, legal: Optional[Legal]) -> str:
    p = pc[frm]
    pt = p & 7
    direction, number = _move_tail(pt, red, frm, to)
    tail = "." if direction == 0 else "+" if direction > 0 else "-"
    tail += str(number)
    letter = _WXF_LETTERS[pt]
    fnum = _file_number(frm % 9, red)
    if not _needs_qualifier(pc, red, frm, to, p, legal):
        return letter + str(fnum) + tail
    k, i, files = _tandem(pc, red, frm, p)
    if files == 1 or pt != PAWN:
        if k == 2:
            return letter + "+-"[i] + tail
        if k == 3:
            return letter + ("+", str(fnum), "-")[i] + tail
        if pt == PAWN and k == 4:
            return ("++", "P+", "P-", "--")[i] + tail
        if pt == PAWN and k == 5:
            return ("++", "P+", "P" + str(fnum), "P-", "--")[i] + tail
        return letter + "abcde"[i] + tail  # more than three non-pawns on a file: xqbase's ordinals
    d = str(fnum)
    if k == 2:
        return d + "+-"[i] + tail
    if k == 3:
        return d + ("+", d, "-")[i] + tail
    return str(i + 1) + d + tail  # pyffish's ordinal + file (six or more pawns: never in a real game)


_CHINESE_WRITE_CACHE: Dict[Tuple[bool, bool], Dict[int, str]] = {k: {} for k in _STYLES}
_WXF_WRITE_CACHE: Dict[int, str] = {}


def _check_format(board: "Board", move: Move, what: str) -> Tuple[bytes, bool]:
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, got {type(move).__name__}: {move!r}")
    red = bool(board.turn)
    pc = board.piece_codes()
    if not move:
        raise IllegalMoveError(f"the null move has no {what} notation (in {board.fen()})")
    if not board.is_legal(move):
        raise IllegalMoveError(f"cannot write {move.iccs()!r} in {what} notation in {board.fen()}: "
                               f"{_why_illegal(pc, red, move.from_square, move.to_square)}")
    return pc, red


def format_chinese(board: "Board", move: Move, *, traditional: bool = False, fullwidth: bool = True) -> str:
    """The canonical Chinese text of a legal ``move`` in ``board`` (see the module docstring).

    >>> from xiangqi import Board, Move
    >>> format_chinese(Board(), Move.from_iccs("h2e2"))
    '炮二平五'

    ``traditional`` writes 車馬進後帥將; ``fullwidth`` (the default) writes
    Black's numbers as ``１``…``９`` rather than ``1``…``9``.  Raises
    :class:`IllegalMoveError` for a move that is not legal here.
    """
    pc, red = _check_format(board, move, "Chinese")
    return _chinese_cached(pc, red, move.from_square, move.to_square, _STYLES[bool(traditional), bool(fullwidth)],
                           _legal_fn(board))


def _chinese_cached(pc: Union[bytes, bytearray], red: bool, frm: int, to: int, style: _Style,
                    legal: Optional[Legal]) -> str:
    p = pc[frm]
    fi = frm % 9
    if pc[fi::9].count(p) == 1:
        cache = _CHINESE_WRITE_CACHE[style.key]
        key = p << 14 | frm << 7 | to
        s = cache.get(key)
        if s is None:
            s = cache[key] = _chinese_text(pc, red, frm, to, style, legal)
        return s
    return _chinese_text(pc, red, frm, to, style, legal)


def _wxf_cached(pc: Union[bytes, bytearray], red: bool, frm: int, to: int, legal: Optional[Legal]) -> str:
    p = pc[frm]
    fi = frm % 9
    if pc[fi::9].count(p) == 1:
        key = p << 14 | frm << 7 | to
        s = _WXF_WRITE_CACHE.get(key)
        if s is None:
            s = _WXF_WRITE_CACHE[key] = _wxf_text(pc, red, frm, to, legal)
        return s
    return _wxf_text(pc, red, frm, to, legal)


def format_wxf(board: "Board", move: Move) -> str:
    """The canonical WXF text of a legal ``move`` in ``board``: ``C2.5``, ``H8+7``, ``R+.3``, ``P++1``.

    Raises :class:`IllegalMoveError` for a move that is not legal here.
    """
    pc, red = _check_format(board, move, "WXF")
    return _wxf_cached(pc, red, move.from_square, move.to_square, _legal_fn(board))


def format_iccs(move: Move, *, one_based: bool = False) -> str:
    """``h2e2`` (``one_based=True``: ``h3e3``, Fairy-Stockfish's UCI); ``0000`` for the null move."""
    if not one_based or not move:
        return move.iccs()
    f, t = move.from_square, move.to_square
    return f"{'abcdefghi'[f % 9]}{f // 9 + 1}{'abcdefghi'[t % 9]}{t // 9 + 1}"


# ---------------------------------------------------------------------------
# Whole games
# ---------------------------------------------------------------------------


def _new_board(fen: str) -> "Board":
    from xiangqi.board import Board

    return Board(fen)


def parse_game(fen: Optional[str], tokens: Iterable[str], *, notation: str = "auto",
               one_based: bool = False) -> List[int]:
    """Read a whole game: the 16-bit move codes (``from << 7 | to``) of ``tokens`` from ``fen``.

    ``notation`` is ``"chinese"``, ``"wxf"``, ``"iccs"`` or ``"auto"`` (each
    token detected).  ``fen=None`` is the starting position.  Raises
    :class:`InvalidMoveError`, :class:`IllegalMoveError` or
    :class:`AmbiguousMoveError` naming the token, its ply (0-based) and the
    position before it.
    """
    board = _new_board(fen or STARTING_FEN)
    return _parse_codes(board, tokens, notation, one_based)


def _entry_fn(notation: str, one_based: bool) -> Callable[[str], _Entry]:
    if notation == "chinese":
        return _chinese_entry
    if notation == "wxf":
        return _wxf_entry
    if notation == "iccs":
        def iccs_entry(text: str) -> _Entry:
            d = _decode_iccs(text.strip(), one_based)
            if d is None:
                raise _Invalid("not ICCS (h2e2)" if not one_based else "not 1-based ICCS (h3e3)")
            return (None, None, d)
        return iccs_entry
    if notation == "auto":
        return lambda text: _any_entry(text, one_based)
    raise ValueError(f"unknown notation {notation!r}: expected one of {NOTATIONS + ('auto',)}")


def _parse_codes(board: "Board", tokens: Iterable[str], notation: str, one_based: bool) -> List[int]:
    entry_of = _entry_fn(notation, one_based)
    cache: Dict[str, _Entry] = {}
    pc = bytearray(board.piece_codes())
    red = bool(board.turn)
    is_legal = board.is_legal
    push = board.push
    out: List[int] = []
    append = out.append
    for ply, text in enumerate(tokens):
        e = cache.get(text)
        if e is None:
            try:
                e = cache[text] = entry_of(text)
            except _Invalid as exc:
                raise InvalidMoveError(f"invalid move {_show(text)} at ply {ply} in {board.fen()}: {exc}") from None
        fast = e[1] if red else e[0]
        code = -1
        if fast is not None:
            pcode, fi, delta = fast
            col = pc[fi::9]
            if col.count(pcode) == 1:
                frm = col.index(pcode) * 9 + fi
                to = frm + delta
                if 0 <= to < 90:
                    m = Move(frm, to)
                    if is_legal(m):
                        code = frm << 7 | to
        if code < 0:
            try:
                code = _resolve(e[2], pc, red, _legal_fn(board))
            except _Fail as fail:
                raise fail.cls(f"{'illegal' if fail.cls is IllegalMoveError else 'ambiguous' if fail.cls is AmbiguousMoveError else 'invalid'} "
                               f"move {_show(text)} at ply {ply} in {board.fen()}: {fail.reason}") from None
            if code == 0:
                raise IllegalMoveError(f"illegal move {_show(text)} at ply {ply} in {board.fen()}: "
                                       "a null move in a game")
            frm, to = code >> 7, code & 127
            m = Move(frm, to)
        push(m)
        pc[to] = pc[frm]
        pc[frm] = 0
        red = not red
        append(code)
    return out


def format_game(fen: Optional[str], moves: Iterable[Union[Move, int]], *, to: str = "chinese",
                traditional: bool = False, fullwidth: bool = True, one_based: bool = False,
                check: bool = True) -> List[str]:
    """Write a whole game: the text of each move (``Move`` or 16-bit code) from ``fen``.

    ``to`` is ``"chinese"``, ``"wxf"`` or ``"iccs"``.  With ``check`` (the
    default) every move is tested for legality first and an illegal one raises
    :class:`IllegalMoveError` naming its ply and position.
    """
    board = _new_board(fen or STARTING_FEN)
    codes = [m if isinstance(m, int) else m.code for m in moves]
    return _format_codes(board, codes, to, traditional, fullwidth, one_based, check)


def _format_codes(board: "Board", codes: Sequence[int], to: str, traditional: bool, fullwidth: bool,
                  one_based: bool, check: bool) -> List[str]:
    if to not in NOTATIONS:
        raise ValueError(f"unknown notation {to!r}: expected one of {NOTATIONS}")
    pc = bytearray(board.piece_codes())
    red = bool(board.turn)
    legal = _legal_fn(board)
    is_legal = board.is_legal
    push = board.push
    style = _STYLES[bool(traditional), bool(fullwidth)]
    ccache = _CHINESE_WRITE_CACHE[style.key]
    wcache = _WXF_WRITE_CACHE
    out: List[str] = []
    append = out.append
    chinese = to == "chinese"
    for ply, code in enumerate(codes):
        frm, dst = code >> 7, code & 127
        m = Move(frm, dst)
        if check and (not code or frm >= 90 or dst >= 90 or not is_legal(m)):
            why = "null or out-of-range move code" if not code or frm >= 90 or dst >= 90 else \
                _why_illegal(pc, red, frm, dst)
            raise IllegalMoveError(f"illegal move {m.iccs() if frm < 90 and dst < 90 else code!r} at ply {ply} "
                                   f"in {board.fen()}: {why}")
        if to == "iccs":
            append(format_iccs(m, one_based=one_based))
        else:
            p = pc[frm]
            if pc[frm % 9::9].count(p) == 1:
                key = p << 14 | code
                s = (ccache if chinese else wcache).get(key)
                if s is None:
                    s = _chinese_cached(pc, red, frm, dst, style, legal) if chinese else \
                        _wxf_cached(pc, red, frm, dst, legal)
                append(s)
            else:
                append(_chinese_text(pc, red, frm, dst, style, legal) if chinese else
                       _wxf_text(pc, red, frm, dst, legal))
        push(m)
        pc[dst] = pc[frm]
        pc[frm] = 0
        red = not red
    return out


def convert_game(fen: Optional[str], tokens: Iterable[str], *, to: str = "iccs", notation: str = "auto",
                 traditional: bool = False, fullwidth: bool = True, one_based: bool = False) -> List[str]:
    """Convert a whole game's move texts between notations.

    >>> convert_game(None, ["炮二平五", "马8进7"], to="wxf")
    ['C2.5', 'H8+7']
    >>> convert_game(None, ["h2e2", "h9g7"], to="chinese", traditional=True)
    ['炮二平五', '馬８進７']

    ``notation`` names the input (``"auto"`` detects each token); ``one_based``
    applies to ICCS input and output alike.
    """
    board = _new_board(fen or STARTING_FEN)
    codes = _parse_codes(board, tokens, notation, one_based)
    return _format_codes(_new_board(fen or STARTING_FEN), codes, to, traditional, fullwidth, one_based, False)
