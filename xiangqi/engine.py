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

This module is the client's front: UCI and UCCI (:class:`UciProtocol`,
:class:`UcciProtocol`), the ``popen_*`` functions and :class:`SimpleEngine`.
It stands on :mod:`xiangqi.scores` (scores, no event loop: a game's
``[%eval]`` reads them), :mod:`xiangqi.engine_types` (limits, infos, results),
:mod:`xiangqi.engine_protocol` (the process and conversation every dialect
shares) and :mod:`xiangqi.xboard` (XBoard/CECP), and exports the names a
client uses (those of python-chess's ``chess.engine``, and ``RunningSearch``);
each module's parsers stay in it.

The examples start the package's own engine (``xiangqi engine``), which is
always there: ``OURS = [sys.executable, "-m", "xiangqi", "engine"]``.
"""


from __future__ import annotations

import asyncio
import functools
import threading
import weakref
from types import TracebackType
from typing import Coroutine, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union, overload

from xiangqi.board import Board
from xiangqi.core import Move
from xiangqi.engine_protocol import MAX_LINE_BYTES, AnalysisResult, Command, EngineProtocol, popen_protocol
from xiangqi.engine_types import (
    FEN_LETTERS, BestMove, Dialect, InfoDict, Limit, PlayResult, RunningSearch, parse_info, with_fen_letters,
)
from xiangqi.errors import AnalysisComplete, EngineError, EngineTerminatedError
from xiangqi.scores import UCCI_MATE_PLIES, UCCI_MATE_VALUE, Cp, Mate, MateGiven, PovScore, Score, bare_score
from xiangqi.uci import MILLISEC_OPTION, Option, OptionValue, is_bestmove, parse_bestmove, parse_option, position_line, setoption_line
from xiangqi.xboard import XBoardProtocol, popen_xboard

__all__ = [
    "Dialect", "Limit", "Score", "Cp", "Mate", "MateGiven", "PovScore", "InfoDict", "Option", "PlayResult",
    "BestMove", "AnalysisResult", "AnalysisComplete", "EngineProtocol", "UciProtocol", "UcciProtocol", "XBoardProtocol",
    "popen_uci", "popen_ucci", "popen_xboard", "SimpleEngine", "SimpleAnalysisResult", "EngineError", "EngineTerminatedError",
    "OptionValue", "parse_info", "parse_option", "bare_score", "UCCI_MATE_VALUE", "UCCI_MATE_PLIES", "MAX_LINE_BYTES",
    "FEN_LETTERS", "with_fen_letters", "RunningSearch",
]

T = TypeVar("T")

# A position whose every legal move says how an engine reads FEN letters and writes ranks: kings and a red horse.
_PROBE_FEN = "4k4/9/9/9/9/9/9/9/9/3KN4 w - - 0 1"


class UciProtocol(EngineProtocol):
    """UCI (Pikafish ranks 0-9, or Fairy-Stockfish ranks 1-10 with ``UCI_Variant xiangqi``).

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
            if self._refused(said):
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

        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.id["author"]
        'the pyxiangqi authors'
        """
        return self.protocol.id

    @property
    def options(self) -> Dict[str, Option]:
        """The engine's options by name.

        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.options["Hash"].type, engine.options["Hash"].max
        ('spin', 4096)
        """
        return self.protocol.options

    @property
    def dialect(self) -> Dialect:
        """The protocol and rank dialect in use.

        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.dialect.one_based
        False
        """
        return self.protocol.dialect

    @property
    def stderr(self) -> str:
        """The last lines the engine wrote to its standard error.

        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.stderr
        ''
        """
        return self.protocol.stderr

    @property
    def returncode(self) -> Optional[int]:
        """The process's exit status, ``None`` while it runs.

        >>> engine = SimpleEngine.popen_uci(OURS)
        >>> engine.returncode
        >>> engine.quit(); engine.returncode
        0
        """
        return self.protocol.returncode

    def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set engine options (see :meth:`EngineProtocol.configure`).

        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     engine.configure({"Hash": 8, "Clear Hash": None})

        Raises:
            * the errors of :meth:`EngineProtocol.configure`, and :exc:`~xiangqi.errors.EngineTerminatedError`
              after :meth:`quit`.
        """
        self._run(self.protocol.configure(options))

    def ping(self) -> None:
        """``isready`` / ``readyok``.

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

        >>> with SimpleEngine.popen_uci(OURS) as engine:
        ...     analysis = engine.analysis(Board(), Limit(depth=1))
        ...     _ = analysis.wait()
        ...     _ = list(analysis)
        ...     analysis.empty(), analysis.would_block()
        (True, False)
        """
        return self._inner.would_block()

    def next(self) -> Optional[InfoDict]:
        """The next info, or ``None`` once the analysis has ended.

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
