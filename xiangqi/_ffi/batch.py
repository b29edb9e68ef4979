"""The numpy batch loops of the C core (``xq_batch.h``): inputs as the C core sees them and one runner per loop.

A runner takes a range ``(lo, hi)`` of positions and fills its part of the caller's arrays, so that
:mod:`xiangqi.batch` can split the work across threads (the C loops release the GIL).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from xiangqi._ffi import FEN_MAX, MAX_MOVES, ffi, lib, raise_internal
from xiangqi._ffi.position import NativePosition

#: Bytes per packed position.
PACKED_SIZE: int = lib.XQ_PACKED_SIZE
#: Planes per position.
PLANES_NB: int = lib.XQ_PLANES_NB
#: Moves in the policy index.
MOVE_INDEX_NB: int = lib.XQ_MOVE_INDEX_NB
#: The board orientations of the planes and the policy mask.
VIEWS = {"absolute": int(lib.XQ_VIEW_ABSOLUTE), "side_to_move": int(lib.XQ_VIEW_SIDE_TO_MOVE)}

Range = Tuple[int, int]


def move_index_codes() -> List[int]:
    """The move code of each policy index, in index order."""
    return [int(lib.xq_move_index_move(i)) for i in range(MOVE_INDEX_NB)]


class Source:
    """The C view (``xq_batch_in``) of a batch input, and the buffers it points into."""

    __slots__ = ("n", "cdata", "_keep")

    def __init__(self, n: int, cdata: Any, keep: Tuple[Any, ...]) -> None:
        self.n = n
        self.cdata = cdata
        self._keep = keep

    @classmethod
    def packed(cls, arr: npt.NDArray[np.uint8]) -> "Source":
        """Packed records: a C-contiguous ``uint8[N, PACKED_SIZE]`` array (checked by the caller)."""
        src = ffi.new("xq_batch_in *")
        src.kind = lib.XQ_IN_PACKED
        src.count = arr.shape[0]
        buf = ffi.from_buffer("uint8_t[]", arr)
        src.packed = buf
        return cls(arr.shape[0], src, (arr, buf))

    @classmethod
    def fens(cls, data: bytes, offsets: npt.NDArray[np.int64]) -> "Source":
        """FENs: ``data[offsets[i]:offsets[i + 1]]`` is the ASCII text of position ``i``."""
        src = ffi.new("xq_batch_in *")
        src.kind = lib.XQ_IN_FEN
        src.count = len(offsets) - 1
        text_buf = ffi.from_buffer(data)
        off_buf = ffi.from_buffer("int64_t[]", offsets)
        src.fen_text = text_buf
        src.fen_offsets = off_buf
        return cls(len(offsets) - 1, src, (data, offsets, text_buf, off_buf))

    @classmethod
    def positions(cls, boards: Sequence[NativePosition]) -> "Source":
        """Copies of boards' C positions."""
        n = len(boards)
        arr = ffi.new("xq_pos[]", n)
        for i, b in enumerate(boards):
            arr[i] = b._pos[0]
        src = ffi.new("xq_batch_in *")
        src.kind = lib.XQ_IN_POS
        src.count = n
        src.pos = arr
        return cls(n, src, (arr,))


def _check(rc: int, what: str) -> int:
    if rc < 0:
        raise_internal(rc, what)
    return rc


def fixed_runner(loop: str, src: Source, out: npt.NDArray[Any], status: npt.NDArray[np.int8], *, view: int = 0,
                 depth: int = 0, bulk: bool = True, stop: Optional[Any] = None) -> Callable[[Range], None]:
    """The runner of a loop with a fixed-size result per position, writing ``out`` (C-contiguous, ``N`` rows)
    and ``status``: ``loop`` is ``zobrist``, ``pack``, ``attack_maps``, ``planes`` or ``legal_mask`` (with
    ``view``), or ``perft`` (with ``depth``, ``bulk`` and an optional ``stop`` flag)."""
    ctype = "uint64_t[]" if out.dtype == np.uint64 else "uint8_t[]"
    out_ptr = ffi.from_buffer(ctype, out, require_writable=True)
    st_ptr = ffi.from_buffer("int8_t[]", status, require_writable=True)
    cdata = src.cdata
    call: Callable[[int, int], int]
    if loop == "perft":
        flag, b = (ffi.NULL if stop is None else stop), 1 if bulk else 0
        call = lambda lo, hi: lib.xq_batch_perft_stoppable(cdata, lo, hi, depth, b, out_ptr, st_ptr, flag)  # noqa: E731
    elif loop in ("planes", "legal_mask"):
        fn = getattr(lib, f"xq_batch_{loop}")
        call = lambda lo, hi: fn(cdata, lo, hi, view, out_ptr, st_ptr)  # noqa: E731
    else:
        fn = getattr(lib, f"xq_batch_{loop}")
        call = lambda lo, hi: fn(cdata, lo, hi, out_ptr, st_ptr)  # noqa: E731
    what = f"xq_batch_{loop}"

    def run(r: Range) -> None:
        _check(call(r[0], r[1]), what)

    return run


def fens_runner(src: Source, status: npt.NDArray[np.int8]) -> Callable[[Range], List[str]]:
    """The runner that writes each position's FEN (``''`` for an unreadable item)."""
    st_ptr = ffi.from_buffer("int8_t[]", status, require_writable=True)

    def run(r: Range) -> List[str]:
        cap = (r[1] - r[0]) * FEN_MAX
        buf = np.empty(cap, dtype=np.uint8)
        got = _check(lib.xq_batch_fens(src.cdata, r[0], r[1], ffi.from_buffer("char[]", buf, require_writable=True),
                                       cap, st_ptr), "xq_batch_fens")
        return buf[:got].tobytes().decode("ascii").split("\n")[:-1]

    return run


def legal_moves_runner(src: Source, status: npt.NDArray[np.int8], offsets: npt.NDArray[np.int64]
                       ) -> Callable[[Range], npt.NDArray[np.uint16]]:
    """The runner that returns the legal move codes of its positions and writes their counts into
    ``offsets[1:]``."""
    st_ptr = ffi.from_buffer("int8_t[]", status, require_writable=True)
    counts_ptr = ffi.from_buffer("int64_t[]", offsets, require_writable=True) + 1

    def run(r: Range) -> npt.NDArray[np.uint16]:
        # Room for the worst case; only the pages written are ever touched, and the
        # buffer is shrunk in place (realloc) to the moves actually written.
        cap = (r[1] - r[0]) * MAX_MOVES
        buf = np.empty(cap, dtype=np.uint16)
        ptr = ffi.from_buffer("xq_move[]", buf, require_writable=True)
        got = _check(lib.xq_batch_legal_moves(src.cdata, r[0], r[1], ptr, cap, counts_ptr, st_ptr),
                     "xq_batch_legal_moves")
        ffi.release(ptr)
        buf.resize((got,), refcheck=False)
        return buf

    return run
