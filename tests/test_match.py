"""``xiangqi match``: real engines, scripted engines, adjudication by the rule books, PGN read back, Ctrl-C."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Tuple

import pytest

from xiangqi import Board, pgn
from xiangqi.cli import main
from xiangqi.engine import Limit
from xiangqi.match import Adjudication, EngineSpec, parse_engine_spec, parse_tc, read_openings, run_match
from xiangqi.match_stats import MatchScore, Sprt, parse_sprt, sprt_llr

TESTS = Path(__file__).resolve().parent
FAKE = f"{sys.executable} {TESTS / 'engines' / 'fake_engine.py'}"
FAIRY = "/usr/games/fairy-stockfish"
needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK),
                                 reason="needs the Debian package fairy-stockfish (/usr/games/fairy-stockfish)")
PERPETUAL = "3k5/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1"   # the red rook checks from h9 and h8, the king steps d9-d8


def read_back(path: Path) -> List[pgn.Game]:
    games = list(pgn.read_games(path))
    for game in games:
        assert game.errors == [], game.errors          # every move legal, every token read
    return games


def final_board(game: pgn.Game) -> Board:
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
    return board


def corpus_openings(tmp_path: Path, plies: int = 6) -> Path:
    """A PGN of the first ``plies`` moves of the sample games."""
    out = tmp_path / "openings.pgn"
    with out.open("w", encoding="utf-8") as f:
        for game in pgn.read_games(TESTS / "data" / "games" / "ccpd-sample.iccs.pgn"):
            board = game.board()
            for move in game.mainline_moves()[:plies]:
                board.push(move)
            pgn.write_game(pgn.Game.from_board(board), f, notation="iccs")
    return out


def check_match(out: Path, openings: Path, games: int, rules: str, names: List[str]) -> None:
    """Every game read back legal, ended by a stated reason, rule-book endings re-derived from the record."""
    records = read_back(out)
    assert len(records) == games
    starts = read_openings(openings)
    for game in records:
        result = game.headers["Result"]
        assert result in ("1-0", "0-1", "1/2-1/2")
        board = final_board(game)
        opening = starts[(int(game.headers["Round"]) - 1) // 2 % len(starts)]
        assert [m.code for m in board.move_stack[:len(opening.move_stack)]] == [m.code for m in opening.move_stack]
        ending = game.end().comment
        assert " / " in ending                                   # English / Chinese reason
        by_rules = game.headers["Termination"] in ("normal", "adjudication") and \
            "the game reached" not in ending and "adjudication:" not in ending
        if by_rules:                                             # the ruling is the rule book's, read back
            outcome = board.outcome(rules=rules)
            assert outcome is not None and outcome.result() == result and outcome.reason in ending
    # Colours alternate per opening: each engine plays Red once per opening.
    reds = [g.headers["Red"] for g in sorted(records, key=lambda g: int(g.headers["Round"]))]
    assert reds == names * (games // 2)


@needs_fairy
def test_fairy_match_every_game_adjudicated_and_read_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    openings = corpus_openings(tmp_path)
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAIRY}", "name=fsf-uci", "--engine", f"cmd={FAIRY}", "proto=ucci",
               "name=fsf-ucci", "option.Hash=8", "--games", "6", "--depth", "2", "--openings", str(openings),
               "--concurrency", "2", "--rules", "cxa", "--pgnout", str(out)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    assert "fsf-uci vs fsf-ucci: games 6:" in captured.out and "Elo" in captured.out
    check_match(out, openings, 6, "cxa", ["fsf-uci", "fsf-ucci"])


@needs_fairy
@pytest.mark.skipif(importlib.util.find_spec("xiangqi.engine_server") is None,
                    reason="needs this library's own engine (xiangqi engine)")
def test_own_engine_against_fairy_20_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    openings = corpus_openings(tmp_path)
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={sys.executable} -m xiangqi engine", "name=ours",
               "--engine", f"cmd={FAIRY}", "name=fsf", "--games", "20", "--depth", "2", "--openings", str(openings),
               "--concurrency", "2", "--max-plies", "300", "--pgnout", str(out)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    check_match(out, openings, 20, "axf", ["ours", "fsf"])


def _scripted_game(tmp_path: Path, fen: str, red: str, black: str, rules: str,
                   capsys: pytest.CaptureFixture[str]) -> pgn.Game:
    """The one game of a match from ``fen`` between two test engines playing the scripted moves ``red`` and
    ``black`` over and over, as read back from its PGN."""
    epd = tmp_path / "opening.epd"
    epd.write_text(fen + "\n")
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} script {red}", "name=red", "--engine", f"cmd={FAKE} script {black}",
               "name=black", "--games", "1", "--depth", "1", "--openings", str(epd), "--rules", rules,
               "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    (game,) = read_back(out)
    return game


@pytest.mark.parametrize("rules", ["axf", "cxa"])
def test_scripted_perpetual_check_loses(tmp_path: Path, rules: str, capsys: pytest.CaptureFixture[str]) -> None:
    game = _scripted_game(tmp_path, PERPETUAL, "h8h9,h9h8", "d9d8,d8d9", rules, capsys)
    assert game.headers["Result"] == "0-1" and game.headers["Termination"] == "adjudication"
    ending = game.end().comment
    assert "Red loses: perpetual check" in ending and "红方长将" in ending
    assert ("Asian rules" if rules == "axf" else "Chinese rules") in ending
    board = final_board(game)
    ruling = board.outcome(rules=rules)
    assert ruling is not None and ruling.result() == "0-1" and ruling.termination.name == "PERPETUAL_CHECK"


#: The red rook chases the unprotected black horse between c2 and b0 (AXF rule book, diagram 76 cut to one victim).
CHASE = "2b1k1r2/9/4b4/9/9/2P3P2/1R7/2n1B4/4A4/4KABC1 w - - 0 1"


@pytest.mark.parametrize("rules", ["axf", "cxa"])
def test_scripted_perpetual_chase_loses(tmp_path: Path, rules: str, capsys: pytest.CaptureFixture[str]) -> None:
    game = _scripted_game(tmp_path, CHASE, "b3c3,c3b3", "c2b0,b0c2", rules, capsys)
    assert len(game.mainline_moves()) == 8
    assert game.headers["Result"] == "0-1" and game.headers["Termination"] == "adjudication"
    ending = game.end().comment
    assert "Red loses: perpetual chase of the unprotected black horse" in ending and "红方长捉黑方无根马" in ending
    assert ("Asian rules" if rules == "axf" else "Chinese rules") in ending
    ruling = final_board(game).outcome(rules=rules)
    assert ruling is not None and ruling.result() == "0-1" and ruling.termination.name == "PERPETUAL_CHASE"


@pytest.mark.parametrize("rules", ["axf", "cxa"])
def test_stalemate_loses_and_the_natural_limit_draws(tmp_path: Path, rules: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    epd = tmp_path / "endings.epd"
    # Red's a7a8 stalemates Black; two plies more reach 120 plies without a capture.
    epd.write_text("3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1\n3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 118 80\n")
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} script a7a8,e1f1", "name=red", "--engine",
               f"cmd={FAKE} script d9d8", "name=black", "--games", "4", "--depth", "1", "--openings", str(epd),
               "--rules", rules, "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    games = sorted(read_back(out), key=lambda g: int(g.headers["Round"]))
    stalemate, natural = games[0], games[2]      # the rounds where "red" plays Red
    assert [m.iccs() for m in stalemate.mainline_moves()] == ["a7a8"]
    assert (stalemate.headers["Result"], stalemate.headers["Termination"]) == ("1-0", "normal")
    assert "Black is stalemated (no legal move) and loses / 黑方困毙，负" in stalemate.end().comment
    assert [m.iccs() for m in natural.mainline_moves()] == ["e1f1", "d9d8"]
    assert (natural.headers["Result"], natural.headers["Termination"]) == ("1/2-1/2", "adjudication")
    assert "Draw by the natural limit" in natural.end().comment and "自然限着" in natural.end().comment
    for game in (stalemate, natural):
        ruling = final_board(game).outcome(rules=rules)
        assert ruling is not None and ruling.result() == game.headers["Result"]


def test_progress_line_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each game's line on standard error as it ends (W/D/L and Elo so far); the summary on standard output."""
    epd = tmp_path / "perpetual.epd"
    epd.write_text(PERPETUAL + "\n")
    rc = main(["match", "--engine", f"cmd={FAKE} script h8h9,h9h8", "name=checker",
               "--engine", f"cmd={FAKE} script d9d8,d8d9", "name=runner", "--games", "2", "--depth", "1",
               "--openings", str(epd)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    # Game 2 has the runner as Red, whose script (d9d8) is no Red move: it loses by a rules infraction.
    # A lone loss has no Elo, but a 95 % bound; one win and one loss a finite margin (Wilson's interval).
    assert captured.err.splitlines() == [
        "game 1: checker - runner 0-1 (adjudication); games 1: +0 =0 -1, Elo -inf (95 %: below +233.8)",
        "game 2: runner - checker 0-1 (rules infraction); games 2: +1 =0 -1, Elo +0.0 ± 392.5"]
    summary = captured.out.splitlines()
    assert summary == ["checker vs runner: games 2: +1 =0 -1, Elo +0.0 ± 392.5",
                       "  LOS 50.0 %, draw ratio 0.0 %, pairs [0, 0, 1, 0, 0]",
                       "terminations: adjudication 1, rules infraction 1",
                       "rules axf: checker, runner were not told (no rules option; the games were judged by axf all "
                       "the same)",
                       "runner lost 1 game by its own failure (rules infraction 1); it said nothing"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _perpetual_specs() -> Tuple[EngineSpec, EngineSpec]:
    """Two test engines playing the perpetual check of PERPETUAL: the checker (Red) and the runner."""
    return (parse_engine_spec([f"cmd={FAKE} script h8h9,h9h8", "name=checker"]),
            parse_engine_spec([f"cmd={FAKE} script d9d8,d8d9", "name=runner"]))


class _Closed(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_progress_stream_that_cannot_be_written_does_not_stop_the_match() -> None:
    # `xiangqi match ... 2>&1 >out | head -1`: the progress writes fail once head has gone; the games go on.
    specs = _perpetual_specs()
    score, results = asyncio.run(run_match(specs, [Board(PERPETUAL)], 2, Limit(depth=1), None, "axf",
                                           Adjudication(), 1, None, _Closed()))
    assert score.games == 2 and [r.termination for r in results] == ["adjudication", "rules infraction"]


def test_progress_on_a_terminal_is_one_line_rewritten() -> None:
    terminal = _Terminal()
    specs = _perpetual_specs()
    asyncio.run(run_match(specs, [Board(PERPETUAL)], 2, Limit(depth=1), None, "axf", Adjudication(), 1, None,
                          terminal))
    assert terminal.getvalue() == ("\r[1/2] games 1: +0 =0 -1, Elo -inf (95 %: below +233.8)   "
                                   "\r[2/2] games 2: +1 =0 -1, Elo +0.0 ± 392.5   \n")


@pytest.mark.parametrize("adjudicate, red_cp, black_cp, result", [
    (["--draw", "10:3"], 0, 0, "1/2-1/2"),
    (["--resign", "1000:2"], 2000, -2000, "1-0"),
    (["--resign", "1000:2"], -2000, 2000, "0-1"),
])
def test_score_adjudication(tmp_path: Path, capsys: pytest.CaptureFixture[str], adjudicate: List[str], red_cp: int,
                            black_cp: int, result: str) -> None:
    epd = tmp_path / "perpetual.epd"
    epd.write_text(PERPETUAL + "\n")
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} script h8h9,h9h8 {red_cp}", "--engine",
               f"cmd={FAKE} script d9d8,d8d9 {black_cp}", "--games", "1", "--depth", "1", "--openings", str(epd),
               "--pgnout", str(out)] + adjudicate)
    assert rc == 0, capsys.readouterr().err
    (game,) = read_back(out)
    assert game.headers["Result"] == result and game.headers["Termination"] == "adjudication"
    assert "adjudication: both engines" in game.end().comment
    assert len(game.mainline_moves()) < 8            # before the repetition rules could end it


@needs_fairy
def test_time_control(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAIRY}", "name=a", "--engine", f"cmd={FAIRY}", "proto=ucci", "name=b",
               "--games", "2", "--tc", "1+0.01", "--max-plies", "16", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    games = read_back(out)
    assert len(games) == 2 and all(g.headers["Result"] in ("1-0", "0-1", "1/2-1/2") for g in games)
    # Each move's comment carries the time it took; the engines kept within their clocks.
    for g in games:
        # A move's comment is "[score][/depth] T.TTTs" (score and depth only when the engine sent them).
        spent = [float(m.group(1)) for n in g.mainline() if (m := re.match(r"\S*\s*(\d+\.\d+)s\b", n.comment))]
        assert spent and sum(spent) < 2 * (1 + 0.01 * len(spent)) + 0.5


def test_go_lines() -> None:
    from xiangqi.engine import UciProtocol, UcciProtocol

    async def lines() -> List[str]:
        uci, ucci = UciProtocol(), UcciProtocol()
        red, black = Board(), Board()
        black.push_iccs("h2e2")
        clock = Limit(red_clock=60, black_clock=50.5, red_inc=1, black_inc=1)
        ucci_ms = UcciProtocol()
        ucci_ms._millisec = True
        return [uci._go_line(red, Limit(time=0.25, depth=9)), uci._go_line(black, clock),
                uci._go_line(red, Limit()), ucci._go_line(black, clock), ucci._go_line(red, Limit(time=3)),
                ucci_ms._go_line(black, clock), ucci._go_line(red, Limit(nodes=500))]

    assert asyncio.run(lines()) == [
        "go movetime 250 depth 9", "go wtime 60000 btime 50500 winc 1000 binc 1000", "go infinite",
        "go time 50 increment 1 opptime 60 oppincrement 1", "go time 3 movestogo 1",
        "go time 50500 increment 1000 opptime 60000 oppincrement 1000", "go nodes 500"]


def test_illegal_moves_and_crashes_lose(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} illegal", "name=cheat", "--engine", f"cmd={FAKE} normal",
               "name=honest", "--games", "2", "--nodes", "1", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    games = read_back(out)
    assert {g.headers["Red"]: g.headers["Result"] for g in games} == {"cheat": "0-1", "honest": "1-0"}
    assert all(g.headers["Termination"] == "rules infraction" for g in games)
    assert all("illegal best move 'bestmove a0a5'" in g.end().comment for g in games)
    rc = main(["match", "--engine", f"cmd={FAKE} die", "name=crash", "--engine", f"cmd={FAKE} normal",
               "name=honest", "--games", "2", "--nodes", "1", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    games = read_back(out)          # the crashed engine is restarted for the second game
    assert {g.headers["Red"]: g.headers["Result"] for g in games} == {"crash": "0-1", "honest": "1-0"}
    assert all(g.headers["Termination"] == "abandoned" and "exit status 3" in g.end().comment for g in games)


def test_hanging_engine_loses_on_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.pgn"
    started = time.monotonic()
    rc = main(["match", "--engine", f"cmd={FAKE} hang", "name=hang", "--engine", f"cmd={FAKE} normal",
               "--games", "1", "--movetime", "0.1", "--timeout", "0.3", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    assert time.monotonic() - started < 5.0
    (game,) = read_back(out)
    assert game.headers["Result"] == "0-1" and game.headers["Termination"] == "time forfeit"
    assert "did not answer" in game.end().comment


def test_hanging_engine_loses_under_a_depth_limit_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A depth or node limit has no time of its own: the move may take --timeout seconds, not forever.
    out = tmp_path / "games.pgn"
    started = time.monotonic()
    rc = main(["match", "--engine", f"cmd={FAKE} normal", "--engine", f"cmd={FAKE} hang", "name=hang",
               "--games", "1", "--depth", "3", "--timeout", "0.3", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    assert time.monotonic() - started < 5.0
    (game,) = read_back(out)
    assert game.headers["Result"] == "1-0" and game.headers["Termination"] == "time forfeit"
    assert "did not answer" in game.end().comment and "killed" in game.end().comment


def written(path: Path) -> int:
    return path.read_text(encoding="utf-8").count("[Result") if path.exists() else 0


def test_ctrl_c_keeps_the_games_written(tmp_path: Path) -> None:
    out = tmp_path / "games.pgn"
    epd = tmp_path / "perpetual.epd"
    epd.write_text(PERPETUAL + "\n")
    cmd = [sys.executable, "-m", "xiangqi", "match", "--engine", f"cmd={FAKE} script h8h9,h9h8",
           "--engine", f"cmd={FAKE} slow 0.05", "--openings", str(epd), "--games", "200", "--depth", "1",
           "--pgnout", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and written(out) < 2:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    games = read_back(out)
    assert 2 <= len(games) < 200
    assert all(g.headers["Result"] in ("1-0", "0-1", "1/2-1/2") for g in games)
    # No engine process is left behind.
    time.sleep(0.2)
    ps = subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True, text=True).stdout
    assert "fake_engine.py slow 0.05" not in ps and "fake_engine.py script h8h9" not in ps


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--engine", "cmd=x", "--depth", "1"]) == 2
    assert "at least twice (got it 1 time)" in capsys.readouterr().err
    for option, value in (("--games", "0"), ("--concurrency", "0"), ("--max-plies", "0"), ("--timeout", "-1")):
        assert main(["match", "--engine", "cmd=x", "--engine", "cmd=y", "--depth", "1", option, value]) == 2
        assert f"error: {option} must be" in capsys.readouterr().err
    for option, value in (("--depth", "0"), ("--nodes", "-5"), ("--movetime", "0")):
        assert main(["match", "--engine", "cmd=x", "--engine", "cmd=y", option, value]) == 2
        assert f"error: {option} must be" in capsys.readouterr().err
    assert main(["match", "--engine", "cmd=x", "--engine", "cmd=y", "--tc", "fast"]) == 2
    assert "time control 'fast'" in capsys.readouterr().err
    assert main(["match", "--engine", "cmd=x", "--engine", "bogus", "--depth", "1"]) == 2
    assert main(["match", "--engine", "cmd=x", "--engine", "cmd=y"]) == 2
    capsys.readouterr()
    assert main(["match", "--engine", "cmd=/nonexistent", "--engine", "cmd=/nonexistent", "--depth", "1"]) == 1
    err = capsys.readouterr().err
    assert "cannot start engine" in err and err.count("\n") == 1
    assert main(["match", "--engine", "cmd=x", "--engine", "cmd=y", "--depth", "1", "--openings", "/nonexistent"]) == 2
    assert main(["match", "--engine", f"cmd={FAKE}", "--engine", f"cmd={FAKE}", "--depth", "1",
                 "--pgnout", "/nonexistent/dir/out.pgn"]) == 2
    err = capsys.readouterr().err
    assert "cannot read /nonexistent" in err and "cannot write /nonexistent/dir/out.pgn" in err


@pytest.mark.parametrize("option, words", [
    ("option.NoSuch=1", "--engine fake-normal: engine 'fake-normal' has no option 'NoSuch' (it has: Hash, Style)"),
    ("option.Hash=lots", "--engine fake-normal: option 'Hash' is a spin: pass an integer, not 'lots'"),
    ("option.Style=wild", "--engine fake-normal: option 'Style' must be one of solid, normal, risky, not 'wild'"),
])
def test_an_option_the_engine_refuses_is_one_line(capsys: pytest.CaptureFixture[str], option: str, words: str) -> None:
    rc = main(["match", "--engine", f"cmd={FAKE} normal", "name=fake-normal", option, "--engine",
               f"cmd={FAKE} normal", "name=other", "--games", "2", "--depth", "1"])
    err = capsys.readouterr().err
    assert rc == 1 and err == f"xiangqi match: {words}\n"
    time.sleep(0.2)             # the refused engine was killed, the other one quit
    ps = subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True, text=True).stdout
    assert f"{FAKE} normal" not in ps


def test_specs_tc_and_elo(tmp_path: Path) -> None:
    spec = parse_engine_spec(["cmd=/usr/games/fairy-stockfish", "proto=ucci", "option.Hash=32", "option.Skill Level=3"])
    assert (spec.proto, spec.name, spec.options) == ("ucci", "fairy-stockfish", {"Hash": "32", "Skill Level": "3"})
    with pytest.raises(ValueError, match="proto must be uci, ucci or xboard"):
        parse_engine_spec(["cmd=x", "proto=cecp"])
    tc = parse_tc("40/60+0.5")
    assert (tc.moves, tc.base, tc.increment) == (40, 60.0, 0.5)
    assert parse_tc("10+0.1").increment == 0.1
    even = MatchScore(3, 4, 3)
    assert even.elo()[0] == 0.0 and 0 < even.elo()[1] < 400
    assert "Elo +0.0 ±" in even.line() and "Elo +0.0 ±" in MatchScore(1, 0, 1).line()   # never -0.0
    ahead = MatchScore(6, 2, 2)
    elo, margin = ahead.elo()
    assert 140 < elo < 150 and margin > 0     # 70 %: -400 log10(1/0.7 - 1) = 147.2
    bad = tmp_path / "bad.epd"
    bad.write_text("not a fen\n")
    with pytest.raises(ValueError, match="bad.epd:1"):
        read_openings(bad)


# ---------------------------------------------------------------------------------------- issue 22: the runner


@pytest.mark.parametrize("option, value", [("--tc", "nan"), ("--tc", "inf"), ("--tc", "10+nan"), ("--tc", "10+inf"),
                                           ("--tc", "1e308+1e308"), ("--tc", "40/nan"), ("--movetime", "inf"),
                                           ("--movetime", "nan"), ("--timeout", "inf"), ("--timeout", "nan")])
def test_times_that_are_not_numbers_are_usage_errors(capsys: pytest.CaptureFixture[str], option: str,
                                                     value: str) -> None:
    """``--tc nan`` (``inf``, ``10+nan``, ``1e308+1e308``, ``--movetime inf``) was a traceback from the first
    game, not a usage error."""
    args = ["match", "--engine", "cmd=x", "--engine", "cmd=y", option, value]
    if option == "--timeout":
        args += ["--depth", "1"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"error: {option}" in err or "error: time control" in err, err
    assert "Traceback" not in err


def test_a_pgn_that_cannot_be_written_is_one_error(tmp_path: Path) -> None:
    """``--pgnout /dev/full``: one line saying so (closing the file printed a second traceback)."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    proc = subprocess.run([sys.executable, "-m", "xiangqi", "match", "--engine", f"cmd={FAKE} normal", "--engine",
                           f"cmd={FAKE} normal", "--games", "2", "--depth", "1", "--max-plies", "4", "--pgnout",
                           "/dev/full"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == "xiangqi match: cannot write /dev/full: No space left on device\n", proc.stderr


def _engines_running(tag: str) -> List[str]:
    # -ww: the whole command line, whatever COLUMNS says (cut at the terminal's width, no tag would be found)
    ps = subprocess.run(["ps", "-ww", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in ps.splitlines() if tag in line and "fake_engine.py" in line and " match " not in line]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_terminated_match_quits_its_engines(tmp_path: Path, signum: int) -> None:
    """SIGTERM or SIGHUP to ``match`` left its engines (in sessions of their own) running for good; now it ends
    as Ctrl-C does: engines quit, the games so far kept, the score said, exit 128 + the signal."""
    out = tmp_path / "games.pgn"
    tag = f"slow 0.0{int(signum)}1"
    proc = subprocess.Popen([sys.executable, "-m", "xiangqi", "match", "--engine", f"cmd={FAKE} {tag}", "--engine",
                             f"cmd={FAKE} {tag}", "--games", "100", "--depth", "1", "--max-plies", "6",
                             "--pgnout", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and written(out) < 1:
            time.sleep(0.05)
        assert len(_engines_running(tag)) == 2
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signum, err
    assert f"interrupted by {signal.Signals(signum).name}" in err and "Traceback" not in err
    assert written(out) >= 1
    time.sleep(0.3)
    assert _engines_running(tag) == []


def test_ctrl_c_does_not_wait_for_engines_that_ignore_quit(tmp_path: Path) -> None:
    """Two engines that ignore ``quit``: Ctrl-C waited ``--timeout`` for each in turn; now each gets a second,
    together, and is then killed."""
    proc = subprocess.Popen([sys.executable, "-m", "xiangqi", "match", "--engine", f"cmd={FAKE} hang", "--engine",
                             f"cmd={FAKE} hang", "--games", "2", "--movetime", "30", "--timeout", "8"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(_engines_running("hang")) < 2:
            time.sleep(0.05)
        time.sleep(0.5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    assert took < 5, took
    time.sleep(0.3)
    assert _engines_running("hang") == []


def test_an_engine_that_refuses_its_position_has_its_words_in_the_pgn(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """An engine told FEN letters it does not read refuses the position and answers for another: the game is
    lost with its own words ("unknown piece type") in the reason, not only the move it sent."""
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} he", "name=he", "dialect=uci", "fen_letters=nb", "--engine",
               f"cmd={FAKE} normal", "name=nb", "--games", "2", "--depth", "1", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    games = read_back(out)
    assert {g.headers["Red"]: g.headers["Result"] for g in games} == {"he": "0-1", "nb": "1-0"}
    assert all("it said: Error: unknown piece type (bad FEN" in g.end().comment for g in games)


def test_an_engine_that_exits_at_the_start_is_named_with_its_own_words(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["match", "--engine", f"cmd={FAKE} gone", "name=netless", "--engine", f"cmd={FAKE} normal",
               "--games", "2", "--depth", "1"])
    err = capsys.readouterr().err
    assert rc == 1 and err.count("\n") == 1, err
    assert err.startswith("xiangqi match: --engine netless: engine ")
    assert "exited (exit status 2) before answering 'uci' with 'uciok'" in err
    assert "it said: Error: cannot open the evaluation file fake.nnue" in err
    assert "its stderr ends: fake engine: fake.nnue: no such file" in err


def test_engines_that_die_or_refuse_the_opening_have_their_words_in_the_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One engine refuses every FEN it is sent (letters it does not read), the other dies at its first ``go``:
    each loss says why in the engine's own words, in the PGN and in a summary line naming the engine."""
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} he", "name=refuser", "dialect=uci", "fen_letters=nb",
               "--engine", f"cmd={FAKE} die", "name=dier", "--games", "2", "--depth", "1", "--pgnout", str(out)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    games = read_back(out)
    assert [(g.headers["Red"], g.headers["Result"], g.headers["Termination"]) for g in games] == [
        ("refuser", "0-1", "abandoned"), ("dier", "0-1", "abandoned")]
    refused, died = (g.end().comment for g in games)
    assert "engine 'fake-he' refused the position rnbakabnr/" in refused
    assert "it said: Error: unknown piece type (bad FEN" in refused
    assert "exit status 3" in died and "its stderr ends: fake engine: dying on purpose" in died
    lines = captured.out.splitlines()
    assert "refuser lost 1 game by its own failure (abandoned 1); its last words: it said: Error: unknown piece " \
           "type (bad FEN rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1)" in lines
    assert "dier lost 1 game by its own failure (abandoned 1); its last words: its stderr ends: fake engine: " \
           "dying on purpose" in lines


@pytest.mark.skipif(not os.access("/usr/games/sjaakii", os.X_OK),
                    reason="needs the Debian package sjaakii (/usr/games/sjaakii)")
def test_sjaakii_plays_a_match_with_its_own_letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Sjaak II (UCI, h/e letters, ranks 1-10) against our engine: legal games read back, none lost on time."""
    out, openings = tmp_path / "games.pgn", corpus_openings(tmp_path)
    rc = main(["match", "--engine", "cmd=/usr/games/sjaakii", "name=sjaakii", "--engine",
               f"cmd={sys.executable} -m xiangqi engine", "name=ours", "--games", "2", "--depth", "2",
               "--openings", str(openings), "--max-plies", "60", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    games = read_back(out)
    assert len(games) == 2
    for game in games:
        assert game.headers["Termination"] not in ("time forfeit", "rules infraction", "abandoned"), game.end().comment
        final_board(game)   # every move legal
# ------------------------------------------------------------------------------------------------- the runner's statistics

#: LLR = N (s1 - s0) (2 s - s0 - s1) / (2 v), with N outcomes (games, or game pairs for the pentanomial model), s their
#: mean score, v the variance of the score per outcome, s_i = 1 / (1 + 10^(-elo_i / 400)); a count of 0 is taken as
#: 0.001. The values were computed apart from the library (40-digit decimals). The first row by hand: +50 =40 -30,
#: N = 120, s = 70/120 = 0.583333, v = (50 (5/12)² + 40 (1/12)² + 30 (7/12)²) / 120 = 0.159722, s0 = 0.5,
#: s1 = 0.507195; LLR = 120 × 0.007195 × 0.159472 / 0.319444 = 0.431027.
LLR_TABLE = [
    # (counts from the first engine's worst to best outcome, elo0, elo1, LLR)
    ([30, 40, 50], 0, 5, 0.431027),                 # W/D/L: losses, draws, wins
    ([80, 200, 100], 0, 10, 0.888005),
    ([5, 20, 50, 25, 10], 0, 5, 0.412573),          # pentanomial: pairs scoring 0, 1/2, 1, 3/2, 2 points
    ([2, 10, 30, 40, 18], 0, 10, 3.716065),
    ([18, 40, 30, 10, 2], -5, 5, -3.897729),
    ([0, 0, 0, 0, 3], 0, 5, 17.179942),             # three clean sweeps: the empty bins regularized
]


@pytest.mark.parametrize("counts, elo0, elo1, expected", LLR_TABLE)
def test_sprt_log_likelihood_ratio_table(counts: List[int], elo0: float, elo1: float, expected: float) -> None:
    test = Sprt(elo0, elo1)
    if len(counts) == 3:
        score = MatchScore(losses=counts[0], draws=counts[1], wins=counts[2])
        assert score.llr(test) == pytest.approx(expected, abs=1e-6)
    else:
        score = MatchScore(pairs=list(counts))
        assert score.llr(test) == pytest.approx(expected, abs=1e-6)
    assert sprt_llr(counts, [i / (len(counts) - 1) for i in range(len(counts))], elo0, elo1) == \
        pytest.approx(expected, abs=1e-6)


def test_sprt_bounds_los_and_draw_ratio() -> None:
    test = parse_sprt("elo0=0 elo1=5 alpha=0.05 beta=0.05")
    lower, upper = test.bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(0.95 / 0.05))
    assert test.verdict(3.716065) == "H1" and test.verdict(-3.897729) == "H0" and test.verdict(0.4) is None
    assert parse_sprt("elo0=-1 elo1=4 alpha=0.1 beta=0.2").bounds() == pytest.approx((math.log(0.2 / 0.9),
                                                                                       math.log(0.8 / 0.1)))
    for bad in ("elo0=5 elo1=0", "alpha=1.5", "elo1=x", "gamma=1"):
        with pytest.raises(ValueError, match="--sprt"):
            parse_sprt(bad)
    # LOS = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2: +6 -2 gives (1 + erf(1)) / 2 = 0.921350.
    score = MatchScore(wins=6, draws=2, losses=2)
    assert score.los() == pytest.approx(0.921350, abs=1e-6) and score.draw_ratio() == 0.2


def test_elo_margin_is_finite_for_lopsided_scores() -> None:
    # +9 =1 -0 (95 %): the normal interval 0.95 ± 0.096 crossed 1 and gave an infinite margin.
    elo, margin = MatchScore(wins=9, draws=1).elo()
    assert elo == pytest.approx(-400 * math.log10(1 / 0.95 - 1)) and math.isfinite(margin) and margin > 0
    assert math.isfinite(MatchScore(wins=1, losses=1).elo()[1])
    # A clean sweep has no finite Elo; the line gives its one-sided bound: 400 log10(n / z²) for n wins.
    assert MatchScore(wins=10).line() == f"games 10: +10 =0 -0, Elo +inf (95 %: above {400 * math.log10(10 / 1.959964 ** 2):+.1f})"


def _lopsided_match(tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str, second: str) -> Tuple[int, str]:
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} {first}", f"name={first}", "--engine", f"cmd={FAKE} {second}",
               f"name={second}", "--games", "100", "--nodes", "1", "--sprt", "elo0=0", "elo1=5", "alpha=0.05",
               "beta=0.05", "--pgnout", str(out)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    return len(read_back(out)), captured.out


def test_sprt_stops_the_match_early(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The "illegal" engine loses every game: two pairs of clean wins already give LLR 7.6 > 2.94.
    played, out = _lopsided_match(tmp_path, capsys, "normal", "illegal")
    assert played == 4 and "H1 accepted" in out and "pairs [0, 0, 0, 0, 2]" in out
    played, out = _lopsided_match(tmp_path, capsys, "illegal", "normal")
    assert played == 4 and "H0 accepted" in out and "pairs [2, 0, 0, 0, 0]" in out


# ------------------------------------------------------------------------------------------------- the runner's settings

XFAKE = f"{sys.executable} {TESTS / 'engines' / 'fake_xboard.py'}"


def test_per_engine_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={XFAKE} {a}", "proto=xboard", "name=a", "depth=2",
               "--engine", f"cmd={XFAKE} {b}", "proto=xboard", "name=b", "tc=40/60+0.6",
               "--games", "2", "--max-plies", "6", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    assert len(read_back(out)) == 2
    sent_a, sent_b = a.read_text().splitlines(), b.read_text().splitlines()
    assert "sd 2" in sent_a and not any(line.startswith("level") for line in sent_a)
    assert "level 40 1:00 0.6" in sent_b and not any(line.startswith("sd ") for line in sent_b)
    # The game's end goes to the XBoard engines as CECP's result.
    assert any(line.startswith("result 1/2-1/2 {draw: the game reached 6 plies") for line in sent_a)


def test_engines_file_and_round_robin(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conf = tmp_path / "engines.json"
    conf.write_text(json.dumps([
        {"name": "alpha", "command": f"{FAKE} normal", "protocol": "uci", "options": [{"name": "Hash", "value": 8}]},
        {"name": "beta", "command": f"{FAKE} normal", "protocol": "ucci", "depth": 1},
        {"name": "gamma", "command": f"{FAKE} normal", "options": {"Style": "Risky"}},
    ]))
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engines-file", str(conf), "--engine", "conf=alpha", "--engine", "conf=beta",
               "--engine", "conf=gamma", "name=gamma2", "--games", "2", "--depth", "1", "--max-plies", "4",
               "--pgnout", str(out)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    games = read_back(out)
    assert len(games) == 6 and [int(g.headers["Round"]) for g in games] == [1, 2, 3, 4, 5, 6]
    assert {(g.headers["Red"], g.headers["Black"]) for g in games} == {
        ("alpha", "beta"), ("beta", "alpha"), ("alpha", "gamma2"), ("gamma2", "alpha"), ("beta", "gamma2"),
        ("gamma2", "beta")}
    assert "standings: " in captured.out and "alpha vs beta: games 2" in captured.out
    rc = main(["match", "--engines-file", str(conf), "--engine", "conf=alpha", "--engine", "conf=beta",
               "--engine", "conf=gamma", "--games", "2", "--depth", "1", "--max-plies", "4", "--tournament",
               "gauntlet", "--pgnout", str(out)])
    assert rc == 0
    assert {g.headers["Red"] for g in read_back(out)} == {"alpha", "beta", "gamma"} and len(read_back(out)) == 4
    assert main(["match", "--engines-file", str(conf), "--engine", "conf=delta", "--engine", "conf=beta"]) == 2
    assert "conf=delta: no such engine" in capsys.readouterr().err


def test_openings_order_seed_and_repeat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    epd = tmp_path / "openings.epd"
    rows = ["R8", "1R7", "2R6", "3R5", "5R3", "6R2", "7R1", "8R"]      # the red rook on every file but the king's
    fens = [f"4k4/9/9/9/9/9/9/9/{row}/5K3 w - - 0 1" for row in rows]
    epd.write_text("\n".join(fens) + "\n")

    def starts(*extra: str) -> List[str]:
        out = tmp_path / "games.pgn"
        rc = main(["match", "--engine", f"cmd={FAKE} normal", "--engine", f"cmd={FAKE} normal", "--depth", "1",
                   "--max-plies", "1", "--openings", str(epd), "--pgnout", str(out)] + list(extra))
        assert rc == 0, capsys.readouterr().err
        return [g.headers["FEN"] for g in sorted(read_back(out), key=lambda g: int(g.headers["Round"]))]

    assert starts("--games", "4") == [fens[0], fens[0], fens[1], fens[1]]
    assert starts("--games", "3", "--repeat", "1") == fens[:3]
    shuffled = starts("--games", "8", "--repeat", "1", "--openings-order", "random", "--seed", "3")
    assert sorted(shuffled) == sorted(fens) and shuffled != fens
    assert starts("--games", "8", "--repeat", "1", "--openings-order", "random", "--seed", "3") == shuffled


def test_movetime_overrun_past_the_margin_loses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} slow 0.4", "name=slow", "--engine", f"cmd={FAKE} normal",
               "--games", "1", "--movetime", "0.05", "--movetime-margin", "0.1", "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    (game,) = read_back(out)
    assert game.headers["Result"] == "0-1" and game.headers["Termination"] == "time forfeit"
    assert "for a move of 0.05 s (margin 0.1 s)" in game.end().comment


def test_max_plies_counts_the_opening_as_the_pgn_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    openings = corpus_openings(tmp_path, plies=6)
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} wander 0", "--engine", f"cmd={FAKE} wander 0", "--games", "2",
               "--depth", "1", "--max-plies", "10", "--openings", str(openings), "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    for game in read_back(out):
        assert game.headers["PlyCount"] == "10" and len(game.mainline_moves()) == 10
        assert "the game reached 10 plies" in game.end().comment


# ------------------------------------------------------------------------------------------------- XBoard engines

MAXQI, SJAAK = "/usr/games/maxqi", "/usr/games/sjaakii"


@needs_fairy
@pytest.mark.parametrize("path, package", [(MAXQI, "fairymax"), (SJAAK, "sjaakii")])
def test_xboard_engine_against_fairy_reads_back_legal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       path: str, package: str) -> None:
    if not os.access(path, os.X_OK):
        pytest.skip(f"needs the Debian package {package} ({path})")
    openings = corpus_openings(tmp_path)
    out = tmp_path / "games.pgn"
    name = Path(path).name
    rc = main(["match", "--engine", f"cmd={path}", "proto=xboard", f"name={name}", "--engine", f"cmd={FAIRY}",
               "name=fsf", "--games", "2", "--depth", "2", "--openings", str(openings),
               "--max-plies", "120", "--pgnout", str(out)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    check_match(out, openings, 2, "axf", [name, "fsf"])
    for game in read_back(out):     # no game lost to the client: every ending is the rule book's or a claim's
        assert game.headers["Termination"] in ("normal", "adjudication"), game.end().comment


def test_engine_io_log_per_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    rc = main(["match", "--engine", f"cmd={FAKE} normal", "name=one", "--engine", f"cmd={FAKE} normal", "name=two",
               "--games", "2", "--depth", "1", "--max-plies", "2", "--io-log", str(logs)])
    assert rc == 0, capsys.readouterr().err
    assert sorted(p.name for p in logs.iterdir()) == ["round-1.log", "round-2.log"]
    lines = (logs / "round-1.log").read_text().splitlines()
    assert any(re.fullmatch(r"\s*\d+\.\d{3} one > go depth 1", line) for line in lines)
    assert any(re.fullmatch(r"\s*\d+\.\d{3} two < bestmove \w+.*", line) for line in lines)


@pytest.mark.parametrize("rules", ["cxa", "axf"])
def test_the_rule_book_is_told_to_engines_with_a_rules_option(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             rules: str) -> None:
    """Our engine (UCI ``Rules``, UCCI ``rules``) is set to the match's book, read without complaint before its
    first game; the fake engine has no such option, plays on, and the summary says it was not told."""
    logs = tmp_path / "logs"
    ours = f"cmd={sys.executable} -m xiangqi engine"
    rc = main(["match", "--engine", ours, "name=uci", "--engine", ours, "proto=ucci", "name=ucci",
               "--engine", f"cmd={FAKE} normal", "name=fake", "--tournament", "gauntlet", "--games", "2",
               "--depth", "1", "--max-plies", "2", "--rules", rules, "--io-log", str(logs)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    said = [line.split(None, 1)[1] for line in (logs / "round-1.log").read_text().splitlines()]  # uci vs ucci
    for name, setting in (("uci", f"setoption name Rules value {rules}"), ("ucci", f"setoption rules {rules}")):
        own = [line for line in said if line.startswith(name + " ")]
        at = own.index(f"{name} > {setting}")           # before any game command, answered with readyok alone
        assert own[at + 1:at + 3] == [f"{name} > isready", f"{name} < readyok"] and "position" not in own[:at]
    assert not any("info string setoption" in line for line in said)
    assert not any("setoption" in line for line in (logs / "round-3.log").read_text().splitlines()
                   if " fake " in line)
    assert f"rules {rules}: fake was not told (no rules option; the games were judged by {rules} all the same); " \
           f"told: uci (Rules={rules}), ucci (rules={rules})" in captured.out.splitlines()


def test_startpos_lines_in_an_openings_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    epd = tmp_path / "openings.epd"
    epd.write_text("startpos\n4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\nStartPos ; the start again\n")
    assert [b.fen() for b in read_openings(epd)] == [Board().fen(), "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
                                                     Board().fen()]
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={FAKE} normal", "--engine", f"cmd={FAKE} normal", "--games", "2",
               "--depth", "1", "--max-plies", "2", "--openings", str(epd), "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    assert [g.board().fen() for g in read_back(out)] == [Board().fen()] * 2
    epd.write_text("startpos moves h2e2\n")
    with pytest.raises(ValueError, match=r"openings.epd:1: expected nothing after 'startpos' .* not 'moves h2e2'"):
        read_openings(epd)


def test_a_refused_position_loses_with_the_engines_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # An XBoard engine that refuses the opening's setboard: its own error in the PGN, not a "time forfeit".
    epd = tmp_path / "opening.epd"
    epd.write_text("4k4/9/9/9/9/9/9/9/R8/5K3 w - - 0 1\n")
    out = tmp_path / "games.pgn"
    rc = main(["match", "--engine", f"cmd={XFAKE} {tmp_path / 'sent.txt'} refuse", "proto=xboard", "name=refuser",
               "--engine", f"cmd={FAKE} normal", "--games", "1", "--depth", "1", "--openings", str(epd),
               "--pgnout", str(out)])
    assert rc == 0, capsys.readouterr().err
    (game,) = read_back(out)
    assert game.headers["Result"] == "0-1" and game.headers["Termination"] == "abandoned"
    assert "refused the position" in game.end().comment and "tellusererror Illegal position" in game.end().comment
    # Its last words are its own, not its protocol lines (pong, feature, thinking output), each line once.
    assert "refuser lost 1 game by its own failure (abandoned 1); its last words: it said: tellusererror Illegal " \
           "position" in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("words, message", [
    (["depth=0"], "depth must be an integer >= 1, not '0'"),
    (["nodes=many"], "nodes must be an integer >= 1, not 'many'"),
    (["st=-1"], "st must be a positive number of seconds, not '-1'"),
    (["st=nan"], "st must be a positive number of seconds, not 'nan'"),
    (["tc=fast"], "time control 'fast'"),
    (["dialect=xboard"], "dialect xboard goes with proto=xboard only, not proto=uci"),
    (["conf=x"], "conf=x: no such engine in the engines file (no engines file given (--engines-file))"),
])
def test_engine_settings_refused(words: List[str], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_engine_spec(["cmd=x"] + words)
