"""SVG boards in a real browser (headless Chromium): pixels where the FEN puts pieces, highlights, no font needed.

Each picture is embedded at a known size at the page's top left, so a square's intersection is at
``svg.point(sq) * scale`` in the screenshot.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Dict

import pytest

import _browser
from _browser import PIL_Image, close, hex_rgb, ink, screenshot
from xiangqi import BLACK, RED, Board, Move, svg

WIDTH = 900  # pixels for the 488 user units of a picture without coordinates


def _page(tmp: Path, picture: str, name: str = "board") -> Path:
    (tmp / f"{name}.svg").write_text(picture, encoding="utf-8")
    page = tmp / f"{name}.html"
    page.write_text(f'<!doctype html><html><body style="margin:0;background:#fff">'
                    f'<img src="{name}.svg" width="{WIDTH}" style="display:block"></body></html>', encoding="utf-8")
    return page


def _scale(picture: str) -> float:
    view = picture.split('viewBox="', 1)[1].split('"', 1)[0].split()
    return WIDTH / float(view[2])


def _disc_ink(img: "PIL_Image.Image", cx: float, cy: float, scale: float) -> str:
    """The ink of the ring around a point (16 samples on the disc's outer ring), or ``other`` for no disc."""
    votes: Dict[str, int] = {}
    for i in range(16):
        a = 2 * math.pi * i / 16
        r = (22 - 0.5) * scale
        p = img.getpixel((round(cx + r * math.cos(a)), round(cy + r * math.sin(a))))
        votes[ink(p)] = votes.get(ink(p), 0) + 1
    best = max(votes, key=lambda k: votes[k])
    return best if votes[best] >= 12 else "other"


@pytest.mark.parametrize("orientation", [RED, BLACK])
def test_pieces_and_last_move_in_the_browser(tmp_path: Path, orientation: bool) -> None:
    board = Board("2bak4/4a4/4b1n2/p1p1C3p/9/6p2/P1r1P3P/4B1N2/4A4/1RBK1A3 w")
    move = Move.from_iccs("b0b4")
    board.push(move)
    picture = svg.board(board, orientation=orientation, lastmove=move, coordinates=False)
    img = screenshot(_page(tmp_path, picture), WIDTH, 1000, tmp_path / "shot.png")
    scale = _scale(picture)
    pieces = board.piece_map()
    seen = {"red": 0, "black": 0}
    for sq in range(90):
        x, y = svg.point(sq, orientation, coordinates=False)
        got = _disc_ink(img, x * scale, y * scale, scale)
        want = ("red" if pieces[sq].color else "black") if sq in pieces else "other"
        assert got == want, f"square {sq}: {got} disc where the FEN has {want}"
        if sq in pieces:
            seen[want] += 1
    assert seen["red"] and seen["black"]
    lastmove = hex_rgb(svg.DEFAULT_COLORS["lastmove"])
    wood = hex_rgb(svg.DEFAULT_COLORS["board"])
    middle = svg.point(40, orientation, coordinates=False)[1]
    for sq, off in ((move.from_square, 0.3), (move.to_square, 0.4)):  # the to-point's corner is outside its disc
        x, y = svg.point(sq, orientation, coordinates=False)
        inward = 1 if y < middle else -1  # an edge point's highlight stops at the frame
        p = img.getpixel((round((x + off * svg.CELL) * scale), round((y + inward * off * svg.CELL) * scale)))
        assert close(p, lastmove), f"last-move point {sq}: {p} is not the highlight {lastmove}"
    x, y = svg.point(0 if orientation else 89, orientation, coordinates=False)
    p = img.getpixel((round((x + 0.3 * svg.CELL) * scale), round((y - 0.3 * svg.CELL) * scale)))
    assert close(p, wood), f"an unmarked point shows {p}, not the wood {wood}"


def test_same_picture_without_any_font(tmp_path: Path) -> None:
    """The characters are outlines: with fontconfig finding no font at all, the board (numbers aside) is the same."""
    picture = svg.board(Board(), coordinates=False, lastmove=Move.from_iccs("h2e2"))
    page = _page(tmp_path, picture)
    normal = screenshot(page, WIDTH, 1000, tmp_path / "normal.png")
    conf = tmp_path / "no-fonts.conf"
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                    f'<dir>{tmp_path / "no-fonts"}</dir><cachedir>{tmp_path / "fc-cache"}</cachedir></fontconfig>')
    env = dict(os.environ, FONTCONFIG_FILE=str(conf))
    bare = screenshot(page, WIDTH, 1000, tmp_path / "bare.png", env=env)
    scale = _scale(picture)
    # The grid with the pieces, the river and the palaces; the ASCII file digits in the top margin are left out.
    box = tuple(round(v * scale) for v in (0, 44 - 24, 488, 44 + 9 * 50 + 24))
    a, b = normal.crop(box), bare.crop(box)
    assert a.tobytes() == b.tobytes(), "the board differs without fonts"
    # ... and the red numerals below the grid are outlines too.
    low = tuple(round(v * scale) for v in (0, 44 + 9 * 50 + 24, 488, 44 + 9 * 50 + 44))
    assert normal.crop(low).tobytes() == bare.crop(low).tobytes()
    colors = a.getcolors(maxcolors=1 << 22) or []
    assert sum(n for n, p in colors if ink(p) == "red") > 1000 and sum(n for n, p in colors if ink(p) == "black") > 1000


def test_check_is_seen_around_the_king(tmp_path: Path) -> None:
    """The glow of a king in check is red ink just outside its disc, all around it; a king not in check has none."""
    board = Board("4k4/9/9/9/9/9/9/9/4R4/3K5 b")
    king = board.king(board.turn)
    assert king is not None and board.is_check()
    picture = svg.board(board, check=king, coordinates=False)
    img = screenshot(_page(tmp_path, picture), WIDTH, 1000, tmp_path / "check.png")
    scale = _scale(picture)
    x, y = svg.point(king, RED, coordinates=False)
    angles = [2 * math.pi * i / 12 for i in range(12)]
    ring = [img.getpixel((round((x + 26 * math.cos(a)) * scale), round((y + 26 * math.sin(a)) * scale)))
            for a in angles]
    assert all(ink(p) == "red" for p in ring), ring
    plain = screenshot(_page(tmp_path, svg.board(board, coordinates=False), "plain"), WIDTH, 1000,
                       tmp_path / "plain.png")
    assert not any(ink(plain.getpixel((round((x + 26 * math.cos(a)) * scale),
                                       round((y + 26 * math.sin(a)) * scale)))) == "red" for a in angles)


def test_a_missing_browser_skips_but_fails_where_required(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """On a user's machine the browser tests skip naming the package; in CI (XIANGQI_REQUIRE_BROWSER=1) they fail."""
    monkeypatch.delenv("XIANGQI_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no chromium on it
    monkeypatch.delenv("XIANGQI_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Debian's package `chromium`"):
        _browser.chromium()
    monkeypatch.setenv("XIANGQI_REQUIRE_BROWSER", "1")
    with pytest.raises(BaseException) as info:  # a skip too, so that a skip here is a failure, not a skip
        _browser.chromium()
    assert info.type is pytest.fail.Exception and "must run, not skip" in str(info.value)


def test_arrows_and_single_pieces_in_the_browser(tmp_path: Path) -> None:
    """An arrow's shaft carries its colour (over the wood, at its alpha); svg.piece draws each piece in its ink."""
    from xiangqi import Piece, parse_square

    h2, h6, b0, c2 = (parse_square(s) for s in ("h2", "h6", "b0", "c2"))
    picture = svg.board(None, coordinates=False, arrows=[svg.Arrow(h2, h6, "red"), svg.Arrow(b0, c2, "blue")])
    img = screenshot(_page(tmp_path, picture), WIDTH, 1000, tmp_path / "arrows.png")
    scale = _scale(picture)
    wood = hex_rgb(svg.DEFAULT_COLORS["board"])
    for tail, head, name in ((h2, h6, "red"), (b0, c2, "blue")):
        color = svg.DEFAULT_COLORS[f"arrow {name}"]
        alpha = int(color[7:9], 16) / 255
        want = tuple(round(alpha * c + (1 - alpha) * w) for c, w in zip(hex_rgb(color), wood))
        (tx, ty), (hx, hy) = svg.point(tail, coordinates=False), svg.point(head, coordinates=False)
        for t in (0.3, 0.45):  # along the shaft, off the grid lines' crossings
            x, y = tx + t * (hx - tx), ty + t * (hy - ty)
            if name == "red":
                x += 2  # beside the file line the shaft covers
            p = img.getpixel((round(x * scale), round(y * scale)))
            assert close(p, want), f"{name} arrow at {t}: {p}, not {want}"
    # A point the arrows do not touch is wood.
    x, y = svg.point(parse_square("e5"), coordinates=False)
    assert close(img.getpixel((round((x + 10) * scale), round((y + 10) * scale))), wood)
    page = tmp_path / "pieces.html"
    symbols = "KABNRCPkabnrcp"
    for s in symbols:
        (tmp_path / f"{s}{'r' if s.isupper() else 'b'}.svg").write_text(svg.piece(Piece.from_symbol(s)), "utf-8")
    page.write_text('<!doctype html><body style="margin:0;background:#fff">' + "".join(
        f'<img src="{s}{"r" if s.isupper() else "b"}.svg" width="100" height="100" style="display:block">'
        for s in symbols) + "</body>", encoding="utf-8")
    shot = screenshot(page, 100, 100 * len(symbols), tmp_path / "pieces.png")
    k = 100 / 48  # a piece picture is 48 user units across, its disc of radius 22 at the centre
    for i, s in enumerate(symbols):
        want = "red" if s.isupper() else "black"
        ring = [ink(shot.getpixel((round(50 + 21.5 * k * math.cos(a)), round(100 * i + 50 + 21.5 * k * math.sin(a)))))
                for a in (2 * math.pi * j / 12 for j in range(12))]
        face = [ink(shot.getpixel((50 + dx, 100 * i + 50 + dy))) for dx in range(-25, 26, 2) for dy in range(-25, 26, 2)]
        assert ring.count(want) >= 10 and face.count(want) >= 20, (s, ring, face.count(want))
