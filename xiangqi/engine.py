"""Talk to xiangqi engines over UCI and UCCI, in the shape of python-chess's ``chess.engine``.

Three dialects cross the pipe, and users only ever see :class:`~xiangqi.Move`:

* ``Dialect.UCI``: UCI with ICCS ranks 0-9 (``h2e2``), as Pikafish speaks it;
* ``Dialect.UCI_ONE_BASED``: UCI with ranks 1-10 (``h3e3``, ``a10a9``), as
  Fairy-Stockfish speaks it after ``setoption name UCI_Variant value xiangqi``;
* ``Dialect.UCCI``: UCCI (``ucci``/``ucciok``, ``setoption <name> <value>``,
  ``go time/depth/nodes``, ``nobestmove``, ``banmoves``), ranks 0-9.

:func:`popen_uci` detects the UCI rank dialect and the FEN letters of horse and
elephant (``n``/``b`` or ``h``/``e``) from the engine's options and answers (an
engine with a ``UCI_Variant`` option is switched to xiangqi and, unless it is a
Fairy-Stockfish, asked in a probe position); pass ``dialect=`` and
``fen_letters=`` to say them. Every line is read and written by the grammar of
:mod:`xiangqi.uci`, which our engine (``xiangqi engine``) shares. Before each
``go`` the client sends ``isready`` and drops whatever came before ``readyok``
(a stale ``bestmove``); ``info`` lines are kept as text and parsed only as far
as their fields are asked for.

The asyncio API (:func:`popen_uci`, :func:`popen_ucci`, :class:`EngineProtocol`)
is the real implementation; :class:`SimpleEngine` runs it on an event loop in a
background thread for synchronous code::

    board = Board()
    with SimpleEngine.popen_uci("/usr/games/fairy-stockfish") as engine:
        result = engine.play(board, Limit(depth=8))
        info = engine.analyse(board, Limit(nodes=10000))
        print(result.move, info["score"].relative)

A position is sent as the FEN after its last capture plus the moves since, so
the engine sees every position that can repeat. Each answer is awaited with a
deadline (the limit's time plus ``timeout``): an engine that hangs is killed
and raises :class:`EngineError`, one that exits raises
:class:`EngineTerminatedError`, and one that sends an illegal best move raises
:class:`EngineError` naming the move and the position. The engine's standard
error is captured (never mixed into ours); :attr:`EngineProtocol.stderr` holds
its last lines and the error messages quote them.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import enum
import functools
import re
import shlex
import threading
import weakref
from types import TracebackType
from typing import (
    TYPE_CHECKING, Any, Callable, Coroutine, Deque, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple,
    Type, TypedDict, TypeVar, Union, overload,
)

from xiangqi._encoding import MAX_LINE_BYTES as _MAX_LINE
from xiangqi.board import Board, parse_coordinates
from xiangqi.core import BLACK, RED, Color, Move
from xiangqi.errors import EngineError, EngineTerminatedError, XiangqiError
from xiangqi.notation import format_iccs
from xiangqi.uci import (
    ENGINE_LINE_WORDS, HANDSHAKE_OK, INFO_WORDS, MILLISEC_OPTION, Go, InfoWords, Option, OptionValue, is_bestmove,
    parse_bestmove, parse_info_words, parse_option, position_line, setoption_line,
)

if TYPE_CHECKING:
    from xiangqi.xboard import XBoardProtocol

__all__ = [
    "Dialect", "Limit", "Score", "Cp", "Mate", "MateGiven", "PovScore", "InfoDict", "Option", "PlayResult",
    "BestMove", "AnalysisResult", "AnalysisComplete", "EngineProtocol", "UciProtocol", "UcciProtocol",
    "popen_uci", "popen_ucci", "popen_xboard", "SimpleEngine", "SimpleAnalysisResult", "EngineError", "EngineTerminatedError",
    "OptionValue", "parse_info", "parse_option", "bare_score", "UCCI_MATE_VALUE", "UCCI_MATE_PLIES", "MAX_LINE_BYTES",
    "FEN_LETTERS", "with_fen_letters",
]

T = TypeVar("T")

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


# ------------------------------------------------------------------------------------------------- limits, scores


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

    def is_empty(self) -> bool:
        """No limit at all (an infinite search).

        >>> Limit().is_empty(), Limit(nodes=1000).is_empty()
        (True, False)
        """
        return (self.time is None and self.depth is None and self.nodes is None and self.mate is None
                and self.red_clock is None and self.black_clock is None and self.movestogo is None)


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


class AnalysisComplete(XiangqiError):
    """Raised by :meth:`AnalysisResult.get` when the analysis has ended and every info has been read.

    >>> issubclass(AnalysisComplete, XiangqiError)
    True
    """


# ------------------------------------------------------------------------------------------------- parsing

#: The mate value of a bare UCCI score (``info ... score N``, without ``cp`` or ``mate``): ElephantEye's
#: ``MATE_VALUE`` (xqbase/eleeye ``eleeye/position.h``), the engine of the UCCI document's authors. The UCCI
#: document (xqbase ``cchess_ucci.htm``) gives a score's unit (a horse or cannon is 100) but no mate form, so
#: ElephantEye writes a mate in ``n`` plies as ``MATE_VALUE - n`` (mated: ``n - MATE_VALUE``). Fairy-Stockfish
#: and ``xiangqi engine`` write ``score mate N`` in UCCI too. Another engine's scale: the ``mate_value`` of
#: :func:`popen_ucci` / :attr:`EngineProtocol.mate_value`.
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


def _parse_moves(board: Board, texts: Sequence[str], one_based: bool) -> List[Move]:
    """The legal prefix of a line of engine moves from ``board`` (an engine's bad pv move ends the line)."""
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
            info["pv"] = _parse_moves(board, words["pv"], one_based)
        elif key == "currmove":
            moves = _parse_moves(board, [words["currmove"]], one_based)
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
# An engine's words refusing a position.
_REFUSAL = re.compile(r"error|illegal|invalid|unknown|bad fen|cannot|can't", re.IGNORECASE)
# A position whose every legal move says how an engine reads FEN letters and writes ranks: kings and a red horse.
_PROBE_FEN = "4k4/9/9/9/9/9/9/9/9/3KN4 w - - 0 1"


def with_fen_letters(fen: str, letters: str) -> str:
    """``fen`` (or a placement alone) with horse and elephant written as ``letters`` (``"nb"`` or ``"he"``).

    >>> with_fen_letters("4k4/9/9/9/9/9/9/9/9/2BNK4 w - - 0 1", "he")
    '4k4/9/9/9/9/9/9/9/9/2EHK4 w - - 0 1'
    """
    if letters == "nb":
        return fen
    placement, sep, rest = fen.partition(" ")
    return placement.translate(_HE) + sep + rest


def _ms(seconds: Optional[float]) -> Optional[int]:
    return None if seconds is None else max(0, int(round(seconds * 1000)))


def _go_of(limit: Limit) -> Go:
    """The ``go`` words of a limit (times in milliseconds)."""
    def whole(n: Optional[int]) -> Optional[int]:
        return None if n is None else int(n)

    return Go(depth=whole(limit.depth), nodes=whole(limit.nodes), mate=whole(limit.mate), movetime=_ms(limit.time),
              red_time=_ms(limit.red_clock), black_time=_ms(limit.black_clock), red_inc=_ms(limit.red_inc),
              black_inc=_ms(limit.black_inc), movestogo=whole(limit.movestogo))


def _root_and_moves(board: Board) -> Tuple[str, List[Move]]:
    """The FEN after the last capture and the moves since: every position that can still repeat."""
    moves = board.move_stack
    captured = board.captured_history()
    last = max((i for i, c in enumerate(captured) if c), default=-1)
    if last < 0:
        return board.starting_fen, list(moves)
    b = Board(board.starting_fen)
    b.push_codes([m.code for m in moves[:last + 1]], check_legal=False)
    return b.fen(), list(moves[last + 1:])


# ------------------------------------------------------------------------------------------------- the protocol


#: The longest line kept from an engine (bytes, 1 MiB): the rest of a longer line is dropped, so that an engine
#: writing without line ends cannot fill the memory. The package's one line limit for its readers.
MAX_LINE_BYTES = _MAX_LINE


class _LineSplitter:
    """Bytes from a pipe into text lines, each cut at :data:`MAX_LINE_BYTES`.

    >>> s = _LineSplitter()
    >>> s.feed(b"info depth 1\\r\\nbest"), s.feed(b"move h2e2\\n"), s.rest()
    (['info depth 1'], ['bestmove h2e2'], None)
    """

    def __init__(self) -> None:
        self._buf = bytearray()

    def _add(self, piece: bytes) -> None:
        room = MAX_LINE_BYTES - len(self._buf)
        if room > 0:
            self._buf += piece[:room]

    def feed(self, raw: bytes) -> List[str]:
        """The lines that ``raw`` completes."""
        *ended, last = raw.split(b"\n")
        lines = []
        for piece in ended:
            self._add(piece)
            lines.append(self._buf.decode("utf-8", "replace").rstrip("\r"))
            self._buf = bytearray()
        self._add(last)
        return lines

    def rest(self) -> Optional[str]:
        """The last line, without a line end (at the pipe's end), if any."""
        if not self._buf:
            return None
        line = self._buf.decode("utf-8", "replace")
        self._buf = bytearray()
        return line


class RunningSearch:
    """One running ``go``: its position, deadline, the info lines so far (read lazily) and where they go."""

    #: Info lines kept unread before they are merged (so that an endless analysis holds bounded memory).
    _BATCH = 4096

    def __init__(self, board: Board, deadline: Optional[float], one_based: bool, mate_value: Optional[int],
                 sink: Optional["AnalysisResult"] = None) -> None:
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
            self.sink._post(line)

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
            self.sink._post(info)

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


class EngineProtocol(asyncio.SubprocessProtocol):
    """The state of one engine process: reading its lines, sending commands, one command at a time.

    Use :func:`popen_uci` / :func:`popen_ucci`, which start the process and
    run the handshake. ``timeout`` (seconds, ``None`` for none) bounds each
    answer beyond the search limit's own time.

    >>> import sys
    >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
    >>> async def first_move():
    ...     transport, engine = await popen_uci(OURS)
    ...     try:
    ...         return (await engine.play(Board(), Limit(depth=2))).move
    ...     finally:
    ...         await engine.quit()
    >>> asyncio.run(first_move())
    Move.from_iccs('b2b6')

    Raises:
        * :exc:`~xiangqi.errors.EngineTerminatedError` from every command once the engine has exited;
        * :exc:`~xiangqi.errors.EngineError` when it does not answer in time (it is then killed) or answers
          with an illegal move;
        * :exc:`ValueError` for a bad argument (an unknown option or value, no limit, an illegal root move,
          ``banmoves`` for UCI, a perft depth below 1).
    """

    dialect: Dialect = Dialect.UCI
    #: The mate value of the engine's bare scores (UCCI's ``score N``; :func:`bare_score`), ``None`` to read them
    #: all as centipawns.
    mate_value: Optional[int] = UCCI_MATE_VALUE
    _handshake = "uci"

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.command = ""
        self.timeout: Optional[float] = 10.0
        #: ``id name`` / ``id author`` … as sent by the engine.
        self.id: Dict[str, str] = {}
        #: The engine's options by name.
        self.options: Dict[str, Option] = {}
        self._lines: Deque[str] = collections.deque()
        self._out = _LineSplitter()
        self._err = _LineSplitter()
        self._stderr: Deque[str] = collections.deque(maxlen=40)
        self._waiter: Optional[asyncio.Future[None]] = None
        self._eof = False
        self._exited: asyncio.Future[int] = self.loop.create_future()
        self._busy = asyncio.Lock()
        self._multipv = 1
        self._game: object = None
        self._killed = False
        #: UCCI: the engine reads times in milliseconds (``usemillisec``), not seconds.
        self._millisec = False
        #: The letters of horse and elephant in the FENs the engine reads: ``"nb"`` (this library's, Pikafish's,
        #: Fairy-Stockfish's) or ``"he"`` (Sjaak II's).
        self.fen_letters = "nb"
        self._letters_given = False
        # What the engine wrote that is not protocol (its own words about a refused position, say), since the
        # last search began: quoted by the errors.
        self._chatter: Deque[str] = collections.deque(maxlen=8)
        #: Called with ``(">", line)`` for each line sent and ``("<", line)`` for each line read (an I/O log).
        self.io_log: Optional[Callable[[str, str], None]] = None

    # ---------------------------------------------------------------- asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self.transport = transport

    def pipe_data_received(self, fd: int, data: Union[bytes, str]) -> None:
        raw = data.encode() if isinstance(data, str) else data
        if fd == 1:
            lines = self._out.feed(raw)
            if lines:
                if self.io_log is not None:
                    for line in lines:
                        self.io_log("<", line)
                self._lines.extend(lines)
                self._wake()
        elif fd == 2:
            self._stderr.extend(self._err.feed(raw))

    def pipe_connection_lost(self, fd: int, exc: Optional[Exception]) -> None:
        if fd == 1:
            rest = self._out.rest()
            if rest is not None:
                self._lines.append(rest)
            self._mark_eof()
        elif fd == 2:
            rest = self._err.rest()
            if rest is not None:
                self._stderr.append(rest)

    def process_exited(self) -> None:
        assert self.transport is not None
        code = self.transport.get_returncode()
        if not self._exited.done():
            self._exited.set_result(-1 if code is None else code)
        # What it wrote last may still be in the pipe: the end of its output is the pipe's end, or this grace
        # (a child process of the engine may hold the pipe open).
        self.loop.call_later(0.5, self._mark_eof)

    def _mark_eof(self) -> None:
        self._eof = True
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    # ---------------------------------------------------------------- plumbing

    @property
    def name(self) -> str:
        """The engine's ``id name``, or its command before the handshake.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def name():
        ...     transport, engine = await popen_uci(OURS)
        ...     await engine.quit()
        ...     return engine.name
        >>> asyncio.run(name())
        'pyxiangqi ...'
        """
        return self.id.get("name", self.command)

    @property
    def stderr(self) -> str:
        """The last lines the engine wrote to its standard error.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def stderr():
        ...     transport, engine = await popen_uci(OURS)
        ...     await engine.quit()
        ...     return engine.stderr
        >>> asyncio.run(stderr())
        ''
        """
        return "\n".join(self._stderr)

    @property
    def returncode(self) -> Optional[int]:
        """The process's exit status, ``None`` while it runs.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def codes():
        ...     transport, engine = await popen_uci(OURS)
        ...     running = engine.returncode
        ...     await engine.quit()
        ...     return running, engine.returncode
        >>> asyncio.run(codes())
        (None, 0)
        """
        return self._exited.result() if self._exited.done() else None

    @property
    def last_words(self) -> str:
        """What the engine last wrote in its own words: its lines that are not protocol since its last search
        began (``it said: …``), then the end of its standard error (``its stderr ends: …``); empty when it said
        nothing. Errors about the engine quote it, and ``xiangqi match`` quotes it in its summary.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def words():
        ...     transport, engine = await popen_uci(OURS)
        ...     await engine.quit()
        ...     return engine.last_words
        >>> asyncio.run(words())                                      # ours speaks protocol only
        ''
        """
        return self._words_beside("")

    def _words_beside(self, message: str) -> str:
        """:attr:`last_words` without the lines ``message`` quotes already, each line once."""
        parts = []
        said = [line for line in dict.fromkeys(reversed(self._chatter)) if line and line not in message][:3]
        if said:
            parts.append("it said: " + " | ".join(reversed(said)))
        last = self.stderr.splitlines()[-3:]
        if last:
            parts.append("its stderr ends: " + " | ".join(last))
        return "; ".join(parts)

    def _error(self, cls: Type[EngineError], message: str) -> EngineError:
        words = self._words_beside(message)
        return cls(message + ("; " + words if words else ""), stderr=self.stderr)

    def _terminated(self, what: str) -> EngineError:
        code = self.returncode
        status = "" if code is None else f" (exit status {code})"
        how = "was killed" if self._killed else "exited"
        return self._error(EngineTerminatedError, f"engine {self.name!r} {how}{status} {what}")

    def send_line(self, line: str) -> None:
        """Write one command line to the engine (raises :class:`EngineTerminatedError` if it has gone).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def after_quit():
        ...     transport, engine = await popen_uci(OURS)
        ...     engine.send_line("isready")
        ...     await engine.quit()
        ...     engine.send_line("isready")
        >>> asyncio.run(after_quit())
        Traceback (most recent call last):
        ...
        xiangqi.errors.EngineTerminatedError: engine 'pyxiangqi ...' exited (exit status 0) before 'isready' could be sent

        Raises:
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine has gone.
        """
        if self._eof or self._exited.done() or self.transport is None or self.transport.is_closing():
            raise self._terminated(f"before {line.split(' ', 1)[0]!r} could be sent")
        pipe = self.transport.get_pipe_transport(0)
        assert isinstance(pipe, asyncio.WriteTransport)
        pipe.write(line.encode() + b"\n")
        if self.io_log is not None:
            self.io_log(">", line)

    async def _next_line(self, what: str, deadline: Optional[float] = None, search: Optional[RunningSearch] = None) -> str:
        """The engine's next line; raises when it exits, and kills it when ``deadline`` (loop time) passes."""
        while not self._lines:
            if self._eof:
                await self._settle()
                raise self._terminated(f"before answering {what}")
            d = search.deadline if search is not None else deadline
            if d is not None and self.loop.time() >= d:
                await self.kill()
                raise self._error(EngineError, f"engine {self.name!r} did not answer {what} in time; "
                                               "the process was killed")
            await self._wait_for_line(d)
        line = self._lines.popleft()
        if line and not line.lstrip().startswith(self._line_words):   # its own words, kept for the errors
            self._chatter.append("".join(ch for ch in line if ch.isprintable()).strip()[:300])
        return line

    def _deadline(self, extra: Optional[float] = 0.0) -> Optional[float]:
        if self.timeout is None or extra is None:
            return None
        return self.loop.time() + extra + self.timeout

    async def _settle(self) -> None:
        """Give an exiting process a moment to report its exit status."""
        try:
            await asyncio.wait_for(asyncio.shield(self._exited), 0.5)
        except asyncio.TimeoutError:
            pass

    async def kill(self) -> None:
        """Kill the process and wait until it has gone.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def killed():
        ...     transport, engine = await popen_uci(OURS)
        ...     await engine.kill()
        ...     return engine.returncode
        >>> asyncio.run(killed())
        -9
        """
        if self.transport is not None and not self._exited.done():
            self._killed = True
            try:
                self.transport.kill()
            except ProcessLookupError:
                pass
            await asyncio.shield(self._exited)
        if self.transport is not None:
            self.transport.close()

    # ---------------------------------------------------------------- dialect hooks

    def _format(self, move: Move) -> str:
        return format_iccs(move, one_based=self.dialect.one_based)

    def _setoption_line(self, name: str, value: Optional[str]) -> str:
        raise NotImplementedError

    def _go_line(self, board: Board, limit: Limit) -> str:
        return _go_of(limit).line(ucci=self.dialect is Dialect.UCCI, millisec=self._millisec, red=board.turn == RED)

    def _stop_after(self, limit: Limit) -> Optional[float]:
        """Seconds after which the client itself sends ``stop``: when the go line cannot say the limit's time."""
        return None

    async def _after_handshake(self, dialect: Optional[Dialect]) -> None:
        raise NotImplementedError

    #: The first words of the protocol's lines from the engine (anything else is its own words).
    _line_words: Tuple[str, ...] = ENGINE_LINE_WORDS

    #: Options the library sets itself (names in lower case).
    _managed: Tuple[str, ...] = ("multipv",)

    # ---------------------------------------------------------------- commands

    async def initialize(self, dialect: Optional[Dialect] = None) -> None:
        """The handshake: ``uci``/``ucci``, the engine's id and options, dialect set-up, ``isready``.

        popen_uci and popen_ucci call it; a second handshake is harmless:

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def again():
        ...     transport, engine = await popen_uci(OURS)
        ...     await engine.initialize()
        ...     await engine.quit()
        ...     return sorted(engine.options)
        >>> asyncio.run(again())
        ['Clear Hash', 'Hash', 'Ponder', 'Rules']

        Raises:
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine exits;
            * :exc:`~xiangqi.errors.EngineError` when it does not finish the handshake within ``timeout``, or has a
              ``UCI_Variant`` option without xiangqi;
            * :exc:`ValueError` for a dialect the protocol does not speak.
        """
        async with self._busy:
            self.send_line(self._handshake)
            deadline = self._deadline()
            while True:
                line = await self._next_line(f"{self._handshake!r} with {HANDSHAKE_OK[self._handshake]!r}", deadline)
                tokens = line.split()
                if not tokens:
                    continue
                if tokens[0] == HANDSHAKE_OK[self._handshake]:
                    break
                if tokens[0] == "id" and len(tokens) >= 2:
                    self.id[tokens[1]] = " ".join(tokens[2:])
                elif tokens[0] == "option":
                    opt = parse_option(tokens[1:], ucci=isinstance(self, UcciProtocol))
                    if opt is not None:
                        self.options[opt.name] = opt
            await self._after_handshake(dialect)
            await self._ping()

    def _option(self, name: str) -> Optional[Option]:
        opt = self.options.get(name)
        if opt is not None:
            return opt
        low = name.lower()
        return next((o for o in self.options.values() if o.name.lower() == low), None)

    async def _ping(self) -> None:
        self.send_line("isready")
        deadline = self._deadline()
        while (await self._next_line("'isready' with 'readyok'", deadline)).strip() != "readyok":
            pass

    async def ping(self) -> None:
        """``isready``, and wait for ``readyok``.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def ping():
        ...     transport, engine = await popen_uci(OURS)
        ...     await engine.ping()
        ...     await engine.quit()
        >>> asyncio.run(ping())

        Raises:
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine exits;
            * :exc:`~xiangqi.errors.EngineError` when ``readyok`` does not come within ``timeout``.
        """
        async with self._busy:
            await self._ping()

    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set engine options (names as the engine declared them, any case); checks names and values first.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def configure(options):
        ...     transport, engine = await popen_uci(OURS)
        ...     try:
        ...         await engine.configure(options)
        ...     finally:
        ...         await engine.quit()
        >>> asyncio.run(configure({"hash": 8}))
        >>> asyncio.run(configure({"Threads": 2}))
        Traceback (most recent call last):
        ...
        ValueError: engine 'pyxiangqi ...' has no option 'Threads' (it has: Clear Hash, Hash, Ponder, Rules)

        Raises:
            * :exc:`ValueError` for an option the engine does not have, one the library sets itself, or a value that
              does not fit (:meth:`Option.value_text`), before anything is sent;
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine has gone.
        """
        lines = []
        for name, value in options.items():
            opt = self._option(name)
            if opt is None:
                raise ValueError(f"engine {self.name!r} has no option {name!r} "
                                 f"(it has: {', '.join(sorted(self.options)) or 'none'})")
            if opt.name.lower() in self._managed:
                raise ValueError(f"option {opt.name!r} is set by the library (use the method's argument)")
            lines.append(self._setoption_line(opt.name, opt.value_text(value)))
        async with self._busy:
            for line in lines:
                self.send_line(line)
            await self._ping()

    async def _prepare(self, board: Board, multipv: int, game: object, banmoves: Sequence[Move] = ()) -> None:
        """Send the options, new game, position and bans for a search, then ``isready``: whatever the engine
        sent before ``readyok`` (a second ``bestmove`` of a finished search, late infos) is dropped, so that it
        cannot be taken for the answer to the ``go`` that follows. An engine whose own words before ``readyok``
        refuse the position (an error line, as for letters it does not read) raises :class:`EngineError`
        quoting them, instead of searching the position it had before."""
        settings = False
        if multipv != self._multipv:
            opt = self._option("MultiPV")
            if opt is None:
                raise ValueError(f"engine {self.name!r} has no MultiPV option, so multipv={multipv} is not possible")
            self.send_line(self._setoption_line(opt.name, opt.value_text(multipv)))
            self._multipv = multipv
            settings = True
        if game is not None and game is not self._game:
            self._game = game
            if isinstance(self, UciProtocol):
                self.send_line("ucinewgame")
                settings = True
            elif self._option("newgame") is not None:   # UCCI's way: a button option
                self.send_line(self._setoption_line("newgame", None))
                settings = True
        if settings:        # what it says about those is not about the position
            await self._ping()
        self._chatter.clear()
        fen, moves = _root_and_moves(board)
        self.send_line(position_line(with_fen_letters(fen, self.fen_letters), [self._format(m) for m in moves]))
        if banmoves:
            self.send_line("banmoves " + " ".join(self._format(m) for m in banmoves))
        await self._ping()
        if any(_REFUSAL.search(line) for line in self._chatter):
            what = f"the position {fen}" + (f" moves {' '.join(m.iccs() for m in moves)}" if moves else "")
            raise self._error(EngineError, f"engine {self.name!r} refused {what}"
                                           + (" or its banmoves" if banmoves else ""))

    async def _search(self, board: Board, limit: Limit, search: RunningSearch, multipv: int, game: object,
                      banmoves: Sequence[Move] = (), root_moves: Optional[Sequence[Move]] = None) -> PlayResult:
        """Send the position and ``go``, read infos until ``bestmove``; the caller holds the lock."""
        go = self._go_line(board, limit)
        if root_moves:
            for move in root_moves:
                if not board.is_legal(move):
                    raise ValueError(f"root move {move.iccs()} is not legal in {board.fen()}")
            if isinstance(self, UcciProtocol):   # UCCI has no searchmoves: every other move is banned
                banmoves = list(banmoves) + [m for m in board.legal_moves if m not in root_moves]
            else:
                go += " searchmoves " + " ".join(self._format(m) for m in root_moves)
        if banmoves and not isinstance(self, UcciProtocol):
            raise ValueError("banmoves is a UCCI command; UCI engines do not have it")
        await self._prepare(board, multipv, game, banmoves)
        self.send_line(go)
        what = f"{go!r} with 'bestmove' in {board.fen()}"
        after = self._stop_after(limit)
        timer = self.loop.call_later(after, self._stop, search) if after is not None else None
        try:
            return await self._read_search(board, search, what)
        finally:
            if timer is not None:
                timer.cancel()

    async def _read_search(self, board: Board, search: RunningSearch, what: str) -> PlayResult:
        """The infos of a running search, until ``bestmove`` or ``nobestmove``."""
        while True:
            line = await self._next_line(what, search=search)
            if line.startswith("info"):
                if line[4:5].isspace():
                    search.add(line)
                continue
            tokens = line.split()
            if is_bestmove(tokens):
                return self._bestmove(tokens, line, board, search)

    def _bestmove(self, tokens: List[str], line: str, board: Board, search: RunningSearch) -> PlayResult:
        info = search.info()
        words = parse_bestmove(tokens)
        if words.move is None:
            return PlayResult(None, None, info)
        one_based = self.dialect.one_based
        try:
            move = board.parse_iccs(words.move, one_based=one_based)
        except ValueError as exc:
            reason = str(exc)
            raise self._error(EngineError, f"engine {self.name!r} sent an illegal best move {line.strip()!r} "
                                           f"in {board.fen()} ({reason})") from None
        if not move:
            raise self._error(EngineError, f"engine {self.name!r} sent the null move as its best move "
                                           f"{line.strip()!r} in {board.fen()}")
        ponder = None
        if words.ponder is not None:
            after = board.copy(stack=False)
            after.push(move)
            replies = _parse_moves(after, [words.ponder], one_based)
            ponder = replies[0] if replies else None
        return PlayResult(move, ponder, info, draw_offered=words.draw, resigned=words.resign)

    async def play(self, board: Board, limit: Limit, *, game: object = None, banmoves: Sequence[Move] = (),
                   root_moves: Optional[Sequence[Move]] = None) -> PlayResult:
        """Ask for a move in ``board``'s position (its move stack is sent too) under ``limit``.

        ``game``: any object identifying the game; a new one sends
        ``ucinewgame``. ``banmoves`` (UCCI) forbids moves; ``root_moves``
        (legal moves) limits the search to them (UCI ``searchmoves``; in
        UCCI the other moves are banned).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def play(board, **kwargs):
        ...     transport, engine = await popen_uci(OURS)
        ...     try:
        ...         return await engine.play(board, Limit(depth=2), **kwargs)
        ...     finally:
        ...         await engine.quit()
        >>> asyncio.run(play(Board())).move
        Move.from_iccs('b2b6')
        >>> asyncio.run(play(Board(), root_moves=[Move.from_iccs("h2e2")])).move
        Move.from_iccs('h2e2')

        Raises:
            * :exc:`ValueError` for an empty ``limit``, a root move that is not legal, ``banmoves`` to a UCI engine,
              or ``Limit(mate=...)`` to a UCCI engine;
            * :exc:`~xiangqi.errors.EngineError` when the engine does not answer within the limit plus ``timeout``
              (it is then killed), refuses the position (an error line in its own words) or sends an illegal best
              move;
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine exits.
        """
        if limit.is_empty():
            raise ValueError("play needs a limit (time, depth, nodes, mate or a clock)")
        async with self._busy:
            search = self._new_search(board, self._deadline(limit.time_bound(board.turn)))
            return await self._search(board, limit, search, 1, game, banmoves, root_moves)

    @overload
    async def analyse(self, board: Board, limit: Limit, *, multipv: None = ..., game: object = ...,
                      root_moves: Optional[Sequence[Move]] = ...) -> InfoDict: ...
    @overload
    async def analyse(self, board: Board, limit: Limit, *, multipv: int, game: object = ...,
                      root_moves: Optional[Sequence[Move]] = ...) -> List[InfoDict]: ...

    async def analyse(self, board: Board, limit: Limit, *, multipv: Optional[int] = None, game: object = None,
                      root_moves: Optional[Sequence[Move]] = None) -> Union[InfoDict, List[InfoDict]]:
        """Analyse the position until ``limit``; with ``multipv=N`` a list of the best N lines' infos.

        ``root_moves``: as in :meth:`play`.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def analyse(board):
        ...     transport, engine = await popen_uci(OURS)
        ...     try:
        ...         return await engine.analyse(board, Limit(depth=2))
        ...     finally:
        ...         await engine.quit()
        >>> info = asyncio.run(analyse(Board()))
        >>> info["depth"], info["pv"][0], info["score"].red()
        (2, Move.from_iccs('b2b6'), Cp(+76))

        Raises:
            * :exc:`ValueError` for an empty ``limit`` (use :meth:`analysis`), a ``multipv`` the engine has no
              ``MultiPV`` option for, or a bad root move;
            * :exc:`~xiangqi.errors.EngineError` when the engine does not answer in time or refuses the position;
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine exits.
        """
        if limit.is_empty():
            raise ValueError("analyse needs a limit (use analysis() for an infinite search)")
        async with self._busy:
            search = self._new_search(board, self._deadline(limit.time_bound(board.turn)))
            await self._search(board, limit, search, multipv or 1, game, root_moves=root_moves)
        if multipv is None:
            return search.info()
        return search.infos()

    async def analysis(self, board: Board, limit: Optional[Limit] = None, *, multipv: Optional[int] = None,
                       game: object = None, root_moves: Optional[Sequence[Move]] = None) -> "AnalysisResult":
        """Start analysing (until ``limit``, or until :meth:`AnalysisResult.stop`); infos stream as they come.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def depths():
        ...     transport, engine = await popen_uci(OURS)
        ...     analysis = await engine.analysis(Board(), Limit(depth=3))
        ...     found = [info["depth"] async for info in analysis if "depth" in info]
        ...     best = await analysis.wait()
        ...     await engine.quit()
        ...     return found, best.move
        >>> asyncio.run(depths())
        ([1, 2, 3], Move.from_iccs('b2b6'))

        Raises:
            * the errors of :meth:`analyse` (an empty ``limit`` is allowed here: the search runs until stopped).
        """
        limit = limit or Limit()
        await self._busy.acquire()
        bound = limit.time_bound(board.turn)
        result = AnalysisResult(self)
        search = self._new_search(board, None if limit.is_empty() else self._deadline(bound), result)
        result._search = search

        async def run() -> None:
            try:
                played = await self._search(board, limit, search, multipv or 1, game, root_moves=root_moves)
                result._finish(BestMove(played.move, played.ponder), None)
            except BaseException as exc:  # handed to the reader of the result
                result._finish(None, exc)
                if not isinstance(exc, Exception):
                    raise
            finally:
                self._busy.release()

        result._task = self.loop.create_task(run())
        return result

    def _new_search(self, board: Board, deadline: Optional[float], sink: Optional["AnalysisResult"] = None
                    ) -> RunningSearch:
        return RunningSearch(board, deadline, self.dialect.one_based, self.mate_value, sink)

    def _stop(self, search: RunningSearch) -> None:
        if search.stop_sent or self._eof:
            return
        search.stop_sent = True
        try:
            self.send_line("stop")
        except EngineError:
            return
        self._await_stop(search)

    async def _wait_for_line(self, deadline: Optional[float]) -> None:
        """Wait until a line comes in (or the engine ends) or the loop time ``deadline`` passes (None: no limit)."""
        fut: asyncio.Future[None] = self.loop.create_future()
        self._waiter = fut
        handle = self.loop.call_at(deadline, self._wake) if deadline is not None else None
        try:
            await fut
        finally:
            self._waiter = None
            if handle is not None:
                handle.cancel()

    def _await_stop(self, search: RunningSearch) -> None:
        """After asking the engine to stop: its answer is due within the grace time, not the search's limit."""
        grace = self._deadline()
        if grace is not None and (search.deadline is None or grace < search.deadline):
            search.deadline = grace
        self._wake()

    async def perft(self, board: Board, depth: int) -> Dict[Move, int]:
        """The engine's ``go perft depth`` divide of ``board``: node count under each move it lists.

        Moves are read for their syntax only (an engine's move generator may
        list an illegal move, which is exactly what a perft comparison looks
        for); a line that is not a move is an :class:`EngineError`.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def divide(depth):
        ...     transport, engine = await popen_uci(OURS)
        ...     try:
        ...         return await engine.perft(Board(), depth)
        ...     finally:
        ...         await engine.quit()
        >>> counts = asyncio.run(divide(2))
        >>> len(counts), sum(counts.values()), counts[Move.from_iccs("h2e2")]
        (44, 1920, 45)

        Raises:
            * :exc:`ValueError` for a depth below 1;
            * :exc:`~xiangqi.errors.EngineError` for a line of the divide that is not a move, a best move instead of
              a divide (an engine without ``go perft``), or no answer in time;
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine exits.
        """
        if depth < 1:
            raise ValueError(f"perft depth must be >= 1, not {depth}")
        async with self._busy:
            await self._prepare(board, self._multipv, None)
            self.send_line(f"go perft {depth}")
            what = f"'go perft {depth}' with 'Nodes searched' in {board.fen()}"
            deadline = self._deadline()
            counts: Dict[Move, int] = {}
            while True:
                line = (await self._next_line(what, deadline)).strip()
                if line.startswith("Nodes searched"):
                    return counts
                if is_bestmove(line.split()):   # it took the line for a search
                    raise self._error(EngineError, f"engine {self.name!r} answered 'go perft {depth}' with "
                                                   f"{line!r}: it has no perft")
                head, sep, tail = line.partition(":")
                if not sep or " " in head.strip() or not tail.strip().isdigit():
                    continue  # "info string", blank lines and the like
                try:
                    move = parse_coordinates(head.strip(), one_based=self.dialect.one_based)
                except ValueError:
                    raise self._error(EngineError, f"engine {self.name!r} listed {line!r} in its perft divide "
                                                   f"of {board.fen()}: not a move") from None
                counts[move] = int(tail)

    async def quit(self) -> None:
        """Send ``quit`` and wait for the process to exit (killed if it does not within ``timeout``).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def quit():
        ...     transport, engine = await popen_uci(OURS)
        ...     await engine.quit()
        ...     return engine.returncode
        >>> asyncio.run(quit())
        0
        """
        if not self._exited.done():
            try:
                self.send_line("quit")
            except EngineError:
                pass
            try:
                await asyncio.wait_for(asyncio.shield(self._exited), self.timeout or 10.0)
            except asyncio.TimeoutError:
                pass
        await self.kill()


class UciProtocol(EngineProtocol):
    """UCI (Pikafish ranks 0-9, or Fairy-Stockfish ranks 1-10 with ``UCI_Variant xiangqi``).

    >>> import sys
    >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
    >>> async def dialect():
    ...     transport, engine = await popen_uci(OURS)
    ...     await engine.quit()
    ...     return type(engine).__name__, engine.dialect
    >>> asyncio.run(dialect())
    ('UciProtocol', <Dialect.UCI: 'uci'>)

    Raises:
        * :exc:`ValueError` for ``Dialect.UCCI`` (use :func:`popen_ucci`);
        * :exc:`~xiangqi.errors.EngineError` for a ``UCI_Variant`` option without xiangqi;
        * and the errors of :class:`EngineProtocol`.
    """

    _managed = ("multipv", "uci_variant")

    def _setoption_line(self, name: str, value: Optional[str]) -> str:
        return setoption_line(name, value, ucci=False)

    async def _after_handshake(self, dialect: Optional[Dialect]) -> None:
        variant = self._option("UCI_Variant")
        if dialect is Dialect.UCCI:
            raise ValueError("dialect UCCI needs popen_ucci")
        if variant is not None:
            if variant.var and "xiangqi" not in variant.var:
                raise self._error(EngineError, f"engine {self.name!r} has a UCI_Variant option without xiangqi")
            self.send_line(self._setoption_line(variant.name, "xiangqi"))
            # Not every engine with UCI_Variant is a Fairy-Stockfish: one that is not is asked (Sjaak II wants
            # h/e in its FENs).
            if not self.id.get("name", "").startswith("Fairy-Stockfish") and (
                    dialect is None or not self._letters_given):
                found = await self._probe(dialect)
                if found is not None:
                    dialect, self.fen_letters = found
        if dialect is None:
            dialect = Dialect.UCI_ONE_BASED if variant is not None else Dialect.UCI
        self.dialect = dialect

    async def _probe(self, dialect: Optional[Dialect]) -> Optional[Tuple[Dialect, str]]:
        """The FEN letters the engine reads and the rank dialect it writes, from its answers in a probe position of
        kings and a horse (``None`` when they do not tell): a position in letters it does not read is refused
        (its words say so, on either stream, before ``readyok``); in the letters it reads, its move for ``go
        depth 1`` is legal in one rank dialect only."""
        board = Board(_PROBE_FEN)
        dialects = [dialect] if dialect is not None else [Dialect.UCI_ONE_BASED, Dialect.UCI]
        for letters in [self.fen_letters] if self._letters_given else list(FEN_LETTERS):
            self._chatter.clear()
            stderr_before = list(self._stderr)
            self.send_line(position_line(with_fen_letters(_PROBE_FEN, letters)))
            await self._ping()
            await asyncio.sleep(0.05)   # its standard error is another pipe: what it wrote there may come later
            said = list(self._chatter) + list(self._stderr)[len(stderr_before):]
            if any(_REFUSAL.search(line) for line in said):
                continue
            self.send_line("go depth 1")
            deadline = self._deadline()
            while True:
                words = (await self._next_line("a 'go depth 1' in a probe position with 'bestmove'", deadline)).split()
                if is_bestmove(words):
                    break
            best = parse_bestmove(words).move
            for d in dialects:
                try:
                    if best is not None and board.parse_iccs(best, one_based=d.one_based):
                        return d, letters
                except ValueError:
                    continue
        return None


class UcciProtocol(EngineProtocol):
    """UCCI (``ucci``/``ucciok``; ElephantEye, Fairy-Stockfish): ranks 0-9, times in seconds or milliseconds.

    >>> import sys
    >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
    >>> async def ucci():
    ...     transport, engine = await popen_ucci(OURS)
    ...     try:
    ...         return engine.dialect, (await engine.play(Board(), Limit(depth=2))).move
    ...     finally:
    ...         await engine.quit()
    >>> asyncio.run(ucci())
    (<Dialect.UCCI: 'ucci'>, Move.from_iccs('b2b6'))

    Raises:
        * :exc:`ValueError` for a dialect other than UCCI, and for ``Limit(mate=...)`` (UCCI has no ``go mate``);
        * and the errors of :class:`EngineProtocol`.
    """

    dialect = Dialect.UCCI
    _handshake = "ucci"
    _managed = ("multipv", MILLISEC_OPTION)

    def _setoption_line(self, name: str, value: Optional[str]) -> str:
        return setoption_line(name, value, ucci=True)

    async def _after_handshake(self, dialect: Optional[Dialect]) -> None:
        if dialect not in (None, Dialect.UCCI):
            raise ValueError(f"popen_ucci speaks UCCI, not {dialect}")
        opt = self._option(MILLISEC_OPTION)
        if opt is not None:
            self.send_line(self._setoption_line(opt.name, "true"))
            self._millisec = True
        elif self.id.get("name", "").startswith("Fairy-Stockfish"):
            # Fairy-Stockfish reads UCCI times in milliseconds, also in versions without a usemillisec option
            # (its current default is usemillisec true); seconds would be a thousand times too short for it.
            self._millisec = True

    def _stop_after(self, limit: Limit) -> Optional[float]:
        # Whole seconds cannot say 0.3 s or 1.5 s: the engine is given the second up and stopped on time.
        if limit.time is None or self._millisec or limit.time == int(limit.time):
            return None
        return limit.time


class AnalysisResult:
    """A running analysis: iterate (``async for``) over its infos, :meth:`stop` it, :meth:`wait` for the best move.

    :attr:`info` is the merged info of the first line, :attr:`multipv` of
    every line, each kept up to date.

    >>> import sys
    >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
    >>> async def analyse():
    ...     transport, engine = await popen_uci(OURS)
    ...     analysis = await engine.analysis(Board(), Limit(depth=2))
    ...     infos = [info async for info in analysis]
    ...     best = await analysis.wait()
    ...     await engine.quit()
    ...     return len(infos) > 0, best.move, analysis.info["depth"]
    >>> asyncio.run(analyse())
    (True, Move.from_iccs('b2b6'), 2)

    Raises:
        * :exc:`AnalysisComplete` from :meth:`get` after the last info;
        * from :meth:`get` and :meth:`wait`, the engine error that ended the analysis
          (:exc:`~xiangqi.errors.EngineError`, :exc:`~xiangqi.errors.EngineTerminatedError`).
    """

    def __init__(self, protocol: EngineProtocol) -> None:
        self._protocol = protocol
        self._queue: Deque[Union[str, InfoDict]] = collections.deque()   # info lines, or infos already read
        self._changed = asyncio.Event()
        self._done: asyncio.Future[BestMove] = protocol.loop.create_future()
        self._search: Optional[RunningSearch] = None
        self._task: Optional[asyncio.Task[None]] = None

    @property
    def info(self) -> InfoDict:
        """The merged info of the best line so far.

        The analysis of :class:`AnalysisResult`'s example ends with ``analysis.info["depth"] == 2``.
        """
        return self.multipv[0]

    @property
    def multipv(self) -> List[InfoDict]:
        """The merged info of every line so far, best first (one empty info before the first).

        The analysis of :class:`AnalysisResult`'s example has one line.
        """
        infos = self._search.infos() if self._search is not None else []
        return infos or [InfoDict()]

    def _post(self, line: Union[str, InfoDict]) -> None:
        self._queue.append(line)
        self._changed.set()

    def _finish(self, best: Optional[BestMove], exc: Optional[BaseException]) -> None:
        if not self._done.done():
            if exc is not None:
                self._done.set_exception(exc)
                self._done.exception()  # marks it retrieved: a reader of get()/wait() sees it raised
            else:
                assert best is not None
                self._done.set_result(best)
        self._changed.set()

    def stop(self) -> None:
        """Ask the engine to stop (it then sends its best move).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def stopped():
        ...     transport, engine = await popen_uci(OURS)
        ...     analysis = await engine.analysis(Board())          # no limit: runs until stopped
        ...     async for info in analysis:
        ...         if info.get("depth", 0) >= 2:
        ...             analysis.stop()
        ...     best = await analysis.wait()
        ...     await engine.quit()
        ...     return best.move is not None
        >>> asyncio.run(stopped())
        True
        """
        if self._search is not None and not self._done.done():
            self._protocol._stop(self._search)

    async def wait(self) -> BestMove:
        """Wait for the end of the analysis; the best move (raises what ended it otherwise).

        See :class:`AnalysisResult`'s example.

        Raises:
            * the engine error that ended the analysis (:exc:`~xiangqi.errors.EngineError`,
              :exc:`~xiangqi.errors.EngineTerminatedError`).
        """
        return await asyncio.shield(self._done)

    def empty(self) -> bool:
        """Whether no info is waiting to be read now.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def drained():
        ...     transport, engine = await popen_uci(OURS)
        ...     analysis = await engine.analysis(Board(), Limit(depth=1))
        ...     await analysis.wait()
        ...     _ = [info async for info in analysis]
        ...     await engine.quit()
        ...     return analysis.empty()
        >>> asyncio.run(drained())
        True
        """
        return not self._queue

    async def get(self) -> InfoDict:
        """The next info; raises :class:`AnalysisComplete` after the last one (or what ended the analysis).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> async def past_the_end():
        ...     transport, engine = await popen_uci(OURS)
        ...     analysis = await engine.analysis(Board(), Limit(depth=1))
        ...     _ = [info async for info in analysis]
        ...     await engine.quit()
        ...     await analysis.get()
        >>> asyncio.run(past_the_end())
        Traceback (most recent call last):
        ...
        xiangqi.engine.AnalysisComplete: the analysis has ended

        Raises:
            * :exc:`AnalysisComplete` after the last info;
            * the engine error that ended the analysis.
        """
        while True:
            while not self._queue:
                if self._done.done():
                    self._done.result()  # raises the engine's error, if any
                    raise AnalysisComplete("the analysis has ended")
                self._changed.clear()
                await self._changed.wait()
            assert self._search is not None
            item = self._queue.popleft()
            info = item if not isinstance(item, str) else self._search.translate(parse_info_words(item.split()[1:]))
            if info:   # a line with nothing readable is no info
                return info

    def __aiter__(self) -> "AnalysisResult":
        return self

    async def __anext__(self) -> InfoDict:
        try:
            return await self.get()
        except AnalysisComplete:
            raise StopAsyncIteration from None


# ------------------------------------------------------------------------------------------------- starting engines

Command = Union[str, Sequence[str]]


def _argv(command: Command) -> List[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


async def popen_protocol(factory: Type[EngineProtocol], command: Command, dialect: Optional[Union[Dialect, str]],
                 timeout: Optional[float], popen_args: Mapping[str, object], fen_letters: Optional[str] = None
                 ) -> Tuple[asyncio.SubprocessTransport, EngineProtocol]:
    """Start ``command`` as an engine speaking ``factory``'s protocol and shake hands (what :func:`popen_uci`,
    :func:`popen_ucci` and :func:`xiangqi.xboard.popen_xboard` share)."""
    argv = _argv(command)
    if not argv:
        raise ValueError("empty engine command")
    if fen_letters is not None and fen_letters not in FEN_LETTERS:
        raise ValueError(f"fen_letters must be {' or '.join(FEN_LETTERS)}, not {fen_letters!r}")
    d = Dialect(dialect) if isinstance(dialect, str) else dialect
    loop = asyncio.get_running_loop()
    kwargs: Dict[str, Any] = {"start_new_session": True}   # Ctrl-C reaches us, and we quit the engine
    kwargs.update(popen_args)
    try:
        transport, protocol = await loop.subprocess_exec(
            factory, *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, **kwargs)
    except OSError as exc:
        raise EngineTerminatedError(f"cannot start engine {' '.join(argv)!r}: {exc.strerror or exc}") from None
    assert isinstance(protocol, EngineProtocol)
    protocol.command = " ".join(argv)
    protocol.timeout = timeout
    if fen_letters is not None:
        protocol.fen_letters, protocol._letters_given = fen_letters, True
    try:
        await protocol.initialize(d)
    except BaseException:
        await protocol.kill()
        raise
    return transport, protocol


async def popen_uci(command: Command, *, dialect: Optional[Union[Dialect, str]] = None,
                    timeout: Optional[float] = 10.0, fen_letters: Optional[str] = None, **popen_args: object
                    ) -> Tuple[asyncio.SubprocessTransport, UciProtocol]:
    """Start a UCI engine (``command``: a string split like a shell does, or an argument list) and shake hands.

    ``dialect``: ``Dialect.UCI`` (ranks 0-9) or ``Dialect.UCI_ONE_BASED``
    (ranks 1-10); ``fen_letters``: ``"nb"`` or ``"he"`` for horse and
    elephant in the FENs sent (:attr:`EngineProtocol.fen_letters`). By
    default an engine with a ``UCI_Variant`` option is switched to xiangqi
    and, unless it is a Fairy-Stockfish (ranks 1-10, ``n``/``b``), asked: a
    ``go depth 1`` in a position of kings and a horse, written with each
    letter set, shows which letters it reads and how it writes ranks (Sjaak II:
    ``h``/``e``, ranks 1-10); without an answer that tells, ranks 1-10 and
    ``n``/``b``.

    >>> import sys
    >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
    >>> async def start():
    ...     transport, engine = await popen_uci(OURS)
    ...     await engine.quit()
    ...     return engine.dialect, sorted(engine.options)
    >>> asyncio.run(start())
    (<Dialect.UCI: 'uci'>, ['Clear Hash', 'Hash', 'Ponder', 'Rules'])

    Raises:
        * :exc:`ValueError` for an empty command, ``dialect=Dialect.UCCI`` or ``fen_letters`` other than ``"nb"``
          and ``"he"``;
        * :exc:`~xiangqi.errors.EngineTerminatedError` when the program cannot be started or exits during the
          handshake;
        * :exc:`~xiangqi.errors.EngineError` when the handshake does not finish within ``timeout``.
    """
    transport, protocol = await popen_protocol(UciProtocol, command, dialect, timeout, popen_args, fen_letters)
    assert isinstance(protocol, UciProtocol)
    return transport, protocol


async def popen_ucci(command: Command, *, timeout: Optional[float] = 10.0,
                     mate_value: Optional[int] = UCCI_MATE_VALUE, **popen_args: object
                     ) -> Tuple[asyncio.SubprocessTransport, UcciProtocol]:
    """Start a UCCI engine and shake hands (``ucci`` … ``ucciok``).

    Times go in seconds, as UCCI says, unless the engine offers ``usemillisec``
    (which is switched on) or is a Fairy-Stockfish, which reads them in
    milliseconds whether or not it has the option. ``mate_value``: the
    engine's mate score when it writes scores bare (``score 9997``):
    :data:`UCCI_MATE_VALUE` (ElephantEye's) by default, see :func:`bare_score`.

    >>> import sys
    >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
    >>> async def start():
    ...     transport, engine = await popen_ucci(OURS)
    ...     await engine.quit()
    ...     return engine.dialect
    >>> asyncio.run(start())
    <Dialect.UCCI: 'ucci'>

    Raises:
        * :exc:`ValueError` for an empty command or a dialect other than UCCI;
        * :exc:`~xiangqi.errors.EngineTerminatedError` when the program cannot be started or exits during the
          handshake;
        * :exc:`~xiangqi.errors.EngineError` when the handshake does not finish within ``timeout``.
    """
    transport, protocol = await popen_protocol(UcciProtocol, command, Dialect.UCCI, timeout, popen_args)
    assert isinstance(protocol, UcciProtocol)
    protocol.mate_value = mate_value
    return transport, protocol


async def popen_xboard(command: Command, *, timeout: Optional[float] = 10.0, fen_letters: Optional[str] = None,
                       mate_value: Optional[int] = None, **popen_args: object
                       ) -> Tuple[asyncio.SubprocessTransport, "XBoardProtocol"]:
    """Start an XBoard/CECP engine and shake hands: :func:`xiangqi.xboard.popen_xboard`, where the protocol lives.

    The engines tutorial runs it with MaxQi and Sjaak II; a program that cannot be started:

    >>> asyncio.run(popen_xboard("/nonexistent/engine"))
    Traceback (most recent call last):
    ...
    xiangqi.errors.EngineTerminatedError: cannot start engine '/nonexistent/engine': No such file or directory

    Raises:
        * the errors of :func:`xiangqi.xboard.popen_xboard`.
    """
    from xiangqi import xboard  # the XBoard dialect subclasses EngineProtocol, so it lives in the module above
    return await xboard.popen_xboard(command, timeout=timeout, fen_letters=fen_letters, mate_value=mate_value,
                                     **popen_args)


# ------------------------------------------------------------------------------------------------- synchronous API


def _abandon(protocol: EngineProtocol, loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    """A :class:`SimpleEngine` never quit: kill its process (the transport's own kill, which never signals a
    process id reused after the engine was reaped), close its pipes and stop its loop."""
    transport = protocol.transport
    if transport is not None and protocol.returncode is None:
        try:
            transport.kill()
        except (OSError, RuntimeError):   # gone, or its loop already closed
            pass
    if loop.is_closed():
        return

    def shut() -> None:
        if transport is not None:
            transport.close()
        loop.stop()

    try:
        loop.call_soon_threadsafe(shut)
    except RuntimeError:
        return
    if thread is not threading.current_thread():
        thread.join(1.0)
        if not thread.is_alive():
            loop.close()


class SimpleEngine:
    """A synchronous engine: the asyncio protocol on an event loop in a background thread.

    ``SimpleEngine.popen_uci("/usr/games/fairy-stockfish")`` starts Fairy-Stockfish (the engines tutorial
    runs it in its last section); the example uses the package's own engine, which is always there:

    >>> import sys
    >>> with SimpleEngine.popen_uci([sys.executable, "-m", "xiangqi", "engine"]) as engine:
    ...     engine.play(Board(), Limit(depth=2)).move
    Move.from_iccs('b2b6')

    Raises:
        * the errors of the :class:`EngineProtocol` methods each method runs, and
          :exc:`~xiangqi.errors.EngineTerminatedError` from every method after :meth:`quit`.
    """

    def __init__(self, protocol: EngineProtocol, loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
        self.protocol = protocol
        self._loop = loop
        self._thread = thread
        self._closed = False
        # Never quit: the process is killed when this object is collected or the interpreter exits, as
        # python-chess does (it used to run on, an orphan).
        self._finalizer = weakref.finalize(self, _abandon, protocol, loop, thread)

    @classmethod
    def _start(cls, coro_factory: "functools.partial[Coroutine[object, object, Tuple[asyncio.SubprocessTransport, EngineProtocol]]]") -> "SimpleEngine":
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="xiangqi-engine", daemon=True)
        thread.start()
        try:
            _, protocol = asyncio.run_coroutine_threadsafe(coro_factory(), loop).result()
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
            raise
        return cls(protocol, loop, thread)

    @classmethod
    def popen_uci(cls, command: Command, *, dialect: Optional[Union[Dialect, str]] = None,
                  timeout: Optional[float] = 10.0, fen_letters: Optional[str] = None,
                  **popen_args: object) -> "SimpleEngine":
        """Start a UCI engine (see :func:`popen_uci`).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.dialect
        <Dialect.UCI: 'uci'>
        >>> SimpleEngine.popen_uci("/nonexistent/engine")
        Traceback (most recent call last):
        ...
        xiangqi.errors.EngineTerminatedError: cannot start engine '/nonexistent/engine': No such file or directory

        Raises:
            * the errors of :func:`popen_uci`.
        """
        return cls._start(functools.partial(popen_protocol, UciProtocol, command, dialect, timeout, popen_args, fen_letters))

    @classmethod
    def popen_ucci(cls, command: Command, *, timeout: Optional[float] = 10.0,
                   mate_value: Optional[int] = UCCI_MATE_VALUE, **popen_args: object) -> "SimpleEngine":
        """Start a UCCI engine (see :func:`popen_ucci`).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_ucci(OURS) as engine:
        ...     engine.dialect
        <Dialect.UCCI: 'ucci'>

        Raises:
            * the errors of :func:`popen_ucci`.
        """
        engine = cls._start(functools.partial(popen_protocol, UcciProtocol, command, Dialect.UCCI, timeout, popen_args))
        engine.protocol.mate_value = mate_value  # read by the searches to come (the handshake has no scores)
        return engine

    @classmethod
    def popen_xboard(cls, command: Command, *, timeout: Optional[float] = 10.0, fen_letters: Optional[str] = None,
                     mate_value: Optional[int] = None, **popen_args: object) -> "SimpleEngine":
        """Start an XBoard/CECP engine (see :func:`xiangqi.xboard.popen_xboard`), e.g. ``/usr/games/maxqi``.

        The engines tutorial plays MaxQi and Sjaak II; this package's own engine speaks UCI and UCCI, not
        XBoard, and is told apart (it announces no features):

        >>> import sys
        >>> SimpleEngine.popen_xboard([sys.executable, "-m", "xiangqi", "engine"])
        Traceback (most recent call last):
        ...
        xiangqi.errors.EngineError: engine '... -m xiangqi engine' has no feature ping=1: this client needs ping to keep in step with it

        Raises:
            * the errors of :func:`xiangqi.xboard.popen_xboard`.
        """
        async def start() -> Tuple[asyncio.SubprocessTransport, EngineProtocol]:
            return await popen_xboard(command, timeout=timeout, fen_letters=fen_letters, mate_value=mate_value,
                                      **popen_args)

        return cls._start(functools.partial(start))

    def _run(self, coro: Coroutine[object, object, T]) -> T:
        if self._closed:
            coro.close()
            raise EngineTerminatedError(f"engine {self.protocol.name!r} has been closed")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @property
    def id(self) -> Dict[str, str]:
        """``id name``, ``id author`` … as the engine sent them.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.id["author"]
        'the pyxiangqi authors'
        """
        return self.protocol.id

    @property
    def options(self) -> Dict[str, Option]:
        """The engine's options by name.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.options["Hash"].type, engine.options["Hash"].max
        ('spin', 4096)
        """
        return self.protocol.options

    @property
    def dialect(self) -> Dialect:
        """The protocol and rank dialect in use.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.dialect.one_based
        False
        """
        return self.protocol.dialect

    @property
    def stderr(self) -> str:
        """The last lines the engine wrote to its standard error.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.stderr
        ''
        """
        return self.protocol.stderr

    @property
    def returncode(self) -> Optional[int]:
        """The process's exit status, ``None`` while it runs.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> engine = SimpleEngine.popen_uci(OURS)
        >>> engine.returncode
        >>> engine.quit(); engine.returncode
        0
        """
        return self.protocol.returncode

    def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set engine options (see :meth:`EngineProtocol.configure`).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.configure({"Hash": 8, "Clear Hash": None})

        Raises:
            * the errors of :meth:`EngineProtocol.configure`, and :exc:`~xiangqi.errors.EngineTerminatedError`
              after :meth:`quit`.
        """
        self._run(self.protocol.configure(options))

    def ping(self) -> None:
        """``isready`` / ``readyok``.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.ping()

        Raises:
            * the errors of :meth:`EngineProtocol.ping`, and :exc:`~xiangqi.errors.EngineTerminatedError` after
              :meth:`quit`.
        """
        self._run(self.protocol.ping())

    def play(self, board: Board, limit: Limit, *, game: object = None, banmoves: Sequence[Move] = (),
             root_moves: Optional[Sequence[Move]] = None) -> PlayResult:
        """The engine's move (see :meth:`EngineProtocol.play`).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     result = engine.play(Board(), Limit(depth=2))
        >>> result.move, result.ponder
        (Move.from_iccs('b2b6'), Move.from_iccs('c6c5'))

        Raises:
            * the errors of :meth:`EngineProtocol.play`, and :exc:`~xiangqi.errors.EngineTerminatedError` after
              :meth:`quit`.
        """
        return self._run(self.protocol.play(board, limit, game=game, banmoves=banmoves, root_moves=root_moves))

    @overload
    def analyse(self, board: Board, limit: Limit, *, multipv: None = ..., game: object = ...,
                root_moves: Optional[Sequence[Move]] = ...) -> InfoDict: ...
    @overload
    def analyse(self, board: Board, limit: Limit, *, multipv: int, game: object = ...,
                root_moves: Optional[Sequence[Move]] = ...) -> List[InfoDict]: ...

    def analyse(self, board: Board, limit: Limit, *, multipv: Optional[int] = None, game: object = None,
                root_moves: Optional[Sequence[Move]] = None) -> Union[InfoDict, List[InfoDict]]:
        """Analyse until ``limit`` (see :meth:`EngineProtocol.analyse`).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     info = engine.analyse(Board(), Limit(depth=2))
        >>> info["depth"], info["pv"][0]
        (2, Move.from_iccs('b2b6'))

        Raises:
            * the errors of :meth:`EngineProtocol.analyse`, and :exc:`~xiangqi.errors.EngineTerminatedError` after
              :meth:`quit`.
        """
        if multipv is None:
            return self._run(self.protocol.analyse(board, limit, game=game, root_moves=root_moves))
        return self._run(self.protocol.analyse(board, limit, multipv=multipv, game=game, root_moves=root_moves))

    def analysis(self, board: Board, limit: Optional[Limit] = None, *, multipv: Optional[int] = None,
                 game: object = None, root_moves: Optional[Sequence[Move]] = None) -> "SimpleAnalysisResult":
        """Start an analysis; iterate over its infos, ``stop()`` it, or use it as a context manager.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     with engine.analysis(Board(), Limit(depth=3)) as analysis:
        ...         depths = [info["depth"] for info in analysis if "depth" in info]
        >>> depths
        [1, 2, 3]

        Raises:
            * the errors of :meth:`EngineProtocol.analysis`, and :exc:`~xiangqi.errors.EngineTerminatedError` after
              :meth:`quit`.
        """
        result = self._run(self.protocol.analysis(board, limit, multipv=multipv, game=game, root_moves=root_moves))
        return SimpleAnalysisResult(self, result)

    def perft(self, board: Board, depth: int) -> Dict[Move, int]:
        """The engine's perft divide (see :meth:`EngineProtocol.perft`).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     sum(engine.perft(Board(), 2).values())
        1920

        Raises:
            * the errors of :meth:`EngineProtocol.perft`, and :exc:`~xiangqi.errors.EngineTerminatedError` after
              :meth:`quit`.
        """
        return self._run(self.protocol.perft(board, depth))

    def quit(self) -> None:
        """Quit the engine (killed if it does not exit) and stop the background loop.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> engine = SimpleEngine.popen_uci(OURS)
        >>> engine.quit()
        >>> engine.play(Board(), Limit(depth=1))
        Traceback (most recent call last):
        ...
        xiangqi.errors.EngineTerminatedError: engine 'pyxiangqi ...' has been closed
        """
        if self._closed:
            return
        try:
            self._run(self.protocol.quit())
        finally:
            self._closed = True
            self._finalizer.detach()
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    close = quit

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.protocol.name!r} ({self.dialect.value})>"


class SimpleAnalysisResult:
    """The synchronous face of :class:`AnalysisResult`: iterate over infos, :meth:`stop`, :meth:`wait`.

    >>> import sys
    >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
    >>> with SimpleEngine.popen_uci(OURS) as engine:
    ...     with engine.analysis(Board(), Limit(depth=2)) as analysis:
    ...         infos = list(analysis)
    ...         best = analysis.wait()
    >>> len(infos) > 0, best.move, analysis.info["depth"], len(analysis.multipv)
    (True, Move.from_iccs('b2b6'), 2, 1)

    Raises:
        * :exc:`AnalysisComplete` from :meth:`get` after the last info, and from :meth:`get` and :meth:`wait`
          the engine error that ended the analysis.
    """

    def __init__(self, engine: SimpleEngine, inner: AnalysisResult) -> None:
        self._engine = engine
        self._inner = inner

    @property
    def info(self) -> InfoDict:
        """The merged info of the best line so far.

        See :class:`SimpleAnalysisResult`'s example (``analysis.info["depth"] == 2``).
        """
        return self._inner.info

    @property
    def multipv(self) -> List[InfoDict]:
        """The merged info of every line so far.

        See :class:`SimpleAnalysisResult`'s example (one line without ``multipv``).
        """
        return self._inner.multipv

    def stop(self) -> None:
        """Ask the engine to stop.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     analysis = engine.analysis(Board())                 # no limit: runs until stopped
        ...     for info in analysis:
        ...         if info.get("depth", 0) >= 2:
        ...             analysis.stop()
        ...     analysis.wait().move is not None
        True
        """
        self._engine._loop.call_soon_threadsafe(self._inner.stop)

    def wait(self) -> BestMove:
        """Wait for the best move.

        See :class:`SimpleAnalysisResult`'s example.

        Raises:
            * the engine error that ended the analysis.
        """
        return self._engine._run(self._inner.wait())

    def get(self) -> InfoDict:
        """The next info (blocks); :class:`AnalysisComplete` after the last.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     analysis = engine.analysis(Board(), Limit(depth=1))
        ...     first = analysis.get()
        ...     _ = analysis.wait()
        >>> isinstance(first, dict)
        True

        Raises:
            * :exc:`AnalysisComplete` after the last info, or the engine error that ended the analysis.
        """
        return self._engine._run(self._inner.get())

    def empty(self) -> bool:
        """Whether no info is waiting now.

        See :meth:`would_block`'s example.
        """
        return self._inner.empty()

    def would_block(self) -> bool:
        """Whether :meth:`get` would wait (no info waiting and the analysis still running).

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     analysis = engine.analysis(Board(), Limit(depth=1))
        ...     _ = analysis.wait()
        ...     _ = list(analysis)
        ...     analysis.empty(), analysis.would_block()
        (True, False)
        """
        return self._inner.empty() and not self._inner._done.done()

    def next(self) -> Optional[InfoDict]:
        """The next info, or ``None`` once the analysis has ended.

        >>> import sys
        >>> OURS = [sys.executable, "-m", "xiangqi", "engine"]      # the package's own engine, "xiangqi engine"
        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     analysis = engine.analysis(Board(), Limit(depth=1))
        ...     _ = analysis.wait()
        ...     infos = list(iter(analysis.next, None))
        ...     len(infos) > 0, analysis.next()
        (True, None)
        """
        try:
            return self.get()
        except AnalysisComplete:
            return None

    def __iter__(self) -> Iterator[InfoDict]:
        return self

    def __next__(self) -> InfoDict:
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration from None

    def __enter__(self) -> "SimpleAnalysisResult":
        return self

    def __exit__(self, exc_type: Optional[Type[BaseException]], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        self.stop()
        try:
            self.wait()
        except EngineError:
            if exc_type is None:
                raise
