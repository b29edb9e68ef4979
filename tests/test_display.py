"""Pictures and text for people: ``Board.diagram(chinese=True)``, ``Board._repr_svg_``, ``Game._repr_html_`` (also
in headless Chromium, several in one page as a notebook shows them)."""

from __future__ import annotations

import io
import math
import re
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

from xiangqi import Board, Move, pgn, svg

SVG_NS = "{http://www.w3.org/2000/svg}"


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "FW" else 1 for ch in text)


def test_chinese_diagram_tells_the_sides_apart_and_lines_up() -> None:
    board = Board("3k5/9/9/9/4r4/4R4/9/9/9/3K5 w")
    rows = board.diagram(chinese=True).splitlines()
    # Rank 5 (the sixth row from the top) holds Black's rook, rank 4 Red's: different characters.
    assert rows[4][2:] == "．．．．车．．．．"
    assert rows[5][2:] == "．．．．俥．．．．"
    assert rows[0][2:] == "．．．将．．．．．" and rows[9][2:] == "．．．帅．．．．．"
    start = Board().diagram(chinese=True).splitlines()
    assert start[0][2:] == "车马象士将士象马车" and start[9][2:] == "俥傌相仕帅仕相傌俥"
    assert start[2][2:] == "．砲．．．．．砲．" and start[7][2:] == "．炮．．．．．炮．"
    assert len({_width(r) for r in start}) == 1, "every row, the file letters too, is as wide on screen"
    for r in start:
        assert all(unicodedata.east_asian_width(ch) in "FW" for ch in r[2:])


def test_repr_svg_highlights_last_move_and_check() -> None:
    board = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w")
    board.push_iccs("e1d1")  # the rook gives check on the d-file
    root = ET.fromstring(board._repr_svg_())
    classes = [e.get("class") for e in root.iter() if e.get("class")]
    assert classes.count("lastmove") == 2 and classes.count("check") == 1
    check = [e for e in root.iter(SVG_NS + "circle") if e.get("class") == "check"][0]
    assert (float(check.get("cx", "")), float(check.get("cy", ""))) == svg.point(board.king(False) or 0)
    assert root.get("width") == "400"
    assert "check" not in Board()._repr_svg_() and "lastmove" not in Board()._repr_svg_()


def test_game_repr_html() -> None:
    game = pgn.read_game(io.StringIO('[Event "<demo>"]\n[Red "Hu Ronghua"]\n1. 炮二平五 馬８進７ 2. 馬二進三 *\n'))
    assert game is not None
    page = game._repr_html_()
    assert "&lt;demo&gt;" in page and "Hu Ronghua" in page
    moves = re.search(r"<p class='moves'>(.*?)</p>", page)
    assert moves and re.sub(r"<[^>]+>", "", moves.group(1)) == "1. 炮二平五 马８进７ 2. 马二进三"
    assert moves.group(1).count("<span style='white-space:nowrap'>") == 3  # a move never breaks across lines
    assert page.count("<svg") == 1 and 'class="lastmove"' in page


def test_game_repr_html_lists_problems() -> None:
    game = pgn.read_game(io.StringIO("1. 炮二平五 帥五進一 *\n"))
    assert game is not None and game.errors
    page = game._repr_html_()
    assert "1. 炮二平五" in page and "<ul class='errors'>" in page
    bad = pgn.Game({"FEN": "9/9/9/9/9/9/9/9/9/9 w"})
    assert "<svg" not in bad._repr_html_() and "invalid FEN" in bad._repr_html_()


# Run after the page loads: where each board picture is laid out, for the screenshot of the same window.
_RECTS = """<script>
var out=[].map.call(document.querySelectorAll('svg[viewBox]'),function(s){var r=s.getBoundingClientRect();
 return [r.left,r.top,r.width];});
var pre=document.createElement('pre');pre.id='rects';pre.textContent=JSON.stringify(out);document.body.appendChild(pre);
</script>"""


def test_notebook_outputs_in_the_browser(tmp_path: Path) -> None:
    """Boards and games inline in one page, as a notebook shows its outputs: each picture has its own pieces."""
    import json

    from _browser import dom, ink, screenshot

    first = pgn.read_game(io.StringIO('[Red "A"]\n1. 炮二平五 馬８進７ 2. 馬二進三 *\n'))
    second = pgn.read_game(io.StringIO('[FEN "3k5/9/9/9/4r4/4R4/9/9/9/3K5 w - - 0 1"]\n1. e4e5 *\n'))
    assert first is not None and second is not None
    alone = Board("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w")
    alone.push_iccs("e1e8")  # a capture that gives check
    outputs = [first._repr_html_(), alone._repr_svg_(), second._repr_html_()]
    boards = [first.end().board(), alone, second.end().board()]
    body = "".join(f"<div style='margin:8px 0'>{o}</div>" for o in outputs)
    page = tmp_path / "notebook.html"
    page.write_text(f"<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0'>{body}"
                    f"</body></html>", encoding="utf-8")
    shot = screenshot(page, 900, 1400, tmp_path / "notebook.png", zoom=2)  # two device pixels a CSS pixel
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", _RECTS + "</body>"), encoding="utf-8")
    found = re.search(r'<pre id="rects">(.*?)</pre>', dom(page), re.S)
    assert found
    rects = json.loads(found.group(1))
    assert len(rects) == 3
    for (left, top, width), board in zip(rects, boards):
        scale = 2 * width / 488
        left, top = 2 * left, 2 * top
        assert top + 560 * scale <= shot.size[1], "a picture is cut by the screenshot"
        for sq in range(90):
            x, y = svg.point(sq)
            votes = []
            for a in (2 * math.pi * i / 12 for i in range(12)):
                # Across the disc's ring (radius 20.5-23.5), which is a few pixels wide at this size.
                inks = {ink(shot.getpixel((round(left + (x + r * math.cos(a)) * scale),
                                           round(top + (y + r * math.sin(a)) * scale)))) for r in (20.5, 21.5, 22.5)}
                votes.append("red" if "red" in inks else "black" if "black" in inks else "other")
            p = board.piece_at(sq)
            want = "other" if p is None else "red" if p.color else "black"
            got = max(set(votes), key=votes.count)
            assert got == want and votes.count(got) >= 9, (board.fen(), sq, votes)


def test_a_game_with_hostile_headers_shows_them_as_text_in_the_browser(tmp_path: Path) -> None:
    """Game._repr_html_ with the report's payload list in its headers (and a bad move quoting one): every header
    shows as written, and nothing runs."""
    import html

    from _browser import dom

    from test_report_html import PAYLOADS, _assert_inert

    game = pgn.Game()
    for i, p in enumerate(PAYLOADS):
        game.headers[f"X{i}"] = f"a{p}b"
    game.add_line([Move.from_iccs("h2e2")])
    page = tmp_path / "game.html"
    page.write_text(f"<!doctype html><html><head><meta charset='utf-8'></head><body>"
                    f"<table id='problems'></table>{game._repr_html_()}</body></html>", encoding="utf-8")
    dumped = dom(page)
    _assert_inert(dumped)
    cells = dict(re.findall(r"<tr><th[^>]*>(X\d+)</th><td>(.*?)</td></tr>", dumped, re.S))
    for i, p in enumerate(PAYLOADS):
        # The browser drops a NUL from text (html.escape leaves it), as it would from any page.
        assert html.unescape(cells[f"X{i}"]) == f"a{p}b".replace("\x00", ""), i
