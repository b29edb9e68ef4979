"""What a record's tags say, for every format: its result (the ``Result`` tag, or the words some files use
instead of a token) and its start position (the ``FEN`` tag), with what makes a position one no game can start
from. :mod:`xiangqi.game` re-exports these names.

>>> normalize_result("和棋"), start_fen({"FEN": " "}) == STARTING_FEN, start_board(start_fen({})).fen() == STARTING_FEN
('1/2-1/2', True, True)
"""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional

from xiangqi.board import Board
from xiangqi.core import STARTING_FEN
from xiangqi.errors import InvalidFenError

__all__ = [
    "RESULTS", "RESULT_WORDS", "normalize_result", "STATUS_WORDS", "position_problems", "require_playable",
    "start_fen", "start_board", "misplaced_start_board",
]

#: Game termination markers.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: Words some files use instead of a result token, and the result each stands for.
RESULT_WORDS: Dict[str, str] = {
    "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "*": "*", "½-½": "1/2-1/2",
    "红胜": "1-0", "紅勝": "1-0", "黑胜": "0-1", "黑勝": "0-1", "和棋": "1/2-1/2", "和局": "1/2-1/2",
}


def normalize_result(text: Optional[str]) -> Optional[str]:
    """The result (one of :data:`RESULTS`) a result token or ``Result`` tag value stands for, or ``None``.

    >>> normalize_result("紅勝"), normalize_result(" 1/2 - 1/2 "), normalize_result("?")
    ('1-0', '1/2-1/2', None)
    """
    if text is None:
        return None
    got = RESULT_WORDS.get(text)
    if got is not None:
        return got
    t = text.strip()
    return RESULT_WORDS.get(t, RESULT_WORDS.get(t.replace(" ", ""), None))


#: What each bit of :meth:`Board.status() <xiangqi.position.BaseBoard.status>` says is wrong with a start position.
STATUS_WORDS: Dict[int, str] = {
    1: "a king outside its palace", 2: "an advisor off the advisor squares", 4: "an elephant off the elephant squares",
    8: "a pawn on a square no pawn can reach", 16: "the kings facing each other on an open file",
    32: "the side not to move in check", 64: "no red king", 128: "no black king",
    256: "more red pieces of a kind than the set holds", 512: "more black pieces of a kind than the set holds",
}


def position_problems(board: Board) -> List[str]:
    """What makes ``board``'s position one that cannot occur in a game, in :data:`STATUS_WORDS`; ``[]`` for none.

    >>> position_problems(Board("4k4/9/9/9/9/9/9/9/9/4K4 w")), position_problems(Board())
    (['the kings facing each other on an open file', 'the side not to move in check'], [])
    """
    status = int(board.status())
    return [w for bit, w in STATUS_WORDS.items() if status & bit]


def require_playable(board: Board, fen: Optional[str] = None) -> Board:
    """``board`` itself, if its position can occur in a game; else :class:`~xiangqi.errors.InvalidFenError`
    naming ``fen`` (the FEN as written; by default the board's) and every problem (:func:`position_problems`).

    The one rule of every command that plays from a position (``validate``,
    ``perft``, ``judge``): a :class:`~xiangqi.Board` holds such a position
    and :meth:`~xiangqi.position.BaseBoard.status` reports it, but there is
    no game to check, count or judge from it (with the kings facing, the
    side to move could take the other king).

    >>> require_playable(Board()) is not None
    True
    >>> require_playable(Board("4k4/9/9/9/9/9/9/9/9/4K4 w"), "4k4/9/9/9/9/9/9/9/9/4K4 w")
    Traceback (most recent call last):
    ...
    xiangqi.errors.InvalidFenError: invalid FEN: the position cannot occur in a game (the kings facing each other on an open file, the side not to move in check) in '4k4/9/9/9/9/9/9/9/9/4K4 w'

    Raises:
        * :exc:`~xiangqi.errors.InvalidFenError` when the position cannot occur in a game.
    """
    problems = position_problems(board)
    if problems:
        fen = board.fen() if fen is None else fen
        raise InvalidFenError(f"invalid FEN: the position cannot occur in a game ({', '.join(problems)}) in "
                              f"{fen!r}", fen=fen)
    return board


def start_fen(headers: Mapping[str, str]) -> str:
    """The FEN a record starts from: its ``FEN`` tag, or the standard start when the tag is missing or blank.

    >>> start_fen({"FEN": "4k4/9/9/9/9/9/9/9/9/3K5 w"}), start_fen({}) == STARTING_FEN
    ('4k4/9/9/9/9/9/9/9/9/3K5 w', True)
    """
    return headers.get("FEN", "").strip() or STARTING_FEN


def start_board(fen: str) -> Board:
    """The board of a record's start position (its ``FEN`` tag), as every reader and validation accept it.

    >>> start_board("4k4/9/9/9/9/9/9/9/9/3K5 w").king(True)
    3
    >>> start_board("4k4/9/9/9/9/9/9/9/9/4K4 w")
    Traceback (most recent call last):
    ...
    xiangqi.errors.InvalidFenError: invalid FEN: the position cannot occur in a game (the kings facing each other on an open file, the side not to move in check) in '4k4/9/9/9/9/9/9/9/9/4K4 w'

    Raises:
        * :exc:`~xiangqi.errors.InvalidFenError` for text that is not a FEN and for a position that cannot occur
          in a game (a piece where its side can never bring it, the kings facing each other, the side not to
          move in check).
    """
    return require_playable(Board(fen), fen)


#: The :meth:`~xiangqi.position.BaseBoard.status` bits of a piece standing where it never can (a king outside its
#: palace, an advisor or elephant off its points, a pawn behind its start): a set-up slip that the moves of a
#: record need not care about, unlike kings facing or the side not to move in check.
_MISPLACED = 1 | 2 | 4 | 8


def misplaced_start_board(fen: str) -> Optional[Board]:
    """The board of a record's ``FEN`` tag whose only problem is a piece where it can never stand (an elephant
    off its seven points, an advisor outside the palace), so that the record's moves can still be read from it;
    ``None`` for any other FEN (one :func:`start_board` accepts, or refuses for another reason). The readers
    report such a set-up in ``game.errors`` and read on, as python-chess reads a game from an invalid board.

    >>> misplaced_start_board("4k4/9/9/9/4B4/9/9/9/9/4K4 w").fen()  # an elephant on e5, where none can stand
    '4k4/9/9/9/4B4/9/9/9/9/4K4 w - - 0 1'
    >>> misplaced_start_board("4k4/9/9/9/9/9/9/9/9/4K4 w") is None  # kings facing: no game from there
    True
    """
    try:
        board = Board(fen)
    except InvalidFenError:
        return None
    status = int(board.status())
    return board if status and not status & ~_MISPLACED else None
