"""Perft speed: bulk and non-bulk, against Pikafish and pyffish in the same run, the hashed perft and the threads.

Pikafish (the fastest xiangqi perft measured, see ../shared/PERFORMANCE.md) is timed over UCI (``go perft N``, from
the command to ``Nodes searched``), interleaved run by run with ours, one thread each. The ratios are taken on CPU
time (the engine's from /proc, ours from the process's clock), which a machine shared with other jobs disturbs far
less than wall time; the wall-time ratio is recorded beside it. Pikafish comes from ``$PIKAFISH`` or the build of
``../shared/peers/pikafish/build.sh``; without either those benchmarks skip, naming the script.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import xiangqi
from _targets import speed_target
from xiangqi import batch

START = xiangqi.STARTING_FEN
D5 = 133_312_995
D4 = 3_290_240
D6 = 5_392_831_844
D7 = 217_154_523_878

#: The positions of issue 24's comparison, at depth 5: name -> (FEN, count), from tests/data/perft.
SUITE_NAMES = ("startpos", "px0-2", "folium-3", "fsf-xq-2")
#: The speed targets of issue 24 against Pikafish (CPU-time ratios): every position, and the median.
TARGET_EACH, TARGET_MEDIAN = 2.6, 3.0


def _suite() -> Dict[str, Tuple[str, int]]:
    out: Dict[str, Tuple[str, int]] = {}
    name = fen = ""
    for line in (Path(__file__).resolve().parents[1] / "tests" / "data" / "perft" / "xiangqi.perft").open():
        key, _, value = line.strip().partition(" ")
        if key == "id":
            name = value
        elif key == "epd":
            fen = value
        elif key == "perft" and name in SUITE_NAMES and value.split()[0] == "5":
            out[name] = (fen, int(value.split()[1]))
    return out


SUITE = _suite()
_RATIOS: Dict[str, float] = {}

BUILD_SCRIPT = Path(__file__).resolve().parents[2] / "shared" / "peers" / "pikafish" / "build.sh"
#: Where build.sh puts the binary by default.
_PIKAFISH_BUILD = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pikafish-97133ee/src/pikafish"


def _pyffish_perft(pyffish: Any, fen: str, depth: int) -> int:
    """A Python perft on pyffish, bulk-counting at the last ply: its fastest honest form."""
    moves = pyffish.legal_moves("xiangqi", fen, [])
    if depth == 1:
        return len(moves)
    return sum(_pyffish_perft(pyffish, pyffish.get_fen("xiangqi", fen, [m]), depth - 1) for m in moves)


@pytest.fixture(scope="module")
def pyffish_nps(pyffish: Any) -> float:
    start = time.perf_counter()
    nodes = _pyffish_perft(pyffish, START, 2)
    elapsed = time.perf_counter() - start
    assert nodes == 1920
    return nodes / elapsed


class Pikafish:
    """A Pikafish process answering ``go perft``: its count, wall seconds and CPU seconds."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._send("uci")
        self._until("uciok")
        self._send("isready")
        self._until("readyok")

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _until(self, prefix: str) -> str:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"Pikafish ended before {prefix!r}")

    def _cpu(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def perft(self, fen: str, depth: int) -> Tuple[int, float, float]:
        self._send(f"position fen {fen}")
        self._send("isready")
        self._until("readyok")
        cpu, wall = self._cpu(), time.perf_counter()
        self._send(f"go perft {depth}")
        nodes = int(self._until("Nodes searched").split(":")[1])
        return nodes, time.perf_counter() - wall, self._cpu() - cpu

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def pikafish() -> Iterator[Pikafish]:
    path = os.environ.get("PIKAFISH") or (str(_PIKAFISH_BUILD) if _PIKAFISH_BUILD.is_file() else "")
    if not path:
        pytest.skip(f"Pikafish not found: set $PIKAFISH to its binary or build it with {BUILD_SCRIPT}")
    engine = Pikafish(path)
    yield engine
    engine.close()


def _ours(fen: str, depth: int, **kw: Any) -> Tuple[int, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    nodes = xiangqi.perft(fen, depth, **kw)
    return nodes, time.perf_counter() - wall, time.process_time() - cpu


def _versus_pikafish(benchmark: Any, pikafish: Pikafish, fen: str, depth: int, nodes: int,
                     rounds: int) -> Dict[str, float]:
    """Ours and Pikafish's, interleaved ABAB: the counts must agree; records the median ratios."""
    theirs: List[Tuple[float, float]] = []
    ours: List[Tuple[float, float]] = []

    def pikafish_turn() -> None:
        n, wall, cpu = pikafish.perft(fen, depth)
        assert n == nodes
        theirs.append((wall, cpu))

    def our_turn() -> int:
        n, wall, cpu = _ours(fen, depth)
        ours.append((wall, cpu))
        return n

    assert benchmark.pedantic(our_turn, setup=pikafish_turn, rounds=rounds, iterations=1) == nodes
    ratio = {
        "cpu_ratio_vs_pikafish": statistics.median(c for _, c in theirs) / statistics.median(c for _, c in ours),
        "wall_ratio_vs_pikafish": statistics.median(w for w, _ in theirs) / statistics.median(w for w, _ in ours),
        "mnps": nodes / statistics.median(w for w, _ in ours) / 1e6,
    }
    benchmark.extra_info.update(ratio)
    return ratio


@pytest.mark.parametrize("name", SUITE_NAMES)
def test_perft5_against_pikafish(benchmark: Any, pikafish: Pikafish, name: str) -> None:
    fen, nodes = SUITE[name]
    ratio = _versus_pikafish(benchmark, pikafish, fen, 5, nodes, rounds=3)["cpu_ratio_vs_pikafish"]
    _RATIOS[name] = ratio
    speed_target(ratio >= TARGET_EACH, f"perft 5 of {name}: {ratio:.2f}x Pikafish, below {TARGET_EACH}x")
    if len(_RATIOS) == len(SUITE_NAMES):
        median = statistics.median(_RATIOS.values())
        speed_target(median >= TARGET_MEDIAN, f"perft 5: median {median:.2f}x Pikafish, below {TARGET_MEDIAN}x")


@pytest.mark.slow
def test_perft5_bulk(benchmark: Any, pyffish_nps: float) -> None:
    nodes = benchmark.pedantic(xiangqi.perft, args=(START, 5), rounds=3, iterations=1)
    assert nodes == D5
    nps = D5 / benchmark.stats.stats.median
    benchmark.extra_info.update(mnps=nps / 1e6, ratio_vs_pyffish=nps / pyffish_nps)


def test_perft4_bulk(benchmark: Any, pyffish_nps: float) -> None:
    nodes = benchmark(xiangqi.perft, START, 4)
    assert nodes == D4
    nps = D4 / benchmark.stats.stats.median
    benchmark.extra_info.update(mnps=nps / 1e6, ratio_vs_pyffish=nps / pyffish_nps)


def test_perft4_no_bulk(benchmark: Any) -> None:
    nodes = benchmark(xiangqi.perft, START, 4, bulk=False)
    assert nodes == D4
    benchmark.extra_info["mnps"] = D4 / benchmark.stats.stats.median / 1e6


# ---------------------------------------------------------------------------- the hashed perft


def _hash_speedup(benchmark: Any, depth: int, plain_depth: int, plain_nodes: int, nodes: int, hash_mb: int,
                  rounds: int) -> float:
    """The hashed count at ``depth`` against the plain one at ``plain_depth``, interleaved, on CPU time: the
    speed-up is the ratio of the hashed perft's (effective) nodes per second to the plain one's, which is the
    ratio of their times when the depths are equal (a plain depth 7 takes most of an hour)."""
    plain: List[float] = []
    hashed: List[float] = []

    def plain_turn() -> None:
        n, _, cpu = _ours(START, plain_depth)
        assert n == plain_nodes
        plain.append(cpu)

    def hashed_turn() -> int:
        n, _, cpu = _ours(START, depth, hash_mb=hash_mb)
        hashed.append(cpu)
        return n

    assert benchmark.pedantic(hashed_turn, setup=plain_turn, rounds=rounds, iterations=1) == nodes
    hashed_nps = nodes / statistics.median(hashed)
    plain_nps = plain_nodes / statistics.median(plain)
    speedup = hashed_nps / plain_nps
    benchmark.extra_info.update(hashed_effective_mnps=hashed_nps / 1e6, plain_mnps=plain_nps / 1e6, speedup=speedup)
    return speedup


def test_perft5_hashed(benchmark: Any) -> None:
    _hash_speedup(benchmark, 5, 5, D5, D5, 64, rounds=2)


@pytest.mark.slow
def test_perft6_hashed(benchmark: Any) -> None:
    speedup = _hash_speedup(benchmark, 6, 6, D6, D6, 256, rounds=1)
    speed_target(speedup >= 2.5, f"hashed perft 6: {speedup:.2f}x the plain one, below 2.5x")


@pytest.mark.slow
def test_perft7_hashed(benchmark: Any) -> None:
    speedup = _hash_speedup(benchmark, 7, 5, D5, D7, 1024, rounds=1)
    speed_target(speedup >= 5, f"hashed perft 7: {speedup:.2f}x the plain rate, below 5x")


# ---------------------------------------------------------------------------- threads


def _threads_speedup(benchmark: Any, run: Any, nodes: int, rounds: int) -> None:
    """``run(threads)`` with 2 threads against 1, interleaved, the fastest round of each: the speed-up needs a
    second core free, and on a shared machine a round's time varies by tens of percent with the neighbours, so a
    median of few rounds says more about them than about the threads."""
    one: List[float] = []

    def one_thread() -> None:
        t = time.perf_counter()
        assert run(1) == nodes
        one.append(time.perf_counter() - t)

    assert benchmark.pedantic(run, args=(2,), setup=one_thread, rounds=rounds, iterations=1) == nodes
    speedup = min(one) / benchmark.stats.stats.min
    benchmark.extra_info["speedup_2_threads"] = speedup
    speed_target(speedup >= 1.8 or (os.cpu_count() or 1) < 2, f"2 threads: {speedup:.2f}x one thread, below 1.8x")


def test_perft4_two_threads(benchmark: Any) -> None:
    nodes = benchmark(xiangqi.perft, START, 4, threads=2)
    assert nodes == D4
    benchmark.extra_info["mnps"] = D4 / benchmark.stats.stats.median / 1e6


@pytest.mark.parametrize("fen,nodes", [(START, D5), ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
                                                   10_369_923)], ids=["startpos", "px0-3-7-root-moves"])
def test_perft5_threads_speedup(benchmark: Any, fen: str, nodes: int) -> None:
    rounds = 5 if nodes > 100_000_000 else 25
    _threads_speedup(benchmark, lambda threads: xiangqi.perft(fen, 5, threads=threads), nodes, rounds=rounds)


def _random_positions(n: int) -> List[str]:
    rng = random.Random(5)
    out = []
    while len(out) < n:
        board = xiangqi.Board()
        for _ in range(rng.randrange(10, 50)):
            moves = board.legal_move_codes()
            if not moves:
                break
            board.push(xiangqi.Move.from_code(rng.choice(moves)))
        out.append(board.fen())
    return out


def test_batch_perft_threads_speedup(benchmark: Any) -> None:
    fens = _random_positions(100)
    nodes = int(batch.perft(fens, 3).sum())
    _threads_speedup(benchmark, lambda threads: int(batch.perft(fens, 3, threads=threads).sum()), nodes, rounds=10)
