"""Walking nested structures (variations inside variations) without Python recursion.

A recursive walk ``f(x)`` that calls itself becomes a generator that
``yield``s the generator of each inner call and receives its result;
:func:`run_nested` drives them with a stack of its own, so the depth of a
record (a thousand nested variations fit in 13 KB of PGN) is never limited by
the interpreter's recursion limit.
"""

from __future__ import annotations

from typing import Any, Generator, List, TypeVar

__all__ = ["Nested", "run_nested"]

T = TypeVar("T")

#: A step of a nested walk: yields inner walks, receives their results, returns its own.
Nested = Generator["Nested[Any]", Any, T]


def run_nested(walk: "Nested[T]") -> T:
    """Run ``walk`` and every walk it yields (depth first, each to its end before its parent resumes)."""
    stack: List[Nested[Any]] = [walk]
    value: Any = None
    while True:
        try:
            inner = stack[-1].send(value)
        except StopIteration as stop:
            stack.pop()
            if not stack:
                result: T = stop.value
                return result
            value = stop.value
            continue
        stack.append(inner)
        value = None
