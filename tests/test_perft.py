"""Perft: node counts of the legal-move tree against published numbers.

The numbers live in ``tests/data/perft/xiangqi.perft`` (copied from the shared
``data/perft.json``; see the README beside it), so these tests run without the
shared folder. When the shared file is present it is checked to match.

On a mismatch the failure message holds a divide (per-move counts) of the C
core next to the naive reference generator, naming the moves whose subtrees
differ.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Tuple

import pytest

import reference_movegen as ref

PERFT_FILE = Path(__file__).resolve().parent / "data" / "perft" / "xiangqi.perft"
SHARED_PERFT = Path(__file__).resolve().parents[2] / "shared" / "data" / "perft.json"

#: Depths up to this run in the normal test suite; deeper ones are marked slow.
FAST_DEPTH = 4
#: Reference self-check: every position at depth <= 2, and depth 3 where the tree is small.
REF_DEPTH3_LIMIT = 25_000


class PerftCase(NamedTuple):
    name: str
    fen: str
    depths: Dict[int, int]


def read_perft_file(path: Path) -> List[PerftCase]:
    """Read a ``.perft`` suite: ``id``, ``epd`` and ``perft <depth> <nodes>`` lines."""
    cases: List[PerftCase] = []
    name, fen, depths = "", "", {}  # type: str, str, Dict[int, int]
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            if fen:
                cases.append(PerftCase(name, fen, depths))
            name, fen, depths = value.strip(), "", {}
        elif key == "epd":
            fen = value.strip()
        elif key == "perft":
            d, n = value.split()
            depths[int(d)] = int(n)
        else:
            raise ValueError(f"{path}:{lineno}: unknown line {raw!r}")
    if fen:
        cases.append(PerftCase(name, fen, depths))
    return cases


CASES = read_perft_file(PERFT_FILE)
FAST = [(c.name, c.fen, d, n) for c in CASES for d, n in sorted(c.depths.items()) if d <= FAST_DEPTH]
SLOW = [(c.name, c.fen, d, n) for c in CASES for d, n in sorted(c.depths.items()) if d > FAST_DEPTH]


def _ids(rows: List[Tuple[str, str, int, int]]) -> List[str]:
    return [f"{name}-d{d}" for name, _, d, _ in rows]


def test_suite_file_is_sane() -> None:
    assert len(CASES) >= 14
    for c in CASES:
        assert c.depths and min(c.depths) == 1, c.name
        ref.parse_fen(c.fen)


def test_suite_file_matches_shared_json() -> None:
    if not SHARED_PERFT.exists():
        pytest.skip(f"shared data not available: {SHARED_PERFT}")
    data = json.loads(SHARED_PERFT.read_text(encoding="utf-8"))
    shared = {e["name"]: (e["fen"], {int(k): int(v) for k, v in e["depths"].items()}) for e in data}
    local = {c.name: (c.fen, c.depths) for c in CASES}
    assert local == shared


# --------------------------------------------------------------------------- the oracle itself

REF_ROWS = [(c.name, c.fen, d, n) for c in CASES for d, n in sorted(c.depths.items())
            if d <= 2 or (d == 3 and n <= REF_DEPTH3_LIMIT)]
REF_SLOW_ROWS = [(c.name, c.fen, d, n) for c in CASES for d, n in sorted(c.depths.items())
                 if d == 3 and n > REF_DEPTH3_LIMIT]


@pytest.mark.perft
@pytest.mark.parametrize("name,fen,depth,nodes", REF_ROWS, ids=_ids(REF_ROWS))
def test_reference_generator_perft(name: str, fen: str, depth: int, nodes: int) -> None:
    """The oracle reproduces the published numbers, so it can be trusted elsewhere."""
    assert ref.perft(ref.parse_fen(fen), depth) == nodes


@pytest.mark.perft
@pytest.mark.slow
@pytest.mark.parametrize("name,fen,depth,nodes", REF_SLOW_ROWS, ids=_ids(REF_SLOW_ROWS))
def test_reference_generator_perft_slow(name: str, fen: str, depth: int, nodes: int) -> None:
    assert ref.perft(ref.parse_fen(fen), depth) == nodes


# --------------------------------------------------------------------------- the library

def _lib() -> Any:
    """The library, imported lazily so the oracle's own tests run even when it is broken."""
    import xiangqi

    return xiangqi


def _explain(fen: str, depth: int) -> str:
    """A divide of the library next to the reference, then the first position whose move sets differ."""
    lines = [f"perft divide at depth {depth} for {fen}"]
    try:
        got: Dict[str, int] = _lib().perft(fen, depth, divide=True)
    except Exception as exc:  # noqa: BLE001 - a diagnostic must never hide the real failure
        return "\n".join(lines + [f"library divide failed: {exc!r}"])
    if depth <= 3:
        want = ref.perft_divide(ref.parse_fen(fen), depth)
        for mv in sorted(set(got) | set(want)):
            if got.get(mv) != want.get(mv):
                lines.append(f"  {mv}: library {got.get(mv)} reference {want.get(mv)}")
    lines.append(_find_divergence(fen, depth - 1))
    return "\n".join(lines)


def _find_divergence(fen: str, max_ply: int, budget_s: float = 20.0) -> str:
    """Breadth-first over the tree: the first position where the library's legal moves differ."""
    frontier: List[Tuple[str, List[str]]] = [(fen, [])]
    deadline = time.monotonic() + budget_s
    for _ply in range(max_ply + 1):
        nxt: List[Tuple[str, List[str]]] = []
        for pos_fen, path in frontier:
            if time.monotonic() > deadline:
                return "no differing move set found within the time budget"
            board = _lib().Board(pos_fen)
            got = {m.iccs() for m in board.legal_moves}
            want = ref.parse_fen(pos_fen).legal_moves()
            if got != want:
                return (f"first differing position (after {' '.join(path) or 'no moves'}): {pos_fen}\n"
                        f"  missing from the library: {sorted(want - got)}\n"
                        f"  not legal per the reference: {sorted(got - want)}")
            for mv in sorted(want):
                child = ref.parse_fen(pos_fen)
                child.push(mv)
                nxt.append((child.fen(), path + [mv]))
        frontier = nxt
    return "the library's move sets agree with the reference along the whole tree searched"


def _check(fen: str, depth: int, nodes: int, got: int) -> None:
    if got != nodes:
        pytest.fail(f"perft({depth}) = {got}, expected {nodes}\n{_explain(fen, depth)}")


@pytest.mark.perft
@pytest.mark.parametrize("name,fen,depth,nodes", FAST, ids=_ids(FAST))
def test_perft(name: str, fen: str, depth: int, nodes: int) -> None:
    _check(fen, depth, nodes, _lib().perft(fen, depth))


@pytest.mark.perft
@pytest.mark.parametrize("name,fen,depth,nodes", FAST, ids=_ids(FAST))
def test_board_perft(name: str, fen: str, depth: int, nodes: int) -> None:
    board = _lib().Board(fen)
    _check(fen, depth, nodes, board.perft(depth))
    assert board.fen() == _lib().Board(fen).fen(), "perft must leave the board as it was"


SMALL = [row for row in FAST if row[2] <= 3 and row[3] <= 200_000]


@pytest.mark.perft
@pytest.mark.parametrize("name,fen,depth,nodes", SMALL, ids=_ids(SMALL))
def test_perft_without_bulk_counting(name: str, fen: str, depth: int, nodes: int) -> None:
    """Every leaf made and unmade: catches generators that count moves they could not play."""
    _check(fen, depth, nodes, _lib().perft(fen, depth, bulk=False))


DIVIDE = [row for row in FAST if row[2] in (1, 2, 3)]


@pytest.mark.perft
@pytest.mark.parametrize("name,fen,depth,nodes", DIVIDE, ids=_ids(DIVIDE))
def test_perft_divide(name: str, fen: str, depth: int, nodes: int) -> None:
    div = _lib().perft(fen, depth, divide=True)
    assert isinstance(div, dict)
    assert sum(div.values()) == nodes, _explain(fen, depth)
    root = ref.parse_fen(fen).legal_moves()
    assert set(div) == root, _explain(fen, 1)
    if depth == 1:
        assert all(v == 1 for v in div.values())


@pytest.mark.perft
def test_perft_depth_zero_is_one() -> None:
    assert _lib().perft(_lib().STARTING_FEN, 0) == 1
    assert _lib().Board().perft(0) == 1


@pytest.mark.parametrize("depth", [-1, 65, 2**31, 2**40])
def test_every_perft_entry_point_refuses_the_same_depths_with_one_message(depth: int) -> None:
    """Board.perft took 0-64 and batch.perft 0 to 2**31 - 1, each with its own message."""
    from xiangqi import batch
    from xiangqi.position import MAX_PERFT_DEPTH

    lib = _lib()
    want = rf"^depth must be between 0 and {MAX_PERFT_DEPTH}, not {depth}$"
    for run in (lambda: lib.Board().perft(depth), lambda: lib.perft(lib.STARTING_FEN, depth),
                lambda: batch.perft([lib.STARTING_FEN], depth)):
        with pytest.raises(ValueError, match=want):
            run()


def test_the_deepest_perft_depth_is_accepted_everywhere() -> None:
    """MAX_PERFT_DEPTH itself is in range: a position without moves counts 0 at any depth, at once."""
    from xiangqi import batch
    from xiangqi.position import MAX_PERFT_DEPTH

    lib = _lib()
    mated = "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1"  # Black is mated: no moves
    assert lib.Board(mated).is_checkmate()
    assert lib.Board(mated).perft(MAX_PERFT_DEPTH) == 0
    assert lib.perft(mated, MAX_PERFT_DEPTH) == 0
    assert batch.perft([mated], MAX_PERFT_DEPTH).tolist() == [0]


@pytest.mark.perft
@pytest.mark.slow
@pytest.mark.parametrize("name,fen,depth,nodes", SLOW, ids=_ids(SLOW))
def test_perft_deep(name: str, fen: str, depth: int, nodes: int) -> None:
    _check(fen, depth, nodes, _lib().perft(fen, depth))
