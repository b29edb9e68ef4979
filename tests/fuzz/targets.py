"""Fuzz targets: one entry point each, fed bytes, checking the contract every input must keep.

The contract: the call returns (or raises one of the library's typed errors, where the entry point documents
raising) within the budget of :mod:`budget`; what it returns can be written back out. Anything else (an
``IndexError``, ``RecursionError``, ``UnicodeError``, a hang, memory growth) is a finding.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Callable, Dict, List

import numpy as np

from xiangqi.errors import InternalError, XiangqiError

__all__ = ["TARGETS", "Target"]

Target = Callable[[bytes], None]


def _typed(exc: BaseException) -> bool:
    """A documented failure: a :class:`XiangqiError` other than the core's own bug report."""
    return isinstance(exc, XiangqiError) and not isinstance(exc, InternalError)


def pgn(data: bytes) -> None:
    """pgn.read_games (bytes, any encoding, gzip); every game read writes back out as PGN."""
    from xiangqi.pgn import read_games, write_game

    try:
        for game in read_games(data):
            write_game(game, notation="iccs")
    except Exception as exc:
        if not _typed(exc):  # a bad input may raise a typed error (damaged .gz is data: the last game's error)
            raise


def xqf(data: bytes) -> None:
    """xqf.read_xqf; a game read writes back out as XQF (or says why its position does not fit) and PGN."""
    from xiangqi.pgn import write_game
    from xiangqi.xqf import read_xqf, write_xqf

    try:
        game = read_xqf(data)
    except Exception as exc:
        if not _typed(exc):
            raise
        return
    write_game(game, notation="iccs")
    try:
        write_xqf(game)
    except Exception as exc:
        if not _typed(exc):
            raise


def dhtmlxq(data: bytes) -> None:
    """dhtmlxq.read_games; every game read writes back out as DhtmlXQ and reads back without raising."""
    from xiangqi.dhtmlxq import read_dhtmlxq, read_games, write_dhtmlxq

    try:
        for game in read_games(data):
            read_dhtmlxq(write_dhtmlxq(game))
    except Exception as exc:
        if not _typed(exc):  # damaged gzip data raises InvalidRecordError after the games before it
            raise


_SCRATCH: Dict[str, str] = {}


def validate(data: bytes) -> None:
    """validate.validate on a file holding ``data``: every problem is a report, never an exception."""
    from xiangqi.validate import validate as run

    path = _SCRATCH.get("path")
    if path is None:
        fd, path = tempfile.mkstemp(prefix="xiangqi-fuzz-", suffix=".pgn")
        os.close(fd)
        _SCRATCH["path"] = path
    with open(path, "wb") as fh:
        fh.write(data)
    list(run([path]))


_POSITIONS = ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
              "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
              "3k5/4P4/9/9/9/9/9/9/4p4/5K3 b - - 3 60")


def notation(data: bytes) -> None:
    """notation.parse_move on text from the bytes, in three positions; a move found formats and parses back."""
    from xiangqi.board import Board
    from xiangqi.core import Move
    from xiangqi.notation import format_chinese, format_wxf, parse_move

    text = data.decode("utf-8", "replace")
    for fen in _POSITIONS:
        board = Board(fen)
        for one_based in (False, True):
            try:
                move = parse_move(board, text, one_based=one_based)
            except Exception as exc:
                if not _typed(exc):
                    raise
                continue
            if not move:  # the null move ("0000", "--"): read as python-chess reads it, never a legal move
                assert move == Move.null(), (fen, text, move)
                continue
            assert board.is_legal(move), (fen, text, move)
            assert parse_move(board, format_chinese(board, move)) == move
            assert parse_move(board, format_wxf(board, move)) == move


def fen(data: bytes) -> None:
    """Board(FEN): a position read gives a FEN that reads back to itself."""
    from xiangqi.board import Board

    text = data.decode("utf-8", "replace")
    try:
        board = Board(text)
    except Exception as exc:
        if not _typed(exc):
            raise
        return
    assert Board(board.fen()).fen() == board.fen()


def packed(data: bytes) -> None:
    """Packed batch input: every consumer takes the same records, none raises, a record taken reads back."""
    from xiangqi import batch
    from xiangqi.board import Board

    size = batch.PACKED_SIZE
    n = len(data) // size
    arr = np.frombuffer(data[:n * size], dtype=np.uint8).reshape(n, size).copy()
    ok = batch.validate(arr) == batch.OK
    fens = batch.fens(arr)
    boards = batch.unpack(arr)
    assert [bool(f) for f in fens] == list(ok)
    assert [b is not None for b in boards] == list(ok)
    for fn in (batch.legal_moves, batch.zobrist, batch.attack_maps, batch.planes):
        status = np.empty(n, dtype=np.int8)
        fn(arr, status=status)
        assert list(status == batch.OK) == list(ok), fn.__name__
    _legal_mask_agrees(arr, ok)
    for record, f, good in zip(arr, fens, ok):
        if good:
            assert Board(f).fen() == f
            assert bytes(batch.pack([f])[0]) == bytes(record)


def _legal_mask_agrees(arr: "np.ndarray[Any, Any]", ok: "np.ndarray[Any, Any]") -> None:
    """legal_mask takes the records the others take, except (as documented) a position with a legal move
    that no mask index names (a piece where it can never get in a game)."""
    from xiangqi import batch
    from xiangqi.board import Board

    status = np.empty(len(arr), dtype=np.int8)
    batch.legal_mask(arr, status=status)
    fens = batch.fens(arr)
    for i, good in enumerate(ok):
        if status[i] == batch.OK:
            assert good, i
        elif good:
            board = Board(fens[i])
            unnamed = []
            for move in board.legal_moves:
                try:
                    batch.move_index(move)
                except ValueError:
                    unnamed.append(move)
            assert unnamed, (fens[i], int(status[i]))


def headers(data: bytes) -> None:
    """pgn.read_headers and skip_game on a binary handle (the fast path: C marks of plain games in a kept block)
    give the headers, offsets and skips of the reader's usual path (taken by visitors of another class)."""
    import io

    from xiangqi.pgn import HeadersBuilder, SkipVisitor, read_game, read_headers, skip_game

    class Usual(HeadersBuilder):
        pass

    class UsualSkip(SkipVisitor):
        pass

    def walk(read: Any) -> List[Any]:
        handle, out = io.BytesIO(data), []
        try:
            for _ in range(20_000):
                got = read(handle)
                if got is None or got is False:
                    break
                out.append((dict(got) if got is not True else True, handle.tell()))
        except Exception as exc:
            if not _typed(exc):
                raise
            out.append((type(exc).__name__, str(exc)))
        return out

    assert walk(read_headers) == walk(lambda h: read_game(h, Visitor=Usual))
    assert walk(skip_game) == walk(lambda h: read_game(h, Visitor=UsualSkip))


#: name -> target. The names are the corpus's and the runner's.
TARGETS: Dict[str, Target] = {
    "pgn": pgn, "xqf": xqf, "dhtmlxq": dhtmlxq, "validate": validate, "notation": notation, "fen": fen,
    "packed": packed, "headers": headers,
}


# ---------------------------------------------------------------------------------------------------------------
# Reports, file names, game trees (issue 22): a player's name that blanked the HTML report, a file name that is
# not UTF-8, a game too deep to pickle.
# ---------------------------------------------------------------------------------------------------------------

#: Pieces of text that end or confuse a <script> element, a CDATA section, a comment or an attribute.
HTML_PAYLOADS = ("<!--", "<script>", "</script>", "<!--<script>", "</SCRIPT >", "]]>", "-->", '"', "'", "`", "&",
                 "&lt;", "javascript:", "<img src=x onerror=alert(1)>", "\x00", "\u2028", "\u2029", "\ufeff",
                 "\udcff", "\\", "/", "x", " ", "\n")


def _report_page(payload: str, path: str) -> str:
    """The HTML report of ``payload`` in every field: a game file (its name, players, event, FEN tag and
    tokens) at ``path`` read back for the players, and made-up reports holding it in source, kind, token,
    message and final position."""
    import io

    from xiangqi.report_html import HtmlReport
    from xiangqi.validate import ErrorInfo, GameReport, Summary, validate as run

    tag = payload.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
        fh.write(f'[Red "{tag}"]\n[Black "{tag}"]\n\n1. h2e2 h9g7 2. h2h9 *\n\n[Event "{tag}"]\n[FEN "{tag}"]\n\n*\n\n'
                 f'[Event "{tag}"]\n\n1. h2e2 {payload.replace(chr(10), " ")} *\n')
    summary, report = Summary(), HtmlReport(title=payload, max_boards=1)
    made = [GameReport(payload, 1, 1, False, 0, ErrorInfo(payload, 0, payload, payload), payload, None, payload,
                       payload, (ErrorInfo("rule-violation", 0, payload, f"plies 1-4 {payload}"),))]
    for r in list(run([path])) + made:
        summary.add(r)
        report.add(r)
    out = io.StringIO()
    report.write(out, summary)
    return out.getvalue()


def report(data: bytes) -> None:
    """report_html on text from the bytes in every field: a page any UTF-8 stream takes, whose markup the text
    never adds to (as many '<' as for plain text: the data element holds none), and whose data reads back."""
    import json
    import re

    payload = data[:512].decode("utf-8", "surrogateescape")
    path = _scratch(".pgn")
    page = _report_page(payload, path)
    plain = _report_page("x" * len(payload), path)
    page.encode("utf-8")  # no surrogate left to fail a strict UTF-8 stream
    rows = re.findall(r'<script type="application/json" id="rows">(.*?)</script>', page, re.S)
    assert len(rows) == 1 and not re.search("[<>&\u2028\u2029]", rows[0]), "markup inside the data element"

    def markup(text: str) -> int:   # the '<' of the page but its boards (the positions may differ)
        return re.sub(r'<div id="boards">.*?</div>(?=<script type="application/json")', "", text, flags=re.S).count("<")

    assert markup(page) == markup(plain), "the text added markup"
    error, warning = json.loads(rows[0])[-2:]
    assert error[4] == error[6] == error[7] == payload and warning[6] == payload


def _scratch(suffix: str) -> str:
    path = _SCRATCH.get(suffix)
    if path is None:
        fd, path = tempfile.mkstemp(prefix="xiangqi-fuzz-", suffix=suffix)
        os.close(fd)
        _SCRATCH[suffix] = path
    return path


def filename(data: bytes) -> None:
    """validate and every report on a game file named by the bytes (any bytes but NUL and '/', as POSIX allows):
    the JSONL report keeps the name exactly, the CSV and HTML reports are strict UTF-8, no game is lost."""
    import io
    import json
    import shutil

    from xiangqi.report_html import HtmlReport
    from xiangqi.validate import ReportWriter, Summary, validate as run

    name = data.replace(b"/", b"_").replace(b"\x00", b"_")[:200].lstrip(b".") or b"x"
    folder = tempfile.mkdtemp(prefix="xiangqi-fuzz-")
    try:
        path = os.path.join(folder, os.fsdecode(name + b".pgn"))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write('[Red "A"]\n\n1. h2e2 h9g7 2. h2h9 *\n\n1. h2e2 *\n')
        reports = list(run([folder]))
        assert [(r.source, r.index) for r in reports] == [(path, 1), (path, 2)]
        for fmt in ("jsonl", "csv"):
            out = io.StringIO()
            writer = ReportWriter(out, fmt)
            for r in reports:
                writer.write(r)
            text = out.getvalue()
            text.encode("utf-8")
            if fmt == "jsonl":
                assert [os.fsencode(json.loads(line)["source"]) for line in text.splitlines()] == [os.fsencode(path)] * 2
        summary, html_report = Summary(), HtmlReport()
        for r in reports:
            summary.add(r)
            html_report.add(r)
        page = io.StringIO()
        html_report.write(page, summary)
        page.getvalue().encode("utf-8")
        assert "A – ?" in page.getvalue()   # the problem game's players, read from the file under its name
    finally:
        shutil.rmtree(folder)


def pickled(data: bytes) -> None:
    """Every game read from the bytes (PGN) pickles and deep-copies, whatever its depth, to an equal tree."""
    import copy
    import pickle

    from xiangqi.pgn import read_games, write_game

    try:
        games = list(read_games(data))
    except Exception as exc:
        if not _typed(exc):
            raise
        return
    # The property is about a game's depth, not how many games a file holds: the first few are pickled (each costs
    # three writes, a pickle and a deep copy, so a file of hundreds of tiny games ran past the reading budget, which
    # the PGN targets hold the reading itself to).
    for game in games[:8]:
        game.variations  # nodes, not a main line kept as move codes
        text = write_game(game, notation="iccs")
        for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
            assert write_game(twin, notation="iccs") == text
            assert [str(e) for e in twin.errors] == [str(e) for e in game.errors]


TARGETS.update({"report": report, "filename": filename, "pickle": pickled})
