"""The engine client's costs: protocol overhead per ``play`` and match throughput with more than one game at a time.

The overhead is measured against a peer in the same run: the same engine
driven by a bare blocking loop (write ``position`` and ``go nodes 1``, read
lines until ``bestmove``), which is the least any client can do. Target:
``SimpleEngine.play`` costs under 1 ms more than that loop per move.
``--concurrency 2`` should play close to twice the plies per second of one.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from typing import Any, List

import pytest
from _targets import speed_target

from xiangqi import Board
from xiangqi.engine import Limit, SimpleEngine
from xiangqi.match import Adjudication, EngineSpec, GameResult, run_match

FAIRY = "/usr/games/fairy-stockfish"
pytestmark = pytest.mark.skipif(not os.access(FAIRY, os.X_OK),
                                reason="needs the Debian package fairy-stockfish (/usr/games/fairy-stockfish)")
PLAYS = 200


def _position() -> Board:
    board = Board()
    for text in ("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"):
        board.push_iccs(text)
    return board


def _bare_loop(board: Board, n: int) -> float:
    """Seconds per move for the bare blocking loop (the peer)."""
    proc = subprocess.Popen([FAIRY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("uci\nsetoption name UCI_Variant value xiangqi\nisready\n")
        while proc.stdout.readline().strip() != "readyok":
            pass
        from xiangqi.notation import format_iccs

        line = f"position fen {board.starting_fen} moves " + " ".join(
            format_iccs(m, one_based=True) for m in board.move_stack) + "\ngo nodes 1\n"
        start = time.perf_counter()
        for _ in range(n):
            proc.stdin.write(line)
            while not proc.stdout.readline().startswith("bestmove"):
                pass
        return (time.perf_counter() - start) / n
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(5)


def test_play_overhead(benchmark: Any) -> None:
    board = _position()
    with SimpleEngine.popen_uci(FAIRY) as engine:
        def plays() -> int:
            legal = 0
            for _ in range(PLAYS):
                move = engine.play(board, Limit(nodes=1)).move
                legal += move is not None and board.is_legal(move)
            return legal

        assert benchmark.pedantic(plays, rounds=3, iterations=1) == PLAYS
        ours = benchmark.stats.stats.min / PLAYS
    bare = min(_bare_loop(board, PLAYS) for _ in range(3))
    overhead = ours - bare
    benchmark.extra_info.update(ms_per_play=ours * 1e3, ms_per_bare_move=bare * 1e3, overhead_ms=overhead * 1e3)
    speed_target(overhead < 1e-3, f"play overhead {overhead * 1e3:.3f} ms over the bare loop "
                                  f"({ours * 1e3:.3f} vs {bare * 1e3:.3f} ms per move), target < 1 ms")


def _match(concurrency: int, games: int) -> List[GameResult]:
    specs = (EngineSpec(FAIRY, name="a"), EngineSpec(FAIRY, proto="ucci", name="b"))
    _, results = asyncio.run(run_match(specs, [Board()], games, Limit(depth=2), None, "axf",
                                       Adjudication(max_plies=120), concurrency, None))
    return results


def test_match_concurrency(benchmark: Any) -> None:
    games = 6
    start = time.perf_counter()
    one = _match(1, games)
    t1 = time.perf_counter() - start
    two = benchmark.pedantic(_match, args=(2, games), rounds=1, iterations=1)
    t2 = benchmark.stats.stats.min
    for results in (one, two):
        assert len(results) == games and all(r.result in ("1-0", "0-1", "1/2-1/2") for r in results)
    # Games differ in length from run to run (the engines' hash tables carry over), so the rate is in plies.
    plies1 = sum(int(r.game.headers["PlyCount"]) for r in one)
    plies2 = sum(int(r.game.headers["PlyCount"]) for r in two)
    ratio = (plies2 / t2) / (plies1 / t1)
    benchmark.extra_info.update(plies_per_s_1=plies1 / t1, plies_per_s_2=plies2 / t2, speedup=ratio)
    speed_target(ratio > 1.6, f"--concurrency 2 plays {ratio:.2f}x the plies per second of 1, target close to 2x")
