"""xiangqi.batch: every batch function equals a loop over the single-position Board API.

Positions come from the shared game corpus (``../shared/data/games/*.iccs.pgn``,
read with a minimal tokenizer and replayed move by move); the tests that need
it skip when the folder is absent. Also covered: per-item status for bad
inputs, misuse errors, the packed format, threads, concurrent calls, and the
move index (a bijection that covers every legal move of the whole corpus).
"""

from __future__ import annotations

import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xiangqi import BLACK, RED, STARTING_FEN, Board, InvalidFenError, Move, batch
from xiangqi._ffi import ffi, lib

GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"
_MOVE = re.compile(r"\b[a-i][0-9][a-i][0-9]\b")


# ------------------------------------------------------------------ corpus


def read_games(path: Path) -> Iterator[Tuple[str, List[str]]]:
    """(start FEN, ICCS moves) of each game of an ICCS PGN file (tags, then move text)."""
    fen, in_moves = STARTING_FEN, False
    moves: List[str] = []
    with path.open(encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if line.startswith("["):
                if in_moves:
                    yield fen, moves
                    fen, moves, in_moves = STARTING_FEN, [], False
                if line.startswith("[FEN "):
                    fen = line[line.index('"') + 1:line.rindex('"')]
            elif line:
                in_moves = True
                moves.extend(_MOVE.findall(line))
    if in_moves:
        yield fen, moves


def replay(path: Path, *, max_games: int = 0) -> List[str]:
    """The FEN of every position of the first ``max_games`` games (all if 0) of a file."""
    out: List[str] = []
    for g, (fen, moves) in enumerate(read_games(path)):
        if max_games and g >= max_games:
            break
        board = Board(fen)
        out.append(board.fen())
        for m in moves:
            board.push(Move.from_iccs(m))
            out.append(board.fen())
    return out


def _game_files() -> List[Path]:
    files = sorted(GAMES.glob("*.iccs.pgn")) if GAMES.is_dir() else []
    if not files:
        pytest.skip(f"shared game corpus not available: {GAMES}")
    return files


@pytest.fixture(scope="module")
def fens() -> List[str]:
    """About 10,000 real positions: some games of every file (start positions with Black to move included)."""
    out: List[str] = []
    for path in _game_files():
        out += replay(path, max_games=300 if "positions" in path.name else 30)
    assert len(out) > 5000
    return out


@pytest.fixture(scope="module")
def boards(fens: List[str]) -> List[Board]:
    return [Board(f) for f in fens]


@pytest.fixture(scope="module")
def packed(fens: List[str]) -> np.ndarray:
    return batch.pack(fens)


# -------------------------------------------------------------- oracles


def planes_oracle(board: Board, view: str) -> np.ndarray:
    out = np.zeros((15, 10, 9), dtype=np.uint8)
    turned = view == "side_to_move" and board.turn == BLACK
    for sq, code in enumerate(board.piece_codes()):
        if not code:
            continue
        color, ptype = bool(code >> 3), code & 7
        block = int(color) if view == "absolute" else (0 if color == board.turn else 1)
        s = 89 - sq if turned else sq
        out[block * 7 + ptype - 1, 9 - s // 9, s % 9] = 1
    if board.turn == RED:
        out[14] = 1
    return out


def possible_moves_oracle() -> List[int]:
    """Every move some piece could ever make, from the rules of movement alone (increasing codes)."""
    palace = {(r, f) for r in (0, 1, 2, 7, 8, 9) for f in (3, 4, 5)}
    elephant = {(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)}
    elephant |= {(9 - r, f) for r, f in elephant}
    codes = []
    for a in range(90):
        for b in range(90):
            (r1, f1), (r2, f2) = divmod(a, 9), divmod(b, 9)
            dr, df = abs(r1 - r2), abs(f1 - f2)
            same_half = (r1 <= 4) == (r2 <= 4)
            ok = ((dr == 0) != (df == 0)) or {dr, df} == {1, 2}
            centre = (r1, f1) in ((1, 4), (8, 4)) or (r2, f2) in ((1, 4), (8, 4))
            ok = ok or (dr == df == 1 and same_half and (r1, f1) in palace and (r2, f2) in palace and centre)
            ok = ok or (dr == df == 2 and same_half and (r1, f1) in elephant and (r2, f2) in elephant)
            if ok:
                codes.append(a << 7 | b)
    return codes


def rotate(code: int) -> int:
    return (89 - (code >> 7)) << 7 | (89 - (code & 127))


# ---------------------------------------------------- equality with Board


def test_legal_moves_equal_board_loop(fens: List[str], boards: List[Board]) -> None:
    moves, offsets = batch.legal_moves(fens)
    assert moves.dtype == np.uint16 and offsets.dtype == np.int64 and offsets.shape == (len(fens) + 1,)
    assert offsets[0] == 0 and offsets[-1] == len(moves)
    for i, b in enumerate(boards):
        assert moves[offsets[i]:offsets[i + 1]].tolist() == b.legal_move_codes(), fens[i]


def test_every_input_form_gives_the_same_result(fens: List[str], boards: List[Board], packed: np.ndarray) -> None:
    want = batch.legal_moves(fens)
    mixed: List[Any] = [b if i % 3 == 0 else f for i, (b, f) in enumerate(zip(boards, fens))]
    for form in (boards, packed, np.array(fens), np.array(fens, dtype=object), tuple(fens), iter(fens), mixed):
        got = batch.legal_moves(form)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert np.array_equal(batch.pack(boards), packed)
    assert np.array_equal(batch.pack(mixed), packed)


def test_perft_equal_board_loop(fens: List[str], boards: List[Board]) -> None:
    sample = list(range(0, len(fens), 7))
    for depth in (0, 1, 2):
        got = batch.perft([fens[i] for i in sample], depth)
        assert got.dtype == np.uint64
        assert got.tolist() == [boards[i].perft(depth) for i in sample]
    few = sample[::10]
    got = batch.perft([fens[i] for i in few], 2, bulk=False)
    assert got.tolist() == [boards[i].perft(2, bulk=False) for i in few]
    assert batch.perft([STARTING_FEN], 4).tolist() == [3290240]


def test_zobrist_equal_board_loop(fens: List[str], boards: List[Board], packed: np.ndarray) -> None:
    want = [b.zobrist_hash() for b in boards]
    for form in (fens, packed, boards):
        got = batch.zobrist(form)
        assert got.dtype == np.uint64 and got.tolist() == want


def test_attack_maps_equal_board_loop(fens: List[str], boards: List[Board]) -> None:
    maps = batch.attack_maps(fens)
    assert maps.dtype == np.uint8 and maps.shape == (len(fens), 2, 10, 9)
    for i, b in enumerate(boards):
        assert np.array_equal(maps[i, 0], b.attack_map(BLACK)), fens[i]
        assert np.array_equal(maps[i, 1], b.attack_map(RED)), fens[i]


@pytest.mark.parametrize("view", ["absolute", "side_to_move"])
def test_planes_equal_oracle(fens: List[str], boards: List[Board], view: str) -> None:
    sample = list(range(0, len(fens), 3))
    got = batch.planes([fens[i] for i in sample], view=view)  # type: ignore[arg-type]
    assert got.dtype == np.uint8 and got.shape == (len(sample), 15, 10, 9)
    for k, i in enumerate(sample):
        assert np.array_equal(got[k], planes_oracle(boards[i], view)), (view, fens[i])


def test_planes_views_agree_for_red_and_turn_for_black(fens: List[str], boards: List[Board]) -> None:
    absolute, relative = batch.planes(fens), batch.planes(fens, view="side_to_move")
    turns = np.array([b.turn for b in boards])
    assert turns.any() and not turns.all()
    assert np.array_equal(absolute[turns], relative[turns][:, [7, 8, 9, 10, 11, 12, 13, 0, 1, 2, 3, 4, 5, 6, 14]])
    black = ~turns
    # Black to move: own pieces (Black's, absolute planes 0-6) come first, board turned 180 degrees.
    assert np.array_equal(absolute[black][:, :14], relative[black][:, :14, ::-1, ::-1])
    assert not relative[black][:, 14].any() and relative[turns][:, 14].all()


@pytest.mark.parametrize("view", ["absolute", "side_to_move"])
def test_legal_mask_equal_board_loop(fens: List[str], boards: List[Board], view: str) -> None:
    mask = batch.legal_mask(fens, view=view)  # type: ignore[arg-type]
    assert mask.dtype == np.bool_ and mask.shape == (len(fens), batch.NUM_MOVES)
    for i, b in enumerate(boards):
        codes = b.legal_move_codes()
        if view == "side_to_move" and b.turn == BLACK:
            codes = [rotate(c) for c in codes]
        assert sorted(np.flatnonzero(mask[i]).tolist()) == sorted(batch.MOVE_LOOKUP[codes].tolist()), fens[i]
        assert {batch.move_index(Move.from_code(c), turn=b.turn if view == "side_to_move" else None)
                for c in b.legal_move_codes()} == set(np.flatnonzero(mask[i]).tolist())


def test_fens_pack_unpack_round_trip(fens: List[str], boards: List[Board], packed: np.ndarray) -> None:
    want = [b.fen() for b in boards]
    assert batch.fens(fens) == want
    assert batch.fens(packed) == want
    assert batch.fens(boards) == want
    assert packed.dtype == np.uint8 and packed.shape == (len(fens), batch.PACKED_SIZE)
    back = batch.unpack(packed[:500])
    assert [b.fen() if b is not None else None for b in back] == want[:500]
    assert all(b is not None and b.zobrist_hash() == boards[i].zobrist_hash() for i, b in enumerate(back))


def test_validate_and_every_function_agree_on_good_positions(fens: List[str]) -> None:
    assert not batch.validate(fens).any()
    status = np.full(len(fens), 99, dtype=np.int8)
    batch.planes(fens, status=status)
    assert not status.any()


# ------------------------------------------------------------ packed format


def test_packed_layout_is_as_documented() -> None:
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 300 70000"
    rec = batch.pack([fen])[0]
    codes = Board(fen).piece_codes()
    assert [rec[k] & 15 for k in range(45)] == list(codes[0::2])
    assert [rec[k] >> 4 for k in range(45)] == list(codes[1::2])
    assert rec[45] == 0
    assert int(rec[46]) | int(rec[47]) << 8 == 300
    assert int.from_bytes(rec[48:52].tobytes(), "little") == 70000
    assert batch.pack([STARTING_FEN])[0, 45] == 1
    assert batch.PACKED_SIZE == 52


def test_corrupt_packed_records_get_a_status_and_never_crash() -> None:
    good = batch.pack([STARTING_FEN])[0]
    bad = np.tile(good, (6, 1))
    bad[0, 45] = 2                      # side byte out of range
    bad[1, 48:52] = 0                   # fullmove 0
    bad[2, 0] = (good[0] & 0xF0) | 8    # piece code 8 (no type)
    bad[3, 2] = (good[2] & 0xF0)        # the red king (e0 = square 4, low nibble of byte 2) removed
    bad[4] = 0                          # the filler pack() writes for unreadable items
    bad[5, 10] = 0x99                   # two extra red pawns on squares 20 and 21 (7 pawns)
    status = np.empty(6, dtype=np.int8)
    assert batch.zobrist(bad, status=status).tolist() == [0] * 6
    assert status.tolist() == [batch.FEN_POSITION] * 6
    assert batch.unpack(bad) == [None] * 6


def test_random_packed_records_decode_like_the_fen_route() -> None:
    rng = np.random.default_rng(7)
    base = batch.pack([STARTING_FEN, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"])
    recs = np.repeat(base, 2000, axis=0)
    # Flip random nibbles of the board part: some records stay valid, most do not.
    rows = np.arange(len(recs))
    for _ in range(3):
        cols = rng.integers(0, 45, len(recs))
        recs[rows, cols] ^= rng.integers(0, 256, len(recs)).astype(np.uint8)
    status = np.empty(len(recs), dtype=np.int8)
    out = batch.fens(recs, status=status)
    assert set(status.tolist()) <= {batch.OK, batch.FEN_POSITION}
    assert (status == batch.OK).sum() > 100 and (status != batch.OK).sum() > 100
    for i in range(len(recs)):
        codes = [int(recs[i, k // 2]) >> (4 * (k % 2)) & 15 for k in range(90)]
        kings_ok = codes.count(7) == 1 and codes.count(15) == 1
        counts_ok = all(codes.count(c) <= (5 if c & 7 == 1 else 2) for c in range(16) if c & 7 not in (0, 7))
        assert (status[i] == batch.OK) == (kings_ok and counts_ok and 8 not in codes)
        if status[i] == batch.OK:
            assert Board(out[i]).piece_codes() == bytes(codes)
        else:
            assert out[i] == ""


# ---------------------------------------------------------- per-item status

BAD_FENS = [
    ("", batch.FEN_SYNTAX),
    ("not a fen", batch.FEN_SYNTAX),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", batch.FEN_SYNTAX),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1", batch.FEN_SYNTAX),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 70000 1", batch.FEN_SYNTAX),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1", batch.FEN_POSITION),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/PPPPPPPPP/1C5C1/9/RNBAKABNR w - - 0 1", batch.FEN_POSITION),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR\u5e05 w", batch.FEN_SYNTAX),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\0", batch.FEN_SYNTAX),
]


@pytest.mark.parametrize("name,fn", [
    ("legal_moves", lambda p, s: batch.legal_moves(p, status=s)[1]),
    ("perft", lambda p, s: batch.perft(p, 2, status=s)),
    ("zobrist", lambda p, s: batch.zobrist(p, status=s)),
    ("attack_maps", lambda p, s: batch.attack_maps(p, status=s)),
    ("planes", lambda p, s: batch.planes(p, status=s)),
    ("legal_mask", lambda p, s: batch.legal_mask(p, view="side_to_move", status=s)),
    ("pack", lambda p, s: batch.pack(p, status=s)),
    ("fens", lambda p, s: np.array(batch.fens(p, status=s), dtype=object)),
])
def test_bad_items_get_their_status_and_the_rest_is_computed(name: str, fn: Callable[[Any, Any], Any]) -> None:
    good = [STARTING_FEN, "4ka3/4cN1r1/3R5/p1p5p/9/4C4/P3P3c/B3B4/4A4/3AK4 b - - 4 24"]
    items: List[str] = []
    expected: List[int] = []
    for k, (bad, code) in enumerate(BAD_FENS):
        items += [good[k % 2], bad]
        expected += [batch.OK, code]
    for f, code in zip(items, expected):  # the statuses agree with what Board says
        if code == batch.OK:
            Board(f)
        else:
            with pytest.raises(InvalidFenError):
                Board(f)
    status = np.full(len(items), 99, dtype=np.int8)
    got = fn(items, status)
    assert status.tolist() == expected
    assert batch.validate(items).tolist() == expected
    clean_status = np.empty(len(BAD_FENS), dtype=np.int8)
    want = fn([items[i] for i in range(0, len(items), 2)], clean_status)
    if name == "legal_moves":  # offsets: bad items have no moves
        assert np.array_equal(np.diff(got)[0::2], np.diff(want)) and not np.diff(got)[1::2].any()
    else:
        assert np.array_equal(got[0::2], want)
        filler = "" if name == "fens" else 0
        assert all(np.all(x == filler) for x in got[1::2])


def test_status_message_names_codes() -> None:
    assert batch.status_message(batch.OK) == "ok"
    assert "FEN" in batch.status_message(batch.FEN_SYNTAX)
    assert batch.status_message(batch.FEN_POSITION) == "unusable position"


# -------------------------------------------------------- the fast FEN path

FEN_SHAPES = [
    "{b}", "{b} w", "{b} b", "{b} r", "{b} B", "{b} W", "{b} w - - 0 1", "{b} b - - 12 345",
    "{b} w 3 7", "{b} b 0 0", "{b} w - - 65535 999999999", "{b} w - - 65536 1", "{b} w - - 1 1234567890",
    " {b} w", "{b}  w", "{b} w ", "{b}\tw", "{b} w - 0 1", "{b} w - - 5", "{b} w - - 5 ", "{b} w - - - 1",
    "{b} w - -", "{b} w -", "{b} w 01 002", "{b} w - - +1 1", "{b} x", "{b} wb", "{b}w", "{b}/", "{b} w - - 0 1 x",
]
BOARDS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR",
    "4k4/9/9/9/9/9/9/9/9/4K4", "4k4/9/9/9/9/9/9/9/9/4K3", "4k4/9/9/9/9/9/9/9/9/3KK4", "4k4/9/9/9/9/9/9/9/4K4",
    "4k4/9/9/9/9/9/9/9/9/4K4/9", "4k4/9/9/9/9/9/9/9/9/45", "4k4/9/9/9/9/9/9/9/9/4K13", "4k4/9/9/9/9/9/9/9/9/4X4",
]


def _single(fen: str) -> Tuple[int, str, int]:
    try:
        b = Board(fen)
    except InvalidFenError as exc:
        return (batch.FEN_POSITION if exc.offset == -1 else batch.FEN_SYNTAX), "", 0
    return batch.OK, b.fen(), b.zobrist_hash()


def _batched(items: List[str]) -> List[Tuple[int, str, int]]:
    status = np.empty(len(items), dtype=np.int8)
    out = batch.fens(items, status=status)
    keys = batch.zobrist(items)
    return list(zip(status.tolist(), out, keys.tolist()))


def test_batch_fen_reading_equals_board_for_many_shapes() -> None:
    items = [shape.format(b=b) for shape in FEN_SHAPES for b in BOARDS]
    assert _batched(items) == [_single(f) for f in items]


def test_batch_fen_loading_gives_the_same_struct_as_set_fen(fens: List[str]) -> None:
    src = batch._source(fens[:2000])
    a, b = ffi.new("xq_pos *"), ffi.new("xq_pos *")
    for i, f in enumerate(fens[:2000]):
        assert lib.xq_batch_load(src.cdata, i, a) == 0
        data = f.encode()
        assert lib.xq_pos_set_fen(b, data, len(data), ffi.NULL) == 0
        assert bytes(ffi.buffer(a)) == bytes(ffi.buffer(b)), f


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(BOARDS[:3] + [STARTING_FEN, "4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 9"]),
       st.lists(st.tuples(st.integers(0, 80), st.sampled_from(list("/123456789kabnrcpKABNRCPeEhH wbr-0 \t"))),
                max_size=4))
def test_mutated_fens_read_like_board(fen: str, edits: List[Tuple[int, str]]) -> None:
    s = list(fen)
    for pos, ch in edits:  # odd positions insert a character, even ones overwrite one
        if pos % 2:
            s.insert(min(pos, len(s)), ch)
        else:
            s[min(pos, len(s) - 1)] = ch
    text = "".join(s)
    assert _batched([text]) == [_single(text)]


# ------------------------------------------------------------- move index


def test_move_index_is_the_documented_bijection() -> None:
    idx, lookup = batch.MOVE_INDEX, batch.MOVE_LOOKUP
    assert idx.dtype == np.uint16 and idx.shape == (2086,) == (batch.NUM_MOVES,)
    assert lookup.dtype == np.int16 and lookup.shape == (1 << 14,)
    assert idx.tolist() == possible_moves_oracle()
    assert (np.diff(idx.astype(np.int64)) > 0).all()
    assert np.array_equal(lookup[idx], np.arange(2086))
    assert (lookup >= 0).sum() == 2086 and (lookup[lookup < 0] == -1).all()
    assert not idx.flags.writeable and not lookup.flags.writeable
    # 1530 rank/file moves, 508 horse jumps, 16 advisor and 32 elephant moves.
    d = [(abs((c >> 7) // 9 - (c & 127) // 9), abs((c >> 7) % 9 - (c & 127) % 9)) for c in idx.tolist()]
    assert sum(1 for a, b in d if (a == 0) != (b == 0)) == 1530
    assert sum(1 for a, b in d if {a, b} == {1, 2}) == 508
    assert sum(1 for a, b in d if a == b == 1) == 16 and sum(1 for a, b in d if a == b == 2) == 32
    # The C lookups agree.
    assert [lib.xq_move_index_move(i) for i in range(2086)] == idx.tolist()
    assert all(lib.xq_move_index(c) == lookup[c] for c in range(1 << 14))
    assert lib.xq_move_index(1 << 14) == -1 and lib.xq_move_index_move(-1) == 0 and lib.xq_move_index_move(2086) == 0


def test_move_index_is_closed_under_rotation() -> None:
    turned = batch.rotate_codes(batch.MOVE_INDEX)
    assert sorted(turned.tolist()) == batch.MOVE_INDEX.tolist()
    assert np.array_equal(batch.rotate_codes(turned), batch.MOVE_INDEX)
    assert all(lib.xq_move_rotate(c) == t for c, t in zip(batch.MOVE_INDEX.tolist()[:200], turned.tolist()))


def test_move_index_helpers() -> None:
    m = Move.from_iccs("h2e2")
    i = batch.move_index(m)
    assert batch.MOVE_INDEX[i] == m.code and batch.index_move(i) == m
    assert batch.move_index(m.code) == i == batch.move_index(m, turn=RED)
    j = batch.move_index(m, turn=BLACK)
    assert batch.MOVE_INDEX[j] == Move(89 - m.from_square, 89 - m.to_square).code
    assert batch.index_move(j, turn=BLACK) == m
    for i in range(0, 2086, 37):
        assert batch.move_index(batch.index_move(i, turn=BLACK), turn=BLACK) == i
    with pytest.raises(ValueError, match="never"):
        batch.move_index(Move(0, 10))  # a0-b1: a diagonal step outside any palace
    with pytest.raises(ValueError):
        batch.move_index(1 << 14)
    with pytest.raises(ValueError):
        batch.index_move(2086)
    with pytest.raises(ValueError):
        batch.rotate_codes([90 << 7])
    with pytest.raises(TypeError):
        batch.rotate_codes([1.5])


def test_rotate_codes_of_nothing_is_an_empty_code_array() -> None:
    empties: List[Any] = [[], (), np.array([], dtype=np.float64), np.zeros((0, 3), dtype=np.int32)]
    for empty in empties:
        got = batch.rotate_codes(empty)
        assert got.dtype == np.uint16 and got.size == 0 and got.shape == np.shape(empty)


def test_move_index_covers_every_legal_move_of_the_corpus() -> None:
    all_fens: List[str] = []
    for path in _game_files():
        all_fens += replay(path)
    moves, offsets = batch.legal_moves(all_fens, threads=2)
    assert len(all_fens) > 400_000 and len(moves) > 10_000_000
    assert (batch.MOVE_LOOKUP[moves] >= 0).all()
    turned = batch.rotate_codes(moves)
    assert (batch.MOVE_LOOKUP[turned] >= 0).all()
    # The same positions through the other two input forms.
    pk = batch.pack(all_fens)
    got = batch.legal_moves(pk)
    assert np.array_equal(got[0], moves) and np.array_equal(got[1], offsets)


# ------------------------------------------------------------------ threads

_FUNCS: Dict[str, Callable[..., Any]] = {
    "legal_moves": lambda p, t: batch.legal_moves(p, threads=t),
    "perft": lambda p, t: batch.perft(p, 2, threads=t),
    "zobrist": lambda p, t: batch.zobrist(p, threads=t),
    "attack_maps": lambda p, t: batch.attack_maps(p, threads=t),
    "planes": lambda p, t: batch.planes(p, view="side_to_move", threads=t),
    "legal_mask": lambda p, t: batch.legal_mask(p, threads=t),
    "pack": lambda p, t: batch.pack(p, threads=t),
    "fens": lambda p, t: batch.fens(p, threads=t),
    "validate": lambda p, t: batch.validate(p, threads=t),
}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, list):
        return bool(a == b)
    return bool(np.array_equal(a, b))


@pytest.mark.parametrize("name", sorted(_FUNCS))
def test_threads_give_identical_results(fens: List[str], packed: np.ndarray, name: str) -> None:
    fn = _FUNCS[name]
    items = fens + ["bad"]  # a bad item in the last chunk
    want = fn(items, 1)
    for t in (2, 3, 16):
        assert _same(fn(items, t), want), t
    assert _same(fn(packed, 2), fn(packed, 1))


def test_batch_calls_from_several_python_threads_at_once(fens: List[str], packed: np.ndarray) -> None:
    names = sorted(_FUNCS)
    want = {n: _FUNCS[n](fens, 1) for n in names}
    barrier = threading.Barrier(4)
    rng = random.Random(3)
    jobs = [rng.choice(names) for _ in range(24)]

    def work(k: int) -> Tuple[str, Any]:
        if k < 4:
            barrier.wait()
        name = jobs[k]
        return name, _FUNCS[name](fens if k % 2 else packed, 1 + k % 3)

    with ThreadPoolExecutor(max_workers=4) as pool:
        for name, got in pool.map(work, range(len(jobs))):
            if name == "fens":
                assert got == want[name]
            else:
                assert _same(got, want[name]), name


# ------------------------------------------------------------------ misuse


def test_misuse_raises_before_any_work() -> None:
    good = batch.pack([STARTING_FEN] * 4)
    with pytest.raises(TypeError, match="uint8"):
        batch.legal_moves(good.astype(np.int16))
    with pytest.raises(ValueError, match="shape"):
        batch.zobrist(good[:, :51].copy())
    with pytest.raises(ValueError, match="shape"):
        batch.zobrist(good.reshape(-1))
    with pytest.raises(ValueError, match="contiguous"):
        batch.zobrist(np.asfortranarray(good))
    with pytest.raises(ValueError, match="contiguous"):
        batch.zobrist(np.tile(good, (1, 2))[:, ::2])
    with pytest.raises(TypeError, match="single"):
        batch.perft(STARTING_FEN, 1)
    with pytest.raises(TypeError, match="single"):
        batch.perft(Board(), 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"positions\[1\]"):
        batch.zobrist([STARTING_FEN, 42])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        batch.zobrist(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="1-D"):
        batch.zobrist(np.array([[STARTING_FEN]]))
    with pytest.raises(ValueError, match="depth"):
        batch.perft([STARTING_FEN], -1)
    with pytest.raises(ValueError, match=r"depth must be between 0 and 64, not 2147483648"):
        batch.perft([STARTING_FEN], 2**31)
    with pytest.raises(ValueError, match="threads"):
        batch.zobrist([STARTING_FEN], threads=0)
    with pytest.raises(ValueError, match="view"):
        batch.planes([STARTING_FEN], view="black")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="int8"):
        batch.zobrist([STARTING_FEN], status=np.empty(1, dtype=np.int32))
    with pytest.raises(ValueError, match="shape"):
        batch.zobrist([STARTING_FEN], status=np.empty(2, dtype=np.int8))
    with pytest.raises(TypeError):
        batch.zobrist([STARTING_FEN], status=[0])  # type: ignore[arg-type]
    ro = np.empty(1, dtype=np.int8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        batch.zobrist([STARTING_FEN], status=ro)
    with pytest.raises(TypeError):
        batch.unpack([STARTING_FEN])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        batch.fens([b"bytes are read as ASCII", None])  # type: ignore[list-item]


def test_read_only_packed_input_and_bytes_fens_are_accepted() -> None:
    pk = batch.pack([STARTING_FEN])
    pk.flags.writeable = False
    assert batch.perft(pk, 1).tolist() == [44]
    assert batch.perft([STARTING_FEN.encode(), Board()], 1).tolist() == [44, 44]  # type: ignore[list-item]


def test_empty_batches() -> None:
    empty_pk = np.empty((0, batch.PACKED_SIZE), dtype=np.uint8)
    forms: List[Any] = [[], empty_pk]
    for form in forms:
        moves, offsets = batch.legal_moves(form, threads=2)
        assert moves.shape == (0,) and offsets.tolist() == [0]
        assert batch.perft(form, 3).shape == (0,)
        assert batch.planes(form).shape == (0, 15, 10, 9)
        assert batch.legal_mask(form, threads=2).shape == (0, 2086)
        assert batch.attack_maps(form).shape == (0, 2, 10, 9)
        assert batch.pack(form).shape == (0, 52)
        assert batch.fens(form) == [] and batch.unpack(empty_pk) == []
        assert batch.validate(form).shape == (0,)


def test_c_calls_reject_bad_ranges() -> None:
    src = batch._source([STARTING_FEN])
    keys = ffi.new("uint64_t[]", 2)
    for lo, hi in ((-1, 1), (0, 2), (1, 0)):
        assert lib.xq_batch_zobrist(src.cdata, lo, hi, keys, ffi.NULL) == lib.XQ_E_ARG
    assert lib.xq_batch_zobrist(src.cdata, 0, 1, ffi.NULL, ffi.NULL) == lib.XQ_E_ARG
    assert lib.xq_batch_planes(src.cdata, 0, 1, 7, ffi.new("uint8_t[]", 1350), ffi.NULL) == lib.XQ_E_ARG
    assert lib.xq_batch_zobrist(src.cdata, 0, 1, keys, ffi.NULL) == 0 and keys[0] == Board().zobrist_hash()
    moves = ffi.new("xq_move[]", 10)
    counts = ffi.new("int64_t[]", 1)
    assert lib.xq_batch_legal_moves(src.cdata, 0, 1, moves, 10, counts, ffi.NULL) == lib.XQ_E_BUFFER_SMALL
    text = ffi.new("char[]", 20)
    assert lib.xq_batch_fens(src.cdata, 0, 1, text, 20, ffi.NULL) == lib.XQ_E_BUFFER_SMALL
