"""A user's script, type-checked by ``mypy --strict`` against the installed package (``.ci/run``).

It runs too (``python tests/typing/user_script.py``), so the types it relies on are the ones the library returns.
"""

from __future__ import annotations

import copy
import gzip
import io
import os
import pickle
import tempfile
from typing import List, Optional

import numpy as np
import numpy.typing as npt

import xiangqi
from xiangqi import BLACK, RED, Board, Move, Outcome, Piece, SquareSet, batch, notation, pgn, rules
from xiangqi.game import Game, GameNode


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
    edited.board_fen = edited.board_fen()
    assert removed is not None and edited.turn is RED
    line: str = board.variation_san([Move.from_iccs("c6c5")], notation="wxf")
    text: str = notation.format_chinese(board, Move.from_iccs("c6c5"))
    codes: List[int] = notation.parse_game(None, ["h2e2", "0000", "h0g2"])
    outcome: Optional[Outcome] = board.outcome()
    result: str = board.result()
    facts: rules.MoveFacts = board.move_facts(-1)
    perfts: npt.NDArray[np.uint64] = batch.perft([board, xiangqi.STARTING_FEN], 2)
    assert line and text and codes and outcome is None and result == "*" and facts.ply == 3 and perfts.shape == (2,)



def records() -> None:
    game = pgn.read_game(io.StringIO("1. h2e2 h9g7 2. h0g2 -- *\n"))
    assert game is not None
    end: GameNode = game.end()
    board: Board = end.board()
    move: Move = board.push_iccs("i0h0")
    start: Board = game.board()
    copied = Game.from_board(board)
    copied.setup(start)
    text: str = pgn.game_to_string(game, notation="wxf")
    assert move and start.ply() == 0 and "H2+3" in text and copied.board() == start
    replay = pgn.replay_mainline(next(pgn.scan_games(text.encode("utf-8"))))
    after: Optional[Board] = replay.board
    assert after is not None and after.fen() == end.board().fen()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "game.pgn.gz")
        with gzip.open(path, "wt", encoding="utf-8") as out:
            pgn.write_game(game, out)
        with gzip.open(path) as handle:  # a binary handle of its own class, not an IO[bytes]
            again = pgn.read_game(handle)
        assert again is not None and again.mainline_moves() == game.mainline_moves()


if __name__ == "__main__":
    main()
    records()
