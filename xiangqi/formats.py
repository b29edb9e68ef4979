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
import os
from typing import IO, Callable, Dict, Iterator, Optional, Tuple, Union

from xiangqi import dhtmlxq, pgn, xqf
from xiangqi.game import Game
from xiangqi.source import ByteSource

__all__ = ["Format", "FORMATS", "SNIFFED_SUFFIXES", "SNIFF_BYTES", "format_of", "detect", "detect_path",
           "sniffs_whole", "is_game_file", "read"]

#: What a reader takes: a path or the file's bytes.
Input = Union[str, "os.PathLike[str]", bytes]


def _read_xqf(source: Input) -> Iterator[Game]:
    yield xqf.read_xqf(source)


def _write_pgn(game: Game, file: IO[str]) -> None:
    pgn.write_game(game, file)


def _write_dhtmlxq(game: Game, file: IO[str]) -> None:
    file.write(dhtmlxq.write_dhtmlxq(game) + "\n")


def _write_xqf(game: Game, file: IO[bytes]) -> None:
    xqf.write_xqf(game, file)


@dataclasses.dataclass(frozen=True)
class Format:
    """One record format: its ``name``, the ``suffixes`` that name it, ``read`` (the games of a path or of
    bytes), ``write`` (one game to a file: text for PGN and DhtmlXQ, binary for XQF) and whether it is
    ``binary``.

    >>> FORMATS["pgn"].suffixes, FORMATS["xqf"].binary, sorted(FORMATS)
    (('.pgn',), True, ['dhtmlxq', 'pgn', 'xqf'])
    """

    name: str
    suffixes: Tuple[str, ...]
    read: Callable[[Input], Iterator[Game]]
    write: Union[Callable[[Game, IO[str]], None], Callable[[Game, IO[bytes]], None]]
    binary: bool = False


#: The formats by name.
FORMATS: Dict[str, Format] = {f.name: f for f in (
    Format("pgn", (".pgn",), pgn.read_games, _write_pgn),
    Format("xqf", (".xqf",), _read_xqf, _write_xqf, True),
    Format("dhtmlxq", (".dhtmlxq", ".dhtml", ".ubb"), dhtmlxq.read_games, _write_dhtmlxq),
)}
#: Suffixes of DhtmlXQ pages that other records are saved under too: the content decides.
SNIFFED_SUFFIXES = (".txt", ".htm", ".html")
#: How many (decompressed) bytes of a file :func:`detect` looks at.
SNIFF_BYTES = 1 << 16

_BY_SUFFIX = {s: f.name for f in FORMATS.values() for s in f.suffixes}
#: The start of a DhtmlXQ block as bytes in the encodings such pages come in (ASCII-compatible, UTF-16).
_DHTMLXQ_MARKS = (b"[dhtmlxq", "[DhtmlXQ".encode("utf-16-le"), "[DhtmlXQ".encode("utf-16-be"))


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
        return "pgn"
    suffix = _suffix(name)
    if writing and suffix in SNIFFED_SUFFIXES:
        return "dhtmlxq"
    return _BY_SUFFIX.get(suffix)


def _has_mark(data: bytes) -> bool:
    return _DHTMLXQ_MARKS[0] in data.lower() or any(m in data for m in _DHTMLXQ_MARKS[1:])


def detect(name: Union[str, "os.PathLike[str]"], head: bytes) -> str:
    """The format of a file from its name and its first (decompressed) bytes ``head``.

    >>> detect("page.txt", b"<p>[DhtmlXQ]"), detect("notes.txt", b"[Event "), detect("game.xqf", b"XQ")
    ('dhtmlxq', 'pgn', 'xqf')
    """
    by_name = format_of(name)
    if head[:2] == b"XQ" and (by_name == "xqf" or len(head) >= 1024 and b"\x00" in head[:1024]):
        return "xqf"
    if by_name is not None:
        return by_name
    if _has_mark(head[:SNIFF_BYTES]):
        return "dhtmlxq"
    return "pgn"


def _holds_dhtmlxq(src: ByteSource) -> bool:
    """Whether the rest of ``src`` holds a DhtmlXQ block (read in 1 MiB pieces)."""
    keep = max(len(m) for m in _DHTMLXQ_MARKS) - 1
    tail = b""
    while True:
        piece = src.read(1 << 20)
        if not piece:
            return False
        data = tail + piece
        if _has_mark(data):
            return True
        tail = data[-keep:]


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
        if fmt == "pgn" and sniffs_whole(path) and _holds_dhtmlxq(src):
            return "dhtmlxq"
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
        return detect_path(path) == "dhtmlxq"
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
