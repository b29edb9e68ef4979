"""The C boundary: the only importer of the compiled module (``ffi``, ``lib``), status mapping, and, in its
modules, the typed functions over the C core that the rest of the package calls.

Everything untyped that comes from cffi stays in this package: no other module of xiangqi imports ``lib`` or
``ffi``, allocates C memory or reads a C struct. One module per part of the C API:

* :mod:`xiangqi._ffi.position`: a board's position (``xq.h``): :class:`~xiangqi._ffi.position.NativePosition`;
* :mod:`xiangqi._ffi.batch`: the numpy batch loops (``xq_batch.h``);
* :mod:`xiangqi._ffi.search`: our engine's search (``xq_search.h``): :class:`~xiangqi._ffi.search.NativeSearch`;
* :mod:`xiangqi._ffi.replay`: the replay of move text (``xq_replay.h``): :class:`~xiangqi._ffi.replay.TextPlayer`;
* :mod:`xiangqi._ffi.scan`: the scan of PGN text for game starts (``xq_scan.h``).
"""

from __future__ import annotations

import hashlib
import itertools
import queue
import threading
from pathlib import Path
from typing import Any, Callable, List, NoReturn, Optional, Sequence, Tuple, TypeVar

from xiangqi.errors import InternalError

try:
    from xiangqi import _core  # type: ignore[attr-defined]
except ImportError as exc:  # pragma: no cover - exercised only on broken installs
    raise ImportError(
        "the compiled core xiangqi._core is missing: install the package with `pip install .` "
        "(or build in place with `python setup.py build_ext --inplace`)"
    ) from exc

ffi: Any = _core.ffi
lib: Any = _core.lib

__version__ = "0.1.0"


def _check_build(csrc: Path = Path(__file__).resolve().parents[2] / "csrc") -> None:
    """Refuse a compiled module that does not match this package (version) or, in a source checkout, ``csrc``."""
    built = ffi.string(lib.xq_version()).decode()
    if built != __version__:
        raise ImportError(
            f"stale compiled module: xiangqi._core is version {built}, the Python package is {__version__}; "
            "rebuild with `pip install .` (or `python setup.py build_ext --inplace`)"
        )
    if (csrc / "ffibuild.py").is_file():
        # A source checkout: the module must have been built from these very sources.
        h = hashlib.sha256()
        for p in sorted(list(csrc.glob("*.c")) + list(csrc.glob("*.h"))):
            if p.name == "xqperft.c" or p.name.startswith("_"):
                continue
            h.update(p.name.encode())
            h.update(p.read_bytes())
        if h.hexdigest()[:16] != ffi.string(lib.xq_build_hash()).decode():
            raise ImportError(
                f"stale compiled module: xiangqi._core was built from other C sources than those in {csrc}; "
                "rebuild with `pip install -e .` (or `python setup.py build_ext --inplace`)"
            )


_check_build()
ffi.init_once(lib.xq_init, "xq_init")

OK = lib.XQ_OK
E_FEN_SYNTAX = lib.XQ_E_FEN_SYNTAX
E_FEN_POSITION = lib.XQ_E_FEN_POSITION
E_MOVE_FORMAT = lib.XQ_E_MOVE_FORMAT
E_ILLEGAL_MOVE = lib.XQ_E_ILLEGAL_MOVE
E_BUFFER_SMALL = lib.XQ_E_BUFFER_SMALL
E_ARG = lib.XQ_E_ARG
MAX_MOVES: int = lib.XQ_MAX_MOVES
FEN_MAX: int = lib.XQ_FEN_MAX


def status_str(status: int) -> str:
    """The C core's name for a status code."""
    return str(ffi.string(lib.xq_status_str(status)).decode())


def raise_internal(status: int, what: str) -> NoReturn:
    """Raise for a C status that valid use of the API cannot produce."""
    raise InternalError(f"{what}: C core returned {status} ({status_str(status)})")


_T = TypeVar("_T")


def run_stoppable(calls: Sequence[Callable[[], _T]], threads: int, stop: Any,
                  on_done: Optional[Callable[[int, _T], None]] = None) -> List[_T]:
    """The results of ``calls`` (long C loops that give up once ``stop[0]`` is set), run in ``threads`` worker
    threads, so that a Ctrl-C reaches the calling thread at once: it only waits, a twentieth of a second at a
    time; on :class:`KeyboardInterrupt` (or any error) it sets the stop flag, waits for the workers to give up
    (milliseconds) and raises on. ``on_done(i, result)`` is called in the calling thread once call ``i`` has
    ended (at its next wake-up).
    ``stop`` is an ``int *`` from ``ffi.new``, passed by the calls to the C functions.
    With no calls it returns ``[]`` at once.

    Each worker takes the next call itself (a shared counter), rather than being handed one task per call by a
    pool: calls of a tenth of a millisecond (a perft split below the root) then cost no queueing and no
    hand-over, and two threads count nearly twice as fast as one."""
    results: List[Any] = [None] * len(calls)
    taken = itertools.count()  # next() on it is atomic under the GIL
    finished: "queue.SimpleQueue[Tuple[int, bool, Any]]" = queue.SimpleQueue()
    ended = itertools.count(1)
    all_ended = threading.Event()

    def work() -> None:
        while not stop[0]:
            i = next(taken)
            if i >= len(calls):
                return
            try:
                finished.put((i, True, calls[i]()))
            except BaseException as exc:  # handed to the calling thread, which raises it
                finished.put((i, False, exc))
                all_ended.set()
                return
            if next(ended) == len(calls):
                all_ended.set()

    # The calling thread wakes when every call has ended or a twentieth of a second has passed, not once per
    # call: a wake-up per call of a tenth of a millisecond would hold the GIL the workers need.
    workers = [threading.Thread(target=work, daemon=True) for _ in range(max(1, min(threads, len(calls))))]
    try:
        for worker in workers:
            worker.start()
        left = len(calls)
        while left:
            all_ended.wait(0.05)
            while True:
                try:
                    i, ok, value = finished.get_nowait()
                except queue.Empty:
                    break
                if not ok:
                    raise value
                results[i] = value
                left -= 1
                if on_done is not None:
                    on_done(i, value)
            if left and finished.empty() and not any(worker.is_alive() for worker in workers):
                # Workers that saw the stop flag set give up before every call ran (a flag set by the caller).
                raise InternalError(f"run_stoppable: {left} of {len(calls)} calls not run: the stop flag was set")
    except BaseException:
        stop[0] = 1
        for worker in workers:
            if worker.is_alive():
                worker.join()
        raise
    for worker in workers:
        worker.join()
    return results


def join_bb(out: Any) -> int:
    """Join a ``uint64_t[2]`` bitboard into one Python int."""
    return int(out[0]) | int(out[1]) << 64


def new_stop_flag() -> Any:
    """A C ``int *`` stop flag, 0, for the stoppable C loops (:func:`run_stoppable` sets it)."""
    return ffi.new("int *")


def count_lines(data: bytes) -> int:
    """How many ``\\n`` bytes ``data`` holds (``data.count(b"\\n")``, counted in C a word at a time)."""
    return int(lib.xq_count_lines(data, len(data)))


def utf8_plain(data: bytes) -> bool:
    """Whether ``data`` is strict UTF-8 without U+FEFF (checked in C, without decoding)."""
    return bool(lib.xq_utf8_plain(data, len(data)) == 1)
