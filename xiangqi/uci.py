"""The UCI and UCCI line grammar: the one reader and writer of ``go``, ``option``, ``setoption``, ``position``,
``info`` and ``bestmove`` lines, used by the engine client (:mod:`xiangqi.engine`) and by our engine
(:mod:`xiangqi.engine_server`).

It works on words and text only (moves stay ICCS text): the client turns them into :class:`~xiangqi.Move`, the
engine into its search limits. Times are milliseconds here; on the wire UCI writes milliseconds and UCCI seconds,
unless the engine has been told ``setoption usemillisec true`` (:func:`time_unit_ms`).

>>> go = parse_go("wtime 60000 btime 50000 winc 1000 binc 1000".split(), red=False)
>>> go.red_time, go.black_time, go.line(ucci=True, red=False)
(60000, 50000, 'go time 50 increment 1 opptime 60 oppincrement 1')
>>> parse_info_words("depth 3 score cp 12 time 5 pv h2e2 h9g7".split())
{'depth': 3, 'score': ('cp', 12), 'time': 5, 'pv': ['h2e2', 'h9g7']}
>>> Option("Hash", "spin", "16", 0, 4096).line(ucci=False)
'option name Hash type spin default 16 min 0 max 4096'
"""

from __future__ import annotations

import dataclasses
import math
from typing import Dict, List, Optional, Sequence, Tuple, TypedDict, Union

from xiangqi.errors import ProtocolError

__all__ = [
    "OptionValue", "Option", "parse_option", "setoption_line", "parse_setoption", "Go", "parse_go", "time_unit_ms",
    "MAX_GO_VALUE", "InfoWords", "parse_info_words", "info_line", "INFO_WORDS", "BestMoveWords", "parse_bestmove",
    "bestmove_line", "position_line", "parse_position", "NULL_MOVE_WORDS", "HANDSHAKE_OK", "MILLISEC_OPTION",
    "BESTMOVE_WORDS", "is_bestmove", "ENGINE_LINE_WORDS",
]

#: The handshake command (``uci``, ``ucci``) and the engine's word that ends its answer.
HANDSHAKE_OK: Dict[str, str] = {"uci": "uciok", "ucci": "ucciok"}
#: UCCI's option that makes the ``go`` times milliseconds instead of seconds.
MILLISEC_OPTION = "usemillisec"
#: The first words of a search's last line: a move (or UCI's ``(none)``), or UCCI's no move.
BESTMOVE_WORDS = ("bestmove", "nobestmove")
#: The first words of the lines an engine writes in the protocol; anything else it writes is its own words.
ENGINE_LINE_WORDS = ("info", *BESTMOVE_WORDS, "readyok", "id ", "option ", *HANDSHAKE_OK.values(), "bye",
                     "copyprotection", "registration", "Nodes searched")

#: A value for an option: ``None`` presses a button.
OptionValue = Union[str, int, bool, None]


def time_unit_ms(*, ucci: bool, millisec: bool = False) -> int:
    """Milliseconds in one unit of a ``go`` time word: UCCI counts seconds unless ``usemillisec`` is on.

    >>> time_unit_ms(ucci=False), time_unit_ms(ucci=True), time_unit_ms(ucci=True, millisec=True)
    (1, 1000, 1)
    """
    return 1000 if ucci and not millisec else 1


def _int(text: str) -> Optional[int]:
    try:
        return int(text)
    except ValueError:
        return None


# ------------------------------------------------------------------------------------------------- options

_OPTION_KEYWORDS = ("type", "default", "min", "max", "var")


@dataclasses.dataclass
class Option:
    """An engine option as the engine declared it (``option name … type …``, or UCCI's ``option … type …``).

    >>> Option("Hash", "spin", "16", 1, 4096).value_text(64)
    '64'

    Raises:
        * :exc:`ValueError` from :meth:`value_text` for a value that does not fit the declaration.
    """

    name: str
    type: str
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    var: List[str] = dataclasses.field(default_factory=list)

    def value_text(self, value: OptionValue) -> Optional[str]:
        """The text to send for ``value``, checked against the declaration (``ValueError`` if it does not fit).

        >>> Option("Ponder", "check").value_text(True), Option("Clear Hash", "button").value_text(None)
        ('true', None)
        >>> Option("Hash", "spin", "16", 1, 4096).value_text(0)
        Traceback (most recent call last):
        ...
        ValueError: option 'Hash' must be between 1 and 4096, not 0

        Raises:
            * :exc:`ValueError` for a value that does not fit: a value for a button, none for another type,
              a non-boolean for a check box, a non-integer or out-of-range number for a spin, a choice
              outside a combo's.
        """
        if self.type == "button":
            if value not in (None, True, ""):
                raise ValueError(f"option {self.name!r} is a button: pass None to press it, not {value!r}")
            return None
        if value is None:
            raise ValueError(f"option {self.name!r} ({self.type}) needs a value")
        if self.type == "check":
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower()
            if not isinstance(value, bool):
                raise ValueError(f"option {self.name!r} is a check box: pass True or False, not {value!r}")
            return "true" if value else "false"
        if self.type == "spin":
            try:
                n = int(value)
            except ValueError:
                raise ValueError(f"option {self.name!r} is a spin: pass an integer, not {value!r}") from None
            if (self.min is not None and n < self.min) or (self.max is not None and n > self.max):
                raise ValueError(f"option {self.name!r} must be between {self.min} and {self.max}, not {n}")
            return str(n)
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if self.type == "combo" and self.var:
            match = next((v for v in self.var if v.lower() == text.lower()), None)
            if match is None:
                raise ValueError(f"option {self.name!r} must be one of {', '.join(self.var)}, not {text!r}")
            return match
        return text

    def line(self, *, ucci: bool) -> str:
        """The engine's declaration of the option (UCI: ``option name …``; UCCI: ``option <name> …``).

        >>> Option("hashsize", "spin", "16", 0, 4096).line(ucci=True)
        'option hashsize type spin default 16 min 0 max 4096'
        >>> Option("Rules", "combo", "axf", var=["axf", "cxa"]).line(ucci=False)
        'option name Rules type combo default axf var axf var cxa'
        """
        words = ["option"] + ([] if ucci else ["name"]) + [self.name, "type", self.type]
        if self.default is not None:
            words += ["default", self.default if self.default != "" else "<empty>"]
        if self.min is not None:
            words += ["min", str(self.min)]
        if self.max is not None:
            words += ["max", str(self.max)]
        for v in self.var:
            words += ["var", v]
        return " ".join(words)


def parse_option(tokens: Sequence[str], *, ucci: bool) -> Optional[Option]:
    """An :class:`Option` from the words after ``option`` (UCI: ``name <words> type …``; UCCI: ``<name> type …``).

    Returns ``None`` for words it cannot read (no name, no type).

    >>> parse_option("name Clear Hash type button".split(), ucci=False)
    Option(name='Clear Hash', type='button', default=None, min=None, max=None, var=[])
    >>> parse_option("usemillisec type check default false".split(), ucci=True).default
    'false'
    >>> parse_option("name Hash".split(), ucci=False) is None
    True
    """
    toks = list(tokens)
    if not toks:
        return None
    if toks[0] == "name" or not ucci:
        if toks[0] != "name":
            return None
        toks = toks[1:]
    try:
        t = toks.index("type")
    except ValueError:
        return None
    name = " ".join(toks[:t])
    if not name:
        return None
    fields: Dict[str, List[str]] = {}
    var: List[str] = []
    key: Optional[str] = None
    current: List[str] = []

    def close() -> None:
        if key == "var":
            var.append(" ".join(current))
        elif key is not None:
            fields[key] = current

    for word in toks[t:]:
        if word in _OPTION_KEYWORDS:
            close()
            key, current = word, []
        else:
            current.append(word)
    close()
    type_ = " ".join(fields.get("type", [])).lower()
    default = fields.get("default")
    default_text = None if default is None else " ".join(default)
    if default_text == "<empty>":
        default_text = ""
    lo = _int(" ".join(fields.get("min", []))) if "min" in fields else None
    hi = _int(" ".join(fields.get("max", []))) if "max" in fields else None
    return Option(name, type_, default_text, lo, hi, var)


def setoption_line(name: str, value: Optional[str], *, ucci: bool) -> str:
    """``setoption name N value V`` (UCI) or ``setoption N V`` (UCCI); no value presses a button.

    >>> setoption_line("Hash", "64", ucci=False), setoption_line("newgame", None, ucci=True)
    ('setoption name Hash value 64', 'setoption newgame')
    """
    if ucci:
        return f"setoption {name}" + ("" if value is None else f" {value}")
    return f"setoption name {name}" + ("" if value is None else f" value {value}")


def parse_setoption(words: Sequence[str]) -> Tuple[str, str]:
    """(name, value) from the words after ``setoption``, in either syntax (``value`` is ``""`` for a button).

    >>> parse_setoption("name Clear Hash".split()), parse_setoption("hashsize 8".split())
    (('Clear Hash', ''), ('hashsize', '8'))

    Raises:
        * :exc:`~xiangqi.errors.ProtocolError` when there is no name.
    """
    args = list(words)
    if args and args[0] == "name":
        rest = args[1:]
        if "value" in rest:
            at = rest.index("value")
            name, value = " ".join(rest[:at]), " ".join(rest[at + 1:])
        else:
            name, value = " ".join(rest), ""
    elif args:
        name, value = args[0], " ".join(args[1:])
    else:
        name = value = ""
    if not name:
        raise ProtocolError("setoption: missing option name")
    return name, value


# ------------------------------------------------------------------------------------------------- go

#: The largest count or time (milliseconds) a ``go`` word may give: larger ones mean nothing to a search, and
#: refusing them keeps every value in C's range.
MAX_GO_VALUE = 10 ** 15

_GO_FLAGS = ("infinite", "ponder", "draw")
_GO_COUNTS = ("depth", "nodes", "mate", "perft", "movestogo", "oppmovestogo")
_GO_TIMES = ("movetime", "wtime", "btime", "winc", "binc", "time", "increment", "opptime", "oppincrement")


@dataclasses.dataclass
class Go:
    """The limits of one ``go`` command, times in milliseconds and clocks by colour.

    >>> Go(movetime=250, depth=9).line(ucci=False), Go().line(ucci=True)
    ('go movetime 250 depth 9', 'go infinite')
    """

    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    movetime: Optional[int] = None
    red_time: Optional[int] = None
    black_time: Optional[int] = None
    red_inc: Optional[int] = None
    black_inc: Optional[int] = None
    movestogo: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    #: UCCI's ``go draw``: the opponent offers a draw.
    draw: bool = False
    perft: Optional[int] = None
    searchmoves: List[str] = dataclasses.field(default_factory=list)

    def clock(self, red: bool) -> Tuple[Optional[int], Optional[int]]:
        """The side to move's time left and increment (milliseconds), for ``red`` or Black to move.

        >>> Go(red_time=5000, black_time=3000, black_inc=100).clock(False)
        (3000, 100)
        """
        return (self.red_time, self.red_inc) if red else (self.black_time, self.black_inc)

    def is_unbounded(self) -> bool:
        """No limit that ends the search by itself (``go``, ``go infinite``, ``go ponder``, ``searchmoves`` only).

        >>> Go().is_unbounded(), Go(depth=3).is_unbounded(), Go(movetime=5, ponder=True).is_unbounded()
        (True, False, True)
        """
        if self.infinite or self.ponder:
            return True
        return (self.depth is None and self.nodes is None and self.mate is None and self.movetime is None
                and self.red_time is None and self.black_time is None and self.perft is None)

    def line(self, *, ucci: bool, millisec: bool = False, red: bool = True) -> str:
        """The ``go`` line: UCI's ``movetime``/``wtime``/``btime``, or UCCI's ``time``/``increment``/``opptime``
        for ``red`` (or Black) to move, in seconds unless ``millisec`` (UCCI has no ``movetime``: it is the
        clock for one move, whole seconds rounded up).

        >>> Go(movetime=300).line(ucci=True), Go(movetime=300).line(ucci=True, millisec=True)
        ('go time 1 movestogo 1', 'go time 300 movestogo 1')

        Raises:
            * :exc:`ValueError` for ``mate`` in UCCI, which has no ``go mate``.
        """
        parts = ["go"]
        if self.ponder:
            parts.append("ponder")
        if ucci:
            if self.mate is not None:
                raise ValueError("UCCI has no 'go mate'; use depth, nodes or time")
            unit = time_unit_ms(ucci=True, millisec=millisec)

            def t(ms: int, least: int = 1) -> str:
                return str(ms if unit == 1 else max(least, ms // unit))

            for key, count in (("depth", self.depth), ("nodes", self.nodes)):
                if count is not None:
                    parts += [key, str(count)]
            if self.movetime is not None:
                parts += ["time", str(self.movetime if unit == 1 else max(1, -(-self.movetime // unit))),
                          "movestogo", "1"]
            else:
                own, own_inc = self.clock(red)
                opp, opp_inc = self.clock(not red)
                for (clock, inc), words in (((own, own_inc), ("time", "movestogo", "increment")),
                                            ((opp, opp_inc), ("opptime", "oppmovestogo", "oppincrement"))):
                    if clock is None:
                        continue
                    parts += [words[0], t(clock)]
                    if self.movestogo is not None:
                        parts += [words[1], str(self.movestogo)]
                    elif inc is not None:
                        parts += [words[2], t(inc, 0)]
            if self.draw:
                parts.append("draw")
        else:
            if self.movetime is not None:
                parts += ["movetime", str(self.movetime)]
            for key, count in (("depth", self.depth), ("nodes", self.nodes), ("mate", self.mate)):
                if count is not None:
                    parts += [key, str(count)]
            for key, ms in (("wtime", self.red_time), ("btime", self.black_time), ("winc", self.red_inc),
                            ("binc", self.black_inc)):
                if ms is not None:
                    parts += [key, str(ms)]
            if self.movestogo is not None:
                parts += ["movestogo", str(self.movestogo)]
        if self.perft is not None:
            parts += ["perft", str(self.perft)]
        if self.infinite or len(parts) == 1:
            parts.append("infinite")
        if self.searchmoves:
            parts += ["searchmoves", *self.searchmoves]
        return " ".join(parts)


def _go_number(words: Sequence[str], i: int, name: str, *, least: int) -> int:
    if i >= len(words):
        raise ProtocolError(f"go {name}: missing value")
    text = words[i]
    value = _int(text)
    if value is None:
        try:   # "1e13", "2.5": a time written as a decimal
            number = float(text)
        except ValueError:
            number = math.nan
        if name in _GO_COUNTS or not math.isfinite(number):
            raise ProtocolError(f"go {name}: expected a whole number, not {text!r}")
        value = int(min(max(number, -MAX_GO_VALUE - 1), MAX_GO_VALUE + 1))
    if name in _GO_TIMES:
        value = max(value, 0)   # a clock run past zero (as some GUIs send it) is 0
    if not least <= value <= MAX_GO_VALUE:
        raise ProtocolError(f"go {name}: must be from {least} to {MAX_GO_VALUE}, not {value}")
    return value


def parse_go(words: Sequence[str], *, red: bool, millisec: bool = False) -> Go:
    """A :class:`Go` from the words after ``go``, in UCI or UCCI (both are read): UCCI's ``time``/``opptime``
    are the clocks of the side to move (``red`` or Black) and its opponent, in seconds unless ``millisec``.

    Times below zero read as zero; a time may be written as a decimal (``1e13``).

    >>> parse_go("time 3 increment 1 opptime 4".split(), red=False, millisec=False)
    Go(depth=None, nodes=None, mate=None, movetime=None, red_time=4000, black_time=3000, red_inc=None, black_inc=1000, movestogo=None, infinite=False, ponder=False, draw=False, perft=None, searchmoves=[])
    >>> parse_go("depth 0".split(), red=True)
    Traceback (most recent call last):
    ...
    xiangqi.errors.ProtocolError: go depth: must be from 1 to 1000000000000000, not 0

    Raises:
        * :exc:`~xiangqi.errors.ProtocolError` for an unknown word, a missing or unreadable number, or a depth,
          node or mate count below 1.
    """
    go = Go()
    values: Dict[str, int] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in _GO_FLAGS:
            setattr(go, word, True)
        elif word == "searchmoves":
            go.searchmoves = list(words[i + 1:])
            break
        elif word in _GO_COUNTS or word in _GO_TIMES:
            values[word] = _go_number(words, i + 1, word, least=1 if word in ("depth", "nodes", "mate") else 0)
            i += 1
        else:
            raise ProtocolError(f"go: unknown parameter {word!r}")
        i += 1
    go.depth, go.nodes, go.mate, go.perft = (values.get(k) for k in ("depth", "nodes", "mate", "perft"))
    go.movetime = values.get("movetime")
    go.red_time, go.black_time = values.get("wtime"), values.get("btime")
    go.red_inc, go.black_inc = values.get("winc"), values.get("binc")
    go.movestogo = values.get("movestogo") or None
    unit = time_unit_ms(ucci=True, millisec=millisec)
    for clock, increment, colour in ((values.get("time"), values.get("increment"), red),
                                     (values.get("opptime"), values.get("oppincrement"), not red)):
        if clock is None:
            continue
        clock_ms = min(clock * unit, MAX_GO_VALUE)
        inc_ms = None if increment is None else min(increment * unit, MAX_GO_VALUE)
        if colour:
            go.red_time, go.red_inc = clock_ms, inc_ms
        else:
            go.black_time, go.black_inc = clock_ms, inc_ms
    return go


# ------------------------------------------------------------------------------------------------- info

_INFO_INT = ("depth", "seldepth", "nodes", "nps", "multipv", "currmovenumber", "hashfull", "tbhits", "time")
#: The words that begin a field of an ``info`` line (a ``pv`` runs until the next of them).
INFO_WORDS = frozenset(_INFO_INT + ("score", "pv", "currmove", "string", "message", "wdl", "refutation", "currline",
                                    "cpuload", "lowerbound", "upperbound", "sbhits"))


class InfoWords(TypedDict, total=False):
    """An ``info`` line's fields as written: numbers, ``time`` in milliseconds, moves as text, and the score as
    (``"cp"``, ``"mate"`` or ``""`` for UCCI's bare number, value).

    >>> InfoWords(depth=2, score=("", 25), pv=["h2e2"]) == parse_info_words("depth 2 score 25 pv h2e2".split())
    True
    """

    depth: int
    seldepth: int
    nodes: int
    nps: int
    time: int
    multipv: int
    currmovenumber: int
    hashfull: int
    tbhits: int
    score: Tuple[str, int]
    lowerbound: bool
    upperbound: bool
    pv: List[str]
    currmove: str
    string: str


def parse_info_words(tokens: Sequence[str]) -> InfoWords:
    """The fields of the words after ``info``; what cannot be read is skipped, never raised.

    UCCI's ``message`` is read as ``string``.

    >>> parse_info_words("depth x score mate -2 lowerbound nodes 5 string hi there".split())
    {'score': ('mate', -2), 'lowerbound': True, 'nodes': 5, 'string': 'hi there'}
    """
    info = InfoWords()
    n = len(tokens)
    i = 0
    while i < n:
        key = tokens[i]
        i += 1
        if key in _INFO_INT:
            if i < n and (v := _int(tokens[i])) is not None:
                info[key] = v  # type: ignore[literal-required]
                i += 1
        elif key == "score":
            kind = ""
            if i < n and tokens[i] in ("cp", "mate"):
                kind = tokens[i]
                i += 1
            if i < n and (v := _int(tokens[i])) is not None:
                info["score"] = (kind, v)
                i += 1
                if i < n and tokens[i] in ("lowerbound", "upperbound"):
                    info[tokens[i]] = True  # type: ignore[literal-required]
                    i += 1
        elif key == "pv":
            j = i
            while j < n and tokens[j] not in INFO_WORDS:
                j += 1
            info["pv"] = list(tokens[i:j])
            i = j
        elif key == "currmove":
            if i < n:
                info["currmove"] = tokens[i]
                i += 1
        elif key in ("string", "message"):
            info["string"] = " ".join(tokens[i:])
            break
    return info


def info_line(info: InfoWords, *, ucci: bool) -> str:
    """An ``info`` line from its fields, in a fixed order; UCCI writes a centipawn score bare (``score 12``) and
    its ``string`` as ``message``, and both write a mate as ``score mate N``, as Fairy-Stockfish does (a bare mate
    value would read as centipawns).

    >>> info_line({"depth": 2, "score": ("cp", 12), "nodes": 40, "time": 3, "pv": ["h2e2", "h9g7"]}, ucci=True)
    'info depth 2 score 12 nodes 40 time 3 pv h2e2 h9g7'
    >>> info_line({"depth": 1, "score": ("mate", 1)}, ucci=False)
    'info depth 1 score mate 1'
    """
    words = ["info"]
    for key in ("depth", "seldepth", "multipv", "score", "nodes", "nps", "time", "hashfull", "currmove",
                "currmovenumber", "pv", "string"):
        if key not in info:
            continue
        if key == "score":
            kind, n = info["score"]
            kind = "" if ucci and kind == "cp" else (kind or "cp")
            words += ["score", *([kind] if kind else []), str(n)]
            words += [bound for bound in ("lowerbound", "upperbound") if info.get(bound)]
        elif key == "pv":
            words += ["pv", *info["pv"]] if info["pv"] else []
        elif key == "string":
            words += ["message" if ucci else "string", " ".join(info["string"].split())]
        else:
            words += [key, str(info[key])]
    return " ".join(words)


# ------------------------------------------------------------------------------------------------- bestmove

#: The words an engine writes for "no move" in place of a best move.
NULL_MOVE_WORDS = ("(none)", "0000", "none")


def is_bestmove(words: Sequence[str]) -> bool:
    """Whether a line's words end a search (``bestmove …`` or ``nobestmove``).

    >>> is_bestmove(["nobestmove"]), is_bestmove("bestmove h2e2".split()), is_bestmove(["info", "depth", "1"])
    (True, True, False)
    """
    return bool(words) and words[0] in BESTMOVE_WORDS


@dataclasses.dataclass
class BestMoveWords:
    """A ``bestmove``/``nobestmove`` line as written: the move and ponder move as text (``None``: no move), and
    UCCI's ``draw`` and ``resign`` words.

    >>> parse_bestmove("bestmove h2e2 ponder h9g7 draw".split())
    BestMoveWords(move='h2e2', ponder='h9g7', draw=True, resign=False)
    """

    move: Optional[str]
    ponder: Optional[str] = None
    draw: bool = False
    resign: bool = False


def parse_bestmove(words: Sequence[str]) -> BestMoveWords:
    """The words of a ``bestmove`` line (``nobestmove`` and ``bestmove (none)`` have no move).

    >>> parse_bestmove(["nobestmove"]).move, parse_bestmove("bestmove (none)".split()).move
    (None, None)
    """
    if not words or words[0] != BESTMOVE_WORDS[0] or len(words) < 2 or words[1] in NULL_MOVE_WORDS:
        return BestMoveWords(None)
    ponder = words[3] if len(words) >= 4 and words[2] == "ponder" else None
    return BestMoveWords(words[1], ponder, "draw" in words[2:], "resign" in words[2:])


def bestmove_line(move: Optional[str], ponder: Optional[str] = None, *, ucci: bool) -> str:
    """``bestmove M [ponder P]``; no move is ``nobestmove`` in UCCI and ``bestmove (none)`` in UCI.

    >>> bestmove_line("h2e2", "h9g7", ucci=False), bestmove_line(None, ucci=True), bestmove_line(None, ucci=False)
    ('bestmove h2e2 ponder h9g7', 'nobestmove', 'bestmove (none)')
    """
    if move is None:
        return "nobestmove" if ucci else "bestmove (none)"
    return f"bestmove {move}" + (f" ponder {ponder}" if ponder else "")


# ------------------------------------------------------------------------------------------------- position


def position_line(fen: str, moves: Sequence[str] = ()) -> str:
    """``position fen F [moves …]`` (the same in UCI and UCCI).

    >>> position_line("4k4/9/9/9/9/9/9/9/9/4K4 w", ["e0d0"])
    'position fen 4k4/9/9/9/9/9/9/9/9/4K4 w moves e0d0'
    """
    return f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")


def parse_position(words: Sequence[str]) -> Tuple[Optional[str], List[str]]:
    """(FEN, moves) from the words after ``position``; the FEN is ``None`` for ``startpos``.

    >>> parse_position("startpos moves h2e2".split()), parse_position("fen 4k4/9/9/9/9/9/9/9/9/4K4 w".split())
    ((None, ['h2e2']), ('4k4/9/9/9/9/9/9/9/9/4K4 w', []))

    Raises:
        * :exc:`~xiangqi.errors.ProtocolError` when neither ``startpos`` nor ``fen <FEN>`` begins the words.
    """
    args = list(words)
    if not args:
        raise ProtocolError("position: expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'")
    at = args.index("moves") if "moves" in args else len(args)
    head, moves = args[:at], args[at + 1:]
    if head == ["startpos"]:
        return None, moves
    if head[0] == "fen" and len(head) > 1:
        return " ".join(head[1:]), moves
    raise ProtocolError(f"position: expected 'startpos' or 'fen <FEN>', not {' '.join(head)[:100]!r}")
