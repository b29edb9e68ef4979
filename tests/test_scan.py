"""The C scan for game starts (``xq_pgn_game_starts``, :func:`xiangqi.pgn.game_starts_in_bytes`) against its
specification, :func:`xiangqi.pgn.game_starts` on the decoded text: real collections in UTF-8, GB18030 and
Big5, characters whose second byte is ``{ } [ ] \\``, and generated text full of comment marks and tag-like
lines."""

from __future__ import annotations

import random
from pathlib import Path
from typing import List, Optional, Tuple

import pytest
from hypothesis import given, settings, strategies as st

from xiangqi import pgn
from xiangqi._encoding import DOUBLE_BYTE_ENCODINGS, LineDecoder, decodes_strictly, decoding_pairs

from conftest import SHARED_DIR

GAMES = SHARED_DIR / "data" / "games"
DATA = Path(__file__).resolve().parent / "data"


def _compare(data: bytes, enc: str, in_comment: bool = False) -> Tuple[Optional[List[int]], List[int]]:
    """The C scan's starts as text offsets (``None``: it left the text to Python) and Python's, after
    checking that the C starts are among Python's and that both end in the same comment state."""
    text = data.decode(enc)
    text = text[:-1] if text.endswith("\n") else text
    want, want_comment = pgn.game_starts(text, in_comment)
    got = pgn.game_starts_in_bytes(data, enc, in_comment)
    if got is None:
        return None, want
    offsets, comment = got
    as_text = [len(data[:o].decode(enc)) for o in offsets]
    assert comment == want_comment
    assert set(as_text) <= set(want), sorted(set(as_text) - set(want))[:5]
    return as_text, want


def _pgn_files() -> List[Path]:
    files = sorted(DATA.rglob("*.pgn"))
    if GAMES.is_dir():
        files += sorted(GAMES.glob("*.pgn"))
    return files


def _blocks(data: bytes, size: int) -> List[bytes]:
    """``data`` cut into blocks of whole lines of about ``size`` bytes (as the chunker reads it)."""
    out, start = [], 0
    while start < len(data):
        end = data.rfind(b"\n", start, start + size) + 1
        if end <= start:
            end = data.find(b"\n", start + size) + 1 or len(data)
        out.append(data[start:end])
        start = end
    return out


@pytest.mark.parametrize("path", _pgn_files(), ids=lambda p: p.name)
def test_real_collections_in_every_encoding(path: Path) -> None:
    raw = path.read_bytes()
    enc0 = LineDecoder(raw[:1 << 16]).encoding
    try:
        text = raw.decode(enc0)
    except UnicodeDecodeError:
        pytest.skip(f"{path.name} does not decode strictly as {enc0} (the scan is for strict blocks)")
    text = text.replace("\r\n", "\n").replace("\ufeff", "")
    if "\r" in text:
        pytest.skip(f"{path.name} has bare carriage returns")
    for enc in ("utf-8", "gb18030", "big5"):
        try:
            data = text.encode(enc)
        except UnicodeEncodeError:
            continue
        in_comment = False
        total = 0
        for block in _blocks(data, 1 << 14):
            got, want = _compare(block, enc, in_comment)
            assert got is not None, (enc, "undecided on a real collection")
            assert got == want, (enc, "a real collection's tags are plain: the same starts")
            total += len(got)
            in_comment = pgn.game_starts(block.decode(enc).rstrip("\n"), in_comment)[1]
        assert total or len(data) < 1 << 14 or b"[Event" not in data[1000:]


def _trail_chars(enc: str) -> str:
    out = []
    for cp in range(0x4E00, 0x9FA6):
        try:
            b = chr(cp).encode(enc)
        except UnicodeEncodeError:
            continue
        if len(b) == 2 and b[1:] in (b"{", b"}", b"[", b"]", b"\\", b";"):
            out.append(chr(cp))
    return "".join(out)


@pytest.mark.parametrize("enc", ["gb18030", "big5"])
def test_second_bytes_that_look_like_structure(enc: str) -> None:
    chars = _trail_chars(enc)
    assert {c.encode(enc)[1:] for c in chars} >= {b"{", b"}", b"[", b"]", b"\\"}
    rnd = random.Random(enc)
    games = []
    for i in range(300):
        name = "".join(rnd.choice(chars) for _ in range(5))
        comment = "".join(rnd.choice(chars) for _ in range(3))
        games.append(f'[Event "{name}"]\n[Site "{comment}"]\n\n1. h2e2 {{{comment}}} h9g7 {name} *\n')
    data = "\n".join(games).encode(enc)
    got, want = _compare(data, enc)
    assert got == want and len(want) == 299


#: Pieces of PGN-like text: comment marks, tag lines plain and not, blank lines, CJK, escapes.
_PIECES = ['[Event "x"]', '[Event "{"]', '[Event "a;b"]', '[Ev x]', ' [Site "y"] ', '[Site "a"] x', '[Site "a" ]',
           '[%clk 1]', '[ Event "x"]', '[Event  "x"]\r', "{", "}", ";", "; c", "1. h2e2", "h9g7", "*", "%x", "炮二平五",
           "車", "\u3000", " ", "\t", "\r", "\n", "\n\n", "\n \n", '"', "]", "[", "\\", "\x1c"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=60), st.sampled_from(["utf-8", "gb18030", "big5"]),
       st.booleans())
def test_generated_text(pieces: List[str], enc: str, in_comment: bool) -> None:
    text = "".join(pieces)
    try:
        data = text.encode(enc)
    except UnicodeEncodeError:
        data = text.replace("\u3000", " ").encode(enc, "replace")
    if not data.endswith(b"\n"):
        data += b"\n"
    _compare(data, enc, in_comment)


def test_other_encodings_and_undecided_text_are_left_to_python() -> None:
    assert pgn.game_starts_in_bytes(b'1. h2e2\n\n[Event "x"]\n', "latin-1") is None
    assert pgn.game_starts_in_bytes(b'1. h2e2\n\n[Event x {]\n', "utf-8") is None
    assert pgn.game_starts_in_bytes(b'1. h2e2\n\n[Event x]\n', "utf-8") == ([], False)  # not plain: left out
    assert pgn.game_starts_in_bytes(b'1. h2e2 {\n\n[Event "x"]\n', "utf-8") == ([], True)
    assert pgn.game_starts_in_bytes(b'1. h2e2 ; {\n\n[Event "x"]\n', "utf-8") == ([13], False)


def test_utf8_plain_is_what_the_decoder_takes_whole() -> None:
    """xq_utf8_plain (:func:`decodes_strictly` in UTF-8: the chunker's test that a block decodes as it is)
    agrees with Python's strict UTF-8 decoder and its U+FEFF check: on every code point (surrogates too), alone
    and after ASCII, and on random byte strings of lead, continuation and invalid bytes."""
    def _strict_utf8(data: bytes) -> bool:
        return decodes_strictly(data, "utf-8")

    def python(data: bytes) -> bool:
        try:
            return "\ufeff" not in data.decode("utf-8")
        except UnicodeDecodeError:
            return False

    for cp in range(0x110000):
        b = chr(cp).encode("utf-8", "surrogatepass")
        assert _strict_utf8(b) == python(b) and _strict_utf8(b"[Event x]" + b) == python(b), hex(cp)
    rnd = random.Random(5)
    pieces = [b"a", b"\n", b"\x80", b"\xbf", b"\xbb", b"\xc0", b"\xc1", b"\xc2", b"\xdf", b"\xe0", b"\xed", b"\xef",
              b"\xf0", b"\xf4", b"\xf5", b"\xff", b"\x8f", b"\x90", b"\x9f", b"\xa0", "炮".encode(), "😀".encode(),
              b"\xef\xbb\xbf", b"12345678", b"\xe1", b"\xe7", b"\xec", b"\xee"]
    for _ in range(100_000):
        data = b"".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 12)))
        assert _strict_utf8(data) == python(data), data


def test_lazy_blocks_read_as_decoded_ones() -> None:
    """TextLines(lazy=True) (strict UTF-8 blocks decoded when first asked) gives the same blocks as decoding
    each when read: text, lines, strictness, on clean, damaged, BOM'd and cut text."""
    import io

    from xiangqi._encoding import TextLines

    game = '[Event "炮"]\n\n1. 炮二平五 马８进７ *\n\n'.encode()
    inputs = [game * 500, game * 200 + b"\xff\xfe" + game * 200, game * 100 + b"\xef\xbb\xbf" + game * 300,
              game * 300 + "炮".encode()[:2] + b"\n" + game, b"x" * 300_000 + b"\n" + game * 10]
    for data in inputs:
        def blocks(lazy: bool) -> List[Tuple[int, int, bytes, bool, str, List[str]]]:
            tl = TextLines(io.BytesIO(data).read, block_size=4096, max_line=100_000, lazy=lazy)
            return [(b.offset, b.line, b.data, b.strict, b.text, b.lines) for b in tl.blocks()]
        assert blocks(True) == blocks(False)


@pytest.mark.parametrize("enc", sorted(DOUBLE_BYTE_ENCODINGS))
def test_decoding_pairs_is_each_pair_decoded_alone(enc: str) -> None:
    """The table the double-byte check reads (made from one decoding of every pair) marks exactly the pairs that
    the codec decodes alone, strictly, to one character other than U+FEFF."""
    want = bytearray(1 << 15)
    for lead in range(0x81, 0xFF):
        for trail in range(0x30, 0xFF):
            try:
                char = bytes((lead, trail)).decode(enc)
            except UnicodeDecodeError:
                continue
            want[(lead - 0x80) * 256 + trail] = len(char) == 1 and char != "\ufeff"
    assert decoding_pairs(enc) == bytes(want)
    assert sum(want) > 7000   # GB2312 has 7,445 characters, the others more


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["utf-8", "gb18030", "big5"]),
       st.lists(st.sampled_from(["炮二平五", "馬８進７", "車", "[", "\n", "a", "\ufeff", "€"]), max_size=12),
       st.binary(max_size=6))
def test_decodes_strictly_is_a_strict_decoding(enc: str, words: List[str], noise: bytes) -> None:
    """A block the C check calls strict decodes strictly without U+FEFF; pure ASCII always is; a block of
    characters the encoding has (no U+FEFF) is found so."""
    text = "".join(words)
    try:
        data = text.encode(enc)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
    for block in (data, noise + data, data + noise):
        if decodes_strictly(block, enc):
            assert "\ufeff" not in block.decode(enc)
    if "\ufeff" not in text and data == text.encode(enc, "ignore"):
        assert decodes_strictly(data, enc)


def test_count_lines_counts_as_bytes_count() -> None:
    """xq_count_lines (a block's line count, eight bytes at a time) against ``bytes.count``: every length around a
    word, every byte next to a newline (a carry between bytes would count a neighbour)."""
    from xiangqi._ffi import count_lines

    rnd = random.Random(3)
    for n in range(40):
        for _ in range(20):
            data = bytes(rnd.choice(b"\n\n\x0a\x8a\x0b\x09\x00\xff\x7f\x80a") for _ in range(n))
            assert count_lines(data) == data.count(b"\n"), data
    data = bytes(range(256)) * 300 + b"\n" * 77
    assert count_lines(data) == data.count(b"\n") and count_lines(b"") == 0
