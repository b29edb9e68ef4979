"""The game model every record format reads into and writes from.

A :class:`Game` is the root :class:`GameNode` of a tree whose children are
moves (python-chess's ``chess.pgn`` model): the first child of a node is its
main line, the others are variations. A game carries its :class:`Headers` (the
xiangqi tag roster first) and the problems met while reading it, as
:class:`GameError` values in ``game.errors``. The PGN, XQF and DhtmlXQ readers
all build these objects; none of them owns the model.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Type, TypeVar, Union, cast

from xiangqi._nested import Nested, run_nested
from xiangqi.board import Board
from xiangqi.core import SQUARE_NAMES, STARTING_FEN, Color, Move, Square, moves_of, parse_square
from xiangqi.display import game_html
from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError, XiangqiError
from xiangqi.pgn_writer import SKIP, TAG_ROSTER, BaseVisitor, ResultT, SkipType, StringExporterMixin, write_game
from xiangqi.scores import Cp, Mate, PovScore, Score
from xiangqi.svg import Arrow
from xiangqi.tags import (
    RESULT_WORDS, RESULTS, STATUS_WORDS, misplaced_start_board, normalize_result, position_problems, require_playable,
    start_board, start_fen,
)

__all__ = [
    "TAG_ROSTER", "RESULTS",
    "NAG_GOOD_MOVE", "NAG_MISTAKE", "NAG_BRILLIANT_MOVE", "NAG_BLUNDER", "NAG_SPECULATIVE_MOVE",
    "NAG_DUBIOUS_MOVE", "RESULT_WORDS", "normalize_result", "STATUS_WORDS", "position_problems", "require_playable",
    "start_fen", "start_board", "misplaced_start_board", "MoveErrors",
    "GameError", "Headers", "GameNode", "ChildNode", "Game", "GameBuilder", "HeadersBuilder", "join_comments",
]

#: The annotation commands python-chess reads in a comment (its patterns, with xiangqi's squares a0-i9).
_CLOCK = re.compile(r"(?P<prefix>\s?)\[%clk\s(?P<hours>\d+):(?P<minutes>\d+):(?P<seconds>\d+(?:\.\d*)?)\](?P<suffix>\s?)")
_EVAL = re.compile(r"""(?P<prefix>\s?)\[%eval\s(?:\#(?P<mate>[+-]?\d+)|(?P<cp>[+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)))
                       (?:,(?P<depth>\d+))?\](?P<suffix>\s?)""", re.VERBOSE)
_ARROWS = re.compile(r"""(?P<prefix>\s?)\[%(?:csl|cal)\s(?P<arrows>[RGYB][a-i][0-9](?:[a-i][0-9])?
                         (?:,[RGYB][a-i][0-9](?:[a-i][0-9])?)*)\](?P<suffix>\s?)""", re.VERBOSE)
_ARROW_COLORS = {"R": "red", "G": "green", "Y": "yellow", "B": "blue"}
_ARROW_LETTERS = {color: letter for letter, color in _ARROW_COLORS.items()}

_ROSTER_DEFAULTS = {"Game": "Chinese Chess", "Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                    "Red": "?", "Black": "?", "Result": "*"}
#: Numeric annotation glyph ``$1``, written ``!`` after a move.
NAG_GOOD_MOVE = 1
#: ``$2``: ``?``.
NAG_MISTAKE = 2
#: ``$3``: ``!!``.
NAG_BRILLIANT_MOVE = 3
#: ``$4``: ``??``.
NAG_BLUNDER = 4
#: ``$5``: ``!?``.
NAG_SPECULATIVE_MOVE = 5
#: ``$6``: ``?!``.
NAG_DUBIOUS_MOVE = 6

#: The errors a move token can raise when it is decoded on a position (caught together by the readers).
MoveErrors = (InvalidMoveError, IllegalMoveError, AmbiguousMoveError)


# ---------------------------------------------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True, init=False)
class GameError:
    """A problem met while reading a game, kept as data on :attr:`Game.errors`.

    ``ply`` is the 0-based index of the offending move counted from the game's
    start position along its line (for a bad ``FEN`` tag: 0), ``token`` the
    move text as written (``""`` when there is none), ``reason`` a readable
    explanation, ``line`` the 1-based line of the file (0 when not from a
    text file), ``offset`` the byte offset of the record in a binary file such
    as XQF (-1 otherwise), ``error`` the typed exception (:class:`~xiangqi.errors.InvalidMoveError`,
    :class:`~xiangqi.errors.IllegalMoveError`, :class:`~xiangqi.errors.AmbiguousMoveError`,
    :class:`~xiangqi.errors.InvalidFenError`, or :class:`InvalidRecordError` for a
    damaged binary record), and ``mainline`` whether the problem is on the main
    line (``False`` inside a variation).

    >>> error = GameError(3, "車９進９", "the Black rook on i9 is blocked", line=12)
    >>> print(error)
    line 12, ply 3, '車９進９': the Black rook on i9 is blocked
    """

    ply: int
    token: str
    reason: str
    line: int = 0
    error: Optional[XiangqiError] = None
    mainline: bool = True
    offset: int = -1

    def __init__(self, ply: int, token: str, reason: str, line: int = 0, error: Optional[XiangqiError] = None,
                 mainline: bool = True, offset: int = -1) -> None:
        # The fields set at once (a frozen dataclass's own __init__ sets each through object.__setattr__: ten
        # times the cost, paid for every error of every game a reader meets).
        self.__dict__.update({"ply": ply, "token": token, "reason": reason, "line": line, "error": error,
                              "mainline": mainline, "offset": offset})

    def __str__(self) -> str:
        where = f"line {self.line}, " if self.line else f"byte {self.offset:#x}, " if self.offset >= 0 else ""
        return f"{where}ply {self.ply}, {self.token!r}: {self.reason}"


HeadersT = TypeVar("HeadersT", bound="Headers")
GameT = TypeVar("GameT", bound="Game")


class Headers(Dict[str, str]):
    """PGN tags in order; a new instance starts with the xiangqi tag roster.

    >>> h = Headers(Event="Test")
    >>> list(h)[:3], h["Game"], h["Event"], h["Result"]
    (['Game', 'Event', 'Site'], 'Chinese Chess', 'Test', '*')
    """

    def __init__(self, data: Optional[Iterable[Tuple[str, str]]] = None, **kwargs: str) -> None:
        super().__init__(_ROSTER_DEFAULTS)
        if data is not None:
            self.update(data)
        if kwargs:
            self.update(kwargs)

    @classmethod
    def without_tag_roster(cls) -> "Headers":
        """Empty headers (no roster).

        >>> Headers.without_tag_roster(), len(Headers())
        ({}, 8)
        """
        if cls is Headers:
            return dict.__new__(cls)   # an empty dict of this class (what cls() then clear() makes, a tenth the cost)
        h = cls()
        h.clear()
        return h

    @classmethod
    def builder(cls: Type[HeadersT]) -> "HeadersBuilder":
        """A visitor that reads a game's headers into this class, without the roster (python-chess's
        ``Headers.builder``).

        >>> import io
        >>> from xiangqi.pgn import read_game
        >>> class Tags(Headers): pass
        >>> tags = read_game(io.StringIO('[Red "Hu"]\\n\\n1. h2e2 *'), Visitor=Tags.builder)
        >>> type(tags).__name__, dict(tags)
        ('Tags', {'Red': 'Hu'})
        """
        return HeadersBuilder(Headers=cls.without_tag_roster)

    def is_custom_setup(self) -> bool:
        """Whether a ``FEN`` tag names a position other than the standard start.

        >>> Headers().is_custom_setup(), Headers(FEN="4k4/9/9/9/9/9/9/9/9/3K5 w").is_custom_setup()
        (False, True)
        """
        fen = self.get("FEN")
        return bool(fen) and fen.split()[:2] != STARTING_FEN.split()[:2] if fen else False


class GameNode:
    """A node of the game tree: the position after :attr:`move` (the root has none).

    ``variations`` are the children (``variations[0]`` is the main
    continuation), ``comment`` the text after the move (with any ``[%clk …]``,
    ``[%eval …]``, ``[%cal …]`` commands, as python-chess keeps them: :meth:`clock`,
    :meth:`eval`, :meth:`arrows` and their setters read and rewrite those alone), ``starting_comment``
    the text before a move that begins a variation, ``nags`` numeric
    annotation glyphs (``$1`` = ``!``). :data:`ChildNode` is python-chess's
    name for a node with a move: one class holds both here.

    >>> game = Game()
    >>> node = game.add_variation(Move.from_iccs("h2e2"), comment="the central cannon", nags=[1])
    >>> node.parent is game, node.move, node.comment, node.nags
    (True, Move.from_iccs('h2e2'), 'the central cannon', {1})

    Raises:
        * :exc:`KeyError` from :meth:`variation` (and the promoting, demoting and removing methods) when no
          child plays the move;
        * :exc:`TypeError` from :meth:`game` when the node is not in a :class:`Game`'s tree;
        * :exc:`ValueError` from :meth:`iccs`, :meth:`chinese` and :meth:`wxf` at the root.
    """

    __slots__ = ("parent", "move", "variations", "comment", "starting_comment", "nags", "__weakref__")

    def __init__(self, parent: Optional["GameNode"] = None, move: Optional[Move] = None, *,
                 comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()) -> None:
        self.parent = parent
        self.move = move
        self.variations: List[GameNode] = []
        self.comment = comment
        self.starting_comment = starting_comment
        self.nags: Set[int] = set(nags)

    @staticmethod
    def _child(parent: "GameNode", move: Move) -> "GameNode":
        """Append a bare child to ``parent`` (the readers' fast path)."""
        node = GameNode.__new__(GameNode)
        node.parent = parent
        node.move = move
        node.variations = []
        node.comment = ""
        node.starting_comment = ""
        node.nags = set()
        parent.variations.append(node)
        return node

    # --- annotations in the comment (python-chess's [%eval], [%clk], [%cal] and [%csl] commands) -------------
    def eval(self) -> Optional[PovScore]:
        """The score of the first ``[%eval …]`` command of the comment (python-chess's ``eval``): pawns from
        Red's side, ``#n`` a mate in ``n`` (negative: Black mates), as a :class:`~xiangqi.engine.PovScore` seen
        by the side to move at this node; ``None`` without one.

        >>> node = Game().add_variation(Move.from_iccs("h2e2"), comment="[%eval 0.35,20] the central cannon")
        >>> node.eval().red(), node.eval_depth()
        (Cp(+35), 20)
        """
        match = _EVAL.search(self.comment)
        if match is None:
            return None
        turn = self.turn()
        if match.group("mate"):
            mate = int(match.group("mate"))
            if mate == 0:  # mated: the side to move here is the side mated
                return PovScore(Mate(0), turn)
            red: Score = Mate(mate)
        else:
            red = Cp(round(float(match.group("cp")) * 100))
        return PovScore(red if turn else -red, turn)

    def eval_depth(self) -> Optional[int]:
        """The depth of the first ``[%eval …]`` command (``[%eval 0.35,20]``: 20), or ``None``.

        >>> Game().add_variation(Move.from_iccs("h2e2"), comment="[%eval #3]").eval_depth() is None
        True
        """
        match = _EVAL.search(self.comment)
        return int(match.group("depth")) if match and match.group("depth") else None

    def set_eval(self, score: Optional[PovScore], depth: Optional[int] = None) -> None:
        """Replace the first ``[%eval …]`` command of the comment, or add one at its end (``None`` removes it);
        the rest of the comment's text stays as it is (python-chess's ``set_eval``).

        >>> from xiangqi.scores import Cp, PovScore
        >>> node = Game().add_variation(Move.from_iccs("h2e2"), comment="solid")
        >>> node.set_eval(PovScore(Cp(-120), False), 18); node.comment
        'solid [%eval 1.20,18]'
        """
        text = ""
        if score is not None:
            suffix = "" if depth is None else f",{max(depth, 0):d}"
            red = score.red()
            cp, mate = red.score(), red.mate()
            if cp is not None:
                text = f"[%eval {cp / 100:.2f}{suffix}]"
            elif mate is not None:
                text = f"[%eval #{mate}{suffix}]"
        self._replace(_EVAL, text)

    def clock(self) -> Optional[float]:
        """The seconds on the mover's clock after this move, from the first ``[%clk h:mm:ss]`` command of the
        comment (python-chess's ``clock``), or ``None``.

        >>> Game().add_variation(Move.from_iccs("h2e2"), comment="[%clk 1:02:03.5]").clock()
        3723.5
        """
        match = _CLOCK.search(self.comment)
        if match is None:
            return None
        return int(match.group("hours")) * 3600 + int(match.group("minutes")) * 60 + float(match.group("seconds"))

    def set_clock(self, seconds: Optional[float]) -> None:
        """Replace the first ``[%clk …]`` command of the comment, or add one at its end (``None`` removes it).

        >>> node = Game().add_variation(Move.from_iccs("h2e2")); node.set_clock(598.25); node.comment
        '[%clk 0:09:58.25]'
        """
        text = ""
        if seconds is not None:
            seconds = max(0.0, float(seconds))
            hours, minutes, rest = int(seconds // 3600), int(seconds % 3600 // 60), seconds % 60
            text = f"[%clk {hours:d}:{minutes:02d}:" + f"{rest:06.3f}".rstrip("0").rstrip(".") + "]"
        self._replace(_CLOCK, text)

    def _replace(self, pattern: "re.Pattern[str]", text: str) -> None:
        """Put ``text`` in place of the first match of ``pattern`` in the comment, or at its end (python-chess's
        way: the spaces around a removed command are condensed)."""
        def repl(match: "re.Match[str]") -> str:
            if text:
                return match.group("prefix") + text + match.group("suffix")
            return match.group("prefix") and match.group("suffix")

        self.comment, found = pattern.subn(repl, self.comment, count=1)
        if not found and text:
            if self.comment and not self.comment.endswith((" ", "\n")):
                self.comment += " "
            self.comment += text

    def arrows(self) -> List[Arrow]:
        """The arrows of every ``[%cal …]`` command of the comment and the rings of ``[%csl …]``
        (python-chess's ``arrows``), as :class:`~xiangqi.svg.Arrow` values (a ring's tail is its head):
        ``Rh2e2`` is a red arrow from h2 to e2. Letters R, G, Y, B are red, green, yellow and blue.

        >>> Game().add_variation(Move.from_iccs("h2e2"), comment="[%csl Ge9][%cal Rh2e2]").arrows()
        [Arrow(tail=85, head=85, color='green'), Arrow(tail=25, head=22, color='red')]
        """
        out: List[Arrow] = []
        for match in _ARROWS.finditer(self.comment):
            for item in match.group("arrows").split(","):
                tail = parse_square(item[1:3])
                head = parse_square(item[3:5]) if len(item) == 5 else tail
                out.append(Arrow(tail, head, _ARROW_COLORS[item[0]]))
        return out

    def set_arrows(self, arrows: "Iterable[Union[Arrow, Tuple[Square, Square]]]") -> None:
        """Replace every ``[%csl …]`` / ``[%cal …]`` command of the comment with new ones at its start
        (python-chess's ``set_arrows``): arrows, or (tail, head) pairs drawn green; colours other than red,
        green, yellow and blue are written green.

        >>> node = Game().add_variation(Move.from_iccs("h2e2"), comment="[%cal Gb0c2] a plan")
        >>> node.set_arrows([Arrow(25, 22, "red"), (85, 85)]); node.comment
        '[%csl Ge9][%cal Rh2e2] a plan'
        """
        rings: List[str] = []
        lines: List[str] = []
        for arrow in arrows:
            if not isinstance(arrow, Arrow):
                arrow = Arrow(arrow[0], arrow[1])
            letter = _ARROW_LETTERS.get(arrow.color, "G")
            if arrow.tail == arrow.head:
                rings.append(letter + SQUARE_NAMES[arrow.tail])
            else:
                lines.append(letter + SQUARE_NAMES[arrow.tail] + SQUARE_NAMES[arrow.head])
        self.comment = _ARROWS.sub(lambda m: m.group("prefix") and m.group("suffix"), self.comment)
        prefix = (f"[%csl {','.join(rings)}]" if rings else "") + (f"[%cal {','.join(lines)}]" if lines else "")
        if prefix and self.comment and not self.comment.startswith((" ", "\n")):
            self.comment = prefix + " " + self.comment
        else:
            self.comment = prefix + self.comment

    def turn(self) -> Color:
        """The side to move at this node (python-chess's ``turn``): the start position's side, swapped once per
        move.

        >>> game = Game(); node = game.add_variation(Move.from_iccs("h2e2")); game.turn(), node.turn()
        (True, False)

        Raises:
            * :exc:`~xiangqi.errors.InvalidFenError` for a bad ``FEN`` tag (the start position's side is read from
              it); :exc:`TypeError` when the node is not in a :class:`Game`'s tree.
        """
        fen = self.game().headers.get("FEN", "").split()
        red_first = len(fen) < 2 or fen[1] in ("w", "r")
        return red_first == (self.ply() % 2 == 0)

    def starts_variation(self) -> bool:
        """Whether this node begins a variation (it is not its parent's first child; the root does not).

        >>> game = Game()
        >>> main, other = game.add_variation(Move.from_iccs("h2e2")), game.add_variation(Move.from_iccs("b2e2"))
        >>> game.starts_variation(), main.starts_variation(), other.starts_variation()
        (False, False, True)
        """
        return self.parent is not None and bool(self.parent.variations) and self.parent.variations[0] is not self

    # --- navigation ---------------------------------------------------------------------------------------------
    def game(self) -> "Game":
        """The root of the tree (``root`` is another name for it).

        >>> game = Game()
        >>> game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]).game() is game
        True
        >>> GameNode().game()
        Traceback (most recent call last):
        ...
        TypeError: node is not attached to a Game

        Raises:
            * :exc:`TypeError` when the node's tree has no :class:`Game` at its root.
        """
        node = self
        while node.parent is not None:
            node = node.parent
        if not isinstance(node, Game):
            raise TypeError("node is not attached to a Game")
        return node

    root = game

    def ply(self) -> int:
        """Number of moves from the game's start position to this node.

        >>> game = Game()
        >>> game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]).ply(), game.ply()
        (2, 0)
        """
        n = 0
        node = self
        while node.parent is not None:
            n += 1
            node = node.parent
        return n

    def path(self) -> List[Move]:
        """The moves from the start position to this node.

        >>> Game().add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]).path()
        [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')]
        """
        moves: List[Move] = []
        node = self
        while node.parent is not None:
            assert node.move is not None
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return moves

    def board(self) -> Board:
        """A new :class:`~xiangqi.Board` with the position at this node.

        >>> Game().add_line([Move.from_iccs("h2e2")]).board().fen()
        'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'

        Raises:
            * :exc:`~xiangqi.errors.InvalidFenError` when the game's ``FEN`` tag is not a valid position;
            * :exc:`~xiangqi.errors.IllegalMoveError` when a move on the way is not legal (the editing methods
              do not check moves);
            * :exc:`TypeError` when the node is not in a :class:`Game`'s tree.
        """
        board = self.game().board()
        for move in self.path():
            board.push(move)
        return board

    def iccs(self) -> str:
        """The move leading to this node in ICCS (``h2e2``).

        >>> Game().add_line([Move.from_iccs("h2e2")]).iccs()
        'h2e2'

        Raises:
            * :exc:`ValueError` at the root, which has no move.
        """
        if self.move is None:
            raise ValueError("the root of a game has no move")
        return self.move.iccs()

    def chinese(self, *, traditional: bool = False, fullwidth: bool = True) -> str:
        """The move leading to this node in Chinese notation (``炮二平五``).

        >>> node = Game().add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
        >>> node.parent.chinese(), node.chinese(), node.chinese(traditional=True, fullwidth=False)
        ('炮二平五', '马８进７', '馬8進7')

        Raises:
            * :exc:`ValueError` at the root, which has no move.
        """
        if self.move is None or self.parent is None:
            raise ValueError("the root of a game has no move")
        return self.parent.board().chinese(self.move, traditional=traditional, fullwidth=fullwidth)

    def wxf(self) -> str:
        """The move leading to this node in WXF letters (``C2.5``).

        >>> Game().add_line([Move.from_iccs("h2e2")]).wxf()
        'C2.5'

        Raises:
            * :exc:`ValueError` at the root, which has no move.
        """
        if self.move is None or self.parent is None:
            raise ValueError("the root of a game has no move")
        return self.parent.board().wxf(self.move)

    def san(self, *, notation: str = "chinese") -> str:
        """The move leading to this node in :meth:`Board.san <xiangqi.board.Board.san>`'s notation (Chinese, or
        ``notation="wxf"``), as python-chess's ``node.san()``.

        >>> Game().add_line([Move.from_iccs("h2e2")]).san()
        '炮二平五'

        Raises:
            * :exc:`ValueError` at the root, which has no move.
        """
        if self.move is None or self.parent is None:
            raise ValueError("the root of a game has no move")
        return self.parent.board().san(self.move, notation=notation)

    def uci(self) -> str:
        """The move leading to this node in ICCS, the coordinates UCCI uses (``h2e2``); :meth:`iccs`.

        >>> Game().add_line([Move.from_iccs("h2e2")]).uci()
        'h2e2'

        Raises:
            * :exc:`ValueError` at the root, which has no move.
        """
        return self.iccs()

    def next(self) -> Optional["GameNode"]:
        """The main continuation, or ``None`` at the end of a line.

        >>> game = Game()
        >>> last = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
        >>> game.next().next() is last, last.next()
        (True, None)
        """
        return self.variations[0] if self.variations else None

    def is_end(self) -> bool:
        """Whether no move follows this node.

        >>> game = Game()
        >>> last = game.add_line([Move.from_iccs("h2e2")])
        >>> game.is_end(), last.is_end()
        (False, True)
        """
        return not self.variations

    def end(self) -> "GameNode":
        """The last node of this node's main continuation.

        >>> game = Game()
        >>> game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]) is game.end()
        True
        """
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_main_variation(self) -> bool:
        """Whether this node is its parent's first child (or the root).

        >>> game = Game()
        >>> main, other = game.add_variation(Move.from_iccs("h2e2")), game.add_variation(Move.from_iccs("b2e2"))
        >>> main.is_main_variation(), other.is_main_variation(), game.is_main_variation()
        (True, False, True)
        """
        return self.parent is None or self.parent.variations[0] is self

    def is_mainline(self) -> bool:
        """Whether this node lies on the game's main line.

        >>> game = Game()
        >>> other = game.add_variation(Move.from_iccs("h2e2")) and game.add_variation(Move.from_iccs("b2e2"))
        >>> deep = other.add_variation(Move.from_iccs("h9g7"))
        >>> deep.is_main_variation(), deep.is_mainline(), game.next().is_mainline()
        (True, False, True)
        """
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def variation(self, move: Union[int, Move]) -> "GameNode":
        """The child for ``move`` (or the child at an index).

        >>> game = Game()
        >>> node = game.add_variation(Move.from_iccs("h2e2"))
        >>> game.variation(Move.from_iccs("h2e2")) is node is game.variation(0)
        True
        >>> game.variation(Move.from_iccs("b2e2"))
        Traceback (most recent call last):
        ...
        KeyError: "no variation Move.from_iccs('b2e2') at this node"

        Raises:
            * :exc:`KeyError` when no child plays ``move``;
            * :exc:`IndexError` when an index is out of range.
        """
        if isinstance(move, int):
            return self.variations[move]
        for v in self.variations:
            if v.move == move:
                return v
        raise KeyError(f"no variation {move!r} at this node")

    def has_variation(self, move: Move) -> bool:
        """Whether a child plays ``move``.

        >>> game = Game()
        >>> _ = game.add_variation(Move.from_iccs("h2e2"))
        >>> game.has_variation(Move.from_iccs("h2e2")), game.has_variation(Move.from_iccs("b2e2"))
        (True, False)
        """
        return any(v.move == move for v in self.variations)

    def mainline(self) -> Iterator["GameNode"]:
        """The nodes of the main continuation after this node.

        >>> game = Game()
        >>> _ = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
        >>> [node.chinese() for node in game.mainline()]
        ['炮二平五', '马８进７']
        """
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> List[Move]:
        """The moves of the main continuation after this node.

        >>> game = Game()
        >>> _ = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
        >>> game.next().mainline_moves()
        [Move.from_iccs('h9g7')]
        """
        moves: List[Move] = []
        node = self
        while node.variations:
            node = node.variations[0]
            assert node.move is not None
            moves.append(node.move)
        return moves

    # --- editing ------------------------------------------------------------------------------------------------
    def add_variation(self, move: Move, *, comment: str = "", starting_comment: str = "",
                      nags: Iterable[int] = ()) -> "GameNode":
        """Append a child playing ``move`` (not checked for legality) and return it.

        >>> game = Game()
        >>> game.add_variation(Move.from_iccs("h2e2")).move, game.add_variation(Move.from_iccs("b2e2")).ply()
        (Move.from_iccs('h2e2'), 1)
        >>> [node.iccs() for node in game.variations]
        ['h2e2', 'b2e2']
        """
        node = GameNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, *, comment: str = "", nags: Iterable[int] = ()) -> "GameNode":
        """Insert a child playing ``move`` as the main continuation and return it.

        >>> game = Game()
        >>> _ = game.add_variation(Move.from_iccs("h2e2")), game.add_main_variation(Move.from_iccs("b2e2"))
        >>> [node.iccs() for node in game.variations]
        ['b2e2', 'h2e2']
        """
        node = GameNode(self, move, comment=comment, nags=nags)
        self.variations.insert(0, node)
        return node

    def add_line(self, moves: Iterable[Move], *, comment: str = "", starting_comment: str = "",
                 nags: Iterable[int] = ()) -> "GameNode":
        """Add a chain of moves below this node; return the last node, as python-chess's ``add_line``: the first
        new node gets ``starting_comment``, the last ``comment`` (after any it has) and ``nags``.

        >>> game = Game()
        >>> last = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")], comment="a common start")
        >>> last.ply(), last.comment, game.mainline_moves()
        (2, 'a common start', [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')])
        """
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        if comment:
            node.comment = f"{node.comment} {comment}" if node.comment else comment
        node.nags.update(nags)
        return node

    def promote_to_main(self, move: Move) -> None:
        """Make the child playing ``move`` the main continuation.

        >>> game = Game()
        >>> _ = [game.add_variation(Move.from_iccs(m)) for m in ("h2e2", "b2e2", "c3c4")]
        >>> game.promote_to_main(Move.from_iccs("c3c4")); [node.iccs() for node in game.variations]
        ['c3c4', 'h2e2', 'b2e2']

        Raises:
            * :exc:`KeyError` when no child plays ``move``.
        """
        v = self.variation(move)
        self.variations.remove(v)
        self.variations.insert(0, v)

    def promote(self, move: Move) -> None:
        """Move the child playing ``move`` one place up.

        >>> game = Game()
        >>> _ = [game.add_variation(Move.from_iccs(m)) for m in ("h2e2", "b2e2", "c3c4")]
        >>> game.promote(Move.from_iccs("c3c4")); [node.iccs() for node in game.variations]
        ['h2e2', 'c3c4', 'b2e2']

        Raises:
            * :exc:`KeyError` when no child plays ``move``.
        """
        v = self.variation(move)
        i = self.variations.index(v)
        if i > 0:
            self.variations[i - 1], self.variations[i] = self.variations[i], self.variations[i - 1]

    def demote(self, move: Move) -> None:
        """Move the child playing ``move`` one place down.

        >>> game = Game()
        >>> _ = [game.add_variation(Move.from_iccs(m)) for m in ("h2e2", "b2e2", "c3c4")]
        >>> game.demote(Move.from_iccs("h2e2")); [node.iccs() for node in game.variations]
        ['b2e2', 'h2e2', 'c3c4']

        Raises:
            * :exc:`KeyError` when no child plays ``move``.
        """
        v = self.variation(move)
        i = self.variations.index(v)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = self.variations[i], self.variations[i + 1]

    def remove_variation(self, move: Move) -> None:
        """Remove the child playing ``move`` and everything below it.

        >>> game = Game()
        >>> _ = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
        >>> game.remove_variation(Move.from_iccs("h2e2")); game.count_nodes()
        0

        Raises:
            * :exc:`KeyError` when no child plays ``move``.
        """
        self.variations.remove(self.variation(move))

    def count_nodes(self) -> int:
        """Number of move nodes below this node (all variations).

        >>> game = Game()
        >>> _ = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]), game.add_variation(Move.from_iccs("b2e2"))
        >>> game.count_nodes(), game.next().count_nodes()
        (3, 1)
        """
        n = 0
        stack = list(self.variations)
        while stack:
            node = stack.pop()
            n += 1
            stack.extend(node.variations)
        return n

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walk the line from this node's move in PGN order with ``visitor`` (its variations too, not its
        siblings); the visitor's result. On the game itself: :meth:`Game.accept`.

        >>> from xiangqi.pgn import StringExporter
        >>> game = Game()
        >>> node = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
        >>> game.variations[0].variations[0].accept(StringExporter(headers=False, notation="iccs"))
        '1... h9g7'

        Raises:
            * :exc:`~xiangqi.errors.InvalidFenError` for a bad ``FEN`` tag;
            * :exc:`ValueError` on a node without a move (the game: use :meth:`Game.accept`).
        """
        if self.parent is None or self.move is None:
            raise ValueError("accept() of a node without a move: call the game's accept()")
        _accept_line(self, self.parent.board(), visitor, False)
        return visitor.result()

    def accept_subgame(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walk the game in PGN order as if it started after this node (python-chess's ``accept_subgame``): the
        game's headers with this node's position as the ``FEN``, then the moves below this node with their
        variations, then the game's result. The visitor's result.

        >>> from xiangqi.pgn import StringExporter
        >>> game = Game.without_tag_roster()
        >>> node = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7"), Move.from_iccs("h0g2")])
        >>> print(game.next().accept_subgame(StringExporter(notation="iccs")))
        [FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"]
        [Format "ICCS"]
        <BLANKLINE>
        1... h9g7 2. h0g2 *

        Raises:
            * :exc:`~xiangqi.errors.InvalidFenError` for a bad ``FEN`` tag.
        """
        if visitor.begin_game() is not SKIP:
            game = self.game()
            board = self.board()
            start = Game.without_tag_roster()
            start.setup(board)
            visitor.begin_headers()
            for name, value in game.headers.items():
                if name != "FEN":
                    visitor.visit_header(name, value)
            for name, value in start.headers.items():
                visitor.visit_header(name, value)
            if visitor.end_headers() is not SKIP:
                visitor.visit_board(board)
                if self.variations:
                    _accept_line(self.variations[0], board, visitor, True)
                visitor.visit_result(game.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    # --- pickling and copies ------------------------------------------------------------------------------------
    # Pickle and deepcopy took a node's children, and their children, one call deeper each: a game of 200 plies
    # raised RecursionError. A tree travels as its root with the other nodes in one flat list (preorder, each with
    # its parent's index), and a node below the root as (the root, its index): one tree, however deep, and the
    # same tree for every node of it that one pickle holds.
    def __reduce__(self) -> Tuple[Any, ...]:
        root = self
        while root.parent is not None:
            root = root.parent
        if root is not self:
            return _node_at, (root, _preorder(root).index(self))
        nodes = _preorder(self)
        index = {id(node): i for i, node in enumerate(nodes)}
        tree = [(index[id(node.parent)], type(node), _fields(node)) for node in nodes[1:]]
        return _new, (type(self),), (_fields(self), tree)

    def __setstate__(self, state: Tuple[Tuple[object, ...], List[Tuple[int, Type["GameNode"], Tuple[object, ...]]]]
                     ) -> None:
        fields, tree = state
        _restore(self, None, fields)
        nodes: List[GameNode] = [self]
        set_parent, set_children, children = _PARENT_SLOT.__set__, _VARIATIONS_SLOT.__set__, _VARIATIONS_SLOT.__get__
        for parent_index, cls, values in tree:   # _restore, inline: a game may have thousands of nodes
            node = _new(cls)
            parent = nodes[parent_index]
            set_parent(node, parent)
            set_children(node, [])
            setters = _slots(cls)[1]
            for set_value, value in zip(setters, values):
                if value is not _UNSET:
                    set_value(node, value)
            if len(values) > len(setters):
                node.__dict__.update(cast(Dict[str, object], values[-1]))
            children(parent).append(node)
            nodes.append(node)

    def __deepcopy__(self, memo: Dict[int, Any]) -> "GameNode":
        """The tree copied (the pickled form, without pickling it); moves and text are values, shared."""
        root = self
        while root.parent is not None:
            root = root.parent
        if root is not self:
            return _node_at(copy.deepcopy(root, memo), _preorder(root).index(self))
        _, (cls,), (fields, tree) = self.__reduce__()
        new = _new(cls)
        memo[id(self)] = new
        new.__setstate__((_deep(fields, memo), [(parent, kind, _deep(values, memo)) for parent, kind, values in tree]))
        return new

    def __copy__(self) -> "GameNode":
        """A shallow copy, as for any object: the same parent, children and headers (``copy.deepcopy``: the tree)."""
        new = type(self).__new__(type(self))
        _restore(new, self.parent, _fields(self), children=_VARIATIONS_SLOT.__get__(self))
        return new

    def __repr__(self) -> str:
        move = self.move.iccs() if self.move is not None else "-"
        return f"<{type(self).__name__} at {id(self):#x} (ply {self.ply()}, {move})>"


def _preorder(root: GameNode) -> List[GameNode]:
    """The nodes of ``root``'s tree, ``root`` first, each before its children (a main line kept as move codes stays
    codes: it is a field of the game)."""
    out: List[GameNode] = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(_VARIATIONS_SLOT.__get__(node)))
    return out


def _node_at(root: GameNode, index: int) -> GameNode:
    """The node at ``index`` of :func:`_preorder` (unpickling a node below its tree's root)."""
    return _preorder(root)[index]


_LINKS = ("parent", "variations", "__weakref__", "__dict__")


_SLOTS: Dict[type, Tuple[Tuple[str, ...], Tuple[Callable[[Any, Any], None], ...]]] = {}


def _slots(cls: type) -> Tuple[Tuple[str, ...], Tuple[Callable[[Any, Any], None], ...]]:
    """The slots of ``cls`` but the links to other nodes (``parent``, ``variations``): names and setters."""
    known = _SLOTS.get(cls)
    if known is not None:
        return known
    names: List[str] = []
    setters: List[Callable[[Any, Any], None]] = []
    for klass in reversed(cls.__mro__):
        for name in klass.__dict__.get("__slots__", ()):
            if name not in _LINKS:
                private = name.startswith("__") and not name.endswith("__")
                names.append(f"_{klass.__name__.lstrip('_')}{name}" if private else name)
                setters.append(klass.__dict__[names[-1]].__set__)
    _SLOTS[cls] = tuple(names), tuple(setters)
    return _SLOTS[cls]


def _new(cls: Type[GameNode]) -> GameNode:
    """A node of class ``cls`` whose attributes are not set yet (unpickling)."""
    return cls.__new__(cls)


def _deep(values: Tuple[Any, ...], memo: Dict[int, Any]) -> Tuple[Any, ...]:
    """A deep copy of a node's fields, values shared (text, numbers, moves: a game shares its moves already)."""
    out = []
    for value in values:
        kind = type(value)
        if kind in _VALUES:
            out.append(value)
        elif kind is set and all(type(v) is int for v in value):
            out.append(set(value))   # NAGs
        else:
            out.append(copy.deepcopy(value, memo))
    return tuple(out)


class _Unset:
    """A slot that holds no value (pickled by name: one object)."""

    def __reduce__(self) -> str:
        return "_UNSET"


_UNSET = _Unset()
_VALUES = {str, int, float, bool, type(None), Move, _Unset}


def _fields(node: GameNode) -> Tuple[Any, ...]:
    """A node's attributes but its links to other nodes: its slots' values in :func:`_slots` order, then the
    instance dictionary of a subclass that has one."""
    values = tuple([getattr(node, name, _UNSET) for name in _slots(type(node))[0]])
    extra = getattr(node, "__dict__", None)
    return values + (extra,) if extra else values


def _restore(node: GameNode, parent: Optional[GameNode], fields: Tuple[object, ...],
             children: Optional[List[GameNode]] = None) -> None:
    """Set a new node's attributes (:func:`_fields`) and links: ``parent`` and ``children`` (none: no children,
    and the node is appended to its parent's)."""
    _PARENT_SLOT.__set__(node, parent)
    _VARIATIONS_SLOT.__set__(node, [] if children is None else children)
    setters = _slots(type(node))[1]
    for set_value, value in zip(setters, fields):
        if value is not _UNSET:
            set_value(node, value)
    if len(fields) > len(setters):
        node.__dict__.update(cast(Dict[str, object], fields[-1]))
    if parent is not None and children is None:
        _VARIATIONS_SLOT.__get__(parent).append(node)


class Game(GameNode):
    """A game record: :class:`Headers`, the move tree, and the problems met reading it.

    ``comment`` on the game is the text before the first move. ``errors``
    lists :class:`GameError` values; an empty list means the record read
    cleanly.

    >>> game = Game({"Event": "demo", "Result": "1-0"})
    >>> _ = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
    >>> game.headers["Event"], game.mainline_moves(), game.errors
    ('demo', [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')], [])
    >>> print(game)
    [Game "Chinese Chess"]
    [Event "demo"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [Red "?"]
    [Black "?"]
    [Result "1-0"]
    <BLANKLINE>
    1. 炮二平五 马８进７ 1-0
    <BLANKLINE>
    """

    __slots__ = ("headers", "errors", "_lazy")

    def __init__(self, headers: Optional[Union[Headers, Dict[str, str], Iterable[Tuple[str, str]]]] = None) -> None:
        self._lazy: Optional[List[int]] = None
        super().__init__()
        if isinstance(headers, Headers):
            self.headers = headers
        else:
            self.headers = Headers(headers.items() if isinstance(headers, dict) else headers)
        self.errors: List[GameError] = []

    @classmethod
    def without_tag_roster(cls) -> "Game":
        """A game whose headers start empty.

        >>> dict(Game.without_tag_roster().headers), len(Game().headers)
        ({}, 8)
        """
        return cls(Headers.without_tag_roster())

    @classmethod
    def builder(cls: Type[GameT]) -> "GameBuilder[GameT]":
        """A visitor that builds games of this class (python-chess's ``Game.builder``).

        >>> import io
        >>> from xiangqi.pgn import read_game
        >>> class MyGame(Game): pass
        >>> type(read_game(io.StringIO("1. h2e2 *"), Visitor=MyGame.builder)).__name__
        'MyGame'
        """
        return GameBuilder(Game=cls)

    # The readers store a plain main line as move codes and build its nodes on first use: reading
    # a game then costs no node objects unless they are wanted (mainline_moves() needs none).
    @property
    def variations(self) -> List[GameNode]:
        """The moves from the start position (``variations[0]`` is the main line's first move).

        As on :class:`GameNode`; a main line the reader kept as move codes
        becomes nodes on this first access.

        >>> game = Game()
        >>> _ = game.add_variation(Move.from_iccs("h2e2")), game.add_variation(Move.from_iccs("b2e2"))
        >>> [node.iccs() for node in game.variations]
        ['h2e2', 'b2e2']
        """
        if self._lazy is not None:
            self._materialize()
        return _VARIATIONS_SLOT.__get__(self)  # type: ignore[no-any-return]

    @variations.setter
    def variations(self, value: List[GameNode]) -> None:
        """Replace the first moves (any main line still kept as move codes is dropped)."""
        self._lazy = None
        _VARIATIONS_SLOT.__set__(self, value)

    def _set_lazy_mainline(self, codes: List[int]) -> None:
        _VARIATIONS_SLOT.__set__(self, [])
        self._lazy = codes if codes else None

    def _materialize(self) -> None:
        codes, self._lazy = self._lazy, None
        assert codes is not None
        node: GameNode = self
        new = GameNode._child
        for move in moves_of(codes):
            node = new(node, move)

    def mainline_moves(self) -> List[Move]:
        """The moves of the main line.

        >>> game = Game()
        >>> _ = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
        >>> game.mainline_moves()
        [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')]
        """
        if self._lazy is not None:
            return moves_of(self._lazy)
        return super().mainline_moves()

    def board(self) -> Board:
        """A new :class:`~xiangqi.Board` with the start position (``FEN`` tag or the standard start).

        >>> Game({"FEN": "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"}).board().fen()
        '3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1'

        Raises:
            * :exc:`~xiangqi.errors.InvalidFenError` for a bad ``FEN`` tag.
        """
        return Board(start_fen(self.headers))

    def setup(self, board_or_fen: Union[str, Board]) -> None:
        """Set the start position (a FEN string or a board, whose current position is used; a board being set up
        without both kings raises :class:`~xiangqi.errors.InvalidFenError`, as its FEN would on reading).

        >>> game = Game()
        >>> game.setup("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"); game.headers["FEN"]
        '3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1'
        >>> game.setup(Board()); "FEN" in game.headers        # the standard start needs no tag
        False

        Raises:
            * :exc:`~xiangqi.errors.InvalidFenError` for a board without both kings.
        """
        if not isinstance(board_or_fen, str):
            board_or_fen._require_kings("a game record")
        fen = board_or_fen if isinstance(board_or_fen, str) else board_or_fen.fen()
        if fen.split()[:2] == STARTING_FEN.split()[:2]:
            self.headers.pop("FEN", None)
        else:
            self.headers["FEN"] = fen

    @classmethod
    def from_board(cls, board: Board) -> "Game":
        """A game whose main line is ``board``'s move stack, from its root position (with the ``Result`` of a
        finished game).

        >>> board = Board("3k5/1R7/9/9/9/9/9/9/9/R3K4 w")
        >>> board.push_iccs("a0a9")
        Move.from_iccs('a0a9')
        >>> game = Game.from_board(board)
        >>> game.mainline_moves(), game.headers["Result"], game.headers["FEN"]
        ([Move.from_iccs('a0a9')], '1-0', '3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1')

        Raises:
            * :exc:`~xiangqi.errors.InvalidFenError` for a board without both kings.
        """
        board._require_kings("a game record")
        root = board.copy()
        moves = []
        while root.move_stack:
            moves.append(root.pop())
        moves.reverse()
        game = cls()
        game.setup(root)
        game.add_line(moves)
        if board.is_game_over():
            outcome = board.outcome()
            if outcome is not None:
                game.headers["Result"] = outcome.result()
        return game

    def accept(self, visitor: BaseVisitor[ResultT]) -> ResultT:
        """Walk the game in PGN order with ``visitor`` (python-chess's ``Game.accept``): its result.

        Games from every reader (PGN, XQF, DhtmlXQ) walk alike, so every
        visitor -- :class:`~xiangqi.pgn.StringExporter`, a builder, your own --
        works on every format. A game whose ``FEN`` tag is not a position is
        walked without a board: headers, comment and result only.

        >>> from xiangqi.pgn import StringExporter
        >>> game = Game()
        >>> _ = game.add_line([Move.from_iccs("h2e2")], comment="central cannon")
        >>> game.accept(StringExporter(headers=False, comments=False, notation="iccs"))
        '1. h2e2 *'
        """
        if visitor.begin_game() is not SKIP:
            visitor.begin_headers()
            for name, value in self.headers.items():
                visitor.visit_header(name, value)
            if visitor.end_headers() is not SKIP:
                try:
                    board: Optional[Board] = self.board()
                except InvalidFenError:
                    board = None
                if board is not None:
                    visitor.visit_board(board)
                if self.comment:
                    visitor.visit_comment(self.comment)
                if board is not None:
                    if self._lazy is not None and isinstance(visitor, StringExporterMixin) and \
                            type(visitor).visit_move is StringExporterMixin.visit_move:
                        visitor.visit_line(board, moves_of(self._lazy))   # the writer reads no board per move
                    elif self._lazy is not None:   # a main line kept as codes: walked without nodes
                        visit_move, visit_board, push = visitor.visit_move, visitor.visit_board, board.push
                        for move in moves_of(self._lazy):
                            visit_move(board, move)
                            push(move)
                            visit_board(board)
                    elif self.variations:
                        _accept_line(self.variations[0], board, visitor, True)
                visitor.visit_result(self.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        return write_game(self)

    def _repr_html_(self) -> str:
        """Headers, moves in Chinese notation and the final position (Jupyter shows it inline)."""
        return game_html(self)


# ---------------------------------------------------------------------------------------------------------------
# The builders (python-chess's chess.pgn GameBuilder and HeadersBuilder; the readers in xiangqi.pgn, the
# protocol and the exporters in xiangqi.pgn_writer)
# ---------------------------------------------------------------------------------------------------------------

def join_comments(old: str, new: str) -> str:
    """``old`` and ``new`` comment text as one (a line apart; blank sides dropped), as a reader joins two
    comments in one place.

    >>> join_comments("good", " central cannon "), join_comments("", "x")
    ('good\\ncentral cannon', 'x')
    """
    new = new.strip()
    if not old:
        return new
    if not new:
        return old
    return old + "\n" + new




class GameBuilder(BaseVisitor[GameT]):
    """Builds a :class:`Game`: the default visitor of :func:`~xiangqi.pgn.read_game` (python-chess's ``GameBuilder``).

    Every problem goes to :meth:`handle_error`, which keeps it in
    ``game.errors``: override it to do otherwise. Read with this class itself,
    a game is built by the reader's fast paths (the C replay of plain move
    text, main lines kept as move codes) with the same result.

    >>> import io
    >>> from xiangqi.pgn import read_game
    >>> class Strict(GameBuilder[Game]):
    ...     def handle_error(self, error: object) -> None:
    ...         raise ValueError(f"bad record: {error}")
    >>> read_game(io.StringIO("1. h2e2 h2e2 *"), Visitor=Strict)
    Traceback (most recent call last):
    ...
    ValueError: bad record: line 1, ply 1, 'h2e2': illegal ICCS move 'h2e2' in rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1: there is no piece on h2
    """

    def __init__(self, *, Game: Callable[[], GameT] = Game) -> None:  # type: ignore[assignment]
        self.Game = Game

    def begin_game(self) -> None:
        """Start a new game."""
        self.game: GameT = self.Game()
        self._stack: List[GameNode] = [self.game]
        self._starting_comment = ""
        self._in_variation = False

    def begin_headers(self) -> Headers:
        """The headers being filled."""
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """Keep a header."""
        self.game.headers[tagname] = tagvalue

    def visit_nag(self, nag: int) -> None:
        """Add a NAG to the last move."""
        self._stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        """Start a variation (an alternative to the last move)."""
        parent = self._stack[-1].parent
        assert parent is not None, "begin_variation called, but root node on top of stack"
        self._stack.append(parent)
        self._in_variation = False

    def end_variation(self) -> None:
        """Return from a variation."""
        self._stack.pop()

    def visit_result(self, result: str) -> None:
        """Set the ``Result`` header when it says nothing."""
        if self.game.headers.get("Result", "*") in ("*", ""):
            self.game.headers["Result"] = result

    def visit_comment(self, comment: str) -> None:
        """A comment: the game's, the last move's, or the next move's starting comment."""
        top = self._stack[-1]
        if self._in_variation or (top.parent is None and top.is_end()):
            top.comment = join_comments(top.comment, comment)
        else:
            self._starting_comment = join_comments(self._starting_comment, comment)

    def visit_move(self, board: Board, move: Move) -> None:
        """Add a move."""
        node = self._stack[-1].add_variation(move)
        node.starting_comment = self._starting_comment
        self._stack[-1] = node
        self._starting_comment = ""
        self._in_variation = True

    def handle_error(self, error: object) -> None:
        """Keep ``error`` (a :class:`GameError`) in ``game.errors``."""
        self.game.errors.append(error)  # type: ignore[arg-type]

    def result(self) -> GameT:
        """The game built."""
        return self.game


class HeadersBuilder(BaseVisitor[Headers]):
    """Collects a game's headers (as the file has them: no roster added) and skips its moves
    (python-chess's ``HeadersBuilder``; see :func:`~xiangqi.pgn.read_headers`).

    >>> import io
    >>> from xiangqi.pgn import read_game
    >>> dict(read_game(io.StringIO('[Event "A"]\\n[Red "Hu"]\\n\\n1. h2e2 *\\n'), Visitor=HeadersBuilder))
    {'Event': 'A', 'Red': 'Hu'}
    """

    def __init__(self, *, Headers: Callable[[], Headers] = Headers.without_tag_roster) -> None:
        self.Headers = Headers
        self.headers = Headers()

    def begin_headers(self) -> Headers:
        """The headers being filled."""
        self.headers = self.Headers()
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """Keep a header."""
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        """Skip the moves."""
        return SKIP

    def result(self) -> Headers:
        """What was built."""
        return self.headers


_VARIATIONS_SLOT: Any = GameNode.__dict__["variations"]
_PARENT_SLOT: Any = GameNode.__dict__["parent"]

#: python-chess's name for a node below the root: every :class:`GameNode` with a move is one here (one class holds
#: both, so a reader's nodes need no second type).
ChildNode = GameNode


def _accept_line(first: GameNode, board: Board, visitor: BaseVisitor[Any], sidelines: bool) -> None:
    """Walk the line from the node ``first`` (``board``: the position before its move, restored after) in PGN
    order, as python-chess walks it: a move, its NAGs and comment, then (with ``sidelines``, and for every move
    after the first) its siblings as variations, then the line on. Variations nest to any depth (no recursion:
    :func:`~xiangqi._nested.run_nested`)."""
    wants_board = type(visitor).visit_board is not BaseVisitor.visit_board   # else no position per move is made
    run_nested(_accept_walk(first, board, visitor, sidelines, wants_board))


def _accept_walk(first: GameNode, board: Board, visitor: BaseVisitor[Any], sidelines: bool,
                 wants_board: bool) -> Nested[None]:
    """:func:`_accept_line` as a step of a nested walk: yields the walk of each variation."""
    push, pop = board.push, board.pop
    node = first
    assert first.parent is not None
    siblings: Optional[List[GameNode]] = first.parent.variations if sidelines else None
    pushed = 0
    while True:
        move = node.move
        assert move is not None
        if node.starting_comment:
            visitor.visit_comment(node.starting_comment)
        visitor.visit_move(board, move)
        if wants_board:
            push(move)
            visitor.visit_board(board)
            pop()
        if node.nags:
            for nag in sorted(node.nags):
                visitor.visit_nag(nag)
        if node.comment:
            visitor.visit_comment(node.comment)
        if siblings is not None and len(siblings) > 1:
            for variation in siblings[1:]:
                if visitor.begin_variation() is not SKIP:
                    yield _accept_walk(variation, board, visitor, False, wants_board)
                visitor.end_variation()
        variations = node.variations
        if not variations:
            break
        push(move)
        pushed += 1
        siblings = variations
        node = variations[0]
    for _ in range(pushed):
        pop()

