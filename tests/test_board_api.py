"""The python-chess habits on Board: null moves, square names in messages, pickling, editing, set API."""

from __future__ import annotations

import io
import re

import pytest

import xiangqi
from xiangqi import BLACK, RED, STARTING_FEN, Board, Move, SquareSet, flip_horizontal
from xiangqi import notation as N
from xiangqi import pgn
from xiangqi.core import SAME_SQUARE_REASON
from xiangqi.errors import IllegalMoveError, InvalidMoveError
from xiangqi.position import parse_coordinates

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


def test_one_based_coordinates_refuse_a1a1_and_read_0000() -> None:
    """Fairy-Stockfish's ranks 1-10: 'a1a1' (a0 to a0) was read as the null move, so push_uci passed the turn."""
    board = Board()
    for call in (lambda t: board.push_uci(t, one_based=True), lambda t: board.parse_iccs(t, one_based=True),
                 lambda t: parse_coordinates(t, one_based=True), lambda t: N.parse_iccs(board, t, one_based=True)):
        for text in ("a1a1", "e5e5", "A10-A10"):
            with pytest.raises(InvalidMoveError, match=f"'{text}'.*{re.escape(SAME_SQUARE_REASON)}"):
                call(text)
    assert board.fen() == STARTING_FEN and not board.move_stack
    for call in (lambda t: board.parse_iccs(t, one_based=True), lambda t: parse_coordinates(t, one_based=True),
                 lambda t: N.parse_iccs(board, t, one_based=True)):
        assert call("0000") == call(" -- ") == Move.null()
    assert board.push_uci("h3e3", one_based=True) == Move.from_iccs("h2e2")
    assert board.push_uci("0000", one_based=True) == Move.null() and board.turn == RED


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
    assert board.illegal_reason(Move.from_iccs("a0b1")) == "the Red rook on a0 moves along a rank or a file, not to b1"
    assert board.illegal_reason(Move.from_iccs("e0a0")) == "the Red king on e0 cannot take its own rook on a0"
    assert Board().illegal_reason(Move.null()).startswith("the null move")


# --------------------------------------------------------------------------------------- pickling and copies

def _same_history(a: Board, b: Board) -> None:
    assert a.fen() == b.fen() and a.move_stack == b.move_stack and a.starting_fen == b.starting_fen
    assert a.key_history() == b.key_history() and a.captured_history() == b.captured_history()
    oa, ob = a.outcome(), b.outcome()
    assert (oa is None) == (ob is None) and (oa is None or (oa.termination, oa.winner, oa.reason) ==
                                             (ob.termination, ob.winner, ob.reason))


_PERPETUAL = ("3k5/R8/9/9/9/9/9/9/4A4/4K4 w - - 0 1", ["a8a9", "d9d8", "a9a8", "d8d9"] * 2)


def _perpetual() -> Board:
    board = Board(_PERPETUAL[0])
    for m in _PERPETUAL[1]:
        board.push_iccs(m)
    return board


def test_pickle_copy_and_deepcopy_keep_the_history_and_rulings() -> None:
    import copy
    import pickle

    board = _perpetual()
    outcome = board.outcome()
    assert outcome is not None and "perpetual check" in outcome.reason
    for other in (pickle.loads(pickle.dumps(board)), copy.deepcopy(board), copy.copy(board), board.copy()):
        assert other is not board and other == board and other._pos != board._pos
        _same_history(board, other)
        assert other.is_repetition(3) and other.move_facts(-2).check and other.move_facts(-1).evasion
        other.pop()
        assert board.move_stack[-1] == Move.from_iccs("d8d9")  # independent of the original
    short = board.copy(stack=False)
    assert short.fen() == board.fen() and short.move_stack == [] and short.starting_fen == board.fen()


class _MyBoard(Board):
    pass


def test_pickle_keeps_the_subclass_and_refuses_foreign_state() -> None:
    import pickle

    b = _MyBoard()
    b.push_iccs("h2e2")
    again = pickle.loads(pickle.dumps(b))
    assert type(again) is _MyBoard and again.move_stack == [Move.from_iccs("h2e2")]
    with pytest.raises(TypeError, match="not a pickled Board"):
        Board.__new__(Board).__setstate__({"fen": STARTING_FEN, "moves": "h2e2"})


def _ruled_in_worker(board: Board) -> "tuple[str, Board]":
    outcome = board.outcome()
    board.pop()
    return ("" if outcome is None else outcome.reason), board


def test_board_crosses_a_process_pool() -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    board = _perpetual()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        reason, back = pool.submit(_ruled_in_worker, board).result(timeout=120)
    outcome = board.outcome()
    assert outcome is not None and reason == outcome.reason
    board.pop()
    _same_history(board, back)


try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - hypothesis is in the test extra
    given = None

if given is not None:
    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.integers(0, 10_000), min_size=0, max_size=120), st.integers(0, 5))
    def test_pickle_round_trip_of_random_playouts_with_null_moves(choices: "list[int]", null_every: int) -> None:
        import pickle

        board = Board()
        for i, c in enumerate(choices):
            moves = list(board.legal_moves)
            if not moves:
                break
            if null_every and i % (null_every + 3) == null_every and not board.is_check():
                board.push(Move.null())
            else:
                board.push(moves[c % len(moves)])
        again = pickle.loads(pickle.dumps(board, protocol=pickle.HIGHEST_PROTOCOL))
        _same_history(board, again)
        assert again.status() == board.status()
        while board.move_stack:
            assert board.pop() == again.pop() and board.fen() == again.fen()


# ------------------------------------------------------------------------------------- editing and transforms

def test_editing_api_refuses_only_what_the_position_cannot_hold() -> None:
    from xiangqi import KING, PAWN, ROOK, Piece, Status
    from xiangqi.errors import InvalidFenError

    board = Board()
    board.push_iccs("h2e2")
    assert board.remove_piece_at(0) == Piece(ROOK, RED)
    assert board.move_stack == [] and board.starting_fen == board.fen()
    board.set_piece_at(xiangqi.parse_square("e4"), Piece(ROOK, RED))
    assert board.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4R4/P1P1P1P1P/1C2C4/9/1NBAKABNR b - - 1 1"
    assert board.remove_piece_at(xiangqi.parse_square("e4")) == Piece(ROOK, RED)
    assert board.remove_piece_at(xiangqi.parse_square("e4")) is None
    board.set_piece_at(0, Piece(ROOK, RED))
    # A king may be taken away while the position is set up: status() reports it; a second king is refused.
    assert board.remove_piece_at(4) == Piece(KING, RED)
    assert board.king(RED) is None and board.status() & Status.NO_RED_KING and not board.is_valid()
    board.set_piece_at(4, Piece(KING, RED))
    assert board.king(RED) == 4 and not board.status() & Status.NO_RED_KING
    before = board.fen()
    with pytest.raises(InvalidFenError, match="2 red kings"):
        board.set_piece_at(xiangqi.parse_square("e1"), Piece(KING, RED))
    assert board.fen() == before  # a refused edit changes nothing
    # More of a kind than the set holds is set up, as python-chess does, and reported by status().
    board.set_piece_at(xiangqi.parse_square("e4"), Piece(ROOK, RED))
    assert board.status() == Status.TOO_MANY_RED_PIECES
    board.set_piece_at(xiangqi.parse_square("e4"), Piece(PAWN, RED))
    assert board.status() == Status.TOO_MANY_RED_PIECES  # a sixth red pawn
    board.remove_piece_at(xiangqi.parse_square("e4"))
    assert board.fen() == before and board.is_valid()
    with pytest.raises(ValueError, match="square must be an int 0-89"):
        board.set_piece_at(90, None)
    with pytest.raises(TypeError, match="Piece or None"):
        board.set_piece_at(0, "R")  # type: ignore[arg-type]
    # What the position holds but play cannot reach is accepted and reported by status().
    board.set_piece_map({0: Piece(KING, RED), 89: Piece(KING, BLACK), 40: Piece(PAWN, RED)})
    assert board.board_fen() == "8k/9/9/9/9/4P4/9/9/9/K8"
    assert board.status() & Status.KING_OUTSIDE_PALACE
    board.turn = RED
    assert board.turn is RED and board.fen().split()[1] == "w"
    with pytest.raises(ValueError):
        board.turn = 2  # type: ignore[assignment]
    board.set_board_fen("3k5/9/9/9/9/9/9/9/9/4K4")
    assert board.fen() == "3k5/9/9/9/9/9/9/9/9/4K4 w - - 1 1"
    with pytest.raises(InvalidFenError):
        board.set_board_fen("3k5/9/9/9/9/9/9/9/9/4K4 w")
    board.reset()
    assert board.fen() == STARTING_FEN and board.move_stack == []


def test_board_fen_is_called_and_set() -> None:
    """An assignment to board_fen used to shadow the method without a word (and a later board_fen() failed)."""
    from xiangqi.errors import InvalidFenError

    board = Board()
    board.push_iccs("h2e2")
    board.board_fen = "3k5/9/9/9/9/9/9/9/9/4K4"
    assert board.board_fen() == "3k5/9/9/9/9/9/9/9/9/4K4" and "board_fen" not in vars(board)
    assert board.fen() == "3k5/9/9/9/9/9/9/9/9/4K4 b - - 1 1" and board.move_stack == []  # an edit, as set_board_fen
    before = board.fen()
    with pytest.raises(InvalidFenError):
        board.board_fen = "3k5/9/9/9/9/9/9/9/9/4K4 w"
    with pytest.raises(TypeError):
        board.board_fen = 7  # type: ignore[assignment]
    assert board.fen() == before
    assert Board().board_fen() == STARTING_FEN.split()[0]


def test_empty_board_and_clear_as_in_python_chess() -> None:
    from xiangqi import KING, ROOK, Piece, Status

    empty = "9/9/9/9/9/9/9/9/9/9 w - - 0 1"
    board = Board(None)
    assert board.fen() == empty and board.piece_map() == {} and board.move_stack == []
    assert board.status() == Status.NO_RED_KING | Status.NO_BLACK_KING
    assert board.king(RED) is None and board.king(BLACK) is None
    assert not board.legal_moves and board.perft(3) == 0 and not board.is_check()
    start = Board()
    start.push_iccs("h2e2")
    start.clear()
    assert start.fen() == empty and start.move_stack == [] and start.starting_fen == empty
    # Set up piece by piece, python-chess style.
    board.set_piece_at(xiangqi.parse_square("e0"), Piece(KING, RED))
    board.set_piece_at(xiangqi.parse_square("a8"), Piece(ROOK, RED))
    assert board.status() == Status.NO_BLACK_KING
    assert not board.is_check() and not board.was_into_check()
    assert len(board.legal_moves) == 3 + 17  # the king's three steps, the rook's seventeen
    board.set_piece_at(xiangqi.parse_square("d9"), Piece(KING, BLACK))
    assert board.status() == Status.VALID and board == Board("3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1")


def test_a_side_without_a_king_is_never_in_check_and_moves_freely() -> None:
    from xiangqi import Status

    # Black has no king; its rook on h1 holds rank 1, so the red king on d0 may only step to e0.
    board = Board("9/9/9/9/9/9/9/9/7r1/3K5 w", allow_missing_king=True)
    assert board.status() == Status.NO_BLACK_KING and not board.is_check()
    assert {m.iccs() for m in board.legal_moves} == {"d0e0"}
    board.turn = BLACK
    assert not board.is_check() and all(board.is_legal(m) for m in board.pseudo_legal_moves)
    assert len(board.legal_moves) == len(board.pseudo_legal_moves) == 17
    assert board.gives_check(Move.from_iccs("h1d1")) and not board.gives_check(Move.from_iccs("h1h2"))
    # A king is never captured, so play keeps the kings there are.
    assert board.variation_san([Move.from_iccs("h1h5")], notation="wxf") == "1... R8-4"
    assert board.chinese(Move.from_iccs("h1h5")) == "车８退４" and "svg" in board._repr_svg_()
    attacked = Board("9/9/9/9/3r5/9/9/9/9/3K5 b", allow_missing_king=True)
    assert attacked.status() == Status.NO_BLACK_KING | Status.OPPOSITE_CHECK
    assert Move.from_iccs("d5d0") not in attacked.pseudo_legal_moves and len(attacked.legal_moves) == 16


def test_what_needs_both_kings_refuses_a_position_without_one() -> None:
    from xiangqi import KING, Piece
    from xiangqi import batch
    from xiangqi.errors import InvalidFenError
    from xiangqi.game import start_board
    from xiangqi.search import Searcher

    fen = "3k5/9/9/9/9/9/9/9/9/R8 w - - 0 1"
    with pytest.raises(InvalidFenError, match="no red king"):
        Board(fen)  # every reader of game records goes through this
    with pytest.raises(InvalidFenError, match="no red king"):
        start_board(fen)
    board = Board(fen, allow_missing_king=True)
    with pytest.raises(InvalidFenError, match=r"outcome\(\) needs both kings: no red king"):
        board.outcome()
    with pytest.raises(InvalidFenError, match="needs both kings"):
        board.is_game_over()
    with pytest.raises(InvalidFenError, match="search needs both kings: no red king"):
        Searcher().search(board, depth=1)
    assert list(batch.validate([fen, STARTING_FEN])) == [batch.FEN_POSITION, batch.OK]
    assert list(batch.validate([board, Board()])) == [batch.FEN_POSITION, batch.OK]
    from xiangqi.game import Game
    with pytest.raises(InvalidFenError, match="a game record needs both kings: no red king"):
        Game.from_board(board)
    with pytest.raises(InvalidFenError, match="a game record needs both kings"):
        Game().setup(board)
    board.set_piece_at(4, Piece(KING, RED))
    assert board.outcome() is None


def test_a_board_without_kings_pickles_copies_and_transforms() -> None:
    import copy
    import pickle

    from xiangqi import ROOK, Piece

    board = Board(None)
    board.set_piece_at(0, Piece(ROOK, RED))
    board.push_iccs("a0a5")
    for other in (pickle.loads(pickle.dumps(board)), copy.deepcopy(board), board.copy()):
        assert other == board and other.move_stack == board.move_stack and other.starting_fen == board.starting_fen
    assert board.root().fen() == "9/9/9/9/9/9/9/9/9/R8 w - - 0 1"
    assert board.mirror().fen() == "9/9/9/9/9/r8/9/9/9/9 w - - 1 1"
    assert board.transform(flip_horizontal).fen() == "9/9/9/9/8R/9/9/9/9/9 b - - 1 1"
    assert board.flip().fen() == "9/9/9/9/9/8r/9/9/9/9 w - - 1 2"


def _set_up(fen: str) -> Board:
    """A board at ``fen``'s placement and side to move, set up by editing an empty board (no counters): any
    placement, as the editing methods accept."""
    board = Board.empty()
    placement, side = fen.split()[:2]
    board.set_board_fen(placement)
    board.turn = side == "w"
    return board


def _random_board(choices: "list[int]") -> Board:
    board = Board()
    for c in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[c % len(moves)])
    return board


if given is not None:
    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.integers(0, 10_000), max_size=60),
           st.lists(st.tuples(st.integers(0, 89), st.integers(0, 14)), max_size=12))
    def test_editing_matches_a_fen_rebuild(choices: "list[int]", edits: "list[tuple[int, int]]") -> None:
        from xiangqi import Piece
        from xiangqi.errors import InvalidFenError

        board = _random_board(choices)
        for sq, code in edits:
            piece = None if code in (0, 8) else Piece.from_code(code)
            expected = dict(board.piece_map())
            if piece is None:
                expected.pop(sq, None)
            else:
                expected[sq] = piece
            before = board.fen()
            try:
                board.set_piece_at(sq, piece)
            except InvalidFenError:
                assert board.fen() == before
                continue
            rebuilt = _set_up(before)
            rebuilt.set_piece_map(expected)
            assert board.piece_map() == expected and board.board_fen() == rebuilt.board_fen()
            fresh = _set_up(board.fen())
            assert board.zobrist_hash() == fresh.zobrist_hash() == rebuilt.zobrist_hash()
            assert sorted(m.code for m in board.legal_moves) == sorted(m.code for m in fresh.legal_moves)
            assert board.move_stack == [] and board.starting_fen == board.fen()

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.tuples(st.integers(0, 89), st.integers(0, 15)), max_size=30), st.booleans())
    def test_setting_up_from_an_empty_board_matches_a_fen_rebuild(edits: "list[tuple[int, int]]",
                                                                 black: bool) -> None:
        from xiangqi import KING, Piece, Status
        from xiangqi.errors import InvalidFenError

        board = Board(None)
        board.turn = not black
        for sq, code in edits:
            piece = None if code in (0, 8) else Piece.from_code(code)
            before = board.fen()
            try:
                board.set_piece_at(sq, piece)
            except InvalidFenError:
                assert board.fen() == before  # a second king of a side, which the position cannot hold
                assert piece is not None and piece.piece_type == KING
                continue
            fresh = _set_up(board.fen())
            assert fresh.board_fen() == board.board_fen() and fresh.zobrist_hash() == board.zobrist_hash()
            assert sorted(m.code for m in board.legal_moves) == sorted(m.code for m in fresh.legal_moves)
            assert board.perft(2) == fresh.perft(2)
            kings = {c: board.pieces(KING, c) for c in (RED, BLACK)}
            assert bool(board.status() & Status.NO_RED_KING) == (not kings[RED])
            assert bool(board.status() & Status.NO_BLACK_KING) == (not kings[BLACK])
            limits = {1: 5, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1}
            over = {c: any(len(board.pieces(t, c)) > n for t, n in limits.items()) for c in (RED, BLACK)}
            assert bool(board.status() & Status.TOO_MANY_RED_PIECES) == over[RED]
            assert bool(board.status() & Status.TOO_MANY_BLACK_PIECES) == over[BLACK]
            if kings[RED] and kings[BLACK] and not (over[RED] or over[BLACK]):
                assert Board(board.fen()) == board  # within the set, the strict reader takes it too
            else:
                with pytest.raises(InvalidFenError, match="no (red|black) king|at most"):
                    Board(board.fen())

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.integers(0, 10_000), max_size=80))
    def test_mirror_transform_and_flip_keep_perft_and_map_moves_one_to_one(choices: "list[int]") -> None:
        from xiangqi import square_flip, square_mirror

        def file_mirror(s: int) -> int:
            return s - s % 9 + 8 - s % 9

        board = _random_board(choices)
        cases = ((board.mirror(), square_mirror, True, False), (board.transform(flip_horizontal), file_mirror, False, False),
                 (board.flip(), square_flip, True, True))
        for other, f, swap, keeps_stack in cases:
            assert other.turn == (board.turn != swap)
            assert other.perft(2) == board.perft(2)
            mapped = {Move(f(m.from_square), f(m.to_square)) for m in board.legal_moves}
            assert mapped == set(other.legal_moves) and len(mapped) == len(board.legal_moves)
            if keeps_stack:
                assert [Move(f(m.from_square), f(m.to_square)) for m in board.move_stack] == other.move_stack
            else:  # python-chess's mirror() and transform() start a new history
                assert other.move_stack == [] and other.starting_fen == other.fen()
            assert other.status() == board.status()
            twice = {square_mirror: other.mirror, file_mirror: lambda: other.transform(flip_horizontal),
                     square_flip: other.flip}[f]()
            assert twice.fen() == board.fen()
            assert twice.move_stack == (board.move_stack if keeps_stack else [])
            assert (other.outcome() is None) == (board.outcome() is None)


def test_transform_drops_what_leaves_the_board() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/9/4K4 w").transform(lambda bb: bb << 9)  # every piece one rank up
    assert board.board_fen() == "9/9/9/9/9/9/9/9/4K4/9"


# ------------------------------------------------------------------------------- ply, SquareSet, python-chess names

def test_ply_is_a_method_from_the_fullmove_number_and_turn() -> None:
    board = Board()
    assert board.ply() == 0
    board.push_iccs("h2e2")
    assert board.ply() == 1
    board.push_iccs("h9g7")
    assert board.ply() == 2 and len(board.move_stack) == 2
    later = Board("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 30")
    assert later.ply() == 59 and later.move_stack == []


def test_square_set_has_the_set_api() -> None:
    s = SquareSet([0, 4, 89])
    t = SquareSet([4, 5])
    assert s - t == SquareSet([0, 89]) and s ^ t == SquareSet([0, 5, 89]) and s & t == SquareSet([4])
    assert (s | t) == SquareSet([0, 4, 5, 89]) and len(~s) == 87 and ~~s == s and 5 in ~s
    assert s | 2 == SquareSet([0, 1, 4, 89]) and 2 | s == s | 2 and s & 1 == 1 and 17 & s == SquareSet([0, 4])
    assert s == (1 | 1 << 4 | 1 << 89) and s != t and int(s) == s.mask and [0, 1, 2][SquareSet([1])] == 2
    assert SquareSet([4]) <= s and SquareSet([4]) < s and not s < s and s <= s and s >= [0] and s > [0]
    assert s.issubset(s | t) and (s | t).issuperset(t) and s.isdisjoint([1, 2]) and not s.isdisjoint(t)
    assert s.union(t) == s | t and s.intersection(t) == s & t and s.difference(t) == s - t
    assert s.symmetric_difference(t) == s ^ t and list(reversed(s)) == [89, 4, 0]
    u = s.copy()
    u.add(7)
    u.discard(0)
    u.discard(0)
    assert u == SquareSet([4, 7, 89]) and s == SquareSet([0, 4, 89])
    u.remove(4)
    with pytest.raises(KeyError):
        u.remove(4)
    assert u.pop() == 7 and u == SquareSet([89])
    u |= t
    u -= [5]
    u ^= 1
    u &= [0, 4, 89]
    assert u == SquareSet([0, 4, 89])
    u.update([1], SquareSet([2]))
    u.intersection_update([0, 1, 2, 3])
    u.difference_update([0])
    u.symmetric_difference_update([2, 3])
    assert u == SquareSet([1, 3]) and u.tolist()[:4] == [False, True, False, True]
    u.clear()
    assert not u
    with pytest.raises(KeyError):
        u.pop()
    with pytest.raises(ValueError, match="not a square"):
        SquareSet([90])


def test_pins_follow_lines_cannon_screens_and_horse_legs() -> None:
    # A rook shields its king from a rook: it may move along the file up to and onto the pinner.
    board = Board("4k4/9/9/9/4r4/9/9/9/4R4/4K4 w")
    e = [xiangqi.parse_square(f"e{r}") for r in range(10)]
    assert board.is_pinned(RED, e[1]) and board.pin(RED, e[1]) == SquareSet(e[1:6])
    # Two screens before a cannon: either one alone would let it check, so both are pinned.
    board = Board("4k4/9/9/9/4c4/9/9/4N4/4R4/4K4 w")
    assert board.is_pinned(RED, e[1]) and board.is_pinned(RED, e[2])
    assert board.pin(RED, e[2]) == SquareSet([e[2], e[3], e[4], e[5]])
    # A horse-leg blocker is pinned; a king, an empty square and a free piece are not.
    board = Board("3k5/9/9/9/9/4R4/9/5n3/5R3/4K4 w")
    f1 = xiangqi.parse_square("f1")
    assert board.is_pinned(RED, f1) and board.pin(RED, f1) == SquareSet([f1, xiangqi.parse_square("f2")])
    assert not board.is_pinned(RED, e[0]) and not board.is_pinned(RED, e[5]) and not board.is_pinned(BLACK, f1)
    assert board.pin(RED, e[5]) == SquareSet(xiangqi.BB_ALL)
    # Agreement with the legal moves: a pinned piece's legal targets lie inside its pin.
    for fen in ("4k4/9/9/9/4r4/9/9/9/4R4/4K4 w", "4k4/9/9/9/4c4/9/9/4N4/4R4/4K4 w", "4k4/9/9/9/9/9/9/4R4/9/4K4 w"):
        board = Board(fen)
        for m in board.legal_moves:
            assert m.to_square in board.pin(RED, m.from_square)
    # The kings facing each other pin the piece between them.
    board = Board("4k4/9/9/9/9/9/9/9/4R4/4K4 w")
    assert board.is_pinned(RED, e[1]) and board.pin(RED, e[1]) == SquareSet(e[1:9])


def test_attacks_agree_with_attackers() -> None:
    board = Board()
    board.push_iccs("h2e2")
    for sq in range(90):
        piece = board.piece_at(sq)
        got = board.attacks(sq)
        if piece is None:
            assert not got
            continue
        assert got == SquareSet(t for t in range(90) if sq in board.attackers(piece.color, t))
        assert board.attacks_mask(sq) == int(got)
    # The central cannon captures over one screen: over e3 up to e6, over the b2 cannon onto a2.
    assert board.attacks(xiangqi.parse_square("e2")) == SquareSet(xiangqi.parse_square(n) for n in (
        "a2", "e4", "e5", "e6"))


def test_zeroing_irreversible_into_check_result_and_count() -> None:
    board = Board("3k5/9/9/9/9/4p4/4P4/9/9/3RK4 w")
    rook, pawn = Move.from_iccs("d0d9"), Move.from_iccs("e3e4")
    assert board.is_zeroing(pawn) and board.is_irreversible(pawn)  # e3xe4 captures
    assert board.is_zeroing(rook) and board.is_irreversible(rook)
    quiet = Move.from_iccs("d0d1")
    assert not board.is_zeroing(quiet) and not board.is_irreversible(quiet)
    board = Board("3k5/9/9/9/9/4P4/9/9/9/3RK4 w")
    assert board.is_irreversible(Move.from_iccs("e4e5")) and not board.is_zeroing(Move.from_iccs("e4e5"))
    board = Board("3k5/9/9/9/9/9/9/9/9/3RK4 w")
    assert board.legal_moves.count() == len(board.legal_moves) and board.pseudo_legal_moves.count() >= 1
    assert board.result() == "*" and board.was_into_check()  # as set up, Black's king stands in the rook's line
    board = Board("3k5/9/9/9/9/9/9/9/9/R4K3 b")
    board.push_iccs("d9d8")
    assert not board.was_into_check() and Board().was_into_check() is False
    board = Board("3k5/9/9/9/9/9/9/9/9/3RK4 w")
    board.push(Move.null())  # Red passes: Black is in check, and Red's own king is safe
    assert board.is_check() and not board.was_into_check()
    board = Board("3k5/9/9/9/9/9/9/9/9/3RK4 b")
    board.push(Move.from_iccs("d9d8"))  # Black steps along the rook's file (push does not check): into check
    assert board.was_into_check()
    mate = Board("3k5/1R7/9/9/9/9/9/9/9/R3K4 w")
    mate.push_iccs("a0a9")
    assert mate.result() == "1-0"


def test_move_arguments_that_are_not_moves_give_type_errors() -> None:
    board = Board()
    for method in (board.gives_check, board.is_capture, board.is_pseudo_legal, board.is_legal, board.is_zeroing,
                   board.is_irreversible, board.push, board.illegal_reason):
        with pytest.raises(TypeError, match="expected a Move, not str"):
            method("h2e2")  # type: ignore[arg-type]
    assert board.fen() == STARTING_FEN and not board.move_stack


def test_variation_san_numbers_moves_in_every_notation() -> None:
    board = Board()
    line = [Move.from_iccs(m) for m in ("h2e2", "h9g7", "h0g2")]
    assert board.variation_san(line) == "1. 炮二平五 马８进７ 2. 马二进三"
    assert board.variation_san(line, notation="wxf") == "1. C2.5 H8+7 2. H2+3"
    assert board.variation_san(line, notation="iccs") == "1. h2e2 h9g7 2. h0g2"
    assert board.variation_san(line, traditional=True, fullwidth=False) == "1. 炮二平五 馬8進7 2. 馬二進三"
    board.push(line[0])
    assert board.variation_san(line[1:], notation="iccs") == "1... h9g7 2. h0g2"
    assert board.variation_san([]) == "" and len(board.move_stack) == 1
    with pytest.raises(IllegalMoveError, match="ply 1"):
        board.variation_san([line[1], line[1]])
