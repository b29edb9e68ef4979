"""Our own alpha-beta search (in C): the engine behind ``xiangqi engine``.

:class:`Searcher` owns the C search state and its transposition table and
runs iterative deepening over :c:func:`xq_search_depth`, one C call per depth
(the GIL is released during each, so :meth:`Searcher.stop` works from
another thread).

>>> from xiangqi import Board
>>> board = Board("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1")
>>> result = Searcher(hash_mb=1).search(board, depth=3)
>>> result.info.mate
1
>>> board.push(result.best)
>>> board.is_checkmate() or board.is_stalemate()  # a side without a legal move loses
True
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, List, Optional, Union

from xiangqi._ffi import search as native
from xiangqi.board import Board
from xiangqi.core import Move
from xiangqi.rules import RuleSet, get_rules

__all__ = ["Searcher", "SearchInfo", "SearchResult", "MAX_DEPTH", "MATE_SCORE", "evaluate"]

#: Deepest iteration :meth:`Searcher.search` runs.
MAX_DEPTH: int = native.MAX_PLY - 4
#: Score of a mate at the root; a mate ``n`` plies away scores ``MATE_SCORE - n``.
MATE_SCORE: int = native.MATE_SCORE
_MATE_BOUND: int = native.MATE_BOUND


@dataclass(frozen=True)
class SearchInfo:
    """What the search knows after one depth: the figures of a UCI ``info`` line.

    >>> info = SearchInfo(depth=3, seldepth=5, score=MATE_SCORE - 3, nodes=1000, time=0.5)
    >>> info.mate, info.nps
    (2, 2000)
    """

    depth: int
    seldepth: int
    #: Centipawns from the side to move's view, or a mate score (see :attr:`mate`).
    score: int
    nodes: int
    #: Seconds since the search began.
    time: float
    pv: List[Move] = field(default_factory=list)

    @property
    def mate(self) -> Optional[int]:
        """Moves to mate (UCI's ``score mate N``): positive when the side to move mates, negative when mated.

        >>> SearchInfo(1, 1, -(MATE_SCORE - 2), 10, 0.1).mate, SearchInfo(1, 1, 35, 10, 0.1).mate
        (-1, None)
        """
        if self.score > _MATE_BOUND:
            return (MATE_SCORE - self.score + 1) // 2
        if self.score < -_MATE_BOUND:
            return -((MATE_SCORE + self.score) // 2)
        return None

    @property
    def nps(self) -> int:
        """Nodes per second (0 when no time has passed).

        >>> SearchInfo(1, 1, 0, 500, 0.25).nps
        2000
        """
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass(frozen=True)
class SearchResult:
    """The outcome of :meth:`Searcher.search`: the move to play (``None`` when there is no legal move).

    >>> result = Searcher(1).search(Board("3k5/9/9/9/9/9/9/9/R8/R3K4 w"), depth=4)
    >>> result.best, result.info.mate, result.stopped
    (Move.from_iccs('a0d0'), 1, False)
    """

    best: Optional[Move]
    ponder: Optional[Move]
    info: SearchInfo
    #: Whether a limit or :meth:`Searcher.stop` ended the last depth early.
    stopped: bool


def evaluate(board: Board) -> int:
    """The search's static evaluation of ``board`` in centipawns, from the side to move's view.

    >>> evaluate(Board()), evaluate(Board("4k4/9/9/9/9/9/9/9/9/R3K4 w")) > 0
    (0, True)
    """
    return native.evaluate(board)


class Searcher:
    """A search state with a transposition table of ``hash_mb`` megabytes.

    One search runs at a time; :meth:`stop` may be called from any thread.
    Repetitions inside the search are judged by the rulings of :attr:`rules`
    (perpetual check loses; a perpetual chase loses as that book says; other
    loops draw) and the natural move limit draws (:mod:`xiangqi.rules`).

    >>> searcher = Searcher(hash_mb=1)
    >>> searcher.search(Board(), depth=2).best in Board().legal_moves
    True

    Raises:
        :class:`ValueError`: as :meth:`resize`.
    """

    def __init__(self, hash_mb: int = 16, rules: Union[str, RuleSet, None] = None) -> None:
        self._lock = threading.Lock()
        self._rules: RuleSet = get_rules(rules)
        self._native = native.NativeSearch()
        self.resize(hash_mb)

    def resize(self, hash_mb: int) -> None:
        """Replace the transposition table with an empty one of ``hash_mb`` megabytes (0: no table).

        >>> searcher = Searcher(1); searcher.resize(0); searcher.hash_entries
        0

        Raises:
            :class:`ValueError`: ``hash_mb`` is not an int >= 0.
            :class:`MemoryError`: the table cannot be allocated (the old one stays in use).
        """
        if not isinstance(hash_mb, int) or hash_mb < 0:
            raise ValueError(f"hash size must be a whole number of megabytes >= 0, not {hash_mb!r}")
        entries = hash_mb * (1 << 20) // native.ENTRY_BYTES
        with self._lock:
            # Allocated before anything changes: a MemoryError leaves the old table in use.
            self._native.resize(entries)

    @property
    def rules(self) -> RuleSet:
        """The rule book the search judges repetitions and the natural limit by (set a name or a :class:`RuleSet`).

        >>> searcher = Searcher(1); searcher.rules = "chinese"; searcher.rules.name
        'cxa'

        Raises:
            :class:`ValueError`: (on setting) not a rule set's name.
        """
        return self._rules

    @rules.setter
    def rules(self, rules: Union[str, RuleSet]) -> None:
        self._rules = get_rules(rules)

    @property
    def hash_entries(self) -> int:
        """Number of transposition-table entries.

        >>> Searcher(1).hash_entries
        65536
        """
        return self._native.entries

    def clear(self) -> None:
        """Forget everything learnt (a new game): the table, killers and history counts.

        >>> searcher = Searcher(1); searcher.clear(); searcher.search(Board(), depth=1).info.depth
        1
        """
        with self._lock:
            self._native.clear()

    def stop(self) -> None:
        """Ask the running search to stop as soon as it can (thread-safe); when idle, the next search stops at once.

        >>> searcher = Searcher(1); searcher.stop(); searcher.search(Board(), depth=5).stopped
        True
        """
        self._native.stop()

    def search(self, board: Board, *, depth: Optional[int] = None, nodes: Optional[int] = None,
               time_limit: Optional[float] = None, soft_time: Optional[float] = None,
               root_moves: Optional[Iterable[Move]] = None,
               on_iteration: Optional[Callable[[SearchInfo], None]] = None) -> SearchResult:
        """Search ``board`` (its move stack counts for repetitions) until a limit is reached.

        ``depth`` caps the iterations (default :data:`MAX_DEPTH`), ``nodes`` the node count,
        ``time_limit`` (seconds) is a hard limit checked inside the search, and no new depth
        starts after ``soft_time`` seconds. ``root_moves`` restricts the moves searched at
        the root. ``on_iteration`` is called after every completed depth. Without any limit
        the search runs to :data:`MAX_DEPTH` or until :meth:`stop`. A stop requested before
        the search starts takes effect immediately (the answer is then the first move
        ordered); call :meth:`reset_stop` first to discard one. A board without both kings (being
        set up) cannot be searched.

        >>> Searcher(1).search(Board("3k5/9/9/9/9/9/9/9/R8/R3K4 w"), depth=4).best
        Move.from_iccs('a0d0')

        Raises:
            :class:`ValueError`: ``depth`` is outside 1 to :data:`MAX_DEPTH`, ``nodes`` outside 1 to 2**64 - 1,
                or a time outside 0 to 1e9 seconds.
            :class:`~xiangqi.errors.InvalidFenError`: the board does not have both kings.
        """
        max_depth = MAX_DEPTH if depth is None else depth
        if not isinstance(max_depth, int) or not 1 <= max_depth <= MAX_DEPTH:
            raise ValueError(f"depth must be between 1 and {MAX_DEPTH}, not {depth!r}")
        if nodes is not None and (not isinstance(nodes, int) or not 1 <= nodes < 1 << 64):
            raise ValueError(f"nodes must be an int from 1 to 2**64 - 1, not {nodes!r}")
        for name, value in (("time_limit", time_limit), ("soft_time", soft_time)):
            if value is not None and not 0 <= value <= 1e9:
                raise ValueError(f"{name} must be a number of seconds from 0 to 1e9, not {value!r}")
        board._require_kings("search")
        rs = self._rules
        restrict = [m.code for m in root_moves] if root_moves is not None else []
        if root_moves is not None and not restrict:
            restrict = [0]  # an empty restriction leaves no move; code 0 is never legal
        with self._lock:
            s = self._native
            s.begin(board, len(board.move_stack), restrict, nodes=nodes or 0,
                    time_limit_ms=max(1, int(time_limit * 1000)) if time_limit is not None else 0,
                    # the rulings' own flags (the early-rounds count of CXA's red-must-vary needs the whole game)
                    facts_flags=rs.facts_flags() & 0xFFFF, verdict_flags=rs.verdict_flags(),
                    natural_limit=max(0, rs.natural_limit))
            started = time.perf_counter()
            stopped = False
            info = self._info(started)
            for d in range(1, max_depth + 1):
                finished = s.depth(d)
                info = self._info(started)
                if not finished:
                    stopped = True
                    break
                if on_iteration is not None:
                    on_iteration(info)
                if not s.best():
                    break  # no legal move: nothing deeper to find
                mate = info.mate
                if mate is not None and abs(mate) * 2 <= d:
                    break  # a mate the search has seen to its end
                if soft_time is not None and time.perf_counter() - started >= soft_time:
                    break
            best = Move.from_code(s.best()) if s.best() else None
            ponder = info.pv[1] if len(info.pv) > 1 else None
            return SearchResult(best, ponder, info, stopped)

    def reset_stop(self) -> None:
        """Clear a pending :meth:`stop` so the next search runs to its limits.

        >>> searcher = Searcher(1); searcher.stop(); searcher.reset_stop()
        >>> searcher.search(Board(), depth=2).stopped
        False
        """
        self._native.reset_stop()

    def _info(self, started: float) -> SearchInfo:
        p = self._native.progress()
        return SearchInfo(p.depth, p.seldepth, p.score, p.nodes, time.perf_counter() - started,
                          [Move.from_code(c) for c in p.pv])
