"""The rulings' C side (``xq_rules.h``): per-ply facts, loop summaries and the one verdict on a repetition loop
(``xq_loop_verdict``).

:class:`NativeHistory` is a game as the C core keeps it (a position and the undo records of its plies), with
typed functions over it; :class:`NativeLoops` is what ``xq_repetition_loops`` made of one. Nothing that cffi
returns leaves this module: facts come out as bytes in a fixed layout (:data:`FACTS_SIZE` bytes a move,
:data:`CHASE_OFFSET` and 8 bytes a chase), summaries and codes as ints.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from xiangqi._ffi import ffi, join_bb, lib, raise_internal
from xiangqi._ffi.position import NativePosition

#: XQ_RULE_* bits: a rule book as the verdict reads it.
RULE_MIXED = int(lib.XQ_RULE_MIXED)
RULE_SAME_VICTIM = int(lib.XQ_RULE_SAME_VICTIM)
RULE_JOINT = int(lib.XQ_RULE_JOINT)
RULE_RED_MUST_VARY = int(lib.XQ_RULE_RED_MUST_VARY)
#: XQ_FACTS_* flags of the facts functions (the mate-threat depth goes in bits 8-10, the early rounds 16-23).
FACTS_CXA = int(lib.XQ_FACTS_CXA)
FACTS_KILL = int(lib.XQ_FACTS_KILL)
#: XQ_FACT_ILLEGAL: a move's facts flag for a move that was not legal in its position.
FACT_ILLEGAL = int(lib.XQ_FACT_ILLEGAL)
#: The XQ_PATTERN_* codes of :func:`loop_pattern`, by name.
PATTERNS: Dict[str, int] = {name: int(getattr(lib, "XQ_PATTERN_" + name))
                            for name in ("ALLOWED", "CHECK", "CHASE", "KILL", "CHECK_KILL", "CHECK_CHASE",
                                         "KILL_CHASE", "MIXED")}
#: The XQ_WHY_* codes of :func:`loop_verdict`, by name.
WHYS: Dict[str, int] = {name: int(getattr(lib, "XQ_WHY_" + name))
                        for name in ("ALLOWED", "NULL", "MUTUAL_CHECK", "CHECK", "BOTH", "JOINT", "FORBIDDEN",
                                     "RED_MUST_VARY")}

_MAX_CHASES = int(lib.XQ_MAX_CHASES)
#: Bytes of a move's facts record as :meth:`NativeHistory.raw_facts` returns them, and where its chases start
#: (move: 2 bytes little-endian; mover, captured, check, kill, evasion, flags, n_chases, n_more; then 8 bytes
#: a chase: attacker, victim, attacker_id, victim_id, attacker_piece, victim_piece, reason, protectors).
CHASE_OFFSET = 10
FACTS_SIZE = CHASE_OFFSET + 8 * _MAX_CHASES
#: The compiled struct has that very layout (checked once): the records are copied as they are.
_LAYOUT_OK = (
    int(ffi.sizeof("xq_facts")) == FACTS_SIZE and int(ffi.offsetof("xq_facts", "chases")) == CHASE_OFFSET
    and int(ffi.sizeof("xq_chase")) == 8
    and [int(ffi.offsetof("xq_facts", f)) for f in ("mover", "captured", "check", "kill", "evasion", "flags",
                                                     "n_chases")] == [2, 3, 4, 5, 6, 7, 8]
    and [int(ffi.offsetof("xq_chase", f)) for f in ("attacker", "victim", "attacker_id", "victim_id",
                                                     "attacker_piece", "victim_piece", "reason", "protectors")]
    == list(range(8))
)
_REP_SIZE = int(ffi.sizeof("xq_rep_info"))
_REP_COUNT = int(ffi.offsetof("xq_rep_info", "count"))


def loop_verdict(red: int, black: int, rules: int) -> Tuple[Optional[bool], int]:
    """``xq_loop_verdict`` on two sides' loop summaries (``loop | loop_more << 8``): (the losing colour or
    ``None`` for a draw, the ``XQ_WHY_*`` code)."""
    r = int(lib.xq_loop_verdict(red, black, rules))
    return (bool(r & 1) if r & 2 else None), r >> 2


def loop_pattern(side: int, rules: int) -> int:
    """``xq_loop_pattern``: the ``XQ_PATTERN_*`` code of one side's loop summary."""
    return int(lib.xq_loop_pattern(side, rules))


class NativeLoops:
    """``xq_repetition_loops`` over a game: per position, how often it occurred, where its loop starts and each
    side's loop summary; :attr:`suspects` counts the due positions with a side whose every loop move attacks."""

    __slots__ = ("_buf", "suspects")

    def __init__(self, buf: Any, suspects: int) -> None:
        self._buf = buf
        self.suspects = suspects

    def count(self, j: int) -> int:
        """How many times position ``j`` has occurred (back to the last capture)."""
        return int(self._buf[j].count)

    def loop_start(self, j: int) -> int:
        """The position where the loop of due position ``j`` starts."""
        return int(self._buf[j].loop_start)

    def summary(self, j: int, color: bool) -> int:
        """A side's loop summary at due position ``j`` (``loop | loop_more << 8``; ``color`` True for Red)."""
        rec = self._buf[j]
        return int(rec.loop[int(color)]) | int(rec.loop_more[int(color)]) << 8

    def counts(self, end: int) -> bytes:
        """The occurrence counts of positions ``0..end``."""
        return bytes(ffi.buffer(self._buf, _REP_SIZE * (end + 1))[:][_REP_COUNT::_REP_SIZE])


class NativeHistory:
    """A game as the C core keeps it: the position after ``n`` plies and the undo records of those plies.

    The rulings read positions ``0..n`` of it without replaying anything in Python: the C functions walk back
    over the undo records themselves. :meth:`of_board` gives one for a board; bulk validation takes one from its
    replay buffers (:meth:`xiangqi._ffi.replay.TextPlayer.history`).
    """

    __slots__ = ("pos", "undo", "n", "_opening")

    def __init__(self, pos: Any, undo: Any, n: int) -> None:
        self.pos = pos
        self.undo = undo
        self.n = n
        self._opening: Optional[bool] = None

    @classmethod
    def of_board(cls, board: NativePosition, plies: int) -> "NativeHistory":
        """The history of a board's position and its first ``plies`` undo records (the board's own buffers)."""
        return cls(board._pos, board._undo, plies)

    def from_opening(self) -> bool:
        """The game starts from the opening position (Red to move, move 1): ``xq_history_from_opening``."""
        if self._opening is None:
            self._opening = int(lib.xq_history_from_opening(self.pos, self.undo, self.n)) == 1
        return self._opening

    def turn(self, j: int) -> bool:
        """The side to move at position ``j`` (True for Red)."""
        return bool((int(self.pos.side) ^ (self.n - j)) & 1)

    def fullmove(self, j: int) -> int:
        """The fullmove number at position ``j``."""
        return int(self.pos.fullmove) if j >= self.n else int(self.undo[j].fullmove)

    def halfmove(self, j: int) -> int:
        """The halfmove clock (plies since a capture) at position ``j``."""
        return int(self.pos.halfmove) if j >= self.n else int(self.undo[j].halfmove)

    def move_code(self, j: int) -> int:
        """The code of the move played from position ``j`` (0-based ply)."""
        return int(self.undo[j].move)

    def raw_facts(self, start: int, end: int, flags: int) -> bytes:
        """``xq_history_facts`` for moves [start, end) (0-based), :data:`FACTS_SIZE` bytes each."""
        count = max(1, end - start)
        out = ffi.new("xq_facts[]", count)
        got = lib.xq_history_facts(self.pos, self.undo, self.n, start, end, flags, out, count)
        if got < 0:
            raise_internal(got, "xq_history_facts")
        if _LAYOUT_OK:
            return bytes(ffi.buffer(out))
        buf = bytearray()  # pragma: no cover - an unusual compiler packing; repack field by field
        for i in range(count):  # pragma: no cover
            r = out[i]
            buf += int(r.move).to_bytes(2, "little") + bytes([r.mover, r.captured, r.check, r.kill, r.evasion,
                                                               r.flags, r.n_chases, r.n_more])
            for c in r.chases:
                buf += bytes([c.attacker, c.victim, c.attacker_id, c.victim_id, c.attacker_piece, c.victim_piece,
                              c.reason, c.protectors])
        return bytes(buf)  # pragma: no cover

    def repetition_plies(self, at: int) -> List[int]:
        """Earlier positions equal to position ``at``, latest first: ``xq_repetition_plies``."""
        cap = 16
        while True:
            out = ffi.new("int[]", cap)
            k = lib.xq_repetition_plies(self.pos, self.undo, self.n, at, out, cap)
            if k < 0:
                raise_internal(k, "xq_repetition_plies")
            if k <= cap:
                return [int(out[i]) for i in range(k)]
            cap = k

    def repetition_count(self) -> int:
        """How many times the last position has occurred (itself included), back to the last capture."""
        return 1 + int(lib.xq_repetition_plies(self.pos, self.undo, self.n, self.n, ffi.NULL, 0))

    def repetition_counts(self, end: int) -> bytes:
        """The occurrence counts of positions ``0..end``: ``xq_repetition_counts``."""
        out = ffi.new("uint8_t[]", self.n + 1)
        top = lib.xq_repetition_counts(self.pos, self.undo, self.n, out)
        if top < 0:
            raise_internal(top, "xq_repetition_counts")
        return bytes(ffi.buffer(out, end + 1))

    def repetition_loops(self, count: int, flags: int) -> Optional[NativeLoops]:
        """``xq_repetition_loops`` over the game, or ``None`` when the C core refuses the history (undo records
        that do not fit the position)."""
        buf = ffi.new("xq_rep_info[]", self.n + 1)
        got = int(lib.xq_repetition_loops(self.pos, self.undo, self.n, count, flags, buf))
        return NativeLoops(buf, got) if got >= 0 else None

    def checks(self, start: int, at: int) -> Tuple[int, int]:
        """Checking moves by (Red, Black) among moves [start, at): ``xq_history_checks``."""
        counts = ffi.new("int[2]")
        if at > start:
            st = lib.xq_history_checks(self.pos, self.undo, self.n, start, at, counts)
            if st < 0:
                raise_internal(st, "xq_history_checks")
        return int(counts[1]), int(counts[0])

    def checkers_after(self, plies: Sequence[int]) -> Dict[int, List[Tuple[int, int]]]:
        """The pieces giving check after each of ``plies`` (1-based): (square, piece code), by square.

        Walks a copy of the last position back over the undo records."""
        want = sorted(set(plies), reverse=True)
        out: Dict[int, List[Tuple[int, int]]] = {}
        if not want:
            return out
        pos = ffi.new("xq_pos *")
        ffi.memmove(pos, self.pos, ffi.sizeof("xq_pos"))
        bb = ffi.new("uint64_t[2]")
        j = self.n
        for p in want:
            while j > p:
                j -= 1
                u = self.undo + j
                if int(u.move):
                    lib.xq_pos_undo_move(pos, u)
                else:
                    lib.xq_pos_undo_null(pos, u)
            lib.xq_pos_checkers(pos, bb)
            bits = join_bb(bb)
            out[p] = [(sq, int(pos.board[sq])) for sq in range(90) if bits >> sq & 1 and pos.board[sq]]
        return out
