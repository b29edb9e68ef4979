"""Batch APIs: many positions in, numpy arrays out, at C speed.

Every function takes ``positions`` in one of three forms and runs one C call
per chunk of positions (the GIL is released while C runs):

* a sequence of FEN strings and/or :class:`~xiangqi.Board` objects (a
  board's current position is used, not its move stack);
* a packed array ``uint8[N, PACKED_SIZE]`` made by :func:`pack` (read without
  any FEN parsing: the fastest input);
* a 1-D numpy array of strings (``str``/``bytes``/``object`` dtype) of FENs.

``threads=k`` splits the positions into chunks run on ``k`` threads; the
results are identical to ``threads=1``. Every function is thread-safe.

**Per-item status, never per-item exceptions.** An item that cannot be read
(a malformed FEN, a position without a king, a corrupt packed record) does
not raise: its result is zero (no moves, perft 0, key 0, all-zero maps,
planes and mask, an all-zero packed record, an empty FEN string) and, if you
pass ``status=`` (an ``int8`` array of length N), its entry there is set to a
negative code (:data:`FEN_SYNTAX`, :data:`FEN_POSITION`; :data:`OK` = 0 for
good items; :func:`status_message` names them). :func:`validate` returns the
status array alone. Misuse of the call itself raises before any C runs:

* :class:`TypeError`: ``positions`` is a single FEN or Board instead of a
  sequence, or holds something else; ``status`` is not an ``int8`` array;
* :class:`ValueError`: a packed or FEN array of the wrong shape or layout,
  ``threads`` below 1, ``status`` of the wrong length or not writable and
  C-contiguous, or another bad argument (each function says which).

Array layouts (boards are drawn as diagrams read: row 0 is rank 9, column =
file a-i, like :meth:`Board.attack_map`):

* :func:`attack_maps`: ``uint8[N, 2, 10, 9]``, ``[:, 0]`` = Black's attacker
  counts, ``[:, 1]`` = Red's (the index is ``int(color)``).
* :func:`planes`: ``uint8[N, 15, 10, 9]`` of 0/1. With ``view="absolute"``
  plane ``int(color) * 7 + piece_type - 1`` holds that colour's pieces of that
  type (0-6: Black pawn, advisor, elephant, horse, cannon, rook, king; 7-13:
  Red's). With ``view="side_to_move"`` planes 0-6 are the side to move's
  pieces and 7-13 the opponent's, and when Black is to move the board is
  turned 180 degrees (square ``s`` is drawn where ``89 - s`` would be), so the
  side to move always plays up from the bottom rows. Plane 14 is all ones
  when Red is to move, all zeros when Black is (in both views).
* :func:`legal_mask`: ``bool[N, 2086]`` over :data:`MOVE_INDEX`. With
  ``view="side_to_move"`` a Black position's moves are turned 180 degrees
  before indexing (see :func:`move_index`), matching :func:`planes`.

>>> from xiangqi import STARTING_FEN
>>> moves, offsets = legal_moves([STARTING_FEN, "4k4/9/9/9/9/9/9/9/9/4K4 w"])
>>> offsets.tolist()
[0, 44, 46]
>>> perft([STARTING_FEN], 3).tolist()
[79666]
>>> status = np.empty(2, dtype=np.int8)
>>> keys = zobrist(["bad fen", STARTING_FEN], status=status)
>>> int(keys[0]), status.tolist()
(0, [-1, 0])
"""

from __future__ import annotations

import functools
import operator
from typing import Any, Callable, Iterable, List, Literal, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

from xiangqi import _ffi
from xiangqi._ffi.batch import (
    MOVE_INDEX_NB, PACKED_SIZE as _PACKED_SIZE, PLANES_NB, VIEWS, Source, fens_runner, fixed_runner,
    legal_moves_runner, move_index_codes,
)
from xiangqi.board import Board
from xiangqi.position import BaseBoard, check_depth, count_by_root_move
from xiangqi.core import Color, Move

__all__ = [
    "Positions", "View", "PACKED_SIZE", "NUM_PLANES", "NUM_MOVES", "MOVE_INDEX", "MOVE_LOOKUP",
    "OK", "FEN_SYNTAX", "FEN_POSITION", "BAD_ARGUMENT",
    "pack", "unpack", "fens", "validate", "legal_moves", "perft", "zobrist", "attack_maps", "planes",
    "legal_mask", "move_index", "index_move", "rotate_codes", "status_message",
]

#: What the batch functions accept (see the module docstring).
Positions = Union[Iterable[Union[str, BaseBoard]], npt.NDArray[np.generic]]
#: Board orientation of :func:`planes` and :func:`legal_mask`.
View = Literal["absolute", "side_to_move"]

#: Bytes per packed position (:func:`pack`).
PACKED_SIZE: int = _PACKED_SIZE
#: Planes per position in :func:`planes`.
NUM_PLANES: int = PLANES_NB
#: Moves in :data:`MOVE_INDEX` (every move that can ever be legal).
NUM_MOVES: int = MOVE_INDEX_NB

#: Status codes (``int8``) written into ``status=`` arrays.
OK: int = _ffi.OK
FEN_SYNTAX: int = _ffi.E_FEN_SYNTAX  #: A malformed FEN (-1).
FEN_POSITION: int = _ffi.E_FEN_POSITION  #: A FEN or packed record that is no usable position (-2).
BAD_ARGUMENT: int = _ffi.E_ARG  #: The C core's bad-argument code (``XQ_E_ARG``, -6).

# Most positions per C call when a buffer is sized for the worst case (legal moves: 512
# bytes a position of address space, of which only what is written gets memory).
_CHUNK = 1 << 18


def _build_move_index() -> Tuple[npt.NDArray[np.uint16], npt.NDArray[np.int16]]:
    codes = np.array(move_index_codes(), dtype=np.uint16)
    lookup = np.full(1 << 14, -1, dtype=np.int16)
    lookup[codes] = np.arange(NUM_MOVES, dtype=np.int16)
    codes.flags.writeable = False
    lookup.flags.writeable = False
    return codes, lookup


#: The policy index: ``MOVE_INDEX[i]`` is the 16-bit move code (``from << 7 |
#: to``, see :meth:`Move.from_code`) of move ``i``. It lists every move that can
#: ever be legal in xiangqi, in increasing code order (by from square, then to
#: square): the 1530 rank and file moves, 508 horse jumps, 16 advisor moves
#: and 32 elephant moves, 2086 in all. Read-only.
MOVE_INDEX: npt.NDArray[np.uint16]
#: The inverse of :data:`MOVE_INDEX`: ``MOVE_LOOKUP[code]`` is the index of a
#: move code (``int16``), or -1 for codes that are never legal. Length 16384.
MOVE_LOOKUP: npt.NDArray[np.int16]
MOVE_INDEX, MOVE_LOOKUP = _build_move_index()


def status_message(code: int) -> str:
    """The C core's name for a status code (``0`` is ``'ok'``).

    >>> status_message(OK), status_message(FEN_SYNTAX), status_message(FEN_POSITION)
    ('ok', 'malformed FEN', 'unusable position')
    """
    return _ffi.status_str(int(code))


# --------------------------------------------------------------------- input


def _from_packed(arr: npt.NDArray[Any]) -> Source:
    if arr.dtype != np.uint8:
        raise TypeError(f"a packed position array must have dtype uint8, not {arr.dtype}")
    if arr.ndim != 2 or arr.shape[1] != PACKED_SIZE:
        raise ValueError(f"a packed position array must have shape (N, {PACKED_SIZE}), not {arr.shape}")
    if not arr.flags.c_contiguous:
        raise ValueError("a packed position array must be C-contiguous (use np.ascontiguousarray)")
    return Source.packed(arr)


def _from_fens(items: Sequence[str], text: str) -> Source:
    n = len(items)
    data = text.encode("ascii", "replace")  # one '?' per non-ASCII character: lengths stay aligned
    offsets = np.empty(n + 1, dtype=np.int64)
    offsets[0] = 0
    if n:
        np.cumsum(np.fromiter(map(len, items), dtype=np.int64, count=n), out=offsets[1:])
    return Source.fens(data, offsets)


def _source(positions: Positions) -> Source:
    if isinstance(positions, np.ndarray):
        if positions.dtype.kind not in "USO":
            return _from_packed(positions)
        if positions.ndim != 1:
            raise ValueError(f"an array of FENs must be 1-D, not of shape {positions.shape}")
        positions = positions.tolist()
    if isinstance(positions, (str, bytes, bytearray, BaseBoard)):
        raise TypeError(f"positions must be a sequence of FENs or Boards (or a packed array), not one "
                        f"{type(positions).__name__}; wrap a single position in a list")
    try:
        items = positions if isinstance(positions, (list, tuple)) else list(positions)
    except TypeError:
        raise TypeError(f"positions must be a sequence of FENs or Boards (or a packed array), "
                        f"not {type(positions).__name__}") from None
    try:
        return _from_fens(items, "".join(items))  # the common case: all str
    except TypeError:
        pass
    if all(isinstance(x, BaseBoard) for x in items):
        return Source.positions(items)
    fen_items: List[str] = []
    for i, x in enumerate(items):
        if isinstance(x, str):
            fen_items.append(x)
        elif isinstance(x, BaseBoard):
            fen_items.append(x.fen())
        elif isinstance(x, (bytes, bytearray)):
            fen_items.append(bytes(x).decode("ascii", "replace"))
        else:
            raise TypeError(f"positions[{i}] is a {type(x).__name__}, expected a FEN str or a Board")
    return _from_fens(fen_items, "".join(fen_items))


def _check_threads(threads: int) -> int:
    t = operator.index(threads)
    if t < 1:
        raise ValueError(f"threads must be >= 1, not {threads!r}")
    return t


def _check_view(view: str) -> int:
    try:
        return VIEWS[view]
    except (KeyError, TypeError):
        raise ValueError(f"view must be 'absolute' or 'side_to_move', not {view!r}") from None


def _status_out(status: Optional[npt.NDArray[np.int8]], n: int) -> npt.NDArray[np.int8]:
    if status is None:
        return np.empty(n, dtype=np.int8)
    if not isinstance(status, np.ndarray):
        raise TypeError(f"status must be a numpy int8 array, not {type(status).__name__}")
    if status.dtype != np.int8:
        raise TypeError(f"status must have dtype int8, not {status.dtype}")
    if status.shape != (n,):
        raise ValueError(f"status must have shape ({n},) for {n} positions, not {status.shape}")
    if not status.flags.c_contiguous or not status.flags.writeable:
        raise ValueError("status must be a writable, C-contiguous array")
    return status


def _checked(positions: Positions, threads: int, status: Optional[npt.NDArray[np.int8]]
             ) -> Tuple[Source, int, npt.NDArray[np.int8]]:
    """The positions, thread count and status array of a call, each checked (the misuses raise)."""
    src = _source(positions)
    return src, _check_threads(threads), _status_out(status, src.n)


# ---------------------------------------------------------------- execution

_T = TypeVar("_T")


def _ranges(n: int, chunks: int) -> List[Tuple[int, int]]:
    chunks = max(1, min(chunks, n))
    bounds = [n * k // chunks for k in range(chunks + 1)]
    return list(zip(bounds[:-1], bounds[1:]))


def _run(fn: Callable[[Tuple[int, int]], _T], n: int, threads: int, *, max_chunk: int = 0,
         per_thread: int = 1, stop: Any = None) -> List[_T]:
    """Run ``fn`` over chunk ranges covering ``[0, n)``, on ``threads`` threads (:func:`xiangqi._ffi.run_stoppable`);
    with ``stop`` (the ``int *`` its C calls read), always in worker threads, so that a Ctrl-C stops them."""
    chunks = threads * per_thread if threads > 1 else 1
    if max_chunk:
        chunks = max(chunks, -(-n // max_chunk))
    ranges = _ranges(n, chunks)
    if stop is None and (threads == 1 or len(ranges) == 1):
        return [fn(r) for r in ranges]
    return _ffi.run_stoppable([functools.partial(fn, r) for r in ranges], threads,
                              _ffi.new_stop_flag() if stop is None else stop)


def _fill(src: Source, threads: int, status: Optional[npt.NDArray[np.int8]], tail: Tuple[int, ...],
          dtype: Any, loop: str, per_thread: int = 1, stop: Any = None, view: int = 0, depth: int = 0,
          bulk: bool = True) -> npt.NDArray[Any]:
    """Shared body of the functions with a fixed-size result per position (``stop``: as :func:`_run`)."""
    threads = _check_threads(threads)
    st = _status_out(status, src.n)
    out = np.empty((src.n,) + tail, dtype=dtype)
    _run(fixed_runner(loop, src, out, st, stop=stop, view=view, depth=depth, bulk=bulk), src.n, threads, per_thread=per_thread, stop=stop)
    return out


# ------------------------------------------------------------------ the API


def validate(positions: Positions, *, threads: int = 1) -> npt.NDArray[np.int8]:
    """The status of each position: :data:`OK` (0) or a negative code (see :func:`status_message`).

    >>> from xiangqi import STARTING_FEN
    >>> validate([STARTING_FEN, "bad fen", "4k4/9/9/9/9/9/9/9/9/9 w"]).tolist()  # the last has no red king
    [0, -1, -2]

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions`` or ``threads`` (the module's list of
            misuses), before any C runs.
    """
    src = _source(positions)
    status = np.empty(src.n, dtype=np.int8)
    _fill(src, threads, status, (), np.uint64, "zobrist")
    return status


def pack(positions: Positions, *, threads: int = 1,
         status: Optional[npt.NDArray[np.int8]] = None) -> npt.NDArray[np.uint8]:
    """Positions as packed records: ``uint8[N, PACKED_SIZE]`` (52 bytes each).

    Layout of a record: bytes 0-44 hold the 90 piece codes (``color << 3 |
    piece_type``, 0 = empty) two per byte, square ``2k`` in the low nibble of
    byte ``k`` and square ``2k + 1`` in the high nibble; byte 45 is the side
    to move (1 Red, 0 Black); bytes 46-47 the halfmove clock (uint16, little
    endian); bytes 48-51 the fullmove number (uint32, little endian; 1 to
    999,999,999, the nine digits a FEN holds, else the record is invalid). Items
    that cannot be read become all-zero records, which every batch function
    reports as :data:`FEN_POSITION`. Feed the array back to any batch function,
    or to :func:`unpack` / :func:`fens`.

    >>> from xiangqi import STARTING_FEN
    >>> packed = pack([STARTING_FEN, "bad fen"])
    >>> packed.shape, packed.dtype.name, int(packed[1].sum())
    ((2, 52), 'uint8', 0)

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions``, ``threads`` or ``status`` (the
            module's list of misuses), before any C runs.
    """
    return _fill(_source(positions), threads, status, (PACKED_SIZE,), np.uint8, "pack")


def unpack(packed: npt.NDArray[np.uint8], *, threads: int = 1,
           status: Optional[npt.NDArray[np.int8]] = None) -> List[Optional[Board]]:
    """Boards from a packed array (``None`` for records that hold no valid position).

    >>> from xiangqi import STARTING_FEN
    >>> unpack(pack([STARTING_FEN, "bad fen"]))
    [Board('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'), None]

    Raises:
        :class:`TypeError`: ``packed`` is not a numpy array (or its dtype is not ``uint8``), or a misused
            ``status`` (the module's list of misuses).
        :class:`ValueError`: its shape is not ``(N, PACKED_SIZE)`` or it is not C-contiguous, or a misused
            ``threads`` or ``status``.
    """
    if not isinstance(packed, np.ndarray):
        raise TypeError(f"unpack expects a packed uint8 array, not {type(packed).__name__}")
    _from_packed(packed)  # validates dtype, shape and layout before anything runs
    return [Board(f) if f else None for f in fens(packed, threads=threads, status=status)]


def fens(positions: Positions, *, threads: int = 1,
         status: Optional[npt.NDArray[np.int8]] = None) -> List[str]:
    """The FEN of each position (``''`` for items that cannot be read).

    >>> from xiangqi import Board
    >>> fens([Board("4k4/9/9/9/9/9/9/9/9/3K5 r"), "bad fen"])
    ['4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1', '']

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions``, ``threads`` or ``status`` (the
            module's list of misuses), before any C runs.
    """
    src, threads, st = _checked(positions, threads, status)
    out: List[str] = []
    for part in _run(fens_runner(src, st), src.n, threads, max_chunk=_CHUNK):
        out.extend(part)
    return out


def legal_moves(positions: Positions, *, threads: int = 1, status: Optional[npt.NDArray[np.int8]] = None
                ) -> Tuple[npt.NDArray[np.uint16], npt.NDArray[np.int64]]:
    """The legal moves of every position, in CSR form: ``(moves, offsets)``.

    ``moves`` is ``uint16`` move codes (:meth:`Move.from_code`), ``offsets`` is
    ``int64`` of length N + 1: position ``i``'s moves are
    ``moves[offsets[i]:offsets[i + 1]]``, in the order of
    :meth:`Board.legal_move_codes`. Unreadable items have no moves.

    >>> from xiangqi import STARTING_FEN, Move
    >>> moves, offsets = legal_moves([STARTING_FEN, "bad fen"])
    >>> offsets.tolist(), Move.from_code(int(moves[0])) in Board().legal_moves
    ([0, 44, 44], True)

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions``, ``threads`` or ``status`` (the
            module's list of misuses), before any C runs.
    """
    src, threads, st = _checked(positions, threads, status)
    offsets = np.empty(src.n + 1, dtype=np.int64)
    offsets[0] = 0
    parts = _run(legal_moves_runner(src, st, offsets), src.n, threads, max_chunk=_CHUNK)
    moves = parts[0] if len(parts) == 1 else np.concatenate(parts)
    np.cumsum(offsets, out=offsets)
    return moves, offsets


def perft(positions: Positions, depth: int, *, bulk: bool = True, threads: int = 1,
          status: Optional[npt.NDArray[np.int8]] = None) -> npt.NDArray[np.uint64]:
    """Perft node counts (see :meth:`Board.perft`): ``uint64[N]``, 0 for unreadable items.

    Work is split by position; a long count of fewer positions than ``threads``
    is split below each position's root, as :func:`xiangqi.perft` with ``threads`` does. ``depth``: 0 to
    :data:`~xiangqi.position.MAX_PERFT_DEPTH`, as everywhere (:func:`~xiangqi.position.check_depth`).
    A long run counts in worker threads, so a Ctrl-C (:class:`KeyboardInterrupt`) stops it within a fraction of
    a second.

    >>> from xiangqi import STARTING_FEN
    >>> perft([STARTING_FEN, "bad fen"], 2).tolist()
    [1920, 0]

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions``, ``threads`` or ``status`` (the
            module's list of misuses), before any C runs.
        :class:`ValueError`: ``depth`` is outside 0 to :data:`~xiangqi.position.MAX_PERFT_DEPTH`.
        :class:`TypeError`: ``depth`` is not an integer.
    """
    d = check_depth(depth)
    src = _source(positions)
    # A long run counts in worker threads with a stop flag, so that Ctrl-C stops it within a fraction of a second;
    # a short one (under a few milliseconds) is not worth the threads' start (about half a millisecond). A long
    # run is cut in small chunks (64 a thread), since one position's count can be many times another's: the
    # threads then end together.
    long_run = src.n * _BRANCHING ** max(d - 1, 0) >= _STOPPABLE_LEAVES
    if long_run and _check_threads(threads) > src.n and d >= 2:
        # Fewer positions than threads: each one's count is split below its root (as xiangqi.perft splits it).
        st = _status_out(status, src.n)
        out = np.zeros(src.n, dtype=np.uint64)
        for i, fen in enumerate(fens(positions, status=st)):
            if fen:
                board = BaseBoard(fen)
                out[i] = sum(count_by_root_move(board, board.legal_move_codes(), d, bulk, threads, None))
        return out
    return _fill(src, threads, status, (), np.uint64, "perft", per_thread=64 if long_run else 8,
                 stop=_ffi.new_stop_flag() if long_run else None, depth=d, bulk=bulk)


#: About how many moves a position has (44 at the start), and how many leaves a batch perft of a few
#: milliseconds counts: from there it runs where Ctrl-C can stop it.
_BRANCHING = 40
_STOPPABLE_LEAVES = 2_000_000


def zobrist(positions: Positions, *, threads: int = 1,
            status: Optional[npt.NDArray[np.int8]] = None) -> npt.NDArray[np.uint64]:
    """Zobrist keys, equal to :meth:`Board.zobrist_hash`: ``uint64[N]``, 0 for unreadable items.

    >>> int(zobrist([Board()])[0]) == Board().zobrist_hash()
    True

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions``, ``threads`` or ``status`` (the
            module's list of misuses), before any C runs.
    """
    return _fill(_source(positions), threads, status, (), np.uint64, "zobrist")


def attack_maps(positions: Positions, *, threads: int = 1,
                status: Optional[npt.NDArray[np.int8]] = None) -> npt.NDArray[np.uint8]:
    """Attacker counts per side and square: ``uint8[N, 2, 10, 9]``.

    ``[i, int(color)]`` equals ``Board(positions[i]).attack_map(color)`` (row 0
    is rank 9): index 0 is Black, 1 is Red.

    >>> from xiangqi import STARTING_FEN
    >>> maps = attack_maps([STARTING_FEN])
    >>> maps.shape, int(maps[0, 1, 8, 4])  # e1: Red's king and both advisors
    ((1, 2, 10, 9), 3)

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions``, ``threads`` or ``status`` (the
            module's list of misuses), before any C runs.
    """
    return _fill(_source(positions), threads, status, (2, 10, 9), np.uint8, "attack_maps")


def planes(positions: Positions, *, view: View = "absolute", threads: int = 1,
           status: Optional[npt.NDArray[np.int8]] = None) -> npt.NDArray[np.uint8]:
    """Piece planes for neural networks: ``uint8[N, 15, 10, 9]`` of 0/1.

    ``view="absolute"``: plane ``int(color) * 7 + piece_type - 1`` (0-6 Black
    pawn..king, 7-13 Red pawn..king), row 0 = rank 9. ``view="side_to_move"``:
    planes 0-6 the side to move's pieces, 7-13 the opponent's, and Black's
    positions turned 180 degrees so the side to move is always at the bottom.
    Plane 14: all ones when Red is to move.

    >>> from xiangqi import STARTING_FEN
    >>> x = planes([STARTING_FEN])
    >>> x.shape, int(x[0, :14].sum()), int(x[0, 14].sum())  # 32 pieces; Red to move
    ((1, 15, 10, 9), 32, 90)

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions``, ``threads`` or ``status`` (the
            module's list of misuses), before any C runs.
        :class:`ValueError`: ``view`` is neither ``'absolute'`` nor ``'side_to_move'``.
    """
    v = _check_view(view)
    return _fill(_source(positions), threads, status, (NUM_PLANES, 10, 9), np.uint8, "planes", view=v)


def legal_mask(positions: Positions, *, view: View = "absolute", threads: int = 1,
               status: Optional[npt.NDArray[np.int8]] = None) -> npt.NDArray[np.bool_]:
    """Legal moves as a policy mask: ``bool[N, NUM_MOVES]`` over :data:`MOVE_INDEX`.

    With ``view="side_to_move"`` the moves of positions with Black to move are
    turned 180 degrees first (``move_index(m, turn=BLACK)``), as in :func:`planes`.

    >>> from xiangqi import STARTING_FEN, Move
    >>> mask = legal_mask([STARTING_FEN])
    >>> mask.shape, int(mask.sum()), bool(mask[0, move_index(Move.from_iccs("h2e2"))])
    ((1, 2086), 44, True)

    Raises:
        :class:`TypeError`, :class:`ValueError`: a misused ``positions``, ``threads`` or ``status`` (the
            module's list of misuses), before any C runs.
        :class:`ValueError`: ``view`` is neither ``'absolute'`` nor ``'side_to_move'``.
    """
    v = _check_view(view)
    return _fill(_source(positions), threads, status, (NUM_MOVES,), np.bool_, "legal_mask", view=v)


# ---------------------------------------------------------------- move index


def move_index(move: Union[Move, int], *, turn: Optional[Color] = None) -> int:
    """The :data:`MOVE_INDEX` position of a move (a :class:`Move` or a 16-bit code).

    ``turn=BLACK`` gives the index in Black's side-to-move view (the move
    turned 180 degrees, as :func:`legal_mask` with ``view="side_to_move"``
    does); ``None`` or ``RED`` the absolute index.

    >>> from xiangqi import BLACK
    >>> move_index(Move.from_iccs("h2e2")), move_index(Move.from_iccs("b7e7"), turn=BLACK)
    (576, 576)

    Raises:
        :class:`ValueError`: ``move`` is not a move code, or a move that can never be legal (``a0b1``).
        :class:`TypeError`: ``move`` is neither a :class:`Move` nor an integer.
    """
    code = move.code if isinstance(move, Move) else operator.index(move)
    f, t = code >> 7, code & 127
    if not (0 <= code < 1 << 14 and f < 90 and t < 90):
        raise ValueError(f"not a move code: {move!r}")
    if turn is not None and not turn:
        code = (89 - f) << 7 | (89 - t)
    idx = int(MOVE_LOOKUP[code])
    if idx < 0:
        raise ValueError(f"{Move(f, t).iccs()!r} can never be a legal xiangqi move, so it has no move index")
    return idx


def index_move(index: int, *, turn: Optional[Color] = None) -> Move:
    """The move with a :data:`MOVE_INDEX` index (the inverse of :func:`move_index`).

    >>> from xiangqi import BLACK
    >>> index_move(576), index_move(576, turn=BLACK)
    (Move.from_iccs('h2e2'), Move.from_iccs('b7e7'))

    Raises:
        :class:`ValueError`: ``index`` is outside 0 to ``NUM_MOVES - 1``.
        :class:`TypeError`: ``index`` is not an integer.
    """
    i = operator.index(index)
    if not 0 <= i < NUM_MOVES:
        raise ValueError(f"move index out of range: {index!r} (expected 0-{NUM_MOVES - 1})")
    code = int(MOVE_INDEX[i])
    f, t = code >> 7, code & 127
    if turn is not None and not turn:
        f, t = 89 - f, 89 - t
    return Move(f, t)


def rotate_codes(codes: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Move codes turned 180 degrees (``(89 - from) << 7 | (89 - to)``), vectorized.

    Maps the moves of a Black position to and from the side-to-move view:
    ``MOVE_INDEX[i]`` in that view is ``rotate_codes(MOVE_INDEX)[i]`` on the board.

    >>> [Move.from_code(int(c)) for c in rotate_codes([Move.from_iccs("h2e2").code])]
    [Move.from_iccs('b7e7')]

    Raises:
        :class:`TypeError`: the codes are not integers.
        :class:`ValueError`: a code is not ``from << 7 | to`` with squares 0–89.
    """
    arr = np.asarray(codes)
    if arr.size == 0:  # [] reads as float64: an empty input has no codes to check
        return np.zeros(arr.shape, dtype=np.uint16)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"move codes must be integers, not {arr.dtype}")
    a = arr.astype(np.int64)
    f, t = a >> 7, a & 127
    if a.size and (a.min() < 0 or a.max() >= 1 << 14 or f.max() >= 90 or t.max() >= 90):
        raise ValueError("not move codes: every code must be from << 7 | to with squares 0-89")
    return (((89 - f) << 7) | (89 - t)).astype(np.uint16)
