"""Writing games as PGN text (the inverse of :mod:`xiangqi.pgn`'s reader), and the visitor protocol.

The visitors follow python-chess's ``chess.pgn``: a :class:`BaseVisitor` is
handed a game's parts in PGN order, by the PGN reader as it reads
(:func:`xiangqi.pgn.read_game` with ``Visitor=``) or by a game in memory
(:meth:`xiangqi.game.Game.accept`, :meth:`xiangqi.game.GameNode.accept`,
whatever format it was read from: PGN, XQF, DhtmlXQ). :class:`StringExporter`
and :class:`FileExporter` write PGN; :func:`write_game` is a game's
:class:`StringExporter`. The builders are in :mod:`xiangqi.pgn`.
"""

from __future__ import annotations

import abc
import enum
from typing import IO, TYPE_CHECKING, Dict, Generic, List, Optional, TypeVar

from xiangqi import notation as _notation
from xiangqi.board import Board
from xiangqi.core import Move

if TYPE_CHECKING:  # the model imports this module (Game.__str__, Game.accept)
    from xiangqi.game import Game

__all__ = ["NOTATIONS", "TAG_ROSTER", "SkipType", "SKIP", "BaseVisitor", "StringExporterMixin", "StringExporter", "FileExporter",
           "write_game", "game_to_string"]

#: Move notations the writer produces.
NOTATIONS = ("chinese", "iccs", "wxf")

#: The xiangqi tag roster, in the order it is written (xqbase PGN specification).
TAG_ROSTER = ("Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result")


# ---------------------------------------------------------------------------------------------------------------
# The visitor protocol
# ---------------------------------------------------------------------------------------------------------------

class SkipType(enum.Enum):
    """The type of its one value :data:`SKIP`.

    >>> SKIP is SkipType.SKIP
    True
    """

    SKIP = None


#: Returned by :meth:`BaseVisitor.begin_game`, :meth:`~BaseVisitor.end_headers` or
#: :meth:`~BaseVisitor.begin_variation` to skip what follows (the game, its move text, the variation).
SKIP = SkipType.SKIP

ResultT = TypeVar("ResultT", covariant=True)


class BaseVisitor(abc.ABC, Generic[ResultT]):
    """Base class of visitors; the methods are called in PGN order (python-chess's ``BaseVisitor``).

    What the PGN reader finds wrong goes to :meth:`handle_error` as a
    :class:`~xiangqi.game.GameError` (the typed exception in its ``error``),
    and reading goes on. A visitor that asks only for the headers
    (:meth:`end_headers` returns :data:`SKIP`) or skips the game costs the
    reader no move text; :class:`~xiangqi.pgn.GameBuilder` and
    :class:`~xiangqi.pgn.BoardBuilder` take the reader's fast paths.

    >>> from xiangqi.game import Game
    >>> class MoveCounter(BaseVisitor[int]):
    ...     def begin_game(self) -> None:
    ...         self.n = 0
    ...     def visit_move(self, board: Board, move: Move) -> None:
    ...         self.n += 1
    ...     def result(self) -> int:
    ...         return self.n
    >>> game = Game()
    >>> _ = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
    >>> game.accept(MoveCounter())
    2
    """

    def begin_game(self) -> Optional[SkipType]:
        """Called at the start of a game; :data:`SKIP` skips it (only :meth:`end_game` follows)."""
        return None

    def begin_headers(self) -> Optional[object]:
        """Called before the game's headers."""
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """Called for each header, in the record's order."""

    def end_headers(self) -> Optional[SkipType]:
        """Called after the headers; :data:`SKIP` skips the moves (then :meth:`end_game` follows)."""
        return None

    def parse_move(self, board: Board, text: str) -> Move:
        """When the PGN reader calls the visitor: the move that ``text`` (Chinese, WXF or ICCS) denotes on
        ``board`` (python-chess's ``parse_san``). Override it for a file's own quirks.

        Raises:
            * the move errors of ``Board.parse_move`` (the reader records them and ends the line).
        """
        return board.parse_move(text)

    def visit_move(self, board: Board, move: Move) -> None:
        """Called for each move; ``board`` is the position before it (restore it if you change it)."""

    def visit_board(self, board: Board) -> None:
        """Called with the start position and after each move (restore it if you change it)."""

    def visit_comment(self, comment: str) -> None:
        """Called for each comment."""

    def visit_nag(self, nag: int) -> None:
        """Called for each NAG."""

    def begin_variation(self) -> Optional[SkipType]:
        """Called at the start of a variation (never for the main line); :data:`SKIP` skips it
        (:meth:`end_variation` still follows)."""
        return None

    def end_variation(self) -> None:
        """Called at the end of a variation."""

    def visit_result(self, result: str) -> None:
        """Called after the moves with the ``Result`` header's value."""

    def end_game(self) -> None:
        """Called at the end of a game."""

    def handle_error(self, error: object) -> None:
        """Called for each problem met reading the game, a :class:`~xiangqi.game.GameError`. Raises its
        typed exception by default, as python-chess does; :class:`~xiangqi.pgn.GameBuilder` keeps it in
        ``game.errors``.

        Raises:
            * the error's :class:`~xiangqi.errors.XiangqiError` (a :exc:`ValueError`), or a :exc:`ValueError`
              with its text when it holds none.
        """
        exc = getattr(error, "error", None)
        if isinstance(exc, Exception):
            raise exc
        raise ValueError(str(error))

    @abc.abstractmethod
    def result(self) -> ResultT:
        """What the visitor made of the game."""


# ---------------------------------------------------------------------------------------------------------------
# Exporters
# ---------------------------------------------------------------------------------------------------------------

def _escape(value: str) -> str:
    if "\\" in value or '"' in value:
        return value.replace("\\", "\\\\").replace('"', '\\"')
    return value


_ROSTER_OR_FORMAT = frozenset(TAG_ROSTER) | {"Format"}


def _clean_comment(text: str) -> str:
    return text.replace("}", "").strip()


def _numbered(text: str, i: int, red_first: bool, fullmove: int, force_number: bool) -> str:
    """``text`` with its move number, for the ``i``-th move of a run of moves whose first mover is known."""
    if red_first:
        if not i & 1:
            return f"{fullmove + (i >> 1)}. {text}"
        return f"{fullmove + (i >> 1)}... {text}" if force_number else text
    if i & 1:
        return f"{fullmove + ((i + 1) >> 1)}. {text}"
    return f"{fullmove + ((i + 1) >> 1)}... {text}" if force_number else text


class StringExporterMixin(BaseVisitor[ResultT]):
    """What :class:`StringExporter` and :class:`FileExporter` share (python-chess's ``StringExporterMixin``):
    the switches, the line filling, the move numbers.

    >>> import io
    >>> isinstance(StringExporter(), StringExporterMixin), isinstance(FileExporter(io.StringIO()), StringExporterMixin)
    (True, True)

    Raises:
        * :exc:`ValueError` when ``notation`` is not one of :data:`NOTATIONS`.
    """

    def __init__(self, *, columns: Optional[int] = 80, headers: bool = True, comments: bool = True,
                 variations: bool = True, notation: str = "chinese", traditional: bool = False,
                 fullwidth: bool = True) -> None:
        if notation not in NOTATIONS:
            raise ValueError(f"unknown notation {notation!r}: expected one of {', '.join(NOTATIONS)}")
        self.columns = columns or 0
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.notation = notation
        self.traditional = traditional
        self.fullwidth = fullwidth
        self.begin_game()

    # The text: whole lines, the line being filled (its tokens and width).

    def begin_game(self) -> None:
        self.lines: List[str] = []
        self._current: List[str] = []
        self._width = 0
        self._tags: Dict[str, str] = {}
        self._depth = 0
        self._force = True
        # The run of moves not yet written: the moves, and the FEN (not for ICCS), mover and move number of the
        # position before the first.
        self._run: List[Move] = []
        self._run_fen = ""
        self._run_red = True
        self._run_fullmove = 1

    def _token(self, text: str) -> None:
        if self._current and self.columns and self._width + 1 + len(text) > self.columns:
            self._flush_line()
        if self._current:
            self._width += 1
        self._current.append(text)
        self._width += len(text)

    def _flush_line(self) -> None:
        if self._current:
            self.write_line(" ".join(self._current))
        self._current = []
        self._width = 0

    def write_line(self, line: str = "") -> None:
        """Add a whole line to the text."""
        self.lines.append(line)

    def _flush_run(self) -> None:
        moves = self._run
        if not moves:
            return
        if self.notation == "iccs":
            texts = [m.iccs() for m in moves]
        else:
            texts = _notation.format_game(self._run_fen, moves, to=self.notation, traditional=self.traditional,
                                          fullwidth=self.fullwidth)
        red_first, fullmove, force = self._run_red, self._run_fullmove, self._force
        token = self._token
        for i, text in enumerate(texts):
            token(_numbered(text, i, red_first, fullmove, force and i == 0))
        self._run = []
        self._force = False

    def _shown(self) -> bool:
        return self.variations or not self._depth

    # The visitor's methods.

    def begin_headers(self) -> None:
        self._tags = {}

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self._tags[tagname] = tagvalue

    def end_headers(self) -> None:
        if not self.headers:
            return
        tags = self._tags
        lines = [f'[{name} "{_escape(tags[name])}"]' for name in TAG_ROSTER if name in tags]
        # The others in order, the game's own Format tag replaced (last).
        lines += [f'[{name} "{_escape(value)}"]' for name, value in tags.items() if name not in _ROSTER_OR_FORMAT]
        if self.notation == "iccs":
            lines.append('[Format "ICCS"]')
        elif self.notation == "wxf":
            lines.append('[Format "WXF"]')
        lines.append("")
        if type(self).write_line is StringExporterMixin.write_line:
            self.lines += lines   # what a write_line call per line does
        else:
            for line in lines:
                self.write_line(line)

    def visit_move(self, board: Board, move: Move) -> None:
        if self.variations or not self._depth:
            if not self._run:
                if self.notation != "iccs":
                    self._run_fen = board.fen()
                self._run_red, self._run_fullmove = bool(board.turn), board.fullmove_number
            self._run.append(move)

    def visit_line(self, board: Board, moves: List[Move]) -> None:
        """:meth:`visit_move` of each of ``moves``, played in turn from ``board`` (not changed): how
        :meth:`xiangqi.game.Game.accept` hands on a main line kept as move codes, without playing it."""
        if moves and self._shown():
            if not self._run:
                if self.notation != "iccs":
                    self._run_fen = board.fen()
                self._run_red, self._run_fullmove = bool(board.turn), board.fullmove_number
            self._run.extend(moves)

    def visit_comment(self, comment: str) -> None:
        if self.comments and self._shown():
            self._flush_run()
            self._token("{" + _clean_comment(comment) + "}")
            self._force = True

    def visit_nag(self, nag: int) -> None:
        if self.comments and self._shown():
            self._flush_run()
            self._token(f"${nag}")

    def begin_variation(self) -> Optional[SkipType]:
        self._depth += 1
        if not self.variations:
            return SKIP
        self._flush_run()
        self._token("(")
        self._force = True
        return None

    def end_variation(self) -> None:
        self._depth -= 1
        if self.variations:
            self._flush_run()
            self._token(")")
            self._force = True

    def visit_result(self, result: str) -> None:
        self._flush_run()
        self._token(result or "*")

    def end_game(self) -> None:
        self._flush_run()
        self._flush_line()



class StringExporter(StringExporterMixin[str]):
    """Writes a game as PGN text (python-chess's ``StringExporter``): ``game.accept(StringExporter())``.

    ``headers``, ``comments`` (and NAGs) and ``variations`` switch those parts
    on or off; move text wraps at ``columns`` characters (``None`` or 0: one
    line). ``notation`` is ``"chinese"`` (no ``Format`` tag), ``"iccs"``
    (``[Format "ICCS"]``) or ``"wxf"`` (``[Format "WXF"]``); ``traditional``
    and ``fullwidth`` shape Chinese moves. Headers are written roster first,
    the game's own ``Format`` tag replaced. The text has no newline at its
    end. The moves between two comments or variations are named in one call
    into the notation module.

    >>> from xiangqi.game import Game
    >>> game = Game()
    >>> node = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")], comment="a knight")
    >>> game.accept(StringExporter(headers=False, notation="wxf"))
    '1. C2.5 H8+7 {a knight} *'
    >>> game.accept(StringExporter(headers=False, comments=False))
    '1. 炮二平五 马８进７ *'

    Raises:
        * :exc:`ValueError` when ``notation`` is not one of :data:`NOTATIONS`.
    """

    def result(self) -> str:
        self._flush_run()
        return "\n".join(self.lines + [" ".join(self._current)] if self._current else self.lines)

    def __str__(self) -> str:
        return self.result()


class FileExporter(StringExporterMixin[int]):
    """A :class:`StringExporter` that writes each game to a text file ``handle``, followed by a blank line;
    :meth:`result` is the number of characters written (python-chess's ``FileExporter``).

    >>> import io
    >>> from xiangqi.game import Game
    >>> out = io.StringIO()
    >>> Game().accept(FileExporter(out, headers=False)), out.getvalue()
    (3, '*\\n\\n')

    Raises:
        * :exc:`ValueError` when ``notation`` is not one of :data:`NOTATIONS`.
    """

    def __init__(self, handle: IO[str], *, columns: Optional[int] = 80, headers: bool = True,
                 comments: bool = True, variations: bool = True, notation: str = "chinese",
                 traditional: bool = False, fullwidth: bool = True) -> None:
        self.handle = handle
        self.written = 0
        super().__init__(columns=columns, headers=headers, comments=comments, variations=variations,
                         notation=notation, traditional=traditional, fullwidth=fullwidth)

    def begin_game(self) -> None:
        super().begin_game()
        self.written = 0

    def write_line(self, line: str = "") -> None:
        self.written += self.handle.write(line + "\n")

    def end_game(self) -> None:
        super().end_game()
        self.written += self.handle.write("\n")

    def result(self) -> int:
        return self.written

    def __repr__(self) -> str:
        return f"<FileExporter at {id(self):#x}>"


def write_game(game: Game, file: Optional[IO[str]] = None, *, notation: str = "chinese",
               traditional: bool = False, fullwidth: bool = True, columns: int = 80) -> str:
    """The PGN text of ``game``; also written to ``file`` (a text file) when given.

    ``notation`` is ``"chinese"`` (``Format`` tag omitted), ``"iccs"`` (lower
    case ``h2e2``, ``[Format "ICCS"]``) or ``"wxf"`` (``[Format "WXF"]``);
    ``traditional`` and ``fullwidth`` shape Chinese move text. The game's
    headers are written roster first; its own ``Format`` tag is replaced.
    Lines of move text wrap at ``columns`` characters (0: one line).

    >>> from xiangqi.game import Game
    >>> game = Game()
    >>> _ = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
    >>> write_game(game).strip().splitlines()[-1], write_game(game, notation="wxf").strip().splitlines()[-1]
    ('1. 炮二平五 马８进７ *', '1. C2.5 H8+7 *')
    >>> write_game(game, notation="uci")
    Traceback (most recent call last):
    ...
    ValueError: unknown notation 'uci': expected one of chinese, iccs, wxf

    Raises:
        * :exc:`ValueError` when ``notation`` is not one of :data:`NOTATIONS`;
        * :exc:`~xiangqi.errors.InvalidFenError` when the game's ``FEN`` tag is not a valid position;
        * :exc:`~xiangqi.errors.IllegalMoveError` when a move of the tree is not legal where it stands (the
          game model's editing methods do not check moves; the readers never keep such a move).
    """
    text = game.accept(StringExporter(columns=columns, notation=notation, traditional=traditional,
                                      fullwidth=fullwidth)) + "\n\n"
    if file is not None:
        file.write(text)
    return text


def game_to_string(game: Game, *, notation: str = "chinese", traditional: bool = False, fullwidth: bool = True,
                   columns: int = 80) -> str:
    """Alias of :func:`write_game` without a file.

    >>> from xiangqi.game import Game
    >>> game = Game()
    >>> _ = game.add_line([Move.from_iccs("h2e2")])
    >>> [line for line in game_to_string(game, notation="iccs").splitlines() if line and "?" not in line]
    ['[Game "Chinese Chess"]', '[Result "*"]', '[Format "ICCS"]', '1. h2e2 *']

    Raises:
        * the errors of :func:`write_game`.
    """
    return write_game(game, None, notation=notation, traditional=traditional, fullwidth=fullwidth, columns=columns)
