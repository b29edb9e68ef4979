"""The rulings' C side (``xq_rules.h``): per-ply facts, loop summaries and the one verdict on a repetition loop
(``xq_loop_verdict``)."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from xiangqi._ffi import lib

#: XQ_RULE_* bits: a rule book as the verdict reads it.
RULE_MIXED = int(lib.XQ_RULE_MIXED)
RULE_SAME_VICTIM = int(lib.XQ_RULE_SAME_VICTIM)
RULE_JOINT = int(lib.XQ_RULE_JOINT)
RULE_RED_MUST_VARY = int(lib.XQ_RULE_RED_MUST_VARY)


def loop_verdict(red: int, black: int, rules: int) -> Tuple[Optional[bool], int]:
    """``xq_loop_verdict`` on two sides' loop summaries (``loop | loop_more << 8``): (the losing colour or
    ``None`` for a draw, the ``XQ_WHY_*`` code)."""
    r = int(lib.xq_loop_verdict(red, black, rules))
    return (bool(r & 1) if r & 2 else None), r >> 2


def loop_pattern(side: int, rules: int) -> int:
    """``xq_loop_pattern``: the ``XQ_PATTERN_*`` code of one side's loop summary."""
    return int(lib.xq_loop_pattern(side, rules))


def history_from_opening(pos: Any, undo: Any, n: int) -> bool:
    """``xq_history_from_opening``: the game of ``pos``/``undo``/``n`` starts from the opening position."""
    return int(lib.xq_history_from_opening(pos, undo, n)) == 1
