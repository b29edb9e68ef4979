"""Writing games as PGN text (the inverse of :mod:`xiangqi.pgn`'s reader)."""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any, List, Optional

from xiangqi import notation as _notation
from xiangqi._nested import Nested, run_nested
from xiangqi.core import Move

if TYPE_CHECKING:  # the model imports this module (Game.__str__)
    from xiangqi.game import Game, GameNode

__all__ = ["NOTATIONS", "TAG_ROSTER", "write_game", "game_to_string"]

#: Move notations the writer produces.
NOTATIONS = ("chinese", "iccs", "wxf")

#: The xiangqi tag roster, in the order it is written (xqbase PGN specification).
TAG_ROSTER = ("Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _clean_comment(text: str) -> str:
    return text.replace("}", "").strip()


class _Writer:
    def __init__(self, notation: str, traditional: bool, fullwidth: bool, columns: int) -> None:
        if notation not in NOTATIONS:
            raise ValueError(f"unknown notation {notation!r}: expected one of {', '.join(NOTATIONS)}")
        self.notation = notation
        self.traditional = traditional
        self.fullwidth = fullwidth
        self.columns = columns
        self.lines: List[str] = []
        self.current: List[str] = []
        self.width = 0

    def token(self, text: str) -> None:
        if self.current and self.columns and self.width + 1 + len(text) > self.columns:
            self.flush()
        if self.current:
            self.width += 1
        self.current.append(text)
        self.width += len(text)

    def flush(self) -> None:
        if self.current:
            self.lines.append(" ".join(self.current))
        self.current = []
        self.width = 0

    def line_texts(self, board: Any, moves: List[Move]) -> List[str]:
        """The move texts of a line of moves from ``board``'s position (one call into the notation module)."""
        if self.notation == "iccs":
            return [m.iccs() for m in moves]

        return _notation.format_game(board.fen(), moves, to=self.notation, traditional=self.traditional,
                                     fullwidth=self.fullwidth)

    @staticmethod
    def numbered(text: str, i: int, red_first: bool, fullmove: int, force_number: bool) -> str:
        """``text`` with its move number, for the ``i``-th move of a line whose first mover is known."""
        if red_first:
            if not i & 1:
                return f"{fullmove + (i >> 1)}. {text}"
            return f"{fullmove + (i >> 1)}... {text}" if force_number else text
        if i & 1:
            return f"{fullmove + ((i + 1) >> 1)}. {text}"
        return f"{fullmove + ((i + 1) >> 1)}... {text}" if force_number else text

    def write_plain(self, board: Any, moves: List[Move]) -> None:
        """A line of moves without comments or variations."""
        texts = self.line_texts(board, moves)
        red_first, fullmove = bool(board.turn), board.fullmove_number
        numbered = self.numbered
        token = self.token
        for i, text in enumerate(texts):
            token(numbered(text, i, red_first, fullmove, i == 0))

    def write_line(self, first: GameNode, board: Any, force_number: bool) -> None:
        """Write the line that starts with the move node ``first`` (``board``: the position before it).

        The line follows first children; at each node its siblings are written
        as parenthesised variations right after it. ``board`` is restored.
        Variations nest to any depth (no recursion).
        """
        run_nested(self._line(first, board, force_number))

    def _line(self, first: GameNode, board: Any, force_number: bool) -> Nested[None]:
        """:meth:`write_line` as a step of a nested walk: yields the walk of each variation."""
        chain = [first]
        node = first
        while node.variations:
            node = node.variations[0]
            chain.append(node)
        moves: List[Move] = [n.move for n in chain]  # type: ignore[misc]
        texts = self.line_texts(board, moves)
        red_first, fullmove = bool(board.turn), board.fullmove_number
        pushed = 0
        for i, node in enumerate(chain):
            self.token(self.numbered(texts[i], i, red_first, fullmove, force_number))
            if node.nags:
                for nag in sorted(node.nags):
                    self.token(f"${nag}")
            force_number = False
            if node.comment:
                self.token("{" + _clean_comment(node.comment) + "}")
                force_number = True
            parent = node.parent
            assert parent is not None
            if len(parent.variations) > 1 and (i > 0 or parent.variations[0] is node):
                # Siblings of this move are its alternatives (a variation's own first move is the caller's).
                while pushed < i:
                    board.push(moves[pushed])
                    pushed += 1
                for var in parent.variations[1:]:
                    self.token("(")
                    if var.starting_comment:
                        self.token("{" + _clean_comment(var.starting_comment) + "}")
                    yield self._line(var, board, True)
                    self.token(")")
                force_number = True
        for _ in range(pushed):
            board.pop()


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
    w = _Writer(notation, traditional, fullwidth, columns)
    out: List[str] = []
    headers = dict(game.headers)
    headers.pop("Format", None)
    if notation == "iccs":
        headers["Format"] = "ICCS"
    elif notation == "wxf":
        headers["Format"] = "WXF"
    for name in TAG_ROSTER:
        if name in headers:
            out.append(f'[{name} "{_escape(headers[name])}"]')
    for name, value in headers.items():
        if name not in TAG_ROSTER:
            out.append(f'[{name} "{_escape(value)}"]')
    out.append("")
    if game.comment:
        w.token("{" + _clean_comment(game.comment) + "}")
    if getattr(game, "_lazy", None) is not None:
        w.write_plain(game.board(), game.mainline_moves())   # as read: no nodes needed
    elif game.variations:
        w.write_line(game.variations[0], game.board(), True)
    w.token(headers.get("Result", "*") or "*")
    w.flush()
    out.extend(w.lines)
    text = "\n".join(out) + "\n\n"
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
