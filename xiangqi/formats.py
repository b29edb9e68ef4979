"""The record formats in one table: name, file suffixes, how content is recognised, reader and writer.

``validate``, ``convert`` and ``judge`` choose a file's format here, so a file
reads the same way in each of them:

* a suffix names a format (``.pgn``, ``.xqf``, ``.dhtmlxq``…; a further
  ``.gz`` is gunzipped); ``.txt``, ``.htm`` and ``.html`` are suffixes that
  other records are saved under too, so there the content decides: DhtmlXQ
  when the file holds a ``[DhtmlXQ`` block anywhere, else what its first
  bytes say;
* content: an XQF header (``XQ`` and a binary 1,024-byte header), a
  ``[DhtmlXQ`` block (in ASCII-compatible text or UTF-16), else PGN.

>>> detect("game.txt", b"<html>[DhtmlXQ]...") , detect("x.pgn.gz", b"[Event "), format_of("a.xqf")
('dhtmlxq', 'pgn', 'xqf')
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
from typing import IO, Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from xiangqi import dhtmlxq, pgn, xqf
from xiangqi.game import Game
from xiangqi.source import ByteSource

__all__ = ["Format", "WriteOptions", "FORMATS", "SNIFFED_SUFFIXES", "SNIFF_BYTES", "register", "unregister", "format_of",
           "detect", "detect_path", "sniffs_whole", "is_game_file", "read", "read_bytes", "located_games", "names"]

#: What a reader takes: a path or the file's bytes.
Input = Union[str, "os.PathLike[str]", bytes]


@dataclasses.dataclass(frozen=True)
class WriteOptions:
    """How a writer writes moves, for the formats whose records hold move text (PGN): ``notation``
    (``chinese``, ``wxf`` or ``iccs``) and ``traditional`` Chinese characters.

    >>> import io
    >>> game = next(read_bytes("pgn", b"1. h2e2 h9g7 *"))
    >>> out = io.StringIO(); FORMATS["pgn"].write(game, out, WriteOptions("wxf")); out.getvalue().split()[-3:]
    ['C2.5', 'H8+7', '*']
    """

    notation: str = "chinese"
    traditional: bool = False


@dataclasses.dataclass(frozen=True)
class Format:
    """One record format: what every command needs to know of it.

    * ``name`` (the ``--from``/``--to``/``--format`` word), ``title`` (how messages name it) and the
      ``suffixes`` that name it;
    * ``read``: the games of a path or of the file's bytes; ``write``: one game to a file (text, or bytes
      when ``binary``), with :class:`WriteOptions`; ``one_game``: a file holds one game;
    * sniffing, one rule each: ``signature`` (the first bytes are this format whatever the file's name, as
      XQF's binary header) and ``marks`` (byte strings that, anywhere in a file of a
      :data:`SNIFFED_SUFFIXES` suffix or of no known suffix, make it this format; ASCII marks match in any
      letter case);
    * ``streamed``: files are cut into chunks of whole games and checked on the PGN reader's fast path (PGN);
      the others are read whole by ``read``;
    * ``cost``: about how many times the work per byte of PGN validating it takes (a scheduling hint; an XQF
      or DhtmlXQ file's variations are all read and played: measured about 30x);
    * ``lines``: the first line of each game in a file's text, where the format is text and its reader knows
      no better (``None``: games are not placed by line).

    >>> FORMATS["pgn"].suffixes, FORMATS["xqf"].binary, sorted(FORMATS)
    (('.pgn',), True, ['dhtmlxq', 'pgn', 'xqf'])
    """

    name: str
    title: str
    suffixes: Tuple[str, ...]
    read: Callable[[Input], Iterator[Game]]
    write: Callable[[Game, Any, WriteOptions], None]
    binary: bool = False
    one_game: bool = False
    signature: Optional[Callable[[bytes], bool]] = None
    marks: Tuple[bytes, ...] = ()
    streamed: bool = False
    cost: int = 1
    lines: Optional[Callable[[str], List[int]]] = None


def _read_xqf(source: Input) -> Iterator[Game]:
    yield xqf.read_xqf(source)


def _write_pgn(game: Game, file: IO[str], options: WriteOptions) -> None:
    pgn.write_game(game, file, notation=options.notation, traditional=options.traditional)


def _write_dhtmlxq(game: Game, file: IO[str], options: WriteOptions) -> None:
    file.write(dhtmlxq.write_dhtmlxq(game) + "\n")


def _write_xqf(game: Game, file: IO[bytes], options: WriteOptions) -> None:
    xqf.write_xqf(game, file)


def _xqf_header(head: bytes) -> bool:
    """An XQF file: ``XQ`` and a binary 1,024-byte header."""
    return head[:2] == b"XQ" and len(head) >= 1024 and b"\x00" in head[:1024]


_DHTMLXQ_START = re.compile(r"\[DhtmlXQ\]", re.I)


def _dhtmlxq_lines(text: str) -> List[int]:
    """The line of each ``[DhtmlXQ]`` block's start."""
    lines: List[int] = []
    pos, line = 0, 1
    for m in _DHTMLXQ_START.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        lines.append(line)
    return lines


#: The formats by name, in the order their signatures and marks are tried; :func:`register` adds one.
FORMATS: Dict[str, Format] = {}
#: Suffixes that other records are saved under too (web pages, notes): the content decides.
SNIFFED_SUFFIXES = (".txt", ".htm", ".html")
#: How many (decompressed) bytes of a file :func:`detect` looks at.
SNIFF_BYTES = 1 << 16
#: The format of text that no suffix, signature or mark places.
DEFAULT = "pgn"
_BY_SUFFIX: Dict[str, str] = {}


def register(fmt: Format) -> None:
    """Add ``fmt`` to :data:`FORMATS` (replacing one of the same name): every command (``validate``,
    ``convert``, ``judge``, ``render``) reads and writes it from then on.

    >>> import io
    >>> def read_lines(source):  # a toy format: one game a line, ICCS moves from the start
    ...     for line in (source if isinstance(source, bytes) else open(source, "rb").read()).decode().splitlines():
    ...         yield pgn.read_game(io.StringIO(line + " *"))
    >>> register(Format("lines", "move lines", (".lines",), read_lines,
    ...                 lambda game, file, options: file.write(" ".join(map(str, game.mainline_moves())) + "\\n")))
    >>> format_of("games.lines"), [m.iccs() for m in next(read_bytes("lines", b"h2e2 h9g7")).mainline_moves()]
    ('lines', ['h2e2', 'h9g7'])
    >>> unregister("lines"); format_of("games.lines") is None
    True

    Raises:
        * :exc:`ValueError` when a suffix of ``fmt`` names another format already.
    """
    for suffix in fmt.suffixes:
        owner = _BY_SUFFIX.get(suffix)
        if owner is not None and owner != fmt.name:
            raise ValueError(f"suffix {suffix!r} of format {fmt.name!r} names format {owner!r} already")
    FORMATS[fmt.name] = fmt
    _BY_SUFFIX.update({s: fmt.name for s in fmt.suffixes})


def unregister(name: str) -> None:
    """Remove the format ``name`` that :func:`register` added (see its example).

    >>> unregister("epd")
    Traceback (most recent call last):
    ...
    KeyError: 'epd'

    Raises:
        * :exc:`KeyError` when no format has that name.
    """
    fmt = FORMATS.pop(name)
    for suffix in fmt.suffixes:
        _BY_SUFFIX.pop(suffix, None)


def names() -> Tuple[str, ...]:
    """The names of the registered formats (the choices of ``--from``, ``--to`` and ``--format``).

    >>> names()
    ('pgn', 'xqf', 'dhtmlxq')
    """
    return tuple(FORMATS)


for _fmt in (
    Format("pgn", "PGN", (".pgn",), pgn.read_games, _write_pgn, streamed=True),
    Format("xqf", "XQF", (".xqf",), _read_xqf, _write_xqf, binary=True, one_game=True, signature=_xqf_header,
           cost=32),
    Format("dhtmlxq", "DhtmlXQ", (".dhtmlxq", ".dhtml", ".ubb"), dhtmlxq.read_games, _write_dhtmlxq,
           marks=(b"[dhtmlxq", "[DhtmlXQ".encode("utf-16-le"), "[DhtmlXQ".encode("utf-16-be")), cost=32,
           lines=_dhtmlxq_lines),
):
    register(_fmt)


def _suffix(name: str) -> str:
    low = os.path.basename(os.fspath(name)).lower()
    if low.endswith(".gz"):
        low = low[:-3]
    return os.path.splitext(low)[1]


def format_of(name: Union[str, "os.PathLike[str]"], *, writing: bool = False) -> Optional[str]:
    """The format a file name's suffix names (``.gz`` aside; a bare ``.gz`` is PGN), or ``None``.

    :data:`SNIFFED_SUFFIXES` name no format for reading (the content
    decides) and DhtmlXQ for ``writing``.

    >>> format_of("games.pgn.gz"), format_of("game.XQF"), format_of("page.html"), format_of("notes.md")
    ('pgn', 'xqf', None, None)
    >>> format_of("page.html", writing=True)
    'dhtmlxq'
    """
    name = os.fspath(name)
    if name.lower().endswith(".gz") and not _suffix(name):
        return DEFAULT
    suffix = _suffix(name)
    if writing and suffix in SNIFFED_SUFFIXES:
        return "dhtmlxq"  # a page written out holds DhtmlXQ blocks
    return _BY_SUFFIX.get(suffix)


def _has_mark(fmt: Format, data: bytes) -> bool:
    if not fmt.marks:
        return False
    low = data.lower()
    return any(m in (low if m.isascii() else data) for m in fmt.marks)


def _marked(data: bytes) -> Optional[str]:
    return next((f.name for f in FORMATS.values() if _has_mark(f, data)), None)


def detect(name: Union[str, "os.PathLike[str]"], head: bytes) -> str:
    """The format of a file from its name and its first (decompressed) bytes ``head``.

    >>> detect("page.txt", b"<p>[DhtmlXQ]"), detect("notes.txt", b"[Event "), detect("game.xqf", b"XQ")
    ('dhtmlxq', 'pgn', 'xqf')
    """
    for f in FORMATS.values():
        if f.signature is not None and f.signature(head):
            return f.name
    by_name = format_of(name)
    if by_name is not None:
        return by_name
    return _marked(head[:SNIFF_BYTES]) or DEFAULT


def _mark_in_rest(src: ByteSource) -> Optional[str]:
    """The format whose mark the rest of ``src`` holds, if any (read in 1 MiB pieces)."""
    keep = max((len(m) for f in FORMATS.values() for m in f.marks), default=1) - 1
    tail = b""
    while True:
        piece = src.read(1 << 20)
        if not piece:
            return None
        data = tail + piece
        found = _marked(data)
        if found is not None:
            return found
        tail = data[-keep:] if keep else b""


def sniffs_whole(name: Union[str, "os.PathLike[str]"]) -> bool:
    """Whether telling the format of a file of this name may take all of its bytes: one of
    :data:`SNIFFED_SUFFIXES` (optionally ``.gz``), where a DhtmlXQ block may come anywhere
    (:func:`detect_path`).

    >>> sniffs_whole("page.html"), sniffs_whole("notes.txt.gz"), sniffs_whole("games.pgn")
    (True, True, False)
    """
    return _suffix(os.fspath(name)) in SNIFFED_SUFFIXES


def detect_path(path: Union[str, "os.PathLike[str]"]) -> str:
    """The format of a file on disk: :func:`detect` on its first bytes, and for :data:`SNIFFED_SUFFIXES`
    DhtmlXQ when a block comes anywhere in it.

    >>> import pathlib, tempfile
    >>> page = pathlib.Path(tempfile.mkdtemp(), "page.html")
    >>> _ = page.write_text("<p>[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]</p>")
    >>> detect_path(page)
    'dhtmlxq'

    Raises:
        * :exc:`OSError` (such as :exc:`FileNotFoundError`) when the file cannot be opened.
    """
    with ByteSource(path) as src:
        head = src.peek(SNIFF_BYTES)
        fmt = detect(path, head)
        if fmt == DEFAULT and sniffs_whole(path):
            return _mark_in_rest(src) or fmt
        return fmt


def is_game_file(path: Union[str, "os.PathLike[str]"]) -> bool:
    """Whether a file met while walking a folder is a game record: a format's suffix (optionally ``.gz``),
    or one of :data:`SNIFFED_SUFFIXES` holding a DhtmlXQ block. A file that cannot be read is not one.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "page.html").write_text("<p>[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]")
    >>> _ = (folder / "index.html").write_text("<p>no game here</p>")
    >>> is_game_file(folder / "page.html"), is_game_file(folder / "index.html"), is_game_file("absent.pgn")
    (True, False, True)
    """
    if format_of(path) is not None:
        return True
    if _suffix(os.fspath(path)) not in SNIFFED_SUFFIXES:
        return False
    try:
        return detect_path(path) != DEFAULT
    except OSError:
        return False


def read(path: Union[str, "os.PathLike[str]"], fmt: Optional[str] = None) -> Iterator[Game]:
    """The games of a file, in ``fmt`` or the format :func:`detect_path` finds.

    >>> import pathlib, tempfile
    >>> page = pathlib.Path(tempfile.mkdtemp(), "page.html")
    >>> _ = page.write_text("<p>[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]</p>")
    >>> [[m.iccs() for m in game.mainline_moves()] for game in read(page)]
    [['h2e2', 'h9g7']]

    Raises:
        * :exc:`ValueError` when ``fmt`` names no format of :data:`FORMATS`;
        * :exc:`OSError` when the file cannot be opened.
    """
    name = fmt or detect_path(path)
    if name not in FORMATS:
        raise ValueError(f"unknown format {name!r}: expected one of {', '.join(FORMATS)}")
    return FORMATS[name].read(path)


def read_bytes(fmt: str, data: bytes) -> Iterator[Game]:
    """The games of a whole file's ``data`` in format ``fmt``.

    >>> page = b"<p>[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]</p>"
    >>> [m.iccs() for m in next(read_bytes("dhtmlxq", page)).mainline_moves()]
    ['h2e2']
    """
    return FORMATS[fmt].read(data)


def located_games(fmt: str, data: bytes, text: Optional[str]) -> Iterator[Tuple[Optional[int], Game]]:
    """The games of a whole file's ``data`` in format ``fmt`` (a text format's decoded ``text`` when the caller
    has it), each with its first line where the format places games by line (``None`` otherwise).

    >>> [(line, len(g.mainline_moves())) for line, g in located_games("dhtmlxq", b"",
    ...     "x\\n[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]")]
    [(2, 1)]
    """
    f = FORMATS[fmt]
    if f.lines is None or text is None:
        for game in f.read(data):
            yield None, game
        return
    lines = f.lines(text)
    for n, game in enumerate(f.read(io.StringIO(text))):  # type: ignore[arg-type]
        yield (lines[n] if n < len(lines) else None), game
