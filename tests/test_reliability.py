"""Regression tests of reliability faults: small inputs that hung or blew up, contracts that disagreed.

Inputs are generated here (no large files). Each blow-up case runs under a budget (tests/fuzz/budget.py): the
fastest of three runs must stay within it. The budgets are about ten times what the linear readers and
writers take on this machine, and a tenth of what the quadratic or recursive ones took, so noise does not fail
them and a regression cannot pass.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from fuzz.budget import Budget, run_within
from xiangqi.core import Move
from xiangqi.pgn import Game, GameNode
from xiangqi.xqf import read_xqf, write_xqf

ROOT = Path(__file__).resolve().parents[1]

#: For the inputs of a few hundred KB below (the faults took 3 to 108 s on them).
BIG_INPUT = Budget(seconds=1.5, memory=100 * 2**20)

_SHUFFLE = [Move.from_iccs(m) for m in ("h0g2", "h9g7", "g2h0", "g7h9")]  # horses out and back: always legal


# ---------------------------------------------------------------------------------------------------------------
# XQF
# ---------------------------------------------------------------------------------------------------------------

def xqf_main_line_with_illegal_siblings(n: int) -> bytes:
    """An XQF record: ``n`` legal main-line moves, each with an illegal sibling (a move from an empty square)."""
    game = Game()
    node: GameNode = game
    bad = Move.from_iccs("e4e5")
    for i in range(n):
        nxt = GameNode._child(node, _SHUFFLE[i % 4])
        GameNode._child(node, bad)
        node = nxt
    return write_xqf(game)


def test_xqf_errors_on_a_long_main_line_take_linear_time() -> None:
    """16,000 main-line moves with 16,000 illegal siblings (257 KB) took 3-15 s: each error walked to the root."""
    data = xqf_main_line_with_illegal_siblings(16000)
    assert 250_000 < len(data) < 270_000
    game = run_within(lambda: read_xqf(data), BIG_INPUT)
    assert len(game.errors) == 16000
    assert all(e.mainline and e.token == "e4e5" for e in game.errors)
    assert sum(1 for _ in game.mainline_moves()) == 16000


def test_xqf_errors_say_whether_they_are_on_the_main_line() -> None:
    """The main-line flag the reader keeps as it walks agrees with GameNode.is_mainline."""
    game = Game()
    first = GameNode._child(game, Move.from_iccs("h2e2"))
    side = GameNode._child(game, Move.from_iccs("b2e2"))  # a variation at ply 1
    GameNode._child(side, Move.from_iccs("e4e5"))  # illegal inside the variation
    second = GameNode._child(first, Move.from_iccs("h9g7"))
    GameNode._child(first, Move.from_iccs("e5e4"))  # illegal sibling of the main line's 2nd move
    GameNode._child(second, Move.from_iccs("e4e5"))  # illegal as the main line's 3rd move
    back = read_xqf(write_xqf(game))
    flags = sorted((e.ply, e.mainline) for e in back.errors)
    assert flags == [(1, False), (1, True), (2, True)]
    assert [m.iccs() for m in back.mainline_moves()] == ["h2e2", "h9g7"]
    assert back.variations[1].is_mainline() is False and back.variations[0].variations[0].is_mainline()


def header_only_xqf_without_red_king() -> bytes:
    data = bytearray(write_xqf(Game())[:0x400])  # the header alone: no move record at all
    data[0x10 + 4] = 0xFF  # slot 4 of Red's 16 is the king: off the board
    return bytes(data)


def test_a_header_only_xqf_without_a_red_king_is_an_error() -> None:
    game = read_xqf(header_only_xqf_without_red_king())
    assert len(game.errors) == 1 and "no red king" in game.errors[0].reason


@pytest.mark.parametrize("command", ["judge", "validate"])
def test_judge_and_validate_do_not_pass_a_header_only_xqf_without_a_red_king(command: str, tmp_path: Path) -> None:
    path = tmp_path / "nking.xqf"
    path.write_bytes(header_only_xqf_without_red_king())
    args: List[str] = [sys.executable, "-m", "xiangqi", command, str(path)] + (["-q"] if command == "validate" else [])
    run = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    if command == "judge":
        assert "no red king" in run.stderr
