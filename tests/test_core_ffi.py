"""The C core called directly: tables, FEN, make/unmake, keys, statuses."""

from __future__ import annotations

import random

import pytest

from xiangqi import Board, errors
from xiangqi._ffi import ffi, lib
from xiangqi import _ffi

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def new_pos(fen: str = START):
    pos = ffi.new("xq_pos *")
    data = fen.encode()
    assert lib.xq_pos_set_fen(pos, data, len(data), ffi.NULL) == 0
    return pos


def pos_bytes(pos) -> bytes:
    return bytes(ffi.buffer(pos))


def test_fen_round_trip_in_c():
    pos = new_pos()
    buf = ffi.new("char[]", lib.XQ_FEN_MAX)
    n = lib.xq_pos_fen(pos, buf, lib.XQ_FEN_MAX)
    assert ffi.string(buf).decode() == START and n == len(START)


def test_fen_buffer_too_small_is_reported():
    pos = new_pos()
    buf = ffi.new("char[]", 10)
    assert lib.xq_pos_fen(pos, buf, 10) == lib.XQ_E_BUFFER_SMALL


def test_syntax_error_offset():
    pos = new_pos()
    before = pos_bytes(pos)
    off = ffi.new("size_t *")
    bad = b"rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
    assert lib.xq_pos_set_fen(pos, bad, len(bad), off) == lib.XQ_E_FEN_SYNTAX
    assert off[0] == bad.index(b"x")
    assert pos_bytes(pos) == before, "a failed set_fen must leave the position unchanged"


def test_length_is_respected_without_nul():
    # Only the first len bytes are read: a valid prefix parses, the garbage after it is ignored.
    data = (START + "\x00garbage").encode()
    pos = ffi.new("xq_pos *")
    assert lib.xq_pos_set_fen(pos, data, len(START), ffi.NULL) == 0
    assert lib.xq_pos_set_fen(pos, data, len(data), ffi.NULL) == lib.XQ_E_FEN_SYNTAX


def test_do_undo_restores_bytes_and_incremental_key():
    rng = random.Random(7)
    board = Board()
    for _ in range(400):
        codes = board.legal_move_codes()
        if not codes:
            board = Board()
            continue
        before = pos_bytes(board._pos)
        for code in codes:
            undo = ffi.new("xq_undo *")
            assert lib.xq_pos_do_move(board._pos, code, undo) == 0
            assert lib.xq_pos_key(board._pos) == lib.xq_pos_key_recompute(board._pos)
            lib.xq_pos_undo_move(board._pos, undo)
            assert pos_bytes(board._pos) == before
        board.push_code(rng.choice(codes))


def test_do_move_rejects_unsafe_moves_without_changing_the_position():
    pos = new_pos()
    before = pos_bytes(pos)
    undo = ffi.new("xq_undo *")
    e0, e1, a9, e9 = 4, 13, 81, 85
    assert lib.xq_pos_do_move(pos, e1 << 7 | e0, undo) == lib.XQ_E_ILLEGAL_MOVE  # empty from-square
    assert lib.xq_pos_do_move(pos, a9 << 7 | 72, undo) == lib.XQ_E_ILLEGAL_MOVE  # black piece, red to move
    assert lib.xq_pos_do_move(pos, 0 << 7 | 1, undo) == lib.XQ_E_ILLEGAL_MOVE  # onto own piece
    assert lib.xq_pos_do_move(pos, 95 << 7 | 1, undo) == lib.XQ_E_MOVE_FORMAT
    assert lib.xq_pos_do_move(pos, 0xFFFF, undo) == lib.XQ_E_MOVE_FORMAT
    assert pos_bytes(pos) == before
    # A pseudo-move capturing the king is refused too (keeps one king per side).
    kings = new_pos("4k4/9/9/9/9/9/9/9/4R4/4K4 w")
    assert lib.xq_pos_do_move(kings, 13 << 7 | e9, undo) == lib.XQ_E_ILLEGAL_MOVE


def test_is_legal_accepts_any_value():
    pos = new_pos()
    for code in (0, 1, 0x3FFF, 0xFFFF, 90 << 7 | 3):
        assert lib.xq_pos_is_legal(pos, code) == 0


def test_tables_palace_and_horse_leg():
    # Horse on b0 (square 1): legs c0 (blocked by elephant) and b1 (free) -> a2, c2.
    board = Board()
    assert sorted(m.iccs() for m in board.legal_moves if m.from_square == 1) == ["b0a2", "b0c2"]
    # Elephant with its eye blocked cannot move there.
    board = Board("3k5/9/9/9/9/9/9/9/3P5/2B1K4 w")
    assert sorted(m.iccs() for m in board.legal_moves if m.from_square == 2) == ["c0a2"]


def test_every_status_code_has_a_name_and_maps():
    for code in (lib.XQ_E_FEN_SYNTAX, lib.XQ_E_FEN_POSITION, lib.XQ_E_MOVE_FORMAT, lib.XQ_E_ILLEGAL_MOVE,
                 lib.XQ_E_BUFFER_SMALL, lib.XQ_E_ARG):
        assert _ffi.status_str(code) not in ("ok", "unknown status")
    with pytest.raises(errors.InternalError):
        _ffi.raise_internal(lib.XQ_E_ARG, "test")


def test_null_arguments_do_not_crash():
    assert lib.xq_pos_set_fen(ffi.NULL, b"x", 1, ffi.NULL) == lib.XQ_E_ARG
    assert lib.xq_gen_legal(ffi.NULL, ffi.NULL, 0) == lib.XQ_E_ARG
    assert lib.xq_perft(ffi.NULL, 3, 1) == 0
    pos = new_pos()
    assert lib.xq_perft(pos, -1, 1) == 0
    assert lib.xq_perft_divide(pos, 0, 1, ffi.new("xq_move[1]"), ffi.new("uint64_t[1]"), 1) == lib.XQ_E_ARG
    assert lib.xq_gen_legal(pos, ffi.new("xq_move[4]"), 4) == lib.XQ_E_BUFFER_SMALL


def test_version_matches_package():
    import xiangqi
    assert ffi.string(lib.xq_version()).decode() == xiangqi.__version__


def test_undo_move_refuses_records_that_cannot_be_the_last_move():
    pos = new_pos()
    before = pos_bytes(pos)
    bad = ffi.new("xq_undo *")
    for move in (127 << 7 | 127, 0, 40 << 7 | 41, 4 << 7 | 13):  # off the board, null, empty to-square, wrong side
        bad.move = move
        assert lib.xq_pos_undo_move(pos, bad) == lib.XQ_E_ARG
    assert pos_bytes(pos) == before
    good = ffi.new("xq_undo *")
    assert lib.xq_pos_do_move(pos, 25 << 7 | 22, good) == 0
    assert lib.xq_pos_undo_move(pos, good) == 0
    assert pos_bytes(pos) == before


def test_public_functions_accept_null_pointers():
    out = ffi.new("uint64_t[2]", [1, 1])
    lib.xq_pos_checkers(ffi.NULL, out)
    assert list(out) == [0, 0]
    assert lib.xq_pos_in_check(ffi.NULL) == 0
    assert lib.xq_pos_key(ffi.NULL) == 0 and lib.xq_pos_key_recompute(ffi.NULL) == 0
    lib.xq_pos_copy(ffi.NULL, new_pos())
    lib.xq_pos_do_null(ffi.NULL, ffi.NULL)
    lib.xq_pos_undo_null(ffi.NULL, ffi.NULL)
    assert lib.xq_pos_undo_move(ffi.NULL, ffi.NULL) == lib.XQ_E_ARG
    lib.xq_pos_pieces(ffi.NULL, 1, 1, out)
    assert list(out) == [0, 0]


def test_stale_build_is_detected(tmp_path):
    import shutil
    from pathlib import Path

    csrc = Path(_ffi.__file__).resolve().parent.parent / "csrc"
    if not (csrc / "ffibuild.py").is_file():
        pytest.skip("an installed package: no csrc/ beside it to compare with")
    copy = tmp_path / "csrc"
    shutil.copytree(csrc, copy, ignore=shutil.ignore_patterns("build"))
    _ffi._check_build(copy)  # the very sources the module was built from
    (copy / "movegen.c").write_text((copy / "movegen.c").read_text() + "\n/* changed */\n")
    with pytest.raises(ImportError, match="stale compiled module"):
        _ffi._check_build(copy)


def test_pos_check_refuses_structs_that_disagree_with_their_board():
    pos = new_pos()
    assert lib.xq_pos_check(pos) == 0
    for field, value in (("side", 2), ("fullmove", 0), ("key", 12345)):
        bad = ffi.new("xq_pos *")
        lib.xq_pos_copy(bad, pos)
        setattr(bad, field, value)
        assert lib.xq_pos_check(bad) == lib.XQ_E_FEN_POSITION, field
    bad = ffi.new("xq_pos *")
    lib.xq_pos_copy(bad, pos)
    bad.board[40] = 9  # a red pawn on e4 that no bitboard knows about
    assert lib.xq_pos_check(bad) == lib.XQ_E_FEN_POSITION
    bad = ffi.new("xq_pos *")
    lib.xq_pos_copy(bad, pos)
    bad.king_sq[1] = 3
    assert lib.xq_pos_check(bad) == lib.XQ_E_FEN_POSITION
    ffi.buffer(bad)[:] = b"\xff" * ffi.sizeof("xq_pos")
    assert lib.xq_pos_check(bad) == lib.XQ_E_FEN_POSITION


def test_a_side_without_a_king_only_with_the_flag():
    fen = b"9/9/9/9/9/9/9/9/4r4/3K5 w"
    pos = ffi.new("xq_pos *")
    assert lib.xq_pos_set_fen(pos, fen, len(fen), ffi.NULL) == lib.XQ_E_FEN_POSITION
    assert lib.xq_pos_set_fen_flags(pos, fen, len(fen), ffi.NULL, 0) == lib.XQ_E_FEN_POSITION
    assert lib.xq_pos_set_fen_flags(pos, fen, len(fen), ffi.NULL, lib.XQ_FEN_ALLOW_NO_KING) == 0
    assert pos.king_sq[1] == 3 and pos.king_sq[0] == lib.XQ_SQ_NONE == 90
    # Not a position for the functions that need both kings (batch, replay, search check it).
    assert lib.xq_pos_check(pos) == lib.XQ_E_FEN_POSITION
    two = b"9/9/9/9/9/9/9/9/3K5/3K5 w"
    assert lib.xq_pos_set_fen_flags(pos, two, len(two), ffi.NULL, lib.XQ_FEN_ALLOW_NO_KING) == lib.XQ_E_FEN_POSITION
    empty = b"9/9/9/9/9/9/9/9/9/9 b"
    assert lib.xq_pos_set_fen_flags(pos, empty, len(empty), ffi.NULL, lib.XQ_FEN_ALLOW_NO_KING) == 0
    assert list(pos.king_sq) == [90, 90] and lib.xq_count_legal(pos) == 0 and not lib.xq_pos_in_check(pos)
    out = ffi.new("uint64_t[2]")
    lib.xq_pos_checkers(pos, out)
    assert out[0] == out[1] == 0


def test_run_stoppable_gives_every_result_in_order_and_refuses_a_set_stop_flag() -> None:
    """The thread runner returns the calls' results in call order with any number of threads, and a stop flag set
    before it starts is an error, not a wait for calls that no worker will run."""
    calls = [lambda k=k: k * k for k in range(50)]
    done = []
    for threads in (1, 2, 7):
        assert _ffi.run_stoppable(calls, threads, _ffi.new_stop_flag(), lambda i, r: done.append(i)) == \
            [k * k for k in range(50)]
    assert sorted(done) == sorted(list(range(50)) * 3)
    flag = _ffi.new_stop_flag()
    flag[0] = 1
    with pytest.raises(errors.InternalError, match="stop flag was set"):
        _ffi.run_stoppable(calls, 2, flag)
