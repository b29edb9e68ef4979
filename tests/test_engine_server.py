"""``xiangqi engine`` as GUIs see it: a real subprocess spoken to through pipes, in UCI and UCCI."""

from __future__ import annotations

import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

import pytest
from conftest import PERFT_DIR
from test_search import SAMPLE_GAMES, game_boards, random_boards

from xiangqi import Board, Move
from xiangqi.perft import perft

FAIRY = Path("/usr/games/fairy-stockfish")


class Pipe:
    """A process spoken to line by line; reads have a deadline so a hung engine fails the test instead of hanging."""

    def __init__(self, cmd: List[str]) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 10.0) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no answer within {timeout} s") from None
        if line is None:
            raise AssertionError(f"the process ended (exit {self.proc.wait()}): {self.proc.stderr.read()}")  # type: ignore[union-attr]
        return line

    def read_until(self, prefix: str, timeout: float = 10.0) -> Tuple[str, List[str]]:
        """Lines up to the first one starting with ``prefix``: (that line, the ones before it)."""
        before: List[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read(max(deadline - time.monotonic(), 0.001))
            if line.startswith(prefix):
                return line, before
            before.append(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=5)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if f is not None:
                f.close()


ENGINE = [sys.executable, "-m", "xiangqi", "engine"]


def start(protocol: str = "uci") -> Pipe:
    pipe = Pipe(ENGINE)
    pipe.send(protocol)
    pipe.read_until(protocol + "ok")
    return pipe


@pytest.fixture(scope="module")
def uci() -> Iterator[Pipe]:
    pipe = start("uci")
    yield pipe
    pipe.close()


@pytest.fixture(scope="module")
def ucci() -> Iterator[Pipe]:
    pipe = start("ucci")
    yield pipe
    pipe.close()


def position_command(board: Board) -> str:
    moves = " ".join(m.iccs() for m in board.move_stack)
    return f"position fen {board.starting_fen}" + (f" moves {moves}" if moves else "")


def best_of(line: str) -> Optional[Move]:
    words = line.split()
    if words == ["nobestmove"] or words[:2] == ["bestmove", "(none)"]:
        return None
    assert words[0] == "bestmove", line
    return Move.from_iccs(words[1])


def assert_alive(pipe: Pipe) -> None:
    pipe.send("isready")
    pipe.read_until("readyok")


# ------------------------------------------------------------------ handshake


def test_uci_handshake() -> None:
    pipe = Pipe(ENGINE)
    try:
        pipe.send("uci")
        ok, lines = pipe.read_until("uciok")
        assert ok == "uciok"
        assert any(line.startswith("id name pyxiangqi") for line in lines)
        assert "option name Hash type spin default 16 min 0 max 4096" in lines
        assert_alive(pipe)
    finally:
        pipe.close()
    assert pipe.proc.returncode == 0


def test_ucci_handshake_and_bye() -> None:
    pipe = Pipe(ENGINE)
    try:
        pipe.send("ucci")
        _, lines = pipe.read_until("ucciok")
        assert any(line.startswith("option hashsize type spin") for line in lines)
        assert any(line.startswith("option usemillisec type check") for line in lines)
        pipe.send("quit")
        assert pipe.read() == "bye"
        assert pipe.proc.wait(timeout=5) == 0
    finally:
        pipe.close()


# -------------------------------------------------------------- legal moves


def test_legal_bestmoves_through_the_process(uci: Pipe) -> None:
    boards = list(game_boards(SAMPLE_GAMES, 150)) + list(random_boards(150, seed=3))
    for board in boards:
        uci.send(position_command(board))
        uci.send("go nodes 300")
        line, infos = uci.read_until("bestmove")
        best = best_of(line)
        if board.legal_moves:
            assert best is not None and board.is_legal(best), (board.fen(), line)
            for info in infos:
                assert info.startswith("info "), info
                if " pv " in info:
                    replay = board.copy()
                    for text in info.split(" pv ")[1].split():
                        replay.push_iccs(text)
        else:
            assert best is None


def test_moves_in_position_count_for_repetition(uci: Pipe) -> None:
    # Black, a rook down, can return to a position the game has seen: a draw score, so it does.
    uci.send("position fen 4k4/9/9/9/R8/9/9/9/9/3K5 b - - 0 1 moves e9e8 a5a6 e8e9 a6a5")
    uci.send("go depth 3")
    line, infos = uci.read_until("bestmove")
    assert line.split()[1] == "e9e8"
    assert " score cp 0 " in infos[-1]


def test_mate_in_one_and_two_are_reported(uci: Pipe) -> None:
    for fen, mate in (("4ka3/4a4/9/9/9/9/9/9/9/RC2K4 w - - 0 1", 1), ("4k4/9/9/9/9/9/9/9/1R7/R3K4 w - - 0 1", 2)):
        uci.send("ucinewgame")
        uci.send(f"position fen {fen}")
        uci.send("go depth 5")
        line, infos = uci.read_until("bestmove")
        assert f" score mate {mate} " in infos[-1], infos
        board = Board(fen)
        assert board.is_legal(Move.from_iccs(line.split()[1]))


def test_ucci_mate_is_reported_as_mate(ucci: Pipe) -> None:
    # UCCI's plain score would be a big centipawn number to a GUI; mates go as "mate N", as Fairy-Stockfish sends them.
    ucci.send("position fen 4ka3/4a4/9/9/9/9/9/9/9/RC2K4 w - - 0 1")
    ucci.send("go depth 5")
    _, infos = ucci.read_until("bestmove")
    assert " score mate 1 " in infos[-1], infos


def test_no_legal_move(uci: Pipe, ucci: Pipe) -> None:
    mated = "position fen 3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1"
    uci.send(mated)
    uci.send("go depth 3")
    assert uci.read_until("bestmove")[0] == "bestmove (none)"
    ucci.send(mated)
    ucci.send("go depth 3")
    line, _ = ucci.read_until("nobestmove")
    assert line == "nobestmove"


# ------------------------------------------------------------------- UCCI


def test_ucci_banmoves_and_clock(ucci: Pipe) -> None:
    board = Board()
    legal = {m.iccs() for m in board.legal_moves}
    banned = sorted(legal - {"a3a4", "c3c4"})
    ucci.send("position startpos")
    ucci.send("banmoves " + " ".join(banned))
    ucci.send("go depth 3")
    line, infos = ucci.read_until("bestmove")
    assert line.split()[1] in ("a3a4", "c3c4")
    assert infos and all(" score " in i and " score cp " not in i for i in infos if i.startswith("info depth"))
    # A new position clears the bans; every move banned leaves nothing to play.
    ucci.send("position startpos")
    ucci.send("banmoves " + " ".join(sorted(legal)))
    ucci.send("go depth 2")
    assert ucci.read_until("nobestmove")[0] == "nobestmove"
    # UCCI clocks: seconds by default, milliseconds after usemillisec.
    ucci.send("position startpos moves h2e2")
    start = time.monotonic()
    ucci.send("go time 3 increment 0 opptime 3 oppincrement 0")
    best_of(ucci.read_until("bestmove")[0])
    assert time.monotonic() - start < 0.5  # about 3 s / 30 moves, never the whole clock
    ucci.send("setoption usemillisec true")
    ucci.send("setoption hashsize 8")
    start = time.monotonic()
    ucci.send("go time 600 movestogo 10")
    best_of(ucci.read_until("bestmove")[0])
    assert time.monotonic() - start < 0.3  # 600 ms over 10 moves (600 s would think for a minute)
    ucci.send("setoption usemillisec false")
    assert_alive(ucci)


# --------------------------------------------------------------- time, stop


def test_movetime_is_never_overrun(uci: Pipe) -> None:
    boards = [Board(), *list(game_boards(SAMPLE_GAMES, 40))[5::5]]
    overruns = []
    for i, board in enumerate(boards):
        movetime = (50, 120, 200, 300)[i % 4]
        uci.send(position_command(board))
        start = time.monotonic()
        uci.send(f"go movetime {movetime}")
        line, _ = uci.read_until("bestmove", timeout=movetime / 1000 + 5)
        elapsed_ms = (time.monotonic() - start) * 1000
        overruns.append(elapsed_ms - movetime)
        assert board.is_legal(best_of(line))  # type: ignore[arg-type]
    assert len(overruns) == len(boards) >= 8
    print("movetime overruns (ms):", [round(x, 1) for x in overruns])
    assert max(overruns) <= 50, overruns


def test_clock_time_leaves_time_on_the_clock(uci: Pipe) -> None:
    uci.send("position startpos")
    start = time.monotonic()
    uci.send("go wtime 1000 btime 1000 winc 0 binc 0")
    uci.read_until("bestmove")
    assert time.monotonic() - start < 0.5


def test_stop_during_infinite_answers_promptly(uci: Pipe) -> None:
    uci.send("position startpos moves h2e2 h9g7")
    uci.send("go infinite")
    time.sleep(0.3)
    uci.send("isready")
    ready, _ = uci.read_until("readyok", timeout=1)  # answered while the search runs
    start = time.monotonic()
    uci.send("stop")
    line, _ = uci.read_until("bestmove", timeout=2)
    assert time.monotonic() - start < 0.2
    board = Board()
    board.push_iccs("h2e2")
    board.push_iccs("h9g7")
    assert board.is_legal(best_of(line))  # type: ignore[arg-type]


def test_go_then_stop_at_once_answers_exactly_once_each_time(uci: Pipe) -> None:
    uci.send("position startpos")
    for _ in range(40):
        uci.send("go infinite")
        uci.send("stop")
    uci.send("isready")
    _, lines = uci.read_until("readyok", timeout=20)
    answers = [line for line in lines if line.startswith("bestmove")]
    assert len(answers) == 40
    assert all(Board().is_legal(best_of(line)) for line in answers)  # type: ignore[arg-type]


def test_infinite_waits_for_stop_even_after_a_mate(uci: Pipe) -> None:
    uci.send("position fen 4ka3/4a4/9/9/9/9/9/9/9/RC2K4 w - - 0 1")
    uci.send("go infinite")
    time.sleep(0.3)
    uci.send("isready")
    _, before = uci.read_until("readyok", timeout=2)
    assert not any(line.startswith("bestmove") for line in before)
    uci.send("setoption name Hash value 8")
    refused, _ = uci.read_until("info string", timeout=2)
    assert "not while searching" in refused
    uci.send("stop")
    assert uci.read_until("bestmove", timeout=2)[0].split()[1] == "a0a9"


def test_ponder_then_ponderhit_plays_within_the_clock(uci: Pipe) -> None:
    uci.send("position startpos")
    uci.send("go ponder movetime 200")
    time.sleep(0.2)
    start = time.monotonic()
    uci.send("ponderhit")
    line, _ = uci.read_until("bestmove", timeout=2)
    assert time.monotonic() - start < 0.2 + 0.05
    assert Board().is_legal(best_of(line))  # type: ignore[arg-type]


# --------------------------------------------------------------------- perft


def perft_suite(max_depth: int) -> Iterator[Tuple[str, int, int]]:
    fen = None
    for line in (PERFT_DIR / "xiangqi.perft").read_text().splitlines():
        if line.startswith("epd "):
            fen = line[4:].strip()
        elif line.startswith("perft ") and fen is not None:
            depth, nodes = map(int, line.split()[1:3])
            if depth <= max_depth:
                yield fen, depth, nodes


def test_go_perft_matches_the_suite(uci: Pipe) -> None:
    cases = list(perft_suite(3))
    assert len(cases) > 10
    for fen, depth, nodes in cases:
        uci.send(f"position fen {fen}")
        uci.send(f"go perft {depth}")
        total, lines = uci.read_until("Nodes searched:")
        assert int(total.split(":")[1]) == nodes, (fen, depth)
        divide = dict(line.split(": ") for line in lines if line)
        assert {m: int(n) for m, n in divide.items()} == perft(fen, depth, divide=True)
        assert uci.read() == ""


def test_go_perft_after_moves_matches_fairy_stockfish_format(uci: Pipe) -> None:
    uci.send("position startpos moves h2e2")
    uci.send("go perft 2")
    total, lines = uci.read_until("Nodes searched:")
    assert lines[-1] == "" and all(": " in line for line in lines[:-1])
    board = Board()
    board.push_iccs("h2e2")
    assert int(total.split(": ")[1]) == board.perft(2)
    assert uci.read() == ""


def test_go_perft_output_equals_fairy_stockfish_ucci(uci: Pipe) -> None:
    # Fairy-Stockfish in UCCI mode writes ranks 0-9 too, so the divides must match line for line (order aside).
    if not FAIRY.exists():
        pytest.skip("fairy-stockfish not installed (Debian package fairy-stockfish)")
    fairy = Pipe([str(FAIRY)])
    try:
        fairy.send("ucci")
        fairy.read_until("ucciok")
        for fen, depth, _ in [c for c in perft_suite(2) if c[1] == 2][:6]:
            outputs = []
            for pipe in (uci, fairy):
                pipe.send(f"position fen {fen}")
                pipe.send(f"go perft {depth}")
                total, lines = pipe.read_until("Nodes searched:")
                assert pipe.read() == ""
                outputs.append((total, sorted(lines)))
            assert outputs[0] == outputs[1], fen
    finally:
        fairy.close()


# ---------------------------------------------------------------- bad input


BAD_LINES = [
    "garbage",
    "position",
    "position fen",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
    "position fen 4k4/9/9/9/9/9/9/9/9/9 w",
    "position startpos moves h2e2 h2e2",
    "position startpos moves z9z9",
    "position sideways",
    "go depth",
    "go depth x",
    "go nodes -5",
    "go nodes 99999999999999999999999999",
    "go movetime 99999999999999999999999999",
    "go sideways",
    "go perft 99",
    "go searchmoves a0a5",
    "setoption name Hash value lots",
    "setoption name Hash value -1",
    "setoption name Colour value red",
    "setoption",
    "banmoves h2e2 notamove",
    "\x00\xff binary",
    "x" * 5000,
]


def test_bad_lines_get_an_info_string_and_the_engine_lives_on(uci: Pipe) -> None:
    uci.send("position startpos moves h2e2")
    for line in BAD_LINES:
        uci.send(line)
        answer = uci.read(timeout=5)
        assert answer.startswith("info string "), (line, answer)
        assert_alive(uci)
    # The position is what the last position line kept: "position startpos moves z9z9" kept the start (the
    # position before its bad move), and the bad lines after it changed nothing.
    uci.send("go depth 1")
    best = best_of(uci.read_until("bestmove")[0])
    assert best is not None and Board().is_legal(best)


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_a_bad_move_in_position_keeps_the_moves_before_it(protocol: str) -> None:
    """As Fairy-Stockfish does: ``position … moves`` with a bad move sets the position up to that move (it used to
    keep the previous position, which a GUI never meant)."""
    pipe = start(protocol)
    try:
        pipe.send("position startpos moves h2e2 h9g7 h0g2 e2e2 b0c2")
        refused, _ = pipe.read_until("info string")
        assert "move 4 ('e2e2')" in refused and "the position is the one before it" in refused
        pipe.send("go depth 2")
        best = best_of(pipe.read_until("bestmove")[0])
        board = Board()
        for text in ("h2e2", "h9g7", "h0g2"):
            board.push_iccs(text)
        assert best is not None and board.is_legal(best)   # Black to move, after the three good moves
    finally:
        pipe.close()


def test_bytes_that_are_not_utf8_are_a_bad_line() -> None:
    proc = subprocess.run(ENGINE, input=b"uci\n\xff\xfe\x80go\nisready\n", capture_output=True, timeout=30)
    out = proc.stdout.decode().splitlines()
    assert proc.returncode == 0 and out[-2].startswith("info string unknown command") and out[-1] == "readyok"


def test_hash_option_resizes_the_table() -> None:
    pipe = start("uci")
    try:
        for mb in (1, 0, 32):
            pipe.send(f"setoption name Hash value {mb}")
            assert_alive(pipe)
            pipe.send("position startpos")
            pipe.send("go depth 4")
            assert Board().is_legal(best_of(pipe.read_until("bestmove")[0]))  # type: ignore[arg-type]
        pipe.send("setoption name Clear Hash")
        assert_alive(pipe)
    finally:
        pipe.close()


@pytest.mark.parametrize("protocol,setoption", [("uci", "setoption name Rules value {}"), ("ucci", "setoption rules {}")])
def test_rules_option_judges_repetitions(protocol: str, setoption: str) -> None:
    from test_search import PERPETUAL_CHECK, PERPETUAL_CHECK_LOOP

    pipe = start(protocol)
    try:
        pipe.send(setoption.format("chess"))
        assert "must be one of axf, cxa, not 'chess'" in pipe.read_until("info string")[0]
        for rules in ("cxa", "axf"):
            pipe.send(setoption.format(rules))
            pipe.send(f"position fen {PERPETUAL_CHECK} moves {' '.join(PERPETUAL_CHECK_LOOP)}")
            pipe.send("go depth 5")
            # Checking again would lose by perpetual check: Red gives up material instead.
            assert best_of(pipe.read_until("bestmove")[0]) not in (None, Move.from_iccs(PERPETUAL_CHECK_LOOP[0]))
    finally:
        pipe.close()


def test_end_of_input_finishes_a_finite_search() -> None:
    proc = subprocess.run(ENGINE, input="uci\nposition startpos\ngo depth 3\n", capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[-1].startswith("bestmove ")


def test_end_of_input_stops_an_infinite_search() -> None:
    proc = subprocess.run(ENGINE, input="uci\nposition startpos\ngo infinite\n", capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1].startswith("bestmove ")


def test_command_line_usage_errors() -> None:
    proc = subprocess.run([*ENGINE, "--hash", "-1"], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and "--hash" in proc.stderr and "Traceback" not in proc.stderr


# ------------------------------------------------------- against a real engine


def test_a_game_against_fairy_stockfish() -> None:
    if not FAIRY.exists() or shutil.which(str(FAIRY)) is None:
        pytest.skip("fairy-stockfish not installed (Debian package fairy-stockfish)")
    ours = start("uci")
    # Fairy-Stockfish in UCCI mode writes ranks 0-9, as we do.
    theirs = Pipe([str(FAIRY)])
    try:
        theirs.send("ucci")
        theirs.read_until("ucciok")
        board = Board()
        for ply in range(80):
            if not board.legal_moves or board.is_repetition(3):
                break
            engine, go = (ours, "go depth 3") if ply % 2 == 0 else (theirs, "go depth 2")
            engine.send(position_command(board))
            engine.send(go)
            line, _ = engine.read_until("bestmove", timeout=30)
            move = best_of(line)
            assert move is not None and board.is_legal(move), (board.fen(), line, "ours" if engine is ours else "fs")
            board.push(move)
        assert len(board.move_stack) >= 10
    finally:
        ours.close()
        theirs.close()


# ------------------------------------------------- issues 21 and 22: protocol behaviour GUIs rely on


@pytest.mark.parametrize("go", ["go", "go depth 60", "go movetime 60000", "go wtime 600000 btime 600000"])
def test_end_of_input_stops_any_search(go: str) -> None:
    """The input ends during a search without a limit, a deep one or a long one: the engine answers and exits at
    once (it searched on for ever, an orphan at 100% CPU, or for the whole minute)."""
    start_time = time.monotonic()
    proc = subprocess.run(ENGINE, input=f"uci\nposition startpos\n{go}\n", capture_output=True, text=True,
                          timeout=30)
    assert time.monotonic() - start_time < 10
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1].startswith("bestmove ")
    assert Board().is_legal(best_of(proc.stdout.splitlines()[-1]))  # type: ignore[arg-type]


def test_go_perft_leaves_the_input_answered() -> None:
    """``go perft`` runs beside the input: ``isready`` is answered during a long perft, ``stop`` ends it (the count
    goes in C calls of a few plies, with a look at the stop flag between them) and ``quit`` exits at once (all three
    went unanswered until the perft was done)."""
    pipe = start("uci")
    try:
        pipe.send("position startpos")
        pipe.send("go perft 7")                  # hours of counting
        time.sleep(0.2)
        pipe.send("isready")
        assert pipe.read_until("readyok", timeout=2)[1] == []
        pipe.send("stop")
        pipe.send("isready")
        assert pipe.read_until("readyok", timeout=2)[1] == ["info string perft stopped"]   # within milliseconds
        pipe.send("go perft 7")
        time.sleep(0.2)
        pipe.send("quit")
        assert pipe.proc.wait(timeout=5) == 0
    finally:
        pipe.close()


def test_a_huge_movetime_is_a_long_search_not_no_move(uci: Pipe) -> None:
    """``go movetime 10000000000000`` (or ``1e13``) overflowed the search's time and answered ``bestmove (none)``."""
    for go in ("go movetime 10000000000000", "go movetime 1e13", "go wtime 99999999999999 btime 1"):
        uci.send("position startpos")
        uci.send(go)
        time.sleep(0.2)
        uci.send("stop")
        line, _ = uci.read_until("bestmove", timeout=5)
        assert Board().is_legal(best_of(line)), (go, line)  # type: ignore[arg-type]


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_every_go_gets_a_bestmove(protocol: str) -> None:
    """A ``go`` the engine refuses is still answered (a GUI waits for it): an unreadable or zero depth, an illegal
    ``searchmoves``, a negative movetime (read as none left)."""
    pipe = start(protocol)
    none = "nobestmove" if protocol == "ucci" else "bestmove (none)"
    try:
        pipe.send("position startpos")
        for go, answer in (("go depth 0", none), ("go depth x", none), ("go sideways", none),
                           ("go searchmoves a0a5", none), ("go depth 2 searchmoves a0a5 h2e2", "bestmove h2e2"),
                           ("go movetime -5", "bestmove "), ("go nodes 0", none)):
            pipe.send(go)
            line, before = pipe.read_until("bestmove" if protocol == "uci" or answer != none else "nobestmove",
                                           timeout=5)
            assert line.startswith(answer), (go, line)
            if answer == none or "a0a5" in go:
                assert any(b.startswith("info string") for b in before), (go, before)
            assert_alive(pipe)
    finally:
        pipe.close()


def test_a_clock_move_takes_about_its_share() -> None:
    """A clock is shared over the moves to go (30 unless given) with three quarters of the increment. The depth
    begun before the soft limit runs on past it (about half as long again), so the soft limit is 0.7 of the share
    and a search takes about the share: at 10+0.1 the engine spent 0.43 s a move while its clock was above 3 s (Fairy-
    Stockfish 0.31 s) when the soft limit was the whole share. The hard limit stays four times the share."""
    from xiangqi.engine_server import time_budget
    from xiangqi.uci import Go

    # (clock ms, increment ms, moves to go) -> (hard, soft) in seconds; the share is worked out by hand beside each:
    # (clock - 15 ms kept back) / moves to go + 3/4 of the increment; soft 0.7 of it, hard 4 times (at most 0.8 of
    # the clock left).
    cases = {
        (10000, 100, None): (1.631333, 0.285483),   # share 9985 / 30 + 75 = 407.83 ms
        (3000, 100, None): (0.698, 0.12215),        # share 2985 / 30 + 75 = 174.5 ms
        (60000, 0, None): (7.998, 1.39965),         # share 59985 / 30 = 1999.5 ms
        (60000, 1000, 10): (26.994, 4.72395),       # share 59985 / 10 + 750 = 6748.5 ms
    }
    for (clock, inc, togo), expected in cases.items():
        for red in (True, False):
            go = Go(red_time=clock, black_time=clock, red_inc=inc, black_inc=inc, movestogo=togo)
            assert time_budget(go, red) == pytest.approx(expected, abs=1e-6), (clock, inc, togo)


def test_movetime_uses_its_time_and_never_overruns(uci: Pipe) -> None:
    """``go movetime 10`` thinks about 10 ms (it kept 15 ms back and answered in 3), and no movetime is overrun by
    more than 20 ms in the median (the clock is looked at every 256 nodes inside an iteration)."""
    from xiangqi.engine_server import time_budget
    from xiangqi.uci import Go

    for movetime in (10, 20, 50, 100, 1000):
        hard, soft = time_budget(Go(movetime=movetime), True)
        assert soft is None and hard is not None and movetime - 15 <= hard * 1000 <= movetime
        assert hard * 1000 >= movetime * 0.8
    overruns = []
    for movetime in (10, 10, 10, 20, 30, 50, 10, 20):
        uci.send("position startpos moves h2e2 h9g7")
        start_time = time.monotonic()
        uci.send(f"go movetime {movetime}")
        uci.read_until("bestmove", timeout=5)
        elapsed = (time.monotonic() - start_time) * 1000
        assert elapsed >= movetime * 0.7, (movetime, elapsed)   # the engine answers only when its time is up
        overruns.append(elapsed - movetime)
    overruns.sort()
    print("movetime overruns (ms):", [round(x, 1) for x in overruns])
    assert overruns[len(overruns) // 2] <= 20, overruns


def test_ponderhit_switches_to_the_normal_budget(uci: Pipe) -> None:
    """After ``ponderhit`` the search keeps the budget of a plain ``go`` with the same clock (it ran on to the
    hard limit, four times the soft one: 800 ms where a plain go took 230)."""
    clock = "wtime 3000 btime 3000 movestogo 10"   # soft 300 ms, hard 1200 ms
    board = Board()
    board.push_iccs("h2e2")
    answers = []
    for _ in range(3):   # the quickest of three: a loaded machine may slow one, never the old Timer at 1.2 s
        uci.send("ucinewgame")
        uci.send("position startpos moves h2e2")
        uci.send(f"go ponder {clock}")
        time.sleep(0.1)
        start_time = time.monotonic()
        uci.send("ponderhit")
        line, _ = uci.read_until("bestmove", timeout=5)
        answers.append(time.monotonic() - start_time)
        assert board.is_legal(best_of(line))  # type: ignore[arg-type]
    print("answered", [round(a, 3) for a in answers], "s after ponderhit")
    assert min(answers) < 1.0, answers   # the hard limit is 1.2 s, the soft one 0.3 s


def test_a_search_stopped_before_depth_1_has_a_real_score(uci: Pipe) -> None:
    """A node limit of 1 (or a stop at once) ended the search inside depth 1: ``score cp 0`` and no pv move
    searched. Depth 1 is finished first: the score is the one ``go depth 1`` finds."""
    fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1"   # a rook up: far from 0
    uci.send(f"position fen {fen}")
    uci.send("go depth 1")
    _, infos = uci.read_until("bestmove")
    depth1 = [i for i in infos if i.startswith("info depth 1 ")][-1].split()
    uci.send(f"position fen {fen}")
    uci.send("go nodes 1")
    line, infos = uci.read_until("bestmove")
    words = [i for i in infos if i.startswith("info depth")][-1].split()
    score = words[words.index("score") + 1: words.index("score") + 3]
    assert score == depth1[depth1.index("score") + 1: depth1.index("score") + 3] and score != ["cp", "0"], infos
    assert Board(fen).is_legal(best_of(line))  # type: ignore[arg-type]


def test_options_announced_are_the_options_implemented() -> None:
    """The handshake announces exactly the options table's rows for its protocol; ``setoption`` of one it does not
    have (Threads, MultiPV) is answered with an info string naming what it has."""
    from xiangqi.engine_server import OPTIONS

    for protocol in ("uci", "ucci"):
        pipe = Pipe(ENGINE)
        try:
            pipe.send(protocol)
            _, lines = pipe.read_until(protocol + "ok")
            announced = [line for line in lines if line.startswith("option ")]
            expected = [row.option(ucci=protocol == "ucci").line(ucci=protocol == "ucci") for row in OPTIONS
                        if (row.ucci if protocol == "ucci" else row.uci) is not None]
            assert announced == expected and len(expected) >= 2
            for name in ("Threads", "MultiPV"):
                pipe.send(f"setoption name {name} value 2")
                refused, _ = pipe.read_until("info string", timeout=5)
                assert f"unknown option {name!r}" in refused
                assert not any(f" {name} " in line for line in announced)
            for line in announced:   # each announced option is taken at its default
                name = line.split(" type ")[0].split(" ", 2)[-1]
                default = line.split(" default ")[1].split()[0] if " default " in line else ""
                pipe.send(f"setoption name {name}" + (f" value {default}" if default else ""))
                pipe.send("isready")
                _, between = pipe.read_until("readyok", timeout=5)
                assert between == [], (line, between)
        finally:
            pipe.close()
