"""A one-line progress display for long command-line runs (only on a terminal).

>>> import io
>>> p = Progress(io.StringIO(), total_files=3)   # not a terminal: stays silent
>>> p.update(files=1, games=10, plies=900, errors=0)
>>> p.close()
"""

from __future__ import annotations

import time
from typing import IO, Optional

__all__ = ["Progress", "format_count"]


def format_count(n: float) -> str:
    """``12345`` -> ``'12,345'`` (integers) or one decimal for small floats."""
    if isinstance(n, float) and n < 100:
        return f"{n:.1f}"
    return f"{int(round(n)):,}"


class Progress:
    """Redraws one status line on ``stream`` at most every ``interval`` seconds.

    Silent unless ``stream`` is a terminal (``isatty()``) and ``enabled`` is
    true, so piped output and log files never see control characters.
    """

    def __init__(self, stream: IO[str], *, total_files: int = 0, enabled: bool = True,
                 interval: float = 0.1) -> None:
        isatty = getattr(stream, "isatty", None)
        self.active = bool(enabled and isatty is not None and isatty())
        self._stream = stream
        self._total_files = total_files
        self._interval = interval
        self._start = time.perf_counter()
        self._last = 0.0
        self._width = 0

    def update(self, *, files: int, games: int, plies: int, errors: int, force: bool = False) -> None:
        """Show the counts so far (rate-limited unless ``force``)."""
        if not self.active:
            return
        now = time.perf_counter()
        if not force and now - self._last < self._interval:
            return
        self._last = now
        elapsed = max(now - self._start, 1e-9)
        self._draw(f"{files}/{self._total_files} files  {format_count(games)} games  "
                   f"{format_count(games / elapsed)} games/s  {format_count(errors)} "
                   f"{'error' if errors == 1 else 'errors'}")

    def show(self, line: str) -> None:
        """Show ``line`` as the status line (no rate limit: for callers with their own, slower rhythm)."""
        if self.active:
            self._draw(line)

    def _draw(self, line: str) -> None:
        pad = max(0, self._width - len(line))
        self._width = len(line)
        self._stream.write("\r" + line + " " * pad)
        self._stream.flush()

    def close(self, final: Optional[str] = None) -> None:
        """Erase the status line (and print ``final`` in its place, if given)."""
        if not self.active:
            return
        self._stream.write("\r" + " " * self._width + "\r")
        if final:
            self._stream.write(final + "\n")
        self._stream.flush()
        self.active = False
