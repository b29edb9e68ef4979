"""Doctest set-up for the modules of :mod:`xiangqi` (the tests' own configuration is ``tests/conftest.py``).

The examples of the validation modules (:mod:`xiangqi.validate`, ``reports``, ``chunks``, ``checking``,
``pools``) read a small PGN file: ``_example_pgn()`` writes it, and ``validate`` is there to make reports of it.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Dict

import pytest


def _example_pgn() -> str:
    """A new file ``games.pgn`` in a temporary folder, for the examples: game 1 is valid, game 2 (line 5) plays
    an illegal second move."""
    path = os.path.join(tempfile.mkdtemp(), "games.pgn")
    with open(path, "w", encoding="utf-8") as f:
        f.write('[Event "A"]\n\n1. h2e2 h9g7 *\n\n[Event "B"]\n\n1. h2e2 h2e2 *\n')
    return path


@pytest.fixture(autouse=True)
def _validation_examples(request: pytest.FixtureRequest) -> None:
    """For the doctests of the package's modules only (a test's imports stay its own)."""
    if type(request.node).__name__ != "DoctestItem" or not request.node.name.startswith("xiangqi."):
        return
    from xiangqi.validate import validate

    namespace: Dict[str, Any] = request.getfixturevalue("doctest_namespace")
    namespace["_example_pgn"] = _example_pgn
    namespace["validate"] = validate
