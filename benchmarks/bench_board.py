"""Per-call costs of the Python Board: push/pop, legal move counts and lists (FFI overhead made visible)."""

from __future__ import annotations

from typing import Any

import xiangqi


def test_push_pop(benchmark: Any) -> None:
    board = xiangqi.Board()
    move = xiangqi.Move.from_iccs("h2e2")

    def push_pop() -> None:
        for _ in range(1000):
            board.push(move)
            board.pop()

    benchmark(push_pop)
    assert board.fen() == xiangqi.STARTING_FEN
    benchmark.extra_info["ns_per_push_pop"] = benchmark.stats.stats.median / 1000 * 1e9


def test_len_legal_moves(benchmark: Any) -> None:
    board = xiangqi.Board()

    def count() -> int:
        total = 0
        for _ in range(1000):
            total += len(board.legal_moves)
        return total

    assert benchmark(count) == 44_000
    benchmark.extra_info["ns_per_len"] = benchmark.stats.stats.median / 1000 * 1e9


def test_legal_move_list(benchmark: Any) -> None:
    board = xiangqi.Board()
    moves = benchmark(lambda: list(board.legal_moves))
    assert len(moves) == 44
