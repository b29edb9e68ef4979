"""The documentation's build command is written once and the same everywhere: the README, docs/README.md and the
start page of the site show the command that .ci/run runs; and the README, the short entry, links the pages."""

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


def test_readme_links_resolve_and_reach_every_tutorial() -> None:
    """The README is the short entry: its relative links point at files that exist, and it links every tutorial
    and the reference, so a new page is not left out of it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = [target for target in re.findall(r"\]\(([^)\s]+)\)", readme) if "://" not in target]
    missing = [target for target in links if not (ROOT / target.split("#")[0]).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"
    pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs" / "tutorials").glob("*.rst")}
    pages |= {"docs/reference/index.rst", "docs/cli.rst", "docs/reference/capi.rst"}
    assert pages - set(links) == set(), f"README.md does not link {sorted(pages - set(links))}"
