"""Perft (move-path enumeration): the standard correctness and speed test of a move generator."""

from __future__ import annotations

from typing import Dict, Literal, Optional, Union, overload

from xiangqi._ffi.position import native_perft, perft_divide
from xiangqi.core import STARTING_FEN, Move
from xiangqi.position import INTERRUPTIBLE_DEPTH, BaseBoard, RootProgress, check_depth, count_by_root_move, perft_table

__all__ = ["perft", "RootProgress"]


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
    table = perft_table(hash_mb, bulk)
    board = BaseBoard(fen)
    if depth == 0:
        return 1
    if table is None and (depth == 1 or (threads == 1 and on_root_move is None and depth < INTERRUPTIBLE_DEPTH)):
        if not divide:
            return native_perft(board, depth, bulk)
        return {Move.from_code(c).iccs(): n for c, n in perft_divide(board, depth, bulk)}
    codes = board.legal_move_codes()
    counts = count_by_root_move(board, codes, depth, bulk, threads, on_root_move, table, hash_verify)
    if divide:
        return {Move.from_code(c).iccs(): n for c, n in zip(codes, counts)}
    return sum(counts)
