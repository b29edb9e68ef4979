"""Short scripts from python-chess's documentation (its README and the core, pgn, engine and svg pages), ported
with only the import and the squares changed (and a xiangqi position or move where chess's would mean nothing):
a python-chess user's habits run here."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

import xiangqi as chess  # the one change to each script: the import (and the squares below)
from xiangqi import engine as chess_engine
from xiangqi import pgn as chess_pgn
from xiangqi import svg as chess_svg

ROOT = Path(__file__).resolve().parents[1]
OUR_ENGINE = [sys.executable, "-m", "xiangqi", "engine"]  # our own UCI engine: always there


def test_readme_legal_moves_make_and_unmake() -> None:
    board = chess.Board()
    assert "h2e2" in str(board.legal_moves)
    assert chess.Move.from_uci("a9a1") not in board.legal_moves
    cannon = chess.Move.from_uci("h2e2")
    board.push(cannon)
    assert board.pop() == cannon and board.fen() == chess.STARTING_FEN


def test_readme_push_san_to_mate() -> None:
    board = chess.Board("3k5/9/9/9/9/9/9/9/9/R4KR2 w")
    for san in ("车九进八", "将4平5", "车三进九"):  # python-chess: push_san("e4") ... ("Qxf7")
        board.push_san(san)
    assert board.is_checkmate()
    assert board.outcome() == chess.Outcome(chess.Termination.CHECKMATE, chess.RED, board.outcome().reason,  # type: ignore[union-attr]
                                            board.outcome().reason_zh)  # type: ignore[union-attr]


def test_readme_detects_stalemate_draws_and_repetitions() -> None:
    board = chess.Board("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b")
    assert board.is_stalemate() and board.is_game_over()  # 困毙: a loss in xiangqi
    assert chess.Board("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w").is_insufficient_material()
    board = chess.Board()
    for san in ("h2e2", "h9g7", "e2h2", "g7h9") * 2:
        board.push_san(san)
    assert board.is_repetition(3) and board.can_claim_draw() and board.is_game_over(claim_draw=True)


def test_readme_checks_and_attackers() -> None:
    board = chess.Board("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b")
    assert board.is_check()
    assert board.is_attacked_by(chess.RED, chess.D9)
    attackers = board.attackers(chess.RED, chess.D9)
    assert chess.D8 in attackers and len(attackers) == 1
    assert str(attackers).splitlines()[1] == ". . . 1 . . . . ."


def test_readme_san_fen_and_ascii_board() -> None:
    board = chess.Board()
    assert board.san(chess.Move(chess.H2, chess.E2)) == "炮二平五"
    assert board.parse_san("马二进三") == chess.Move.from_uci("h0g2")
    assert board.variation_san([chess.Move.from_uci(m) for m in ("h2e2", "h9g7")]) == "1. 炮二平五 马８进７"
    assert board.fen() == chess.STARTING_FEN
    board = chess.Board("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert board.piece_at(chess.D0) == chess.Piece.from_symbol("K")
    assert str(board).splitlines()[0] == "9 . . . . k . . . ."


def test_core_square_sets_and_attacks() -> None:
    board = chess.Board()
    squares = board.attacks(chess.H2)
    assert chess.H9 in squares and chess.E2 not in squares  # the cannon hits the horse over its screen
    assert chess.SquareSet.between(chess.A0, chess.A3) == chess.SquareSet([chess.A1, chess.A2])
    assert chess.square_distance(chess.A0, chess.I9) == 9 and chess.square_name(chess.E0) == "e0"
    assert chess.square_mirror(chess.E0) == chess.E9 and chess.square_file(chess.H2) == 7


def test_core_copy_mirror_and_status() -> None:
    board = chess.Board()
    board.push_san("炮二平五")
    assert board.copy(stack=False).move_stack == [] and board.copy().move_stack == board.move_stack
    assert board.mirror().mirror() == board.copy(stack=False)
    board.set_piece_at(chess.E4, chess.Piece(chess.HORSE, chess.RED))  # a third horse, as a chess user edits
    assert board.status() == chess.Status.TOO_MANY_RED_PIECES and not board.is_valid()


def test_pgn_read_a_game_and_replay_its_main_line() -> None:
    text = ('[Event "Example"]\n[Red "Hu Ronghua"]\n[Black "Liu Dahua"]\n[Result "1-0"]\n\n'
            "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n")
    first_game = chess_pgn.read_game(io.StringIO(text))
    assert first_game is not None
    assert first_game.headers["Red"] == "Hu Ronghua" and first_game.headers["Result"] == "1-0"
    board = first_game.board()
    for move in first_game.mainline_moves():
        board.push(move)
    assert board.fen() == "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
    assert [node.san() for node in first_game.mainline()] == ["炮二平五", "马８进７", "马二进三", "车９平８"]


def test_pgn_write_a_game_with_comments_and_variations() -> None:
    game = chess_pgn.Game()
    game.headers["Event"] = "Example"
    node = game.add_variation(chess.Move.from_uci("h2e2"))
    node = node.add_variation(chess.Move.from_uci("h9g7"))
    node.comment = "Comment"
    node.set_clock(598)
    alternative = node.parent.add_variation(chess.Move.from_uci("b9c7"))  # type: ignore[union-attr]
    assert alternative.starts_variation() and not node.starts_variation()
    text = str(game)
    assert '[Event "Example"]' in text
    assert "1. 炮二平五 马８进７ {Comment [%clk 0:09:58]} ( 1... 马２进３ ) *" in text
    again = chess_pgn.read_game(io.StringIO(text))
    assert again is not None and again.next().next().clock() == 598  # type: ignore[union-attr]


def test_pgn_game_from_board() -> None:
    board = chess.Board("3k5/9/9/9/9/9/9/9/9/R4KR2 w")
    for san in ("车九进八", "将4平5", "车三进九"):
        board.push_san(san)
    game = chess_pgn.Game.from_board(board)
    assert game.headers["Result"] == "1-0" and len(game.mainline_moves()) == 3
    assert game.end().turn() == chess.BLACK


def test_engine_play_until_a_limit() -> None:
    engine = chess_engine.SimpleEngine.popen_uci(OUR_ENGINE)
    try:
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 6:  # python-chess's loop, cut short for a test
            result = engine.play(board, chess_engine.Limit(depth=2))
            assert result.move is not None
            board.push(result.move)
        assert len(board.move_stack) == 6
    finally:
        engine.quit()


def test_engine_analyse_gives_a_score() -> None:
    with chess_engine.SimpleEngine.popen_uci(OUR_ENGINE) as engine:
        board = chess.Board("3k5/9/9/9/9/9/9/9/9/R4KR2 w")
        info = engine.analyse(board, chess_engine.Limit(depth=4))
        score = info["score"]
        assert score.red().is_mate() and score.red().mate() > 0 and score.black().mate() < 0  # type: ignore[operator]


def test_svg_board_piece_and_arrows() -> None:
    board = chess.Board()
    picture = chess_svg.board(board, size=350)
    assert picture.startswith("<svg") and 'width="350"' in picture
    assert chess_svg.piece(chess.Piece.from_symbol("R")).startswith("<svg")
    with_arrows = chess_svg.board(board, arrows=[chess_svg.Arrow(chess.H2, chess.E2)], squares=[chess.E2])
    assert with_arrows.count('class="arrow"') == 1
    node = chess_pgn.Game().add_variation(chess.Move.from_uci("h2e2"), comment="[%cal Rh2e2]")
    assert chess_svg.board(node.board(), arrows=node.arrows()).count('class="arrow"') == 1


def test_a_script_runs_after_renaming_the_import(tmp_path: Path) -> None:
    """A whole python-chess script as a file, with ``import chess`` renamed: it runs as a program."""
    script = tmp_path / "script.py"
    script.write_text(
        "import xiangqi as chess\n"
        "board = chess.Board()\n"
        "for san in ['炮二平五', '马8进7', '马二进三']:\n"
        "    board.push_san(san)\n"
        "print(board.fen())\n"
        "print(board.is_check(), board.outcome(), len(list(board.generate_legal_moves())))\n", encoding="utf-8")
    import subprocess

    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
                                        f"False None {len(_after_three().legal_moves)}"]


def _after_three() -> chess.Board:
    board = chess.Board()
    for m in ("h2e2", "h9g7", "h0g2"):
        board.push_uci(m)
    return board


if not hasattr(chess, "Board"):  # pragma: no cover - the import above failed to rename
    pytest.fail("xiangqi has no Board")
