"""Our search (``xiangqi.search``, the engine behind ``xiangqi engine``): nodes per second at a fixed depth (9),
against Fairy-Stockfish measured in the same run, and the engine process's answer time to a 1-node ``go``.

The ratio against Fairy-Stockfish compares nodes per second, one thread each, on the same positions. It is
not a strength comparison: a Stockfish-family search prunes far harder and reaches much deeper per node, so
time-to-depth would compare two different trees. Nodes per second counts the same kind of thing on both
sides (every position visited, quiescence included), which is as close to like-for-like as two engines get.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
from _targets import speed_target

from xiangqi import Board
from xiangqi.search import Searcher

FAIRY = Path("/usr/games/fairy-stockfish")
DEPTH = 9
POSITIONS = {
    "start": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "middlegame": "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "endgame": "3k5/4a4/4ba3/9/2b6/6R2/9/4B4/4A4/2BAK4 w - - 0 1",
}


def _search(fen: str) -> Dict[str, float]:
    board = Board(fen)
    searcher = Searcher(hash_mb=16)
    start = time.perf_counter()
    result = searcher.search(board, depth=DEPTH)
    elapsed = time.perf_counter() - start
    assert result.best is not None and board.is_legal(result.best), (fen, result)
    assert result.info.depth == DEPTH and not result.stopped
    return {"nodes": result.info.nodes, "seconds": elapsed}


@pytest.fixture(scope="module")
def fairy_nps() -> Dict[str, float]:
    """Fairy-Stockfish's nodes per second at ``go depth 12`` per position, one thread."""
    if not FAIRY.exists():
        pytest.skip("fairy-stockfish not installed (Debian package fairy-stockfish)")
    script = ["uci", "setoption name UCI_Variant value xiangqi", "setoption name Threads value 1",
              "setoption name Hash value 16"]
    for fen in POSITIONS.values():
        script += ["setoption name Clear Hash", f"position fen {fen}", "go depth 12"]
    proc = subprocess.Popen([str(FAIRY)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out = _drive(proc, script)
    rates: Dict[str, float] = {}
    names = iter(POSITIONS)
    last: List[str] = []
    for line in out:
        if line.startswith("info depth"):
            last = line.split()
        elif line.startswith("bestmove"):
            nodes, ms = int(last[last.index("nodes") + 1]), int(last[last.index("time") + 1])
            rates[next(names)] = nodes / max(ms, 1) * 1000
    assert len(rates) == len(POSITIONS)
    return rates


def _drive(proc: "subprocess.Popen[str]", script: List[str]) -> Iterator[str]:
    """Send ``script``, waiting after each ``go`` for its ``bestmove``; the lines read, then quit."""
    assert proc.stdin is not None and proc.stdout is not None
    lines: List[str] = []
    for cmd in script:
        proc.stdin.write(cmd + "\n")
        proc.stdin.flush()
        if cmd.startswith("go"):
            for line in proc.stdout:
                lines.append(line.strip())
                if line.startswith("bestmove"):
                    break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=30)
    proc.stdout.close()
    return iter(lines)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_search_fixed_depth(benchmark: Any, name: str, fairy_nps: Dict[str, float]) -> None:
    fen = POSITIONS[name]
    stats = benchmark.pedantic(_search, args=(fen,), rounds=3, iterations=1)
    nps = stats["nodes"] / benchmark.stats.stats.median
    benchmark.extra_info.update(nodes=stats["nodes"], knps=nps / 1e3, fairy_knps=fairy_nps[name] / 1e3,
                                nps_ratio_vs_fairy=nps / fairy_nps[name])


def test_engine_answers_a_one_node_go(benchmark: Any) -> None:
    """Round trip through ``xiangqi engine``'s pipes: position + ``go nodes 1`` to ``bestmove`` (target < 1 ms)."""
    proc = subprocess.Popen([sys.executable, "-m", "xiangqi", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def ask(cmd: str, prefix: str) -> str:
        stdin.write(cmd)
        stdin.flush()
        for line in stdout:
            if line.startswith(prefix):
                return line
        raise AssertionError("the engine ended")

    try:
        ask("uci\n", "uciok")
        board = Board()
        board.push_iccs("h2e2")

        def play() -> str:
            return ask("position startpos moves h2e2\ngo nodes 1\n", "bestmove")

        line = benchmark(play)
        assert board.is_legal(board.parse_iccs(line.split()[1]))
        median_ms = benchmark.stats.stats.median * 1000
        benchmark.extra_info["ms"] = median_ms
        speed_target(median_ms < 1.0, f"engine round trip for a 1-node go is {median_ms:.2f} ms, target < 1 ms")
    finally:
        stdin.write("quit\n")
        stdin.close()
        proc.wait(timeout=10)
        stdout.close()
