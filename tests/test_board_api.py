"""The python-chess habits on Board: null moves, square names in messages, pickling, editing, set API."""

from __future__ import annotations

import io

import pytest

import xiangqi
from xiangqi import BLACK, RED, STARTING_FEN, Board, Move, SquareSet
from xiangqi import notation as N
from xiangqi import pgn
from xiangqi.core import SAME_SQUARE_REASON
from xiangqi.errors import IllegalMoveError, InvalidMoveError

# --------------------------------------------------------------------------------------------- null moves


def test_null_move_is_false_and_written_0000() -> None:
    null = Move.null()
    assert not null and null.iccs() == "0000" and null.code == 0
    assert Move.from_iccs("0000") == Move.from_iccs("--") == Move.from_code(0) == null
    assert all(Move(f, t) for f in range(90) for t in range(90) if f != t)


@pytest.mark.parametrize("text", ["a0a0", "e0e0", "i9i9", "E5-E5"])
def test_same_square_moves_are_refused_everywhere_with_one_message(text: str) -> None:
    board = Board()
    calls = [
        lambda: Move.from_iccs(text), lambda: board.parse_iccs(text), lambda: board.push_iccs(text),
        lambda: board.parse_move(text), lambda: N.parse_iccs(board, text), lambda: N.parse_move(board, text),
        lambda: N.parse_game(None, [text]),
    ]
    for call in calls:
        with pytest.raises(InvalidMoveError, match=SAME_SQUARE_REASON.replace("(", r"\(").replace(")", r"\)")):
            call()
    sq = xiangqi.parse_square(text.lower()[:2])
    # Move(0, 0) is the null move itself; every other square paired with itself is refused as a Move or code.
    for call in [lambda: Move(sq, sq), lambda: Move.from_code(sq << 7 | sq), lambda: board.push_code(sq << 7 | sq),
                 lambda: board.push_codes([sq << 7 | sq])] if sq else []:
        with pytest.raises(InvalidMoveError, match="from and to squares are the same"):
            call()
    assert board.fen() == STARTING_FEN and not board.move_stack
    game = pgn.read_game(io.StringIO(f"1. h2e2 {text} *\n"))
    assert game is not None and [e.reason for e in game.errors] == [f"invalid move {text!r}: {SAME_SQUARE_REASON}"]


def test_null_move_in_every_notation() -> None:
    board = Board()
    for text in ("0000", "--", " -- "):
        assert board.parse_move(text) == board.parse_chinese(text) == board.parse_wxf(text) == Move.null()
    assert board.chinese(Move.null()) == board.wxf(Move.null()) == N.format_iccs(Move.null()) == "0000"
    codes = [3222, 0, 920]
    for to in N.NOTATIONS:
        texts = N.format_game(None, codes, to=to)
        assert texts[1] == "0000" and N.parse_game(None, texts) == codes


@pytest.mark.parametrize("notation", ["iccs", "chinese", "wxf"])
def test_pgn_writes_and_reads_back_null_moves(notation: str) -> None:
    game = pgn.read_game(io.StringIO("1. h2e2 -- 2. h0g2 0000 3. i0i1 {note} (3. g3g4 --) *\n"))
    assert game is not None and not game.errors
    assert [m.iccs() for m in game.mainline_moves()] == ["h2e2", "0000", "h0g2", "0000", "i0i1"]
    text = pgn.write_game(game, notation=notation)
    again = pgn.read_game(io.StringIO(text))
    assert again is not None and not again.errors
    assert [m.iccs() for m in again.mainline_moves()] == ["h2e2", "0000", "h0g2", "0000", "i0i1"]
    assert pgn.write_game(again, notation=notation) == text


def test_square_names_in_messages() -> None:
    board = Board("3k5/9/9/9/9/9/9/9/9/4K4 w")
    with pytest.raises(IllegalMoveError, match="there is no piece on a0$"):
        board.push_iccs("a0a1")
    board = Board("3k5/9/9/9/9/9/9/9/9/R3K4 w")
    assert board.illegal_reason(Move.from_iccs("a0b1")) == "the red rook on a0 cannot move to b1 by its movement rules"
    assert board.illegal_reason(Move.from_iccs("e0a0")) == "the red king on e0 cannot capture its own side's piece on a0"
    assert Board().illegal_reason(Move.null()).startswith("the null move")
