"""Notation speed on the 3,000 CCPD master games (254,333 moves in traditional Chinese).

Each benchmark asserts its result: the parsed moves are the corpus's ICCS moves (and the final boards are the
index's final FENs), and the written texts are the corpus's own.  Run with
``pytest benchmarks/bench_notation.py --benchmark-enable``; ``extra_info`` holds nanoseconds per move.

Targets (issue 3): reading every move with replay under 1 s on one core, goal 0.3 s; writing as fast.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from xiangqi import Board, Move
from xiangqi import notation as N

_MOVE_NUMBER = re.compile(r"\d+\.(\.\.)?")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
N_MOVES = 254_333

Games = List[Tuple[str, List[str]]]


def _read(path: Path) -> Games:
    games = []
    for chunk in path.read_text(encoding="utf-8").split("[Game ")[1:]:
        fen = re.search(r'\[FEN "([^"]*)"\]', chunk).group(1)  # type: ignore[union-attr]
        tokens = []
        for tok in chunk[chunk.index("\n\n"):].split():
            tok = _MOVE_NUMBER.sub("", tok, count=1) if _MOVE_NUMBER.match(tok) else tok
            if tok and tok not in _RESULTS:
                tokens.append(tok)
        games.append((fen, tokens))
    return games


@pytest.fixture(scope="module")
def master(shared_games: Path) -> Dict[str, Any]:
    chinese = _read(shared_games / "ccpd-master-3000.chinese.pgn")
    iccs = _read(shared_games / "ccpd-master-3000.iccs.pgn")
    final = {}
    for line in (shared_games / "ccpd-master-3000.index.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        cols = line.split("\t")
        final[int(cols[0]) - 1] = cols[4]
    codes = [[Move.from_iccs(m).code for m in moves] for _, moves in iccs]
    assert sum(len(c) for c in codes) == N_MOVES
    return {"chinese": chinese, "codes": codes, "final": final}


def _final_boards_match(games: Games, codes: List[List[int]], final: Dict[int, str]) -> None:
    for i, ((fen, _), game) in enumerate(zip(games, codes)):
        board = Board(fen)
        for c in game:
            board.push_code(c)
        assert board.fen().split()[:2] == final[i].split()[:2], i


def test_parse_chinese_games(benchmark: Any, master: Dict[str, Any]) -> None:
    """parse_game over every game: decode (cached), resolve, check legality and play each move."""
    games: Games = master["chinese"]

    def run() -> List[List[int]]:
        return [N.parse_game(fen, tokens, notation="chinese") for fen, tokens in games]

    result = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    assert result == master["codes"]
    _final_boards_match(games, result, master["final"])
    _record(benchmark, "ns_per_move", N_MOVES)


def test_parse_games_detected(benchmark: Any, master: Dict[str, Any]) -> None:
    """The same with notation="auto" (each token's notation detected)."""
    games: Games = master["chinese"]

    def run() -> List[List[int]]:
        return [N.parse_game(fen, tokens) for fen, tokens in games]

    result = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    assert result == master["codes"]
    _record(benchmark, "ns_per_move", N_MOVES)


def test_push_chinese_per_move(benchmark: Any, master: Dict[str, Any]) -> None:
    """Board.push_chinese one move at a time (the convenient, fully checked per-move API)."""
    games: Games = master["chinese"][:300]
    n = sum(len(t) for _, t in games)

    def run() -> List[str]:
        out = []
        for fen, tokens in games:
            board = Board(fen)
            for t in tokens:
                board.push_chinese(t)
            out.append(board.fen())
        return out

    result = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    assert [r.split()[:2] for r in result] == [master["final"][i].split()[:2] for i in range(300)]
    _record(benchmark, "ns_per_move", n)


def test_format_chinese_games(benchmark: Any, master: Dict[str, Any]) -> None:
    """format_game over every game, traditional compact style: gives back the corpus's own text."""
    games: Games = master["chinese"]
    codes = master["codes"]

    def run() -> List[List[str]]:
        return [N.format_game(fen, game, traditional=True, compact=True) for (fen, _), game in zip(games, codes)]

    result = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    assert result == [tokens for _, tokens in games]
    _record(benchmark, "ns_per_move", N_MOVES)


def test_convert_chinese_to_wxf(benchmark: Any, master: Dict[str, Any]) -> None:
    """convert_game Chinese -> WXF over every game (read, check, write)."""
    games: Games = master["chinese"]

    def run() -> List[List[str]]:
        return [N.convert_game(fen, tokens, notation="chinese", to="wxf") for fen, tokens in games]

    result = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    assert [N.parse_game(fen, w, notation="wxf") for (fen, _), w in zip(games, result)] == master["codes"]
    _record(benchmark, "ns_per_move", N_MOVES)


def test_peer_pyffish_wxf(benchmark: Any, master: Dict[str, Any], pyffish: Any) -> None:
    """pyffish writing WXF for the first 100 games (the peer), against convert_game on the same games."""
    games: Games = master["chinese"][:100]
    codes = master["codes"][:100]
    uci = [[N.format_iccs(Move.from_code(c), one_based=True) for c in game] for game in codes]
    n = sum(len(g) for g in codes)

    def run() -> List[List[str]]:
        return [pyffish.get_san_moves("xiangqi", fen, moves, False, pyffish.NOTATION_XIANGQI_WXF)
                for (fen, _), moves in zip(games, uci)]

    result = benchmark.pedantic(run, rounds=1, iterations=1)
    assert [N.parse_game(fen, w, notation="wxf") for (fen, _), w in zip(games, result)] == codes
    ours = min(_timed(lambda: [N.format_game(fen, g, to="wxf") for (fen, _), g in zip(games, codes)])
               for _ in range(3))
    peer = _record(benchmark, "ns_per_move_pyffish", n)
    benchmark.extra_info["ns_per_move_ours"] = ours / n * 1e9
    if peer:
        benchmark.extra_info["speedup"] = peer / (ours / n * 1e9)


def _record(benchmark: Any, key: str, n: int) -> float:
    """Store the fastest round's nanoseconds per move (nothing when benchmarks are disabled)."""
    stats = getattr(benchmark, "stats", None)
    if not stats:
        return 0.0
    value = float(stats.stats.min) / n * 1e9
    benchmark.extra_info[key] = value
    return value


def _timed(fn: Any) -> float:
    import time

    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def test_push_san_against_push_move(benchmark: Any, master: Dict[str, Any]) -> None:
    """Board.push_san over 300 games, and today's push_move on the same games in the same run (they are the same
    work: ``ratio`` should stay near 1)."""
    games: Games = master["chinese"][:300]
    n = sum(len(t) for _, t in games)

    def play(push: str) -> List[str]:
        out = []
        for fen, tokens in games:
            board = Board(fen)
            method = getattr(board, push)
            for t in tokens:
                method(t)
            out.append(board.fen())
        return out

    result = benchmark.pedantic(play, args=("push_san",), rounds=3, iterations=1, warmup_rounds=1)
    assert result == play("push_move")
    assert [r.split()[:2] for r in result] == [master["final"][i].split()[:2] for i in range(300)]
    if _record(benchmark, "ns_per_move", n):
        _interleaved_ratio(benchmark, lambda: play("push_san"), lambda: play("push_move"), n, "push_move")


def test_san_against_chinese(benchmark: Any, master: Dict[str, Any]) -> None:
    """Board.san move by move over 300 games, and Board.chinese on the same moves in the same run (``ratio``)."""
    games: Games = master["chinese"][:300]
    codes = master["codes"][:300]
    n = sum(len(g) for g in codes)

    def write(method: str) -> List[List[str]]:
        out = []
        for (fen, _), game in zip(games, codes):
            board = Board(fen)
            texts = []
            for c in game:
                move = Move.from_code(c)
                texts.append(getattr(board, method)(move))
                board.push(move)
            out.append(texts)
        return out

    result = benchmark.pedantic(write, args=("san",), rounds=3, iterations=1, warmup_rounds=1)
    assert result == write("chinese")
    assert [N.parse_game(fen, t, notation="chinese") for (fen, _), t in zip(games, result)] == codes
    if _record(benchmark, "ns_per_move", n):
        _interleaved_ratio(benchmark, lambda: write("san"), lambda: write("chinese"), n, "chinese")


def _interleaved_ratio(benchmark: Any, ours: Any, old: Any, n: int, name: str) -> None:
    """``ratio``: the best of three runs of ``ours`` over the best of three of ``old``, taken in turns so that a
    busy moment of the shared machine weighs on both."""
    times: Dict[str, List[float]] = {"ours": [], "old": []}
    for _ in range(3):
        times["ours"].append(_timed(ours))
        times["old"].append(_timed(old))
    benchmark.extra_info[f"ns_per_move_{name}"] = min(times["old"]) / n * 1e9
    benchmark.extra_info["ratio"] = min(times["ours"]) / min(times["old"])
