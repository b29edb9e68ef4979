"""The only importer of the compiled module: ``ffi``, ``lib`` and status mapping.

Everything untyped that comes from cffi stays in this module.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, Callable, List, NoReturn, Optional, Sequence, TypeVar

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


def _check_build(csrc: Path = Path(__file__).resolve().parent.parent / "csrc") -> None:
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
    threads, so that a Ctrl-C reaches the calling thread at once: it only waits, a tenth of a second at a time;
    on :class:`KeyboardInterrupt` (or any error) it sets the stop flag, waits for the workers to give up
    (milliseconds) and raises on. ``on_done(i, result)`` is called in the calling thread as call ``i`` ends.
    ``stop`` is an ``int *`` from ``ffi.new``, passed by the calls to the C functions."""
    results: List[Any] = [None] * len(calls)
    pool = ThreadPoolExecutor(max_workers=max(1, min(threads, len(calls))))
    try:
        futures = {pool.submit(call): i for i, call in enumerate(calls)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for f in finished:
                i = futures[f]
                results[i] = f.result()
                if on_done is not None:
                    on_done(i, results[i])
    except BaseException:
        stop[0] = 1
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return results


def join_bb(out: Any) -> int:
    """Join a ``uint64_t[2]`` bitboard into one Python int."""
    return int(out[0]) | int(out[1]) << 64


# ---------------------------------------------------------------------------- perft (issue 24): the hashed perft


class PerftTable:
    """The transposition table of a hashed perft (``xq_perft_hashed``): about ``nbytes`` of zeroed memory, owned
    here (the C core never allocates), that the C core fills. Threads counting at once may share it, and later
    counts (any position, any depth) may reuse it."""

    def __init__(self, nbytes: int) -> None:
        bucket = int(lib.XQ_PERFT_HASH_BUCKET)
        if nbytes < bucket:
            raise ValueError(f"a perft hash table needs at least {bucket} bytes, not {nbytes}")
        #: The size in bytes: whole buckets.
        self.nbytes = nbytes // bucket * bucket
        self._words = ffi.new("uint64_t[]", self.nbytes // 8)


def legal_codes_after(root: Any, code: int) -> List[int]:
    """The legal move codes of ``root`` (an ``xq_pos *``) after the legal move ``code``."""
    pos = ffi.new("xq_pos *")
    lib.xq_pos_copy(pos, root)
    st = lib.xq_pos_do_move(pos, code, ffi.new("xq_undo *"))
    if st:
        raise_internal(st, "xq_pos_do_move")
    buf = ffi.new("xq_move[]", MAX_MOVES)
    n = lib.xq_gen_legal(pos, buf, MAX_MOVES)
    if n < 0:
        raise_internal(n, "xq_gen_legal")
    return list(ffi.unpack(buf, n))


def perft_after(root: Any, path: Sequence[int], depth: int, bulk: bool, stop: Any = None,
                table: Optional[PerftTable] = None, verify_every: int = 0) -> int:
    """The perft count to ``depth`` of ``root`` (an ``xq_pos *``, left as it is) after the legal moves ``path``:
    ``xq_perft_stoppable``, or with a ``table`` ``xq_perft_hashed`` (bulk-counted; ``verify_every`` = N recounts
    one hit in N without the table). ``stop`` is an ``int *`` from ``ffi.new`` or None."""
    pos = root
    if path:  # the C functions take the position as const: only a path needs a copy
        pos = ffi.new("xq_pos *")
        lib.xq_pos_copy(pos, root)
        undo = ffi.new("xq_undo *")
        for code in path:
            st = lib.xq_pos_do_move(pos, code, undo)
            if st:
                raise_internal(st, "xq_pos_do_move")
    if stop is None:
        stop = ffi.NULL
    if table is None:
        return int(lib.xq_perft_stoppable(pos, depth, 1 if bulk else 0, stop))
    out = ffi.new("uint64_t *")
    st = lib.xq_perft_hashed(pos, depth, table._words, table.nbytes, verify_every, stop, out)
    if st == lib.XQ_E_HASH_MISMATCH:
        raise InternalError(f"hashed perft: a table count differs from its recount without the table "
                            f"(depth {depth}); count without --hash")
    if st:
        raise_internal(st, "xq_perft_hashed")
    return int(out[0])
