"""Engine-against-engine matches, every game adjudicated by this library's rule books (``xiangqi match``).

A game ends when :meth:`Board.outcome` says so under the chosen rules (mate,
stalemate as a loss, perpetual check or chase, the natural move limit), when
an engine fails (an illegal move, a crash, a hang, a lost clock: a loss with
the reason), or by the optional score adjudication (``--resign``, ``--draw``).
Each finished game is written at once with the PGN writer (:mod:`xiangqi.pgn`):
the ``Termination`` tag and a closing comment with the reason in English and
Chinese. Colours alternate per opening; ``--concurrency K`` plays K games at
a time, each pair of engines on its own. The score, Elo, LOS and SPRT are
:mod:`xiangqi.match_stats`'s.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime
import json
import math
import random
import shlex
import signal
import sys
from pathlib import Path
from typing import IO, Coroutine, Dict, List, Mapping, Optional, Sequence, TextIO, Tuple, TypeVar

from xiangqi._cliio import add_rules_options
from xiangqi import pgn
from xiangqi.board import Board
from xiangqi.rules import RULE_SET_NAMES, rule_set_name, rules_spec
from xiangqi.core import Color
from xiangqi.engine import (
    FEN_LETTERS, Dialect, EngineError, EngineProtocol, EngineTerminatedError, Limit, OptionValue, PlayResult, popen_ucci,
    popen_uci,
)
from xiangqi.uci import Option
from xiangqi.xboard import XBoardProtocol, popen_xboard
from xiangqi.errors import InvalidFenError
from xiangqi.facts import side_words
from xiangqi.match_stats import MatchScore, Sprt, parse_sprt
from xiangqi.outcome import Termination, result_of

__all__ = ["EngineSpec", "TimeControl", "Adjudication", "GameResult", "play_game", "run_match", "match_main",
           "pairings", "order_openings", "parse_engine_spec", "parse_tc", "read_engines_file", "read_openings",
           "failure_lines", "rules_setting", "tell_rules", "rules_lines", "MAX_SECONDS"]

#: Seconds an engine may take to start and answer the handshake, at least (``--timeout`` when larger).
_START_TIMEOUT = 10.0
#: The longest time a time control, ``--movetime`` or ``--timeout`` may give (seconds; about 31 years).
MAX_SECONDS = 1e9
#: Seconds an engine is given to quit when the match is interrupted, before it is killed.
_QUIT_GRACE = 1.0

#: The PGN ``Termination`` tag for each way a game can end.
T = TypeVar("T")

#: The ``Termination`` tags of a game lost by an engine's own failure.
_FAILURES = ("abandoned", "rules infraction", "time forfeit")

_TERMINATION_TAG = {
    Termination.CHECKMATE: "normal",
    Termination.STALEMATE: "normal",
    Termination.PERPETUAL_CHECK: "adjudication",
    Termination.PERPETUAL_CHASE: "adjudication",
    Termination.FORBIDDEN_PATTERN: "adjudication",
    Termination.REPETITION_DRAW: "adjudication",
    Termination.NATURAL_LIMIT: "adjudication",
    Termination.INSUFFICIENT_MATERIAL: "adjudication",
}


@dataclasses.dataclass
class EngineSpec:
    """One ``--engine`` argument: ``cmd=… proto=uci|ucci|xboard name=… dialect=… fen_letters=nb|he option.X=Y``.

    >>> EngineSpec("xiangqi engine", proto="ucci", name="ours", options={"hashsize": 1}).options
    {'hashsize': 1}
    """

    cmd: str
    proto: str = "uci"
    name: str = ""
    dialect: Optional[Dialect] = None
    options: Dict[str, OptionValue] = dataclasses.field(default_factory=dict)
    #: Horse and elephant in the FENs sent: ``"nb"`` or ``"he"`` (``None``: as :func:`~xiangqi.engine.popen_uci` finds).
    fen_letters: Optional[str] = None
    #: This engine's own limits (``tc=``, ``depth=``, ``nodes=``, ``st=``), over the match's.
    tc: Optional["TimeControl"] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[float] = None
    #: The directory the engine runs in (``dir=``, an engines file's ``workingDirectory``).
    cwd: Optional[str] = None

    def control(self, limit: Limit, tc: Optional["TimeControl"]) -> Tuple[Limit, Optional["TimeControl"]]:
        """This engine's limit and time control: its own settings when it has any, else the match's.

        >>> EngineSpec("x", depth=5).control(Limit(time=1), None)
        (Limit(time=None, depth=5, nodes=None, mate=None, red_clock=None, black_clock=None, red_inc=None, black_inc=None, movestogo=None), None)
        >>> EngineSpec("x").control(Limit(time=1), None)[0].time
        1
        """
        if self.tc is None and self.depth is None and self.nodes is None and self.movetime is None:
            return limit, tc
        return Limit(time=self.movetime, depth=self.depth, nodes=self.nodes), self.tc

    async def start(self, timeout: Optional[float]) -> EngineProtocol:
        """Start the engine, shake hands and set its options; ``timeout`` is then each answer's grace time.

        >>> import sys
        >>> async def name_of(spec):
        ...     engine = await spec.start(timeout=10)
        ...     await engine.quit()
        ...     return engine.name.split()[0]
        >>> asyncio.run(name_of(EngineSpec(f"{sys.executable} -m xiangqi engine", name="ours")))
        'pyxiangqi'

        Raises:
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine cannot be started or exits;
            * :exc:`~xiangqi.errors.EngineError` when it does not answer the handshake in time or refuses an
              option (the engine is then killed). The message starts ``--engine NAME:`` and quotes the
              engine's own last words (:attr:`~xiangqi.engine.EngineProtocol.last_words`).
        """
        # Starting up (loading networks, tables) may take longer than a move's grace time.
        handshake = None if timeout is None else max(timeout, _START_TIMEOUT)
        try:
            if self.proto == "ucci":
                _, protocol = await popen_ucci(self.cmd, timeout=handshake, cwd=self.cwd)
                engine: EngineProtocol = protocol
            elif self.proto == "xboard":
                _, xb = await popen_xboard(self.cmd, timeout=handshake, fen_letters=self.fen_letters, cwd=self.cwd)
                engine = xb
            else:
                _, uci = await popen_uci(self.cmd, dialect=self.dialect, timeout=handshake,
                                         fen_letters=self.fen_letters, cwd=self.cwd)
                engine = uci
        except EngineError as exc:      # its own words are in the message: which --engine it is, too
            raise type(exc)(f"--engine {self.name}: {exc}", stderr=exc.stderr) from None
        engine.timeout = timeout
        try:
            if self.options:
                await engine.configure(self.options)
        except ValueError as exc:      # an option it does not have, or a value it does not take
            await engine.kill()
            raise EngineError(f"--engine {self.name}: {exc}") from None
        except BaseException:
            await engine.kill()
            raise
        return engine


_SPEC_KEYS = ("cmd", "proto", "name", "dialect", "fen_letters", "tc", "depth", "nodes", "st", "dir", "conf")


def parse_engine_spec(words: Sequence[str], configs: Optional[Mapping[str, Sequence[str]]] = None) -> EngineSpec:
    """An :class:`EngineSpec` from ``key=value`` words (``ValueError`` naming a bad one).

    Keys: ``cmd``, ``proto`` (``uci``, ``ucci``, ``xboard``), ``name``, ``dialect``, ``fen_letters`` (``nb`` or
    ``he``: horse and elephant in the FENs the engine reads; else found by trying), ``option.X``, the
    engine's own limits ``tc`` (``[moves/]seconds[+increment]``), ``depth``, ``nodes``, ``st`` (seconds a
    move), ``dir`` (its working directory), and ``conf=NAME``: the settings of the engine ``NAME`` in
    ``configs`` (:func:`read_engines_file`), which the other words override.

    >>> parse_engine_spec(["cmd=/usr/games/fairy-stockfish", "option.Hash=32", "tc=40/60+0.6"])
    EngineSpec(cmd='/usr/games/fairy-stockfish', proto='uci', name='fairy-stockfish', dialect=None, options={'Hash': '32'}, fen_letters=None, tc=TimeControl(base=60.0, increment=0.6, moves=40), depth=None, nodes=None, movetime=None, cwd=None)
    >>> parse_engine_spec(["cmd=/usr/games/maxqi", "proto=xboard", "depth=4"]).depth
    4
    >>> parse_engine_spec(["cmd=xiangqi engine", "proto=cecp"])
    Traceback (most recent call last):
    ...
    ValueError: proto must be uci, ucci or xboard, not 'cecp'

    Raises:
        * :exc:`ValueError` for a word that is not ``key=value``, an unknown key, a missing ``cmd``, a bad
          ``proto``, ``dialect``, ``fen_letters``, ``tc``, ``depth``, ``nodes`` or ``st``, or a ``conf`` that
          ``configs`` lacks.
    """
    fields: Dict[str, str] = {}
    options: Dict[str, OptionValue] = {}
    conf = [w.partition("=")[2] for w in words if w.startswith("conf=")]
    if conf:
        if configs is None or conf[-1] not in configs:
            known = ", ".join(sorted(configs)) if configs else "no engines file given (--engines-file)"
            raise ValueError(f"conf={conf[-1]}: no such engine in the engines file ({known})")
        words = list(configs[conf[-1]]) + [w for w in words if not w.startswith("conf=")]
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"engine setting {word!r} is not key=value (cmd=, proto=, name=, dialect=, option.X=)")
        if key.startswith("option."):
            options[key[len("option."):]] = value
        elif key in _SPEC_KEYS:
            fields[key] = value
        else:
            raise ValueError(f"unknown engine setting {key!r}: expected {', '.join(_SPEC_KEYS)} or option.X")
    if not fields.get("cmd"):
        raise ValueError("an --engine needs cmd=COMMAND")
    proto = fields.get("proto", "uci").lower()
    if proto not in ("uci", "ucci", "xboard"):
        raise ValueError(f"proto must be uci, ucci or xboard, not {proto!r}")
    dialect = None
    if "dialect" in fields:
        try:
            dialect = Dialect(fields["dialect"])
        except ValueError:
            raise ValueError(f"dialect must be {' or '.join(d.value for d in Dialect)}, "
                             f"not {fields['dialect']!r}") from None
    letters = fields.get("fen_letters")
    if letters is not None and letters not in FEN_LETTERS:
        raise ValueError(f"fen_letters must be {' or '.join(FEN_LETTERS)}, not {letters!r}")
    if (dialect is Dialect.XBOARD) != (proto == "xboard") and dialect is not None:
        raise ValueError(f"dialect {dialect.value} goes with proto=xboard only, not proto={proto}")
    name = fields.get("name") or Path(shlex.split(fields["cmd"])[0]).name
    spec = EngineSpec(fields["cmd"], proto, name, dialect, options, letters, cwd=fields.get("dir"))
    if "tc" in fields:
        spec.tc = parse_tc(fields["tc"])
    for key in ("depth", "nodes"):
        if key in fields:
            n = _int(fields[key])
            if n is None or n < 1:
                raise ValueError(f"{key} must be an integer >= 1, not {fields[key]!r}")
            setattr(spec, key, n)
    if "st" in fields:
        try:
            spec.movetime = float(fields["st"])
        except ValueError:
            spec.movetime = math.nan
        if not spec.movetime > 0 or math.isinf(spec.movetime):
            raise ValueError(f"st must be a positive number of seconds, not {fields['st']!r}")
    return spec


#: Names (lower case, without spaces, ``_`` or ``-``) of an engine option that chooses the rule book.
_RULES_OPTION_NAMES = ("rules", "rule", "ruleset", "rulebook", "repetitionrules")


def rules_setting(options: Mapping[str, Option], book: str) -> Optional[Tuple[str, str]]:
    """The option and value that tell an engine the rule book ``book`` (``axf`` or ``cxa``): an option named
    for the rules (our engine's ``Rules``, UCCI ``rules``, any case) that takes the book's name (a combo choice
    that :data:`~xiangqi.rulesets.RULE_SET_NAMES` reads as the book, or a string); ``None`` when it has none.

    >>> from xiangqi.uci import Option
    >>> rules_setting({"Rules": Option("Rules", "combo", "axf", var=["axf", "cxa"])}, "cxa")
    ('Rules', 'cxa')
    >>> rules_setting({"Rule_Set": Option("Rule_Set", "combo", "Asian", var=["Asian", "Chinese"])}, "cxa")
    ('Rule_Set', 'Chinese')
    >>> rules_setting({"Hash": Option("Hash", "spin", "16", 1, 1024)}, "cxa") is None
    True
    """
    for opt in options.values():
        if opt.name.lower().translate(str.maketrans("", "", " _-")) not in _RULES_OPTION_NAMES:
            continue
        if opt.type == "combo":
            value = next((v for v in opt.var if RULE_SET_NAMES.get(v.lower()) == book), None)
            if value is not None:
                return opt.name, value
        elif opt.type == "string":
            return opt.name, book
    return None


async def tell_rules(engine: EngineProtocol, book: str, options: Optional[Mapping[str, OptionValue]] = None
                     ) -> Optional[str]:
    """Set the engine's rule-book option (:func:`rules_setting`) to ``book``, unless ``options`` (the
    engine's ``option.X=`` settings) set it already; the setting as ``NAME=VALUE``, or ``None`` when the engine
    was not told (it has no such option).

    >>> import sys
    >>> async def told():
    ...     engine = await EngineSpec(f"{sys.executable} -m xiangqi engine", proto="ucci").start(10)
    ...     try:
    ...         return await tell_rules(engine, "cxa")
    ...     finally:
    ...         await engine.quit()
    >>> asyncio.run(told())
    'rules=cxa'

    Raises:
        * :exc:`~xiangqi.errors.EngineError` as :meth:`~xiangqi.engine.EngineProtocol.configure`.
    """
    setting = rules_setting(engine.options, book)
    if setting is None:
        return None
    name, value = setting
    given = next((v for k, v in (options or {}).items() if k.lower() == name.lower()), None)
    if given is not None:
        return f"{name}={given}"
    await engine.configure({name: value})
    return f"{name}={value}"


def _int(text: str) -> Optional[int]:
    try:
        return int(text)
    except ValueError:
        return None


def read_engines_file(path: Path) -> Dict[str, List[str]]:
    """The engines of a JSON engines file, as cutechess's ``engines.json``: each one's settings as ``key=value``
    words for :func:`parse_engine_spec`, by name.

    Each entry is an object with ``name`` and ``command``, and optionally ``protocol`` (``uci``, ``ucci``,
    ``xboard``), ``workingDirectory``, ``options`` (a list of ``{"name": ..., "value": ...}``, or an object of
    name to value), and this library's ``tc``, ``depth``, ``nodes``, ``st``, ``dialect``.

    >>> import json, tempfile
    >>> path = Path(tempfile.mkdtemp(), "engines.json")
    >>> _ = path.write_text(json.dumps([{"name": "fsf", "command": "/usr/games/fairy-stockfish", "protocol": "uci",
    ...                                  "options": [{"name": "Hash", "value": 16}], "tc": "10+0.1"}]))
    >>> read_engines_file(path)
    {'fsf': ['name=fsf', 'cmd=/usr/games/fairy-stockfish', 'proto=uci', 'tc=10+0.1', 'option.Hash=16']}

    Raises:
        * :exc:`ValueError` for a file that is not JSON, or an entry without ``name`` or ``command``;
        * :exc:`OSError` when the file cannot be read.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    entries = data if isinstance(data, list) else data.get("engines") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError(f"{path}: expected a list of engines")
    found: Dict[str, List[str]] = {}
    for i, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or not entry.get("name") or not entry.get("command"):
            raise ValueError(f"{path}: engine {i} needs a name and a command")
        words = [f"name={entry['name']}", f"cmd={entry['command']}"]
        for key, word in (("protocol", "proto"), ("workingDirectory", "dir"), ("tc", "tc"), ("depth", "depth"),
                          ("nodes", "nodes"), ("st", "st"), ("dialect", "dialect")):
            if entry.get(key) not in (None, ""):
                words.append(f"{word}={entry[key]}")
        options = entry.get("options") or []
        pairs = options.items() if isinstance(options, dict) else (
            (o.get("name"), o.get("value", o.get("default"))) for o in options if isinstance(o, dict))
        for name, value in pairs:
            if name and value is not None:
                words.append(f"option.{name}={str(value).lower() if isinstance(value, bool) else value}")
        found[str(entry["name"])] = words
    return found


@dataclasses.dataclass
class TimeControl:
    """``[moves/]base[+increment]`` in seconds, as cutechess writes it (``10+0.1``, ``40/60``).

    >>> TimeControl(60, 1)
    TimeControl(base=60, increment=1, moves=None)
    """

    base: float
    increment: float = 0.0
    moves: Optional[int] = None


def parse_tc(text: str) -> TimeControl:
    """Read ``10+0.1``, ``60``, ``40/60+1`` (``ValueError`` otherwise).

    >>> parse_tc("10+0.1"), parse_tc("40/60")
    (TimeControl(base=10.0, increment=0.1, moves=None), TimeControl(base=60.0, increment=0.0, moves=40))
    >>> parse_tc("0+1")
    Traceback (most recent call last):
    ...
    ValueError: time control '0+1': base must be > 0, increment >= 0 (both at most 1e+09 s), moves >= 1

    Raises:
        * :exc:`ValueError` for text of another form, or a base of 0, a negative increment, a time that is not a
          number (``nan``) or beyond :data:`MAX_SECONDS` (``inf``), or 0 moves.
    """
    moves: Optional[int] = None
    rest = text
    try:
        if "/" in rest:
            m, rest = rest.split("/", 1)
            moves = int(m)
        base, _, inc = rest.partition("+")
        tc = TimeControl(float(base), float(inc) if inc else 0.0, moves)
    except ValueError:
        raise ValueError(f"time control {text!r} is not [moves/]seconds[+increment], e.g. 10+0.1") from None
    if not (0 < tc.base <= MAX_SECONDS and 0 <= tc.increment <= MAX_SECONDS) or (moves is not None and moves < 1):
        raise ValueError(f"time control {text!r}: base must be > 0, increment >= 0 (both at most {MAX_SECONDS:g} s), "
                         "moves >= 1")
    return tc


#: One side's search limit and time control (the time control, when given, makes the limit a clock).
Control = Tuple[Limit, Optional[TimeControl]]


@dataclasses.dataclass
class Adjudication:
    """Ending games early by the engines' scores (each side's own view, centipawns, mates as ±100000).

    Resign: the side to move has reported ``<= -resign_score`` and its opponent
    ``>= resign_score`` for ``resign_moves`` moves each. Draw: both sides within
    ``±draw_score`` for ``draw_moves`` moves each. ``max_plies`` caps a game
    (a draw) in case the rule books never end it.

    >>> Adjudication(resign_score=1000, draw_score=10).max_plies
    600
    """

    resign_score: Optional[int] = None
    resign_moves: int = 3
    draw_score: Optional[int] = None
    draw_moves: int = 8
    max_plies: int = 600


@dataclasses.dataclass
class GameResult:
    """One finished game: the record, the result, and which engine played Red.

    >>> GameResult(pgn.Game(), "0-1", "normal", "Red is checkmated", first_is_red=False).points_first()
    1.0
    """

    game: pgn.Game
    result: str
    termination: str
    reason: str
    first_is_red: bool
    #: The engine (``--engine`` name) whose failure ended the game (a crash, a refusal, an illegal move, time), if any.
    failed: str = ""
    #: Its last words then (:attr:`~xiangqi.engine.EngineProtocol.last_words`).
    last_words: str = ""

    def points_first(self) -> float:
        """The first engine's points (1, 0.5 or 0).

        >>> [GameResult(pgn.Game(), result, "normal", "", True).points_first() for result in ("1-0", "1/2-1/2", "0-1")]
        [1.0, 0.5, 0.0]
        """
        if self.result == "1/2-1/2":
            return 0.5
        red_won = self.result == "1-0"
        return 1.0 if red_won == self.first_is_red else 0.0


def read_openings(path: Path) -> List[Board]:
    """Opening positions from a PGN file (each game's main line, kept as a move stack) or FEN/EPD lines (or
    ``startpos``, the start position, as the commands take it).

    >>> import tempfile
    >>> epd = Path(tempfile.mkdtemp(), "openings.epd")
    >>> _ = epd.write_text("# two openings\\n4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\\n")
    >>> [board.fen() for board in read_openings(epd)][0]
    '4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1'
    >>> _ = epd.write_text("startpos\\n")
    >>> read_openings(epd) == [Board()]
    True

    Raises:
        * :exc:`ValueError` for a game with an error, a line that is not a FEN (or ``startpos`` alone), or a file
          without openings;
        * :exc:`OSError` when the file cannot be read.
    """
    text = path.read_text(encoding="utf-8", errors="replace")
    boards: List[Board] = []
    if path.suffix.lower() == ".pgn" or text.lstrip().startswith("["):
        for i, game in enumerate(pgn.read_games(path), 1):
            if game.errors:
                raise ValueError(f"{path}: game {i}: {game.errors[0]}")
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
            boards.append(board)
    else:
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.split(";", 1)[0].strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if fields[0].lower() == "startpos":     # the commands' word for the start position
                if len(fields) > 1:
                    raise ValueError(f"{path}:{lineno}: expected nothing after 'startpos' (an opening with moves goes "
                                     f"in a PGN openings file), not {' '.join(fields[1:])[:60]!r}")
                boards.append(Board())
                continue
            board = None
            for n in (6, 4, 2):
                try:
                    board = Board(" ".join(fields[:n]))
                    break
                except InvalidFenError as exc:
                    error = exc
            if board is None:
                raise ValueError(f"{path}:{lineno}: {error}")
            boards.append(board)
    if not boards:
        raise ValueError(f"{path}: no opening positions")
    return boards


class _ScoreTrack:
    """The last scores each side reported about itself, for score adjudication."""

    def __init__(self) -> None:
        self.scores: Dict[Color, List[int]] = {True: [], False: []}

    def add(self, color: Color, result: PlayResult) -> None:
        score = result.info.get("score")
        mine = self.scores[color]
        if score is not None:
            mine.append(score.relative.score(mate_score=100000) or 0)
        else:  # no score with this move: the run of scores is broken
            mine.clear()

    def verdict(self, adj: Adjudication, turn: Color) -> Optional[Tuple[Optional[Color], str]]:
        mine, theirs = self.scores[turn], self.scores[not turn]
        if adj.resign_score is not None and len(mine) >= adj.resign_moves and len(theirs) >= adj.resign_moves:
            n, s = adj.resign_moves, adj.resign_score
            if all(x <= -s for x in mine[-n:]) and all(x >= s for x in theirs[-n:]):
                return (not turn, f"both engines agree the side to move is lost (score beyond {s} for {n} moves)")
        if adj.draw_score is not None and len(mine) >= adj.draw_moves and len(theirs) >= adj.draw_moves:
            n, s = adj.draw_moves, adj.draw_score
            if all(abs(x) <= s for x in mine[-n:] + theirs[-n:]):
                return (None, f"both engines see a level game (scores within {s} for {n} moves)")
        return None


async def play_game(red: EngineProtocol, black: EngineProtocol, opening: Board, limit: Limit,
                    tc: Optional[TimeControl], rules: str, adj: Adjudication, headers: Dict[str, str],
                    time_margin: float = 0.1, *, controls: Optional[Dict[bool, Control]] = None,
                    movetime_margin: Optional[float] = None) -> Tuple[pgn.Game, str, str, str]:
    """Play one game from ``opening``; the record (with result, ``Termination`` and reason), result, tag, reason.

    An engine that crashes, hangs or plays an illegal move loses the game; nothing is raised for it.
    ``controls``: each colour's own limit and time control (``--engine ... tc=``), instead of ``limit`` and
    ``tc``. ``movetime_margin``: a move that takes longer than its fixed time plus this loses on time.
    ``adj.max_plies`` counts every ply of the record, the opening's too (as the PGN's ``PlyCount``).

    >>> import sys
    >>> ours = EngineSpec(f"{sys.executable} -m xiangqi engine", name="ours")
    >>> async def one_game():
    ...     red, black = await ours.start(10), await ours.start(10)
    ...     try:
    ...         return await play_game(red, black, Board(), Limit(depth=1), None, "axf", Adjudication(max_plies=4), {})
    ...     finally:
    ...         await red.quit(), await black.quit()
    >>> game, result, tag, reason = asyncio.run(one_game())
    >>> len(game.mainline_moves()), result, tag, game.headers["Termination"]
    (4, '1/2-1/2', 'adjudication', 'adjudication')
    """
    board = opening.copy()
    loop = asyncio.get_running_loop()
    game = pgn.Game(headers)
    game.setup(board.root())
    node: pgn.GameNode = game
    for move in board.move_stack:
        node = node.add_main_variation(move)
    sides = controls or {True: (limit, tc), False: (limit, tc)}
    clocks = {c: ctl[1].base for c, ctl in sides.items() if ctl[1] is not None}
    made = {True: 0, False: 0}      # moves each side has made in this game
    track = _ScoreTrack()
    game_id = object()
    winner: Optional[Color]
    while True:
        outcome = board.outcome(rules=rules)
        if outcome is not None:
            winner, tag = outcome.winner, _TERMINATION_TAG[outcome.termination]
            reason, reason_zh = outcome.reason, outcome.reason_zh
            break
        turn = board.turn
        side, side_zh = side_words(turn), side_words(turn, chinese=True) + "方"
        if len(board.move_stack) >= adj.max_plies:
            winner, tag = None, "adjudication"
            reason, reason_zh = f"draw: the game reached {adj.max_plies} plies", f"和棋：对局达到{adj.max_plies}步"
            break
        engine = red if turn else black
        limit, tc = sides[turn]
        if tc:
            moves_left = tc.moves - made[turn] % tc.moves if tc.moves else None
            red_tc, black_tc = sides[True][1], sides[False][1]
            limit = Limit(red_clock=clocks.get(True), black_clock=clocks.get(False),
                          red_inc=(red_tc.increment if red_tc else None) or None,
                          black_inc=(black_tc.increment if black_tc else None) or None, movestogo=moves_left)
        started = loop.time()
        # A depth or node limit has no time of its own, and the client waits as long as the limit allows:
        # here a move may take the engine's timeout, so a hung engine loses instead of stopping the match.
        unbounded = limit.time_bound(turn) is None and engine.timeout is not None
        try:
            if unbounded:
                played = await asyncio.wait_for(engine.play(board, limit, game=game_id), engine.timeout)
            else:
                played = await engine.play(board, limit, game=game_id)
        except asyncio.TimeoutError:
            await engine.kill()
            winner, tag = not turn, "time forfeit"
            reason = (f"{side} ({engine.name}) loses: engine {engine.name!r} did not answer in {engine.timeout:g} s "
                      f"in {board.fen()}; the process was killed")
            reason_zh = f"{side_zh}引擎无响应，负"
            break
        except EngineTerminatedError as exc:
            winner, tag = not turn, "abandoned"
            reason, reason_zh = f"{side} ({engine.name}) loses: {exc}", f"{side_zh}引擎崩溃，负"
            break
        except EngineError as exc:
            illegal = "illegal" in str(exc) or "null move" in str(exc)
            refused = " refused " in str(exc)      # the engine's own error about the position or a command
            winner = not turn
            tag = "rules infraction" if illegal else "abandoned" if refused else "time forfeit"
            reason = f"{side} ({engine.name}) loses: {exc}"
            reason_zh = f"{side_zh}{'走出非法着法' if illegal else '引擎报错' if refused else '引擎无响应'}，负"
            break
        elapsed = loop.time() - started
        made[turn] += 1
        if tc:
            clocks[turn] -= elapsed
            if clocks[turn] < -time_margin:
                winner, tag = not turn, "time forfeit"
                reason, reason_zh = f"{side} ({engine.name}) loses on time", f"{side_zh}超时，负"
                break
            clocks[turn] += tc.increment
            if tc.moves and made[turn] % tc.moves == 0:
                clocks[turn] += tc.base
        elif limit.time is not None and movetime_margin is not None and elapsed > limit.time + movetime_margin:
            winner, tag = not turn, "time forfeit"
            reason = (f"{side} ({engine.name}) loses on time: {elapsed:.3f} s for a move of {limit.time:g} s "
                      f"(margin {movetime_margin:g} s)")
            reason_zh = f"{side_zh}超时，负"
            break
        if played.move is None or played.resigned:
            winner, tag = not turn, "normal" if played.resigned else "rules infraction"
            what = "resigns" if played.resigned else "has no move in a position that is not over"
            reason, reason_zh = f"{side} ({engine.name}) {what}", f"{side_zh}{'认输' if played.resigned else '无着可走'}，负"
            break
        board.push(played.move)
        node = node.add_main_variation(played.move, comment=_move_comment(played, elapsed))
        track.add(turn, played)
        verdict = track.verdict(adj, board.turn)
        if verdict is not None:
            winner, text = verdict
            tag = "adjudication"
            reason = f"adjudication: {text}" + ("" if winner is None else f"; {side_words(winner)} wins")
            reason_zh = "裁决：" + ("和棋" if winner is None else ("红胜" if winner else "黑胜"))
            break
    result = result_of(winner)
    await _tell_result((red, black), board, winner, reason)
    game.headers["Result"] = result
    game.headers["Termination"] = tag
    game.headers["PlyCount"] = str(len(board.move_stack))
    full = f"{reason} / {reason_zh}"
    node.comment = (node.comment + " " if node.comment else "") + full
    return game, result, tag, full


async def _tell_result(engines: Sequence[EngineProtocol], board: Board, winner: Optional[Color], reason: str) -> None:
    """CECP's ``result`` to the XBoard engines of a finished game (one that has gone is left alone)."""
    ending = reason.replace("{", "(").replace("}", ")").replace("\n", " ").replace("\r", " ")
    for engine in engines:
        if isinstance(engine, XBoardProtocol) and engine.returncode is None:
            try:
                await engine.send_game_result(board, winner, ending)
            except EngineError:
                pass


def _move_comment(played: PlayResult, elapsed: float) -> str:
    info = played.info
    parts = []
    score = info.get("score")
    if score is not None:
        mate = score.relative.mate()
        parts.append(f"#{mate}" if mate is not None else f"{(score.relative.score() or 0) / 100:+.2f}")
    if "depth" in info:
        parts.append(f"/{info['depth']}")
    parts.append(f" {elapsed:.3f}s")
    return "".join(parts).strip()


def _open_io_log(directory: Optional[Path], round_number: int, names: Dict[EngineProtocol, str]) -> Optional[IO[str]]:
    """A game's engine I/O log, ``directory/round-N.log``: ``seconds name > sent`` / ``seconds name < read``."""
    if directory is None:
        return None
    out = open(directory / f"round-{round_number}.log", "w", encoding="utf-8")
    loop = asyncio.get_running_loop()
    started = loop.time()
    for engine, name in names.items():
        def write(direction: str, line: str, name: str = name) -> None:
            out.write(f"{loop.time() - started:9.3f} {name} {direction} {line}\n")
        engine.io_log = write
    return out


async def run_match(specs: Tuple[EngineSpec, EngineSpec], openings: List[Board], games: int, limit: Limit,
                    tc: Optional[TimeControl], rules: str, adj: Adjudication, concurrency: int,
                    pgn_file: Optional[IO[str]], progress: Optional[TextIO] = None, timeout: Optional[float] = 10.0,
                    notation: str = "chinese", score: Optional[MatchScore] = None,
                    results: Optional[List[GameResult]] = None, *, sprt: Optional[Sprt] = None, repeat: int = 2,
                    movetime_margin: Optional[float] = None, first_round: int = 1,
                    io_log: Optional[Path] = None, told: Optional[Dict[str, Optional[str]]] = None
                    ) -> Tuple[MatchScore, List[GameResult]]:
    """Play ``games`` games; each is written to ``pgn_file`` as soon as it ends. Cancelling stops cleanly.

    ``score`` and ``results`` (filled as games end) may be passed in, so a
    caller still has them when the match is interrupted. Each opening is
    played ``repeat`` games in a row, colours alternating (2: a pair, each
    engine Red once, counted for the pentanomial model). With ``sprt`` the
    match stops early (no new game starts) once the test accepts H0 or H1.
    An engine's own limits (:meth:`EngineSpec.control`) replace ``limit``
    and ``tc`` for its moves; ``movetime_margin``: see :func:`play_game`.
    Rounds are numbered from ``first_round``. ``io_log``: a directory
    where each game's engine input and output goes, ``round-N.log``.
    Each engine is told the rule book (:func:`tell_rules`); ``told`` (by
    engine name: the setting, or ``None`` when it has no rules option) is
    filled as they start.

    >>> import sys
    >>> ours = f"{sys.executable} -m xiangqi engine"
    >>> specs = (EngineSpec(ours, name="uci"), EngineSpec(ours, proto="ucci", name="ucci"))
    >>> score, results = asyncio.run(run_match(specs, [Board()], 2, Limit(depth=1), None, "axf",
    ...                                        Adjudication(max_plies=10), 1, None))
    >>> score.line(), [(r.result, r.first_is_red) for r in results]
    ('games 2: +0 =2 -0, Elo +0.0 ± 274.0', [('1/2-1/2', True), ('1/2-1/2', False)])

    Raises:
        * :exc:`~xiangqi.errors.EngineError` (or :exc:`~xiangqi.errors.EngineTerminatedError`) when an engine
          cannot be started or configured.
    """
    score = MatchScore() if score is None else score
    results = [] if results is None else results
    told = {} if told is None else told
    book = rule_set_name(rules).partition(":")[0]
    queue: "asyncio.Queue[int]" = asyncio.Queue()
    for i in range(games):
        queue.put_nowait(i)
    grace = [timeout]   # seconds each engine is given to quit at the end
    pending: Dict[int, float] = {}     # the first engine's points in the first finished game of each pair
    tty = progress is not None and progress.isatty()
    shown = [progress]  # the progress stream, until a write to it fails

    def show(text: str) -> None:
        out = shown[0]
        if out is None:
            return
        try:
            out.write(text)
            out.flush()
        except (OSError, ValueError):  # closed, a broken pipe, a full disk: the match goes on without it
            shown[0] = None

    def report(r: GameResult, number: int) -> None:
        if tty:
            show(f"\r[{score.games}/{games}] {score.line()}   ")
        else:
            red, black = (specs[0].name, specs[1].name) if r.first_is_red else (specs[1].name, specs[0].name)
            show(f"game {number + 1}: {red} - {black} {r.result} ({r.termination}); {score.line()}\n")

    async def worker() -> None:
        engines: List[Optional[EngineProtocol]] = [None, None]
        try:
            while not queue.empty():
                i = queue.get_nowait()
                fresh = []
                for k in (0, 1):
                    e = engines[k]
                    if e is None or e.returncode is not None:
                        if e is not None:
                            await e.kill()          # reaps it and closes its pipes
                        engines[k] = await specs[k].start(timeout)
                        fresh.append(k)
                a, b = engines[0], engines[1]
                assert a is not None and b is not None
                first_is_red = i % 2 == 0
                red, black = (a, b) if first_is_red else (b, a)
                red_spec, black_spec = (specs[0], specs[1]) if first_is_red else (specs[1], specs[0])
                opening = openings[(i // repeat) % len(openings)]
                headers = {"Event": "xiangqi match", "Site": "?", "Date": datetime.date.today().strftime("%Y.%m.%d"),
                           "Round": str(first_round + i), "Red": red_spec.name, "Black": black_spec.name}
                controls = {True: red_spec.control(limit, tc), False: black_spec.control(limit, tc)}
                log = _open_io_log(io_log, first_round + i, {red: red_spec.name, black: black_spec.name})
                try:
                    for k in fresh:                 # the rule book, into the game's log
                        told[specs[k].name] = await tell_rules((a, b)[k], book, specs[k].options)
                    game, result, tag, reason = await play_game(red, black, opening, limit, tc, rules, adj, headers,
                                                                controls=controls, movetime_margin=movetime_margin)
                finally:
                    if log is not None:
                        red.io_log = black.io_log = None
                        log.close()
                r = GameResult(game, result, tag, reason, first_is_red)
                if tag in _FAILURES and result != "1/2-1/2":
                    loser, loser_spec = (red, red_spec) if result == "0-1" else (black, black_spec)
                    r.failed, r.last_words = loser_spec.name, loser.last_words
                results.append(r)
                score.add(r.points_first())
                if repeat == 2:
                    pair = i // 2
                    if pair in pending:
                        score.add_pair(pending.pop(pair), r.points_first())
                    else:
                        pending[pair] = r.points_first()
                if sprt is not None and sprt.verdict(score.llr(sprt)) is not None:
                    while not queue.empty():        # decided: no new game starts
                        queue.get_nowait()
                if pgn_file is not None:
                    pgn.write_game(game, pgn_file, notation=notation)
                    pgn_file.flush()
                report(r, i)
        except asyncio.CancelledError:
            grace[0] = min(_QUIT_GRACE, timeout or _QUIT_GRACE)   # interrupted: no long wait for the engines
            raise
        finally:
            await asyncio.gather(*(_close(e, grace[0]) for e in engines if e is not None))

    tasks = [asyncio.ensure_future(worker()) for _ in range(max(1, min(concurrency, games)))]
    try:
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if tty:
            show("\n")
    return score, results


async def _close(engine: EngineProtocol, grace: Optional[float]) -> None:
    """Quit an engine, killed when it has not exited within ``grace`` seconds."""
    try:
        await asyncio.wait_for(engine.quit(), grace)
    except (asyncio.TimeoutError, EngineError):
        pass
    finally:
        await engine.kill()


class _Signalled(Exception):
    """The match was ended by a signal (SIGTERM, SIGHUP)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


async def _until_signalled(coro: Coroutine[object, object, T]) -> T:
    """Run ``coro``; SIGTERM and SIGHUP cancel it as Ctrl-C does (its engines are quit), then raise
    :class:`_Signalled`."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    got: List[int] = []
    signals = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None]

    def on_signal(signum: int) -> None:
        if not got:
            got.append(signum)
            task.cancel()

    for signum in signals:
        try:
            loop.add_signal_handler(signum, on_signal, signum)
        except (NotImplementedError, RuntimeError, ValueError):   # no signals here (Windows, another thread)
            pass
    try:
        return await coro
    except asyncio.CancelledError:
        if got:
            raise _Signalled(got[0]) from None
        raise
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xiangqi match",
        description="Play engines against each other; every game is adjudicated by this library's rule\n"
                    "books (mate, stalemate, perpetual check and chase, the natural move limit; illegal\n"
                    "moves, crashes and lost clocks lose).",
        epilog="example:\n"
               "  xiangqi match --engine cmd=/usr/games/fairy-stockfish name=fsf-uci \\\n"
               "                --engine cmd=/usr/games/fairy-stockfish proto=ucci name=fsf-ucci \\\n"
               "                --games 4 --depth 4 --pgnout games.pgn",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE", required=True,
                        help="cmd=COMMAND [proto=uci|ucci|xboard] [name=NAME] [dialect=uci|uci-one-based] "
                             "[fen_letters=nb|he] [option.X=Y ...] [tc=[MOVES/]SECONDS[+INC]] [depth=N] [nodes=N] "
                             "[st=SECONDS] [dir=DIR] [conf=NAME] (give it twice, or more for a tournament)")
    parser.add_argument("--games", type=int, default=2,
                        help="games to play (default: 2); in a tournament, for each pair of engines; with --sprt, "
                             "the most")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--tc", help="time control [moves/]seconds[+increment], e.g. 10+0.1")
    group.add_argument("--depth", type=int, help="fixed search depth per move")
    group.add_argument("--nodes", type=int, help="fixed node count per move")
    group.add_argument("--movetime", type=float, help="fixed seconds per move")
    parser.add_argument("--openings", type=Path, help="PGN file (each game's main line) or FEN/EPD lines")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at a time (default: 1)")
    add_rules_options(parser, "rule book the games are adjudicated by, and told to the engines that have an option "
                              "for it (default: axf)")
    parser.add_argument("--pgnout", type=Path, help="write the games to this PGN file (as each one ends)")
    parser.add_argument("--notation", default="chinese", choices=pgn.NOTATIONS,
                        help="PGN move notation (default: chinese, as for convert)")
    parser.add_argument("--resign", metavar="CP:MOVES", help="adjudicate a loss when both engines agree, e.g. 1000:3")
    parser.add_argument("--draw", metavar="CP:MOVES", help="adjudicate a draw when both engines see a level game, "
                                                           "e.g. 10:8")
    parser.add_argument("--max-plies", type=int, default=600, help="draw a game at this many plies (default: 600)")
    parser.add_argument("--engines-file", type=Path, metavar="JSON",
                        help="engine configurations (as cutechess's engines.json), picked with --engine conf=NAME")
    parser.add_argument("--tournament", default="round-robin", choices=("round-robin", "gauntlet"),
                        help="with more than two engines: every pair, or the first engine against each other "
                             "(default: round-robin)")
    parser.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                        help="stop once a sequential probability ratio test decides (pentanomial model), e.g. "
                             "'elo0=0 elo1=5 alpha=0.05 beta=0.05'; --games is then the most to play")
    parser.add_argument("--repeat", type=int, default=2,
                        help="games per opening, colours alternating (default: 2, a pair)")
    parser.add_argument("--openings-order", default="sequential", choices=("sequential", "random"),
                        help="play the openings in file order or shuffled (default: sequential)")
    parser.add_argument("--seed", type=int, help="the seed of --openings-order random (default: a random one)")
    parser.add_argument("--movetime-margin", type=float, metavar="SECONDS",
                        help="with --movetime (or st=): a move that takes longer than its time plus this loses")
    parser.add_argument("--io-log", type=Path, metavar="DIR",
                        help="write each game's engine input and output to DIR/round-N.log")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds an engine may take beyond its limit (with --depth or --nodes: for the "
                             "whole move) before it is killed and loses (default: 10)")
    return parser


def _score_rule(parser: argparse.ArgumentParser, text: Optional[str], name: str) -> Tuple[Optional[int], int]:
    if text is None:
        return None, 0
    try:
        cp, moves = (int(x) for x in text.split(":"))
    except ValueError:
        parser.error(f"--{name} must be CP:MOVES, e.g. 1000:3, not {text!r}")
    if cp < 0 or moves < 1:
        parser.error(f"--{name}: CP must be >= 0 and MOVES >= 1")
    return cp, moves


def pairings(count: int, kind: str = "round-robin") -> List[Tuple[int, int]]:
    """The engine pairs of a tournament of ``count`` engines: every pair (``round-robin``), or the first engine
    against each other one (``gauntlet``).

    >>> pairings(3), pairings(4, "gauntlet")
    ([(0, 1), (0, 2), (1, 2)], [(0, 1), (0, 2), (0, 3)])

    Raises:
        * :exc:`ValueError` for another kind.
    """
    if kind == "round-robin":
        return [(i, j) for i in range(count) for j in range(i + 1, count)]
    if kind == "gauntlet":
        return [(0, j) for j in range(1, count)]
    raise ValueError(f"a tournament is round-robin or gauntlet, not {kind!r}")


def order_openings(openings: List[Board], order: str, seed: Optional[int]) -> List[Board]:
    """The openings in file order (``sequential``) or shuffled with ``seed`` (``random``; the same seed, the
    same order).

    >>> boards = [Board(), Board("4k4/9/9/9/9/9/9/9/9/3K5 w"), Board("3k5/9/9/9/9/9/9/9/9/4K4 w")]
    >>> order_openings(boards, "random", 7) == order_openings(boards, "random", 7), order_openings(boards, "sequential", None) == boards
    (True, True)
    """
    if order == "sequential":
        return list(openings)
    shuffled = list(openings)
    random.Random(seed).shuffle(shuffled)
    return shuffled


def match_main(argv: List[str]) -> int:
    """``xiangqi match``: 0 when every game was played; 1 for bad openings or an engine that cannot play;
    2 for usage errors and files that cannot be read or written (one line on standard error). The engines
    tutorial runs it.

    >>> match_main(["--engine", "cmd=xiangqi engine", "--engine", "proto=ucci", "--games", "2"])
    Traceback (most recent call last):
    ...
    SystemExit: 2

    Raises:
        * :exc:`SystemExit` (status 2, the message on standard error) for bad arguments, as argparse does.
    """
    parser = _build_parser()
    args = parser.parse_args(argv)
    if len(args.engine) < 2:
        parser.error(f"give --engine at least twice (got it {len(args.engine)} time)")
    configs: Optional[Dict[str, List[str]]] = None
    if args.engines_file is not None:
        try:
            configs = read_engines_file(args.engines_file)
        except OSError as exc:
            print(f"xiangqi match: cannot read {args.engines_file}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        except ValueError as exc:
            parser.error(str(exc))
    try:
        specs = [parse_engine_spec(words, configs) for words in args.engine]
    except ValueError as exc:
        parser.error(str(exc))
    seen: Dict[str, int] = {}
    for spec in specs:
        seen[spec.name] = seen.get(spec.name, 0) + 1
        if seen[spec.name] > 1:
            spec.name += f" ({seen[spec.name]})"
    for name in ("games", "concurrency", "max_plies", "repeat"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, not {getattr(args, name)}")
    if not 0 < args.timeout <= MAX_SECONDS:
        parser.error(f"--timeout must be positive and at most {MAX_SECONDS:g}, not {args.timeout:g}")
    for name in ("depth", "nodes"):  # 0 or less used to start games that every engine lost on time
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error(f"--{name} must be >= 1, not {getattr(args, name)}")
    if args.movetime is not None and not 0 < args.movetime <= MAX_SECONDS:
        parser.error(f"--movetime must be positive and at most {MAX_SECONDS:g}, not {args.movetime:g}")
    if args.movetime_margin is not None and not args.movetime_margin >= 0:
        parser.error(f"--movetime-margin must be >= 0, not {args.movetime_margin:g}")
    sprt: Optional[Sprt] = None
    if args.sprt is not None:
        if len(specs) != 2:
            parser.error("--sprt tests one engine against another: give --engine exactly twice")
        try:
            sprt = parse_sprt(" ".join(args.sprt))
        except ValueError as exc:
            parser.error(str(exc))
    tc: Optional[TimeControl] = None
    limit = Limit()
    try:
        if args.tc:
            tc = parse_tc(args.tc)
        elif args.depth is not None:
            limit = Limit(depth=args.depth)
        elif args.nodes is not None:
            limit = Limit(nodes=args.nodes)
        elif args.movetime is not None:
            limit = Limit(time=args.movetime)
        elif any(spec.control(limit, None) == (limit, None) for spec in specs):
            parser.error("give one of --tc, --depth, --nodes or --movetime (or tc=, depth=, nodes=, st= to every "
                         "--engine)")
    except ValueError as exc:
        parser.error(str(exc))
    resign_cp, resign_moves = _score_rule(parser, args.resign, "resign")
    draw_cp, draw_moves = _score_rule(parser, args.draw, "draw")
    adj = Adjudication(resign_cp, resign_moves or 3, draw_cp, draw_moves or 8, args.max_plies)
    openings = [Board()]
    if args.openings is not None:
        try:
            openings = read_openings(args.openings)
        except OSError as exc:      # cannot be read: as a usage error
            print(f"xiangqi match: cannot read {args.openings}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        except ValueError as exc:   # bad data
            print(f"xiangqi match: {exc}", file=sys.stderr)
            return 1
    openings = order_openings(openings, args.openings_order, args.seed)
    if args.io_log is not None:
        try:
            args.io_log.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"xiangqi match: cannot write {args.io_log}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    out: Optional[IO[str]] = None
    matches = pairings(len(specs), args.tournament)
    scores = [MatchScore() for _ in matches]
    results: List[GameResult] = []
    told: Dict[str, Optional[str]] = {}
    current = 0
    try:
        if args.pgnout is not None:
            out = open(args.pgnout, "w", encoding="utf-8")
        try:
            for current, (a, b) in enumerate(matches):
                asyncio.run(_until_signalled(run_match(
                    (specs[a], specs[b]), openings, args.games, limit, tc,
                    rules_spec(args.rules, red_must_vary=args.red_must_vary), adj, args.concurrency, out, sys.stderr,
                    args.timeout, args.notation, scores[current], results, sprt=sprt, repeat=args.repeat,
                    movetime_margin=args.movetime_margin, first_round=1 + current * args.games, io_log=args.io_log,
                    told=told)))
        except BaseException:
            if out is not None:
                try:
                    out.close()
                except OSError:   # what is still buffered cannot be written either: one error says so
                    pass
            raise
        if out is not None:
            out.close()
    except OSError as exc:          # the PGN cannot be written
        print(f"xiangqi match: cannot write {args.pgnout}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except EngineError as exc:
        print(f"xiangqi match: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, _Signalled) as exc:
        how = "interrupted" if isinstance(exc, KeyboardInterrupt) else f"interrupted by {exc}"
        a, b = matches[current]
        print(f"xiangqi match: {how}; {specs[a].name} vs {specs[b].name}: {scores[current].line()}"
              + ("; those games are in the PGN" if out is not None else ""), file=sys.stderr)
        return 130 if isinstance(exc, KeyboardInterrupt) else 128 + exc.signum
    terminations: Dict[str, int] = {}
    for r in results:
        terminations[r.termination] = terminations.get(r.termination, 0) + 1
    for (a, b), score in zip(matches, scores):
        print(f"{specs[a].name} vs {specs[b].name}: {score.line()}")
        print("  " + score.details(sprt))
    if len(specs) > 2:
        points = {spec.name: [0.0, 0] for spec in specs}
        for (a, b), score in zip(matches, scores):
            points[specs[a].name][0] += score.wins + score.draws / 2
            points[specs[b].name][0] += score.losses + score.draws / 2
            points[specs[a].name][1] += score.games
            points[specs[b].name][1] += score.games
        table = sorted(points.items(), key=lambda kv: -kv[1][0] / max(1, kv[1][1]))
        print("standings: " + ", ".join(f"{name} {p:g}/{n}" for name, (p, n) in table))
    print("terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))
    for line in rules_lines(args.rules, told) + failure_lines(results):
        print(line)
    return 0


def rules_lines(book: str, told: Mapping[str, Optional[str]]) -> List[str]:
    """The summary's line about engines that were not told the rule book (they have no rules option and played
    by their own), naming those that were; none when every engine was told.

    >>> rules_lines("cxa", {"ours": "Rules=cxa", "fsf": None})
    ['rules cxa: fsf was not told (no rules option; the games were judged by cxa all the same); told: ours (Rules=cxa)']
    >>> rules_lines("axf", {"ours": "Rules=axf"})
    []
    """
    untold = [name for name, setting in told.items() if setting is None]
    if not untold:
        return []
    tellings = [f"{name} ({setting})" for name, setting in told.items() if setting is not None]
    who = f"{untold[0]} was" if len(untold) == 1 else f"{', '.join(untold)} were"
    return [f"rules {book}: {who} not told (no rules option; the games were judged by {book} all the same)"
            + (f"; told: {', '.join(tellings)}" if tellings else "")]


def failure_lines(results: Sequence[GameResult]) -> List[str]:
    """The summary's lines about engines that lost games by their own failure: each one's name, how, and its
    last words (those of the last such game).

    >>> r = GameResult(pgn.Game(), "0-1", "abandoned", "", True, failed="net", last_words="it said: Error: no net")
    >>> failure_lines([r, r])
    ['net lost 2 games by its own failure (abandoned 2); its last words: it said: Error: no net']
    """
    counts: Dict[str, Dict[str, int]] = {}
    words: Dict[str, str] = {}
    for r in results:
        if r.failed:
            how = counts.setdefault(r.failed, {})
            how[r.termination] = how.get(r.termination, 0) + 1
            words[r.failed] = r.last_words
    lines = []
    for name, how in counts.items():
        n = sum(how.values())
        lines.append(f"{name} lost {n} game{'' if n == 1 else 's'} by its own failure ("
                     + ", ".join(f"{k} {v}" for k, v in sorted(how.items())) + "); "
                     + (f"its last words: {words[name]}" if words[name] else "it said nothing"))
    return lines
