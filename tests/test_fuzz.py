"""The fuzz stage in brief (the full stage is tests/fuzz/run.py, run by .ci/run): the small seeds of the corpus
and one short round of mutation fuzzing per target, each input under its time and memory budget."""

from __future__ import annotations

import pytest

from fuzz.corpus import Seed, seeds
from fuzz.run import check, fuzz_target
from fuzz.targets import TARGETS

# The big seeds (a few hundred KB) are tests/test_reliability.py's cases; the `known` ones the full stage checks.
_SMALL = [s for s in seeds(big=False) if s.known is None]


def test_the_corpus_covers_every_target() -> None:
    assert {s.target for s in seeds()} == set(TARGETS)


@pytest.mark.parametrize("seed", _SMALL, ids=[f"{s.target}-{s.name}" for s in _SMALL])
def test_seed_within_budget(seed: Seed) -> None:
    check(seed.target, seed.data)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_short_fuzzing_round(target: str) -> None:
    stats = fuzz_target(target, 0.0, examples=15)
    assert stats["examples"] >= 1
