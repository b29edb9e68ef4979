"""The PGN splitter's findings of reliability round 3 (issue 22): games merged by mixed line ends, reading that grew
quadratic, each a test that failed before its fix.

The costs are compared with the same work on a sound input in the same run (fastest of three), so that a loaded
machine slows both sides alike: a quadratic reader is many times slower on the damaged input, a linear one about as
fast.
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Callable, List

import pytest

from xiangqi._encoding import TextLines
from xiangqi.pgn import HeadersBuilder, read_game, read_games, read_headers, skip_game, split_games
from xiangqi.validate import validate


def _fastest(fn: Callable[[], object], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _games(events: str, end: str) -> bytes:
    return "".join(f'[Event "{e}"]{end}{end}1. h2e2 h9g7 *{end}{end}' for e in events).encode()


# --- line ends -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("first,then", [("\r", "\n"), ("\r\n", "\r"), ("\n", "\r")])
def test_a_file_that_changes_its_line_ends_keeps_every_game(first: str, then: str, tmp_path: Path) -> None:
    data = _games("ab", first) + _games("cd", then)
    assert [g.headers["Event"] for g in read_games(data)] == list("abcd")        # was a, c: 4 games -> 2
    assert all(not g.errors and len(g.mainline_moves()) == 2 for g in read_games(data))
    path = tmp_path / "mixed.pgn"
    path.write_bytes(data)
    reports = list(validate([str(path)]))
    assert [(r.index, r.ok, r.plies) for r in reports] == [(1, True, 2), (2, True, 2), (3, True, 2), (4, True, 2)]


def test_a_carriage_return_at_the_end_of_a_read_is_not_a_line_of_its_own() -> None:
    text = '[Event "a"]\r\n\r\n1. h2e2 h9g7 *\r\n\r\n[Event "b"]\r\r1. h2e2 *\r'
    data = text.encode()
    expected = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[:-1]
    for size in range(1, 24):   # reads of at most size bytes: a CR LF cut between two reads among them
        stream = io.BytesIO(data)
        lines = list(TextLines(lambda n: stream.read(min(n, size)), "utf-8", block_size=size, cr=False))
        assert [line.rstrip("\r") for line in lines] == expected, size


def test_a_lone_carriage_return_inside_a_lf_file_ends_its_line() -> None:
    game = read_game(io.BytesIO(b'[Event "a"]\n\n1. h2e2\rh9g7 *\n'))
    assert game is not None and [m.iccs() for m in game.mainline_moves()] == ["h2e2", "h9g7"]
    assert [e.line for e in next(read_games(b'[Event "a"]\n\n1. h2e2\r h2e2 *\n')).errors] == [4]


# --- quadratic reading ---------------------------------------------------------------------------------------------

def test_games_that_each_leave_a_comment_open_read_in_linear_time() -> None:
    """Each open ``{`` made the splitter look ahead and chain the lines read back in front of the rest: a chain of
    chains, one more per game, so that every line cost a step per game before it (200 KB: 2.7 s, 1.6 MB: 113 s)."""
    n = 16_000
    damaged = b'[Event "x"]\n\n1. h2e2 { *\n\n' * n
    sound = b'[Event "x"]\n\n1. h2e2 {} *\n\n' * n

    def count(data: bytes) -> Callable[[], object]:
        return lambda: sum(1 for _ in split_games(iter(TextLines(io.BytesIO(data).read))))

    assert count(damaged)() == count(sound)() == n
    ratio = _fastest(count(damaged)) / _fastest(count(sound))
    assert ratio < 3, ratio                      # was 20 and more here, growing with n


def test_validate_reads_crlf_files_of_tiny_games_in_linear_time(tmp_path: Path) -> None:
    """``validate`` cut CR LF text from each game to the end of the text to look for the next plain game
    (800 KB: 9 s where the same games with LF took 0.6 s)."""
    n = 12_000
    crlf, lf = tmp_path / "crlf.pgn", tmp_path / "lf.pgn"
    crlf.write_bytes(b'[Event "x"]\r\n\r\n1. h2e2 *\r\n\r\n' * n)
    lf.write_bytes(b'[Event "x"]\n\n1. h2e2 *\n\n' * n)

    def run(path: Path) -> Callable[[], List[object]]:
        return lambda: list(validate([str(path)]))

    assert [r.ok for r in run(crlf)()] == [r.ok for r in run(lf)()] == [True] * n
    ratio = _fastest(run(crlf)) / _fastest(run(lf))
    assert ratio < 4, ratio                      # was about 15 here


# --- read_game on a seekable file reads a block at a time, as read_games reads ---------------------------------------

_TRICKY = [
    '[Event "a"]\n\n1. h2e2 h9g7 *\n\n[Event "b"]\n\n1. 炮二平五 *\n',
    '[Event "a"]\n\n1. h2e2 {a comment\n\n[Event "in it"]\n} h9g7 *\n\n[Event "b"]\n\n1. h2e2 *\n',
    '[Event "a"]\n\n1. h2e2 {never closed\n\n[Event "b"]\n\n1. h2e2 *\n\n[Event "c"]\n\n*\n',
    '[Event "a"]\n\n1. h2e2 1-0\n1. b2e2 *\n\n[Event "b"]\n[Red "x"]\n\n[Event "c"]\n\n1. h2e2 *\n',
    '\ufeff[Event "bom"]\r\n\r\n1. h2e2 ; a line comment\r\nh9g7 *\r\n\r\n[Event "b"]\r\n\r\n1. h2e2 (1. b2e2) *\r\n',
    "".join(f'[Event "{i}"]\n[Round "{i}"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n' for i in range(300)),
    '[Event "a"]\r\r1. h2e2 h9g7 *\r\r[Event "b"]\r\r1. h2e2 {one\r\r[Event "c"]\r} *\r\r'
    '[Event "d"]\n\n1. h2e2\rh9g7 *\n\n[Event "e"]\r\n\r\n1. h2e2 *\r\n',
    '[Event "long"]\n\n' + "1. h0g2 h9g7 2. g2h0 g7h9 " * 2000 + "*\n\n[Event \"after\"]\n\n1. h2e2 *\n",
    '[Event "a"]\n\n1. h2e2 h9\ufeffg7 *\n\n[Event "b"]\n\n1. \ufeffh2e2 *\n\n[Event "c"]\n\n1. h2e2 *\n',
]


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "big5"])
@pytest.mark.parametrize("text", _TRICKY, ids=range(len(_TRICKY)))
def test_read_game_on_a_binary_file_gives_the_games_of_read_games(text: str, encoding: str) -> None:
    data = text.encode(encoding, "replace").replace(b"\xef\xbb\xbf", b"") if encoding != "utf-8" else text.encode()
    expected = [(dict(g.headers), g.mainline_moves(), [str(e) for e in g.errors]) for g in read_games(data)]
    handle = io.BytesIO(data)
    got, offsets = [], []
    while True:
        offsets.append(handle.tell())
        game = read_game(handle)
        if game is None:
            break
        got.append((dict(game.headers), game.mainline_moves(), [str(e) for e in game.errors]))
    assert got == expected
    # Each offset is where a game begins: read again from there, the same game (line numbers aside).
    for k, offset in enumerate(offsets[:-1]):
        handle.seek(offset)
        game = read_game(handle)
        assert game is not None and (dict(game.headers), game.mainline_moves()) == expected[k][:2]


def test_a_lone_carriage_return_in_a_tag_line_reads_as_in_read_games() -> None:
    """The C scan of a block sees the lines every reading of bytes sees (a lone CR ends one): the damaged tag line
    before the CR begins a game after move text, whether the file is read from its start or from that game."""
    data = b'[Event "a"]\n\n1. h2e2 *\n\n[Event "Du\r Hung"]\n[Red "x"]\n\n1. h2e2 *\n\n[Event "c"]\n\n1. h2e2 *\n'
    expected = [(dict(g.headers), g.mainline_moves(), [str(e) for e in g.errors]) for g in read_games(data)]
    assert "damaged tag line" in expected[1][2][0]
    handle = io.BytesIO(data)
    got = [(dict(g.headers), g.mainline_moves(), [str(e) for e in g.errors])
           for g in iter(lambda: read_game(handle), None)]
    assert got == expected


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030"])
@pytest.mark.parametrize("text", _TRICKY, ids=range(len(_TRICKY)))
def test_read_headers_and_skip_game_on_a_binary_file_follow_read_games(text: str, encoding: str) -> None:
    """The games cut out of a block read before (no read of the file) are those read_games gives, also after a
    seek back into the block."""
    data = text.encode(encoding, "replace").replace(b"\xef\xbb\xbf", b"") if encoding != "utf-8" else text.encode()
    expected = [dict(h) for h in read_games(data, Visitor=HeadersBuilder)]
    handle = io.BytesIO(data)
    offsets, got = [], []
    while True:
        offsets.append(handle.tell())
        headers = read_headers(handle)
        if headers is None:
            break
        got.append(dict(headers))
    assert got == expected
    handle.seek(0)
    assert sum(iter(lambda: skip_game(handle), False)) == len(expected)
    for k in reversed(range(len(expected))):
        handle.seek(offsets[k])
        assert dict(read_headers(handle) or {}) == expected[k]


# --- read_games reads a file a block at a time, cut where the C scan finds a game start -----------------------------

def _cut_games(lines: object) -> List[object]:
    return [(g.first_line, g.tags, g.movetext_start, g.movetext, [(e.line, str(e)) for e in g.errors])
            for g in split_games(lines)]  # type: ignore[arg-type]


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "big5"])
@pytest.mark.parametrize("text", _TRICKY, ids=range(len(_TRICKY)))
def test_the_blocks_of_a_file_split_as_its_lines(text: str, encoding: str) -> None:
    """Split a block at a time (each cut at the last game start the scan finds in it, or decoded a game at a time
    where it decoded strictly), a file of several blocks gives the games, lines and errors of the line loop."""
    text = text * (300_000 // len(text) + 1)   # more than one block of TextLines
    data = text.encode(encoding, "replace").replace(b"\xef\xbb\xbf", b"") if encoding != "utf-8" else text.encode()
    data = data[:len(data) - 7]                # the last game cut short, without a last line end
    by_lines = _cut_games(iter(TextLines(io.BytesIO(data).read)))
    assert _cut_games(TextLines(io.BytesIO(data).read)) == by_lines
    assert _cut_games(TextLines(io.BytesIO(data).read, lazy=True)) == by_lines
    assert len(by_lines) > 1


def test_a_last_line_without_its_newline_keeps_its_last_character_past_the_held_text() -> None:
    """The held text handed to the line loop ends in the file's last line without a "\\n": its last character is
    text, not a line end to drop (the last game read '1-' and a move 'h9g' where the line loop, a text handle and
    the tree before the block splitter read '1-0' and 'h9g7')."""
    from xiangqi.pgn import read_games

    for last in ("1. h2e2 h9g7 1-0", "1. h2e2 {" + "x" * 1000 + "} h9g7"):
        data = ("1. h2e2 h9g7 2. h0g2 i9h9 1-0\n" * 37_137 + last).encode()
        blocks = list(read_games(data))
        lines = list(read_games(io.StringIO(data.decode())))
        assert [(g.headers["Result"], [m.iccs() for m in g.mainline_moves()], [str(e) for e in g.errors])
                for g in blocks] == \
            [(g.headers["Result"], [m.iccs() for m in g.mainline_moves()], [str(e) for e in g.errors]) for g in lines]
        assert blocks[-1].mainline_moves()[-1].iccs() == "h9g7" and not blocks[-1].errors


def test_a_file_without_game_starts_is_split_by_the_line_loop_past_the_held_text() -> None:
    """Text without a sure game start for longer than a game may be goes through the line loop (its limits)."""
    data = b'[Event "a"]\n\n1. h2e2 *\n\n[Event "b"]\n\n1. h2e2 {' + b"1. h0g2 h9g7\n" * 200_000 + b"}\n\n" \
        + _games("cd", "\n")
    games = _cut_games(TextLines(io.BytesIO(data).read))
    assert games == _cut_games(iter(TextLines(io.BytesIO(data).read)))
    assert [dict(g[1]).get("Event") for g in games] == ["a", "b", "c", "d"]


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_a_game_longer_than_the_blocks_kept_leaves_the_handle_at_the_next_game(end: str) -> None:
    """A game of 5 MB (past the blocks the splitter keeps to find where a game of the line loop ends, some 4 MB):
    skip_game and read_game leave the handle at the next game's first line, read again from there alike."""
    line = "h2e2 h9g7 e2h2 g7h9 " * 2000 + end
    text = f'[Event "a"]{end}{end}1. h2e2 *{end}{end}[Event "huge"]{end}{end}' + line * 130 + \
        f'*{end}{end}[Event "after"]{end}{end}1. h2e2 h9g7 *{end}'
    data = text.encode()
    handle = io.BytesIO(data)
    offsets = []
    while skip_game(handle):
        offsets.append(handle.tell())
    assert offsets == [data.index(b'[Event "huge"]'), data.index(b'[Event "after"]'), len(data)]
    handle.seek(0)
    games = [read_game(handle) for _ in range(3)]
    assert [g.headers["Event"] for g in games if g is not None] == ["a", "huge", "after"]
    assert handle.tell() == len(data) and read_game(handle) is None
    handle.seek(offsets[1])
    again = read_game(handle)
    assert again is not None and again.headers["Event"] == "after" and len(again.mainline_moves()) == 2
