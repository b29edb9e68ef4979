"""xiangqi.engine against a real engine (Fairy-Stockfish, UCI and UCCI) and against misbehaving test engines."""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

from xiangqi import BLACK, RED, Board, Move, pgn
from xiangqi.engine import (
    MAX_LINE_BYTES, Cp, Dialect, EngineError, EngineTerminatedError, Limit, Mate, MateGiven, PovScore, Score,
    SimpleEngine, bare_score, parse_info, parse_option, popen_uci, popen_ucci,
)

TESTS = Path(__file__).resolve().parent
FAKE = [sys.executable, str(TESTS / "engines" / "fake_engine.py")]
FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK),
                                 reason="needs the Debian package fairy-stockfish (/usr/games/fairy-stockfish)")


def corpus_positions(n: int = 50) -> List[Board]:
    """``n`` positions from the sample games (5 per game, spread over each game)."""
    boards: List[Board] = []
    for name in ("ccpd-sample.iccs.pgn", "ccpd-positions-sample.iccs.pgn"):
        for game in pgn.read_games(TESTS / "data" / "games" / name):
            moves = game.mainline_moves()
            for k in range(5):
                board = game.board()
                for m in moves[: len(moves) * k // 5]:
                    board.push(m)
                if board.legal_moves:
                    boards.append(board)
    assert len(boards) >= n
    return boards[:n]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# ---------------------------------------------------------------------------------------------- parsing (no process)


def test_scores() -> None:
    assert -Cp(30) == Cp(-30) and Cp(-30) < Cp(30) < Mate(5) < Mate(1) < MateGiven
    assert Mate(0) < Mate(-1) < Mate(-5) < Cp(-10000)
    assert -Mate(0) == MateGiven and -MateGiven == Mate(0)
    assert Mate(3).score(mate_score=10000) == 9997 and Mate(-3).score(mate_score=10000) == -9997
    pov = PovScore(Cp(40), BLACK)
    assert pov.black() == Cp(40) and pov.red() == Cp(-40) and pov.pov(RED) == Cp(-40) and not pov.is_mate()


def test_parse_info_translates_moves_and_skips_garbage() -> None:
    board = Board()
    info = parse_info("depth 5 seldepth 7 multipv 2 score cp -12 nodes 999 nps 5000 time 42 hashfull 3 "
                      "currmove h3e3 pv h3e3 h10g8 z9z9 b1c3".split(), board, one_based=True)
    assert info["depth"] == 5 and info["seldepth"] == 7 and info["multipv"] == 2 and info["nodes"] == 999
    assert info["score"].red() == Cp(-12) and info["time"] == 0.042 and info["hashfull"] == 3
    assert info["pv"] == [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]   # stops at the first bad move
    assert info["currmove"] == Move.from_iccs("h2e2")
    ucci = parse_info("depth 3 score 25 pv h2e2 h9g7 message hello there".split(), board, one_based=False)
    assert ucci["score"].relative == Cp(25) and len(ucci["pv"]) == 2 and ucci["string"] == "hello there"
    assert parse_info("depth x score cp abc pv zz99".split(), board, one_based=False) == {"pv": []}
    assert parse_info("score mate -2".split(), board, one_based=False)["score"].relative == Mate(-2)


# ElephantEye's scale (MATE_VALUE 10000, BAN_VALUE 9900): bare score -> what it means for the side to move.
_BARE_SCORES = [
    (9999, Mate(1)), (9997, Mate(2)), (9998, Mate(1)), (9901, Mate(50)), (10000, MateGiven),
    (-10000, Mate(0)), (-9998, Mate(-1)), (-9996, Mate(-2)), (-9901, Mate(-49)),
    (9900, Cp(9900)), (-9900, Cp(-9900)), (9850, Cp(9850)),  # wins by a repetition ruling, not mates
    (10001, Cp(10001)), (29998, Cp(29998)), (25, Cp(25)), (0, Cp(0)), (-300, Cp(-300)),
]


@pytest.mark.parametrize("bare, score", _BARE_SCORES, ids=[str(b) for b, _ in _BARE_SCORES])
def test_a_bare_ucci_score_near_the_mate_value_is_a_mate(bare: int, score: Score) -> None:
    """ElephantEye writes a mate in n plies as ``score 10000-n``; it read as 99.97 horses up."""
    board = Board()
    info = parse_info(f"depth 9 score {bare} pv h2e2".split(), board, one_based=False)
    assert info["score"].relative == score and info["score"].turn == board.turn
    assert repr(info["score"].relative) == repr(score)
    assert bare_score(bare) == score


def test_bare_scores_on_another_scale_and_explicit_words() -> None:
    board = Board()
    assert parse_info("score 29998".split(), board, False, mate_value=30000)["score"].relative == Mate(1)
    assert parse_info("score -30000".split(), board, False, mate_value=30000)["score"].relative == Mate(0)
    assert parse_info("score 9997".split(), board, False, mate_value=30000)["score"].relative == Cp(9997)
    assert parse_info("score 9999".split(), board, False, mate_value=None)["score"].relative == Cp(9999)
    # Only a bare number is read on a mate scale: "cp" and "mate" say what they are.
    assert parse_info("score cp 9999".split(), board, False)["score"].relative == Cp(9999)
    assert parse_info("score mate 9999".split(), board, False)["score"].relative == Mate(9999)


def test_bare_scores_order_as_the_engine_meant() -> None:
    """The nearer mate is better for the winner, the later one for the loser; both beyond every centipawn."""
    ladder = [bare_score(v) for v in (-10000, -9998, -9996, -9850, 0, 9850, 9997, 9999, 10000)]
    assert ladder == sorted(ladder)


def test_bare_scores_count_moves_as_our_own_search_does() -> None:
    """Oracle: xiangqi.search.SearchInfo.mate turns our core's mate scores (MATE_SCORE - plies) into moves."""
    from xiangqi.search import MATE_SCORE, MAX_DEPTH, SearchInfo

    for plies in range(MAX_DEPTH):
        for value in (MATE_SCORE - plies, plies - MATE_SCORE):
            assert bare_score(value, MATE_SCORE).mate() == SearchInfo(1, 1, value, 0, 0.0).mate, value


@pytest.mark.parametrize("bare, score", [("9997", Mate(2)), ("-9998", Mate(-1)), ("29998", Cp(29998))])
def test_a_ucci_engine_writing_bare_mate_scores(bare: str, score: Score) -> None:
    with SimpleEngine.popen_ucci(FAKE + ["bare", bare]) as engine:
        assert engine.analyse(Board(), Limit(depth=1))["score"].relative == score


def test_a_ucci_engine_on_another_mate_scale() -> None:
    async def run() -> Score:
        _, protocol = await popen_ucci(FAKE + ["bare", "-30000"], mate_value=30000)
        try:
            return (await protocol.analyse(Board(), Limit(depth=1)))["score"].relative
        finally:
            await protocol.quit()

    assert asyncio.run(run()) == Mate(0)
    with SimpleEngine.popen_ucci(FAKE + ["bare", "29998"], mate_value=30000) as engine:
        assert engine.analyse(Board(), Limit(depth=1))["score"].relative == Mate(1)


def test_parse_option_both_syntaxes() -> None:
    uci = parse_option("name Skill Level type spin default 20 min -20 max 20".split(), ucci=False)
    assert uci is not None and (uci.name, uci.type, uci.default, uci.min, uci.max) == ("Skill Level", "spin", "20",
                                                                                         -20, 20)
    ucci = parse_option("bookfiles type string default <empty>".split(), ucci=True)
    assert ucci is not None and (ucci.name, ucci.type, ucci.default) == ("bookfiles", "string", "")
    combo = parse_option("style type combo default normal var solid var normal var risky".split(), ucci=True)
    assert combo is not None and combo.var == ["solid", "normal", "risky"]
    with pytest.raises(ValueError, match="must be one of"):
        combo.value_text("wild")
    with pytest.raises(ValueError, match="between -20 and 20"):
        uci.value_text(21)
    assert parse_option("type spin".split(), ucci=False) is None


# ---------------------------------------------------------------------------------------------- Fairy-Stockfish




@needs_fairy
def test_fairy_dialects(fairy: SimpleEngine) -> None:
    assert "Fairy-Stockfish" in fairy.id["name"]
    assert fairy.dialect in (Dialect.UCI_ONE_BASED, Dialect.UCCI)
    assert "Hash" in fairy.options and fairy.options["Hash"].type == "spin"
    fairy.configure({"hash": 16})          # option names in any case
    with pytest.raises(ValueError, match="no option"):
        fairy.configure({"NoSuchOption": 1})
    with pytest.raises(ValueError, match="set by the library"):
        fairy.configure({"MultiPV": 2})
    fairy.ping()


@needs_fairy
def test_fairy_play_and_analyse_corpus(fairy: SimpleEngine) -> None:
    boards = [Board()] + corpus_positions(50)
    for board in boards:
        result = fairy.play(board, Limit(depth=3))
        assert result.move is not None and board.is_legal(result.move), board.fen()
        info = fairy.analyse(board, Limit(depth=3))
        assert info["depth"] >= 3 and info["pv"] and board.is_legal(info["pv"][0])
        score = info["score"]
        if not score.is_mate():
            cp = score.relative.score()
            assert cp is not None and -5000 < cp < 5000, (board.fen(), score)
    start = fairy.analyse(Board(), Limit(depth=6))["score"].red()
    # About level. Fairy-Stockfish 11.1 in UCCI mode rates the start about +250 for Red even on its own
    # `position startpos` (checked by hand), so that dialect gets a wider bound.
    bound = 200 if fairy.dialect is Dialect.UCI_ONE_BASED else 400
    assert not start.is_mate() and abs(start.score() or 0) < bound


@needs_fairy
def test_fairy_repetition_history_and_mate(fairy: SimpleEngine) -> None:
    # A mate in one for Red: the score says so, and the move mates.
    board = Board("3k5/9/9/9/9/9/9/9/R8/R3K4 w")
    info = fairy.analyse(board, Limit(depth=4))
    assert info["score"].red() == Mate(1)
    move = fairy.play(board, Limit(depth=4)).move
    assert move is not None
    board.push(move)
    assert board.is_checkmate()
    # Black to move and mated: no best move.
    assert fairy.play(board, Limit(depth=2)).move is None
    # The move stack goes over the wire: after 4 moves the engine still knows whose turn it is.
    b = Board()
    for t in ("h2e2", "h9g7", "h0g2", "i9h9"):
        b.push_iccs(t)
    assert b.is_legal(fairy.play(b, Limit(depth=2)).move or Move.null())


@needs_fairy
def test_fairy_multipv_and_analysis_stream(fairy: SimpleEngine) -> None:
    board = Board()
    infos = fairy.analyse(board, Limit(depth=5), multipv=3)
    assert [i["multipv"] for i in infos] == [1, 2, 3]
    assert len({i["pv"][0] for i in infos}) == 3
    seen = 0
    with fairy.analysis(board) as analysis:
        for info in analysis:
            seen += 1
            if info.get("depth", 0) >= 6:
                analysis.stop()
    best = analysis.wait()
    assert seen >= 6 and best.move is not None and board.is_legal(best.move)
    assert analysis.info["depth"] >= 6
    while analysis.next() is not None:      # what was sent before the best move is still there to read
        pass
    assert analysis.next() is None and not analysis.would_block()
    fairy.ping()                      # usable afterwards
    started = time.monotonic()
    fairy.play(board, Limit(time=0.2))
    assert time.monotonic() - started < 2.0


@needs_fairy
def test_fairy_uci_dialect_can_be_forced_and_is_translated() -> None:
    with SimpleEngine.popen_uci(FAIRY, dialect="uci-one-based") as engine:
        board = Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
        result = engine.play(board, Limit(depth=4))
        assert result.move is not None and board.is_legal(result.move)
        assert all(m.to_square < 90 for m in result.info["pv"])


# ---------------------------------------------------------------------------------------------- misbehaving engines


def test_fake_engine_plays_in_both_protocols() -> None:
    for popen in (SimpleEngine.popen_uci, SimpleEngine.popen_ucci):
        with popen(FAKE + ["normal"]) as engine:
            assert engine.id["name"] == "fake-normal"
            board = Board()
            result = engine.play(board, Limit(depth=1))
            assert result.move == next(iter(board.legal_moves))
    with SimpleEngine.popen_uci(FAKE + ["normal"]) as engine:
        assert engine.dialect is Dialect.UCI                  # no UCI_Variant: Pikafish-style ranks 0-9
        engine.configure({"Style": "risky", "hash": 64})
        with pytest.raises(ValueError, match="one of solid, normal, risky"):
            engine.configure({"Style": "wild"})


def test_position_is_sent_from_the_last_capture_with_the_moves_since() -> None:
    """The moves since the last capture go over the wire (every position that can still repeat), in both protocols."""
    board = Board()
    for text in ("h2e2", "h9g7", "h0g2"):
        board.push_iccs(text)
    start = board.starting_fen
    after_capture = Board()
    for text in ("h2e2", "h9g7", "e2e6"):        # the cannon takes the pawn on e6
        after_capture.push_iccs(text)
    capture_fen = after_capture.fen()
    for text in ("a9a8", "h0g2"):
        after_capture.push_iccs(text)
    edited = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 10 30")
    edited.push_iccs("e1f1")
    for popen in (SimpleEngine.popen_uci, SimpleEngine.popen_ucci):
        with popen(FAKE + ["echo"]) as engine:
            sent = [engine.play(b, Limit(depth=1)).info["string"] for b in (Board(), board, after_capture, edited)]
        assert sent == [f"position fen {start}", f"position fen {start} moves h2e2 h9g7 h0g2",
                        f"position fen {capture_fen} moves a9a8 h0g2",
                        "position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 10 30 moves e1f1"]


def test_engine_that_dies_mid_search() -> None:
    engine = SimpleEngine.popen_uci(FAKE + ["die"])
    with pytest.raises(EngineTerminatedError, match=r"exited \(exit status 3\).*dying on purpose") as exc:
        engine.play(Board(), Limit(depth=5))
    assert "dying on purpose" in exc.value.stderr
    with pytest.raises(EngineTerminatedError):
        engine.play(Board(), Limit(depth=5))
    engine.quit()


def test_engine_that_hangs_is_killed() -> None:
    engine = SimpleEngine.popen_uci(FAKE + ["hang"])    # the handshake at the default grace: a loaded
    engine.protocol.timeout = 0.3                        # machine may start Python slowly; then 0.3 s a move
    pid = engine.protocol.transport.get_pid() if engine.protocol.transport else -1
    started = time.monotonic()
    with pytest.raises(EngineError, match="did not answer 'go movetime 200'.*killed"):
        engine.play(Board(), Limit(time=0.2))
    assert 0.45 <= time.monotonic() - started < 3.0          # the limit plus the grace, not much more
    assert not alive(pid)
    with pytest.raises(EngineTerminatedError, match="was killed"):
        engine.ping()
    engine.quit()


def test_engine_that_never_shakes_hands() -> None:
    started = time.monotonic()
    with pytest.raises(EngineError, match="did not answer 'uci' with 'uciok'"):
        SimpleEngine.popen_uci(FAKE + ["silent"], timeout=0.3)
    assert time.monotonic() - started < 5.0


def test_engine_that_hangs_ignores_quit() -> None:
    engine = SimpleEngine.popen_ucci(FAKE + ["hang"])
    engine.protocol.timeout = 0.3
    pid = engine.protocol.transport.get_pid() if engine.protocol.transport else -1
    engine.quit()
    assert not alive(pid)


def test_illegal_bestmove_names_move_and_position() -> None:
    with SimpleEngine.popen_uci(FAKE + ["illegal"]) as engine:
        board = Board()
        with pytest.raises(EngineError, match=r"illegal best move 'bestmove a0a5' in "
                                              r"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"):
            engine.play(board, Limit(depth=1))
        engine.ping()              # the protocol is still in step


def test_garbage_info_lines_are_skipped() -> None:
    with SimpleEngine.popen_uci(FAKE + ["garbage"]) as engine:
        board = Board()
        result = engine.play(board, Limit(depth=1))
        assert result.move == next(iter(board.legal_moves))
        assert result.info["string"] == "still thinking, score cp 5"
        assert result.info["depth"] == 1 and result.info["score"].relative == Cp(0)


def test_endless_lines_do_not_fill_memory() -> None:
    """64 MiB without a line end on each pipe: the lines are cut at MAX_LINE_BYTES, so memory stays bounded."""
    import tracemalloc

    with SimpleEngine.popen_uci(FAKE + ["flood", "64"]) as engine:
        tracemalloc.start()
        try:
            result = engine.play(Board(), Limit(depth=1))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert result.move == next(iter(Board().legal_moves))
        assert len(engine.stderr) <= MAX_LINE_BYTES
    assert peak < 16 * MAX_LINE_BYTES, peak


def test_missing_engine() -> None:
    with pytest.raises(EngineTerminatedError, match="cannot start engine"):
        SimpleEngine.popen_uci("/nonexistent/engine")


def test_stderr_is_captured_not_inherited(capfd: pytest.CaptureFixture[str]) -> None:
    engine = SimpleEngine.popen_ucci(FAKE + ["die"])
    with pytest.raises(EngineTerminatedError):
        engine.play(Board(), Limit(depth=1))
    engine.quit()
    out, err = capfd.readouterr()
    assert "dying on purpose" not in err and "dying on purpose" not in out


def test_asyncio_api() -> None:
    async def run() -> Move:
        transport, protocol = await popen_uci(FAKE + ["normal"])
        try:
            result = await protocol.play(Board(), Limit(nodes=1))
            assert result.move is not None
            return result.move
        finally:
            await protocol.quit()
        assert transport.get_returncode() is not None

    assert asyncio.run(run()) == next(iter(Board().legal_moves))


@needs_fairy
def test_fairy_banmoves(fairy: SimpleEngine) -> None:
    board = Board()
    best = fairy.play(board, Limit(depth=4)).move
    assert best is not None
    if fairy.dialect is not Dialect.UCCI:
        with pytest.raises(ValueError, match="banmoves is a UCCI command"):
            fairy.play(board, Limit(depth=4), banmoves=[best])
        return
    other = fairy.play(board, Limit(depth=4), banmoves=[best]).move
    assert other is not None and other != best and board.is_legal(other)


@needs_fairy
def test_fairy_ucci_gets_its_time_in_milliseconds() -> None:
    # Fairy-Stockfish reads UCCI's go time in milliseconds (without a usemillisec option in older versions):
    # sent as seconds, half a second would be 1 ms to it and it would answer at once.
    with SimpleEngine.popen_ucci(FAIRY) as engine:
        result = engine.play(Board(), Limit(time=0.5))
        assert result.move is not None
        assert result.info["time"] >= 0.2


def test_ucci_seconds_engine_is_stopped_at_a_fraction_of_a_second() -> None:
    # UCCI in seconds cannot say 0.3 s: the engine gets the whole second up, and the client stops it on time.
    with SimpleEngine.popen_ucci(FAKE + ["seconds"]) as engine:
        result = engine.play(Board(), Limit(time=0.3))
        assert result.move is not None and result.info.get("string") == "stopped"
        result = engine.play(Board(), Limit(time=1.5))
        assert result.move is not None and result.info.get("string") == "stopped"
        result = engine.play(Board(), Limit(depth=3))
        assert result.move is not None and "string" not in result.info


@needs_fairy
def test_fairy_root_moves(fairy: SimpleEngine) -> None:
    # UCI sends searchmoves; UCCI has none and bans every other move instead.
    board = Board()
    board.push_iccs("h2e2")
    only = [Move.from_iccs("a6a5"), Move.from_iccs("i6i5")]
    assert fairy.play(board, Limit(depth=5), root_moves=only[:1]).move == only[0]
    assert fairy.analyse(board, Limit(depth=5), root_moves=only)["pv"][0] in only
    with fairy.analysis(board, Limit(depth=5), root_moves=only) as analysis:
        assert analysis.wait().move in only
    with pytest.raises(ValueError, match="not legal"):
        fairy.play(board, Limit(depth=2), root_moves=[Move.from_iccs("h2e2")])


def test_own_engine_root_moves() -> None:
    with SimpleEngine.popen_uci([sys.executable, "-m", "xiangqi", "engine"]) as engine:
        assert engine.play(Board(), Limit(depth=4), root_moves=[Move.from_iccs("i3i4")]).move == Move.from_iccs("i3i4")


def test_bound_scores_are_marked_and_do_not_linger() -> None:
    board = Board()
    info = parse_info("depth 8 score cp -179 upperbound nodes 4519 pv h2e2".split(), board, one_based=False)
    assert info["score"].relative == Cp(-179) and info.get("upperbound") is True and "lowerbound" not in info
    assert info["nodes"] == 4519 and info["pv"] == [Move.from_iccs("h2e2")]
    assert parse_info("score mate 3 lowerbound".split(), board, one_based=False).get("lowerbound") is True

    from xiangqi.engine_types import RunningSearch

    def merged(*lines: str) -> "dict[str, object]":
        search = RunningSearch(board, None, False, None)
        for text in lines:
            search.add("info " + text)
        return dict(search.info())

    # A bound score followed by an exact one: the merged info has the exact score and no bound flag.
    result = merged("depth 8 score cp -179 upperbound pv h2e2", "depth 8 score cp -150 pv h2e2")
    assert result["score"].relative == Cp(-150) and "upperbound" not in result  # type: ignore[attr-defined]
    # An exact score followed by a bound one: the bound flag goes with the newer score; older fields stay.
    result = merged("depth 7 score cp 10 hashfull 5 pv h2e2", "depth 8 score cp 40 lowerbound", "nodes 99")
    assert result["score"].relative == Cp(40) and result["lowerbound"] is True  # type: ignore[attr-defined]
    assert (result["depth"], result["hashfull"], result["nodes"], result["pv"]) == (8, 5, 99, [Move.from_iccs("h2e2")])
    assert "upperbound" not in result


# ---------------------------------------------------------------------------------------------- issue 22: the client


def test_a_stale_second_bestmove_is_not_the_answer_to_the_next_go() -> None:
    """An engine that writes its ``bestmove`` twice: the second is dropped (isready before each go), not taken for
    the answer in the next position (where, for the other side, it is not even legal)."""
    board = Board()
    with SimpleEngine.popen_uci(FAKE + ["twice"]) as engine:
        for _ in range(6):
            result = engine.play(board, Limit(depth=1))
            assert result.move is not None and board.is_legal(result.move)
            assert result.move == next(iter(board.legal_moves))   # the fake plays the first legal move
            board.push(result.move)
        info = engine.analyse(board, Limit(depth=1))
        assert info["pv"] == [next(iter(board.legal_moves))]


@pytest.mark.parametrize("ucci", [False, True])
def test_a_flood_of_info_lines_is_read_in_time(ucci: bool) -> None:
    """60,000 info lines written at once before the best move: read well within the answer's deadline (each
    line used to cost about 90 us to parse, and the engine was killed as hung), and the merged info is the last."""
    n = 60_000
    popen = SimpleEngine.popen_ucci if ucci else SimpleEngine.popen_uci
    with popen(FAKE + ["chatty", str(n)], timeout=2.0) as engine:
        result = engine.play(Board(), Limit(time=0.05))
        assert result.move == next(iter(Board().legal_moves))
        info = result.info
        assert (info["depth"], info["seldepth"], info["nodes"], info["time"]) == (n, n, n * 10, n / 1000)
        assert info["score"].relative == Cp(n % 50) and info["pv"] == [result.move]
        multi = engine.analyse(Board(), Limit(time=0.05))
        assert multi["depth"] == n
        analysis = engine.analysis(Board(), Limit(time=0.05))
        assert analysis.wait().move == result.move and analysis.info["depth"] == n
        assert analysis.get()["depth"] == 1     # the stream is read as it is asked for


def test_a_simple_engine_never_quit_does_not_outlive_its_program(tmp_path: Path) -> None:
    """A program that starts a SimpleEngine and exits without quit left the engine running (in a session of its
    own, not even the terminal's Ctrl-C reached it); now it is killed at exit, and when the object is collected."""
    script = tmp_path / "forget.py"
    script.write_text("import sys\nfrom xiangqi.engine import SimpleEngine\n"
                      f"engine = SimpleEngine.popen_uci({FAKE + ['deaf']!r})\n"
                      "print(engine.protocol.transport.get_pid(), flush=True)\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    pid = int(proc.stdout.split()[0])
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)

    engine = SimpleEngine.popen_uci(FAKE + ["deaf"])
    transport = engine.protocol.transport
    assert transport is not None
    pid = transport.get_pid()
    del engine, transport
    gc.collect()
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


# ---------------------------------------------------------------------------------------------- issue 21: dialects

SJAAKII = shutil.which("sjaakii") or "/usr/games/sjaakii"
needs_sjaakii = pytest.mark.skipif(not os.access(SJAAKII, os.X_OK),
                                   reason="needs the Debian package sjaakii (/usr/games/sjaakii)")
CAPTURED = "r1bakab1r/9/1cn2cn2/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1"   # a FEN is sent


def test_a_uci_variant_engine_is_asked_not_taken_for_fairy_stockfish() -> None:
    """An engine with a UCI_Variant option that writes ranks 0-9 and reads h/e: it was spoken to as a
    Fairy-Stockfish (ranks 1-10, n/b), refused every FEN and answered for another position."""
    with SimpleEngine.popen_uci(FAKE + ["he"]) as engine:
        assert engine.dialect is Dialect.UCI and engine.protocol.fen_letters == "he"
        board = Board(CAPTURED)
        assert engine.play(board, Limit(depth=1)).move == next(iter(board.legal_moves))
    with SimpleEngine.popen_uci(FAKE + ["he"], dialect="uci", fen_letters="he") as engine:   # told, not asked
        assert engine.play(board, Limit(depth=1)).move == next(iter(board.legal_moves))
    with pytest.raises(ValueError, match="fen_letters must be nb or he"):
        SimpleEngine.popen_uci(FAKE, fen_letters="xy")


def test_an_engine_that_refuses_the_position_has_its_words_in_the_error() -> None:
    """Told the wrong letters, the engine refuses the FEN (and would answer for the position it had): the error
    says the position was refused and quotes what the engine said about it, before any ``go``."""
    with SimpleEngine.popen_uci(FAKE + ["he"], dialect="uci", fen_letters="nb") as engine:
        board = Board(CAPTURED)
        board.push(next(iter(board.legal_moves)))
        with pytest.raises(EngineError, match=r"refused the position r1bakab1r/.* moves \w+; it said: Error: unknown "
                                              r"piece type \(bad FEN"):
            engine.play(board, Limit(depth=1))
        assert engine.protocol.last_words.startswith("it said: Error: unknown piece type (bad FEN")


def test_words_about_another_command_are_no_refusal_of_the_position() -> None:
    """An engine that does not know ``ucinewgame`` says so (as many do): that is not about the position."""
    with SimpleEngine.popen_uci(FAKE + ["nonewgame"]) as engine:
        for game in (object(), object()):
            assert engine.play(Board(), Limit(depth=1), game=game).move is not None
        assert engine.protocol.last_words == ""


@needs_sjaakii
def test_sjaakii_plays_with_its_own_letters() -> None:
    """Debian's Sjaak II: UCI with a UCI_Variant option, ranks 1-10 and h/e in its FENs (its games were lost as
    "time forfeit", its "unknown piece type" hidden)."""
    with SimpleEngine.popen_uci(SJAAKII) as engine:
        assert engine.dialect is Dialect.UCI_ONE_BASED and engine.protocol.fen_letters == "he"
        for board in [Board(), Board(CAPTURED)] + corpus_positions(6):
            result = engine.play(board, Limit(depth=2))
            assert result.move is not None and board.is_legal(result.move), board.fen()
        info = engine.analyse(Board(CAPTURED), Limit(depth=2))
        assert info["pv"] and Board(CAPTURED).is_legal(info["pv"][0])
