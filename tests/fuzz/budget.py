"""A time and memory budget for one call: quadratic behaviour on a small input fails, noise does not.

The time is wall-clock time of an untraced call. A machine shared with other
work can stall any single call, so a call over budget is run again, up to
``attempts`` times, and only the fastest run counts. The memory is the peak of
Python allocations (``tracemalloc``) in one further, traced run, made only when
asked for (tracing slows the call, so its time is not the one that counts).
"""

from __future__ import annotations

import gc
import time
import tracemalloc
import zlib
from typing import Callable, Optional, Tuple, TypeVar

__all__ = ["Budget", "OverBudget", "TIME_S", "MEMORY_BYTES", "PER_BYTE_S", "for_input", "work_size", "run_within"]

T = TypeVar("T")

#: The budget of one input under 1 MB: 100 ms and 100 MB.
TIME_S = 0.100
MEMORY_BYTES = 100 * 1024 * 1024
#: Linear work on big inputs: 2 s per MB more (the readers take 0.5-1 s per MB of dense records here; the
#: quadratic faults took 3-100 s on a few hundred KB).
PER_BYTE_S = 2e-6


#: Gzip members are measured decompressed up to this many bytes (the readers' limits stop them there or sooner).
_GUNZIP_CAP = 64 * 1024 * 1024


def work_size(data: bytes) -> int:
    """The bytes the readers work through for ``data``: its length, or for gzip data (a damaged stream
    too) what it decompresses to (at most 64 MiB). A few hundred bytes of ``.gz`` can hold a megabyte of
    records, whose reading is linear work that the per-byte budget is for; quadratic work on it still
    takes far longer than its budget."""
    if not data.startswith(b"\x1f\x8b"):
        return len(data)
    total = 0
    rest = data
    while rest.startswith(b"\x1f\x8b") and total < _GUNZIP_CAP:
        inflate = zlib.decompressobj(31)
        try:
            total += len(inflate.decompress(rest, _GUNZIP_CAP - total))
            while inflate.unconsumed_tail and total < _GUNZIP_CAP:
                total += len(inflate.decompress(inflate.unconsumed_tail, _GUNZIP_CAP - total))
        except zlib.error:
            # Damaged: count what came out before the damage, byte by byte from the start.
            inflate = zlib.decompressobj(31)
            for i in range(len(rest)):
                try:
                    total += len(inflate.decompress(rest[i:i + 1], max(1, _GUNZIP_CAP - total)))
                except zlib.error:
                    break
            break
        rest = inflate.unused_data
    return max(len(data), total)


def for_input(size: int, attempts: int = 3) -> "Budget":
    """The budget of one input whose :func:`work_size` is ``size`` bytes: 100 ms (plus 2 s per MB), 100 MB."""
    return Budget(TIME_S + PER_BYTE_S * size, MEMORY_BYTES, attempts)


class OverBudget(AssertionError):
    """A call took more time or memory than its budget (in every attempt)."""


class Budget:
    """``seconds`` of wall-clock time and ``memory`` bytes of peak Python allocations per call."""

    def __init__(self, seconds: float = TIME_S, memory: Optional[int] = MEMORY_BYTES, attempts: int = 3) -> None:
        self.seconds = seconds
        self.memory = memory
        self.attempts = attempts

    def time(self, fn: Callable[[], T]) -> Tuple[T, float]:
        """``fn()``'s result and its fastest time; raises :class:`OverBudget` when no attempt is within."""
        best = float("inf")
        result: Optional[Tuple[T]] = None
        for _ in range(self.attempts):
            gc.collect()
            start = time.perf_counter()
            value = fn()
            elapsed = time.perf_counter() - start
            if result is None:
                result = (value,)
            best = min(best, elapsed)
            if best <= self.seconds:
                break
        assert result is not None
        if best > self.seconds:
            raise OverBudget(f"took {best * 1000:.0f} ms (fastest of {self.attempts}), budget "
                             f"{self.seconds * 1000:.0f} ms")
        return result[0], best

    def peak(self, fn: Callable[[], object]) -> int:
        """The peak bytes of Python allocations during ``fn()``; raises :class:`OverBudget` above the budget."""
        was_tracing = tracemalloc.is_tracing()
        if not was_tracing:
            tracemalloc.start()
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        try:
            fn()
            peak = tracemalloc.get_traced_memory()[1] - base
        finally:
            if not was_tracing:
                tracemalloc.stop()
        if self.memory is not None and peak > self.memory:
            raise OverBudget(f"peak allocations {peak / 2**20:.1f} MiB, budget {self.memory / 2**20:.0f} MiB")
        return peak


def run_within(fn: Callable[[], T], budget: Optional[Budget] = None, *, memory: bool = True) -> T:
    """``fn()``'s result, checked against ``budget`` (default: 100 ms, 100 MB), memory too unless told not."""
    b = budget or Budget()
    value, _ = b.time(fn)
    if memory and b.memory is not None:
        b.peak(fn)
    return value
