"""One record pipeline: ``pgn.read_games`` and ``validate`` say the same thing about every game, in every encoding.

The differential test re-encodes every game file of the shared corpus and of
``tests/data`` (UTF-8, GB18030, Big5 where the text allows) and mutates them
(cut files, junk after gzip, mixed encodings, unclosed comments); for each
game the first problem that the reader records (``game.errors``) and that
validation reports is the same (kind, ply, token), and so is the number of
games and of plies played.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import gzip
import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

import pytest

from conftest import SHARED_DIR
from xiangqi import Board, _pgn_split, formats, pgn
from xiangqi import chunks as C
from xiangqi import pools as P
from xiangqi import validate as V
from xiangqi._encoding import TextLines, detect_encoding
from xiangqi.convert import read_any
from xiangqi.errors import (AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError,
                            InvalidRecordError)
from xiangqi.game import Game
from xiangqi.source import ByteSource

DATA = Path(__file__).resolve().parent / "data"
GAMES = SHARED_DIR / "data" / "games"

#: What validation calls the reader's error types.
_KINDS = ((InvalidFenError, "invalid-fen"), (InvalidMoveError, "invalid-notation"), (IllegalMoveError, "illegal-move"),
          (AmbiguousMoveError, "ambiguous-move"))

#: (kind, ply, token) of a game's first problem, and the plies played before it.
Verdict = Tuple[Optional[str], Optional[int], Optional[str], int]


def _reader_verdicts(games: Iterator[Game]) -> List[Verdict]:
    out: List[Verdict] = []
    for game in games:
        plies = len(game.mainline_moves())
        errors = [e for e in game.errors if e.mainline]
        if not errors:
            out.append((None, None, None, plies))
            continue
        e = errors[0]
        kind = next((k for cls, k in _KINDS if isinstance(e.error, cls)), "parse-error")
        out.append((kind, e.ply, e.token or None, plies))
    return out


def _report_verdicts(reports: List[V.GameReport]) -> List[Verdict]:
    out: List[Verdict] = []
    for r in reports:
        e = r.error
        if e is not None and e.kind == "truncated" and e.token is None:
            out.append(("truncated", None, None, r.plies))  # the file ends in this game, all its moves sound
        elif e is None or e.kind == "result-mismatch":
            out.append((None, None, None, r.plies))  # the moves are sound: the reader has nothing to say
        else:
            out.append((e.kind, e.ply, e.token, r.plies))
    return out


def _same(a: List[Verdict], b: List[Verdict]) -> None:
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b)):
        if x[0] == y[0] == "invalid-fen":
            # The one naming convention that differs: a report names the bad FEN tag, game.errors its first
            # move (as the CCPD index of known-bad records does); both at ply 0, no move played.
            x, y = (x[0], x[1], x[3]), (y[0], y[1], y[3])
        if y[0] == "truncated" and y[2] is None:
            # The file ends inside this game after sound moves: the reader has nothing to say, or the damage
            # the cut left (a comment or tag line cut short).
            assert x[0] in (None, "parse-error") and x[3] == y[3], (i + 1, x, y)
            continue
        if y[0] is not None and x[0] is not None and "truncated" in (x[0], y[0]):
            x, y = x[1:], y[1:]  # a cut last game: validation says so; the bad token is the same
        assert x == y, (i + 1, x, y)


def _read_all(path: Path, fmt: str) -> List[Verdict]:
    # Damaged gzip data is an error of the last game read, not a raise.
    return _reader_verdicts(iter(list(read_any(str(path), fmt))))


def _check(path: Path) -> int:
    """Both readings of ``path`` agree; returns the number of games."""
    fmt = formats.detect_path(path)
    reports = list(V.validate(str(path), chunk_bytes=8192))
    _same(_read_all(path, fmt), _report_verdicts(reports))
    return len(reports)


def _game_files() -> List[Path]:
    found = []
    for root in (DATA, GAMES):
        if root.is_dir():
            found.extend(Path(p) for p in V.expand_paths([str(root)]))
    return found


def _encodings(text: str) -> Iterator[Tuple[str, bytes]]:
    for enc in ("utf-8", "gb18030", "big5"):
        try:
            yield enc, text.encode(enc)
        except UnicodeEncodeError:
            continue  # a character Big5 lacks (simplified text)


def _text_of(path: Path) -> Optional[str]:
    """A text record's text (gunzipped, decoded), or None for binary XQF."""
    if formats.detect_path(path) == "xqf":
        return None
    with ByteSource(path) as src:
        return "\n".join(TextLines(src.read)) + "\n"


@pytest.mark.parametrize("path", _game_files(), ids=lambda p: p.name)
def test_reader_and_validation_agree_in_every_encoding(path: Path, tmp_path: Path) -> None:
    text = _text_of(path)
    if text is None:
        assert _check(path) >= 1
        return
    counts = set()
    suffix = "".join(path.suffixes[-2:]) if path.name.endswith(".gz") else path.suffix
    for enc, data in _encodings(text):
        p = tmp_path / f"{enc}{suffix}"
        p.write_bytes(gzip.compress(data, mtime=0) if suffix.endswith(".gz") else data)
        counts.add(_check(p))
    assert len(counts) == 1 and counts.pop() >= 1


def _pgn_texts() -> List[Path]:
    return [p for p in _game_files() if p.name.endswith(".pgn")]


@pytest.mark.parametrize("seed", range(6))
def test_reader_and_validation_agree_on_mutated_inputs(seed: int, tmp_path: Path) -> None:
    files = _pgn_texts()
    rnd = random.Random(seed)
    path = rnd.choice(files)
    text = path.read_text(encoding="utf-8")[:200_000]
    cut = text[:rnd.randrange(len(text) // 2, len(text))]
    k = rnd.randrange(len(text))
    variants = {
        "cut.pgn": cut.encode("gb18030"),
        "cut.pgn.gz": gzip.compress(cut.encode("utf-8"), mtime=0)[:-rnd.randrange(1, 200)],
        "junk.pgn.gz": gzip.compress(text.encode("utf-8"), mtime=0) + b"GARBAGE" + gzip.compress(b"x", mtime=0),
        "mixed.pgn": text[:k].encode("utf-8") + text[k:].encode("gb18030", "replace"),
        "unclosed.pgn": (text[:k] + " {" + text[k:]).encode("big5", "replace"),
        "bom-cat.pgn": b"\xef\xbb\xbf" + text[:k].encode("utf-8") + b"\n\n\xef\xbb\xbf" + text[k:].encode("utf-8"),
    }
    for name, data in variants.items():
        p = tmp_path / name
        p.write_bytes(data)
        assert _check(p) >= 1, name


# ---------------------------------------------------------------------------------------------------------------------
# Double-byte encodings whose trail bytes are { } [ ] or a backslash
# ---------------------------------------------------------------------------------------------------------------------

def _trail_chars(enc: str) -> str:
    """CJK characters whose encoding in ``enc`` is two bytes, the second one of ``{ } [ ] \\``."""
    out = []
    for cp in range(0x4E00, 0x9FA6):
        ch = chr(cp)
        try:
            b = ch.encode(enc)
        except UnicodeEncodeError:
            continue
        if len(b) == 2 and b[1:] in (b"{", b"}", b"[", b"]", b"\\"):
            out.append(ch)
    return "".join(out)


@pytest.mark.parametrize("enc", ["gbk", "big5"])
def test_trail_bytes_that_look_like_pgn_structure(enc: str, tmp_path: Path) -> None:
    chars = _trail_chars(enc)
    trails = {c.encode(enc)[1:] for c in chars}
    assert trails == {b"{", b"}", b"[", b"]", b"\\"}  # every kind of such character is in the test
    rnd = random.Random(enc)
    moves = "1. 炮二平五 馬８進７ 2. 馬二進三 車９平８" if enc == "big5" else "1. 炮二平五 马８进７ 2. 马二进三 车９平８"
    if enc == "big5":
        moves = moves.replace("炮", "砲")
    games = []
    for i in range(400):
        name = "".join(rnd.choice(chars) for _ in range(6))
        comment = "".join(rnd.choice(chars) for _ in range(4))
        # A comment holding a blank line and a tag-like line (the reader keeps it in the comment).
        extra = f" {{{comment}\n\n[Event \"{comment}\"]\n{comment}}}" if i % 7 == 3 else f" {{{comment}}}"
        games.append(f'[Event "{name}"]\n[Red "{name}"]\n[Result "*"]\n\n{moves}{extra} *\n')
    text = "\n".join(games)
    data = text.encode(enc)
    path = tmp_path / f"{enc}.pgn"
    path.write_bytes(data)
    utf8 = tmp_path / "utf8.pgn"
    utf8.write_text(text, encoding="utf-8")
    assert detect_encoding(data[:1 << 16]) == ("big5" if enc == "big5" else "gb18030")
    for chunk_bytes in (1024, 8192, 1 << 18):
        reports = list(V.validate(str(path), chunk_bytes=chunk_bytes))
        assert len(reports) == 400 and all(r.ok and r.plies == 4 for r in reports), chunk_bytes
        assert [r.line for r in reports] == [r.line for r in V.validate(str(utf8), chunk_bytes=chunk_bytes)]
    read = list(pgn.read_games(path))
    assert [g.headers["Event"] for g in read] == [g.headers["Event"] for g in pgn.read_games(utf8)]
    assert len(read) == 400 and all(len(g.mainline_moves()) == 4 and not g.errors for g in read)
    assert _check(path) == 400
    # Cut where the parent process found game starts: each chunk reads as it reads in the whole file.
    chunks = list(V.iter_chunks([str(path)], chunk_bytes=4096))
    assert len(chunks) >= len(data) // 8192 >= 4 and sum(len(c.data) for c in chunks) == len(data)
    assert all(c.data.startswith(b'[Event "') for c in chunks)


def test_game_starts_reads_decoded_text_and_skips_comments() -> None:
    text = ('[Event "a"]\n\n1. h2e2 {x\n\n[Event "in comment"]\n} *\n\n[Event "b"]\n\n1. h2e2 ; {\n\n'
            '[Event "c"]\n1. h2e2 *\n\n[Event "{"]\n1. h2e2 *\n\n[Event "d"]\n')
    starts, open_ = pgn.game_starts(text)
    assert [text[s:text.index("\n", s)] for s in starts] == ['[Event "b"]', '[Event "c"]', '[Event "{"]',
                                                            '[Event "d"]']
    assert not open_
    assert pgn.game_starts("1. h2e2 {open\n\n[Event \"x\"]\n")[1]
    assert pgn.game_starts('\n\n[Event "x"]\n', in_comment=True) == ([], True)


# ---------------------------------------------------------------------------------------------------------------------
# The five differences between the two readers that the single pipeline removed
# ---------------------------------------------------------------------------------------------------------------------

def test_a_gbk_game_inside_a_utf8_file(tmp_path: Path) -> None:
    utf8 = '[Event "甲"]\n\n1. 炮二平五 马８进７ *\n\n'.encode("utf-8")
    gbk = '[Event "乙"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n\n'.encode("gbk")
    path = tmp_path / "mixed.pgn"
    path.write_bytes(utf8 * 3 + gbk + utf8)
    games = list(pgn.read_games(path))
    assert [len(g.mainline_moves()) for g in games] == [2, 2, 2, 3, 2] and not any(g.errors for g in games)
    reports = list(V.validate(str(path)))
    assert [(r.ok, r.plies) for r in reports] == [(True, 2)] * 3 + [(True, 3), (True, 2)]


def test_junk_after_the_gzip_stream_is_damage_for_both(tmp_path: Path) -> None:
    game = '[Event "x"]\n\n1. h2e2 h9g7 *\n\n'
    path = tmp_path / "junk.pgn.gz"
    path.write_bytes(gzip.compress(game.encode() * 3, mtime=0) + b"GARBAGE" + gzip.compress(game.encode(), mtime=0))
    # The reader keeps what it read and records the damage as data: an error of the last game read.
    read = list(pgn.read_games(path))
    assert len(read) == 3 and [iccs_of(g) for g in read] == [["h2e2", "h9g7"]] * 3
    assert not read[0].errors and not read[1].errors
    (damage,) = read[-1].errors
    assert isinstance(damage.error, InvalidRecordError) and "not gzip" in damage.reason
    assert damage.ply == 2 and damage.line == 13 and "what follows is lost" in damage.reason
    raws = list(pgn.scan_games(path))
    error = pgn.replay_mainline(raws[-1]).error
    assert len(raws) == 3 and error is not None and (error.ply, error.reason, error.line) == (2, damage.reason, 13)
    reports = list(V.validate(str(path)))
    assert len(reports) == 3 and [r.ok for r in reports] == [True, True, False]
    assert reports[-1].error is not None and reports[-1].error.kind == "truncated"
    assert "damaged compressed data" in reports[-1].error.message
    # Several members in a row are one stream.
    two = tmp_path / "two.pgn.gz"
    two.write_bytes(gzip.compress(game.encode(), mtime=0) + gzip.compress(game.encode(), mtime=0))
    assert len(list(pgn.read_games(two))) == 2 and [r.ok for r in V.validate(str(two))] == [True, True]


def iccs_of(game: Game) -> List[str]:
    return [m.iccs() for m in game.mainline_moves()]


def test_damage_before_any_game_is_a_game_with_the_error() -> None:
    (game,) = pgn.read_games(b"\x1f\x8b" + b"not gzip at all")
    assert not game.mainline_moves() and dict(game.headers).get("Event") == "?"
    (e,) = game.errors
    assert isinstance(e.error, InvalidRecordError) and e.ply == 0


def test_one_illegal_move_one_reason(tmp_path: Path) -> None:
    board = Board()
    words = []
    for parse in (board.parse_iccs, board.parse_move):
        with pytest.raises(IllegalMoveError) as exc:
            parse("e3e5")
        words.append(str(exc.value))
    assert words[0] == words[1] and "moves one point forward" in words[0]
    assert words[0].endswith(board.illegal_reason(pgn.Move.from_iccs("e3e5")))
    path = tmp_path / "bad.pgn"
    path.write_text("1. e3e5 *\n", encoding="utf-8")
    (game,) = pgn.read_games(path)
    (report,) = V.validate(str(path))
    assert report.error is not None and game.errors[0].reason == words[0]
    assert report.error.message == words[0] + "."


def test_rule_set_aliases_everywhere(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text("1. h2e2 h9g7 *\n", encoding="utf-8")
    for name in ("asia", "Asian", "AXF", "china", "chinese"):
        assert Board().outcome(rules=name) is None
        assert [r.ok for r in V.validate(str(path), rules=name)] == [True]
    with pytest.raises(ValueError, match="unknown rule set"):
        list(V.validate(str(path), rules="fide"))


def test_dhtmlxq_pages_saved_as_htm_and_txt_are_found(tmp_path: Path) -> None:
    block = (DATA / "sample" / "wxf-ca-3.dhtmlxq.txt").read_text(encoding="utf-8")
    (tmp_path / "page.htm").write_text(f"<html><body>\n{block}\n</body></html>\n", encoding="utf-8")
    (tmp_path / "game.txt").write_text(block, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a game\n", encoding="utf-8")
    found = sorted(os.path.basename(p) for p in V.expand_paths([str(tmp_path)]))
    assert found == ["game.txt", "page.htm"]
    reports = list(V.validate(str(tmp_path)))
    converted = [g for name in found for g in read_any(str(tmp_path / name))]
    assert len(reports) == len(converted) == 6 and all(r.ok for r in reports)
    assert [r.plies for r in reports] == [len(g.mainline_moves()) for g in converted]


# ---------------------------------------------------------------------------------------------------------------------
# The source layer
# ---------------------------------------------------------------------------------------------------------------------

def test_worker_ranges_read_the_lines_the_parent_saw(tmp_path: Path) -> None:
    text = "".join(f'[Event "第{i}局"]\n\n1. 炮二平五 马８进７ *\n\n' for i in range(3000))
    path = tmp_path / "g.pgn"
    path.write_bytes(text.encode("gb18030"))
    spans = list(C.spans([str(path)], "auto", 8192))
    assert len(spans) > 10
    for chunk, offset in spans:
        assert offset is not None and path.read_bytes()[offset:offset + len(chunk.data)] == chunk.data
    lines = [line for c, _ in spans for line in TextLines(io.BytesIO(c.data).read, c.encoding)]
    assert lines == text.split("\n")[:-1]


def test_pool_chunks_shrink_towards_the_end_of_the_input(tmp_path: Path) -> None:
    # Guided self-scheduling: the own pool's chunks hold at most a (4 * workers)-th of what is left, so that
    # the workers run out of work together; they still hold every byte, at the same offsets, once each.
    text = "".join(f'[Event "{i}"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n\n' for i in range(60000))
    path = tmp_path / "g.pgn"
    path.write_text(text, encoding="utf-8")
    data = path.read_bytes()
    pooled = P._pool_chunk_sizes([str(path)], 2, V.DEFAULT_CHUNK_BYTES)
    assert (pooled.cap, pooled.total, pooled.parts) == (len(data) // 16, len(data), 8)
    sizes = C.ChunkSizes(1 << 20, len(data), 2)
    spans = list(C.spans([str(path)], "auto", sizes))
    lengths = [len(c.data) for c, _ in spans]
    assert sum(lengths) == len(data) and b"".join(c.data for c, _ in spans) == data
    assert all(offset == sum(lengths[:i]) for i, (_, offset) in enumerate(spans))
    assert lengths[0] > len(data) // 8 - 200 and max(lengths[-4:]) < V.DEFAULT_CHUNK_BYTES + 200
    left = len(data)
    for n in lengths[:-1]:
        # A chunk ends at the last game start before its target (the games here are about 90 bytes).
        assert max(V.DEFAULT_CHUNK_BYTES, left // 8) - 200 < n <= max(V.DEFAULT_CHUNK_BYTES, left // 8)
        left -= n
    # A size the caller chose stays the same throughout.
    fixed = [len(c.data) for c, _ in C.spans([str(path)], "auto", P._pool_chunk_sizes([str(path)], 2, 300_000))]
    assert all(abs(n - 300_000) < 200 for n in fixed[:-1])
    assert [r.plies for r in V.validate(str(path), jobs=2)] == [4] * 60000


# ---------------------------------------------------------------------------------------------------------------------
# Games neither lost, merged nor split by the reader (each case read by read_games and validate alike)
# ---------------------------------------------------------------------------------------------------------------------

def _both(tmp_path: Path, data: bytes, name: str = "g.pgn") -> Tuple[List[Game], List[V.GameReport]]:
    path = tmp_path / name
    path.write_bytes(data)
    games = list(pgn.read_games(path))
    reports = list(V.validate(str(path)))
    _same(_reader_verdicts(iter(games)), _report_verdicts(reports))
    return games, reports


def test_a_game_of_tags_only_is_not_merged_into_the_next(tmp_path: Path) -> None:
    text = '[Event "one"]\n[Site "a"]\n\n[Event "two"]\n[Site "b"]\n\n1. h2e2 h9g7 *\n'
    games, reports = _both(tmp_path, text.encode())
    assert [(g.headers["Event"], len(g.mainline_moves())) for g in games] == [("one", 0), ("two", 2)]
    assert [(r.index, r.line, r.plies) for r in reports] == [(1, 1, 0), (2, 4, 2)]
    # A blank line inside one game's tags (no tag repeated) keeps them together.
    games, _ = _both(tmp_path, b'[Event "x"]\n\n[Round "1"]\n\n1. h2e2 *\n')
    assert len(games) == 1 and games[0].headers["Round"] == "1"


def test_a_bom_in_the_middle_of_a_file(tmp_path: Path) -> None:
    game = '[Event "{}"]\n\n1. 炮二平五 马８进７ *\n\n'
    data = b"".join(b"\xef\xbb\xbf" + game.format(i).encode() for i in range(3))  # cat of BOM'd files
    games, reports = _both(tmp_path, data)
    assert [g.headers["Event"] for g in games] == ["0", "1", "2"] and all(r.ok and r.plies == 2 for r in reports)


def test_cr_line_endings_and_utf32(tmp_path: Path) -> None:
    text = "".join(f'[Event "{i}"]\n\n1. 炮二平五 马８进７ *\n\n' for i in range(3))
    games, reports = _both(tmp_path, text.replace("\n", "\r").encode())
    assert len(games) == 3 and all(r.ok and r.plies == 2 for r in reports)
    assert [r.line for r in reports] == [1, 5, 9]
    for enc in ("utf-32", "utf-16"):
        games, reports = _both(tmp_path, text.encode(enc), f"{enc}.pgn")
        assert len(games) == 3 and all(r.ok and r.plies == 2 for r in reports), enc


def test_a_damaged_first_tag_line_starts_its_own_game(tmp_path: Path) -> None:
    text = ('[Event "a"]\n\n1. h2e2 h9g7 *\n\n[Event "b]\n[Site "x"]\n\n1. h2e2 h9g7 *\n\n'
            '[Event "c"]\n\n1. h2e2 *\n')
    games, reports = _both(tmp_path, text.encode())
    assert [len(g.mainline_moves()) for g in games] == [2, 2, 1]
    assert not games[0].errors and games[1].errors[0].token == '[Event "b]' and games[1].errors[0].line == 5
    assert [r.ok for r in reports] == [True, False, True] and reports[1].error is not None
    assert (reports[1].error.kind, reports[1].line) == ("parse-error", 5)


def test_valid_utf8_stays_utf8_and_damage_costs_one_token(tmp_path: Path) -> None:
    ascii_games = "".join(f'[Event "{i}"]\n\n1. h2e2 h9g7 *\n\n' for i in range(2000))
    latin1 = '[Event "caf\xe9"]\n\n1. h2e2 h9g7 *\n\n'.encode("latin-1")
    chinese = '[Event "中"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n'.encode("utf-8")
    data = ascii_games.encode() + latin1 + ascii_games.encode() + chinese
    assert detect_encoding(data[:1 << 16]) == "utf-8"  # one Latin-1 byte does not make the file GB18030
    games, reports = _both(tmp_path, data)
    assert len(games) == 4002 and len(games[-1].mainline_moves()) == 3 and reports[-1].ok
    # One bad byte in a UTF-8 move line: the moves before it stay.
    line = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 *\n".encode("utf-8")
    k = line.index("车９".encode())
    games, reports = _both(tmp_path, b'[Event "x"]\n\n' + line[:k] + b"\xff" + line[k:], "damaged.pgn")
    assert len(games[0].mainline_moves()) == 3 and games[0].errors[0].ply == 3
    assert reports[0].plies == 3 and reports[0].error is not None and reports[0].error.kind == "invalid-notation"


def test_read_game_and_read_games_agree_on_a_cut_character(tmp_path: Path) -> None:
    line = "1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 *".encode("utf-8")
    data = b'[Event "x"]\n\n' + line[:-4] + b"\n" + b'\n[Event "y"]\n\n1. h2e2 *\n'
    data = data.replace("车一平二".encode(), "车一平二".encode()[:-1])  # the line ends in a cut character
    path = tmp_path / "cut.pgn"
    path.write_bytes(data)
    with open(path, "rb") as fh:
        one_by_one = [pgn.read_game(fh), pgn.read_game(fh)]
    streamed = list(pgn.read_games(path))
    assert [len(g.mainline_moves()) for g in one_by_one if g] == [len(g.mainline_moves()) for g in streamed]
    assert len(streamed) == 2 and len(streamed[0].mainline_moves()) == 4


def test_an_unclosed_comment_costs_linear_time(tmp_path: Path) -> None:
    games = "".join(f'[Event "{i}"]\n\n1. h2e2 h9g7 *\n\n' for i in range(34_000))
    data = ('[Event "first"]\n\n1. h2e2 {never closed\n\n' + games).encode()
    games_read, reports = _both(tmp_path, data)
    assert len(reports) == len(games_read) == 34_001
    assert reports[0].error is not None and reports[0].error.kind == "parse-error"
    assert all(r.ok for r in reports[1:])
    # Twice the input: about twice the time, not four times (measured here, loosely: a hang fails it).
    import time
    half = tmp_path / "half.pgn"
    half.write_bytes(data[:len(data) // 2].rsplit(b"\n\n[", 1)[0] + b"\n")
    t0 = time.perf_counter()
    list(V.validate(str(half)))
    t1 = time.perf_counter()
    list(V.validate(str(tmp_path / "g.pgn")))
    t2 = time.perf_counter()
    assert t2 - t1 < 6 * (t1 - t0) + 0.5


def test_tag_lines_read_without_the_regex_read_as_the_regex_reads_them() -> None:
    """The splitter reads the usual ``[Name "value"]`` lines with string operations: the same tags as the tag
    regex gives, line by line, for every tag block."""
    pieces = ['[FEN "x"]', '[FEN  "x"]', '[Result "x" ]', ' [Result "x"]', '[FEN "a"] b"]', '[Result "a" "b"]',
              '[FEN "a\\\\"b"]', '[FEN "a"]x', '[FEN "a"]\r', '[FEN "]', '[Result ""]', '[É "FEN"]', '[FEN "x"]]',
              '[_9 "Result"]', '[FEN "v"\r]', '[FEN \u3000"x"]', '[a "\\"q"]', '[A1 "x"]', '[x-y "1"]', '[FEN x]']
    rnd = random.Random(11)
    for _ in range(3000):
        block = [rnd.choice(pieces) for _ in range(rnd.randint(1, 5))]
        text = '[Event "e"]\n' + "\n".join(block) + "\n\n1. h2e2 *\n"
        chunk = next(pgn.split_games(iter(text.split("\n"))), None)
        expected = [("Event", "e")]
        for line in block:
            m = _pgn_split.TAG_RE.match(line)
            if m is None:
                break
            name, value, bare = m.groups()
            value = bare.strip() if value is None else value
            expected.append((name, value.replace('\\"', '"').replace("\\\\", "\\")))
        if len(expected) == len(block) + 1:
            assert chunk is not None and chunk.tags == expected, repr(text)


# ---------------------------------------------------------------------------------------------------------------------
# The splitter given a whole text (validation's path) and given its lines (the reader's)
# ---------------------------------------------------------------------------------------------------------------------

def _split_signature(games: Iterator[pgn.GameLines], names: List[str]) -> List[Tuple[object, ...]]:
    return [(g.first_line, g.tags, g.tag_lines, g.movetext, g.movetext_text, g.movetext_start,
             [(e.reason, e.line) for e in g.errors], [g.tag(name) for name in names]) for g in games]


def _same_split(text: str) -> int:
    """The games of the block splitter (the C scan, the games of the common form made from the bytes, the rest by
    the line loop) of ``text`` in UTF-8, against the line loop over the same lines; the count of games."""
    names = ["FEN", "Result", "Event", "Red", "Format", "Nope", "E"]
    by_lines = _split_signature(pgn.split_games(iter(text.split("\n")), 7), names)
    assert _split_signature(pgn.split_games(text, 7), names) == by_lines
    data = text.encode("utf-8")
    for size in (1 << 18, 1 << 12):
        file_lines = _split_signature(pgn.split_games(iter(TextLines(io.BytesIO(data).read, "utf-8", size)), 7), names)
        assert _split_signature(pgn.split_games(TextLines(io.BytesIO(data).read, "utf-8", size, lazy=True), 7),
                                names) == file_lines
    return len(by_lines)


def test_the_splitter_reads_a_text_as_it_reads_its_lines() -> None:
    """The block splitter (common games cut out of each block's bytes, the rest by the line loop) gives the games
    the line loop gives, on every corpus PGN file and on texts whose games mix the common form with everything
    that needs the line loop."""
    corpus = 0
    for path in _pgn_texts():
        text = _text_of(path)
        if text is not None:
            corpus += _same_split(text)
    tags = ['[Event "e"]', '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]',
            '[Result "1-0"]', '[Result "0-1"]', '[Red "a\\\\"b"]', '[E "x"]', '[E "y"]', '[FEN  "x"]', ' [Result "x"]',
            '[FEN "a"] b"]', '[Event "b]', '[Result "*"]\r', '[É "FEN"]', '[Format "ICCS"]', '[a "\\"q"]', '[FEN x]',
            "% escape", ""]
    moves = ["1. h2e2 h9g7", "2. h0g2 i9h9 1-0", "1. c3c4 *", " 1. b2e2", "{a comment", "}", "{ [Event \"c\"] }",
             "3. g3g4 ; rest", "% escape", "", "  ", "\r", "10. a0a1 0-1", "(1. b0c2)", "[Event \"m\"]", "1-0", "*"]
    rnd = random.Random(5)
    generated = 0
    for _ in range(1500):
        parts: List[str] = []
        for _ in range(rnd.randint(1, 5)):
            parts += [rnd.choice(tags[:7]) for _ in range(rnd.randint(0, 3))]
            if rnd.random() < 0.3:
                parts.append(rnd.choice(tags))
            parts += [""] * rnd.choice([0, 1, 1, 1, 2])
            parts += ["1. h2e2 h9g7", "2. h0g2 i9h9"][:rnd.randint(0, 2)]
            if rnd.random() < 0.4:
                parts.append(rnd.choice(moves))
            parts.append(rnd.choice(["1-0", "*", "", "0-1"]))
            parts += [""] * rnd.choice([0, 1, 1, 2])
        generated += _same_split("\n".join(parts))
    assert generated > 4000
    if GAMES.is_dir():   # the shared corpus (without it only the project's own files are read)
        assert corpus > 9000


def test_a_line_over_the_limit_is_cut_and_recorded(tmp_path: Path) -> None:
    """A line longer than pgn.MAX_LINE_BYTES is cut there and its game records it; the games after it are
    read, by the reader and by validation (one job or two) alike."""
    game = '[Event "x"]\n\n1. h2e2 h9g7 *\n\n'
    long = '[Event "long"]\n\n1. h2e2 {' + "c" * (6 * pgn.MAX_LINE_BYTES) + "}\n h9g7 *\n\n"
    path = tmp_path / "long.pgn"
    path.write_text(game * 30000 + long + game, encoding="utf-8")
    games = list(pgn.read_games(path))
    assert len(games) == 30002 and [m.iccs() for m in games[-1].mainline_moves()] == ["h2e2", "h9g7"]
    first = games[-2].errors[0]
    assert isinstance(first.error, InvalidRecordError) and first.line == 120003
    assert f"longer than {pgn.MAX_LINE_BYTES} bytes" in first.reason
    for jobs in (1, 2):
        reports = list(V.validate(str(path), jobs=jobs, chunk_bytes=8192))
        assert len(reports) == 30002 and not reports[-2].ok and reports[-1].ok and reports[-1].plies == 2
    gz = tmp_path / "long.pgn.gz"
    gz.write_bytes(gzip.compress(b"1. " + b"h2e2 " * 400_000, mtime=0))
    (one,) = pgn.read_games(gz)
    assert one.errors[0].line == 1 and isinstance(one.errors[0].error, InvalidRecordError)


@pytest.mark.parametrize("movetext", ["1. h2e2 0000 2. h0g2 zz *\n", "1. h2e2 {c} 0000 2. h0g2 zz *\n",
                                      "1. h2e2 0000 2. h0g2 h9g7 *\n"])
def test_a_null_move_reads_alike_in_a_line_with_a_bad_move(movetext: str, tmp_path: Path) -> None:
    """The one main-line replayer: a null move plays (python-chess's reading of ``0000``) whether or not a
    later token is bad, in the reader and in validation."""
    games, reports = _both(tmp_path, ('[Event "x"]\n\n' + movetext).encode())
    bad = "zz" in movetext
    assert [m.iccs() for m in games[0].mainline_moves()][:3] == ["h2e2", "0000", "h0g2"]
    assert (reports[0].error is not None) == bad
    if bad:
        assert (reports[0].error.kind, reports[0].error.ply, reports[0].error.token) == ("invalid-notation", 3, "zz")


@pytest.mark.parametrize("movetext", ["1. e1e9 *\n", "1. e1e9 {c} *\n"])
def test_an_impossible_start_position_is_a_bad_fen_tag_for_every_reader(movetext: str, tmp_path: Path) -> None:
    """Black in check with Red to move: no game reaches it, so the FEN tag is the error (game.start_board),
    whether the reader's fast path or its tree builder reads the game."""
    fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 w"
    games, reports = _both(tmp_path, f'[Event "x"]\n[FEN "{fen}"]\n\n{movetext}'.encode())
    assert isinstance(games[0].errors[0].error, InvalidFenError) and games[0].mainline_moves() == []
    assert reports[0].error is not None and reports[0].error.kind == "invalid-fen"


# ---------------------------------------------------------------------------------------------------------------------
# The limits of the PGN reader: a line, a game, a comment (each an error of its game, the same for validation)
# ---------------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("block", [1 << 10, 4096, 1 << 16, 1 << 17, 1 << 18, 1 << 20])
def test_a_long_line_is_cut_wherever_the_read_blocks_end(block: int) -> None:
    """A line over max_line is cut at max_line whether it lies inside one read block, across blocks, or last
    in the stream without a line end; the lines around it are whole, their numbers right."""
    limit = pgn.MAX_LINE_BYTES
    for length in (limit, limit + 1, 100_000, 3 * limit + 7):
        for tail in (b"\nc d\n", b""):
            wide = "车".encode() * (length // 3) + b"x" * (length % 3)     # cut back to a character start
            data = b"a b\n" + wide + b"\nc d\n" + b"y" * length + tail
            lines = TextLines(io.BytesIO(data).read, block_size=block, max_line=limit)
            got = list(lines)
            kept = min(length, limit)
            assert got[:2] == ["a b", wide[:limit].decode("utf-8", "ignore")]
            assert got[2] == "c d" and len(got[3]) == kept and got[4:] == (["c d"] if tail else [])
            assert lines.long_lines == ([2, 4] if length > limit else []), (block, length)


def _agree(tmp_path: Path, data: bytes, name: str = "g.pgn") -> Tuple[List[Game], List[V.GameReport]]:
    """Read ``data`` with read_games and validate (one job with small chunks, two jobs): the same verdicts."""
    games, reports = _both(tmp_path, data, name)
    path = tmp_path / name
    for jobs in (1, 2):
        again = list(V.validate(str(path), jobs=jobs, chunk_bytes=8192))
        assert [(r.index, r.line, r.ok, r.plies, r.error) for r in again] == \
            [(r.index, r.line, r.ok, r.plies, r.error) for r in reports]
    return games, reports


_SHORT = '[Event "after"]\n\n1. h2e2 h9g7 *\n\n'


def _limit_error(game: Game, report: V.GameReport, words: str, line: int) -> None:
    """The game's first error is the limit's (an InvalidRecordError at ``line``), and validation's too."""
    first = game.errors[0]
    assert isinstance(first.error, InvalidRecordError) and words in first.reason and first.line == line
    assert report.error is not None and report.error.kind == "parse-error" and words in report.error.message


def test_a_cut_line_is_the_first_error_for_both(tmp_path: Path) -> None:
    """A cut line is its game's first error (before the bad token the cut leaves), in both readings; the
    games after it are read."""
    long = '[Event "long"]\n\n1. h2e2 h9g7 2. ' + "h0g2 " * 30_000 + "\n3. i9h9 *\n\n"
    games, reports = _agree(tmp_path, (_SHORT * 3 + long + _SHORT * 3).encode())
    assert len(games) == 7 and all(r.ok for r in reports[:3] + reports[4:])
    _limit_error(games[3], reports[3], f"line 15 is longer than {pgn.MAX_LINE_BYTES} bytes", 15)
    assert len(games[3].mainline_moves()) == reports[3].plies == 3   # h0g2 again, by Black: illegal
    # A cut comment: the unterminated comment is the second error.
    comment = '[Event "c"]\n\n1. h2e2 {' + "c" * 100_000 + "} h9g7\n2. h0g2 *\n\n"
    games, reports = _agree(tmp_path, (_SHORT + comment + _SHORT).encode(), "comment.pgn")
    _limit_error(games[1], reports[1], "line 7 is longer than", 7)
    assert "unterminated comment" in games[1].errors[1].reason and reports[2].ok
    # Inside a .gz (a small file holding a long line).
    games, reports = _agree(tmp_path, gzip.compress((long + _SHORT).encode(), mtime=0), "long.pgn.gz")
    _limit_error(games[0], reports[0], "line 3 is longer than", 3)
    assert reports[1].ok and reports[1].plies == 2


def test_a_huge_game_keeps_its_limit_and_the_games_after_it_are_read(tmp_path: Path) -> None:
    """A game over MAX_GAME_CHARS keeps what came before its limit, records it and skips the rest; the game
    after it is read whole. A .gz of a few KB holding it costs memory in proportion to the limit."""
    line = "h2e2 h9g7 e2h2 g7h9 " * 2000 + "\n"          # legal forever: 40,000 characters a line
    n = pgn.MAX_GAME_CHARS // len(line) + 1             # the move-text lines kept (the tag line counts too)
    huge = '[Event "huge"]\n\n' + line * 300 + "*\n\n"
    games, reports = _agree(tmp_path, (_SHORT + huge + _SHORT).encode())
    assert len(games) == 3 and reports[0].ok and reports[2].ok and games[2].headers["Event"] == "after"
    _limit_error(games[1], reports[1], f"longer than {pgn.MAX_GAME_CHARS} characters", 6 + n)
    assert len(games[1].mainline_moves()) == reports[1].plies == 8000 * n
    data = gzip.compress((_SHORT + huge * 3 + _SHORT).encode(), mtime=0)
    assert len(data) < 100_000
    games, _ = _agree(tmp_path, data, "huge.pgn.gz")
    assert len(games) == 5 and [len(g.errors) for g in games] == [0, 1, 1, 1, 0]
    import tracemalloc
    tracemalloc.start()
    try:
        count = sum(1 for _ in pgn.read_games(data))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 5 and peak < 12 * pgn.MAX_GAME_CHARS + 4 * (1 << 20), peak   # 36 MB of text read


def test_a_stream_without_game_starts_costs_memory_in_proportion_to_the_limit(tmp_path: Path) -> None:
    """A .gz of 100 KB holding one game of 60 MB of moves: validation held the whole game to cut the file into
    chunks (about 4.5 bytes of memory a byte of it: 1.2 GB for 300 MB), where read_games holds its limit. Past
    HELD_MAX_BYTES without a place to cut, the rest of the file is read as lines (as read_games reads it), in this
    process: the same verdicts, with one job, two, or any executor, and memory within the limits."""
    moves = "h0g2 h9g7 g2h0 g7h9\n"
    huge = '[Event "huge"]\n\n1. ' + moves * 3_000_000 + "*\n\n"
    path = tmp_path / "one.pgn.gz"
    path.write_bytes(gzip.compress((_SHORT + huge + _SHORT).encode(), 6, mtime=0))
    assert path.stat().st_size < 400_000
    code = ("import resource, sys\nfrom xiangqi.validate import validate\n"
            "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "reports = list(validate(sys.argv[1]))\n"
            "grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) >> 10\n"
            "print(*[r.ok for r in reports], reports[1].plies, reports[1].error.message, grown, sep='|')\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
                         timeout=600).stdout.strip().split("|")
    kept = pgn.MAX_GAME_CHARS // len(moves)   # the move-text lines kept: four plies each
    assert out[:4] == ["True", "False", "True", str(4 * kept)], out
    assert f"longer than {pgn.MAX_GAME_CHARS} characters" in out[4], out
    assert int(out[5]) < 48, out   # MB: the limits' worth (before: about 270)
    # Smaller, so that it runs here: the same reports with one job, the own pool and an executor, as read_games.
    small = '[Event "huge"]\n\n1. ' + moves * 150_000 + "*\n\n"
    data = (_SHORT * 2 + small + _SHORT + "1. h2e2 h9g7 *\n\n" + small).encode()
    assert len(data) > C.HELD_MAX_BYTES + (4 << 20)   # past the limit and a chunk of the own pool (2 MiB at most)
    games, reports = _both(tmp_path, data, "small.pgn")
    assert len(reports) == 6 and [r.ok for r in reports] == [True, True, False, True, True, False]
    assert [r.plies for r in reports] == [len(g.mainline_moves()) for g in games]
    assert [r.line for r in reports] == [1, 5, 9, 150_013, 150_017, 150_019]
    expected = [r.to_json() for r in reports]
    pool = dataclasses.replace(P.PoolSettings(), serial_bytes=0, bytes_per_worker=1)   # a pool for a small input
    files = [str(tmp_path / "small.pgn")]
    assert [r.to_json() for r in P.run(files, "axf", 2, None, "auto", C.DEFAULT_CHUNK_BYTES, pool)] == expected
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        assert [r.to_json() for r in V.validate(str(tmp_path / "small.pgn"), executor=ex, chunk_bytes=8192)] == \
            expected


@pytest.mark.parametrize("enc, newline", [("gb18030", "\n"), ("big5", "\r\n"), ("utf-8", "\r")])
def test_a_file_read_on_as_lines_reads_alike_in_every_encoding(tmp_path: Path, enc: str, newline: str) -> None:
    """The rest of a file read as lines (past HELD_MAX_BYTES without a place to cut) is decoded as the file is:
    two-byte encodings and every line end give read_games' verdicts and lines."""
    short = '[Event "after"]\n\n1. 炮二平五 馬８進７ *\n\n'
    huge = '[Event "huge"]\n\n1. ' + "馬二進三 馬８進７ 馬三退二 馬７退８\n" * 50_000 + "*\n\n"
    data = (short * 2 + huge + short + huge).replace("\n", newline).encode(enc)
    assert len(data) > C.HELD_MAX_BYTES + C.DEFAULT_CHUNK_BYTES
    games, reports = _both(tmp_path, data, f"{enc}.pgn")
    _same(_reader_verdicts(iter(games)), _report_verdicts(reports))
    assert [r.line for r in reports] == [1, 5, 9, 50_013, 50_017]
    # The lines kept, of 19 characters and the line end (a CR LF file's lines keep their CR, as the reader's do).
    assert reports[2].plies == 4 * (pgn.MAX_GAME_CHARS // (19 + len(newline)))


def test_a_game_of_many_blank_lines_costs_memory_in_proportion_to_the_limit(tmp_path: Path) -> None:
    """Blank lines count towards MAX_GAME_CHARS (each line with its line end): a game of 400,000 blank
    lines in a .gz of a few KB is cut at the limit, the game after it is read, and neither reader holds a
    list of its lines (a fuzzing find: 300 MB for read_games, 800 MB for validate, on 6 MB of newlines)."""
    import tracemalloc
    blank = "\n" * 200_000
    huge = '[Event "blank"]\n\n1. h2e2 h9g7\n' + ("x" * 100 + blank) * 2 + "*\n\n"
    data = gzip.compress((_SHORT + huge + _SHORT).encode(), mtime=0)
    assert len(data) < 10_000
    games, reports = _agree(tmp_path, data, "blank.pgn.gz")
    assert [g.headers["Event"] for g in games] == ["after", "blank", "after"] and reports[2].ok
    _limit_error(games[1], reports[1], f"longer than {pgn.MAX_GAME_CHARS} characters",
                 # lines 5, 7, 8 and 200,009 hold 16, 13, 101 and 101 characters, each blank line 1
                 8 + 1 + (pgn.MAX_GAME_CHARS - 16 - 13 - 101 - 101) + 1)
    path = tmp_path / "blank.pgn.gz"
    for read in (lambda: sum(1 for _ in pgn.read_games(data)), lambda: len(list(V.validate(str(path), jobs=1)))):
        tracemalloc.start()
        try:
            count = read()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        # The text a few times and the readers' tables; a list of the game's lines and their numbers: 17 MB more.
        assert count == 3 and peak < 4 * len(huge) + (6 << 20), (count, peak)


def test_the_blank_line_patterns_match_as_the_repeated_groups_did() -> None:
    """The blank-line patterns (one character class up to the last newline) match where and what the
    repeated groups of lines they replace matched, on random text of blanks and newlines."""
    old_blank = re.compile(r"\n(?:[ \t\r]*\n)+")
    old_structure = re.compile(r"[{};]|\n(?:[ \t\r]*\n)+")
    old_leading = re.compile(r"(?:[ \t\r\x0b\x0c]*\n)*")
    rnd = random.Random(11)
    pieces = ["\n", "\n", " ", "\t", "\r", "\x0b", "a", "{", ";", "}", "["]
    for _ in range(20000):
        s = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 14)))
        assert [m.span() for m in old_blank.finditer(s)] == [m.span() for m in _pgn_split._BLANK_LINES.finditer(s)], s
        assert [m.span() for m in old_structure.finditer(s)] == [m.span() for m in _pgn_split._STRUCTURE.finditer(s)], s
        for at in range(len(s) + 1):
            a, b = old_leading.match(s, at), _pgn_split._LEADING_BLANKS.match(s, at)
            assert a is not None and b is not None and a.span() == b.span(), (s, at)


def test_a_huge_comment_and_an_unclosed_one_before_many_games(tmp_path: Path) -> None:
    """A comment over MAX_COMMENT_CHARS is an error of its game and taken as never closed: the games after it
    are read, whether they begin with tags after a blank line or with a new move 1."""
    body = ("c" * 999 + "\n") * (pgn.MAX_COMMENT_CHARS // 1000 + 2)
    closed = '[Event "c"]\n\n1. h2e2 {' + body + "} h9g7 *\n\n"
    games, reports = _agree(tmp_path, (_SHORT + closed + _SHORT).encode())
    assert len(games) == 3 and reports[2].ok
    _limit_error(games[1], reports[1], f"the comment opened at line 7 is longer than {pgn.MAX_COMMENT_CHARS}", 7)
    # Far from its "{", a "}" no longer keeps a tag line after a blank line inside the comment.
    swallowing = '[Event "s"]\n\n1. h2e2 {' + body + "\n" + _SHORT + "} *\n\n" + _SHORT
    games, reports = _agree(tmp_path, (_SHORT + swallowing).encode(), "swallow.pgn")
    assert [g.headers["Event"] for g in games] == ["after", "s", "after", "after"] and reports[2].ok
    # An unclosed comment before games that start at move 1 without tags: it ends at its limit.
    unclosed = '[Event "first"]\n\n1. h2e2 {never closed\n' + "1. h2e2 h9g7 *\n" * 30_000 + "\n" + _SHORT
    games, reports = _agree(tmp_path, unclosed.encode(), "unclosed.pgn")
    _limit_error(games[0], reports[0], "the comment opened at line 3 is longer than", 3)
    assert len(games) > 20_000 and games[-1].headers["Event"] == "after" and all(r.ok for r in reports[1:])


def test_tiny_limits_read_alike_on_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """With limits that real games exceed (700 characters a game, 150 a comment), the splitter given a text
    and given its lines, and read_games and validation, still agree on every corpus PGN file: the limits
    live in the one splitter (:mod:`xiangqi._pgn_split`)."""
    monkeypatch.setattr(_pgn_split, "MAX_GAME_CHARS", 700)
    monkeypatch.setattr(_pgn_split, "MAX_COMMENT_CHARS", 150)
    over = games = 0
    for path in _pgn_texts():
        text = _text_of(path)
        assert text is not None
        games += _same_split(text)
        _check(path)
        over += sum(1 for g in pgn.split_games(text) if any("longer than" in e.reason for e in g.errors))
    if games == 0:
        pytest.skip("no PGN files")
    assert over > 0


def test_a_tag_like_line_of_spaces_costs_linear_time() -> None:
    """The tag pattern on a line that begins a tag and goes on with spaces (a fuzzing find: 0.24 s for 800
    spaces, cubic): the same matches as the plain form of the pattern, and no backtracking blow-up."""
    plain = re.compile(r'\s*\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+(?:"(.*)"|([^"\]]*))\s*\]\s*$')
    rnd = random.Random(7)
    pieces = ["[", "]", '"', " ", "\t", "a", "B", "1", "-", "\u3000", "\\", "x y", "\r"]
    for _ in range(20000):
        s = "[Event" * rnd.randint(0, 1) + "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12)))
        a, b = plain.match(s), _pgn_split.TAG_RE.match(s)
        assert (a and a.groups()) == (b and b.groups()), s
    for line in ("[Resul" + " " * 60000, "[Result x" + " " * 60000, '[R "' + '" ' * 30000):
        assert _pgn_split.TAG_RE.match(line) is None
