"""XQF reading (every version, scrambled or not) against the expected decodings, writing, and fuzzing."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SHARED_DIR, shared_path
from xiangqi import Move
from xiangqi.errors import IllegalMoveError, InvalidFenError, InvalidMoveError, XiangqiError
from xiangqi.pgn import Game, GameNode, InvalidRecordError, read_games, write_game
from xiangqi.xqf import decode_header, read_xqf, write_xqf

XQF_DIR = SHARED_DIR / "data" / "games" / "xqf"
START_SIDE = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"


def expected_rows() -> List[Dict[str, str]]:
    path = XQF_DIR / "expected.tsv"
    if not path.exists():
        return []
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def walk(node: GameNode) -> Iterator[GameNode]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.variations))


def same_tree(a: GameNode, b: GameNode) -> bool:
    if (a.move, a.comment) != (b.move, b.comment) or len(a.variations) != len(b.variations):
        return False
    return all(same_tree(x, y) for x, y in zip(a.variations, b.variations))


ROWS = expected_rows()


@pytest.mark.skipif(not ROWS, reason="shared XQF data not available")
@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_expected_decoding(row: Dict[str, str]) -> None:
    path = XQF_DIR / row["file"]
    data = path.read_bytes()
    header = decode_header(data)
    assert f"0x{header.version:02X}" == row["version"]
    assert header.type == int(row["type_byte_0x40"]) and header.result == int(row["result_byte_0x33"])
    game = read_xqf(path)
    fen = game.headers.get("FEN") or START_SIDE
    assert " ".join(fen.split()[:2]) == row["start_fen_and_side"]
    assert " ".join(m.iccs() for m in game.mainline_moves()) == row["mainline_iccs_legal_prefix"]
    nodes = [n for n in walk(game) if n.parent is not None]
    with_variation_flag = sum(1 for n in nodes if n.parent is not None and n.parent.variations[-1] is not n)
    with_comment = sum(1 for n in nodes if n.comment)
    bad = row["first_illegal_mainline_move(index:iccs)"]
    if not game.errors:
        assert len(nodes) == int(row["total_move_records"])
        assert with_variation_flag == int(row["records_with_variation_flag"])
        # The root record (the game comment) counts as a record with a comment.
        assert with_comment + (1 if game.comment else 0) == int(row["records_with_comment"])
        assert not bad
    else:
        # An illegal move and its subtree are dropped; everything else is kept.
        assert len(nodes) < int(row["total_move_records"])
        assert all(isinstance(e.error, IllegalMoveError) and e.offset >= 0x400 for e in game.errors)
        mainline_errors = [e for e in game.errors if e.mainline]
        if bad:
            index, move = bad.split(":")
            assert [(e.ply, e.token) for e in mainline_errors] == [(int(index), move)]
        else:
            assert mainline_errors == []


def test_versions_and_scrambling_seen() -> None:
    if not ROWS:
        pytest.skip("shared XQF data not available")
    assert {r["version"] for r in ROWS} == {"0x0A", "0x0C", "0x10", "0x12"}


def test_sample_headers_and_comments() -> None:
    path = shared_path("data", "games", "xqf", "xqbase-SAMPLE.XQF")
    game = read_xqf(path)
    assert game.headers["Event"] == "许银川让九子对聂棋圣" and game.headers["Site"] == "广州"
    assert game.headers["Date"] == "1999.12.09" and game.headers["Red"] == "许银川"
    assert game.headers["Black"] == "聂卫平" and game.headers["Result"] == "1-0"
    assert game.comment.startswith("象棋让九子") or game.comment.startswith("\u3000")
    assert game.errors == []
    # Same result from bytes and from a binary file.
    assert read_xqf(path.read_bytes()).mainline_moves() == game.mainline_moves()
    with open(path, "rb") as fh:
        assert read_xqf(fh).mainline_moves() == game.mainline_moves()


@pytest.mark.skipif(not ROWS, reason="shared XQF data not available")
@pytest.mark.parametrize("row", ROWS, ids=[r["file"] for r in ROWS])
def test_write_read_round_trip_of_real_files(row: Dict[str, str]) -> None:
    game = read_xqf(XQF_DIR / row["file"])
    data = write_xqf(game)
    assert data[:3] == b"XQ\x0a"
    back = read_xqf(data)
    assert back.errors == [] and same_tree(game, back)
    assert back.headers.get("FEN") == game.headers.get("FEN")
    for tag in ("Event", "Site", "Date", "Red", "Black", "Result", "Title"):
        assert back.headers.get(tag) == game.headers.get(tag)
    # And through PGN: the tree survives.
    (again,) = list(read_games(io.StringIO(write_game(back, notation="iccs"))))
    assert again.errors == [] and same_tree(back, again)


def test_write_read_built_game() -> None:
    game = Game()
    game.headers["Red"] = "红"
    game.headers["Result"] = "0-1"
    game.comment = "开局"
    a = game.add_variation(Move.from_iccs("h2e2"), comment="中炮")
    a.add_variation(Move.from_iccs("h9g7"))
    b = a.add_variation(Move.from_iccs("b9c7"), comment="变")
    b.add_variation(Move.from_iccs("b0c2"))
    game.add_variation(Move.from_iccs("c3c4"))
    buf = io.BytesIO()
    data = write_xqf(game, buf)
    assert buf.getvalue() == data
    back = read_xqf(data)
    assert same_tree(game, back) and back.comment == "开局" and back.headers["Red"] == "红"
    assert back.headers["Result"] == "0-1"


def test_black_to_move_set_up_is_taken_from_the_first_move() -> None:
    game = Game()
    game.setup("4kc3/4a4/b2a4b/2P2RP2/4r4/7N1/9/5A3/5K3/9 b - - 0 1")
    game.add_line([Move.from_iccs("e8f7"), Move.from_iccs("f6f7")])
    back = read_xqf(write_xqf(game))
    assert back.headers["FEN"] == game.headers["FEN"] and back.mainline_moves() == game.mainline_moves()


def test_not_xqf_raises_a_typed_error() -> None:
    with pytest.raises(InvalidRecordError):
        read_xqf(b"XQ")
    with pytest.raises(InvalidRecordError):
        read_xqf(b"PK" + bytes(2000))
    game = Game()
    game.headers["FEN"] = "4k4/9/9/9/9/9/PPPPPPPPP/9/9/4K4 w - - 0 1"  # nine pawns: no board, no XQF
    with pytest.raises(InvalidFenError):
        write_xqf(game)


def test_a_file_cut_inside_the_header_is_a_truncated_header_not_a_foreign_file() -> None:
    data = shared_path("data", "games", "xqf", "cchess-tests-test.xqf").read_bytes()
    for n in (918, 2, 1023):
        with pytest.raises(InvalidRecordError, match=rf"^truncated XQF header: {n} bytes, the header alone has 1024"):
            read_xqf(data[:n])
    for blob in (b"", b"X", b"AB" + data[2:918], b"PK" + data[2:]):
        with pytest.raises(InvalidRecordError, match="^not an XQF file: magic"):
            read_xqf(blob)


def test_the_tests_use_the_shared_data_helper_of_conftest() -> None:
    assert shared_path.__module__ == "conftest"


def test_truncated_file_keeps_what_was_read() -> None:
    path = shared_path("data", "games", "xqf", "cchess-tests-test.xqf")
    data = path.read_bytes()
    full = read_xqf(data)
    cut = read_xqf(data[:len(data) * 2 // 3])
    moves = cut.mainline_moves()
    assert 0 < len(moves) < len(full.mainline_moves())
    assert full.mainline_moves()[:len(moves)] == moves
    assert cut.errors and isinstance(cut.errors[-1].error, InvalidRecordError)


def _seeds() -> List[bytes]:
    files = sorted(XQF_DIR.glob("*.xqf"))[:6] + sorted(XQF_DIR.glob("*.XQF")) if XQF_DIR.exists() else []
    seeds = [p.read_bytes() for p in files if p.stat().st_size < 20000]
    game = Game()
    game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
    seeds.append(write_xqf(game))
    return seeds


SEEDS = _seeds()


@settings(max_examples=300, deadline=2000)
@given(index=st.integers(0, len(SEEDS) - 1),
       edits=st.lists(st.tuples(st.integers(0, 5000), st.integers(0, 255)), max_size=12),
       cut=st.integers(0, 6000))
def test_fuzz_mutated_files(index: int, edits: List[Tuple[int, int]], cut: int) -> None:
    data = bytearray(SEEDS[index])
    for pos, value in edits:
        data[pos % len(data)] = value
    for blob in (bytes(data), bytes(data[:cut])):
        try:
            game = read_xqf(blob)
        except InvalidRecordError:
            continue
        for err in game.errors:
            assert isinstance(err.error, XiangqiError)
        write_game(game, notation="iccs") if not any("start position" in e.reason for e in game.errors) else None


@settings(max_examples=200, deadline=2000)
@given(st.binary(min_size=0, max_size=1400))
def test_fuzz_random_bytes(data: bytes) -> None:
    for blob in (data, b"XQ" + data, b"XQ\x0a" + data, b"XQ\x12" + data):
        try:
            read_xqf(blob)
        except InvalidRecordError:
            pass


def test_a_move_record_that_stays_put_is_reported_not_raised() -> None:
    def one_move(iccs: str) -> bytes:
        game = Game()
        game.add_variation(Move.from_iccs(iccs))
        return write_xqf(game)

    a, b = one_move("h2e2"), one_move("h2i2")
    (at,) = [i for i in range(len(a)) if a[i] != b[i]]  # the destination byte of the move record
    data = bytearray(a)
    data[at] = (a[at - 1] - 24 + 32) & 0xFF  # destination = source (h2)
    game = read_xqf(bytes(data))
    assert [e.reason for e in game.errors] == [
        "invalid move 'h2h2': its from and to squares are the same (the null move is written 0000)"]
    assert isinstance(game.errors[0].error, InvalidMoveError) and not game.variations


@pytest.mark.parametrize("fmt", ["XQF", "DhtmlXQ"])
def test_a_null_move_is_refused_by_the_writers_of_formats_without_one(fmt: str, tmp_path: Path) -> None:
    """XQF and DhtmlXQ store a move as two squares: the null move went out as a0a0, which their readers refuse
    (the game came back cut short at it, with a warning). PGN writes it as 0000."""
    from xiangqi.cli import main
    from xiangqi.dhtmlxq import write_dhtmlxq

    write = write_xqf if fmt == "XQF" else write_dhtmlxq
    text = "1. h2e2 -- 2. h0g2 (2. b0c2 --) h9g7 *\n"
    game = next(read_games(text.encode("utf-8")))
    assert not game.errors
    with pytest.raises(InvalidRecordError, match=f"^{fmt} has no null move: ply 2 of the main line is the null move"):
        write(game)
    side = next(read_games(b"1. h2e2 h9g7 2. h0g2 (2. b0c2 --) h7h0 *\n"))
    with pytest.raises(InvalidRecordError, match="ply 4 of a variation is the null move"):
        write(side)
    plain = next(read_games(b"1. h2e2 h9g7 2. h0g2 *\n"))
    assert write(plain)  # no null move, nothing refused
    # `xiangqi convert` says so in one line and leaves no output file.
    source = tmp_path / "null.pgn"
    source.write_text(text, encoding="utf-8")
    out = tmp_path / ("null.xqf" if fmt == "XQF" else "null.dhtmlxq.txt")
    assert main(["convert", str(source), str(out), "--to", fmt.lower()]) == 2
    assert not out.exists()
