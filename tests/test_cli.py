"""The ``xiangqi`` command's dispatcher (xiangqi/cli.py): usage, help, unknown commands, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from xiangqi.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_no_arguments_print_the_usage_on_standard_error_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """A usage error: the usage used to go to standard output with exit 2."""
    assert main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("usage: xiangqi COMMAND") and "judge" in captured.err


def test_help_goes_to_standard_output_with_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    for flag in ("-h", "--help"):
        assert main([flag]) == 0
        captured = capsys.readouterr()
        assert captured.out.startswith("usage: xiangqi COMMAND") and captured.err == ""


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "unknown command 'frobnicate'" in captured.err


def test_subcommand_usage_errors_return_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "startpos", "--limit", "-1"]) == 2
    assert main(["perft", "--depth", "-1"]) == 2
    assert "--depth" in capsys.readouterr().err
    # Checked before any engine is started: a timeout of 0 or less used to kill the engine at once.
    assert main(["perft", "--engine", "/nonexistent/engine", "--engine-timeout", "0"]) == 2
    assert "error: --engine-timeout must be positive, not 0" in capsys.readouterr().err


def test_python_dash_m_xiangqi_without_arguments() -> None:
    run = subprocess.run([sys.executable, "-m", "xiangqi"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == "" and "usage: xiangqi" in run.stderr


#: One bad option value per command: each is refused before any work, the same way (argparse's usage line, then
#: ``xiangqi CMD: error: ...``), with exit 2.
_BAD_OPTION_VALUES = [
    (["perft", "--depth", "65"], "--depth must be between 0 and 64, not 65"),
    (["perft", "--threads", "0"], "--threads must be >= 1, not 0"),
    (["validate", str(ROOT / "tests" / "data" / "sample"), "--jobs", "-1"],
     "--jobs must be >= 0 (0: one per CPU), not -1"),
    (["judge", "startpos", "--limit", "-1"], "--limit must be at least 0 (0 turns it off), not -1"),
    (["render", "startpos", "-o", "x.svg", "--size", "0"], "--size must be positive, not 0"),
    (["render", "startpos", "-o", "x.svg", "--arrows", "e4e"], "--arrows: "),
    (["match", "--engine", "cmd=a", "--engine", "cmd=b", "--games", "0"], "--games must be >= 1, not 0"),
    (["engine", "--hash", "-1"], "--hash must be 0-"),
]


@pytest.mark.parametrize("argv, message", _BAD_OPTION_VALUES, ids=[" ".join(a[:1] + a[-2:]) for a, _ in
                                                                     _BAD_OPTION_VALUES])
def test_every_command_reports_a_bad_option_value_alike(argv: List[str], message: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``validate --jobs -1`` printed a bare message, without the usage line argparse prints for the others."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and "Traceback" not in captured.err
    assert lines[0].startswith(f"usage: xiangqi {argv[0]} ")
    assert lines[-1].startswith(f"xiangqi {argv[0]}: error: {message}")


# ---------------------------------------------------------------------------------------------------------------
# One rule for a position that cannot occur in a game (xiangqi.game.require_playable)
# ---------------------------------------------------------------------------------------------------------------

FACING = "4k4/9/9/9/9/9/9/9/9/4K4 w"          # the kings face each other: Red to move could take Black's king
CHECKED = "4k4/4R4/9/9/9/9/9/9/9/3K5 w"       # Black, not to move, is in check from the chariot
FACING_WHY = "the kings facing each other on an open file, the side not to move in check"
CHECKED_WHY = "the side not to move in check"


def _refusal(command: str, fen: str, why: str) -> str:
    return f"xiangqi {command}: invalid FEN: the position cannot occur in a game ({why}) in {fen!r}"


@pytest.mark.parametrize("fen, why", [(FACING, FACING_WHY), (CHECKED, CHECKED_WHY)])
@pytest.mark.parametrize("argv", [["perft", "--depth", "2", "--fen", "FEN"],
                                  ["perft", "--depth", "2", "--engine", "/nonexistent/engine", "--fen", "FEN"],
                                  ["judge", "FEN"], ["judge", "FEN", "moves", "d0d1"]])
def test_perft_and_judge_refuse_a_position_no_game_reaches(argv: List[str], fen: str, why: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """They counted and judged it silently (perft 4 and "the game goes on" with the kings facing)."""
    assert main([fen if a == "FEN" else a for a in argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.splitlines() == [_refusal(argv[0], fen, why)]


def test_judge_reports_a_game_file_whose_start_cannot_occur_and_judges_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "two.pgn"
    games.write_text(f'[FEN "{FACING} - - 0 1"]\n[Result "*"]\n\n1. e0d0 *\n\n'
                     '[Result "*"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    assert main(["judge", str(games), "--json"]) == 1  # bad data in a file
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"xiangqi judge: {games}: game 1: invalid FEN: the position cannot occur "
                                         f"in a game ({FACING_WHY}) in '{FACING} - - 0 1'"]
    assert [json.loads(line)["game"] for line in captured.out.splitlines()] == [2]


def test_validate_words_the_same_start_position_the_same_way(tmp_path: Path) -> None:
    from xiangqi.validate import validate

    game = tmp_path / "one.pgn"
    game.write_text(f'[FEN "{FACING} - - 0 1"]\n[Result "*"]\n\n1. e0d0 *\n', encoding="utf-8")
    (report,) = validate([str(game)])
    assert report.error is not None and report.error.kind == "invalid-fen"
    assert f"the position cannot occur in a game ({FACING_WHY})" in report.error.message


@pytest.mark.parametrize("fen, why", [(FACING, FACING_WHY), (CHECKED, CHECKED_WHY)])
def test_render_draws_a_position_no_game_reaches_with_one_warning(fen: str, why: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi import svg
    from xiangqi.board import Board

    out = tmp_path / "x.svg"
    assert main(["render", fen, "-o", str(out)]) == 0
    board = Board(fen)
    assert out.read_text(encoding="utf-8") == svg.board(board, check=board.king(board.turn)
                                                        if board.is_check() else None) + "\n"
    assert capsys.readouterr().err.splitlines() == [
        f"xiangqi render: warning: the position cannot occur in a game ({why}): {board.fen()}"]


def test_render_warns_about_a_start_no_game_reaches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record whose FEN tag has the kings facing: every reader refuses the tag (game.start_board), so render
    names the bad tag and warns about the position it draws; a game from a sound start draws silently."""
    game = tmp_path / "one.pgn"
    game.write_text(f'[FEN "{FACING} - - 0 1"]\n[Result "*"]\n\n1. e0d0 *\n', encoding="utf-8")
    assert main(["render", str(game), "-o", str(tmp_path / "start.svg")]) == 0
    err = capsys.readouterr().err
    assert "bad FEN tag" in err and "cannot occur in a game" in err
    sound = tmp_path / "two.pgn"
    sound.write_text('[Result "*"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    assert main(["render", str(sound), "-o", str(tmp_path / "end.svg")]) == 0
    assert capsys.readouterr().err == ""
