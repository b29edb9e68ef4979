"""Speed of the repetition rulings: adjudicating an 8-ply loop, the no-repetition fast path, scanning games.

Targets (asserted on the fastest round, the least disturbed by other jobs on shared machines):

* adjudicating a repetition loop of 8 plies under the Asian rules: under 100 µs;
* the same under the Chinese rules, which add mate-threat searches: under 300 µs;
* ``adjudicate`` when nothing repeats (what ``board.outcome()`` pays at every game end): under 10 µs.

Every benchmark checks the verdict it times.
"""

from __future__ import annotations

from _corpus import iccs_games
from _targets import speed_target

from pathlib import Path
from typing import Any, List, Tuple

from xiangqi import BLACK, Board, Move, Termination, rules

LOOP_FEN = "2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1"
LOOP = "b4a4 a5e5 a4e4 e5a5 e4a4 a5e5 a4e4 e5a5 e4a4".split()  # third occurrence at ply 9; loop = plies 2-9


def _loop_board() -> Board:
    board = Board(LOOP_FEN)
    for m in LOOP:
        board.push_iccs(m)
    ruling = rules.judge(board)
    assert ruling is not None and ruling.last_ply - ruling.first_ply + 1 == 8
    return board


def test_adjudicate_8_ply_loop_axf(benchmark: Any) -> None:
    board = _loop_board()
    outcome = benchmark(rules.adjudicate, board, "axf")
    assert outcome is not None and outcome.winner is BLACK
    assert outcome.termination is Termination.PERPETUAL_CHASE
    benchmark.extra_info["us_median"] = benchmark.stats.stats.median * 1e6
    speed_target(benchmark.stats.stats.min < 100e-6, f"8-ply loop took {benchmark.stats.stats.min * 1e6:.0f} us")


def test_adjudicate_8_ply_loop_cxa(benchmark: Any) -> None:
    board = _loop_board()
    outcome = benchmark(rules.adjudicate, board, "cxa")
    assert outcome is not None and outcome.winner is BLACK
    benchmark.extra_info["us_median"] = benchmark.stats.stats.median * 1e6
    speed_target(benchmark.stats.stats.min < 300e-6, f"took {benchmark.stats.stats.min * 1e6:.0f} us")


def test_board_outcome_8_ply_loop(benchmark: Any) -> None:
    board = _loop_board()
    outcome = benchmark(board.outcome)
    assert outcome is not None and outcome.result() == "0-1"
    benchmark.extra_info["us_median"] = benchmark.stats.stats.median * 1e6


def test_adjudicate_without_repetition(benchmark: Any) -> None:
    board = Board()
    for m in "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7".split():
        board.push_iccs(m)
    assert benchmark(rules.adjudicate, board) is None
    benchmark.extra_info["us_median"] = benchmark.stats.stats.median * 1e6
    speed_target(benchmark.stats.stats.min < 10e-6, f"took {benchmark.stats.stats.min * 1e6:.1f} us")




def test_scan_master_games(benchmark: Any, shared_games: Path) -> None:
    """scan_violations plus the end-of-game outcome over the master games (what validation pays per game)."""
    boards: List[Board] = []
    for fen, moves in iccs_games(shared_games / "ccpd-master-3000.iccs.pgn"):
        board = Board(fen)
        for m in moves:
            board.push(Move.from_iccs(m))
        boards.append(board)

    def scan() -> Tuple[int, int]:
        violations = outcomes = 0
        for b in boards:
            violations += len(rules.scan_violations(b))
            outcomes += b.outcome() is not None
        return violations, outcomes

    violations, outcomes = benchmark.pedantic(scan, rounds=1, iterations=1)
    assert outcomes > 0 and violations > 0
    benchmark.extra_info["games"] = len(boards)
    benchmark.extra_info["us_per_game"] = benchmark.stats.stats.median / len(boards) * 1e6
    benchmark.extra_info["violations"] = violations
