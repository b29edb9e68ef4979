"""The HTML validation report (``xiangqi validate --html report.html``): one self-contained file to act on.

It consumes the :class:`~xiangqi.reports.GameReport` records that validation yields and shows:

* the summary table (games, plies, valid, each error kind, warnings, time);
* a sortable, filterable, paged table of the games with problems: file, game number, line, players, kind,
  ply, token, message, and for a rule violation the plies of its loop;
* for each problem a board: for a faulty move the position just before it, with the move drawn as a red
  arrow when its squares can be worked out (the token read by the pieces' rules alone, or the squares
  the message names); for a rule violation the position before the move that completed the repetition,
  with that move in blue; else the last good position.

Scale: only games with problems get a row (a valid game costs nothing but its count in the summary),
the rows are data (one JSON array) from which a small script builds one page of the table at a time,
and each board is an inert ``<template>`` that the script puts on the page only when its row is shown.
So a report over 100,000 games opens as fast as one over ten: the browser lays out 25 rows and 25
boards whatever the total. The boards are drawn here by :func:`xiangqi.svg.board` (the one drawing of
the library, not a second one in JavaScript), without their definitions, which the page holds once
(:func:`xiangqi.svg.definitions`): about 1.5 KB a board. At most ``max_boards`` (default 5,000) are
drawn; rows past that show the position's FEN instead, and the report says so. A link can carry a
view of the table: ``report.html#kind=illegal-move&q=Hu&sort=ply&dir=desc&page=2``.

The file needs no network and no other file: styles, script, data and glyph outlines are all inline.
Players' names are not in the reports; they are read from the game records of the problem games only
(a PGN game is read at its line with :func:`xiangqi.pgn.read_game`, other formats through
:func:`xiangqi.convert.read_any`).
"""

from __future__ import annotations

import collections
import gzip
import html
import os
import re
import stat
from typing import BinaryIO, Dict, Iterable, List, Optional, TextIO, Tuple

from xiangqi import formats, pgn
from xiangqi import svg
from xiangqi.board import Board
from xiangqi.convert import read_any
from xiangqi.core import Move, parse_square
from xiangqi.errors import XiangqiError
from xiangqi.notation import decode_move
from xiangqi.reports import ERROR_KINDS, WARNING_KINDS, ErrorInfo, GameReport, Summary, json_text, name_text

__all__ = ["HtmlReport", "write_html", "script_json", "DEFAULT_MAX_BOARDS", "PAGE_SIZE"]

#: How many problem boards a report draws at most; rows past that show the FEN instead.
DEFAULT_MAX_BOARDS = 5000
#: Rows per page of the problems table.
PAGE_SIZE = 25
_BOARD_PX = 300
_SQUARES = re.compile(r"\bfrom ([a-i][0-9]) to ([a-i][0-9])\b")
_LOOP = re.compile(r"\bplies (\d+)-(\d+)\b")


class _Details:
    """What the record of one problem game adds: the players, and its main line (for rule violations)."""

    __slots__ = ("players", "start", "moves")

    def __init__(self, players: str, start: Optional[str], moves: List[Move]) -> None:
        self.players = players
        self.start = start
        self.moves = moves


def _players(headers: Dict[str, str]) -> str:
    """``Red – Black``, or the event's name for a record that names no players (a study, a puzzle)."""
    def known(tag: str) -> str:
        value = headers.get(tag, "").strip()
        return "" if value == "?" else value   # "?": PGN's unknown, which readers fill in for a missing tag

    red, black, event = known("Red"), known("Black"), known("Event")
    if red or black:
        return f"{red or '?'} – {black or '?'}"
    return f"({event})" if event else ""


def _details_of(game: object) -> _Details:
    headers: Dict[str, str] = dict(getattr(game, "headers", {}))
    try:
        moves = list(game.mainline_moves())  # type: ignore[attr-defined]
    except XiangqiError:
        moves = []
    return _Details(_players(headers), headers.get("FEN", "").strip() or None, moves)


def _read_details(source: str, games: Iterable[Tuple[int, Optional[int]]]) -> Dict[int, _Details]:
    """The details of some games of one file, by game number: ``games`` holds (number, first line)."""

    wanted = dict(games)
    out: Dict[int, _Details] = {}
    if "\0" in source:
        return out   # no file has such a name (a report made by other code): os.stat would raise ValueError
    try:
        if not stat.S_ISREG(os.stat(source).st_mode):
            return out   # a stream is read once (opening a FIFO again would wait for a writer)
        with open(source, "rb") as fh:
            head = fh.read(2)
        plain_pgn = head != b"\x1f\x8b" and all(line is not None for line in wanted.values()) and \
            formats.FORMATS[formats.detect_path(source)].streamed
        if plain_pgn:
            # One pass to find the byte offset of each wanted first line, then read just those games.
            with open(source, "rb") as fh:
                offsets = _line_offsets(fh, [line for line in wanted.values() if line is not None])
                for n, first in sorted(wanted.items()):
                    if first in offsets:
                        fh.seek(offsets[first])
                        game = pgn.read_game(fh)
                        if game is not None:
                            out[n] = _details_of(game)
        else:
            last = max(wanted)
            for n, game in enumerate(read_any(source), 1):
                if n in wanted:
                    out[n] = _details_of(game)
                if n >= last:
                    break
    except (OSError, XiangqiError, UnicodeError, EOFError, gzip.BadGzipFile):
        pass  # the names stay unknown; the report's facts do not depend on them
    return out


def _line_offsets(fh: BinaryIO, lines: Iterable[int]) -> Dict[int, int]:
    """The byte offsets where some (1-based) lines of the open file ``fh`` begin, read once in blocks of 1 MiB
    (the whole file was read at once: a 90 MB file with one problem game held 122 MB)."""
    out: Dict[int, int] = {}
    targets = iter(sorted(set(lines)))
    target = next(targets, None)
    line, offset = 1, 0   # the line at the start of the block, and the block's offset in the file
    while target is not None:
        block = fh.read(1 << 20)
        if not block:
            break
        ends = block.count(b"\n")
        if line + ends < target:
            line += ends
            offset += len(block)
            continue
        pos = 0   # the line begins in this block: walk to it
        while target is not None:
            if line >= target:
                out[target] = offset + pos
                target = next(targets, None)
                continue
            pos = block.find(b"\n", pos) + 1
            if not pos:
                break
            line += 1
        offset += len(block)
    return out


def _problem_move(board: Board, error: ErrorInfo) -> Optional[Move]:
    """The faulty move's squares, when they can be worked out: the token decoded by the pieces' rules
    (:func:`xiangqi.notation.decode_move`: a move that would leave the king in check still has its
    squares), else the squares the message names."""
    try:
        move = decode_move(board, error.token or "")
        if move:
            return move
    except ValueError:
        pass
    m = _SQUARES.search(error.message)
    return Move(parse_square(m.group(1)), parse_square(m.group(2))) if m else None


class _Row:
    __slots__ = ("report", "issue", "warning")

    def __init__(self, report: GameReport, issue: ErrorInfo, warning: bool) -> None:
        self.report = report
        self.issue = issue
        self.warning = warning


class HtmlReport:
    """Collects the problem games of a validation run and writes the HTML report.

    >>> import io, os, tempfile
    >>> from xiangqi.validate import Summary, validate
    >>> path = os.path.join(tempfile.mkdtemp(), "two.pgn")
    >>> _ = open(path, "w", encoding="utf-8").write(
    ...     '[Red "A"]\\n[Black "B"]\\n\\n1. 炮二平五 马８进７ *\\n\\n[Red "C"]\\n\\n1. 炮二平五 帥五進一 *\\n')
    >>> report, summary = HtmlReport(), Summary()
    >>> for r in validate([path]):
    ...     summary.add(r); report.add(r)
    >>> out = io.StringIO(); report.write(out, summary)
    >>> page = out.getvalue()
    >>> page.startswith("<!doctype html>"), page.count("<template"), "illegal-move" in page
    (True, 1, True)
    >>> HtmlReport(max_boards=-1)
    Traceback (most recent call last):
    ...
    ValueError: max_boards must be >= 0, not -1

    Raises:
        * :exc:`ValueError` when ``max_boards`` is negative.
    """

    def __init__(self, *, max_boards: int = DEFAULT_MAX_BOARDS, title: str = "xiangqi validation report") -> None:
        if max_boards < 0:
            raise ValueError(f"max_boards must be >= 0, not {max_boards}")
        self.max_boards = max_boards
        self.title = title
        #: Where to read a source's games again to draw them, by the source's name in the reports (the
        #: temporary copy of a stream, which cannot be read twice; other sources are read where they are).
        self.copies: Dict[str, str] = {}
        self._rows: List[_Row] = []

    def add(self, report: GameReport) -> None:
        """Take one report: a game with an error or warnings gets rows, a valid game is only counted.

        >>> from xiangqi.validate import ErrorInfo, GameReport
        >>> bad = GameReport("a.pgn", 1, 1, False, 0, ErrorInfo("invalid-fen", 0, None, "no red king."),
        ...                  None, None, None, None)
        >>> report = HtmlReport()
        >>> report.add(bad); len(report)
        1
        """
        if report.error is not None:
            self._rows.append(_Row(report, report.error, False))
        for w in report.warnings:
            self._rows.append(_Row(report, w, True))

    def __len__(self) -> int:
        """Rows of the problems table."""
        return len(self._rows)

    def _details(self) -> Dict[Tuple[str, int], _Details]:
        by_source: Dict[str, Dict[int, Optional[int]]] = collections.defaultdict(dict)
        for row in self._rows:
            by_source[row.report.source][row.report.index] = row.report.line
        out: Dict[Tuple[str, int], _Details] = {}
        for source, games in by_source.items():
            for n, d in _read_details(self.copies.get(source, source), games.items()).items():
                out[(source, n)] = d
        return out

    def _board(self, row: _Row, details: Optional[_Details]) -> Tuple[Optional[str], str]:
        """The row's picture (SVG without definitions, or None) and the FEN it shows."""
        r, issue = row.report, row.issue
        board: Optional[Board] = None
        arrow: Optional[Move] = None
        try:
            if row.warning and details is not None and issue.ply is not None and issue.ply < len(details.moves):
                board = Board(details.start) if details.start else Board()
                board.push_codes([m.code for m in details.moves[:issue.ply]])
                arrow = details.moves[issue.ply]
            elif r.final_fen:
                board = Board(r.final_fen)
                if r.error is not None and r.error.kind not in ("result-mismatch",):
                    arrow = _problem_move(board, r.error)
        except (ValueError, IndexError):
            board, arrow = None, None
        if board is None:
            return None, r.final_fen or ""
        color = "blue" if row.warning else "red"
        picture = svg.board(board, arrows=[svg.Arrow(arrow.from_square, arrow.to_square, color)] if arrow else (),
                            check=board.king(board.turn) if board.is_check() else None,
                            coordinates=True, size=_BOARD_PX, defs=False)
        return picture, board.fen()

    def write(self, stream: TextIO, summary: Summary) -> None:
        """Write the report page for the rows taken so far and the run's ``summary``.

        >>> import io
        >>> from xiangqi.validate import Summary
        >>> out = io.StringIO()
        >>> HtmlReport(title="nothing to report").write(out, Summary())
        >>> "<title>nothing to report</title>" in out.getvalue()
        True
        """
        details = self._details()
        data: List[List[object]] = []
        templates: List[str] = []
        undrawn = 0
        for row in self._rows:
            r, issue = row.report, row.issue
            d = details.get((r.source, r.index))
            picture, fen = None, r.final_fen or ""
            if len(templates) < self.max_boards:
                picture, fen = self._board(row, d)
            elif fen:
                undrawn += 1
            board_id = -1
            if picture is not None:
                board_id = len(templates)
                templates.append(f'<template id="b{board_id}">{picture}</template>')
            loop = _LOOP.search(issue.message) if row.warning else None
            data.append([name_text(r.source), r.index, r.line if r.line is not None else "", d.players if d else "",
                         issue.kind + (" (warning)" if row.warning else ""),
                         issue.ply if issue.ply is not None else "", issue.token or "", issue.message,
                         f"{loop.group(1)}-{loop.group(2)}" if loop else "", board_id, fen])
        stream.write(_page(self.title, summary, data, templates, undrawn))


def _summary_rows(summary: Summary) -> List[Tuple[str, str, str]]:
    rows = [("files", f"{summary.files:,}", ""), ("games", f"{summary.games:,}", ""),
            ("plies", f"{summary.plies:,}", ""), ("valid", f"{summary.valid:,}", "")]
    for kind in ERROR_KINDS:
        if kind not in WARNING_KINDS:
            n = summary.errors.get(kind, 0)
            rows.append((kind, f"{n:,}", "bad" if n else ""))
    for kind, n in summary.warnings.items():
        rows.append((f"{kind} (warning)", f"{n:,}", "warn" if n else ""))
    rate = summary.games / summary.seconds if summary.seconds > 0 else 0.0
    rows.append(("time", f"{summary.seconds:.2f} s ({rate:,.0f} games/s)", ""))
    return rows


_COLUMNS = ("file", "game", "line", "players", "kind", "ply", "token", "message", "loop")

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.5em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top}
table.summary td:last-child{text-align:right}tr.bad td{color:#b00;font-weight:bold}tr.warn td{color:#a60}
#problems th{background:#eee;cursor:pointer;user-select:none;white-space:nowrap}
#problems th.asc::after{content:" \\25b2"}#problems th.desc::after{content:" \\25bc"}
#problems td.board{padding:2px;width:302px}#problems td.msg{max-width:28em;overflow-wrap:anywhere}
#problems td.file,#problems td.token{max-width:12em;word-break:break-all}
.controls{margin:.6em 0;display:flex;gap:.6em;align-items:center;flex-wrap:wrap}
.fen{font:12px monospace;word-break:break-all;max-width:300px;display:block}
"""

# Builds one page of rows from the JSON data; a row's board is cloned from its <template> only when shown.
_SCRIPT = """
(function(){
var rows=JSON.parse(document.getElementById('rows').textContent);
var body=document.querySelector('#problems tbody'),heads=document.querySelectorAll('#problems th');
var filt=document.getElementById('filter'),kind=document.getElementById('kind');
var info=document.getElementById('count'),pageInfo=document.getElementById('page');
var CLS=['file','','','','','','token','msg',''],PAGE=%(page)d,page=0,sortKey=-1,sortDir=1,view=rows;
function cmp(a,b){var x=a[sortKey],y=b[sortKey];
 if(typeof x==='number'&&typeof y==='number')return (x-y)*sortDir;
 return String(x).localeCompare(String(y))*sortDir;}
function update(){var q=filt.value.toLowerCase(),k=kind.value;
 view=rows.filter(function(r){return (!k||r[4]===k)&&(!q||r.slice(0,9).join('\\u0001').toLowerCase().indexOf(q)>=0);});
 if(sortKey>=0)view.sort(cmp);page=Math.min(page,Math.max(0,Math.ceil(view.length/PAGE)-1));draw();}
function cell(tr,text,cls){var td=document.createElement('td');td.textContent=text;if(cls)td.className=cls;tr.appendChild(td);return td;}
function draw(){body.textContent='';var start=page*PAGE;
 view.slice(start,start+PAGE).forEach(function(r){var tr=document.createElement('tr');
  for(var i=0;i<9;i++)cell(tr,r[i],CLS[i]);
  var td=cell(tr,'','board');
  if(r[9]>=0){var t=document.getElementById('b'+r[9]);td.appendChild(document.importNode(t.content,true));}
  else{var s=document.createElement('span');s.className='fen';s.textContent=r[10]||'(no board: the start position does not read)';td.appendChild(s);}
  body.appendChild(tr);});
 info.textContent=view.length+' of '+rows.length+' rows';
 pageInfo.textContent='page '+(view.length?page+1:0)+' of '+Math.ceil(view.length/PAGE);}
heads.forEach(function(th,i){if(i>8)return;th.addEventListener('click',function(){
 sortDir=(sortKey===i)?-sortDir:1;sortKey=i;
 heads.forEach(function(h){h.classList.remove('asc','desc');});th.classList.add(sortDir>0?'asc':'desc');update();});});
filt.addEventListener('input',function(){page=0;update();});kind.addEventListener('change',function(){page=0;update();});
document.getElementById('prev').addEventListener('click',function(){if(page>0){page--;draw();}});
document.getElementById('next').addEventListener('click',function(){if((page+1)*PAGE<view.length){page++;draw();}});
// The kinds menu: the rows' kinds, as they are (an option's value in the markup would lose a NUL).
Array.from(new Set(rows.map(function(r){return r[4];}))).sort().forEach(function(k){
 var o=document.createElement('option');o.value=k;o.textContent=k;kind.appendChild(o);});
// A link may carry the view: #q=text&kind=illegal-move&sort=ply&dir=desc&page=2
var names=%(names)s,h=new URLSearchParams(location.hash.slice(1));
if(h.get('q'))filt.value=h.get('q');if(h.get('kind'))kind.value=h.get('kind');
if(names.indexOf(h.get('sort'))>=0){sortKey=names.indexOf(h.get('sort'));sortDir=h.get('dir')==='desc'?-1:1;
 heads[sortKey].classList.add(sortDir>0?'asc':'desc');}
page=Math.max(0,(parseInt(h.get('page'),10)||1)-1);
update();})();
"""


#: What :func:`script_json` escapes, beyond JSON's own escapes.
_SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
                   0x2028: "\\u2028", 0x2029: "\\u2029"}


def script_json(value: object) -> str:
    """``value`` as JSON text to put inside a ``<script>`` element: the one way this page writes data there.

    Inside ``<script>`` the browser's parser looks for ``</script`` and, after ``<!--``, for ``<script``
    (its "double escaped" state, where ``</script>`` no longer ends the element): a player named
    ``<!--<script>`` turned the page's own script into text and left the problems table empty. Here
    ``<``, ``>`` and ``&`` are JSON's ``\\u003c``, ``\\u003e``, ``\\u0026``, so no markup can appear, and
    U+2028 and U+2029 (line ends to older JavaScript) ``\\u2028``, ``\\u2029``; a file name's undecodable
    bytes are ``\\udcNN`` (:func:`xiangqi.reports.json_text`). ``JSON.parse`` gives back every string as it was.

    >>> script_json(["<!--<script>", "</script>", "a & b", "\\u2028"])
    '["\\\\u003c!--\\\\u003cscript\\\\u003e","\\\\u003c/script\\\\u003e","a \\\\u0026 b","\\\\u2028"]'
    """
    return json_text(value).translate(_SCRIPT_ESCAPES)


def _page(title: str, summary: Summary, data: List[List[object]], templates: List[str], undrawn: int) -> str:
    def esc(text: str) -> str:
        # NUL, which the browser drops from text, shown as the U+FFFD it makes of it elsewhere (&#0;); a lone
        # surrogate (an undecodable byte of a file name), which no UTF-8 page can hold, as name_text shows it.
        return html.escape(name_text(text)).replace("\0", "\ufffd")

    summary_html = "".join(f'<tr class="{cls}"><th>{esc(k)}</th><td>{esc(v)}</td></tr>' if cls else
                           f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v, cls in _summary_rows(summary))
    heads = "".join(f"<th>{c}</th>" for c in _COLUMNS) + "<th>board</th>"
    rows_json = script_json(data)
    note = (f"<p>Boards are drawn for the first {len(templates):,} rows only; the other {undrawn:,} show the "
            "position's FEN.</p>") if undrawn > 0 else ""
    return "".join([
        '<!doctype html><html lang="en"><head><meta charset="utf-8">',
        f"<title>{esc(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f'<table class="summary"><tbody>{summary_html}</tbody></table>',
        f"<h2>Games with problems: {len(data):,} rows</h2>",
        "<p>Click a heading to sort; type to filter. Each board shows the position before the faulty move, "
        "with that move as a red arrow where its squares are known (a rule violation: the move that completed "
        "the repetition, in blue).</p>", note,
        '<div class="controls"><input id="filter" type="search" placeholder="filter: file, player, token, …" '
        'size="30"><select id="kind"><option value="">every kind</option></select>'
        '<button id="prev" type="button">‹ previous</button><span id="page"></span>'
        '<button id="next" type="button">next ›</button><span id="count"></span></div>',
        f'<table id="problems"><thead><tr>{heads}</tr></thead><tbody></tbody></table>',
        "<noscript><p>The problems table needs JavaScript; the same facts are in "
        "<code>xiangqi validate --report report.jsonl</code>.</p></noscript>",
        svg.definitions(),
        '<div id="boards">', "".join(templates), "</div>",
        f'<script type="application/json" id="rows">{rows_json}</script>',
        f"<script>{_SCRIPT % {'page': PAGE_SIZE, 'names': script_json(list(_COLUMNS))}}</script></body></html>\n",
    ])


def write_html(reports: Iterable[GameReport], stream: TextIO, *, max_boards: int = DEFAULT_MAX_BOARDS,
               title: str = "xiangqi validation report") -> Summary:
    """Write the HTML report of ``reports`` to ``stream``; returns their :class:`Summary`.

    >>> import io
    >>> from xiangqi.validate import ErrorInfo, GameReport
    >>> bad = GameReport("a.pgn", 1, 1, False, 0, ErrorInfo("invalid-fen", 0, None, "no red king."),
    ...                  None, None, None, None)
    >>> out = io.StringIO()
    >>> summary = write_html([bad], out)
    >>> summary.games, summary.errors["invalid-fen"], "no red king." in out.getvalue()
    (1, 1, True)

    Raises:
        * :exc:`ValueError` when ``max_boards`` is negative.
    """
    summary = Summary()
    report = HtmlReport(max_boards=max_boards, title=title)
    for r in reports:
        summary.add(r)
        report.add(r)
    report.write(stream, summary)
    return summary

