"""Our engine's search in C (``xq_search.h``): :class:`NativeSearch`, one search state and its transposition
table, and the static evaluation."""

from __future__ import annotations

from typing import Any, List, NamedTuple, Sequence

from xiangqi._ffi import ffi, lib, raise_internal
from xiangqi._ffi.position import NativePosition

#: The deepest ply the C search keeps a line for.
MAX_PLY: int = lib.XQ_SEARCH_MAX_PLY
#: Score of a mate at the root; a mate ``n`` plies away scores ``MATE_SCORE - n``.
MATE_SCORE: int = lib.XQ_MATE_SCORE
#: Scores beyond this are mates.
MATE_BOUND: int = lib.XQ_MATE_BOUND
#: Bytes of one transposition-table entry.
ENTRY_BYTES: int = ffi.sizeof("xq_tt_entry")


def evaluate(pos: NativePosition) -> int:
    """The static evaluation of ``pos`` in centipawns, from the side to move's view."""
    return int(lib.xq_evaluate(pos._pos))


class Progress(NamedTuple):
    """What the search knows after its last depth: depth, selective depth, score, nodes and the principal
    variation's move codes."""

    depth: int
    seldepth: int
    score: int
    nodes: int
    pv: List[int]


class NativeSearch:
    """One C search state (``xq_search``) and its transposition table (owned here: the C core never allocates).

    Not thread-safe except :meth:`stop`, which may be called from any thread."""

    def __init__(self) -> None:
        self._state: Any = ffi.new("xq_search *")
        self._table: Any = ffi.NULL
        self._entries = 0

    @property
    def entries(self) -> int:
        """Transposition-table entries."""
        return self._entries

    def resize(self, entries: int) -> None:
        """Replace the table with an empty one of ``entries`` entries (0: none). A :class:`MemoryError` leaves
        the old table in use."""
        table = ffi.new("xq_tt_entry[]", entries) if entries else ffi.NULL
        st = lib.xq_search_init(self._state, table, entries)
        if st:
            raise_internal(st, "xq_search_init")
        self._table, self._entries = table, entries

    def clear(self) -> None:
        """Forget the table, killers and history counts."""
        lib.xq_tt_clear(self._table, self._entries)
        lib.xq_search_clear(self._state)

    def stop(self) -> None:
        self._state.stop = 1

    def reset_stop(self) -> None:
        self._state.stop = 0

    def begin(self, pos: NativePosition, plies: int, restrict: Sequence[int], *, nodes: int, time_limit_ms: int,
              facts_flags: int, verdict_flags: int, natural_limit: int) -> None:
        """Start a search of ``pos`` (its last ``plies`` moves count for repetitions) over the root moves
        ``restrict`` (all when empty), with a node and a time limit (0: none), the rule book's C flags (the
        ``XQ_FACTS_*`` a loop's moves are read with, the ``XQ_RULE_*`` of the one verdict) and the natural move
        limit (0: none)."""
        s = self._state
        s.node_limit = nodes
        s.time_limit_ms = time_limit_ms
        s.facts_flags = facts_flags
        s.verdict_flags = verdict_flags
        s.natural_limit = natural_limit
        move_buf = ffi.new("xq_move[]", list(restrict)) if restrict else ffi.NULL
        st = lib.xq_search_begin(s, pos._pos, pos._undo if plies else ffi.NULL, plies, move_buf, len(restrict))
        if st:
            raise_internal(st, "xq_search_begin")

    def depth(self, depth: int) -> bool:
        """Search one depth: whether it ran to its end (not stopped by a limit or :meth:`stop`)."""
        st = lib.xq_search_depth(self._state, depth)
        if st < 0:
            raise_internal(st, "xq_search_depth")
        return bool(st != lib.XQ_SEARCH_STOPPED)

    def best(self) -> int:
        """The best move's code so far (0: none, no legal move)."""
        return int(self._state.best)

    def progress(self) -> Progress:
        s = self._state
        return Progress(int(s.depth), int(s.seldepth), int(s.score), int(s.nodes),
                        [int(s.pv[i]) for i in range(s.pv_len)])
