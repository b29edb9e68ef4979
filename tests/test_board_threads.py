"""A Board used from two threads at once: the documented rule (one Board per thread) is enforced by a clear error."""

from __future__ import annotations

import sys
import threading
from typing import List

import pytest

from xiangqi import Board, ConcurrentUseError, Move


class _RacingStack(list):  # type: ignore[type-arg]
    """A move stack that another thread's push lands in while this push is inside the C call."""

    def append(self, move: object) -> None:
        super().append(Move.null())
        super().append(move)


def test_a_push_that_another_push_overlapped_raises() -> None:
    board = Board()
    board.move_stack = _RacingStack()
    with pytest.raises(ConcurrentUseError, match="two threads at once.*copy"):
        board.push(Move.from_iccs("h2e2"))


def test_a_pop_that_another_push_overlapped_raises() -> None:
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    stack = board.move_stack

    class _PushDuringPop(list):  # type: ignore[type-arg]
        def pop(self, index: int = -1) -> object:
            move = super().pop(index)
            super().append(Move.null())
            return move

    board.move_stack = _PushDuringPop(stack)
    with pytest.raises(ConcurrentUseError, match="Board.pop"):
        board.pop()


def test_two_threads_pushing_and_popping_one_board_get_a_clear_error() -> None:
    # Null moves can be pushed in any position, so every failure comes from the overlap itself (or from popping
    # a stack the other thread has just emptied).
    board = Board()
    moves = [Move.null()] * 4
    errors: List[BaseException] = []
    start = threading.Barrier(2)

    def hammer() -> None:
        start.wait()
        try:
            for _ in range(200_000):
                for m in moves:
                    board.push(m)
                for _ in moves:
                    board.pop()
        except Exception as exc:  # noqa: BLE001 - every error is collected and checked below
            errors.append(exc)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=hammer) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    # Either thread may meet the other's damage first; whatever it meets, the error names the cause.
    assert errors, "two threads pushed and popped one board 800,000 times each without any overlap"
    for exc in errors:
        assert isinstance(exc, ConcurrentUseError) or isinstance(exc, IndexError), repr(exc)
    assert any(isinstance(exc, ConcurrentUseError) for exc in errors)


def test_one_copy_per_thread_is_safe() -> None:
    board = Board()
    results: List[str] = []

    def play(b: Board) -> None:
        for _ in range(2000):
            b.push_iccs("h2e2")
            b.push_iccs("h9g7")
            b.pop()
            b.pop()
        results.append(b.fen())

    threads = [threading.Thread(target=play, args=(board.copy(),)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [board.fen()] * 2


def test_c_push_and_pop_check_their_arguments_and_the_record() -> None:
    from xiangqi._ffi import ffi, lib

    board = Board()
    undos = ffi.new("xq_undo[]", 4)
    h2e2 = Move.from_iccs("h2e2").code
    assert lib.xq_pos_push(ffi.NULL, h2e2, undos, 0) == lib.XQ_E_ARG
    assert lib.xq_pos_push(board._pos, h2e2, ffi.NULL, 0) == lib.XQ_E_ARG
    assert lib.xq_pos_push(board._pos, h2e2, undos, -1) == lib.XQ_E_ARG
    assert lib.xq_pos_pop(ffi.NULL, h2e2, undos, 0) == lib.XQ_E_ARG
    assert lib.xq_perft_stoppable(ffi.NULL, 3, 1, ffi.NULL) == 0
    before = board.fen()
    assert lib.xq_pos_push(board._pos, h2e2, undos, 0) == lib.XQ_OK
    assert lib.xq_pos_push(board._pos, 0, undos, 1) == lib.XQ_OK  # the null move
    assert lib.xq_pos_pop(board._pos, h2e2, undos, 1) == lib.XQ_E_ARG  # record 1 holds the null move
    assert lib.xq_pos_pop(board._pos, 0, undos, 1) == lib.XQ_OK
    assert lib.xq_pos_pop(board._pos, 0, undos, 0) == lib.XQ_E_ARG  # record 0 holds h2e2
    assert lib.xq_pos_pop(board._pos, h2e2, undos, 0) == lib.XQ_OK and board.fen() == before
