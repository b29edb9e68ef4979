"""The fuzz stage: the seed corpus, then mutation fuzzing of every target, each input under its budget.

Usage (from the repository root)::

    python tests/fuzz/run.py [--seconds 150] [--target NAME ...] [--out DIR]

1. Every seed of :mod:`corpus` runs under :func:`budget.for_input` (time: fastest of three runs; memory:
   peak Python allocations). A seed marked ``known`` runs in a process of its own with a time limit: it must
   not be well within its budget (under :data:`STALE_BELOW` of it; else its mark is stale and the stage fails, so
   that it becomes a regression case).
2. Each target of :mod:`targets` is fuzzed with hypothesis for its share of ``--seconds``: inputs are seeds
   mutated (bytes flipped, inserted, deleted, repeated, spliced with another seed) or fresh bytes and text,
   all under 1 MB. A failing input is saved in ``--out`` as found, then shrunk by hypothesis (for at most
   :data:`SHRINK_S`), saved and printed.

Exit status 0 when every input kept its contract and budget, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
if __package__ in (None, ""):
    sys.path.insert(0, str(HERE.parent))  # tests/: `fuzz` importable as a package

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.errors import HypothesisWarning  # noqa: E402

from fuzz.budget import Budget, OverBudget, for_input, work_size  # noqa: E402
from fuzz.corpus import Seed, seeds, small_seeds  # noqa: E402
from fuzz.targets import TARGETS  # noqa: E402

__all__ = ["inputs", "check", "run_corpus", "fuzz_target", "main"]

#: Characters of move and FEN text, for the text targets.
_TEXT_ALPHABET = ("车马相象仕士帅将炮砲兵卒車馬帥將進进退平前后後中一二三四五六七八九１２３４５６７８９"
                  "123456789abcdefghiRNBAKCPrnbakcp+-.=/ wb0")


@st.composite
def _mutated(draw: st.DrawFn, pool: Sequence[bytes]) -> bytes:
    data = bytearray(draw(st.sampled_from(pool)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "repeat", "splice", "cut"]))
        at = draw(st.integers(0, len(data)))
        if op == "flip" and data:
            data[min(at, len(data) - 1)] = draw(st.integers(0, 255))
        elif op == "insert":
            data[at:at] = draw(st.sampled_from([b"{", b"}", b"(", b")", b"[", b"]", b'"', b"\n", b"\r", b"\xef\xbb\xbf",
                                                b"\x00", b"\xff", b"[Event \"", b"[DhtmlXQ_", b"*", b"1. ",
                                                "炮".encode()])) if draw(st.booleans()) else draw(st.binary(min_size=1, max_size=8))
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 64))]
        elif op == "repeat":
            piece = bytes(data[at:at + draw(st.integers(1, 64))])
            data[at:at] = piece * draw(st.integers(1, 200))
        elif op == "splice":
            other = draw(st.sampled_from(pool))
            start = draw(st.integers(0, len(other)))
            data[at:at] = other[start:start + draw(st.integers(1, 256))]
        elif op == "cut":
            del data[at:]
    return bytes(data[: 1 << 20])


def inputs(target: str) -> "st.SearchStrategy[bytes]":
    """Inputs for ``target``: its small seeds (and every target's, for splicing) mutated, or fresh data."""
    own = [s.data for s in small_seeds() if s.target == target] or [b""]
    every = [s.data for s in small_seeds()]
    fresh: "st.SearchStrategy[bytes]"
    if target in ("notation", "fen"):
        fresh = st.text(alphabet=_TEXT_ALPHABET, max_size=80).map(lambda t: t.encode())
    elif target == "report":   # the pieces of text that confuse HTML, in any order
        from fuzz.targets import HTML_PAYLOADS

        fresh = st.lists(st.sampled_from(HTML_PAYLOADS), max_size=12).map(
            lambda parts: "".join(parts).encode("utf-8", "surrogateescape"))
    elif target == "packed":
        fresh = st.integers(0, 4).flatmap(lambda n: st.binary(min_size=52 * n, max_size=52 * n))
    else:
        fresh = st.binary(max_size=2048)
    return st.one_of(_mutated(own), _mutated(own + every), fresh)


def check(target: str, data: bytes, budget: Optional[Budget] = None) -> Tuple[float, int]:
    """Run ``target`` on ``data`` within ``budget`` (default: :func:`for_input`); (fastest time, peak bytes)."""
    fn = TARGETS[target]
    b = budget or for_input(work_size(data))
    _, seconds = b.time(lambda: fn(data))
    peak = b.peak(lambda: fn(data))
    return seconds, peak


#: A ``known`` seed's mark is stale when the seed takes less than this share of its time budget (fastest of three,
#: as for every seed): a seed near its budget is over in one run and within in the next, and a mark checked
#: against the budget itself failed the stage one way or the other on timing alone.
STALE_BELOW = 0.5


def _known_still_over(seed: Seed) -> Tuple[bool, str]:
    """Whether a ``known`` seed is still over budget (not well within it: :data:`STALE_BELOW`), checked in a
    process of its own with a time limit."""
    limit = for_input(work_size(seed.data)).seconds
    code = ("import sys; sys.path.insert(0, sys.argv[1]);"
            "from fuzz.corpus import seeds; from fuzz.run import check; from fuzz.budget import OverBudget, for_input, work_size;"
            "s = next(s for s in seeds() if (s.target, s.name) == (sys.argv[2], sys.argv[3]));"
            "b = for_input(work_size(s.data)); b.seconds *= float(sys.argv[4])\n"
            "try: check(s.target, s.data, b)\n"
            "except OverBudget as e: print(e); sys.exit(3)\n")
    try:
        run = subprocess.run([sys.executable, "-c", code, str(HERE.parent), seed.target, seed.name, str(STALE_BELOW)],
                             capture_output=True, text=True, timeout=limit * 2 + 10)
    except subprocess.TimeoutExpired:
        return True, f"not done after {limit * 2 + 10:.0f} s"
    if run.returncode == 3:
        return True, run.stdout.strip()
    if run.returncode == 0:
        return False, "within budget"
    return True, f"exit {run.returncode}: {(run.stderr.strip().splitlines() or [''])[-1]}"


def run_corpus(targets: Sequence[str], out: Optional[Path]) -> List[str]:
    """Run every seed of ``targets``; the failures, as lines."""
    failures: List[str] = []
    for seed in seeds():
        if seed.target not in targets:
            continue
        if seed.known is not None:
            over, why = _known_still_over(seed)
            state = "still over budget" if over else "NOW WITHIN BUDGET: remove its `known` mark"
            print(f"  corpus {seed.target:9} {seed.name:40} known ({seed.known}): {state} ({why})")
            if not over:
                failures.append(f"{seed.target} {seed.name}: marked known but within budget now")
            continue
        try:
            seconds, peak = check(seed.target, seed.data)
        except Exception as exc:  # the finding itself: report it and go on with the other seeds
            failures.append(f"{seed.target} {seed.name}: {type(exc).__name__}: {str(exc)[:300]}")
            _save(out, seed.target, seed.data)
            print(f"  corpus {seed.target:9} {seed.name:40} FAILED {type(exc).__name__}: {str(exc)[:200]}")
            continue
        print(f"  corpus {seed.target:9} {seed.name:40} {len(seed.data):8d} B {seconds * 1000:8.1f} ms "
              f"{peak / 2**20:6.1f} MiB")
    return failures


def _save(out: Optional[Path], target: str, data: bytes) -> Optional[Path]:
    if out is None:
        return None
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{target}-{len(data)}-{abs(hash(data)) % 10**8:08d}.bin"
    path.write_bytes(data)
    return path


#: Seconds that hypothesis may shrink a failing input for (the input as first found is saved at once): a
#: memory blow-up takes seconds an attempt, and shrinking one ran for five minutes of CI.
SHRINK_S = 30.0


def fuzz_target(target: str, seconds: float, *, examples: int = 50, out: Optional[Path] = None,
                deadline: Optional[float] = None) -> Dict[str, float]:
    """Fuzz ``target`` for about ``seconds`` (rounds of ``examples`` inputs); raises on the first finding
    (saved as found, then shrunk by hypothesis for at most :data:`SHRINK_S`). Returns statistics: examples, slowest time (s), largest peak (bytes)."""
    stats = {"examples": 0.0, "slowest": 0.0, "peak": 0.0}
    last: List[bytes] = []
    failed: Dict[bytes, Exception] = {}   # inputs that failed, and how
    shrink_end: List[float] = []              # when shrinking stops (set by the first failure)

    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))
    @given(inputs(target))
    def one(data: bytes) -> None:
        known = failed.get(data)
        if known is not None:
            last[:] = [data]
            raise known
        if shrink_end and time.monotonic() > shrink_end[0]:
            return                # shrinking is over: what has not failed yet is taken to pass
        last[:] = [data]
        try:
            t, peak = check(target, data)
        except Exception as exc:   # a finding (not a Ctrl-C)
            if not failed:        # the first failure: saved before any shrinking, which has SHRINK_S
                _save(out, target, data)
                shrink_end.append(time.monotonic() + SHRINK_S)
            failed[data] = exc
            raise
        stats["examples"] += 1
        stats["slowest"] = max(stats["slowest"], t)
        stats["peak"] = max(stats["peak"], peak)

    end = time.monotonic() + seconds
    if deadline is not None:
        end = min(end, deadline)
    while True:
        try:
            one()
        except BaseException:
            if last:
                saved = _save(out, target, last[0])
                print(f"  fuzz {target}: failing input ({len(last[0])} bytes{', saved as ' + str(saved) if saved else ''}):"
                      f" {last[0][:200]!r}")
            raise
        if time.monotonic() >= end:
            return stats


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="tests/fuzz/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=150.0, help="fuzzing time over all targets (default 150)")
    parser.add_argument("--target", action="append", choices=sorted(TARGETS), help="only these targets")
    parser.add_argument("--out", type=Path, default=None, help="save failing inputs here")
    parser.add_argument("--no-corpus", action="store_true", help="skip the seed corpus")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", category=HypothesisWarning)  # reprs of large inputs
    targets = args.target or list(TARGETS)
    start = time.monotonic()
    failures: List[str] = []
    if not args.no_corpus:
        print("== seed corpus")
        failures += run_corpus(targets, args.out)
    print(f"== fuzzing {len(targets)} targets for {args.seconds:.0f} s")
    share = args.seconds / len(targets)
    for target in targets:
        t0 = time.monotonic()
        try:
            stats = fuzz_target(target, share, out=args.out)
        except OverBudget as exc:
            failures.append(f"{target}: over budget: {exc}")
            continue
        except Exception as exc:
            failures.append(f"{target}: {type(exc).__name__}: {str(exc)[:300]}")
            continue
        print(f"  fuzz {target:9} {int(stats['examples']):6d} inputs in {time.monotonic() - t0:5.1f} s, slowest "
              f"{stats['slowest'] * 1000:6.1f} ms, largest peak {stats['peak'] / 2**20:5.1f} MiB")
    print(f"== {len(failures)} failures in {time.monotonic() - start:.0f} s")
    for line in failures:
        print("  " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
