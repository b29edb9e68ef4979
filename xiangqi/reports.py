"""Validation reports: one :class:`GameReport` per game, its :class:`ErrorInfo`, the JSONL and CSV writers
(:class:`ReportWriter`) and the :class:`Summary` of a run.

These are plain records: :mod:`xiangqi.checking` makes them, and the writers here and the HTML report
(:mod:`xiangqi.report_html`) show them. Each is importable from :mod:`xiangqi.validate` too.

>>> report = GameReport("a.pgn", 1, 1, False, 3, ErrorInfo("illegal-move", 3, "h2e2", "No piece on h2."),
...                     "*", None, None, None)
>>> report.ok, report.error.kind in ERROR_KINDS
(False, True)
"""

from __future__ import annotations

import csv
import dataclasses
import json
import re
from typing import Any, Dict, Iterable, List, Optional, TextIO, Tuple

__all__ = [
    "ERROR_KINDS", "WARNING_KINDS", "CSV_COLUMNS", "ErrorInfo", "GameReport", "Summary",
    "write_jsonl", "write_csv", "ReportWriter", "json_text", "name_text",
]

#: Error kinds of :attr:`GameReport.error`, in the order the summary lists them.
ERROR_KINDS = ("invalid-fen", "invalid-notation", "illegal-move", "ambiguous-move", "result-mismatch",
               "truncated", "parse-error", "rule-violation")
#: Kinds that are warnings (in :attr:`GameReport.warnings`; the game stays valid).
WARNING_KINDS = ("rule-violation",)



@dataclasses.dataclass(frozen=True)
class ErrorInfo:
    """One problem of a game: its ``kind`` (see :data:`ERROR_KINDS`), the 0-based
    ``ply`` of the offending move (or ``None``), the offending ``token`` text
    (or ``None``) and a one-sentence ``message``.

    >>> error = ErrorInfo("illegal-move", 1, "h2e2", "there is no piece on h2.")
    >>> error.kind in ERROR_KINDS, error.ply
    (True, 1)
    """

    kind: str
    ply: Optional[int]
    token: Optional[str]
    message: str

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object of the report format.

        >>> ErrorInfo("truncated", 40, None, "the file ends early.").to_dict()
        {'kind': 'truncated', 'ply': 40, 'token': None, 'message': 'the file ends early.'}
        """
        return {"kind": self.kind, "ply": self.ply, "token": self.token, "message": self.message}


@dataclasses.dataclass(frozen=True)
class GameReport:
    """The verdict on one game.

    ``source`` is the file (in the JSONL report exactly, a name's bytes that are
    not UTF-8 as JSON's ``\\udcNN`` escapes; in the CSV and HTML reports as
    ``\\xNN``: :func:`json_text`, :func:`name_text`), ``index`` the 1-based number of the game within
    it, ``line`` the game's first line (``None`` for binary XQF), ``plies``
    the moves replayed (all of them, or those before the fault), ``error``
    the first fault (``None`` when the game is valid), ``result_recorded``
    the ``Result`` tag (or the move text's result token), ``result_computed``
    and ``termination`` what the board says at the end (``None`` while the
    game goes on, or when a fault stopped the replay), ``final_fen`` the last
    legal position, and ``warnings`` the rule violations met on the way.

    >>> good, bad = validate(_example_pgn())
    >>> good.ok, good.plies, good.final_fen
    (True, 2, 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2')
    >>> bad.ok, bad.index, bad.line, bad.plies, bad.error.kind, bad.error.token
    (False, 2, 5, 1, 'illegal-move', 'h2e2')
    """

    source: str
    index: int
    line: Optional[int]
    ok: bool
    plies: int
    error: Optional[ErrorInfo]
    result_recorded: Optional[str]
    result_computed: Optional[str]
    termination: Optional[str]
    final_fen: Optional[str]
    warnings: Tuple[ErrorInfo, ...] = ()

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object of the report format (keys in the documented order).

        >>> list(next(validate(_example_pgn())).to_dict())
        ['source', 'index', 'line', 'ok', 'plies', 'error', 'result_recorded', 'result_computed', 'termination', 'final_fen', 'warnings']
        """
        return {
            "source": self.source, "index": self.index, "line": self.line, "ok": self.ok, "plies": self.plies,
            "error": None if self.error is None else self.error.to_dict(),
            "result_recorded": self.result_recorded, "result_computed": self.result_computed,
            "termination": self.termination, "final_fen": self.final_fen,
            "warnings": [w.to_dict() for w in self.warnings],
        }

    def to_json(self) -> str:
        """One line of the JSONL report (UTF-8 text kept as is; a file name's bytes that are not UTF-8 as the
        JSON escapes ``\\udc80``-``\\udcff``, see :func:`json_text`).

        >>> next(validate(_example_pgn())).to_json()
        '{"source":"...games.pgn","index":1,"line":1,"ok":true,"plies":2,"error":null,...}'
        """
        if self.error is None and not self.warnings:   # most reports: written field by field
            return (f'{{"source":{_json_word(self.source)},"index":{self.index},'
                    f'"line":{"null" if self.line is None else self.line},"ok":{"true" if self.ok else "false"},'
                    f'"plies":{self.plies},"error":null,"result_recorded":{_json_word(self.result_recorded)},'
                    f'"result_computed":{_json_word(self.result_computed)},'
                    f'"termination":{_json_word(self.termination)},"final_fen":{_json_fen(self.final_fen)},'
                    f'"warnings":[]}}')
        return json_text(self.to_dict())


#: :func:`json_text` of the strings that recur from report to report (file names, results, terminations).
_JSON_WORDS: Dict[Optional[str], str] = {}
#: The characters of a FEN as the C core writes it: none that JSON escapes.
_FEN_TEXT = re.compile(r"[0-9A-Za-z/ -]*").fullmatch


def _json_word(value: Optional[str]) -> str:
    """:func:`json_text` of ``value``, a string that recurs or ``None``, kept once made (at most 1024 strings of
    at most 256 characters)."""
    text = _JSON_WORDS.get(value)
    if text is None:
        text = json_text(value)
        if value is None or len(value) <= 256:
            if len(_JSON_WORDS) >= 1024:
                _JSON_WORDS.clear()
            _JSON_WORDS[value] = text
    return text


def _json_fen(fen: Optional[str]) -> str:
    """:func:`json_text` of a final FEN (or ``None``): the FEN in quotes when it holds nothing to escape."""
    return f'"{fen}"' if fen is not None and _FEN_TEXT(fen) is not None else json_text(fen)


_SURROGATE = re.compile("[\\ud800-\\udfff]")
#: Compact JSON with UTF-8 text kept as is (made once: ``json.dumps`` with these options makes one a call).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def json_text(value: object) -> str:
    """``value`` as compact JSON, UTF-8 text kept as is, that any UTF-8 stream can take, on one line to any
    reader (U+0085, U+2028 and U+2029, which ``str.splitlines()`` breaks at, are escaped).

    A file name that is not UTF-8 (a GBK name unpacked from a Chinese zip file, any ``\\xff`` byte) reaches
    Python as text holding its undecodable bytes as lone surrogates (U+DC80-U+DCFF for the bytes 0x80-0xFF,
    :pep:`383`), which no UTF-8 stream can write. Here each surrogate is the JSON escape ``\\udcNN``: the JSON is
    valid UTF-8 and loses nothing (``os.fsencode(json.loads(text)["source"])`` is the name's bytes, and
    ``open(json.loads(text)["source"])`` opens the file).

    >>> json_text({"source": "棋/a.pgn", "n": 1})
    '{"source":"棋/a.pgn","n":1}'
    >>> name = b"\\xc6\\xe5\\xff.pgn".decode("utf-8", "surrogateescape")   # what os.listdir gives
    >>> text = json_text({"source": name}); text
    '{"source":"\\\\udcc6\\\\udce5\\\\udcff.pgn"}'
    >>> import os
    >>> os.fsencode(json.loads(text)["source"])
    b'\\xc6\\xe5\\xff.pgn'
    >>> line = json_text({"source": "a" + chr(0x2028) + "b.pgn"}); line, len(line.splitlines())
    ('{"source":"a\\\\u2028b.pgn"}', 1)
    """
    text = _ENCODER.encode(value)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")   # a quarter of the time of looking for surrogates (CJK text is no ASCII)
    except UnicodeEncodeError:
        return _JSON_ESCAPED.sub(_json_escape, text)
    if "\u2028" in text or "\u2029" in text or "\x85" in text:
        return _JSON_ESCAPED.sub(_json_escape, text)
    return text


#: What :func:`json_text` writes as JSON escapes: lone surrogates (no UTF-8 stream takes them) and the line breaks
#: that ``str.splitlines()`` sees and JSON leaves raw (U+0085, U+2028, U+2029), so that a JSONL record is one line
#: to every reader. Each stands only inside a JSON string, where its escape means the same character.
_JSON_ESCAPED = re.compile("[\ud800-\udfff\x85\u2028\u2029]")


def _json_escape(m: "re.Match[str]") -> str:
    return f"\\u{ord(m.group()):04x}"


def name_text(name: str) -> str:
    """A file name as text for people (the CSV report, the HTML report): the name itself, except that each
    byte that is not UTF-8 (held by Python as a surrogate, see :func:`json_text`) is written ``\\xNN``, as
    Python prints such bytes. (The JSONL report keeps the name exactly.)

    >>> name_text("棋/a.pgn"), name_text(b"dir/\\xc6\\xe5.pgn".decode("utf-8", "surrogateescape"))
    ('棋/a.pgn', 'dir/\\\\xc6\\\\xe5.pgn')
    """
    if name.isascii() or _SURROGATE.search(name) is None:
        return name
    return _SURROGATE.sub(lambda m: _surrogate_text(ord(m.group())), name)


def _surrogate_text(code: int) -> str:
    # U+DC80-U+DCFF: the byte 0x80-0xFF of a name (PEP 383); any other lone surrogate (a UTF-16 name on
    # Windows) as the Unicode escape.
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


#: Columns of the CSV report.
CSV_COLUMNS = ("source", "index", "line", "ok", "plies", "error_kind", "error_ply", "error_token",
               "error_message", "result_recorded", "result_computed", "termination", "final_fen", "warnings")


def _csv_row(r: GameReport) -> List[Any]:
    e = r.error
    warnings = "; ".join(f"{w.kind} at ply {w.ply}: {w.message}" for w in r.warnings)
    return [name_text(r.source), r.index, "" if r.line is None else r.line, "true" if r.ok else "false", r.plies,
            e.kind if e else "", "" if e is None or e.ply is None else e.ply, e.token if e and e.token else "",
            e.message if e else "", r.result_recorded or "", r.result_computed or "", r.termination or "",
            r.final_fen or "", warnings]


class ReportWriter:
    """Writes reports one at a time, as JSON lines or CSV (``fmt`` ``"jsonl"`` or ``"csv"``).

    >>> import io
    >>> out = io.StringIO()
    >>> writer = ReportWriter(out, "csv")
    >>> for report in validate(_example_pgn()):
    ...     writer.write(report)
    >>> [line.split(",")[:5] for line in out.getvalue().splitlines()]     # the header row, then a row a game
    [['source', 'index', 'line', 'ok', 'plies'], ['...games.pgn', '1', '1', 'true', '2'], ['...games.pgn', '2', '5', 'false', '1']]

    Raises:
        * :exc:`ValueError` when ``fmt`` is neither ``"jsonl"`` nor ``"csv"``.
    """

    def __init__(self, stream: TextIO, fmt: str = "jsonl") -> None:
        if fmt not in ("jsonl", "csv"):
            raise ValueError(f"unknown report format {fmt!r}: expected 'jsonl' or 'csv'")
        self._stream = stream
        self._csv: Any = None
        if fmt == "csv":
            self._csv = csv.writer(stream, lineterminator="\n")
            self._csv.writerow(CSV_COLUMNS)

    def write(self, report: GameReport) -> None:
        """Append one report.

        >>> import io
        >>> out = io.StringIO()
        >>> ReportWriter(out).write(next(validate(_example_pgn())))
        >>> out.getvalue().count("\\n"), out.getvalue().startswith('{"source":')
        (1, True)
        """
        if self._csv is not None:
            self._csv.writerow(_csv_row(report))
        else:
            self._stream.write(report.to_json() + "\n")


def _write_all(reports: Iterable[GameReport], writer: ReportWriter) -> int:
    n = 0
    for r in reports:
        writer.write(r)
        n += 1
    return n


def write_jsonl(reports: Iterable[GameReport], stream: TextIO) -> int:
    """Write reports as JSON lines; returns how many.

    >>> import io
    >>> out = io.StringIO()
    >>> write_jsonl(validate(_example_pgn()), out), [json.loads(line)["ok"] for line in out.getvalue().splitlines()]
    (2, [True, False])
    """
    return _write_all(reports, ReportWriter(stream, "jsonl"))


def write_csv(reports: Iterable[GameReport], stream: TextIO) -> int:
    """Write reports as CSV with a header row (:data:`CSV_COLUMNS`); returns how many.

    >>> import io
    >>> out = io.StringIO()
    >>> write_csv(validate(_example_pgn()), out), out.getvalue().splitlines()[0].split(",")[:4]
    (2, ['source', 'index', 'line', 'ok'])
    """
    return _write_all(reports, ReportWriter(stream, "csv"))


@dataclasses.dataclass
class Summary:
    """Totals over a run: games, plies, valid games, errors and warnings by kind, files, seconds.

    >>> summary = Summary()
    >>> for report in validate(_example_pgn()):
    ...     summary.add(report)
    >>> summary.files, summary.games, summary.valid, summary.invalid, summary.errors["illegal-move"]
    (1, 2, 1, 1, 1)
    """

    files: int = 0
    games: int = 0
    plies: int = 0
    valid: int = 0
    errors: Dict[str, int] = dataclasses.field(default_factory=lambda: {k: 0 for k in ERROR_KINDS})
    warnings: Dict[str, int] = dataclasses.field(default_factory=lambda: {k: 0 for k in WARNING_KINDS})
    seconds: float = 0.0
    #: The source of the last report counted (a new one counts a file): not a total, so not an argument.
    _last_source: Optional[str] = dataclasses.field(default=None, init=False, repr=False, compare=False)

    def add(self, r: GameReport) -> None:
        """Count one report.

        >>> summary = Summary()
        >>> summary.add(next(validate(_example_pgn()))); summary.games, summary.plies
        (1, 2)
        """
        if r.source != self._last_source:
            self._last_source = r.source
            self.files += 1
        self.games += 1
        self.plies += r.plies
        if r.ok:
            self.valid += 1
        elif r.error is not None:
            self.errors[r.error.kind] = self.errors.get(r.error.kind, 0) + 1
        for w in r.warnings:
            self.warnings[w.kind] = self.warnings.get(w.kind, 0) + 1

    @property
    def invalid(self) -> int:
        """Games with an error.

        >>> summary = Summary()
        >>> for report in validate(_example_pgn()):
        ...     summary.add(report)
        >>> summary.invalid
        1
        """
        return self.games - self.valid

    def table(self) -> str:
        """The summary as an aligned two-column text table.

        >>> summary = Summary(games=2, plies=3, valid=2, seconds=0.5)
        >>> print(summary.table())
        files                     0
        games                     2
        plies                     3
        valid                     2
        invalid-fen               0
        invalid-notation          0
        illegal-move              0
        ambiguous-move            0
        result-mismatch           0
        truncated                 0
        parse-error               0
        rule-violation (warning)  0
        time                      0.50 s (4 games/s)
        """
        rows: List[Tuple[str, str]] = [("files", f"{self.files:,}"), ("games", f"{self.games:,}"),
                                       ("plies", f"{self.plies:,}"), ("valid", f"{self.valid:,}")]
        for kind in ERROR_KINDS:
            if kind in WARNING_KINDS:
                continue
            rows.append((kind, f"{self.errors.get(kind, 0):,}"))
        for kind, n in self.warnings.items():
            rows.append((f"{kind} (warning)", f"{n:,}"))
        rate = self.games / self.seconds if self.seconds > 0 else 0.0
        rows.append(("time", f"{self.seconds:.2f} s ({rate:,.0f} games/s)"))
        width = max(len(k) for k, _ in rows)
        vwidth = max(len(v) for _, v in rows[:-1])
        return "\n".join(f"{k:<{width}}  {v:>{vwidth}}" if k != "time" else f"{k:<{width}}  {v}" for k, v in rows)
