"""SVG pictures: well-formed XML, every piece on its intersection, stable output (golden files), no font needed.

The pictures are checked in a real browser by ``test_browser.py``; here they are checked as documents.
Golden files in ``data/svg/`` are rewritten with ``XIANGQI_UPDATE_GOLDEN=1 pytest tests/test_svg.py`` after a
deliberate change of the drawing (look at them before committing).
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import xiangqi
from xiangqi import BLACK, RED, Board, Move, Piece, svg
from xiangqi._glyphs import GLYPHS

from conftest import PERFT_DIR, SHARED_DIR

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
GOLDEN_DIR = Path(__file__).resolve().parent / "data" / "svg"
_CJK = re.compile(r"[\u3400-\u9fff]")


def _perft_fens() -> List[str]:
    fens = [line[4:].strip() for p in sorted(PERFT_DIR.glob("*.perft"))
            for line in p.read_text(encoding="utf-8").splitlines() if line.startswith("epd ")]
    shared = SHARED_DIR / "data" / "perft.json"
    if shared.exists():
        fens += [case["fen"] for case in json.loads(shared.read_text(encoding="utf-8"))]
    return sorted(set(fens))


PERFT_FENS = _perft_fens()


def _pieces(root: ET.Element) -> Dict[Tuple[float, float], str]:
    """(x, y) -> piece id of every piece placed on the board (``<use>`` of a piece definition)."""
    out: Dict[Tuple[float, float], str] = {}
    for use in root.iter(SVG_NS + "use"):
        href = use.get(XLINK_HREF, "")
        if "x" in use.attrib:
            assert (float(use.get("x", "")), float(use.get("y", ""))) not in out, "two pieces on one point"
            out[(float(use.get("x", "")), float(use.get("y", "")))] = href[1:]
    return out


def _ids(root: ET.Element) -> Dict[str, ET.Element]:
    return {e.get("id", ""): e for e in root.iter() if e.get("id")}


def test_perft_suite_has_positions() -> None:
    assert len(PERFT_FENS) >= 10


@pytest.mark.parametrize("fen", PERFT_FENS)
@pytest.mark.parametrize("orientation", [RED, BLACK])
def test_every_piece_on_its_point(fen: str, orientation: bool) -> None:
    board = Board(fen)
    root = ET.fromstring(svg.board(board, orientation=orientation))
    placed = _pieces(root)
    expected = {svg.point(sq, orientation): p for sq, p in board.piece_map().items()}
    assert len(placed) == len(expected) == len(board.piece_map())
    ids = _ids(root)
    for xy, p in expected.items():
        name = placed[xy]
        assert name.endswith(f"-{'red' if p.color else 'black'}-{xiangqi.PIECE_NAMES[p.piece_type]}"), (fen, xy, name)
        assert name in ids, f"{name} is used but not defined"
    # Every reference resolves inside the picture (glyph outlines included).
    for e in root.iter():
        href = e.get(XLINK_HREF)
        if href:
            assert href[1:] in ids, href


def test_points_follow_the_orientation() -> None:
    a0, i9 = xiangqi.parse_square("a0"), xiangqi.parse_square("i9")
    assert svg.point(a0, RED) == svg.point(i9, BLACK)
    assert svg.point(a0, RED)[0] < svg.point(i9, RED)[0] and svg.point(a0, RED)[1] > svg.point(i9, RED)[1]


def test_pieces_tell_the_sides_apart() -> None:
    board = Board("3k5/9/9/9/4r4/4R4/9/9/9/3K5 w")
    text = svg.board(board)
    assert f'id="xq-g-{ord("俥"):x}"' in text and f'id="xq-g-{ord("車"):x}"' in text
    same = svg.board(board, distinguish=False)
    assert f'id="xq-g-{ord("俥"):x}"' not in same and f'id="xq-g-{ord("車"):x}"' in same


def test_no_text_needs_a_cjk_font() -> None:
    """Every Chinese character is an embedded outline; <text> holds only ASCII (digits, coordinates, letters)."""
    for kwargs in ({}, {"style": "letters"}, {"orientation": BLACK}, {"distinguish": False, "river": "楚河汉界"}):
        root = ET.fromstring(svg.board(Board(), **kwargs))  # type: ignore[arg-type]
        texts = [t.text or "" for t in root.iter(SVG_NS + "text")]
        assert texts and all(t.isascii() for t in texts)
        assert not _CJK.search(" ".join(texts))


@pytest.mark.parametrize("orientation", [RED, BLACK])
def test_file_numbers_follow_the_convention(orientation: bool) -> None:
    """Each side's numbers run from its own right, along its own edge, whichever side is at the bottom."""
    root = ET.fromstring(svg.board(None, orientation=orientation))
    black = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "numbers black"][0]
    digits = sorted((float(t.get("x", "")), t.text, float(t.get("y", ""))) for t in black.iter(SVG_NS + "text"))
    # Black's 1 is on Black's right: file a, at the viewer's left when Red is at the bottom.
    assert [d for _, d, _ in digits] == list("123456789" if orientation else "987654321")
    for x, d, y in digits:
        assert x == svg.point(int(d or 0) - 1, orientation)[0]
    red = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "numbers red"][0]
    glyphs = [(float(u.get("transform", "").split()[4]), float(u.get("transform", "").split()[5][:-1]),
               u.get(XLINK_HREF, "")) for u in red.iter(SVG_NS + "use")]
    numerals = "".join(chr(int(h.rsplit("-", 1)[1], 16)) for _, _, h in sorted(glyphs))
    assert numerals == ("九八七六五四三二一" if orientation else "一二三四五六七八九")  # Red's 一: Red's right, file i
    red_y = {y + 8 for _, y, _ in glyphs}  # a numeral's centre (16 units high)
    black_y = {y for _, _, y in digits}
    assert len(red_y) == len(black_y) == 1
    a0, a9 = svg.point(0, orientation)[1], svg.point(81, orientation)[1]
    outward = 1 if a0 > a9 else -1  # from the middle of the board towards Red's back rank
    # Each row of numbers lies beyond its own side's back rank, outside the grid.
    assert red_y.pop() - a0 == 36 * outward and black_y.pop() - a9 == -36 * outward
    assert (a0 > a9) == bool(orientation)


def _grid_segments(root: ET.Element) -> List[Tuple[Tuple[float, float], Tuple[float, float]]]:
    """The straight segments of the board's grid path (M, H, V and L commands)."""
    (grid,) = [e for e in root.iter(SVG_NS + "path") if e.get("class") == "grid"]
    out = []
    x = y = 0.0
    for cmd, a, b in re.findall(r"([MHVL])\s*(-?[\d.]+)(?:[ ,](-?[\d.]+))?", grid.get("d", "")):
        nx, ny = (float(a), y) if cmd == "H" else (x, float(a)) if cmd == "V" else (float(a), float(b))
        if cmd != "M":
            out.append(((x, y), (nx, ny)))
        x, y = nx, ny
    return out


@pytest.mark.parametrize("orientation", [RED, BLACK])
def test_the_board_is_a_xiangqi_board(orientation: bool) -> None:
    """Lines through the 9x10 points, the inner files cut by the river, both palaces' diagonals, and the marks at
    the cannon and pawn points (on the board's side only at the edge files)."""
    segments = _grid_segments(ET.fromstring(svg.board(None, orientation=orientation)))
    sq = xiangqi.parse_square

    def covered(p: Tuple[float, float], q: Tuple[float, float]) -> bool:
        """Whether the straight line from p to q is drawn (by one or more collinear segments)."""
        horizontal = p[1] == q[1]
        lo, hi = sorted((p[0], q[0]) if horizontal else (p[1], q[1]))
        spans = sorted(sorted((a[0], b[0]) if horizontal else (a[1], b[1])) for a, b in segments
                       if (a[1] == b[1] == p[1] if horizontal else a[0] == b[0] == p[0]))
        reach = lo
        for a, b in spans:
            if a <= reach:
                reach = max(reach, b)
        return reach >= hi

    for r in range(10):  # every rank across the board
        assert covered(svg.point(sq(f"a{r}"), orientation), svg.point(sq(f"i{r}"), orientation)), r
    for f in "abcdefghi":
        for r in range(9):
            a, b = svg.point(sq(f"{f}{r}"), orientation), svg.point(sq(f"{f}{r + 1}"), orientation)
            assert covered(a, b) == (r != 4 or f in "ai"), (f, r)  # the river cuts the inner files
    diagonals = {tuple(sorted(seg)) for seg in segments if seg[0][0] != seg[1][0] and seg[0][1] != seg[1][1]}
    want = {tuple(sorted((svg.point(sq(a), orientation), svg.point(sq(b), orientation))))
            for a, b in (("d0", "f2"), ("f0", "d2"), ("d7", "f9"), ("f7", "d9"))}
    assert diagonals == want
    # A mark is a little corner near a point: count the corners (segment ends within 6 units both ways) by point.
    corners: Dict[str, set] = {}
    for seg in segments:
        for x, y in seg:
            for s in range(90):
                px, py = svg.point(s, orientation)
                if 0 < abs(x - px) <= 6 and 0 < abs(y - py) <= 6:
                    corners.setdefault(xiangqi.square_name(s), set()).add((x, y))
    marked = {name: len(c) for name, c in corners.items()}
    want_marks = {name: 4 for name in ("b2", "h2", "b7", "h7", "c3", "e3", "g3", "c6", "e6", "g6")}
    want_marks.update({name: 2 for name in ("a3", "i3", "a6", "i6")})
    assert marked == want_marks


def _glyph_boxes(root: ET.Element) -> List[Tuple[str, float, float, float]]:
    """(group class, em size, left, top) of every glyph in a group (a piece's definition: class "")."""
    out = []
    for g in root.iter(SVG_NS + "g"):
        for u in g:
            if u.tag == SVG_NS + "use" and u.get(XLINK_HREF, "").startswith("#xq-g-"):
                k, _, _, k2, x, y = (float(v) for v in u.get("transform", "")[7:-1].split())
                assert k == k2
                out.append((g.get("class", ""), 1000 * k, x, y))
    return out


@pytest.mark.parametrize("coordinates", [True, False])
@pytest.mark.parametrize("orientation", [RED, BLACK])
def test_glyphs_have_their_size_and_stay_inside(coordinates: bool, orientation: bool) -> None:
    """Numerals and river words are drawn at their intended size, centred where meant, never past the edge."""
    root = ET.fromstring(svg.board(Board(), coordinates=coordinates, orientation=orientation))
    width, height = (float(v) for v in root.get("viewBox", "").split()[2:])
    boxes = [b for b in _glyph_boxes(root) if b[0]]
    assert {c for c, *_ in boxes} == {"numbers red", "river"}
    for cls, size, x, y in boxes:
        assert size == pytest.approx(16 if cls == "numbers red" else 0.62 * svg.CELL, abs=1e-3), (cls, size)
        assert (x + size / 2 - svg.point(0, orientation)[0]) % svg.CELL == pytest.approx(0, abs=1e-3) or \
            cls == "river"
        assert 0 <= x and x + size <= width and 0 <= y and y + size <= height, (cls, x, y, size)
    # The piece's character is centred on its disc.
    for cls, size, x, y in _glyph_boxes(ET.fromstring(svg.piece(Piece.from_symbol("R")))):
        assert (size, x, y) == (pytest.approx(28), pytest.approx(-14), pytest.approx(-14))


def test_highlights_arrows_and_marks() -> None:
    board = Board()
    move = board.push_iccs("h2e2")
    e9 = xiangqi.parse_square("e9")
    root = ET.fromstring(svg.board(board, lastmove=move, check=e9, arrows=[svg.Arrow(move.from_square, e9),
                                   (e9, e9)], squares=[0, 1], fill={"a9": "#ff000080"}, size=300))
    assert root.get("width") == "300"
    classes = [e.get("class") for e in root.iter() if e.get("class")]
    assert classes.count("lastmove") == 2 and classes.count("check") == 1
    assert classes.count("arrow") == 2 and classes.count("square") == 2 and classes.count("fill") == 1
    fill = [e for e in root.iter(SVG_NS + "rect") if e.get("class") == "fill"][0]
    assert fill.get("fill") == "#ff0000" and fill.get("fill-opacity") == "0.5"


def test_translucent_colours_everywhere() -> None:
    """Every colour may carry an alpha (#rrggbbaa): the picture stays well-formed (no attribute twice)."""
    colors = {k: "#12345680" for k in svg.DEFAULT_COLORS}
    board = Board("3k5/4R4/9/9/9/9/9/9/9/4K4 b")
    root = ET.fromstring(svg.board(board, lastmove=Move.from_iccs("e0e8"), check="d9", arrows=[(4, 76)],
                                   squares=[0], fill={1: "#ff000080"}, colors=colors))
    assert any(e.get("stop-opacity") == "0.5" for e in root.iter(SVG_NS + "stop"))
    assert any(e.get("fill-opacity") == "0.5" for e in root.iter(SVG_NS + "rect"))


def test_colours_are_text_in_their_attributes() -> None:
    """A colour is the caller's text: a quote, ``<`` or ``&`` in it stays inside its attribute."""
    odd = 'red" onload="alert(1)'
    colors = {k: odd for k in svg.DEFAULT_COLORS}
    board = Board("3k5/4R4/9/9/9/9/9/9/9/4K4 b")
    picture = svg.board(board, lastmove=Move.from_iccs("e0e8"), check="d9", arrows=[svg.Arrow(4, 76, color="a&<b")],
                        squares=[0], fill={1: odd}, colors=colors)
    root = ET.fromstring(picture)
    assert not any("onload" in e.attrib for e in root.iter())
    painted = [v for e in root.iter() for k, v in e.attrib.items() if k in ("fill", "stroke", "stop-color")]
    assert painted.count(odd) >= len(svg.DEFAULT_COLORS) and "a&<b" in painted
    assert odd in [v for e in ET.fromstring(svg.piece(Piece.from_symbol("R"), colors=colors)).iter()
                   for v in e.attrib.values()]


def test_colours_that_look_translucent_are_text_too() -> None:
    """Nine characters after a ``#`` were taken for ``#rrggbbaa`` and written unescaped: ``#"/><g>ff`` ended its
    attribute and added an element; ``#12345xyz`` raised int()'s error. A control character, which no SVG may
    hold, is refused by name."""
    board = Board("3k5/4R4/9/9/9/9/9/9/9/4K4 b")

    def shape(color: str) -> List[Tuple[str, Tuple[str, ...]]]:
        """The picture's elements and their attribute names, every colour ``color``."""
        picture = svg.board(board, check="d9", arrows=[svg.Arrow(4, 76, color=color)], fill={1: color},
                            colors={k: color for k in svg.DEFAULT_COLORS})
        root = ET.fromstring(picture)
        painted = [v for e in root.iter() for k, v in e.attrib.items() if k in ("fill", "stroke", "stop-color")]
        assert painted.count(color) >= len(svg.DEFAULT_COLORS) + 2, color
        return sorted((e.tag, tuple(sorted(e.attrib))) for e in root.iter())

    for odd in ('#"/><g>ff', "#'/><g>ff", "#12345xyz", "#-1234567"):
        assert shape(odd) == shape("red"), odd  # no element, attribute or opacity added
    for bad in ("red\x00", "#12\x1b[31m"):
        for call in (lambda: svg.board(board, colors={"board": bad}), lambda: svg.board(board, fill={1: bad}),
                     lambda: svg.board(board, arrows=[svg.Arrow(4, 76, color=bad)]),
                     lambda: svg.piece(Piece.from_symbol("R"), colors={"red": bad})):
            with pytest.raises(ValueError, match=re.escape(f"not a colour: {bad!r}")):
                call()


def test_piece_picture() -> None:
    for symbol in "KAB NRCPkabnrcp".replace(" ", ""):
        root = ET.fromstring(svg.piece(Piece.from_symbol(symbol), size=40))
        ids = _ids(root)
        (use,) = [u for u in root if u.tag == SVG_NS + "use"]
        assert use.get(XLINK_HREF, "")[1:] in ids


def test_definitions_serve_pictures_without_defs() -> None:
    page = svg.definitions()
    ids = _ids(ET.fromstring(page))
    root = ET.fromstring(svg.board(Board(), defs=False))
    assert not _ids(root)
    for e in root.iter():
        href = e.get(XLINK_HREF)
        if href:
            assert href[1:] in ids


def test_looks_have_their_own_ids() -> None:
    a = _ids(ET.fromstring(svg.board(Board())))
    b = _ids(ET.fromstring(svg.board(Board(), colors={"red": "#0000ff"})))
    pieces_a = {i for i in a if not i.startswith("xq-g-")}
    pieces_b = {i for i in b if not i.startswith("xq-g-")}
    assert pieces_a and pieces_b and not pieces_a & pieces_b


def test_glyph_data() -> None:
    assert set("帥將仕士相象俥車傌馬炮砲兵卒楚河漢界汉一二三四五六七八九") == set(GLYPHS)
    for ch, d in GLYPHS.items():
        assert re.fullmatch(r"[MLHVCQZ0-9 .\-]+", d), ch
        nums = [int(n) for n in re.findall(r"-?\d+", d)]
        assert -200 <= min(nums) and max(nums) <= 1200, ch  # inside (about) the em square


@pytest.mark.parametrize("kwargs, message", [
    ({"style": "kanji"}, "unknown style 'kanji'"),
    ({"colors": {"wood": "#000"}}, "unknown colour key(s) 'wood'"),
    ({"river": "楚河"}, "river must be four characters"),
    ({"check": 90}, "not a square: 90"),
    ({"squares": ["z9"]}, "not a square name: 'z9'"),
])
def test_bad_arguments(kwargs: Dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        svg.board(Board(), **kwargs)  # type: ignore[arg-type]


GOLDEN = {
    "start": (xiangqi.STARTING_FEN, {}),
    "central-cannon-black-view": ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
                                  {"orientation": BLACK, "lastmove": Move.from_iccs("h2e2"), "size": 400}),
    "rooks-letters": ("3k5/9/9/9/4r4/4R4/9/9/9/3K5 w",
                      {"style": "letters", "coordinates": False, "arrows": [svg.Arrow(40, 49, "red")]}),
    "check-same-characters": ("3k5/4R4/9/9/9/9/9/9/9/4K4 b",
                              {"check": xiangqi.parse_square("d9"), "distinguish": False, "river": "楚河汉界"}),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden(name: str) -> None:
    fen, kwargs = GOLDEN[name]
    got = svg.board(Board(fen), **kwargs)  # type: ignore[arg-type]
    path = GOLDEN_DIR / f"{name}.svg"
    if os.environ.get("XIANGQI_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(got + "\n", encoding="utf-8")
    assert got + "\n" == path.read_text(encoding="utf-8"), f"{path} differs (see this file's docstring)"


def test_readme_picture() -> None:
    """docs/board.svg is what the README's example draws (rewritten with XIANGQI_UPDATE_GOLDEN=1 too), and the README
    checks the head of the SVG that Jupyter shows."""
    board = Board()
    board.push_chinese("炮二平五")
    board.push_chinese("馬８進７")
    got = svg.board(board, lastmove=board.peek(), arrows=[svg.Arrow(xiangqi.parse_square("h0"),
                                                                    xiangqi.parse_square("g2"))], size=460)
    path = Path(__file__).resolve().parents[1] / "docs" / "board.svg"
    if os.environ.get("XIANGQI_UPDATE_GOLDEN"):
        path.write_text(got + "\n", encoding="utf-8")
    assert got + "\n" == path.read_text(encoding="utf-8")
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "](docs/board.svg)" in readme
    # ... and its Jupyter example: a doctest (pytest collects README.md) of the head of Board._repr_svg_.
    assert re.search(r'^>>> head = board\._repr_svg_\(\)', readme, re.M)
    assert re.search(r"^'<svg xmlns=\"http://www\.w3\.org/2000/svg\" .*width=\"400\" height=\"459\">'$", readme, re.M)


@pytest.mark.parametrize("orientation", [RED, BLACK])
def test_highlights_stay_inside_the_frame(orientation: bool) -> None:
    """A corner or edge point's highlight is cut at the frame, not spread over the file numbers."""
    corners = [xiangqi.parse_square(s) for s in ("a0", "i9", "e0", "a5")]
    root = ET.fromstring(svg.board(Board(), orientation=orientation, lastmove=Move(corners[0], corners[1]),
                                   fill={corners[2]: "#ff0000", corners[3]: "#00ff00"}))
    (frame,) = [e for e in root.iter(SVG_NS + "rect") if e.get("class") == "frame"]
    fx, fy, fw, fh = (float(frame.get(k, "")) for k in ("x", "y", "width", "height"))
    cells = [e for e in root.iter(SVG_NS + "rect") if e.get("class") in ("lastmove", "fill")]
    assert len(cells) == 4
    for e in cells:
        x, y, w, h = (float(e.get(k, "")) for k in ("x", "y", "width", "height"))
        assert fx <= x and x + w <= fx + fw and fy <= y and y + h <= fy + fh, e.attrib
        assert w >= svg.CELL / 2 and h >= svg.CELL / 2  # still a good part of the cell


@pytest.mark.parametrize("size", [0, -5])
def test_a_size_below_one_pixel_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match=f"size must be a positive number of pixels .*not {size}"):
        svg.board(Board(), size=size)
    with pytest.raises(ValueError, match="size must be a positive"):
        svg.piece(Piece.from_symbol("R"), size=size)
    assert 'width="300"' in svg.board(Board(), size=300) and "width=" not in svg.board(Board())[:200]
