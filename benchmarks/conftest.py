"""Shared fixtures for the benchmarks: the pyffish peer (Fairy-Stockfish's Python binding).

Speed is reported as ratios against a peer measured in the same run, since the machines are shared and noisy.
Benchmarks that need the peer skip cleanly when pyffish is not installed (it is in the ``test`` extra).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict

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


#: The encodings the master games are checked in, side by side ("in every encoding").
MASTER_ENCODINGS = ("utf-8", "gb18030", "big5")


@pytest.fixture(scope="session")
def master_copies(shared_games: Path, tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    """The 3,000 CCPD master games (traditional Chinese moves) re-encoded in each of :data:`MASTER_ENCODINGS`."""
    text = (shared_games / "ccpd-master-3000.chinese.pgn").read_text(encoding="utf-8")
    folder = tmp_path_factory.mktemp("master")
    out: Dict[str, Path] = {}
    for enc in MASTER_ENCODINGS:
        out[enc] = folder / f"master.{enc}.pgn"
        out[enc].write_bytes(text.encode(enc))
    return out
