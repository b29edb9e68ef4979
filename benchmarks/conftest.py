"""Shared fixtures for the benchmarks: the pyffish peer (Fairy-Stockfish's Python binding).

Speed is reported as ratios against a peer measured in the same run, since the machines are shared and noisy.
Benchmarks that need the peer skip cleanly when pyffish is not installed (it is in the ``test`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="session")
def pyffish() -> Any:
    return pytest.importorskip("pyffish")


@pytest.fixture(scope="session")
def shared_games() -> Path:
    path = SHARED / "data" / "games"
    if not path.is_dir():
        pytest.skip("../shared/data/games is not present")
    return path
