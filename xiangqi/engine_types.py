"""What an engine conversation carries, with no process or event loop: the protocol's :class:`Dialect`, a
search's :class:`Limit`, what it reports (:class:`InfoDict`, read from ``info`` lines by :func:`parse_info`) and how
it ends (:class:`PlayResult`, :class:`BestMove`), and the infos of a running search (:class:`RunningSearch`).

The protocols (:mod:`xiangqi.engine_protocol`, :mod:`xiangqi.xboard`) and the engine client
(:mod:`xiangqi.engine`, which exports every name here) share them.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Callable, Dict, List, Optional, Sequence, Set, TypedDict, Union

from xiangqi.board import Board
from xiangqi.core import BLACK, RED, Color, Move
from xiangqi.scores import UCCI_MATE_VALUE, Cp, Mate, PovScore, bare_score
from xiangqi.uci import INFO_WORDS, Go, InfoWords, parse_info_words

__all__ = [
    "Dialect", "Limit", "InfoDict", "PlayResult", "BestMove", "RunningSearch", "parse_info", "parse_moves",
    "FEN_LETTERS", "with_fen_letters",
]


class Dialect(enum.Enum):
    """How an engine writes moves and which protocol it speaks.

    >>> Dialect("uci-one-based"), Dialect.UCCI.value
    (<Dialect.UCI_ONE_BASED: 'uci-one-based'>, 'ucci')
    """

    #: UCI, ranks 0-9 (``h2e2``): Pikafish.
    UCI = "uci"
    #: UCI, ranks 1-10 (``h3e3``, ``a10a9``): Fairy-Stockfish with ``UCI_Variant xiangqi``.
    UCI_ONE_BASED = "uci-one-based"
    #: UCCI, ranks 0-9: ElephantEye, Fairy-Stockfish after ``ucci``.
    UCCI = "ucci"
    #: XBoard/CECP, ranks 0-9: MaxQi, Sjaak II (:mod:`xiangqi.xboard`).
    XBOARD = "xboard"

    @property
    def one_based(self) -> bool:
        """Whether ranks are written 1-10.

        >>> Dialect.UCI_ONE_BASED.one_based, Dialect.UCI.one_based
        (True, False)
        """
        return self is Dialect.UCI_ONE_BASED



@dataclasses.dataclass
class Limit:
    """When to stop a search: any combination (the engine stops at the first one reached).

    ``time`` is the time for this move in seconds; ``red_clock``/``black_clock``
    (seconds left), ``red_inc``/``black_inc`` (seconds per move) and
    ``movestogo`` describe a game clock.

    >>> Limit(depth=8), Limit(red_clock=60, black_clock=60, red_inc=1, black_inc=1).is_empty()
    (Limit(time=None, depth=8, nodes=None, mate=None, red_clock=None, black_clock=None, red_inc=None, black_inc=None, movestogo=None), False)
    """

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    red_clock: Optional[float] = None
    black_clock: Optional[float] = None
    red_inc: Optional[float] = None
    black_inc: Optional[float] = None
    movestogo: Optional[int] = None

    def time_bound(self, turn: Color) -> Optional[float]:
        """The most time (seconds) the search may take for ``turn`` to move, or ``None`` when unbounded.

        >>> Limit(red_clock=60, red_inc=1).time_bound(RED), Limit(time=0.5).time_bound(BLACK), Limit(depth=3).time_bound(RED)
        (61, 0.5, None)
        """
        if self.time is not None:
            return self.time
        clock = self.red_clock if turn == RED else self.black_clock
        if clock is None:
            return None
        inc = self.red_inc if turn == RED else self.black_inc
        return clock + (inc or 0.0)

    def go(self) -> Go:
        """The ``go`` words of this limit (:class:`xiangqi.uci.Go`, times in milliseconds).

        >>> Limit(time=0.5, depth=8).go().line(ucci=False, millisec=True, red=True)
        'go movetime 500 depth 8'
        """
        def ms(seconds: Optional[float]) -> Optional[int]:
            return None if seconds is None else max(0, int(round(seconds * 1000)))

        def whole(n: Optional[int]) -> Optional[int]:
            return None if n is None else int(n)

        return Go(depth=whole(self.depth), nodes=whole(self.nodes), mate=whole(self.mate), movetime=ms(self.time),
                  red_time=ms(self.red_clock), black_time=ms(self.black_clock), red_inc=ms(self.red_inc),
                  black_inc=ms(self.black_inc), movestogo=whole(self.movestogo))

    def is_empty(self) -> bool:
        """No limit at all (an infinite search).

        >>> Limit().is_empty(), Limit(nodes=1000).is_empty()
        (True, False)
        """
        return (self.time is None and self.depth is None and self.nodes is None and self.mate is None
                and self.red_clock is None and self.black_clock is None and self.movestogo is None)


class InfoDict(TypedDict, total=False):
    """What an engine reported about its search (each key only when it was sent).

    ``time`` is in seconds; ``pv`` and ``currmove`` are our moves (the
    engine's text translated); ``string`` is UCI ``info string`` or UCCI
    ``info message``.

    >>> info = parse_info("depth 3 score cp 12 time 5 pv h2e2 h9g7".split(), Board(), False)
    >>> info["depth"], info["score"].red(), info["time"], info["pv"]
    (3, Cp(+12), 0.005, [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')])
    """

    score: PovScore
    pv: List[Move]
    depth: int
    seldepth: int
    nodes: int
    nps: int
    time: float
    multipv: int
    currmove: Move
    currmovenumber: int
    hashfull: int
    tbhits: int
    string: str
    #: The score is only a bound (the search failed high or low): the true score is at least/at most this.
    lowerbound: bool
    upperbound: bool


@dataclasses.dataclass
class PlayResult:
    """The engine's move (``None`` if it has none: ``nobestmove``, ``bestmove (none)``) and what it reported.

    >>> PlayResult(Move.from_iccs("h2e2"), Move.from_iccs("h9g7")).move
    Move.from_iccs('h2e2')
    """

    move: Optional[Move]
    ponder: Optional[Move]
    info: InfoDict = dataclasses.field(default_factory=lambda: InfoDict())
    draw_offered: bool = False
    resigned: bool = False


@dataclasses.dataclass
class BestMove:
    """The end of an analysis: the best move and the expected reply.

    >>> BestMove(Move.from_iccs("b9c7"), None)
    BestMove(move=Move.from_iccs('b9c7'), ponder=None)
    """

    move: Optional[Move]
    ponder: Optional[Move]


def parse_moves(board: Board, texts: Sequence[str], one_based: bool) -> List[Move]:
    """The legal prefix of a line of engine moves from ``board`` (an engine's bad pv move ends the line), ranks
    1-10 when ``one_based``.

    >>> parse_moves(Board(), ["h3e3", "h10g8", "z9z9", "a1a2"], one_based=True)
    [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')]
    """
    b = board.copy(stack=False)
    moves: List[Move] = []
    for text in texts:
        try:
            move = b.parse_iccs(text, one_based=one_based)
        except ValueError:
            break
        if not move:
            break
        b.push(move)
        moves.append(move)
    return moves


def parse_info(tokens: Sequence[str], board: Board, one_based: bool, *,
               mate_value: Optional[int] = UCCI_MATE_VALUE) -> InfoDict:
    """An :class:`InfoDict` from the words after ``info``; what it cannot read is skipped, never raised.

    ``mate_value``: how a bare score reads (:func:`bare_score`).

    >>> parse_info("depth 3 score mate 2 pv h3e3 h10g8".split(), Board(), one_based=True)
    {'depth': 3, 'score': PovScore(Mate(+2), RED), 'pv': [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')]}
    >>> parse_info("depth x nodes 5 pv z9z9".split(), Board(), one_based=False)
    {'nodes': 5, 'pv': []}
    """
    return _translate(parse_info_words(tokens), board, one_based, mate_value)


def _translate(words: InfoWords, board: Board, one_based: bool, mate_value: Optional[int]) -> InfoDict:
    """An :class:`InfoDict` from an info line's fields (:func:`xiangqi.uci.parse_info_words`): moves read in
    ``board``, times in seconds, scores for the side to move."""
    info = InfoDict()
    for key, value in words.items():
        if key == "score":
            kind, n = words["score"]
            score = Cp(n) if kind == "cp" else Mate(n) if kind == "mate" else bare_score(n, mate_value)
            info["score"] = PovScore(score, board.turn)
        elif key == "time":
            info["time"] = words["time"] / 1000.0
        elif key == "pv":
            info["pv"] = parse_moves(board, words["pv"], one_based)
        elif key == "currmove":
            moves = parse_moves(board, [words["currmove"]], one_based)
            if moves:
                info["currmove"] = moves[0]
        else:
            info[key] = value  # type: ignore[literal-required]
    return info


_BOUNDS = ("lowerbound", "upperbound")


def _merge_newest_first(lines: Sequence[str], older: Dict[int, InfoWords]) -> Dict[int, InfoWords]:
    """Each line's (``multipv``'s) fields as the engine last sent them: ``lines`` (``info`` lines, oldest first)
    over ``older``. Read newest first, a line is parsed only when it has a field not yet known, so that a flood
    of info lines costs a split each; a bound flag goes with the score it came with."""
    merged: Dict[int, InfoWords] = {}
    seen: Dict[int, Set[str]] = {}
    for line in reversed(lines):
        words = line.split()
        keys = set(INFO_WORDS.intersection(words))
        if "message" in keys:
            keys.add("string")
        k = 1
        if "multipv" in keys:
            at = words.index("multipv")
            k = int(words[at + 1]) if at + 1 < len(words) and words[at + 1].isdigit() else 1
        known = seen.setdefault(k, set())
        if keys <= known:
            continue
        fields = parse_info_words(words[1:])
        mine = merged.setdefault(k, InfoWords())
        for key, value in fields.items():
            if key in _BOUNDS or key in mine:
                continue
            mine[key] = value  # type: ignore[literal-required]
            if key == "score":
                for bound in _BOUNDS:
                    if fields.get(bound):
                        mine[bound] = True  # type: ignore[literal-required]
        known.update(keys)
        if "score" in fields:
            known.update(_BOUNDS)
    for k, old in older.items():
        mine = merged.setdefault(k, InfoWords())
        for key, value in old.items():
            if key not in mine and not (key in _BOUNDS and "score" in mine):
                mine[key] = value  # type: ignore[literal-required]
    return merged


#: The FEN letters of horse and elephant an engine may want.
FEN_LETTERS = ("nb", "he")
_HE = str.maketrans("nbNB", "heHE")


def with_fen_letters(fen: str, letters: str) -> str:
    """``fen`` (or a placement alone) with horse and elephant written as ``letters`` (``"nb"`` or ``"he"``).

    >>> with_fen_letters("4k4/9/9/9/9/9/9/9/9/2BNK4 w - - 0 1", "he")
    '4k4/9/9/9/9/9/9/9/9/2EHK4 w - - 0 1'
    """
    if letters == "nb":
        return fen
    placement, sep, rest = fen.partition(" ")
    return placement.translate(_HE) + sep + rest


class RunningSearch:
    """One running ``go``: its position, deadline, the info lines so far (read lazily) and where they go
    (``sink``, called with each line, or each info a protocol read itself, as it comes: an analysis's queue).

    >>> search = RunningSearch(Board(), None, one_based=False, mate_value=None)
    >>> search.add("info depth 1 score cp 20 pv h2e2"); search.add("info depth 2 pv h2e2 h9g7")
    >>> search.info()
    {'depth': 2, 'pv': [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')], 'score': PovScore(Cp(+20), RED)}
    """

    #: Info lines kept unread before they are merged (so that an endless analysis holds bounded memory).
    _BATCH = 4096

    def __init__(self, board: Board, deadline: Optional[float], one_based: bool, mate_value: Optional[int],
                 sink: Optional[Callable[[Union[str, InfoDict]], None]] = None) -> None:
        self.board = board
        self.deadline = deadline
        self.one_based = one_based
        self.mate_value = mate_value
        self.sink = sink
        self.stop_sent = False
        self._lines: List[str] = []
        self._merged: Dict[int, InfoWords] = {}
        self._parsed: Dict[int, InfoDict] = {}   # infos a protocol reads itself (XBoard's thinking output)

    def add(self, line: str) -> None:
        """One ``info`` line, kept as text until its fields are asked for."""
        self._lines.append(line)
        if len(self._lines) >= self._BATCH:
            self.words()
        if self.sink is not None:
            self.sink(line)

    def words(self) -> Dict[int, InfoWords]:
        """Each line's fields as last sent, by ``multipv`` number."""
        if self._lines:
            self._merged = _merge_newest_first(self._lines, self._merged)
            self._lines = []
        return self._merged

    def record(self, info: InfoDict) -> None:
        """One info that the protocol has read itself (not a UCI ``info`` line): merged into its line's."""
        merged = self._parsed.setdefault(info.get("multipv", 1), InfoDict())
        if "score" in info:     # a new score: an old bound flag no longer applies
            merged.pop("lowerbound", None)
            merged.pop("upperbound", None)
        merged.update(info)
        if self.sink is not None:
            self.sink(info)

    def translate(self, words: InfoWords) -> InfoDict:
        return _translate(words, self.board, self.one_based, self.mate_value)

    def infos(self) -> List[InfoDict]:
        """The merged info of each line, best first."""
        if self._parsed:
            return [self._parsed[k] for k in sorted(self._parsed)]
        merged = self.words()
        return [self.translate(merged[k]) for k in sorted(merged)]

    def info(self) -> InfoDict:
        """The merged info of the first line."""
        if self._parsed:
            return self._parsed.get(1, InfoDict())
        first = self.words().get(1)
        return InfoDict() if first is None else self.translate(first)
