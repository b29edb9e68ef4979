"""SVG pictures of boards and pieces, in the manner of python-chess's ``chess.svg``.

>>> import xiangqi
>>> from xiangqi import svg
>>> board = xiangqi.Board()
>>> move = board.push_iccs("h2e2")
>>> h9, g7 = xiangqi.parse_square("h9"), xiangqi.parse_square("g7")
>>> picture = svg.board(board, lastmove=move, arrows=[svg.Arrow(h9, g7)], size=360)
>>> picture[:60]
'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://'

A board is drawn as players see it: pieces stand on the 9x10 intersections,
the river carries 楚河 and 漢界, both palaces have their diagonals, the
cannon and pawn points their cross marks, and the files are numbered for
both sides (Red 一…九 from Red's right, Black 1…9 from Black's right).
Pieces are discs with the characters that tell the sides apart (帥/將,
仕/士, 相/象, 俥/車, 傌/馬, 炮/砲, 兵/卒), or the same 車馬炮 for both sides
(``distinguish=False``), or FEN letters (``style="letters"``).

Fonts: the Chinese characters are not text but outlines embedded as paths
(:mod:`xiangqi._glyphs`, 28 characters taken once from Noto Serif CJK TC
Bold under the SIL Open Font License), defined once per picture in
``<defs>`` and drawn with ``<use>``. So a board looks the same in every
browser, in cairosvg and in Jupyter, with or without a CJK font installed;
falling back to ``<text>`` would print empty boxes or a different face on a
machine without one, and pieces whose character is their identity must not
depend on that. Only the ASCII file digits, the ICCS coordinates and the
letter style are ``<text>`` (in ``sans-serif``, which every system has).

Element ids carry a short hash of the style and colours, so pictures with
different looks can share one HTML page; ``defs=False`` with one
:func:`definitions` per page avoids repeating the outlines (the HTML
validation report does this).
"""

from __future__ import annotations

import functools
import hashlib
import html
import math
import re
from typing import Dict, Iterable, List, Mapping, NamedTuple, Optional, Tuple, Union

from xiangqi._glyphs import GLYPHS
from xiangqi.core import (
    ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, PIECE_NAMES, RED, ROOK, Color, Move, Piece, Square, parse_square,
    square,
)
from xiangqi.position import BaseBoard

__all__ = ["Arrow", "SquareLike", "board", "piece", "definitions", "DEFAULT_COLORS", "STYLES", "CELL", "point"]

#: Distance between two intersections, in SVG user units.
CELL = 50
_RADIUS = 22          # piece disc
_PAD = 44             # from the outer grid line to the picture's edge: file numbers and the pieces' overhang
_COORD_BAND = 22      # extra band at the bottom for the ICCS file letters
_GLYPH = 28           # size of a piece's character (the em square)
_NUMERAL = 16         # size of a file numeral
_FRAME_GAP = 6        # from the outer grid line to the frame

#: The piece styles :func:`board` and :func:`piece` accept: Chinese characters or FEN letters.
STYLES = ("chinese", "letters")

#: The colours a picture uses; ``colors={...}`` overrides any of them (CSS colours, ``#rrggbbaa`` allowed).
DEFAULT_COLORS: Dict[str, str] = {
    "board": "#f0d9a4",       # the wood
    "lines": "#5c3b1e",       # grid, palace, marks, frame
    "text": "#5c3b1e",        # file numbers and coordinates
    "piece": "#fbf1dc",       # the discs
    "red": "#c8102e",         # red ink
    "black": "#1c1c1c",       # black ink
    "lastmove": "#7fc8f8",    # the last move's two points
    "check": "#ff0000",       # glow under a king in check
    "square": "#1f6fbf",      # marks of ``squares=``
    "arrow green": "#15781bcc",
    "arrow red": "#b01010cc",
    "arrow blue": "#1f4fbfcc",
    "arrow yellow": "#e0a800cc",
}

# Piece characters [color][piece_type]: traditional forms that tell the sides apart, and the forms shared by both.
_DISTINCT = [
    [None, "卒", "士", "象", "馬", "砲", "車", "將"],
    [None, "兵", "仕", "相", "傌", "炮", "俥", "帥"],
]
_SHARED = [
    [None, "卒", "士", "象", "馬", "炮", "車", "將"],
    [None, "兵", "仕", "相", "馬", "炮", "車", "帥"],
]
_RED_NUMERALS = "一二三四五六七八九"


#: A square as its number (0-89) or its ICCS name (``"e0"``).
SquareLike = Union[Square, str]


class Arrow(NamedTuple):
    """An arrow from ``tail`` to ``head``; ``color``: ``green``, ``red``, ``blue``, ``yellow`` or any CSS colour.

    A ``tail`` equal to its ``head`` draws a ring around that point.

    >>> from xiangqi import Board
    >>> picture = board(Board(), arrows=[Arrow(25, 22, "red"), ("b0", "c2")])
    >>> picture.count('class="arrow"')
    2
    """

    tail: Square
    head: Square
    color: str = "green"


def point(sq: Square, orientation: Color = RED, coordinates: bool = True) -> Tuple[int, int]:
    """The SVG coordinates of a square's intersection in a picture drawn by :func:`board` (of the same
    ``orientation``; ``coordinates`` is accepted for symmetry with :func:`board` and moves nothing).

    Unchecked: ``sq`` should be 0–89.

    >>> from xiangqi import BLACK
    >>> point(4), point(4, orientation=BLACK)  # e0: bottom middle, or top middle with Black at the bottom
    ((244, 494), (244, 44))
    """
    f, r = sq % 9, sq // 9
    if orientation:
        col, row = f, 9 - r
    else:
        col, row = 8 - f, r
    return _PAD + col * CELL, _PAD + row * CELL


def _num(v: float) -> str:
    """A short, stable decimal for an SVG attribute."""
    return str(int(v)) if v == int(v) else f"{v:.2f}".rstrip("0")


def _scale(k: float) -> str:
    """A glyph's scale factor, exact to 1/10000 (``_num`` would round 0.016 to 0.02: a 25 % bigger, shifted glyph)."""
    return f"{k:.4f}".rstrip("0").rstrip(".")


_RGBA = re.compile("#[0-9A-Fa-f]{8}")
#: Characters that XML allows nowhere, not even as character references.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _color(color: str) -> Tuple[str, str]:
    """A colour as attribute text and its opacity (``""``: opaque): ``#rrggbbaa`` as ``#rrggbb`` and ``aa / 255``
    (renderers that read only 6 digits), any other text escaped, since a colour is the caller's text and must
    not end its attribute (``#"/><g>ff`` was taken for ``#rrggbbaa`` and written as is)."""
    if _RGBA.fullmatch(color):
        return color[:7], _num(round(int(color[7:], 16) / 255, 2))
    if _NOT_XML.search(color):
        raise ValueError(f"not a colour: {color!r} (it holds a control character)")
    return html.escape(color), ""


def _paint(attr: str, color: str) -> str:
    """``fill="#rrggbb" fill-opacity=".5"`` for ``#rrggbbaa``, else ``fill="..."`` (:func:`_color`)."""
    value, alpha = _color(color)
    return f'{attr}="{value}" {attr}-opacity="{alpha}"' if alpha else f'{attr}="{value}"'


def _glyph_id(ch: str) -> str:
    return f"xq-g-{ord(ch):x}"


class _Look(NamedTuple):
    """What a picture's definitions depend on."""

    style: str
    distinguish: bool
    colors: Tuple[Tuple[str, str], ...]


def _look(style: str, distinguish: bool, colors: Mapping[str, str]) -> _Look:
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r} (expected one of {', '.join(STYLES)})")
    unknown = sorted(set(colors) - set(DEFAULT_COLORS) - {k for k in colors if k.startswith("arrow ")})
    if unknown:
        raise ValueError(f"unknown colour key(s) {', '.join(map(repr, unknown))} "
                         f"(known: {', '.join(DEFAULT_COLORS)}, or 'arrow NAME')")
    for color in colors.values():
        _color(color)   # refused here whether or not the picture uses it
    merged = dict(DEFAULT_COLORS)
    merged.update(colors)
    return _Look(style, distinguish, tuple(sorted(merged.items())))


@functools.lru_cache(maxsize=64)
def _prefix(look: _Look) -> str:
    return "xq-" + hashlib.sha1(repr(look).encode()).hexdigest()[:6]


def _piece_char(code: int, look: _Look) -> str:
    if look.style == "letters":
        return Piece(code & 7, bool(code >> 3)).symbol()
    table = _DISTINCT if look.distinguish else _SHARED
    ch = table[code >> 3][code & 7]
    assert ch is not None
    return ch


def _piece_id(code: int, look: _Look) -> str:
    return f"{_prefix(look)}-{'red' if code >> 3 else 'black'}-{PIECE_NAMES[code & 7]}"


def _piece_def(code: int, look: _Look) -> str:
    colors = dict(look.colors)
    ink = colors["red" if code >> 3 else "black"]
    ch = _piece_char(code, look)
    k = _GLYPH / 1000
    if look.style == "letters":
        mark = (f'<text font-family="sans-serif" font-weight="bold" font-size="26" text-anchor="middle" '
                f'dy=".35em" {_paint("fill", ink)}>{ch}</text>')
    else:
        mark = (f'<use xlink:href="#{_glyph_id(ch)}" transform="matrix({_scale(k)} 0 0 {_scale(k)} '
                f'{_num(-_GLYPH / 2)} {_num(-_GLYPH / 2)})" {_paint("fill", ink)}/>')
    return (f'<g id="{_piece_id(code, look)}">'
            f'<circle r="{_RADIUS}" {_paint("fill", colors["piece"])} {_paint("stroke", ink)} stroke-width="3"/>'
            f'<circle r="{_RADIUS - 4}" fill="none" {_paint("stroke", ink)} stroke-width="1"/>{mark}</g>')


_ALL_CODES = tuple(c << 3 | t for c in (1, 0) for t in (KING, ADVISOR, ELEPHANT, ROOK, HORSE, CANNON, PAWN))


@functools.lru_cache(maxsize=256)
def _defs(look: _Look, codes: Tuple[int, ...], chars: str) -> str:
    """``<defs>`` with the outlines of ``chars`` and of the pieces ``codes`` need, and the pieces themselves."""
    need = set(chars)
    if look.style == "chinese":
        need.update(_piece_char(c, look) for c in codes)
    parts = ["<defs>"]
    parts.extend(f'<path id="{_glyph_id(ch)}" d="{GLYPHS[ch]}"/>' for ch in sorted(need))
    parts.extend(_piece_def(c, look) for c in codes)
    parts.append("</defs>")
    return "".join(parts)


def definitions(*, style: str = "chinese", distinguish: bool = True, colors: Mapping[str, str] = {},
                river: str = "楚河漢界") -> str:
    """An invisible ``<svg>`` holding every definition that pictures drawn with ``defs=False`` refer to.

    Put it once in an HTML page before such pictures (with the same style, colours and river).

    >>> from xiangqi import BLACK, Board
    >>> page = definitions() + board(Board(), defs=False) + board(Board(), defs=False, orientation=BLACK)
    >>> page.count("<defs>")
    1

    Raises:
        :class:`ValueError`: as :func:`board` for ``style``, ``colors`` and ``river``.
    """
    look = _look(style, distinguish, colors)
    grids = "".join(f'<g id="{_grid_id(look, o, c)}">{_static(look, o, c, river)[1]}</g>'
                    for o in (True, False) for c in (True, False))
    defs = _defs(look, _ALL_CODES, _static_chars(river))
    return ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="0" height="0" '
            f'style="position:absolute">{defs[:-len("</defs>")]}{grids}</defs></svg>')


def _grid_id(look: _Look, orientation: bool, coordinates: bool) -> str:
    return f"{_prefix(look)}-grid-{'red' if orientation else 'black'}{'-coordinates' if coordinates else ''}"


def _static_chars(river: str) -> str:
    if len(river) != 4 or any(ch not in GLYPHS for ch in river):
        raise ValueError(f"river must be four characters from {''.join(sorted(GLYPHS))}, not {river!r}")
    return river + _RED_NUMERALS


def _glyph(ch: str, cx: float, cy: float, size: float, fill: str = "") -> str:
    k = size / 1000
    return (f'<use xlink:href="#{_glyph_id(ch)}" transform="matrix({_scale(k)} 0 0 {_scale(k)} {_num(cx - size / 2)} '
            f'{_num(cy - size / 2)})"{fill}/>')


def _marks(cx: int, cy: int, left: bool, right: bool) -> str:
    """The little corner marks around a cannon or pawn point (not past the board's edge)."""
    g, a = 4, 9  # gap from the point, arm length
    out = []
    for sx in ((-1,) if left else ()) + ((1,) if right else ()):
        for sy in (-1, 1):
            x, y = cx + sx * g, cy + sy * g
            out.append(f"M{x + sx * a} {y}H{x}V{y + sy * a}")
    return "".join(out)


@functools.lru_cache(maxsize=64)
def _static(look: _Look, orientation: bool, coordinates: bool, river: str) -> Tuple[str, str, int, int]:
    """The board without pieces: its background, then grid, river and numbers; and the picture's width and height."""
    colors = dict(look.colors)
    width = 2 * _PAD + 8 * CELL
    height = 2 * _PAD + 9 * CELL + (_COORD_BAND if coordinates else 0)
    x0, y0, x1, y1 = _PAD, _PAD, _PAD + 8 * CELL, _PAD + 9 * CELL
    background = f'<rect class="board" width="{width}" height="{height}" {_paint("fill", colors["board"])}/>'
    parts: List[str] = []
    lines = [f"M{x0} {y0 + r * CELL}H{x1}" for r in range(10)]
    for c in range(9):
        x = x0 + c * CELL
        if c in (0, 8):
            lines.append(f"M{x} {y0}V{y1}")
        else:  # the river cuts the inner files
            lines.append(f"M{x} {y0}V{y0 + 4 * CELL}M{x} {y0 + 5 * CELL}V{y1}")
    for top in (y0, y0 + 7 * CELL):  # palaces
        lines.append(f"M{x0 + 3 * CELL} {top}L{x0 + 5 * CELL} {top + 2 * CELL}"
                     f"M{x0 + 5 * CELL} {top}L{x0 + 3 * CELL} {top + 2 * CELL}")
    for c, r in ((1, 2), (7, 2), (1, 7), (7, 7)):
        lines.append(_marks(x0 + c * CELL, y0 + r * CELL, True, True))
    for c in range(0, 9, 2):
        for r in (3, 6):
            lines.append(_marks(x0 + c * CELL, y0 + r * CELL, c > 0, c < 8))
    parts.append(f'<path class="grid" d="{"".join(lines)}" fill="none" {_paint("stroke", colors["lines"])} '
                 'stroke-width="1.5"/>')
    gap = _FRAME_GAP
    parts.append(f'<rect class="frame" x="{x0 - gap}" y="{y0 - gap}" width="{8 * CELL + 2 * gap}" '
                 f'height="{9 * CELL + 2 * gap}" fill="none" {_paint("stroke", colors["lines"])} stroke-width="3"/>')
    ink = " " + _paint("fill", colors["lines"])
    ry = y0 + 4.5 * CELL
    words = [_glyph(ch, x0 + (c + 0.5) * CELL, ry, 0.62 * CELL) for ch, c in zip(river, (1, 2, 5, 6))]
    parts.append(f'<g class="river"{ink}>{"".join(words)}</g>')
    # File numbers: Red 一…九 from Red's right (file i is 一), Black 1…9 from Black's right (file a is 1).
    # 36 from the grid: clear of the discs (radius 22 + stroke) yet inside the picture's 44 units of margin.
    red_y, black_y = (y1 + 36, y0 - 36) if orientation else (y0 - 36, y1 + 36)
    nums = []
    for f in range(9):
        x = point(square(f, 0), orientation)[0]
        nums.append(_glyph(_RED_NUMERALS[8 - f], x, red_y, _NUMERAL))
    parts.append(f'<g class="numbers red"{" " + _paint("fill", colors["text"])}>{"".join(nums)}</g>')
    digits = "".join(f'<text x="{point(square(f, 0), orientation)[0]}" y="{black_y}">{f + 1}</text>' for f in range(9))
    text = (f'font-family="sans-serif" font-size="{_NUMERAL}" text-anchor="middle" dy=".35em" '
            f'{_paint("fill", colors["text"])}')
    parts.append(f'<g class="numbers black" {text}>{digits}</g>')
    if coordinates:
        small = text.replace(f'font-size="{_NUMERAL}"', 'font-size="12"')
        ranks = "".join(f'<text x="{x0 - 32}" y="{point(square(0, r), orientation)[1]}">{r}</text>'
                        for r in range(10))
        files = "".join(f'<text x="{point(square(f, 0), orientation)[0]}" y="{y1 + _PAD + 12}">'
                        f'{"abcdefghi"[f]}</text>' for f in range(9))
        parts.append(f'<g class="coordinates" {small}>{ranks}{files}</g>')
    return background, "".join(parts), width, height


def _arrow(a: Arrow, orientation: bool, colors: Mapping[str, str]) -> str:
    color = colors.get(f"arrow {a.color}", a.color)
    tx, ty = point(a.tail, orientation)
    hx, hy = point(a.head, orientation)
    if a.tail == a.head:
        return (f'<circle class="arrow" cx="{tx}" cy="{ty}" r="{_RADIUS + 2}" fill="none" '
                f'{_paint("stroke", color)} stroke-width="5"/>')
    dx, dy = hx - tx, hy - ty
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    head_len, head_w, shaft = 0.55 * CELL, 0.25 * CELL, 0.09 * CELL
    bx, by = hx - ux * head_len, hy - uy * head_len  # the base of the head
    px, py = -uy, ux
    pts = [(tx + px * shaft, ty + py * shaft), (bx + px * shaft, by + py * shaft),
           (bx + px * head_w, by + py * head_w), (hx, hy), (bx - px * head_w, by - py * head_w),
           (bx - px * shaft, by - py * shaft), (tx - px * shaft, ty - py * shaft)]
    d = "M" + "L".join(f"{_num(round(x, 1))} {_num(round(y, 1))}" for x, y in pts) + "Z"
    return f'<path class="arrow" d="{d}" {_paint("fill", color)}/>'


def _cell(sq: Square, orientation: Color, cls: str, color: str) -> str:
    """A square's highlight: a cell around its point, cut at the frame (an edge point's cell would stick out)."""
    x, y = point(sq, orientation)
    half, edge = CELL // 2, _FRAME_GAP
    left, top = max(x - half, _PAD - edge), max(y - half, _PAD - edge)
    right, bottom = min(x + half, _PAD + 8 * CELL + edge), min(y + half, _PAD + 9 * CELL + edge)
    return (f'<rect class="{cls}" x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" '
            f'{_paint("fill", color)}/>')


def _sq(value: SquareLike) -> Square:
    if isinstance(value, str):
        return parse_square(value)
    if not isinstance(value, int) or not 0 <= value < 90:
        raise ValueError(f"not a square: {value!r} (expected 0-89 or a name such as 'e0')")
    return value


def board(board: Optional[BaseBoard] = None, *, orientation: Color = RED, lastmove: Optional[Move] = None,
          check: Optional[SquareLike] = None, arrows: Iterable[Union[Arrow, Tuple[SquareLike, SquareLike]]] = (),
          fill: Mapping[SquareLike, str] = {}, squares: Optional[Iterable[SquareLike]] = None,
          coordinates: bool = True, size: Optional[int] = None, style: str = "chinese",
          distinguish: bool = True, colors: Mapping[str, str] = {}, river: str = "楚河漢界",
          defs: bool = True) -> str:
    """A standalone SVG picture of ``board`` (a :class:`xiangqi.Board` or any :class:`~xiangqi.position.BaseBoard`; ``None``: the empty board).

    ``orientation``: the side at the bottom. ``lastmove``: a :class:`Move` whose two points are
    highlighted. ``check``: the square of a king in check (``Board._repr_svg_`` passes it). ``arrows``:
    :class:`Arrow`\\ s (or ``(tail, head)`` pairs). ``fill``: square -> colour highlights. ``squares``:
    squares marked with a ring. ``coordinates``: the ICCS ranks 0-9 and files a-i besides the file
    numbers. ``size``: width in pixels, positive (the height follows); ``None``: the picture scales to its
    container.
    ``style``: ``"chinese"`` (characters) or ``"letters"`` (FEN letters). ``distinguish=False``: the same
    車馬炮 for both sides. ``colors``: overrides of :data:`DEFAULT_COLORS`. ``river``: the four characters
    in the river (``"楚河汉界"`` for the simplified form). ``defs=False``: leave out the ``<defs>`` for a
    page that holds one :func:`definitions` with the same look.

    >>> from xiangqi import Board
    >>> picture = board(Board(), lastmove=Move.from_iccs("h2e2"), size=300)
    >>> picture.startswith("<svg"), 'width="300"' in picture
    (True, True)

    Raises:
        :class:`ValueError`: ``size`` is not positive, ``style`` is not one of :data:`STYLES`, ``colors`` has an
            unknown key, a colour holds a control character (which no SVG can hold), ``river`` is not four
            characters the pictures have glyphs for, or a square (``check``, ``fill``, ``squares``, ``arrows``) is
            neither 0–89 nor a square name.
    """
    _check_size(size)
    look = _look(style, distinguish, colors)
    chars = _static_chars(river)
    background, static, width, height = _static(look, bool(orientation), coordinates, river)
    codes = b"" if board is None else board.piece_codes()
    pal = dict(look.colors)
    parts: List[str] = []
    height_attr = f' width="{size}" height="{round(size * height / width)}"' if size else ""
    parts.append('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                 f'version="1.1" viewBox="0 0 {width} {height}"{height_attr}>')
    present = tuple(c for c in _ALL_CODES if c in codes)
    if defs:
        parts.append(_defs(look, present, chars))
    parts.append(background)
    half = CELL // 2
    for sq, color in fill.items():
        parts.append(_cell(_sq(sq), orientation, "fill", color))
    if lastmove is not None and lastmove:
        for sq in (lastmove.from_square, lastmove.to_square):
            parts.append(_cell(sq, orientation, "lastmove", pal["lastmove"]))
    # The lines over the highlights (from the page's definitions when they are shared).
    parts.append(static if defs else f'<use xlink:href="#{_grid_id(look, bool(orientation), coordinates)}"/>')
    if check is not None:
        x, y = point(_sq(check), orientation)
        gid = f"{_prefix(look)}-check"
        color, alpha = _color(pal["check"])
        alpha = alpha or "1"
        # Full colour out to the disc's edge, then fading: only the ring outside the disc shows, and it must
        # be seen at a glance (a gradient fading from the centre left a faint pink halo).
        glow = _RADIUS + 14
        parts.append(f'<radialGradient id="{gid}"><stop offset="{_num(round(_RADIUS / glow, 2))}" '
                     f'stop-color="{color}" stop-opacity="{alpha}"/>'
                     f'<stop offset="1" stop-color="{color}" stop-opacity="0"/></radialGradient>'
                     f'<circle class="check" cx="{x}" cy="{y}" r="{glow}" fill="url(#{gid})"/>')
    prefix = _prefix(look)
    for sq, code in enumerate(codes):
        if code:
            x, y = point(sq, orientation)
            parts.append(f'<use xlink:href="#{prefix}-{"red" if code >> 3 else "black"}-{PIECE_NAMES[code & 7]}" '
                         f'x="{x}" y="{y}"/>')
    if squares is not None:
        for sq in squares:
            x, y = point(_sq(sq), orientation)
            parts.append(f'<circle class="square" cx="{x}" cy="{y}" r="{_RADIUS + 3}" fill="none" '
                         f'{_paint("stroke", pal["square"])} stroke-width="3"/>')
    for a in arrows:
        arrow = a if isinstance(a, Arrow) else Arrow(_sq(a[0]), _sq(a[1]))
        parts.append(_arrow(Arrow(_sq(arrow.tail), _sq(arrow.head), arrow.color), bool(orientation), pal))
    parts.append("</svg>")
    return "".join(parts)


def _check_size(size: Optional[int]) -> None:
    # A size of 0 or less used to be drawn as width="-5" (or, for 0, silently as no size at all).
    if size is not None and not size > 0:
        raise ValueError(f"size must be a positive number of pixels (or None to scale), not {size!r}")


def piece(piece: Piece, *, size: Optional[int] = None, style: str = "chinese", distinguish: bool = True,
          colors: Mapping[str, str] = {}) -> str:
    """A standalone SVG picture of one piece (a disc of ``2 * 22`` user units plus a margin).

    >>> from xiangqi import Piece, svg
    >>> svg.piece(Piece.from_symbol("R"))[:60]
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://'

    Raises:
        :class:`ValueError`: ``size`` is not positive, ``style`` is not one of :data:`STYLES`, or ``colors``
            has an unknown key or a colour with a control character.
    """
    _check_size(size)
    look = _look(style, distinguish, colors)
    code = piece.code
    s = 2 * _RADIUS + 4
    dims = f' width="{size}" height="{size}"' if size else ""
    return ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'version="1.1" viewBox="{-s // 2} {-s // 2} {s} {s}"{dims}>{_defs(look, (code,), "")}'
            f'<use xlink:href="#{_piece_id(code, look)}"/></svg>')
