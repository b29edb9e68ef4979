"""The documentation's build command is written once and the same everywhere: the README, docs/README.md and the
start page of the site show the command that .ci/run runs."""

from __future__ import annotations

import re
from typing import List
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMMAND = "sphinx-build -E -W --keep-going -q -b html docs docs/_build/html"


def _invocations(text: str) -> List[str]:
    """Every ``sphinx-build ...`` command line of a text, up to the end of its line or a closing backtick."""
    return [m.group(0).rstrip() for m in re.finditer(r"sphinx-build[^`\n]*", text)]


@pytest.mark.parametrize("path", ["README.md", "docs/README.md", "docs/index.rst", ".ci/run"])
def test_one_docs_build_command(path: str) -> None:
    found = _invocations((ROOT / path).read_text(encoding="utf-8"))
    assert found, f"{path} shows no docs build command"
    assert all(cmd == COMMAND for cmd in found), f"{path}: {found} differ from {COMMAND!r}"
