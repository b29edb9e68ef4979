"""Differential tests: the C move generator against the naive reference, position by position.

At every position visited the library's legal moves must equal the reference
generator's, and the two must agree on check. Along the way: push/pop restore
the FEN and the Zobrist key, the incremental key equals a fresh board's, FENs
round-trip, ``gives_check``/``is_capture`` agree with what the move does.

Positions come from hypothesis-driven playouts, seeded random playouts, games
of the shared corpus, and hand-made trap positions explored exhaustively a few
plies deep. The last part replays whole recorded games.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference_movegen as ref

SHARED = Path(__file__).resolve().parents[2] / "shared"
GAMES = SHARED / "data" / "games"

START = ref.START_FEN
PERFT_FILE = Path(__file__).resolve().parent / "data" / "perft" / "xiangqi.perft"
#: Every non-start position of the perft suite (mid-games and endgames full of tactics).
PERFT_FENS = [line[4:].strip() for line in PERFT_FILE.read_text(encoding="utf-8").splitlines()
              if line.startswith("epd ") and line[4:].strip() != START]

#: Sparse positions built around the rules generators get wrong; each is explored exhaustively.
TRAPS = [
    # cannon: three screens (any one may leave), two screens (neither may), a screen arriving
    ("cannon-triple-screen", "3k5/9/4c4/9/4P4/4N4/9/9/4A4/4K4 w - - 0 1"),
    ("cannon-double-screen", "3k5/9/4c4/9/9/4N4/9/4R4/9/4K4 w - - 0 1"),
    ("cannon-screen-arrives", "3k5/9/9/9/4c4/9/9/R8/9/4K4 w - - 0 1"),
    # in check by a cannon through one screen: move the screen, add a screen, capture, step aside
    ("cannon-check-evasions", "3k5/9/4c4/9/9/9/1R7/4N4/9/4K4 w - - 0 1"),
    # the screen is an enemy piece; the king's own piece arriving makes two screens
    ("cannon-enemy-screen", "3k5/9/4c4/4p4/9/2N6/9/9/9/4K4 w - - 0 1"),
    # horse legs: a rook on the leg shields the king; checks from both sides
    ("horse-leg-pin", "3k5/9/9/9/9/9/9/5n3/5R3/4K4 w - - 0 1"),
    ("horse-checks", "3akr3/4a4/6N2/9/9/9/9/2n6/4A4/3AK4 b - - 0 1"),
    # flying general: pieces alone on the file between the kings, kings beside an open file
    ("flying-general-horse", "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1"),
    ("flying-general-pawns", "4k4/4a4/9/4P4/9/9/4p4/9/9/4K4 b - - 0 1"),
    ("kings-face-after-capture", "3k5/9/9/9/9/9/9/9/3rK4/9 w - - 0 1"),
    ("kings-face-capture-off-file", "4k4/9/9/3r5/9/4N4/9/9/9/4K4 w - - 0 1"),
    # mates and stalemate (a loss in xiangqi)
    ("double-cannon-mate", "3aka3/9/4C4/4C4/9/9/9/9/9/3K5 b - - 0 1"),
    ("double-cannon-not-mate", "3aka3/9/2n1C4/4C4/9/9/9/9/9/3K5 b - - 0 1"),
    ("rook-mate", "R2k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1"),
    ("stalemate", "3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1"),
    # elephants at the river, advisors, pawns crossing
    ("elephants-river", "2b1k4/9/9/9/2b6/2B1P1B2/9/9/4A4/3AK4 w - - 0 1"),
    ("pawns-crossing", "3k5/9/9/2P1P1P2/p1p1p1p1p/P7P/9/9/9/4K4 w - - 0 1"),
    # rook + cannon battery on the king file, with pinned defenders
    ("battery", "4k4/4a4/4b4/9/9/9/9/4C4/4R4/3K5 b - - 0 1"),
]


def _lib() -> Any:
    import xiangqi

    return xiangqi


# ---------------------------------------------------------------- the comparison


def compare_position(board: Any, pos: ref.RefPosition, where: str) -> List[str]:
    """Compare one position; return the reference's legal moves, sorted. Fails with a minimal report."""
    fen = board.fen()
    assert fen.split()[0] == pos.board_fen(), f"{where}: boards differ: library {fen}, reference {pos.fen()}"
    assert board.turn == (pos.turn == ref.RED), f"{where}: side to move differs at {fen}"
    want = pos.legal_moves()
    got = {m.iccs() for m in board.legal_moves}
    if got != want:
        pytest.fail(f"{where}: legal moves differ at {fen}\n"
                    f"  missing from the library: {sorted(want - got)}\n"
                    f"  illegal per the reference: {sorted(got - want)}")
    assert sorted(board.legal_move_codes()) == sorted(m.code for m in board.legal_moves), fen
    pseudo = {ref.square_name(f) + ref.square_name(t) for f, t in pos.pseudo_moves()}
    got_pseudo = {m.iccs() for m in board.pseudo_legal_moves}
    assert got_pseudo == pseudo, (f"{where}: pseudo-legal moves differ at {fen}: missing {sorted(pseudo - got_pseudo)}, "
                                  f"extra {sorted(got_pseudo - pseudo)}")
    assert board.is_check() == pos.is_check(), f"{where}: is_check differs at {fen}"
    return sorted(want)


def check_push_pop(board: Any, moves: List[str], where: str) -> None:
    """Push and pop every move: FEN and key restored, key incremental == fresh, gives_check/is_capture right."""
    Move = _lib().Move
    fen, key = board.fen(), board.zobrist_hash()
    for text in moves:
        mv = Move.from_iccs(text)
        capture = board.piece_at(mv.to_square) is not None
        assert board.is_capture(mv) == capture, f"{where}: is_capture({text}) at {fen}"
        gives = board.gives_check(mv)
        board.push(mv)
        after = board.fen()
        assert board.is_check() == gives, f"{where}: gives_check({text}) = {gives} at {fen}"
        fresh = _lib().Board(after, allow_missing_king=True)
        assert board.zobrist_hash() == fresh.zobrist_hash(), f"{where}: incremental key after {text} at {fen}"
        assert fresh.fen() == after, f"{where}: FEN round trip after {text}: {after}"
        assert board.pop() == mv
        assert board.fen() == fen, f"{where}: pop after {text} did not restore {fen}"
        assert board.zobrist_hash() == key, f"{where}: pop after {text} did not restore the key at {fen}"


def playout(fen: str, choose: Any, plies: int, where: str, *, push_pop_every: int = 0,
            allow_missing_king: bool = False) -> int:
    """Play ``plies`` moves chosen by ``choose(sorted_moves)``, comparing at every ply; returns positions seen."""
    xq = _lib()
    board = xq.Board(fen, allow_missing_king=allow_missing_king)
    pos = ref.parse_fen(fen, allow_missing_king=allow_missing_king)
    kingless = allow_missing_king and None in (ref.find_king(pos.board, ref.RED), ref.find_king(pos.board, ref.BLACK))
    seen = 0
    for ply in range(plies + 1):
        here = f"{where} ply {ply} (after {' '.join(m.iccs() for m in board.move_stack) or 'no moves'})"
        moves = compare_position(board, pos, here)
        seen += 1
        if push_pop_every and ply % push_pop_every == 0:
            check_push_pop(board, moves, here)
        if not moves:
            assert board.is_checkmate() == pos.is_check(), here
            assert board.is_stalemate() == (not pos.is_check()), here
            if kingless:
                with pytest.raises(xq.InvalidFenError, match="needs both kings"):
                    board.is_game_over()
            else:
                assert board.is_game_over(), here
            break
        assert not board.is_checkmate() and not board.is_stalemate(), here
        mv = choose(moves)
        board.push(xq.Move.from_iccs(mv))
        pos.push(mv)
    # unwind the whole stack and land on the start position again
    start_fen = xq.Board(fen, allow_missing_king=allow_missing_king).fen()
    while board.move_stack:
        board.pop()
    assert board.fen() == start_fen, where
    return seen


# ---------------------------------------------------------------- hypothesis


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.sampled_from([START] + PERFT_FENS), data=st.data())
def test_hypothesis_playouts(start: str, data: st.DataObject) -> None:
    plies = data.draw(st.integers(min_value=0, max_value=40), label="plies")

    def choose(moves: List[str]) -> str:
        return moves[data.draw(st.integers(0, len(moves) - 1), label="move")]

    playout(start, choose, plies, f"hypothesis from {start}", push_pop_every=7)


# ---------------------------------------------------------------- seeded random playouts


@pytest.mark.parametrize("seed", range(12))
def test_seeded_playouts(seed: int) -> None:
    rng = random.Random(seed)
    start = ([START] + PERFT_FENS)[seed % (1 + len(PERFT_FENS))]
    total = 0
    for game in range(3):
        total += playout(start, lambda ms: rng.choice(ms), 120, f"seed {seed} game {game} from {start}",
                         push_pop_every=11)
    assert total > 0


def test_capture_biased_playouts_reach_endgames() -> None:
    """Playouts that capture eagerly: few pieces, kings exposed, flying-general and mate territory."""
    xq = _lib()
    rng = random.Random(2024)
    seen = 0
    keys: Dict[int, str] = {}
    for game in range(25):
        board = xq.Board(START)
        pos = ref.parse_fen(START)
        for ply in range(200):
            here = f"capture playout {game} ply {ply} (after {' '.join(m.iccs() for m in board.move_stack)})"
            moves = compare_position(board, pos, here)
            seen += 1
            ident = " ".join(board.fen().split()[:2])
            assert keys.setdefault(board.zobrist_hash(), ident) == ident, f"{here}: Zobrist collision"
            if ply % 13 == 0:
                check_push_pop(board, moves, here)
            if not moves:
                assert board.is_game_over(), here
                break
            captures = [m for m in moves if pos.board[ref.parse_square(m[2:])]]
            mv = rng.choice(captures if captures and rng.random() < 0.5 else moves)
            board.push(xq.Move.from_iccs(mv))
            pos.push(mv)
    assert seen > 1000


# ---------------------------------------------------------------- random positions

_FILES_ACEGI = (0, 2, 4, 6, 8)


def _region(color: int, ptype: int, odd: bool) -> List[int]:
    """Squares a piece may stand on: where it can ever get to, or (``odd``) anywhere but the king's palace rule."""
    def mirror(sqs: List[int]) -> List[int]:
        return sqs if color == ref.RED else [89 - s for s in sqs]
    if ptype == ref.KING:
        return mirror([r * 9 + f for r in range(3) for f in (3, 4, 5)])
    if odd or ptype in (ref.HORSE, ref.ROOK, ref.CANNON):
        return list(range(90))
    if ptype == ref.ADVISOR:
        return mirror([3, 5, 13, 21, 23])
    if ptype == ref.ELEPHANT:
        return mirror([2, 6, 18, 22, 26, 38, 42])
    return mirror([r * 9 + f for r in (3, 4) for f in _FILES_ACEGI] + list(range(45, 90)))


_COUNTS = {ref.ADVISOR: 2, ref.ELEPHANT: 2, ref.HORSE: 2, ref.ROOK: 2, ref.CANNON: 2, ref.PAWN: 5}


def random_position(rng: random.Random, *, odd: bool = False, odd_kings: bool = False,
                    density: float = 0.5, drop_kings: bool = False) -> Optional[str]:
    """A random position, the side not to move not in check (kings in their palaces unless ``odd_kings``;
    with ``drop_kings`` one side or both without a king, as while a position is set up).

    Returns None when the draw is unusable (the side not to move is in check).
    """
    board = [0] * 90
    kingless = rng.choice([(ref.RED,), (ref.BLACK,), (ref.RED, ref.BLACK)]) if drop_kings else ()
    for color in (ref.RED, ref.BLACK):
        if color in kingless:
            continue
        # odd_kings sometimes puts a king outside its palace (it may then only step back in)
        squares = list(range(90)) if odd_kings and rng.random() < 0.5 else _region(color, ref.KING, odd)
        board[rng.choice([s for s in squares if not board[s]])] = color << 3 | ref.KING
    for color in (ref.RED, ref.BLACK):
        for ptype, most in _COUNTS.items():
            for _ in range(most):
                if rng.random() < density:
                    free = [s for s in _region(color, ptype, odd) if board[s] == 0]
                    if free:
                        board[rng.choice(free)] = color << 3 | ptype
    pos = ref.RefPosition(board, rng.choice((ref.RED, ref.BLACK)))
    other = pos.copy()
    other.turn = 1 - pos.turn
    if other.is_check():
        return None
    return pos.fen()


def test_random_positions_missing_king() -> None:
    """A side without a king (a position being set up): never in check, every pseudo-legal move legal, the
    enemy king still never captured; perft against the reference."""
    xq = _lib()
    rng = random.Random(17)
    seen = 0
    while seen < 600:
        fen = random_position(rng, density=rng.choice((0.15, 0.35, 0.6, 0.9)), drop_kings=True)
        if fen is None:
            continue
        with pytest.raises(xq.InvalidFenError, match="no (red|black) king"):
            xq.Board(fen)
        board = xq.Board(fen, allow_missing_king=True)
        pos = ref.parse_fen(fen, allow_missing_king=True)
        where = f"missing-king position {seen}"
        moves = compare_position(board, pos, where)
        want = ((xq.Status.NO_RED_KING if ref.find_king(pos.board, ref.RED) is None else 0)
                | (xq.Status.NO_BLACK_KING if ref.find_king(pos.board, ref.BLACK) is None else 0))
        assert board.status() & (xq.Status.NO_RED_KING | xq.Status.NO_BLACK_KING) == want, fen
        if seen % 10 == 0:
            check_push_pop(board, moves, where)
        if seen % 25 == 0:
            assert board.perft(2) == ref.perft(pos, 2), f"{where}: perft(2) at {fen}"
            assert board.perft(2, bulk=False) == ref.perft(pos, 2), f"{where}: perft(2) no bulk at {fen}"
        seen += 1


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), density=st.sampled_from([0.1, 0.3, 0.6, 1.0]), plies=st.integers(0, 6))
def test_hypothesis_missing_king_playouts(seed: int, density: float, plies: int) -> None:
    rng = random.Random(seed)
    fen = random_position(rng, density=density, drop_kings=True)
    if fen is None:
        return
    playout(fen, rng.choice, plies, f"missing-king position {fen}", push_pop_every=2, allow_missing_king=True)


def _random_fens(seed: int, n: int, **kw: Any) -> List[str]:
    rng = random.Random(seed)
    out: List[str] = []
    while len(out) < n:
        fen = random_position(rng, density=rng.choice((0.15, 0.35, 0.6, 0.9)), **kw)
        if fen:
            out.append(fen)
    return out


def test_random_positions() -> None:
    """Random placements of every piece type on squares it can reach: thousands of odd tactics."""
    xq = _lib()
    for i, fen in enumerate(_random_fens(7, 2500)):
        board = xq.Board(fen)
        moves = compare_position(board, ref.parse_fen(fen), f"random position {i}")
        assert board.is_valid(), f"{fen}: status {board.status()!r}"
        if i % 10 == 0:
            check_push_pop(board, moves, f"random position {i}")


def test_random_odd_positions() -> None:
    """Advisors, elephants and pawns anywhere: refused, or moved by the region rule of the reference."""
    xq = _lib()
    refused = 0
    for i, fen in enumerate(_random_fens(11, 800, odd=True)):
        try:
            board = xq.Board(fen)
        except xq.InvalidFenError:
            refused += 1
            continue
        compare_position(board, ref.parse_fen(fen), f"odd random position {i}")
    assert refused < 800


def test_random_positions_kings_outside_palace() -> None:
    """Kings anywhere: the flying general is a file rule only (kings on one rank do not face)."""
    xq = _lib()
    for i, fen in enumerate(_random_fens(13, 400, odd=True, odd_kings=True)):
        try:
            board = xq.Board(fen)
        except xq.InvalidFenError:
            continue
        compare_position(board, ref.parse_fen(fen), f"odd-king random position {i}")


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), density=st.sampled_from([0.1, 0.3, 0.5, 0.8, 1.0]),
       odd=st.booleans(), plies=st.integers(0, 6))
def test_hypothesis_random_positions(seed: int, density: float, odd: bool, plies: int) -> None:
    rng = random.Random(seed)
    fen = random_position(rng, odd=odd, density=density)
    if fen is None:
        return
    try:
        _lib().Board(fen)
    except _lib().InvalidFenError:
        assert odd, f"a reachable-squares position was refused: {fen}"
        return
    playout(fen, rng.choice, plies, f"random position {fen}", push_pop_every=2)


# ---------------------------------------------------------------- every from/to pair


def test_is_legal_for_every_square_pair() -> None:
    """is_legal / ``in legal_moves`` for all 8100 from-to pairs, including empty and enemy from-squares."""
    xq = _lib()
    fens = [START] + PERFT_FENS + [f for _, f in TRAPS] + _random_fens(3, 20) + _random_fens(4, 10, odd=True)
    for fen in fens:
        board = xq.Board(fen)
        want = ref.parse_fen(fen).legal_moves()
        view = board.legal_moves
        for f in range(90):
            for t in range(90):
                if f == t:
                    continue  # no move (Move refuses it); Move(0, 0) is the null move, checked below
                mv = xq.Move(f, t)
                expected = ref.square_name(f) + ref.square_name(t) in want
                if board.is_legal(mv) != expected or (mv in view) != expected:
                    pytest.fail(f"is_legal({mv.iccs()}) = {board.is_legal(mv)}, in legal_moves = {mv in view}, "
                                f"reference {expected} at {fen}")
        assert not board.is_legal(xq.Move.null())
        assert board.fen() == xq.Board(fen).fen()


# ---------------------------------------------------------------- attack queries


def compare_attacks(board: Any, pos: ref.RefPosition, where: str) -> None:
    """checkers() and attackers(color, sq) for every square and both colours."""
    fen = board.fen()
    want_checkers = ref.checkers(pos.board, pos.turn)
    assert set(board.checkers()) == want_checkers, f"{where}: checkers at {fen}"
    for color in (ref.RED, ref.BLACK):
        for sq in range(90):
            got = set(board.attackers(bool(color), sq))
            want = ref.attackers(pos.board, color, sq)
            if got != want:
                pytest.fail(f"{where}: attackers({'red' if color else 'black'}, {ref.square_name(sq)}) at {fen}: "
                            f"library {sorted(map(ref.square_name, got))}, "
                            f"reference {sorted(map(ref.square_name, want))}")


def test_attack_queries() -> None:
    xq = _lib()
    fens = [START] + PERFT_FENS + [f for _, f in TRAPS] + _random_fens(5, 60) + _random_fens(6, 20, odd=True)
    for i, fen in enumerate(fens):
        compare_attacks(xq.Board(fen), ref.parse_fen(fen), f"position {i}")


# ---------------------------------------------------------------- trap positions, exhaustively


def compare_tree(fen: str, depth: int, where: str) -> int:
    """Compare every node of the legal-move tree ``depth`` plies deep; returns the node count."""
    xq = _lib()
    board = xq.Board(fen)
    nodes = 0

    def walk(pos: ref.RefPosition, d: int, path: List[str]) -> None:
        nonlocal nodes
        here = f"{where} after {' '.join(path) or 'no moves'}"
        moves = compare_position(board, pos, here)
        nodes += 1
        if d == 0:
            return
        if d == depth:
            check_push_pop(board, moves, here)
        for mv in moves:
            child = pos.copy()
            child.push(mv)
            board.push(xq.Move.from_iccs(mv))
            walk(child, d - 1, path + [mv])
            board.pop()

    walk(ref.parse_fen(fen), depth, [])
    assert board.fen() == xq.Board(fen).fen()
    return nodes


@pytest.mark.parametrize("name,fen", TRAPS, ids=[t[0] for t in TRAPS])
def test_trap_positions(name: str, fen: str) -> None:
    ref.parse_fen(fen)  # the position itself must be sound
    compare_tree(fen, 3 if len(ref.parse_fen(fen).legal_moves()) <= 12 else 2, name)


def test_zobrist_depends_on_side_to_move() -> None:
    xq = _lib()
    for fen in [START] + PERFT_FENS:
        other = fen.replace(" w ", " b ") if " w " in fen else fen.replace(" b ", " w ")
        assert xq.Board(fen).zobrist_hash() != xq.Board(other).zobrist_hash(), fen
        counters = fen.rsplit(" ", 2)[0] + " 17 30"
        assert xq.Board(fen).zobrist_hash() == xq.Board(counters).zobrist_hash(), fen


def test_trap_expectations() -> None:
    """A few facts about the traps that do not depend on either generator."""
    mate = _lib().Board(dict(TRAPS)["double-cannon-mate"])
    assert mate.is_checkmate() and not mate.is_stalemate()
    stale = _lib().Board(dict(TRAPS)["stalemate"])
    assert stale.is_stalemate() and not stale.is_checkmate() and not stale.is_check()


# ---------------------------------------------------------------- game corpus


_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$|^\d+\.\.\.$")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def read_iccs_pgn(path: Path) -> Iterator[Tuple[Dict[str, str], List[str]]]:
    """Minimal reader for the corpus' ICCS PGN files: yields (tags, moves) per game."""
    tags: Dict[str, str] = {}
    moves: List[str] = []
    in_moves = False
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            m = _TAG.match(line)
            if m:
                if in_moves:
                    yield tags, moves
                    tags, moves, in_moves = {}, [], False
                tags[m.group(1)] = m.group(2)
                continue
            in_moves = True
            for tok in line.split():
                # "1." / "1..." / glued "1.h2e2" / "1...h9g7"
                tok = re.sub(r"^\d+\.(\.\.)?", "", tok)
                if not tok or _MOVE_NUMBER.match(tok) or tok in _RESULTS:
                    continue
                moves.append(tok.lower())
    if tags or moves:
        yield tags, moves


def read_index(path: Path) -> Dict[int, Dict[str, str]]:
    """``index.tsv`` rows by 1-based game number."""
    rows: Dict[int, Dict[str, str]] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    for line in lines[1:]:
        cells = line.split("\t")
        row = dict(zip(header, cells + [""] * (len(header) - len(cells))))
        rows[int(row["game"])] = row
    return rows


def _game_files() -> List[Path]:
    if not GAMES.is_dir():
        pytest.skip(f"shared data not available: {GAMES}")
    files = sorted(GAMES.glob("*.iccs.pgn"))
    if not files:
        pytest.skip(f"no *.iccs.pgn in {GAMES}")
    return files


def _square(name: str) -> int:
    return (ord(name[1]) - 48) * 9 + ord(name[0]) - 97


def replay_file(path: Path, *, every: int = 1) -> Tuple[int, int]:
    """Replay every ``every``-th game of ``path``; returns (games, plies). Fails on the first bad move."""
    xq = _lib()
    index_path = path.with_name(path.name.replace(".iccs.pgn", ".index.tsv"))
    index = read_index(index_path) if index_path.exists() else {}
    games = plies = 0
    for number, (tags, moves) in enumerate(read_iccs_pgn(path), 1):
        if (number - 1) % every:
            continue
        board = xq.Board(tags.get("FEN", xq.STARTING_FEN))
        for ply, tok in enumerate(moves):
            code = _square(tok[:2]) << 7 | _square(tok[2:4])
            if len(tok) != 4 or code not in board.legal_move_codes():
                pytest.fail(f"{path.name} game {number} ply {ply}: {tok!r} is not legal in {board.fen()}")
            board.push(xq.Move.from_code(code))
        games += 1
        plies += len(moves)
        row = index.get(number)
        if row:
            assert int(row["plies"]) == len(moves), f"{path.name} game {number}: ply count"
            want = row["final_fen"].split()
            got = board.fen().split()
            assert got[:2] == want[:2], f"{path.name} game {number}: final position {got} != {want}"
            if row.get("terminal") == "no-legal-moves":
                assert len(board.legal_moves) == 0 and board.is_game_over(), f"{path.name} game {number}"
    return games, plies


def test_game_reader_tokenizer(tmp_path: Path) -> None:
    text = ('[Event "x"]\n[FEN "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1"]\n\n1... e9d9 2. e0d0 1/2-1/2\n\n'
            '[Event "y"]\n\n1. h2e2 h9g7 2.h0g2 *\n')
    p = tmp_path / "probe.pgn"
    p.write_text(text, encoding="utf-8")
    games = list(read_iccs_pgn(p))
    assert games == [({"Event": "x", "FEN": "4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1"}, ["e9d9", "e0d0"]),
                     ({"Event": "y"}, ["h2e2", "h9g7", "h0g2"])]


#: Games and plies per corpus file, as its README states them.
CORPUS = {
    "ccpd-master-3000.iccs.pgn": (3000, 254_333),
    "ccpd-positions-300.iccs.pgn": (300, 7_842),
    "wukong-hu-ronghua-1391.iccs.pgn": (1391, 120_357),
    "wukong-liu-dahua-1125.iccs.pgn": (1125, 101_321),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_replay_games(name: str) -> None:
    """Every game of the file: each move legal, ply count and final board as indexed (~2.5 s for all)."""
    path = GAMES / name
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    assert replay_file(path) == CORPUS[name]


def test_game_positions_against_reference() -> None:
    """Positions sampled from real games (every 40th game, every 9th ply) compared with the reference."""
    xq = _lib()
    seen = 0
    for path in _game_files():
        for number, (tags, moves) in enumerate(read_iccs_pgn(path), 1):
            if number % 40:
                continue
            fen = tags.get("FEN", xq.STARTING_FEN)
            board = xq.Board(fen)
            pos = ref.parse_fen(fen)
            for ply, tok in enumerate(moves):
                if ply % 9 == 0:
                    here = f"{path.name} game {number} ply {ply}"
                    compare_position(board, pos, here)
                    seen += 1
                board.push(xq.Move.from_iccs(tok))
                pos.push(tok)
    assert seen > 500


def test_known_bad_fens_are_rejected() -> None:
    """The corpus' known-bad records whose FEN lacks a king are refused by both generators."""
    path = GAMES / "ccpd-known-bad-12.tsv"
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    xq = _lib()
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    assert len(lines) == 12
    for line in lines:
        _path, _ply, _token, reason, fen = line.split("\t")
        if "no " in reason and "king" in reason:
            with pytest.raises(xq.InvalidFenError):
                xq.Board(fen)
            with pytest.raises(ref.RefFenError):
                ref.parse_fen(fen)
