"""How a game ended: :class:`Termination` and :class:`Outcome`."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

from xiangqi.core import Color

__all__ = ["Termination", "Outcome", "result_of"]


def result_of(winner: Optional[Color]) -> str:
    """The result token of a game ``winner`` won (``None``: a draw): ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``, the one
    mapping of a winner to a result.

    >>> result_of(True), result_of(False), result_of(None)
    ('1-0', '0-1', '1/2-1/2')
    """
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner else "0-1"


class Termination(enum.Enum):
    """Why a game ended (:attr:`Outcome.termination`).

    >>> from xiangqi import Board
    >>> Board("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b").outcome().termination
    <Termination.STALEMATE: 2>
    """

    CHECKMATE = enum.auto()
    #: No legal move without being in check (困毙): the side to move loses.
    STALEMATE = enum.auto()
    PERPETUAL_CHECK = enum.auto()
    PERPETUAL_CHASE = enum.auto()
    #: Another forbidden repetition pattern (e.g. one check one chase under the Chinese rules).
    FORBIDDEN_PATTERN = enum.auto()
    REPETITION_DRAW = enum.auto()
    #: 60 moves (120 plies) without a capture, the natural limit (自然限着).
    NATURAL_LIMIT = enum.auto()
    #: Neither side has a rook, horse, cannon or pawn left: a draw on claim (``outcome(claim_draw=True)``).
    INSUFFICIENT_MATERIAL = enum.auto()


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won (``None`` for a draw), why, and an explanation in English and Chinese.

    >>> from xiangqi import RED
    >>> Outcome(Termination.CHECKMATE, winner=RED).result(), Outcome(Termination.REPETITION_DRAW, None).result()
    ('1-0', '1/2-1/2')
    """

    termination: Termination
    winner: Optional[Color]
    reason: str = ""
    reason_zh: str = ""

    def result(self) -> str:
        """``"1-0"`` (Red won), ``"0-1"`` (Black won) or ``"1/2-1/2"``.

        >>> Outcome(Termination.PERPETUAL_CHECK, winner=False).result()
        '0-1'
        """
        return result_of(self.winner)
