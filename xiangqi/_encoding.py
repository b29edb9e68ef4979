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
import itertools
import re
from functools import lru_cache
from typing import Callable, Dict, Iterator, List, Optional, Union

from xiangqi import _ffi
from xiangqi._ffi.scan import double_byte_plain

__all__ = ["detect_encoding", "LineDecoder", "TextBlock", "TextLines", "iter_text_lines", "lone_cr_as_lf",
           "SNIFF_BYTES", "BLOCK_BYTES", "WIDE_ENCODINGS"]

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
    """GB2312 level-1 hanzi plus the Big5 frequently-used block (~7,000 characters): the pairs of those ranges
    that decode, each pair decoded alone (:func:`_pairs_decoded`)."""
    chars: set[str] = set()
    chars.update(_pairs_decoded("gb2312", range(0xB0, 0xD8), bytes(range(0xA1, 0xFF))))
    chars.update(_pairs_decoded("big5", range(0xA4, 0xC7), bytes([*range(0x40, 0x7F), *range(0xA1, 0xFF)])))
    chars.discard("\ufffd")   # the pairs that do not decode
    chars.update(_XIANGQI_CHARS)
    return frozenset(chars)


def _pairs_decoded(encoding: str, leads: range, trails: bytes) -> List[str]:
    """Each pair of a lead byte of ``leads`` and a trail byte of ``trails`` (lead-major) as ``encoding`` decodes it
    alone, or ``"\ufffd"`` where it does not: one decoding of all of them, each pair followed by ``\n`` (a failing
    pair's bytes replaced by U+FFFD, which no pair decodes to).

    >>> _pairs_decoded("big5", range(0xA4, 0xA5), b"\\x40\\x41")
    ['一', '乙']
    """
    n, width = len(leads) * len(trails), len(trails)
    raw = bytearray(3 * n)
    raw[0::3] = b"".join(bytes((lead,)) * width for lead in leads)
    raw[1::3] = trails * len(leads)
    raw[2::3] = b"\n" * n
    pieces = raw.decode(encoding, "replace").split("\n")
    pieces.pop()
    if len(pieces) != n:   # a replacement took a "\n" along: no codec here does
        raise ValueError(f"the pairs of {encoding} do not decode apart")
    return ["\ufffd" if "\ufffd" in piece else piece for piece in pieces]


_XIANGQI_SET = frozenset(_XIANGQI_CHARS)


@lru_cache(maxsize=1)
def _char_scores() -> Dict[str, int]:
    """What each character adds to :func:`_score` where it is not the default -1: ASCII 0, a xiangqi character
    3, another common character 1, a private-use character or U+FFFD -5 (the first that applies, in that order)."""
    scores = {chr(c): -5 for c in range(0xE000, 0xF900)}   # private use
    scores["\ufffd"] = -5                                   # replacement
    scores.update(dict.fromkeys(_common_chars(), 1))
    scores.update(dict.fromkeys(_XIANGQI_SET, 3))
    scores.update(dict.fromkeys(map(chr, range(0x80)), 0))
    return scores


def _score(text: str, errors: int) -> float:
    """How plausible ``text`` is as Chinese: common characters count, oddities cost (:func:`_char_scores`, every
    other non-ASCII character -1), each undecodable byte -10. One look-up a character, in C (``map``)."""
    return -10.0 * errors + sum(map(_char_scores().get, text, itertools.repeat(-1)))


def _strict_utf8_prefix(data: bytes) -> bool:
    """Whether ``data`` is valid UTF-8, allowing it to stop inside a character."""
    try:
        codecs.getincrementaldecoder("utf-8")("strict").decode(data, final=False)
    except UnicodeDecodeError:
        return False
    return True


#: The start of a line holding a character other than ASCII (up to the first; one match a line).
_WIDE_LINE = re.compile("^[^\n]*?[^\x00-\x7f]", re.MULTILINE)
#: The start of a line holding a byte that is not UTF-8, as ``surrogateescape`` decodes it (valid UTF-8 never
#: decodes to U+DC80-U+DCFF).
_BAD_LINE = re.compile("^[^\n]*?[\udc80-\udcff]", re.MULTILINE)


def _mostly_utf8(data: bytes) -> bool:
    """Whether most lines with non-ASCII bytes are valid UTF-8 (a UTF-8 file with a few foreign lines; the last
    line may stop inside a character). The lines but the last are decoded at once, each byte that is not UTF-8
    escaped (``surrogateescape``: an escape stops at the line end, ``\n`` being ASCII), then the lines holding an
    escape counted apart from the other non-ASCII ones."""
    cut = data.rfind(b"\n") + 1
    head = data[:cut].decode("utf-8", "surrogateescape")
    wide = len(_WIDE_LINE.findall(head))
    bad = len(_BAD_LINE.findall(head)) if wide else 0
    good = wide - bad
    last = data[cut:]
    if not last.isascii():
        if _strict_utf8_prefix(last):
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

    Returns ``"utf-8-sig"`` for a UTF-8 byte-order mark, ``"utf-32"`` or
    ``"utf-16"`` for theirs, ``"utf-8"`` for text that is valid UTF-8 (plain
    ASCII included, or most non-ASCII lines UTF-8), else the better scoring of
    ``"gb18030"`` and ``"big5"`` -- unless neither reads like Chinese text (a
    stray Latin-1 byte in ASCII text): that is UTF-8 with a damaged byte.

    >>> detect_encoding("車九平八".encode("big5")), detect_encoding("车九平八".encode("gbk"))
    ('big5', 'gb18030')
    >>> detect_encoding(b"1. h2e2 h9g7")
    'utf-8'
    """
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32"
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
    return best if best_score > 0 else "utf-8"


#: Encodings decoded whole (they cannot be split on ``b"\n"``; such files are small).
WIDE_ENCODINGS = ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be")


def _damaged_utf8(line: bytes) -> Optional[str]:
    """``line`` decoded as UTF-8 with replacement characters when it is UTF-8 with a few damaged bytes
    (more well-formed non-ASCII characters than bad bytes), else ``None``."""
    text = line.decode("utf-8", "replace")
    bad = text.count("\ufffd")
    wide = sum(1 for ch in text if ch >= "\x80") - bad
    return text if wide >= 2 * bad else None


class LineDecoder:
    """One file's encoding policy, applied a line at a time (the same answer for a line wherever it is read).

    A line is decoded in the file's ``encoding`` when it decodes strictly.
    Otherwise: a line that is valid UTF-8 is UTF-8; a UTF-8 line with a
    few damaged bytes (more good non-ASCII characters than bad bytes) is
    UTF-8 with U+FFFD in place of the damage, so only the damaged token is
    lost; any other line is re-detected on its own (a GBK game inside a UTF-8
    file) and, if nothing decodes it strictly, decoded in the file's encoding
    with replacement characters. U+FEFF (a byte-order mark left by
    concatenating files) is dropped wherever it occurs.
    """

    __slots__ = ("encoding",)

    def __init__(self, sample: bytes = b"", encoding: Optional[str] = None) -> None:
        enc = encoding or (detect_encoding(sample) if sample else "utf-8")
        self.encoding = "utf-8" if enc == "utf-8-sig" else enc

    def decode(self, line: bytes) -> str:
        """Decode one line (its ``\\n`` included or not)."""
        try:
            text = line.decode(self.encoding)
        except UnicodeDecodeError:
            text = self._fallback(line)
        return text.replace("\ufeff", "") if "\ufeff" in text else text

    def _fallback(self, line: bytes) -> str:
        if self.encoding != "utf-8" and _is_utf8(line):
            return line.decode("utf-8")
        if self.encoding == "utf-8":
            damaged = _damaged_utf8(line)
            if damaged is not None:
                return damaged
        enc = detect_encoding(line)
        if enc not in ("utf-8", "utf-8-sig", self.encoding):
            try:
                return line.decode(enc)
            except UnicodeDecodeError:
                pass
        return line.decode(self.encoding, "replace")

    def decode_block(self, data: bytes) -> List[str]:
        """The lines of ``data`` (whole lines; no ``\\n`` kept, none after a last ``\\n``), each decoded as
        :meth:`decode` decodes it (a block that decodes strictly is decoded at once)."""
        return self.decode_lines(data)[0]

    def decode_text(self, data: bytes) -> "tuple[Optional[List[str]], bool, Optional[str]]":
        """:meth:`decode_lines`, but for ``data`` that decodes strictly in one piece the lines are not split:
        ``(None, True, text)`` (:class:`TextBlock` splits them when they are asked for)."""
        try:
            text = data.decode(self.encoding)
        except UnicodeDecodeError:
            return self.decode_lines(data)
        if "\ufeff" in text:
            return self.decode_lines(data)
        return None, True, text[:-1] if data.endswith(b"\n") else text

    def decode_lines(self, data: bytes) -> "tuple[List[str], bool, Optional[str]]":
        """:meth:`decode_block`, whether ``data`` decoded strictly in one piece (nothing replaced), and then
        the lines joined by ``\\n`` (else ``None``)."""
        strict = True
        joined: Optional[str] = None
        try:
            text = data.decode(self.encoding)
        except UnicodeDecodeError:
            lines = [self.decode(raw) for raw in data.split(b"\n")]
            strict = False
        else:
            if "\ufeff" in text:
                text = text.replace("\ufeff", "")
                strict = False
            lines = text.split("\n")
            if strict:
                joined = text[:-1] if data.endswith(b"\n") else text
        if data.endswith(b"\n"):
            lines.pop()
        return lines, strict, joined


#: Bytes read from a stream at a time once the encoding is known.
BLOCK_BYTES = 1 << 18
#: The longest line :class:`TextLines` reads by default (in bytes): a longer line is cut there, wherever the
#: read blocks end, the rest of it skipped without being kept, and the cut recorded
#: (:attr:`TextLines.long_lines`), so that one endless line costs time in proportion to its length and memory
#: in proportion to this limit and the read block.
MAX_LINE_BYTES = 1 << 20


class TextBlock:
    """Whole lines of a byte stream: ``data`` (bytes, from byte ``offset`` of the stream), ``lines`` (the
    decoded lines, without ``\\n``), ``line`` (the 0-based number of the first of them in the stream) and
    ``strict`` (the lines are ``data`` decoded strictly in one piece, nothing replaced or dropped; a strict
    UTF-8 block may be decoded only when its text or lines are first asked for). ``raw`` is the stream's bytes
    where ``data`` holds a line cut at the longest line read (else ``None``): where its lines begin."""

    __slots__ = ("offset", "line", "data", "_lines", "strict", "_text", "_count", "_encoding", "raw")

    def __init__(self, offset: int, line: int, data: bytes, lines: Optional[List[str]], strict: bool = False,
                 text: Optional[str] = None, encoding: str = "utf-8") -> None:
        self.offset = offset
        self.line = line
        self.data = data
        self._lines = lines   # None: split from the text when first asked for (a reader that only scans
        self.strict = strict  # the bytes never pays for it)
        self._text = text
        self._count = -1
        self._encoding = encoding   # what a strict block not decoded when read decodes with
        self.raw: Optional[bytes] = None

    @property
    def lines(self) -> List[str]:
        """The decoded lines, without ``\\n``."""
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines

    @property
    def line_count(self) -> int:
        """How many lines the block holds (without splitting them)."""
        if self._lines is not None:
            return len(self._lines)
        if self._count < 0:
            self._count = _ffi.count_lines(self.data) + (0 if self.data.endswith(b"\n") else 1)
        return self._count

    @property
    def text(self) -> str:
        """The lines joined by ``\\n`` (without a last one)."""
        if self._text is None:
            if self._lines is None:   # strict, not decoded when read (TextLines with lazy=True or strict=True)
                data = self.data
                self._text = (data[:-1] if data.endswith(b"\n") else data).decode(self._encoding)
            else:
                self._text = "\n".join(self._lines)
        return self._text


#: The double-byte encodings (lead byte 0x81-0xFE) whose bytes the C core checks against a table of pairs.
DOUBLE_BYTE_ENCODINGS = frozenset(("gb18030", "gbk", "gb2312", "cp936", "big5", "cp950", "big5hkscs"))

_PAIRS: Dict[str, bytes] = {}


def decoding_pairs(encoding: str) -> Optional[bytes]:
    """For an encoding of :data:`DOUBLE_BYTE_ENCODINGS`, the table ``xq_double_byte_plain`` reads (32,768 bytes,
    ``[(lead - 0x80) * 256 + trail]``): which pairs of a lead byte 0x81-0xFE and a trail byte 0x30-0xFE decode
    strictly to one character other than U+FEFF, each pair as the codec decodes it alone; ``None`` for another
    encoding. Made once per encoding, from one decoding of every pair (each followed by ``\n``, a failing
    pair's bytes replaced by U+FFFD).

    >>> table = decoding_pairs("gb18030")
    >>> table[(0xB0 - 0x80) * 256 + 0xA1], table[(0x81 - 0x80) * 256 + 0x30], decoding_pairs("utf-8")
    (1, 0, None)
    """
    encoding = encoding.replace("_", "-").lower()
    if encoding not in DOUBLE_BYTE_ENCODINGS:
        return None
    table = _PAIRS.get(encoding)
    if table is None:
        leads, trails = range(0x81, 0xFF), bytes(range(0x30, 0xFF))
        width = len(trails)
        pieces = _pairs_decoded(encoding, leads, trails)
        one = bytes(len(piece) == 1 and piece not in "\ufffd\ufeff" for piece in pieces)
        made = bytearray(1 << 15)
        for k, lead in enumerate(leads):
            at = (lead - 0x80) * 256 + 0x30
            made[at:at + width] = one[k * width:(k + 1) * width]
        table = _PAIRS[encoding] = bytes(made)
    return table


def decodes_strictly(data: bytes, encoding: str) -> bool:
    """Whether ``data`` is known to decode strictly in ``encoding`` and to hold no U+FEFF (what
    :meth:`LineDecoder.decode_text` takes whole), found without decoding it: ASCII, or checked by the C core in
    UTF-8 and in the double-byte encodings (against :func:`decoding_pairs`); ``False`` where it is not known.

    >>> decodes_strictly("炮二平五".encode("big5"), "big5"), decodes_strictly(b"\\xef\\xbb\\xbf1.", "utf-8")
    (True, False)
    """
    if data.isascii():
        return True
    if encoding == "utf-8":
        return _ffi.utf8_plain(data)
    pairs = decoding_pairs(encoding)
    return pairs is not None and double_byte_plain(data, pairs)


def _has_line_over(data: bytes, limit: int) -> bool:
    """Whether a line of ``data`` (split on ``\\n``) is longer than ``limit`` bytes: one search of the last
    ``\\n`` per window of ``limit + 1`` bytes, so a block is walked in a few steps, not a line at a time."""
    pos, n = 0, len(data)
    while n - pos > limit:
        nl = data.rfind(b"\n", pos, pos + limit + 1)
        if nl < 0:
            return True
        pos = nl + 1
    return False


#: A carriage return that no line feed follows: a line end of its own.
_BARE_CR = re.compile(rb"\r(?!\n)")


def lone_cr_as_lf(data: bytes) -> bytes:
    """``data`` with each carriage return that no line feed follows made a line feed (the same length): a lone CR
    ends a line in every reading of bytes (a file may join games with different line ends). ``data`` holds whole
    lines, or its last CR is known to be followed by what follows it in ``data``.

    >>> lone_cr_as_lf(b"a\\rb\\r\\nc\\n")
    b'a\\nb\\r\\nc\\n'
    """
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return _BARE_CR.sub(b"\n", data)
    return data


class TextLines:
    """The text lines of a binary stream (``read``: its ``read`` method), read and decoded a block at a time.

    The first :data:`SNIFF_BYTES` choose the encoding (unless ``encoding`` is
    given, :func:`detect_encoding`); every line is then decoded by one
    :class:`LineDecoder`. A stream whose first bytes hold ``\\r`` and no
    ``\\n`` has old Mac line endings, read as ``\\n`` (elsewhere a ``\\r``
    before ``\\n`` stays at the end of its line, and a ``\\r`` alone ends a
    line: a file may join games with different line ends). Blocks always end at a line
    end, so each :class:`TextBlock` knows the byte offset of its lines: a
    worker given ``(offset, length)`` of whole lines reads exactly these lines
    again. UTF-16 and UTF-32 are decoded whole (one block without offsets).
    Lines are split on ``\\n`` only (never inside a GBK, GB18030 or Big5
    character: their trail bytes are never 0x0A), and a long line costs
    linear time: the bytes of an unfinished line are not searched again.
    A line longer than ``max_line`` bytes is cut there whatever the block
    size (:data:`MAX_LINE_BYTES`); the numbers of the lines cut are in
    :attr:`long_lines`, and a block holding a cut line has the kept bytes
    as its ``data``.
    """

    def __init__(self, read: "Callable[[int], bytes]", encoding: Optional[str] = None,
                 block_size: int = BLOCK_BYTES, *, cr: Optional[bool] = None,
                 max_line: int = MAX_LINE_BYTES, lazy: bool = False, strict: bool = False,
                 errors: str = "replace") -> None:
        self._read = read
        # Blocks known to decode strictly (:func:`decodes_strictly`, without decoding them) are decoded only when their
        # text is asked for: a chunker that reads only the bytes never pays for it. With ``strict`` the bytes are
        # known to decode strictly in ``encoding`` without U+FEFF (they did when the file was read): every
        # block is taken as such, decoded only when its text is asked for.
        self._lazy = lazy
        self._strict = strict
        #: ``"strict"``: a block that does not decode strictly raises :exc:`UnicodeDecodeError`, as a text file's
        #: layer with ``errors="strict"`` does (its bytes read by the PGN reader); else the policy of
        #: :class:`LineDecoder`.
        self.errors = errors
        self.max_line = max_line
        #: The 1-based numbers of the lines cut at :attr:`max_line` bytes, as they are read.
        self.long_lines: List[int] = []
        self._first = read(SNIFF_BYTES)
        enc = encoding or (detect_encoding(self._first) if self._first else "utf-8")
        self.encoding = "utf-8" if enc == "utf-8-sig" else enc
        #: Whether lines end in a bare ``\r`` (decided from the first bytes unless given).
        self.cr = (b"\r" in self._first and b"\n" not in self._first) if cr is None else cr
        self.block_size = block_size
        self.decoder = LineDecoder(encoding=self.encoding)

    @property
    def whole(self) -> bool:
        """Whether the encoding is decoded whole (UTF-16, UTF-32): no line offsets."""
        return self.encoding.replace("_", "-").lower() in WIDE_ENCODINGS

    def blocks(self) -> Iterator[TextBlock]:
        """The stream's blocks of whole lines, in order."""
        read, size = self._read, self.block_size
        block, self._first = self._first, b""
        if self.whole:
            data = block + b"".join(iter(lambda: read(size), b""))
            text = data.decode(self.encoding, "replace").replace("\ufeff", "")
            lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            if lines and not lines[-1]:
                lines.pop()
            if data:
                yield TextBlock(0, 0, data, lines)
            return
        cr, decode = self.cr, self.decoder.decode_lines
        lazy = self._lazy
        known = self._strict
        carry: List[Union[bytes, memoryview]] = []   # an unfinished line's bytes
        held = 0                  # their length
        skipped = -1              # within a line cut at max_line: the bytes of it skipped so far (else -1)
        offset = line = 0
        while True:
            if not block:
                if carry:
                    data = b"".join(carry)
                    if skipped < 0 and len(data) > self.max_line:   # a last line without "\n", too long
                        data = self._cut_within(data, line)
                    if self.errors == "strict":
                        data.decode(self.encoding)
                    yield TextBlock(offset, line, data, *decode(data))
                return
            if cr:
                block = block.replace(b"\r", b"\n")
            elif b"\r" in block:
                if block[-1] == 0x0D:       # a CR that ends a read: whether LF follows is in the next one
                    block += read(1)
                # A bare CR ends its line here too: a file whose first lines end in CR LF or LF and later
                # ones in CR alone (games joined from several sources) kept those later lines as one.
                block = lone_cr_as_lf(block)
            if skipped >= 0:
                nl = block.find(b"\n")
                if nl < 0:
                    skipped += len(block)
                    block = read(size)
                    continue
                # The cut line ends here: it is a block of its own (the offsets after it count what was skipped).
                kept = b"".join(carry)
                data = kept + b"\n"
                yield TextBlock(offset, line, data, decode(data)[0][:1] or [""])
                offset += len(kept) + skipped + nl + 1
                line += 1
                carry, held, skipped = [], 0, -1
                block = block[nl + 1:]
                if not block:
                    block = read(size)
                continue
            k = block.rfind(b"\n") + 1
            if not k:
                carry.append(block)
                held += len(block)
                if held > self.max_line:
                    data = b"".join(carry)
                    cut = self._cut(data)
                    carry, held, skipped = [data[:cut]], cut, len(data) - cut
                    self.long_lines.append(line + 1)
                block = read(size)
                continue
            if carry and held + block.find(b"\n") > self.max_line:
                # An unfinished line ends in this block, too long: cut, a block of its own.
                nl = block.find(b"\n")
                data = b"".join(carry) + block[:nl]
                kept = data[:self._cut(data)] + b"\n"
                self.long_lines.append(line + 1)
                yield TextBlock(offset, line, kept, decode(kept)[0][:1] or [""])
                offset += len(data) + 1
                line += 1
                carry, held = [], 0
                block = block[nl + 1:]
                if not block:
                    block = read(size)
                continue
            if carry:
                carry.append(memoryview(block)[:k])   # a view: the join is the one copy
                data = b"".join(carry)
            else:
                data = block[:k]
            carry = [block[k:]] if k < len(block) else []
            held = len(block) - k
            used = len(data)   # the stream's bytes this block takes (its data may be cut shorter below)
            raw: Optional[bytes] = None
            # A line over max_line that lies within this block is cut too (the usual block is not split again).
            if used > self.max_line and _has_line_over(data, self.max_line):
                raw, data = data, self._cut_within(data, line)
            if known:
                text_block = TextBlock(offset, line, data, None, True, None, self.encoding)
            elif lazy and decodes_strictly(data, self.encoding):
                text_block = TextBlock(offset, line, data, None, True, None, self.encoding)
            else:
                if self.errors == "strict":
                    data.decode(self.encoding)   # raises where the bytes do not decode
                text_block = TextBlock(offset, line, data, *self.decoder.decode_text(data))
            text_block.raw = raw
            yield text_block
            offset += used
            line += text_block.line_count
            block = read(size)

    def _cut_within(self, data: bytes, line: int) -> bytes:
        """``data`` (whole lines from line ``line``, 0-based) with each line longer than :attr:`max_line` cut
        there (:meth:`_cut`) and recorded in :attr:`long_lines`."""
        parts = data.split(b"\n")
        for i, part in enumerate(parts):
            if len(part) > self.max_line:
                parts[i] = part[:self._cut(part)]
                self.long_lines.append(line + i + 1)
        return b"\n".join(parts)

    def _cut(self, data: bytes) -> int:
        """Where a line's bytes ``data`` (longer than :attr:`max_line`) are cut: at :attr:`max_line`, back to a
        character start in UTF-8 (other encodings' decoders replace a cut character)."""
        cut = self.max_line
        while cut > 0 and self.encoding == "utf-8" and 0x80 <= data[cut] < 0xC0:
            cut -= 1
        return cut

    def __iter__(self) -> Iterator[str]:
        for block in self.blocks():
            yield from block.lines


def iter_text_lines(read: "Callable[[int], bytes]", encoding: Optional[str] = None,
                    block_size: int = BLOCK_BYTES) -> Iterator[str]:
    """The text lines (without ``\\n``; a ``\\r`` may remain) of a binary stream: :class:`TextLines`."""
    return iter(TextLines(read, encoding, block_size))
