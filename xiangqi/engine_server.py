"""``xiangqi engine``: our own engine (the C search of :mod:`xiangqi.search`) speaking UCI and UCCI.

The protocol is chosen by the first command: ``uci`` (moves with ranks 0-9, ``h2e2``, as Pikafish
writes them) or ``ucci``. The two differ in the handshake, option and ``info`` syntax, UCCI's
``go time``/``increment``/``opptime`` clock, ``banmoves`` and ``nobestmove``; positions and moves
are read the same way. The search runs in its own thread, so ``stop``, ``isready`` and
``ponderhit`` are answered while it thinks. Every bad line gets an ``info string`` naming the
problem; nothing a GUI sends ends the engine but ``quit`` (or the end of its input).

``go perft N`` prints the node count under each root move and then ``Nodes searched: N``, in
Stockfish's and Fairy-Stockfish's format (with ranks 0-9).
"""

from __future__ import annotations

import argparse
import io
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, TextIO, Tuple

from xiangqi import __version__
from xiangqi.board import Board
from xiangqi.core import STARTING_FEN, Move
from xiangqi.errors import XiangqiError
from xiangqi.perft import perft
from xiangqi.search import MAX_DEPTH, Searcher, SearchInfo, SearchResult

__all__ = ["main", "EngineServer", "ENGINE_NAME"]

#: The name the engine gives in its ``id name`` line (with this package's version).
ENGINE_NAME = f"pyxiangqi {__version__}"
_AUTHOR = "the pyxiangqi authors"
_DEFAULT_HASH_MB = 16
_MAX_HASH_MB = 4096
# Milliseconds kept back from every time budget for the answer to reach the GUI.
_MOVE_OVERHEAD_MS = 15
# Moves a sudden-death clock is shared over.
_MOVES_LEFT_GUESS = 30
_MAX_PERFT_DEPTH = 8


class _Usage(Exception):
    """A command the engine cannot act on; its text goes back as an ``info string``."""


@dataclass
class _Go:
    """The limits of one ``go`` command, times in milliseconds."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    perft: Optional[int] = None
    own_time: Optional[int] = None
    own_inc: int = 0
    movestogo: Optional[int] = None
    searchmoves: List[str] = field(default_factory=list)


# Larger counts and times mean nothing to a search; refusing them keeps every value in C's range.
_MAX_ARG = 10 ** 15


def _int_arg(tokens: List[str], i: int, name: str, *, minimum: int = 0) -> int:
    if i >= len(tokens):
        raise _Usage(f"go {name}: missing value")
    try:
        value = int(tokens[i])
    except ValueError:
        raise _Usage(f"go {name}: expected a whole number, not {tokens[i]!r}") from None
    if not minimum <= value <= _MAX_ARG:
        raise _Usage(f"go {name}: must be from {minimum} to {_MAX_ARG}, not {value}")
    return value


class EngineServer:
    """The protocol loop: feed it lines with :meth:`handle`; it answers on ``out``.

    ``handle`` returns False after ``quit``. Call :meth:`close` at the end of the input
    (a finite search is finished and answered, an infinite one stopped). A bad
    line never raises: it is answered with an ``info string`` saying why.

    >>> import io
    >>> out = io.StringIO()
    >>> server = EngineServer(out, hash_mb=1)
    >>> for line in ("uci", "position startpos moves h2e2", "go depth 2"):
    ...     server.handle(line)
    True
    True
    True
    >>> server.close(); out.getvalue().splitlines()[-1]
    'bestmove b9c7 ponder b0c2'

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
        self._board = Board()
        self._banned: List[Move] = []
        self._thread: Optional[threading.Thread] = None
        self._release = threading.Event()   # lets an infinite or pondering search answer
        self._pondering = False
        self._ponder_limits: Optional[_Go] = None
        self._ponder_timer: Optional[threading.Timer] = None
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
        self._send("info string " + " ".join(text.split()))

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
            self._finish_search(stop=True)
            if self._ucci:
                self._send("bye")
            return False
        handler = self._commands.get(command)
        if handler is None:
            self._info_string(f"unknown command: {line.strip()[:200]}")
            return True
        try:
            handler(args)
        except _Usage as exc:
            self._info_string(str(exc))
        except (XiangqiError, ValueError) as exc:  # bad FEN or move text, from the library's own parsers
            self._info_string(f"{command}: {exc}")
        return True

    def close(self) -> None:
        """The input ended: answer a search with limits, stop an unlimited one.

        >>> import io
        >>> out = io.StringIO()
        >>> server = EngineServer(out, hash_mb=1)
        >>> server.handle("go infinite")
        True
        >>> server.close(); out.getvalue().splitlines()[-1].startswith("bestmove ")
        True
        """
        self._finish_search(stop=self._release_needed)

    # ---------------------------------------------------------- handshake

    def _cmd_uci(self, args: List[str]) -> None:
        self._ucci = False
        self._send(f"id name {ENGINE_NAME}")
        self._send(f"id author {_AUTHOR}")
        self._send(f"option name Hash type spin default {_DEFAULT_HASH_MB} min 0 max {_MAX_HASH_MB}")
        self._send("option name Clear Hash type button")
        self._send("option name Rules type combo default axf var axf var cxa")
        self._send("uciok")

    def _cmd_ucci(self, args: List[str]) -> None:
        self._ucci = True
        self._send(f"id name {ENGINE_NAME}")
        self._send(f"id author {_AUTHOR}")
        self._send(f"option hashsize type spin min 0 max {_MAX_HASH_MB} default {_DEFAULT_HASH_MB}")
        self._send("option usemillisec type check default false")
        self._send("option newgame type button")
        self._send("option rules type combo var axf var cxa default axf")
        self._send("ucciok")

    def _cmd_isready(self, args: List[str]) -> None:
        self._send("readyok")

    def _cmd_setoption(self, args: List[str]) -> None:
        # UCI: setoption name <id> [value <x>]; UCCI: setoption <id> [<x>].  Both forms are read in both modes.
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
            raise _Usage("setoption: missing option name")
        key = name.lower()
        if key in ("hash", "hashsize"):
            try:
                mb = int(value)
            except ValueError:
                raise _Usage(f"setoption {name}: expected megabytes, not {value!r}") from None
            if not 0 <= mb <= _MAX_HASH_MB:
                raise _Usage(f"setoption {name}: must be 0-{_MAX_HASH_MB} MB, not {mb}")
            self._require_idle(f"setoption {name}")
            if mb != self._hash_mb:
                try:
                    self._searcher.resize(mb)
                except MemoryError:
                    raise _Usage(f"setoption {name}: cannot allocate {mb} MB; keeping {self._hash_mb} MB") from None
                self._hash_mb = mb
        elif key in ("clear hash", "newgame"):
            self._cmd_newgame([])
        elif key == "usemillisec":
            if value.lower() not in ("true", "false"):
                raise _Usage(f"setoption usemillisec: expected true or false, not {value!r}")
            self._use_millisec = value.lower() == "true"
        elif key == "rules":
            self._require_idle(f"setoption {name}")
            try:
                self._searcher.rules = value
            except ValueError as exc:
                raise _Usage(f"setoption {name}: {exc}") from None
        elif key == "uci_variant":
            if value.lower() != "xiangqi":
                raise _Usage(f"setoption UCI_Variant: only xiangqi is played, not {value!r}")
        elif key in ("ponder", "uci_analysemode", "threads", "multipv") or key.startswith("uci_"):
            pass  # options GUIs send by habit; nothing here depends on them
        else:
            raise _Usage(f"setoption: unknown option {name!r}")

    def _cmd_newgame(self, args: List[str]) -> None:
        self._require_idle("ucinewgame")
        self._searcher.clear()

    def _require_idle(self, what: str) -> None:
        if self._thread is not None and self._thread.is_alive():
            raise _Usage(f"{what}: not while searching (send stop first)")

    # ----------------------------------------------------------- position

    def _cmd_position(self, args: List[str]) -> None:
        if not args:
            raise _Usage("position: expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'")
        moves_at = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:moves_at], args[moves_at + 1:]
        if head[0] == "startpos" and len(head) == 1:
            fen = STARTING_FEN
        elif head[0] == "fen" and len(head) > 1:
            fen = " ".join(head[1:])
        else:
            raise _Usage(f"position: expected 'startpos' or 'fen <FEN>', not {' '.join(head)[:100]!r}")
        board = Board(fen)
        for i, text in enumerate(moves):
            try:
                board.push_iccs(text)
            except XiangqiError as exc:
                raise _Usage(f"position: move {i + 1} ({text!r}): {exc}; position unchanged") from None
        self._board = board
        self._banned = []

    def _cmd_banmoves(self, args: List[str]) -> None:
        banned = []
        for text in args:
            try:
                banned.append(self._board.parse_iccs(text))
            except XiangqiError as exc:
                raise _Usage(f"banmoves: {exc}") from None
        self._banned = banned

    # ----------------------------------------------------------------- go

    def _parse_go(self, args: List[str]) -> _Go:
        go = _Go()
        red = self._board.turn
        clocks: Dict[str, int] = {}
        i = 0
        while i < len(args):
            word = args[i]
            if word in ("infinite", "ponder"):
                setattr(go, word, True)
            elif word == "draw":
                pass  # UCCI: the opponent offers a draw; this engine plays on
            elif word == "searchmoves":
                go.searchmoves = args[i + 1:]
                break
            elif word in ("depth", "nodes", "movetime", "perft", "mate", "wtime", "btime", "winc", "binc",
                          "movestogo", "time", "increment", "opptime", "oppincrement", "oppmovestogo"):
                clocks[word] = _int_arg(args, i + 1, word, minimum=1 if word in ("depth", "nodes", "mate") else 0)
                i += 1
            else:
                raise _Usage(f"go: unknown parameter {word!r}")
            i += 1
        if "depth" in clocks:
            go.depth = min(clocks["depth"], MAX_DEPTH)
        if "mate" in clocks:
            go.depth = min(2 * clocks["mate"] - 1, MAX_DEPTH) if go.depth is None else go.depth
        go.nodes = clocks.get("nodes")
        go.movetime = clocks.get("movetime")
        go.perft = clocks.get("perft")
        if "time" in clocks:  # UCCI: the side to move's clock, in seconds unless usemillisec
            scale = 1 if self._use_millisec else 1000
            go.own_time = clocks["time"] * scale
            go.own_inc = clocks.get("increment", 0) * scale
        elif ("wtime" if red else "btime") in clocks:
            go.own_time = clocks["wtime" if red else "btime"]
            go.own_inc = clocks.get("winc" if red else "binc", 0)
        go.movestogo = clocks.get("movestogo") or None
        return go

    def _budget(self, go: _Go) -> Tuple[Optional[float], Optional[float]]:
        """(hard, soft) limits in seconds from the go command's clock, or None."""
        if go.movetime is not None:
            return max(go.movetime - _MOVE_OVERHEAD_MS, 1) / 1000, None
        if go.own_time is not None:
            avail = max(go.own_time - _MOVE_OVERHEAD_MS, 1)
            moves = go.movestogo or _MOVES_LEFT_GUESS
            soft = min(avail / moves + go.own_inc * 0.75, avail * 0.5)
            hard = min(soft * 4, avail * 0.8)
            return max(hard, 1) / 1000, max(soft, 1) / 1000
        return None, None

    def _cmd_go(self, args: List[str]) -> None:
        received = time.perf_counter()
        go = self._parse_go(args)
        if go.perft is not None:
            self._perft(go.perft)
            return
        self._finish_search(stop=True)
        root: Optional[List[Move]] = None
        if go.searchmoves:
            root = []
            for text in go.searchmoves:
                try:
                    root.append(self._board.parse_iccs(text))
                except XiangqiError as exc:
                    raise _Usage(f"go searchmoves: {exc}") from None
        elif self._banned:
            root = [m for m in self._board.legal_moves if m not in self._banned]
        self._pondering = go.ponder
        self._ponder_limits = go if go.ponder else None
        self._release_needed = go.infinite or go.ponder
        self._release.clear()
        self._searcher.reset_stop()
        board = self._board.copy()
        thread = threading.Thread(target=self._think, args=(board, go, root, received), daemon=True)
        self._thread = thread
        thread.start()

    def _think(self, board: Board, go: _Go, root: Optional[List[Move]], received: float) -> None:
        hard: Optional[float] = None
        soft: Optional[float] = None
        if not (go.infinite or go.ponder):
            hard, soft = self._budget(go)
        if hard is not None:
            hard = max(hard - (time.perf_counter() - received), 0.001)
        try:
            result = self._searcher.search(board, depth=go.depth, nodes=go.nodes, time_limit=hard, soft_time=soft,
                                           root_moves=root, on_iteration=self._send_info)
        except Exception as exc:  # pragma: no cover - a bug; say so instead of dying silently
            self._info_string(f"search failed: {exc!r}")
            self._send("nobestmove" if self._ucci else "bestmove (none)")
            return
        if self._release_needed:
            # UCI and UCCI: an infinite or pondering search answers only after stop (or ponderhit).
            self._release.wait()
        if result.stopped:
            self._send_info(result.info)
        self._send_bestmove(result)

    def _send_info(self, info: SearchInfo) -> None:
        ms = int(info.time * 1000)
        mate = info.mate
        # UCCI writes a plain number, but a mate is "mate N" in both (as Fairy-Stockfish writes it): a plain
        # mate value would read as a centipawn score.
        if mate is not None:
            score = f"score mate {mate}"
        else:
            score = f"score {info.score}" if self._ucci else f"score cp {info.score}"
        pv = " ".join(m.iccs() for m in info.pv)
        self._send(f"info depth {info.depth} seldepth {info.seldepth} {score} nodes {info.nodes} nps {info.nps} "
                   f"time {ms}" + (f" pv {pv}" if pv else ""))

    def _send_bestmove(self, result: SearchResult) -> None:
        if result.best is None:
            self._send("nobestmove" if self._ucci else "bestmove (none)")
        elif result.ponder is not None:
            self._send(f"bestmove {result.best.iccs()} ponder {result.ponder.iccs()}")
        else:
            self._send(f"bestmove {result.best.iccs()}")

    def _cmd_stop(self, args: List[str]) -> None:
        self._finish_search(stop=True)

    def _cmd_ponderhit(self, args: List[str]) -> None:
        if not self._pondering or self._thread is None:
            return
        self._pondering = False
        go = self._ponder_limits or _Go()
        hard, _ = self._budget(go)
        if hard is None:
            return  # pondering an infinite search: it goes on until stop
        self._release_needed = False
        self._release.set()
        self._ponder_timer = threading.Timer(hard, self._searcher.stop)
        self._ponder_timer.daemon = True
        self._ponder_timer.start()

    def _finish_search(self, *, stop: bool) -> None:
        """Wait for the running search (stopping it first with ``stop``); it sends its bestmove."""
        thread = self._thread
        if thread is None:
            return
        if stop:
            self._searcher.stop()
        self._release.set()
        thread.join()
        self._thread = None
        self._pondering = False
        if self._ponder_timer is not None:
            self._ponder_timer.cancel()
            self._ponder_timer = None

    # --------------------------------------------------------------- perft

    def _perft(self, depth: int) -> None:
        if depth > _MAX_PERFT_DEPTH:
            raise _Usage(f"go perft: depth at most {_MAX_PERFT_DEPTH}, not {depth}")
        fen = self._board.fen()
        if depth == 0:
            total = 1
        else:
            counts = perft(fen, depth, divide=True)
            for move, n in counts.items():
                self._send(f"{move}: {n}")
            total = sum(counts.values())
        self._send("")
        self._send(f"Nodes searched: {total}")
        self._send("")


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
            return 0
        if not server.handle(line):
            return 0
