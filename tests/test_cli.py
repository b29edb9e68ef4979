"""The ``xiangqi`` command's dispatcher (xiangqi/cli.py): usage, help, unknown commands, exit codes."""

from __future__ import annotations

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
