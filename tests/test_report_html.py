"""``xiangqi validate --html``: the report's data, its limits, and the page as headless Chromium shows it."""

from __future__ import annotations

import html
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

from xiangqi import Board, svg
from xiangqi.cli import main
from xiangqi.report_html import PAGE_SIZE, HtmlReport, write_html
from xiangqi.validate import WARNING_KINDS, GameReport, validate

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
    red, blue = (svg.DEFAULT_COLORS[f"arrow {c}"][:7] for c in ("red", "blue"))
    for r in rows:
        if r[4] in ("illegal-move", "invalid-notation", "truncated"):
            # The board just before the faulty move: the position its message names.
            m = re.search(r" in (\S+ [wb] \S+ \S+ \d+ \d+)", r[7])
            assert m and Board(r[10]).fen() == Board(m.group(1)).fen(), r
            assert blue not in templates[r[9]]
        elif r[4] == "rule-violation (warning)":
            # The position before the move that completed the repetition, that move in blue.
            move = Board(r[10]).parse_chinese(r[6])
            assert f"move {move.iccs()} completed" in r[7], r
            arrows = re.findall(r'<path class="arrow" d="M([\d.]+) ([\d.]+)L.*?" fill="([^"]+)"', templates[r[9]])
            assert len(arrows) == 1 and arrows[0][2] == blue and red not in templates[r[9]]
            tail = svg.point(move.from_square)
            assert abs(float(arrows[0][0]) - tail[0]) <= 5 and abs(float(arrows[0][1]) - tail[1]) <= 5
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


def _big_report(tmp_path: Path) -> Path:
    """A synthetic report of 3,000 games, every third with a problem (illegal-move or invalid-notation)."""
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
    return page


def test_filter_sort_and_pages_in_the_browser(tmp_path: Path) -> None:
    """A big synthetic report: one page of rows in the DOM, and the view a link asks for (filter, sort, page)."""
    from _browser import dom

    page = _big_report(tmp_path)
    fen = Board().fen()
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


# Run after the page's own script: uses the controls as a person does and logs what the table shows after each step.
_CLICKS = """<script>
(function(){
var log=[],heads=document.querySelectorAll('#problems th');
function snap(step){var rows=[].map.call(document.querySelectorAll('#problems tbody tr'),function(tr){
  return [].map.call(tr.children,function(td){return td.textContent;}).slice(0,9);});
 log.push({step:step,rows:rows,page:document.getElementById('page').textContent,
  count:document.getElementById('count').textContent,
  sorted:[].map.call(heads,function(h){return h.className;}).join(' ').trim()});}
heads[5].click();snap('ply up');
heads[5].click();snap('ply down');
document.getElementById('next').click();snap('next');
document.getElementById('prev').click();document.getElementById('prev').click();snap('prev');
var kind=document.getElementById('kind');kind.value='illegal-move';kind.dispatchEvent(new Event('change'));snap('kind');
var q=document.getElementById('filter');q.value='MESSAGE 2997';q.dispatchEvent(new Event('input'));snap('typed');
heads[1].click();snap('game');
var pre=document.createElement('pre');pre.id='log';pre.textContent=JSON.stringify(log);document.body.appendChild(pre);
})();
</script>"""


def test_controls_in_the_browser(tmp_path: Path) -> None:
    """Clicking a heading sorts (again: the other way), the buttons page, the menu and the box filter."""
    from _browser import dom

    page = _big_report(tmp_path)
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("</body>", _CLICKS + "</body>"), encoding="utf-8")
    out = dom(page)
    log = {s["step"]: s for s in json.loads(html.unescape(re.search(r'<pre id="log">(.*?)</pre>', out, re.S).group(1)))}
    problems = [i for i in range(3000) if i % 3 == 0]  # game i + 1, ply i % 97
    plies = sorted(i % 97 for i in problems)
    up, down = log["ply up"], log["ply down"]
    assert [int(r[5]) for r in up["rows"]] == plies[:PAGE_SIZE] and up["sorted"] == "asc"
    assert [int(r[5]) for r in down["rows"]] == plies[::-1][:PAGE_SIZE] and down["sorted"] == "desc"
    assert [int(r[5]) for r in log["next"]["rows"]] == plies[::-1][PAGE_SIZE:2 * PAGE_SIZE]
    assert log["next"]["page"] == f"page 2 of {-(-len(problems) // PAGE_SIZE)}"
    assert log["prev"]["rows"] == down["rows"] and log["prev"]["page"].startswith("page 1 of")
    illegal = [i for i in problems if i % 2]
    assert {r[4] for r in log["kind"]["rows"]} == {"illegal-move"}
    assert log["kind"]["count"] == f"{len(illegal)} of {len(problems)} rows"
    assert [r[1] for r in log["typed"]["rows"]] == ["2998"] and log["typed"]["count"] == f"1 of {len(problems)} rows"
    assert log["game"]["sorted"] == "asc" and log["game"]["count"] == log["typed"]["count"]


def _summary_shown(html_text: str) -> Dict[str, str]:
    """The summary table of a dumped DOM: heading -> figure."""
    table = html_text[html_text.index('<table class="summary">'):]
    table = table[:table.index("</table>")]
    return {html.unescape(k): html.unescape(v)
            for k, v in re.findall(r"<th>(.*?)</th><td>(.*?)</td>", table, re.S)}


def _wood(img: "Any") -> "np.ndarray[Any, Any]":
    """A boolean image: where the screenshot shows the boards' wood."""
    wood = np.array([int(svg.DEFAULT_COLORS["board"][i:i + 2], 16) for i in (1, 3, 5)])
    return (np.abs(np.asarray(img, dtype=np.int16) - wood) <= 6).all(axis=2)  # type: ignore[no-any-return]


def _board_tops(column: "np.ndarray[Any, Any]", height: int) -> List[int]:
    """The top edges of the boards whose left edge is this column of :func:`_wood`: runs about ``height`` long."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], column.astype(np.int8), [0]))))
    return [int(a) for a, b in zip(edges[::2], edges[1::2]) if abs(b - a - height) <= 3]


def test_report_in_the_browser(tmp_path: Path, reports: List[GameReport]) -> None:
    from _browser import dom, ink, screenshot

    page = tmp_path / "report.html"
    with page.open("w", encoding="utf-8") as fh:
        summary = write_html(reports, fh)
    text = page.read_text(encoding="utf-8")
    rows = _rows(text)
    assert len(rows) <= PAGE_SIZE
    # The table the script built lists every faulty game of the sample, with a board where there is a position.
    shown_dom = dom(page)
    shown = _shown_rows(shown_dom)
    assert len(shown) == len(rows)
    for cells, row in zip(shown, rows):
        assert cells[0] == row[0] and cells[1] == str(row[1]) and cells[4] == row[4]
        assert ("<svg" in cells[9]) == (row[9] >= 0)
    # The summary table holds the run's figures.
    figures = _summary_shown(shown_dom)
    assert figures["games"] == f"{summary.games:,}" and figures["valid"] == f"{summary.valid:,}"
    assert figures["plies"] == f"{summary.plies:,}" and figures["files"] == f"{summary.files:,}"
    for kind, n in summary.errors.items():
        if kind not in WARNING_KINDS:  # a warning kind has its own line below
            assert figures[kind] == f"{n:,}", kind
    for kind, n in summary.warnings.items():
        assert figures[f"{kind} (warning)"] == f"{n:,}", kind
    # Every board on the page, found by its wood colour down the boards' column, shows its position's pieces
    # where the FEN has them.
    drawn = [r for r in rows if r[9] >= 0]
    assert len(drawn) >= 5
    img = screenshot(page, 1600, 3200, tmp_path / "report.png", zoom=2)  # boards of 600 device pixels
    px = img.load()
    wood = _wood(img)
    ys, xs = np.nonzero(wood)
    assert len(xs), "no board on the page"
    x0 = int(xs.min())  # the boards' left edge (every board is in the same column)
    scale = 2 * 300 / 488
    height = round(560 * scale)  # a picture with coordinates: 488 x 560 user units
    tops = _board_tops(wood[:, x0], height)
    assert len(tops) == len(drawn), (tops, len(drawn))
    assert tops[-1] + height < img.size[1], "the last board is cut by the screenshot"
    for row, y0 in zip(drawn, tops):
        board = Board(row[10])
        for sq in range(90):
            x, y = svg.point(sq)
            votes = []
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7, 0.7), (-0.7, 0.7), (0.7, -0.7), (-0.7, -0.7)):
                # At this small size the disc's ring (radius 20.5-23.5) is under 4 pixels wide: look across it
                # for its ink, not at its outer edge, where a king in check meets its red glow.
                inks = {ink(px[round(x0 + (x + r * dx) * scale), round(y0 + (y + r * dy) * scale)])
                        for r in (20.5, 21.5, 22.5)}
                votes.append("red" if "red" in inks else "black" if "black" in inks else "other")
            p = board.piece_at(sq)
            want = "other" if p is None else "red" if p.color else "black"
            got = max(set(votes), key=votes.count)
            assert got == want and votes.count(got) >= 6, f"{row[0]} game {row[1]}: {sq} shows {votes}, FEN {want}"


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


def test_a_report_of_100000_games(tmp_path: Path) -> None:
    """100,000 games, one in ten with a problem: valid games add nothing to the page but their count, and the
    browser shows one page of 25 rows of the 10,000, the last one too (the first pages: the test above)."""
    from _browser import dom

    from xiangqi.validate import ErrorInfo, Summary

    fen = "2bak4/4a4/4b1n2/p1p1C3p/9/6p2/P1r1P3P/4B1N2/4A4/1RBK1A3 w - - 0 1"
    pages = []
    for with_valid in (True, False):
        summary, report = Summary(), HtmlReport()
        for i in range(100_000):
            bad = i % 10 == 0
            if bad or with_valid:
                r = GameReport(f"/absent/g{i // 1000}.pgn", i + 1, 10 * i + 1, not bad, i % 97,
                               ErrorInfo("illegal-move", i % 97, "b0b4", f"message {i}") if bad else None,
                               None, None, None, fen)
                summary.add(r)
                report.add(r)
        out = io.StringIO()
        report.write(out, summary)
        pages.append(out.getvalue())
    big, problems_only = (p[p.index("<h2>"):] for p in pages)  # past the summary table
    assert big == problems_only
    assert len(pages[0]) < 12_000_000  # 5,000 boards of about 1.5 KB and 10,000 rows of data
    page = tmp_path / "big.html"
    page.write_text(pages[0], encoding="utf-8")
    last_dom = dom(page, "page=400")
    last = _shown_rows(last_dom)
    assert "page 400 of 400" in last_dom and [c[1] for c in last] == [str(i + 1) for i in range(99_750, 100_000, 10)]
    assert all("<svg" not in c[9] and fen in c[9] for c in last)  # past the 5,000 drawn boards: the FEN


# ------------------------------------------------------------------ hostile text in every field

#: Run if any payload ever becomes markup or script: the page's root element gets an attribute.
_MARK = "document.documentElement.setAttribute('data-pwned','1')"
#: Text that ends or confuses a <script> element, a CDATA section or an attribute, or starts a URL's script.
PAYLOADS = ["<!--", "<script>", "</script>", "<!--<script>", "<!--<script></script>", "]]>", '"', "'", "`",
            "javascript:" + _MARK, "\x00", "\u2028", "\u2029", "&lt;&amp;", "</SCRIPT >",
            f"</script><script>{_MARK}</script>", f"<img src=x onerror=\"{_MARK}\">",
            f"<svg onload=\"{_MARK}\"><![CDATA[", f"<!--<script>{_MARK}//"]


def _cell_text(cell: str) -> str:
    """A table cell's text as the page shows it (the DOM's serialisation undone; NUL is shown as U+FFFD)."""
    return html.unescape(cell).replace("\ufffd", "\x00")


def _assert_inert(dumped: str) -> None:
    root = re.search(r"<html[^>]*>", dumped)
    assert root and "pwned" not in root.group(0), "a payload ran as script"
    body = dumped[dumped.index('<table id="problems">'):dumped.index("</table>", dumped.index('<table id="problems">'))]
    assert not re.search(r"<(img|script|svg onload)\b", body, re.I), "a payload became markup"


def test_hostile_text_in_every_field_in_the_browser(tmp_path: Path) -> None:
    """Each payload in every field of a report (file and folder names, kind, token, message, FEN, title): the
    table shows every row with the text as it was, and nothing runs (a player named ``<!--<script>`` emptied it)."""
    from _browser import dom

    from xiangqi.validate import ErrorInfo, Summary

    title = "report " + " ".join(PAYLOADS)
    summary, report = Summary(), HtmlReport(title=title)
    expected = []
    for i, p in enumerate(PAYLOADS):
        r = GameReport(f"/absent/{p}/{p}.pgn", i + 1, i + 2, False, 3, ErrorInfo(p, 3, p, f"message {p}"), None,
                       None, None, p, (ErrorInfo("rule-violation", 5, p, f"the plies 1-5 repeat: {p}"),))
        summary.add(r)
        report.add(r)
        source = r.source
        expected.append([source, str(i + 1), str(i + 2), "", p, "3", p, f"message {p}", "", p])
        expected.append([source, str(i + 1), str(i + 2), "", "rule-violation (warning)", "5", p,
                         f"the plies 1-5 repeat: {p}", "1-5", p])
    page = tmp_path / "hostile.html"
    with page.open("w", encoding="utf-8") as fh:
        report.write(fh, summary)
    text = page.read_text(encoding="utf-8")
    assert text.count("<script") == 2 and text.count("</script>") == 2  # the page's own two elements only
    shown: List[List[str]] = []
    pages = -(-len(expected) // PAGE_SIZE)
    for n in range(1, pages + 1):
        dumped = dom(page, f"page={n}")
        _assert_inert(dumped)
        assert f"page {n} of {pages}" in dumped
        if n == 1:
            for element in ("title", "h1"):
                assert _cell_text(re.search(f"<{element}>(.*?)</{element}>", dumped, re.S).group(1)) == title
            options = [_cell_text(o) for o in re.findall(r"<option value=\"[^\"]*\">(.*?)</option>", dumped, re.S)]
            assert options[0] == "every kind" and sorted(options[1:]) == sorted({row[4] for row in expected})
        for cells in _shown_rows(dumped):
            fen = re.search(r'<span class="fen">(.*?)</span>', cells[9], re.S)
            assert fen, cells[9]
            shown.append([_cell_text(c) for c in cells[:9]] + [_cell_text(fen.group(1))])
    assert shown == expected


def test_hostile_names_from_game_records_in_the_browser(tmp_path: Path) -> None:
    """End to end: payloads in a folder's and a file's name, in the players' tags (or the event's), a FEN tag that
    a message quotes, and move tokens: every row is shown with the players' names as written, and nothing runs."""
    from _browser import dom

    folder = tmp_path / "games" / "<!--<script>"
    folder.mkdir(parents=True)
    path = folder / "a]]>'\"javascript:.pgn"
    bad_fen = "<!--<script> w - - 0 1"
    path.write_text(
        f'[Red "<!--<script>"]\n[Black "</script><script>{_MARK}</script>"]\n\n1. h2e2 h9g7 2. h2h9 *\n\n'
        f'[Event "javascript:{_MARK}\\"\'"]\n\n1. h2e2 <script> *\n\n'
        f'[Red "]]>\u2028x"]\n[FEN "{bad_fen}"]\n\n1. h2e2 *\n\n'
        f'[Red "<!--"]\n[Black "<img src=x onerror=\\"{_MARK}\\">"]\n\n1. h2e2 </script> *\n', encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["validate", str(tmp_path / "games"), "--html", str(out), "-q"]) == 1
    dumped = dom(out)
    _assert_inert(dumped)
    rows = [[_cell_text(c) for c in cells[:9]] for cells in _shown_rows(dumped)]
    assert [r[0] for r in rows] == [str(path)] * 4 and [r[1] for r in rows] == ["1", "2", "3", "4"]
    assert [r[3] for r in rows] == [f"<!--<script> – </script><script>{_MARK}</script>",
                                    f"(javascript:{_MARK}\"')", "]]>\u2028x – ?", f"<!-- – <img src=x onerror=\"{_MARK}\">"]
    assert [r[4] for r in rows] == ["illegal-move", "invalid-notation", "invalid-fen", "invalid-notation"]
    assert [r[6] for r in rows] == ["h2h9", "<script>", bad_fen, "</script>"]
    assert f"'{bad_fen}'" in rows[2][7]


def test_every_payload_as_players_and_fen_tag_in_the_browser(tmp_path: Path) -> None:
    """Each payload of the list as both players' names of a game, and as the FEN tag of another (quoted by its
    message): every row shows the text as written, and nothing runs."""
    from _browser import dom

    folder = tmp_path / "games"
    folder.mkdir()
    games, expected = [], []
    for i, p in enumerate(PAYLOADS):
        tag = p.replace("\\", "\\\\").replace('"', '\\"')
        games.append(f'[Red "R{tag}r"]\n[Black "B{tag}b"]\n\n1. h2e2 h9g7 2. h2h9 *\n\n')
        games.append(f'[Red "r"]\n[FEN "{tag}"]\n\n1. h2e2 *\n\n')
        expected.append((str(2 * i + 1), "illegal-move", f"R{p}r – B{p}b", "h2h9"))
        if p.strip():   # a blank tag is no FEN tag: the game is valid
            expected.append((str(2 * i + 2), "invalid-fen", "r – ?", p))
    (folder / "payloads.pgn").write_text("".join(games), encoding="utf-8")
    out = tmp_path / "report.html"
    assert main(["validate", str(folder), "--html", str(out), "-q"]) == 1
    shown: List[Tuple[str, str, str, str]] = []
    pages = -(-len(expected) // PAGE_SIZE)
    for n in range(1, pages + 1):
        dumped = dom(out, f"page={n}")
        _assert_inert(dumped)
        for cells in _shown_rows(dumped):
            c = [_cell_text(x) for x in cells[:9]]
            shown.append((c[1], c[4], c[3], c[6]))
            if c[4] == "invalid-fen":
                assert c[7].startswith("invalid FEN"), c   # the message, which quotes the tag (cut if long)
    assert shown == expected


def test_players_of_a_problem_game_read_in_bounded_memory(tmp_path: Path) -> None:
    """The page reads the players of a problem game at its line without holding the file (a 90 MB file with one
    problem game held 122 MB: the whole file was read to find the line)."""
    import tracemalloc

    from xiangqi.validate import ErrorInfo, Summary

    game = '[Red "R{}"]\n[Black "B"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n'
    lines = game.count("\n")
    path = tmp_path / "big.pgn"
    with path.open("w", encoding="utf-8") as fh:
        for i in range(200_000):
            fh.write(game.format(i))
    assert path.stat().st_size > 11_000_000
    summary, report = Summary(), HtmlReport()
    for index in (1, 150_001, 200_000):
        r = GameReport(str(path), index, (index - 1) * lines + 1, False, 0,
                       ErrorInfo("illegal-move", 0, "h2h9", "there is no piece on h2."), "*", None, None, Board().fen())
        summary.add(r)
        report.add(r)
    out = io.StringIO()
    tracemalloc.start()
    try:
        report.write(out, summary)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [row[3] for row in _rows(out.getvalue())] == ["R0 – B", "R150000 – B", "R199999 – B"]
    assert peak < 4_000_000, f"{peak:,} bytes at the peak"
