"""The hashed perft (a transposition table of subtree counts) and perft threads that split below the root.

The hashed count must equal the plain one everywhere: on random positions, on every count of the perft suite
(``tests/data/perft``, a copy of the shared ``perft.json``) with and without threads, with a table so small that
entries are replaced all the time, and with one table reused across positions and depths.
"""

from __future__ import annotations

import random
import threading
from typing import List

import pytest

import xiangqi
from xiangqi import batch, cli
from xiangqi._ffi import ffi, lib
from xiangqi._ffi.position import PerftTable, perft_after
from xiangqi.errors import InternalError
from xiangqi.position import BaseBoard

from test_perft import FAST, _ids

#: Suite rows checked in every mode here: the whole fast suite up to this many nodes (the fast suite's budget).
MODE_NODES = 4_000_000
MODE_ROWS = [row for row in FAST if row[3] <= MODE_NODES]


def _random_positions(n: int, seed: int) -> List[str]:
    """n positions from random games (2 to 60 plies) from the start and from the suite's positions."""
    rng = random.Random(seed)
    starts = sorted({fen for _, fen, _, _ in FAST})
    out: List[str] = []
    while len(out) < n:
        board = xiangqi.Board(rng.choice(starts))
        for _ in range(rng.randrange(2, 60)):
            moves = board.legal_move_codes()
            if not moves:
                break
            board.push(xiangqi.Move.from_code(rng.choice(moves)))
        out.append(board.fen())
    return out


def test_hashed_perft_equals_plain_on_200_random_positions_at_depth_4() -> None:
    fens = _random_positions(200, seed=24)
    plain = batch.perft(fens, 4, threads=2).tolist()
    assert sum(1 for n in plain if n) > 150  # mostly live positions, not mates
    shared = PerftTable(1 << 22)  # one table for all 200, so later positions meet earlier entries
    tiny = PerftTable(1 << 10)  # 32 buckets: entries replaced at every step
    for fen, want in zip(fens, plain):
        pos = BaseBoard(fen)
        assert perft_after(pos, (), 4, True, None, shared) == want, fen
        assert perft_after(pos, (), 3, True, None, tiny) == xiangqi.perft(fen, 3), fen
    assert xiangqi.perft(fens[0], 4, hash_mb=1, threads=2) == plain[0]


@pytest.mark.perft
@pytest.mark.parametrize("name,fen,depth,nodes", MODE_ROWS, ids=_ids(MODE_ROWS))
def test_every_suite_count_with_and_without_hash_and_threads(name: str, fen: str, depth: int, nodes: int) -> None:
    assert xiangqi.perft(fen, depth, hash_mb=1) == nodes
    assert xiangqi.perft(fen, depth, threads=2) == nodes
    assert xiangqi.perft(fen, depth, hash_mb=1, threads=2) == nodes
    assert xiangqi.Board(fen).perft(depth, hash_mb=1) == nodes


@pytest.mark.perft
@pytest.mark.slow
@pytest.mark.parametrize("name,fen,depth,nodes", [r for r in FAST if r[3] > MODE_NODES] + [
    ("startpos", xiangqi.STARTING_FEN, 5, 133_312_995), ("startpos", xiangqi.STARTING_FEN, 6, 5_392_831_844)])
def test_deeper_suite_counts_with_hash_and_threads(name: str, fen: str, depth: int, nodes: int) -> None:
    assert xiangqi.perft(fen, depth, hash_mb=64, threads=2) == nodes


@pytest.mark.perft
@pytest.mark.slow
def test_depth_7_from_the_start_with_the_hash() -> None:
    """Pikafish's count (two of its 44 subtrees confirmed by Fairy-Stockfish); minutes with the hash."""
    assert xiangqi.perft(depth=7, hash_mb=512, threads=2) == 217_154_523_878


def test_a_table_is_reused_across_depths_and_positions() -> None:
    table = PerftTable(1 << 16)
    start = BaseBoard()
    for depth, want in ((3, 79666), (4, 3290240), (2, 1920), (4, 3290240), (1, 44), (0, 1)):
        assert perft_after(start, (), depth, True, None, table) == want


def _forge(table: PerftTable, key: int, depth: int, nodes: int) -> None:
    """Write a false count for (key, depth) into every slot of the table: what a key collision would give."""
    data = nodes << 8 | depth
    words = table._words
    for i in range(0, table.nbytes // 8, 2):
        words[i], words[i + 1] = key ^ data, data


def test_the_table_is_trusted_and_the_verification_recounts_its_hits() -> None:
    """A forged entry is taken as it is (the table is trusted); hash_verify recounts the hits and refuses it."""
    board = BaseBoard()
    key = board.zobrist_hash()
    table = PerftTable(1 << 10)
    _forge(table, key, 3, 12345)
    assert perft_after(board, (), 3, True, None, table) == 12345  # depth 3 is the forged entry
    _forge(table, key, 3, 12345)
    with pytest.raises(InternalError, match="differs from its recount"):
        perft_after(board, (), 3, True, None, table, 1)
    # A clean table verified at every hit counts right.
    assert xiangqi.perft(depth=4, hash_mb=1, hash_verify=1) == 3290240
    with pytest.raises(ValueError, match="hash_verify must be >= 0"):
        xiangqi.perft(depth=2, hash_mb=1, hash_verify=-1)


def test_a_stopped_hashed_count_leaves_no_partial_entry() -> None:
    board = BaseBoard()
    table = PerftTable(1 << 20)
    stop = ffi.new("int *")
    stop[0] = 1
    assert perft_after(board, (), 9, True, stop, table) < 10**9  # gives up at once
    assert perft_after(board, (), 4, True, None, table) == 3290240


def test_xq_perft_hashed_refuses_bad_arguments() -> None:
    pos = BaseBoard()._pos
    out = ffi.new("uint64_t *")
    words = ffi.new("uint64_t[]", 8)
    ok = lib.xq_perft_hashed(pos, 2, words, 64, 0, ffi.NULL, out)
    assert ok == lib.XQ_OK and out[0] == 1920
    bad = [(ffi.NULL, 2, words, 64, out), (pos, -1, words, 64, out), (pos, 256, words, 64, out),
           (pos, 2, ffi.NULL, 64, out), (pos, 2, words, 31, out), (pos, 2, words, 64, ffi.NULL),
           (pos, 2, ffi.cast("char *", words) + 4, 32, out)]
    for p, depth, table, size, o in bad:
        assert lib.xq_perft_hashed(p, depth, table, size, 0, ffi.NULL, o) == lib.XQ_E_ARG
    assert ffi.string(lib.xq_status_str(lib.XQ_E_HASH_MISMATCH)).decode() != "unknown status"


def test_hash_sizes_and_their_errors() -> None:
    with pytest.raises(ValueError, match="hash_mb must be >= 0"):
        xiangqi.Board().perft(3, hash_mb=-1)
    with pytest.raises(ValueError, match="hash_mb needs bulk=True"):
        xiangqi.perft(depth=3, hash_mb=1, bulk=False)
    with pytest.raises(ValueError, match="at least 32 bytes"):
        xiangqi.Board().perft(3, hash_mb=1e-6)
    assert xiangqi.Board().perft(3, hash_mb=0) == 79666
    assert cli.parse_hash_size("256M") == 256 and cli.parse_hash_size("1G") == 1024
    assert cli.parse_hash_size("512k") == 0.5 and cli.parse_hash_size("64") == 64 and cli.parse_hash_size("0") == 0


def test_perft_command_with_hash(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["perft", "--depth", "4", "--hash", "4M", "--threads", "2", "--hash-verify", "7"]) == 0
    assert "nodes 3290240" in capsys.readouterr().out
    assert cli.main(["perft", "--depth", "3", "--hash", "4M", "--divide"]) == 0
    assert "nodes 79666" in capsys.readouterr().out
    for argv, message in ((["--hash", "lots"], "not a size: 'lots'"), (["--hash", "1M", "--no-bulk"], "--no-bulk"),
                          (["--hash-verify", "3"], "--hash-verify needs --hash")):
        assert cli.main(["perft", "--depth", "2"] + argv) == 2
        assert message in capsys.readouterr().err


FEW_ROOT_MOVES = "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1"  # px0-3: 7 root moves


def test_threads_split_below_a_root_with_few_moves() -> None:
    """7 root moves for 2 threads: each reply is a task; the counts and the progress stay per root move."""
    assert len(BaseBoard(FEW_ROOT_MOVES).legal_move_codes()) == 7
    seen: List[tuple] = []
    got = xiangqi.perft(FEW_ROOT_MOVES, 4, divide=True, threads=2,
                        on_root_move=lambda done, n, nodes: seen.append((done, n, nodes)))
    assert got == xiangqi.perft(FEW_ROOT_MOVES, 4, divide=True) and sum(got.values()) == 326201
    assert [d for d, _, _ in seen] == list(range(1, 8)) and seen[-1] == (7, 7, 326201)
    # A root move after which the opponent has no move at all counts 0, split or not.
    mate_in_one = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1"
    assert xiangqi.perft(mate_in_one, 3, divide=True, threads=2) == xiangqi.perft(mate_in_one, 3, divide=True)


def test_batch_perft_splits_fewer_positions_than_threads_below_their_roots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two positions for four threads (one unreadable): each count is split below its root, statuses as ever."""
    import numpy as np

    started: List[threading.Thread] = []
    start = threading.Thread.start

    def counted_start(thread: threading.Thread) -> None:
        started.append(thread)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted_start)
    status = np.empty(2, dtype=np.int8)
    got = batch.perft([FEW_ROOT_MOVES, "bad fen"], 5, threads=4, status=status)
    assert got.tolist() == [10_369_923, 0] and status.tolist() == [batch.OK, batch.FEN_SYNTAX]
    assert len(started) == 4  # the readable position split across the four threads (unsplit: two threads)
    assert batch.perft([FEW_ROOT_MOVES, "bad fen"], 5).tolist() == got.tolist()
