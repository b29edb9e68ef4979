"""Where the bytes of a game record come from: a path, ``bytes`` or an open file, gunzipped when compressed.

Every reader (PGN, DhtmlXQ, bulk validation) opens its input here, so one
input reads the same everywhere:

* :class:`ByteSource` opens a path, ``bytes`` or a binary file and gives its
  bytes, gunzipped when they start with the gzip magic bytes. Several gzip
  members in a row are read in turn (what ``cat a.gz b.gz`` makes), and NUL
  padding after the last one is ignored. Damage -- a stream cut short, a
  corrupt block, bytes after a member that are not another member, a read
  error -- ends the data there: everything before it is returned, and
  :attr:`ByteSource.damage` says what happened. Nothing here raises on
  damaged data; each reader decides how to report it.
* A path that is a stream (a pipe, a FIFO, ``/dev/stdin``) is read as it
  comes, never copied whole (:func:`poll_reader`: a Ctrl-C ends the wait for
  input at any moment); only a regular file's bytes have file offsets.
* Text lines and the one encoding policy are :mod:`xiangqi._encoding`'s
  (:class:`~xiangqi._encoding.TextLines`): blocks of whole lines with their
  byte offsets, so that a worker process given ``(path, offset, length)``
  reads exactly the lines the parent saw.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import zlib
from typing import IO, Any, Callable, Iterator, List, Optional, Protocol, Union

from xiangqi._encoding import MAX_LINE_BYTES, TextLines
from xiangqi.errors import InvalidRecordError

__all__ = ["GZIP_MAGIC", "Source", "Handle", "ByteSource", "Gunzip", "is_text_handle", "text_lines", "open_text",
           "poll_reader"]

#: The first two bytes of a gzip member.
GZIP_MAGIC = b"\x1f\x8b"

#: What the readers accept: a path, ``bytes``, or an open text or binary file.
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[str], IO[bytes]]


class Handle(Protocol):
    """An open file to read games from, text or binary: ``open(path)``, ``open(path, "rb")``, ``gzip.open(path)``,
    :class:`io.StringIO`, ``sys.stdin`` (what :func:`xiangqi.pgn.read_game` takes). Only ``read`` is required;
    ``seekable``, ``tell``, ``seek`` and ``readline`` are used when the file has them.

    >>> import io
    >>> handle: Handle = io.BytesIO(b"1. h2e2 *")
    >>> handle.read(5)
    b'1. h2'
    """

    def read(self, size: int = ..., /) -> Union[str, bytes]: ...


#: How long a read of a stream waits for input before the interpreter looks again for a Ctrl-C.
POLL_MS = 200


def poll_reader(raw: IO[bytes]) -> Callable[[int], bytes]:
    """A ``read(n)`` of the unbuffered stream ``raw`` (a pipe, a FIFO, a terminal) that gives ``n`` bytes
    (fewer only at the end) and can be interrupted by Ctrl-C at any moment.

    A plain blocking ``read`` cannot: a SIGINT that arrives just before the
    read starts is taken by Python's signal handler, which only flags it,
    and the read then waits for input that may never come (a FIFO nobody
    writes to) with the ``KeyboardInterrupt`` still pending. Waiting in
    ``poll`` with a timeout returns to the interpreter every
    :data:`POLL_MS` ms, where the flag is seen. Without ``poll`` (Windows)
    the reads are plain ones.

    >>> import os
    >>> r, w = os.pipe()
    >>> _ = os.write(w, b"[Event"); os.close(w)
    >>> with open(r, "rb", buffering=0) as raw:
    ...     read = poll_reader(raw)
    ...     read(4), read(100), read(1)
    (b'[Eve', b'nt', b'')

    Raises:
        * :exc:`OSError` from the reads.
    """
    import select

    poller = select.poll() if hasattr(select, "poll") else None   # no poll on Windows
    if poller is not None:
        poller.register(raw.fileno(), select.POLLIN | select.POLLPRI)

    ended = False   # the end, once seen, stays (a terminal's Ctrl-D ends one read only)

    def read(n: int) -> bytes:
        nonlocal ended
        parts: List[bytes] = []
        while n > 0 and not ended:
            if poller is not None:
                while not poller.poll(POLL_MS):
                    pass
            piece = raw.read(n)   # unbuffered: what the stream has, at most n bytes
            if not piece:
                ended = True
                break
            parts.append(piece)
            n -= len(piece)
        return b"".join(parts)
    return read


def is_text_handle(handle: object) -> bool:
    """Whether ``handle`` is an open file that reads ``str`` (not bytes).

    >>> import io
    >>> is_text_handle(io.StringIO("")), is_text_handle(io.BytesIO(b"")), is_text_handle(b"bytes")
    (True, False, False)
    """
    if isinstance(handle, io.TextIOBase):
        return True
    if isinstance(handle, (io.RawIOBase, io.BufferedIOBase)):
        return False
    try:
        return isinstance(handle.read(0), str)  # type: ignore[attr-defined]
    except Exception:
        return False


def _error_text(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text[0].lower() + text[1:]


class Gunzip:
    """A forward-only gzip decompressor over ``raw_read`` whose ``read(n)`` never raises.

    Members are read one after another; the data ends at the first damage,
    and :attr:`error` says what it was (``None`` for a sound stream).

    >>> import gzip, io
    >>> cut = Gunzip(io.BytesIO(gzip.compress(b"1. h2e2 *")[:-8]).read)   # the gzip trailer is missing
    >>> cut.read(100), cut.error
    (b'1. h2e2 *', 'the compressed data ends early (no end-of-stream marker)')
    """

    def __init__(self, raw_read: Callable[[int], bytes]) -> None:
        self._raw = raw_read
        self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._pending = b""
        self._done = False
        #: Why the data ended early, or ``None``.
        self.error: Optional[str] = None

    def _input(self) -> bytes:
        if self._d.unconsumed_tail:
            return self._d.unconsumed_tail
        if self._pending:
            data, self._pending = self._pending, b""
            return data
        return self._raw(1 << 16) or b""

    def read(self, n: int) -> bytes:
        """Up to ``n`` decompressed bytes; ``b""`` at the end of the data (or at the damage).

        >>> import gzip, io
        >>> unzip = Gunzip(io.BytesIO(gzip.compress(b"1. h2e2 *")).read)
        >>> unzip.read(2), unzip.read(100), unzip.read(1), unzip.error
        (b'1.', b' h2e2 *', b'', None)
        """
        out: List[bytes] = []
        size = 0
        while size < n and not self._done:
            data = self._input()
            if not data:
                if not self._d.eof:
                    self.error = "the compressed data ends early (no end-of-stream marker)"
                self._done = True
                break
            try:
                piece = self._d.decompress(data, n - size)
            except zlib.error as exc:
                self.error = f"damaged compressed data: {_error_text(exc)}"
                self._done = True
                break
            out.append(piece)
            size += len(piece)
            if self._d.eof:
                rest = self._d.unused_data
                if not rest:
                    rest = self._raw(1 << 16) or b""
                if rest.strip(b"\x00"):
                    if len(rest) < 2:
                        rest += self._raw(1 << 16) or b""
                    if rest[:2] != GZIP_MAGIC:
                        self.error = "the data after the end of a gzip member is not gzip"
                        self._done = True
                        break
                    self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
                    self._pending = rest
                else:
                    self._done = True
        return b"".join(out)


class ByteSource:
    """The bytes of one record input, read forward; gunzipped when they start with the gzip magic.

    ``source`` is a path (opened here and closed by :meth:`close`), ``bytes``
    or an open binary file (left open). Opening a path may raise
    :class:`OSError`; reading never raises: a read error or damaged gzip data
    ends the data and sets :attr:`damage`.

    >>> import gzip
    >>> with ByteSource(gzip.compress(b"[Event]")) as src:
    ...     src.gzipped, src.peek(3), src.read_all(), src.damage
    (True, b'[Ev', b'[Event]', None)

    Raises:
        * :exc:`OSError` (such as :exc:`FileNotFoundError`) when ``source`` is a path that cannot be opened.
    """

    def __init__(self, source: Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]) -> None:
        self._owned: Optional[IO[bytes]] = None
        handle: Any
        #: Whether the source is a regular file (a path): only then are its bytes at file offsets to read again.
        self.regular = False
        self._stream_read: Optional[Callable[[int], bytes]] = None
        if isinstance(source, (bytes, bytearray, memoryview)):
            handle = io.BytesIO(bytes(source))
        elif isinstance(source, (str, os.PathLike)):
            handle = self._owned = open(source, "rb")
            self.regular = stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
            if not self.regular:   # a stream: read as it comes, unbuffered, through poll
                self._stream_read = poll_reader(handle.raw)
        else:
            handle = source
        self._handle = handle
        #: Why the data ended early (damaged compression or a read error), or ``None``.
        self.damage: Optional[str] = None
        #: The :class:`OSError` that ended the data, when it was a read error rather than damaged data.
        self.read_error: Optional[OSError] = None
        self._head = self._raw_read(2)
        #: Whether the data is gzip-compressed.
        self.gzipped = self._head == GZIP_MAGIC
        self._gz = Gunzip(self._raw_after_head) if self.gzipped else None
        self._peeked = b""

    @property
    def plain(self) -> bool:
        """Whether the bytes read are a path's own bytes (so an offset is a file offset) and undamaged.

        >>> import gzip, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "game.pgn")
        >>> with open(path, "wb") as f:
        ...     _ = f.write(b"1. h2e2 *")
        >>> with ByteSource(path) as src, ByteSource(gzip.compress(b"1. h2e2 *")) as packed:
        ...     src.plain, packed.plain
        (True, False)
        """
        return self.regular and not self.gzipped and self.damage is None

    def _raw_read(self, n: int) -> bytes:
        try:
            data = self._handle.read(n) if self._stream_read is None else self._stream_read(n)
        except OSError as exc:
            self.damage = f"read error: {_error_text(exc)}"
            self.read_error = exc
            return b""
        return data or b""

    def _raw_after_head(self, n: int) -> bytes:
        if self._head:
            head, self._head = self._head, b""
            return head + self._raw_read(max(0, n - len(head)))
        return self._raw_read(n)

    def peek(self, n: int) -> bytes:
        """The next ``n`` bytes (fewer at the end), left to be read again.

        >>> src = ByteSource(b"[Event]")
        >>> src.peek(3), src.read(7)
        (b'[Ev', b'[Event]')
        """
        if len(self._peeked) < n:
            self._peeked += self._read(n - len(self._peeked))
        return self._peeked[:n]

    def _read(self, n: int) -> bytes:
        if self._gz is not None:
            data = self._gz.read(n)
            if self._gz.error is not None and self.damage is None:
                self.damage = self._gz.error
            return data
        return self._raw_after_head(n)

    def read(self, n: int) -> bytes:
        """Up to ``n`` bytes; ``b""`` at the end of the data.

        >>> src = ByteSource(b"[Event]")
        >>> src.read(3), src.read(100), src.read(1)
        (b'[Ev', b'ent]', b'')
        """
        if self._peeked:
            out, self._peeked = self._peeked[:n], self._peeked[n:]
            if len(out) < n:
                out += self._read(n - len(out))
            return out
        return self._read(n)

    def read_all(self) -> bytes:
        """Everything left.

        >>> import gzip
        >>> ByteSource(gzip.compress(b"a" * 5) + gzip.compress(b"b")).read_all()      # every gzip member
        b'aaaaab'
        """
        parts: List[bytes] = []
        while True:
            block = self.read(1 << 20)
            if not block:
                return b"".join(parts)
            parts.append(block)

    def close(self) -> None:
        """Close the file this source opened (a handle given to it stays open).

        >>> import io
        >>> handle = io.BytesIO(b"data")
        >>> ByteSource(handle).close(); handle.closed
        False
        """
        if self._owned is not None:
            self._owned.close()

    def __enter__(self) -> "ByteSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _handle_lines(handle: IO[str]) -> Iterator[str]:
    for line in handle:
        if "\ufeff" in line:
            line = line.replace("\ufeff", "")
        yield line[:-1] if line.endswith("\n") else line


def text_lines(source: Source, encoding: Optional[str] = None, *,
               long_lines: Optional[List[int]] = None, max_line: int = MAX_LINE_BYTES) -> Iterator[str]:
    """The text lines (without ``\n``) of a path, ``bytes``, or an open text or binary file.

    Binary input is read by :class:`ByteSource` and decoded by
    :class:`~xiangqi._encoding.TextLines` (``encoding`` overrides detection).
    Damaged compressed data raises :class:`~xiangqi.errors.InvalidRecordError`
    once every line read before the damage has been yielded (a read error re-raises its :class:`OSError` the
    same way). A file opened
    from a path is closed when the iterator ends or is discarded. A line still unfinished after ``max_line``
    bytes is cut there (:class:`~xiangqi._encoding.TextLines`); the numbers of the lines cut are appended to
    ``long_lines`` as they are read.

    >>> import gzip
    >>> list(text_lines("一 炮二平五\\n二".encode("gb18030"))), list(text_lines(gzip.compress(b"a\\nb")))
    (['一 炮二平五', '二'], ['a', 'b'])

    Raises:
        * :exc:`~xiangqi.errors.InvalidRecordError` when compressed data is damaged (after the lines before the
          damage);
        * :exc:`OSError` when a path cannot be opened or a read fails.
    """
    if is_text_handle(source):
        yield from _handle_lines(source)  # type: ignore[arg-type]
        return
    with open_text(source, encoding, max_line=max_line) as lines:  # type: ignore[arg-type]
        if long_lines is not None:
            lines.long_lines = long_lines
        yield from lines


@contextlib.contextmanager
def open_text(source: Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]],
              encoding: Optional[str] = None, *, max_line: int = MAX_LINE_BYTES,
              lazy: bool = False) -> Iterator[TextLines]:
    """The :class:`~xiangqi._encoding.TextLines` of a path, ``bytes`` or an open binary file (read by
    :class:`ByteSource`, ``encoding`` overriding detection), the file closed on leaving the block: what
    :func:`text_lines` reads, for a reader that takes the lines a block at a time (``lazy``: strict UTF-8
    blocks are decoded only when their text is asked for, see :class:`~xiangqi._encoding.TextLines`).

    >>> with open_text("一 炮二平五\\n二\\n".encode("gb18030")) as lines:
    ...     lines.encoding, [block.lines for block in lines.blocks()]
    ('gb18030', [['一 炮二平五', '二']])

    Raises:
        * :exc:`~xiangqi.errors.InvalidRecordError` when compressed data is damaged (on leaving the block, unless
          it raised);
        * :exc:`OSError` when a path cannot be opened or a read fails (a failed read on leaving the block).
    """
    src = ByteSource(source)
    try:
        yield TextLines(src.read, encoding, max_line=max_line, lazy=lazy)
    finally:
        src.close()
    if src.read_error is not None:
        raise src.read_error  # an input/output failure, not damaged data: the caller's OSError handling applies
    if src.damage is not None:
        raise InvalidRecordError(f"damaged gzip data: {src.damage}")
