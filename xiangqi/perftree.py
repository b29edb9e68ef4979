"""Find where an engine's move generator disagrees with ours: compare perft divides down the tree (as perftree does).

At each level our divide (the C core) and the engine's ``go perft`` divide are
compared move by move; the first move whose counts differ is followed one ply
down, until the difference is a move one side has and the other has not, or
a count at depth 1. :func:`find_difference` returns that place;
``xiangqi perft --engine CMD`` prints it.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Dict, List, Optional, Protocol

from xiangqi.board import Board
from xiangqi.core import Move
from xiangqi.engine import EngineError, SimpleEngine
from xiangqi.errors import InvalidFenError
from xiangqi.perft import perft

__all__ = ["Difference", "find_difference", "perftree_main"]


class _Divider(Protocol):
    def perft(self, board: Board, depth: int) -> Dict[Move, int]: ...


@dataclasses.dataclass
class Difference:
    """Where the counts part: the position (``fen``, reached by ``path`` from the root), the move and both counts.

    ``ours``/``theirs`` is ``None`` when that side does not list the move at all.

    >>> from xiangqi import STARTING_FEN
    >>> Difference(STARTING_FEN, [], Move.from_iccs("h2e2"), 1, 1, None).describe()
    'first difference at the root, rnbakabnr/... w - - 0 1, depth 1, move h2e2: the engine does not list
    this legal move (we count 1)'
    """

    fen: str
    path: List[Move]
    move: Move
    depth: int
    ours: Optional[int]
    theirs: Optional[int]

    def describe(self) -> str:
        """One paragraph for people: the position, the move and what each side counted.

        >>> from xiangqi import STARTING_FEN
        >>> Difference(STARTING_FEN, [Move.from_iccs("h2e2")], Move.from_iccs("h9g7"), 1, 1, 2).describe()
        'first difference after h2e2, rnbakabnr/... w - - 0 1, depth 1, move h9g7: we count 1, the engine 2'
        """
        where = "at the root" if not self.path else "after " + " ".join(m.iccs() for m in self.path)
        head = f"first difference {where}, {self.fen}, depth {self.depth}, move {self.move.iccs()}: "
        if self.theirs is None:
            return head + f"the engine does not list this legal move (we count {self.ours})"
        if self.ours is None:
            return head + f"the engine lists this move, which is not legal (it counts {self.theirs})"
        if self.depth > 1:
            return head + (f"we count {self.ours}, the engine {self.theirs}, but the engine's own divide one ply "
                           "down agrees with ours (its totals do not add up)")
        return head + f"we count {self.ours}, the engine {self.theirs}"


def _our_divide(board: Board, depth: int) -> Dict[Move, int]:
    return {Move.from_iccs(m): n for m, n in perft(board.fen(), depth, divide=True).items()}


def find_difference(engine: _Divider, board: Board, depth: int) -> Optional[Difference]:
    """The deepest first place where ``engine``'s perft divide differs from ours, or ``None`` if they agree.

    ``engine`` is anything with a ``perft(board, depth)`` divide, such as
    :class:`xiangqi.engine.SimpleEngine`. ``board`` is not changed.

    >>> class Buggy:  # a divide that leaves out every move of the h-file cannon
    ...     def perft(self, board, depth):
    ...         return {m: n for m, n in _our_divide(board, depth).items() if m.iccs()[:2] != "h2"}
    >>> find_difference(Buggy(), Board(), 2).move
    Move.from_iccs('h2h1')

    Raises:
        :class:`xiangqi.errors.EngineError`: ``engine``'s ``perft`` raised it (no answer, a broken protocol).
    """
    b = board.copy()
    path: List[Move] = []
    found: Optional[Difference] = None
    while depth >= 1:
        ours = _our_divide(b, depth)
        theirs = engine.perft(b, depth)
        differing = [m for m in ours if ours[m] != theirs.get(m)] + [m for m in theirs if m not in ours]
        if not differing:
            return found
        move = differing[0]
        found = Difference(b.fen(), list(path), move, depth, ours.get(move), theirs.get(move))
        if found.ours is None or found.theirs is None or depth == 1:
            return found
        b.push(move)
        path.append(move)
        depth -= 1
    return found


def perftree_main(args: argparse.Namespace) -> int:
    """``xiangqi perft --engine CMD``: 0 when the engine agrees, 1 when it does not (the place on standard output).

    Errors are one line on standard error: 2 for a usage error (no engine is started), 1 when the engine fails.

    >>> import argparse
    >>> perftree_main(argparse.Namespace(fen="rnbakabnr/9/x w", depth=2, engine="fairy-stockfish", proto="uci",
    ...                                  engine_timeout=10.0))
    2
    """

    if args.depth < 1:
        print("xiangqi perft: --engine needs --depth >= 1", file=sys.stderr)
        return 2
    try:
        board = Board(args.fen)
    except InvalidFenError as exc:
        print(f"xiangqi perft: {exc}", file=sys.stderr)
        return 2
    try:
        popen = SimpleEngine.popen_ucci if args.proto == "ucci" else SimpleEngine.popen_uci
        with popen(args.engine, timeout=args.engine_timeout) as engine:
            diff = find_difference(engine, board, args.depth)
    except EngineError as exc:
        print(f"xiangqi perft: {exc}", file=sys.stderr)
        return 1
    if diff is None:
        total = perft(board.fen(), args.depth)
        print(f"engine agrees: perft {args.depth} = {total} (the same count under every root move)")
        return 0
    print(diff.describe())
    return 1
