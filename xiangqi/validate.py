"""Bulk validation of game collections: which games are broken, where, and why.

:func:`validate` reads PGN, XQF and DhtmlXQ files (single files, whole
directory trees, ``.gz``), replays every game's main line and yields one
:class:`GameReport` per game, in input order. The work is cut into chunks of
games (not whole files, so one huge file spreads over every worker too) and
can run on one core, on ``N`` cores (``jobs=N``: this process and a pool of
``N - 1`` workers), on any :class:`concurrent.futures.Executor` or on a Dask
cluster (``distributed.Client.get_executor()``). The ``xiangqi validate`` command
(:func:`validate_main`) adds a progress line, a summary table, a JSONL or
CSV report and exit codes (0: all valid, 1: some games are not, 2: usage).

What "valid" means, each check with its own error kind:

* ``invalid-fen``: the start position (``FEN`` tag) cannot be read or is not
  a position that can occur in a game (a king missing or outside its
  palace, a piece on a square it can never reach, the side not to move in
  check, kings facing each other);
* ``invalid-notation`` / ``illegal-move`` / ``ambiguous-move``: a move token
  that is not a move in any notation, a move that is not legal, a move that
  several pieces could make;
* ``result-mismatch``: the recorded result contradicts the board where the
  board decides it: mate or stalemate on the board, or a repetition ruling
  at the end of the game (perpetual check or chase, :mod:`xiangqi.rules`)
  against the opposite decisive result; or the ``Result`` tag contradicts
  the move text's result token. A *draw* recorded where the ruling names a
  loser is only a ``rule-violation`` warning: players may agree a draw, and
  arbiters judge chases with more than the board (real master games do this);
* ``truncated``: the last game of a file that was cut short (mid-move, or
  without its result token at the end of the file);
* ``parse-error``: a file, or part of one, that cannot be read as a record;
* ``rule-violation`` (a warning, in ``warnings``): a side that should have
  been ruled lost for a forbidden repetition (perpetual check or chase),
  after which play went on.

A game with a fault keeps every ply before it (``plies`` and ``final_fen``
describe the last legal position), and one broken game never costs the
others of its file.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "two.pgn")
>>> _ = open(path, "w", encoding="utf-8").write(
...     '[Result "*"]\\n\\n1. 炮二平五 马８进７ *\\n\\n[Result "*"]\\n\\n1. 炮二平五 帥五進一 *\\n')
>>> [(r.index, r.ok, r.plies, r.error and r.error.kind) for r in validate([path])]
[(1, True, 2, None), (2, False, 1, 'illegal-move')]
"""

from __future__ import annotations

import argparse
import bisect
import collections
import concurrent.futures
import concurrent.futures.process
import contextlib
import csv
import dataclasses
import importlib
import io
import json
import logging
import os
import re
import stat
import sys
import threading
import time
import warnings
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union

from xiangqi import formats, pgn
from xiangqi import rules as _rules
from xiangqi._cliio import guard, reason, regular_input, same_file
from xiangqi._encoding import TextBlock, TextLines, detect_encoding
from xiangqi._ffi import ffi, lib
from xiangqi._ffi.rules import NativeHistory, NativeLoops
from xiangqi._progress import Progress
from xiangqi.core import STARTING_FEN
from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError, XiangqiError
from xiangqi.game import RESULT_WORDS as _RESULT_WORDS
from xiangqi.game import normalize_result
from xiangqi.pgn import game_starts
from xiangqi.source import ByteSource

if TYPE_CHECKING:
    from xiangqi.report_html import HtmlReport  # which imports this module's report types

__all__ = [
    "ERROR_KINDS", "WARNING_KINDS", "RULE_SETS", "DEFAULT_CHUNK_BYTES",
    "ErrorInfo", "GameReport", "Summary", "Chunk",
    "validate", "validate_chunk", "iter_chunks", "expand_paths", "detect_format",
    "write_jsonl", "write_csv", "ReportWriter", "json_text", "name_text", "dask_executor", "validate_main",
]

#: Error kinds of :attr:`GameReport.error`, in the order the summary lists them.
ERROR_KINDS = ("invalid-fen", "invalid-notation", "illegal-move", "ambiguous-move", "result-mismatch",
               "truncated", "parse-error", "rule-violation")
#: Kinds that are warnings (in :attr:`GameReport.warnings`; the game stays valid).
WARNING_KINDS = ("rule-violation",)


def _format_names() -> Tuple[str, ...]:
    """The record formats understood now (:func:`xiangqi.formats.register` adds one); ``auto`` detects per file."""
    return ("auto",) + formats.names()

#: Rule sets for repetition rulings: Asian (AXF) and Chinese (CXA).
RULE_SETS = ("axf", "cxa")
#: Target size of a chunk of PGN text handed to one worker (whole games are kept together).
DEFAULT_CHUNK_BYTES = 256 * 1024

_SNIFF = 1 << 16


# =====================================================================================================================
# Report records
# =====================================================================================================================

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
        return json_text(self.to_dict())


_SURROGATE = re.compile("[\\ud800-\\udfff]")


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
    >>> os.fsencode(json.loads(text)["source"])
    b'\\xc6\\xe5\\xff.pgn'
    >>> line = json_text({"source": "a" + chr(0x2028) + "b.pgn"}); line, len(line.splitlines())
    ('{"source":"a\\\\u2028b.pgn"}', 1)
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
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

    >>> out = io.StringIO()
    >>> write_jsonl(validate(_example_pgn()), out), [json.loads(line)["ok"] for line in out.getvalue().splitlines()]
    (2, [True, False])
    """
    return _write_all(reports, ReportWriter(stream, "jsonl"))


def write_csv(reports: Iterable[GameReport], stream: TextIO) -> int:
    """Write reports as CSV with a header row (:data:`CSV_COLUMNS`); returns how many.

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
    _last_source: Optional[str] = None

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


# =====================================================================================================================
# Inputs: paths, formats, encodings, chunks
# =====================================================================================================================

_is_game_file = formats.is_game_file


def expand_paths(paths: Iterable[Union[str, "os.PathLike[str]"]], *,
                 skipped: Optional[List[Tuple[str, str]]] = None) -> List[str]:
    """The files to read: files as given, directories walked recursively (sorted).

    Inside directories only game files are taken (:func:`xiangqi.formats.is_game_file`: ``.pgn``,
    ``.xqf``, ``.dhtmlxq``…, each optionally ``.gz``, and ``.txt``, ``.htm``,
    ``.html`` files holding a DhtmlXQ block); hidden entries are skipped, and so is a game file's name that is
    not a regular file, itself or through a symbolic link (a FIFO would be waited on for ever, a link to
    ``/dev/zero`` read for ever): each such one is appended to ``skipped`` as ``(path, why)``, or with no
    ``skipped`` list, warned about (:class:`UserWarning`). A path given as such is read whatever it is (a stream
    too).

    >>> pgn_file = _example_pgn()
    >>> expand_paths([os.path.dirname(pgn_file)]) == [pgn_file]
    True
    >>> os.symlink("/dev/zero", os.path.join(os.path.dirname(pgn_file), "zero.pgn"))
    >>> skipped = []
    >>> expand_paths([os.path.dirname(pgn_file)], skipped=skipped) == [pgn_file], skipped
    (True, [('.../zero.pgn', 'not a regular file (a character device, through a symbolic link)')])
    >>> expand_paths(["no/such/folder"])
    Traceback (most recent call last):
    ...
    FileNotFoundError: no such file or directory: 'no/such/folder'

    Raises:
        * :exc:`FileNotFoundError` for a path that does not exist.
    """
    out: List[str] = []
    for p in paths:
        path = os.fspath(p)
        if os.path.isdir(path):
            found = []
            for root, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                for name in files:
                    full = os.path.join(root, name)
                    if name.startswith(".") or not (formats.format_of(full) or formats.sniffs_whole(full)):
                        continue
                    why = _not_regular(full)
                    if why is not None:
                        if skipped is None:
                            warnings.warn(f"skipped {full}: {why}", stacklevel=2)
                        else:
                            skipped.append((full, why))
                    elif _is_game_file(full):
                        found.append(full)
            out.extend(sorted(found))
        elif os.path.exists(path):
            out.append(path)
        else:
            raise FileNotFoundError(f"no such file or directory: {path!r}")
    return out


_FILE_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
               (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def _not_regular(path: str) -> Optional[str]:
    """Why the file met in a folder at ``path`` is not to be read (it is not a regular file), or ``None``
    (a file that cannot be looked at is read: the reading reports why it fails)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return None
    kind = next((what for test, what in _FILE_KINDS if test(mode)), "not a file")
    link = ", through a symbolic link" if os.path.islink(path) else ""
    return f"not a regular file ({kind}{link})"


#: ``"pgn"``, ``"xqf"`` or ``"dhtmlxq"`` from a file name and its first (decompressed) bytes.
detect_format = formats.detect


@dataclasses.dataclass(frozen=True)
class Chunk:
    """A piece of work: some whole games of one file, as bytes.

    ``line_offset`` is the number of lines of the file before ``data``;
    ``last`` says the chunk ends its file, ``eof_newline`` that the file
    ends with a newline, ``cut`` that reading stopped early (a damaged
    ``.gz``), ``read_error`` why nothing could be read, ``cr`` that the
    file's lines end in a bare carriage return, ``long_lines`` the (1-based)
    numbers of its lines that reading cut at :data:`xiangqi.pgn.MAX_LINE_BYTES`
    (``data`` holds what was kept of them). Chunks are plain picklable data, so
    any executor (processes, Dask) can run :func:`validate_chunk` on them.

    >>> chunk = Chunk("demo.pgn", "pgn", b"1. h2e2 h9g7 *\\n")
    >>> [(report.source, report.ok, report.plies) for report in validate_chunk(chunk)]
    [('demo.pgn', True, 2)]
    """

    source: str
    fmt: str
    data: bytes
    encoding: Optional[str] = None
    line_offset: int = 0
    last: bool = True
    eof_newline: bool = True
    cut: bool = False
    read_error: Optional[str] = None
    file_number: int = 0
    cr: bool = False
    long_lines: Tuple[int, ...] = ()


def _read_error_text(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text[0].lower() + text[1:] if text else text


def iter_chunks(files: Sequence[str], *, fmt: str = "auto",
                chunk_bytes: int = DEFAULT_CHUNK_BYTES) -> Iterator[Chunk]:
    """Cut files into :class:`Chunk` objects of whole games, in input order.

    PGN is streamed: each chunk holds about ``chunk_bytes`` of text, cut only
    where a game's tags begin, so one big file spreads over many workers.
    XQF and DhtmlXQ files are one chunk each. A file that cannot be opened
    yields a chunk with ``read_error`` set; a damaged ``.gz`` yields what
    could be read, its last chunk marked ``cut``.

    >>> [(chunk.fmt, chunk.last, len(chunk.data)) for chunk in iter_chunks([_example_pgn()])]
    [('pgn', True, 57)]
    >>> next(iter_chunks(["absent.pgn"])).read_error
    "cannot open the file: [Errno 2] No such file or directory: 'absent.pgn'"

    Raises:
        * :exc:`ValueError` when ``fmt`` is not ``"auto"`` or a format of :data:`xiangqi.formats.FORMATS`.
    """
    for chunk, _ in _spans(files, fmt, chunk_bytes):
        yield chunk


class _ChunkSizes:
    """The size of the next PGN chunk: ``chunk_bytes`` throughout, or, given the ``total`` input and the pool's
    ``workers``, shrinking towards the end of the input (guided self-scheduling: a chunk holds at most a
    ``4 * workers``-th of what is left, and no less than :data:`DEFAULT_CHUNK_BYTES`), so that the workers
    run out of work together instead of one finishing a big last chunk while the others wait."""

    def __init__(self, chunk_bytes: int, total: int = 0, workers: int = 0) -> None:
        self.cap = max(1024, int(chunk_bytes))
        self.total = total
        self.parts = 4 * workers
        self.done = 0  # bytes of the chunks handed out

    def after(self, handed: int) -> int:
        """The size of the chunk that follows ``handed`` bytes of chunks."""
        if not self.parts:
            return self.cap
        return min(self.cap, max(DEFAULT_CHUNK_BYTES, (self.total - handed) // self.parts))


def _spans(files: Sequence[str], fmt: str, chunk_bytes: Union[int, _ChunkSizes]) -> Iterator[Tuple[Chunk, Optional[int]]]:
    """:func:`iter_chunks`'s chunks, each with the file offset of its data where the data is the file's
    own bytes read whole (not gunzipped, no read error), else ``None``."""
    for chunk, offset, _ in _spans_lines(files, fmt, chunk_bytes, keep_lines=False):
        yield chunk, offset


#: A chunk, the file offset of its data (or ``None``) and its decoded lines when the parent has them.
_Span = Tuple[Chunk, Optional[int], Optional[List[str]]]


def _spans_lines(files: Sequence[str], fmt: str, chunk_bytes: Union[int, _ChunkSizes],
                 keep_lines: bool = True) -> Iterator[_Span]:
    """:func:`_spans` with each PGN chunk's decoded lines (read once where the chunk is checked here; not
    split at all without ``keep_lines``, when workers read the chunks)."""
    if fmt not in _format_names():
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(_format_names())}")
    sizes = chunk_bytes if isinstance(chunk_bytes, _ChunkSizes) else _ChunkSizes(chunk_bytes)
    for number, path in enumerate(files):
        try:
            src = ByteSource(path)
        except OSError as exc:
            yield Chunk(path, "pgn", b"", read_error=f"cannot open the file: {_read_error_text(exc)}",
                        file_number=number), None, None
            continue
        try:
            if fmt != "auto":
                kind = fmt
            elif src.regular:
                kind = formats.detect_path(path)
            else:   # a stream is read once: its format by its name and first bytes
                kind = formats.detect(path, src.peek(formats.SNIFF_BYTES))
            if not formats.FORMATS[kind].streamed:
                data = src.read_all()
                enc = None if formats.FORMATS[kind].binary else detect_encoding(data[:_SNIFF])
                yield Chunk(path, kind, data, enc, 0, True, data.endswith(b"\n"), src.damage is not None,
                            src.damage if not data else None, number), 0 if src.plain else None, None
                continue
            yield from _pgn_chunks(path, src, sizes, number, keep_lines)
        finally:
            src.close()


def _block_starts(block: TextBlock, encoding: str, in_comment: bool) -> Tuple[List[int], bool]:
    """Where the PGN reader surely begins a game in ``block`` (byte offsets into its data), and whether a
    comment is open at its end: :func:`xiangqi.pgn.game_starts` of its text, by the C scan of its bytes where
    the block decoded strictly (:func:`xiangqi.pgn.game_starts_in_bytes`)."""
    if block.strict:
        found = pgn.game_starts_in_bytes(block.data, encoding, in_comment)
        if found is not None:
            return found
    text = block.text
    starts, in_comment = game_starts(text, in_comment)
    # Text offsets to byte offsets: each start begins a line, found by counting lines.
    data = block.data
    out: List[int] = []
    pos = at = 0
    for s in starts:
        for _ in range(text.count("\n", pos, s)):
            at = data.index(b"\n", at) + 1
        pos = s
        out.append(at)
    return out, in_comment


#: The most lines a chunk keeps decoded for the reader in this process: a chunk with more (one game of many
#: blank lines holds it open) is decoded again from its bytes when read, which costs no list of its lines
#: (:func:`_chunk_text`).
_KEPT_LINES = 1 << 18


def _pgn_chunks(path: str, src: ByteSource, sizes: _ChunkSizes, number: int, keep_lines: bool) -> Iterator[_Span]:
    """Cut a PGN file into chunks of about the size ``sizes`` asks for where the PGN reader surely begins a game
    (:func:`xiangqi.pgn.game_starts`, on the decoded text), so that each chunk reads apart as it reads in
    the whole file."""
    chunk_bytes = sizes.after(sizes.done)
    lines = TextLines(src.read, block_size=max(sizes.cap, 1 << 16), max_line=pgn.MAX_LINE_BYTES,
                      lazy=not keep_lines)   # the workers decode the chunks: here only the C scan reads them
    enc, cr = lines.encoding, lines.cr
    parts: List[Union[bytes, memoryview]] = []   # the bytes of the chunk being gathered (views: one copy, the join)
    texts: List[str] = []     # and its lines (kept with keep_lines, up to _KEPT_LINES of them)
    keeping = keep_lines
    held_lines = 0            # how many lines it holds
    size = 0                  # the length of parts
    start = 0                 # the chunk's offset in the (decompressed) data
    line_offset = 0           # the lines of the file before it
    in_comment = False
    for block in lines.blocks():
        data = block.data
        if lines.whole:       # UTF-16 or UTF-32: one chunk
            parts.append(data)
            texts.extend(block.lines)
            held_lines += len(block.lines)
            continue
        starts, in_comment = _block_starts(block, enc, in_comment)
        # A chunk ends at the last game start before it holds chunk_bytes, or at the first one after a
        # bigger game.
        cuts: List[int] = []
        done = 0
        held = -1
        handed = sizes.done   # the bytes of the chunks before the next cut
        for s in starts:
            if size + s - done >= chunk_bytes:
                if held >= 0:
                    cuts.append(held)
                    handed += size + held - done
                    done, size, chunk_bytes = held, 0, sizes.after(handed)
                if held < 0 or size + s - done >= chunk_bytes:
                    cuts.append(s)
                    handed += size + s - done
                    done, size, s, chunk_bytes = s, 0, -1, sizes.after(handed)
            held = s
        if held >= 0 and size + len(data) - done >= chunk_bytes:
            cuts.append(held)
            chunk_bytes = sizes.after(handed + size + held - done)
        done = 0              # bytes of this block already in chunks
        line = 0              # the number in the block of the line starting there
        for at in cuts:
            k = data.count(b"\n", done, at)
            parts.append(memoryview(data)[done:at])
            if keeping:
                texts.extend(block.lines[line:line + k])
            line += k
            piece = b"".join(parts)
            yield Chunk(path, "pgn", piece, enc, line_offset, False, True, False, None, number, cr,
                        _cut_lines(lines.long_lines, line_offset, line_offset + held_lines + k)), \
                start if src.plain and not lines.long_lines else None, texts if keeping else None
            start += len(piece)
            sizes.done += len(piece)
            line_offset += held_lines + k
            parts, texts, size, done, held_lines, keeping = [], [], 0, at, 0, keep_lines
        parts.append(memoryview(data)[done:])
        if keeping:
            texts.extend(block.lines[line:])
            if len(texts) > _KEPT_LINES:
                texts, keeping = [], False
        held_lines += block.line_count - line
        size += len(data) - done
    piece = b"".join(parts)
    sizes.done += len(piece)
    damaged = src.damage
    yield Chunk(path, "pgn", piece, enc, line_offset, True, piece.endswith(b"\n") or lines.whole, damaged is not None,
                damaged if not piece and line_offset == 0 else None, number, cr,
                _cut_lines(lines.long_lines, line_offset, None)), \
        start if src.plain and not lines.long_lines else None, texts if keeping else None


def _cut_lines(long_lines: List[int], before: int, last: Optional[int]) -> Tuple[int, ...]:
    """The lines of ``long_lines`` (cut by the reading, in order) after line ``before``, up to line ``last``
    (all when ``None``)."""
    if not long_lines:
        return ()
    i = bisect.bisect_right(long_lines, before)
    k = len(long_lines) if last is None else bisect.bisect_right(long_lines, last)
    return tuple(long_lines[i:k])


# =====================================================================================================================
# Move tokens: results and move numbers (the moves are the C replay's and the notation module's)
# =====================================================================================================================

#: The result words as the C replay's text (UTF-8) holds them.
_RESULT_BYTES = {k.encode("utf-8"): v for k, v in _RESULT_WORDS.items()}
#: A move number token ("12.", "12..."): skipped in move text, as the C replay skips it.
_MOVE_NUMBER = re.compile(r"[0-9]+\.(?:\.\.)?")
#: ``False`` plays every move with the notation module alone (the tests compare both).
_C_REPLAY = True


# =====================================================================================================================
# Replaying one game on the C core
# =====================================================================================================================

class _Replay:
    """What a replay found: plies played, the first error, the result token met, and whether only move
    numbers follow the failing token (it was the last move of the text)."""

    __slots__ = ("plies", "error", "result", "last_token_failed")

    def __init__(self, plies: int, error: Optional[ErrorInfo], result: Optional[str],
                 last_token_failed: bool) -> None:
        self.plies = plies
        self.error = error
        self.result = result
        self.last_token_failed = last_token_failed


class _Delegate(Exception):
    """The fast scanner met text whose tokens only the PGN reader may cut."""


_KIND_OF = {InvalidMoveError: "invalid-notation", IllegalMoveError: "illegal-move",
            AmbiguousMoveError: "ambiguous-move", InvalidFenError: "invalid-fen"}


def _kind_of(exc: BaseException) -> str:
    for cls, kind in _KIND_OF.items():
        if isinstance(exc, cls):
            return kind
    return "parse-error"


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text if text.endswith(".") else text + "."


class _Start:
    """A start position ready to copy: its FEN text and C position, or why it is unusable."""

    __slots__ = ("fen", "pos", "error")

    def __init__(self, fen: str, pos: Any, error: Optional[ErrorInfo]) -> None:
        self.fen = fen
        self.pos = pos
        self.error = error


class _Replayer:
    """Judges games on the PGN reader's C position (one per thread: :func:`xiangqi.pgn._text_player`),
    replayed by the reader's one main-line replayer (:func:`xiangqi.pgn.play_line`) or, for a game's raw
    move text, by the C replay alone (:meth:`replay_text`)."""

    def __init__(self) -> None:
        self.player = pgn._text_player()
        self.fen_max = int(lib.XQ_FEN_MAX)
        self.fen_buf: Any = ffi.new("char[]", self.fen_max)
        self.starts: Dict[str, _Start] = {}
        self.initial = self._start(STARTING_FEN)
        self.loops_cap = 0
        self.loops: Any = None
        self.rule_sets: Dict[str, Tuple[Any, int, int, int, int]] = {}

    @property
    def pos(self) -> Any:
        """The C position after the game last replayed."""
        return self.player.pos

    @property
    def undo(self) -> Any:
        """The undo records of the game last replayed, one per ply."""
        return self.player.undo

    def _start(self, fen: str) -> _Start:
        hit = self.starts.get(fen)
        if hit is not None:
            return hit
        pos: Any = None
        error: Optional[ErrorInfo] = None
        try:
            pos = self.player.start(fen)
        except InvalidFenError as exc:
            error = ErrorInfo("invalid-fen", 0, fen, _sentence(str(exc)))
        start = _Start(fen, pos, error)
        if len(self.starts) > 4096:
            self.starts.clear()
        self.starts[fen] = start
        return start

    def start(self, fen_tag: Optional[str]) -> _Start:
        """The start position for a ``FEN`` tag value (``None`` or blank: the standard start)."""
        if not fen_tag:
            return self.initial
        fen_tag = fen_tag.strip()
        return self._start(fen_tag) if fen_tag else self.initial

    def fen(self) -> str:
        n = lib.xq_pos_fen(self.player.pos, self.fen_buf, self.fen_max)
        text: str = ffi.unpack(self.fen_buf, n).decode("ascii")
        return text

    def replay(self, start: _Start, tokens: List[str], clean: bool, notation: Optional[str] = None) -> "_Replay":
        """Play ``tokens`` from ``start``; stop at the first bad move.

        ``clean`` tokens are moves only (from the PGN reader or a game's moves), played by the reader's
        main-line replayer; otherwise they are move text (move numbers and a result token may be mixed
        in), played as :meth:`replay_text` plays it (which may raise :class:`_Delegate`).
        """
        if not clean:
            return self.replay_text(start, " ".join(tokens))
        codes, error, played = pgn.play_line(start.fen, tokens, notation, _C_REPLAY)
        player = self.player
        pos = player.pos
        if played == 0:
            lib.xq_pos_copy(pos, start.pos)
        n = len(codes)
        if n > played:
            # Moves the notation module decoded after the C replay stopped: played here too, for their undo
            # records (the rulings read them).
            if n + 2 >= player.cap:
                player.grow(n + 2)
            do_move, undo = lib.xq_pos_do_move, player.undo
            for ply in range(played, n):
                do_move(pos, codes[ply], undo + ply)
        if error is None:
            return _Replay(n, None, None, False)
        ply, exc = error
        return _Replay(n, ErrorInfo(_kind_of(exc), ply, tokens[ply], _sentence(str(exc))), None,
                       _only_numbers_after(tokens, ply))

    def replay_text(self, start: _Start, movetext: str) -> "_Replay":
        """Play a game's move text in C (``xq_play_text``).

        When the C replay stops before the end on anything but a last result
        token (move numbers aside) -- a move it does not play, another token,
        a result before the end -- raises :class:`_Delegate`: the PGN reader
        reads the game and :meth:`replay` plays its moves, the rest with the
        notation module.
        """
        if not _C_REPLAY:
            raise _Delegate()
        data = movetext.encode("utf-8", "surrogatepass")
        player = self.player
        plies = player.run(start.pos, data)
        stop = int(player.stop[0])
        if stop >= len(data):
            return _Replay(plies, None, None, False)
        tail = data[stop:].split()
        if len(tail) == 1:
            # The usual end: the C replay stopped at the result token, which ends the text.
            result = _RESULT_BYTES.get(tail[0])
            if result is not None:
                return _Replay(plies, None, result, False)
        raise _Delegate()

    def repetition_loops(self, plies: int, count: int, flags: int) -> int:
        """``xq_repetition_loops`` over the game just replayed, into :attr:`loops`: how many positions
        reached ``count`` with a side whose every move in the loop attacks (negative: refused)."""
        if self.loops_cap <= plies:
            self.loops_cap = 2 * plies + 2
            self.loops = ffi.new("xq_rep_info[]", self.loops_cap)
        return int(lib.xq_repetition_loops(self.pos, self.undo, plies, count, flags, self.loops))

    def rule_set(self, rules: str) -> Tuple[Any, int, int, int, int]:
        """The rule set named ``rules`` with what each game asks of it: (rules, repetition count, C facts
        flags, natural limit, red-must-vary rounds)."""
        hit = self.rule_sets.get(rules)
        if hit is None:
            rs = _rules.get_rules(rules)
            hit = self.rule_sets[rules] = (rs, rs.repetition_count, rs.facts_flags(), rs.natural_limit,
                                           rs.red_must_vary_rounds)
        return hit


_LOCAL = threading.local()


def _replayer() -> _Replayer:
    """This thread's replayer (a C position is not shared between threads)."""
    rp: Optional[_Replayer] = getattr(_LOCAL, "replayer", None)
    if rp is None:
        rp = _LOCAL.replayer = _Replayer()
    return rp


# =====================================================================================================================
# Rulings (xiangqi.rules)
# =====================================================================================================================

def _token_at(tokens: Sequence[str], ply: int, clean: bool) -> Optional[str]:
    """The text of the move token played at ``ply`` (move numbers and results skipped in move text)."""
    if clean:
        return tokens[ply] if 0 <= ply < len(tokens) else None
    k = -1
    number = _MOVE_NUMBER.fullmatch
    for tok in tokens:
        # A move number ends in a dot, a move never does: the cheap test first (this runs once per token).
        if tok[-1] == "." and number(tok) or tok in _RESULT_WORDS:
            continue
        k += 1
        if k == ply:
            return tok
    return None


def _rulings(rp: _Replayer, g: "_GameText", plies: int, rs: Any, suspects: int) -> Tuple[Optional[Any], List[ErrorInfo]]:
    """The repetition or natural-limit ruling at the end of a game, and the forbidden repetitions before it.

    Only called when the C core's loop summary (``xq_repetition_loops``, one
    pass over the game's keys, then over the moves inside loops) or the
    halfmove clock says a ruling is possible. Works on the replay's own undo
    records: no :class:`~xiangqi.Board` is built, and only the rulings reported are
    worded (:func:`xiangqi.rules.game_rulings`).
    """
    outcome, found = _rules.game_rulings(NativeHistory(rp.pos, rp.undo, plies), rs,
                                         NativeLoops(rp.loops, suspects) if suspects >= 0 else None)
    warnings: List[ErrorInfo] = []
    merged: List[List[Any]] = []  # [first ruling, last ply of its loop, rulings merged]
    for ruling in found:
        if merged and merged[-1][0].termination is ruling.termination and \
                merged[-1][0].winner == ruling.winner and ruling.first_ply <= merged[-1][1] + 2:
            merged[-1][1] = ruling.last_ply
            merged[-1][2] += 1
            continue
        merged.append([ruling, ruling.last_ply, 1])
    for ruling, last, n in merged:
        ply = ruling.ply - 1
        reason = ruling.outcome().reason.rstrip(".")
        more = f"; the same ruling applied again up to ply {last}" if n > 1 else ""
        warnings.append(ErrorInfo("rule-violation", ply, _token_at(g.tokens, ply, g.clean),
                                  _sentence(f"{reason}; play went on{more}")))
    return outcome, warnings


# =====================================================================================================================
# Checking a game
# =====================================================================================================================

#: Terminations where the board alone decides the result.
_BOARD_DECIDES = {"CHECKMATE", "STALEMATE"}
#: Terminations by a repetition ruling that names a loser.
_RULED_LOSS = {"PERPETUAL_CHECK", "PERPETUAL_CHASE", "FORBIDDEN_PATTERN"}
_DEFINITE = ("1-0", "0-1", "1/2-1/2")


_norm_result = normalize_result


_NEW = object.__new__


def _report(source: str, index: int, line: Optional[int], ok: bool, plies: int, error: Optional[ErrorInfo],
            result_recorded: Optional[str], result_computed: Optional[str], termination: Optional[str],
            final_fen: Optional[str], warnings: Tuple[ErrorInfo, ...] = ()) -> GameReport:
    """``GameReport(...)`` without the frozen dataclass's per-field ``object.__setattr__`` (the hot path):
    the same object, its fields set in its ``__dict__``."""
    r = _NEW(GameReport)
    d = r.__dict__
    d["source"] = source
    d["index"] = index
    d["line"] = line
    d["ok"] = ok
    d["plies"] = plies
    d["error"] = error
    d["result_recorded"] = result_recorded
    d["result_computed"] = result_computed
    d["termination"] = termination
    d["final_fen"] = final_fen
    d["warnings"] = warnings
    return r


class _GameText:
    """One game as scanned: first line, tags, move tokens and the result token."""

    __slots__ = ("line", "headers", "_tokens", "movetext", "result", "clean", "last", "errors", "damage",
                 "notation")

    def __init__(self, line: Optional[int], headers: Dict[str, str], tokens: Optional[List[str]],
                 result: Optional[str], clean: bool, movetext: Optional[str] = None,
                 notation: Optional[str] = None) -> None:
        self.line = line
        self.notation = notation  # the moves' notation where the record says (None: told per line)
        self.headers = headers
        self._tokens = tokens
        self.movetext = movetext
        self.result = result
        self.clean = clean
        self.last = False
        self.errors: Sequence[Any] = ()
        #: The first damage of the game's lines (a cut line, a limit, a damaged tag line): its first problem.
        self.damage: Optional[Any] = None

    @property
    def tokens(self) -> List[str]:
        """The move text's tokens (split on demand when the game came as text)."""
        if self._tokens is None:
            self._tokens = (self.movetext or "").split()
        return self._tokens


def _check_game(rp: _Replayer, source: str, index: int, g: _GameText, rules: str, chunk: Chunk) -> GameReport:
    """Replay one scanned game and judge it. Raises :class:`_Delegate` (fast scan only)."""
    headers = g.headers
    tag_result = headers.get("Result")
    start = rp.start(headers.get("FEN"))
    if start.error is not None:
        recorded = tag_result if tag_result is not None else g.result
        first = start.error if g.damage is None else _damage_info(g.damage)
        return _report(source, index, g.line, False, 0, first, recorded, None, None, None)
    if g.movetext is not None:
        rep = rp.replay_text(start, g.movetext)
    else:
        rep = rp.replay(start, g.tokens, g.clean, g.notation)
    plies, error, result_tok = rep.plies, rep.error, rep.result
    if g.damage is not None:   # the damage of the lines comes first, as in the reader's game.errors
        error = _damage_info(g.damage)
    if result_tok is None:
        result_tok = g.result
    recorded = tag_result if tag_result is not None else result_tok
    final_fen = rp.fen()
    truncated = g.last and chunk.last and result_tok is None and (
        chunk.cut or not chunk.eof_newline or tag_result is not None or error is not None and
        rep.last_token_failed)
    if truncated or (g.last and chunk.last and chunk.cut):
        if error is not None:
            error = ErrorInfo("truncated", error.ply, error.token, _sentence(
                f"the file ends inside this game: {error.message}"))
        else:
            error = ErrorInfo("truncated", plies, None, _sentence(
                f"the file ends after ply {plies} of this game without a result token: the record is cut short"
                + (" (damaged compressed data)" if chunk.cut else "")))
    if error is None and g.errors:
        e = g.errors[0]
        error = ErrorInfo("parse-error", e.ply, e.token or None, _sentence(e.reason))
    if error is not None:
        return _report(source, index, g.line, False, plies, error, recorded, None, None, final_fen)
    computed: Optional[str] = None
    termination: Optional[str] = None
    reason = ""
    warnings: List[ErrorInfo] = []
    pos = rp.pos
    if lib.xq_count_legal(pos) == 0:
        computed = "0-1" if pos.side else "1-0"
        termination = "CHECKMATE" if lib.xq_pos_in_check(pos) else "STALEMATE"
        loser = "Red" if pos.side else "Black"
        reason = f"{loser} is {'checkmated' if termination == 'CHECKMATE' else 'stalemated'} after ply {plies}"
    elif plies >= 4:
        rs, c, flags, limit, _vary = rp.rule_set(rules)
        suspects = rp.repetition_loops(plies, c, flags)
        # A ruling is due at the end (the count reached there, or the natural limit), or some loop before it
        # has a side whose every move attacks, or lies in the opening's first rounds where Red must vary (the
        # C core counts those among the suspects); otherwise each is a draw that play may go on from.
        if suspects != 0 or rp.loops[plies].count >= c or bool(limit and pos.halfmove >= limit):
            outcome, warnings = _rulings(rp, g, plies, rs, suspects)
            if outcome is not None:
                termination = outcome.termination.name
                computed = outcome.result()
                reason = outcome.reason.rstrip(".")
    mismatch: Optional[ErrorInfo] = None
    rec = _norm_result(tag_result)
    tok = _norm_result(result_tok)
    if computed is not None and (termination in _BOARD_DECIDES or termination in _RULED_LOSS):
        for value, text in ((rec, tag_result), (tok, result_tok)):
            if value not in _DEFINITE or value == computed:
                continue
            if termination in _RULED_LOSS and value == "1/2-1/2":
                # A draw recorded where the rules name a loser: agreed, or the arbiter saw it otherwise.
                warnings.append(ErrorInfo("rule-violation", plies - 1, _token_at(g.tokens, plies - 1, g.clean),
                                          _sentence(f"the record says {value}, but {reason}")))
                break
            mismatch = ErrorInfo("result-mismatch", None, text, _sentence(
                f"the record says {value}, but {reason}, so the result is {computed}"))
            break
    if mismatch is None and rec in _DEFINITE and tok in _DEFINITE and rec != tok:
        mismatch = ErrorInfo("result-mismatch", None, result_tok, _sentence(
            f"the Result tag says {tag_result} but the move text ends with {result_tok}"))
    if mismatch is not None:
        return _report(source, index, g.line, False, plies, mismatch, recorded, computed, termination, final_fen,
                          tuple(warnings))
    return _report(source, index, g.line, True, plies, None, recorded, computed, termination, final_fen,
                      tuple(warnings))


def _example_pgn() -> str:
    """A new file ``games.pgn`` in a temporary folder, for the examples: game 1 is valid, game 2 (line 5) plays
    an illegal second move."""
    import tempfile

    path = os.path.join(tempfile.mkdtemp(), "games.pgn")
    with open(path, "w", encoding="utf-8") as f:
        f.write('[Event "A"]\n\n1. h2e2 h9g7 *\n\n[Event "B"]\n\n1. h2e2 h2e2 *\n')
    return path


def _damage_info(e: Any) -> ErrorInfo:
    """A game's error from the damage of its lines (a :class:`~xiangqi.game.GameError` of the splitter)."""
    return ErrorInfo("parse-error", e.ply, e.token or None, _sentence(e.reason))


def start_fen(headers: Dict[str, str]) -> str:
    """The start FEN of a game's tags (``FEN`` tag or the standard start)."""
    fen = headers.get("FEN", "").strip()
    return fen or STARTING_FEN


def _only_numbers_after(tokens: Sequence[str], i: int) -> bool:
    """Whether nothing but move numbers follows token ``i`` (the failing token is the last move)."""
    number = _MOVE_NUMBER.fullmatch
    return all(number(tok) for tok in tokens[i + 1:])


# =====================================================================================================================
# PGN: games as the PGN reader splits them, checked on its fast path
# =====================================================================================================================

def _chunk_lines(chunk: Chunk) -> TextLines:
    """The text lines of a chunk's bytes, decoded as the whole file is (:class:`xiangqi._encoding.TextLines`)."""
    # No line limit here: a PGN chunk's lines were cut, where they were, by the parent's reading (a chunk read
    # from file offsets has no cut line: the offsets are not given after one).
    return TextLines(io.BytesIO(chunk.data).read, chunk.encoding or "utf-8", cr=chunk.cr, max_line=sys.maxsize)


def _chunk_text(chunk: Chunk) -> str:
    """The lines of a chunk's bytes (:func:`_chunk_lines`) joined by ``\\n``, a block at a time."""
    return "\n".join(block.text for block in _chunk_lines(chunk).blocks())


#: The tags that judging a game reads (:func:`_check_game`): the fast path reads these alone.
_TAGS_READ = ("FEN", "Result")


def _game_text(raw: pgn.GameLines) -> _GameText:
    """A game as the PGN reader's splitter gives it, for the C replay of its move text (``movetext``)."""
    headers = {name: value for name in _TAGS_READ if (value := raw.tag(name)) is not None}
    g = _GameText(raw.first_line, headers, None, None, False, raw.movetext_text)
    g.errors = errors = raw.errors
    if errors:
        g.damage = errors[0]
    return g


def _read_game_text(raw: pgn.GameLines) -> _GameText:
    """The same game read by the PGN reader's tokenizer (comments, variations, odd tokens): its main-line
    move tokens, result token and structural errors."""
    scanned = pgn.RawGame(raw)
    g = _GameText(scanned.first_line, dict(scanned.headers), list(scanned.moves), scanned.result, True,
                  notation=scanned.notation)
    g.errors = scanned.errors
    if raw.errors:
        g.damage = raw.errors[0]
    return g


#: ``False`` reads every PGN game with the reader's tokenizer instead of the C replay of its raw move text
#: (the tests compare both).
_FAST_HOOK = True


def _pgn_reports(chunk: Chunk, rules: str, lines: Optional[List[str]] = None) -> List[GameReport]:
    rp = _replayer()
    src = chunk.source
    out: List[GameReport] = []
    games = pgn.split_games(_chunk_text(chunk) if lines is None else "\n".join(lines), chunk.line_offset,
                            long_lines=list(chunk.long_lines) if chunk.long_lines else None)
    raw = next(games, None)
    while raw is not None:
        after = next(games, None)
        g = _game_text(raw)
        g.last = after is None
        try:
            if not _FAST_HOOK:
                raise _Delegate()
            out.append(_check_game(rp, src, len(out) + 1, g, rules, chunk))
        except _Delegate:
            g = _read_game_text(raw)
            g.last = after is None
            out.append(_check_game(rp, src, len(out) + 1, g, rules, chunk))
        raw = after
    return out


# =====================================================================================================================
# XQF and DhtmlXQ: games read by their readers
# =====================================================================================================================

def _game_report(rp: _Replayer, source: str, index: int, line: Optional[int], game: Any, rules: str,
                 chunk: Chunk) -> GameReport:
    """Judge a :class:`xiangqi.pgn.Game` (as the XQF and DhtmlXQ readers return them)."""
    headers = dict(game.headers)
    errors = [e for e in getattr(game, "errors", []) if getattr(e, "mainline", True)]
    moves = game.mainline_moves()
    if errors and isinstance(errors[0].error, InvalidFenError):
        e = errors[0]
        fen = headers.get("FEN") or e.token or ""
        return GameReport(source, index, line, False, 0, ErrorInfo("invalid-fen", 0, fen, _sentence(e.reason)),
                          headers.get("Result"), None, None, None)
    tokens = [m.iccs() for m in moves]
    g = _GameText(line, headers, tokens, None, True, notation="iccs")
    g.last = False
    report = _check_game(rp, source, index, g, rules, chunk)
    if errors and report.error is None or errors and report.error is not None and \
            report.error.kind == "result-mismatch":
        e = errors[0]
        kind = _kind_of(e.error) if e.error is not None else "parse-error"
        err = ErrorInfo(kind, e.ply, e.token or None, _sentence(e.reason))
        return dataclasses.replace(report, ok=False, error=err, result_computed=None, termination=None)
    return report


def _reader_reports(chunk: Chunk, rules: str) -> List[GameReport]:
    """The games of a whole file read by its format's reader (XQF, DhtmlXQ, any registered format)."""
    fmt = formats.FORMATS[chunk.fmt]
    rp = _replayer()
    out: List[GameReport] = []
    try:
        text = None if fmt.binary else _chunk_text(chunk)
        for n, (line, game) in enumerate(formats.located_games(chunk.fmt, chunk.data, text), 1):
            out.append(_game_report(rp, chunk.source, n, line, game, rules, chunk))
    except (XiangqiError, ValueError, IndexError, KeyError, EOFError) as exc:
        out.append(_parse_error(chunk, len(out) + 1, None, f"not a readable {fmt.title} file: {exc}"))
    return out


def _parse_error(chunk: Chunk, index: int, line: Optional[int], message: str) -> GameReport:
    return GameReport(chunk.source, index, line, False, 0, ErrorInfo("parse-error", None, None, _sentence(message)),
                      None, None, None, None)


def validate_chunk(chunk: Chunk, rules: str = "axf") -> List[GameReport]:
    """Check every game of one chunk; indices count from 1 within the chunk.

    This is the function workers run (module level, so executors can pickle
    it by reference). Bad data never raises: it is the reports' ``error``.

    >>> [(r.index, r.ok) for chunk in iter_chunks([_example_pgn()]) for r in validate_chunk(chunk, rules="cxa")]
    [(1, True), (2, False)]
    """
    return _validate_chunk(chunk, rules, None)


def _validate_chunk(chunk: Chunk, rules: str, lines: Optional[List[str]]) -> List[GameReport]:
    """:func:`validate_chunk`, given the chunk's decoded lines when the caller has them."""
    if chunk.read_error is not None and not chunk.data:
        return [_parse_error(chunk, 1, None, chunk.read_error)]
    streamed = formats.FORMATS[chunk.fmt].streamed
    out = _pgn_reports(chunk, rules, lines) if streamed else _reader_reports(chunk, rules)
    if chunk.cut and not streamed and out and out[-1].ok:
        last = out[-1]
        out[-1] = dataclasses.replace(last, ok=False, error=ErrorInfo(
            "truncated", last.plies, None, _sentence("the file ends early (damaged compressed data)")))
    return out


# =====================================================================================================================
# Orchestration
# =====================================================================================================================

_check_rules = _rules.rule_set_name


def validate(paths: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]], *,
             rules: str = "axf", jobs: Optional[int] = 1,
             executor: Optional[concurrent.futures.Executor] = None, format: str = "auto",
             chunk_bytes: int = DEFAULT_CHUNK_BYTES) -> Iterator[GameReport]:
    """Check every game of ``paths`` (files, directories, ``.gz``); yield reports in input order.

    ``rules`` is ``"axf"`` (Asian) or ``"cxa"`` (Chinese) for repetition
    rulings; ``jobs`` the most processes that check games when no
    ``executor`` is given: this one and ``jobs - 1`` workers (1: this
    process alone; ``None`` or 0: one per CPU); fewer for small inputs,
    none below :data:`SERIAL_BYTES` (about 40 ms of work, less than starting
    the workers costs); ``executor`` any
    :class:`concurrent.futures.Executor` (a process pool, or a Dask
    ``Client.get_executor()``), which is left running; ``format`` forces a
    record format instead of detecting it per file; ``chunk_bytes`` the size
    of the pieces of PGN handed to each worker.

    >>> [(report.index, report.ok, report.plies) for report in validate(_example_pgn(), rules="cxa")]
    [(1, True, 2), (2, False, 1)]
    >>> next(validate(_example_pgn(), format="epd"))
    Traceback (most recent call last):
    ...
    ValueError: unknown format 'epd': expected one of auto, pgn, xqf, dhtmlxq

    Raises:
        * :exc:`FileNotFoundError` for a missing path;
        * :exc:`ValueError` for a bad argument (``rules``, ``format``), before any work starts.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    rules = _check_rules(rules)
    if format not in _format_names():
        raise ValueError(f"unknown format {format!r}: expected one of {', '.join(_format_names())}")
    files = expand_paths(paths)
    if jobs is None or jobs <= 0:
        jobs = os.cpu_count() or 1
    return _run(files, rules, jobs, executor, format, chunk_bytes)


#: Inputs smaller than this are validated in this process whatever ``jobs`` says: the work (about 20 ms a
#: megabyte of PGN) does not pay for starting worker processes (each also warms its own caches).
SERIAL_BYTES = 2 * 1024 * 1024
#: Each worker gets at least this much input (``jobs`` is an upper bound on the processes started).
BYTES_PER_WORKER = 1024 * 1024


#: The largest chunk the own pool's workers get when the chunk size is left to this module.
_POOL_CHUNK_MAX = 2 * 1024 * 1024


def _pool_chunk_sizes(files: Sequence[str], workers: int, chunk_bytes: int) -> _ChunkSizes:
    """The chunk sizes for the own pool: the default grows with the input, to about an eighth of a worker's
    share (at most :data:`_POOL_CHUNK_MAX`), since each chunk costs the parent a submission and its
    worker a start-up, and fewer, bigger chunks keep both cores on the games (measured on a 20 MB file, two
    jobs: 0.42 s with 256 KiB chunks, 0.38 s with 2 MiB); towards the end of the input they shrink
    (:class:`_ChunkSizes`). A size the caller chose is kept throughout."""
    if chunk_bytes != DEFAULT_CHUNK_BYTES:
        return _ChunkSizes(chunk_bytes)
    total = _input_bytes(files)
    workers = max(1, workers)
    return _ChunkSizes(max(DEFAULT_CHUNK_BYTES, min(_POOL_CHUNK_MAX, total // (8 * workers))), total, workers)


#: What a stream (a pipe, a FIFO, /dev/stdin: its size is not known) counts as when the pool is sized.
_STREAM_BYTES = 64 * 1024 * 1024


def _input_bytes(files: Sequence[str]) -> int:
    """The size of the input on disk (compressed files counted four times: they expand; a stream as
    :data:`_STREAM_BYTES`)."""
    total = 0
    for f in files:
        try:
            st = os.stat(f)
        except OSError:
            continue
        size = st.st_size if stat.S_ISREG(st.st_mode) else _STREAM_BYTES
        total += 4 * size if f.lower().endswith(".gz") else size
    return total


def _workers(files: Sequence[str], jobs: int) -> int:
    """The processes to check ``files`` with for ``jobs`` (this one and the workers it starts): ``jobs`` at
    most, one per :data:`BYTES_PER_WORKER` of input, and 1 (this process, no pool) below :data:`SERIAL_BYTES`."""
    if jobs <= 1:
        return 1
    total = _input_bytes(files)
    if total < SERIAL_BYTES:
        return 1
    return max(1, min(jobs, total // BYTES_PER_WORKER))


def _process_pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` processes, forked on Linux when this process runs no other thread (a fork
    starts in milliseconds and inherits the imported modules; other start methods re-import the package)."""
    import multiprocessing

    ctx = None
    if sys.platform.startswith("linux") and threading.active_count() == 1 and \
            "fork" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("fork")
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_start,
                                                  initargs=(os.getpid(),))


def _worker_start(parent: int) -> None:
    """In a pool worker: leave Ctrl-C (sent to the whole process group) to the parent, which stops the pool,
    instead of each worker printing a traceback; and end with the parent (on Linux): a parent killed alone
    (``kill PID``, the OOM killer) left its workers blocked for ever on a pipe nobody reads, holding the input,
    the report and the caller's pipes open."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the worker lives on as before
            return
        if os.getppid() != parent:  # the parent died before the request took effect
            os._exit(1)


def _run(files: List[str], rules: str, jobs: int, executor: Optional[concurrent.futures.Executor], fmt: str,
         chunk_bytes: int) -> Iterator[GameReport]:
    if executor is None:
        jobs = _workers(files, jobs)
    chunks = iter_chunks(files, fmt=fmt, chunk_bytes=chunk_bytes)  # lazy: not read when the own pool runs
    counters: Dict[int, int] = collections.defaultdict(int)

    def renumber(chunk: Chunk, reports: List[GameReport]) -> List[GameReport]:
        base = counters[chunk.file_number]
        counters[chunk.file_number] = base + len(reports)
        if base:
            for r in reports:
                # Fresh records that nobody else holds yet: setting the index in place is safe (and
                # several times cheaper than dataclasses.replace on this hot path; see _report).
                r.__dict__["index"] = base + r.index
        return reports

    if executor is None and jobs == 1:
        for chunk, _, lines in _spans_lines(files, fmt, chunk_bytes):
            yield from renumber(chunk, _validate_chunk(chunk, rules, lines))
        return
    own: Optional[concurrent.futures.Executor] = None
    if executor is None:
        # This process is one of the jobs: it cuts the input, and checks chunks itself whenever the workers
        # have enough in hand, so that jobs processes share the jobs cores (not jobs workers and this one).
        own = executor = _process_pool(jobs - 1)
        workers = jobs - 1
    else:
        workers = max(jobs, getattr(executor, "_max_workers", 0) or 0, _dask_workers(executor))
    if own is not None:
        try:
            yield from _scheduled(_spans(files, fmt, _pool_chunk_sizes(files, jobs, chunk_bytes)), own, rules, workers,
                                  renumber, local=True)
        finally:
            own.shutdown(wait=True, cancel_futures=True)
        return
    # Any other executor (Dask, or one the caller made): chunks are submitted in input order, many in
    # flight per worker, so that a slow chunk at the head does not leave the other workers idle while its
    # reports are awaited.
    window = max(4, 16 * workers)
    pending: Deque[Tuple[Chunk, Any]] = collections.deque()
    try:
        for chunk in chunks:
            pending.append((chunk, executor.submit(validate_chunk, chunk, rules)))
            while len(pending) >= window:
                c, fut = pending.popleft()
                yield from renumber(c, _outcome(executor, c, fut, rules))
        while pending:
            c, fut = pending.popleft()
            yield from renumber(c, _outcome(executor, c, fut, rules))
    finally:
        for _, fut in pending:
            fut.cancel()


def _outcome(executor: concurrent.futures.Executor, chunk: Chunk, fut: "concurrent.futures.Future[Any]",
             rules: str) -> List[GameReport]:
    """The reports of ``chunk`` from ``fut``, its run on ``executor``, which runs it once more if that run
    failed: :func:`validate_chunk` reports bad data and does not raise, so a failure is the executor's (a
    Dask worker killed at the wrong moment can fail a future with an error of Dask's own, though the
    scheduler retries the task)."""
    reports: List[GameReport]
    try:
        reports = fut.result()
    except concurrent.futures.CancelledError:
        raise
    except Exception:
        reports = executor.submit(validate_chunk, chunk, rules).result()
    return reports


#: Chunks read ahead of the one whose reports are due next, when this module runs its own pool.
LOOKAHEAD_CHUNKS = 64
#: And at most this much of their data waiting to be handed out: the workers start once that much is read,
#: not after 64 big chunks (a 20 MB file was read whole, 80 ms, before its first chunk started).
LOOKAHEAD_BYTES = 4 * 1024 * 1024
def _cost(chunk: Chunk) -> int:
    """An estimate of a chunk's work, to start the costliest first."""
    return len(chunk.data) * formats.FORMATS[chunk.fmt].cost


def _scheduled(spans: Iterator[Tuple[Chunk, Optional[int]]], pool: concurrent.futures.Executor, rules: str,
               workers: int, renumber: Callable[[Chunk, List[GameReport]], List[GameReport]],
               local: bool = False) -> Iterator[GameReport]:
    """Run the chunks of ``spans`` (:func:`_spans`) on this module's own ``pool``; yield their reports in
    input order.

    Up to :data:`LOOKAHEAD_CHUNKS` chunks (:data:`LOOKAHEAD_BYTES` not yet handed out) are read ahead, and only ``2 * workers`` are in the pool at a
    time, the costliest of those read first (:func:`_cost`): a slow chunk near the end (one XQF file
    with a big variation tree can be a quarter of a corpus's work) starts early instead of leaving the
    other workers idle while it finishes last. A chunk that is a plain file's own bytes goes to its worker
    as (path, offset, length), which reads them itself (the pool is forked: same files, same cwd); one
    whose worker cannot read the same length back is checked here. With ``local``, this process checks
    a chunk itself (the next in input order) whenever the pool holds all it takes, instead of waiting.
    """
    inflight = 2 * workers
    held: Dict[int, Tuple[Chunk, Optional[int]]] = {}  # read and not yet yielded, by input position
    ahead: List[int] = []  # read and not yet submitted, in input order
    futures: Dict[int, "concurrent.futures.Future[Any]"] = {}  # List[_Packed], or None (see below)
    mine: Dict[int, List[GameReport]] = {}  # the reports of the chunks checked here
    running: set["concurrent.futures.Future[Any]"] = set()
    read = 0
    due = 0
    ahead_bytes = 0  # the data of the chunks in ahead
    exhausted = False
    broken = False  # the pool lost a worker: it takes no more chunks
    try:
        while True:
            while not exhausted and len(held) < LOOKAHEAD_CHUNKS and ahead_bytes < LOOKAHEAD_BYTES:
                span = next(spans, None)
                if span is None:
                    exhausted = True
                    break
                held[read] = span
                ahead.append(read)
                ahead_bytes += len(span[0].data)
                read += 1
            while ahead and len(running) < inflight and not broken:
                best = max(ahead, key=lambda i: _cost(held[i][0]))
                chunk, offset = held[best]
                fut: "concurrent.futures.Future[Any]"
                try:
                    if offset is None or len(chunk.data) < _SPAN_BYTES:
                        fut = pool.submit(_validate_chunk_packed, chunk, rules)
                    else:
                        fut = pool.submit(_validate_span_packed, dataclasses.replace(chunk, data=b""), offset,
                                          len(chunk.data), rules)
                except concurrent.futures.process.BrokenProcessPool:
                    broken = True  # a worker died (killed, out of memory): this process checks the rest
                    break
                ahead.remove(best)
                ahead_bytes -= len(chunk.data)
                futures[best] = fut
                running.add(fut)
            while due in mine or (due in futures and futures[due].done()):
                chunk = held.pop(due)[0]
                if due in mine:
                    yield from renumber(chunk, mine.pop(due))
                    due += 1
                    continue
                try:
                    packed = futures.pop(due).result()
                except concurrent.futures.process.BrokenProcessPool:
                    broken, packed = True, None  # its worker died: the chunk is checked here
                due += 1
                if packed is None:  # the worker read something else (the file changed or went away), or died
                    yield from renumber(chunk, validate_chunk(chunk, rules))
                else:
                    yield from renumber(chunk, [_unpack(t) for t in packed])
            if not held and exhausted:
                return
            if (local or broken) and ahead:
                running = {f for f in running if not f.done()}
                if len(running) < inflight and not broken:
                    continue  # a worker is free again: feed it first
                first = min(ahead)
                ahead.remove(first)
                chunk = held[first][0]
                ahead_bytes -= len(chunk.data)
                mine[first] = validate_chunk(chunk, rules)
                continue
            if running:
                finished, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
                running -= finished
    finally:
        for fut in futures.values():
            fut.cancel()


#: Chunks this size or more go to the own pool's workers as (path, offset, length), not as bytes.
_SPAN_BYTES = 16 * 1024


def _validate_span_packed(chunk: Chunk, offset: int, length: int, rules: str) -> Optional[List[_Packed]]:
    """:func:`_validate_chunk_packed` on ``length`` bytes of ``chunk.source`` from ``offset`` (``chunk``
    comes without its data); ``None`` when they cannot be read back whole."""
    try:
        with open(chunk.source, "rb") as fh:
            fh.seek(offset)
            data = fh.read(length)
    except OSError:
        return None
    if len(data) != length:
        return None
    return _validate_chunk_packed(dataclasses.replace(chunk, data=data), rules)


#: A report as a worker process sends it back: the fields of :class:`GameReport` in order, its error and
#: warnings as tuples of :class:`ErrorInfo` fields (a third of the pickled size of the dataclasses, and
#: rebuilt in the parent in half the time unpickling them takes).
_Packed = Tuple[Any, ...]
_REPORT_FIELDS = tuple(f.name for f in dataclasses.fields(GameReport))
_ERROR_FIELDS = tuple(f.name for f in dataclasses.fields(ErrorInfo))


def _pack(r: GameReport) -> _Packed:
    e = r.error
    return (r.source, r.index, r.line, r.ok, r.plies,
            None if e is None else (e.kind, e.ply, e.token, e.message),
            r.result_recorded, r.result_computed, r.termination, r.final_fen,
            tuple((w.kind, w.ply, w.token, w.message) for w in r.warnings))


def _unpack_error(t: Tuple[Any, ...]) -> ErrorInfo:
    e = object.__new__(ErrorInfo)
    e.__dict__.update(zip(_ERROR_FIELDS, t))
    return e


def _unpack(t: _Packed) -> GameReport:
    """The :class:`GameReport` of :func:`_pack`'s tuple (equal to the original; no ``__init__`` run)."""
    r = object.__new__(GameReport)
    d = r.__dict__
    d.update(zip(_REPORT_FIELDS, t))
    if t[5] is not None:
        d["error"] = _unpack_error(t[5])
    if t[10]:
        d["warnings"] = tuple(_unpack_error(w) for w in t[10])
    return r


def _validate_chunk_packed(chunk: Chunk, rules: str) -> List[_Packed]:
    """:func:`validate_chunk` with its reports packed by :func:`_pack` (what this module's own pool runs)."""
    return [_pack(r) for r in validate_chunk(chunk, rules)]


def _dask_workers(executor: Any) -> int:
    client = getattr(executor, "_client", None)
    if client is None:
        return 0
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # pragma: no cover - a scheduler that cannot answer
        return 0


@contextlib.contextmanager
def dask_executor(address: Optional[str] = None, *, workers: Optional[int] = None,
                  retries: int = 3) -> Iterator[concurrent.futures.Executor]:
    """An executor on a Dask cluster: ``address`` of a running scheduler, or a new local cluster.

    The local cluster has ``workers`` single-threaded worker processes (one
    per CPU by default). Chunks lost with a dead worker are run again by
    the scheduler; a chunk that raises is retried ``retries`` times. Needs
    the optional extra: ``pip install 'pyxiangqi[dask]'``. The example starts
    worker processes, so it is not run here; the validation tutorial runs the
    same with ``--dask`` and from Python.

    >>> with dask_executor(workers=2) as executor:                    # doctest: +SKIP
    ...     reports = list(validate("games/", executor=executor))

    Raises:
        * :exc:`ImportError` when the ``dask`` extra (the ``distributed`` package) is not installed.
    """
    try:
        dd: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise ImportError("Dask support needs the optional extra: pip install 'pyxiangqi[dask]'") from exc
    cluster: Any = None
    client: Any
    if address is None:
        cluster = dd.LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        client = dd.Client(cluster)
    else:
        client = dd.Client(address)
    try:
        yield client.get_executor(retries=retries, pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# =====================================================================================================================
# Command line
# =====================================================================================================================

def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="xiangqi validate",
        description="Check every game of PGN, XQF and DhtmlXQ collections (files, directories, .gz): legal start "
                    "position, legal moves, results that agree with the board. Exit code 0 when every game is "
                    "valid, 1 when some are not or no game was found at all (a PATH without games is warned "
                    "about), 2 for usage errors (a PATH that does not exist).",
        epilog="example: xiangqi validate tests/data/sample --report report.jsonl",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="game files or directories (searched recursively)")
    p.add_argument("--rules", default="axf", choices=RULE_SETS, help="repetition rules: axf (Asian, default) or cxa "
                   "(Chinese)")
    p.add_argument("--red-must-vary", type=_rules.red_must_vary_rounds, default=None, metavar="ROUNDS",
                   help="within ROUNDS moves of a game from the opening position, Red must vary a repetition that "
                        "would draw (CXA #03 三): default 25 under cxa, 0 (off) under axf")
    p.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                   help="at most N processes check games: this one and N-1 workers (default 1; 0 = one per "
                        "CPU; with --dask, N Dask workers); small inputs (under 2 MiB) are checked in this process")
    p.add_argument("--dask", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run on Dask: a local cluster, or the scheduler at ADDRESS (pip install 'pyxiangqi[dask]')")
    p.add_argument("--report", metavar="FILE", help="write one JSON object per game (.jsonl; .csv for CSV; - for "
                   "standard output)")
    p.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report: the summary, a sortable "
                   "table of the games with problems and a board for each (xiangqi.report_html)")
    p.add_argument("--format", default="auto", choices=_format_names(), help="record format (default: detect per file)")
    p.add_argument("--chunk-kib", type=int, default=DEFAULT_CHUNK_BYTES // 1024, metavar="KIB",
                   help=argparse.SUPPRESS)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress line and no summary")
    return p


def _report_clash(report: str, paths: Sequence[str], files: Sequence[str]) -> Optional[str]:
    """Why the report file must not be written (it is an input, or a game file inside a folder being
    checked, which writing it would empty or add to the inputs), or None."""

    target = os.path.realpath(report)
    # The same file, not the same name: a hard link or a bind mount reaches a game file under another path.
    if any(os.path.realpath(f) == target or same_file(f, report) for f in files):
        return "it is one of the game files to check (writing it would destroy it)"
    for path in paths:
        if not os.path.isdir(path):
            continue
        folder = os.path.realpath(path)
        try:
            inside = os.path.commonpath([folder, target]) == folder
        except ValueError:  # other drive
            inside = False
        if not inside:
            continue
        parts = os.path.relpath(target, folder).split(os.sep)
        if not any(part.startswith(".") for part in parts) and _is_game_file(target):
            return f"it is a game file inside {path}, which is being checked"
    return None


def validate_main(argv: Sequence[str]) -> int:
    """``xiangqi validate ...``: returns the exit code (0 all valid, 1 some invalid or no game found, 2 usage
    error or a missing path). Each PATH that yields no game is named in a warning on standard error.

    >>> validate_main([_example_pgn(), "--quiet"]), validate_main(["--jobs", "-1", _example_pgn()])
    (1, 2)
    """
    parser = _parser()
    try:
        args = parser.parse_args(list(argv))
        if args.jobs < 0:  # a usage error like argparse's own (usage line, then the error), as in every command
            parser.error(f"--jobs must be >= 0 (0: one per CPU), not {args.jobs}")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    skipped: List[Tuple[str, str]] = []
    try:
        inputs = [(p, expand_paths([p], skipped=skipped)) for p in args.paths]
    except FileNotFoundError as exc:
        print(f"xiangqi validate: {exc}", file=sys.stderr)
        return 2
    for path, why in sorted(skipped):
        print(f"xiangqi validate: warning: skipped {path}: {why}", file=sys.stderr)
    files = [f for _, found in inputs for f in found]
    if args.report and args.report != "-":
        clash = _report_clash(args.report, [p for p, _ in inputs], files)
        if clash:
            print(f"xiangqi validate: --report {args.report}: {clash}; choose another report file",
                  file=sys.stderr)
            return 2
    html_report = None
    if args.html:
        clash = "the HTML report goes to a file, not standard output" if args.html == "-" else \
            _report_clash(args.html, [p for p, _ in inputs], files)
        if clash:
            print(f"xiangqi validate: --html {args.html}: {clash}; choose another report file", file=sys.stderr)
            return 2
        from xiangqi.report_html import HtmlReport

        html_report = HtmlReport()

    jobs = args.jobs or (os.cpu_count() or 1)
    stdout = guard(sys.stdout, "standard output")
    report_stream: Optional[TextIO] = None
    summary_stream: TextIO = stdout
    if args.report == "-":
        report_stream = stdout
        summary_stream = sys.stderr
    elif args.report:
        try:
            report_stream = guard(open(args.report, "w", encoding="utf-8", newline=""), args.report)
        except OSError as exc:
            print(f"xiangqi validate: cannot write the report {args.report}: {reason(exc)}", file=sys.stderr)
            return 2
    html_stream: Optional[TextIO] = None
    if html_report is not None:
        # Opened now, like the report, so that an unwritable path is known before the work, not after it.
        try:
            html_stream = guard(open(args.html, "w", encoding="utf-8"), args.html)
        except OSError as exc:
            if report_stream is not None and report_stream is not stdout:
                report_stream.close()
            print(f"xiangqi validate: cannot write the HTML report {args.html}: {reason(exc)}", file=sys.stderr)
            return 2
    with contextlib.ExitStack() as inputs_stack:
        if html_stream is not None:
            inputs_stack.callback(html_stream.close)
        # Streams (a pipe, a FIFO, /dev/stdin) are read as they come, once: a stream of any length costs no
        # more memory than a file of its games, and no disk. A stream is first copied to a temporary file
        # where it must be read twice: for the HTML report, which reads its problem games again to draw them,
        # and under a name whose format may take the whole file to tell (a .txt or .html page may hold a
        # DhtmlXQ block anywhere). Its reports still name the stream.
        names: Dict[str, str] = {}
        for i, f in enumerate(files):
            if html_report is None and not formats.sniffs_whole(f):
                continue
            try:
                regular = inputs_stack.enter_context(regular_input(f))
            except OSError as exc:
                if report_stream is not None and report_stream is not stdout:
                    report_stream.close()
                print(f"xiangqi validate: cannot read {f}: {reason(exc)}", file=sys.stderr)
                return 2
            if regular != f:
                names[regular] = f
                files[i] = regular
                if html_report is not None:
                    html_report.copies[f] = regular
        return _validate_files(args, inputs, files, names, jobs, report_stream, summary_stream, html_report,
                               html_stream)


def _validate_files(args: argparse.Namespace, inputs: List[Tuple[str, List[str]]], files: List[str],
                    names: Dict[str, str], jobs: int, report_stream: Optional[TextIO],
                    summary_stream: TextIO, html_report: "Optional[HtmlReport]",
                    html_stream: Optional[TextIO]) -> int:
    writer = None
    if report_stream is not None:
        writer = ReportWriter(report_stream, "csv" if str(args.report).lower().endswith(".csv") else "jsonl")
    progress = Progress(sys.stderr, total_files=len(files), enabled=not args.quiet)
    summary = Summary()
    games_in: Dict[str, int] = collections.defaultdict(int)  # reports per source file
    t0 = time.perf_counter()
    try:
        with contextlib.ExitStack() as stack:
            executor: Optional[concurrent.futures.Executor] = None
            if args.dask is not None:
                try:
                    executor = stack.enter_context(dask_executor(args.dask or None, workers=jobs))
                except ImportError as exc:
                    print(f"xiangqi validate: {exc}", file=sys.stderr)
                    return 2
                except OSError as exc:
                    print(f"xiangqi validate: cannot reach the Dask scheduler {args.dask!r}: {exc}",
                          file=sys.stderr)
                    return 2
            reports = _run(files, _rules.rules_spec(args.rules, red_must_vary=args.red_must_vary), 1 if executor is None and jobs == 1 else jobs, executor,
                           args.format, args.chunk_kib * 1024)
            for r in reports:
                if r.source in names:
                    r = dataclasses.replace(r, source=names[r.source])
                summary.add(r)
                games_in[r.source] += 1
                if writer is not None:
                    writer.write(r)
                if html_report is not None:
                    html_report.add(r)
                progress.update(files=summary.files, games=summary.games, plies=summary.plies,
                                errors=summary.invalid)
    finally:
        progress.close()
        if report_stream is not None and report_stream is not summary_stream and args.report != "-":
            report_stream.close()
    summary.seconds = time.perf_counter() - t0
    if html_report is not None and html_stream is not None:
        html_report.write(html_stream, summary)  # a failed write is an OutputError naming the file (xiangqi.cli)
        html_stream.close()
    for path, found in inputs:
        if not any(games_in.get(f) for f in found):
            fmt = "" if args.format == "auto" else f" (read as {args.format})"
            print(f"xiangqi validate: warning: no games found in {path}{fmt}", file=sys.stderr)
    if not args.quiet:
        print(summary.table(), file=summary_stream)
    if summary.games == 0:
        return 1
    return 0 if summary.invalid == 0 else 1


if __name__ == "__main__":  # pragma: no cover
    from xiangqi.cli import main

    sys.exit(main(["validate", *sys.argv[1:]]))
