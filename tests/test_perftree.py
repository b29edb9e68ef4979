"""perft against an engine (``xiangqi perft --engine``): Fairy-Stockfish agrees on the suite; a liar is pinpointed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_perft import PERFT_FILE, read_perft_file

from xiangqi import Board, Move
from xiangqi.cli import main
from xiangqi.engine import SimpleEngine
from xiangqi.perftree import find_difference

FAKE = [sys.executable, str(Path(__file__).resolve().parent / "engines" / "fake_engine.py")]
FAIRY = "/usr/games/fairy-stockfish"
LIE = "h2e2,h9g7,h0g2"




@pytest.mark.perft
def test_fairy_agrees_on_the_suite_at_depth_3(fairy: SimpleEngine) -> None:
    cases = read_perft_file(PERFT_FILE)
    assert len(cases) >= 10
    for case in cases:
        board = Board(case.fen)
        assert find_difference(fairy, board, 3) is None, case.name
        divide = fairy.perft(board, 3)
        if 3 in case.depths:
            assert sum(divide.values()) == case.depths[3], case.name
        assert set(divide) == set(board.legal_moves), case.name


@pytest.mark.perft
@pytest.mark.parametrize("popen", [SimpleEngine.popen_uci, SimpleEngine.popen_ucci])
def test_liar_is_pinpointed(popen: "type[SimpleEngine]") -> None:
    with popen(FAKE + ["liar", LIE]) as engine:
        diff = find_difference(engine, Board(), 3)
        assert diff is not None
        assert [m.iccs() for m in diff.path] == ["h2e2", "h9g7"] and diff.move == Move.from_iccs("h0g2")
        assert (diff.depth, diff.ours, diff.theirs) == (1, 1, 2)
        after = Board()
        for m in diff.path:
            after.push(m)
        assert diff.fen == after.fen()
        assert find_difference(engine, Board(), 2) is None        # too shallow for the lie to show


class _Missing:
    """A divider that forgets one move, and one that adds an illegal one."""

    def __init__(self, drop: bool) -> None:
        self.drop = drop

    def perft(self, board: Board, depth: int) -> "dict[Move, int]":
        from xiangqi.perft import perft

        counts = {Move.from_iccs(m): n for m, n in perft(board.fen(), depth, divide=True).items()}
        if self.drop:
            del counts[Move.from_iccs("h2e2")]
        else:
            counts[Move.from_iccs("e3e5")] = 7
        return counts


def test_missing_and_extra_moves_are_reported() -> None:
    missing = find_difference(_Missing(True), Board(), 2)
    assert missing is not None and missing.move == Move.from_iccs("h2e2") and missing.theirs is None
    after = Board()
    after.push_iccs("h2e2")
    assert f"does not list this legal move (we count {len(after.legal_moves)})" in missing.describe()
    extra = find_difference(_Missing(False), Board(), 2)
    assert extra is not None and extra.ours is None and "not legal (it counts 7)" in extra.describe()


@pytest.mark.perft
def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    cmd = " ".join(FAKE)
    assert main(["perft", "--engine", cmd + " liar " + LIE, "--depth", "3"]) == 1
    out = capsys.readouterr().out
    assert "after h2e2 h9g7" in out and "move h0g2: we count 1, the engine 2" in out
    assert main(["perft", "--engine", cmd + " normal", "--proto", "ucci", "--depth", "2"]) == 0
    assert "engine agrees: perft 2 = 1920" in capsys.readouterr().out
    assert main(["perft", "--engine", "/nonexistent/engine", "--depth", "2"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot start engine" in err
    assert main(["perft", "--engine", cmd, "--fen", "bad fen", "--depth", "2"]) == 2
    capsys.readouterr()


@pytest.mark.perft
@pytest.mark.parametrize("proto", ["uci", "ucci"])
def test_an_engine_without_perft_is_told_at_once(capsys: pytest.CaptureFixture[str], proto: str) -> None:
    """It answers ``go perft`` with a best move: one line naming it, not a wait for the timeout."""
    assert main(["perft", "--engine", " ".join(FAKE + ["noperft"]), "--proto", proto, "--depth", "2",
                 "--engine-timeout", "30"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "answered 'go perft 2' with 'bestmove a0a1': it has no perft" in err, err
