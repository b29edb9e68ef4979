"""A small XBoard/CECP xiangqi engine for the XBoard client tests: it plays the first legal move.

Every line it receives is appended to the file named by its first argument (the test reads what the client
sent). Its behaviour follows the modes in the other arguments:

* ``slowdone``: announces ``done=0`` first and ``done=1`` half a second later;
* ``stuck``: announces ``done=0`` and never ``done=1``;
* ``nofeatures``: announces nothing (a protocol 1 engine);
* ``noping`` / ``chess``: has no ``ping`` / no xiangqi among its variants;
* ``he``: reads only ``h``/``e`` in ``setboard`` (as Sjaak II), refusing ``n``/``b`` with an ``Error`` line;
* ``refuse``: refuses every ``setboard`` (``tellusererror Illegal position``);
* ``usermove``: announces ``usermove=1`` and refuses a move without the word;
* ``san``: announces ``san=1`` (the client must refuse it) and an unknown feature ``frobnicate=1``;
* ``notime``: announces ``time=0`` (no ``time``/``otim`` wanted) and offers a draw with each move;
* ``mate``: reports the score 100003 (CECP: mate in 3) and writes its pv in algebraic notation;
* ``resign``: answers ``go`` with ``resign`` and no move;
* ``maxqi``: as MaxQi, refuses ``?`` (``Error (unknown command): ?``), and takes 0.3 s over each ``ping``.
"""

from __future__ import annotations

import sys
import time

from xiangqi import Board


def main() -> None:
    log = open(sys.argv[1], "a", encoding="utf-8")
    modes = set(sys.argv[2:])
    board = Board()

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        line = raw.strip()
        log.write(line + "\n")
        log.flush()
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "protover":
            if "nofeatures" in modes:
                continue
            variants = "normal" if "chess" in modes else "normal,xiangqi"
            ping = 0 if "noping" in modes else 1
            extra = " usermove=1" if "usermove" in modes else ""
            extra += " san=1 frobnicate=1" if "san" in modes else ""
            extra += " time=0" if "notime" in modes else ""
            if "stuck" in modes:
                say("feature done=0 myname=\"Stuck\"")
                continue
            if "slowdone" in modes:
                say("feature done=0")
                time.sleep(0.5)
            say(f'feature ping={ping} setboard=1 myname="Fake XB" variants="{variants}"{extra}')
            say('feature option="Style -combo Solid /// *Normal /// Risky" option="Hash -spin 16 1 256"')
            say("feature done=1")
        elif cmd == "ping":
            if "maxqi" in modes:
                time.sleep(0.3)
            say(f"pong {words[1]}")
        elif cmd == "?" and "maxqi" in modes:
            say("Error (unknown command): ?")
        elif cmd == "new":
            board = Board()
        elif cmd == "setboard":
            fen = " ".join(words[1:])
            placement = words[1]
            if "refuse" in modes:
                say("tellusererror Illegal position")
            elif "he" in modes and any(c in placement for c in "nNbB"):
                say(f"Error: unknown piece type 'n' (bad FEN {fen})")
            else:
                board = Board(fen)
        elif cmd == "go":
            if "resign" in modes:
                say("resign")
                continue
            move = next(iter(board.legal_moves))
            score = 100003 if "mate" in modes else 12
            piece = board.piece_at(move.from_square)
            letter = piece.symbol().upper().replace("N", "H").replace("B", "E") if piece else "?"
            pv = f"{letter}{move.iccs()[2:]}" if "mate" in modes else move.iccs()
            say(f" 3 {score} 5 1234 {pv}")
            board.push(move)
            say(f"move {move.iccs()}")
            if "notime" in modes:
                say("offer draw")
        elif cmd in ("quit",):
            break
        elif cmd in ("xboard", "accepted", "rejected", "variant", "post", "easy", "sd", "st", "level", "time",
                     "otim", "nps", "result", "option", "?", "exit", "analyze", "memory", "cores", "force"):
            continue
        else:
            text = words[1] if cmd == "usermove" else cmd
            if cmd != "usermove" and "usermove" in modes:
                say(f"Error (unknown command): {line}")
                continue
            try:
                board.push(board.parse_iccs(text))
            except ValueError:
                say(f"Illegal move: {text}")


if __name__ == "__main__":
    main()
