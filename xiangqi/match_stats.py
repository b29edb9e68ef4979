"""The statistics of a match: the score, its Elo difference with a 95 % margin, LOS and draw ratio
(:class:`MatchScore`), and the sequential probability ratio test that stops a match early (:class:`Sprt`,
:func:`sprt_llr`, on game results or on the pentanomial counts of game pairs). ``xiangqi match``
(:mod:`xiangqi.match`) keeps one :class:`MatchScore` per pair of engines.

>>> score = MatchScore(wins=30, draws=40, losses=20, pairs=[2, 8, 20, 12, 3])
>>> score.line(), round(score.llr(parse_sprt("elo0=0 elo1=10")), 2)
('games 90: +30 =40 -20, Elo +38.8 ± 53.7', 0.31)
"""

from __future__ import annotations

import dataclasses
import math
from typing import Dict, List, Optional, Sequence, Tuple

__all__ = ["MatchScore", "Sprt", "parse_sprt", "sprt_llr"]


#: The normal quantile of a two-sided 95 % interval.
_Z95 = 1.959964


def _elo_of(score: float) -> float:
    """The logistic Elo difference of an expected score: ``-400 log10(1/score - 1)`` (±inf at 1 and 0)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def _score_of(elo: float) -> float:
    """The expected score of an Elo difference: ``1 / (1 + 10^(-elo/400))``."""
    return 1 / (1 + 10 ** (-elo / 400))


def sprt_llr(counts: Sequence[float], values: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized SPRT log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``), normal approximation.

    ``counts[i]`` outcomes scored ``values[i]`` (games: 0, 1/2, 1 for W/D/L; game pairs: 0, 1/4, 1/2, 3/4, 1, the
    pentanomial model). With ``N`` outcomes, mean score ``s`` and variance ``v`` of the score per outcome, and
    ``s0``, ``s1`` the expected scores of ``elo0``, ``elo1`` (``1 / (1 + 10^(-elo / 400))``):
    ``LLR = N (s1 - s0) (2 s - s0 - s1) / (2 v)`` (M. Van den Bergh's normal approximation of the generalized
    SPRT). A count of zero is taken as 0.001, so that a one-sided score still has a variance.

    >>> round(sprt_llr([20, 60, 20], [0, 0.5, 1], 0, 5), 4)     # an even score leans to H0
    -0.0259
    """
    regular = [c if c > 0 else 1e-3 for c in counts]
    n = sum(regular)
    if n <= 0 or sum(counts) == 0:
        return 0.0
    mean = sum(c * v for c, v in zip(regular, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(regular, values)) / n
    if var <= 0:
        return 0.0
    s0, s1 = _score_of(elo0), _score_of(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


@dataclasses.dataclass
class Sprt:
    """A sequential probability ratio test: H0 (Elo ``elo0``) against H1 (Elo ``elo1``), error rates ``alpha``
    (accepting H1 when H0 holds) and ``beta``. The match stops when the LLR leaves ``(lower, upper)``.

    >>> test = parse_sprt("elo0=0 elo1=5 alpha=0.05 beta=0.05")
    >>> test, [round(b, 4) for b in test.bounds()]
    (Sprt(elo0=0.0, elo1=5.0, alpha=0.05, beta=0.05), [-2.9444, 2.9444])
    """

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def bounds(self) -> Tuple[float, float]:
        """``(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))``: below the first H0 is accepted, above the second H1.

        See :class:`Sprt`'s example.
        """
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def verdict(self, llr: float) -> Optional[str]:
        """``"H1"``, ``"H0"`` or ``None`` (go on) for ``llr``.

        >>> Sprt().verdict(3.0), Sprt().verdict(-3.0), Sprt().verdict(0.5)
        ('H1', 'H0', None)
        """
        lower, upper = self.bounds()
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def parse_sprt(text: str) -> Sprt:
    """A :class:`Sprt` from ``elo0=0 elo1=5 alpha=0.05 beta=0.05`` (any of them; the rest as shown).

    >>> parse_sprt("elo1=10")
    Sprt(elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05)
    >>> parse_sprt("elo0=5 elo1=0")
    Traceback (most recent call last):
    ...
    ValueError: --sprt: elo1 must be above elo0, and alpha and beta between 0 and 1 (got elo0=5 elo1=0 alpha=0.05 beta=0.05)

    Raises:
        * :exc:`ValueError` for a word that is not ``key=number`` with a key of the four, or values out of range.
    """
    values: Dict[str, float] = {}
    for word in text.replace(",", " ").split():
        key, sep, value = word.partition("=")
        if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
            raise ValueError(f"--sprt: {word!r} is not elo0=, elo1=, alpha= or beta= with a number")
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError(f"--sprt: {key} must be a number, not {value!r}") from None
    test = Sprt(**values)
    if not (test.elo1 > test.elo0 and 0 < test.alpha < 1 and 0 < test.beta < 1 and test.alpha + test.beta < 1):
        raise ValueError(f"--sprt: elo1 must be above elo0, and alpha and beta between 0 and 1 (got elo0={test.elo0:g} "
                         f"elo1={test.elo1:g} alpha={test.alpha:g} beta={test.beta:g})")
    return test


@dataclasses.dataclass
class MatchScore:
    """The match so far, from the first engine's side; ``pairs`` counts the game pairs of an opening (each
    engine Red once) by the first engine's points in them: 0, 1/2, 1, 3/2, 2 (the pentanomial counts).

    >>> score = MatchScore(wins=5, draws=4, losses=3)
    >>> score.games, score.line()
    (12, 'games 12: +5 =4 -3, Elo +58.5 ± 158.9')
    """

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: List[int] = dataclasses.field(default_factory=lambda: [0, 0, 0, 0, 0])

    @property
    def games(self) -> int:
        """Games counted.

        >>> MatchScore(wins=1, draws=2).games
        3
        """
        return self.wins + self.draws + self.losses

    def add(self, points: float) -> None:
        """Count one game (1, 0.5 or 0 points for the first engine).

        >>> score = MatchScore()
        >>> score.add(1.0); score.add(0.5); (score.wins, score.draws, score.losses)
        (1, 1, 0)
        """
        if points == 1.0:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        else:
            self.losses += 1

    def add_pair(self, first: float, second: float) -> None:
        """Count a finished pair of games (the first engine's points in each) for the pentanomial model.

        >>> score = MatchScore()
        >>> score.add_pair(1.0, 0.5); score.add_pair(0.0, 1.0); score.pairs
        [0, 0, 1, 1, 0]
        """
        self.pairs[round(2 * (first + second))] += 1

    def elo(self) -> Tuple[float, float]:
        """The Elo difference and its 95 % error margin.

        The interval is Wilson's score interval with the games' own variance (``v``, at most ``p (1 - p)``):
        ``(p + z²/2n ± z sqrt(v/n + z²/4n²)) / (1 + z²/n)``, always inside (0, 1), so a lopsided score (+9 =1 -0)
        still has a finite margin; only a score of 0 or 1 has an infinite Elo (and margin).

        >>> MatchScore(wins=9, draws=1).elo()[1] < 400, MatchScore(wins=3, draws=2, losses=1).elo()[0] > 0
        (True, True)
        >>> MatchScore().elo(), MatchScore(wins=2).elo()
        ((0.0, inf), (inf, inf))
        """
        n = self.games
        if n == 0:
            return 0.0, math.inf
        p = (self.wins + self.draws / 2) / n
        lo, hi = self.interval()
        if p in (0.0, 1.0):
            return _elo_of(p), math.inf
        return _elo_of(p), (_elo_of(hi) - _elo_of(lo)) / 2

    def interval(self) -> Tuple[float, float]:
        """The 95 % Wilson interval of the score (see :meth:`elo`); ``(0, 1)`` before any game.

        >>> [round(x, 3) for x in MatchScore(wins=2).interval()]
        [0.342, 1.0]
        """
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = (self.wins + self.draws / 2) / n
        var = (self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2 + self.losses * p ** 2) / n
        z2 = _Z95 * _Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = _Z95 * math.sqrt(var / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def los(self) -> float:
        """The likelihood of superiority: ``0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`` (draws tell nothing).

        >>> round(MatchScore(wins=6, draws=2, losses=2).los(), 4), MatchScore(draws=3).los()
        (0.9214, 0.5)
        """
        decisive = self.wins + self.losses
        if decisive == 0:
            return 0.5
        return 0.5 * (1 + math.erf((self.wins - self.losses) / math.sqrt(2 * decisive)))

    def draw_ratio(self) -> float:
        """The share of drawn games (0 before any game).

        >>> MatchScore(wins=6, draws=2, losses=2).draw_ratio()
        0.2
        """
        return self.draws / self.games if self.games else 0.0

    def llr(self, test: Sprt, *, pentanomial: Optional[bool] = None) -> float:
        """The SPRT log-likelihood ratio (:func:`sprt_llr`) of the game pairs (pentanomial), or of the games
        (by default the pairs once there are any).

        >>> round(MatchScore(wins=30, draws=40, losses=30).llr(Sprt(0, 5), pentanomial=False), 4)
        -0.0173
        """
        if pentanomial or (pentanomial is None and any(self.pairs)):
            return sprt_llr(self.pairs, [0, 0.25, 0.5, 0.75, 1], test.elo0, test.elo1)
        return sprt_llr([self.losses, self.draws, self.wins], [0, 0.5, 1], test.elo0, test.elo1)

    def line(self) -> str:
        """``games 12: +5 =4 -3, Elo +58.5 ± 158.9``; an infinite Elo gives its 95 % bound instead of a margin.

        >>> MatchScore(wins=2).line()
        'games 2: +2 =0 -0, Elo +inf (95 %: above -113.4)'
        """
        elo, margin = self.elo()
        if math.isinf(elo) and self.games:
            lo, hi = self.interval()
            bound = f"above {_elo_of(lo):+.1f}" if elo > 0 else f"below {_elo_of(hi):+.1f}"
            return f"games {self.games}: +{self.wins} ={self.draws} -{self.losses}, Elo {'+' if elo > 0 else '-'}inf (95 %: {bound})"
        margin_text = "inf" if math.isinf(margin) or math.isnan(margin) else f"{margin:.1f}"
        # round(...) + 0.0: an even score reads +0.0, never -0.0
        elo_text = f"{round(elo, 1) + 0.0:+.1f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")
        return f"games {self.games}: +{self.wins} ={self.draws} -{self.losses}, Elo {elo_text} ± {margin_text}"

    def details(self, test: Optional[Sprt] = None) -> str:
        """LOS, draw ratio, the pentanomial counts and, with ``test``, the SPRT's state: the summary's second line.

        >>> MatchScore(wins=6, draws=2, losses=2, pairs=[0, 1, 2, 1, 1]).details(Sprt(0, 5))
        'LOS 92.1 %, draw ratio 20.0 %, pairs [0, 1, 2, 1, 1]; SPRT (elo0=0 elo1=5): LLR 0.05 (-2.94, 2.94)'
        """
        text = f"LOS {100 * self.los():.1f} %, draw ratio {100 * self.draw_ratio():.1f} %, pairs {self.pairs}"
        if test is not None:
            llr = self.llr(test)
            lower, upper = test.bounds()
            verdict = test.verdict(llr)
            text += (f"; SPRT (elo0={test.elo0:g} elo1={test.elo1:g}): LLR {llr:.2f} ({lower:.2f}, {upper:.2f})"
                     + ("" if verdict is None else f", {verdict} accepted"))
        return text
