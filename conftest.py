"""Doctest set-up for the modules of :mod:`xiangqi` (the tests' own configuration is ``tests/conftest.py``).

The examples of the engine modules (:mod:`xiangqi.engine`, ``engine_protocol``) start the package's own engine,
``OURS``; those of the validation modules (:mod:`xiangqi.validate`, ``reports``, ``chunks``, ``checking``,
``pools``) read a small PGN file: ``_example_pgn()`` writes it, and ``validate`` is there to make reports of it.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Dict, Iterator

import pytest


def _example_pgn() -> str:
    """A new file ``games.pgn`` in a temporary folder, for the examples: game 1 is valid, game 2 (line 5) plays
    an illegal second move."""
    path = os.path.join(tempfile.mkdtemp(), "games.pgn")
    with open(path, "w", encoding="utf-8") as f:
        f.write('[Event "A"]\n\n1. h2e2 h9g7 *\n\n[Event "B"]\n\n1. h2e2 h2e2 *\n')
    return path


_VALIDATION = [["xiangqi", name] for name in ("validate", "reports", "chunks", "checking", "pools")]
#: The engine modules, whose examples start the package's own engine as ``OURS`` with ``popen_uci``.
_ENGINE = [["xiangqi", name] for name in ("engine", "engine_protocol")]


@pytest.fixture(autouse=True)
def _validation_examples(request: pytest.FixtureRequest) -> Iterator[None]:
    """For the doctests of the validation modules only, and only while each runs (the namespace is the session's,
    and another module may have a ``validate`` of its own: :func:`xiangqi.batch.validate`)."""
    if type(request.node).__name__ != "DoctestItem" or request.node.name.split(".")[:2] not in _VALIDATION:
        yield
        return
    from xiangqi.validate import validate

    namespace: Dict[str, Any] = request.getfixturevalue("doctest_namespace")
    namespace["_example_pgn"] = _example_pgn
    namespace["validate"] = validate
    yield
    del namespace["_example_pgn"], namespace["validate"]


@pytest.fixture(autouse=True)
def _engine_examples(request: pytest.FixtureRequest) -> Iterator[None]:
    """For the doctests of the engine modules only: ``OURS``, the command of the package's own engine (``xiangqi
    engine`` on this interpreter), and :func:`xiangqi.engine.popen_uci`, as their module docstrings say."""
    if type(request.node).__name__ != "DoctestItem" or request.node.name.split(".")[:2] not in _ENGINE:
        yield
        return
    import sys

    from xiangqi.engine import popen_uci

    namespace: Dict[str, Any] = request.getfixturevalue("doctest_namespace")
    namespace["OURS"] = [sys.executable, "-m", "xiangqi", "engine"]
    namespace["popen_uci"] = popen_uci
    yield
    del namespace["OURS"], namespace["popen_uci"]
