"""The Python Board: python-chess-style API over the C core."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import xiangqi
from xiangqi import (
    BLACK, HORSE, RED, ROOK, STARTING_FEN, Board, IllegalMoveError, InvalidFenError, InvalidMoveError, Move, Piece,
    SquareSet, Status, Termination,
)


def test_start_position_basics():
    b = Board()
    assert b.fen() == STARTING_FEN
    assert b.turn is RED
    assert b.piece_at(0) == Piece(ROOK, RED)
    assert b.piece_at(89 - 1) == Piece(HORSE, BLACK)
    assert b.piece_at(40) is None
    assert len(b.legal_moves) == 44 and len(list(b.legal_moves)) == 44
    assert Move.from_iccs("h2e2") in b.legal_moves
    assert Move.from_iccs("h2h9") in b.legal_moves  # cannon capture over the h7 screen
    assert Move.from_iccs("h2h8") not in b.legal_moves
    assert b.king(RED) == 4 and b.king(BLACK) == 85
    assert not b.is_check() and not b.is_checkmate() and not b.is_stalemate() and not b.is_game_over()
    assert b.outcome() is None
    assert b.is_valid()


def test_push_pop_peek_and_stack():
    b = Board()
    key0 = b.zobrist_hash()
    moves = ["h2e2", "h9g7", "h0g2", "i9h9"]
    for m in moves:
        b.push_iccs(m)
    assert [m.iccs() for m in b.move_stack] == moves
    assert b.peek() == Move.from_iccs("i9h9")
    assert b.ply() == 4 and b.fullmove_number == 3 and b.halfmove_clock == 4
    for m in reversed(moves):
        assert b.pop() == Move.from_iccs(m)
    assert b.fen() == STARTING_FEN and b.zobrist_hash() == key0
    with pytest.raises(IndexError):
        b.pop()


def test_stack_grows_past_initial_capacity():
    b = Board()
    shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"]
    for i in range(300):
        b.push_iccs(shuffle[i % 4])
    assert b.fen().split()[0] == STARTING_FEN.split()[0]
    while b.move_stack:
        b.pop()
    assert b.fen() == STARTING_FEN


def test_key_history_matches_replay():
    b = Board()
    for m in ["h2e2", "h9g7", "h0g2", "i9h9", "e2e6"]:
        b.push_iccs(m)
    keys = b.key_history()
    replay = Board()
    assert keys[0] == replay.zobrist_hash()
    for i, m in enumerate(b.move_stack):
        replay.push(m)
        assert keys[i + 1] == replay.zobrist_hash()
    assert b.captured_history()[-1] == 1  # e2e6 captures the black pawn (code 0<<3|1)


def test_parse_iccs_errors_name_input_and_position():
    b = Board()
    with pytest.raises(InvalidMoveError, match="h2z2"):
        b.parse_iccs("h2z2")
    with pytest.raises(IllegalMoveError) as exc:
        b.parse_iccs("e3e5")
    assert "e3e5" in str(exc.value) and STARTING_FEN in str(exc.value)
    with pytest.raises(IllegalMoveError, match="no piece on e1"):
        b.parse_iccs("e1e2")
    with pytest.raises(IllegalMoveError, match="is a Black cannon, but Red is to move"):
        b.parse_iccs("h7e7")
    assert isinstance(IllegalMoveError("x"), ValueError)


def test_one_based_coordinates_only_when_asked():
    b = Board()
    assert b.parse_iccs("h3e3", one_based=True) == Move.from_iccs("h2e2")
    assert b.parse_iccs("H2-E2") == Move.from_iccs("h2e2")
    b.push_iccs("h2e2")
    assert b.parse_iccs("a10a9", one_based=True) == Move.from_iccs("a9a8")
    with pytest.raises(InvalidMoveError):
        b.parse_iccs("a10a9")


def test_push_rejects_memory_unsafe_moves():
    b = Board()
    with pytest.raises(IllegalMoveError):
        b.push(Move.from_iccs("e4e5"))
    assert b.fen() == STARTING_FEN and b.move_stack == []


def test_checkmate_is_a_loss_for_the_side_to_move():
    # Red rook mates on the back rank: black king e9 boxed in by its advisors.
    b = Board("3k5/1R7/9/9/9/9/9/9/9/R3K4 w")
    b.push_iccs("a0a9")
    assert b.is_check() and b.is_checkmate()
    out = b.outcome()
    assert out is not None and out.termination == Termination.CHECKMATE and out.winner is RED
    assert out.result() == "1-0" and "Black" in out.reason


def test_stalemate_loses_in_xiangqi():
    # Black king on d9 with no move and not in check: the red pawn on d7 guards d8,
    # the rook on the e-file guards e9/e8 (and flying general rules nothing out).
    b = Board("3k5/9/3P5/9/9/9/9/9/9/4RK3 b")
    assert not b.is_check()
    assert len(b.legal_moves) == 0
    assert b.is_stalemate() and not b.is_checkmate()
    out = b.outcome()
    assert out is not None and out.termination == Termination.STALEMATE and out.winner is RED


def test_flying_general_makes_moves_illegal():
    b = Board("4k4/9/9/9/9/4R4/9/9/9/4K4 w")  # red rook alone between the kings
    rook_moves = [m.iccs() for m in b.legal_moves if m.from_square == 40]
    assert rook_moves and all(m[2] == "e" for m in rook_moves)


def test_cannon_check_by_arriving_screen():
    # Red cannon e5, black king e9, nothing between: moving a black piece onto the
    # file would create a screen; moving a red piece there gives check.
    b = Board("4k4/9/9/9/9/9/2N6/9/4C4/3K5 w")
    assert not b.is_check() and not b.gives_check(Move.from_iccs("c3b5"))
    assert b.gives_check(Move.from_iccs("c3e4"))
    b.push_iccs("c3e4")
    assert b.is_check() and b.checkers() == SquareSet([13])
    # Black may not answer with a piece that removes nothing: only king moves or a second screen help.
    assert all(b.copy().is_legal(m) for m in b.legal_moves)


def test_attackers_and_checkers():
    b = Board()
    assert b.attackers(RED, 82) == SquareSet([19])  # red cannon b2 hits the black horse on b9
    assert b.checkers() == SquareSet()
    with pytest.raises(ValueError):
        b.attackers(RED, 90)


def test_attack_map_shape_and_orientation():
    b = Board()
    red = b.attack_map(RED)
    assert red.shape == (10, 9) and red.dtype == np.uint8
    # Row 0 of the array is rank 9: the red cannons hit the black horses on b9 and h9.
    assert red[0, 1] == 1 and red[0, 7] == 1
    assert int(red.sum()) == sum(len(b.attackers(RED, sq)) for sq in range(90))
    black = b.attack_map(BLACK)
    assert black[9, 1] == 1 and black[9, 7] == 1


def test_copy_is_independent():
    b = Board()
    b.push_iccs("h2e2")
    c = b.copy()
    c.push_iccs("h9g7")
    assert len(b.move_stack) == 1 and len(c.move_stack) == 2
    assert c.pop() == Move.from_iccs("h9g7") and c.pop() == Move.from_iccs("h2e2")
    d = b.copy(stack=False)
    assert d.move_stack == [] and d.fen() == b.fen()


def test_diagrams():
    b = Board()
    text = str(b)
    assert text.splitlines()[0] == "9 r n b a k a b n r"
    assert text.splitlines()[-1] == "  a b c d e f g h i"
    zh = b.diagram(chinese=True)
    assert zh.splitlines()[0] == "9 车马象士将士象马车" and zh.splitlines()[9] == "0 俥傌相仕帅仕相傌俥"


def test_status_flags():
    assert Board("4k4/9/9/9/9/9/9/9/9/4K4 w").status() & Status.KINGS_FACING
    assert Board("3k5/9/9/9/9/9/9/4A4/9/4K4 w").status() & Status.ADVISOR_OUTSIDE_REGION
    assert Board("3k5/9/9/9/9/9/9/P8/9/4K4 w").status() & Status.PAWN_ON_IMPOSSIBLE_SQUARE
    # Side not to move in check: Black to move, but the red king is attacked.
    assert Board("5k3/9/9/9/9/9/9/9/4r4/3K5 w").status() == Status.VALID
    assert Board("5k3/9/9/9/9/9/9/9/9/3Kr4 b").status() & Status.OPPOSITE_CHECK


def test_invalid_fen_messages():
    with pytest.raises(InvalidFenError) as exc:
        Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w")
    assert "no red king" in str(exc.value)
    with pytest.raises(InvalidFenError) as exc:
        Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w")
    assert exc.value.offset == len("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR")
    with pytest.raises(InvalidFenError, match="non-ASCII"):
        Board("rnbakabnr/９/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
    with pytest.raises(TypeError):
        Board(123)  # type: ignore[arg-type]


def test_perft_api():
    assert xiangqi.perft(depth=3) == 79666
    assert Board().perft(3) == 79666
    assert xiangqi.perft(depth=3, bulk=False) == 79666
    assert xiangqi.perft(depth=4, threads=2) == 3290240
    div = xiangqi.perft(depth=2, divide=True, threads=2)
    assert len(div) == 44 and sum(div.values()) == 1920
    assert xiangqi.perft(depth=0) == 1
    with pytest.raises(ValueError):
        xiangqi.perft(depth=-1)


def test_perft_from_python_threads_runs_concurrently_and_correctly():
    results = []

    def work():
        results.append(Board().perft(4))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [3290240] * 4


def test_pseudo_legal_moves_include_self_checks():
    # The red rook on e1 is pinned by the black rook on e9... (kings on different files)
    b = Board("4r4/3k5/9/9/9/9/9/9/4R4/4K4 w")
    pseudo = {m.iccs() for m in b.pseudo_legal_moves}
    legal = {m.iccs() for m in b.legal_moves}
    assert "e1a1" in pseudo and "e1a1" not in legal
    assert legal < pseudo


def test_null_move_passes_the_turn_and_pops():
    b = Board()
    null = b.parse_iccs("0000")
    assert null == Move.null() and not null
    b.push(null)
    assert b.turn is BLACK and b.zobrist_hash() != Board().zobrist_hash()
    assert b.zobrist_hash() == Board(b.fen()).zobrist_hash()
    b.push_iccs("h9g7")
    b.pop()
    assert b.pop() == Move.null()
    assert b.fen() == STARTING_FEN and b.zobrist_hash() == Board().zobrist_hash()


def test_arguments_are_checked_with_typed_errors():
    b = Board()
    assert b.pieces(xiangqi.PAWN, RED) == SquareSet([27, 29, 31, 33, 35])
    with pytest.raises(ValueError):
        b.pieces(9, BLACK)
    with pytest.raises(ValueError):
        b.attackers(5, 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        b.attack_map(2)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Move(-1, 3)
    with pytest.raises(InvalidMoveError):
        b.push_code(1 << 20)
    with pytest.raises(TypeError):
        b.is_legal("h2e2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Move.from_iccs(b"h2e2")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        b.perft("2")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        b.perft(2 ** 40)
    with pytest.raises(ValueError):
        xiangqi.perft(depth=0, divide=True)
    assert b.fen() == STARTING_FEN


def test_push_codes_plays_a_line_in_one_call_and_stops_at_an_illegal_move():
    line = [Move.from_iccs(m).code for m in ["h2e2", "h9g7", "h0g2", "i9h9"]]
    b = Board()
    b.push_codes(line)
    ref = Board()
    for code in line:
        ref.push_code(code)
    assert b.fen() == ref.fen() and b.move_stack == ref.move_stack and b.key_history() == ref.key_history()
    b = Board()
    with pytest.raises(IllegalMoveError, match="move 3 of 3"):
        b.push_codes(line[:2] + [Move.from_iccs("e3e5").code])
    assert b.ply() == 2 and [m.iccs() for m in b.move_stack] == ["h2e2", "h9g7"]
    b = Board()
    with pytest.raises(IllegalMoveError):
        b.push_codes([1 << 14 | 5])  # not a square pair at all: refused even without the legality check
    assert b.ply() == 0
    b.push_codes([Move.from_iccs("h2h9").code], check_legal=False)  # pseudo-legal capture, pushed unchecked
    b.pop()
    long_line = [Move.from_iccs(m).code for m in ["h0g2", "h9g7", "g2h0", "g7h9"]] * 50
    b.push_codes(long_line)
    assert b.ply() == 200 and b.board_fen() == Board().board_fen()
    while b.move_stack:
        b.pop()
    assert b.fen() == STARTING_FEN
