"""Perft (move-path enumeration): the standard correctness and speed test of a move generator."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Literal, Tuple, Union, overload

from xiangqi import _ffi
from xiangqi._ffi import ffi, lib
from xiangqi.core import STARTING_FEN, Move
from xiangqi.position import BaseBoard, check_depth

__all__ = ["perft"]


def _divide_codes(pos: object, depth: int, bulk: bool) -> List[Tuple[int, int]]:
    moves = ffi.new("xq_move[]", _ffi.MAX_MOVES)
    counts = ffi.new("uint64_t[]", _ffi.MAX_MOVES)
    n = lib.xq_perft_divide(pos, depth, 1 if bulk else 0, moves, counts, _ffi.MAX_MOVES)
    if n < 0:
        _ffi.raise_internal(n, "xq_perft_divide")
    return [(int(moves[i]), int(counts[i])) for i in range(n)]


def _subtree(root: object, code: int, depth: int, bulk: bool) -> int:
    pos = ffi.new("xq_pos *")
    lib.xq_pos_copy(pos, root)
    undo = ffi.new("xq_undo *")
    st = lib.xq_pos_do_move(pos, code, undo)
    if st:
        _ffi.raise_internal(st, "xq_pos_do_move")
    return int(lib.xq_perft(pos, depth - 1, 1 if bulk else 0))


@overload
def perft(fen: str = ..., depth: int = ..., *, divide: Literal[False] = ..., bulk: bool = ...,
          threads: int = ...) -> int: ...
@overload
def perft(fen: str = ..., depth: int = ..., *, divide: Literal[True], bulk: bool = ...,
          threads: int = ...) -> Dict[str, int]: ...


def perft(fen: str = STARTING_FEN, depth: int = 1, *, divide: bool = False, bulk: bool = True,
          threads: int = 1) -> Union[int, Dict[str, int]]:
    """Count the leaf nodes of the legal move tree of ``fen`` to ``depth``.

    ``bulk`` counts the moves at the last ply without making them (the usual
    perft; ``bulk=False`` makes every leaf move). ``divide=True`` returns a
    dict of ICCS root move to its node count. ``threads > 1`` splits the root
    moves across threads (the C core releases the GIL).

    >>> perft(depth=3)
    79666
    >>> perft(depth=1, divide=True)["h2e2"]
    1
    """
    depth = check_depth(depth)
    if divide and depth == 0:
        raise ValueError("divide needs depth >= 1 (at depth 0 there are no root moves; perft is 1)")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, not {threads}")
    board = BaseBoard(fen)
    pos = board._pos
    if depth == 0:
        return 1
    if threads == 1 or depth == 1:
        if not divide:
            return int(lib.xq_perft(pos, depth, 1 if bulk else 0))
        return {Move.from_code(c).iccs(): n for c, n in _divide_codes(pos, depth, bulk)}
    codes = board.legal_move_codes()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        counts = list(pool.map(lambda c: _subtree(pos, c, depth, bulk), codes))
    if divide:
        return {Move.from_code(c).iccs(): n for c, n in zip(codes, counts)}
    return sum(counts)
