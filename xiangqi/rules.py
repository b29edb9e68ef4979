"""Repetition rulings and the natural move limit, under the Asian (AXF) and Chinese (CXA) rules.

When a position comes back for the third time (the count is configurable),
the moves since its first of those occurrences form the *loop*, and each
side's moves in it are judged:

* 将 **check**: the move attacks the enemy king;
* 杀 **mate threat** (Chinese rules only): the mover could mate next by checks alone;
* 捉 **chase**: the move newly creates a threat to win an enemy piece — an
  attack on an unprotected piece (or one whose protectors cannot legally
  recapture, 假根), or on a rook by a weaker piece (a horse or cannon on a
  rook, protected or not; under the Chinese rules also an advisor or elephant
  on a horse or cannon), never by the king or a pawn itself, never on a pawn
  that has not crossed the river, and not an exchange offer (兑) between
  pieces of one type that can take each other. The exact definition is in
  ``csrc/xq_rules.h``; the per-move facts are computed in C;
* everything else is **idle** (闲), including offers (兑, 献), blocks (拦) and
  follows (跟).

Asian rules (:data:`AXF`, the default, as ``board.outcome()`` uses it):

* a side that checks with every move of the loop commits perpetual check (长将);
* a side that, with every move, chases one and the same piece (followed by
  identity; several pieces taking turns on it count) commits perpetual chase
  (长捉). One piece chasing two or more pieces in turn, two pieces chasing two
  in turn, "one check one chase", and perpetual mate threats are allowed;
* verdict: check outranks chase; the side with the worse pattern loses;
  equal patterns (both perpetual check, both perpetual chase, or neither
  forbidden) draw.

Chinese rules (:data:`CXA`, the 2020 text, 棋例 chapter):

* a side whose every move in the loop is an attack (将, 杀 or 捉, chasing one
  piece or several) plays a forbidden pattern: 长将, 长杀, 长捉, 一将一杀,
  一将一捉, 一杀一捉; a single idle move makes the cycle allowed (数将一闲 …);
* 长将 loses whatever the other side does (mutual 长将 draws); one side
  forbidden and the other allowed: the forbidden side loses; both forbidden:
  draw, except that 长捉车 against 联合捉车 and 长捉无根子 against 联合捉无根子
  lose for the former (棋例通则 九); chases also include winning a protected
  piece by exchange (少根) and winning a piece by a check or a series of
  checks from the next move on (术语 三); a capture after which the capturer
  is mated at once is no chase, nor an attack by the only root of a piece the
  opponent can take first when that makes an even exchange (棋例通则 五);
* in a game from the opening position, within 25 moves, a repetition that
  would draw must be varied by Red (#03 三): the game goes on at the third
  occurrence and Red loses at the fourth (:attr:`RuleSet.red_must_vary_rounds`).

Every verdict comes from one function of the C core, ``xq_loop_verdict``,
over each side's summary of the loop (``xq_repetition_loops``).

The natural limit (自然限着) is a draw after 60 moves (120 plies) without a
capture. Checks are counted as the books say for a claim: of the checks the
claiming side gave in that stretch only 10 count; each further check is a
void ply and so is the reply to it (2 plies deducted per excess check).
Either side may claim, so the draw holds as soon as
``plies - 2 * max(0, checks_by_side - 10) >= 120`` for at least one side.
Plies before the starting FEN (its halfmove clock) count as non-checking.
Events may shorten the limit: pass ``natural_limit=`` (plies).

Choices where the books leave room (each checked against the AXF diagrams):

* a chase is *new*: the (attacker, victim) pair qualifies after the move and
  did not before it, so a standing attack is not chased again, while a move
  that pins or blocks the victim's protector (protection subversion, AXF
  appendix) or uncovers another piece's attack is a chase;
* the Asian rules judge protection on the board as it stands: a recapture
  that only opens because the attacker left its square (an x-ray through the
  attacker) does not protect (diagrams 39-41, 61); the Chinese rules count
  it as a hidden root (暗根);
* a move is judged by its heaviest effect (check > mate threat > chase);
* the loop runs from the earliest of the counted occurrences, so with the
  default count the chase must persist over two full cycles; the side whose
  move completed the loop is named in the reason;
* Chinese 联合捉 (joint chase) is taken as a chase that needs the exchange
  (少根) to win the piece; mate threats are searched to 3 checking moves.
* a null move (``0000``, a pass that :meth:`Board.push` allows for analysis)
  is idle: no check, no chase, no mate threat. A repetition whose loop holds
  one is ruled against neither side (a draw, whatever the other side did):
  the side that passed did not play the repetition, and no rule book says
  what a pass amounts to.

>>> from xiangqi import Board
>>> board = Board("2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1")
>>> for m in "b4a4 a5e5 a4e4 e5a5 e4a4 a5e5 a4e4 e5a5".split():
...     _ = board.push_iccs(m)
>>> board.outcome() is None   # the position has occurred twice
True
>>> _ = board.push_iccs("e4a4")
>>> outcome = board.outcome()
>>> outcome.result(), outcome.termination.name
('0-1', 'PERPETUAL_CHASE')
>>> print(outcome.reason)
Red loses: perpetual chase of the unprotected black cannon (e5, a5) by the red rook, plies 2-9 (Asian rules); Red's move e4a4 completed the third occurrence at ply 9.
"""

from __future__ import annotations

import enum
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from xiangqi._ffi import raise_internal
from xiangqi._ffi.rules import (
    PATTERNS, RULE_RED_MUST_VARY, WHYS, NativeHistory, NativeLoops, loop_pattern, loop_verdict,
)
from xiangqi.core import BLACK, RED, STARTING_FEN, Color, Move, Piece, Square, square_name
from xiangqi.facts import Chase, ChaseReason, MoveFacts, facts_of, piece_words, side_words
from xiangqi.outcome import Outcome, Termination
from xiangqi.position import BaseBoard
from xiangqi.rulesets import (
    AXF, CXA, DEFAULT_RULES, RULE_SET_NAMES, RULE_SETS, RuleSet, get_rules, red_must_vary_rounds, rule_set_name,
    rules_spec,
)

__all__ = [
    "RuleSet", "AXF", "CXA", "RULE_SETS", "RULE_SET_NAMES", "DEFAULT_RULES", "get_rules", "rule_set_name",
    "rules_spec", "red_must_vary_rounds",
    "ChaseReason", "Chase", "MoveFacts", "Pattern", "SideJudgement", "Ruling", "NaturalLimit",
    "move_facts", "history_facts", "repetition_count", "repetition_plies", "is_repetition",
    "judge", "adjudicate", "can_claim_draw", "natural_limit", "scan_violations", "game_rulings", "Finding",
]


def _hist(board: BaseBoard) -> NativeHistory:
    """The board's game as the C core keeps it (its own buffers, read in place)."""
    return NativeHistory.of_board(board, len(board.move_stack))


def history_facts(board: BaseBoard, start: int = 1, end: Optional[int] = None, *,
                  rules: Union[str, RuleSet, None] = None) -> List[MoveFacts]:
    """Facts of the moves ``start``..``end`` (1-based ply numbers, inclusive) of the board's game.

    Identities (``attacker_id``/``victim_id``) are squares at the position before move ``start``.

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> [facts.kind for facts in history_facts(board, 1, 4)]
    ['check', 'idle', 'check', 'idle']

    Raises:
        :class:`ValueError`: ``start``..``end`` is not within the game's plies, or ``rules`` names no rule set.
        :class:`TypeError`: as :func:`get_rules`.
    """
    rs = get_rules(rules)
    n = len(board.move_stack)
    end = n if end is None else end
    if not (1 <= start <= end + 1 and end <= n):
        raise ValueError(f"plies {start}-{end} are outside the game's {n} plies")
    return _history_facts(_hist(board), start, end, rs)


def _history_facts(h: NativeHistory, start: int, end: int, rs: RuleSet) -> List[MoveFacts]:
    return facts_of(h, start, end, rs.facts_flags(), rs.mate_threats)


def move_facts(board: BaseBoard, ply: int, *, rules: Union[str, RuleSet, None] = None) -> MoveFacts:
    """The facts of move ``ply`` (1-based; negative counts from the end, -1 is the last move).

    >>> from xiangqi import Board
    >>> b = Board("2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1")
    >>> _ = b.push_iccs("b4a4")
    >>> b.move_facts(1).describe()
    'ply 1: Red b4a4 (red rook): red rook a4 chases the unprotected black cannon a5'

    Raises:
        :class:`IndexError`: ``ply`` is outside 1..n (or -1..-n) for a game of n moves.
        :class:`ValueError` or :class:`TypeError`: as :func:`get_rules`.
    """
    n = len(board.move_stack)
    p = ply + n + 1 if ply < 0 else ply
    if not 1 <= p <= n:
        if n == 0:
            raise IndexError(f"ply {ply}: the game has no moves")
        raise IndexError(f"ply {ply} is outside the game's {n} plies: plies are 1-based, 1 to {n} "
                         f"(or -1 to -{n} from the end)")
    return history_facts(board, p, p, rules=rules)[0]


# --------------------------------------------------------------------------- repetition


def repetition_plies(board: BaseBoard, ply: Optional[int] = None) -> List[int]:
    """Earlier plies whose position equals the one after ``ply`` (default: now), latest first.

    A position after ``k`` plies is numbered ``k`` (0 is the starting FEN).

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> repetition_plies(board), repetition_plies(board, 2)
    ([4, 0], [])

    Raises:
        :class:`ValueError`: ``ply`` is outside 0..len(move_stack).
    """
    n = len(board.move_stack)
    at = n if ply is None else ply
    if not 0 <= at <= n:
        raise ValueError(f"ply {ply} is outside the game's {n} plies")
    return _hist(board).repetition_plies(at)


def repetition_count(board: BaseBoard) -> int:
    """How many times the current position has occurred (itself included), back to the last capture.

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> repetition_count(board), repetition_count(Board())
    (3, 1)
    """
    return _hist(board).repetition_count()


def is_repetition(board: BaseBoard, count: int = 3) -> bool:
    """Whether the current position has occurred at least ``count`` times (``count`` >= 2).

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> is_repetition(board), is_repetition(board, 4)
    (True, False)

    Raises:
        :class:`ValueError`: ``count`` is less than 2.
    """
    if count < 2:
        raise ValueError(f"repetition count must be at least 2, not {count!r}")
    return repetition_count(board) >= count


# --------------------------------------------------------------------------- judgement


class Pattern(enum.Enum):
    """A side's pattern over a repetition loop (:attr:`SideJudgement.pattern`).

    >>> Pattern.PERPETUAL_CHECK.zh, Pattern.PERPETUAL_CHECK.forbidden, Pattern.ALLOWED.forbidden
    ('长将', True, False)
    """

    #: Nothing forbidden (idle moves, offers, allowed mixes, one piece chasing several …).
    ALLOWED = "allowed"
    #: 长将: every move checks.
    PERPETUAL_CHECK = "perpetual check"
    #: 长捉: every move chases (AXF: one and the same piece).
    PERPETUAL_CHASE = "perpetual chase"
    #: 长杀 (Chinese rules): every move threatens mate.
    PERPETUAL_MATE_THREAT = "perpetual mate threat"
    #: 一将一杀 (Chinese rules): checks and mate threats, nothing idle.
    CHECK_AND_MATE_THREAT = "check and mate threat"
    #: 一将一捉 (Chinese rules): checks and chases, nothing idle.
    CHECK_AND_CHASE = "check and chase"
    #: 一杀一捉 (Chinese rules): mate threats and chases, nothing idle.
    MATE_THREAT_AND_CHASE = "mate threat and chase"
    #: Checks, mate threats and chases mixed, nothing idle (Chinese rules).
    CHECK_MATE_THREAT_AND_CHASE = "check, mate threat and chase"

    @property
    def forbidden(self) -> bool:
        """Whether the rule book forbids the pattern (everything but :attr:`ALLOWED`)."""
        return self is not Pattern.ALLOWED

    @property
    def zh(self) -> str:
        """The Chinese name (``"长将"`` …)."""
        return _PATTERN_ZH[self]


_PATTERN_ZH = {
    Pattern.ALLOWED: "允许着法",
    Pattern.PERPETUAL_CHECK: "长将",
    Pattern.PERPETUAL_CHASE: "长捉",
    Pattern.PERPETUAL_MATE_THREAT: "长杀",
    Pattern.CHECK_AND_MATE_THREAT: "一将一杀",
    Pattern.CHECK_AND_CHASE: "一将一捉",
    Pattern.MATE_THREAT_AND_CHASE: "一杀一捉",
    Pattern.CHECK_MATE_THREAT_AND_CHASE: "将杀捉交替",
}


class SideJudgement(NamedTuple):
    """One side's moves in a loop and what they amount to (:attr:`Ruling.red`, :attr:`Ruling.black`).

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> ruling = judge(board)
    >>> ruling.red.pattern, ruling.red.forbidden, ruling.black.pattern
    (<Pattern.PERPETUAL_CHECK: 'perpetual check'>, True, <Pattern.ALLOWED: 'allowed'>)
    """

    #: The side judged.
    color: Color
    #: What its moves in the loop amount to.
    pattern: Pattern
    #: The side's moves in the loop.
    moves: Tuple[MoveFacts, ...]
    #: For a perpetual chase: the chases on the chased piece(s), move by move (AXF: of the same piece).
    chases: Tuple[Chase, ...] = ()
    #: The ids (squares at the loop's start) of the pieces chased on every move (AXF).
    victims: Tuple[Square, ...] = ()

    @property
    def forbidden(self) -> bool:
        """Whether the side's pattern is forbidden."""
        return self.pattern.forbidden


class NaturalLimit(NamedTuple):
    """The natural move limit's count at a position (:func:`natural_limit`).

    >>> from xiangqi import Board
    >>> count = natural_limit(Board("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 119 80"))
    >>> count.plies, count.limit, count.reached
    (119, 120, False)
    """

    #: Plies since the last capture (the FEN's halfmove clock included).
    plies: int
    #: Checking moves by each side in the known part of that stretch.
    checks_red: int
    checks_black: int
    #: Plies that count for the side most favourable to a claim (void plies deducted).
    counted: int
    #: The side whose claim counts ``counted`` plies (its excess checks are deducted).
    claimant: Color
    #: The limit in plies (the rule set's, or the one given).
    limit: int
    #: ``counted`` reached ``limit`` (a draw; 0 as the limit never reaches).
    reached: bool


class Ruling(NamedTuple):
    """A verdict with its reasoning: :attr:`outcome` and everything that led to it.

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> ruling = judge(board)
    >>> ruling.kind, ruling.occurrences, ruling.loser, ruling.outcome.termination
    ('repetition', (0, 4, 8), True, <Termination.PERPETUAL_CHECK: 3>)
    >>> print(ruling.explain().splitlines()[0])
    Red loses: perpetual check by the red rook (a9, a8), plies 1-8 (Asian rules); Black's move e8e9
    completed the third occurrence at ply 8.
    """

    #: The verdict and its reason (English and Chinese).
    outcome: Outcome
    #: The rule set that decided.
    rules: RuleSet
    #: ``"repetition"`` or ``"natural_limit"``.
    kind: str
    #: The position judged is the one after this many plies.
    ply: int
    #: Repetition: plies (positions) where the repeated position occurred, earliest first.
    occurrences: Tuple[int, ...] = ()
    #: Repetition: the loop's moves are plies ``first_ply``..``last_ply`` (1-based, inclusive).
    first_ply: int = 0
    last_ply: int = 0
    #: The side whose move completed the loop.
    completed_by: Optional[Color] = None
    #: Repetition: the judgement of Red's moves in the loop.
    red: Optional[SideJudgement] = None
    #: Repetition: the judgement of Black's moves in the loop.
    black: Optional[SideJudgement] = None
    #: Natural limit: the count that reached it.
    natural: Optional[NaturalLimit] = None

    @property
    def winner(self) -> Optional[Color]:
        """The side the ruling awards the game to (``None`` for a draw)."""
        return self.outcome.winner

    @property
    def loser(self) -> Optional[Color]:
        """The side that loses by the ruling (``None`` for a draw)."""
        return None if self.outcome.winner is None else not self.outcome.winner

    def side(self, color: Color) -> Optional[SideJudgement]:
        """The judgement of ``color``'s moves (repetition rulings).

        >>> from xiangqi import Board
        >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")
        >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
        >>> ruling = judge(board)
        >>> ruling.side(True) is ruling.red, ruling.winner, ruling.loser
        (True, False, True)
        """
        return self.red if color else self.black

    def explain(self) -> str:
        """The reason and the loop move by move (English and Chinese).

        >>> from xiangqi import Board
        >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")
        >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
        >>> print("\\n".join(judge(board).explain().splitlines()[2:5]))
        Red: perpetual check / 长将
        Black: allowed / 允许着法
          ply 1: Red a8a9 (red rook): check
        """
        lines = [self.outcome.reason, self.outcome.reason_zh]
        for sj in (self.red, self.black):
            if sj is None:
                continue
            lines.append(f"{side_words(sj.color)}: {sj.pattern.value} / {sj.pattern.zh}")
        facts = sorted([f for sj in (self.red, self.black) if sj is not None for f in sj.moves], key=lambda f: f.ply)
        lines.extend("  " + f.describe() for f in facts)
        if self.natural is not None:
            nl = self.natural
            lines.append(f"natural limit: {nl.plies} plies without capture, checks red {nl.checks_red} "
                         f"black {nl.checks_black}, counted {nl.counted} of {nl.limit}")
        return "\n".join(lines)


# One side's moves in a loop, summed up: the C core's XQ_LOOP_* bits with its XQ_LOOPX_* bits above them
# (``loop[c] | loop_more[c] << 8`` of an ``xq_rep_info`` record, see xq_rules.h). The verdict reads only these
# (xq_loop_verdict), so every caller gets it from the one C function, from the summary that
# xq_repetition_loops makes of the loop, without building the loop's facts.
_PATTERNS = {
    PATTERNS["ALLOWED"]: Pattern.ALLOWED,
    PATTERNS["CHECK"]: Pattern.PERPETUAL_CHECK,
    PATTERNS["CHASE"]: Pattern.PERPETUAL_CHASE,
    PATTERNS["KILL"]: Pattern.PERPETUAL_MATE_THREAT,
    PATTERNS["CHECK_KILL"]: Pattern.CHECK_AND_MATE_THREAT,
    PATTERNS["CHECK_CHASE"]: Pattern.CHECK_AND_CHASE,
    PATTERNS["KILL_CHASE"]: Pattern.MATE_THREAT_AND_CHASE,
    PATTERNS["MIXED"]: Pattern.CHECK_MATE_THREAT_AND_CHASE,
}
#: Why a verdict is what it is (the C XQ_WHY_* codes), as the wording functions name it.
_WHY = {
    WHYS["ALLOWED"]: "allowed",
    WHYS["NULL"]: "null move",
    WHYS["MUTUAL_CHECK"]: "mutual perpetual check",
    WHYS["CHECK"]: "perpetual check",
    WHYS["BOTH"]: "both forbidden",
    WHYS["JOINT"]: "joint",
    WHYS["FORBIDDEN"]: "forbidden",
    WHYS["RED_MUST_VARY"]: "red must vary",
}


def _common_victims(moves: Iterable[MoveFacts]) -> Set[int]:
    """Identities of the pieces chased on every one of ``moves`` (empty when there are none)."""
    common: Optional[Set[int]] = None
    for f in moves:
        ids = set(c.victim_id for c in f.chases)
        common = ids if common is None else common & ids
    return common or set()


def _side_judgement(color: Color, moves: Sequence[MoveFacts], rs: RuleSet, summary: int) -> SideJudgement:
    """A side's judgement: its pattern from the C summary of its loop moves, the chases named from its facts."""
    mv = tuple(moves)
    pattern = _PATTERNS[loop_pattern(summary, rs.verdict_flags())]
    if pattern is Pattern.ALLOWED or pattern is Pattern.PERPETUAL_CHECK:
        return SideJudgement(color, pattern, mv)
    if not rs.mixed_attacks_forbidden:
        common = _common_victims(mv)
        chases = tuple(c for f in mv for c in f.chases if c.victim_id in common)
        return SideJudgement(color, pattern, mv, chases, tuple(sorted(common)))
    chases = tuple(c for f in mv if f.kind == "chase" for c in f.chases)
    victims = tuple(sorted(set(c.victim_id for c in chases)))
    return SideJudgement(color, pattern, mv, chases, victims)


def _termination(pattern: Pattern) -> Termination:
    """The termination of a loss by ``pattern``."""
    if pattern is Pattern.PERPETUAL_CHECK:
        return Termination.PERPETUAL_CHECK
    if pattern is Pattern.PERPETUAL_CHASE:
        return Termination.PERPETUAL_CHASE
    return Termination.FORBIDDEN_PATTERN


#: The CXA red-must-vary rule (#03 三) at a due position: off, pending (the occurrence that would draw: the
#: game goes on and Red must vary) or due (the cycle repeated once more: a draw there is Red's loss).
_EARLY_OFF, _EARLY_PENDING, _EARLY_DUE = 0, 1, 2


def _early(h: NativeHistory, at: int, rs: RuleSet, occurrences: int, count: int) -> int:
    """The red-must-vary state of position ``at``, which has occurred ``occurrences`` times (``count``: the
    occurrences that make a position adjudicable)."""
    rounds = rs.red_must_vary_rounds
    if rounds <= 0 or occurrences < count or h.fullmove(at) > rounds or not h.from_opening():
        return _EARLY_OFF
    return _EARLY_DUE if occurrences > count else _EARLY_PENDING


def _verdict(red: int, black: int, rs: RuleSet,
             early: int = _EARLY_OFF) -> Optional[Tuple[Optional[Color], str, Termination]]:
    """The verdict on a repetition loop: (loser or ``None``, why, termination), or ``None`` while the game goes
    on (a draw the red-must-vary rule holds back, ``early`` pending).

    The one verdict function of the package: :func:`judge` (so :meth:`Board.outcome` and ``xiangqi judge``),
    :func:`scan_violations` and bulk validation all call it, on the two sides' C summaries of the loop
    (``NativeLoops.summary``), and it asks the C core's ``xq_loop_verdict``, which the engine's search uses
    too. The guard (a loop where neither side attacks on every move is a draw) is inside that C function.
    """
    flags = rs.verdict_flags() | (RULE_RED_MUST_VARY if early == _EARLY_DUE else 0)
    loser, code = loop_verdict(red, black, flags)
    why = _WHY[code]
    if loser is None:
        if early == _EARLY_PENDING and why != "null move":
            return None
        return None, why, Termination.REPETITION_DRAW
    if why == "perpetual check":
        return loser, why, Termination.PERPETUAL_CHECK
    if why == "red must vary":
        return loser, why, Termination.FORBIDDEN_PATTERN
    return loser, why, _termination(_PATTERNS[loop_pattern(red if loser else black, rs.verdict_flags())])


def _squares(chases: Iterable[Chase], victim: bool) -> List[str]:
    out: List[str] = []
    for c in chases:
        s = square_name(c.victim if victim else c.attacker)
        if s not in out:
            out.append(s)
    return out


def _chase_text(sj: SideJudgement) -> Tuple[str, str]:
    """English and Chinese phrases naming what a chasing side chases and with what."""
    en_parts, zh_parts = [], []
    by_victim: Dict[int, List[Chase]] = {}
    for c in sj.chases:
        by_victim.setdefault(c.victim_id, []).append(c)
    for vid, cs in by_victim.items():
        reasons = [c.reason for c in cs]
        reason = max(set(reasons), key=reasons.count)
        vp = cs[0].victim_piece
        chasers: Dict[int, Piece] = {}
        for c in cs:
            chasers.setdefault(c.attacker_id, c.attacker_piece)
        kinds = sorted(set(piece_words(p, side=False) for p in chasers.values()))
        by = f"the {'red' if sj.color else 'black'} {' and '.join(kinds)}"
        if len(chasers) > 1 and len(kinds) == 1:
            by = f"the {'red' if sj.color else 'black'} {kinds[0]}s (taking turns)"
        adj = reason.words
        en_parts.append(f"the {adj + ' ' if adj else ''}{piece_words(vp)} ({', '.join(_squares(cs, True))}) by {by}")
        zh_chasers = "、".join(sorted(set(p.chinese() for p in chasers.values())))
        zh_parts.append(f"{side_words(vp.color, chinese=True)}方{reason.words_zh}{vp.chinese()}（{'、'.join(_squares(cs, True))}，"
                        f"{side_words(sj.color, chinese=True)}{zh_chasers}捉）")
    return "; ".join(en_parts), "；".join(zh_parts)


def _checkers_after(h: NativeHistory, plies: Iterable[int]) -> Dict[int, List[Tuple[Square, Piece]]]:
    """The pieces giving check after each of ``plies`` (1-based) of the game: (square, piece), by square
    (only when a perpetual check is worded)."""
    return {p: [(sq, Piece.from_code(code)) for sq, code in found] for p, found in h.checkers_after(list(plies)).items()}


def _check_text(sj: SideJudgement, checkers: Optional[Dict[int, List[Tuple[Square, Piece]]]]) -> str:
    """English words for a perpetual check: the checking pieces and, for discovered checks, the pieces moved."""
    side = side_words(sj.color).lower()
    kinds: List[str] = []
    squares: List[str] = []
    movers: List[str] = []
    mover_squares: List[str] = []

    def add(lst: List[str], item: str) -> None:
        if item not in lst:
            lst.append(item)

    for f in sj.moves:
        if f.piece is None:  # pragma: no cover - a null move never checks
            continue
        to = f.move.to_square
        by = checkers.get(f.ply) if checkers is not None else None
        if not by:  # unknown: name the moved piece, as the checker it usually is
            by = [(to, f.piece)]
        for sq, pc in by:
            add(kinds, piece_words(pc, side=False))
            add(squares, square_name(sq))
        if all(sq != to for sq, _ in by):  # a discovered check: the moved piece only uncovered it
            add(movers, piece_words(f.piece, side=False))
            add(mover_squares, square_name(to))
    text = f"perpetual check by the {side} {' and '.join(kinds)} ({', '.join(squares)})"
    if movers:
        text += f", uncovered by the {side} {' and '.join(movers)} ({', '.join(mover_squares)})"
    return text


def _pattern_text(sj: SideJudgement,
                  checkers: Optional[Dict[int, List[Tuple[Square, Piece]]]] = None) -> Tuple[str, str]:
    """English and Chinese words for a side's pattern (``checkers``: the checking pieces by ply, if known)."""
    if sj.pattern is Pattern.PERPETUAL_CHECK:
        sq = []
        for f in sj.moves:
            s = square_name(f.move.to_square)
            if s not in sq:
                sq.append(s)
        return _check_text(sj, checkers), f"长将（{'、'.join(sq)}）"
    if sj.pattern is Pattern.PERPETUAL_CHASE:
        en, zh = _chase_text(sj)
        return f"perpetual chase of {en}", f"长捉{zh}"
    if sj.pattern is Pattern.PERPETUAL_MATE_THREAT:
        return "perpetual mate threat", "长杀"
    label = sj.pattern.value
    en_extra, zh_extra = "", ""
    if sj.chases:
        en, zh = _chase_text(sj)
        en_extra, zh_extra = f", chasing {en}", f"，捉{zh}"
    return (f"{label} on every move ({sj.pattern.zh}){en_extra}", f"{sj.pattern.zh}{zh_extra}")


def _loop_words(h: NativeHistory, at: int, rs: RuleSet, count: int, start: int) -> Tuple[str, str, str, str]:
    """The plies and the closing words of a repetition reason (English, Chinese)."""
    completed_by = not h.turn(at)
    first_ply, last_ply = start + 1, at
    plies_en = f"plies {first_ply}-{last_ply}"
    plies_zh = f"第{first_ply}-{last_ply}着"
    ordinal = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(count, f"{count}th")
    last = Move.from_code(h.move_code(at - 1))
    tail_en = (f"; {side_words(completed_by)}'s move {last.iccs()} completed the {ordinal} occurrence "
               f"at ply {last_ply}.")
    tail_zh = f"；第{last_ply}着{side_words(completed_by, chinese=True)}方{last.iccs()}使局面第{count}次出现"
    return plies_en, plies_zh, tail_en, tail_zh


def _draw_outcome(what_en: str, what_zh: str, rs: RuleSet, words: Tuple[str, str, str, str]) -> Outcome:
    plies_en, plies_zh, tail_en, tail_zh = words
    reason = f"Draw by repetition: {what_en}, {plies_en} ({rs.title})" + tail_en
    reason_zh = f"循环重复，{what_zh}，{plies_zh}，和棋（{rs.title_zh}）" + tail_zh
    return Outcome(Termination.REPETITION_DRAW, winner=None, reason=reason, reason_zh=reason_zh)


#: Draws whose reason names no pattern (so the loop's facts are not needed to word them).
_PLAIN_DRAWS = {
    "mutual perpetual check": ("both sides check perpetually", "双方长将"),
    "allowed": ("neither side's moves are forbidden", "双方均为允许着法，不变作和"),
    "null move": ("a null move (a pass) lies in the loop, so neither side is ruled against",
                  "循环中有空着（停着），不判任何一方负，作和"),
}


def _loss_outcome(sj: SideJudgement, other: SideJudgement, why: str, rs: RuleSet,
                  words: Tuple[str, str, str, str], h: Optional[NativeHistory] = None) -> Outcome:
    """The outcome of a loop that ``sj``'s side loses (``other``: the opponent's moves, read for "joint";
    ``h``: the game, to name the checking pieces of a perpetual check)."""
    plies_en, plies_zh, tail_en, tail_zh = words
    loser = sj.color
    checkers = None
    if h is not None and sj.pattern is Pattern.PERPETUAL_CHECK:
        checkers = _checkers_after(h, (f.ply for f in sj.moves))
    pat_en, pat_zh = _pattern_text(sj, checkers)
    extra_en, extra_zh = "", ""
    if why == "joint":
        o_en, o_zh = _pattern_text(other)
        extra_en = f" ({side_words(other.color)}'s joint chase, {o_en}, does not excuse it)"
        extra_zh = f"（{side_words(other.color, chinese=True)}方联合捉子：{o_zh}）"
    reason = (f"{side_words(loser)} loses: {pat_en}{extra_en}, {plies_en} ({rs.title})" + tail_en)
    reason_zh = f"{side_words(loser, chinese=True)}方{pat_zh}{extra_zh}，{plies_zh}，{side_words(loser, chinese=True)}方负（{rs.title_zh}）" + tail_zh
    return Outcome(_termination(sj.pattern), winner=not loser, reason=reason, reason_zh=reason_zh)


def _repetition_ruling(h: NativeHistory, at: int, rs: RuleSet, count: int,
                       loops: Optional[NativeLoops] = None) -> Optional[Ruling]:
    """The repetition ruling at position ``at`` of a game (``None`` unless it occurred ``count`` times, or
    while the red-must-vary rule holds its draw back). ``loops``: what ``xq_repetition_loops`` made of the game."""
    prev = h.repetition_plies(at)
    if len(prev) < count - 1 or count < 2:
        return None
    if loops is None:
        loops = h.repetition_loops(count, rs.facts_flags())
        if loops is None:
            raise_internal(-1, "xq_repetition_loops")
    red_sum, black_sum = loops.summary(at, RED), loops.summary(at, BLACK)
    verdict = _verdict(red_sum, black_sum, rs, _early(h, at, rs, len(prev) + 1, count))
    if verdict is None:
        return None
    loser, why, _term = verdict
    start = prev[count - 2]              # position index where the loop starts
    occurrences = tuple(sorted(prev[:count - 1])) + (at,)
    facts = _history_facts(h, start + 1, at, rs)
    red = _side_judgement(RED, [f for f in facts if f.color], rs, red_sum)
    black = _side_judgement(BLACK, [f for f in facts if not f.color], rs, black_sum)
    completed_by = not h.turn(at)
    first_ply, last_ply = start + 1, at
    # A red-must-vary loss comes one cycle after the count: its words name the occurrence it came at.
    words = _loop_words(h, at, rs, len(prev) + 1 if why == "red must vary" else count, start)
    plies_en, plies_zh, tail_en, tail_zh = words
    rules_en, rules_zh = rs.title, rs.title_zh
    if why == "red must vary":
        early = rs.red_must_vary_rounds
        reason = (f"Red loses: a repetition both sides may continue within the first {early} moves of a game "
                  f"from the opening position must be varied by Red, and the cycle repeated once more, "
                  f"{plies_en} ({rules_en})" + tail_en)
        reason_zh = (f"{early}回合内形成双方不变作和的局面，由红方变着，不变判负（已计3个循环），{plies_zh}"
                     f"（{rules_zh}）" + tail_zh)
        outcome = Outcome(Termination.FORBIDDEN_PATTERN, winner=BLACK, reason=reason, reason_zh=reason_zh)
    elif loser is not None:
        outcome = _loss_outcome(red if loser == RED else black, black if loser == RED else red, why, rs, words,
                                h)
    elif why == "both forbidden":
        r_en, r_zh = _pattern_text(red)
        b_en, b_zh = _pattern_text(black)
        outcome = _draw_outcome(f"both sides break the rules alike (Red: {r_en}; Black: {b_en})",
                                f"双方均为禁止着法（红方{r_zh}；黑方{b_zh}），不变作和", rs, words)
    else:
        outcome = _draw_outcome(*_PLAIN_DRAWS[why], rs, words)
    return Ruling(outcome=outcome, rules=rs, kind="repetition", ply=at, occurrences=occurrences,
                  first_ply=first_ply, last_ply=last_ply, completed_by=completed_by, red=red, black=black)


def natural_limit(board: BaseBoard, *, rules: Union[str, RuleSet, None] = None,
                  limit: Optional[int] = None) -> NaturalLimit:
    """The natural limit's count at the current position (see the module text for the counting).

    >>> from xiangqi import Board
    >>> natural_limit(Board("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 100 80"), limit=100).reached
    True

    Raises:
        :class:`ValueError` or :class:`TypeError`: as :func:`get_rules`.
    """
    rs = get_rules(rules)
    lim = rs.natural_limit if limit is None else limit
    h = _hist(board)
    return _natural_limit(h, h.n, rs, lim)


def _natural_limit(h: NativeHistory, at: int, rs: RuleSet, lim: int) -> NaturalLimit:
    plies = h.halfmove(at)
    known = min(plies, at)
    cr, cb = h.checks(at - known, at)
    keep = rs.natural_limit_checks
    red_claim = plies - 2 * max(0, cr - keep)
    black_claim = plies - 2 * max(0, cb - keep)
    claimant = RED if red_claim >= black_claim else BLACK
    counted = max(red_claim, black_claim)
    return NaturalLimit(plies=plies, checks_red=cr, checks_black=cb, counted=counted, claimant=claimant,
                        limit=lim, reached=bool(lim) and counted >= lim)


def _natural_ruling(h: NativeHistory, at: int, rs: RuleSet, limit: Optional[int]) -> Optional[Ruling]:
    lim = rs.natural_limit if limit is None else limit
    if not lim or h.halfmove(at) < lim:
        return None
    nl = _natural_limit(h, at, rs, lim)
    if not nl.reached:
        return None
    moves = lim // 2
    checks_en = f"checks: Red {nl.checks_red}, Black {nl.checks_black}; at most {rs.natural_limit_checks} " \
                f"checks by the claimant count"
    reason = (f"Draw by the natural limit: {nl.plies} plies ({nl.plies // 2} moves) without a capture, "
              f"{nl.counted} counted, limit {lim} plies ({moves} moves; {checks_en}) ({rs.title}).")
    reason_zh = (f"自然限着：连续{nl.plies}步（{nl.plies // 2}回合）未吃子，计{nl.counted}步，达到{moves}回合限着，"
                 f"和棋（将军：红{nl.checks_red}次，黑{nl.checks_black}次；提和方将军最多计{rs.natural_limit_checks}着）"
                 f"（{rs.title_zh}）")
    outcome = Outcome(Termination.NATURAL_LIMIT, winner=None, reason=reason, reason_zh=reason_zh)
    return Ruling(outcome=outcome, rules=rs, kind="natural_limit", ply=at, natural=nl)


def judge(board: BaseBoard, rules: Union[str, RuleSet, None] = None, *, count: Optional[int] = None,
          natural_limit: Optional[int] = None) -> Optional[Ruling]:
    """The repetition or natural-limit ruling at the board's current position, with its reasoning.

    Returns ``None`` while the game goes on by these rules. Checkmate and
    stalemate are :meth:`Board.outcome`'s business and are not looked at here.
    ``count`` overrides the rule set's repetition count, ``natural_limit`` its
    limit in plies (0 turns it off).

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> judge(board).winner, judge(board, count=4), judge(Board())
    (False, None, None)

    Raises:
        :class:`ValueError`: ``count`` is not 2 to 255, or ``rules`` names no rule set.
        :class:`TypeError`: as :func:`get_rules`.
    """
    rs = get_rules(rules)
    c = rs.repetition_count if count is None else count
    if not 2 <= c <= 255:
        raise ValueError(f"repetition count must be 2 to 255, not {count!r}")
    h = _hist(board)
    ruling = _repetition_ruling(h, h.n, rs, c)
    if ruling is not None:
        return ruling
    return _natural_ruling(h, h.n, rs, natural_limit)


def adjudicate(board: BaseBoard, rules: Union[str, RuleSet, None] = None, *, count: Optional[int] = None,
               natural_limit: Optional[int] = None) -> Optional[Outcome]:
    """The :class:`Outcome` by repetition or the natural limit, or ``None`` (``board.outcome()`` calls this).

    The default rule set is the Asian one (:data:`AXF`).

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> adjudicate(board).result(), adjudicate(board, "cxa").termination
    ('0-1', <Termination.PERPETUAL_CHECK: 3>)

    Raises:
        :class:`ValueError` or :class:`TypeError`: as :func:`judge`.
    """
    ruling = judge(board, rules, count=count, natural_limit=natural_limit)
    return None if ruling is None else ruling.outcome


def can_claim_draw(board: BaseBoard, rules: Union[str, RuleSet, None] = None) -> bool:
    """Whether a draw can be claimed now: the natural limit is reached, or the position repeats
    (the rule set's count) and neither side alone breaks the rules.

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> can_claim_draw(board), can_claim_draw(Board("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 120 80"))
    (False, True)

    Raises:
        :class:`ValueError` or :class:`TypeError`: as :func:`get_rules`.
    """
    rs = get_rules(rules)
    h = _hist(board)
    rep = _repetition_ruling(h, h.n, rs, rs.repetition_count)
    if rep is not None and rep.outcome.winner is None:
        return True
    return _natural_ruling(h, h.n, rs, None) is not None


# --------------------------------------------------------------------------- scanning a whole game

class Finding:
    """A ruling found by :func:`game_rulings`: its verdict at once, its words (:meth:`outcome`) and the full
    :class:`Ruling` (:meth:`ruling`) on demand, from the game it was found in (which must stay unchanged).

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 3: _ = board.push_iccs(text)
    >>> found = game_rulings(NativeHistory.of_board(board, 12), AXF)[1][0]
    >>> found.ply, found.first_ply, found.winner, found.termination.name, found.ruling().kind
    (8, 1, False, 'PERPETUAL_CHECK', 'repetition')
    """

    __slots__ = ("ply", "kind", "first_ply", "winner", "termination", "_h", "_rs", "_count", "_loops", "_ruling")

    def __init__(self, ply: int, kind: str, first_ply: int, winner: Optional[Color], termination: Termination,
                 h: Optional[NativeHistory] = None, rs: Optional[RuleSet] = None, count: int = 0,
                 ruling: Optional[Ruling] = None, loops: Optional[NativeLoops] = None) -> None:
        #: The position ruled on is the one after this many plies; ``"repetition"`` or ``"natural_limit"``.
        self.ply = ply
        self.kind = kind
        #: The loop's first ply (1-based).
        self.first_ply = first_ply
        #: The side the ruling awards the game to (``None``: a draw) and the termination.
        self.winner = winner
        self.termination = termination
        self._h, self._rs, self._count, self._loops = h, rs, count, loops
        self._ruling = ruling

    @classmethod
    def of(cls, ruling: Ruling) -> "Finding":
        """The finding of a ruling already made."""
        return cls(ruling.ply, ruling.kind, ruling.first_ply, ruling.outcome.winner, ruling.outcome.termination,
                   ruling=ruling)

    @property
    def last_ply(self) -> int:
        """The loop's last ply (the ruling's)."""
        return self.ply

    def outcome(self) -> Outcome:
        """The ruling's outcome (its words). A loss judged from the C summary is worded from the loser's
        moves alone; the history it came from must be unchanged."""
        h, rs, loops = self._h, self._rs, self._loops
        if self._ruling is not None or h is None or rs is None or loops is None or self.winner is None:
            return self.ruling().outcome
        loser = not self.winner
        start, at = self.first_ply - 1, self.ply
        sj = _side_judgement(loser, [], rs, loops.summary(at, loser))
        if not sj.forbidden or _termination(sj.pattern) is not self.termination:
            return self.ruling().outcome  # red must vary, or a loss that names the other side's joint chase
        moves = [f for f in _history_facts(h, start + 1, at, rs) if f.color == loser]
        sj = _side_judgement(loser, moves, rs, loops.summary(at, loser))
        return _loss_outcome(sj, sj, "forbidden", rs, _loop_words(h, at, rs, self._count, start), h)

    def ruling(self) -> Ruling:
        """The full ruling (computed once; the history it came from must be unchanged)."""
        if self._ruling is None:
            assert self._h is not None and self._rs is not None
            self._ruling = _repetition_ruling(self._h, self.ply, self._rs, self._count, self._loops)
            assert self._ruling is not None
        return self._ruling


def _scan(h: NativeHistory, rs: RuleSet, c: int, *, include_draws: bool, lim: int, every_ply: bool,
          end: Optional[int] = None, loops: Optional[NativeLoops] = None) -> List[Finding]:
    """The rulings of positions 1..``end`` (default: all) of a game, as :func:`scan_violations` returns them.

    A loop is judged from the C summary (:func:`_verdict`); the facts are read
    only for the rulings that are kept, when they are worded.
    """
    last = h.n if end is None else end
    targets: List[int] = []
    if 2 <= c <= 255:
        if loops is None:
            loops = h.repetition_loops(c, rs.facts_flags())
        if loops is not None and loops.suspects == 0 and not include_draws:
            targets = []  # every loop has an idle move on both sides: nothing to rule against anyone
        else:
            # Positions 1..last that occurred c times (from the loop records, or counted afresh when the C
            # core refused the history: each is then judged from its facts, which raises there).
            counts = loops.counts(last) if loops is not None else h.repetition_counts(last)
            targets = [j for j in range(1, last + 1) if counts[j] >= c]
    limit_ply = None
    if include_draws and lim:
        # The first position whose halfmove clock reaches the limit by the check-counting rule.
        for j in _limit_candidates(h, rs, lim):
            limit_ply = j
            break
        if limit_ply is not None and limit_ply > last:
            limit_ply = None
    if not targets and limit_ply is None:
        return []
    found: List[Finding] = []
    due = set(targets)
    for j in sorted(due | ({limit_ply} if limit_ply is not None else set())):
        if j in due:
            if loops is None:  # the C core refused the history
                raise_internal(-1, "xq_repetition_loops")
            verdict = _verdict(loops.summary(j, RED), loops.summary(j, BLACK), rs,
                               _early(h, j, rs, loops.count(j), c))
            if verdict is not None:
                loser, _why, term = verdict
                if include_draws or loser is not None:
                    found.append(Finding(j, "repetition", loops.loop_start(j) + 1,
                                         None if loser is None else not loser, term, h, rs, c, loops=loops))
                    continue
        if j == limit_ply:
            nr = _natural_ruling(h, j, rs, lim)
            if nr is not None:
                found.append(Finding.of(nr))
    if not every_ply:
        # One ruling per loop: a ruling whose loop overlaps the one reported before it, with the same
        # verdict, is the same repetition going on.
        kept: List[Finding] = []
        for r in found:
            prev = kept[-1] if kept else None
            if (prev is not None and r.kind == prev.kind == "repetition" and r.first_ply <= prev.ply
                    and r.winner == prev.winner and r.termination == prev.termination):
                continue
            kept.append(r)
        found = kept
    return found


def scan_violations(board_or_moves: Union[BaseBoard, Iterable[Union[Move, str, int]]],
                    rules: Union[str, RuleSet, None] = None, *, fen: str = STARTING_FEN,
                    count: Optional[int] = None, include_draws: bool = False,
                    natural_limit: Optional[int] = None, every_ply: bool = False) -> List[Ruling]:
    """Rulings the game should have received before it ended, with their plies.

    Takes a :class:`Board` (its move stack from its starting FEN) or a move
    sequence (``Move``, ICCS text or move codes, played from ``fen``). Every
    position where a repetition reached the count is judged; the rulings that
    end the game with a win (a side broke the rules and play went on) are
    returned in ply order. With ``include_draws`` the repetition draws and the
    first position past the natural limit are returned too. A ruling at the
    final position is included (play did not go on after it, but the game's
    recorded result may disagree). A loop that goes on is reported once, at
    the first ply where it could be ruled (``every_ply=True`` reports every
    such ply).

    Cheap when nothing repeats: one pass over the Zobrist keys in C; and when
    something does, every loop is first judged from a summary computed in C
    (``xq_repetition_loops``), so only the rulings returned are worded.

    >>> [ruling.ply for ruling in scan_violations(["a8a9", "e9e8", "a9a8", "e8e9"] * 3,
    ...                                           fen="4k4/R8/9/9/9/9/9/9/9/3K5 w")]
    [8]

    Raises:
        :class:`TypeError`: a move is neither a :class:`Move`, ICCS text nor a move code; or as :func:`get_rules`.
        :class:`InvalidMoveError` or :class:`IllegalMoveError`: a move of a sequence does not read or play.
        :class:`InvalidFenError`: ``fen`` cannot be read.
        :class:`ValueError`: ``rules`` names no rule set.
    """
    rs = get_rules(rules)
    c = rs.repetition_count if count is None else count
    if isinstance(board_or_moves, BaseBoard):
        game = board_or_moves
    else:
        game = BaseBoard(fen)
        for i, m in enumerate(board_or_moves):
            if isinstance(m, Move):
                game.push(m)
            elif isinstance(m, int):
                game.push_code(m)
            elif isinstance(m, str):
                game.push_iccs(m)
            else:
                raise TypeError(f"move {i + 1}: expected a Move, ICCS text or a move code, not {type(m).__name__}")
    lim = rs.natural_limit if natural_limit is None else natural_limit
    found = _scan(_hist(game), rs, c, include_draws=include_draws, lim=lim, every_ply=every_ply)
    return [f.ruling() for f in found]


def _limit_candidates(h: NativeHistory, rs: RuleSet, lim: int) -> Iterable[int]:
    """Plies whose position has a halfmove clock at or past ``lim`` and reaches the limit."""
    for j in range(h.n + 1):
        if h.halfmove(j) >= lim and _natural_limit(h, j, rs, lim).reached:
            yield j


def game_rulings(history: NativeHistory, rs: RuleSet,
                 loops: Optional[NativeLoops] = None) -> Tuple[Optional[Outcome], List[Finding]]:
    """Bulk validation's rulings of a replayed game: the outcome at its end by repetition or the natural limit
    (as :func:`adjudicate`), and the rulings with a loser before the end (as :func:`scan_violations`, without
    the final position).

    ``history`` is the replay's game as the C core keeps it, ``loops`` what ``xq_repetition_loops`` made of it
    (with ``rs.repetition_count`` and ``rs.facts_flags()``; computed here when ``None``). Neither a
    :class:`Board` nor the loop facts are built unless a ruling needs its words.

    >>> from xiangqi import Board
    >>> board = Board("4k4/R8/9/9/9/9/9/9/9/3K5 w")  # the red rook checks from a9 and a8, over and over
    >>> for text in ["a8a9", "e9e8", "a9a8", "e8e9"] * 2: _ = board.push_iccs(text)
    >>> outcome, found = game_rulings(NativeHistory.of_board(board, 8), AXF)
    >>> outcome.termination.name, found
    ('PERPETUAL_CHECK', [])

    Raises:
        :class:`InternalError`: the C core refuses the history (undo records that do not fit the position).
    """
    h, n, c = history, history.n, rs.repetition_count
    if loops is None:
        loops = h.repetition_loops(c, rs.facts_flags())
    outcome: Optional[Outcome] = None
    if loops is None:
        ruling = _repetition_ruling(h, n, rs, c)
        outcome = None if ruling is None else ruling.outcome
    elif loops.count(n) >= c:
        verdict = _verdict(loops.summary(n, RED), loops.summary(n, BLACK), rs, _early(h, n, rs, loops.count(n), c))
        if verdict is not None and verdict[1] in _PLAIN_DRAWS:
            outcome = _draw_outcome(*_PLAIN_DRAWS[verdict[1]], rs, _loop_words(h, n, rs, c, loops.loop_start(n)))
        elif verdict is not None:
            ruling = _repetition_ruling(h, n, rs, c, loops)
            outcome = None if ruling is None else ruling.outcome
    if outcome is None:
        nr = _natural_ruling(h, n, rs, None)
        outcome = None if nr is None else nr.outcome
    found = _scan(h, rs, c, include_draws=False, lim=rs.natural_limit, every_ply=False, end=n - 1,
                  loops=loops) if loops is None or loops.suspects != 0 else []
    return outcome, found
