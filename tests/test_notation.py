"""Move notation (xiangqi.notation and the Board methods on top of it).

* the decoder alone (no position): every written form maps to the right description;
* hand cases from the rules (炮二平五, 马8进7, 前车进一, 后马退六, 中兵平四, 二兵进一, P++1, H--8) and the other
  forms the module reads (traditional, full-width, 上/下, five-character and piece-less tandem pawns, xqbase and
  pyffish WXF, 1-based coordinates);
* bad input: the right error type, naming the token and the position;
* round trips parse(format(m)) == m and uniqueness of the written text, for every legal move of random and crafted
  positions (2 to 5 pawns on a file, two files of tandem pawns), in every notation and style;
* the CCPD corpus: every Chinese move of the 3,000 master games and the 300 set-up games reads as the move of the
  matching ICCS file, and the compact traditional writer gives back the corpus's own text;
* pyffish (when installed) as a second writer: every WXF text it writes reads back as its move.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xiangqi import (
    AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move, STARTING_FEN, XiangqiError,
)
from xiangqi import notation as N
from xiangqi import _notation_text as NT
from xiangqi._notation_text import (  # the decoding of a move's text without a position (the notation module's own)
    ALL as _ALL, LAST as _LAST, MIDDLE as _MIDDLE, W_FILE as _W_FILE, W_FRONT as _W_FRONT,
    W_MID_OR_ORD as _W_MID_OR_ORD, W_REAR as _W_REAR, Invalid as _Invalid, _decode_any, _decode_chinese, _decode_wxf,
)

GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"
BLACK_START = STARTING_FEN.replace(" w ", " b ")


def fen_of(pieces: Dict[str, str], side: str = "w") -> str:
    """A FEN from ``{"e0": "K", ...}``."""
    grid = [[""] * 9 for _ in range(10)]
    for sq, sym in pieces.items():
        grid[int(sq[1:])][ord(sq[0]) - 97] = sym
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            if grid[r][f]:
                row += (str(empty) if empty else "") + grid[r][f]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def kings(**more: str) -> Dict[str, str]:
    d = {"e0": "K", "d9": "k"}
    d.update(more)
    return d


# ---------------------------------------------------------------------------------------------------------------
# Decoding alone
# ---------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, ptype, hint, selectors, direction, number", [
    ("炮二平五", 5, -1, ((_ALL, 2),), 0, 5),
    ("马8进7", 4, -1, ((_ALL, 8),), 1, 7),
    ("馬８進７", 4, -1, ((_ALL, 8),), 1, 7),
    ("傌二進三", 4, -1, ((_ALL, 2),), 1, 3),
    ("俥一平二", 6, -1, ((_ALL, 1),), 0, 2),
    ("砲８平５", 5, -1, ((_ALL, 8),), 0, 5),
    ("包2平5", 5, -1, ((_ALL, 2),), 0, 5),
    ("帥五平六", 7, 1, ((_ALL, 5),), 0, 6),
    ("将5进1", 7, 0, ((_ALL, 5),), 1, 1),
    ("兵七上一", 1, 1, ((_ALL, 7),), 1, 1),
    ("卒３進１", 1, 0, ((_ALL, 3),), 1, 1),
    ("车一下一", 6, -1, ((_ALL, 1),), -1, 1),
    ("士4进5", 2, -1, ((_ALL, 4),), 1, 5),
    ("相三进五", 3, -1, ((_ALL, 3),), 1, 5),
    ("前车进一", 6, -1, ((1, 0),), 1, 1),
    ("后马退六", 4, -1, ((_LAST, 0),), -1, 6),
    ("後馬退６", 4, -1, ((_LAST, 0),), -1, 6),
    ("中兵平四", 1, 1, ((_MIDDLE, 0),), 0, 4),
    ("二兵进一", 1, 1, ((2, 0),), 1, 1),
    ("五卒平4", 1, 0, ((5, 0),), 0, 4),
    ("前兵九平八", 1, 1, ((1, 9),), 0, 8),
    ("前九平八", 1, -1, ((1, 9),), 0, 8),
    ("二7平6", 1, -1, ((2, 7),), 0, 6),
    ("二卒7平6", 1, 0, ((2, 7),), 0, 6),
    (" 炮二平五 ", 5, -1, ((_ALL, 2),), 0, 5),
])
def test_decode_chinese(text: str, ptype: int, hint: int, selectors: Tuple[Tuple[int, int], ...], direction: int,
                        number: int) -> None:
    d = _decode_chinese(text.strip())
    assert (d.ptype, d.hint, d.selectors, d.direction, d.number) == (ptype, hint, selectors, direction, number)


@pytest.mark.parametrize("text, ptype, selectors, direction, number", [
    ("C2.5", 5, ((_W_FILE, 2),), 0, 5),
    ("C2=5", 5, ((_W_FILE, 2),), 0, 5),
    ("h8+7", 4, ((_W_FILE, 8),), 1, 7),
    ("N8+7", 4, ((_W_FILE, 8),), 1, 7),
    ("B3+5", 3, ((_W_FILE, 3),), 1, 5),
    ("R+.3", 6, ((_W_FRONT, 0),), 0, 3),
    ("C-+1", 5, ((_W_REAR, 0),), 1, 1),
    ("P++1", 1, ((_W_FRONT, 0),), 1, 1),
    ("H--8", 4, ((_W_REAR, 0),), -1, 8),
    ("++.4", 1, ((1, 0),), 0, 4),
    ("--.4", 1, ((_LAST, 0),), 0, 4),
    ("3+.4", 1, ((_W_FRONT, 3),), 0, 4),
    ("3-.4", 1, ((_W_REAR, 3),), 0, 4),
    ("33.4", 1, ((_W_MID_OR_ORD + 3, 3),), 0, 4),
    ("17=6", 1, ((1, 7),), 0, 6),
    ("C+-2", 5, ((_W_FRONT, 0),), -1, 2),
    ("+C-2", 5, ((_W_FRONT, 0),), -1, 2),
    ("Pa+1", 1, ((1, 0),), 1, 1),
    ("P.+1", 1, ((_MIDDLE, 0),), 1, 1),
])
def test_decode_wxf(text: str, ptype: int, selectors: Tuple[Tuple[int, int], ...], direction: int,
                    number: int) -> None:
    d = _decode_wxf(text)
    assert (d.ptype, d.selectors, d.direction, d.number) == (ptype, selectors, direction, number)


@pytest.mark.parametrize("text, one_based, code", [
    ("h2e2", False, Move.from_iccs("h2e2").code),
    ("H2-E2", False, Move.from_iccs("h2e2").code),
    ("h3e3", True, Move.from_iccs("h2e2").code),
    ("a10a9", True, Move.from_iccs("a9a8").code),
    ("Ｈ２－Ｅ２", False, Move.from_iccs("h2e2").code),
    ("0000", False, 0),
])
def test_decode_coordinates(text: str, one_based: bool, code: int) -> None:
    d = _decode_any(text, one_based)
    assert d.kind == 0 and d.code == code


@pytest.mark.parametrize("text", [
    "", "   ", "炮二平五炮二平五", "炮二平", "炮二走五", "炮二平十", "炮零平五", "王二平五", "马二平三", "马二进五",
    "相三进四", "仕四进六", "车二平二", "炮二平five", "ホウ二平五", "пешка", "C2.0", "X2.5", "C2*5", "h2e", "h2e2e2",
    "i0j1", "h2e2x", "69.5", "P", "Ｃ２．０",
])
def test_decode_rejects(text: str) -> None:
    with pytest.raises(_Invalid):
        _decode_any(text, False)


def test_one_based_is_never_guessed() -> None:
    assert _decode_any("a10a9", True).code == Move.from_iccs("a9a8").code
    with pytest.raises(_Invalid):
        _decode_any("a10a9", False)
    # h3e3 is a 0-based move too: read as such unless asked
    assert _decode_any("h3e3", False).code == Move.from_iccs("h3e3").code
    assert _decode_any("h3e3", True).code == Move.from_iccs("h2e2").code


# ---------------------------------------------------------------------------------------------------------------
# Hand cases with a board
# ---------------------------------------------------------------------------------------------------------------

HAND = [
    # (FEN, text, ICCS)
    (STARTING_FEN, "炮二平五", "h2e2"),
    (STARTING_FEN, "炮二平5", "h2e2"),      # either side's numerals
    (STARTING_FEN, "砲２平５", "h2e2"),
    (STARTING_FEN, "C2.5", "h2e2"),
    (STARTING_FEN, "c2=5", "h2e2"),
    (STARTING_FEN, "Ｃ２．５", "h2e2"),
    (STARTING_FEN, "傌二進三", "h0g2"),
    (STARTING_FEN, "马二上三", "h0g2"),
    (STARTING_FEN, "相三进五", "g0e2"),
    (STARTING_FEN, "象三进五", "g0e2"),     # 象 for Red is common in books
    (STARTING_FEN, "仕四进五", "f0e1"),
    (STARTING_FEN, "帅五进一", "e0e1"),
    (STARTING_FEN, "兵七进一", "c3c4"),
    (STARTING_FEN, "h2e2", "h2e2"),
    (STARTING_FEN, "H2-E2", "h2e2"),
    (BLACK_START, "马8进7", "h9g7"),
    (BLACK_START, "馬８進７", "h9g7"),
    (BLACK_START, "马八进七", "h9g7"),       # Red's numerals for Black
    (BLACK_START, "H8+7", "h9g7"),
    (BLACK_START, "h8+7", "h9g7"),
    (BLACK_START, "卒3进1", "c6c5"),
    (BLACK_START, "将5进1", "e9e8"),
    (BLACK_START, "士4进5", "d9e8"),
    (BLACK_START, "車９下１", None),         # nothing behind the rook: illegal, see test_errors
    (fen_of(kings(h5="R", h2="R")), "前车进一", "h5h6"),
    (fen_of(kings(h5="R", h2="R")), "後車進一", "h2h3"),
    (fen_of(kings(h5="R", h2="R")), "R+.3", "h5g5"),
    (fen_of(kings(h5="R", h2="R")), "R-+1", "h2h3"),
    (fen_of(kings(e6="N", e4="N")), "后马退六", "e4d2"),
    (fen_of(kings(e6="N", e4="N")), "前马进四", "e6f8"),
    (fen_of(kings(e6="N", e4="N")), "H--6", "e4d2"),
    (fen_of(kings(c6="N", c4="N")), "H--8", "c4b2"),
    (fen_of(kings(e5="P", e6="P", e7="P")), "中兵平四", "e6f6"),
    (fen_of(kings(e5="P", e6="P", e7="P")), "前兵平四", "e7f7"),
    (fen_of(kings(e5="P", e6="P", e7="P")), "后兵进一", None),  # blocked by its own pawn
    (fen_of(kings(e5="P", e6="P", e7="P")), "P5.4", "e6f6"),  # WXF: the middle of three, written normally
    (fen_of(kings(c5="P", c6="P", c7="P", c9="P")), "二兵进一", "c7c8"),
    (fen_of(kings(c5="P", c6="P", c7="P", c9="P")), "P+.6", "c7d7"),  # + is the second of four
    (fen_of(kings(c5="P", c6="P")), "P++1", "c6c7"),
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P")), "+++1", "c8c9"),     # ++ is the first of four
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P")), "P++1", None),       # P+ is the second: blocked
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P")), "前兵进一", "c8c9"),
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P")), "++.8", "c8b8"),
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P")), "--.8", "c5b5"),
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P")), "四兵平八", "c5b5"),
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P", c4="P")), "五兵进一", None),  # blocked
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P", c4="P")), "三兵平六", "c6d6"),
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P", c4="P")), "P7.6", "c6d6"),   # WXF middle of five
    (fen_of(kings(c5="P", c6="P", c7="P", c8="P", c4="P")), "P-.6", "c5d5"),   # second to last of five
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "前兵七平八", "c6b6"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "前七平八", "c6b6"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "后三平二", "g5h5"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "7+.8", "c6b6"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "3-.2", "g5h5"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "27=8", "c5b5"),  # pyffish: second on file 7
    # xqbase: ordinals over every tandem pawn, files from the mover's right (三 = g first), front to back
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "一兵平二", "g6h6"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "二兵平二", "g5h5"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "三兵平八", "c6b6"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "四兵平八", "c5b5"),
    (fen_of(kings(c5="P", c6="P", g5="P", g6="P")), "Pd.8", "c5b5"),
    (fen_of(kings(c4="p", c3="p", g4="p", g3="p"), "b"), "二7平6", "g4f4"),  # Black's front is nearer rank 0
    (fen_of(kings(c4="p", c3="p", g4="p", g3="p"), "b"), "二卒7平6", "g4f4"),
    (fen_of(kings(c4="p", c3="p", g4="p", g3="p"), "b"), "前卒３進１", "c3c2"),
    (fen_of(kings(c4="p", c3="p", g4="p", g3="p"), "b"), "3+.2", "c3b3"),
    (fen_of(kings(d0="A", d2="A")), "仕六进五", "d0e1"),    # two advisors: the direction decides
    (fen_of(kings(d0="A", d2="A")), "仕六退五", "d2e1"),
    (fen_of(kings(d0="A", d2="A")), "前仕退五", "d2e1"),    # 前/后 accepted for them too
    (fen_of(kings(d0="A", d2="A")), "A6-5", "d2e1"),
    (fen_of(kings(c0="B", c4="B")), "相七进五", "c0e2"),
    (fen_of(kings(c0="B", c4="B")), "相七退五", "c4e2"),
    # two rooks on a file but only one can make the move: the file form is accepted
    (fen_of(kings(h5="R", h2="R")), "車二進四", "h5h9"),
    (fen_of(kings(h5="R", h2="R")), "车二进三", "h5h8"),   # h2 would land on h5
]


@pytest.mark.parametrize("fen, text, iccs", [c for c in HAND if c[2] is not None])
def test_hand_cases(fen: str, text: str, iccs: str) -> None:
    board = Board(fen)
    expected = Move.from_iccs(iccs)
    assert N.parse_move(board, text) == expected
    assert board.parse_move(text) == expected
    if not text.isascii() or any("Ａ" <= c <= "ｚ" for c in text):
        if any("\u3400" <= c <= "\u9fff" for c in text):
            assert N.parse_chinese(board, text) == expected
            assert board.parse_chinese(text) == expected
    elif not re.fullmatch(r"[a-iA-I]\d-?[a-iA-I]\d", text):
        assert N.parse_wxf(board, text) == expected
        assert board.parse_wxf(text) == expected
    assert board.fen() == Board(fen).fen()  # parsing does not move


def test_push_methods() -> None:
    board = Board()
    assert board.push_chinese("炮二平五") == Move.from_iccs("h2e2")
    assert board.push_wxf("H8+7") == Move.from_iccs("h9g7")
    assert board.push_move("h0g2") == Move.from_iccs("h0g2")
    assert board.push_move("馬２進３") == Move.from_iccs("b9c7")
    assert board.push_move("i1i2", one_based=True) == Move.from_iccs("i0i1")
    assert [m.iccs() for m in board.move_stack] == ["h2e2", "h9g7", "h0g2", "b9c7", "i0i1"]
    assert board.chinese(Move.from_iccs("a9a8")) == "车１进１"
    assert board.chinese(Move.from_iccs("a9a8"), traditional=True) == "車１進１"
    assert board.chinese(Move.from_iccs("a9a8"), fullwidth=False) == "车1进1"
    assert board.wxf(Move.from_iccs("a9a8")) == "R1+1"
    assert board.parse_iccs("a10a9", one_based=True) == Move.from_iccs("a9a8")
    assert N.parse_iccs(board, "a10a9", one_based=True) == Move.from_iccs("a9a8")
    assert N.parse_iccs(board, "A9-A8") == Move.from_iccs("a9a8")
    assert N.parse_iccs(board, "0000") == Move.null()


def test_format_hand_cases() -> None:
    b = Board(fen_of(kings(h5="R", h2="R")))
    assert b.chinese(Move.from_iccs("h5h6")) == "前车进一"
    assert b.chinese(Move.from_iccs("h2h3"), traditional=True) == "後車進一"
    assert b.wxf(Move.from_iccs("h5g5")) == "R+.3"
    assert b.wxf(Move.from_iccs("h2h1")) == "R--1"
    # compact: the rear rook cannot follow (h5 blocks it), so the file is enough
    assert N.format_chinese(b, Move.from_iccs("h5h9"), compact=True) == "车二进四"
    assert N.format_chinese(b, Move.from_iccs("h5h9")) == "前车进四"
    b = Board(fen_of(kings(e5="P", e6="P", e7="P")))
    assert b.chinese(Move.from_iccs("e6f6")) == "中兵平四"
    assert b.wxf(Move.from_iccs("e6f6")) == "P5.4"
    assert b.wxf(Move.from_iccs("e7f7")) == "P+.4"
    b = Board(fen_of(kings(c5="P", c6="P", c7="P", c8="P")))
    assert [b.chinese(Move.from_iccs(m)) for m in ("c8b8", "c7b7", "c6b6", "c5b5")] == \
        ["前兵平八", "二兵平八", "三兵平八", "四兵平八"]
    assert [b.wxf(Move.from_iccs(m)) for m in ("c8c9", "c7b7", "c6b6", "c5b5")] == ["+++1", "P+.8", "P-.8", "--.8"]
    b = Board(fen_of(kings(c5="P", c6="P", g5="P", g6="P")))
    assert b.chinese(Move.from_iccs("c6b6")) == "前七平八"
    assert b.chinese(Move.from_iccs("g5h5")) == "后三平二"
    assert b.wxf(Move.from_iccs("c6b6")) == "7+.8"
    b = Board(fen_of(kings(c4="p", c3="p", g4="p", g3="p"), "b"))
    assert b.chinese(Move.from_iccs("g4f4")) == "后７平６"
    assert b.chinese(Move.from_iccs("g3f3"), traditional=True, fullwidth=False) == "前7平6"
    b = Board(fen_of(kings(c5="P", c6="P", c7="P", g5="P", g6="P")))
    assert b.chinese(Move.from_iccs("c6b6")) == "中七平八"
    assert b.wxf(Move.from_iccs("c6b6")) == "77.8"
    b = Board(fen_of(kings(g5="P", g6="P", g7="P", c5="P", c6="P")))
    assert b.wxf(Move.from_iccs("g6h6")) == "23.2"  # "33" would also be pyffish's third pawn
    b = Board(fen_of(kings(d0="A", d2="A")))
    assert b.chinese(Move.from_iccs("d2e1")) == "仕六退五"
    assert b.wxf(Move.from_iccs("d0e1")) == "A6+5"
    assert N.format_iccs(Move.from_iccs("a9a8"), one_based=True) == "a10a9"
    assert N.format_iccs(Move.null(), one_based=True) == "0000"


# ---------------------------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------------------------

def _error(exc_type: type, board: Board, text: str, parse: str = "parse_move") -> str:
    with pytest.raises(exc_type) as info:
        getattr(N, parse)(board, text)
    message = str(info.value)
    assert board.fen() in message, message
    if text.strip():
        assert repr(text)[:30].rstrip("'") in message, message
    with pytest.raises(exc_type):
        getattr(board, parse)(text)
    return message


@pytest.mark.parametrize("parse", ["parse_move", "parse_chinese", "parse_wxf", "parse_iccs"])
def test_errors_invalid_everywhere(parse: str) -> None:
    board = Board()
    for text in ["", "   ", "炮二平五炮二平五炮二平五", "xyz", "ホウ二平五", "炮二平five", "C2.0", "i0j1"]:
        _error(InvalidMoveError, board, text, parse)


def test_error_messages() -> None:
    board = Board()
    assert "empty" in _error(InvalidMoveError, board, "")
    assert "too long" in _error(InvalidMoveError, board, "炮二平五" * 5)
    _error(InvalidMoveError, board, "炮二平五炮")          # five characters, not a tandem form
    _error(InvalidMoveError, board, "ホウ二平五")            # wrong script
    _error(InvalidMoveError, board, "马二平三")              # a horse never moves sideways
    _error(InvalidMoveError, board, "X2.5")
    msg = _error(IllegalMoveError, board, "卒3进1")          # Black's pawn, Red to move
    assert "Black" in msg and "Red" in msg
    msg = _error(IllegalMoveError, board, "将5平4")
    assert "Black" in msg
    msg = _error(IllegalMoveError, Board(BLACK_START), "帥五平六")
    assert "Red" in msg
    msg = _error(IllegalMoveError, board, "车三进一")        # no rook on file 三
    assert "no Red rook" in msg and "三" in msg
    _error(IllegalMoveError, board, "炮二进八")            # off the board
    msg = _error(IllegalMoveError, board, "车一进四")         # blocked by its own pawn
    assert "blocked" in msg and "i3" in msg
    msg = _error(IllegalMoveError, board, "马二进四")        # h0 -> f1: the leg g0 is taken
    assert "hobbled" in msg and "g0" in msg
    msg = _error(IllegalMoveError, board, "车一进三")        # onto its own pawn
    assert "own pawn" in msg

    msg = _error(IllegalMoveError, board, "前车进一")        # no two rooks on a file
    assert "no two" in msg
    msg = _error(IllegalMoveError, board, "h2h8")            # through its screen without capturing
    assert "blocked by the piece on h7" in msg
    msg = _error(IllegalMoveError, board, "a9a8")            # Black's rook, Red to move
    assert "Black" in msg
    msg = _error(IllegalMoveError, board, "e4e5")
    assert "no piece" in msg
    two_rooks = Board(fen_of(kings(h5="R", h2="R")))
    msg = _error(AmbiguousMoveError, two_rooks, "车二平三")   # both rooks can go to file 三
    assert "h5" in msg and "h2" in msg and "前" in msg
    msg = _error(AmbiguousMoveError, two_rooks, "R2.3")
    assert "h5" in msg and "h2" in msg
    # a pinned piece: the message says the king would be left in check
    pinned = Board("3akr3/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1")
    msg = _error(IllegalMoveError, pinned, "车五平四")
    assert "check" in msg
    with pytest.raises(TypeError):
        N.parse_move(board, 42)  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    for exc in (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
        assert issubclass(exc, ValueError) and issubclass(exc, XiangqiError)


def test_format_errors() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="h2h8.*blocked"):
        board.chinese(Move.from_iccs("h2h8"))
    with pytest.raises(IllegalMoveError, match=re.escape(board.fen())):
        board.wxf(Move.from_iccs("a9a8"))
    # The null move is written 0000 in every notation (and read back: tests/test_board_api.py).
    assert board.chinese(Move.null()) == board.wxf(Move.null()) == "0000"


# ---------------------------------------------------------------------------------------------------------------
# Round trips on random and crafted positions
# ---------------------------------------------------------------------------------------------------------------

_PALACE = {True: ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]}
_PALACE[False] = [s[0] + str(9 - int(s[1])) for s in _PALACE[True]]
_ADVISOR = {True: ["d0", "f0", "e1", "d2", "f2"]}
_ADVISOR[False] = [s[0] + str(9 - int(s[1])) for s in _ADVISOR[True]]
_ELEPHANT = {True: ["c0", "g0", "a2", "e2", "i2", "c4", "g4"]}
_ELEPHANT[False] = [s[0] + str(9 - int(s[1])) for s in _ELEPHANT[True]]
_ALL_SQUARES = [f + str(r) for r in range(10) for f in "abcdefghi"]


def _pawn_squares(red: bool) -> List[str]:
    out = []
    for sq in _ALL_SQUARES:
        r = int(sq[1]) if red else 9 - int(sq[1])
        if r >= 5 or (r in (3, 4) and sq[0] in "acegi"):
            out.append(sq)
    return out


def random_position(rng: random.Random) -> Optional[Board]:
    """A random valid position (kings, regions, pawns where pawns can be; no one to move in check of the other)."""
    pieces: Dict[str, str] = {}

    def put(sym: str, squares: List[str]) -> None:
        free = [s for s in squares if s not in pieces]
        if free:
            pieces[rng.choice(free)] = sym

    for red in (True, False):
        up = str.upper if red else str.lower
        put(up("k"), _PALACE[red])
        for _ in range(rng.randint(0, 2)):
            put(up("a"), _ADVISOR[red])
        for _ in range(rng.randint(0, 2)):
            put(up("b"), _ELEPHANT[red])
        for sym in "nrc":
            for _ in range(rng.choice((0, 1, 2, 2))):
                put(up(sym), _ALL_SQUARES)
        pawns = _pawn_squares(red)
        # bias towards stacked pawns: pick a few files and fill them
        for _ in range(rng.randint(0, 5)):
            if rng.random() < 0.6:
                f = rng.choice("abcdefghi")
                put(up("p"), [s for s in pawns if s[0] == f])
            else:
                put(up("p"), pawns)
    try:
        board = Board(fen_of(pieces, rng.choice("wb")))
    except ValueError:
        return None
    return board if board.is_valid() else None


def crafted_positions() -> Iterator[str]:
    """Stacked pawns (2-5 on a file, two files of tandem pawns) and tandem pieces, for both sides."""
    red_layouts = [
        dict(c5="P", c6="P"), dict(c5="P", c6="P", c7="P"), dict(c5="P", c6="P", c7="P", c8="P"),
        dict(c4="P", c5="P", c6="P", c7="P", c8="P"), dict(c5="P", c6="P", c7="P", c8="P", c9="P"),
        dict(c5="P", c6="P", g5="P", g6="P"),
        dict(c5="P", c6="P", c7="P", g5="P", g6="P"), dict(a5="P", a6="P", i5="P", i6="P", i7="P"),
        dict(e5="P", e6="P", e7="P", d5="P", d6="P"), dict(b6="P", b8="P", h6="P", h8="P", e3="P"),
        dict(h5="R", h2="R", c5="C", c7="C", d4="N", d6="N"), dict(d0="A", d2="A", c0="B", c4="B"),
        dict(f0="A", f2="A", g0="B", g4="B", e2="N", e4="N", e6="R", e8="R"),
        dict(g3="P", g4="P", c3="P", c4="P", a3="P"),
    ]
    for layout in red_layouts:
        pieces = dict(layout)
        pieces.update({"e1": "K", "f9": "k"} if "e0" in pieces or "e2" in pieces else {"e0": "K", "f9": "k"})
        if "f0" in pieces:
            pieces.pop("e1", None)
            pieces["e0"] = "K"
        for side in "wb":
            yield fen_of(pieces, side)
            # the mirror image for Black (a half turn, colours swapped)
            flipped = {"abcdefghi"[8 - (ord(s[0]) - 97)] + str(9 - int(s[1])): p.swapcase() for s, p in pieces.items()}
            yield fen_of(flipped, "b" if side == "w" else "w")


def _positions(n_random: int, seed: int) -> List[Board]:
    rng = random.Random(seed)
    boards: List[Board] = []
    for fen in crafted_positions():
        b = Board(fen)
        if b.legal_move_codes():
            boards.append(b)
    while len(boards) < n_random + 20:
        r = random_position(rng)
        if r is not None and r.legal_move_codes():
            boards.append(r)
    # and positions from real play: random playouts from the start
    for _ in range(10):
        b = Board()
        for _ in range(rng.randint(10, 120)):
            codes = b.legal_move_codes()
            if not codes:
                break
            b.push(Move.from_code(rng.choice(codes)))
        boards.append(Board(b.fen()))
    return boards


STYLES = [dict(traditional=t, fullwidth=f, compact=c) for t in (False, True) for f in (True, False)
          for c in (False, True)]


def test_round_trips_and_uniqueness() -> None:
    boards = _positions(250, seed=20260329)
    checked = 0
    for board in boards:
        moves = list(board.legal_moves)
        fen = board.fen()
        for style in STYLES:
            texts = [N.format_chinese(board, m, **style) for m in moves]
            assert len(set(texts)) == len(texts), (fen, style, sorted(texts))
            for m, t in zip(moves, texts):
                assert N.parse_chinese(board, t) == m, (fen, style, t, m)
                assert N.parse_move(board, t) == m, (fen, style, t, m)
                assert len(t) == 4, (fen, t)
            checked += len(moves)
        wxf = [board.wxf(m) for m in moves]
        assert len(set(wxf)) == len(wxf), (fen, sorted(wxf))
        for m, t in zip(moves, wxf):
            assert board.parse_wxf(t) == m, (fen, t, m)
            assert board.parse_move(t) == m, (fen, t, m)
            assert board.parse_wxf(t.lower()) == m, (fen, t, m)
            assert board.parse_wxf(t.replace(".", "=")) == m, (fen, t, m)
        for m in moves:
            assert board.parse_move(m.iccs()) == m
            assert board.parse_move(N.format_iccs(m, one_based=True), one_based=True) == m
            assert board.parse_iccs(N.format_iccs(m, one_based=True), one_based=True) == m
        assert board.fen() == fen
    assert len(boards) >= 250 and checked > 40_000  # moves x styles


def test_round_trips_crafted_tandem_forms() -> None:
    """The crafted positions exercise every qualifier the writer has."""
    seen = set()
    for fen in crafted_positions():
        board = Board(fen)
        for m in board.legal_moves:
            t = board.chinese(m)
            if t[0] in "前中后二三四五":
                seen.add(t[0] + ("兵" if t[1] in "兵卒" else "file" if t[1] in NT._NUMERAL else "piece"))
            w = board.wxf(m)
            if not w[0].isalpha() or not w[1].isdigit():
                seen.add(w[:2].replace(w[0], "L") if w[0].isalpha() else w[:2])
    for form in ["前兵", "中兵", "后兵", "二兵", "三兵", "四兵", "五兵", "前file", "中file", "后file", "前piece",
                 "后piece", "L+", "L-", "++", "--"]:
        assert form in seen, (form, sorted(seen))


def test_whole_game_functions() -> None:
    texts = ["炮二平五", "马8进7", "马二进三", "车9平8", "车一平二", "马2进3", "兵七进一", "卒7进1", "车二进六", "炮8平9"]
    codes = N.parse_game(None, texts)
    board = Board()
    for t in texts:
        board.push_chinese(t)
    assert codes == [m.code for m in board.move_stack]
    assert N.format_game(None, codes, fullwidth=False) == texts
    assert N.format_game(None, codes)[1] == "马８进７"
    assert N.format_game(None, board.move_stack, to="iccs") == [m.iccs() for m in board.move_stack]
    wxf = N.convert_game(None, texts, to="wxf")
    assert wxf[:2] == ["C2.5", "H8+7"]
    assert N.convert_game(None, wxf, notation="wxf", to="chinese", fullwidth=False) == texts
    one = N.convert_game(None, texts, to="iccs", one_based=True)
    assert one[0] == "h3e3" and N.parse_game(None, one, one_based=True) == codes
    assert N.parse_game(STARTING_FEN, iter(texts), notation="chinese") == codes
    mixed = [texts[0], "H8+7", "h0g2", "車９平８"]
    assert N.parse_game(None, mixed) == codes[:4]
    with pytest.raises(ValueError):
        N.parse_game(None, texts, notation="klingon")
    with pytest.raises(ValueError):
        N.format_game(None, codes, to="klingon")


def test_whole_game_errors_name_ply_and_position() -> None:
    texts = ["炮二平五", "马8进7", "马二进三", "车9平8", "车二进六"]  # no rook on file 二 before 车一平二
    with pytest.raises(IllegalMoveError) as info:
        N.parse_game(None, texts)
    msg = str(info.value)
    board = Board()
    for t in texts[:4]:
        board.push_chinese(t)
    assert "ply 4" in msg and board.fen() in msg and "车二进六" in msg
    # a move that obeys the piece rules but leaves the king in check is caught at the end
    fen = "3akr3/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"
    with pytest.raises(IllegalMoveError, match="ply 0.*check"):
        N.parse_game(fen, ["车五平四"])
    with pytest.raises(IllegalMoveError, match="ply 1"):
        N.parse_game(None, ["h2e2", "h2e2"])
    with pytest.raises(InvalidMoveError, match=r"'xx' at ply 2 in rnbakab1r/9/1c4nc1"):
        N.parse_game(None, ["h2e2", "h9g7", "xx"])
    with pytest.raises(AmbiguousMoveError, match="ply 0"):
        N.parse_game(fen_of(kings(h5="R", h2="R")), ["车二平三"])
    assert N.parse_game(None, ["h2e2", "0000", "--", "h9g7"]) == [3222, 0, 0, 11333]  # null moves pass the turn
    with pytest.raises(InvalidMoveError, match="ply 1 .*from and to squares are the same"):
        N.parse_game(None, ["h2e2", "a9a9"])
    with pytest.raises(IllegalMoveError, match="'h2e2' at ply 2.*no piece on h2"):
        N.format_game(None, [Move.from_iccs("h2e2"), Move.from_iccs("h9g7"), Move.from_iccs("h2e2")])
    with pytest.raises(IllegalMoveError, match="ply 0.*check"):
        N.format_game(fen, [Move.from_iccs("e1f1")], to="wxf")
    with pytest.raises(IllegalMoveError, match="ply 0"):
        N.format_game(fen, [Move.from_iccs("e1f1")], to="iccs")
    with pytest.raises(TypeError):
        N.parse_game(None, ["h2e2", 3])  # type: ignore[list-item]


def test_whole_game_replay_drives_the_c_position() -> None:
    # The whole-game functions play their private board through the C core (no fallback on the public API:
    # every Board has a C position).
    texts = ["炮二平五", "马8进7", "马二进三", "车9平8", "车一平二"]
    board = Board(STARTING_FEN)
    codes = N._parse_codes(board, texts, "chinese", False)
    assert codes == N.parse_game(None, texts)
    ref = Board(STARTING_FEN)
    for c in codes:
        ref.push(Move.from_code(c))
    assert board.fen() == ref.fen() and board.move_stack == []  # played on the C position, no move stack
    with pytest.raises(IllegalMoveError, match="ply 1"):
        N._parse_codes(Board(STARTING_FEN), ["h2e2", "h2e2"], "auto", False)


# ---------------------------------------------------------------------------------------------------------------
# The CCPD corpus
# ---------------------------------------------------------------------------------------------------------------

_MOVE_NUMBER = re.compile(r"\d+\.(\.\.)?")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def read_games(path: Path) -> List[Tuple[str, List[str]]]:
    """A minimal PGN tokenizer: (FEN tag, move texts) per game."""
    games = []
    for chunk in path.read_text(encoding="utf-8").split("[Game ")[1:]:
        m = re.search(r'\[FEN "([^"]*)"\]', chunk)
        fen = m.group(1) if m else STARTING_FEN
        body = chunk[chunk.index("\n\n"):] if "\n\n" in chunk else ""
        tokens = []
        for tok in body.split():
            tok = _MOVE_NUMBER.sub("", tok, count=1) if _MOVE_NUMBER.match(tok) else tok
            if tok and tok not in _RESULTS:
                tokens.append(tok)
        games.append((fen, tokens))
    return games


def _corpus(name: str) -> Tuple[List[Tuple[str, List[str]]], List[Tuple[str, List[str]]]]:
    chinese, iccs = GAMES / f"{name}.chinese.pgn", GAMES / f"{name}.iccs.pgn"
    if not chinese.is_file() or not iccs.is_file():
        pytest.skip(f"shared game data not available: {chinese}")
    a, b = read_games(chinese), read_games(iccs)
    assert len(a) == len(b)
    return a, b


@pytest.mark.parametrize("name, n_games, n_plies", [("ccpd-master-3000", 3000, 254_333),
                                                    ("ccpd-positions-300", 300, 7_842)])
def test_ccpd_corpus(name: str, n_games: int, n_plies: int) -> None:
    chinese, iccs = _corpus(name)
    assert len(chinese) == n_games
    plies = 0
    black_first = 0
    for (fen, texts), (fen2, moves) in zip(chinese, iccs):
        assert fen == fen2
        codes = N.parse_game(fen, texts, notation="chinese")
        assert codes == [Move.from_iccs(m).code for m in moves], fen
        # the compact traditional writer gives the corpus's text back, move for move
        assert N.format_game(fen, codes, traditional=True, compact=True) == texts, fen
        plies += len(codes)
        black_first += " b " in fen
    assert plies == n_plies
    if name == "ccpd-positions-300":
        assert black_first == 117


def test_ccpd_conversions_round_trip() -> None:
    chinese, _ = _corpus("ccpd-master-3000")
    for fen, texts in chinese[::10]:
        codes = N.parse_game(fen, texts, notation="chinese")
        for to in ("wxf", "chinese", "iccs"):
            out = N.convert_game(fen, texts, notation="chinese", to=to)
            assert N.parse_game(fen, out, notation=to) == codes
            assert N.parse_game(fen, out) == codes  # detected


def test_ccpd_board_methods_sample() -> None:
    chinese, iccs = _corpus("ccpd-positions-300")
    for (fen, texts), (_, moves) in list(zip(chinese, iccs))[:60]:
        board = Board(fen)
        for t, m in zip(texts, moves):
            assert board.push_chinese(t).iccs() == m


# ---------------------------------------------------------------------------------------------------------------
# pyffish as a second writer
# ---------------------------------------------------------------------------------------------------------------

def test_pyffish_wxf_reads_back() -> None:
    sf = pytest.importorskip("pyffish")
    boards = _positions(60, seed=7)
    n = 0
    for board in boards:
        fen = board.fen()
        ambiguous_conflict = 0
        for m in board.legal_moves:
            text = sf.get_san("xiangqi", fen, N.format_iccs(m, one_based=True), False, sf.NOTATION_XIANGQI_WXF)
            try:
                assert board.parse_wxf(text) == m, (fen, text, m)
            except AmbiguousMoveError:
                # pyffish's "dd" (d-th pawn on file d) is WXF's middle pawn: reported, never misread
                assert re.fullmatch(r"(\d)\1[-+=]\d", text), (fen, text)
                ambiguous_conflict += 1
            n += 1
        assert ambiguous_conflict <= 2
    assert n > 1000


# ---------------------------------------------------------------------------------------------------------------
# Fuzz: any text gives a legal move or one of the three move errors
# ---------------------------------------------------------------------------------------------------------------

_ALPHABET = "车車马馬炮砲相象仕士帅将兵卒前中后後一二三四五六七八九123456789１２３４５６７８９进進退平上下" \
            "KAEHRCPBNkaehrcpbn+-.=abcdefghi0 "


_FUZZ_BOARD = Board(fen_of(kings(c5="P", c6="P", c7="P", g5="P", g6="P", h5="R", h2="R", d0="A", d2="A", c0="B",
                                 e4="N", e6="N", b2="C", a6="p", a7="p", h9="r")))
_FUZZ_LEGAL = set(_FUZZ_BOARD.legal_moves)


@settings(max_examples=800, deadline=None, derandomize=True)
@given(st.one_of(st.text(_ALPHABET, min_size=0, max_size=6), st.text(max_size=6)), st.booleans())
def test_fuzz_any_text(text: str, one_based: bool) -> None:
    board = _FUZZ_BOARD
    try:
        move = N.parse_move(board, text, one_based=one_based)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as e:
        assert board.fen() in str(e)
        return
    assert move in _FUZZ_LEGAL or move == Move.null(), (text, move)


# ---------------------------------------------------------------------------------------------------------------
# Review fixes: misuse of the whole-game functions, full-width digits, annotation marks, articles
# ---------------------------------------------------------------------------------------------------------------


def test_whole_game_functions_refuse_a_plain_str() -> None:
    for call in (lambda: N.parse_game(None, "h2e2 h9g7"), lambda: N.convert_game(None, "h2e2 h9g7")):
        with pytest.raises(TypeError, match=r"not a str \('h2e2 h9g7'\).*split"):
            call()
    with pytest.raises(TypeError, match="not a str"):
        N.format_game(None, "h2e2")  # type: ignore[arg-type]
    assert N.parse_game(None, "h2e2 h9g7".split()) == N.parse_game(None, ("h2e2", "h9g7"))


def test_format_game_names_an_item_that_is_not_a_move() -> None:
    with pytest.raises(TypeError, match=r"moves\[0\] is 'h2e2' \(str\).*parse_game"):
        N.format_game(None, ["h2e2"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"moves\[1\] is None \(NoneType\)"):
        N.format_game(None, iter([Move.from_iccs("h2e2"), None]))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"moves\[2\] is 1\.5 \(float\)"):
        N.format_game(None, (Move.from_iccs("h2e2").code, Move.from_iccs("h9g7"), 1.5))  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["C２.5", "Ｃ2.5", "C2．5", "Ｃ２．５", "c２=５", "h２e２", "ｈ2ｅ2", "H２-E２",
                                  "炮二平５", "砲２平５"])
def test_full_width_digits_fold_in_ascii_tokens(text: str) -> None:
    board = Board()
    assert N.parse_move(board, text) == Move.from_iccs("h2e2")
    if text.translate(NT._FOLD).isascii():
        parse = N.parse_iccs if "." not in text.translate(NT._FOLD) and "=" not in text else N.parse_wxf
        assert parse(board, text) == Move.from_iccs("h2e2")
    assert N.parse_game(None, [text, "h9g7"]) == N.parse_game(None, ["h2e2", "h9g7"])


def test_full_width_digits_of_chinese_tokens_stay_chinese() -> None:
    # Black's full-width numerals are read as Chinese numerals, not folded into a WXF or ICCS token.
    assert _decode_any("马８进７", False).kind == 1
    assert N.parse_move(Board(BLACK_START), "马８进７") == Move.from_iccs("h9g7")


@pytest.mark.parametrize("mark", ["!", "?", "!!", "??", "!?", "?!", "+", "#", "。", "！", "？", "！？", "+!", " !"])
@pytest.mark.parametrize("text, iccs", [("炮二平五", "h2e2"), ("C2.5", "h2e2"), ("h2e2", "h2e2"),
                                        ("H2-E2", "h2e2"), ("C2+1", "h2h3"), ("0000", "0000")])
def test_trailing_annotation_marks_are_dropped(mark: str, text: str, iccs: str) -> None:
    board = Board()
    assert N.parse_move(board, text + mark) == Move.from_iccs(iccs)
    if iccs != "0000":
        assert N.parse_game(None, [text + mark]) == [Move.from_iccs(iccs).code]
    tandem = fen_of(kings(c5="P", c6="P", g5="P", g6="P"))
    assert N.parse_move(Board(tandem), "前兵七进一" + mark) == Move.from_iccs("c6c7")


def test_trailing_marks_by_notation() -> None:
    board = Board()
    assert N.parse_chinese(board, "炮二平五!") == Move.from_iccs("h2e2")
    assert N.parse_wxf(board, "C2.5?!") == Move.from_iccs("h2e2")
    assert N.parse_iccs(board, "h2e2#") == Move.from_iccs("h2e2")
    assert N.parse_iccs(board, "h3e3!", one_based=True) == Move.from_iccs("h2e2")
    assert N.parse_game(None, ["炮二平五!", "马8进7?", "马二进三。"], notation="chinese") == \
        N.parse_game(None, ["炮二平五", "马8进7", "马二进三"])


def test_wxf_operators_are_never_taken_for_marks() -> None:
    assert N.parse_move(Board(), "C2+1") == Move.from_iccs("h2h3")
    assert N.parse_move(Board(), "R1+1") == Move.from_iccs("i0i1")
    two = fen_of(kings(c5="P", c6="P"))
    assert N.parse_move(Board(two), "P++1") == Move.from_iccs("c6c7")
    assert N.parse_move(Board(two), "P++1!") == Move.from_iccs("c6c7")
    assert N.parse_move(Board(fen_of(kings(c6="N", c4="N"))), "H--8") == Move.from_iccs("c4b2")
    four = fen_of(kings(c5="P", c6="P", c7="P", c8="P"))
    assert N.parse_move(Board(four), "+++1") == Move.from_iccs("c8c9")
    # An incomplete move keeps its operator: reported as too short, not read as a shorter token.
    for text in ("C2+", "P++", "3+"):
        with pytest.raises(InvalidMoveError, match=r"not [1-3]\)"):
            N.parse_move(Board(four), text)
    with pytest.raises(InvalidMoveError, match="'!' is not a digit"):
        N.parse_move(Board(four), "C2+!")


def test_error_messages_use_the_right_article() -> None:
    board = Board()
    assert "an elephant never moves sideways" in _error(InvalidMoveError, board, "相三平五")
    assert "an advisor never moves sideways" in _error(InvalidMoveError, board, "仕四平五")
    assert "an elephant cannot go from file 3 to file 4" in _error(InvalidMoveError, board, "相三进四")
    assert "a horse never moves sideways" in _error(InvalidMoveError, board, "马二平三")
    assert "an advisor cannot go" in _error(InvalidMoveError, board, "A4+6") or \
        "an advisor" in _error(InvalidMoveError, board, "A4+4")


def test_decode_move_ignores_legality_only() -> None:
    """decode_move keeps the pieces' rules but not the king's safety: the squares of a faulty move."""
    from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
    from xiangqi.notation import decode_move

    board = Board("3k5/9/9/9/9/9/9/9/4r4/3K5 w")
    with pytest.raises(IllegalMoveError):
        board.parse_move("帥六進一")
    assert decode_move(board, "帥六進一") == Move.from_iccs("d0d1")
    assert decode_move(Board(), "炮二平五") == Board().parse_move("炮二平五")
    with pytest.raises(IllegalMoveError, match="hobbled"):
        decode_move(Board(), "馬二進四")
    with pytest.raises(InvalidMoveError):
        decode_move(Board(), "xx")
    with pytest.raises(AmbiguousMoveError):
        decode_move(Board("4k4/9/9/9/9/7N1/9/9/9/3K3N1 w"), "马二进三")  # h0-g2 or h4-g6
