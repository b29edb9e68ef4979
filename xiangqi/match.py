"""Engine-against-engine matches, every game adjudicated by this library's rule books (``xiangqi match``).

A game ends when :meth:`Board.outcome` says so under the chosen rules (mate,
stalemate as a loss, perpetual check or chase, the natural move limit), when
an engine fails (an illegal move, a crash, a hang, a lost clock: a loss with
the reason), or by the optional score adjudication (``--resign``, ``--draw``).
Each finished game is written at once with the PGN writer (:mod:`xiangqi.pgn`):
the ``Termination`` tag and a closing comment with the reason in English and
Chinese. Colours alternate per opening; ``--concurrency K`` plays K games at
a time, each pair of engines on its own.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime
import math
import shlex
import sys
from pathlib import Path
from typing import IO, Dict, List, Optional, Sequence, TextIO, Tuple

from xiangqi import pgn
from xiangqi.board import Board, rules_name
from xiangqi.core import Color
from xiangqi.engine import (
    Dialect, EngineError, EngineProtocol, EngineTerminatedError, Limit, OptionValue, PlayResult, popen_ucci,
    popen_uci,
)
from xiangqi.xboard import XBoardProtocol, popen_xboard
from xiangqi.errors import InvalidFenError
from xiangqi.outcome import Termination

__all__ = ["EngineSpec", "TimeControl", "Adjudication", "GameResult", "MatchScore", "play_game", "run_match",
           "match_main", "parse_engine_spec", "parse_tc", "read_openings"]

#: The PGN ``Termination`` tag for each way a game can end.
#: Seconds an engine may take to start and answer the handshake, at least (``--timeout`` when larger).
_START_TIMEOUT = 10.0

_TERMINATION_TAG = {
    Termination.CHECKMATE: "normal",
    Termination.STALEMATE: "normal",
    Termination.PERPETUAL_CHECK: "adjudication",
    Termination.PERPETUAL_CHASE: "adjudication",
    Termination.FORBIDDEN_PATTERN: "adjudication",
    Termination.REPETITION_DRAW: "adjudication",
    Termination.NATURAL_LIMIT: "adjudication",
}


@dataclasses.dataclass
class EngineSpec:
    """One ``--engine`` argument: ``cmd=… proto=uci|ucci|xboard name=… dialect=… option.X=Y``.

    >>> EngineSpec("xiangqi engine", proto="ucci", name="ours", options={"hashsize": 1})
    EngineSpec(cmd='xiangqi engine', proto='ucci', name='ours', dialect=None, options={'hashsize': 1})
    """

    cmd: str
    proto: str = "uci"
    name: str = ""
    dialect: Optional[Dialect] = None
    options: Dict[str, OptionValue] = dataclasses.field(default_factory=dict)

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
              option (the engine is then killed).
        """
        # Starting up (loading networks, tables) may take longer than a move's grace time.
        handshake = None if timeout is None else max(timeout, _START_TIMEOUT)
        if self.proto == "ucci":
            _, protocol = await popen_ucci(self.cmd, timeout=handshake)
            engine: EngineProtocol = protocol
        elif self.proto == "xboard":
            _, xb = await popen_xboard(self.cmd, timeout=handshake)
            engine = xb
        else:
            _, uci = await popen_uci(self.cmd, dialect=self.dialect, timeout=handshake)
            engine = uci
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


def parse_engine_spec(words: Sequence[str]) -> EngineSpec:
    """An :class:`EngineSpec` from ``key=value`` words (``ValueError`` naming a bad one).

    >>> parse_engine_spec(["cmd=/usr/games/fairy-stockfish", "option.Hash=32"])
    EngineSpec(cmd='/usr/games/fairy-stockfish', proto='uci', name='fairy-stockfish', dialect=None, options={'Hash': '32'})
    >>> parse_engine_spec(["cmd=/usr/games/maxqi", "proto=xboard"]).proto
    'xboard'
    >>> parse_engine_spec(["cmd=xiangqi engine", "proto=cecp"])
    Traceback (most recent call last):
    ...
    ValueError: proto must be uci, ucci or xboard, not 'cecp'

    Raises:
        * :exc:`ValueError` for a word that is not ``key=value``, an unknown key, a missing ``cmd``, or a bad
          ``proto`` or ``dialect``.
    """
    fields: Dict[str, str] = {}
    options: Dict[str, OptionValue] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"engine setting {word!r} is not key=value (cmd=, proto=, name=, dialect=, option.X=)")
        if key.startswith("option."):
            options[key[len("option."):]] = value
        elif key in ("cmd", "proto", "name", "dialect"):
            fields[key] = value
        else:
            raise ValueError(f"unknown engine setting {key!r}: expected cmd, proto, name, dialect or option.X")
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
    name = fields.get("name") or Path(shlex.split(fields["cmd"])[0]).name
    return EngineSpec(fields["cmd"], proto, name, dialect, options)


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
    ValueError: time control '0+1': base must be > 0, increment >= 0, moves >= 1

    Raises:
        * :exc:`ValueError` for text of another form, or a base of 0, a negative increment or 0 moves.
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
    if tc.base <= 0 or tc.increment < 0 or (moves is not None and moves < 1):
        raise ValueError(f"time control {text!r}: base must be > 0, increment >= 0, moves >= 1")
    return tc


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
    """Opening positions from a PGN file (each game's main line, kept as a move stack) or FEN/EPD lines.

    >>> import tempfile
    >>> epd = Path(tempfile.mkdtemp(), "openings.epd")
    >>> _ = epd.write_text("# two openings\\n4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\\n")
    >>> [board.fen() for board in read_openings(epd)][0]
    '4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1'

    Raises:
        * :exc:`ValueError` for a game with an error, a line that is not a FEN, or a file without openings;
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
                    time_margin: float = 0.1) -> Tuple[pgn.Game, str, str, str]:
    """Play one game from ``opening``; the record (with result, ``Termination`` and reason), result, tag, reason.

    An engine that crashes, hangs or plays an illegal move loses the game; nothing is raised for it.

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
    clocks = {True: tc.base, False: tc.base} if tc else {}
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
        side, side_zh = ("Red", "红方") if turn else ("Black", "黑方")
        if len(board.move_stack) - len(opening.move_stack) >= adj.max_plies:
            winner, tag = None, "adjudication"
            reason, reason_zh = f"draw: the game reached {adj.max_plies} plies", f"和棋：对局达到{adj.max_plies}步"
            break
        engine = red if turn else black
        if tc:
            moves_left = None
            if tc.moves:
                moves_left = tc.moves - (board.fullmove_number - opening.fullmove_number) % tc.moves
            limit = Limit(red_clock=clocks[True], black_clock=clocks[False], red_inc=tc.increment or None,
                          black_inc=tc.increment or None, movestogo=moves_left)
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
        if tc:
            clocks[turn] -= elapsed
            if clocks[turn] < -time_margin:
                winner, tag = not turn, "time forfeit"
                reason, reason_zh = f"{side} ({engine.name}) loses on time", f"{side_zh}超时，负"
                break
            clocks[turn] += tc.increment
            if tc.moves and not turn and (board.fullmove_number - opening.fullmove_number + 1) % tc.moves == 0:
                clocks[True] += tc.base
                clocks[False] += tc.base
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
            reason = f"adjudication: {text}" + ("" if winner is None else f"; {'Red' if winner else 'Black'} wins")
            reason_zh = "裁决：" + ("和棋" if winner is None else ("红胜" if winner else "黑胜"))
            break
    result = "1/2-1/2" if winner is None else "1-0" if winner else "0-1"
    await _tell_result((red, black), board, result, reason)
    game.headers["Result"] = result
    game.headers["Termination"] = tag
    game.headers["PlyCount"] = str(len(board.move_stack))
    full = f"{reason} / {reason_zh}"
    node.comment = (node.comment + " " if node.comment else "") + full
    return game, result, tag, full


async def _tell_result(engines: Sequence[EngineProtocol], board: Board, result: str, reason: str) -> None:
    """CECP's ``result`` to the XBoard engines of a finished game (one that has gone is left alone)."""
    for engine in engines:
        if isinstance(engine, XBoardProtocol) and engine.returncode is None:
            try:
                await engine.send_game_result(board, result, reason)
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


@dataclasses.dataclass
class MatchScore:
    """The match so far, from the first engine's side.

    >>> score = MatchScore(wins=5, draws=4, losses=3)
    >>> score.games, score.line()
    (12, 'games 12: +5 =4 -3, Elo +58.5 ± 176.7')
    """

    wins: int = 0
    draws: int = 0
    losses: int = 0

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

    def elo(self) -> Tuple[float, float]:
        """The Elo difference and its 95 % error margin (normal approximation; infinite when it cannot be told).

        >>> MatchScore(wins=3, draws=2, losses=1).elo()[0] > 0, MatchScore().elo()
        (True, (0.0, inf))
        """
        n = self.games
        if n == 0:
            return 0.0, math.inf
        p = (self.wins + self.draws / 2) / n
        var = (self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2 + self.losses * p ** 2) / n
        ci = 1.959964 * math.sqrt(var / n)

        def elo_of(x: float) -> float:
            if x <= 0:
                return -math.inf
            if x >= 1:
                return math.inf
            return -400 * math.log10(1 / x - 1)

        lo, hi = elo_of(p - ci), elo_of(p + ci)
        return elo_of(p), (hi - lo) / 2

    def line(self) -> str:
        """``games 12: +5 =4 -3, Elo +58.5 ± 176.7``.

        >>> MatchScore(wins=2).line()
        'games 2: +2 =0 -0, Elo +inf ± inf'
        """
        elo, margin = self.elo()
        margin_text = "inf" if math.isinf(margin) or math.isnan(margin) else f"{margin:.1f}"
        # round(...) + 0.0: an even score reads +0.0, never -0.0
        elo_text = f"{round(elo, 1) + 0.0:+.1f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")
        return f"games {self.games}: +{self.wins} ={self.draws} -{self.losses}, Elo {elo_text} ± {margin_text}"


async def run_match(specs: Tuple[EngineSpec, EngineSpec], openings: List[Board], games: int, limit: Limit,
                    tc: Optional[TimeControl], rules: str, adj: Adjudication, concurrency: int,
                    pgn_file: Optional[IO[str]], progress: Optional[TextIO] = None, timeout: Optional[float] = 10.0,
                    notation: str = "iccs", score: Optional[MatchScore] = None,
                    results: Optional[List[GameResult]] = None) -> Tuple[MatchScore, List[GameResult]]:
    """Play ``games`` games; each is written to ``pgn_file`` as soon as it ends. Cancelling stops cleanly.

    ``score`` and ``results`` (filled as games end) may be passed in, so a
    caller still has them when the match is interrupted.

    >>> import sys
    >>> ours = f"{sys.executable} -m xiangqi engine"
    >>> specs = (EngineSpec(ours, name="uci"), EngineSpec(ours, proto="ucci", name="ucci"))
    >>> score, results = asyncio.run(run_match(specs, [Board()], 2, Limit(depth=1), None, "axf",
    ...                                        Adjudication(max_plies=10), 1, None))
    >>> score.line(), [(r.result, r.first_is_red) for r in results]
    ('games 2: +0 =2 -0, Elo +0.0 ± 0.0', [('1/2-1/2', True), ('1/2-1/2', False)])

    Raises:
        * :exc:`~xiangqi.errors.EngineError` (or :exc:`~xiangqi.errors.EngineTerminatedError`) when an engine
          cannot be started or configured.
    """
    score = MatchScore() if score is None else score
    results = [] if results is None else results
    queue: "asyncio.Queue[int]" = asyncio.Queue()
    for i in range(games):
        queue.put_nowait(i)
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
                for k in (0, 1):
                    e = engines[k]
                    if e is None or e.returncode is not None:
                        if e is not None:
                            await e.kill()          # reaps it and closes its pipes
                        engines[k] = await specs[k].start(timeout)
                a, b = engines[0], engines[1]
                assert a is not None and b is not None
                first_is_red = i % 2 == 0
                red, black = (a, b) if first_is_red else (b, a)
                red_spec, black_spec = (specs[0], specs[1]) if first_is_red else (specs[1], specs[0])
                opening = openings[(i // 2) % len(openings)]
                headers = {"Event": "xiangqi match", "Site": "?", "Date": datetime.date.today().strftime("%Y.%m.%d"),
                           "Round": str(i + 1), "Red": red_spec.name, "Black": black_spec.name}
                game, result, tag, reason = await play_game(red, black, opening, limit, tc, rules, adj, headers)
                r = GameResult(game, result, tag, reason, first_is_red)
                results.append(r)
                score.add(r.points_first())
                if pgn_file is not None:
                    pgn.write_game(game, pgn_file, notation=notation)
                    pgn_file.flush()
                report(r, i)
        finally:
            for e in engines:
                if e is not None:
                    await e.quit()

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
                        help="cmd=COMMAND [proto=uci|ucci|xboard] [name=NAME] [dialect=uci|uci-one-based] [option.X=Y ...]"
                             " (give it twice)")
    parser.add_argument("--games", type=int, default=2, help="games to play (default: 2)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--tc", help="time control [moves/]seconds[+increment], e.g. 10+0.1")
    group.add_argument("--depth", type=int, help="fixed search depth per move")
    group.add_argument("--nodes", type=int, help="fixed node count per move")
    group.add_argument("--movetime", type=float, help="fixed seconds per move")
    parser.add_argument("--openings", type=Path, help="PGN file (each game's main line) or FEN/EPD lines")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at a time (default: 1)")
    parser.add_argument("--rules", default="axf", choices=("axf", "cxa"), help="rule book (default: axf)")
    parser.add_argument("--pgnout", type=Path, help="write the games to this PGN file (as each one ends)")
    parser.add_argument("--notation", default="iccs", choices=pgn.NOTATIONS, help="PGN move notation (default: iccs)")
    parser.add_argument("--resign", metavar="CP:MOVES", help="adjudicate a loss when both engines agree, e.g. 1000:3")
    parser.add_argument("--draw", metavar="CP:MOVES", help="adjudicate a draw when both engines see a level game, "
                                                           "e.g. 10:8")
    parser.add_argument("--max-plies", type=int, default=600, help="draw a game at this many plies (default: 600)")
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
    if len(args.engine) != 2:
        parser.error(f"give --engine exactly twice (got it {len(args.engine)} time{'s' if len(args.engine) != 1 else ''})")
    try:
        specs = (parse_engine_spec(args.engine[0]), parse_engine_spec(args.engine[1]))
    except ValueError as exc:
        parser.error(str(exc))
    if specs[0].name == specs[1].name:
        specs[1].name += " (2)"
    for name in ("games", "concurrency", "max_plies"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, not {getattr(args, name)}")
    if not args.timeout > 0:
        parser.error(f"--timeout must be positive, not {args.timeout:g}")
    for name in ("depth", "nodes"):  # 0 or less used to start games that every engine lost on time
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error(f"--{name} must be >= 1, not {getattr(args, name)}")
    if args.movetime is not None and not args.movetime > 0:
        parser.error(f"--movetime must be positive, not {args.movetime:g}")
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
        else:
            parser.error("give one of --tc, --depth, --nodes or --movetime")
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
    out: Optional[IO[str]] = None
    score, results = MatchScore(), []  # type: MatchScore, List[GameResult]
    try:
        if args.pgnout is not None:
            out = open(args.pgnout, "w", encoding="utf-8")
        asyncio.run(run_match(specs, openings, args.games, limit, tc, rules_name(args.rules), adj, args.concurrency,
                              out, sys.stderr, args.timeout, args.notation, score, results))
    except OSError as exc:          # the PGN cannot be written
        print(f"xiangqi match: cannot write {args.pgnout}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except EngineError as exc:
        print(f"xiangqi match: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"xiangqi match: interrupted; {specs[0].name} vs {specs[1].name}: {score.line()}"
              + ("; those games are in the PGN" if out is not None else ""), file=sys.stderr)
        return 130
    finally:
        if out is not None:
            out.close()
    terminations: Dict[str, int] = {}
    for r in results:
        terminations[r.termination] = terminations.get(r.termination, 0) + 1
    print(f"{specs[0].name} vs {specs[1].name}: {score.line()}")
    print("terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))
    return 0
