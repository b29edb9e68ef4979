"""FEN reading and writing: round trips, aliases, and bad input that must raise, never crash.

Every bad FEN must raise :class:`xiangqi.errors.InvalidFenError` (a
``ValueError``) whose message names the input, with ``offset`` pointing at the
first bad character where there is one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference_movegen as ref
from xiangqi.errors import InvalidFenError

SHARED = Path(__file__).resolve().parents[2] / "shared"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
START_BOARD = START.split()[0]


def _lib() -> Any:
    import xiangqi

    return xiangqi


def _board(fen: str) -> Any:
    return _lib().Board(fen)


# ---------------------------------------------------------------- round trips

ROUND_TRIP = [
    START,
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "4ka3/4cN1r1/3R5/p1p5p/9/4C4/P3P3c/B3B4/4A4/3AK4 b - - 4 24",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 119 200",
    "9/4k4/9/9/9/9/9/9/4K4/9 b - - 0 1",
]


@pytest.mark.parametrize("fen", ROUND_TRIP)
def test_round_trip(fen: str) -> None:
    board = _board(fen)
    assert board.fen() == fen
    assert _board(board.fen()).fen() == fen
    assert board.fen().split()[0] == ref.parse_fen(fen).board_fen()


def test_round_trip_perft_positions() -> None:
    path = SHARED / "data" / "perft.json"
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    for entry in json.loads(path.read_text(encoding="utf-8")):
        assert _board(entry["fen"]).fen() == entry["fen"]


def test_set_fen_round_trip() -> None:
    board = _board(START)
    for fen in ROUND_TRIP:
        board.set_fen(fen)
        assert board.fen() == fen
        assert board.turn == (fen.split()[1] == "w")


def test_piece_codes_match_reference() -> None:
    for fen in ROUND_TRIP:
        assert list(_board(fen).piece_codes()) == ref.parse_fen(fen).board


def test_side_to_move() -> None:
    xq = _lib()
    assert _board(START).turn == xq.RED
    assert _board(START.replace(" w ", " b ")).turn == xq.BLACK


def test_red_side_alias_r() -> None:
    board = _board(START.replace(" w ", " r "))
    assert board.turn == _lib().RED
    assert board.fen() == START


def test_horse_elephant_aliases() -> None:
    aliased = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
    assert _board(aliased).fen() == START
    mixed = "rhbakaenr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNEAKABHR w - - 0 1"
    assert _board(mixed).fen() == START


def test_short_forms_default_to_red_and_counters() -> None:
    assert _board(START_BOARD).fen() == START
    assert _board(START_BOARD + " w").fen() == START
    assert _board(START_BOARD + " b").fen() == START.replace(" w ", " b ")


def test_counters_are_kept() -> None:
    board = _board(START_BOARD + " b - - 7 42")
    assert board.halfmove_clock == 7
    assert board.fullmove_number == 42
    assert board.fen() == START_BOARD + " b - - 7 42"


# ---------------------------------------------------------------- bad input

ROWS = START_BOARD.split("/")

BAD = [
    ("empty", ""),
    ("blank", "   "),
    ("nine-rows", "/".join(ROWS[:9]) + " w - - 0 1"),
    ("eleven-rows", "/".join(ROWS + ["9"]) + " w - - 0 1"),
    ("row-too-long-piece", "rnbakabnrr/" + "/".join(ROWS[1:]) + " w - - 0 1"),
    ("row-too-long-digit", "rnbakabnr1/" + "/".join(ROWS[1:]) + " w - - 0 1"),
    ("row-too-long-big-digit", "/".join(ROWS[:1] + ["9p"] + ROWS[2:]) + " w - - 0 1"),
    ("row-too-short", "rnbakabn/" + "/".join(ROWS[1:]) + " w - - 0 1"),
    ("empty-row", "rnbakabnr//" + "/".join(ROWS[2:]) + " w - - 0 1"),
    ("unknown-letter", "rnbakabnx/" + "/".join(ROWS[1:]) + " w - - 0 1"),
    ("chess-queen", "rnbqkabnr/" + "/".join(ROWS[1:]) + " w - - 0 1"),
    ("missing-red-king", START.replace("RNBAKABNR", "RNBA1ABNR")),
    ("missing-black-king", START.replace("rnbakabnr", "rnba1abnr")),
    ("no-kings", START.replace("RNBAKABNR", "RNBA1ABNR").replace("rnbakabnr", "rnba1abnr")),
    ("two-red-kings", START.replace("1C5C1/9", "1C5C1/4K4")),
    ("two-black-kings", START.replace("9/1c5c1", "4k4/1c5c1")),
    ("bad-side", START.replace(" w ", " x ")),
    ("bad-halfmove", START_BOARD + " w - - x 1"),
    ("negative-halfmove", START_BOARD + " w - - -1 1"),
    ("bad-fullmove", START_BOARD + " w - - 0 y"),
    ("nul-byte", START_BOARD[:5] + "\x00" + START_BOARD[5:] + " w - - 0 1"),
    ("garbage-bytes", "\xff\xfe\x00\x01garbage"),
    ("non-ascii", "象" * 20),
    ("only-slashes", "/////////"),
    ("zero-digit", "rnbakabnr/0/" + "/".join(ROWS[2:]) + " w - - 0 1"),
]


@pytest.mark.parametrize("name,fen", BAD, ids=[b[0] for b in BAD])
def test_bad_fen_raises(name: str, fen: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        _board(fen)
    err = info.value
    assert isinstance(err, ValueError)
    assert isinstance(err.offset, int) and -1 <= err.offset <= len(fen)
    assert len(str(err)) < 10_000


def test_unknown_letter_offset() -> None:
    fen = "rnbakabnx/" + "/".join(ROWS[1:]) + " w - - 0 1"
    with pytest.raises(InvalidFenError) as info:
        _board(fen)
    assert info.value.offset == fen.index("x")
    assert "x" in str(info.value)


def test_message_names_input() -> None:
    fen = "rnbakabnx/" + "/".join(ROWS[1:]) + " w - - 0 1"
    with pytest.raises(InvalidFenError) as info:
        _board(fen)
    assert fen in str(info.value) or fen[:40] in str(info.value)


def test_huge_string() -> None:
    fen = "p" * (10 * 1024 * 1024)
    with pytest.raises(InvalidFenError) as info:
        _board(fen)
    assert len(str(info.value)) < 10_000


def test_huge_valid_prefix() -> None:
    fen = START + " " + "0" * (10 * 1024 * 1024)
    with pytest.raises(InvalidFenError):
        _board(fen)


def test_failed_set_fen_leaves_board_unchanged() -> None:
    board = _board(START)
    board.push(_lib().Move.from_iccs("h2e2"))
    before = board.fen()
    with pytest.raises(InvalidFenError):
        board.set_fen("rnbakabnx/" + "/".join(ROWS[1:]) + " w - - 0 1")
    assert board.fen() == before


def test_non_string_is_rejected() -> None:
    with pytest.raises((TypeError, InvalidFenError)):
        _board(12345)  # type: ignore[arg-type]


_FEN_ALPHABET = "kabnrcpheKABNRCPHE0123456789/ wbr-x\x00\u8c61"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_FEN_ALPHABET, max_size=120))
def test_random_text_never_crashes(text: str) -> None:
    """Whatever the text, the Board either reads it like the reference does or raises InvalidFenError."""
    try:
        board = _board(text)
    except InvalidFenError:
        return
    board_fen = board.fen().split()[0]
    assert board_fen == ref.parse_fen(text.split()[0]).board_fen()


def _mutations(fen: str) -> List[str]:
    out = []
    for i in range(len(fen)):
        out.append(fen[:i] + fen[i + 1:])
        out.append(fen[:i] + "9" + fen[i + 1:])
        out.append(fen[:i] + "K" + fen[i + 1:])
    return out


def test_single_character_mutations_never_crash() -> None:
    for text in _mutations(START):
        try:
            board = _board(text)
        except InvalidFenError:
            continue
        assert board.fen().split()[0] == ref.parse_fen(text.split()[0]).board_fen(), text
