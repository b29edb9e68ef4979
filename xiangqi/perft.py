"""Perft (move-path enumeration): the standard correctness and speed test of a move generator."""

from __future__ import annotations

from typing import Dict, List, Literal, Optional, Tuple, Union, overload

from xiangqi import _ffi
from xiangqi._ffi import ffi, lib
from xiangqi.core import STARTING_FEN, Move
from xiangqi.position import (_INTERRUPTIBLE_DEPTH, BaseBoard, RootProgress, _count_by_root_move, _perft_table,
                              check_depth)

__all__ = ["perft", "RootProgress"]


def _divide_codes(pos: object, depth: int, bulk: bool) -> List[Tuple[int, int]]:
    moves = ffi.new("xq_move[]", _ffi.MAX_MOVES)
    counts = ffi.new("uint64_t[]", _ffi.MAX_MOVES)
    n = lib.xq_perft_divide(pos, depth, 1 if bulk else 0, moves, counts, _ffi.MAX_MOVES)
    if n < 0:
        _ffi.raise_internal(n, "xq_perft_divide")
    return [(int(moves[i]), int(counts[i])) for i in range(n)]


@overload
def perft(fen: str = ..., depth: int = ..., *, divide: Literal[False] = ..., bulk: bool = ...,
          threads: int = ..., on_root_move: Optional[RootProgress] = ..., hash_mb: float = ...,
          hash_verify: int = ...) -> int: ...
@overload
def perft(fen: str = ..., depth: int = ..., *, divide: Literal[True], bulk: bool = ...,
          threads: int = ..., on_root_move: Optional[RootProgress] = ..., hash_mb: float = ...,
          hash_verify: int = ...) -> Dict[str, int]: ...


def perft(fen: str = STARTING_FEN, depth: int = 1, *, divide: bool = False, bulk: bool = True,
          threads: int = 1, on_root_move: Optional[RootProgress] = None, hash_mb: float = 0,
          hash_verify: int = 0) -> Union[int, Dict[str, int]]:
    """Count the leaf nodes of the legal move tree of ``fen`` to ``depth``.

    ``bulk`` counts the moves at the last ply without making them (the usual
    perft; ``bulk=False`` makes every leaf move). ``divide=True`` returns a
    dict of ICCS root move to its node count. ``threads > 1`` splits the root
    moves across threads (the C core releases the GIL; a root with few moves is
    split one ply deeper). ``hash_mb`` > 0 counts with a transposition table of
    that many MiB that the threads share (see :meth:`BaseBoard.perft`);
    ``hash_verify`` = N recounts one table hit in N without the table and
    raises :class:`~xiangqi.errors.InternalError` if a count differs. ``on_root_move`` is
    called as each root move's count is done, with the root moves done, their
    number and the nodes so far (a progress display). From depth 5 the count
    runs in worker threads and a Ctrl-C (:class:`KeyboardInterrupt`) stops it
    within a fraction of a second.

    >>> perft(depth=3)
    79666
    >>> perft(depth=1, divide=True)["h2e2"]
    1

    Raises:
        :class:`ValueError`: ``depth`` is outside 0–64, ``divide`` at depth 0, ``threads`` below 1, ``hash_mb``
            negative, too small or given with ``bulk=False``, or ``hash_verify`` negative.
        :class:`InvalidFenError`: ``fen`` cannot be read.
    """
    depth = check_depth(depth)
    if divide and depth == 0:
        raise ValueError("divide needs depth >= 1 (at depth 0 there are no root moves; perft is 1)")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, not {threads}")
    if hash_verify < 0:
        raise ValueError(f"hash_verify must be >= 0, not {hash_verify}")
    table = _perft_table(hash_mb, bulk)
    board = BaseBoard(fen)
    pos = board._pos
    if depth == 0:
        return 1
    if table is None and (depth == 1 or (threads == 1 and on_root_move is None and depth < _INTERRUPTIBLE_DEPTH)):
        if not divide:
            return int(lib.xq_perft(pos, depth, 1 if bulk else 0))
        return {Move.from_code(c).iccs(): n for c, n in _divide_codes(pos, depth, bulk)}
    codes = board.legal_move_codes()
    counts = _count_by_root_move(pos, codes, depth, bulk, threads, on_root_move, table, hash_verify)
    if divide:
        return {Move.from_code(c).iccs(): n for c, n in zip(codes, counts)}
    return sum(counts)
