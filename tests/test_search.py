"""The C search through its Python wrapper: legal answers everywhere, mates found, limits and stop honoured."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, List

import pytest
from conftest import SHARED_DIR, TESTS_DIR

from xiangqi import Board, Move, pgn
from xiangqi.search import MATE_SCORE, MAX_DEPTH, Searcher, SearchInfo, evaluate

SAMPLE_GAMES = TESTS_DIR / "data" / "games" / "ccpd-sample.iccs.pgn"
SAMPLE_POSITIONS = TESTS_DIR / "data" / "games" / "ccpd-positions-sample.iccs.pgn"
SHARED_GAMES = SHARED_DIR / "data" / "games" / "ccpd-master-3000.iccs.pgn"


def game_boards(path: Path, limit: int) -> Iterator[Board]:
    """Every position of the games of ``path`` (with the moves that led there), up to ``limit``."""
    count = 0
    for game in pgn.read_games(path):
        board = Board(game.headers.get("FEN", Board().fen()))
        for move in game.mainline_moves():
            if count >= limit:
                return
            yield board.copy()
            count += 1
            board.push(move)


def random_boards(n: int, seed: int) -> Iterator[Board]:
    """Positions of random playouts from the start (each board keeps its moves)."""
    rng = random.Random(seed)
    made = 0
    while made < n:
        board = Board()
        for _ in range(rng.randrange(10, 150)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            yield board.copy()
            made += 1
            if made >= n:
                return


@pytest.fixture(scope="module")
def searcher() -> Searcher:
    return Searcher(hash_mb=4)


def assert_legal_answer(searcher: Searcher, board: Board, **limits: int) -> None:
    fen = board.fen()
    result = searcher.search(board, **limits)  # type: ignore[arg-type]
    assert board.fen() == fen, "the search left the board changed"
    if board.legal_moves:
        assert result.best is not None and board.is_legal(result.best), (fen, result)
        # The principal variation is a legal line from the root.
        line = board.copy()
        for move in result.info.pv:
            assert line.is_legal(move), (fen, [m.iccs() for m in result.info.pv])
            line.push(move)
    else:
        assert result.best is None and result.info.score == -MATE_SCORE


def test_legal_moves_in_sample_game_positions(searcher: Searcher) -> None:
    boards = list(game_boards(SAMPLE_GAMES, 2000)) + list(game_boards(SAMPLE_POSITIONS, 2000))
    assert len(boards) > 300
    for board in boards:
        assert_legal_answer(searcher, board, depth=2)


def test_legal_moves_in_shared_master_games(searcher: Searcher) -> None:
    if not SHARED_GAMES.exists():
        pytest.skip(f"shared data not available: {SHARED_GAMES}")
    boards = list(game_boards(SHARED_GAMES, 3000))
    assert len(boards) == 3000
    for board in boards:
        assert_legal_answer(searcher, board, nodes=400)


def test_legal_moves_in_random_playouts(searcher: Searcher) -> None:
    count = 0
    for board in random_boards(3000, seed=11):
        assert_legal_answer(searcher, board, nodes=300)
        count += 1
    assert count == 3000


def test_a_one_node_search_still_answers_with_a_legal_move(searcher: Searcher) -> None:
    for board in random_boards(200, seed=5):
        result = searcher.search(board, nodes=1)
        if board.legal_moves:
            assert result.best is not None and board.is_legal(result.best)


def mates_in(board: Board, moves: int) -> bool:
    """Brute force: whether the side to move can force a position without a legal move for the other side."""
    for move in board.legal_moves:
        board.push(move)
        try:
            replies = list(board.legal_moves)
            if not replies:
                return True
            if moves > 1 and all(_after(board, r, lambda: mates_in(board, moves - 1)) for r in replies):
                return True
        finally:
            board.pop()
    return False


def _after(board: Board, move: Move, check: "Callable[[], bool]") -> bool:
    board.push(move)
    try:
        return check()
    finally:
        board.pop()


# Hand positions: (FEN, moves to the shortest mate, which mates_in proves).  A side left without a legal move loses,
# by mate or by stalemate.
MATES = [
    ("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1", 1),   # two rooks (b7b9, or the stalemate b7f7)
    ("3k5/9/3N5/9/9/9/9/9/9/4K3R w - - 0 1", 1),   # horse and rook: i0i8
    ("4ka3/4a4/9/9/9/9/9/9/9/RC2K4 w - - 0 1", 1),  # the king boxed in by its own advisors: a0a9
    ("4k4/9/9/9/9/9/9/9/1R7/R3K4 w - - 0 1", 2),   # b1e1, then the other rook closes the file
    ("3ak4/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1", 2),
    ("4k4/4a4/9/9/9/9/9/9/4C4/R2K4R w - - 0 1", 2),  # a0a8: every reply allows a mate
]


def test_hand_mates_are_as_labelled() -> None:
    for fen, moves in MATES:
        board = Board(fen)
        assert mates_in(board, moves), fen
        assert moves == 1 or not mates_in(board, moves - 1), fen


@pytest.mark.parametrize("fen,moves", MATES)
def test_finds_hand_mates(searcher: Searcher, fen: str, moves: int) -> None:
    board = Board(fen)
    searcher.clear()
    result = searcher.search(board, depth=2 * moves + 1)
    assert result.info.mate == moves, (fen, result.info)
    assert result.best is not None
    # The first move keeps the forced mate (proved by brute force), and the principal variation ends in one.
    board.push(result.best)
    assert all(_after(board, r, lambda: moves > 1 and mates_in(board, moves - 1)) for r in board.legal_moves)
    board.pop()
    line = board.copy()
    for move in result.info.pv:
        line.push(move)
    assert len(result.info.pv) == 2 * moves - 1
    assert not line.legal_moves


# Mates in 2 whose first move is quiet and whose mating move is a quiet check: a depth-2 search sees them only
# through the quiet checks its quiescence tries (before, it played b0b8 and f8f9 here seeing no mate).
QUIET_MATES = ["4k4/9/9/9/9/9/8p/2RK5/9/1R7 w - - 0 1", "3k5/5R3/9/9/9/9/p8/7N1/4K4/9 w - - 0 1"]


@pytest.mark.parametrize("fen", QUIET_MATES)
def test_quiescence_sees_a_quiet_mating_check(searcher: Searcher, fen: str) -> None:
    board = Board(fen)
    assert mates_in(board, 2) and not mates_in(board, 1)
    searcher.clear()
    assert searcher.search(board, depth=2).info.mate == 2


def test_mated_root_has_no_move(searcher: Searcher) -> None:
    board = Board("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1")
    result = searcher.search(board, depth=3)
    assert result.best is None and result.info.score == -MATE_SCORE and result.info.mate == 0


def test_repetition_in_the_game_history_is_a_draw(searcher: Searcher) -> None:
    # Black, a rook down, can step back into a position the game has already seen.
    board = Board("4k4/9/9/9/R8/9/9/9/9/3K5 b - - 0 1")
    alone = searcher.search(board.copy(), depth=3)
    assert alone.info.score < -500
    for iccs in ("e9e8", "a5a6", "e8e9", "a6a5"):
        board.push_iccs(iccs)
    result = searcher.search(board, depth=3)
    assert result.best == Move.from_iccs("e9e8") and result.info.score == 0


#: Red, a rook down, can check for ever from h9 and h8 while the black king steps d9-d8 (the black rooks can neither
#: block nor take): a draw to a rule-blind search, a loss by perpetual check under both books.
PERPETUAL_CHECK = "3k5/7R1/9/9/9/rr7/9/9/9/3AKA3 w - - 0 1"
PERPETUAL_CHECK_LOOP = ["h8h9", "d9d8", "h9h8", "d8d9"]
#: Red, a rook down, chases the unprotected black horse between c2 and b0 with its rook (as in test_match's CHASE).
PERPETUAL_CHASE = "2b1k1r1r/9/4b4/9/9/6P2/1R7/2n1B4/4A4/4KAB2 w - - 0 1"
PERPETUAL_CHASE_LOOP = ["b3c3", "c2b0", "c3b3", "b0c2"]


@pytest.mark.parametrize("rules", ["axf", "cxa"])
@pytest.mark.parametrize("fen,loop", [(PERPETUAL_CHECK, PERPETUAL_CHECK_LOOP), (PERPETUAL_CHASE, PERPETUAL_CHASE_LOOP)])
def test_the_forbidden_side_varies(fen: str, loop: List[str], rules: str) -> None:
    board = Board(fen)
    for iccs in loop:
        board.push_iccs(iccs)
    # Playing the loop's first move again brings the ruling (the game would end at the third occurrence).
    repeated = board.copy()
    for iccs in loop:
        repeated.push_iccs(iccs)
    ruling = repeated.outcome(rules=rules)
    assert ruling is not None and ruling.winner is False
    result = Searcher(hash_mb=4, rules=rules).search(board, depth=6)
    assert result.best is not None and result.best != Move.from_iccs(loop[0])
    assert -MATE_SCORE + 100 < result.info.score < -300   # it gives up material rather than the game


@pytest.mark.parametrize("rules", ["axf", "cxa"])
@pytest.mark.parametrize("fen,loop", [(PERPETUAL_CHECK, PERPETUAL_CHECK_LOOP), (PERPETUAL_CHASE, PERPETUAL_CHASE_LOOP)])
def test_a_game_from_the_loop_is_not_lost_by_a_rule(fen: str, loop: List[str], rules: str) -> None:
    # The loop has been played once; our search plays Red on, Black its loop moves while they are legal (any move
    # after that), and the game is judged after every ply as a match judges it.
    board = Board(fen)
    for iccs in loop:
        board.push_iccs(iccs)
    searcher = Searcher(hash_mb=4, rules=rules)
    replies = [Move.from_iccs(m) for m in loop[1::2]]
    for ply in range(16):
        if board.turn:
            result = searcher.search(board, depth=6)
            assert result.best is not None
            board.push(result.best)
        else:
            scripted = [m for m in replies if board.is_legal(m)]
            board.push(scripted[0] if scripted else next(iter(board.legal_moves)))
        outcome = board.outcome(rules=rules)
        if outcome is not None:
            assert outcome.winner is not False, outcome
            break


@pytest.mark.parametrize("rules", ["axf", "cxa"])
def test_the_other_side_repeats_but_wins_no_mate(rules: str) -> None:
    # Black completes the loop of Red's checks. The game goes on (Red, to move, has not repeated its check and may
    # vary): no mate, but Red must give up its checks, so Black keeps its extra rook.
    board = Board(PERPETUAL_CHECK)
    for iccs in PERPETUAL_CHECK_LOOP[:3]:
        board.push_iccs(iccs)
    result = Searcher(hash_mb=4, rules=rules).search(board, depth=3)
    assert result.best == Move.from_iccs("d8d9")
    board.push(result.best)
    assert board.outcome(rules=rules) is None
    assert result.info.mate is None and result.info.score > 300


@pytest.mark.parametrize("rules", ["axf", "cxa"])
def test_the_other_side_repeats_a_third_time_to_win(rules: str) -> None:
    # The loop has been played once; Black's evasion now brings its first position a third time, which ends the
    # game whoever moved last: Red's perpetual check loses, and Black's repeating move scores as a mate.
    board = Board(PERPETUAL_CHECK)
    for iccs in PERPETUAL_CHECK_LOOP + PERPETUAL_CHECK_LOOP[:3]:
        board.push_iccs(iccs)
    result = Searcher(hash_mb=4, rules=rules).search(board, depth=3)
    assert result.best == Move.from_iccs("d8d9") and result.info.mate == 1
    board.push(result.best)
    outcome = board.outcome(rules=rules)
    assert outcome is not None and outcome.winner is False


def test_an_allowed_loop_is_still_a_draw() -> None:
    # The rook moves between a6 and a5 attack nothing: neither side breaks a rule, the loop draws.
    board = Board("4k4/9/9/9/R8/9/9/9/9/3K5 b - - 0 1")
    for iccs in ("e9e8", "a5a6", "e8e9", "a6a5"):
        board.push_iccs(iccs)
    for rules in ("axf", "cxa"):
        result = Searcher(hash_mb=4, rules=rules).search(board, depth=3)
        assert result.best == Move.from_iccs("e9e8") and result.info.score == 0


def test_the_natural_limit_draws() -> None:
    # Black, a rook down, reaches 120 plies without a capture with any quiet move.
    lost = Searcher(hash_mb=1).search(Board("4k4/9/9/9/R8/9/9/9/9/3K5 b - - 0 1"), depth=3)
    assert lost.info.score < -500
    limit = Searcher(hash_mb=1).search(Board("4k4/9/9/9/R8/9/9/9/9/3K5 b - - 119 80"), depth=3)
    assert limit.info.score == 0
    # A shorter limit from the rule set; 0 turns it off.
    import dataclasses

    from xiangqi.rules import AXF
    searcher = Searcher(hash_mb=1, rules=dataclasses.replace(AXF, natural_limit=100))
    assert searcher.search(Board("4k4/9/9/9/R8/9/9/9/9/3K5 b - - 99 80"), depth=3).info.score == 0
    searcher.rules = dataclasses.replace(AXF, natural_limit=0)
    assert searcher.search(Board("4k4/9/9/9/R8/9/9/9/9/3K5 b - - 119 80"), depth=3).info.score < -500


def test_rules_are_named_as_the_rulings_name_them() -> None:
    assert Searcher(hash_mb=0, rules="chinese").rules.name == "cxa"
    assert Searcher(hash_mb=0).rules.name == "axf"
    with pytest.raises(ValueError):
        Searcher(hash_mb=0, rules="fide")


def test_root_moves_restrict_the_search(searcher: Searcher) -> None:
    board = Board()
    only = [Move.from_iccs("a3a4"), Move.from_iccs("i3i4")]
    result = searcher.search(board, depth=3, root_moves=only)
    assert result.best in only
    result = searcher.search(board, depth=3, root_moves=[])
    assert result.best is None


def test_iterations_are_reported_in_order(searcher: Searcher) -> None:
    seen: List[SearchInfo] = []
    result = searcher.search(Board(), depth=5, on_iteration=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3, 4, 5]
    assert all(a.nodes < b.nodes for a, b in zip(seen, seen[1:]))
    assert result.info == seen[-1] and not result.stopped
    assert result.best == seen[-1].pv[0]


def test_node_limit_is_honoured(searcher: Searcher) -> None:
    result = searcher.search(Board(), nodes=5000)
    assert result.stopped and 5000 <= result.info.nodes <= 5001


def test_time_limit_is_honoured(searcher: Searcher) -> None:
    # The search never stops early, and stops within 50 ms of its limit. On a shared machine the scheduler can
    # hold the thread past that once; an overrun counts only if three searches in a row all overrun.
    times = []
    for _ in range(3):
        start = time.perf_counter()
        result = searcher.search(Board(), time_limit=0.1)
        elapsed = time.perf_counter() - start
        assert result.stopped and result.best is not None
        assert elapsed >= 0.1
        times.append(elapsed)
        if elapsed < 0.15:
            break
    assert min(times) < 0.15, times


def test_stop_from_another_thread(searcher: Searcher) -> None:
    searcher.reset_stop()
    timer = threading.Timer(0.1, searcher.stop)
    start = time.perf_counter()
    timer.start()
    result = searcher.search(Board())
    elapsed = time.perf_counter() - start
    timer.join()
    searcher.reset_stop()
    assert result.stopped and result.best is not None and Board().is_legal(result.best)
    assert elapsed < 0.15


def test_pending_stop_ends_the_next_search_at_once(searcher: Searcher) -> None:
    searcher.stop()
    result = searcher.search(Board(), depth=MAX_DEPTH)
    searcher.reset_stop()
    assert result.stopped and result.best is not None and result.info.nodes <= 2


def test_bad_limits_are_value_errors(searcher: Searcher) -> None:
    for kwargs in ({"depth": 0}, {"depth": MAX_DEPTH + 1}, {"nodes": 0}, {"time_limit": -1.0}):
        with pytest.raises(ValueError):
            searcher.search(Board(), **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Searcher(hash_mb=-1)


def test_works_without_a_table() -> None:
    result = Searcher(hash_mb=0).search(Board(), depth=3)
    assert result.best is not None and Board().is_legal(result.best)


def test_evaluation_is_symmetric() -> None:
    assert evaluate(Board()) == 0
    # The same position with colours swapped and the board turned scores the same for the side to move.
    assert evaluate(Board("4k4/9/9/9/9/9/9/9/4R4/3K5 w")) == evaluate(Board("5k3/4r4/9/9/9/9/9/9/9/4K4 b"))
