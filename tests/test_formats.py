"""The format registry: a format registered in a few lines is read and written by every command
(``validate``, ``convert``, ``judge``) with no other change."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import IO, Iterator, Union

import pytest

from xiangqi import formats, pgn
from xiangqi.cli import main
from xiangqi.game import Game

SAMPLE = Path(__file__).resolve().parent / "data" / "sample" / "ccpd-master-24.chinese.pgn"


def _read_moves(source: formats.Input) -> Iterator[Game]:
    """A toy format: one game a line, its moves in ICCS from the start position."""
    data = source if isinstance(source, bytes) else Path(os.fspath(source)).read_bytes()  # type: ignore[arg-type]
    for line in data.decode("ascii").splitlines():
        if line.strip():
            game = pgn.read_game(io.StringIO(line + " *\n"))
            assert game is not None
            yield game


def _write_moves(game: Game, file: IO[str], options: formats.WriteOptions) -> None:
    file.write(" ".join(m.iccs() for m in game.mainline_moves()) + "\n")


@pytest.fixture
def toy() -> Iterator[formats.Format]:
    fmt = formats.Format("moves", "move list", (".moves",), _read_moves, _write_moves)
    formats.register(fmt)
    yield fmt
    formats.unregister("moves")


def test_a_registered_format_is_validated(toy: formats.Format, tmp_path: Path) -> None:
    games = tmp_path / "two.moves"
    games.write_text("h2e2 h9g7 h0g2\nh2e2 i9i0\n", encoding="ascii")
    report = tmp_path / "report.jsonl"
    assert main(["validate", str(games), "--report", str(report)]) == 1
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert [(r["index"], r["ok"]) for r in rows] == [(1, True), (2, False)]
    assert rows[1]["error"]["kind"] == "illegal-move" and rows[1]["error"]["ply"] == 1
    assert main(["validate", str(games), "--format", "moves", "--report", str(report)]) == 1
    # A folder is walked for it too: its suffix names a game file.
    assert formats.is_game_file(games) and formats.format_of(games) == "moves"


def test_a_registered_format_is_converted_both_ways(toy: formats.Format, tmp_path: Path) -> None:
    out = tmp_path / "sample.moves"
    assert main(["convert", str(SAMPLE), str(out), "--game", "2"]) == 0
    line = out.read_text(encoding="ascii").strip()
    expected = [m.iccs() for m in list(pgn.read_games(str(SAMPLE)))[1].mainline_moves()]
    assert line.split() == expected
    back = tmp_path / "back.pgn"
    assert main(["convert", str(out), str(back), "--notation", "iccs"]) == 0
    game = pgn.read_game(io.StringIO(back.read_text(encoding="utf-8")))
    assert game is not None and [m.iccs() for m in game.mainline_moves()] == expected
    assert main(["convert", str(SAMPLE), str(tmp_path / "x.pgn"), "--to", "moves", "--game", "1"]) == 0


def test_a_registered_format_is_judged(toy: formats.Format, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "one.moves"
    games.write_text("h2e2 h9g7\n", encoding="ascii")
    assert main(["judge", str(games), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["game"] == 1 and verdict["plies"] == 2


def test_a_suffix_belongs_to_one_format() -> None:
    with pytest.raises(ValueError, match="names format 'pgn'"):
        formats.register(formats.Format("other", "other", (".pgn",), _read_moves, _write_moves))
    assert "other" not in formats.FORMATS
