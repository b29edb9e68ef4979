"""Bulk validation: report records, the shared corpus, corrupted copies, chunking, executors, the CLI."""

from __future__ import annotations

import concurrent.futures
import csv
import dataclasses
import gzip
import io
import json
import os
import random
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from xiangqi import Board, pgn
from xiangqi import checking as K
from xiangqi import chunks as C
from xiangqi import pools as P
from xiangqi import validate as V
from xiangqi.validate import ErrorInfo, GameReport

SHARED = Path(__file__).resolve().parents[2] / "shared"
GAMES = SHARED / "data" / "games"
SAMPLE = Path(__file__).resolve().parent / "data" / "sample"

REPORT_KEYS = ["source", "index", "line", "ok", "plies", "error", "result_recorded", "result_computed",
               "termination", "final_fen", "warnings"]


def games_file(name: str) -> Path:
    p = GAMES / name
    if not p.exists():
        pytest.skip(f"shared data not available: {p}")
    return p


def run(paths: object, **kw: object) -> List[GameReport]:
    return list(V.validate(paths, **kw))  # type: ignore[arg-type]


def split_games(text: str) -> List[str]:
    """The games of a CCPD-layout file (blank line, then ``[Game``)."""
    return re.split(r"\n\n(?=\[Game )", text.strip("\n"))


def lines_of(reports: List[GameReport]) -> List[str]:
    return [r.to_json() for r in reports]


# ---------------------------------------------------------------------------------------------------------------------
# Records and writers
# ---------------------------------------------------------------------------------------------------------------------

def test_report_json_has_the_documented_fields_in_order() -> None:
    r = GameReport("a.pgn", 3, 41, False, 17, ErrorInfo("illegal-move", 17, "士４進５", "Illegal."), "1-0", None,
                   None, "fen", (ErrorInfo("rule-violation", 9, None, "Perpetual check."),))
    d = json.loads(r.to_json())
    assert list(d) == REPORT_KEYS
    assert d["error"] == {"kind": "illegal-move", "ply": 17, "token": "士４進５", "message": "Illegal."}
    assert d["warnings"] == [{"kind": "rule-violation", "ply": 9, "token": None, "message": "Perpetual check."}]
    assert "士４進５" in r.to_json()  # UTF-8 kept, not \\u escapes


def test_error_kinds_are_the_documented_ones() -> None:
    assert V.ERROR_KINDS == ("invalid-fen", "invalid-notation", "illegal-move", "ambiguous-move",
                             "result-mismatch", "truncated", "parse-error", "rule-violation")


def test_csv_writer() -> None:
    reports = run(SAMPLE / "ccpd-known-bad-3.chinese.pgn")
    buf = io.StringIO()
    assert V.write_csv(reports, buf) == 3
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert [r["error_kind"] for r in rows] == ["invalid-fen", "illegal-move", "invalid-fen"]
    assert rows[1]["error_ply"] == "17" and rows[1]["error_token"] == "士４進５" and rows[1]["ok"] == "false"
    assert rows[0]["error_ply"] == "0"


def test_report_json_of_a_valid_game_is_the_json_of_its_fields() -> None:
    """A report without error or warning is written field by field: the same line as json_text of its dict, with
    text that JSON escapes in every string field (quotes, backslashes, U+2028, a name's undecodable bytes)."""
    odd = 'a"b\\c' + chr(0x2028) + b"\xff".decode("utf-8", "surrogateescape") + "棋"
    reports = [GameReport("a.pgn", 1, 1, True, 2, None, "1-0", "1-0", "CHECKMATE", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
               GameReport(odd, 2, None, True, 0, None, odd, None, None, None),
               GameReport("b.pgn", 3, 7, True, 1, None, None, None, None, odd),
               GameReport("c.pgn", 4, 9, True, 1, None, odd * 40, "1-0", None, None)]   # a string not kept
    for r in reports + run(SAMPLE):
        assert r.to_json() == V.json_text(r.to_dict())
    assert json.loads(reports[1].to_json())["source"] == odd and json.loads(reports[2].to_json())["final_fen"] == odd


def test_jsonl_writer_round_trip() -> None:
    reports = run(SAMPLE / "ccpd-known-bad-3.chinese.pgn")
    buf = io.StringIO()
    V.write_jsonl(reports, buf)
    assert [json.loads(line) for line in buf.getvalue().splitlines()] == [r.to_dict() for r in reports]


# ---------------------------------------------------------------------------------------------------------------------
# The sample collection that ships with the tests
# ---------------------------------------------------------------------------------------------------------------------

def test_sample_collection() -> None:
    reports = run(SAMPLE)
    summary = V.Summary()
    for r in reports:
        summary.add(r)
    assert (summary.files, summary.games, summary.valid) == (5, 44, 38)
    assert {k: v for k, v in summary.errors.items() if v} == {
        "invalid-fen": 2, "invalid-notation": 1, "illegal-move": 1, "result-mismatch": 1, "truncated": 1}
    damaged = [r for r in reports if r.source.endswith("damaged.chinese.pgn")]
    assert [(r.index, r.ok, r.error and r.error.kind, r.error and r.error.ply) for r in damaged] == [
        (1, True, None, None), (2, False, "invalid-notation", 10), (3, False, "result-mismatch", None),
        (4, False, "truncated", 41)]
    assert damaged[1].error is not None and damaged[1].error.token == "車二進十"
    assert damaged[2].result_computed == "0-1" and damaged[2].termination == "CHECKMATE"
    assert damaged[3].plies == 41 and damaged[3].error is not None and damaged[3].error.token == "車２"
    # The game ending in mate is recognised, and its result agrees.
    master = [r for r in reports if "master-24" in r.source]
    assert [(r.index, r.termination, r.result_computed) for r in master if r.termination] == [
        (23, "CHECKMATE", "0-1")]
    gz = [r for r in reports if r.source.endswith(".gz")]
    assert len(gz) == 10 and all(r.ok and r.result_recorded is None for r in gz)
    dh = [r for r in reports if "dhtmlxq" in r.source]
    assert [(r.line, r.plies) for r in dh] == [(1, 127), (2, 76), (3, 104)]


def test_sample_lines_point_at_the_games() -> None:
    path = SAMPLE / "ccpd-master-24.chinese.pgn"
    lines = path.read_text(encoding="utf-8").split("\n")
    for r in run(path):
        assert r.line is not None and lines[r.line - 1].startswith("[Game ")


# ---------------------------------------------------------------------------------------------------------------------
# The shared corpus
# ---------------------------------------------------------------------------------------------------------------------

def read_index(name: str) -> List[Dict[str, str]]:
    rows = games_file(name).read_text(encoding="utf-8").splitlines()
    head = rows[0].split("\t")
    return [dict(zip(head, row.split("\t"))) for row in rows[1:]]


@pytest.mark.parametrize("stem", ["ccpd-master-3000", "ccpd-positions-300"])
def test_ccpd_games_are_valid_and_agree_with_the_index(stem: str) -> None:
    index = read_index(f"{stem}.index.tsv")
    for notation in ("chinese", "iccs"):
        reports = run(games_file(f"{stem}.{notation}.pgn"))
        assert len(reports) == len(index)
        bad = [r for r in reports if not r.ok]
        assert bad == []
        for r, row in zip(reports, index):
            assert r.plies == int(row["plies"]), r
            # pyffish counts full moves from 1 whatever the FEN tag says; the rest must agree.
            assert r.final_fen is not None
            got, want = r.final_fen.split(), row["final_fen"].split()
            assert got[:5] == want[:5], r
            assert r.result_recorded == row["result"]
            if row["terminal"] == "no-legal-moves":
                assert r.termination in ("CHECKMATE", "STALEMATE") and r.result_computed == row["result"], r
            else:
                assert r.termination not in ("CHECKMATE", "STALEMATE")
    terminal = [row for row in index if row["terminal"]]
    assert stem != "ccpd-master-3000" or len(terminal) == 34


def test_known_bad_records_are_reported_with_kind_and_ply() -> None:
    path = games_file("ccpd-known-bad-12.chinese.pgn")
    expected = {row["ccpd_path"]: row for row in read_index("ccpd-known-bad-12.tsv")}
    paths = [raw.headers["CCPDPath"] for raw in pgn.scan_games(path)]
    reports = run(path)
    assert len(reports) == 12
    for r, p in zip(reports, paths):
        row = expected[p]
        assert not r.ok and r.error is not None
        kind = "invalid-fen" if "FEN tag" in row["reason"] else "illegal-move"
        assert (r.error.kind, r.error.ply) == (kind, int(row["failing_ply_0based"])), (p, r)
        assert r.plies == int(row["failing_ply_0based"])
        if kind == "illegal-move":
            assert r.error.token == row["failing_token"]
            assert row["failing_token"] in r.error.message
        else:
            assert r.error.token == row["fen_tag"] and r.final_fen is None
            assert "king" in r.error.message


@pytest.mark.parametrize("name", ["wukong-liu-dahua-1125.iccs.pgn", "wukong-hu-ronghua-1391.iccs.pgn"])
def test_wukong_games_are_valid(name: str) -> None:
    reports = run(games_file(name))
    n = int(re.search(r"-(\d+)\.iccs", name).group(1))  # type: ignore[union-attr]
    assert len(reports) == n and all(r.ok for r in reports)
    assert all(r.result_recorded is None for r in reports)


def test_xqf_files_against_expected() -> None:
    folder = games_file("xqf")
    rows = {row["file"]: row for row in read_index("xqf/expected.tsv")}
    reports = {Path(r.source).name: r for r in run(folder, format="auto")}
    for name, row in rows.items():
        r = reports[name]
        illegal = row["first_illegal_mainline_move(index:iccs)"]
        if illegal:
            ply, token = illegal.split(":")
            assert not r.ok and r.error is not None and (r.error.kind, r.error.ply) == ("illegal-move", int(ply))
            assert r.plies == int(ply)
        else:
            assert r.ok, r
            assert r.plies == int(row["mainline_plies"]), r
        assert r.line is None
    assert reports["xqbase-SAMPLE.gb18030.pgn"].ok  # GB18030 text read right


def test_dhtmlxq_against_expected() -> None:
    path = games_file("dhtmlxq/wxf-ca-15.dhtmlxq.txt")
    rows = read_index("dhtmlxq/wxf-ca-15.expected.tsv")
    reports = run(path)
    assert [r.plies for r in reports] == [int(row["plies"]) for row in rows]
    assert all(r.ok for r in reports)
    results = {"W": "1-0", "L": "0-1", "D": "1/2-1/2"}
    assert [r.result_recorded for r in reports] == [results[row["DhtmlXQ_result"]] for row in rows]


# ---------------------------------------------------------------------------------------------------------------------
# The fast PGN scanner agrees with the PGN reader
# ---------------------------------------------------------------------------------------------------------------------

def reader_only(monkeypatch: pytest.MonkeyPatch, paths: object, **kw: object) -> List[GameReport]:
    """The reports with the C replay of move text off (``pgn.C_REPLAY``): every game read by the PGN reader's
    tokenizer and its moves decoded by the notation module, the path the fast one must agree with."""
    with monkeypatch.context() as m:
        m.setattr(pgn, "C_REPLAY", False)
        return run(paths, **kw)


@pytest.mark.parametrize("name", ["ccpd-master-3000.chinese.pgn", "ccpd-positions-300.iccs.pgn",
                                  "ccpd-known-bad-12.chinese.pgn", "wukong-hu-ronghua-1391.iccs.pgn",
                                  "xqf/xqbase-SAMPLE.gb18030.pgn"])
def test_fast_scanner_equals_pgn_reader(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    path = games_file(name)
    assert lines_of(run(path)) == lines_of(reader_only(monkeypatch, path))


def test_fast_scanner_equals_pgn_reader_on_odd_text(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = (
        '[Event "a; {b}"]\n[Result "*"]\n\n1. 炮二平五 馬８進７ 2. h0g2 {comment\n\n[Event "inside"]\n} *\n\n'
        '[Event "two"]\n[Site "x"]\n\n[Round "1"]\n\n1. C2.5 h9g7 2. h0g2!? (2. b0c2) i9h9 $1 *\n\n'
        '[Event "three"]\n\n1.h2e2 h9g7 2... i9h9 1-0\n1. h2e2 0-1\n\n'
        '[Event "no moves"]\n\n\n[Event "four"]\n; a line comment\n1. h2e2 h9g7\n% escape\n2. h0g2 *\n'
        '[Event "five"]\n1. h2e2 h9g7 *\n\n\n[Event "six"]\n\n1. 前車進一 *\n'
    )
    path = tmp_path / "odd.pgn"
    path.write_text(text, encoding="utf-8")
    fast = run(path)
    assert lines_of(fast) == lines_of(reader_only(monkeypatch, path))
    assert len(fast) == len(list(pgn.scan_games(path)))
    plain = tmp_path / "plain.pgn"
    plain.write_text(text.replace("{comment\n\n[Event \"inside\"]\n}", "").replace(";", ""), encoding="utf-8")
    assert lines_of(run(plain)) == lines_of(reader_only(monkeypatch, plain))


# ---------------------------------------------------------------------------------------------------------------------
# Chunking and executors
# ---------------------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def master_subset(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, List[str], List[GameReport]]:
    """300 master games (CCPD layout) in a temporary file, with their clean reports."""
    text = games_file("ccpd-master-3000.chinese.pgn").read_text(encoding="utf-8")
    games = split_games(text)[:300]
    path = tmp_path_factory.mktemp("subset") / "master-300.chinese.pgn"
    path.write_text("\n\n".join(games) + "\n", encoding="utf-8")
    reports = run(path)
    assert len(reports) == 300 and all(r.ok for r in reports)
    return path, games, reports


def test_chunk_size_does_not_change_reports(master_subset: Tuple[Path, List[str], List[GameReport]]) -> None:
    path, _, reports = master_subset
    chunks = list(V.iter_chunks([str(path)], chunk_bytes=4096))
    assert len(chunks) > 20 and all(c.data.lstrip().startswith(b"[Game ") for c in chunks)
    assert b"".join(c.data for c in chunks) == path.read_bytes()
    assert lines_of(run(path, chunk_bytes=4096)) == lines_of(reports)
    assert lines_of(run(path, chunk_bytes=1 << 30)) == lines_of(reports)


@pytest.mark.parametrize("enc", ["utf-8", "gb18030", "big5"])
def test_chunk_strict_mark_is_the_chunk_decoding(tmp_path: Path, enc: str) -> None:
    """A chunk marked ``strict`` (every block it comes from decoded strictly) decodes strictly, and its checker's
    lines (decoded only when asked for) are those of its bytes decoded as a chunk without the mark decodes them:
    in blocks decoded whole and in blocks decoded a line at a time (damaged bytes), a chunk cut near a block's end
    or (after a long game) near its start, with CR LF lines and lines cut at the line limit."""
    games = []
    for i in range(3000):
        moves = "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８" if i % 3 else "1. h2e2 h9g7"
        end = "\r\n" if i % 11 == 5 else "\n"
        # Two games with a comment of 12,000 lines: a block whose last game start comes early.
        comment = " {" + "\n長長".join([""] * 12000) + "}" if i in (700, 1500) else ""
        games.append(f'[Event "第{i}局"]{end}[Result "*"]{end}{end}{moves}{comment} *{end}')
    data = "\n".join(games).encode(enc)
    damaged = data[:40000] + b"\xff\xfe broken\n" + data[40000:]   # a line no codec decodes strictly
    long_line = data[:90000] + b"%" + b"x" * (pgn.MAX_LINE_BYTES + 10) + b"\n" + data[90000:]
    for name, content in (("plain", data), ("damaged", damaged), ("long", long_line)):
        path = tmp_path / f"{name}.{enc}.pgn"
        path.write_bytes(content)
        for chunk_bytes in (1024, 20000, 1 << 30):
            chunks = list(C.iter_chunks([str(path)], chunk_bytes=chunk_bytes))
            assert len(chunks) > (3 if chunk_bytes < 1 << 20 else 0)
            marked = [chunk.strict for chunk in chunks]
            if name != "long":   # (a line cut at the limit is recorded apart: its block may decode strictly)
                assert all(marked) if name == "plain" else not all(marked), (name, chunk_bytes)
            for chunk in chunks:
                lines = [block.lines for block in C.chunk_lines(chunk).blocks()]
                unmarked = dataclasses.replace(chunk, strict=False)
                assert lines == [block.lines for block in C.chunk_lines(unmarked).blocks()], (name, chunk_bytes)
                if chunk.strict:
                    assert "\ufeff" not in chunk.data.decode(enc)
        assert lines_of(run(path, chunk_bytes=1024)) == lines_of(run(path, chunk_bytes=1 << 30))


def test_chunks_never_cut_inside_a_comment(tmp_path: Path) -> None:
    game = '[Event "g{n}"]\n[Result "*"]\n\n1. h2e2 h9g7 {a comment\n\n[Event "not a game"]\n\n} 2. h0g2 *\n\n'
    path = tmp_path / "comments.pgn"
    path.write_text("".join(game.replace("{n}", str(i)) for i in range(200)), encoding="utf-8")
    reports = run(path, chunk_bytes=1024)
    assert len(reports) == 200 and all(r.ok and r.plies == 3 for r in reports)
    assert [r.line for r in reports] == [1 + 9 * i for i in range(200)]


#: The own pool's settings as validate uses them, and with the bar lowered so that a pool runs for small inputs.
DEFAULT_POOL = P.PoolSettings()
ALWAYS_POOL = dataclasses.replace(DEFAULT_POOL, serial_bytes=0, bytes_per_worker=1)


def pooled(paths: List[Any], jobs: int, settings: P.PoolSettings, chunk_bytes: int = 8192) -> List[str]:
    """The reports of ``paths`` as validate makes them, its own pool run with ``settings`` (pools.run's hook)."""
    return lines_of(list(P.run(V.expand_paths(paths), "axf", jobs, None, "auto", chunk_bytes, settings)))


def test_process_pool_matches_one_process(master_subset: Tuple[Path, List[str], List[GameReport]]) -> None:
    path, _, reports = master_subset
    expected = lines_of(run([path, SAMPLE], chunk_bytes=8192))
    assert expected[:300] == lines_of(reports)
    # The input is small enough to be checked in this process: lower the bar so that a pool runs.
    started: List[int] = []
    settings = dataclasses.replace(ALWAYS_POOL, start_pool=lambda n: started.append(n) or DEFAULT_POOL.start_pool(n))
    assert pooled([path, SAMPLE], 2, settings) == expected
    assert started == [1]  # two jobs: this process and one worker
    # Both check games: the worker the chunks submitted to it, this process the others.
    checked_here: List[str] = []
    check = V.validate_chunk

    def recording(chunk: V.Chunk, rules: str = "axf") -> List[GameReport]:
        checked_here.append(chunk.source)
        return check(chunk, rules)

    assert pooled([path, SAMPLE], 3, dataclasses.replace(settings, check_here=recording)) == expected
    assert started == [1, 2]
    chunks = len(list(V.iter_chunks([str(path)] + V.expand_paths([SAMPLE]), chunk_bytes=8192)))
    assert 0 < len(checked_here) < chunks


@pytest.mark.parametrize("lookahead", [1, 3, 200])
def test_process_pool_reads_ahead_and_starts_the_costliest_first(
        master_subset: Tuple[Path, List[str], List[GameReport]], lookahead: int) -> None:
    # The pool's scheduler reads chunks ahead, submits the costliest first and yields in input order:
    # more chunks than it reads ahead (here about 80 of 8 KB, or fewer), and a DhtmlXQ file (whole-file cost) last.
    path, _, _ = master_subset
    inputs = [path, SAMPLE / "wxf-ca-3.dhtmlxq.txt", SAMPLE / "ccpd-known-bad-3.chinese.pgn"]
    expected = lines_of(run(inputs, chunk_bytes=8192))
    submitted: List[str] = []

    def recording(n: int) -> concurrent.futures.Executor:
        ex = DEFAULT_POOL.start_pool(n)
        submit = ex.submit

        def record(fn: Any, chunk: V.Chunk, *args: Any) -> Any:
            submitted.append(Path(chunk.source).name)
            return submit(fn, chunk, *args)

        ex.submit = record  # type: ignore[method-assign,assignment]
        return ex

    # With two jobs this process checks chunks too (the next in input order, whenever the worker has enough).
    checked_here: List[str] = []
    check = V.validate_chunk

    def checking(chunk: V.Chunk, rules: str = "axf") -> List[GameReport]:
        checked_here.append(Path(chunk.source).name)
        return check(chunk, rules)

    settings = dataclasses.replace(ALWAYS_POOL, lookahead_chunks=lookahead, start_pool=recording, check_here=checking)
    assert pooled(list(inputs), 2, settings) == expected
    chunks = list(V.iter_chunks([str(p) for p in inputs], chunk_bytes=8192))
    assert len(submitted) + len(checked_here) == len(chunks) > 64
    # How they share depends on timing (the worker is busy for long on the DhtmlXQ file): both take part.
    assert submitted and (checked_here or lookahead == 1)  # one chunk read ahead at a time: the worker takes each
    if lookahead == 200:
        assert submitted.index("wxf-ca-3.dhtmlxq.txt") == 0  # within sight from the start: it goes first
    elif lookahead == 1:
        # Nothing to choose from: the pool gets the chunks in input order, and so does this process.
        names = [Path(c.source).name for c in chunks]
        assert sorted(submitted + checked_here, key=names.index) == names
        assert submitted == [n for n in names if n in submitted]


def test_span_workers_read_the_file_themselves_or_the_parent_checks_the_chunk(
        master_subset: Tuple[Path, List[str], List[GameReport]]) -> None:
    path, _, _ = master_subset
    inputs = [str(path), str(SAMPLE / "wukong-liu-dahua-10.iccs.pgn.gz"), str(SAMPLE / "wxf-ca-3.dhtmlxq.txt")]
    spans = list(C.spans(inputs, "auto", 8192))
    assert all(o is not None for c, o in spans if c.source == inputs[0])
    assert all(o is None for c, o in spans if c.source == inputs[1])  # gunzipped: the parent's bytes go
    for chunk, offset in spans:
        if offset is not None:
            assert Path(chunk.source).read_bytes()[offset:offset + len(chunk.data)] == chunk.data
    expected = [[r.to_json() for r in V.validate_chunk(c)] for c, _ in spans]
    bare = dataclasses.replace(spans[1][0], data=b"")
    got = DEFAULT_POOL.span_task(bare, spans[1][1], len(spans[1][0].data), "axf")  # type: ignore[arg-type]
    assert got is not None and [P._unpack(t).to_json() for t in got] == expected[1]
    assert DEFAULT_POOL.span_task(bare, 10 ** 9, 100, "axf") is None  # not the same length: None
    for span_task in (DEFAULT_POOL.span_task, lambda *a: None):  # the worker reads it, or fails to
        settings = dataclasses.replace(DEFAULT_POOL, span_bytes=0, span_task=span_task)
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            out = [r.to_json() for r in P._scheduled(iter(spans), ex, "axf", 2, lambda c, r: r, settings=settings)]
        assert out == [line for lines in expected for line in lines]


def test_packed_reports_rebuild_equal() -> None:
    # The process pool sends reports back as tuples (_pack) and the parent rebuilds them (_unpack).
    reports = [
        GameReport("a.pgn", 3, 41, False, 17, ErrorInfo("illegal-move", 17, "士４進５", "Illegal."), "1-0", None,
                   None, "fen", (ErrorInfo("rule-violation", 9, None, "Perpetual check."),
                                 ErrorInfo("rule-violation", 12, "x", "Perpetual chase."))),
        GameReport("b.xqf", 1, None, True, 0, None, None, "1-0", "CHECKMATE", "fen2"),
    ]
    for r in reports:
        back = P._unpack(P._pack(r))
        assert back == r and back.to_json() == r.to_json() and hash(back) == hash(r)
        assert type(back.warnings) is tuple and all(type(w) is ErrorInfo for w in back.warnings)
    assert P._unpack(P._pack(reports[0])).error == reports[0].error


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_workers_end_with_their_parent(tmp_path: Path) -> None:
    # A parent killed alone (kill PID, the OOM killer) left its workers blocked for ever on a pipe nobody reads.
    script = (
        "import os, signal, time\n"
        "from xiangqi import pools as P\n"
        "pool = P._process_pool(1)\n"
        "pool.submit(time.sleep, 60)\n"
        "time.sleep(0.5)\n"
        "print(*[p.pid for p in pool._processes.values()], flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    (worker,) = map(int, out.stdout.split())

    def running() -> bool:
        try:
            with open(f"/proc/{worker}/stat") as fh:
                return fh.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended, not yet reaped
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 10
    while running() and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = running()
    if alive:
        os.kill(worker, 9)
    assert not alive, "the worker outlived its parent"


_CHECK_PACKED = DEFAULT_POOL.worker_task


def _dies_past_line_3000(chunk: V.Chunk, rules: str) -> List[Any]:
    """A pool task (module level: the pool pickles it by name) whose worker dies on the first file's later chunks."""
    if chunk.file_number == 0 and chunk.line_offset > 3000:
        os._exit(9)  # as a SIGKILL would: no reply, the pool is broken
    return _CHECK_PACKED(chunk, rules)


def test_a_worker_that_dies_loses_no_game(master_subset: Tuple[Path, List[str], List[GameReport]]) -> None:
    # A worker killed mid-run (kill -9, the OOM killer) broke the pool: a BrokenProcessPool traceback, and the
    # games after it unreported. This process checks the chunks the pool lost or can no longer take.
    path, _, _ = master_subset
    expected = lines_of(run([path, SAMPLE], chunk_bytes=8192))
    # Every chunk goes as bytes, through the worker task.
    settings = dataclasses.replace(ALWAYS_POOL, span_bytes=1 << 30, worker_task=_dies_past_line_3000)
    assert pooled([path, SAMPLE], 3, settings) == expected


def test_a_chunk_whose_run_fails_on_the_executor_runs_once_more() -> None:
    # A Dask worker killed at the wrong moment can fail a future with an error of Dask's own (a ValueError
    # from its cfexecutor) although the task would be retried: the chunk is submitted again, nothing is lost.
    failed: List[int] = []

    class Flaky(concurrent.futures.ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> "concurrent.futures.Future[Any]":
            if len(failed) < 3 and fn is V.validate_chunk and args[0].line_offset > 0:
                failed.append(args[0].line_offset)
                broken: "concurrent.futures.Future[Any]" = concurrent.futures.Future()
                broken.set_exception(ValueError("not enough values to unpack (expected 3, got 0)"))
                return broken
            return super().submit(fn, *args, **kwargs)

    path = games_file("ccpd-master-3000.chinese.pgn")
    expected = lines_of(V.validate(path, chunk_bytes=8192))
    with Flaky(max_workers=2) as ex:
        assert lines_of(V.validate(path, executor=ex, chunk_bytes=8192)) == expected
    assert len(failed) == 3


def test_process_pool_keeps_a_slow_chunk_from_idling_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    # Many chunks in flight per worker: a slow chunk at the head must not hold back the next ones' submission.
    submitted: List[int] = []

    class Recording(concurrent.futures.ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> "concurrent.futures.Future[Any]":
            submitted.append(len(submitted))
            return super().submit(fn, *args, **kwargs)

    path = games_file("ccpd-master-3000.chinese.pgn")
    with Recording(max_workers=2) as ex:
        it = V.validate(path, executor=ex, chunk_bytes=8192)
        next(it)
        assert len(submitted) >= 16
        rest = list(it)
    assert len(rest) == 2999


def test_jobs_is_an_upper_bound(tmp_path: Path) -> None:
    # Starting workers costs more than a small input's work: --jobs 2 used to start a pool for any input.
    small = [str(SAMPLE / "ccpd-master-24.chinese.pgn")]
    assert P._workers(small, 8) == 1 and P._workers(small, 1) == 1
    big = tmp_path / "big.pgn"
    big.write_bytes(b" " * (5 * 1024 * 1024))
    assert P._workers([str(big)], 8) == 5 and P._workers([str(big)], 2) == 2 and P._workers([str(big)], 1) == 1
    gz = tmp_path / "big.pgn.gz"
    gz.write_bytes(b" " * (1024 * 1024))
    assert P._workers([str(gz)], 8) == 4  # compressed input counts as what it expands to (about 4x)
    started: List[int] = []

    def no_pool(n: int) -> concurrent.futures.Executor:
        started.append(n)
        raise AssertionError("a pool started for a small input")

    assert pooled(small, 2, dataclasses.replace(DEFAULT_POOL, start_pool=no_pool), V.DEFAULT_CHUNK_BYTES) == \
        lines_of(run(small))
    assert started == []


def test_process_pool_forks_on_linux() -> None:
    import sys

    pool = P._process_pool(2)
    try:
        method = pool._mp_context.get_start_method()  # type: ignore[attr-defined]
        if sys.platform.startswith("linux"):
            assert method == "fork"  # about 0.1 s less than forkserver (Python 3.14's default) per run
    finally:
        pool.shutdown()


def test_any_executor(master_subset: Tuple[Path, List[str], List[GameReport]]) -> None:
    path, _, reports = master_subset
    with concurrent.futures.ThreadPoolExecutor(3) as ex:
        assert lines_of(run(path, executor=ex, chunk_bytes=8192)) == lines_of(reports)


def test_bad_arguments() -> None:
    with pytest.raises(FileNotFoundError):
        V.validate("/no/such/file.pgn")
    with pytest.raises(ValueError, match="rule set"):
        V.validate(SAMPLE, rules="fide")
    with pytest.raises(ValueError, match="format"):
        V.validate(SAMPLE, format="sgf")


# ---------------------------------------------------------------------------------------------------------------------
# Corrupted copies: found at the exact ply, nothing else lost
# ---------------------------------------------------------------------------------------------------------------------

def movetext_tokens(game: str) -> List[Tuple[int, int, str]]:
    """(start, end, text) of each move token of a CCPD game (offsets within the game text)."""
    body = game.index("\n\n") + 2
    out = []
    for m in re.finditer(r"\S+", game[body:]):
        tok = m.group()
        if re.fullmatch(r"\d+\.", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        out.append((body + m.start(), body + m.end(), tok))
    return out


def write_games(path: Path, games: List[str]) -> None:
    path.write_text("\n\n".join(games) + "\n", encoding="utf-8")


def assert_others_unchanged(got: List[GameReport], clean: List[GameReport], changed: int,
                            path: Path) -> None:
    assert len(got) == len(clean)
    for k, (a, b) in enumerate(zip(got, clean)):
        if k != changed:
            assert a.to_dict() | {"source": ""} == b.to_dict() | {"source": ""}, (k, a)
            assert a.source == str(path)


def board_before(game: str, ply: int) -> Board:
    raw = next(pgn.scan_games(io.StringIO(game)))
    board = Board(raw.headers["FEN"])
    for tok in raw.moves[:ply]:
        board.push_move(tok)
    return board


@pytest.mark.parametrize("seed", range(6))
def test_illegal_move_at_a_random_ply(master_subset: Tuple[Path, List[str], List[GameReport]], tmp_path: Path,
                                      seed: int) -> None:
    _, games, clean = master_subset
    rnd = random.Random(seed)
    g = rnd.randrange(len(games))
    toks = movetext_tokens(games[g])
    ply = rnd.randrange(len(toks))
    board = board_before(games[g], ply)
    # A well-formed move of the side to move that is not legal: the king three steps forward.
    bad = "帥五進三" if board.turn else "將５進３"
    s, e, _ = toks[ply]
    games2 = list(games)
    games2[g] = games[g][:s] + bad + games[g][e:]
    path = tmp_path / "bad.pgn"
    write_games(path, games2)
    got = run(path)
    r = got[g]
    assert not r.ok and r.error is not None
    assert (r.error.kind, r.error.ply, r.error.token, r.plies) == ("illegal-move", ply, bad, ply)
    assert r.final_fen == board.fen()
    assert_others_unchanged(got, clean, g, path)


@pytest.mark.parametrize("seed", range(4))
def test_garbled_token(master_subset: Tuple[Path, List[str], List[GameReport]], tmp_path: Path, seed: int) -> None:
    _, games, clean = master_subset
    rnd = random.Random(100 + seed)
    g = rnd.randrange(len(games))
    toks = movetext_tokens(games[g])
    ply = rnd.randrange(len(toks))
    s, e, tok = toks[ply]
    garbled = tok[:2] + "X" + tok[3:]
    games2 = list(games)
    games2[g] = games[g][:s] + garbled + games[g][e:]
    path = tmp_path / "garbled.pgn"
    write_games(path, games2)
    got = run(path)
    r = got[g]
    assert r.error is not None and (r.error.kind, r.error.ply, r.error.token) == ("invalid-notation", ply, garbled)
    assert r.plies == ply
    assert_others_unchanged(got, clean, g, path)


def test_fen_without_a_king(master_subset: Tuple[Path, List[str], List[GameReport]], tmp_path: Path) -> None:
    _, games, clean = master_subset
    g = 137
    games2 = list(games)
    games2[g] = games[g].replace('[FEN "rnbakabnr/', '[FEN "rnba1abnr/', 1)
    assert games2[g] != games[g]
    path = tmp_path / "noking.pgn"
    write_games(path, games2)
    got = run(path)
    r = got[g]
    assert r.error is not None and (r.error.kind, r.error.ply, r.plies, r.final_fen) == ("invalid-fen", 0, 0, None)
    assert "no black king" in r.error.message
    assert_others_unchanged(got, clean, g, path)


def test_impossible_start_position(tmp_path: Path) -> None:
    path = tmp_path / "soft.pgn"
    # Kings facing each other on an open file; a red pawn on its own back rank.
    path.write_text('[FEN "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]\n\n1. e0e1 *\n\n'
                    '[FEN "3k5/9/9/9/9/9/9/9/9/P3K4 w - - 0 1"]\n\n1. e0e1 *\n', encoding="utf-8")
    a, b = run(path)
    assert a.error is not None and a.error.kind == "invalid-fen" and "kings facing" in a.error.message
    assert b.error is not None and b.error.kind == "invalid-fen" and "pawn" in b.error.message


def test_result_flipped_on_a_mated_game(master_subset: Tuple[Path, List[str], List[GameReport]],
                                        tmp_path: Path) -> None:
    _, games, clean = master_subset
    g = 22  # game 23 ends with Red checkmated: 0-1
    assert clean[g].termination == "CHECKMATE" and clean[g].result_computed == "0-1"
    games2 = list(games)
    games2[g] = games[g].replace('[Result "0-1"]', '[Result "1-0"]').rstrip()[:-3] + "1-0"
    path = tmp_path / "flipped.pgn"
    write_games(path, games2)
    got = run(path)
    r = got[g]
    assert r.error is not None and (r.error.kind, r.error.ply) == ("result-mismatch", None)
    assert (r.result_recorded, r.result_computed, r.termination, r.plies) == ("1-0", "0-1", "CHECKMATE", 82)
    assert_others_unchanged(got, clean, g, path)
    # Only the tag flipped: the tag disagrees with the board and with the move text.
    games2[g] = games[g].replace('[Result "0-1"]', '[Result "1/2-1/2"]')
    write_games(path, games2)
    r = run(path)[g]
    assert r.error is not None and r.error.kind == "result-mismatch" and r.result_recorded == "1/2-1/2"


def test_result_tag_disagrees_with_move_text(tmp_path: Path) -> None:
    path = tmp_path / "disagree.pgn"
    path.write_text('[Result "1-0"]\n\n1. h2e2 h9g7 0-1\n', encoding="utf-8")
    (r,) = run(path)
    assert r.error is not None and r.error.kind == "result-mismatch" and r.error.token == "0-1"


@pytest.mark.parametrize("seed", range(4))
def test_file_cut_mid_move(master_subset: Tuple[Path, List[str], List[GameReport]], tmp_path: Path,
                           seed: int) -> None:
    _, games, clean = master_subset
    rnd = random.Random(200 + seed)
    n = rnd.randrange(10, 60)
    toks = movetext_tokens(games[n - 1])
    ply = rnd.randrange(len(toks))
    s, e, tok = toks[ply]
    text = "\n\n".join(games[:n])
    offset = len(text) - len(games[n - 1]) + s + rnd.randrange(1, len(tok))  # inside the token
    path = tmp_path / "cut.pgn"
    path.write_text(text[:offset], encoding="utf-8")
    got = run(path)
    assert len(got) == n
    assert lines_of(got[:-1]) == lines_of([r for r in clean[:n - 1]]).copy() or True
    for a, b in zip(got[:-1], clean[:n - 1]):
        assert a.to_dict() | {"source": ""} == b.to_dict() | {"source": ""}
    r = got[-1]
    assert r.error is not None and (r.error.kind, r.error.ply, r.plies) == ("truncated", ply, ply)


def test_file_cut_between_moves(master_subset: Tuple[Path, List[str], List[GameReport]], tmp_path: Path) -> None:
    _, games, _ = master_subset
    game = games[4]
    toks = movetext_tokens(game)
    # Cut after a complete move, without the result token: the file ends without a newline.
    path = tmp_path / "cut2.pgn"
    path.write_text(game[:toks[20][1]], encoding="utf-8")
    (r,) = run(path)
    assert r.error is not None and (r.error.kind, r.error.ply, r.plies) == ("truncated", 21, 21)
    # Cut at a line end: the Result tag promised a result token that never came.
    path.write_text(game[:toks[21][1]] + "\n", encoding="utf-8")
    (r,) = run(path)
    assert r.error is not None and (r.error.kind, r.plies) == ("truncated", 22)


def test_damaged_gzip_keeps_what_was_read(tmp_path: Path) -> None:
    data = (SAMPLE / "ccpd-master-24.chinese.pgn").read_bytes()
    packed = gzip.compress(data, mtime=0)
    path = tmp_path / "cut.pgn.gz"
    path.write_bytes(packed[: len(packed) * 2 // 3])
    got = run(path)
    clean = run(SAMPLE / "ccpd-master-24.chinese.pgn")
    assert 5 < len(got) < 24
    for a, b in zip(got[:-1], clean):
        assert a.to_dict() | {"source": ""} == b.to_dict() | {"source": ""}
    assert got[-1].error is not None and got[-1].error.kind == "truncated"


@pytest.mark.parametrize("seed", range(4))
def test_random_bytes_inserted(master_subset: Tuple[Path, List[str], List[GameReport]], tmp_path: Path,
                               seed: int) -> None:
    path0, games, clean = master_subset
    rnd = random.Random(300 + seed)
    g = rnd.randrange(len(games))
    toks = movetext_tokens(games[g])
    ply = rnd.randrange(len(toks))
    s, e, tok = toks[ply]
    data = bytearray("\n\n".join(games).encode("utf-8") + b"\n")
    game_start = len("\n\n".join(games[:g]).encode("utf-8")) + (2 if g else 0)
    at = game_start + len(games[g][:s].encode("utf-8")) + len(tok[:1].encode("utf-8"))
    junk = bytes(rnd.randrange(0x80, 0x100) for _ in range(rnd.randrange(1, 6)))
    data[at:at] = junk
    path = tmp_path / "junk.pgn"
    path.write_bytes(bytes(data))
    got = run(path)
    r = got[g]
    assert r.error is not None and (r.error.kind, r.error.ply, r.plies) == ("invalid-notation", ply, ply), r
    assert_others_unchanged(got, clean, g, path)


def test_corrupt_iccs_move_found_at_ply(tmp_path: Path) -> None:
    text = games_file("wukong-liu-dahua-1125.iccs.pgn").read_text(encoding="utf-8")
    games = re.split(r"\n\n(?=\[Event )", text.strip("\n"))[:40]
    clean_path = tmp_path / "clean.pgn"
    clean_path.write_text("\n\n".join(games) + "\n", encoding="utf-8")
    clean = run(clean_path)
    rnd = random.Random(7)
    for _ in range(5):
        g = rnd.randrange(len(games))
        raw = next(pgn.scan_games(io.StringIO(games[g])))
        ply = rnd.randrange(len(raw.moves))
        board = Board()
        for tok in raw.moves[:ply]:
            board.push_iccs(tok)
        legal = {m.iccs() for m in board.legal_moves}
        bad = next(f"{a}{b}{c}{d}" for a in "abcdefghi" for b in "0123456789" for c in "abcdefghi"
                   for d in "0123456789" if f"{a}{b}{c}{d}" not in legal and (a, b) != (c, d) and board.piece_at(
                       (int(b) * 9 + "abcdefghi".index(a))) is not None)
        moves_at = [m.start() for m in re.finditer(r"(?<=\s)[a-i]\d[a-i]\d(?=\s)", games[g])]
        s = moves_at[ply]
        games2 = list(games)
        games2[g] = games[g][:s] + bad + games[g][s + 4:]
        path = tmp_path / "bad.pgn"
        path.write_text("\n\n".join(games2) + "\n", encoding="utf-8")
        got = run(path)
        err = got[g].error
        assert err is not None and (err.kind, err.ply) == ("illegal-move", ply)
        assert_others_unchanged(got, clean, g, path)


def test_ambiguous_move(tmp_path: Path) -> None:
    # Two red rooks on file 二 (h): "車二進一" could be either.
    path = tmp_path / "amb.pgn"
    path.write_text('[FEN "3k5/9/9/9/9/7R1/9/9/7R1/4K4 w - - 0 1"]\n\n1. 車二平三 *\n', encoding="utf-8")
    (r,) = run(path)
    assert r.error is not None and (r.error.kind, r.error.ply, r.error.token) == ("ambiguous-move", 0, "車二平三")


def test_tandem_pieces_and_other_notations(tmp_path: Path) -> None:
    path = tmp_path / "tandem.pgn"
    path.write_text('[FEN "3k5/9/9/9/9/7R1/9/9/7R1/4K4 w - - 0 1"]\n\n'
                    '1. 前車平三 將４進１ 2. 車二平四 將４退１ 3. R3.4 *\n\n'
                    '[FEN "3k5/9/9/9/9/7R1/9/9/7R1/4K4 w - - 0 1"]\n\n1. 後車平四 將４進１ 2. 車二平八 *\n',
                    encoding="utf-8")
    a, b = run(path)
    assert a.ok and a.plies == 5 and a.final_fen == "3k5/9/9/9/9/5R3/9/9/5R3/4K4 b - - 5 3"
    assert b.ok and b.plies == 3


def test_moves_after_the_c_replay_stops_are_the_notation_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A token list the C replay stops in: the rest is played by notation.parse_game, or token by token up to the
    first bad move (worded as Board.parse_move words it); a move number in a clean list is not a move."""
    rp = K._Replayer()
    start = rp.start(None)
    tokens = ["h2e2", "H8+7", "h0g2", "i9h9", "i0h0"]          # WXF stops the C replay at ply 1
    rep = rp.replay(start, tokens, True)
    assert (rep.plies, rep.error) == (5, None)
    board = Board()
    for t in tokens:
        board.push_move(t)
    assert rp.fen() == board.fen()
    bad = ["h2e2", "H8+7", "h0g2", "a0a5", "i0h0"]
    rep = rp.replay(start, bad, True)
    assert rep.plies == 3 and rep.error is not None and not rep.last_token_failed
    assert (rep.error.kind, rep.error.ply, rep.error.token) == ("illegal-move", 3, "a0a5")
    b3 = Board()
    for t in bad[:3]:
        b3.push_move(t)
    with pytest.raises(Exception) as exc:
        b3.parse_move("a0a5")
    assert rep.error.message == K._sentence(str(exc.value))
    rep = rp.replay(start, ["h2e2", "1.", "h9g7"], True)
    assert (rep.plies, rep.error and rep.error.kind, rep.error and rep.error.token) == (1, "invalid-notation", "1.")
    with monkeypatch.context() as m:
        m.setattr(pgn, "C_REPLAY", False)
        rep = rp.replay(start, bad, True)
        assert rep.plies == 3 and rep.error is not None and rep.error.ply == 3


# ---------------------------------------------------------------------------------------------------------------------
# Encodings and line endings
# ---------------------------------------------------------------------------------------------------------------------

def test_encodings_and_line_endings(tmp_path: Path) -> None:
    src = SAMPLE / "ccpd-master-24.chinese.pgn"
    text = src.read_text(encoding="utf-8")
    clean = [r.to_dict() | {"source": ""} for r in run(src)]
    variants = {
        "bom.pgn": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "crlf.pgn": text.replace("\n", "\r\n").encode("utf-8"),
        "big5.pgn": text.encode("big5"),
        "gb.pgn": text.encode("gb18030"),
    }
    for name, data in variants.items():
        p = tmp_path / name
        p.write_bytes(data)
        got = [r.to_dict() | {"source": ""} for r in run(p, chunk_bytes=4096)]
        assert got == clean, name


# ---------------------------------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------------------------------

def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert V.validate_main([str(SAMPLE / "ccpd-master-24.chinese.pgn")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"games\s+24", out) and re.search(r"valid\s+24", out) and "games/s" in out
    assert V.validate_main([str(SAMPLE)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"truncated\s+1", out) and re.search(r"invalid-fen\s+2", out)
    assert V.validate_main([str(tmp_path / "missing.pgn")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert V.validate_main([str(SAMPLE), str(tmp_path / "missing.pgn")]) == 2  # checked before any work
    assert "no such file" in capsys.readouterr().err
    assert V.validate_main(["--rules", "fide", str(SAMPLE)]) == 2
    assert V.validate_main(["--jobs", "-1", str(SAMPLE)]) == 2
    assert V.validate_main([]) == 2


def test_cli_inputs_without_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.pgn"
    empty.write_text("", encoding="utf-8")
    empty_dir = tmp_path / "emptydir"
    empty_dir.mkdir()
    # Nothing found at all: a warning per input and exit 1 (it used to print "games 0" and exit 0).
    assert V.validate_main([str(empty), str(empty_dir)]) == 1
    captured = capsys.readouterr()
    assert f"no games found in {empty}\n" in captured.err and f"no games found in {empty_dir}\n" in captured.err
    assert re.search(r"games\s+0", captured.out)
    assert V.validate_main(["--format", "dhtmlxq", str(SAMPLE / "ccpd-master-24.chinese.pgn"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "no games found in" in err and "(read as dhtmlxq)" in err
    # Some input has games: the empty one is warned about, the exit code is the games' own.
    assert V.validate_main([str(SAMPLE / "ccpd-master-24.chinese.pgn"), str(empty_dir), "-q"]) == 0
    captured = capsys.readouterr()
    assert captured.err == f"xiangqi validate: warning: no games found in {empty_dir}\n"
    assert V.validate_main([str(SAMPLE / "ccpd-master-24.chinese.pgn"), "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_cli_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jl = tmp_path / "report.jsonl"
    assert V.validate_main([str(SAMPLE), "--report", str(jl), "--quiet"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""  # quiet, and no progress line off a terminal
    lines = jl.read_text(encoding="utf-8").splitlines()
    assert lines == lines_of(run(SAMPLE))
    assert [json.loads(x)["source"] for x in lines] == sorted(json.loads(x)["source"] for x in lines)
    cs = tmp_path / "report.csv"
    assert V.validate_main([str(SAMPLE), "--report", str(cs), "-q", "--jobs", "2"]) == 1
    rows = list(csv.DictReader(cs.open(encoding="utf-8")))
    assert len(rows) == 44 and sum(r["ok"] == "false" for r in rows) == 6
    assert V.validate_main([str(SAMPLE / "ccpd-known-bad-3.chinese.pgn"), "--report", "-"]) == 1
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 3 and "games" in captured.err


def _names_not_utf8(root: Path) -> List[str]:
    """Game files under names that are not UTF-8, as Python sees them (bytes as surrogates): a GBK folder and file
    (a Chinese zip file unpacked), a name with \\xff\\xfe bytes, and a plain one, in this order."""
    folder = root / os.fsdecode("棋谱".encode("gbk"))
    folder.mkdir(parents=True)
    paths = [folder / os.fsdecode("胡荣华 对 杨官璘.pgn".encode("gbk")), root / os.fsdecode(b"\xff\xfe.pgn"),
             root / "z.pgn"]
    games = ['[Red "胡荣华"]\n[Black "杨官璘"]\n\n1. h2e2 h9g7 2. h2h9 *\n', "1. h2e2 h9g7 *\n",
             '[Red "A"]\n\n1. a0a5 *\n']
    for path, game in zip(paths, games):
        path.write_text(game, encoding="utf-8")
    return [str(p) for p in paths]


def test_file_names_that_are_not_utf8_in_every_report(tmp_path: Path) -> None:
    """A name that is not UTF-8 crashed every report (UnicodeEncodeError: surrogates not allowed) and left it empty.
    The JSONL report keeps the name exactly (JSON's \\udcNN escapes), the CSV and HTML reports show its bytes as
    \\xNN, and every game of every file is reported."""
    gbk_name, ff_name, plain = _names_not_utf8(tmp_path / "games")
    names = sorted([gbk_name, ff_name, plain])  # the order of a folder's files (U+DCxx sorts after ASCII)
    gbk = "棋谱".encode("gbk")
    shown = {n: V.name_text(n) for n in names}
    assert f"\\x{gbk[0]:02x}\\x{gbk[1]:02x}" in shown[gbk_name] and shown[ff_name].endswith("\\xff\\xfe.pgn")
    assert shown[plain] == plain
    for fmt in ("jsonl", "csv", "html"):
        out = tmp_path / f"report.{fmt}"
        option = "--html" if fmt == "html" else "--report"
        assert V.validate_main([str(tmp_path / "games"), option, str(out), "-q"]) == 1, fmt
        text = out.read_bytes().decode("utf-8")  # strict: valid UTF-8
        if fmt == "jsonl":
            sources = [json.loads(line)["source"] for line in text.splitlines()]
            assert sources == names
            assert [os.fsencode(s) for s in sources] == [os.fsencode(n) for n in names]  # the bytes, exactly
            assert all(open(s, "rb").read() for s in sources)  # the name opens the file
            assert "\\udcff\\udcfe.pgn" in text
        elif fmt == "csv":
            assert [row["source"] for row in csv.DictReader(io.StringIO(text))] == [shown[n] for n in names]
        else:
            rows = json.loads(re.search(r'<script type="application/json" id="rows">(.*?)</script>', text, re.S)
                              .group(1))
            # The problem games' players, read again from the files under their names.
            assert sorted((r[0], r[3]) for r in rows) == sorted([(shown[gbk_name], "胡荣华 – 杨官璘"),
                                                                 (shown[plain], "A – ?")])
    # Standard output (strict UTF-8 here) takes the JSONL report too.
    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    done = subprocess.run([sys.executable, "-m", "xiangqi", "validate", str(tmp_path / "games"), "--report", "-",
                           "-q"], capture_output=True, env=env, timeout=120)
    assert done.returncode == 1 and done.stderr == b"", done.stderr[-2000:]
    assert [os.fsencode(json.loads(line)["source"]) for line in done.stdout.decode("utf-8").splitlines()] == \
        [os.fsencode(n) for n in names]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are POSIX's")
def test_a_folder_skips_and_names_what_is_not_a_regular_file(tmp_path: Path) -> None:
    """Inside a folder, a game file's name that is a FIFO (waited on for ever) or a link to /dev/zero (read for
    ever: a .pgn's bytes, a .html's search for a DhtmlXQ block) is skipped with a warning naming it; the games
    are checked, and a path given as such is still read (a stream)."""
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "a.pgn").write_text('[Red "A"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    os.mkfifo(folder / "fifo.pgn")
    for name in ("zero.pgn", "zero.html", "zero.xqf.gz"):
        os.symlink("/dev/zero", folder / name)
    os.symlink(folder / "sub", folder / "folder.pgn")  # a link to a folder is walked as a folder, not read
    os.symlink(folder / "absent", folder / "broken.pgn")  # cannot be read: a report says why
    code = ("import sys; from xiangqi.validate import validate_main; "
            "sys.exit(validate_main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, str(folder), "--report", "-", "-q"], capture_output=True,
                          text=True, timeout=120)
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(Path(r["source"]).name, r["ok"]) for r in reports] == [("broken.pgn", False), ("a.pgn", True)]
    assert "cannot open the file" in reports[0]["error"]["message"]
    warned = [line for line in done.stderr.splitlines() if "skipped" in line]
    assert warned == [f"xiangqi validate: warning: skipped {folder / name}: not a regular file ({kind})" for name, kind in (
        ("fifo.pgn", "a FIFO"), ("zero.html", "a character device, through a symbolic link"),
        ("zero.pgn", "a character device, through a symbolic link"),
        ("zero.xqf.gz", "a character device, through a symbolic link"))], done.stderr
    assert done.returncode == 1
    # The library warns.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert [Path(p).name for p in V.expand_paths([folder])] == ["broken.pgn", "a.pgn"]
    assert sorted(f"xiangqi validate: warning: {w.message}" for w in caught) == warned


def test_cli_dispatch_through_xiangqi_command(capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.cli import main

    assert main(["validate", str(SAMPLE / "wxf-ca-3.dhtmlxq.txt"), "--format", "dhtmlxq"]) == 0
    assert re.search(r"games\s+3", capsys.readouterr().out)


def test_progress_only_on_a_terminal() -> None:
    from xiangqi._progress import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    p = Progress(tty, total_files=2, interval=0)
    p.update(files=1, games=1000, plies=80000, errors=3)
    p.close()
    assert "1/2 files" in tty.getvalue() and "3 errors" in tty.getvalue() and "\r" in tty.getvalue()
    plain = io.StringIO()
    p = Progress(plain, total_files=2, interval=0)
    p.update(files=1, games=1000, plies=80000, errors=3)
    p.close()
    assert plain.getvalue() == ""


# ---------------------------------------------------------------------------------------------------------------------
# The C core's move-text replay (xq_play_text) agrees with the notation module (which decodes the moves of the games
# the PGN reader reads, and whatever the C replay stops at)
# ---------------------------------------------------------------------------------------------------------------------

def python_only(monkeypatch: pytest.MonkeyPatch, paths: object, **kw: object) -> List[GameReport]:
    """The reports with every game read by the PGN reader and every move decoded by the notation module."""
    with monkeypatch.context() as m:
        m.setattr(pgn, "C_REPLAY", False)
        return run(paths, **kw)


@pytest.mark.parametrize("name", ["ccpd-master-3000.chinese.pgn", "ccpd-positions-300.chinese.pgn",
                                  "ccpd-known-bad-12.chinese.pgn", "wukong-liu-dahua-1125.iccs.pgn"])
def test_c_replay_equals_python_replay(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    path = games_file(name)
    assert lines_of(run(path)) == lines_of(python_only(monkeypatch, path))


@pytest.mark.parametrize("seed", range(3))
def test_c_replay_on_mangled_text(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int) -> None:
    """Random edits of move text (characters swapped in, dropped, spaces and odd whitespace added)."""
    games = split_games((SAMPLE / "ccpd-master-24.chinese.pgn").read_text(encoding="utf-8"))
    alphabet = list("車馬炮兵卒仕士相象帥將前後進退平一二三四五六七八九１２３４５６７８９123456789abcdefghiH-. ") + [
        "\u3000", "\xa0", "\t", "1-0", "*", "h2e2", "H2-E2", "0000", "{", "}", "(", ")"]
    rnd = random.Random(seed)
    mangled = []
    for g in games:
        head, _, body = g.partition("\n\n")
        chars = list(body)
        for _ in range(rnd.randrange(1, 6)):
            i = rnd.randrange(len(chars))
            op = rnd.randrange(3)
            if op == 0:
                chars[i] = rnd.choice(alphabet)
            elif op == 1:
                del chars[i]
            else:
                chars.insert(i, rnd.choice(alphabet))
        mangled.append(head + "\n\n" + "".join(chars))
    path = tmp_path / "mangled.pgn"
    path.write_text("\n\n".join(mangled) + "\n", encoding="utf-8")
    assert lines_of(run(path)) == lines_of(python_only(monkeypatch, path))


def test_cli_dask_missing_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the [dask] extra were not installed
    assert V.validate_main([str(SAMPLE), "--dask"]) == 2
    assert "pip install 'pyxiangqi[dask]'" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------------------------------
# Rulings: judged on the replay's own records (C loop summary first), equal to judging every position in full
# ---------------------------------------------------------------------------------------------------------------------

def _full_rulings(board: Board, rule_set: str) -> Tuple[object, List[Tuple[int, str]]]:
    """The end outcome and the rule-violation warnings (ply, message) as bulk validation words them, computed
    the slow way: every due position judged in full (xiangqi.rules.judge) on a board cut back to it."""
    from xiangqi import rules

    rs = rules.get_rules(rule_set)
    n = len(board.move_stack)
    end = rules.judge(board, rs)
    found = []
    for j in range(1, n):
        work = board.copy()
        while len(work.move_stack) > j:
            work.pop()
        if rules.repetition_count(work) >= rs.repetition_count:
            r = rules.judge(work, rs, natural_limit=0)
            if r is not None and r.outcome.winner is not None:
                found.append(r)
    kept: List[rules.Ruling] = []
    for r in found:  # one ruling per loop that goes on (scan_violations)
        if kept and r.first_ply <= kept[-1].ply and r.outcome.winner == kept[-1].outcome.winner \
                and r.outcome.termination == kept[-1].outcome.termination:
            continue
        kept.append(r)
    merged: List[Tuple[rules.Ruling, int, int]] = []  # loops that follow each other closely: one warning
    for r in kept:
        if merged and merged[-1][0].outcome.termination is r.outcome.termination and \
                merged[-1][0].outcome.winner == r.outcome.winner and r.first_ply <= merged[-1][1] + 2:
            merged[-1] = (merged[-1][0], r.last_ply, merged[-1][2] + 1)
            continue
        merged.append((r, r.last_ply, 1))
    warnings = []
    for r, last, k in merged:
        more = f"; the same ruling applied again up to ply {last}" if k > 1 else ""
        warnings.append((r.ply - 1, K._sentence(f"{r.outcome.reason.rstrip('.')}; play went on{more}")))
    return (None if end is None else end.outcome), warnings


@pytest.mark.parametrize("rule_set", ["axf", "cxa"])
def test_rulings_equal_judging_every_position_in_full(rule_set: str) -> None:
    path = games_file("ccpd-master-3000.iccs.pgn")
    games = split_games(path.read_text(encoding="utf-8"))[:1200]
    reports = run(path, rules=rule_set)[:1200]
    checked = warned = 0
    for game, report in zip(games, reports):
        fen_tag = re.search(r'\[FEN "([^"]*)"\]', game)
        board = Board(fen_tag.group(1) if fen_tag else None)
        moves = [t for t in game.split("\n\n", 1)[-1].split() if len(t) == 4 and t[0].isalpha()]
        for m in moves:
            board.push_iccs(m)
        assert report.ok and report.plies == len(moves)
        if board.is_checkmate() or board.is_stalemate() or max(board.key_history().count(k)
                                                                 for k in board.key_history()) < 3:
            continue
        checked += 1
        outcome, warnings = _full_rulings(board, rule_set)
        assert report.termination == (None if outcome is None else outcome.termination.name)  # type: ignore[attr-defined]
        assert report.result_computed == (None if outcome is None else outcome.result())  # type: ignore[attr-defined]
        got = [(w.ply, w.message) for w in report.warnings]
        assert got[:len(warnings)] == warnings, (report.index, rule_set)
        assert all(m.startswith("the record says") for _, m in got[len(warnings):])
        assert all(w.ply is not None and w.token == moves[w.ply] for w in report.warnings)
        warned += bool(warnings)
    assert checked > 60 and warned > 20


def test_report_may_not_overwrite_or_join_the_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--report`` naming an input used to empty that input before it was read."""
    game = '[Event "x"]\n\n1. h2e2 h9g7 *\n'
    v = tmp_path / "v.pgn"
    v.write_text(game, encoding="utf-8")
    assert V.validate_main([str(v), "--report", str(v), "-q"]) == 2
    assert "one of the game files" in capsys.readouterr().err
    assert v.read_text(encoding="utf-8") == game
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.pgn").write_text(game, encoding="utf-8")
    assert V.validate_main([str(folder), "--report", str(folder / "a.pgn"), "-q"]) == 2
    assert (folder / "a.pgn").read_text(encoding="utf-8") == game
    # A new game file in a folder being checked would be an input too.
    assert V.validate_main([str(folder), "--report", str(folder / "sub" / "r.pgn"), "-q"]) == 2
    assert "inside" in capsys.readouterr().err and not (folder / "sub").exists()
    # A report that is not a game file may sit in the folder.
    jl = folder / "report.jsonl"
    assert V.validate_main([str(folder), "--report", str(jl), "-q"]) == 0
    assert [json.loads(x)["ok"] for x in jl.read_text(encoding="utf-8").splitlines()] == [True]
    assert V.validate_main([str(v), "--report", str(tmp_path / "v2.pgn"), "-q"]) == 0


def test_fast_report_construction_equals_the_dataclass() -> None:
    args = ("a.pgn", 2, 7, False, 12, ErrorInfo("illegal-move", 11, "h2e2", "Illegal."), "1-0", None, None, "fen",
            (ErrorInfo("rule-violation", 3, None, "Perpetual check."),))
    fast, slow = K._report(*args), GameReport(*args)
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow) and fast.to_json() == slow.to_json()
    with pytest.raises(AttributeError):
        fast.ok = True  # type: ignore[misc]
    import pickle
    assert pickle.loads(pickle.dumps(fast)) == slow


def test_unclosed_comment_is_a_parse_error_and_the_next_game_is_still_checked(tmp_path: Path) -> None:
    path = tmp_path / "unclosed.pgn"
    path.write_text('[Event "1"]\n\n1. h2e2 {oops h9g7 *\n\n[Event "2"]\n\n1. h2e2 h9g7 2. h0g2 *\n', encoding="utf-8")
    reports = list(V.validate([str(path)]))
    assert [r.index for r in reports] == [1, 2]
    first, second = reports
    assert not first.ok and first.error is not None and first.error.kind == "parse-error"
    assert first.error.token == "{" and "line 3" in first.error.message and first.plies == 1
    assert second.ok and second.plies == 3
