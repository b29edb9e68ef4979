"""A small, deliberately misbehaving xiangqi engine for the engine-client tests.

It speaks UCI or UCCI (whichever handshake it receives), ranks 0-9, and plays
the first legal move, except as its mode says (first argument):

* ``normal``: well behaved; ``go perft`` answers truthfully;
* ``die``: sends one info line on ``go``, writes to stderr and exits with status 3;
* ``hang``: never answers ``go`` (and ignores ``stop``);
* ``silent``: never answers the handshake;
* ``deaf``: well behaved until its input ends, then runs on for a minute, as an engine deep in a search that
  never reads its input;
* ``illegal``: answers ``go`` with ``bestmove a0a5`` (a rook move through its own pawn);
* ``garbage``: surrounds its (legal) best move with malformed info lines;
* ``liar PATH``: ``go perft`` adds one node under the last move of PATH
  (comma-separated ICCS moves from the start position), everywhere the lie shows;
* ``script M1,M2,... [CP]``: answers each ``go`` with the next move of the list, cyclically, reporting
  the score ``CP`` (0 by default);
* ``bare SCORE``: well behaved, but writes its score bare, as ElephantEye does in UCCI (``score SCORE``);
* ``slow SECONDS``: well behaved, but thinks that long over each move;
* ``wander SECONDS``: as ``slow``, but plays a move that changes with the ply (its games seldom repeat, so
  they run long);
* ``noperft``: well behaved, but takes ``go perft N`` for an ordinary ``go`` (as engines without perft do);
* ``flood MIB``: well behaved, but writes MIB mebibytes without a line end to standard output and to
  standard error before each best move;
* ``echo``: well behaved, and sends the last ``position`` line it got back as ``info string``;
* ``twice``: well behaved, but answers each ``go`` with its ``bestmove`` line twice (the second one stale);
* ``chatty N``: well behaved, but writes N info lines (depths 1 to N, all at once) before each best move, and no other;
* ``he``: well behaved, but has a ``UCI_Variant`` option (it is no Fairy-Stockfish: ranks 0-9) and reads FENs with
  ``h``/``e`` for horse and elephant, as Sjaak II does; a FEN with ``n`` or ``b`` is refused with an ``Error:`` line
  and the position stays what it was;
* ``nonewgame``: well behaved, but answers ``ucinewgame`` with ``Unknown command: ucinewgame``;
* ``gone``: cannot start: writes an error to standard output and to standard error and exits with status 2
  before reading anything, as an engine without its network file;
* ``seconds``: a UCCI engine without ``usemillisec``: thinks for the whole ``go time T`` (seconds) unless
  ``stop`` comes first, and says which ended it (``info string stopped`` or ``info string time up``).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import List, Optional

from xiangqi import Board, Move
from xiangqi.perft import perft


def read_position(words: List[str]) -> Board:
    if words[1] == "startpos":
        board, rest = Board(), words[2:]
    else:
        end = words.index("moves") if "moves" in words else len(words)
        board, rest = Board(" ".join(words[2:end])), words[end:]
    for text in rest[1:]:
        board.push_iccs(text)
    return board


def perft_lines(board: Board, depth: int, lie: Optional[List[Move]]) -> List[str]:
    counts = perft(board.fen(), depth, divide=True)
    if lie:
        walk = Board()
        for k, move in enumerate(lie):
            if walk.board_fen() == board.board_fen() and walk.turn == board.turn and depth >= len(lie) - k:
                counts[move.iccs()] += 1
                break
            walk.push(move)
    lines = [f"{m}: {n}" for m, n in counts.items()]
    return lines + ["", f"Nodes searched: {sum(counts.values())}"]


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "normal"
    arg = sys.argv[2] if len(sys.argv) > 2 else ""
    lie = [Move.from_iccs(t) for t in arg.split(",")] if mode == "liar" else None
    script = arg.split(",") if mode == "script" else []
    script_cp = int(sys.argv[3]) if mode == "script" and len(sys.argv) > 3 else 0
    plays = 0
    board = Board()
    position_line = ""
    out = sys.stdout
    if mode == "gone":
        print("Error: cannot open the evaluation file fake.nnue", flush=True)
        sys.stderr.write("fake engine: fake.nnue: no such file\n")
        sys.exit(2)

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    # Lines come through a queue so that a thinking "seconds" engine can wait for stop with a timeout.
    inbox: "queue.Queue[Optional[str]]" = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            inbox.put(line)
        inbox.put(None)

    threading.Thread(target=read, daemon=True).start()
    while True:
        raw = inbox.get()
        if raw is None:
            if mode == "deaf":
                time.sleep(60)
            return
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd in ("uci", "ucci"):
            if mode == "silent":
                continue
            say(f"id name fake-{mode}")
            say("id author the xiangqi tests")
            if cmd == "uci":
                say("option name Hash type spin default 16 min 1 max 1024")
                say("option name Style type combo default normal var solid var normal var risky")
                if mode == "he":
                    say("option name UCI_Variant type combo default chess var chess var xiangqi")
            else:
                say("option hashsize type spin min 0 max 1024 default 0")
                if mode != "seconds":
                    say("option usemillisec type check default false")
            say(cmd + "ok")
        elif cmd == "ucinewgame" and mode == "nonewgame":
            say("Unknown command: ucinewgame")
        elif cmd == "isready":
            say("readyok")
        elif cmd == "position":
            if mode == "he" and words[1] == "fen":
                placement = words[2]
                if any(c in placement for c in "nbNB"):
                    say(f"Error: unknown piece type (bad FEN {' '.join(words[2:8])})")
                    continue
                words[2] = placement.translate(str.maketrans("heHE", "nbNB"))
            board = read_position(words)
            position_line = " ".join(words)
        elif cmd == "go" and len(words) >= 3 and words[1] == "perft" and mode != "noperft":
            for line in perft_lines(board, int(words[2]), lie):
                say(line)
        elif cmd == "go":
            if mode == "die":
                say("info depth 1 score cp 12 pv " + next(iter(board.legal_moves)).iccs())
                sys.stderr.write("fake engine: dying on purpose\n")
                sys.stderr.flush()
                sys.exit(3)
            if mode == "hang":
                continue
            if mode in ("slow", "wander"):
                time.sleep(float(arg))
            if mode == "seconds" and "time" in words:
                think_until = time.monotonic() + float(words[words.index("time") + 1])
                ended = "time up"
                while (left := think_until - time.monotonic()) > 0:
                    try:
                        line = inbox.get(timeout=left)
                    except queue.Empty:
                        break
                    if line is not None and line.split()[:1] == ["stop"]:
                        ended = "stopped"
                        break
                say(f"info string {ended}")
            if mode == "illegal":
                say("bestmove a0a5")
                continue
            if mode == "garbage":
                say("info depth x score cp abc pv zz99 h2e2")
                say("info \x01\x02 nonsense 17 pv")
                say("info score mate")
                say("info string still thinking, score cp 5")
                say("totally not a protocol line")
            if mode == "script":
                move = script[plays % len(script)]
                plays += 1
                say(f"info depth 1 score cp {script_cp} pv {move}")
                say(f"bestmove {move}")
                continue
            moves = list(board.legal_moves)
            if not moves:
                say("nobestmove")
                continue
            if mode == "flood":
                chunk = b"x" * (1 << 20)
                for stream in (sys.stdout.buffer, sys.stderr.buffer):
                    for _ in range(int(arg)):
                        stream.write(chunk)
                    stream.write(b"\n")
                    stream.flush()
            if mode == "echo":
                say(f"info string {position_line}")
            if mode == "chatty":
                pv = moves[0].iccs()
                out.write("".join(f"info depth {d} seldepth {d} score cp {d % 50} nodes {d * 10} nps 1000 time {d} "
                                  f"pv {pv}\n" for d in range(1, int(arg) + 1)))
            score = f"score {arg}" if mode == "bare" else "score cp 0"
            move = moves[len(board.move_stack) * 7 % len(moves)] if mode == "wander" else moves[0]
            if mode != "chatty":
                say(f"info depth 1 seldepth 1 {score} nodes 1 time 0 pv {move.iccs()}")
            say(f"bestmove {move.iccs()}")
            if mode == "twice":
                say(f"bestmove {move.iccs()}")
        elif cmd == "quit":
            if mode == "hang":
                continue
            return


if __name__ == "__main__":
    main()
