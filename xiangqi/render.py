"""``xiangqi render``: draw a position (a FEN, or a game record at some ply) as SVG or PNG.

The picture comes from :func:`xiangqi.svg.board`; PNG goes through cairosvg, an optional extra
(``pip install 'pyxiangqi[png]'``). Game files are read by :func:`xiangqi.convert.read_any` (PGN, XQF,
DhtmlXQ). Exit status: 0 on success, 1 when the game file cannot be read, 2 for a bad request (a FEN
that does not parse, a ply past the end, an unknown output type, cairosvg missing for PNG) and for an
output file that cannot be written. A position that cannot occur in a game (the kings facing each
other, the side not to move in check, a piece where its side never brings it) is drawn, with a warning
on standard error that names it and why (:func:`xiangqi.tags.position_problems`).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Tuple

from xiangqi import svg
from xiangqi._cliio import writing
from xiangqi.board import Board
from xiangqi.convert import format_of, read_any
from xiangqi.core import BLACK, RED, Move
from xiangqi.errors import XiangqiError
from xiangqi.game import position_problems
from xiangqi.judge import board_from_words

__all__ = ["render_main", "position"]


class _Usage(ValueError):
    """A request that cannot be met (exit 2)."""


def position(source: str, *, game: int = 1, ply: Optional[int] = None) -> Tuple[Board, Optional[Move]]:
    """The board to draw and the move that led to it: ``source`` is a game file (its ``game``-th game, after
    ``ply`` plies of the main line, default all), or position words as ``xiangqi judge`` takes them (a FEN or
    ``startpos``, optionally followed by ``moves`` and moves: :func:`xiangqi.judge.split_position`).

    >>> board, last = position("startpos")
    >>> board.fen() == Board().fen(), last
    (True, None)
    >>> position("startpos moves h2e2 h9g7")[1]
    Move.from_iccs('h9g7')

    Raises:
        :class:`ValueError`: ``source`` is neither a file nor a position, ``ply`` is given with a position or is
            outside the game, or the file has no ``game``-th game.
        :class:`~xiangqi.errors.XiangqiError`: bad data (a FEN that does not read, a move that cannot be played,
            a record that is not one: :class:`~xiangqi.errors.InvalidFenError`,
            :class:`~xiangqi.errors.InvalidRecordError`, ...).
        :class:`OSError`: the file cannot be read.
    """
    board, last, _ = _position([source], game=game, ply=ply)
    return board, last


def _position(words: List[str], *, game: int, ply: Optional[int]) -> Tuple[Board, Optional[Move], List[str]]:
    """:func:`position` from the command line's words, and the reading errors of the game (its main line stops at
    the first)."""
    source = words[0]
    if not os.path.exists(source):
        if format_of(source) is not None and len(words) == 1:
            raise _Usage(f"{source}: no such file (and not a FEN)")
        if ply is not None:
            raise _Usage("--ply needs a game file, not a FEN")
        board = board_from_words(words, playable=False)  # a diagram may show any position a FEN holds
        return board, board.peek() if board.move_stack else None, []
    if len(words) > 1:
        raise _Usage(f"{source} is a game file: choose its position with --game and --ply, not moves")

    record = None
    total = 0
    for total, g in enumerate(read_any(source), 1):
        if total == game:
            record = g
            break
    if record is None:  # the same words as `xiangqi convert --game`
        raise _Usage(f"{source} has no game {game}: it holds {total} game{'s' if total != 1 else ''}"
                     if total else f"no game in {source}")
    board = record.board()
    moves = record.mainline_moves()
    if ply is not None and not 0 <= ply <= len(moves):
        raise _Usage(f"--ply {ply} is outside game {game} of {source}, which has {len(moves)} plies")
    for move in moves[:len(moves) if ply is None else ply]:
        board.push(move)
    return board, board.peek() if board.move_stack else None, [str(e) for e in record.errors]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="xiangqi render",
        description="Draw a position as an SVG or PNG picture: a FEN, or a game file (PGN, XQF, DhtmlXQ)\n"
                    "at a ply.",
        epilog="examples:\n"
               "  xiangqi render \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\" -o start.svg\n"
               "  xiangqi render startpos moves h2e2 h9g7 --lastmove > two.svg\n"
               "  xiangqi render game.pgn --ply 20 --lastmove --arrows h2e2,b0c2 -o ply20.png",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", metavar="FILE|POSITION",
                   help="a game file, or a position as judge takes it: a FEN or startpos")
    p.add_argument("moves", nargs="*", metavar="MOVE",
                   help="after a position: moves played from it, optionally after the word moves (the last one is "
                        "highlighted with --lastmove)")
    p.add_argument("-o", "--output", default="-", metavar="OUT",
                   help="OUT.svg or OUT.png (PNG needs the png extra: pip install 'pyxiangqi[png]'); - for SVG on "
                        "standard output (the default)")
    p.add_argument("--game", type=int, default=1, metavar="N", help="which game of the file (default: the first)")
    p.add_argument("--ply", type=int, metavar="N", help="the position after N plies of the main line (default: "
                   "the end)")
    p.add_argument("--lastmove", action="store_true", help="highlight the move that led to the position")
    p.add_argument("--arrows", default="", metavar="MOVES", help="arrows as ICCS moves, comma-separated (h2e2,b0c2)")
    p.add_argument("--black", action="store_true", help="Black at the bottom")
    p.add_argument("--style", choices=("chinese", "letters"), default="chinese", help="piece faces (default: chinese)")
    p.add_argument("--same-characters", action="store_true", help="the same 車馬炮 for both sides")
    p.add_argument("--no-coordinates", action="store_true", help="no ICCS coordinates (file numbers stay)")
    p.add_argument("--size", type=int, default=None, metavar="PX", help="width in pixels (PNG default: 600)")
    return p


def _arrows(parser: argparse.ArgumentParser, text: str) -> List[Move]:
    out = []
    for tok in filter(None, (t.strip() for t in text.split(","))):
        try:
            out.append(Move.from_iccs(tok))
        except ValueError as exc:
            parser.error(f"--arrows: {exc}")
    return out


def _png(svg_text: str, out: str, width: int) -> None:
    try:
        import cairosvg  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
        raise _Usage(f"PNG output needs cairosvg and the cairo library (pip install 'pyxiangqi[png]'; "
                     f"Debian package libcairo2): {exc}") from None
    cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), write_to=out, output_width=width)


def render_main(argv: List[str]) -> int:
    """Run ``xiangqi render`` with ``argv`` (the arguments after ``render``); return the exit status.

    0 when the picture is written, 2 for a usage error and 1 for a file that cannot be read, with one line on
    standard error (argparse's own usage errors exit with :class:`SystemExit` (2), as on the command line).

    >>> render_main(["startpos", "moves", "h2e2", "--size", "100", "--lastmove"])  # no -o: standard output
    <svg xmlns=...</svg>
    0
    """

    parser = _parser()
    args = parser.parse_args(argv)
    out = args.output
    kind = "svg" if out == "-" or out.lower().endswith(".svg") else "png" if out.lower().endswith(".png") else None
    if kind is None:
        parser.error(f"-o {out!r}: the picture's type comes from its extension, .svg or .png")
    if args.size is not None and args.size <= 0:
        parser.error(f"--size must be positive, not {args.size}")
    if args.game < 1:
        parser.error(f"--game counts from 1, not {args.game}")
    arrows = _arrows(parser, args.arrows)
    try:
        board, last, errors = _position([args.source, *args.moves], game=args.game, ply=args.ply)
        for err in errors:  # drawn all the same: the position the readable moves reach
            print(f"xiangqi render: warning: {args.source}: game {args.game}: {err}", file=sys.stderr)
        problems = position_problems(board)
        if problems:  # a diagram may show any position (a study, a puzzle being set up); say when no game has it
            print(f"xiangqi render: warning: the position cannot occur in a game ({', '.join(problems)}): "
                  f"{board.fen()}", file=sys.stderr)
        if args.lastmove and last is None:
            raise _Usage("--lastmove: no move led to this position (a FEN, or ply 0)")
        picture = svg.board(board, orientation=BLACK if args.black else RED,
                            lastmove=last if args.lastmove else None,
                            check=board.king(board.turn) if board.is_check() else None,
                            arrows=[svg.Arrow(m.from_square, m.to_square) for m in arrows],
                            coordinates=not args.no_coordinates, size=args.size, style=args.style,
                            distinguish=not args.same_characters)
        if kind == "png":
            with writing(out):
                _png(picture, out, args.size or 600)
        elif out == "-":
            sys.stdout.write(picture + "\n")
        else:
            with writing(out), open(out, "w", encoding="utf-8") as fh:
                fh.write(picture + "\n")
    except _Usage as exc:
        print(f"xiangqi render: {exc}", file=sys.stderr)
        return 2
    except XiangqiError as exc:
        # A FEN on the command line that does not parse is a bad request; a game file that does not read is bad data.
        if os.path.exists(args.source):
            print(f"xiangqi render: {args.source}: {exc}", file=sys.stderr)
            return 1
        print(f"xiangqi render: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"xiangqi render: {exc}", file=sys.stderr)
        return 1
    return 0
