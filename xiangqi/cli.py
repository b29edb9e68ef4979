"""The ``xiangqi`` command line: perft, validate, convert, judge, render, engine, match.

Each subcommand's real work lives in its own module; this file only
dispatches, so ``xiangqi --help`` stays fast.

Every command shares one policy for the end of a run (:func:`main`):

* exit 2: a usage error, an input that cannot be read, an output that
  cannot be written (a full disk, a closed standard output); exit 1: bad
  data; one line on standard error, never a traceback;
* a position given on the command line (``perft --fen``, ``judge FEN``,
  ``render FEN``) that is not a FEN is a usage error (exit 2); so is, for
  ``perft`` and ``judge``, a position that cannot occur in a game (the kings
  facing each other, the side not to move in check, a piece where its side
  never brings it: :func:`xiangqi.tags.require_playable`, the rule
  ``validate`` applies to a record's ``FEN`` tag). In a game file the same
  start position is bad data: that game is reported (exit 1). ``render``
  draws any position a :class:`~xiangqi.Board` holds, with a warning for
  one that cannot occur in a game;
* standard output closed by its reader (``xiangqi … | head``): stop quietly,
  exit 141 (128 + SIGPIPE, what the shell reports for other tools);
* Ctrl-C: ``xiangqi COMMAND: interrupted`` on standard error, exit 130.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import time
from typing import IO, Callable, List, Optional, TextIO

from xiangqi._progress import Progress, format_count
from xiangqi.core import STARTING_FEN

__all__ = ["main", "parse_hash_size", "PERFT_PROGRESS_AFTER"]

#: Seconds a ``perft`` run takes before its status line (root moves done, nodes, Mnps, the time left) shows on
#: a terminal; 0 shows it from the first root move.
PERFT_PROGRESS_AFTER = 1.0

_DESCRIPTION = """\
Xiangqi (Chinese chess) tools on a C bitboard core.

commands:
  perft     count move paths from a position (move generator test and benchmark)
  match     play engines (UCI/UCCI) against each other, every game adjudicated by the rule books
  validate  check whole game collections (PGN, XQF, DhtmlXQ; files, folders, .gz)
  convert   convert a game record between PGN, XQF and DhtmlXQ, in any notation
  judge     rule on a game's end: mate, stalemate, perpetual check or chase, 60-move limit
  render    draw a position (a FEN, or a game at a ply) as an SVG or PNG picture
  engine    our own engine on the C core, speaking UCI and UCCI (for GUIs and match runners)

Run `xiangqi COMMAND --help` for each command's options.
"""

_EXAMPLES = """\
examples:
  xiangqi perft --depth 5
  xiangqi perft --fen "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w" --depth 4 --divide
  xiangqi perft --depth 6 --threads 2
  xiangqi validate games/ --report report.jsonl
  xiangqi render game.pgn --ply 20 --lastmove -o ply20.svg
"""

# Subcommands implemented in other modules: name -> (module, function).
_DELEGATED = {
    "match": ("xiangqi.match", "match_main"),
    "validate": ("xiangqi.validate", "validate_main"),
    "convert": ("xiangqi.convert", "convert_main"),
    "judge": ("xiangqi.judge", "judge_main"),
    "render": ("xiangqi.render", "render_main"),
    "engine": ("xiangqi.engine_server", "main"),
}


def _perft_main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="xiangqi perft",
        description="Count the leaf nodes of the legal move tree (perft) and report the speed. "
                    "Bulk counting (the default, as in Pikafish and Fairy-Stockfish) counts the moves at the "
                    "last ply without making them; --no-bulk makes every leaf move.",
        epilog="Known counts of the start position: 44, 1920, 79666, 3290240, 133312995, 5392831844 (depths 1-6).",
    )
    parser.add_argument("--fen", default=STARTING_FEN, help="position: a FEN or startpos, optionally followed by "
                        "moves ... as for judge (default: the start position)")
    parser.add_argument("--depth", "-d", type=int, default=5, help="plies to search (default: 5)")
    parser.add_argument("--divide", action="store_true", help="print the count under each root move")
    parser.add_argument("--threads", "-t", type=int, default=1, metavar="N",
                        help="split the root moves across N threads (default: 1)")
    parser.add_argument("--no-bulk", action="store_true", help="make every leaf move instead of counting them")
    parser.add_argument("--hash", type=parse_hash_size, default=0, metavar="SIZE",
                        help="count with a transposition table of SIZE bytes (256M, 1G, 512K; a bare number is MiB), "
                             "shared by the threads: exact, and several times faster for deep counts")
    parser.add_argument("--hash-verify", type=int, default=0, metavar="N",
                        help="recount one table hit in N without the table, and fail if a count differs")
    parser.add_argument("--engine", metavar="CMD", help="compare divides with this engine's 'go perft' and print "
                        "the first position and move where the counts differ (exit 1)")
    parser.add_argument("--proto", choices=("uci", "ucci"), default="uci", help="the engine's protocol (default: uci)")
    parser.add_argument("--engine-timeout", type=float, default=60.0, metavar="SECONDS",
                        help="seconds to wait for each engine answer (default: 60)")
    args = parser.parse_args(argv)
    from xiangqi.board import check_depth

    try:
        check_depth(args.depth)
    except ValueError as exc:
        parser.error(f"--{exc}")
    if args.divide and args.depth == 0:
        parser.error("--divide needs --depth >= 1")
    if args.threads < 1:
        parser.error(f"--threads must be >= 1, not {args.threads}")
    if args.hash and args.no_bulk:
        parser.error("--hash counts the last ply in bulk: it cannot go with --no-bulk")
    if args.hash_verify < 0 or (args.hash_verify and not args.hash):
        parser.error("--hash-verify needs --hash and N >= 0")
    if not args.engine_timeout > 0:
        parser.error(f"--engine-timeout must be positive, not {args.engine_timeout:g}")
    from xiangqi.errors import InvalidFenError, XiangqiError
    from xiangqi.judge import board_from_words

    try:
        # judge's position words: a FEN or startpos, then optionally moves; a FEN that does not read, a position
        # no game reaches or a bad move: one line, exit 2
        args.fen = board_from_words([args.fen]).fen()
    except XiangqiError as exc:
        print(f"xiangqi perft: {exc}", file=sys.stderr)
        return 2
    if args.engine:
        from xiangqi.perftree import perftree_main
        return perftree_main(args)

    from xiangqi.perft import perft

    bulk = not args.no_bulk
    progress = _PerftProgress(sys.stderr)
    try:
        start = time.perf_counter()
        if args.divide:
            counts = perft(args.fen, args.depth, divide=True, bulk=bulk, threads=args.threads,
                           on_root_move=progress.root_move, hash_mb=args.hash, hash_verify=args.hash_verify)
            elapsed = time.perf_counter() - start
            progress.close()
            for move, n in sorted(counts.items()):
                print(f"{move}: {n}")
            nodes = sum(counts.values())
            print(f"moves {len(counts)}")
        else:
            nodes = perft(args.fen, args.depth, bulk=bulk, threads=args.threads, on_root_move=progress.root_move,
                          hash_mb=args.hash, hash_verify=args.hash_verify)
            elapsed = time.perf_counter() - start
    except InvalidFenError as exc:
        print(f"xiangqi perft: {exc}", file=sys.stderr)
        return 2
    finally:
        progress.close()
    mnps = nodes / elapsed / 1e6 if elapsed > 0 else float("inf")
    print(f"nodes {nodes}")
    print(f"seconds {elapsed:.3f}")
    print(f"Mnps {mnps:.1f}")
    return 0


def parse_hash_size(text: str) -> float:
    """``perft --hash``'s SIZE in MiB: a number with an optional K, M or G (times 2**10, 2**20, 2**30 bytes); 0: no
    table.

    >>> parse_hash_size("256M"), parse_hash_size("1G"), parse_hash_size("512k"), parse_hash_size("64")
    (256.0, 1024.0, 0.5, 64.0)

    Raises:
        * ``argparse.ArgumentTypeError`` (what argparse reports as a usage error) for a SIZE that does not read,
          or one too small for a table.
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)[bB]?\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (say 256M, 1G or 512K)")
    mb = float(m.group(1)) * {"": 1.0, "k": 2.0**-10, "m": 1.0, "g": 1024.0}[m.group(2).lower()]
    if 0 < mb * 2**20 < 32:
        raise argparse.ArgumentTypeError(f"too small: {text!r} (a table needs at least 32 bytes)")
    return mb


class _PerftProgress:
    """Perft's status line on a terminal, once a run has taken :data:`PERFT_PROGRESS_AFTER` seconds: root moves
    done, nodes, Mnps and the time left at the pace so far."""

    def __init__(self, stream: "IO[str]") -> None:
        self._line = Progress(stream)
        self._start = time.perf_counter()

    def root_move(self, done: int, total: int, nodes: int) -> None:
        elapsed = time.perf_counter() - self._start
        if elapsed < PERFT_PROGRESS_AFTER or done >= total:
            return
        left = elapsed / done * (total - done)
        self._line.show(f"perft: {done}/{total} root moves  {format_count(nodes)} nodes  "
                        f"{nodes / elapsed / 1e6:.1f} Mnps  about {left:.0f} s left")

    def close(self) -> None:
        self._line.close()


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``xiangqi`` console script: runs ``argv`` (default ``sys.argv[1:]``), returns the exit
    status (0 done, 1 bad data, 2 a usage error, with one line on standard error).

    >>> main(["perft", "--depth", "2"])
    nodes 1920
    seconds ...
    Mnps ...
    0
    """
    args = sys.argv[1:] if argv is None else list(argv)
    command = args[0] if args else ""
    name = f"xiangqi {command}" if command == "perft" or command in _DELEGATED else "xiangqi"
    from xiangqi._cliio import OutputError, guard

    stdout = sys.stdout
    sys.stdout = guard(stdout, "standard output")
    try:
        status = _run(command, args[1:], bool(args))
        sys.stdout.flush()  # here, not at exit, so that a failed write is reported like any other
        return status
    except SystemExit as exc:  # argparse's usage errors
        return exc.code if isinstance(exc.code, int) else 2
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 130
    except OutputError as exc:
        if exc.broken_pipe and exc.target == "standard output":
            # The reader went away (`xiangqi … | head`): stop quietly, as Unix tools do.
            _silence_stdout(stdout)
            return 141
        print(f"{name}: {exc}", file=sys.stderr)
        return 2
    finally:
        sys.stdout = stdout


def _run(command: str, rest: List[str], given: bool) -> int:
    """Run one command line (standard output already guarded by :func:`main`, which applies the exit policy
    to everything here: the help, the import of a command's module, the command itself)."""
    if not given or command in ("-h", "--help"):
        # Asked for (--help): standard output, exit 0; no command at all is a usage error: standard error, exit 2.
        print("usage: xiangqi COMMAND [options]\n\n" + _DESCRIPTION + "\n" + _EXAMPLES,
              file=sys.stdout if given else sys.stderr)
        return 0 if given else 2
    if command == "--version":
        from xiangqi import __version__
        print(f"xiangqi {__version__}")
        return 0
    handler: Optional[Callable[[List[str]], int]] = None
    if command == "perft":
        handler = _perft_main
    elif command in _DELEGATED:
        module_name, func = _DELEGATED[command]
        module = importlib.import_module(module_name)
        handler = getattr(module, func)
    if handler is None:
        print(f"xiangqi: unknown command {command!r}\n\n" + _DESCRIPTION, file=sys.stderr)
        return 2
    return handler(rest)


def _silence_stdout(stdout: Optional[TextIO]) -> None:
    """Point standard output at the null device, so that the interpreter's flush at exit (of what is left
    in the buffer) does not fail again."""
    import os

    if stdout is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass

if __name__ == "__main__":
    sys.exit(main())
