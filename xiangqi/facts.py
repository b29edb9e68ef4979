"""What one move does, for the rulings: check (将), mate threat (杀) and chases (捉), as the C core finds them
(``xq_history_facts``; the definitions are in ``csrc/xq_rules.h``). :mod:`xiangqi.rules` judges loops from
them and re-exports :class:`ChaseReason`, :class:`Chase` and :class:`MoveFacts`.

>>> from xiangqi import Board
>>> board = Board("2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1"); _ = board.push_iccs("b4a4")
>>> print(board.move_facts(1).describe_zh())
第1着 红方 b4a4（车）：红车a4捉黑方无根炮a5
"""

from __future__ import annotations

import enum
from typing import List, NamedTuple, Optional, Tuple

from xiangqi._ffi.rules import CHASE_OFFSET, FACT_ILLEGAL, FACTS_SIZE, NativeHistory
from xiangqi.core import BLACK, COLOR_NAMES, PIECE_NAMES, RED, ROOK, Color, Move, Piece, Square, square_name
from xiangqi.outcome import Outcome, Termination

__all__ = ["ChaseReason", "Chase", "MoveFacts", "facts_of", "piece_words", "side_words", "no_move_outcome"]


class ChaseReason(enum.IntEnum):
    """Why an attack counts as a chase (the C ``XQ_CHASE_*`` codes).

    >>> ChaseReason.UNPROTECTED.words, ChaseReason.FALSE_ROOT.words_zh, int(ChaseReason.STRONGER)
    ('unprotected', '假根', 3)
    """

    #: 无根: no piece protects the victim.
    UNPROTECTED = 1
    #: 假根: the victim's protectors cannot legally recapture.
    FALSE_ROOT = 2
    #: The victim is worth more than the attacker: a rook attacked by a horse, cannon, advisor or elephant; under
    #: the Chinese rules also a horse or cannon attacked by an advisor or elephant.
    STRONGER = 3
    #: 少根 (Chinese rules): protected, but the exchange on its square wins material.
    SHORT_ROOT = 4
    #: Chinese rules (术语 三): won by a check or a series of checks from the next move on (连将得子);
    #: the attacker is the piece moved.
    BY_CHECKS = 5

    @property
    def words(self) -> str:
        """The English adjective for the victim (``"unprotected"`` …; empty for :attr:`STRONGER`)."""
        return _REASON_WORDS[self][0]

    @property
    def words_zh(self) -> str:
        """The Chinese term (``"无根"`` …; empty for :attr:`STRONGER`)."""
        return _REASON_WORDS[self][1]


_REASON_WORDS = {
    ChaseReason.UNPROTECTED: ("unprotected", "无根"),
    ChaseReason.FALSE_ROOT: ("falsely protected", "假根"),
    ChaseReason.STRONGER: ("", ""),
    ChaseReason.SHORT_ROOT: ("under-protected", "少根"),
    ChaseReason.BY_CHECKS: ("check-won", "连将得子"),
}


class Chase(NamedTuple):
    """One chase pair of a move: ``attacker`` newly threatens to win ``victim``.

    >>> from xiangqi import Board
    >>> board = Board("2bk1a3/4a4/4b4/9/c8/1R7/3r5/4B4/4A4/4KAB2 w - - 0 1"); _ = board.push_iccs("b4a4")
    >>> chase = board.move_facts(-1).chases[0]
    >>> chase.reason, chase.describe_zh()
    (<ChaseReason.UNPROTECTED: 1>, '红车a4捉黑方无根炮a5')
    """

    #: Square of the chasing piece after the move.
    attacker: Square
    #: Square of the chased piece.
    victim: Square
    #: The chasing piece.
    attacker_piece: Piece
    #: The chased piece.
    victim_piece: Piece
    #: Why the attack is a chase.
    reason: ChaseReason
    #: Legal recaptures on the victim's square (0 when unprotected or falsely protected).
    protectors: int
    #: Where the attacker and the victim stood at the first analysed ply (identity across moves).
    attacker_id: Square
    victim_id: Square

    def describe(self) -> str:
        """English, e.g. ``red rook h6 chases the unprotected black cannon i6``."""
        adj = self.reason.words
        return (f"{piece_words(self.attacker_piece)} {square_name(self.attacker)} chases the "
                f"{adj + ' ' if adj else ''}{piece_words(self.victim_piece)} {square_name(self.victim)}")

    def describe_zh(self) -> str:
        """Chinese, e.g. ``红车h6捉黑方无根炮i6``."""
        return (f"{piece_words(self.attacker_piece, chinese=True)}{square_name(self.attacker)}捉"
                f"{side_words(self.victim_piece.color, chinese=True)}方{self.reason.words_zh}{self.victim_piece.chinese()}"
                f"{square_name(self.victim)}")


class MoveFacts(NamedTuple):
    """What one move does, for the rulings: check, mate threat, chases.

    A null move (``0000``, :meth:`Move.null`, which :meth:`Board.push` accepts
    to pass the turn) has empty facts: ``piece`` is ``None``, no check, no
    chase, no mate threat (:attr:`null` is true).

    >>> from xiangqi import Board
    >>> board = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w"); _ = board.push_iccs("e1d1")
    >>> facts = board.move_facts(-1)
    >>> facts.kind, facts.describe_zh()
    ('check', '第1着 红方 e1d1（车）：将')
    """

    #: 1-based number of the move in the game (ply 1 is the first move after the starting FEN).
    ply: int
    #: The move played.
    move: Move
    #: The side that played it.
    color: Color
    #: The piece moved (``None`` for a null move).
    piece: Optional[Piece]
    #: The piece captured, if any.
    captured: Optional[Piece]
    #: The move checks (将).
    check: bool
    #: 杀: a mate threat by checks; ``None`` when not computed (Asian rules do not need it).
    mate_threat: Optional[bool]
    #: The mover was in check before the move.
    evasion: bool
    #: The enemy pieces the move newly chases (捉), one :class:`Chase` per (attacker, victim) pair.
    chases: Tuple[Chase, ...]
    #: The move was not legal in its position (a board filled with :meth:`Board.push` unchecked).
    illegal: bool = False

    @property
    def null(self) -> bool:
        """The move is a null move (the turn passed)."""
        return self.piece is None

    @property
    def kind(self) -> str:
        """``"check"``, ``"mate_threat"``, ``"chase"`` or ``"idle"`` (the heaviest effect, CXA 27.4)."""
        if self.check:
            return "check"
        if self.mate_threat:
            return "mate_threat"
        if self.chases:
            return "chase"
        return "idle"

    def describe(self) -> str:
        """One English line: ply, side, move, and what it does."""
        parts = []
        if self.check:
            parts.append("check")
        if self.mate_threat:
            parts.append("threatens mate")
        parts.extend(c.describe() for c in self.chases)
        what = "; ".join(parts) if parts else "idle"
        piece = "null move" if self.piece is None else piece_words(self.piece)
        return f"ply {self.ply}: {side_words(self.color)} {self.move.iccs()} ({piece}): {what}"

    def describe_zh(self) -> str:
        """One Chinese line."""
        parts = []
        if self.check:
            parts.append("将")
        if self.mate_threat:
            parts.append("杀")
        parts.extend(c.describe_zh() for c in self.chases)
        what = "；".join(parts) if parts else "闲"
        piece = "空着" if self.piece is None else self.piece.chinese()
        return f"第{self.ply}着 {side_words(self.color, chinese=True)}方 {self.move.iccs()}（{piece}）：{what}"


def side_words(color: Color, *, chinese: bool = False) -> str:
    """A side's name in the rulings' words: ``"Red"``/``"Black"`` (``"红"``/``"黑"`` with ``chinese``).

    >>> side_words(True), side_words(False, chinese=True)
    ('Red', '黑')
    """
    if chinese:
        return "红" if color else "黑"
    return COLOR_NAMES[int(color)].capitalize()


def no_move_outcome(loser: Color, checked: bool) -> Outcome:
    """The outcome when ``loser``, to move, has no legal move: checkmated when ``checked``, else stalemated
    (困毙); either way that side loses. The one wording of a mate and a stalemate (``Board.outcome`` and
    validation's reports).

    >>> no_move_outcome(False, True)
    Outcome(termination=<Termination.CHECKMATE: 1>, winner=True, reason='Black is checkmated and loses', reason_zh='黑方被将死，负')
    >>> no_move_outcome(True, False).reason
    'Red is stalemated (no legal move) and loses'
    """
    return Outcome(
        Termination.CHECKMATE if checked else Termination.STALEMATE,
        winner=not loser,
        reason=f"{side_words(loser)} is {'checkmated' if checked else 'stalemated (no legal move)'} and loses",
        reason_zh=f"{side_words(loser, chinese=True)}方{'被将死' if checked else '困毙'}，负",
    )


def piece_words(piece: Piece, *, chinese: bool = False, side: bool = True) -> str:
    """A piece with its side in the rulings' words: ``"red rook"`` (``"红车"`` with ``chinese``; without the side
    when ``side`` is false).

    >>> piece_words(Piece(ROOK, RED)), piece_words(Piece(ROOK, BLACK), chinese=True), piece_words(Piece(ROOK, RED), side=False)
    ('red rook', '黑车', 'rook')
    """
    if chinese:
        return (side_words(piece.color, chinese=True) if side else "") + piece.chinese()
    name = str(PIECE_NAMES[piece.piece_type])
    return f"{COLOR_NAMES[int(piece.color)]} {name}" if side else name


_PIECES = {code: Piece.from_code(code) for code in list(range(1, 8)) + list(range(9, 16))}
_REASONS = {int(r): r for r in ChaseReason}


def _convert(buf: bytes, index: int, ply: int, with_threats: bool) -> MoveFacts:
    o = index * FACTS_SIZE
    code = buf[o] | buf[o + 1] << 8
    mover, captured, check, kill, evasion, flags, n_chases = buf[o + 2:o + 9]
    chases = []
    c = o + CHASE_OFFSET
    for _ in range(n_chases):
        a, v, aid, vid, ap, vp, reason, prot = buf[c:c + 8]
        chases.append(Chase(a, v, _PIECES[ap], _PIECES[vp], _REASONS[reason], prot, aid, vid))
        c += 8
    return MoveFacts(ply, Move(code >> 7, code & 127), bool(mover >> 3), _PIECES.get(mover),
                     _PIECES[captured] if captured else None, bool(check),
                     bool(kill) if with_threats else None, bool(evasion), tuple(chases), bool(flags & FACT_ILLEGAL))


def facts_of(history: NativeHistory, start: int, end: int, flags: int, with_threats: bool) -> List[MoveFacts]:
    """The facts of plies ``start``..``end`` (1-based, inclusive) of a game as the C core keeps it, with the
    C facts ``flags`` of a rule set (:meth:`xiangqi.rulesets.RuleSet.facts_flags`); ``with_threats``: the mate
    threats were asked for (otherwise :attr:`MoveFacts.mate_threat` is ``None``).

    >>> from xiangqi import Board
    >>> board = Board("3k5/9/9/9/9/9/9/9/4R4/4K4 w"); _ = board.push_iccs("e1d1")
    >>> [f.kind for f in facts_of(NativeHistory.of_board(board, 1), 1, 1, 0, False)]
    ['check']
    """
    if end < start:
        return []
    raw = history.raw_facts(start - 1, end, flags)
    return [_convert(raw, i, start + i, with_threats) for i in range(end - start + 1)]
