"""Perft speed: bulk and non-bulk, one and two threads, against pyffish's per-node rate."""

from __future__ import annotations

import time
from typing import Any

import pytest

import xiangqi

START = xiangqi.STARTING_FEN
D5 = 133_312_995
D4 = 3_290_240


def _pyffish_perft(pyffish: Any, fen: str, depth: int) -> int:
    """A Python perft on pyffish, bulk-counting at the last ply: its fastest honest form."""
    moves = pyffish.legal_moves("xiangqi", fen, [])
    if depth == 1:
        return len(moves)
    return sum(_pyffish_perft(pyffish, pyffish.get_fen("xiangqi", fen, [m]), depth - 1) for m in moves)


@pytest.fixture(scope="module")
def pyffish_nps(pyffish: Any) -> float:
    start = time.perf_counter()
    nodes = _pyffish_perft(pyffish, START, 2)
    elapsed = time.perf_counter() - start
    assert nodes == 1920
    return nodes / elapsed


@pytest.mark.slow
def test_perft5_bulk(benchmark: Any, pyffish_nps: float) -> None:
    nodes = benchmark.pedantic(xiangqi.perft, args=(START, 5), rounds=3, iterations=1)
    assert nodes == D5
    nps = D5 / benchmark.stats.stats.median
    benchmark.extra_info.update(mnps=nps / 1e6, ratio_vs_pyffish=nps / pyffish_nps)


def test_perft4_bulk(benchmark: Any, pyffish_nps: float) -> None:
    nodes = benchmark(xiangqi.perft, START, 4)
    assert nodes == D4
    nps = D4 / benchmark.stats.stats.median
    benchmark.extra_info.update(mnps=nps / 1e6, ratio_vs_pyffish=nps / pyffish_nps)


def test_perft4_no_bulk(benchmark: Any) -> None:
    nodes = benchmark(xiangqi.perft, START, 4, bulk=False)
    assert nodes == D4
    benchmark.extra_info["mnps"] = D4 / benchmark.stats.stats.median / 1e6


def test_perft4_two_threads(benchmark: Any) -> None:
    nodes = benchmark(xiangqi.perft, START, 4, threads=2)
    assert nodes == D4
    benchmark.extra_info["mnps"] = D4 / benchmark.stats.stats.median / 1e6
