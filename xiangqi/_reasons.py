"""Why a move is not legal, in words: the one wording every parser, reader and board of this library gives.

Pure functions of the 90 piece codes (``color << 3 | piece_type``, 0 for empty), so that the lowest layer
(:mod:`xiangqi.position`) and :mod:`xiangqi.notation` share them.
"""

from __future__ import annotations

from typing import List, Optional, Union

from xiangqi.core import ADVISOR, CANNON, COLOR_NAMES, ELEPHANT, HORSE, KING, PAWN, PIECE_NAMES, ROOK, SQUARE_NAMES

_Codes = Union[bytes, bytearray]

#: The piece words by piece type (:data:`xiangqi.core.PIECE_NAMES`; 0, an unknown type, is a "piece").
PIECE_WORD = ("piece", *(name or "" for name in PIECE_NAMES[1:]))
#: The side words by ``int(color)``: :data:`xiangqi.core.COLOR_NAMES` capitalized, as :func:`xiangqi.facts.side_words`.
SIDE_WORD = tuple(name.capitalize() for name in COLOR_NAMES)


def piece_name(code: int) -> str:
    return f"{SIDE_WORD[code >> 3]} {PIECE_WORD[code & 7]}"


def between(a: int, b: int, pc: _Codes) -> List[int]:
    """Occupied squares strictly between two squares of one rank or file."""
    step = 1 if a // 9 == b // 9 else 9
    lo, hi = min(a, b), max(a, b)
    return [sq for sq in range(lo + step, hi, step) if pc[sq]]


def in_palace(sq: int, red: bool) -> bool:
    r, f = divmod(sq, 9)
    return 3 <= f <= 5 and (r <= 2 if red else r >= 7)


def pseudo_reason(pc: _Codes, red: bool, frm: int, to: int) -> Optional[str]:
    """Why the move breaks the piece rules, or None when it obeys them (the own king aside)."""
    p = pc[frm]
    fs, ts = SQUARE_NAMES[frm], SQUARE_NAMES[to]
    if not p:
        return f"there is no piece on {fs}"
    if (p >> 3) != int(red):
        return f"the piece on {fs} is a {piece_name(p)}, but {SIDE_WORD[int(red)]} is to move"
    name = f"the {piece_name(p)} on {fs}"
    if frm == to:
        return f"{name} would not move"
    if pc[to] and (pc[to] >> 3) == int(red):
        return f"{name} cannot take its own {PIECE_WORD[pc[to] & 7]} on {ts}"
    pt = p & 7
    fr, ff = divmod(frm, 9)
    tr, tf = divmod(to, 9)
    dr, df = tr - fr, tf - ff
    if pt == KING or pt == ADVISOR:
        if pt == KING and pc[to] & 7 == KING and df == 0 and not between(frm, to, pc):
            return None  # the flying general, if the core allows capturing it
        if (abs(dr) + abs(df) != 1) if pt == KING else (abs(dr) != 1 or abs(df) != 1):
            return f"{name} moves one point {'orthogonally' if pt == KING else 'diagonally'}, not to {ts}"
        if not in_palace(to, red):
            return f"{name} cannot leave the palace (to {ts})"
    elif pt == ELEPHANT:
        if abs(dr) != 2 or abs(df) != 2:
            return f"{name} moves two points diagonally, not to {ts}"
        if (tr >= 5) if red else (tr <= 4):
            return f"{name} cannot cross the river (to {ts})"
        eye = (frm + to) // 2
        if pc[eye]:
            return f"{name} is blocked: its eye {SQUARE_NAMES[eye]} is occupied"
    elif pt == HORSE:
        if sorted((abs(dr), abs(df))) != [1, 2]:
            return f"{name} cannot jump to {ts}"
        leg = frm + (9 if dr > 0 else -9) if abs(dr) == 2 else frm + (1 if df > 0 else -1)
        if pc[leg]:
            return f"{name} is hobbled: its leg {SQUARE_NAMES[leg]} is occupied"
    elif pt == ROOK or pt == CANNON:
        if dr and df:
            return f"{name} moves along a rank or a file, not to {ts}"
        screens = between(frm, to, pc)
        if pt == CANNON and pc[to]:
            if len(screens) != 1:
                return f"{name} captures over exactly one screen ({len(screens)} between {fs} and {ts})"
        elif screens:
            return f"{name} is blocked by the piece on {SQUARE_NAMES[screens[0]]}"
    elif pt == PAWN:
        fwd = 1 if red else -1
        if dr == 0 and abs(df) == 1:
            if not ((fr >= 5) if red else (fr <= 4)):
                return f"{name} moves sideways only after crossing the river"
        elif dr * fwd < 0:
            return f"{name} never moves backwards"
        elif not (dr == fwd and df == 0):
            return f"{name} moves one point forward (or sideways across the river), not to {ts}"
    return None


def why_illegal(pc: _Codes, red: bool, frm: int, to: int) -> str:
    """Why a move that the core calls illegal is so, in words."""
    reason = pseudo_reason(pc, red, frm, to)
    if reason is not None:
        return reason
    side = SIDE_WORD[int(red)]
    return (f"moving the {piece_name(pc[frm])} from {SQUARE_NAMES[frm]} to {SQUARE_NAMES[to]} would leave the "
            f"{side} king in check (or facing the other king)")
