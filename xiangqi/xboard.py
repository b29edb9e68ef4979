"""Talk to xiangqi engines over XBoard/CECP (protocol version 2), in the shape of python-chess's ``XBoardProtocol``.

:class:`XBoardProtocol` is a third dialect of :class:`~xiangqi.engine.EngineProtocol`: the same process
handling, deadlines, errors, :class:`~xiangqi.engine.Limit`, :class:`~xiangqi.engine.InfoDict` and
:class:`~xiangqi.engine.SimpleEngine`, with CECP on the pipe:

* the handshake is ``xboard`` and ``protover 2``; each ``feature`` the engine announces is answered
  ``accepted`` or ``rejected``; ``done=0`` holds the handshake open until ``done=1`` (or ``timeout``), and an
  engine that announces nothing within two seconds is taken for a protocol 1 engine;
* a game starts with ``new``, ``variant xiangqi`` and ``force``; a position other than the start needs the
  engine's ``setboard`` (with the FEN letters it reads: ``n``/``b`` or ``h``/``e`` for horse and elephant,
  found by trying, or set with ``fen_letters=``); moves follow (``usermove`` when the engine asks for it),
  ranks 0-9 as XBoard numbers a ten-rank board; a game that goes on sends only the new moves;
* limits become ``st`` (seconds a move; a fraction of a second is cut short with ``?``), ``level`` with
  ``time``/``otim`` (a clock), ``sd`` (depth) and ``nps`` with ``st`` (nodes); ``go`` starts the search, and
  ``ping``/``pong`` after the engine's ``move`` collects what it says about the game (``resign``, ``offer
  draw``, a result claim);
* thinking output (``depth score time nodes [seldepth [nps [tbhits]]] pv``; time in centiseconds) becomes
  the same :class:`~xiangqi.engine.InfoDict` as UCI's ``info``; the pv may be coordinates or algebraic
  (``Hc2``, ``Chc7``, ``1. ... Hxc6``);
* an analysis without a limit runs in ``analyze`` mode, left with ``exit``;
* an ``Error``, ``Illegal move`` or ``tellusererror`` line raises :class:`~xiangqi.errors.EngineError`
  with the engine's own words.

The engines tutorial plays Debian's MaxQi and Sjaak II with it.
"""

from __future__ import annotations

import asyncio
import math
import re
import shlex
from typing import Dict, List, Optional, Sequence, Tuple, Union

from xiangqi.board import Board
from xiangqi.core import ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK, STARTING_FEN, Color, Move, PieceType
from xiangqi.engine_protocol import Command, EngineProtocol, popen_protocol
from xiangqi.engine_types import FEN_LETTERS, Dialect, InfoDict, Limit, PlayResult, RunningSearch, with_fen_letters
from xiangqi.errors import EngineError
from xiangqi.notation import format_iccs
from xiangqi.outcome import result_of
from xiangqi.scores import UCCI_MATE_PLIES, Cp, Mate, MateGiven, PovScore, Score, bare_score
from xiangqi.uci import Option

__all__ = ["XBoardProtocol", "popen_xboard", "parse_feature_line", "parse_xboard_option", "parse_post",
           "parse_algebraic", "XBOARD_MATE"]

#: CECP's mate scores: ``XBOARD_MATE + N`` mates in ``N`` moves, ``-XBOARD_MATE - N`` is mated in ``N``.
XBOARD_MATE = 100000

#: Lines that report an error about the command before them (CECP: ``Error (...): command``,
#: ``Illegal move (...): move``), and a message the engine wants the user to see as an error.
_ERROR = re.compile(r"^\s*(Error|Illegal move)\s*(\([^()]*\))?\s*:|^\s*tellusererror\b")

#: The first words of CECP's lines from the engine: features, pongs, moves, thinking output (it starts with the
#: depth), offers, results and comments (``#``). Errors and ``telluser`` are the engine's own words.
_LINE_WORDS = ("feature", "pong", "move ", "offer draw", "resign", "1-0", "0-1", "1/2-1/2", "#",
               *"0123456789")

#: Features this client acts on or can live with; any other is answered ``rejected``.
_KNOWN_FEATURES = frozenset((
    "ping", "setboard", "playother", "san", "usermove", "time", "draw", "sigint", "sigterm", "reuse", "analyze",
    "myname", "variants", "colors", "ics", "name", "pause", "nps", "debug", "memory", "smp", "egt", "option",
    "exclude", "setscore", "highlight", "done", "myversion", "sjef", "edit", "timestamp",
))

_ALGEBRAIC = re.compile(r"^([KAEBHNRCPkaebhnrcp])?([a-i])?([0-9])?[x:-]?([a-i])([0-9])[+#!?]*$")
_LETTER_TYPES: Dict[str, PieceType] = {"k": KING, "a": ADVISOR, "e": ELEPHANT, "b": ELEPHANT, "h": HORSE,
                                       "n": HORSE, "r": ROOK, "c": CANNON, "p": PAWN}


def parse_feature_line(text: str) -> List[Tuple[str, str]]:
    """The ``name=value`` pairs of a ``feature`` line (values may be quoted), in order.

    >>> parse_feature_line('setboard=0 ping=1 myname="MaxQi 4.8G" done=1')
    [('setboard', '0'), ('ping', '1'), ('myname', 'MaxQi 4.8G'), ('done', '1')]
    >>> parse_feature_line('option="Hash -spin 16 1 1024" bad')
    [('option', 'Hash -spin 16 1 1024')]
    """
    try:
        words = shlex.split(text)
    except ValueError:      # an unbalanced quote: read what splits on blanks
        words = text.split()
    pairs = []
    for word in words:
        key, sep, value = word.partition("=")
        if sep and key:
            pairs.append((key, value))
    return pairs


def parse_xboard_option(text: str) -> Optional[Option]:
    """An :class:`~xiangqi.engine.Option` from a ``feature option="NAME -TYPE ..."`` value (``None`` if unreadable).

    Types as CECP names them: ``-spin DEFAULT MIN MAX``, ``-check 0|1``, ``-combo a /// *b`` (``*`` marks the
    default), ``-string``/``-file``/``-path DEFAULT``, ``-button``, ``-save``, ``-reset`` (buttons).

    >>> parse_xboard_option("MultiPV -spin 1 1 256")
    Option(name='MultiPV', type='spin', default='1', min=1, max=256, var=[])
    >>> parse_xboard_option("Level -combo Clueless /// Random /// *Normal").default
    'Normal'
    >>> parse_xboard_option("Claim repetitions -check 1").default
    'true'
    """
    match = re.match(r"^(.*?)\s+-(spin|check|combo|string|file|path|button|save|reset|slider)\b\s*(.*)$", text)
    if match is None or not match.group(1).strip():
        return None
    name, kind, rest = match.group(1).strip(), match.group(2), match.group(3).strip()
    if kind in ("spin", "slider"):
        numbers = rest.split()
        if len(numbers) < 3 or not all(re.fullmatch(r"-?\d+", n) for n in numbers[:3]):
            return None
        return Option(name, "spin", numbers[0], int(numbers[1]), int(numbers[2]))
    if kind == "check":
        return Option(name, "check", "true" if rest.split()[:1] == ["1"] else "false")
    if kind == "combo":
        choices = [c.strip() for c in rest.split("///")]
        default = next((c[1:] for c in choices if c.startswith("*")), choices[0] if choices else None)
        return Option(name, "combo", default, var=[c.lstrip("*") for c in choices if c])
    if kind in ("button", "save", "reset"):
        return Option(name, "button")
    return Option(name, "string", rest)


def _square(file: str, rank: str) -> int:
    return int(rank) * 9 + (ord(file) - ord("a"))


def parse_algebraic(board: Board, text: str) -> Optional[Move]:
    """The legal move that algebraic ``text`` (``Hc2``, ``Chc7``, ``Cxc3``, ``Pg5``, ``c5``) names, or ``None``.

    Piece letters ``K A E/B H/N R C P`` (no letter: a pawn), an optional file and/or rank of the piece, ``x``,
    the destination (ranks 0-9): the algebraic moves some XBoard engines write in their thinking output.

    >>> board = Board()
    >>> parse_algebraic(board, "Hc2"), parse_algebraic(board, "Ce2"), parse_algebraic(board, "Cxb9")
    (Move.from_iccs('b0c2'), None, Move.from_iccs('b2b9'))
    >>> parse_algebraic(board, "Che2"), parse_algebraic(board, "Pc4"), parse_algebraic(board, "h2e2")
    (Move.from_iccs('h2e2'), Move.from_iccs('c3c4'), None)
    """
    m = _ALGEBRAIC.match(text)
    if m is None or (m.group(1) is None and m.group(2) is not None and m.group(3) is not None):
        return None     # a coordinate move (h2e2), not algebraic
    letter, from_file, from_rank = m.group(1), m.group(2), m.group(3)
    kind = _LETTER_TYPES[(letter or "p").lower()]
    to = _square(m.group(4), m.group(5))
    found = None
    for move in board.legal_moves:
        if move.to_square != to:
            continue
        piece = board.piece_at(move.from_square)
        if piece is None or piece.piece_type != kind:
            continue
        if from_file is not None and move.from_square % 9 != ord(from_file) - ord("a"):
            continue
        if from_rank is not None and move.from_square // 9 != int(from_rank):
            continue
        if found is not None:
            return None     # ambiguous
        found = move
    return found


def _xboard_score(n: int, mate_value: Optional[int]) -> Score:
    """A thinking-output score: CECP's ``±(100000 + N)`` mates in N moves; else :func:`bare_score`."""
    if n >= XBOARD_MATE:
        return MateGiven if n == XBOARD_MATE else Mate(n - XBOARD_MATE)
    if n <= -XBOARD_MATE:
        return Mate(n + XBOARD_MATE)
    if mate_value is not None and mate_value - UCCI_MATE_PLIES < abs(n) <= mate_value:
        return bare_score(n, mate_value)
    return Cp(n)


def _pv(board: Board, words: Sequence[str]) -> List[Move]:
    """The legal prefix of a thinking-output pv: coordinates or algebraic, move numbers (``1.``, ``1...``) and
    ``...`` skipped, annotations (``+``, ``#``) and an end marker (``<``, ``{...}``) tolerated."""
    b = board.copy(stack=False)
    moves: List[Move] = []
    for word in words:
        if re.fullmatch(r"\d+\.*|\.+", word):
            continue
        text = word.strip("()[]<>").rstrip("+#!?")
        if not text:
            continue
        move: Optional[Move]
        try:
            move = b.parse_iccs(text)
        except ValueError:
            move = parse_algebraic(b, text)
        if not move:
            break
        b.push(move)
        moves.append(move)
    return moves


def parse_post(line: str, board: Board, *, mate_value: Optional[int] = None) -> Optional[InfoDict]:
    """An :class:`~xiangqi.engine.InfoDict` from a thinking-output line, ``None`` for a line that is not one.

    ``depth score time nodes [seldepth [nps [tbhits]]] pv``: time in centiseconds; the score as CECP says
    (``100000 + N``: mate in N moves) or, with ``mate_value``, as ``mate_value - plies`` (:func:`bare_score`).
    A line with a negative depth (a root-move count some engines print first) is not thinking output.

    >>> info = parse_post(" 5     27        7     108567 b2c2 h9g7", Board())
    >>> info["depth"], info["score"].red(), info["time"], info["nodes"], info["pv"]
    (5, Cp(+27), 0.07, 108567, [Move.from_iccs('b2c2'), Move.from_iccs('h9g7')])
    >>> parse_post("  6  15995  1  3262  1. Kd0 Ke8 2. Rf1", Board("4k4/9/9/9/9/9/9/9/3R5/4K4 w"), mate_value=16000)["score"]
    PovScore(Mate(+3), RED)
    >>> parse_post("-1  440  0  1 h2h9", Board()) is None, parse_post("move h2e2", Board()) is None
    (True, True)
    """
    words = line.split()
    numbers: List[int] = []
    for word in words:
        if re.fullmatch(r"-?\d+", word):
            numbers.append(int(word))
        else:
            break
    if len(numbers) < 4 or numbers[0] < 0:
        return None
    info = InfoDict()
    info["depth"] = numbers[0]
    info["score"] = PovScore(_xboard_score(numbers[1], mate_value), board.turn)
    info["time"] = numbers[2] / 100.0
    info["nodes"] = numbers[3]
    extra = numbers[4:]
    if extra:
        info["seldepth"] = extra[0]
    if len(extra) > 1:
        info["nps"] = extra[1]
    if len(extra) > 2:
        info["tbhits"] = extra[-1]
    if words[len(numbers):]:        # a line cut short by "?" may have none: the last pv stands
        info["pv"] = _pv(board, words[len(numbers):])
    return info


def _about_move_now(line: str) -> bool:
    """Whether an error line is about ``?`` (move now), which an engine without it refuses: harmless."""
    return line.rstrip().endswith(": ?") or line.split()[-1:] == ["?"]


class XBoardProtocol(EngineProtocol):
    """XBoard/CECP (protocol version 2): MaxQi, Sjaak II and the other XBoard engines that play xiangqi.

    Use :func:`popen_xboard` (or :meth:`~xiangqi.engine.SimpleEngine.popen_xboard`). ``features`` holds what
    the engine announced; ``fen_letters`` the horse/elephant letters of its ``setboard`` (``"nb"`` until a
    ``setboard`` has found them). ``mate_value``: the engine's mate score when it is not CECP's ``100000 + N``
    (Sjaak II writes a mate in N plies as ``16000 - N``), see :func:`parse_post`.

    The engines tutorial drives MaxQi and Sjaak II with it; what it makes of their thinking output and moves:

    >>> board = Board()
    >>> _ = board.push_iccs("b0c2")
    >>> info = parse_post("  5   -10     13     14530  1. ... Hg7 2. Pc4 Hc7", board)     # Sjaak II's
    >>> info["score"].red(), info["time"], [m.iccs() for m in info["pv"]]
    (Cp(+10), 0.13, ['h9g7', 'c3c4', 'b9c7'])

    Raises:
        * :exc:`ValueError` for what XBoard cannot say: ``multipv``, ``banmoves``, ``root_moves``,
          ``Limit(mate=...)``, nodes with a time, perft; a node limit for an engine with ``nps=0``;
        * :exc:`~xiangqi.errors.EngineError` with the engine's own words when it refuses a command, a position
          or a move, when it lacks ``ping`` or the xiangqi variant, or cannot set up a position that is not the
          start (no ``setboard``);
        * and the errors of :class:`~xiangqi.engine.EngineProtocol`.
    """

    dialect = Dialect.XBOARD
    mate_value: Optional[int] = None
    _managed = ()
    _line_words = _LINE_WORDS
    #: Seconds a protocol 2 engine has to start its ``feature`` lines (CECP's own figure).
    feature_timeout = 2.0

    def __init__(self) -> None:
        super().__init__()
        #: The features the engine announced (numbers as ``int``).
        self.features: Dict[str, Union[int, str]] = {}
        self._pings = 0
        self._sent: Optional[Tuple[str, List[int]]] = None    # (root FEN, move codes) the engine has
        self._sd: Optional[int] = None
        self._nps = False
        self._analyzing = False

    # ---------------------------------------------------------------- lines

    async def _poll(self, deadline: float) -> Optional[str]:
        """The next line, or ``None`` when ``deadline`` (loop time) passes first (the engine is not killed)."""
        while not self._lines:
            if self._eof:
                await self._settle()
                raise self._terminated("during the 'xboard'/'protover 2' handshake")
            if self.loop.time() >= deadline:
                return None
            await self._wait_for_line(deadline if math.isfinite(deadline) else None)
        return self._lines.popleft()

    def _refusal(self, what: str, errors: Sequence[str]) -> EngineError:
        return self._error(EngineError, f"engine {self.name!r} refused {what}: "
                           + " | ".join(dict.fromkeys(e.strip() for e in errors)))

    # ---------------------------------------------------------------- handshake and options

    async def initialize(self, dialect: Optional[Dialect] = None) -> None:
        """The handshake: ``xboard``, ``protover 2``, the features (each accepted or rejected), ``ping``.

        Raises:
            * :exc:`ValueError` for a dialect other than ``Dialect.XBOARD``;
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine exits;
            * :exc:`~xiangqi.errors.EngineError` when ``done=1`` does not come within ``timeout`` after
              ``done=0``, or the engine has no ``ping`` or no xiangqi among its variants.
        """
        if dialect not in (None, Dialect.XBOARD):
            raise ValueError(f"popen_xboard speaks XBoard, not {dialect}")
        async with self._busy:
            self.send_line("xboard")
            self.send_line("protover 2")
            deadline = self.loop.time() + self.feature_timeout
            while True:
                line = await self._poll(deadline)
                if line is None:
                    if self.features.get("done") == 0:
                        raise self._error(EngineError, f"engine {self.name!r} announced feature done=0 but no "
                                                       f"done=1 within {self.timeout:g} s")
                    break   # a protocol 1 engine: no features at all, or no done
                tokens = line.split(None, 1)
                if not tokens or tokens[0] != "feature":
                    continue
                for key, value in parse_feature_line(tokens[1] if len(tokens) > 1 else ""):
                    self._feature(key, value)
                done = self.features.get("done")
                if done == 1:
                    break
                if done == 0 and self.timeout is not None:
                    deadline = self.loop.time() + self.timeout
                elif done == 0:
                    deadline = math.inf
            if "myname" in self.features:
                self.id["name"] = str(self.features["myname"])
            if not self.features.get("ping"):
                raise self._error(EngineError, f"engine {self.name!r} has no feature ping=1: this client needs "
                                               "ping to keep in step with it")
            variants = [v.strip() for v in str(self.features.get("variants", "")).split(",") if v.strip()]
            if "xiangqi" not in variants:
                raise self._error(EngineError, f"engine {self.name!r} does not play xiangqi (its variants: "
                                               f"{', '.join(variants) or 'none announced'})")
            self.send_line("easy")      # no pondering: the engine thinks only when asked to
            await self._ping()

    def _feature(self, key: str, value: str) -> None:
        if key == "option":
            opt = parse_xboard_option(value)
            if opt is not None:
                self.options[opt.name] = opt
            self.send_line(f"accepted {key}" if opt is not None else f"rejected {key}")
            return
        self.features[key] = int(value) if re.fullmatch(r"-?\d+", value) else value
        if key == "memory" and value == "1":
            self.options["memory"] = Option("memory", "spin", "16", 1, None)
        elif key == "smp" and value == "1":
            self.options["cores"] = Option("cores", "spin", "1", 1, None)
        # san=1 is refused (moves go as coordinates, as the engine must then accept); reuse=0 too (one process
        # plays game after game); everything else this client knows is accepted.
        refused = key not in _KNOWN_FEATURES or (key == "san" and value == "1") or (key == "reuse" and value == "0")
        if key != "done":
            self.send_line(f"{'rejected' if refused else 'accepted'} {key}")

    def _setoption_line(self, name: str, value: Optional[str]) -> str:
        if name in ("memory", "cores"):
            return f"{name} {value}"
        if value is None:
            return f"option {name}"
        opt = self._option(name)
        if opt is not None and opt.type == "check":
            value = "1" if value == "true" else "0"
        return f"option {name}={value}"

    async def _sync(self) -> List[str]:
        """``ping N`` and read to ``pong N``; the error lines the engine wrote on the way."""
        self._pings += 1
        pong = f"pong {self._pings}"
        self.send_line(f"ping {self._pings}")
        deadline = self._deadline()
        errors: List[str] = []
        while True:
            line = (await self._next_line(f"'ping {self._pings}' with {pong!r}", deadline)).strip()
            if line == pong:
                return errors
            if _ERROR.match(line) and not _about_move_now(line):
                errors.append(line)

    async def _ping(self) -> None:
        errors = await self._sync()
        if errors:
            raise self._refusal("a command", errors)

    async def perft(self, board: Board, depth: int) -> Dict[Move, int]:
        """XBoard has no perft.

        Raises:
            * :exc:`ValueError` always.
        """
        raise ValueError("XBoard has no perft command; use a UCI or UCCI engine")

    async def send_game_result(self, board: Board, winner: Optional[Color] = None, game_ending: Optional[str] = None,
                               game_complete: bool = True) -> None:
        """Tell the engine how the game of ``board`` ended (CECP's ``result 1-0 {ending}``), as python-chess does:
        the moves it has not seen yet first; the result from ``winner`` (``None``: a draw) when ``winner`` or
        ``game_ending`` is given, else from :meth:`Board.outcome <xiangqi.board.Board.outcome>` (``*`` if the game
        is not over), and ``*`` when ``game_complete`` is false.

        Raises:
            * :exc:`ValueError` for a ``game_ending`` with a line break or a curly brace (it would end the line
              or the comment);
            * :exc:`~xiangqi.errors.EngineTerminatedError` when the engine has gone.
        """
        if game_ending and any(c in game_ending for c in "{}\r\n"):
            raise ValueError(f"a game ending may not hold a line break or curly braces: {game_ending!r}")
        outcome = board.outcome()
        if not game_complete:
            result, ending = "*", game_ending or ""
        elif winner is not None or game_ending:
            result, ending = result_of(winner), game_ending or ""
        elif outcome is not None:
            result, ending = outcome.result(), outcome.reason
        else:
            result, ending = "*", ""
        async with self._busy:
            sent = self._sent
            codes = [m.code for m in board.move_stack]
            if sent is not None and sent[0] == board.starting_fen and codes[:len(sent[1])] == sent[1]:
                self.send_line("force")
                for move in board.move_stack[len(sent[1]):]:     # the last moves, which it has not seen
                    self.send_line(("usermove " if self.features.get("usermove") else "") + format_iccs(move))
            self.send_line(f"result {result}" + (f" {{{ending}}}" if ending else ""))
            await self._sync()
        self._sent = None   # the game is over: the next one starts with new

    # ---------------------------------------------------------------- positions

    async def _setboard(self, root: str) -> None:
        fields = root.split()
        telling = any(c in fields[0] for c in "nNbB")    # a FEN without horse or elephant tells no letters apart
        orders = [self.fen_letters] if self._letters_given else list(FEN_LETTERS)
        refusals: List[str] = []
        for letters in orders:
            fen = with_fen_letters(root, letters)
            self.send_line(f"setboard {fen}")
            errors = await self._sync()
            if not errors:
                if telling:
                    self.fen_letters, self._letters_given = letters, True
                return
            refusals += errors
        self._sent = None
        raise self._refusal(f"the position {root}", refusals)

    async def _position(self, board: Board, game: object) -> None:
        """Bring the engine, in force mode, to ``board``: only the new moves when the game goes on."""
        root = board.starting_fen
        codes = [m.code for m in board.move_stack]
        usermove = "usermove " if self.features.get("usermove") else ""
        sent = self._sent
        if (sent is not None and game is not None and game is self._game and sent[0] == root
                and codes[:len(sent[1])] == sent[1]):
            self.send_line("force")
            start = len(sent[1])
        else:
            self._game = game
            self._sd = None         # new clears sd (CECP), not nps
            self.send_line("new")
            self.send_line("variant xiangqi")
            self.send_line("force")
            self.send_line("post")
            if root.split()[:2] != STARTING_FEN.split()[:2]:
                if not self.features.get("setboard"):
                    raise self._error(EngineError, f"engine {self.name!r} has no setboard (feature setboard=0): it "
                                                   f"plays from the start position only, not from {root}")
                await self._setboard(root)
            start = 0
        for move in board.move_stack[start:]:
            self.send_line(usermove + format_iccs(move))
        self._sent = (root, codes)
        if start < len(codes):
            errors = await self._sync()
            if errors:
                self._sent = None
                raise self._refusal(f"the moves of {board.fen()} (from {root})", errors)

    # ---------------------------------------------------------------- searches

    def _check_limit(self, limit: Limit) -> None:
        if limit.mate is not None:
            raise ValueError("XBoard has no mate search; use depth, nodes or time")
        if limit.nodes is not None:
            if limit.time is not None or limit.red_clock is not None or limit.black_clock is not None:
                raise ValueError("XBoard cannot limit nodes and time together")
            if self.features.get("nps", 1) == 0:
                raise ValueError(f"engine {self.name!r} has no node limit (feature nps=0)")

    def _limit_lines(self, board: Board, limit: Limit) -> List[str]:
        """The commands that set ``limit`` (after the position: ``new`` clears ``sd``)."""
        lines: List[str] = []
        if limit.depth is not None:
            lines.append(f"sd {max(1, int(limit.depth))}")
            self._sd = int(limit.depth)
        elif self._sd is not None:
            # sd lasts until new: a search without a depth limit starts over
            lines.append("sd 1000")
            self._sd = None
        if limit.nodes is not None:
            lines += ["nps 1", f"st {max(1, int(limit.nodes))}"]
            self._nps = True
            return lines
        if self._nps:
            lines.append("nps 0")
            self._nps = False
        if limit.time is not None:
            lines.append(f"st {max(1, math.ceil(limit.time))}")
        else:
            own, opp = (limit.red_clock, limit.black_clock) if board.turn else (limit.black_clock, limit.red_clock)
            inc = limit.red_inc if board.turn else limit.black_inc
            if own is not None:
                minutes, seconds = divmod(max(0, int(own)), 60)
                lines.append(f"level {int(limit.movestogo or 0)} {minutes}:{seconds:02d} {inc or 0:g}")
                if self.features.get("time", 1):        # time=0: the engine keeps its clock itself
                    lines.append(f"time {max(1, round(own * 100))}")
                    if opp is not None:
                        lines.append(f"otim {max(1, round(opp * 100))}")
            elif limit.depth is not None:
                lines.append("st 100000")    # depth alone: no time control of the engine's own cuts it short
        return lines

    def _stop_after(self, limit: Limit) -> Optional[float]:
        # st takes whole seconds: 0.3 s goes as st 1 and the engine is told to move (?) on time.
        if limit.time is None or limit.time == int(limit.time):
            return None
        return limit.time

    async def _search(self, board: Board, limit: Limit, search: RunningSearch, multipv: int, game: object,
                      banmoves: Sequence[Move] = (), root_moves: Optional[Sequence[Move]] = None) -> PlayResult:
        if multipv != 1:
            raise ValueError("XBoard has no multipv")
        if banmoves:
            raise ValueError("banmoves is a UCCI command; XBoard engines do not have it")
        if root_moves is not None:
            raise ValueError("XBoard cannot limit a search to root moves")
        if limit.is_empty():
            return await self._analyze(board, search, game)
        self._check_limit(limit)
        await self._position(board, game)
        lines = self._limit_lines(board, limit)
        for line in lines:
            self.send_line(line)
        self.send_line("go")
        after = self._stop_after(limit)
        timer = self.loop.call_later(after, self._stop, search) if after is not None else None
        try:
            return await self._read_go(board, search, f"'go' ({', '.join(lines)}) with 'move' in {board.fen()}",
                                       limit.nodes)
        except EngineError:
            self._sent = None       # the engine's board may be anywhere now
            raise
        finally:
            if timer is not None:
                timer.cancel()

    async def _read_go(self, board: Board, search: RunningSearch, what: str, nodes: Optional[int] = None) -> PlayResult:
        """The thinking output and the move of a ``go``; past ``nodes`` (as the engine reports them) it is told
        to move (``?``): engines read ``nps`` differently (Sjaak II searches a thousand times the nodes CECP's
        ``nps 1`` with ``st N`` means)."""
        played = PlayResult(None, None, InfoDict())
        ended = False
        while True:
            line = await self._next_line(what, search=search)
            words = line.split()
            if not words:
                continue
            head = words[0]
            if head == "move" and len(words) >= 2 or head == "move:" and len(words) >= 2:
                search.stop_sent = True     # no "?" after the move: it would reach the engine's next search
                played.move = self._engine_move(board, words[1], line)
                break
            if _ERROR.match(line):
                if _about_move_now(line):
                    continue    # an engine without "move now": it moves when its time is up
                raise self._refusal(what, [line])
            if self._claim(words, played):
                search.stop_sent = True
                ended = True
                break
            info = parse_post(line, board, mate_value=self.mate_value)
            if info is not None:
                search.record(info)
                if nodes is not None and info.get("nodes", 0) >= nodes:
                    self._stop(search)
        played.info = search.info()
        if played.move is not None and self._sent is not None:
            self._sent = (self._sent[0], self._sent[1] + [played.move.code])
        elif ended:
            self._sent = None
        # What the engine says after its move (a claim, a hint, resign) comes before the pong.
        self._pings += 1
        pong = f"pong {self._pings}"
        self.send_line(f"ping {self._pings}")
        while True:
            line = (await self._next_line(f"'ping {self._pings}' with {pong!r}", search=search)).strip()
            if line == pong:
                break
            words = line.split()
            if words[:1] == ["Hint:"] and len(words) > 1 and played.move is not None:
                after = board.copy(stack=False)
                after.push(played.move)
                replies = _pv(after, words[1:2])
                played.ponder = replies[0] if replies else None
            else:
                self._claim(words, played)
        return played

    def _claim(self, words: List[str], played: PlayResult) -> bool:
        """Read ``resign``, ``offer draw`` or a result claim into ``played``; True when the engine ends the game."""
        if words == ["resign"] or words[:1] in (["1-0"], ["0-1"]) and "resign" in " ".join(words).lower():
            played.resigned = True
            return True
        if words[:2] == ["offer", "draw"]:
            played.draw_offered = True
            return False
        return words[:1] in (["1-0"], ["0-1"], ["1/2-1/2"])

    def _engine_move(self, board: Board, text: str, line: str) -> Move:
        move: Optional[Move]
        try:
            move = board.parse_iccs(text)
        except ValueError as exc:
            move = parse_algebraic(board, text)
            if move is None:
                raise self._error(EngineError, f"engine {self.name!r} sent an illegal move {line.strip()!r} "
                                               f"in {board.fen()} ({exc})") from None
        if not move:
            raise self._error(EngineError, f"engine {self.name!r} sent the null move {line.strip()!r} "
                                           f"in {board.fen()}")
        return move

    async def _analyze(self, board: Board, search: RunningSearch, game: object) -> PlayResult:
        """An analysis without a limit: ``analyze`` until stopped, then ``exit``; the best move is the pv's first."""
        if self.features.get("analyze", 1) == 0:
            raise ValueError(f"engine {self.name!r} has no analyze mode (feature analyze=0); give a limit")
        await self._position(board, game)
        self.send_line("post")
        self.send_line("analyze")
        self._analyzing = True
        what = f"'analyze' in {board.fen()}"
        try:
            while True:
                line = await self._next_line(what, search=search)
                if line.strip() == f"pong {self._pings}" and search.stop_sent:
                    break
                if _ERROR.match(line):
                    raise self._refusal(what, [line])
                info = parse_post(line, board, mate_value=self.mate_value)
                if info is not None:
                    search.record(info)
        except EngineError:
            self._sent = None
            raise
        finally:
            self._analyzing = False
        info = search.info()
        pv = info.get("pv") or []
        return PlayResult(pv[0] if pv else None, pv[1] if len(pv) > 1 else None, info)

    def _stop(self, search: RunningSearch) -> None:
        if search.stop_sent or self._eof:
            return
        search.stop_sent = True
        try:
            if self._analyzing:
                self.send_line("exit")
                self._pings += 1
                self.send_line(f"ping {self._pings}")
            else:
                self.send_line("?")
        except EngineError:
            return
        self._await_stop(search)


async def popen_xboard(command: Command, *, timeout: Optional[float] = 10.0, fen_letters: Optional[str] = None,
                       mate_value: Optional[int] = None, **popen_args: object
                       ) -> Tuple[asyncio.SubprocessTransport, XBoardProtocol]:
    """Start an XBoard/CECP engine (``command``: a string split like a shell does, or an argument list) and
    shake hands (``xboard``, ``protover 2``, the features).

    ``fen_letters``: ``"nb"`` or ``"he"``, the letters of horse and elephant in the engine's ``setboard``
    (found by trying when not given). ``mate_value``: see :class:`XBoardProtocol`.

    The engines tutorial starts MaxQi and Sjaak II with it; a bad argument is refused before anything starts:

    >>> asyncio.run(popen_xboard("/usr/games/maxqi", fen_letters="hb"))
    Traceback (most recent call last):
    ...
    ValueError: fen_letters must be nb or he, not 'hb'

    Raises:
        * :exc:`ValueError` for an empty command or ``fen_letters`` not in :data:`~xiangqi.engine.FEN_LETTERS`;
        * :exc:`~xiangqi.errors.EngineTerminatedError` when the program cannot be started or exits during the
          handshake;
        * :exc:`~xiangqi.errors.EngineError` when the handshake does not finish in time, or the engine has no
          ``ping`` or does not play xiangqi.
    """
    transport, protocol = await popen_protocol(XBoardProtocol, command, Dialect.XBOARD, timeout, popen_args,
                                               fen_letters)
    assert isinstance(protocol, XBoardProtocol)
    protocol.mate_value = mate_value
    return transport, protocol

