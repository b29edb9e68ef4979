"""One pipeline, any encoding: the 3,000 CCPD master games as UTF-8, GB18030 and Big5, side by side in one run.

Targets (the record-pipeline issue): ``validate`` with one worker and ``pgn.read_games`` each within 1.3x of
their UTF-8 time on the Big5 and GB18030 copies; twice the input at most 2.2x the time; ``jobs=2`` at least
1.6x faster than one job on a file of 20 MB or more (that one needs a free second core: it is the most
sensitive to other load). Each benchmark asserts what it computed: the same games, plies and verdicts in every
encoding. Before the single pipeline the Big5 copy took 88x the UTF-8 time to validate (a byte-level game
boundary search that Big5 trail bytes ``{ }`` misled) and ``read_games`` 2x.

Run: ``pytest benchmarks/bench_encodings.py --benchmark-enable`` (the ratio tests need the timings of the
benchmarks before them in the same run).
"""

from __future__ import annotations

from _targets import best_time as _timed, speed_target
from conftest import MASTER_ENCODINGS

import os
from pathlib import Path
from typing import Any, Dict, List

import pytest

from xiangqi import pgn
from xiangqi import validate as V

GAMES = 3000
PLIES = 254_333
ENCODINGS = MASTER_ENCODINGS
#: The big file for the two-job test: the master games repeated to at least this many bytes.
BIG_BYTES = 20 * 1024 * 1024


@pytest.fixture(scope="module")
def timings() -> Dict[str, float]:
    """Best wall time of each benchmark in this run, in seconds."""
    return {}


@pytest.fixture(scope="module")
def copies(shared_games: Path, master_copies: Dict[str, Path],
           tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    """The master games re-encoded, and twice over in UTF-8 (``double``), and a file of ``BIG_BYTES`` (``big``)."""
    text = (shared_games / "ccpd-master-3000.chinese.pgn").read_text(encoding="utf-8")
    folder = tmp_path_factory.mktemp("encodings")
    out: Dict[str, Path] = {enc: master_copies[enc] for enc in ENCODINGS}
    out["double"] = folder / "master.double.pgn"
    out["double"].write_text(text + "\n" + text, encoding="utf-8")
    data = text.encode("utf-8")
    out["big"] = folder / "master.big.pgn"
    with open(out["big"], "wb") as fh:
        for _ in range(-(-BIG_BYTES // len(data))):
            fh.write(data + b"\n")
    return out


def _check(reports: List[V.GameReport], times: int = 1) -> None:
    assert len(reports) == GAMES * times
    assert sum(r.plies for r in reports) == PLIES * times
    assert all(r.ok for r in reports)


@pytest.mark.parametrize("enc", ENCODINGS)
def test_validate(benchmark: Any, copies: Dict[str, Path], timings: Dict[str, float], enc: str) -> None:
    reports = benchmark.pedantic(_timed(lambda: list(V.validate(copies[enc])), f"validate-{enc}", timings),
                                 rounds=5, iterations=1, warmup_rounds=1)
    _check(reports)


@pytest.mark.parametrize("enc", ENCODINGS)
def test_read_games(benchmark: Any, copies: Dict[str, Path], timings: Dict[str, float], enc: str) -> None:
    def read() -> List[int]:
        return [len(g.mainline_moves()) for g in pgn.read_games(copies[enc])]

    plies = benchmark.pedantic(_timed(read, f"read-{enc}", timings), rounds=3, iterations=1, warmup_rounds=1)
    assert len(plies) == GAMES and sum(plies) == PLIES


def test_validate_twice_the_input(benchmark: Any, copies: Dict[str, Path], timings: Dict[str, float]) -> None:
    reports = benchmark.pedantic(_timed(lambda: list(V.validate(copies["double"])), "validate-double", timings),
                                 rounds=5, iterations=1, warmup_rounds=1)
    _check(reports, 2)


@pytest.mark.parametrize("jobs", [1, 2])
def test_validate_big_file(benchmark: Any, copies: Dict[str, Path], timings: Dict[str, float], jobs: int) -> None:
    big = copies["big"]
    assert big.stat().st_size >= BIG_BYTES
    times = big.stat().st_size // (copies["utf-8"].stat().st_size + 1)  # the copies of the games in it
    reports = benchmark.pedantic(_timed(lambda: list(V.validate(big, jobs=jobs)), f"big-{jobs}", timings),
                                 rounds=3, iterations=1, warmup_rounds=1)
    _check(reports, times)


def test_encodings_within_1_3x(timings: Dict[str, float], benchmark: Any) -> None:
    keys = {f"{what}-{enc}" for what in ("validate", "read") for enc in ENCODINGS}
    if not keys <= set(timings):
        pytest.skip("needs the encoding benchmarks of this run")
    ratios = {f"{what}-{enc}": timings[f"{what}-{enc}"] / timings[f"{what}-utf-8"]
              for what in ("validate", "read") for enc in ("gb18030", "big5")}
    benchmark.extra_info.update({k: round(v, 3) for k, v in ratios.items()})
    print("\n" + ", ".join(f"{k} {v:.2f}x of UTF-8" for k, v in ratios.items()))
    benchmark(lambda: None)
    for key, ratio in ratios.items():
        speed_target(ratio <= 1.3, f"{key} takes {ratio:.2f}x the UTF-8 time (target 1.3x)")


def test_linear_in_the_input(timings: Dict[str, float], benchmark: Any) -> None:
    if not {"validate-utf-8", "validate-double"} <= set(timings):
        pytest.skip("needs the validate benchmarks of this run")
    ratio = timings["validate-double"] / timings["validate-utf-8"]
    benchmark.extra_info["twice_the_input"] = round(ratio, 3)
    print(f"\ntwice the input: {ratio:.2f}x the time")
    benchmark(lambda: None)
    speed_target(ratio <= 2.2, f"twice the input takes {ratio:.2f}x the time (target 2.2x)")


def test_two_jobs_on_a_big_file(timings: Dict[str, float], benchmark: Any) -> None:
    if not {"big-1", "big-2"} <= set(timings):
        pytest.skip("needs the big-file benchmarks of this run")
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one CPU")
    ratio = timings["big-1"] / timings["big-2"]
    benchmark.extra_info["two_jobs_big_file"] = round(ratio, 3)
    print(f"\n{BIG_BYTES >> 20} MB: jobs=1 {timings['big-1']:.2f} s, jobs=2 {timings['big-2']:.2f} s: {ratio:.2f}x")
    benchmark(lambda: None)
    speed_target(ratio >= 1.6, f"--jobs 2 gives only {ratio:.2f}x on a {BIG_BYTES >> 20} MB file (target 1.6x)")
