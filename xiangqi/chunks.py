"""The inputs of validation: the files to read (:func:`expand_paths`) and their games cut into :class:`Chunk`
objects (:func:`iter_chunks`), pieces of whole games that any worker can check apart.

PGN is streamed and cut where the PGN reader surely begins a game (:func:`xiangqi.pgn.game_starts`, by the C scan
where the text allows), so that one big file spreads over every worker; the other formats are one chunk a file.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "one.pgn")
>>> _ = open(path, "w", encoding="utf-8").write("1. h2e2 h9g7 *\\n")
>>> [(chunk.fmt, chunk.last, chunk.data) for chunk in iter_chunks(expand_paths([path]))]
[('pgn', True, b'1. h2e2 h9g7 *\\n')]
"""

from __future__ import annotations

import bisect
import dataclasses
import io
import os
import stat
import sys
import warnings
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from xiangqi import formats, pgn
from xiangqi._encoding import TextBlock, TextLines, detect_encoding
from xiangqi import _pgn_split
from xiangqi._pgn_split import game_starts_in_block
from xiangqi.source import ByteSource

__all__ = ["DEFAULT_CHUNK_BYTES", "HELD_MAX_BYTES", "Chunk", "LineStream", "iter_chunks", "ChunkSizes", "spans",
           "expand_paths", "detect_format", "format_names", "checked_format", "chunk_lines"]

#: Target size of a chunk of PGN text handed to one worker (whole games are kept together).
DEFAULT_CHUNK_BYTES = 256 * 1024

_SNIFF = 1 << 16


def format_names() -> Tuple[str, ...]:
    """The record formats understood now (:func:`xiangqi.formats.register` adds one); ``auto`` detects per file.

    >>> format_names()[:4]
    ('auto', 'pgn', 'xqf', 'dhtmlxq')
    """
    return ("auto",) + formats.names()


def checked_format(fmt: str) -> str:
    """``fmt`` itself when it is one of :func:`format_names` (a format, or ``"auto"``).

    >>> checked_format("xqf")
    'xqf'
    >>> checked_format("epd")
    Traceback (most recent call last):
    ...
    ValueError: unknown format 'epd': expected one of auto, pgn, xqf, dhtmlxq

    Raises:
        * :exc:`ValueError` when ``fmt`` is not ``"auto"`` or a format of :data:`xiangqi.formats.FORMATS`.
    """
    if fmt not in format_names():
        raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(format_names())}")
    return fmt



def expand_paths(paths: Iterable[Union[str, "os.PathLike[str]"]], *,
                 skipped: Optional[List[Tuple[str, str]]] = None) -> List[str]:
    """The files to read: files as given, directories walked recursively (sorted).

    Inside directories only game files are taken (:func:`xiangqi.formats.is_game_file`: ``.pgn``,
    ``.xqf``, ``.dhtmlxq``…, each optionally ``.gz``, and ``.txt``, ``.htm``,
    ``.html`` files holding a DhtmlXQ block); hidden entries are skipped, and so is a game file's name that is
    not a regular file, itself or through a symbolic link (a FIFO would be waited on for ever, a link to
    ``/dev/zero`` read for ever): each such one is appended to ``skipped`` as ``(path, why)``, or with no
    ``skipped`` list, warned about (:class:`UserWarning`). A path given as such is read whatever it is (a stream
    too).

    >>> pgn_file = _example_pgn()
    >>> expand_paths([os.path.dirname(pgn_file)]) == [pgn_file]
    True
    >>> os.symlink("/dev/zero", os.path.join(os.path.dirname(pgn_file), "zero.pgn"))
    >>> skipped = []
    >>> expand_paths([os.path.dirname(pgn_file)], skipped=skipped) == [pgn_file], skipped
    (True, [('.../zero.pgn', 'not a regular file (a character device, through a symbolic link)')])
    >>> expand_paths(["no/such/folder"])
    Traceback (most recent call last):
    ...
    FileNotFoundError: no such file or directory: 'no/such/folder'

    Raises:
        * :exc:`FileNotFoundError` for a path that does not exist.
    """
    out: List[str] = []
    for p in paths:
        path = os.fspath(p)
        if os.path.isdir(path):
            found = []
            for root, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                for name in files:
                    full = os.path.join(root, name)
                    if name.startswith(".") or not (formats.format_of(full) or formats.sniffs_whole(full)):
                        continue
                    why = _not_regular(full)
                    if why is not None:
                        if skipped is None:
                            warnings.warn(f"skipped {full}: {why}", stacklevel=2)
                        else:
                            skipped.append((full, why))
                    elif formats.is_game_file(full):
                        found.append(full)
            out.extend(sorted(found))
        elif os.path.exists(path):
            out.append(path)
        else:
            raise FileNotFoundError(f"no such file or directory: {path!r}")
    return out


_FILE_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
               (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def _not_regular(path: str) -> Optional[str]:
    """Why the file met in a folder at ``path`` is not to be read (it is not a regular file), or ``None``
    (a file that cannot be looked at is read: the reading reports why it fails)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return None
    kind = next((what for test, what in _FILE_KINDS if test(mode)), "not a file")
    link = ", through a symbolic link" if os.path.islink(path) else ""
    return f"not a regular file ({kind}{link})"


#: ``"pgn"``, ``"xqf"`` or ``"dhtmlxq"`` from a file name and its first (decompressed) bytes.
detect_format = formats.detect


@dataclasses.dataclass(frozen=True)
class Chunk:
    """A piece of work: some whole games of one file, as bytes.

    ``line_offset`` is the number of lines of the file before ``data``;
    ``last`` says the chunk ends its file, ``eof_newline`` that the file
    ends with a newline, ``cut`` that reading stopped early (a damaged
    ``.gz``), ``read_error`` why nothing could be read, ``cr`` that the
    file's lines end in a bare carriage return, ``long_lines`` the (1-based)
    numbers of its lines that reading cut at :data:`xiangqi.pgn.MAX_LINE_BYTES`
    (``data`` holds what was kept of them), ``strict`` that the file's reading
    decoded every line of ``data`` strictly (nothing replaced, no U+FEFF), so
    that its checker decodes only what it reads (:func:`chunk_lines`). Chunks are plain picklable data, so
    any executor (processes, Dask) can run :func:`xiangqi.checking.validate_chunk` on them.

    Except one kind: where a PGN file goes on for more than :data:`HELD_MAX_BYTES` without a place to cut it
    (one game without end, a stream of random bytes, a long run of untagged games), its ``stream`` holds the rest
    of the file as lines still to be read (:class:`LineStream`) and ``data`` is empty, so that memory stays within
    the reader's limits (:data:`xiangqi.pgn.MAX_GAME_CHARS`); such a chunk is checked by the process that read it,
    before the next chunk is read.

    >>> from xiangqi.checking import validate_chunk
    >>> chunk = Chunk("demo.pgn", "pgn", b"1. h2e2 h9g7 *\\n")
    >>> [(report.source, report.ok, report.plies) for report in validate_chunk(chunk)]
    [('demo.pgn', True, 2)]
    """

    source: str
    fmt: str
    data: bytes
    encoding: Optional[str] = None
    line_offset: int = 0
    last: bool = True
    eof_newline: bool = True
    cut: bool = False
    read_error: Optional[str] = None
    file_number: int = 0
    cr: bool = False
    long_lines: Tuple[int, ...] = ()
    stream: Optional["LineStream"] = dataclasses.field(default=None, compare=False, repr=False)
    strict: bool = False


def _read_error_text(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text[0].lower() + text[1:] if text else text


def iter_chunks(files: Sequence[str], *, fmt: str = "auto",
                chunk_bytes: int = DEFAULT_CHUNK_BYTES) -> Iterator[Chunk]:
    """Cut files into :class:`Chunk` objects of whole games, in input order.

    PGN is streamed: each chunk holds about ``chunk_bytes`` of text, cut only
    where a game's tags begin, so one big file spreads over many workers.
    XQF and DhtmlXQ files are one chunk each. A file that cannot be opened
    yields a chunk with ``read_error`` set; a damaged ``.gz`` yields what
    could be read, its last chunk marked ``cut``.

    >>> [(chunk.fmt, chunk.last, len(chunk.data)) for chunk in iter_chunks([_example_pgn()])]
    [('pgn', True, 57)]
    >>> next(iter_chunks(["absent.pgn"])).read_error
    "cannot open the file: [Errno 2] No such file or directory: 'absent.pgn'"

    Raises:
        * :exc:`ValueError` when ``fmt`` is not ``"auto"`` or a format of :data:`xiangqi.formats.FORMATS`.
    """
    for chunk, _ in spans(files, fmt, chunk_bytes):
        yield chunk


class ChunkSizes:
    """The size of the next PGN chunk: ``chunk_bytes`` throughout, or, given the ``total`` input and the pool's
    ``workers``, shrinking towards the end of the input (guided self-scheduling: a chunk holds at most a
    ``4 * workers``-th of what is left, and no less than :data:`DEFAULT_CHUNK_BYTES`), so that the workers
    run out of work together instead of one finishing a big last chunk while the others wait.

    >>> sizes = ChunkSizes(DEFAULT_CHUNK_BYTES, total=64 << 20, workers=2)
    >>> sizes.after(0) == DEFAULT_CHUNK_BYTES, ChunkSizes(1 << 30, total=64 << 20, workers=2).after(0) >> 20
    (True, 8)
    """

    def __init__(self, chunk_bytes: int, total: int = 0, workers: int = 0) -> None:
        self.cap = max(1024, int(chunk_bytes))
        self.total = total
        self.parts = 4 * workers
        self.done = 0  # bytes of the chunks handed out

    def after(self, handed: int) -> int:
        """The size of the chunk that follows ``handed`` bytes of chunks."""
        if not self.parts:
            return self.cap
        return min(self.cap, max(DEFAULT_CHUNK_BYTES, (self.total - handed) // self.parts))


def spans(files: Sequence[str], fmt: str, chunk_bytes: Union[int, ChunkSizes]) -> Iterator[Tuple[Chunk, Optional[int]]]:
    """:func:`iter_chunks`'s chunks, each with the file offset of its data where the data is the file's
    own bytes read whole (not gunzipped, no read error), else ``None``.

    >>> [(chunk.data, offset) for chunk, offset in spans([_example_pgn()], "auto", DEFAULT_CHUNK_BYTES)]
    [(b'[Event "A"]\\n\\n1. h2e2 h9g7 *\\n\\n[Event "B"]\\n\\n1. h2e2 h2e2 *\\n', 0)]

    Raises:
        * :exc:`ValueError` when ``fmt`` is not ``"auto"`` or a format of :data:`xiangqi.formats.FORMATS`.
    """
    checked_format(fmt)
    sizes = chunk_bytes if isinstance(chunk_bytes, ChunkSizes) else ChunkSizes(chunk_bytes)
    for number, path in enumerate(files):
        try:
            src = ByteSource(path)
        except OSError as exc:
            yield Chunk(path, "pgn", b"", read_error=f"cannot open the file: {_read_error_text(exc)}",
                        file_number=number), None
            continue
        try:
            if fmt != "auto":
                kind = fmt
            elif src.regular:
                kind = formats.detect_path(path)
            else:   # a stream is read once: its format by its name and first bytes
                kind = formats.detect(path, src.peek(formats.SNIFF_BYTES))
            if not formats.FORMATS[kind].streamed:
                data = src.read_all()
                enc = None if formats.FORMATS[kind].binary else detect_encoding(data[:_SNIFF])
                yield Chunk(path, kind, data, enc, 0, True, data.endswith(b"\n"), src.damage is not None,
                            src.damage if not data else None, number), 0 if src.plain else None
                continue
            yield from _pgn_chunks(path, src, sizes, number)
        finally:
            src.close()


#: The most bytes of a PGN file held without a place to cut them (a game start) beyond a chunk's size: past it, the
#: rest of the file is a chunk read as a stream of lines (:attr:`Chunk.stream`), whose games the PGN reader's
#: splitter keeps within its limits (the limit :func:`xiangqi.pgn.split_games` holds text to as well). Four bytes a
#: character (UTF-8's widest) for :data:`xiangqi.pgn.MAX_GAME_CHARS`, and a line's worth more.
HELD_MAX_BYTES: int = _pgn_split.HELD_MAX_BYTES


_GONE = "the lines of a chunk read as a stream are gone: check it before reading the next chunk"


class LineStream:
    """The rest of a PGN file as its decoded lines (without ``\\n``), read as they are asked for: the lines of
    the bytes held when the chunker gave up cutting, then those of the blocks still to come.

    Iterated once, by the process that read the file and before the next chunk is read (the file is open
    meanwhile). ``long_lines`` receives the numbers of the lines cut at :data:`xiangqi.pgn.MAX_LINE_BYTES` as
    they are read; once the lines are exhausted, ``eof_newline`` says whether the file ends with a newline
    and ``damage`` why its data ended early (or ``None``). Lines asked for once the file is closed (the next
    chunk was read first) raise :exc:`ValueError`.

    >>> text = TextLines(io.BytesIO(b"1. h2e2\\nh9g7 *\\n").read)
    >>> blocks = text.blocks()
    >>> stream = LineStream(b"", text, blocks, lambda: None)
    >>> list(stream), stream.eof_newline, stream.damage
    (['1. h2e2', 'h9g7 *'], True, None)

    Raises:
        * :exc:`ValueError` when iterated after :meth:`close`.
    """

    def __init__(self, held: bytes, lines: TextLines, blocks: Iterator[TextBlock],
                 damage: "Callable[[], Optional[str]]") -> None:
        self.long_lines: List[int] = lines.long_lines
        self.eof_newline = held.endswith(b"\n") or not held
        self.damage: Optional[str] = None
        self._held = held
        self._lines = lines
        self._blocks = blocks
        self._damage = damage
        self._iter: Optional[Iterator[str]] = None
        self._open = True

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        if self._iter is None:
            self._iter = self._read()
        return next(self._iter)

    def close(self) -> None:
        """The file is closed: no more lines can be read.

        >>> stream = LineStream(b"1. h2e2\\n", TextLines(io.BytesIO(b"").read), iter(()), lambda: None)
        >>> stream.close(); next(stream)
        Traceback (most recent call last):
        ...
        ValueError: the lines of a chunk read as a stream are gone: check it before reading the next chunk
        """
        self._open = False

    def _read(self) -> Iterator[str]:
        if not self._open:
            raise ValueError(_GONE)
        if self._held:
            held = TextLines(io.BytesIO(self._held).read, self._lines.encoding, cr=self._lines.cr,
                             max_line=sys.maxsize)   # cut already, where they were, by the file's reading
            self._held = b""
            for block in held.blocks():
                yield from block.lines
        for block in self._blocks:
            if not self._open:
                raise ValueError(_GONE)
            if block.data:
                self.eof_newline = block.data.endswith(b"\n")
            yield from block.lines
        self.damage = self._damage()


def _pgn_chunks(path: str, src: ByteSource, sizes: ChunkSizes, number: int) -> Iterator[Tuple[Chunk, Optional[int]]]:
    """Cut a PGN file into chunks of about the size ``sizes`` asks for where the PGN reader surely begins a game
    (:func:`xiangqi.pgn.game_starts`, on the decoded text), so that each chunk reads apart as it reads in
    the whole file."""
    chunk_bytes = sizes.after(sizes.done)
    lines = TextLines(src.read, block_size=max(sizes.cap, 1 << 16), max_line=pgn.MAX_LINE_BYTES,
                      lazy=True)   # the checkers decode the chunks: here only the C scan reads them
    enc, cr = lines.encoding, lines.cr
    parts: List[Union[bytes, memoryview]] = []   # the bytes of the chunk being gathered (views: one copy, the join)
    strict = True             # whether every block they come from decoded strictly
    held_lines = 0            # how many lines it holds
    size = 0                  # the length of parts
    start = 0                 # the chunk's offset in the (decompressed) data
    line_offset = 0           # the lines of the file before it
    in_comment = False
    blocks = lines.blocks()
    for block in blocks:
        data = block.data
        if lines.whole:       # UTF-16 or UTF-32: one chunk
            parts.append(data)
            held_lines += block.line_count
            continue
        strict = strict and block.strict
        starts, in_comment = game_starts_in_block(block, enc, in_comment)
        # A chunk ends at the last game start before it holds chunk_bytes, or at the first one after a
        # bigger game.
        cuts: List[int] = []
        done = 0
        held = -1
        handed = sizes.done   # the bytes of the chunks before the next cut
        for s in starts:
            if size + s - done >= chunk_bytes:
                if held >= 0:
                    cuts.append(held)
                    handed += size + held - done
                    done, size, chunk_bytes = held, 0, sizes.after(handed)
                if held < 0 or size + s - done >= chunk_bytes:
                    cuts.append(s)
                    handed += size + s - done
                    done, size, s, chunk_bytes = s, 0, -1, sizes.after(handed)
            held = s
        if held >= 0 and size + len(data) - done >= chunk_bytes:
            cuts.append(held)
            chunk_bytes = sizes.after(handed + size + held - done)
        done = 0              # bytes of this block already in chunks
        line = 0              # the number in the block of the line starting there
        for at in cuts:
            k = data.count(b"\n", done, at)
            parts.append(memoryview(data)[done:at])
            line += k
            piece = b"".join(parts)
            yield Chunk(path, "pgn", piece, enc, line_offset, False, True, False, None, number, cr,
                        _cut_lines(lines.long_lines, line_offset, line_offset + held_lines + k), strict=strict), \
                start if src.plain and not lines.long_lines else None
            start += len(piece)
            sizes.done += len(piece)
            line_offset += held_lines + k
            parts, size, done, held_lines, strict = [], 0, at, 0, block.strict
        parts.append(memoryview(data)[done:])
        held_lines += block.line_count - line
        size += len(data) - done
        if size > HELD_MAX_BYTES + sizes.cap and not lines.whole:
            # No place to cut for longer than a game may be: the rest of the file is read as lines (a game
            # without end keeps what the reader keeps of it), in this process.
            kept = b"".join(parts)
            parts = []
            lines.long_lines = [n for n in lines.long_lines if n > line_offset]
            stream = LineStream(kept, lines, blocks, lambda: src.damage)
            del kept
            yield Chunk(path, "pgn", b"", enc, line_offset, True, True, False, None, number, cr, (), stream), None
            stream.close()
            return
    piece = b"".join(parts)
    sizes.done += len(piece)
    damaged = src.damage
    yield Chunk(path, "pgn", piece, enc, line_offset, True, piece.endswith(b"\n") or lines.whole, damaged is not None,
                damaged if not piece and line_offset == 0 else None, number, cr,
                _cut_lines(lines.long_lines, line_offset, None), strict=strict and not lines.whole), \
        start if src.plain and not lines.long_lines else None


def chunk_lines(chunk: Chunk) -> TextLines:
    """The text lines of a chunk's bytes, decoded as the whole file is (:class:`xiangqi._encoding.TextLines`).

    >>> [block.lines for block in chunk_lines(Chunk("a.pgn", "pgn", b"1. h2e2\\nh9g7 *\\n")).blocks()]
    [['1. h2e2', 'h9g7 *']]
    """
    # No line limit here: a PGN chunk's lines were cut, where they were, by the parent's reading (a chunk read
    # from file offsets has no cut line: the offsets are not given after one).
    return TextLines(io.BytesIO(chunk.data).read, chunk.encoding or "utf-8", max(len(chunk.data), 1), cr=chunk.cr,
                     max_line=sys.maxsize, lazy=True, strict=chunk.strict)


def _cut_lines(long_lines: List[int], before: int, last: Optional[int]) -> Tuple[int, ...]:
    """The lines of ``long_lines`` (cut by the reading, in order) after line ``before``, up to line ``last``
    (all when ``None``)."""
    if not long_lines:
        return ()
    i = bisect.bisect_right(long_lines, before)
    k = len(long_lines) if last is None else bisect.bisect_right(long_lines, last)
    return tuple(long_lines[i:k])
