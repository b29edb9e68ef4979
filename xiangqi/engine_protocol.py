"""The engine protocols' common ground: one engine process and the conversation with it
(:class:`EngineProtocol`), a running analysis (:class:`AnalysisResult`) and how a process is started and greeted
(:func:`popen_protocol`).

:class:`EngineProtocol` reads the engine's lines, sends commands one at a time, keeps deadlines, kills an engine
that hangs and words the errors; its dialects subclass it: UCI and UCCI in :mod:`xiangqi.engine`, XBoard/CECP in
:mod:`xiangqi.xboard`. Users start engines with :mod:`xiangqi.engine`'s :func:`~xiangqi.engine.popen_uci`,
:func:`~xiangqi.engine.popen_ucci`, :func:`~xiangqi.engine.popen_xboard` or :class:`~xiangqi.engine.SimpleEngine`,
which export every name here.

The examples start the package's own engine (``xiangqi engine``) with :func:`~xiangqi.engine.popen_uci`:
``OURS = [sys.executable, "-m", "xiangqi", "engine"]``.
"""

from __future__ import annotations

import asyncio
import collections
import re
import shlex
from typing import (
    Any, Callable, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Type, Union, overload,
)

from xiangqi._encoding import MAX_LINE_BYTES as _MAX_LINE
from xiangqi.board import Board, parse_coordinates
from xiangqi.core import RED, Move
from xiangqi.engine_types import (
    FEN_LETTERS, BestMove, Dialect, InfoDict, Limit, PlayResult, RunningSearch, parse_moves, with_fen_letters,
)
from xiangqi.errors import AnalysisComplete, EngineError, EngineTerminatedError
from xiangqi.notation import format_iccs
from xiangqi.scores import UCCI_MATE_VALUE
from xiangqi.uci import (
    ENGINE_LINE_WORDS, HANDSHAKE_OK, Option, OptionValue, is_bestmove, parse_bestmove, parse_info_words, parse_option,
    position_line,
)

__all__ = ["EngineProtocol", "AnalysisResult", "popen_protocol", "Command", "MAX_LINE_BYTES"]

# An engine's words refusing a position.
_REFUSAL = re.compile(r"error|illegal|invalid|unknown|bad fen|cannot|can't", re.IGNORECASE)


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


class EngineProtocol(asyncio.SubprocessProtocol):
    """The state of one engine process: reading its lines, sending commands, one command at a time.

    Use :func:`~xiangqi.engine.popen_uci` / :func:`~xiangqi.engine.popen_ucci`, which start the process and
    run the handshake. ``timeout`` (seconds, ``None`` for none) bounds each
    answer beyond the search limit's own time.

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

    def _refused(self, said: Iterable[str]) -> bool:
        """Whether the engine's own words ``said`` refuse a position (an error, an illegal or unknown FEN)."""
        return any(_REFUSAL.search(line) for line in said)

    def _terminated(self, what: str) -> EngineError:
        code = self.returncode
        status = "" if code is None else f" (exit status {code})"
        how = "was killed" if self._killed else "exited"
        return self._error(EngineTerminatedError, f"engine {self.name!r} {how}{status} {what}")

    def send_line(self, line: str) -> None:
        """Write one command line to the engine (raises :class:`EngineTerminatedError` if it has gone).

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
        return limit.go().line(ucci=self.dialect is Dialect.UCCI, millisec=self._millisec, red=board.turn == RED)

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
                    opt = parse_option(tokens[1:], ucci=self.dialect is Dialect.UCCI)
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
            if self.dialect is not Dialect.UCCI:
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
        if self._refused(self._chatter):
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
            if self.dialect is Dialect.UCCI:   # UCCI has no searchmoves: every other move is banned
                banmoves = list(banmoves) + [m for m in board.legal_moves if m not in root_moves]
            else:
                go += " searchmoves " + " ".join(self._format(m) for m in root_moves)
        if banmoves and self.dialect is not Dialect.UCCI:
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
            replies = parse_moves(after, [words.ponder], one_based)
            ponder = replies[0] if replies else None
        return PlayResult(move, ponder, info, draw_offered=words.draw, resigned=words.resign)

    async def play(self, board: Board, limit: Limit, *, game: object = None, banmoves: Sequence[Move] = (),
                   root_moves: Optional[Sequence[Move]] = None) -> PlayResult:
        """Ask for a move in ``board``'s position (its move stack is sent too) under ``limit``.

        ``game``: any object identifying the game; a new one sends
        ``ucinewgame``. ``banmoves`` (UCCI) forbids moves; ``root_moves``
        (legal moves) limits the search to them (UCI ``searchmoves``; in
        UCCI the other moves are banned).

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
        return RunningSearch(board, deadline, self.dialect.one_based, self.mate_value,
                             None if sink is None else sink._post)

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


class AnalysisResult:
    """A running analysis: iterate (``async for``) over its infos, :meth:`stop` it, :meth:`wait` for the best move.

    :attr:`info` is the merged info of the first line, :attr:`multipv` of
    every line, each kept up to date.

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

    def would_block(self) -> bool:
        """Whether :meth:`get` would wait: no info is waiting and the analysis still runs (python-chess's
        ``would_block``).

        >>> async def after_the_end():
        ...     transport, engine = await popen_uci(OURS)
        ...     analysis = await engine.analysis(Board(), Limit(depth=1))
        ...     await analysis.wait()
        ...     _ = [info async for info in analysis]
        ...     await engine.quit()
        ...     return analysis.would_block()
        >>> asyncio.run(after_the_end())
        False
        """
        return not self._queue and not self._done.done()

    async def get(self) -> InfoDict:
        """The next info; raises :class:`AnalysisComplete` after the last one (or what ended the analysis).

        >>> async def past_the_end():
        ...     transport, engine = await popen_uci(OURS)
        ...     analysis = await engine.analysis(Board(), Limit(depth=1))
        ...     _ = [info async for info in analysis]
        ...     await engine.quit()
        ...     await analysis.get()
        >>> asyncio.run(past_the_end())
        Traceback (most recent call last):
        ...
        xiangqi.errors.AnalysisComplete: the analysis has ended

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


#: An engine's command: a string split as a shell does, or an argument list.
Command = Union[str, Sequence[str]]


def _argv(command: Command) -> List[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


async def popen_protocol(factory: Type[EngineProtocol], command: Command, dialect: Optional[Union[Dialect, str]],
                 timeout: Optional[float], popen_args: Mapping[str, object], fen_letters: Optional[str] = None
                 ) -> Tuple[asyncio.SubprocessTransport, EngineProtocol]:
    """Start ``command`` as an engine speaking ``factory``'s protocol and shake hands (what :func:`~xiangqi.engine.popen_uci`,
    :func:`~xiangqi.engine.popen_ucci` and :func:`xiangqi.xboard.popen_xboard` share): ``dialect`` goes to
    :meth:`EngineProtocol.initialize`, ``popen_args`` to :meth:`asyncio.loop.subprocess_exec`, and ``fen_letters``
    (``"nb"`` or ``"he"``) are the letters of horse and elephant the engine reads, when given.

    >>> from xiangqi.engine import UciProtocol
    >>> asyncio.run(popen_protocol(UciProtocol, "", None, 10.0, {}))
    Traceback (most recent call last):
    ...
    ValueError: empty engine command

    Raises:
        * :exc:`ValueError` for an empty command or ``fen_letters`` other than ``"nb"`` and ``"he"``;
        * :exc:`~xiangqi.errors.EngineTerminatedError` when the program cannot be started or exits during the
          handshake;
        * the errors of the protocol's :meth:`~EngineProtocol.initialize`.
    """
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


