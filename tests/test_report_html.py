"""``xiangqi validate --html``: the report's data, its limits, and the page as headless Chromium shows it."""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, List, Tuple

import pytest

from xiangqi import Board, svg
from xiangqi.cli import main
from xiangqi.report_html import PAGE_SIZE, HtmlReport, write_html
from xiangqi.validate import GameReport, validate

SAMPLE = Path(__file__).resolve().parent / "data" / "sample"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def reports() -> List[GameReport]:
    return list(validate([str(SAMPLE)]))


def _rows(page: str) -> List[List[Any]]:
    m = re.search(r'<script type="application/json" id="rows">(.*?)</script>', page, re.S)
    assert m
    return json.loads(m.group(1).replace("<\\/", "</"))


def _templates(page: str) -> List[Tuple[int, str]]:
    return [(int(i), body) for i, body in re.findall(r'<template id="b(\d+)">(.*?)</template>', page, re.S)]


def _problems(reports: List[GameReport]) -> List[Tuple[str, int]]:
    out = []
    for r in reports:
        out += [(r.source, r.index)] * ((r.error is not None) + len(r.warnings))
    return out


def test_rows_are_the_problem_games(reports: List[GameReport]) -> None:
    out = io.StringIO()
    summary = write_html(reports, out)
    page = out.getvalue()
    rows = _rows(page)
    assert sorted((r[0], r[1]) for r in rows) == sorted(_problems(reports))
    assert len(rows) == summary.invalid + sum(summary.warnings.values()) >= 6
    kinds = {r[4] for r in rows}
    assert {"invalid-fen", "illegal-move", "invalid-notation", "truncated", "result-mismatch",
            "rule-violation (warning)"} <= kinds
    warning = [r for r in rows if r[4] == "rule-violation (warning)"][0]
    assert re.fullmatch(r"\d+-\d+", warning[8]) and warning[3]  # the loop's plies, the players
    # A board for every row whose position reads, each a well-formed SVG that relies on the page's definitions.
    templates = dict(_templates(page))
    for r in rows:
        if r[4] == "invalid-fen":
            assert r[9] == -1
        else:
            assert r[9] in templates
            root = ET.fromstring(templates[r[9]])
            assert root.tag == SVG + "svg" and root.find(SVG + "defs") is None
            assert Board(r[10]).fen() == r[10]
    illegal = [r for r in rows if r[4] == "illegal-move"][0]
    assert 'class="arrow"' in templates[illegal[9]]  # the faulty move, worked out from the message's squares
    defs = re.search(r'<svg[^>]*style="position:absolute">.*?</svg>', page, re.S)
    assert defs
    ids = set(re.findall(r'id="([^"]+)"', defs.group(0)))
    for body in templates.values():
        assert set(re.findall(r'xlink:href="#([^"]+)"', body)) <= ids


def test_self_contained(reports: List[GameReport]) -> None:
    out = io.StringIO()
    write_html(reports, out)
    page = out.getvalue()
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", page))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}, urls
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=", page)


def test_board_cap(reports: List[GameReport]) -> None:
    out = io.StringIO()
    write_html(reports, out, max_boards=1)
    page = out.getvalue()
    assert len(_templates(page)) == 1
    assert "Boards are drawn for the first 1 rows only" in page
    with pytest.raises(ValueError, match="max_boards"):
        HtmlReport(max_boards=-1)


def test_valid_games_cost_no_row() -> None:
    report = HtmlReport()
    for r in validate([str(SAMPLE / "wukong-liu-dahua-10.iccs.pgn.gz")]):
        assert r.ok and not r.warnings
        report.add(r)
    assert len(report) == 0


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    assert main(["validate", str(SAMPLE), "--html", str(out), "-q"]) == 1  # some games are invalid
    assert len(_rows(out.read_text(encoding="utf-8"))) == len(_problems(list(validate([str(SAMPLE)]))))
    assert main(["validate", str(SAMPLE), "--html", str(SAMPLE / "damaged.chinese.pgn"), "-q"]) == 2
    assert "--html" in capsys.readouterr().err
    assert main(["validate", str(SAMPLE), "--html", "-", "-q"]) == 2
    assert "not standard output" in capsys.readouterr().err
    assert main(["validate", str(SAMPLE), "--html", str(tmp_path / "no" / "such" / "dir.html"), "-q"]) == 2
    assert "cannot write the HTML report" in capsys.readouterr().err


# ------------------------------------------------------------------ in a real browser

def _shown_rows(html_text: str) -> List[List[str]]:
    """The cells of the problems table's body rows in a dumped DOM."""
    body = html_text[html_text.index('<table id="problems">'):]
    body = body[body.index("<tbody>"):body.index("</table>")]
    return [re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S) for tr in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_filter_sort_and_pages_in_the_browser(tmp_path: Path) -> None:
    """A big synthetic report: one page of rows in the DOM, and the view a link asks for (filter, sort, page)."""
    from _browser import dom

    from xiangqi.validate import ErrorInfo, Summary

    summary, report = Summary(), HtmlReport(max_boards=40)
    fen = Board().fen()
    for i in range(3000):
        bad = i % 3 == 0
        kind = "illegal-move" if i % 2 else "invalid-notation"
        r = GameReport(f"/absent/g{i // 1000}.pgn", i + 1, 10 * i + 1, not bad, i % 97,
                       ErrorInfo(kind, i % 97, "h2e2", f"message {i}") if bad else None, None, None, None, fen)
        summary.add(r)
        report.add(r)
    page = tmp_path / "big.html"
    with page.open("w", encoding="utf-8") as fh:
        report.write(fh, summary)
    first = _shown_rows(dom(page))
    assert len(first) == PAGE_SIZE and [c[1] for c in first] == [str(i + 1) for i in range(0, 3 * PAGE_SIZE, 3)]
    assert sum("<svg" in c[9] for c in first) == PAGE_SIZE
    view = _shown_rows(dom(page, "kind=illegal-move&sort=ply&dir=desc&page=2"))
    assert len(view) == PAGE_SIZE and {c[4] for c in view} == {"illegal-move"}
    plies = [int(c[5]) for c in view]
    assert plies == sorted(plies, reverse=True)
    every = sorted((i % 97 for i in range(3000) if i % 3 == 0 and i % 2), reverse=True)
    assert plies == every[PAGE_SIZE:2 * PAGE_SIZE]  # the second page of the sorted, filtered rows
    assert all("<svg" not in c[9] and fen in c[9] for c in view if int(c[1]) > 3 * 40)  # past the cap: the FEN
    only = _shown_rows(dom(page, "q=message%202997"))
    assert [c[1] for c in only] == ["2998"]


def test_report_in_the_browser(tmp_path: Path, reports: List[GameReport]) -> None:
    from _browser import close, dom, hex_rgb, ink, screenshot

    page = tmp_path / "report.html"
    with page.open("w", encoding="utf-8") as fh:
        write_html(reports, fh)
    text = page.read_text(encoding="utf-8")
    rows = _rows(text)
    assert len(rows) <= PAGE_SIZE
    # The table the script built lists every faulty game of the sample, with a board where there is a position.
    shown = _shown_rows(dom(page))
    assert len(shown) == len(rows)
    for cells, row in zip(shown, rows):
        assert cells[0] == row[0] and cells[1] == str(row[1]) and cells[4] == row[4]
        assert ("<svg" in cells[9]) == (row[9] >= 0)
    # The first board on the page, found by its wood colour, shows its position's pieces where the FEN has them.
    img = screenshot(page, 1600, 1200, tmp_path / "report.png", zoom=2)  # boards of 600 device pixels
    wood = hex_rgb(svg.DEFAULT_COLORS["board"])
    w, h = img.size
    px = img.load()
    corner = next(((x, y) for y in range(h) for x in range(w) if close(px[x, y], wood, 6)), None)
    assert corner is not None, "no board on the page"
    first = next(r for r in rows if r[9] >= 0)
    board = Board(first[10])
    scale = 2 * 300 / 488
    x0, y0 = corner
    for sq in range(90):
        x, y = svg.point(sq)
        votes = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)):
            # At this small size the disc's ring (radius 20.5-23.5) is under 4 pixels wide: look across it for
            # its ink, not at its outer edge, where a king in check meets its red glow.
            inks = {ink(px[round(x0 + (x + r * dx) * scale), round(y0 + (y + r * dy) * scale)])
                    for r in (20.5, 21.5, 22.5)}
            votes.append("red" if "red" in inks else "black" if "black" in inks else "other")
        p = board.piece_at(sq)
        want = "other" if p is None else "red" if p.color else "black"
        got = max(set(votes), key=votes.count)
        assert got == want and votes.count(got) >= 6, f"{first[0]} game {first[1]}: {sq} shows {votes}, FEN {want}"


@pytest.mark.parametrize("fen, token, iccs", [
    ("3k5/9/9/9/9/9/9/9/4r4/3K5 w", "帥六進一", "d0d1"),   # would walk into the rook's file: illegal, yet drawn
    ("3k5/9/9/9/9/9/9/9/4r4/3K5 w", "K6+1", "d0d1"),       # the same in WXF
    ("4k4/9/9/9/9/9/9/9/9/3K5 w", "d0e0", "d0e0"),         # ICCS: kings facing each other
    ("4k4/9/9/9/9/9/9/9/9/3K5 w", "車二進一", None),        # no such piece, and the message names no squares
])
def test_problem_move_without_legality(fen: str, token: str, iccs: str) -> None:
    """The arrow of an illegal move comes from the token itself, not from squares the message happens to name."""
    from xiangqi.report_html import _problem_move
    from xiangqi.validate import ErrorInfo

    got = _problem_move(Board(fen), ErrorInfo("illegal-move", 0, token, "illegal move"))
    assert (got.iccs() if got else None) == iccs
