"""``xiangqi convert IN OUT``: convert game records between PGN, XQF and DhtmlXQ.

Formats are chosen by file extension:

* ``.pgn`` (also ``.pgn.gz`` on input): PGN, any number of games; output move
  text in ``--notation`` (Chinese by default, ``--traditional`` for 車馬進…);
* ``.xqf``: XQStudio binary, one game (output: XQF 1.0, unscrambled; from an
  input of several games ``--game N`` picks the N-th, counting from 1, and
  without it the conversion is refused);
* ``.txt``, ``.dhtmlxq``, ``.htm``, ``.html``: DhtmlXQ blocks (output: one block
  per line); a ``.txt``, ``.htm`` or ``.html`` input without a ``[DhtmlXQ``
  block is recognised by content (a PGN saved as ``.txt``).

An input with another extension is recognised by content; IN may be a
stream (``/dev/stdin``, a FIFO). ``-`` as OUT writes PGN (or DhtmlXQ with
``--to dhtmlxq``) to standard output. An OUT ending in ``.gz`` is written
gzip-compressed. A regular OUT (or one that does not exist yet) is written
to a temporary file beside it and renamed over it once every game is read,
so OUT may be IN itself, and when the input cannot be read OUT is left as
it was; a symbolic link OUT is kept and its target written. An OUT that is
not a regular file (``/dev/null``, a FIFO) is written into directly.

``--game N`` converts the N-th game alone, into any format (an IN with fewer
games is refused, naming how many it holds).

Exit status: 0 when every game converted cleanly, 1 when some game had
problems (they are reported on standard error and the moves before them are
still written), 2 when the input cannot be read or the request makes no sense.
A game cut short by a bad move (or a start position no move can be read from)
is written with ``Result "*"`` and a comment at the cut naming the problem, so
that the file itself says the rest is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import os
import stat
import sys
import tempfile
from typing import IO, Iterator, List, Optional, Tuple

from xiangqi import formats
from xiangqi._cliio import guard, input_problem, is_regular, reason, regular_input, writing
from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError, XiangqiError
from xiangqi.pgn import NOTATIONS, Game

__all__ = ["convert_main", "read_any", "format_of", "mark_cut"]

def format_of(path: str) -> Optional[str]:
    """``"pgn"``, ``"xqf"`` or ``"dhtmlxq"`` by a path's extension when written to, or ``None``
    (:func:`xiangqi.formats.format_of`).

    >>> format_of("game.xqf"), format_of("page.html"), format_of("games.pgn.gz"), format_of("notes.md")
    ('xqf', 'dhtmlxq', 'pgn', None)
    """
    return formats.format_of(path, writing=True)


def read_any(path: str, fmt: Optional[str] = None) -> Iterator[Game]:
    """The games of a file in any supported format (``fmt``, else by extension and content).

    A ``.txt``, ``.htm`` or ``.html`` file is read as DhtmlXQ when it holds a
    ``[DhtmlXQ`` block, else by its content (XQF or PGN): :func:`xiangqi.formats.read`.

    >>> import pathlib, tempfile
    >>> page = pathlib.Path(tempfile.mkdtemp(), "page.txt")
    >>> _ = page.write_text("[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]")
    >>> [game.mainline_moves() for game in read_any(str(page))]
    [[Move.from_iccs('h2e2'), Move.from_iccs('h9g7')]]

    Raises:
        * :exc:`ValueError` when ``fmt`` names no format;
        * :exc:`OSError` when the file cannot be opened.
    """
    yield from formats.read(path, fmt)


def convert_main(argv: List[str]) -> int:
    """Run ``xiangqi convert`` with ``argv`` (the arguments after ``convert``); return the exit status (0
    converted, 1 bad data, 2 a usage error, with one line on standard error).

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "game.pgn"), "w", encoding="utf-8") as f:
    ...     _ = f.write("1. h2e2 h9g7 *\\n")
    >>> convert_main([os.path.join(folder, "game.pgn"), os.path.join(folder, "game.xqf")])
    0
    >>> convert_main([os.path.join(folder, "game.xqf"), "-", "--notation", "wxf"]) == 0
    [Game "Chinese Chess"]
    ...
    1. C2.5 H8+7 *
    <BLANKLINE>
    True
    >>> convert_main([os.path.join(folder, "absent.pgn"), "-"])
    2
    """
    parser = argparse.ArgumentParser(
        prog="xiangqi convert",
        description="Convert game records between PGN (.pgn, .pgn.gz), XQF (.xqf) and DhtmlXQ\n"
                    "(.txt, .dhtmlxq, .htm, .html). The format of each file comes from its extension\n"
                    "(or --from/--to); an XQF file holds one game: for XQF output IN must hold one game,\n"
                    "or --game N picks one (in any output format).",
        epilog="examples:\n  xiangqi convert game.xqf game.pgn\n"
               "  xiangqi convert games.pgn games.iccs.pgn --notation iccs\n"
               "  xiangqi convert page.html - --notation wxf\n"
               "  xiangqi convert games.pgn third.xqf --game 3",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", metavar="IN", help="input file")
    parser.add_argument("output", metavar="OUT", help="output file, or - for standard output")
    parser.add_argument("--notation", choices=NOTATIONS, default="chinese",
                        help="move text of PGN output (default: chinese)")
    parser.add_argument("--traditional", action="store_true",
                        help="traditional characters in Chinese move text (車馬進 instead of 车马进)")
    parser.add_argument("--from", dest="from_format", choices=formats.names(),
                        help="input format when the extension does not tell")
    parser.add_argument("--to", dest="to_format", choices=formats.names(),
                        help="output format when the extension does not tell (default for -: pgn)")
    parser.add_argument("--game", type=int, metavar="N",
                        help="convert only the N-th game of IN (counting from 1); needed for XQF output when IN "
                             "holds several games")
    args = parser.parse_args(argv)
    if args.game is not None and args.game < 1:
        parser.error(f"--game counts from 1, not {args.game}")

    to_format = args.to_format or ("pgn" if args.output == "-" else format_of(args.output))
    if to_format is None:
        parser.error(f"cannot tell the output format of {args.output!r} from its extension; use --to")
    if formats.FORMATS[to_format].binary and args.output == "-":
        parser.error(f"{formats.FORMATS[to_format].title} is binary: give an output file, not -")
    problem = input_problem(args.input)
    if problem:
        print(f"xiangqi convert: {problem}", file=sys.stderr)
        return 2
    target = _output_target(args.output)
    if args.output != "-" and os.path.isdir(target):
        print(f"xiangqi convert: {args.output} is a directory (give an output file)", file=sys.stderr)
        return 2
    # A regular (or new) OUT is written beside and renamed over at the end; anything else (a device, a FIFO)
    # is written into directly: replacing it would put a regular file where /dev/null was.
    direct = args.output != "-" and os.path.exists(target) and not is_regular(target)
    with contextlib.ExitStack() as stack:
        try:
            source = stack.enter_context(regular_input(args.input))
        except OSError as e:
            print(f"xiangqi convert: {args.input}: {reason(e)}", file=sys.stderr)
            return 2
        return _convert(args, source, to_format, target, direct)


def _output_target(output: str) -> str:
    """The file OUT names: through symbolic links, so that writing OUT keeps a link and fills its target. A link
    to what has no path (``/dev/stdout`` on a pipe: ``/proc/self/fd/1`` → ``pipe:[…]``) stays as given."""
    if output == "-":
        return output
    real = os.path.realpath(output)
    return real if os.path.exists(real) or not os.path.exists(output) else output


def _output_name(output: str) -> str:
    """How errors name OUT: ``standard output`` when it is the process's standard output under another name
    (``/dev/stdout``, ``/dev/fd/1``) and not a regular file, so that a reader that leaves (``| head``) ends the run
    quietly as for ``-`` (:func:`xiangqi.cli.main`)."""
    if output == "-":
        return "standard output"
    try:
        named, ours = os.stat(output), os.fstat(1)
    except OSError:
        return output
    if (named.st_dev, named.st_ino) == (ours.st_dev, ours.st_ino) and not stat.S_ISREG(named.st_mode):
        return "standard output"
    return output


def _convert(args: argparse.Namespace, source: str, to_format: str, target: str, direct: bool) -> int:
    problems = 0
    count = 0
    tmp: Optional[str] = None  # the temporary file beside OUT, renamed over OUT at the end
    try:
        seen = _Count()
        games = _numbered(read_any(source, args.from_format), args.game, seen)
        fmt = formats.FORMATS[to_format]
        options = formats.WriteOptions(args.notation, args.traditional)
        if fmt.one_game:
            picked = next(games, None)
            if picked is None:
                print(f"xiangqi convert: {_no_game(args, seen.games)}", file=sys.stderr)
                return 2
            if args.game is None and next(games, None) is not None:
                total = 2 + sum(1 for _ in games)
                print(f"xiangqi convert: {args.input} holds {total} games and {fmt.title} holds one: choose one with "
                      f"--game N (1 to {total})", file=sys.stderr)
                return 2
            number, first = picked
            problems += _report(first, number, args.input)
            with writing(_output_name(args.output)):
                if not direct:
                    tmp = _temporary_beside(target)
                path = target if direct or tmp is None else tmp
                with (open(path, "wb") if fmt.binary else open(path, "w", encoding="utf-8", newline="\n")) as fh:
                    fmt.write(first, fh, options)
            count = 1
        else:
            out: IO[str]
            if args.output == "-":
                out = guard(sys.stdout, "standard output")
            else:
                with writing(args.output):
                    path = target if direct else _temporary_beside(target)
                    if not direct:
                        tmp = path
                    if args.output.lower().endswith(".gz"):
                        raw: IO[str] = gzip.open(path, "wt", encoding="utf-8", newline="\n")
                    else:
                        raw = io.open(path, "w", encoding="utf-8", newline="\n")
                out = guard(raw, _output_name(args.output))
            try:
                for number, game in games:
                    count += 1
                    problems += _report(game, number, args.input)
                    fmt.write(game, out, options)
            finally:
                if args.output != "-":
                    out.close()
        if count == 0:
            print(f"xiangqi convert: {_no_game(args, seen.games)}", file=sys.stderr)
            return 2
        if tmp is not None:
            with writing(args.output):
                os.replace(tmp, target)
            tmp = None
    except (OSError, XiangqiError) as e:
        print(f"xiangqi convert: {args.input}: {reason(e) if isinstance(e, OSError) else e}", file=sys.stderr)
        return 2
    finally:
        if tmp is not None:  # not renamed: OUT stays as it was
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return 1 if problems else 0


class _Count:
    """How many games a :func:`_numbered` read went through."""

    def __init__(self) -> None:
        self.games = 0


def _numbered(games: Iterator[Game], only: Optional[int], seen: Optional[_Count] = None
              ) -> Iterator[Tuple[int, Game]]:
    """(number from 1, game) for every game, or for game ``only`` alone (reading stops there)."""
    for number, game in enumerate(games, 1):
        if seen is not None:
            seen.games = number
        if only is None or number == only:
            yield number, game
            if only is not None:
                return


def _no_game(args: argparse.Namespace, total: int) -> str:
    """Why nothing was converted: IN holds no game, or not game ``--game``."""
    if args.game is None or total == 0:
        return f"no game in {args.input}"
    return f"{args.input} has no game {args.game}: it holds {total} game{'s' if total != 1 else ''}"


def _temporary_beside(path: str) -> str:
    """A new empty file in ``path``'s folder (so that renaming it over ``path`` is atomic), with the
    permissions ``path`` has, or a new file would get."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(tmp, mode)
    return tmp


def _report(game: Game, number: int, path: str) -> int:
    for err in game.errors:
        print(f"{path}: game {number}: {err}", file=sys.stderr)
    mark_cut(game)
    return len(game.errors)


def mark_cut(game: Game) -> bool:
    """Mark a game whose main line the reader cut short (a bad move, or a start position no move could be read
    from): ``Result "*"`` and, at the cut, a comment naming the problem and the result the record claimed.
    Whether it was cut.

    >>> import io
    >>> from xiangqi import pgn
    >>> game = pgn.read_game(io.StringIO('[Result "1-0"]\\n\\n1. h2e2 h9g7 2. h2h9 *'))
    >>> mark_cut(game), game.headers["Result"]
    (True, '*')
    >>> print(game.end().comment.replace(": illegal", ":\\nillegal"))  # the comment after 1... h9g7
    cut here: the record goes on with 'h2h9', which cannot be read:
    illegal ICCS move 'h2h9' in rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2: there is no piece on h2 (the record's result was 1-0)
    """
    cut = next((e for e in game.errors if e.mainline and (
        isinstance(e.error, (InvalidMoveError, IllegalMoveError, AmbiguousMoveError))
        or isinstance(e.error, InvalidFenError) and e.token and not game.mainline_moves())), None)
    if cut is None:
        return False
    claimed = game.headers.get("Result", "*") or "*"
    game.headers["Result"] = "*"
    note = f"cut here: the record goes on with {cut.token!r}, which cannot be read: {cut.reason}"
    if claimed != "*":
        note += f" (the record's result was {claimed})"
    node = game.end()
    node.comment = f"{node.comment}\n{note}" if node.comment else note
    return True
