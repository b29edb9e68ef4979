"""Hand-made positions, one rule each, with move sets worked out by hand.

Every expectation is checked against both the library's ``Board`` and the
naive reference generator (``reference_movegen.py``), so a wrong expectation
shows up as a reference failure rather than passing silently.

FENs list ranks 9 (Black's back rank) down to 0; files a–i from Red's left.
"""

from __future__ import annotations

from typing import Any, Optional, Set

import pytest

import reference_movegen as ref


def _lib() -> Any:
    import xiangqi

    return xiangqi


def _library_moves(fen: str, origin: Optional[str]) -> Set[str]:
    board = _lib().Board(fen)
    moves = {m.iccs() for m in board.legal_moves}
    return {m for m in moves if origin is None or m[:2] == origin}


def _reference_moves(fen: str, origin: Optional[str]) -> Set[str]:
    moves = ref.parse_fen(fen).legal_moves()
    return {m for m in moves if origin is None or m[:2] == origin}


def _expand(origin: Optional[str], targets: str) -> Set[str]:
    """``'a1 b2'`` from ``e4`` -> ``{'e4a1', 'e4b2'}``; with no origin the words are whole moves."""
    return {(origin or "") + t for t in targets.split()}


# (id, FEN, origin square or None for the whole move list, expected targets / moves)
CASES = [
    # ---------------------------------------------------------------- rook
    ("rook-open", "5k3/9/9/9/9/4R4/9/9/9/3K5 w - - 0 1", "e4",
     "e0 e1 e2 e3 e5 e6 e7 e8 e9 a4 b4 c4 d4 f4 g4 h4 i4"),
    ("rook-blocked-and-capture", "5k3/9/9/4p4/9/2P1R4/9/9/9/3K5 w - - 0 1", "e4",
     "e5 e6 e3 e2 e1 e0 d4 f4 g4 h4 i4"),
    # ---------------------------------------------------------------- cannon
    ("cannon-start-b2", ref.START_FEN, "b2", "b1 b3 b4 b5 b6 b9 a2 c2 d2 e2 f2 g2"),
    # up: e5 e6 quiet, e7 screen, e9 capture; down to e0; left: own screen d4, capture c4 (not b4);
    # right: enemy screen f4, own piece h4 beyond is not capturable.
    ("cannon-screens", "4rk3/9/4p4/9/9/1rpPCp1P1/9/9/9/3K5 w - - 0 1", "e4",
     "e5 e6 e9 e3 e2 e1 e0 c4"),
    ("cannon-no-capture-without-screen", "5k3/9/9/9/9/4C1r2/9/9/9/3K5 w - - 0 1", "e4",
     "e5 e6 e7 e8 e9 e3 e2 e1 e0 a4 b4 c4 d4 f4"),
    ("cannon-two-screens-stop", "5k3/4r4/9/4p4/9/4C4/9/9/9/3K5 w - - 0 1", "e4",
     "e5 e8 e3 e2 e1 e0 a4 b4 c4 d4 f4 g4 h4 i4"),
    # ---------------------------------------------------------------- horse
    # leg e5 blocked (no d6/f6); f5 is diagonal and blocks nothing; own g3; capture c3.
    ("horse-legs", "5k3/9/9/9/4pp3/4N4/2r3P2/9/9/3K5 w - - 0 1", "e4", "d2 f2 c5 c3 g5"),
    ("horse-start-b0", ref.START_FEN, "b0", "a2 c2"),
    ("horse-corner", "5k3/9/9/9/9/9/9/9/9/N2K5 w - - 0 1", "a0", "b2 c1"),
    # ---------------------------------------------------------------- elephant
    ("elephant-eye-blocked", "5k3/9/9/9/9/6p2/3P5/4B4/9/3K5 w - - 0 1", "e2", "c0 g0 g4"),
    ("elephant-river-red", "5k3/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c4", "a2 e2"),
    ("elephant-river-black", "5k3/9/9/9/6b2/9/9/9/9/3K5 b - - 0 1", "g5", "e7 i7"),
    ("elephant-edge", "5k3/9/9/9/9/9/9/9/9/2BK5 w - - 0 1", "c0", "a2 e2"),
    # ---------------------------------------------------------------- advisor
    ("advisor-centre", "5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", "e1", "f0 d2 f2"),
    ("advisor-corner", "5k3/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", "d2", "e1"),
    ("advisor-black", "3ak4/9/9/9/9/9/9/9/9/5K3 b - - 0 1", "d9", "e8"),
    # ---------------------------------------------------------------- king
    # f1 would face the black king on the open f file.
    ("king-palace-centre", "5k3/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e1", "e0 e2 d1"),
    ("king-palace-corner", "5k3/9/9/9/9/9/9/3K5/9/9 w - - 0 1", "d2", "d1 e2"),
    # e0 would face the black king on the open e file.
    ("king-flying-general", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0", "d1"),
    # ---------------------------------------------------------------- pawn
    ("pawn-red-home", "5k3/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1", "e3", "e4"),
    ("pawn-red-river-bank", "5k3/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1", "e4", "e5"),
    ("pawn-red-crossed", "5k3/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1", "e5", "e6 d5 f5"),
    ("pawn-red-last-rank", "P4k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "a9", "b9"),
    ("pawn-black-home", "5k3/9/9/4p4/9/9/9/9/9/3K5 b - - 0 1", "e6", "e5"),
    ("pawn-black-river-bank", "5k3/9/9/9/4p4/9/9/9/9/3K5 b - - 0 1", "e5", "e4"),
    ("pawn-black-crossed", "5k3/9/9/9/9/4p4/9/9/9/3K5 b - - 0 1", "e4", "e3 d4 f4"),
    ("pawn-black-last-rank", "5k3/9/9/9/9/9/9/9/9/3K4p b - - 0 1", "i0", "h0"),
    # ---------------------------------------------------------------- whole move lists
    # the horse is the only piece between the kings: it may not leave the file.
    ("flying-general-pinned-horse", "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1", None,
     "e0d0 e0f0 e0e1"),
    # a crossed pawn between the kings may go forward only.
    ("flying-general-pinned-pawn", "4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1", "e5", "e6"),
    # black rook d1 checks along rank 1; Kxd1 would face the black king on the d file.
    ("kings-face-after-capture", "3k5/9/9/9/9/9/9/9/3rK4/9 w - - 0 1", None, "e1e0 e1e2"),
    # the horse is the only piece between the kings; capturing off the file is illegal too.
    ("kings-face-capture-off-file", "4k4/9/9/3r5/9/4N4/9/9/9/4K4 w - - 0 1", "e4", ""),
    # black cannon e5 with an empty file: a red piece arriving on e1..e4 becomes a screen (a2e2 is
    # illegal, passing through e2 is fine); e0d0 would face the black king on d9.
    ("cannon-screen-arrives", "3k5/9/9/9/4c4/9/9/R8/9/4K4 w - - 0 1", None,
     "a2a0 a2a1 a2a3 a2a4 a2a5 a2a6 a2a7 a2a8 a2a9 a2b2 a2c2 a2d2 a2f2 a2g2 a2h2 a2i2 e0e1 e0f0"),
    # two red pieces between the king and a black cannon: neither may leave the file.
    ("cannon-double-screen", "3k5/9/4c4/9/9/4N4/9/4R4/9/4K4 w - - 0 1", None,
     "e0e1 e0f0 e2e1 e2e3"),
    # three pieces between: any one may leave (two screens remain).
    # (d6/f6 are blocked by the pawn on the horse's leg e5.)
    ("cannon-triple-screen", "3k5/9/4c4/9/4P4/4N4/9/9/4A4/4K4 w - - 0 1", "e4",
     "c5 g5 c3 g3 d2 f2"),
    # a rook on the horse's leg f1 shields e0 from the horse on f2; only capturing the horse is legal.
    ("horse-leg-pin", "3k5/9/9/9/9/9/9/5n3/5R3/4K4 w - - 0 1", "f1", "f2"),
]


@pytest.mark.parametrize("name,fen,origin,targets", CASES, ids=[c[0] for c in CASES])
def test_reference_agrees_with_hand_expectation(name: str, fen: str, origin: Optional[str],
                                                targets: str) -> None:
    assert _reference_moves(fen, origin) == _expand(origin, targets)


@pytest.mark.parametrize("name,fen,origin,targets", CASES, ids=[c[0] for c in CASES])
def test_library_moves(name: str, fen: str, origin: Optional[str], targets: str) -> None:
    expected = _expand(origin, targets)
    got = _library_moves(fen, origin)
    assert got == expected, f"{fen}: missing {sorted(expected - got)}, extra {sorted(got - expected)}"


@pytest.mark.parametrize("name,fen,origin,targets", CASES, ids=[c[0] for c in CASES])
def test_library_whole_list_matches_reference(name: str, fen: str, origin: Optional[str],
                                              targets: str) -> None:
    want = _reference_moves(fen, None)
    got = _library_moves(fen, None)
    assert got == want, f"{fen}: missing {sorted(want - got)}, extra {sorted(got - want)}"


def test_start_position_has_44_moves() -> None:
    board = _lib().Board()
    assert len(board.legal_moves) == 44
    assert len(board.legal_move_codes()) == 44
    assert sorted(board.legal_move_codes()) == sorted(m.code for m in board.legal_moves)


# ---------------------------------------------------------------- check, mate, stalemate

CHECK_CASES = [
    # (id, FEN, side to move in check?)
    ("start", ref.START_FEN, False),
    # horse g7 checks e8 through its leg f7.
    ("horse-check-open-leg", "3a1a3/4k4/6N2/9/9/9/9/9/9/3K5 b - - 0 1", True),
    # horse g8 checks e9 through its leg f8; the advisor on f9 (the king's side) does not block:
    # horse legs are not symmetric.
    ("horse-check-f9-not-a-leg", "4ka3/6N2/9/9/9/9/9/9/9/3K5 b - - 0 1", True),
    ("horse-check-leg-blocked", "4k4/5rN2/9/9/9/9/9/9/9/3K5 b - - 0 1", False),
    # the mirror: a red piece on the king's side square does not block a black horse's check.
    ("horse-check-red", "3k5/9/9/9/9/9/9/9/2n6/3AK4 w - - 0 1", True),
    ("cannon-check", "3k5/9/4c4/9/9/9/9/4P4/9/4K4 w - - 0 1", True),
    ("cannon-no-check-two-screens", "3k5/9/4c4/9/4N4/9/9/4P4/9/4K4 w - - 0 1", False),
    ("cannon-check-enemy-screen", "3k5/9/4c4/4p4/9/9/9/9/9/4K4 w - - 0 1", True),
    ("rook-check", "3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1", True),
    ("pawn-check-sideways", "3k5/9/9/9/9/9/9/9/9/3pK4 w - - 0 1", True),
    ("pawn-no-check-backwards", "3k5/9/9/9/9/9/9/9/4K4/4p4 w - - 0 1", False),
]


@pytest.mark.parametrize("name,fen,in_check", CHECK_CASES, ids=[c[0] for c in CHECK_CASES])
def test_is_check(name: str, fen: str, in_check: bool) -> None:
    assert ref.parse_fen(fen).is_check() == in_check
    assert _lib().Board(fen).is_check() == in_check


# black king d9 alone: d8 is covered by the pawn c8, e9 faces the red king on the open e file.
STALEMATE = "3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1"
# the same with a rook checking along rank 9.
CHECKMATE = "R2k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1"
# double cannon mate (重炮): cannons e7 and e6 against the king on e9, advisors boxing it in.
CANNON_MATE = "3aka3/9/4C4/4C4/9/9/9/9/9/3K5 b - - 0 1"


def test_stalemate() -> None:
    pos = ref.parse_fen(STALEMATE)
    assert pos.is_stalemate() and not pos.is_checkmate()
    board = _lib().Board(STALEMATE)
    assert not board.is_check()
    assert len(board.legal_moves) == 0
    assert board.is_stalemate()
    assert not board.is_checkmate()
    assert board.is_game_over()


@pytest.mark.parametrize("fen", [CHECKMATE, CANNON_MATE])
def test_checkmate(fen: str) -> None:
    pos = ref.parse_fen(fen)
    assert pos.is_checkmate()
    board = _lib().Board(fen)
    assert board.is_check()
    assert len(board.legal_moves) == 0
    assert board.is_checkmate()
    assert not board.is_stalemate()
    assert board.is_game_over()


def test_not_mate_when_a_block_exists() -> None:
    # as CANNON_MATE plus a black horse on c7, which can capture the cannon on e6 (leg d7);
    # c7e8 is illegal (it becomes the screen of the cannon on e7).
    fen = "3aka3/9/2n1C4/4C4/9/9/9/9/9/3K5 b - - 0 1"
    assert not ref.parse_fen(fen).is_checkmate()
    board = _lib().Board(fen)
    assert board.is_check() and not board.is_checkmate()
    assert {m.iccs() for m in board.legal_moves} == ref.parse_fen(fen).legal_moves()


# ---------------------------------------------------------------- odd FENs: region rule

ODD = [
    # kings outside their palaces on one rank: the flying general is a file rule, no check here.
    ("kings-on-one-rank", "3k4K/9/9/9/9/9/9/9/9/9 b - - 0 1", "d9", "d8 e9"),
    # a red elephant across the river may only return to its own half.
    ("elephant-across-river", "5k3/9/9/9/4B4/9/9/9/9/3K5 w - - 0 1", "e5", "c3 g3"),
    # a red advisor outside the palace may only enter it.
    ("advisor-outside-palace", "5k3/9/9/9/9/9/9/2A6/9/4K4 w - - 0 1", "c2", "d1"),
]


@pytest.mark.parametrize("name,fen,origin,targets", ODD, ids=[c[0] for c in ODD])
def test_region_rule_reference(name: str, fen: str, origin: str, targets: str) -> None:
    assert _reference_moves(fen, origin) == _expand(origin, targets)


@pytest.mark.parametrize("name,fen,origin,targets", ODD, ids=[c[0] for c in ODD])
def test_region_rule_library(name: str, fen: str, origin: str, targets: str) -> None:
    """Either the FEN is refused as invalid, or the region rule holds."""
    xq = _lib()
    try:
        board = xq.Board(fen)
    except xq.InvalidFenError:
        return
    got = {m.iccs() for m in board.legal_moves if m.iccs()[:2] == origin}
    assert got == _expand(origin, targets)
    assert board.is_check() == ref.parse_fen(fen).is_check()
