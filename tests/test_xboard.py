"""The XBoard/CECP client: the protocol against a scripted engine, and Debian's MaxQi and Sjaak II for real."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from xiangqi import Board, pgn
from xiangqi.engine import Cp, Dialect, EngineError, Limit, Mate, PovScore, SimpleEngine
from xiangqi.xboard import parse_algebraic, parse_post

TESTS = Path(__file__).resolve().parent
FAKE = [sys.executable, str(TESTS / "engines" / "fake_xboard.py")]
MAXQI = "/usr/games/maxqi"
SJAAK = "/usr/games/sjaakii"
needs_maxqi = pytest.mark.skipif(not os.access(MAXQI, os.X_OK),
                                 reason="needs the Debian package fairymax (/usr/games/maxqi; "
                                        "apt-get install -y sjaakii brings it too)")
needs_sjaak = pytest.mark.skipif(not os.access(SJAAK, os.X_OK),
                                 reason="needs the Debian package sjaakii (/usr/games/sjaakii)")
#: A position with horses and elephants (Sjaak II reads them only as h and e), Black to move.
MIDGAME = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R b - - 4 2"


def fake(tmp_path: Path, *modes: str) -> Tuple[List[str], Path]:
    log = tmp_path / "sent.txt"
    return FAKE + [str(log)] + list(modes), log


def sent(log: Path) -> List[str]:
    return log.read_text(encoding="utf-8").splitlines()


# ------------------------------------------------------------------------------------------------- parsing


def test_post_line_scores_time_and_pv() -> None:
    board = Board()
    info = parse_post(" 7   -35   120   98765  4   81234 h2e2 h9g7 h0g2", board)
    assert info is not None
    assert info["depth"] == 7 and info["score"] == PovScore(Cp(-35), board.turn) and info["time"] == 1.2
    assert info["nodes"] == 98765 and info["seldepth"] == 4 and info["nps"] == 81234
    assert [m.iccs() for m in info["pv"]] == ["h2e2", "h9g7", "h0g2"]
    # CECP's mate scores: 100000 + N mates in N moves, -100000 - N is mated in N.
    assert parse_post("3 100003 0 10 h2e2", board)["score"].relative == Mate(3)
    assert parse_post("3 -100002 0 10 h2e2", board)["score"].relative == Mate(-2)
    # A mate_value - plies engine (Sjaak II: 16000): 15995 is a mate in 5 plies, 3 moves.
    assert parse_post("6 15995 1 3262", board, mate_value=16000)["score"].relative == Mate(3)
    assert parse_post("6 15995 1 3262", board)["score"].relative == Cp(15995)
    # No pv words: no pv key, so a merged info keeps the last pv.
    assert "pv" not in parse_post("4 31 5 2980", board)


def test_algebraic_pv_as_sjaak_writes_it() -> None:
    board = Board()
    board.push_iccs("b0c2")
    info = parse_post("  5   -10     13     14530  1. ... Hg7 2. Pc4 Hc7 3. Hd4 Cb3", board)
    assert [m.iccs() for m in info["pv"]] == ["h9g7", "c3c4", "b9c7", "c2d4", "b7b3"]
    assert parse_algebraic(Board(), "Cxc3") is None              # no cannon can take on c3
    # Two cannons reach e2 only with the file given.
    assert parse_algebraic(Board(), "Ce2") is None and parse_algebraic(Board(), "Cbe2").iccs() == "b2e2"


# ------------------------------------------------------------------------------------------------- the protocol


def test_handshake_accepts_and_rejects_features(tmp_path: Path) -> None:
    cmd, log = fake(tmp_path, "san")
    with SimpleEngine.popen_xboard(cmd) as engine:
        assert engine.dialect is Dialect.XBOARD and engine.id["name"] == "Fake XB"
        assert engine.options["Style"].default == "Normal" and engine.options["Hash"].max == 256
        engine.configure({"Hash": 32, "Style": "Risky"})
    lines = sent(log)
    assert lines[:2] == ["xboard", "protover 2"]
    assert "accepted ping" in lines and "accepted setboard" in lines and "accepted option" in lines
    assert "rejected san" in lines and "rejected frobnicate" in lines
    assert "option Hash=32" in lines and "option Style=Risky" in lines


def test_done_0_holds_the_handshake_open(tmp_path: Path) -> None:
    cmd, log = fake(tmp_path, "slowdone")
    for timeout in (10.0, None):
        with SimpleEngine.popen_xboard(cmd, timeout=timeout) as engine:   # done=1 comes 0.5 s after done=0
            assert engine.protocol.features["done"] == 1 and engine.id["name"] == "Fake XB"
    cmd, log = fake(tmp_path, "stuck")
    with pytest.raises(EngineError, match="announced feature done=0 but no done=1 within 0.5 s"):
        SimpleEngine.popen_xboard(cmd, timeout=0.5)


@pytest.mark.parametrize("mode, words", [("noping", "no feature ping=1"), ("chess", "does not play xiangqi"),
                                         ("nofeatures", "no feature ping=1")])
def test_handshake_refuses_engines_it_cannot_drive(tmp_path: Path, mode: str, words: str) -> None:
    cmd, _ = fake(tmp_path, mode)
    with pytest.raises(EngineError, match=words):
        SimpleEngine.popen_xboard(cmd)


def test_a_game_sends_new_variant_then_only_new_moves(tmp_path: Path) -> None:
    cmd, log = fake(tmp_path)
    board = Board()
    with SimpleEngine.popen_xboard(cmd) as engine:
        game = object()
        first = engine.play(board, Limit(depth=3), game=game)
        board.push(first.move)
        board.push_iccs("h9g7")
        second = engine.play(board, Limit(red_clock=61.5, black_clock=30, red_inc=1.5, black_inc=1.5), game=game)
        assert board.is_legal(second.move)
        assert first.info["depth"] == 3 and first.info["score"].relative == Cp(12)
    lines = sent(log)
    assert lines.count("new") == 1 and "variant xiangqi" in lines
    assert not any(line.startswith("setboard") for line in lines)
    assert lines.index("new") < lines.index("variant xiangqi") < lines.index("sd 3") < lines.index("go")
    # The second move: force, the opponent's move, the clock (CECP's level, time and otim in centiseconds).
    tail = lines[lines.index("go") + 1:]
    assert tail[tail.index("force") + 1] == "h9g7"
    assert "level 0 1:01 1.5" in tail and "time 6150" in tail and "otim 3000" in tail
    assert "sd 1000" in tail        # the depth limit of the first search no longer holds


def test_no_move_now_after_the_move(tmp_path: Path) -> None:
    # The move comes at once, the pong after it late: "?" at 0.1 s used to go out after the move, and the
    # engine's "Error (unknown command): ?" lost the next search (MaxQi lost a game to it, "refused the moves").
    cmd, log = fake(tmp_path, "maxqi")
    board = Board()
    with SimpleEngine.popen_xboard(cmd) as engine:
        for _ in range(2):
            move = engine.play(board, Limit(time=0.1), game=board).move
            assert move is not None
            board.push(move)
    assert "?" not in sent(log)


def test_node_limit_as_nps_and_st(tmp_path: Path) -> None:
    cmd, log = fake(tmp_path)
    with SimpleEngine.popen_xboard(cmd) as engine:
        engine.play(Board(), Limit(nodes=500))
        engine.play(Board(), Limit(time=2))
    lines = sent(log)
    assert lines.index("nps 1") < lines.index("st 500") < lines.index("nps 0") < lines.index("st 2")


def test_time_0_and_a_draw_offer(tmp_path: Path) -> None:
    cmd, log = fake(tmp_path, "notime")
    with SimpleEngine.popen_xboard(cmd) as engine:
        played = engine.play(Board(), Limit(red_clock=10, black_clock=10))
        assert played.move is not None and played.draw_offered
    lines = sent(log)
    assert "level 0 0:10 0" in lines and not any(line.split()[0] in ("time", "otim") for line in lines)


def test_game_result(tmp_path: Path) -> None:
    from xiangqi.xboard import popen_xboard

    cmd, log = fake(tmp_path)
    mated = Board("3k5/R8/R8/9/9/9/9/9/8p/4K4 w - - 0 1")
    mated.push_iccs("a7d7")

    async def run() -> None:
        _, engine = await popen_xboard(cmd)
        try:
            board, game = Board(), object()
            board.push((await engine.play(board, Limit(depth=1), game=game)).move)
            board.push_iccs("h9g7")
            await engine.send_game_result(board, False, "Red resigns")     # the reply it has not seen goes first
            await engine.send_game_result(mated)                           # the rule book's verdict
            await engine.send_game_result(Board(), game_complete=False)
            with pytest.raises(ValueError, match="curly braces"):
                await engine.send_game_result(board, None, "a {comment}")
        finally:
            await engine.quit()

    asyncio.run(run())
    lines = sent(log)
    tail = lines[lines.index("go") + 1:]
    assert tail[tail.index("force") + 1:tail.index("force") + 3] == ["h9g7", "result 0-1 {Red resigns}"]
    assert "result 1-0 {Black is checkmated and loses}" in tail and "result *" in tail


def test_usermove_when_the_engine_asks(tmp_path: Path) -> None:
    cmd, log = fake(tmp_path, "usermove")
    board = Board()
    board.push_iccs("h2e2")
    with SimpleEngine.popen_xboard(cmd) as engine:
        assert board.is_legal(engine.play(board, Limit(time=1)).move)
    assert "usermove h2e2" in sent(log) and "st 1" in sent(log)


def test_fen_letters_found_by_trying(tmp_path: Path) -> None:
    cmd, log = fake(tmp_path, "he")
    board = Board(MIDGAME)
    with SimpleEngine.popen_xboard(cmd) as engine:
        assert board.is_legal(engine.play(board, Limit(depth=1)).move)
        assert engine.protocol.fen_letters == "he"
    setboards = [line for line in sent(log) if line.startswith("setboard")]
    assert setboards == ["setboard " + MIDGAME, "setboard " + MIDGAME.replace("n", "h").replace("b", "e")
                         .replace("N", "H").replace("B", "E").replace(" e - -", " b - -")]


def test_fen_letters_given(tmp_path: Path) -> None:
    cmd, log = fake(tmp_path, "he")
    with SimpleEngine.popen_xboard(cmd, fen_letters="he") as engine:
        engine.play(Board(MIDGAME), Limit(depth=1))
    assert len([line for line in sent(log) if line.startswith("setboard")]) == 1


def test_a_refused_position_raises_the_engines_words(tmp_path: Path) -> None:
    cmd, _ = fake(tmp_path, "refuse")
    with SimpleEngine.popen_xboard(cmd) as engine:
        with pytest.raises(EngineError, match=r"refused the position .*tellusererror Illegal position"):
            engine.play(Board(MIDGAME), Limit(depth=1))
        assert engine.play(Board(), Limit(depth=1)).move is not None     # the start position needs no setboard


def test_mate_score_algebraic_pv_and_resign(tmp_path: Path) -> None:
    cmd, _ = fake(tmp_path, "mate")
    with SimpleEngine.popen_xboard(cmd) as engine:
        info = engine.analyse(Board(), Limit(depth=3))
        assert info["score"].relative == Mate(3) and info["pv"] == [next(iter(Board().legal_moves))]
    cmd, _ = fake(tmp_path, "resign")
    with SimpleEngine.popen_xboard(cmd) as engine:
        result = engine.play(Board(), Limit(depth=3))
        assert result.move is None and result.resigned


def test_what_xboard_cannot_say(tmp_path: Path) -> None:
    cmd, _ = fake(tmp_path)
    with SimpleEngine.popen_xboard(cmd) as engine:
        for call, words in [(lambda: engine.analyse(Board(), Limit(depth=2), multipv=2), "multipv"),
                            (lambda: engine.play(Board(), Limit(mate=2)), "mate"),
                            (lambda: engine.play(Board(), Limit(nodes=10, time=1)), "nodes and time"),
                            (lambda: engine.perft(Board(), 1), "perft")]:
            with pytest.raises(ValueError, match=words):
                call()
        assert engine.play(Board(), Limit(depth=1)).move is not None     # still in step


# ------------------------------------------------------------------------------------------------- real engines


def corpus_positions() -> List[Board]:
    """20 positions: 4 from each sample game, reached from the start position by the game's moves."""
    boards = []
    for game in pgn.read_games(TESTS / "data" / "games" / "ccpd-sample.iccs.pgn"):
        moves = game.mainline_moves()
        for plies in (6, 15, 24, 33):
            board = game.board()
            for move in moves[:min(plies, len(moves) - 1)]:
                board.push(move)
            boards.append(board)
    assert len(boards) == 20
    return boards


def corpus_setups() -> List[Board]:
    """Positions from the middle-game sample, set up from their FEN (setboard) and a few moves on."""
    boards = []
    for game in pgn.read_games(TESTS / "data" / "games" / "ccpd-positions-sample.iccs.pgn"):
        board = game.board()
        for move in game.mainline_moves()[:3]:
            board.push(move)
        boards.append(board)
    return boards


def play_and_analyse(engine: SimpleEngine, boards: List[Board], limit: Limit) -> None:
    for board in [Board()] + boards:
        played = engine.play(board, limit)
        assert played.move is not None and board.is_legal(played.move), board.fen()
        info = engine.analyse(board, limit)
        assert info["depth"] >= 1 and "score" in info and "nodes" in info, (board.fen(), info)
        b = board.copy()
        for move in info.get("pv", []):       # every pv move legal in turn (the parser keeps the legal prefix)
            assert b.is_legal(move)
            b.push(move)


@needs_maxqi
def test_maxqi_plays_and_analyses_corpus_positions() -> None:
    with SimpleEngine.popen_xboard(MAXQI) as engine:
        assert engine.id["name"].startswith("MaxQi") and not engine.protocol.features["setboard"]
        play_and_analyse(engine, corpus_positions(), Limit(depth=3))
        # MaxQi has no setboard: a position that does not come from the start is refused, with the reason.
        with pytest.raises(EngineError, match="no setboard"):
            engine.play(Board(MIDGAME), Limit(depth=2))
        # Nor an analyze mode: an analysis without a limit is refused in its words, and the engine plays on.
        with pytest.raises(EngineError, match=r"refused 'analyze' .*Error \(unknown command\): analyze"):
            with engine.analysis(Board()) as analysis:
                list(analysis)
        assert engine.play(Board(), Limit(depth=2)).move is not None
        # A game goes on move by move.
        board, game = Board(), object()
        for _ in range(6):
            move = engine.play(board, Limit(time=0.05), game=game).move
            assert move is not None and board.is_legal(move)
            board.push(move)


@needs_sjaak
def test_sjaak_plays_and_analyses_corpus_positions() -> None:
    with SimpleEngine.popen_xboard(SJAAK) as engine:
        assert engine.id["name"].startswith("Sjaak")
        play_and_analyse(engine, corpus_positions() + corpus_setups(), Limit(depth=3))
        assert engine.protocol.fen_letters == "he"         # found by trying: n and b are refused
        with engine.analysis(Board()) as analysis:           # analyze mode, until stopped
            for info in analysis:
                if info.get("depth", 0) >= 3:
                    analysis.stop()
        assert analysis.info["depth"] >= 3 and Board().is_legal(analysis.wait().move)
        # A fraction of a second: st 1, and "?" on time.
        played = engine.play(Board(), Limit(time=0.2))
        assert played.move is not None
        # Sjaak II reads nps 1 with st N as a thousand times N nodes: the client stops it past the limit itself
        # (it searched 3,000,001 nodes, 43 s, for Limit(nodes=3000)).
        info = engine.analyse(Board(), Limit(nodes=3000))
        assert 3000 <= info["nodes"] < 100000


@needs_sjaak
def test_sjaak_error_is_surfaced_and_its_mates_read() -> None:
    with SimpleEngine.popen_xboard(SJAAK, fen_letters="nb") as engine:
        with pytest.raises(EngineError, match=r"refused the position .*unknown piece type '[nb]'"):
            engine.play(Board(MIDGAME), Limit(depth=2))
    with SimpleEngine.popen_xboard(SJAAK, mate_value=16000) as engine:
        info = engine.analyse(Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"), Limit(depth=3))
        assert info["score"].relative == Mate(1) and [m.iccs() for m in info["pv"]] == ["e1d1"]
