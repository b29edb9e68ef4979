"""A user's script, type-checked by ``mypy --strict`` against the installed package (``.ci/run``).

It runs too (``python tests/typing/user_script.py``), so the types it relies on are the ones the library returns.
"""

from __future__ import annotations

import copy
import pickle
from typing import List, Optional

import numpy as np
import numpy.typing as npt

import xiangqi
from xiangqi import BLACK, RED, Board, Move, Outcome, Piece, SquareSet, batch, notation, rules


def play(line: List[str]) -> Board:
    board = Board()
    for text in line:
        move: Move = board.push_move(text)
        assert move in board.move_stack
    return board


def main() -> None:
    board = play(["炮二平五", "马8进7", "h0g2"])
    ply: int = board.ply()
    n: int = board.legal_moves.count()
    null: Move = Move.null()
    board.push(null)
    board.pop()
    again: Board = pickle.loads(pickle.dumps(board))
    same: Board = copy.deepcopy(board)
    assert again == same == board and ply == 3 and n > 0 and not null
    pinned: bool = board.is_pinned(RED, xiangqi.parse_square("e0"))
    pin: SquareSet = board.pin(BLACK, 0)
    attacked: SquareSet = board.attacks(xiangqi.parse_square("e2"))
    either: SquareSet = (pin - attacked) | ~attacked
    assert not pinned and len(either) > 0
    mirrored: Board = board.mirror()
    flipped: Board = board.flip()
    assert mirrored.perft(2) == flipped.perft(2) == board.perft(2)
    edited = board.copy()
    edited.set_piece_at(xiangqi.parse_square("a3"), None)
    removed: Optional[Piece] = edited.remove_piece_at(xiangqi.parse_square("c3"))
    edited.turn = RED
    assert removed is not None and edited.turn is RED
    line: str = board.variation_text([Move.from_iccs("c6c5")], notation="wxf")
    text: str = notation.format_chinese(board, Move.from_iccs("c6c5"))
    codes: List[int] = notation.parse_game(None, ["h2e2", "0000", "h0g2"])
    outcome: Optional[Outcome] = board.outcome()
    result: str = board.result()
    facts: rules.MoveFacts = board.move_facts(-1)
    perfts: npt.NDArray[np.uint64] = batch.perft([board, xiangqi.STARTING_FEN], 2)
    assert line and text and codes and outcome is None and result == "*" and facts.ply == 3 and perfts.shape == (2,)


if __name__ == "__main__":
    main()
