"""Reading the shared ICCS game files for the benchmarks: (start FEN, ICCS moves) per game.

A deliberately small tokenizer, independent of :mod:`xiangqi.pgn`, so a benchmark of the
library never measures the library's own reader by accident.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator, List, Tuple

from xiangqi import STARTING_FEN

_MOVE = re.compile(r"\b[a-i][0-9][a-i][0-9]\b")


def iccs_games(path: Path) -> Iterator[Tuple[str, List[str]]]:
    """(start FEN, ICCS moves) of each game of an ICCS PGN file (tags, then move text)."""
    fen, in_moves = STARTING_FEN, False
    moves: List[str] = []
    with path.open(encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if line.startswith("["):
                if in_moves:
                    yield fen, moves
                    fen, moves, in_moves = STARTING_FEN, [], False
                if line.startswith("[FEN "):
                    fen = line[line.index('"') + 1:line.rindex('"')]
            elif line:
                in_moves = True
                moves.extend(_MOVE.findall(line))
    if in_moves:
        yield fen, moves
