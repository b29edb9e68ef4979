"""Rule sets as data: the Asian (:data:`AXF`) and Chinese (:data:`CXA`) rule books as :class:`RuleSet` values,
their names, and the flags the C core reads from them. :mod:`xiangqi.rules` applies them (and re-exports
every name here).

>>> get_rules("chinese").mate_threats, rule_set_name("Asia"), sorted(RULE_SETS)
(True, 'axf', ['axf', 'cxa'])
"""

from __future__ import annotations

import dataclasses
from typing import Dict, Optional, Union

from xiangqi._ffi.rules import FACTS_CXA, FACTS_KILL, RULE_JOINT, RULE_MIXED, RULE_SAME_VICTIM

__all__ = [
    "RuleSet", "AXF", "CXA", "RULE_SETS", "RULE_SET_NAMES", "DEFAULT_RULES", "get_rules", "rule_set_name",
    "rules_spec", "red_must_vary_rounds",
]


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """A rule book as data: what the verdict logic reads.

    Use :func:`dataclasses.replace` to derive a variant, e.g.
    ``dataclasses.replace(AXF, natural_limit=100)``.

    >>> import dataclasses
    >>> quick = dataclasses.replace(AXF, repetition_count=2)
    >>> quick.name, quick.repetition_count, CXA.mate_threats
    ('axf', 2, True)
    """

    #: Short name: ``"axf"`` or ``"cxa"``.
    name: str
    #: Human name for reasons (English).
    title: str
    #: Human name for reasons (Chinese).
    title_zh: str
    #: Occurrences of a position that make it adjudicable (third by default).
    repetition_count: int = 3
    #: Mate threats (杀) are judged (and are forbidden when perpetual or mixed with other attacks).
    mate_threats: bool = False
    #: Depth of the mate-threat search, in the mover's checking moves (1-7).
    mate_threat_depth: int = 3
    #: Checks and chases mixed in one cycle (一将一捉) are forbidden.
    mixed_attacks_forbidden: bool = False
    #: A perpetual chase must chase one and the same piece on every move (AXF);
    #: otherwise chasing any piece(s) on every move is 长捉 (CXA 24.11).
    chase_needs_same_victim: bool = True
    #: Chinese rules' chase extras: exchange gain (少根), no chase that is mated at once, hidden protection.
    chinese_chase: bool = False
    #: CXA 棋例通则 九 (2)(3): 长捉车 vs 联合捉车 and 长捉无根子 vs 联合捉无根子 when both sides are forbidden.
    joint_chase_exceptions: bool = False
    #: Natural limit in plies without a capture (0 turns it off).
    natural_limit: int = 120
    #: Checks by the claiming side that count within the natural limit.
    natural_limit_checks: int = 10
    #: CXA #03 三: in a game from the opening position, a repetition both sides may continue (a draw by
    #: the other rules) within this many rounds must be varied by Red ("由红方变着，不变判负"): the game
    #: goes on at the occurrence that would draw, and Red loses when the cycle repeats once more (the
    #: text's "计3个循环"; see the rulings tutorial). Games set up from another position have no real
    #: opening and are not concerned. 0 turns it off (the Asian rules); the Chinese rules use 25.
    red_must_vary_rounds: int = 0

    def facts_flags(self) -> int:
        """The C flags for :c:func:`xq_history_facts` under these rules.

        >>> AXF.facts_flags() == 0, CXA.facts_flags() != 0
        (True, True)
        """
        flags = 0
        if self.chinese_chase:
            flags |= FACTS_CXA
        if self.mate_threats:
            flags |= FACTS_KILL | (max(1, min(7, self.mate_threat_depth)) << 8)
        if self.red_must_vary_rounds > 0:
            flags |= min(255, self.red_must_vary_rounds) << 16  # XQ_FACTS_EARLY_ROUNDS
        return flags

    def verdict_flags(self) -> int:
        """The C ``XQ_RULE_*`` bits of :c:func:`xq_loop_verdict` under these rules.

        >>> AXF.verdict_flags() != CXA.verdict_flags()
        True
        """
        flags = 0
        if self.mixed_attacks_forbidden:
            flags |= RULE_MIXED
        if self.chase_needs_same_victim:
            flags |= RULE_SAME_VICTIM
        if self.joint_chase_exceptions:
            flags |= RULE_JOINT
        return flags


#: The Asian Xiangqi Federation rules (the default).
AXF = RuleSet(name="axf", title="Asian rules", title_zh="亚洲规则")
#: The Chinese Xiangqi Association rules (2020 text).
CXA = RuleSet(
    name="cxa", title="Chinese rules", title_zh="中国规则", mate_threats=True, mixed_attacks_forbidden=True,
    chase_needs_same_victim=False, chinese_chase=True, joint_chase_exceptions=True, red_must_vary_rounds=25,
)
RULE_SETS: Dict[str, RuleSet] = {"axf": AXF, "cxa": CXA}  #: The rule sets by name.
#: The rule set used when none is named.
DEFAULT_RULES = "axf"

#: Every name a rule set goes by (lower case), and the rule set it names: the one table of rule-set names.
RULE_SET_NAMES: Dict[str, str] = {"axf": "axf", "asian": "axf", "asia": "axf", "cxa": "cxa", "chinese": "cxa",
                                  "china": "cxa"}


#: The options a rule-set name may carry after a colon (``"cxa:red-must-vary=0"``).
_NAME_OPTIONS = ("red-must-vary",)


def rule_set_name(rules: str) -> str:
    """The rule set (``"axf"`` or ``"cxa"``) a name stands for (:data:`RULE_SET_NAMES`, any case), with the
    options it carries (see :func:`rules_spec`).

    >>> rule_set_name("Asia"), rule_set_name("chinese"), rule_set_name("China:Red-Must-Vary=0")
    ('axf', 'cxa', 'cxa:red-must-vary=0')

    Raises:
        :class:`ValueError`: ``rules`` is not a name of :data:`RULE_SET_NAMES` (or not a :class:`str`), or
        carries an option that is not ``red-must-vary=ROUNDS`` (0 to 255).
    """
    base, sep, options = rules.strip().lower().partition(":") if isinstance(rules, str) else ("", "", "")
    key = RULE_SET_NAMES.get(base.strip())
    if key is None:
        raise ValueError(f"unknown rule set {rules!r}: expected 'axf' (Asian) or 'cxa' (Chinese)")
    if not sep:
        return key
    name, _eq, value = options.strip().partition("=")
    if name.strip() not in _NAME_OPTIONS or not value.strip().isdigit() or int(value) > 255:
        raise ValueError(f"rule set {rules!r}: the option after ':' must be red-must-vary=ROUNDS (0 to 255)")
    return f"{key}:{name.strip()}={int(value)}"


def red_must_vary_rounds(text: str) -> int:
    """The rounds of a ``--red-must-vary`` option (0 to 255; 0 turns the rule off): the commands' argparse type.

    >>> red_must_vary_rounds("25")
    25

    Raises:
        :class:`ValueError`: ``text`` is not a whole number from 0 to 255.
    """
    value = int(text)
    if not 0 <= value <= 255:
        raise ValueError(f"red-must-vary rounds must be 0 to 255, not {value}")
    return value


def rules_spec(rules: str, *, red_must_vary: Optional[int] = None) -> str:
    """A rule-set name carrying options, as the commands pass rules on (to worker processes too):
    ``red_must_vary`` sets :attr:`RuleSet.red_must_vary_rounds` (``None``: the rule set's own).

    >>> rules_spec("cxa", red_must_vary=0), rules_spec("axf"), get_rules("axf:red-must-vary=25").red_must_vary_rounds
    ('cxa:red-must-vary=0', 'axf', 25)
    >>> rules_spec("cxa", red_must_vary=-1)
    Traceback (most recent call last):
    ...
    ValueError: red-must-vary rounds must be 0 to 255, not -1

    Raises:
        :class:`ValueError`: as :func:`rule_set_name`, or ``red_must_vary`` is not 0 to 255.
    """
    key = rule_set_name(rules).partition(":")[0]
    if red_must_vary is None:
        return key
    return f"{key}:red-must-vary={red_must_vary_rounds(str(red_must_vary))}"


def get_rules(rules: Union[str, RuleSet, None] = None) -> RuleSet:
    """The :class:`RuleSet` for a name (``axf``/``asian``, ``cxa``/``chinese``) or a rule set itself
    (``None``: :data:`DEFAULT_RULES`).

    >>> get_rules("Chinese") is CXA, get_rules() is AXF, get_rules(CXA) is CXA
    (True, True, True)

    Raises:
        :class:`ValueError`: ``rules`` names no rule set.
        :class:`TypeError`: ``rules`` is neither a name, a :class:`RuleSet` nor ``None``.
    """
    if rules is None:
        return RULE_SETS[DEFAULT_RULES]
    if isinstance(rules, RuleSet):
        return rules
    if not isinstance(rules, str):
        raise TypeError(f"rules must be a name or a RuleSet, not {type(rules).__name__}")
    name = rule_set_name(rules)
    found = RULE_SETS.get(name) or _VARIANTS.get(name)
    if found is None:
        key, _sep, option = name.partition(":")  # the one option: red-must-vary=ROUNDS
        found = _VARIANTS[name] = dataclasses.replace(RULE_SETS[key], red_must_vary_rounds=int(option.split("=")[1]))
    return found


#: Rule sets named with options (``"cxa:red-must-vary=0"``), made once each.
_VARIANTS: Dict[str, RuleSet] = {}
