"""Splitting PGN text into games: one splitter, the blocks of a file cut where a game surely begins (the C scan of
their bytes, :func:`game_starts_in_bytes`, or :func:`game_starts` of text that is not plain), the games of the common
form made from their bytes (the C check ``xq_pgn_plain_games``) and the text between them read by the line loop
(:func:`split_games` of a line stream, the reference for every structure). Each game may carry the byte offset where
the next one begins, for a reader that leaves a file there.

The public names are those of :mod:`xiangqi.pgn`, which re-exports them; this module is the PGN reader's own.
"""

from __future__ import annotations

import collections
import itertools
import re
from typing import Deque, Dict, Iterator, List, Optional, Tuple, Union

from xiangqi._encoding import TextBlock, TextLines
from xiangqi._ffi import scan as _scan
from xiangqi.errors import InvalidRecordError
from xiangqi.game import GameError

#: A tag line: ``[Name "value"]`` or ``[Name value]``. An unquoted value begins with no white space (the
#: ``\s+`` before it takes it all) and keeps the white space before ``]``: written so that no two parts can
#: match the same characters, so a failing line costs linear time (``[Resul`` and 800 spaces took 0.24 s).
TAG_RE = re.compile(r'\s*\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+(?:"(.*)"\s*|([^"\]\s][^"\]]*|))\]\s*$')
_GAME_START_RE = re.compile(r"\s*1\s*\.")
#: The start of a tag line, whatever follows (a damaged one when :data:`TAG_RE` does not match it).
_TAG_LIKE = re.compile(r"\s*\[\s*[A-Za-z][A-Za-z0-9_+#=:-]*\s+\S")
_RESULT_ENDINGS = ("1-0", "0-1", "1/2-1/2", "*", "½-½")


# The limits of a game's lines (documented where the reader exports them, in xiangqi.pgn).
MAX_LINE_BYTES = 1 << 16
MAX_GAME_CHARS = 1 << 18
MAX_COMMENT_CHARS = 1 << 17
#: Characters of a game over :data:`MAX_GAME_CHARS` read between two trims of the lines the splitter still
#: looks at (the last non-blank one and whether a blank one follows).
_TAIL_CHARS = 1 << 16


def _limit_error(reason: str, line: int) -> GameError:
    return GameError(0, "", reason, line, InvalidRecordError(reason))


def _tail(lines: List[str]) -> List[str]:
    """What the splitter needs of move-text lines no longer kept: the last non-blank one, then an empty line
    when a blank one follows it (:func:`_ends_with_result` and the damaged-tag check read only these)."""
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip():
            return [lines[i], ""] if i < len(lines) - 1 else [lines[i]]
    return [""] if lines else []


def _unescape(value: str) -> str:
    if "\\" in value:
        value = value.replace('\\"', '"').replace("\\\\", "\\")
    return value


class GameLines:
    """The lines of one game as :func:`split_games` cuts them: ``tags`` (name, value) in file order,
    ``tag_lines`` the line of each tag name, ``first_line`` the game's first line, and its move text as
    consecutive lines ``movetext`` from line ``movetext_start`` (lines are 1-based).

    ``overread`` is 0 when the chunker, on yielding the game, had read at most the next game's first line,
    else the number of lines it had read past the game's end (it looked ahead, see :func:`_comment_closes_later`).
    ``next_line`` is the line where the next game begins (the line after the last one at the end of the input),
    and ``end`` its byte offset in the stream when the splitter was asked for offsets (``-1`` otherwise, and at
    the end of the input: the stream's end). ``errors`` holds what is wrong with the lines themselves (a damaged
    tag line that began the game).

    >>> chunk = next(split_games('[Event "A"]\\n[Red "Hu"]\\n\\n1. h2e2 h9g7 1-0\\n'))
    >>> chunk.first_line, chunk.tags, chunk.movetext_start, chunk.errors
    (1, [('Event', 'A'), ('Red', 'Hu')], 4, [])
    """

    __slots__ = ("first_line", "_tags", "_tag_lines", "_head", "_lines", "_start", "overread", "errors", "_text",
                 "next_line", "end", "_src", "_k")

    def __init__(self, first_line: int) -> None:
        self.overread = 0
        self.next_line = 0
        self.end = -1
        self.errors: List[GameError] = []
        self.first_line = first_line
        self._tags: Optional[List[Tuple[str, str]]] = []
        self._tag_lines: Optional[Dict[str, int]] = {}
        self._head: Optional[str] = None       # the tag lines of a game of the common form, once decoded
        self._lines: Optional[List[str]] = []
        self._start = first_line
        self._text: Optional[str] = None
        #: A game of the common form: the block it is made from when asked, and its place there.
        self._src: Optional[_PlainBlock] = None
        self._k = 0

    @property
    def tags(self) -> List[Tuple[str, str]]:
        """The tags (name, value) in file order.

        >>> next(split_games('[Event "A"]\\n[Red "Hu"]\\n\\n1. h2e2 *\\n')).tags
        [('Event', 'A'), ('Red', 'Hu')]
        """
        if self._tags is None:
            assert self._src is not None
            self._tags = list(self._src.tag_pairs(self._k))   # the tag lines' numbers are worked out when asked
        return self._tags

    def tag_pairs(self) -> Iterator[Tuple[str, str]]:
        """:attr:`tags`, one at a time (of a game of the common form, without making the list).

        >>> dict(next(split_games('[Event "A"]\\n[Red "Hu"]\\n\\n1. h2e2 *\\n')).tag_pairs())
        {'Event': 'A', 'Red': 'Hu'}
        """
        if self._tags is None:
            assert self._src is not None
            return self._src.tag_pairs(self._k)
        return iter(self._tags)

    @property
    def tag_lines(self) -> Dict[str, int]:
        """The line of each tag name (of its last tag when a name comes twice).

        >>> next(split_games('[Event "A"]\\n[Red "Hu"]\\n[Event "B"]\\n\\n1. h2e2 *\\n')).tag_lines
        {'Event': 3, 'Red': 2}
        """
        if self._tag_lines is None:
            tags, first = self.tags, self.first_line
            self._tag_lines = dict(zip([name for name, _ in tags], range(first, first + len(tags))))
        return self._tag_lines

    def tag(self, name: str) -> Optional[str]:
        """The value of the last tag ``name`` (what ``dict(tags)`` holds), or ``None``; reading it alone
        costs a search of the tag lines, not the parsing of every tag.

        >>> chunk = next(split_games('[Event "A"]\\n[Red "Hu"]\\n\\n1. h2e2 *\\n'))
        >>> chunk.tag("Red"), chunk.tag("Black")
        ('Hu', None)
        """
        if self._tags is not None:
            return dict(self._tags).get(name)
        head = self._head
        if head is None:
            assert self._src is not None
            head = self._head = self._src.head(self._k)
        k = head.rfind(f'\n[{name} "') + 1
        if k == 0 and not head.startswith(f'[{name} "'):
            return None
        eol = head.find("\n", k)
        value = head[k + len(name) + 3:(len(head) if eol < 0 else eol) - 2]
        return _unescape(value) if "\\" in value else value

    @property
    def movetext_start(self) -> int:
        """The line of the first move-text line.

        >>> next(split_games('[Event "A"]\\n\\n\\n1. h2e2 *\\n')).movetext_start
        4
        """
        if self._start < 0:
            assert self._src is not None
            self._start = self._src.movetext_start(self._k, self.first_line)
        return self._start

    @movetext_start.setter
    def movetext_start(self, line: int) -> None:
        self._start = line

    @property
    def movetext(self) -> List[str]:
        """The move-text lines (split on first access for a game of the common form).

        >>> next(split_games('[Event "A"]\\n\\n1. h2e2 h9g7\\n2. h0g2 *\\n')).movetext
        ['1. h2e2 h9g7', '2. h0g2 *', '']
        """
        if self._lines is None:
            self._lines = self.movetext_text.split("\n")
        return self._lines

    @property
    def movetext_text(self) -> str:
        """The move-text lines joined by ``\\n``.

        >>> next(split_games('[Event "A"]\\n\\n1. h2e2 h9g7\\n2. h0g2 *\\n')).movetext_text
        '1. h2e2 h9g7\\n2. h0g2 *\\n'
        """
        if self._text is None:
            if self._src is None:
                return "\n".join(self.movetext)
            self._text = self._src.text(self._k)
        return self._text

    @property
    def movetext_lines(self) -> List[int]:
        """The file line of each move-text line.

        >>> next(split_games('[Event "A"]\\n\\n1. h2e2 h9g7\\n2. h0g2 *\\n')).movetext_lines
        [3, 4, 5]
        """
        return list(range(self.movetext_start, self.movetext_start + len(self.movetext)))


def _plain_game(src: _PlainBlock, k: int, first_line: int, next_line: int, end: int) -> GameLines:
    """Game ``k`` of ``src``, its lines from ``first_line`` up to ``next_line``, ``end`` the offset after it: what
    ``GameLines(first_line)`` and the settings of a game of the common form make, at half the cost (every slot
    set here)."""
    game: GameLines = object.__new__(GameLines)
    game.first_line, game.next_line, game.end = first_line, next_line, end
    game.overread, game.errors = 0, []
    game._tags = game._tag_lines = game._lines = game._head = game._text = None
    game._start, game._src, game._k = -1, src, k
    return game


class _PlainBlock:
    """The games of the common form (``xq_pgn_plain_games``) of one strictly decoded block of bytes, each made
    from them when asked: its tag lines, its move text, the line where that begins; the tags of all of them are
    parsed at once (:func:`plain_tag_words` of their tag lines joined), when one first asks. Game ``k`` is the
    one that ends at the block's ``k``-th game start (``starts``, and ``info`` as ``xq_pgn_plain_games`` gives
    it: where its tag lines end, -1 for a game not of the common form)."""

    __slots__ = ("data", "encoding", "starts", "info", "words", "at")

    def __init__(self, data: bytes, encoding: str, starts: List[int], info: List[int]) -> None:
        self.data = data
        self.encoding = encoding
        self.starts = starts
        self.info = info
        self.words: List[str] = []
        self.at: Optional[List[int]] = None   # where the tags of each game begin in words (and end, after it)

    def head(self, k: int) -> str:
        """The tag lines of game ``k``."""
        at = self.starts[k - 1] if k else 0
        return self.data[at:at + self.info[3 * k]].decode(self.encoding)

    def _body(self, k: int) -> int:
        """Where the move text of game ``k`` begins (after the blank lines that follow its tags)."""
        blank = _LEADING_BYTE_BLANKS.match(self.data, (self.starts[k - 1] if k else 0) + self.info[3 * k] + 1)
        assert blank is not None   # it matches the empty string
        return blank.end()

    def text(self, k: int) -> str:
        """The move text of game ``k``."""
        return self.data[self._body(k):self.starts[k] - 1].decode(self.encoding)

    def movetext_start(self, k: int, first_line: int) -> int:
        """The line where the move text of game ``k``, which begins at line ``first_line``, begins."""
        return first_line + self.data.count(b"\n", self.starts[k - 1] if k else 0, self._body(k))

    def tag_pairs(self, k: int) -> Iterator[Tuple[str, str]]:
        """The tags of game ``k``, (name, value) in file order."""
        at = self.at
        if at is None:
            at = self._parse()
        words = iter(self.words[at[2 * k]:at[2 * k + 1]])
        return zip(words, words)

    def _parse(self) -> List[int]:
        data, info = self.data, self.info
        heads: List[bytes] = []
        at: List[int] = []
        n = 0
        for k, cut in enumerate([0, *self.starts[:-1]]):
            end = info[3 * k]
            if end >= 0:
                head = data[cut:cut + end]
                heads.append(head)
                at += (n, n + 2 * head.count(b"\n") + 2)   # a tag a line: two words each
                n = at[-1]
            else:
                at += (n, n)
        self.words = plain_tag_words(b"\n".join(heads).decode(self.encoding))
        self.at = at
        return at


def plain_tag_words(heads: str) -> List[str]:
    """The tags of ``heads`` (the tag lines of one game or of many, joined by ``\\n``), flat: name, value, name,
    value, ... (no tuple per tag; one search for the literal ``"]\\n[`` between two tags): the one parser of
    plain tag lines (what the C check ``xq_pgn_plain_games`` accepts as a game's tag lines).

    >>> plain_tag_words('[Event "A"]\\n[Red "Hu \\\\"Rong\\\\" Hua"]\\n[Event "B ["]')
    ['Event', 'A', 'Red', 'Hu "Rong" Hua', 'Event', 'B [']
    """
    words = _PLAIN_TAG_SEP.split('"]\n' + heads)   # "", name, value, ..., name, value + '"]'
    del words[0]
    if words:
        words[-1] = words[-1][:-2]
    if "\\" in heads:
        words = [_unescape(word) for word in words]   # a name (letters and digits) is left as it is
    return words


def _ends_with_result(movetext: List[str]) -> bool:
    """Whether the last non-blank move-text line ends with a result token."""
    for line in reversed(movetext):
        s = line.rstrip()
        if s:
            return s.endswith(_RESULT_ENDINGS)
    return False


#: First characters of a move-text line that the chunker's inner loop leaves to its outer loop.
_SLOW_FIRST = frozenset((" ", "\t", "[", "%", "1"))


#: What stands between two values of plain tag lines: the end of a line, the next line's name (the values hold
#: no newline, so the literal ``"]\n[`` is found at the line ends alone).
_PLAIN_TAG_SEP = re.compile(r'"\]\n\[([A-Za-z0-9]+) "')
#: Blank lines at the start of a game's move text (one character class up to the last newline: see
#: :data:`_STRUCTURE`), and in bytes.
_LEADING_BLANKS = re.compile(r"(?:[ \t\r\x0b\x0c\n]*\n)?")
_LEADING_BYTE_BLANKS = re.compile(_LEADING_BLANKS.pattern.encode())


def _iter_lines(text: str, piece: int = 1 << 16) -> Iterator[str]:
    """``text.split("\n")``, split a piece of about ``piece`` characters at a time: a list of every line of
    a big text costs 8 bytes a line beside the text (50 MB for a run of six million blank lines)."""
    return itertools.chain.from_iterable(_line_pieces(text, piece))


def _line_pieces(text: str, piece: int) -> Iterator[List[str]]:
    pos = 0
    while True:
        cut = text.find("\n", pos + piece)
        if cut < 0:
            yield text[pos:].split("\n")
            return
        yield text[pos:cut].split("\n")
        pos = cut + 1


#: Text a splitter of blocks holds without a place where a game surely begins (bytes in the chunker, characters in
#: :func:`split_games`) before the rest of the file goes through the line loop, whose limits bound what it keeps of
#: a game without end: four of the longest games kept and a line.
HELD_MAX_BYTES = 4 * MAX_GAME_CHARS + MAX_LINE_BYTES
#: The bytes of the blocks :class:`_LineEnds` keeps to find where a game of the line loop ends: the line asked for
#: is at most the line loop's look-ahead (:data:`MAX_COMMENT_CHARS` characters and a line) behind the last block read.
_KEPT_BLOCK_BYTES = 4 * HELD_MAX_BYTES


class _LineEnds:
    """The byte offset where a line of a stream begins, for the games of the line loop: the blocks that hold
    the lines the line loop may still end a game at (from the one where the last game it ended ended), at
    most :data:`_KEPT_BLOCK_BYTES` of them."""

    __slots__ = ("base", "blocks", "size", "line", "at")

    def __init__(self, lineno: int) -> None:
        self.base = lineno + 1   # the number of the stream's first line
        self.blocks: Deque[TextBlock] = collections.deque()
        self.size = 0
        self.line = self.at = -1   # the last line found (its index in the stream) and its place in blocks[0]

    def add(self, block: TextBlock) -> TextBlock:
        """Keep ``block`` (the next of the stream), dropping the oldest blocks over the bytes kept."""
        self.blocks.append(block)
        self.size += len(block.data)
        while self.size > _KEPT_BLOCK_BYTES and len(self.blocks) > 1:
            self.size -= len(self.blocks.popleft().data)
            self.line = -1
        return block

    def offset(self, line: int) -> int:
        """Where line ``line`` begins: its byte offset, ``-1`` past the last line kept (the end of the stream:
        asked only there). The lines asked for come in order: each is found from the one before in its block."""
        index = line - self.base
        blocks = self.blocks
        while len(blocks) > 1 and blocks[1].line <= index:   # the blocks before line's are not asked for again
            self.size -= len(blocks.popleft().data)
            self.line = -1
        block = blocks[0]
        assert index >= block.line, "a line the blocks kept no longer hold"   # see _KEPT_BLOCK_BYTES
        if index - block.line >= block.line_count:
            return -1
        if block.line <= self.line <= index:
            k, at = index - self.line, self.at
        else:
            k, at = index - block.line, 0
        data = block.raw or block.data
        for _ in range(k):
            at = data.index(b"\n", at) + 1
        self.line, self.at = index, at
        return block.offset + at

    def ended(self, games: Iterator[GameLines]) -> Iterator[GameLines]:
        """``games`` of the line loop, each with its :attr:`GameLines.end`."""
        for game in games:
            game.end = self.offset(game.next_line)
            yield game


def game_batches(lines: TextLines, lineno: int = 0, *, long_lines: Optional[List[int]] = None,
                 offsets: bool = False) -> Iterator[List[GameLines]]:
    """:func:`split_games` of the lines of ``lines``, a list of games at a time (those of a block, as a rule):
    the one splitter, for a reader that takes its games by the block.

    The blocks are cut where a game surely begins (:func:`game_starts_in_block`: the C scan of a block's bytes where
    it decoded strictly), where the line loop's state is the one it starts in: a game the C check marks as of the
    common form (``xq_pgn_plain_games``, in a strictly decoded block) is made from its bytes, the text between such
    games goes through the line loop. Text held longer than :data:`HELD_MAX_BYTES` without such a place goes, with the
    rest of the file, through the line loop (a game a list). A file decoded whole (UTF-16, UTF-32) is read by the
    line loop. ``long_lines`` and ``offsets`` are :func:`split_games`'.

    >>> import io
    >>> data = b'[Event "A"]\\n\\n1. h2e2 *\\n\\n[Event "B"]\\n\\n1. h2e2 *\\n'
    >>> [[(game.tags, game.end) for game in batch] for batch in game_batches(TextLines(io.BytesIO(data).read),
    ...                                                                     offsets=True)]
    [[([('Event', 'A')], 24)], [([('Event', 'B')], -1)]]
    """
    for batch in _split_blocks(lines, lineno, offsets):
        if long_lines:
            for game in batch:   # the lines it holds were read: they are known
                _record_long_lines(game, long_lines, game.next_line)
        yield batch
        del batch   # not kept while the next block is read


def _split_blocks(lines: TextLines, lineno: int, offsets: bool) -> Iterator[List[GameLines]]:
    """:func:`game_batches` (the long lines aside)."""
    held: List[str] = []    # text not split yet, from a game start: whole lines, each with its "\n" (but the last)
    size = 0
    in_comment = False
    blocks = lines.blocks()
    encoding = lines.encoding
    kind = SCAN_KINDS.get(encoding.replace("_", "-").lower())
    ends = _LineEnds(lineno) if offsets and not lines.whole else None

    def line_loop(games: Iterator[GameLines]) -> List[GameLines]:
        return list(games if ends is None else ends.ended(games))

    for block in blocks:
        if lines.whole:
            for game in _split_lines(iter(block.lines), lineno):
                yield [game]
            continue
        data = block.data
        if not data:
            continue
        if ends is not None:
            ends.add(block)
        starts, in_comment = game_starts_in_block(block, encoding, in_comment)
        if not starts:
            text = block.text
            held.append(text + "\n" if data.endswith(b"\n") else text)
            size += len(text)
            if size > HELD_MAX_BYTES:
                rest = blocks if ends is None else map(ends.add, blocks)
                lines_after = itertools.chain(_held_lines(held),
                                              itertools.chain.from_iterable(block.lines for block in rest))
                games = _split_lines(lines_after, lineno)
                for game in (games if ends is None else ends.ended(games)):
                    yield [game]
                return
            continue
        batch: List[GameLines] = []
        if block.strict:
            # Each piece decoded alone (the block is its bytes decoded in one piece, nothing replaced).
            info = [-1] * 3 * len(starts) if kind is None else _scan.pgn_plain_games(data, kind, starts)
            # The games of the common form, each made when the block is read (it parses the tags of all of them
            # at once when one asks): a game that begins at a start, of the common form, within the game's limit
            # (in bytes, at least its characters: a longer one goes to the line loop, which keeps the limit).
            plain = _PlainBlock(data, encoding, starts, info)
            at = -1 if ends is None else block.offset
            cut = 0
            for k, start in enumerate(starts):
                head = info[3 * k]
                if head >= 0 and (cut or not held) and start - cut <= MAX_GAME_CHARS:
                    if held:
                        batch += line_loop(_line_loop(held, lineno))
                        lineno += _lines_of(held)
                        held = []
                    after = lineno + info[3 * k + 2]
                    batch.append(_plain_game(plain, k, lineno + 1, after + 1, -1 if at < 0 else at + start))
                    lineno = after
                else:
                    held.append(data[cut:start].decode(encoding))
                cut = start
            last: Optional[GameLines] = batch[-1] if batch else None
            if last is not None and last._src is plain:
                # The last game gets its bytes of its own: a reader that holds it while the next block is read
                # (read_games holds one game back) holds it, not this block.
                k = last._k
                at, stop = starts[k - 1] if k else 0, starts[k]
                last._src, last._k = _PlainBlock(data[at:stop], encoding, [stop - at], info[3 * k:3 * k + 3]), 0
            del plain
            tail = data[cut:].decode(encoding)
        else:
            # The "\n" before the last start's line: counted back from the end over the lines after it.
            text = block.text
            at = len(text)
            for _ in range(data.count(b"\n", starts[-1]) + (not data.endswith(b"\n"))):
                at = text.rfind("\n", 0, at)
            held.append(text[:at + 1])
            tail = text[at + 1:] + "\n" if data.endswith(b"\n") else text[at + 1:]
        if held:
            batch += line_loop(_line_loop(held, lineno))
            lineno += _lines_of(held)
        held, size = [tail], len(tail)
        if batch:
            yield batch
            batch = []   # not kept while the next block is read
    batch = line_loop(_line_loop(held, lineno))
    if batch:
        yield batch


def _held_lines(held: List[str]) -> Iterator[str]:
    """The lines of the text ``held`` (whole lines, each with its ``\\n`` but maybe the last)."""
    text = "".join(held)
    return _iter_lines(text[:-1] if text.endswith("\n") else text)


def _line_loop(held: List[str], lineno: int) -> Iterator[GameLines]:
    """The line loop over the text ``held`` (whole lines, each with its ``\\n`` but maybe the last)."""
    return _split_lines(_held_lines(held), lineno) if any(held) else iter(())


def _lines_of(held: List[str]) -> int:
    """The lines of ``held``, whole lines each with its ``\\n``."""
    return sum(part.count("\n") for part in held)


def split_games(lines: Union[Iterator[str], str, TextLines], lineno: int = 0, *,
                long_lines: Optional[List[int]] = None, offsets: bool = False) -> Iterator[GameLines]:
    """Group numbered lines into games.

    ``lines`` is an iterator of lines, or whole lines joined by ``\\n`` in one
    string, read by the line loop; or the
    :class:`~xiangqi._encoding.TextLines` of a file, read a block at a time
    and cut where the C scan of a block's bytes finds a game start (as
    :func:`game_starts_in_bytes`), a game of the common form made from its
    bytes, with the same result. ``lineno`` is the number of lines before the
    first. With ``offsets`` (``TextLines`` alone), each game's ``end`` is the
    byte offset of the stream where the next game begins (``-1``: the
    stream's end), so that a reader may leave a file there.

    A game ends where the next one's tags begin, or after a result token
    when the next move text starts again at move 1. Tag-like lines inside a
    ``{…}`` comment belong to the comment, unless a blank line comes before
    them and what follows them (up to the next such tag line) does not close
    the comment: the comment is then never closed, and ends with its game so
    that it cannot swallow the games after it (:func:`_comment_closes_later`).
    Lines starting with ``%`` are skipped.

    The limits make a record without end cost memory in proportion to them,
    each an :class:`InvalidRecordError` of its game, the first of its errors:
    a game keeps at most :data:`MAX_GAME_CHARS` (the rest of it, up to the
    next game, is read and dropped); a comment open for more than
    :data:`MAX_COMMENT_CHARS` is recorded and taken as never closed (the
    lines after it are read as move text); and the numbers of lines that
    the line source cut at :data:`MAX_LINE_BYTES` (``long_lines``, 1-based,
    as :class:`~xiangqi._encoding.TextLines` appends them) are recorded on
    the game they belong to (the one before the next game's first line).

    >>> text = '[Event "A"]\\n\\n1. h2e2 1-0\\n1. b2e2 *\\n'     # a new game starts again at move 1
    >>> [(chunk.first_line, chunk.tags, chunk.movetext_text) for chunk in split_games(text)]
    [(1, [('Event', 'A')], '1. h2e2 1-0'), (4, [], '1. b2e2 *\\n')]
    """
    if isinstance(lines, TextLines):
        yield from itertools.chain.from_iterable(game_batches(lines, lineno, long_lines=long_lines, offsets=offsets))
        return
    if isinstance(lines, str):
        games = _split_lines(_iter_lines(lines), lineno) if lines else iter(())
    else:
        games = _split_lines(lines, lineno)
    if long_lines is None:
        yield from games
        return
    held: Optional[GameLines] = None
    try:
        for game in games:
            if held is not None:
                _record_long_lines(held, long_lines, game.first_line)
                yield held
            held = game
    except InvalidRecordError:   # the input's damage passes on after the last game
        if held is not None:
            _record_long_lines(held, long_lines, None)
            yield held
        raise
    if held is not None:
        _record_long_lines(held, long_lines, None)
        yield held


def _record_long_lines(game: GameLines, cut: List[int], before: Optional[int]) -> None:
    """Record on ``game`` the lines of ``cut`` before line ``before`` (all when ``None``), taking them out."""
    k = 0
    while k < len(cut) and (before is None or cut[k] < before):
        n = cut[k]
        game.errors.append(_limit_error(
            f"line {n} is longer than {MAX_LINE_BYTES} bytes: it is cut there, the rest of it skipped", n))
        k += 1
    if k:
        del cut[:k]
        # Damage of the lines comes first, in file order.
        game.errors.sort(key=lambda e: e.line)


def _split_lines(lines: Iterator[str], lineno: int) -> Iterator[GameLines]:
    """:func:`split_games` of an iterator of lines: the line loop.

    This loop sees every line of the input, so it is kept lean: blank lines
    inside move text are kept (line numbers then follow from the position in
    the list), and the lines of move text that need no decision (no tag,
    escape, comment or new game can start there) are taken by an inner loop
    that does nothing else but count the game's characters.
    """
    chunk: Optional[GameLines] = None
    movetext: Optional[List[str]] = None   # the current game's move-text lines, once they have begun
    in_comment = False
    gap = False                            # a blank line after the tags, before any move text
    blank_before = False                   # in a comment: whether the last line was blank
    room = MAX_GAME_CHARS                  # characters the game may still keep (over its limit: till a trim)
    sealed = False                         # the game is over MAX_GAME_CHARS: movetext is only its tail
    comment = 0                            # characters of the lines of the open comment
    comment_line = 0                       # the line where it opened
    tag_match = TAG_RE.match
    game_start = _GAME_START_RE.match
    slow_first = _SLOW_FIRST
    base = iter(lines)
    it: Iterator[str] = base
    back: Iterator[str] = iter(())         # lines read ahead and given back, read again before base's
    pending: Optional[str] = None          # a line the inner loop read and left to the outer one
    try:
        while True:
            if pending is None:
                line = next(it, None)
                if line is None:
                    break
            else:
                line, pending = pending, None
            lineno += 1
            if in_comment:
                assert movetext is not None
                # A comment left open ends with its game where a blank line is followed by a tag line: the
                # next game starts there (the tokenizer records the unterminated comment on this one).
                if blank_before and line.lstrip()[:1] == "[" and tag_match(line) is not None:
                    ahead: List[str] = []
                    closes = comment <= MAX_COMMENT_CHARS and \
                        _comment_closes_later(it, ahead, MAX_COMMENT_CHARS - comment)
                    # One chain over base, whatever the number of look-aheads: the lines given back before
                    # and not yet read again follow the new ones (a chain of chains made every later line
                    # cost a step per look-ahead before it, quadratic in a file of games with open comments).
                    ahead.extend(back)
                    back = iter(ahead)
                    it = itertools.chain(back, base)
                    if not closes:
                        in_comment = False
                        if chunk is not None:
                            chunk.overread = len(ahead) + 1
                if in_comment:
                    movetext.append(line)
                    blank_before = not line.strip()
                    in_comment = _comment_open_after(line, True)
                    comment += len(line) + 1
                    if in_comment and comment > MAX_COMMENT_CHARS:
                        # Too long to be a comment: one never closed. The splitter reads on as move text (a
                        # tag line or a new move 1 begins the next game); the tokenizer still reads the "{".
                        assert chunk is not None
                        in_comment = False
                        chunk.errors.append(_limit_error(
                            f"the comment opened at line {comment_line} is longer than {MAX_COMMENT_CHARS} "
                            f"characters (at line {lineno}): it is taken as never closed, the games after it "
                            "read as usual", comment_line))
                    room -= len(line) + 1
                    if room < 0:
                        assert chunk is not None
                        movetext, room, sealed = _over_limit(chunk, movetext, sealed, lineno)
                    continue
            c = line[:1]
            if c == " " or c == "\t":
                c = line.lstrip()[:1]
            if c == "[":
                m = tag_match(line)
                if m is None and movetext and not movetext[-1].strip() and _TAG_LIKE.match(line):
                    # A damaged tag line after a blank line that ends move text: the next game's first
                    # tag, not move text of this one (its game records the damage).
                    assert chunk is not None
                    chunk.next_line = lineno
                    yield chunk
                    chunk, movetext, gap = GameLines(lineno), None, False
                    room, sealed = MAX_GAME_CHARS - len(line) - 1, False
                    shown = line.strip()
                    reason = f"damaged tag line {shown[:60]!r}: a tag is [Name \"value\"]"
                    chunk.errors.append(GameError(0, shown, reason, lineno, InvalidRecordError(reason)))
                    continue
                if m is not None:
                    if movetext is not None or gap and chunk is not None and m.group(1) in chunk.tag_lines:
                        # Move text ended, or a tag this game already has comes after a blank line: the
                        # game before it is over (a game of tags only is a game too, not merged).
                        assert chunk is not None
                        chunk.next_line = lineno
                        yield chunk
                        chunk = movetext = None
                    gap = False
                    if chunk is None:
                        chunk = GameLines(lineno)
                        room, sealed = MAX_GAME_CHARS, False
                    tags, tag_lines = chunk.tags, chunk.tag_lines
                    while True:
                        name, value, bare = m.groups()
                        if value is None:
                            value = bare.strip()
                        if "\\" in value:
                            value = _unescape(value)
                        room -= len(line) + 1
                        if room >= 0:          # tags past the game's limit are not kept
                            tags.append((name, value))
                            tag_lines[name] = lineno
                        # More tags follow, as a rule: take them here while they come, the usual
                        # [Name "value"] form without the regular expression (what it would read).
                        while True:
                            line = next(it, None)
                            if line is None or line[:1] != "[" or line[-2:] != '"]':
                                break
                            k = line.find(' "')
                            name = line[1:k]
                            if k < 2 or len(line) < k + 4 or not name.isalnum() or not name.isascii():
                                break
                            value = line[k + 2:-2]
                            if "\\" in value:
                                value = _unescape(value)
                            lineno += 1
                            room -= len(line) + 1
                            if room >= 0:
                                tags.append((name, value))
                                tag_lines[name] = lineno
                        if line is None:
                            break
                        if line[:1] != "[" or (m := tag_match(line)) is None:
                            pending = line
                            break
                        lineno += 1
                    if room < 0:
                        if not sealed:
                            sealed = True
                            chunk.errors.append(_game_limit_error(lineno))
                        room = -1 << 62        # no more tags kept (only move text is trimmed)
                    continue
            elif c == "%" and line[0] == "%":
                if movetext is not None:
                    movetext.append("")
                continue
            if movetext is None:
                if not c or c in "\r\n\t \x0b\x0c" and not line.strip():
                    gap = chunk is not None
                    continue  # blank lines before the move text
                if chunk is None:
                    chunk = GameLines(lineno)
                    room, sealed = MAX_GAME_CHARS, False
                chunk.movetext_start = lineno
                movetext = chunk.movetext
                if sealed:                     # over the limit in its tags: no move text kept
                    movetext, room = [], _TAIL_CHARS
            elif c == "1" and game_start(line) and _ends_with_result(movetext):
                assert chunk is not None
                chunk.next_line = lineno
                yield chunk
                chunk = GameLines(lineno)
                movetext = chunk.movetext
                room, sealed = MAX_GAME_CHARS, False
            movetext.append(line)
            room -= len(line) + 1
            if "{" in line or ";" in line:
                in_comment = _comment_open_after(line, False)
                if in_comment:
                    comment, comment_line = len(line) + 1, lineno
                blank_before = False
                if room < 0:
                    assert chunk is not None
                    movetext, room, sealed = _over_limit(chunk, movetext, sealed, lineno)
                continue
            # Plain move-text lines follow, as a rule: append them until one needs the checks above
            # (a line "10. ..." cannot start a new game, so the game-start test is spared for it).
            append = movetext.append
            n = len(movetext)
            if room >= 0:
                for line in it:
                    c = line[:1]
                    if c in slow_first and (c != "1" or line[1:2] not in "0123456789" and game_start(line)
                                            and _ends_with_result(movetext)) \
                            or "{" in line or ";" in line:
                        pending = line
                        break
                    append(line)
                    room -= len(line) + 1
                    if room < 0:
                        break
            lineno += len(movetext) - n
            if room < 0:
                assert chunk is not None
                movetext, room, sealed = _over_limit(chunk, movetext, sealed, lineno)
    except InvalidRecordError:
        if chunk is not None:
            chunk.next_line = lineno + 1
            yield chunk
        raise
    if chunk is not None:
        chunk.next_line = lineno + 1
        yield chunk


def _game_limit_error(line: int) -> GameError:
    return _limit_error(f"the game is longer than {MAX_GAME_CHARS} characters: it is cut after line {line}, "
                        "the rest of it up to the next game skipped", line)


def _over_limit(chunk: GameLines, movetext: List[str], sealed: bool, line: int) -> Tuple[List[str], int, bool]:
    """A game's move text went past its room at ``line``: the first time, past :data:`MAX_GAME_CHARS` (the
    game records it; its lines from here on are not kept); later, past a trim's room. Returns the lines the
    splitter goes on appending to (their tail), the new room, and ``True``."""
    if not sealed:
        chunk.errors.append(_game_limit_error(line))
    return _tail(movetext), _TAIL_CHARS, True


def _comment_closes_later(it: Iterator[str], ahead: List[str], room: int) -> bool:
    """Whether a ``{`` comment, open where a tag line follows a blank line, is closed by the lines after it.

    Reads the lines of ``it`` into ``ahead`` up to the first brace, or a tag
    line after a blank line (where a game would start), or the end, or past
    ``room`` characters (what the comment may still grow by under
    :data:`MAX_COMMENT_CHARS`). The comment goes on (the tag line is part of
    it) when a ``}`` comes first; otherwise it never closes, and the tag
    line starts the next game.
    """
    tag_match = TAG_RE.match
    blank = False
    for line in it:
        ahead.append(line)
        room -= len(line) + 1
        if room < 0:
            return False
        if line.lstrip()[:1] == "[" and tag_match(line) is not None:
            if blank:
                return False
            continue
        close, open_ = line.find("}"), line.find("{")
        if close >= 0 or open_ >= 0:
            return close >= 0 and (open_ < 0 or close < open_)
        blank = not line.strip()
    return False


def _comment_open_after(line: str, in_comment: bool) -> bool:
    """Whether a ``{`` comment is still open at the end of ``line``."""
    for ch in line:
        if in_comment:
            if ch == "}":
                in_comment = False
        elif ch == "{":
            in_comment = True
        elif ch == ";":
            return False
    return in_comment


#: What :func:`game_starts` looks for: comment marks, and blank lines (a run of them matched whole, so that a long
#: run is read once; whether a tag line follows is asked after: a lookahead in the pattern made every newline of
#: a run try the run again, quadratic in its length). A run is one character class up to its last newline, not a repeated group
#: of lines: the regular expression engine keeps about 100 bytes for each repetition of a group, 700 MB for a run
#: of six million blank lines.
_STRUCTURE = re.compile(r"[{};]|\n[ \t\r\n]*\n")
_BLANK_LINES = re.compile(r"\n[ \t\r\n]*\n")
_TAG_AHEAD = re.compile(r"[ \t]*\[")


def game_starts(text: str, in_comment: bool = False) -> Tuple[List[int], bool]:
    """Where in ``text`` (whole lines of a record) the reader surely begins a new game, and whether a ``{``
    comment is open at its end.

    Returns the offsets of tag lines that follow blank lines after a line of
    move text, outside any comment (``in_comment``: whether one is open where
    ``text`` begins). Reading the lines from such a tag line on gives the
    same games as reading the whole text (:func:`xiangqi.pgn.read_games` yields the game
    before it there, in the same state as at the start of a file), so a file
    may be cut there into pieces that are read apart (in worker processes).
    A place that only may begin a game (a comment holding a tag line, a tag
    block without move text, a game started by ``1.``) is left out: leaving
    one out costs only a longer piece. The scan is of decoded text, so a
    double-byte character whose second byte is ``{``, ``}``, ``[``, ``]``
    or a backslash in GBK or Big5 cannot mislead it.

    >>> text = '[Event "A"]\\n\\n1. h2e2 *\\n\\n[Event "B"]\\n\\n1. h2e2 *\\n'
    >>> game_starts(text), text[24:35]
    (([24], False), '[Event "B"]')
    """
    out: List[int] = []
    tag_match = TAG_RE.match
    if "{" not in text and "}" not in text and ";" not in text:  # the usual text: only the blank lines matter
        if in_comment:
            return out, True
        tag_ahead = _TAG_AHEAD.match
        for blank in _BLANK_LINES.finditer(text):
            end, pos = blank.start(), blank.end()
            if tag_ahead(text, pos) is None:
                continue
            prev = text[text.rfind("\n", 0, end) + 1:end].lstrip()
            eol = text.find("\n", pos)
            if prev and prev[0] not in "[%" and tag_match(text[pos:] if eol < 0 else text[pos:eol]) is not None:
                out.append(pos)
        return out, False
    search = _STRUCTURE.search
    pos = 0
    while True:
        m = search(text, pos)
        if m is None:
            return out, in_comment
        ch = text[m.start()]
        pos = m.end()
        if ch == "{":
            in_comment = True
        elif ch == "}":
            in_comment = False
        elif ch == ";":
            if not in_comment:  # a comment to the end of the line
                nl = text.find("\n", pos)
                if nl < 0:
                    return out, in_comment
                pos = nl
        elif not in_comment and _TAG_AHEAD.match(text, pos) is not None:
            end = m.start()
            prev = text[text.rfind("\n", 0, end) + 1:end].lstrip()
            eol = text.find("\n", pos)
            line = text[pos:] if eol < 0 else text[pos:eol]
            if tag_match(line) is not None:
                if prev and prev[0] not in "[%":
                    out.append(pos)
                if eol < 0:
                    return out, in_comment
                pos = eol  # the reader reads a tag line's value, not braces in it


#: Encodings whose bytes :func:`game_starts_in_bytes` reads, as the C scan's byte kind.
SCAN_KINDS = {"utf-8": _scan.UTF8, "ascii": _scan.UTF8, "gb18030": _scan.DOUBLE_BYTE, "gbk": _scan.DOUBLE_BYTE,
               "gb2312": _scan.DOUBLE_BYTE, "cp936": _scan.DOUBLE_BYTE, "big5": _scan.DOUBLE_BYTE,
               "cp950": _scan.DOUBLE_BYTE, "big5hkscs": _scan.DOUBLE_BYTE}


def game_starts_in_bytes(data: bytes, encoding: str, in_comment: bool = False) -> Optional[Tuple[List[int], bool]]:
    """:func:`game_starts` of the text ``data`` decodes to, as byte offsets into ``data``, found by the C core
    (``xq_pgn_game_starts``) without decoding; ``None`` where it leaves the text to :func:`game_starts`.

    ``data`` holds whole lines that decode strictly (nothing replaced) in
    ``encoding``: UTF-8, GBK/GB18030 or Big5 (other encodings give
    ``None``). The scan reads a two-byte character's second byte as part of
    it, never as a ``{``, ``}``, ``[`` or ``;``. It reports the starts whose
    tag line has the plain form ``[Name "value"]`` (a subset of
    :func:`game_starts`' starts, which is all a chunker needs: leaving a
    start out only makes a piece longer) and gives up (``None``) on a
    tag-like line of another form holding comment marks.

    >>> text = '[Event "a"]\\n\\n1. h2e2 *\\n\\n[Event "b"]\\n\\n1. h2e2 *\\n'
    >>> game_starts_in_bytes(text.encode(), "utf-8"), game_starts(text)
    (([24], False), ([24], False))

    Raises:
        * :exc:`ValueError` when the C scan refuses its arguments (a bug, never bad text).
    """
    kind = SCAN_KINDS.get(encoding.replace("_", "-").lower())
    return None if kind is None else _scan.pgn_game_starts(data, kind, in_comment)


def game_starts_in_block(block: TextBlock, encoding: str, in_comment: bool) -> Tuple[List[int], bool]:
    """Where the PGN reader surely begins a game in ``block`` (byte offsets into its data), and whether a
    comment is open at its end: :func:`game_starts` of its text, by the C scan of its bytes where the block
    decoded strictly (:func:`game_starts_in_bytes`): the one place that chooses between the two."""
    if block.strict:
        found = game_starts_in_bytes(block.data, encoding, in_comment)
        if found is not None:
            return found
    text = block.text
    starts, in_comment = game_starts(text, in_comment)
    # Text offsets to byte offsets: each start begins a line, found by counting lines.
    data = block.data
    out: List[int] = []
    pos = at = 0
    for s in starts:
        for _ in range(text.count("\n", pos, s)):
            at = data.index(b"\n", at) + 1
        pos = s
        out.append(at)
    return out, in_comment
