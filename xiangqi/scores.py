"""Engine scores in the shape of python-chess's: centipawns (:class:`Cp`), mates (:class:`Mate`,
:data:`MateGiven`) and the side they are seen from (:class:`PovScore`), and how a bare UCCI score reads
(:func:`bare_score`).

Values only, with no process or event loop: a game's ``[%eval]`` annotations (:meth:`xiangqi.game.GameNode.eval`)
and the engine client (:mod:`xiangqi.engine`, which exports every name here) share them.
"""

from __future__ import annotations

import functools
from typing import Optional, Tuple

from xiangqi.core import BLACK, RED, Color

__all__ = ["Score", "Cp", "Mate", "MateGiven", "PovScore", "bare_score", "UCCI_MATE_VALUE", "UCCI_MATE_PLIES"]


@functools.total_ordering
class Score:
    """A score from one side's point of view: :class:`Cp` (centipawns) or :class:`Mate`.

    Scores compare as their strength for the side: a mate beats any centipawn score, which beats being mated.

    >>> Mate(3) > Cp(900) > Cp(-900) > Mate(-1), -Cp(20), -Mate(2)
    (True, Cp(-20), Mate(-2))

    Raises:
        * :exc:`NotImplementedError` from the methods of ``Score`` itself, which only its subclasses
          implement.
    """

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """Centipawns; a mate is ``None``, or ``±(mate_score - plies)`` when ``mate_score`` is given.

        >>> Cp(35).score(), Mate(3).score(), Mate(3).score(mate_score=100000), Mate(-2).score(mate_score=100000)
        (35, None, 99997, -99998)

        Raises:
            * :exc:`NotImplementedError` on ``Score`` itself (a subclass answers).
        """
        raise NotImplementedError

    def mate(self) -> Optional[int]:
        """Moves to mate (negative: this side is mated), ``None`` for a centipawn score.

        >>> Mate(3).mate(), Mate(-2).mate(), Cp(35).mate()
        (3, -2, None)

        Raises:
            * :exc:`NotImplementedError` on ``Score`` itself (a subclass answers).
        """
        raise NotImplementedError

    def is_mate(self) -> bool:
        """Whether this is a mate score.

        >>> Mate(1).is_mate(), Cp(20).is_mate()
        (True, False)
        """
        return self.mate() is not None

    def __neg__(self) -> "Score":
        raise NotImplementedError

    def _key(self) -> Tuple[int, int]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Score) and self._key() == other._key()

    def __lt__(self, other: "Score") -> bool:
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class Cp(Score):
    """A centipawn score.

    >>> Cp(35), str(Cp(35)), Cp(35).cp, Cp(35).score()
    (Cp(+35), '+35', 35, 35)
    """

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return self.cp

    def mate(self) -> Optional[int]:
        return None

    def __neg__(self) -> "Score":
        return Cp(-self.cp)

    def _key(self) -> Tuple[int, int]:
        return (1, self.cp)

    def __repr__(self) -> str:
        return f"Cp({self.cp:+d})"

    def __str__(self) -> str:
        return f"{self.cp:+d}"


class Mate(Score):
    """Mate in ``moves`` moves (``moves <= 0``: this side is mated in ``-moves``; ``Mate(0)``: mated now).

    >>> Mate(2), str(Mate(-3)), Mate(2).mate(), -Mate(0)
    (Mate(+2), '#-3', 2, MateGiven)
    """

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> Optional[int]:
        return self.moves

    def __neg__(self) -> "Score":
        return MateGiven if self.moves == 0 else Mate(-self.moves)

    def _key(self) -> Tuple[int, int]:
        return (2, -self.moves) if self.moves > 0 else (0, -self.moves)

    def __repr__(self) -> str:
        return f"Mate({self.moves:+d})" if self.moves else "Mate(-0)"

    def __str__(self) -> str:
        return f"#{self.moves:+d}" if self.moves else "#-0"


class _MateGiven(Score):
    """The side has just mated (the opposite of ``Mate(0)``)."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return None if mate_score is None else mate_score

    def mate(self) -> Optional[int]:
        return 0

    def __neg__(self) -> "Score":
        return Mate(0)

    def _key(self) -> Tuple[int, int]:
        return (3, 0)

    def __repr__(self) -> str:
        return "MateGiven"

    def __str__(self) -> str:
        return "#+0"


#: The score of a side that has just mated.
MateGiven: Score = _MateGiven()


class PovScore:
    """A :class:`Score` as the engine reported it (``relative``, for the side to move ``turn``).

    >>> score = PovScore(Cp(-20), BLACK)           # Black to move, and Black thinks it is 20 centipawns worse
    >>> score.relative, score.red(), score.black(), score.is_mate()
    (Cp(-20), Cp(+20), Cp(-20), False)
    """

    def __init__(self, relative: Score, turn: Color) -> None:
        self.relative = relative
        self.turn = turn

    def pov(self, color: Color) -> Score:
        """The score from ``color``'s point of view.

        >>> PovScore(Mate(2), RED).pov(BLACK)
        Mate(-2)
        """
        return self.relative if color == self.turn else -self.relative

    def red(self) -> Score:
        """The score from Red's point of view.

        >>> PovScore(Cp(-20), BLACK).red()
        Cp(+20)
        """
        return self.pov(RED)

    def black(self) -> Score:
        """The score from Black's point of view.

        >>> PovScore(Cp(15), RED).black()
        Cp(-15)
        """
        return self.pov(BLACK)

    def is_mate(self) -> bool:
        """Whether this is a mate score.

        >>> PovScore(Mate(-1), RED).is_mate()
        True
        """
        return self.relative.is_mate()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PovScore) and self.red() == other.red()

    def __hash__(self) -> int:
        return hash(self.red())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'RED' if self.turn else 'BLACK'})"


#: The mate value of a bare UCCI score (``info ... score N``, without ``cp`` or ``mate``): ElephantEye's
#: ``MATE_VALUE`` (xqbase/eleeye ``eleeye/position.h``), the engine of the UCCI document's authors. The UCCI
#: document (xqbase ``cchess_ucci.htm``) gives a score's unit (a horse or cannon is 100) but no mate form, so
#: ElephantEye writes a mate in ``n`` plies as ``MATE_VALUE - n`` (mated: ``n - MATE_VALUE``). Fairy-Stockfish
#: and ``xiangqi engine`` write ``score mate N`` in UCCI too. Another engine's scale: the ``mate_value`` of
#: :func:`~xiangqi.engine.popen_ucci` / :attr:`EngineProtocol.mate_value`.
UCCI_MATE_VALUE = 10000

#: How far below the mate value a bare score still reads as a mate: ElephantEye's ``BAN_VALUE`` is
#: ``MATE_VALUE - 100``; its scores from there to ``WIN_VALUE`` (``MATE_VALUE - 200``) are wins by a repetition
#: ruling (the other side's perpetual check), not mates, and stay :class:`Cp`.
UCCI_MATE_PLIES = 100


def bare_score(n: int, mate_value: Optional[int] = UCCI_MATE_VALUE) -> Score:
    """A bare UCCI score ``n`` (no ``cp`` or ``mate`` word): a mate when ``mate_value - UCCI_MATE_PLIES <
    |n| <= mate_value`` (a mate in ``mate_value - |n|`` plies, as :class:`Mate` counts moves: ``9999`` is
    ``Mate(1)``, ``-9998`` ``Mate(-1)``, ``-10000`` ``Mate(0)``), else centipawns; ``mate_value=None`` reads
    every bare score as centipawns.

    >>> bare_score(9997), bare_score(-9996), bare_score(9850), bare_score(25), bare_score(29998, 30000)
    (Mate(+2), Mate(-2), Cp(+9850), Cp(+25), Mate(+1))
    """
    if mate_value is None or not mate_value - UCCI_MATE_PLIES < abs(n) <= mate_value:
        return Cp(n)
    plies = mate_value - abs(n)
    if n > 0:
        return MateGiven if plies == 0 else Mate((plies + 1) // 2)
    return Mate(-(plies // 2))
