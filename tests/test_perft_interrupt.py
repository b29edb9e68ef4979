"""perft stops on Ctrl-C within a second (the C search reads a stop flag) and shows per-root-move progress."""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time

import pytest

from xiangqi import cli
from xiangqi._ffi import ffi, lib
from xiangqi.position import BaseBoard
from xiangqi.perft import perft


def test_stoppable_perft_counts_like_perft_and_stops_when_asked() -> None:
    board = BaseBoard()
    stop = ffi.new("int *")
    for bulk in (0, 1):
        assert lib.xq_perft_stoppable(board._pos, 3, bulk, stop) == lib.xq_perft(board._pos, 3, bulk) == 79666
        assert lib.xq_perft_stoppable(board._pos, 3, bulk, ffi.NULL) == 79666
    stop[0] = 1
    t = time.perf_counter()
    assert lib.xq_perft_stoppable(board._pos, 9, 1, stop) == 0  # would take days
    assert time.perf_counter() - t < 0.5


def test_root_move_callback_sees_every_root_move() -> None:
    seen = []
    total = perft(depth=3, on_root_move=lambda done, n, nodes: seen.append((done, n, nodes)))
    assert total == 79666 and [d for d, _, _ in seen] == list(range(1, 45)) and seen[-1] == (44, 44, 79666)
    assert perft(depth=4, threads=2, divide=True) == perft(depth=4, divide=True)  # worker path = direct C call
    assert perft(depth=4, on_root_move=lambda *a: None) == perft(depth=4) == 3290240


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_perft_progress_line_on_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(cli, "PERFT_PROGRESS_AFTER", 0.0)
    assert cli.main(["perft", "--depth", "3"]) == 0
    shown = terminal.getvalue()
    assert shown.startswith("\rperft: 1/44 root moves") and "43/44 root moves" in shown
    assert "Mnps" in shown and "s left" in shown
    assert shown.endswith("\r")  # the status line is erased before the result is printed
    assert "nodes 79666" in capsys.readouterr().out


def test_no_progress_when_not_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "PERFT_PROGRESS_AFTER", 0.0)
    assert cli.main(["perft", "--depth", "3"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal and SIGINT")
def test_ctrl_c_stops_a_long_perft_within_a_second() -> None:
    # Standard error on a pseudo-terminal: the progress line says when perft is under way, then SIGINT.
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "xiangqi", "perft", "--depth", "6"], stdout=subprocess.PIPE,
                            stderr=slave, text=True)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 120
    try:
        while b"root moves" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                seen += os.read(master, 4096)
        assert b"root moves" in seen and b"Mnps" in seen, seen
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
        took = time.monotonic() - t
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 130 and out == "" and took < 1.0, (proc.returncode, out, took)


def test_board_perft_counts_alike_on_both_paths() -> None:
    # From depth 5 Board.perft counts by root move in a worker thread: the same numbers as one C call.
    for fen in ("3k5/9/9/9/9/9/9/9/4R4/4K4 w", "3ak4/9/4b4/9/2p6/9/9/4C4/9/3K5 b", "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b"):
        board = BaseBoard(fen)
        for bulk in (True, False):
            assert board.perft(5, bulk=bulk) == lib.xq_perft(board._pos, 5, 1 if bulk else 0)
        assert board.fen() == BaseBoard(fen).fen()


def test_stoppable_calls_keep_their_order_report_each_and_stop_on_an_error() -> None:
    from xiangqi._ffi import run_stoppable

    stop = ffi.new("int *")
    seen: "list[tuple[int, int]]" = []
    calls = [lambda k=k: k * k for k in range(7)]
    assert run_stoppable(calls, 3, stop, lambda i, r: seen.append((i, r))) == [k * k for k in range(7)]
    assert sorted(seen) == [(k, k * k) for k in range(7)] and stop[0] == 0

    def fails() -> int:
        raise ValueError("a worker's error")

    with pytest.raises(ValueError, match="a worker's error"):
        run_stoppable([fails], 1, stop)
    assert stop[0] == 1  # the others were told to stop
    from xiangqi import batch

    fens = ["3k5/9/9/9/9/9/9/9/4R4/4K4 w", "3ak4/9/4b4/9/2p6/9/9/4C4/9/3K5 b", "bad"]
    for threads in (1, 2):
        assert batch.perft(fens, 4, threads=threads).tolist() == [BaseBoard(f).perft(4) for f in fens[:2]] + [0]


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGINT")
@pytest.mark.parametrize("call", ["Board().perft(9)", "batch.perft([STARTING_FEN], 9)",
                                  "batch.perft([STARTING_FEN] * 4, 9, threads=2)"])
def test_ctrl_c_stops_board_and_batch_perft_within_a_second(call: str) -> None:
    # A python-chess habit: board.perft(8) in a notebook or script, then Ctrl-C. It ran on for hours.
    script = f"from xiangqi import STARTING_FEN, Board, batch\nprint('counting', flush=True)\n{call}\n"
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "counting\n"
        time.sleep(1.0)  # well inside the count, which takes days
        assert proc.poll() is None
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        took = time.monotonic() - t
    finally:
        if proc.poll() is None:
            proc.kill()
    assert err.rstrip().endswith("KeyboardInterrupt") and took < 1.0, (err[-300:], took)
