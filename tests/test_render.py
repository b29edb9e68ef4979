"""``xiangqi render``: FEN or game file in, SVG or PNG out; clear one-line errors with the documented exit codes."""

from __future__ import annotations

import math
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from xiangqi import Board, Move, svg
from xiangqi.cli import main
from xiangqi.render import position

GAMES = Path(__file__).resolve().parent / "data" / "games" / "ccpd-sample.chinese.pgn"
SVG_NS = "{http://www.w3.org/2000/svg}"


def _classes(path: Path) -> list:
    return [e.get("class") for e in ET.parse(path).getroot().iter() if e.get("class")]


def test_fen_to_svg(tmp_path: Path) -> None:
    out = tmp_path / "start.svg"
    fen = "4k4/9/9/9/4r4/4R4/9/9/9/3K5 w"
    assert main(["render", fen, "-o", str(out), "--arrows", "e4e5,d0d1", "--size", "300"]) == 0
    assert out.read_text(encoding="utf-8") == svg.board(Board(fen), size=300, arrows=[
        svg.Arrow(Move.from_iccs("e4e5").from_square, Move.from_iccs("e4e5").to_square),
        svg.Arrow(Move.from_iccs("d0d1").from_square, Move.from_iccs("d0d1").to_square)]) + "\n"


def test_startpos_is_the_start_position(tmp_path: Path) -> None:
    out = tmp_path / "start.svg"
    assert main(["render", "startpos", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == svg.board(Board()) + "\n"


def test_a_game_with_a_bad_move_is_drawn_where_it_stops_with_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "bad.pgn"
    game.write_text("1. h2e2 h9g7 2. a0a9 *\n", encoding="utf-8")
    out = tmp_path / "bad.svg"
    assert main(["render", str(game), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"xiangqi render: warning: {game}: game 1: ") and "a0a9" in err
    board = Board()
    board.push_iccs("h2e2")
    board.push_iccs("h9g7")
    assert out.read_text(encoding="utf-8") == svg.board(board) + "\n"


def test_a_file_that_is_not_a_game_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.xqf"
    junk.write_bytes(b"\x85z" + bytes(300))
    assert main(["render", str(junk), "-o", str(tmp_path / "x.svg")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"xiangqi render: {junk}: not an XQF file")


def test_game_at_a_ply_with_last_move(tmp_path: Path) -> None:
    out = tmp_path / "ply.svg"
    assert main(["render", str(GAMES), "--ply", "3", "--lastmove", "--black", "-o", str(out)]) == 0
    board, last = position(str(GAMES), ply=3)
    assert len(board.move_stack) == 3 and last == board.move_stack[-1]
    assert out.read_text(encoding="utf-8") == svg.board(board, lastmove=last, orientation=False) + "\n"
    assert _classes(out).count("lastmove") == 2


def test_second_game_to_the_end(tmp_path: Path) -> None:
    board, _ = position(str(GAMES), game=2)
    from xiangqi.convert import read_any

    g = list(read_any(str(GAMES)))[1]
    assert board.move_stack == g.mainline_moves()


def test_png(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="PNG output needs the png extra (pip install 'pyxiangqi[png]')")
    Image = pytest.importorskip("PIL.Image")
    out = tmp_path / "start.png"
    assert main(["render", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "-o", str(out),
                 "--size", "488", "--no-coordinates"]) == 0
    img = Image.open(out).convert("RGB")
    assert img.size == (488, 538)

    def ink(p: tuple) -> str:
        r, g, b = p
        return "red" if r > 150 and g < 90 and b < 90 else "black" if max(p) < 70 else "other"

    board = Board()
    for sq in range(90):
        x, y = svg.point(sq, coordinates=False)
        ring = [ink(img.getpixel((round(x + 22 * math.cos(a)), round(y + 22 * math.sin(a)))))
                for a in (2 * math.pi * i / 12 for i in range(12))]
        p = board.piece_at(sq)
        want = "other" if p is None else "red" if p.color else "black"
        assert ring.count(want) >= 10, (sq, ring)
        if p is not None:
            # The character inside the inner ring (radius 18) is drawn too: cairosvg renders the embedded outlines.
            face = [ink(img.getpixel((x + dx, y + dy))) for dx in range(-12, 13) for dy in range(-12, 13)]
            assert face.count(want) >= 60, (sq, face.count(want))


def test_png_without_cairosvg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import fails as if not installed
    assert main(["render", "3k5/9/9/9/9/9/9/9/9/4K4 w", "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'pyxiangqi[png]'" in err


@pytest.mark.parametrize("args, code, message", [
    (["3k5/9/9/9/9/9/9/9/9/4K4 w", "-o", "x.gif"], 2, "type comes from its extension"),
    (["3k5/9/9/9/9/9/9/9/9/4x4 w", "-o", "x.svg"], 2, "invalid FEN"),
    (["missing.pgn", "-o", "x.svg"], 2, "missing.pgn: no such file"),
    (["3k5/9/9/9/9/9/9/9/9/4K4 w", "--lastmove", "-o", "x.svg"], 2, "--lastmove: no move led"),
    (["3k5/9/9/9/9/9/9/9/9/4K4 w", "--ply", "2", "-o", "x.svg"], 2, "--ply needs a game file"),
    ([str(GAMES), "--ply", "100000", "-o", "x.svg"], 2, "--ply 100000 is outside game 1"),
    ([str(GAMES), "--game", "100000", "-o", "x.svg"], 2, "has no game 100000"),
    ([str(GAMES), "--arrows", "e4e", "-o", "x.svg"], 2, "--arrows"),
    # An output that cannot be written: the file named, the reason in words (no "[Errno 2]"), as convert says it.
    (["startpos", "-o", "no/such/folder/x.svg"], 2, "cannot write no/such/folder/x.svg: No such file or directory"),
])
def test_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                args: list, code: int, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["render"] + args) == code
    err = capsys.readouterr().err
    # One line, or argparse's usage and then one line.
    assert message in err and err.splitlines()[-1].startswith("xiangqi render: "), err
    assert err.count("\n") == 1 or err.startswith("usage: xiangqi render"), err
    assert not list(tmp_path.iterdir())


def test_help_lists_render(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "render    draw a position" in capsys.readouterr().out


def test_a_game_past_the_end_names_how_many_the_file_holds(capsys: pytest.CaptureFixture[str]) -> None:
    """The words of `xiangqi convert --game`."""
    from xiangqi.convert import read_any

    total = sum(1 for _ in read_any(str(GAMES)))
    assert main(["render", str(GAMES), "--game", str(total + 1), "-o", "x.svg"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"xiangqi render: {GAMES} has no game {total + 1}: it holds {total} games"]
