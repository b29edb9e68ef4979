"""The :class:`Board`: a :class:`~xiangqi.position.BaseBoard` with notation and rulings, in python-chess's style."""

from __future__ import annotations

from typing import Iterable, Optional

from xiangqi import notation as notations
from xiangqi import rules as rulings
from xiangqi.core import Move, Piece
from xiangqi.errors import IllegalMoveError
from xiangqi.facts import no_move_outcome
from xiangqi.outcome import Outcome, Termination
from xiangqi.position import (
    BaseBoard, LegalMoveGenerator, PseudoLegalMoveGenerator, Status, check_depth, parse_coordinates,
)
from xiangqi.rules import MoveFacts
from xiangqi.rules import rule_set_name as rules_name

__all__ = ["Board", "BaseBoard", "Status", "LegalMoveGenerator", "PseudoLegalMoveGenerator", "check_depth",
           "parse_coordinates", "rules_name"]

# Characters that tell the sides apart (Red's 俥傌炮 against Black's 车马砲), as Chinese diagrams print them.
_DIAGRAM_CHINESE = {
    "K": "帅", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵",
    "k": "将", "a": "士", "b": "象", "n": "马", "r": "车", "c": "砲", "p": "卒",
}


class Board(BaseBoard):
    """A xiangqi position with its move stack, notation and rulings.

    >>> board = Board()
    >>> board.push_chinese("炮二平五")
    Move.from_iccs('h2e2')
    >>> board.wxf(Move.from_iccs("h9g7")), board.outcome() is None
    ('H8+7', True)

    Everything about the position itself (FEN, moves, attacks, editing, copies) is :class:`BaseBoard`'s.
    A Board is not thread-safe: give each thread its own :meth:`~xiangqi.position.BaseBoard.copy` (see :class:`BaseBoard`).

    >>> Board("9/9/9/9/9/9/9/9/9/4K4 w")
    Traceback (most recent call last):
    ...
    xiangqi.errors.InvalidFenError: invalid FEN: no black king in '9/9/9/9/9/9/9/9/9/4K4 w'

    Raises:
        :class:`~xiangqi.errors.InvalidFenError` or :class:`TypeError`: ``fen`` is refused, as by
            :meth:`~xiangqi.position.BaseBoard.set_fen` (a FEN without both kings, say, unless
            ``allow_missing_king``).
    """

    # Notation (implemented in xiangqi.notation).

    def chinese(self, move: Move, *, traditional: bool = False, fullwidth: bool = True, compact: bool = False) -> str:
        """The move in Chinese notation, e.g. ``炮二平五`` (see :func:`xiangqi.notation.format_chinese`).

        >>> Board().chinese(Move.from_iccs("h2e2")), Board().chinese(Move.from_iccs("h0g2"), fullwidth=False)
        ('炮二平五', '马二进三')

        Raises:
            :class:`IllegalMoveError`: ``move`` is not legal here.
        """
        return notations.format_chinese(self, move, traditional=traditional, fullwidth=fullwidth, compact=compact)

    def parse_chinese(self, text: str) -> Move:
        """Parse Chinese notation (simplified or traditional) into a legal move.

        >>> Board().parse_chinese("炮二平五"), Board().parse_chinese("馬二進三")
        (Move.from_iccs('h2e2'), Move.from_iccs('h0g2'))

        Raises:
            :class:`InvalidMoveError`: ``text`` is not Chinese notation.
            :class:`IllegalMoveError`: no legal move here fits it (the message says why).
            :class:`AmbiguousMoveError`: more than one legal move fits it (the message names the pieces).
        """
        return notations.parse_chinese(self, text)

    def push_chinese(self, text: str) -> Move:
        """Parse Chinese notation, play the move and return it.

        >>> board = Board(); board.push_chinese("炮二平五"); board.turn
        Move.from_iccs('h2e2')
        False

        Raises:
            :class:`InvalidMoveError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`: as
                :meth:`parse_chinese`; the board is unchanged.
        """
        move = self.parse_chinese(text)
        self.push(move)
        return move

    def wxf(self, move: Move) -> str:
        """The move in WXF letters, e.g. ``C2.5``.

        >>> Board().wxf(Move.from_iccs("h2e2"))
        'C2.5'

        Raises:
            :class:`IllegalMoveError`: ``move`` is not legal here.
        """
        return notations.format_wxf(self, move)

    def parse_wxf(self, text: str) -> Move:
        """Parse WXF notation into a legal move.

        >>> Board().parse_wxf("C2.5"), Board().parse_wxf("h2+3")
        (Move.from_iccs('h2e2'), Move.from_iccs('h0g2'))

        Raises:
            :class:`InvalidMoveError`: ``text`` is not WXF.
            :class:`IllegalMoveError`: no legal move here fits it (the message says why).
            :class:`AmbiguousMoveError`: more than one legal move fits it (the message names the pieces).
        """
        return notations.parse_wxf(self, text)

    def push_wxf(self, text: str) -> Move:
        """Parse WXF notation, play the move and return it.

        >>> board = Board(); board.push_wxf("C2.5"); board.fen().split()[0]
        Move.from_iccs('h2e2')
        'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR'

        Raises:
            :class:`InvalidMoveError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`: as
                :meth:`parse_wxf`; the board is unchanged.
        """
        move = self.parse_wxf(text)
        self.push(move)
        return move

    def parse_move(self, text: str, *, one_based: bool = False) -> Move:
        """Parse a move in any notation this library reads (Chinese, WXF, ICCS); see
        :func:`xiangqi.notation.parse_move`.

        >>> board = Board()
        >>> board.parse_move("炮二平五") == board.parse_move("C2.5") == board.parse_move("h2e2")
        True

        Raises:
            :class:`InvalidMoveError`: ``text`` is not a move in any of these notations.
            :class:`IllegalMoveError`: no legal move here fits it (the message says why).
            :class:`AmbiguousMoveError`: more than one legal move fits it (the message names the pieces).
        """
        return notations.parse_move(self, text, one_based=one_based)

    def variation_san(self, variation: "Iterable[Move]", *, notation: str = "chinese", traditional: bool = False,
                      fullwidth: bool = True) -> str:
        """A line of moves played from here, with move numbers: ``1. 炮二平五 马8进7 2. 马二进三`` (python-chess's
        ``variation_san``, in :meth:`san`'s notation).

        ``notation`` is ``"chinese"``, ``"wxf"`` or ``"iccs"``; a line starting with Black to move begins
        ``12...``. Every move must be legal in turn; the board is not changed.

        >>> Board().variation_san([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")], notation="wxf")
        '1. C2.5 H8+7'

        Raises:
            :class:`IllegalMoveError`: a move is not legal in turn (the first such is named).
            :class:`ValueError`: ``notation`` is none of the three.
        """
        return notations.format_variation(self, list(variation), to=notation, traditional=traditional,
                                          fullwidth=fullwidth)

    # ---- python-chess's SAN family: SAN is xiangqi's standard human notation, Chinese (WXF on request)

    def san(self, move: Move, *, notation: str = "chinese", traditional: bool = False, fullwidth: bool = True) -> str:
        """The move in the standard human notation (python-chess's ``san``): Chinese, ``炮二平五``, or with
        ``notation="wxf"`` WXF letters, ``C2.5`` (``"iccs"`` gives :meth:`uci`'s text). ``traditional`` and
        ``fullwidth`` are :meth:`chinese`'s. The null move is ``0000``.

        >>> board = Board()
        >>> board.san(Move.from_iccs("h2e2")), board.san(Move.from_iccs("h2e2"), notation="wxf")
        ('炮二平五', 'C2.5')

        Raises:
            :class:`IllegalMoveError`: ``move`` is not legal here.
            :class:`ValueError`: ``notation`` is not ``"chinese"``, ``"wxf"`` or ``"iccs"``.
        """
        if notation == "chinese":
            return notations.format_chinese(self, move, traditional=traditional, fullwidth=fullwidth)
        if notation == "wxf":
            return notations.format_wxf(self, move)
        if notation == "iccs":
            return self.uci(move)
        raise ValueError(f"notation must be one of {', '.join(notations.NOTATIONS)}, not {notation!r}")

    def lan(self, move: Move) -> str:
        """The move in long coordinate notation, ICCS with a dash: ``h2-e2`` (python-chess's ``lan``; the null
        move is ``0000``).

        >>> Board().lan(Move.from_iccs("h2e2"))
        'h2-e2'

        Raises:
            :class:`IllegalMoveError`: ``move`` is not legal here.
        """
        if move and not self.is_legal(move):
            raise IllegalMoveError(f"cannot write illegal move {move.iccs()!r} in {self.fen()}: "
                                   f"{self.illegal_reason(move)}")
        text = move.iccs()
        return text if not move else f"{text[:2]}-{text[2:]}"

    def uci(self, move: Move) -> str:
        """The move's ICCS text (the coordinates UCCI uses), ``h2e2``; as python-chess, legality is not checked.

        >>> Board().uci(Move.from_iccs("h2e2")), Board().uci(Move.null())
        ('h2e2', '0000')
        """
        return move.iccs()

    def parse_san(self, san: str) -> Move:
        """Read a move in any human notation (Chinese in every script, WXF dialects, ICCS), as :meth:`parse_move`.

        >>> Board().parse_san("炮二平五") == Board().parse_san("C2.5") == Move.from_iccs("h2e2")
        True

        Raises:
            :class:`InvalidMoveError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`: as
                :meth:`parse_move`.
        """
        return notations.parse_move(self, san)

    def push_san(self, san: str) -> Move:
        """Read a move as :meth:`parse_san`, play it and return it.

        >>> board = Board(); board.push_san("炮二平五"); board.push_san("H8+7"); len(board.move_stack)
        Move.from_iccs('h2e2')
        Move.from_iccs('h9g7')
        2

        Raises:
            :class:`InvalidMoveError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`: as
                :meth:`parse_move`; the board is unchanged.
        """
        move = notations.parse_move(self, san)
        self.push(move)
        return move

    def san_and_push(self, move: Move, *, notation: str = "chinese") -> str:
        """:meth:`san` of ``move``, then play it.

        >>> board = Board(); board.san_and_push(Move.from_iccs("h2e2")), board.turn
        ('炮二平五', False)

        Raises:
            :class:`IllegalMoveError` or :class:`ValueError`: as :meth:`san`; the board is unchanged.
        """
        text = self.san(move, notation=notation)
        self.push(move)
        return text

    def push_move(self, text: str, *, one_based: bool = False) -> Move:
        """Parse a move in any notation, play it and return it.

        >>> board = Board(); [board.push_move(t) for t in ("炮二平五", "h9g7", "H2+3")]
        [Move.from_iccs('h2e2'), Move.from_iccs('h9g7'), Move.from_iccs('h0g2')]

        Raises:
            :class:`InvalidMoveError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`: as
                :meth:`parse_move`; the board is unchanged.
        """
        move = self.parse_move(text, one_based=one_based)
        self.push(move)
        return move

    def outcome(self, *, claim_draw: bool = False, rules: str = "axf") -> Optional[Outcome]:
        """The game's outcome, or ``None`` while it goes on.

        Checkmate and stalemate lose for the side to move; repetition rulings and the natural move limit
        come from :mod:`xiangqi.rules` (``rules`` is ``"axf"``, Asian, or ``"cxa"``, Chinese). In xiangqi
        these are the referee's rulings, not claims, so they end the game without ``claim_draw``.
        ``claim_draw=True`` (python-chess's switch for the draws a player may claim) also ends it in a draw
        when neither side has anything left to attack with (:meth:`is_insufficient_material`,
        :attr:`Termination.INSUFFICIENT_MATERIAL`).

        >>> Board().outcome() is None
        True
        >>> Board("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b").outcome()
        Outcome(termination=<Termination.CHECKMATE: 1>, winner=True, reason='Black is checkmated and loses', reason_zh='黑方被将死，负')
        >>> bare = Board("3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w")
        >>> bare.outcome() is None, bare.outcome(claim_draw=True).result()
        (True, '1/2-1/2')

        Raises:
            :class:`InvalidFenError`: a side has no king (a position being set up has no outcome).
            :class:`ValueError`: ``rules`` names no rule set.
        """
        self._require_kings("outcome()")
        if not self.legal_moves:
            return no_move_outcome(self.turn, self.is_check())
        ruled = rulings.adjudicate(self, rules=rules_name(rules))
        if ruled is None and claim_draw and self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, winner=None,
                           reason="neither side has a rook, horse, cannon or pawn left: drawn",
                           reason_zh="双方均无进攻子力，和棋")
        return ruled

    def result(self, *, claim_draw: bool = False, rules: str = "axf") -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` from :meth:`outcome`, or ``"*"`` while the game goes on.

        >>> Board().result(), Board("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b").result()
        ('*', '1-0')

        Raises:
            :class:`InvalidFenError` or :class:`ValueError`: as :meth:`outcome`.
        """
        outcome = self.outcome(claim_draw=claim_draw, rules=rules)
        return "*" if outcome is None else outcome.result()

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """Whether :meth:`outcome` (with the same ``claim_draw``) is not ``None``, under the Asian rules.

        >>> Board().is_game_over(), Board("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b").is_game_over()
        (False, True)

        Raises:
            :class:`InvalidFenError`: as :meth:`outcome`.
        """
        return self.outcome(claim_draw=claim_draw) is not None

    def diagram(self, *, chinese: bool = False) -> str:
        """A text diagram, rank 9 at the top.

        ``chinese=True`` draws Red's pieces as 帅仕相俥傌炮兵 and Black's as 将士象车马砲卒, every cell one
        full-width character (empty points ．), so the columns line up under ａ…ｉ in a terminal.

        >>> print(Board("4k4/9/9/9/9/9/9/9/9/4K4 w").diagram(chinese=True).splitlines()[0])
        9 ．．．．将．．．．
        """
        codes = self.piece_codes()
        rows = []
        for r in range(9, -1, -1):
            cells = []
            for f in range(9):
                code = codes[r * 9 + f]
                if code:
                    sym = Piece(code & 7, bool(code >> 3)).symbol()
                    cells.append(_DIAGRAM_CHINESE[sym] if chinese else sym)
                else:
                    cells.append("．" if chinese else ".")
            rows.append(f"{r} " + ("" if chinese else " ").join(cells))
        rows.append("  " + ("" if chinese else " ").join("ａｂｃｄｅｆｇｈｉ" if chinese else "abcdefghi"))
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.diagram()

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (Jupyter shows it inline): last move and check highlighted."""
        from xiangqi import svg  # loaded only when a board is drawn, as python-chess loads chess.svg

        return svg.board(self, lastmove=self.peek() if self.move_stack else None,
                         check=self.king(self.turn) if self.is_check() else None, size=400)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    # ---- rulings (xiangqi.rules)

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position has occurred at least ``count`` times (back to the last capture).

        >>> board = Board()
        >>> for text in ("h2e2", "h9g7", "e2h2", "g7h9") * 2: _ = board.push_iccs(text)
        >>> board.is_repetition(3), board.is_repetition(4)
        (True, False)

        Raises:
            :class:`ValueError`: ``count`` is less than 2.
        """
        return rulings.is_repetition(self, count)

    def can_claim_draw(self, rules: str = "axf") -> bool:
        """Whether a draw can be claimed: the natural limit, or a repetition where nobody alone breaks the rules.

        >>> board = Board()
        >>> for text in ("h2e2", "h9g7", "e2h2", "g7h9") * 2: _ = board.push_iccs(text)
        >>> board.can_claim_draw(), Board().can_claim_draw()
        (True, False)

        Raises:
            :class:`ValueError`: ``rules`` names no rule set.
        """
        return rulings.can_claim_draw(self, rules)

    def move_facts(self, ply: int, *, rules: str = "axf") -> MoveFacts:
        """What move ``ply`` (1-based, -1 = last) does for the rulings: check, chases (with squares and why).

        Returns a :class:`xiangqi.facts.MoveFacts`.

        >>> board = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w"); board.push_iccs("e1d1")
        Move.from_iccs('e1d1')
        >>> board.move_facts(-1).check
        True

        Raises:
            :class:`IndexError`: ``ply`` is outside 1..len(move_stack) (or -1..-len(move_stack)).
            :class:`ValueError`: ``rules`` names no rule set.
        """
        return rulings.move_facts(self, ply, rules=rules)
