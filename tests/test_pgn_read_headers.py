"""read_headers and skip_game read a game of the common form out of the kept block without its move text (the
C check ``xq_pgn_plain_games``): differential tests against the same reader without that path, which a visitor
of another class takes (issue 19)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from xiangqi.errors import InvalidRecordError
from xiangqi.pgn import HeadersBuilder, SkipVisitor, read_game, read_headers, skip_game

GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"
DATA = Path(__file__).resolve().parent / "data"


class _Headers(HeadersBuilder):
    """HeadersBuilder by another class: the reader's usual path, the errors kept."""

    def __init__(self) -> None:
        super().__init__()
        self.errors: List[str] = []

    def handle_error(self, error: object) -> None:
        self.errors.append(str(error))


class _Skip(SkipVisitor):
    """SkipVisitor by another class: the reader's usual path."""


Step = Tuple[Optional[dict], int, Optional[Tuple[dict, List[str]]]]


def _walk(data: bytes, fast: bool, every: int, encoding: Optional[str] = None) -> List[Step]:
    """The headers of each game and the offset after it; every ``every``-th game read whole after them (its
    errors, with their line numbers, show that the line count went on right). ``encoding``: read as text."""
    handle: Any = io.BytesIO(data) if encoding is None else io.TextIOWrapper(io.BytesIO(data), encoding=encoding)
    steps: List[Step] = []
    for k in range(100_000):
        if fast:
            headers = read_headers(handle)
        else:
            got = read_game(handle, Visitor=_Headers)
            headers = got
        if headers is None:
            break
        game = read_game(handle) if k % every == every - 1 else None
        steps.append((dict(headers), handle.tell(),
                      None if game is None else (dict(game.headers), [f"{e.line}: {e}" for e in game.errors])))
    return steps


def _skips(data: bytes, fast: bool, encoding: Optional[str] = None) -> List[int]:
    handle: Any = io.BytesIO(data) if encoding is None else io.TextIOWrapper(io.BytesIO(data), encoding=encoding)
    offsets = []
    while (skip_game(handle) if fast else read_game(handle, Visitor=_Skip)):
        offsets.append(handle.tell())
    return offsets


def _files() -> List[Path]:
    found = sorted(DATA.rglob("*.pgn"))
    if GAMES.is_dir():
        found += sorted(GAMES.glob("*.pgn"))
    return found


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_read_headers_and_skip_game_agree_with_the_usual_path(path: Path) -> None:
    data = path.read_bytes()
    for every in (1, 3):
        assert _walk(data, True, every) == _walk(data, False, every)
    assert _skips(data, True) == _skips(data, False)


@pytest.mark.skipif(not GAMES.is_dir(), reason="the shared corpus (../shared/data/games) is absent")
@pytest.mark.parametrize("encoding", ["gb18030", "big5"])
def test_read_headers_and_skip_game_agree_in_double_byte_encodings(encoding: str) -> None:
    # Then blocks of ASCII alone (ICCS games without Chinese names), read as the encoding of the file.
    text = (GAMES / "ccpd-positions-300.chinese.pgn").read_text(encoding="utf-8")
    ascii_games = (GAMES / "wukong-hu-ronghua-1391.iccs.pgn").read_text(encoding="utf-8")[:300_000]
    data = (text + "\n" + ascii_games[:ascii_games.rindex("\n\n[")] + "\n").encode(encoding, "replace")
    assert data[-200_000:].isascii()
    assert _walk(data, True, 5) == _walk(data, False, 5)
    assert _skips(data, True) == _skips(data, False)


_FORMS = [
    # A tag value with escapes, braces and brackets; a second move 1; a "%" line; a comment; a line comment;
    # Unicode white space before a tag; a game with no blank line after its tags; CR LF; tags with spaces.
    '[Event "a \\"q\\" {b} ]x"]\n[Red "R"]\n\n1. h2e2 h9g7 *\n\n',
    '[Event "b"]\n\n1. h2e2 1-0\n1. b2e2 *\n\n',
    '[Event "c"]\n\n1. h2e2\n% escaped\nh9g7 *\n\n',
    '[Event "d"]\n\n1. h2e2 {a comment} *\n\n',
    '[Event "e"]\n\n1. h2e2 ; a line comment\n*\n\n',
    '[Event "f"]\n\n1. h2e2\n\u3000[Event "g"]\n\n1. h2e2 *\n\n',
    '[Event "h"]\n[Round "1"]\n1. h2e2 *\n\n',
    '[Event "i"]\r\n\r\n1. h2e2 *\r\n\r\n',
    '[Event  "j"]\n[ Red "k"]\n\n1. h2e2 *\n\n',
    '[Event "l"]\n\n   1. h2e2 *\n\n',
    '[Event "m"]\n\n1. h2e2\n  1 . b2e2 *\n\n',
    '[Event "n"]\n\n1. 炮二平五 馬８進７\n2. 馬二進三 *\n\n',
    # An illegal move: an error whose line number tells whether the lines of the games before were counted.
    '[Event "o"]\n\n1. h2e2 h9g7\n2. h0h9 *\n\n',
]


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "big5"])
def test_read_headers_and_skip_game_agree_on_uncommon_forms(encoding: str) -> None:
    # Each form between games of the common form, so that it stands inside a block the C scan has cut.
    plain = '[Event "p"]\n[Red "R"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n'
    text = "".join(plain * 3 + form for form in _FORMS) + plain * 3
    data = text.encode(encoding, "replace")
    for every in (1, 2, 3):
        assert _walk(data, True, every) == _walk(data, False, every)
    assert _skips(data, True) == _skips(data, False)


_TAG_LINES = [
    # Tag lines of the common form that the tags of a whole block, parsed at once, must cut as each game's alone:
    # quotes and brackets inside a value (a '"]' and a ' "' before its end), escapes in one game of many, an
    # empty value, one tag alone, a name of digits, Chinese text.
    '[Event "a"] b"]\n[Red " \"x\" ["]',
    '[Event "c \\\\ d"]\n[Black ""]',
    '[Event "e"]',
    '[1 "f"]\n[Event "紅 "黑""]\n[Site "]"]',
]


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "big5"])
def test_read_headers_of_a_block_cut_as_each_game_alone(encoding: str) -> None:
    plain = '[Event "p"]\n[Red "R"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n'
    text = "".join(plain * 2 + head + "\n\n1. h2e2 *\n\n" for head in _TAG_LINES * 3) + plain
    data = text.encode(encoding, "replace")
    assert _walk(data, True, 4) == _walk(data, False, 4)
    handle = io.BytesIO(data)
    first = [dict(read_headers(handle) or {}) for _ in range(5)]
    assert first[2] == {"Event": 'a"] b', "Red": ' "x" ['} and first[4] == {"Event": "p", "Red": "R"}
    # A game read again after a seek back gives its headers again (each is handed out once from the block).
    handle.seek(0)
    skip_game(handle)
    skip_game(handle)
    assert dict(read_headers(handle) or {}) == first[2]


#: Pieces of a tag line's value part (between ``[Event `` and ``]``), which the C check reads near its ends (the
#: quote that opens the value, the last two characters '"' and ']'): short values, quotes and brackets, Chinese
#: text, lines short of the form.
_LINE_ENDS = ['"', '""', '"]', '"x', 'x"', '"]"', ']', '炮', '"炮"', '炮"', ' ', '\\"', "\\", "]]", "x"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_LINE_ENDS), max_size=5), min_size=1, max_size=6),
       st.sampled_from(["utf-8", "gb18030", "big5"]))
def test_read_headers_agree_on_generated_tag_lines(values: List[List[str]], encoding: str) -> None:
    plain = '[Event "p"]\n\n1. h2e2 *\n\n'
    heads = ["\n".join(f'[Event {"".join(parts)}]' for parts in line) for line in values]
    text = "".join(plain + head + "\n\n1. h2e2 *\n\n" for head in heads if head) + plain
    data = text.encode(encoding, "replace")
    assert _raising_walk(data, True) == _raising_walk(data, False)
    assert _skips(data, True) == _skips(data, False)


class _RaisingHeaders(HeadersBuilder):
    """HeadersBuilder by another class that raises the errors as it does: the reader's usual path."""


def _raising_walk(data: bytes, fast: bool) -> List[Tuple[object, int]]:
    """The headers of each game, or the error read_headers raised there, and the offset after it."""
    handle = io.BytesIO(data)
    steps: List[Tuple[object, int]] = []
    for _ in range(1000):
        try:
            headers = read_headers(handle) if fast else read_game(handle, Visitor=_RaisingHeaders)
        except InvalidRecordError as exc:
            steps.append((str(exc), handle.tell()))
            continue
        if headers is None:
            break
        steps.append((dict(headers), handle.tell()))
    return steps


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "big5"])
@pytest.mark.parametrize("bad", [b"\xff", b"\x80", b"\xa4", b"\xfe\x30"])
def test_read_headers_and_skip_game_agree_where_bytes_do_not_decode(encoding: str, bad: bytes) -> None:
    # Bytes the encoding does not decode, in a tag and in move text, between games of the common form.
    plain = '[Event "p"]\n[Red "紅方"]\n\n1. 炮二平五 馬８進７ *\n\n'.encode(encoding, "replace")
    data = (plain * 40 + b'[Event "x' + bad + b'"]\n\n1. h2e2 *\n\n' + plain * 40 + b'[Event "y"]\n\n1. h2e2 ' + bad +
            b" *\n\n" + plain * 40)
    for every in (1, 3):
        assert _walk(data, True, every) == _walk(data, False, every)
    assert _skips(data, True) == _skips(data, False)


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "big5"])
def test_read_headers_and_skip_game_agree_on_text_files(encoding: str) -> None:
    """A text file whose bytes are at hand is read from them, the text layer put at each next game."""
    plain = '[Event "p"]\n[Red "紅方"]\n\n1. 炮二平五 馬８進７ *\n\n'
    text = "".join(plain * 3 + form for form in _FORMS) + plain * 3
    corpus = GAMES / "ccpd-positions-300.chinese.pgn"
    if GAMES.is_dir():
        text += corpus.read_text(encoding="utf-8")
    data = text.encode(encoding, "replace")
    for every in (1, 2, 3):
        assert _walk(data, True, every, encoding) == _walk(data, False, every, encoding)
    assert _skips(data, True, encoding) == _skips(data, False, encoding)
    # Text read by the caller between two calls, then a seek back to where a call left the handle.
    expected = [headers for headers, _, _ in _walk(data, False, 1 << 30, encoding)]
    handle = io.TextIOWrapper(io.BytesIO(data), encoding=encoding)
    assert read_headers(handle) == expected[0]
    at = handle.tell()
    assert skip_game(handle) and handle.readline()
    handle.seek(at)
    assert read_headers(handle) == expected[1] and read_headers(handle) == expected[2]


def _tagged(i: int) -> str:
    return f'[Event "G{i}"]\n\n1. h2e2 h9g7 1-0\n\n'


@pytest.mark.parametrize("mode", ["rb", "r"])
def test_games_appended_after_the_end_are_read(tmp_path: Path, mode: str) -> None:
    """At the end of a file the reader keeps no split: a game appended later is read, as python-chess reads it."""
    path = tmp_path / "grow.pgn"
    path.write_text(_tagged(0) + _tagged(1), encoding="utf-8")
    with open(path, mode) as handle:
        events = [h and h["Event"] for h in (read_headers(handle) for _ in range(3))]
        with open(path, "a", encoding="utf-8") as out:
            out.write(_tagged(2))
        events.append(read_headers(handle)["Event"])  # type: ignore[index]
        assert read_headers(handle) is None
    assert events == ["G0", "G1", None, "G2"]


class _CountingBytes(io.BytesIO):
    """A file that counts the bytes read from it."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.taken = 0

    def read(self, n: Optional[int] = -1) -> bytes:
        data = super().read(n)
        self.taken += len(data)
        return data


def test_a_game_read_after_a_seek_reads_a_few_kb() -> None:
    """An index's pattern (offsets from skip_game, then seek and read one game) reads a small block after each
    seek, not a whole block of games: one game of some 40 bytes costs at most 8 KB."""
    handle = _CountingBytes("".join(_tagged(i) for i in range(5000)).encode())
    offsets = []
    while True:
        offsets.append(handle.tell())
        if not skip_game(handle):
            break
    for i in (4321, 17, 2500):
        handle.seek(offsets[i])
        handle.taken = 0
        game = read_game(handle)
        assert game is not None and game.headers["Event"] == f"G{i}"
        assert handle.taken <= 8192, handle.taken
        handle.taken = 0
        assert read_headers(handle)["Event"] == f"G{i + 1}"  # type: ignore[index]
