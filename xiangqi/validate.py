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

The work is done by four modules, each with one job, whose public names this module exports too: the
report records and writers (:mod:`xiangqi.reports`: :class:`~xiangqi.reports.GameReport`,
:class:`~xiangqi.reports.ErrorInfo`, :class:`~xiangqi.reports.Summary`, :class:`~xiangqi.reports.ReportWriter`,
:func:`~xiangqi.reports.write_jsonl`, :func:`~xiangqi.reports.write_csv`, :func:`~xiangqi.reports.json_text`,
:func:`~xiangqi.reports.name_text`, :data:`~xiangqi.reports.ERROR_KINDS`, :data:`~xiangqi.reports.WARNING_KINDS`),
the inputs (:mod:`xiangqi.chunks`: :func:`~xiangqi.chunks.expand_paths`, :class:`~xiangqi.chunks.Chunk`,
:func:`~xiangqi.chunks.iter_chunks`, :data:`~xiangqi.chunks.detect_format`,
:data:`~xiangqi.chunks.DEFAULT_CHUNK_BYTES`), judging the games of a chunk (:mod:`xiangqi.checking`:
:func:`~xiangqi.checking.validate_chunk`) and running the chunks on processes or Dask (:mod:`xiangqi.pools`:
:func:`~xiangqi.pools.dask_executor`).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "two.pgn")
>>> _ = open(path, "w", encoding="utf-8").write(
...     '[Result "*"]\\n\\n1. 炮二平五 马８进７ *\\n\\n[Result "*"]\\n\\n1. 炮二平五 帥五進一 *\\n')
>>> [(r.index, r.ok, r.plies, r.error and r.error.kind) for r in validate([path])]
[(1, True, 2, None), (2, False, 1, 'illegal-move')]
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import contextlib
import dataclasses
import os
import sys
import time
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union

from xiangqi import formats
from xiangqi import rules as _rules
from xiangqi._cliio import add_rules_options, guard, reason, regular_input, same_file
from xiangqi._progress import Progress
from xiangqi.checking import validate_chunk
from xiangqi.chunks import (DEFAULT_CHUNK_BYTES, Chunk, checked_format, detect_format, expand_paths, format_names,
                            iter_chunks)
from xiangqi.pools import SERIAL_BYTES, dask_executor, run
from xiangqi.report_html import HtmlReport
from xiangqi.reports import (ERROR_KINDS, WARNING_KINDS, ErrorInfo, GameReport, ReportWriter, Summary, json_text,
                             name_text, write_csv, write_jsonl)

__all__ = [
    "ERROR_KINDS", "WARNING_KINDS", "RULE_SETS", "DEFAULT_CHUNK_BYTES",
    "ErrorInfo", "GameReport", "Summary", "Chunk",
    "validate", "validate_chunk", "iter_chunks", "expand_paths", "detect_format",
    "write_jsonl", "write_csv", "ReportWriter", "json_text", "name_text", "dask_executor", "validate_main",
]

#: Rule sets for repetition rulings: Asian (AXF) and Chinese (CXA) (the names of :data:`xiangqi.rulesets.RULE_SETS`).
RULE_SETS = tuple(_rules.RULE_SETS)


# =====================================================================================================================
# Validating files
# =====================================================================================================================

def validate(paths: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]], *,
             rules: str = "axf", jobs: Optional[int] = 1,
             executor: Optional[concurrent.futures.Executor] = None, format: str = "auto",
             chunk_bytes: int = DEFAULT_CHUNK_BYTES) -> Iterator[GameReport]:
    """Check every game of ``paths`` (files, directories, ``.gz``); yield reports in input order.

    ``rules`` is ``"axf"`` (Asian) or ``"cxa"`` (Chinese) for repetition
    rulings; ``jobs`` the most processes that check games when no
    ``executor`` is given: this one and ``jobs - 1`` workers (1: this
    process alone; ``None`` or 0: one per CPU); fewer for small inputs,
    none below :data:`xiangqi.pools.SERIAL_BYTES` (about 40 ms of work, less than starting
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
    rules = _rules.rule_set_name(rules)
    checked_format(format)
    files = expand_paths(paths)
    if jobs is None or jobs <= 0:
        jobs = os.cpu_count() or 1
    return run(files, rules, jobs, executor, format, chunk_bytes)


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
    add_rules_options(p, "repetition rules: axf (Asian, default) or cxa (Chinese)")
    p.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                   help="at most N processes check games: this one and N-1 workers (default 1; 0 = one per "
                        "CPU; with --dask, N Dask workers); small inputs (under "
                        f"{SERIAL_BYTES >> 20} MiB) are checked in this process")
    p.add_argument("--dask", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run on Dask: a local cluster, or the scheduler at ADDRESS (pip install 'pyxiangqi[dask]')")
    p.add_argument("--report", metavar="FILE", help="write one JSON object per game (.jsonl; .csv for CSV; - for "
                   "standard output)")
    p.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report: the summary, a sortable "
                   "table of the games with problems and a board for each (xiangqi.report_html)")
    p.add_argument("--format", default="auto", choices=format_names(), help="record format (default: detect per file)")
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
        if not any(part.startswith(".") for part in parts) and formats.is_game_file(target):
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
                    summary_stream: TextIO, html_report: Optional[HtmlReport],
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
            reports = run(files, _rules.rules_spec(args.rules, red_must_vary=args.red_must_vary), jobs, executor,
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
                if progress.active:
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
