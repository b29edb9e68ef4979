"""``xiangqi engine``: our own engine (the C search of :mod:`xiangqi.search`) speaking UCI and UCCI.

The protocol is chosen by the first command: ``uci`` (moves with ranks 0-9, ``h2e2``, as Pikafish
writes them) or ``ucci``. The two differ in the handshake, option and ``info`` syntax, UCCI's
``go time``/``increment``/``opptime`` clock, ``banmoves`` and ``nobestmove``; positions and moves
are read the same way. Every line is read and written by the one grammar of :mod:`xiangqi.uci`, and
the options come from one table (:data:`OPTIONS`). The search and ``go perft`` run in their own
thread, so ``stop``, ``isready``, ``ponderhit`` and ``quit`` are answered while it thinks. Every bad
line gets an ``info string`` naming the problem, and every ``go`` a ``bestmove`` (``bestmove (none)``
or ``nobestmove`` for one it refuses); nothing a GUI sends ends the engine but ``quit`` or the end of
its input, which stops a running search (after its ``bestmove``).

``go perft N`` prints the node count under each root move and then ``Nodes searched: N``, in
Stockfish's and Fairy-Stockfish's format (with ranks 0-9).
"""

from __future__ import annotations

import argparse
import io
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, TextIO, Tuple

from xiangqi import __version__
from xiangqi.board import Board
from xiangqi.core import STARTING_FEN, Move
from xiangqi.errors import ProtocolError, XiangqiError
from xiangqi.perft import perft
from xiangqi.rulesets import DEFAULT_RULES, RULE_SETS
from xiangqi.search import MAX_DEPTH, Searcher, SearchInfo, SearchResult
from xiangqi.uci import (
    HANDSHAKE_OK, MILLISEC_OPTION, Go, InfoWords, Option, bestmove_line, info_line, parse_go, parse_position,
    parse_setoption,
)

__all__ = ["main", "EngineServer", "ENGINE_NAME", "OPTIONS", "EngineOption", "time_budget"]

#: The name the engine gives in its ``id name`` line (with this package's version).
ENGINE_NAME = f"pyxiangqi {__version__}"
_AUTHOR = "the pyxiangqi authors"
_DEFAULT_HASH_MB = 16
_MAX_HASH_MB = 4096
# Milliseconds kept back from every time budget for the answer to reach the GUI (at most a fifth of a short one).
_MOVE_OVERHEAD_MS = 15
# Moves a sudden-death clock is shared over.
_MOVES_LEFT_GUESS = 30
# The soft limit as a part of a move's share of the clock: the depth begun before it runs on past it (each takes
# about half as long again as all before it), so a search ended by it takes about its share.
_SOFT_SHARE = 0.7
_MAX_PERFT_DEPTH = 8
# The longest time budget a search is given (seconds; about 31 years): a longer one is no limit at all.
_MAX_SECONDS = 1e9


def time_budget(go: Go, red: bool) -> Tuple[Optional[float], Optional[float]]:
    """How long our engine thinks under ``go`` with ``red`` (or Black) to move: (hard, soft) in seconds, or
    ``None`` where the go line sets no time. The hard limit ends the search (the C search looks at the clock
    every 256 nodes); no new depth starts after the soft one. A movetime is used but for a margin for the
    answer to reach the GUI (15 ms, at most a fifth of it). A clock is shared over the moves to go (30 if
    unknown), with three quarters of the increment: the soft limit is 0.7 of that share, since the depth begun
    before it runs on past it, and the hard one four times the share (at most 0.8 of the clock).

    >>> time_budget(Go(movetime=10), True), time_budget(Go(movetime=1000), True)
    ((0.008, None), (0.985, None))
    >>> time_budget(Go(red_time=60000, black_time=1000, red_inc=1000), True)
    (10.998, 1.92465)
    >>> time_budget(Go(movetime=10 ** 13), True), time_budget(Go(depth=5), True)
    ((1000000000.0, None), (None, None))
    """
    if go.movetime is not None:
        overhead = min(_MOVE_OVERHEAD_MS, go.movetime // 5)
        return min(max(go.movetime - overhead, 1) / 1000, _MAX_SECONDS), None
    own_time, own_inc = go.clock(red)
    if own_time is not None:
        avail = max(own_time - _MOVE_OVERHEAD_MS, 1)
        moves = go.movestogo or _MOVES_LEFT_GUESS
        share = min(avail / moves + (own_inc or 0) * 0.75, avail * 0.5)
        soft = share * _SOFT_SHARE
        hard = min(share * 4, avail * 0.8)
        return min(max(hard, 1) / 1000, _MAX_SECONDS), min(max(soft, 1) / 1000, _MAX_SECONDS)
    return None, None


class _Usage(Exception):
    """A command the engine cannot act on; its text goes back as an ``info string``."""


@dataclass(frozen=True)
class EngineOption:
    """One row of the engine's options table: its name in UCI and in UCCI (``None``: not offered there), its
    declaration, and what setting it does (``apply(server, value text)``).

    >>> OPTIONS[0].option(ucci=True).line(ucci=True)
    'option hashsize type spin default 16 min 0 max 4096'
    """

    uci: Optional[str]
    ucci: Optional[str]
    type: str
    apply: Callable[["EngineServer", str], None]
    default: Optional[str] = None
    min: Optional[int] = None
    max: Optional[int] = None
    var: Tuple[str, ...] = ()

    def option(self, *, ucci: bool) -> Option:
        """The declaration under the protocol's name (``ValueError`` when the protocol does not offer it).

        >>> OPTIONS[0].option(ucci=False)
        Option(name='Hash', type='spin', default='16', min=0, max=4096, var=[])

        Raises:
            * :exc:`ValueError` for a protocol the option is not offered in.
        """
        name = self.ucci if ucci else self.uci
        if name is None:
            raise ValueError(f"option {self.uci or self.ucci!r} is not offered in {'UCCI' if ucci else 'UCI'}")
        return Option(name, self.type, self.default, self.min, self.max, list(self.var))

    def named(self, name: str) -> bool:
        """Whether ``name`` (any case, either protocol's) is this option's.

        >>> OPTIONS[0].named("HASHSIZE")
        True
        """
        return name.lower() in ((self.uci or "").lower(), (self.ucci or "").lower())


class EngineServer:
    """The protocol loop: feed it lines with :meth:`handle`; it answers on ``out``.

    ``handle`` returns False after ``quit``. Call :meth:`close` at the end of the input
    (a running search is stopped and answered). A bad line never raises: it is answered
    with an ``info string`` saying why.

    >>> import io
    >>> out = io.StringIO()
    >>> server = EngineServer(out, hash_mb=1)
    >>> for line in ("uci", "position startpos moves h2e2", "go depth 2"):
    ...     server.handle(line)
    True
    True
    True
    >>> server.close()              # the end of the input: the search is stopped, and answers
    >>> out.getvalue().splitlines()[-1].split()[0]
    'bestmove'

    Raises:
        * :exc:`ValueError` when ``hash_mb`` is negative, :exc:`MemoryError` when the table cannot be
          allocated.
    """

    def __init__(self, out: TextIO, *, hash_mb: int = _DEFAULT_HASH_MB) -> None:
        self._out = out
        self._write_lock = threading.Lock()
        self._searcher = Searcher(hash_mb)
        self._hash_mb = hash_mb
        self._ucci = False
        self._use_millisec = False
        self._ponder_option = False
        self._board = Board()
        self._banned: List[Move] = []
        self._thread: Optional[threading.Thread] = None
        self._perft_stop: Optional[threading.Event] = None   # set while a perft runs
        self._release = threading.Event()   # lets an infinite or pondering search answer
        self._pondering = False
        self._ponder_go: Optional[Go] = None
        self._ponder_timer: Optional[threading.Timer] = None
        self._soft_deadline: Optional[float] = None   # perf_counter time after which no new depth starts
        self._release_needed = False        # the running search is infinite or pondering
        self._commands: Dict[str, Callable[[List[str]], None]] = {
            "uci": self._cmd_uci, "ucci": self._cmd_ucci, "isready": self._cmd_isready,
            "setoption": self._cmd_setoption, "ucinewgame": self._cmd_newgame,
            "position": self._cmd_position, "banmoves": self._cmd_banmoves, "go": self._cmd_go,
            "stop": self._cmd_stop, "ponderhit": self._cmd_ponderhit, "debug": lambda _: None,
            "register": lambda _: None,
        }

    # ------------------------------------------------------------ output

    def _send(self, line: str) -> None:
        with self._write_lock:
            self._out.write(line + "\n")
            self._out.flush()

    def _info_string(self, text: str) -> None:
        self._send(info_line({"string": text}, ucci=False))

    # ------------------------------------------------------------- input

    def handle(self, line: str) -> bool:
        """Act on one input line; False once the engine should exit (``quit``).

        >>> import io
        >>> out = io.StringIO()
        >>> server = EngineServer(out, hash_mb=1)
        >>> server.handle("position fen not-a-fen"), server.handle("quit")
        (True, False)
        >>> out.getvalue()
        "info string position: invalid FEN: unexpected character 'o' at offset 1 in 'not-a-fen'\\n"
        """
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        if command == "quit":
            self.close()
            if self._ucci:
                self._send("bye")
            return False
        handler = self._commands.get(command)
        if handler is None:
            self._info_string(f"unknown command: {line.strip()[:200]}")
            return True
        try:
            handler(args)
        except (_Usage, ProtocolError) as exc:
            self._info_string(str(exc))
        except (XiangqiError, ValueError) as exc:  # bad FEN or move text, from the library's own parsers
            self._info_string(f"{command}: {exc}")
        return True

    def close(self) -> None:
        """The input ended (or ``quit``): a running search is stopped and answered, a perft stopped.

        >>> import io
        >>> out = io.StringIO()
        >>> server = EngineServer(out, hash_mb=1)
        >>> server.handle("go infinite")
        True
        >>> server.close(); out.getvalue().splitlines()[-1].startswith("bestmove ")
        True
        """
        self._finish_search(stop=True)

    # ---------------------------------------------------------- handshake

    def _handshake(self, ucci: bool) -> None:
        self._ucci = ucci
        self._send(f"id name {ENGINE_NAME}")
        self._send(f"id author {_AUTHOR}")
        for row in OPTIONS:
            if (row.ucci if ucci else row.uci) is not None:
                self._send(row.option(ucci=ucci).line(ucci=ucci))
        self._send(HANDSHAKE_OK["ucci" if ucci else "uci"])

    def _cmd_uci(self, args: List[str]) -> None:
        self._handshake(False)

    def _cmd_ucci(self, args: List[str]) -> None:
        self._handshake(True)

    def _cmd_isready(self, args: List[str]) -> None:
        self._send("readyok")

    def _cmd_setoption(self, args: List[str]) -> None:
        # UCI: setoption name <id> [value <x>]; UCCI: setoption <id> [<x>].  Both forms and both names are read.
        name, value = parse_setoption(args)
        row = next((r for r in OPTIONS if r.named(name)), None)
        if row is None:
            key = name.lower()
            if key == "uci_variant":
                if value.lower() != "xiangqi":
                    raise _Usage(f"setoption UCI_Variant: only xiangqi is played, not {value!r}")
                return
            if key.startswith("uci_"):
                return  # UCI_AnalyseMode and the like, which GUIs send by habit; nothing here depends on them
            raise _Usage(f"setoption: unknown option {name!r} (this engine has: "
                         f"{', '.join(n for r in OPTIONS if (n := r.ucci if self._ucci else r.uci))})")
        option = row.option(ucci=row.ucci is not None and (self._ucci or row.uci is None))
        try:
            text = option.value_text(value)
        except ValueError as exc:
            raise _Usage(f"setoption {name}: {exc}") from None
        row.apply(self, text or "")

    def _set_hash(self, value: str) -> None:
        mb = int(value)
        self._require_idle("setoption Hash")
        if mb != self._hash_mb:
            try:
                self._searcher.resize(mb)
            except MemoryError:
                raise _Usage(f"setoption Hash: cannot allocate {mb} MB; keeping {self._hash_mb} MB") from None
            self._hash_mb = mb

    def _set_millisec(self, value: str) -> None:
        self._use_millisec = value == "true"

    def _set_ponder(self, value: str) -> None:
        self._ponder_option = value == "true"

    def _set_rules(self, value: str) -> None:
        self._require_idle("setoption Rules")
        self._searcher.rules = value

    def _cmd_newgame(self, args: List[str]) -> None:
        self._require_idle("ucinewgame")
        self._searcher.clear()

    def _require_idle(self, what: str) -> None:
        if self._thread is not None and self._thread.is_alive():
            raise _Usage(f"{what}: not while searching (send stop first)")

    # ----------------------------------------------------------- position

    def _cmd_position(self, args: List[str]) -> None:
        fen, moves = parse_position(args)
        board = Board(STARTING_FEN if fen is None else fen)
        self._banned = []
        for i, text in enumerate(moves):
            try:
                board.push_iccs(text)
            except XiangqiError as exc:
                # As Fairy-Stockfish does: the position up to the bad move stands.
                self._board = board
                raise _Usage(f"position: move {i + 1} ({text!r}): {exc}; the position is the one before it") from None
        self._board = board

    def _cmd_banmoves(self, args: List[str]) -> None:
        banned = []
        for text in args:
            try:
                banned.append(self._board.parse_iccs(text))
            except XiangqiError as exc:
                raise _Usage(f"banmoves: {exc}") from None
        self._banned = banned

    # ----------------------------------------------------------------- go

    def _cmd_go(self, args: List[str]) -> None:
        received = time.perf_counter()
        self._finish_search(stop=True)
        try:
            go = parse_go(args, red=self._board.turn, millisec=self._use_millisec)
        except ProtocolError as exc:
            # Refused, but answered: a GUI waits for a bestmove after every go.
            self._info_string(str(exc))
            self._send(bestmove_line(None, ucci=self._ucci))
            return
        if go.perft is not None:
            self._start_perft(go.perft)
            return
        root: Optional[List[Move]] = None
        if go.searchmoves:
            root = []
            for text in go.searchmoves:
                try:
                    root.append(self._board.parse_iccs(text))
                except XiangqiError as exc:
                    self._info_string(f"go searchmoves: {exc}; the move is left out")
        elif self._banned:
            root = [m for m in self._board.legal_moves if m not in self._banned]
        if root == [] and go.searchmoves:
            self._send(bestmove_line(None, ucci=self._ucci))   # no move left to search
            return
        depth = None if go.depth is None else min(go.depth, MAX_DEPTH)
        if go.mate is not None and depth is None:
            depth = min(2 * go.mate - 1, MAX_DEPTH)
        self._pondering = go.ponder
        self._ponder_go = go if go.ponder else None
        self._release_needed = go.infinite or go.ponder
        self._release.clear()
        self._soft_deadline = None
        self._searcher.reset_stop()
        board = self._board.copy()
        thread = threading.Thread(target=self._think, args=(board, go, depth, root, received), daemon=True)
        self._thread = thread
        thread.start()

    def _think(self, board: Board, go: Go, depth: Optional[int], root: Optional[List[Move]],
               received: float) -> None:
        hard: Optional[float] = None
        soft: Optional[float] = None
        if not (go.infinite or go.ponder):
            hard, soft = time_budget(go, self._board.turn)
        if hard is not None:
            hard = max(hard - (time.perf_counter() - received), 0.001)
        completed: List[SearchInfo] = []

        def on_iteration(info: SearchInfo) -> None:
            completed.append(info)
            self._send_info(info)
            soft_deadline = self._soft_deadline
            if soft_deadline is not None and time.perf_counter() >= soft_deadline:
                self._searcher.stop()   # a ponderhit's budget: no new depth after its soft time

        try:
            result = self._searcher.search(board, depth=depth, nodes=go.nodes, time_limit=hard, soft_time=soft,
                                           root_moves=root, on_iteration=on_iteration)
            if result.stopped and not completed:
                # Stopped before depth 1 was complete: its move and score are not a search's. Depth 1 takes
                # a moment; its move and score are real.
                self._searcher.reset_stop()
                result = self._searcher.search(board, depth=1, root_moves=root, on_iteration=on_iteration)
        except Exception as exc:  # pragma: no cover - a bug; say so instead of dying silently
            self._info_string(f"search failed: {exc!r}")
            self._send(bestmove_line(None, ucci=self._ucci))
            return
        if self._release_needed:
            # UCI and UCCI: an infinite or pondering search answers only after stop (or ponderhit).
            self._release.wait()
        if result.stopped and completed and result.info.depth > completed[-1].depth:
            self._send_info(result.info)
        self._send_bestmove(result)

    def _send_info(self, info: SearchInfo) -> None:
        mate = info.mate
        words = InfoWords(depth=info.depth, seldepth=info.seldepth,
                          score=("mate", mate) if mate is not None else ("cp", info.score), nodes=info.nodes,
                          nps=info.nps, time=int(info.time * 1000), pv=[m.iccs() for m in info.pv])
        self._send(info_line(words, ucci=self._ucci))

    def _send_bestmove(self, result: SearchResult) -> None:
        best = None if result.best is None else result.best.iccs()
        ponder = None if result.best is None or result.ponder is None else result.ponder.iccs()
        self._send(bestmove_line(best, ponder, ucci=self._ucci))

    def _cmd_stop(self, args: List[str]) -> None:
        self._finish_search(stop=True)

    def _cmd_ponderhit(self, args: List[str]) -> None:
        if not self._pondering or self._thread is None:
            return
        self._pondering = False
        go = self._ponder_go or Go()
        hard, soft = time_budget(go, self._board.turn)
        if hard is None:
            return  # pondering an infinite search: it goes on until stop
        # The normal budget, from now: no new depth after its soft time, a stop at its hard time.
        if soft is not None:
            self._soft_deadline = time.perf_counter() + soft
        self._release_needed = False
        self._release.set()
        self._ponder_timer = threading.Timer(hard, self._searcher.stop)
        self._ponder_timer.daemon = True
        self._ponder_timer.start()

    def _finish_search(self, *, stop: bool) -> None:
        """Wait for the running search or perft (stopping it first with ``stop``); a search sends its bestmove."""
        thread = self._thread
        if thread is None:
            return
        if stop:
            self._searcher.stop()
            if self._perft_stop is not None:
                self._perft_stop.set()
        self._release.set()
        thread.join()
        self._thread = None
        self._perft_stop = None
        self._pondering = False
        if self._ponder_timer is not None:
            self._ponder_timer.cancel()
            self._ponder_timer = None

    # --------------------------------------------------------------- perft

    def _start_perft(self, depth: int) -> None:
        if depth > _MAX_PERFT_DEPTH:
            raise _Usage(f"go perft: depth at most {_MAX_PERFT_DEPTH}, not {depth}")
        stop = threading.Event()
        self._perft_stop = stop
        thread = threading.Thread(target=self._perft, args=(self._board.fen(), depth, stop), daemon=True)
        self._thread = thread
        thread.start()

    def _perft(self, fen: str, depth: int, stop: threading.Event) -> None:
        """The divide, in subtrees of at most :data:`_PERFT_CHUNK` plies, so that ``stop`` ends it within
        milliseconds (with an ``info string`` saying so, and no node count)."""
        total = 0
        if depth == 0:
            total = 1
        else:
            board = Board(fen)
            try:
                for move in list(board.legal_moves):
                    board.push(move)
                    n = _count(board, depth - 1, stop)
                    board.pop()
                    self._send(f"{move.iccs()}: {n}")
                    total += n
            except _Stopped:
                self._info_string("perft stopped")
                return
        self._send("")
        self._send(f"Nodes searched: {total}")
        self._send("")


class _Stopped(Exception):
    """A perft was stopped."""


# Plies counted by one C call of a stoppable perft (about 3 million leaves from the start: milliseconds).
_PERFT_CHUNK = 4


def _count(board: Board, depth: int, stop: threading.Event) -> int:
    """Leaves of ``board``'s move tree to ``depth``, split into C calls of :data:`_PERFT_CHUNK` plies; raises
    :class:`_Stopped` between two of them once ``stop`` is set."""
    if stop.is_set():
        raise _Stopped
    if depth <= _PERFT_CHUNK:
        return board.perft(depth)
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += _count(board, depth - 1, stop)
        board.pop()
    return total


def _clear_hash(server: EngineServer, value: str) -> None:
    server._cmd_newgame([])


#: The engine's options, one row each: its UCI and UCCI names (``None``: not offered in that protocol), type,
#: what it sets, and its default and range. The handshake announces them and ``setoption`` finds them here.
OPTIONS: Tuple[EngineOption, ...] = (
    EngineOption("Hash", "hashsize", "spin", EngineServer._set_hash, str(_DEFAULT_HASH_MB), 0, _MAX_HASH_MB),
    EngineOption("Clear Hash", None, "button", _clear_hash),
    EngineOption(None, "newgame", "button", _clear_hash),
    EngineOption(None, MILLISEC_OPTION, "check", EngineServer._set_millisec, "false"),
    EngineOption("Ponder", None, "check", EngineServer._set_ponder, "false"),
    EngineOption("Rules", "rules", "combo", EngineServer._set_rules, DEFAULT_RULES, var=tuple(RULE_SETS)),
)


def main(argv: Optional[List[str]] = None) -> int:
    """``xiangqi engine``: run the engine on standard input and output; returns 0 at the end of the input or
    after ``quit``. The engines tutorial drives it as a process.

    >>> main(["--hash", "-1"])
    Traceback (most recent call last):
    ...
    SystemExit: 2

    Raises:
        * :exc:`SystemExit` (status 2, the message on standard error) for bad arguments.
    """
    parser = argparse.ArgumentParser(
        prog="xiangqi engine",
        description="Our own xiangqi engine on the C core, speaking UCI (ranks 0-9, h2e2) or UCCI:\n"
                    "the first command, uci or ucci, chooses. Point a GUI at `xiangqi engine`.",
        epilog="example:\n"
               "  printf 'uci\\nposition startpos moves h2e2\\ngo movetime 500\\n' | xiangqi engine",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--hash", type=int, default=_DEFAULT_HASH_MB, metavar="MB",
                        help=f"transposition table size in MB (default: {_DEFAULT_HASH_MB})")
    args = parser.parse_args(argv)
    if not 0 <= args.hash <= _MAX_HASH_MB:
        parser.error(f"--hash must be 0-{_MAX_HASH_MB} MB, not {args.hash}")
    server = EngineServer(sys.stdout, hash_mb=args.hash)
    # Bytes that are not UTF-8 are a bad line like any other, not a reason to die.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    while True:
        line = stdin.readline()
        if not line:
            server.close()
            break
        if not server.handle(line):
            break
    return 0
