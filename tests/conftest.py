"""Shared test configuration: markers, data locations, fixtures.

Markers:

* ``slow``: long runs (deep perft, the reference's own depth-3 perft). Deselected
  by default through ``addopts`` in pyproject.toml; run them with ``-m slow``.
* ``perft``: perft tests (fast ones included), so ``-m perft`` picks them all.

Tests that read the project's shared data locate it beside the repository
(``<repo>/../shared``, which is how CI lays it out) and skip when it is absent.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from xiangqi.engine import SimpleEngine

# CI machines are shared and noisy: no per-example deadline and no "too slow" health check unless a test asks for
# one explicitly (decorator settings override only what they name).
settings.register_profile("xiangqi", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("xiangqi")

TESTS_DIR = Path(__file__).resolve().parent
#: The shared read-only data folder (``<repo>/../shared``), which may be absent.
SHARED_DIR = Path(__file__).resolve().parents[2] / "shared"
#: Perft suites kept inside the repository.
PERFT_DIR = TESTS_DIR / "data" / "perft"

# Let test modules import the reference generator as a plain module.
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long-running test (pyproject's addopts deselect it; use -m slow)")
    config.addinivalue_line("markers", "perft: perft node-count test")


def shared_path(*parts: str) -> Path:
    """A path inside the shared data folder; skips the calling test when it is missing."""
    p = SHARED_DIR.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared data not available: {p}")
    return p


@pytest.fixture
def shared_dir() -> Path:
    """The shared data folder (the test is skipped when it is absent)."""
    return shared_path()


@pytest.fixture
def games_dir() -> Path:
    """``shared/data/games`` (the test is skipped when it is absent)."""
    return shared_path("data", "games")


#: A few positions used by several test modules: (name, FEN).
SAMPLE_FENS = [
    ("start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("px0-2", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"),
    ("fsf-xq-2", "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"),
    ("black-to-move", "4ka3/4cN1r1/3R5/p1p5p/9/4C4/P3P3c/B3B4/4A4/3AK4 b - - 4 24"),
]


@pytest.fixture(params=SAMPLE_FENS, ids=[n for n, _ in SAMPLE_FENS])
def sample_fen(request: pytest.FixtureRequest) -> str:
    """Each of :data:`SAMPLE_FENS` in turn."""
    fen: str = request.param[1]
    return fen


#: The real engine the engine tests talk to (Debian's fairy-stockfish package).
FAIRY = "/usr/games/fairy-stockfish"


@pytest.fixture(scope="module", params=["uci", "ucci"])
def fairy(request: pytest.FixtureRequest) -> Iterator["SimpleEngine"]:
    """Fairy-Stockfish in UCI (ranks 1-10) and in UCCI; the test skips, naming the package, where it is absent."""
    if not os.access(FAIRY, os.X_OK):
        pytest.skip("needs the Debian package fairy-stockfish (/usr/games/fairy-stockfish)")
    from xiangqi.engine import SimpleEngine

    engine = SimpleEngine.popen_uci(FAIRY) if request.param == "uci" else SimpleEngine.popen_ucci(FAIRY)
    yield engine
    engine.quit()
