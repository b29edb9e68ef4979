"""Batch items that the move index or the C core cannot represent get a status, never a wrong answer."""

from __future__ import annotations

import numpy as np

from xiangqi import Board, batch
from xiangqi._ffi import ffi, lib


def test_legal_mask_marks_positions_with_moves_outside_the_index() -> None:
    # An advisor on d1 (not one of its five points) has legal moves d1e0 and d1e2 that no game can produce.
    odd = "4k4/9/9/9/9/9/9/9/3A5/3K5 w - - 0 1"
    assert {m.iccs() for m in Board(odd).legal_moves} >= {"d1e0", "d1e2"}
    status = np.zeros(2, dtype=np.int8)
    mask = batch.legal_mask([odd, Board().fen()], status=status)
    assert status.tolist() == [lib.XQ_E_FEN_POSITION, 0]
    assert not mask[0].any() and int(mask[1].sum()) == 44


def test_board_inputs_are_checked_before_use() -> None:
    # A Board whose C struct was corrupted (say, by a buggy extension) is an invalid item, not a crash.
    b = Board()
    ffi.buffer(b._pos)[:] = b"\xff" * ffi.sizeof("xq_pos")
    status = np.zeros(2, dtype=np.int8)
    moves, offsets = batch.legal_moves([b, Board()], status=status)
    assert status.tolist() == [lib.XQ_E_FEN_POSITION, 0]
    assert offsets.tolist() == [0, 0, 44]
