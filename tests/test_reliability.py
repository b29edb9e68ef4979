"""Regression tests of reliability faults: small inputs that hung or blew up, contracts that disagreed.

Inputs are generated here (no large files). Each blow-up case runs under a budget (tests/fuzz/budget.py): the
fastest of three runs must stay within it. The budgets are about ten times what the linear readers and
writers take on this machine, and a tenth of what the quadratic or recursive ones took, so noise does not fail
them and a regression cannot pass.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz.budget import Budget, run_within
from fuzz.targets import _legal_mask_agrees
from xiangqi.board import Board
from xiangqi.core import Move
from xiangqi.pgn import Game, GameNode
from xiangqi.xqf import read_xqf, write_xqf

ROOT = Path(__file__).resolve().parents[1]

#: For the inputs of a few hundred KB below (the faults took 3 to 108 s on them).
BIG_INPUT = Budget(seconds=1.5, memory=100 * 2**20)

_SHUFFLE = [Move.from_iccs(m) for m in ("h0g2", "h9g7", "g2h0", "g7h9")]  # horses out and back: always legal


# ---------------------------------------------------------------------------------------------------------------
# XQF
# ---------------------------------------------------------------------------------------------------------------

def xqf_main_line_with_illegal_siblings(n: int) -> bytes:
    """An XQF record: ``n`` legal main-line moves, each with an illegal sibling (a move from an empty square)."""
    game = Game()
    node: GameNode = game
    bad = Move.from_iccs("e4e5")
    for i in range(n):
        nxt = GameNode._child(node, _SHUFFLE[i % 4])
        GameNode._child(node, bad)
        node = nxt
    return write_xqf(game)


def test_xqf_errors_on_a_long_main_line_take_linear_time() -> None:
    """16,000 main-line moves with 16,000 illegal siblings (257 KB) took 3-15 s: each error walked to the root."""
    data = xqf_main_line_with_illegal_siblings(16000)
    assert 250_000 < len(data) < 270_000
    game = run_within(lambda: read_xqf(data), BIG_INPUT)
    assert len(game.errors) == 16000
    assert all(e.mainline and e.token == "e4e5" for e in game.errors)
    assert sum(1 for _ in game.mainline_moves()) == 16000


def test_xqf_errors_say_whether_they_are_on_the_main_line() -> None:
    """The main-line flag the reader keeps as it walks agrees with GameNode.is_mainline."""
    game = Game()
    first = GameNode._child(game, Move.from_iccs("h2e2"))
    side = GameNode._child(game, Move.from_iccs("b2e2"))  # a variation at ply 1
    GameNode._child(side, Move.from_iccs("e4e5"))  # illegal inside the variation
    second = GameNode._child(first, Move.from_iccs("h9g7"))
    GameNode._child(first, Move.from_iccs("e5e4"))  # illegal sibling of the main line's 2nd move
    GameNode._child(second, Move.from_iccs("e4e5"))  # illegal as the main line's 3rd move
    back = read_xqf(write_xqf(game))
    flags = sorted((e.ply, e.mainline) for e in back.errors)
    assert flags == [(1, False), (1, True), (2, True)]
    assert [m.iccs() for m in back.mainline_moves()] == ["h2e2", "h9g7"]
    assert back.variations[1].is_mainline() is False and back.variations[0].variations[0].is_mainline()


def header_only_xqf_without_red_king() -> bytes:
    data = bytearray(write_xqf(Game())[:0x400])  # the header alone: no move record at all
    data[0x10 + 4] = 0xFF  # slot 4 of Red's 16 is the king: off the board
    return bytes(data)


def test_a_header_only_xqf_without_a_red_king_is_an_error() -> None:
    game = read_xqf(header_only_xqf_without_red_king())
    assert len(game.errors) == 1 and "no red king" in game.errors[0].reason


@pytest.mark.parametrize("command", ["judge", "validate"])
def test_judge_and_validate_do_not_pass_a_header_only_xqf_without_a_red_king(command: str, tmp_path: Path) -> None:
    path = tmp_path / "nking.xqf"
    path.write_bytes(header_only_xqf_without_red_king())
    args: List[str] = [sys.executable, "-m", "xiangqi", command, str(path)] + (["-q"] if command == "validate" else [])
    run = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    if command == "judge":
        assert "no red king" in run.stderr


# ---------------------------------------------------------------------------------------------------------------
# Writers: nested variations without recursion
# ---------------------------------------------------------------------------------------------------------------

_DEAD_ENDS = [Move.from_iccs("a3a4"), Move.from_iccs("a6a5")]  # legal all along the horse shuffle


def nested_variations(depth: int) -> Game:
    """A game whose line runs through ``depth`` variations, each inside the previous one."""
    game = Game()
    node: GameNode = game
    for i in range(depth):
        GameNode._child(node, _DEAD_ENDS[i % 2])  # the main line's move here ends at once
        node = GameNode._child(node, _SHUFFLE[i % 4])  # the line goes on in the variation
    return game


def shape(node: GameNode) -> List[Tuple[Optional[str], int, str]]:
    """The tree below ``node`` in pre-order: (move, number of children, comment) per node (no recursion)."""
    out: List[Tuple[Optional[str], int, str]] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append((n.move.iccs() if n.move else None, len(n.variations), n.comment))
        stack.extend(reversed(n.variations))
    return out


@pytest.mark.parametrize("writer", ["pgn-iccs", "pgn-chinese", "str", "dhtmlxq"])
def test_writers_take_a_thousand_nested_variations(writer: str) -> None:
    """1,000 nested variations (13 KB of PGN) raised RecursionError in write_game, str(game), write_dhtmlxq."""
    from xiangqi.dhtmlxq import read_dhtmlxq, write_dhtmlxq
    from xiangqi.pgn import read_game, write_game

    game = nested_variations(1000)
    game.variations[1].variations[1].comment = "a comment two variations deep"
    write = {"pgn-iccs": lambda: write_game(game, notation="iccs"), "pgn-chinese": lambda: write_game(game),
             "str": lambda: str(game), "dhtmlxq": lambda: write_dhtmlxq(game)}[writer]
    text = run_within(write, Budget(seconds=1.0))
    back = read_dhtmlxq(text) if writer == "dhtmlxq" else read_game(io.StringIO(text))
    assert back is not None and back.errors == []
    assert shape(back) == shape(game)


def test_convert_takes_a_thousand_nested_variations(tmp_path: Path) -> None:
    from xiangqi.pgn import write_game

    src = tmp_path / "deep.pgn"
    src.write_text(write_game(nested_variations(1000), notation="iccs"), encoding="utf-8")
    for out in ("deep.chinese.pgn", "deep.txt"):
        run = subprocess.run([sys.executable, "-m", "xiangqi", "convert", str(src), str(tmp_path / out)],
                             capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert (run.returncode, run.stderr) == (0, "")


# ---------------------------------------------------------------------------------------------------------------
# DhtmlXQ reading: tags and variations in (near) linear time, the same result as before
# ---------------------------------------------------------------------------------------------------------------

def _dx(m: Move) -> str:
    from xiangqi.dhtmlxq import _xy

    return _xy(m.from_square) + _xy(m.to_square)


def chained_variations(n: int) -> str:
    """``n`` one-move variations, each branching from the one before, listed child first."""
    tags = [f"[DhtmlXQ_movelist]{_dx(_SHUFFLE[0])}[/DhtmlXQ_movelist]"]
    for k in range(n, 0, -1):
        name = f"move_{k - 1}_{k + 1}_{k}"
        tags.append(f"[DhtmlXQ_{name}]{_dx(_SHUFFLE[k % 4])}[/DhtmlXQ_{name}]")
    return "[DhtmlXQ]" + "".join(tags) + "[/DhtmlXQ]"


def test_dhtmlxq_unclosed_tags_take_linear_time() -> None:
    """``"[DhtmlXQ]" + "[DhtmlXQ_a]" * 32000 + "[/DhtmlXQ]"`` (352 KB) took 108 s."""
    from xiangqi.dhtmlxq import read_games

    text = "[DhtmlXQ]" + "[DhtmlXQ_a]" * 32000 + "[/DhtmlXQ]"
    games = run_within(lambda: list(read_games(text.encode())), BIG_INPUT)
    assert len(games) == 1 and games[0].variations == []


def test_dhtmlxq_chained_variations_listed_child_first_take_linear_time() -> None:
    """4,000 chained move_B_P_N tags listed child first (about 250 KB) took 12.7 s: one pass per tag."""
    from xiangqi.dhtmlxq import read_dhtmlxq

    text = chained_variations(4000)
    assert 240_000 < len(text) < 270_000
    game = run_within(lambda: read_dhtmlxq(text), BIG_INPUT)
    assert game.errors == []
    assert len(shape(game)) == 4002  # the root, the move list's move and one node per variation


def test_a_dhtmlxq_move_list_of_80000_moves_takes_linear_time() -> None:
    """An 80,000-move list (320 KB) took 2.5 s to read and its round trip 6 s (each record decoded, checked and
    played in Python, and made a node): now looked up in a table, played in C and kept as move codes."""
    from xiangqi.dhtmlxq import read_dhtmlxq, read_games, write_dhtmlxq

    moves = [_SHUFFLE[i % 4] for i in range(80_000)]
    data = ("[DhtmlXQ][DhtmlXQ_movelist]" + "".join(_dx(m) for m in moves) + "[/DhtmlXQ_movelist][/DhtmlXQ]").encode()
    (game,) = run_within(lambda: list(read_games(data)), BIG_INPUT)
    assert game.errors == [] and game.mainline_moves() == moves
    text = run_within(lambda: write_dhtmlxq(game), BIG_INPUT)
    assert text.encode() == data and read_dhtmlxq(text).mainline_moves() == moves


def test_dhtmlxq_blocks_from_the_standard_start_are_not_checked_each() -> None:
    """20,000 blocks of one move (1.2 MB) were past their budget: each block's standard start position was read
    and checked anew (and once more to tell its side to move). It is known to be playable."""
    from xiangqi import dhtmlxq

    data = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n".encode() * 2000
    checked: List[str] = []
    real = dhtmlxq.start_board
    dhtmlxq.start_board = lambda fen: checked.append(fen) or real(fen)  # type: ignore[assignment]
    try:
        games = list(dhtmlxq.read_games(data + b"[DhtmlXQ][DhtmlXQ_fen]4k4/9/9/9/9/9/9/9/9/3K5 w[/DhtmlXQ_fen]"
                                               b"[DhtmlXQ_movelist]3938[/DhtmlXQ_movelist][/DhtmlXQ]"))
    finally:
        dhtmlxq.start_board = real  # type: ignore[assignment]
    assert [g.mainline_moves() for g in games[:-1]] == [[Move.from_iccs("h2e2")]] * 2000
    assert all(not g.errors and "FEN" not in g.headers for g in games[:-1])
    assert checked == ["4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]   # only the position that is not the standard start
    assert games[-1].mainline_moves() == [Move.from_iccs("d0d1")] and not games[-1].errors


_OLD_TAG_RE = re.compile(r"\[DhtmlXQ_([A-Za-z0-9_]+)\](.*?)\[/DhtmlXQ_\1\]", re.S)


def _old_add_variations(game: Game, variations: List[Tuple[int, int, int, str]], comments: Dict[Tuple[int, int], str],
                        nodes: Dict[Tuple[int, int], GameNode], fens: Dict[Tuple[int, int], str], line: int) -> None:
    """The former loop (one pass over the list per round, each variation's board replayed from the root):
    the oracle of the simulated passes."""
    from xiangqi import dhtmlxq
    from xiangqi.errors import InvalidMoveError
    from xiangqi.pgn import GameError

    while variations:
        waiting = []
        for b, p, n, value in variations:
            target = nodes.get((b, p - 1)) if p >= 1 else None
            if target is None:
                waiting.append((b, p, n, value))
                continue
            texts, codes, rest = dhtmlxq._moves(value)
            if dhtmlxq._add_line(game, target.board(), target, n, p - 1, texts, codes, comments, nodes, line,
                                 {}) and rest:
                bad = InvalidMoveError(f"DhtmlXQ variation move_{b}_{p}_{n} ends with {rest!r}, "
                                       "not a whole 4-digit move")
                game.errors.append(GameError(p - 1 + len(codes), rest, str(bad), line, bad, False))
        if len(waiting) == len(variations):
            for b, p, n, _ in waiting:
                bad = InvalidMoveError(f"DhtmlXQ variation move_{b}_{p}_{n} branches from a ply that does not exist")
                game.errors.append(GameError(max(p - 1, 0), f"move_{b}_{p}_{n}", str(bad), line, bad, False))
            break
        variations = waiting


_TAG_ALPHABET = ["[DhtmlXQ_", "[/DhtmlXQ_", "a", "b", "move", "]", "_", "1", "x", "[", "\n"]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(_TAG_ALPHABET), max_size=40))
def test_dhtmlxq_tag_pairs_match_the_regular_expression(parts: List[str]) -> None:
    from xiangqi.dhtmlxq import _tag_pairs

    text = "".join(parts)
    assert list(_tag_pairs(text)) == [(m.group(1), m.group(2)) for m in _OLD_TAG_RE.finditer(text)]


def _variation_tags(draw: st.DrawFn) -> str:
    """A DhtmlXQ block with a random tree written by write_dhtmlxq, its move tags shuffled, some broken."""
    from xiangqi.board import Board
    from xiangqi.dhtmlxq import write_dhtmlxq

    game = Game()
    nodes: List[Tuple[GameNode, Board]] = [(game, Board())]
    for _ in range(draw(st.integers(0, 25))):
        parent, board = nodes[draw(st.integers(0, len(nodes) - 1))]
        moves = list(board.legal_moves)
        if not moves:
            continue
        move = moves[draw(st.integers(0, len(moves) - 1))]
        child = GameNode._child(parent, move)
        b = board.copy()
        b.push(move)
        nodes.append((child, b))
    text = write_dhtmlxq(game)
    tags = [(m.group(1), m.group(2)) for m in _OLD_TAG_RE.finditer(text)]
    order = draw(st.permutations(range(len(tags))))
    out = []
    for i in order:
        name, value = tags[i]
        action = draw(st.sampled_from(["keep"] * 6 + ["renumber", "cut"]))
        if action == "renumber" and name.startswith("move_"):
            b, p, n = name.split("_")[1:]
            name = f"move_{draw(st.integers(0, 3))}_{p}_{n}" if draw(st.booleans()) else f"move_{b}_{p}_{draw(st.integers(0, 9))}"
        elif action == "cut":
            value = value[:-1]
        out.append(f"[DhtmlXQ_{name}]{value}[/DhtmlXQ_{name}]")
    return "[DhtmlXQ]" + "".join(out) + "[/DhtmlXQ]"


@settings(max_examples=150)
@given(st.data())
def test_dhtmlxq_variations_are_added_as_the_former_passes_added_them(data: st.DataObject) -> None:
    from xiangqi import dhtmlxq

    text = _variation_tags(data.draw)
    new = dhtmlxq.read_dhtmlxq(text)
    saved = dhtmlxq._add_variations
    dhtmlxq._add_variations = _old_add_variations  # type: ignore[assignment]
    try:
        old = dhtmlxq.read_dhtmlxq(text)
    finally:
        dhtmlxq._add_variations = saved
    assert shape(new) == shape(old)
    assert [(e.ply, e.token, e.reason, e.mainline) for e in new.errors] == \
        [(e.ply, e.token, e.reason, e.mainline) for e in old.errors]


# ---------------------------------------------------------------------------------------------------------------
# Packed records: one rule for every consumer, a bad item never raises
# ---------------------------------------------------------------------------------------------------------------

_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
_FULLMOVE_MAX = 999_999_999  # the nine digits a FEN holds


def _with_fullmove(record: "np.ndarray[Any, Any]", fullmove: int) -> "np.ndarray[Any, Any]":
    out = record.copy()
    out[..., 48:52] = np.frombuffer(np.uint32(fullmove).tobytes(), dtype=np.uint8)
    return out


def _consumers_agree(packed: "np.ndarray[Any, Any]") -> List[bool]:
    """Which records each consumer takes; asserts they all take the same ones and none raises."""
    from xiangqi import batch

    ok = batch.validate(packed) == batch.OK
    fens = batch.fens(packed)
    boards = batch.unpack(packed)
    assert [bool(f) for f in fens] == list(ok)
    assert [b is not None for b in boards] == list(ok)
    for fn in (batch.legal_moves, batch.zobrist, batch.attack_maps, batch.planes):
        status = np.empty(len(packed), dtype=np.int8)
        fn(packed, status=status)
        assert list(status == batch.OK) == list(ok), fn.__name__
    _legal_mask_agrees(packed, ok)  # a subset, as documented: a move no mask index names is refused
    for record, fen, board, good in zip(packed, fens, boards, ok):
        if good:  # a record taken reads back the same way through every path
            assert board is not None and board.fen() == fen and Board(fen).fen() == fen
            assert bytes(batch.pack([fen])[0]) == bytes(record)
    return [bool(x) for x in ok]


@pytest.mark.parametrize("fullmove", [1, 2, _FULLMOVE_MAX - 1, _FULLMOVE_MAX, _FULLMOVE_MAX + 1, 10**9 + 7,
                                      2**31, 2**32 - 1, 0])
def test_packed_fullmove_one_rule_for_all_consumers(fullmove: int) -> None:
    """Fullmove >= 10**9: validate said 0 and fens printed it, unpack raised InvalidFenError."""
    from xiangqi import batch

    packed = _with_fullmove(batch.pack([_START]), fullmove)
    assert _consumers_agree(packed) == [1 <= fullmove <= _FULLMOVE_MAX]


def test_the_fullmove_number_stops_at_what_a_fen_holds() -> None:
    """Black's move at the largest fullmove number keeps it there (as the halfmove clock stops at 65535), so
    every position a board reaches has a FEN and a packed record that read back."""
    from xiangqi import batch

    board = Board(_START.replace(" w - - 0 1", f" b - - 0 {_FULLMOVE_MAX}"))
    board.push(Move.from_iccs("h9g7"))
    assert board.fullmove_number == _FULLMOVE_MAX
    assert Board(board.fen()).fen() == board.fen()
    assert _consumers_agree(batch.pack([board])) == [True]
    board.pop()
    assert board.fen().endswith(f" b - - 0 {_FULLMOVE_MAX}")
    with pytest.raises(ValueError):
        Board(_START.replace(" 0 1", f" 0 {_FULLMOVE_MAX + 1}"))


@settings(max_examples=300)
@given(st.lists(st.tuples(st.integers(0, 51), st.integers(0, 255)), max_size=6),
       st.sampled_from([1, 77, _FULLMOVE_MAX, _FULLMOVE_MAX + 1, 2**32 - 1, 0]))
def test_damaged_packed_records_never_raise(damage: List[Tuple[int, int]], fullmove: int) -> None:
    from xiangqi import batch

    record = _with_fullmove(batch.pack([_START, "4k4/9/9/9/9/9/9/9/9/4K4 b - - 12 40"]), fullmove)
    for offset, value in damage:
        record[offset % 2, offset] = value
    _consumers_agree(record)
