"""python-chess's names with their python-chess meanings (issue 20): the SAN family, mirror, copy(stack=N),
filtered generation, lenient editing, game-tree nodes."""

from __future__ import annotations

import random

import pytest

from xiangqi import Board, Move
from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError


def _random_positions(n: int, seed: int = 20) -> "list[Board]":
    """``n`` positions from random games (up to 80 plies), all different in their move stacks."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < n:
        board = Board()
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


# ---- the SAN family


def test_san_is_chinese_and_wxf_on_request() -> None:
    board = Board()
    move = Move.from_iccs("h2e2")
    assert board.san(move) == board.chinese(move) == "炮二平五"
    assert board.san(move, notation="wxf") == board.wxf(move) == "C2.5"
    assert board.san(move, notation="iccs") == board.uci(move) == "h2e2"
    assert board.san(Move.from_iccs("h0g2"), traditional=True) == "馬二進三"
    board.push(move)
    assert board.san(Move.from_iccs("h9g7")) == "马８进７"
    assert board.san(Move.from_iccs("h9g7"), fullwidth=False) == "马8进7"
    with pytest.raises(ValueError, match="notation"):
        board.san(Move.from_iccs("h9g7"), notation="san")


def test_san_lan_refuse_an_illegal_move_with_the_typed_error() -> None:
    board = Board()
    for write in (board.san, board.lan):
        with pytest.raises(IllegalMoveError, match="a0a5"):
            write(Move.from_iccs("a0a5"))
    assert board.uci(Move.from_iccs("a0a5")) == "a0a5"  # as python-chess: uci() is the text alone


def test_lan_is_iccs_with_a_dash_and_reads_back() -> None:
    board = Board()
    assert board.lan(Move.from_iccs("h2e2")) == "h2-e2"
    assert board.lan(Move.null()) == "0000"
    assert board.parse_san(board.lan(Move.from_iccs("h2e2"))) == Move.from_iccs("h2e2")


def test_parse_san_reads_every_notation_as_parse_move() -> None:
    board = Board()
    for text in ("炮二平五", "炮2平5", "砲二平五", "C2.5", "C2=5", "h2e2", "H2-E2"):
        assert board.parse_san(text) == board.parse_move(text) == Move.from_iccs("h2e2"), text
    with pytest.raises(InvalidMoveError):
        board.parse_san("Nf3")
    with pytest.raises(IllegalMoveError):
        board.parse_san("炮二进九")
    horses = Board("3k5/9/9/9/9/2N6/9/2N6/9/4K4 w")
    with pytest.raises(AmbiguousMoveError):
        horses.parse_san("马七进六")


def test_push_san_plays_and_leaves_the_board_alone_on_error() -> None:
    board = Board()
    assert board.push_san("炮二平五") == Move.from_iccs("h2e2")
    assert board.push_san("H8+7") == Move.from_iccs("h9g7")
    fen = board.fen()
    with pytest.raises(IllegalMoveError):
        board.push_san("车一进五")
    assert board.fen() == fen and len(board.move_stack) == 2


def test_san_and_push_and_variation_san_agree_with_san() -> None:
    board = Board()
    line = [Move.from_iccs(t) for t in ("h2e2", "h9g7", "h0g2", "i9h9")]
    assert board.variation_san(line) == "1. 炮二平五 马８进７ 2. 马二进三 车９平８"
    copy = board.copy()
    texts = [copy.san_and_push(m) for m in line]
    assert " ".join(texts) == "炮二平五 马８进７ 马二进三 车９平８"
    assert board.variation_san(line, notation="wxf") == "1. C2.5 H8+7 2. H2+3 R9.8"
    with pytest.raises(IllegalMoveError):
        board.variation_san([line[1]])
