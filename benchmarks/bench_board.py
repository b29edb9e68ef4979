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


def _midgame() -> "xiangqi.Board":
    board = xiangqi.Board()
    for text in ("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5"):
        board.push_iccs(text)
    return board


def test_generate_legal_moves_masks_against_a_python_filter(benchmark: Any) -> None:
    """generate_legal_moves(from_mask, to_mask) against legal_moves plus a Python filter, in the same run
    (``ratio`` below 1 is faster)."""
    import time

    board = _midgame()
    from_mask = board.occupied_co[xiangqi.RED]
    to_mask = board.occupied_co[xiangqi.BLACK] | ~board.occupied & xiangqi.BB_ALL

    def masked() -> "list[xiangqi.Move]":
        return list(board.generate_legal_moves(from_mask, to_mask))

    def filtered() -> "list[xiangqi.Move]":
        return [m for m in board.legal_moves if from_mask >> m.from_square & 1 and to_mask >> m.to_square & 1]

    result = benchmark(masked)
    assert result == filtered() and len(result) == len(board.legal_moves)
    stats = getattr(benchmark, "stats", None)
    if stats:
        best = min(_per_call(filtered, time.perf_counter) for _ in range(5))
        benchmark.extra_info["ns_per_call_filter"] = best * 1e9
        benchmark.extra_info["ratio"] = stats.stats.median / best


def test_copy_against_the_stack_copy(benchmark: Any) -> None:
    """Board.copy() (the default, whole stack) with copy(stack=N) in the tree: its cost per call, next to
    copy(stack=False) measured in the same run."""
    import time

    board = _midgame()
    copy = benchmark(board.copy)
    assert copy == board and copy.move_stack == board.move_stack
    stats = getattr(benchmark, "stats", None)
    if stats:
        best = min(_per_call(lambda: board.copy(stack=False), time.perf_counter) for _ in range(5))
        benchmark.extra_info["ns_per_copy_without_stack"] = best * 1e9
        benchmark.extra_info["ns_per_copy"] = stats.stats.median * 1e9


def _per_call(fn: Any, clock: Any, n: int = 2000) -> float:
    t = clock()
    for _ in range(n):
        fn()
    return float(clock() - t) / n
