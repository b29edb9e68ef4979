"""python-chess's names with their python-chess meanings (issue 20): the SAN family, mirror, copy(stack=N),
filtered generation, lenient editing, game-tree nodes, set-up quirks in records, convert's cut games, the CLI's
position words."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from xiangqi import Board, Move
from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    from xiangqi.game import Game


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


# ---- same name, same meaning: mirror, transform, copy(stack=N), claim_draw


def test_mirror_twice_is_the_identity_and_keeps_perft_and_move_counts() -> None:
    from xiangqi import square_mirror

    for board in _random_positions(200):
        mirrored = board.mirror()
        assert mirrored.turn != board.turn and mirrored.move_stack == []
        assert mirrored.mirror().fen() == board.fen()
        assert len(mirrored.legal_moves) == len(board.legal_moves)
        assert {Move(square_mirror(m.from_square), square_mirror(m.to_square)) for m in board.legal_moves} == \
            set(mirrored.legal_moves)
        assert mirrored.perft(2) == board.perft(2)
        for sq, piece in board.piece_map().items():
            assert mirrored.piece_at(square_mirror(sq)) == type(piece)(piece.piece_type, not piece.color)


def test_apply_mirror_and_apply_transform_edit_in_place() -> None:
    from xiangqi import flip_horizontal, flip_vertical

    board = Board()
    board.push_san("炮二平五")
    board.apply_mirror()
    assert board.fen() == "rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 1 1"
    assert board.move_stack == [] and board.starting_fen == board.fen()
    board.apply_transform(flip_horizontal)
    assert board.board_fen() == "rnbakabnr/9/4c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
    # flip_vertical alone keeps the colours: the red pieces stand on Black's side
    assert Board().transform(flip_vertical).board_fen() == "RNBAKABNR/9/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/9/rnbakabnr"


def test_copy_with_a_stack_of_n_keeps_the_last_n_moves() -> None:
    for board in _random_positions(40, seed=3):
        n = len(board.move_stack)
        for keep in sorted({0, 1, 2, n // 2, n, n + 5}):
            copy = board.copy(stack=keep)
            assert copy == board and copy.move_stack == board.move_stack[n - min(keep, n):]
            # the same board as pushing those moves by hand from the position before them
            by_hand = board.copy()
            for _ in range(min(keep, n)):
                by_hand.pop()
            by_hand = by_hand.copy(stack=False)
            for move in board.move_stack[n - min(keep, n):]:
                by_hand.push(move)
            assert copy.move_stack == by_hand.move_stack and copy.starting_fen == by_hand.starting_fen
            assert copy.key_history() == by_hand.key_history() == board.key_history()[n - min(keep, n):]
            if copy.move_stack:
                copy.pop()  # the undo records came along
        assert board.copy(stack=True).move_stack == board.move_stack
        assert board.copy(stack=False).move_stack == []
    with pytest.raises(ValueError, match="stack"):
        Board().copy(stack=-1)


def test_claim_draw_adds_the_draw_by_bare_material() -> None:
    from xiangqi import Termination

    bare = Board("3ak4/4a4/4b4/9/9/9/9/9/4A4/3AK4 w")
    assert bare.is_insufficient_material() and bare.has_insufficient_material(False)
    assert bare.outcome() is None and not bare.is_game_over()
    outcome = bare.outcome(claim_draw=True)
    assert outcome is not None and outcome.termination == Termination.INSUFFICIENT_MATERIAL and outcome.winner is None
    assert bare.is_game_over(claim_draw=True) and bare.result(claim_draw=True) == "1/2-1/2"
    one_pawn = Board("3ak4/4a4/9/9/9/9/4P4/9/4A4/3AK4 w")
    assert not one_pawn.is_insufficient_material() and one_pawn.has_insufficient_material(False)
    assert one_pawn.outcome(claim_draw=True) is None
    mate = Board("3k5/3R5/3R5/9/9/9/9/9/9/4K4 b")
    assert mate.outcome(claim_draw=True) == mate.outcome()


# ---- generation and queries


def test_generate_legal_moves_with_masks_is_the_filtered_legal_moves() -> None:
    rng = random.Random(7)
    for board in _random_positions(1000, seed=11):
        from_mask, to_mask = rng.getrandbits(90), rng.getrandbits(90)
        expected = [m for m in board.legal_moves if from_mask >> m.from_square & 1 and to_mask >> m.to_square & 1]
        assert list(board.generate_legal_moves(from_mask, to_mask)) == expected
        assert list(board.generate_legal_moves()) == list(board.legal_moves)
        pseudo = [m for m in board.pseudo_legal_moves if from_mask >> m.from_square & 1 and to_mask >> m.to_square & 1]
        assert list(board.generate_pseudo_legal_moves(from_mask, to_mask)) == pseudo
        captures = [m for m in expected if board.is_capture(m)]
        assert list(board.generate_legal_captures(from_mask, to_mask)) == captures


def test_find_move_and_square_queries() -> None:
    import xiangqi
    from xiangqi import BLACK, CANNON, E0, E2, H2, RED, SquareSet

    board = Board()
    assert board.find_move(H2, E2) == Move.from_iccs("h2e2")
    with pytest.raises(IllegalMoveError, match="no matching legal move for a0a5"):
        board.find_move(xiangqi.A0, xiangqi.A5)
    with pytest.raises(IllegalMoveError, match="same"):
        board.find_move(E0, E0)
    assert board.piece_type_at(H2) == CANNON and board.color_at(H2) is RED and board.color_at(xiangqi.H7) is BLACK
    assert board.piece_type_at(xiangqi.E4) is None and board.color_at(xiangqi.E4) is None
    assert board.occupied == sum(1 << sq for sq in board.piece_map())
    assert SquareSet(board.occupied_co[RED]) == SquareSet(sq for sq, p in board.piece_map().items() if p.color)
    assert board.occupied_co[BLACK] == board.occupied & ~board.occupied_co[RED]
    assert [xiangqi.A0, xiangqi.E0, xiangqi.I0, xiangqi.A9, xiangqi.I9] == [0, 4, 8, 81, 89]
    assert all(getattr(xiangqi, name.upper()) == sq for sq, name in enumerate(xiangqi.SQUARE_NAMES))


def test_clear_board_clear_stack_empty_and_the_fullmove_setter() -> None:
    board = Board()
    board.push_san("h2e2")
    board.clear_stack()
    assert board.move_stack == [] and board.starting_fen == board.fen() and not board.turn
    board.clear_board()
    assert board.fen() == "9/9/9/9/9/9/9/9/9/9 b - - 1 1" and not board.is_valid()
    assert Board.empty().fen() == "9/9/9/9/9/9/9/9/9/9 w - - 0 1" and isinstance(Board.empty(), Board)
    board = Board()
    board.push_san("h2e2")
    board.fullmove_number = 12
    assert board.fen().endswith(" b - - 1 12") and board.move_stack == []
    with pytest.raises(ValueError, match="fullmove_number"):
        board.fullmove_number = 0


def test_square_geometry_as_python_chess() -> None:
    from xiangqi import (
        A0, A9, B2, B7, C2, E0, E9, H2, I0, I9, SquareSet, between, flip_horizontal, flip_vertical, ray,
        square_distance, square_mirror,
    )

    assert square_distance(A0, I9) == 9 and square_distance(E0, E9) == 9 and square_distance(B2, C2) == 1
    assert square_mirror(B2) == B7 and square_mirror(square_mirror(H2)) == H2
    assert between(A0, A9) == sum(1 << sq for sq in range(9, 81, 9))
    assert between(A0, I9) == 0 and between(E0, E0) == 0  # not aligned (nine files, ten ranks)
    assert between(A0, 4 * 9 + 4) == 1 << 10 | 1 << 20 | 1 << 30  # a0-e4 diagonal
    assert ray(A0, I0) == ray(I0, A0) == (1 << 9) - 1 and ray(A0, B2) == 0
    assert SquareSet.ray(E0, E9) == SquareSet(range(4, 90, 9))
    assert SquareSet.between(B2, H2).squares() == list(range(B2 + 1, H2))
    assert SquareSet.from_square(I0) == 1 << I0 and SquareSet([B2]).mirror() == SquareSet([B7])
    for bb in (1, 1 << 89, 0x1234_5678_9ABC_DEF0_1234, (1 << 90) - 1):
        assert flip_vertical(flip_vertical(bb)) == bb and flip_horizontal(flip_horizontal(bb)) == bb
    assert repr(SquareSet([E0])) == "SquareSet(0x000_0000_0000_0000_0000_0010)"
    assert str(SquareSet([A9, E0])).splitlines() == ["1 . . . . . . . ."] + [". . . . . . . . ."] * 8 + \
        [". . . . 1 . . . ."]


# ---- editing as python-chess edits


def test_edits_accept_any_placement_and_report_it_through_status() -> None:
    from xiangqi import A4, E4, HORSE, KING, PAWN, RED, Piece, Status
    from xiangqi.errors import InvalidFenError

    board = Board()
    board.set_piece_at(E4, Piece(HORSE, RED))  # a third red horse
    assert board.status() == Status.TOO_MANY_RED_PIECES and not board.is_valid()
    assert board.piece_at(E4) == Piece(HORSE, RED) and len(board.legal_moves) == 47
    assert board.perft(2) > 0 and board.copy().status() == board.status() and board.root() == board
    import pickle

    assert pickle.loads(pickle.dumps(board)) == board
    board.push(board.find_move(E4, E4 + 19))  # the new horse plays
    assert board.pop() and board.root() == board

    board = Board()
    board.set_piece_at(A4, Piece(PAWN, False))  # a sixth black pawn, over the river on a4
    assert board.status() == Status.TOO_MANY_BLACK_PIECES
    board.set_piece_map({13: Piece(KING, RED), 84: Piece(KING, False)} | {sq: Piece(HORSE, RED) for sq in range(3)})
    assert board.status() == Status.TOO_MANY_RED_PIECES and board.board_fen() == "3k5/9/9/9/9/9/9/9/4K4/NNN6"
    board.set_board_fen("4k4/9/9/9/9/9/9/9/9/K3NNN2")  # a king outside the palace and three horses
    assert board.status() == Status.KING_OUTSIDE_PALACE | Status.TOO_MANY_RED_PIECES
    # the C position holds one king a side: a second one is refused, naming it, and nothing changes
    fen = board.fen()
    with pytest.raises(InvalidFenError, match="cannot set up 2 red kings: a side has at most one king"):
        board.set_piece_at(E4, Piece(KING, RED))
    assert board.fen() == fen
    # a FEN typed by hand is still read strictly
    with pytest.raises(InvalidFenError, match="3 red horses"):
        Board("4k4/9/9/9/9/9/9/9/9/K3NNN2 w")


def test_an_edit_cannot_overflow_a_move_list() -> None:
    from xiangqi import ROOK, Piece
    from xiangqi.errors import InvalidFenError

    board = Board.empty()
    rooks = [sq for sq in range(90) if sq % 6 == 0]  # 15 rooks: 255 moves at most
    board.set_piece_map({sq: Piece(ROOK, True) for sq in rooks})
    assert len(board.legal_moves) <= 255
    with pytest.raises(InvalidFenError, match="could have more than 256 moves"):
        board.set_piece_at(1, Piece(ROOK, True))
    assert len(board.piece_map()) == 15


# ---- game-tree nodes


def _read(text: str) -> "Game":
    import io

    from xiangqi import pgn

    game = pgn.read_game(io.StringIO(text))
    assert game is not None
    return game


_ANNOTATED = """[Game "Chinese Chess"]
[Result "*"]

{[%evp 1] before the first move} 1. 炮二平五 {[%clk 0:10:00] [%eval 0.30,12] the central cannon [%cal Rh2e2]}
1... 马８进７ {[%csl Ge9,Rb0][%eval #-3]} (1... 炮８平５ {[%eval -0.5]}) 2. 马二进三 *
"""


def test_child_nodes_answer_san_uci_turn_and_where_they_stand() -> None:
    from xiangqi.game import ChildNode, Game

    game = _read(_ANNOTATED)
    first = game.next()
    assert isinstance(first, ChildNode) and first.san() == "炮二平五" and first.uci() == "h2e2"
    assert first.san(notation="wxf") == "C2.5"
    reply, other = first.variations
    assert game.turn() is True and first.turn() is False and reply.turn() is True
    assert other.starts_variation() and not reply.starts_variation() and not game.starts_variation()
    assert reply.is_mainline() and not other.is_mainline() and other.is_main_variation() is False
    black_first = Game({"FEN": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"})
    assert black_first.turn() is False and black_first.add_variation(Move.from_iccs("h9g7")).turn() is True
    with pytest.raises(ValueError, match="root"):
        game.san()


def test_annotations_are_read_from_the_comment_as_python_chess_reads_them() -> None:
    from xiangqi.engine import Cp, Mate
    from xiangqi.svg import Arrow

    game = _read(_ANNOTATED)
    first = game.next()
    assert first is not None
    reply, other = first.variations
    assert first.comment == "[%clk 0:10:00] [%eval 0.30,12] the central cannon [%cal Rh2e2]"
    assert first.clock() == 600.0 and first.eval_depth() == 12
    score = first.eval()
    assert score is not None and score.red() == Cp(30) and score.black() == Cp(-30) and score.turn is False
    assert first.arrows() == [Arrow(25, 22, "red")]
    assert reply.arrows() == [Arrow(85, 85, "green"), Arrow(1, 1, "red")]
    mated = reply.eval()
    assert mated is not None and mated.red() == Mate(-3)
    assert other.eval() is not None and other.eval().red() == Cp(-50)  # type: ignore[union-attr]
    last = reply.next()
    assert last is not None and last.clock() is None and last.eval() is None and last.arrows() == []


def test_annotation_setters_rewrite_their_command_alone_and_the_writer_keeps_them() -> None:
    from xiangqi.engine import Cp, Mate, PovScore
    from xiangqi.svg import Arrow

    game = _read(_ANNOTATED)
    first = game.next()
    assert first is not None
    first.set_clock(65.5)
    first.set_eval(PovScore(Cp(-120), False), depth=20)  # Black's view: Red is 1.2 pawns up
    first.set_arrows([(19, 22), Arrow(0, 0, "blue")])
    assert first.comment == "[%csl Ba0][%cal Gb2e2] [%clk 0:01:05.5] [%eval 1.20,20] the central cannon"
    second = first.next()
    assert second is not None
    second.set_eval(PovScore(Mate(2), True))
    second.set_arrows([])
    assert second.comment == "[%eval #2]"
    again = _read(str(game))  # written back with the comments, read back the same
    node = again.next()
    assert node is not None and node.comment == first.comment and node.clock() == 65.5
    assert node.eval_depth() == 20 and node.arrows() == [Arrow(0, 0, "blue"), Arrow(19, 22, "green")]
    first.set_clock(None)
    first.set_eval(None)
    first.set_arrows([])
    assert first.comment == "the central cannon"


# ---- no move of a real record lost for a set-up quirk

# An elephant on e4 (none can stand there) and an advisor on a4 (outside every palace); every move is legal.
_ELEPHANT_OFF = "3ak4/4a4/9/9/9/4B4/9/9/9/3AK4 w - - 0 1"
_ADVISOR_OUT = "3k5/9/9/9/9/A8/4P4/9/4R4/4K4 w - - 0 1"
_QUIRKS = [
    (_ELEPHANT_OFF, "1. 相五退三 将５平６ 2. 帅五进一 士５进６ *", ["e4g2", "e9f9", "e0e1", "e8f7"],
     "an elephant off the elephant squares"),
    (_ADVISOR_OUT, "1. e1f1 {a comment} (1. e1d1 d9e9) 1... d9e9 2. e0d0 e9e8 *", ["e1f1", "d9e9", "e0d0", "e9e8"],
     "an advisor off the advisor squares"),
]


@pytest.mark.parametrize("fen, movetext, moves, problem", _QUIRKS)
def test_a_misplaced_piece_in_the_fen_tag_loses_no_move(fen: str, movetext: str, moves: "list[str]",
                                                        problem: str) -> None:
    from xiangqi.errors import InvalidFenError

    game = _read(f'[Game "Chinese Chess"]\n[FEN "{fen}"]\n[Result "*"]\n\n{movetext}\n')
    assert [m.iccs() for m in game.mainline_moves()] == moves
    assert len(game.errors) == 1
    error = game.errors[0]
    assert error.ply == 0 and isinstance(error.error, InvalidFenError) and problem in error.reason
    assert game.end().board().move_stack == [Move.from_iccs(m) for m in moves]


@pytest.mark.parametrize("fen, movetext, moves, problem", _QUIRKS)
def test_validate_still_reports_a_misplaced_piece_as_invalid_fen(tmp_path: Path, fen: str, movetext: str,
                                                                 moves: "list[str]", problem: str) -> None:
    from xiangqi.validate import validate

    path = tmp_path / "quirk.pgn"
    path.write_text(f'[Game "Chinese Chess"]\n[FEN "{fen}"]\n[Result "*"]\n\n{movetext}\n', encoding="utf-8")
    (report,) = list(validate(str(path)))
    assert not report.ok and report.error is not None and report.error.kind == "invalid-fen"
    assert problem in report.error.message


def test_a_fen_tag_no_game_can_start_from_still_reads_no_move() -> None:
    game = _read('[Game "Chinese Chess"]\n[FEN "4k4/9/9/9/9/9/9/9/9/4K4 w"]\n[Result "*"]\n\n1. e0d0 e9f9 *\n')
    assert game.mainline_moves() == [] and "kings facing" in game.errors[0].reason


# ---- convert marks what it cut


def test_convert_writes_a_cut_game_with_result_star_and_a_comment_at_the_cut(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.convert import convert_main
    from xiangqi.xqf import read_xqf

    source = tmp_path / "cut.pgn"
    source.write_text('[Game "Chinese Chess"]\n[Result "1-0"]\n\n1. h2e2 h9g7 2. h2h9 i9h9 1-0\n\n'
                      '[Game "Chinese Chess"]\n[Result "0-1"]\n\n1. h2e2 h9g7 0-1\n', encoding="utf-8")
    out = tmp_path / "out.pgn"
    assert convert_main([str(source), str(out)]) == 1
    assert "game 1" in capsys.readouterr().err
    first, second = out.read_text(encoding="utf-8").split("\n\n[Game")
    assert '[Result "*"]' in first and '[Result "1-0"]' not in first
    assert "{cut here: the record goes on with 'h2h9', which cannot be read:" in first
    assert "(the record's result was 1-0)}" in first and first.rstrip().endswith("*")
    assert '[Result "0-1"]' in second and "cut here" not in second  # a clean game keeps its result
    assert convert_main([str(source), str(tmp_path / "one.xqf"), "--game", "1"]) == 1
    game = read_xqf(str(tmp_path / "one.xqf"))
    assert game.headers["Result"] == "*" and "cut here" in game.end().comment


def test_convert_does_not_mark_a_game_read_whole_from_a_misplaced_set_up(tmp_path: Path) -> None:
    from xiangqi.convert import convert_main

    source = tmp_path / "quirk.pgn"
    source.write_text(f'[Game "Chinese Chess"]\n[FEN "{_ELEPHANT_OFF}"]\n[Result "1/2-1/2"]\n\n'
                      "1. 相五退三 将５平６ 1/2-1/2\n", encoding="utf-8")
    out = tmp_path / "out.pgn"
    assert convert_main([str(source), str(out)]) == 1  # the set-up is reported
    text = out.read_text(encoding="utf-8")
    assert '[Result "1/2-1/2"]' in text and "cut here" not in text and "将５平６" in text


# ---- one CLI vocabulary


def _cli(*argv: str) -> "subprocess.CompletedProcess[str]":
    import os
    import sys

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    return subprocess.run([sys.executable, "-m", "xiangqi", *argv], capture_output=True, text=True, env=env,
                          timeout=120)


def test_perft_takes_startpos_and_moves_as_judge_does() -> None:
    assert _cli("perft", "--fen", "startpos", "--depth", "2").stdout.startswith("nodes 1920\n")
    assert _cli("perft", "--fen", "startpos moves h2e2", "--depth", "1").stdout.startswith("nodes 45\n")
    assert _cli("perft", "--fen", "炮二平五 马8进7", "--depth", "1").stdout.startswith(
        f"nodes {len(Board().legal_moves) and _after('h2e2', 'h9g7')}\n")
    bad = _cli("perft", "--fen", "startpos moves h2h9 x", "--depth", "1")
    assert bad.returncode == 2 and "move 2 ('x') after 1 plies" in bad.stderr


def _after(*moves: str) -> int:
    board = Board()
    for m in moves:
        board.push_san(m)
    return len(board.legal_moves)


def test_render_takes_position_words_and_writes_standard_output_by_default(tmp_path: Path) -> None:
    from xiangqi.render import position

    done = _cli("render", "startpos", "moves", "h2e2", "h9g7", "--lastmove", "--size", "90")
    assert done.returncode == 0 and done.stdout.startswith("<svg") and done.stdout.rstrip().endswith("</svg>")
    board, last = position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves h2e2")
    assert last == Move.from_iccs("h2e2") and board.move_stack == [last]
    fen = _cli("render", "4k4/9/9/9/9/9/9/9/9/3K5", "w", "d0d1", "-o", str(tmp_path / "k.svg"))
    assert fen.returncode == 0 and (tmp_path / "k.svg").read_text(encoding="utf-8").startswith("<svg")
    game = tmp_path / "g.pgn"
    game.write_text("1. h2e2 h9g7 *\n", encoding="utf-8")
    assert _cli("render", str(game), "--ply", "1").stdout.startswith("<svg")
    refused = _cli("render", str(game), "h2e2")
    assert refused.returncode == 2 and "--ply" in refused.stderr


def test_match_and_convert_write_the_same_notation_by_default() -> None:
    import inspect

    from xiangqi.match import run_match

    assert inspect.signature(run_match).parameters["notation"].default == "chinese"
    assert "default: chinese" in _cli("match", "--help").stdout.replace("\n", " ")
    assert "default: chinese" in _cli("convert", "--help").stdout.replace("\n", " ")


# ---- more of python-chess's names


def test_pseudo_legal_captures_into_check_and_reset_board() -> None:
    board = Board("4k4/9/9/9/4r4/9/9/9/4R4/4K4 w")
    assert [m.iccs() for m in board.generate_pseudo_legal_captures()] == ["e1e5"]
    assert board.is_into_check(Move.from_iccs("e1d1"))  # the rook shields its king from e5
    assert not board.is_into_check(Move.from_iccs("e1e4")) and not board.is_into_check(Move.from_iccs("a0a1"))
    for b in _random_positions(100, seed=5):
        pseudo = set(b.pseudo_legal_moves)
        assert {m for m in pseudo if b.is_into_check(m)} == pseudo - set(b.legal_moves)
        assert list(b.generate_pseudo_legal_captures()) == [m for m in b.pseudo_legal_moves if b.is_capture(m)]
    board.push_san("e1e4")
    board.reset_board()
    assert board.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 1 1"
    assert board.move_stack == []


def test_moves_have_no_promotion_or_drop() -> None:
    move = Move.from_iccs("h2e2")
    assert move.promotion is None and move.drop is None and Move.null().promotion is None
    with pytest.raises(AttributeError):
        move.promotion = 1  # type: ignore[misc]


def test_carry_rippler_and_unicode_symbols() -> None:
    from xiangqi import BLACK, KING, PAWN, RED, Piece, SquareSet

    squares = SquareSet([0, 5, 89])
    subsets = list(squares.carry_rippler())
    assert len(subsets) == 8 and len(set(subsets)) == 8 and all(SquareSet(b) <= squares for b in subsets)
    assert Piece(KING, RED).unicode_symbol() == "\U0001FA60" and Piece(PAWN, BLACK).unicode_symbol() == "\U0001FA6D"
    assert Piece(KING, RED).unicode_symbol(invert_color=True) == Piece(KING, BLACK).unicode_symbol()


def test_python_chess_keywords_piece_map_mask_set_piece_at_promoted_add_line() -> None:
    from xiangqi import KING, RED, Piece, SquareSet
    from xiangqi.game import Game

    board = Board()
    assert board.piece_map(mask=SquareSet.ray(0, 8)) == {sq: p for sq, p in board.piece_map().items() if sq < 9}
    board.set_piece_at(40, None, promoted=False)
    with pytest.raises(ValueError, match="promotion"):
        board.set_piece_at(40, Piece(KING, RED), promoted=True)
    game = Game()
    last = game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")], starting_comment="main", comment="end",
                         nags=[1])
    assert game.next().starting_comment == "main" and last.comment == "end" and last.nags == {1}  # type: ignore[union-attr]
    again = last.add_line([], comment="more")
    assert again is last and last.comment == "end more"
