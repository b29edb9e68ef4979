"""Text encodings of game records: detection by content and line-wise decoding.

Xiangqi records come as UTF-8 (with or without a byte-order mark), as
GB2312/GBK/GB18030 (the xqbase tools, XQStudio) or as Big5 (Taiwanese
collections such as CCPD). This module guesses which by looking at the bytes,
and decodes a binary stream line by line so that a reader never has to hold a
whole file in memory.

Splitting bytes on ``b"\\n"`` before decoding is safe for every encoding here:
in GBK, GB18030 and Big5 the byte 0x0A never occurs inside a multi-byte
character (trail bytes are 0x30–0x39 or ≥ 0x40). UTF-16 is recognised by its
byte-order mark only, and is decoded whole.

The GB-versus-Big5 decision is statistical: most GBK text also decodes as Big5
(and the other way round) into valid but unusual characters, so each candidate
decoding is scored by how many of its characters are common Chinese characters
(GB2312 level 1 plus the Big5 frequently-used block, i.e. both simplified and
traditional) and how many xiangqi words it contains, minus a heavy penalty for
each undecodable byte.
"""

from __future__ import annotations

import codecs
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Optional

__all__ = ["detect_encoding", "decode_bytes", "LineDecoder", "iter_decoded_lines", "iter_text_lines"]

#: Encodings tried for non-UTF-8 text, in order of preference on a tie.
_CANDIDATES = ("gb18030", "big5")

#: Characters that make up xiangqi records, simplified and traditional.
_XIANGQI_CHARS = (
    "车马炮兵卒进退平将帅士仕象相前后中红黑胜负和局先手对第届杯赛"
    "車馬砲包俥傌進後將帥紅勝負對屆盃賽"
    "一二三四五六七八九１２３４５６７８９"
)

#: How many bytes of a stream are inspected before the encoding is chosen.
SNIFF_BYTES = 1 << 16


@lru_cache(maxsize=1)
def _common_chars() -> frozenset[str]:
    """GB2312 level-1 hanzi plus the Big5 frequently-used block (~7,000 characters)."""
    chars: set[str] = set()
    for lead in range(0xB0, 0xD8):
        for trail in range(0xA1, 0xFF):
            try:
                chars.add(bytes((lead, trail)).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    for lead in range(0xA4, 0xC7):
        for trail in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
            try:
                chars.add(bytes((lead, trail)).decode("big5"))
            except UnicodeDecodeError:
                pass
    chars.update(_XIANGQI_CHARS)
    return frozenset(chars)


_XIANGQI_SET = frozenset(_XIANGQI_CHARS)


def _score(text: str, errors: int) -> float:
    """How plausible ``text`` is as Chinese: common characters count, oddities cost."""
    common = _common_chars()
    score = -10.0 * errors
    for ch in text:
        if ch < "\x80":
            continue
        if ch in _XIANGQI_SET:
            score += 3.0
        elif ch in common:
            score += 1.0
        elif "\ue000" <= ch <= "\uf8ff" or ch == "\ufffd":  # private use, replacement
            score -= 5.0
        else:
            score -= 1.0
    return score


def _strict_utf8_prefix(data: bytes) -> bool:
    """Whether ``data`` is valid UTF-8, allowing it to stop inside a character."""
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(data, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _mostly_utf8(data: bytes) -> bool:
    """Whether most lines with non-ASCII bytes are valid UTF-8 (a UTF-8 file with a few foreign lines)."""
    good = bad = 0
    lines = data.split(b"\n")
    for i, line in enumerate(lines):
        if line.isascii():
            continue
        ok = _strict_utf8_prefix(line) if i == len(lines) - 1 else _is_utf8(line)
        if ok:
            good += 1
        else:
            bad += 1
    return good > 0 and good >= bad


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def detect_encoding(data: bytes) -> str:
    """The encoding of a sample of a record file, as a Python codec name.

    Returns ``"utf-8-sig"`` for a UTF-8 byte-order mark, ``"utf-16"`` for a
    UTF-16 one, ``"utf-8"`` for text that is valid UTF-8 (plain ASCII included),
    else the better scoring of ``"gb18030"`` and ``"big5"``.

    >>> detect_encoding("車九平八".encode("big5")), detect_encoding("车九平八".encode("gbk"))
    ('big5', 'gb18030')
    >>> detect_encoding(b"1. h2e2 h9g7")
    'utf-8'
    """
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if _strict_utf8_prefix(data) or _mostly_utf8(data):
        return "utf-8"
    best = _CANDIDATES[0]
    best_score = float("-inf")
    for enc in _CANDIDATES:
        decoder = codecs.getincrementaldecoder(enc)("replace")
        text = decoder.decode(data, final=False)
        errors = text.count("\ufffd")
        s = _score(text, errors)
        if s > best_score:
            best, best_score = enc, s
    return best


def decode_bytes(data: bytes, encoding: Optional[str] = None) -> str:
    """Decode a whole record file, detecting the encoding unless one is given.

    Undecodable bytes become U+FFFD rather than raising: a record is never
    thrown away for one bad byte.
    """
    enc = encoding or detect_encoding(data[:SNIFF_BYTES])
    return data.decode(enc, "replace")


class LineDecoder:
    """Decodes the lines of one byte stream, keeping the encoding it settled on.

    The first line that is not plain ASCII (or the sample given to the
    constructor) decides the encoding. A later line that does not decode
    strictly is re-detected on its own; if nothing decodes it strictly it is
    decoded with replacement characters.
    """

    __slots__ = ("encoding", "decided")

    def __init__(self, sample: bytes = b"", encoding: Optional[str] = None) -> None:
        if encoding is not None:
            self.encoding = encoding
            self.decided = True
        elif sample and not sample.isascii():
            self.encoding = detect_encoding(sample)
            self.decided = True
        else:
            self.encoding = "utf-8"
            self.decided = False
        if self.encoding == "utf-8-sig":
            self.encoding = "utf-8"  # the BOM is stripped from the first line by the caller

    def decode(self, line: bytes) -> str:
        """Decode one line (its ``\\n`` included or not)."""
        try:
            return line.decode(self.encoding)
        except UnicodeDecodeError:
            pass
        enc = detect_encoding(line)
        if not self.decided:
            self.encoding = "utf-8" if enc == "utf-8-sig" else enc
            self.decided = True
        try:
            return line.decode(enc)
        except UnicodeDecodeError:
            return line.decode(self.encoding, "replace")


def iter_decoded_lines(lines: Iterable[bytes], sample: bytes = b"",
                       encoding: Optional[str] = None) -> Iterator[str]:
    """Decode an iterable of byte lines (e.g. a binary file) into text lines.

    ``sample`` is the beginning of the stream, used to pick the encoding;
    a UTF-8 byte-order mark at the start of the first line is dropped.
    """
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or encoding in ("utf-16", "utf-16-le",
                                                                                     "utf-16-be"):
        # UTF-16 cannot be split on b"\n"; such files are small, decode them whole.
        text = b"".join(lines).decode(encoding or "utf-16", "replace")
        yield from text.splitlines(keepends=True)
        return
    decoder = LineDecoder(sample, encoding)
    first = True
    for raw in lines:
        if first:
            first = False
            if raw.startswith(codecs.BOM_UTF8):
                raw = raw[3:]
        yield decoder.decode(raw)


#: Bytes read from a stream at a time once the encoding is known.
BLOCK_BYTES = 1 << 18


def _byte_lines(data: bytes, read: "Callable[[int], bytes]", block_size: int) -> Iterator[bytes]:
    """The lines (without ``\n``) of ``data`` followed by the rest of a stream."""
    pending = data
    while True:
        parts = pending.split(b"\n")
        pending = parts.pop()
        yield from parts
        more = read(block_size)
        if not more:
            break
        pending += more
    if pending:
        yield pending


def iter_text_lines(read: "Callable[[int], bytes]", encoding: Optional[str] = None,
                    block_size: int = BLOCK_BYTES) -> Iterator[str]:
    """The text lines (without ``\n``; a ``\r`` may remain) of a binary stream.

    ``read`` is the stream's ``read`` method. The first :data:`SNIFF_BYTES`
    choose the encoding (unless ``encoding`` is given); the rest is decoded a
    block at a time. If a block does not decode strictly, the stream is
    decoded line by line from there on, each line re-detected as needed
    (:class:`LineDecoder`), so one odd line never costs the others.
    """
    first = read(SNIFF_BYTES)
    if not first:
        return
    enc = encoding or detect_encoding(first)
    if enc.replace("_", "-").lower() in ("utf-16", "utf-16-le", "utf-16-be", "utf-32"):
        data = first + b"".join(iter(lambda: read(block_size), b""))
        text = data.decode(enc, "replace").lstrip("\ufeff")
        yield from text.replace("\r\n", "\n").split("\n")
        return
    if first.startswith(codecs.BOM_UTF8):
        first = first[3:]
    if enc == "utf-8-sig":
        enc = "utf-8"
    line_decoder = LineDecoder(encoding=enc)
    decoder = codecs.getincrementaldecoder(enc)("strict")
    leftover = ""
    block: bytes = first
    while True:
        buffered = decoder.getstate()[0]
        try:
            text = decoder.decode(block, not block)
        except UnicodeDecodeError:
            yielded = False
            for raw in _byte_lines(buffered + block, read, block_size):
                line = line_decoder.decode(raw)
                if not yielded:
                    line = leftover + line
                    yielded = True
                yield line
            if not yielded and leftover:
                yield leftover
            return
        if not block:
            if leftover or text:
                yield leftover + text
            return
        parts = (leftover + text).split("\n")
        leftover = parts.pop()
        yield from parts
        block = read(block_size)
