"""XQF (XQStudio) binary game records: reading every version, writing version 1.0.

An XQF file is a 1,024-byte header (magic ``XQ``, version, keys, the 32 pieces'
squares, result, type and Pascal strings in GB18030) followed by move records
in pre-order: each record is a move with flags saying whether a continuation
and a sibling variation follow, and optionally a comment. Version 0x0A
(XQF 1.0) is stored in the clear; from version 11 on (0x0B, seen: 0x0C, 0x10,
0x12) the piece squares, the move squares and the body are scrambled with
keys derived from four header bytes. The layout and the key schedule are
described in ``NOTATION.md`` §2.7 of the project's shared notes (from the
format author's XQF 1.0 note and the published converters).

:func:`read_xqf` returns the same :class:`~xiangqi.pgn.Game` model as the PGN
reader: headers from the header strings, the start position as a ``FEN`` tag
when it is not the standard one, the move tree with its comments. A move that
is illegal where it stands is recorded in ``game.errors`` and its subtree is
dropped; the rest of the tree (the moves before it and every other
variation) is kept. A file that is not XQF at all raises
:class:`~xiangqi.pgn.InvalidRecordError`.

>>> game = read_xqf(write_xqf(read_xqf(write_xqf(_demo()))))
>>> [m.iccs() for m in game.mainline_moves()], game.headers["Red"]
(['h2e2', 'h9g7'], '红方')
"""

from __future__ import annotations

import os
import struct
from typing import IO, Any, Dict, List, Optional, Sequence, Tuple, Union

from xiangqi.board import BaseBoard, Board
from xiangqi.core import (
    ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK, SQUARE_NAMES, STARTING_FEN, Move, same_square_message,
)
from xiangqi.errors import IllegalMoveError, InvalidFenError, InvalidMoveError, InvalidRecordError, XiangqiError
from xiangqi.game import Game, GameError, GameNode, start_board

__all__ = ["read_xqf", "write_xqf", "null_move_refused", "XqfHeader", "decode_header", "PIECE_ORDER", "HEADER_STRINGS",
           "piece_slots", "slots_board_fen"]

#: Piece types of the 16 slots of each side, in the file's fixed order (R N B A K A B N R C C P P P P P).
PIECE_ORDER = (ROOK, HORSE, ELEPHANT, ADVISOR, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, CANNON,
               PAWN, PAWN, PAWN, PAWN, PAWN)

#: (offset, size, PGN tag) of the header's Pascal strings.
HEADER_STRINGS = (
    (0x50, 64, "Title"), (0xD0, 64, "Event"), (0x110, 16, "Date"), (0x120, 16, "Site"),
    (0x130, 16, "Red"), (0x140, 16, "Black"), (0x150, 64, "TimeControl"), (0x190, 16, "RedTime"),
    (0x1A0, 16, "BlackTime"), (0x1D0, 16, "Annotator"), (0x1E0, 16, "Author"),
)

_RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}
_RESULT_BYTES = {"1-0": 1, "0-1": 2, "1/2-1/2": 3}
_COPYRIGHT = b"[(C) Copyright Mr. Dong Shiwei.]"
_HEADER_SIZE = 0x400
_FEN_LETTERS = "?pabncrk"


def _f(b: int) -> int:
    """The key schedule's square function, ``54·b² + 221`` modulo 256."""
    return (54 * b * b + 221) & 0xFF


class XqfHeader:
    """The decoded header of an XQF file.

    ``squares`` maps each of the 32 piece slots (Red's 16 then Black's, in
    :data:`PIECE_ORDER`) to an ICCS square or ``None`` when the piece is
    absent; ``strings`` holds the header strings by PGN tag; ``stream``,
    ``src_off``, ``dst_off`` and ``comment_off`` are the body keys (all zero
    for version 0x0A).

    >>> header = decode_header(write_xqf(_demo()))
    >>> header.version, header.strings, header.squares[:2]
    (10, {'Red': '红方'}, [0, 1])
    """

    __slots__ = ("version", "type", "result", "squares", "strings", "stream", "src_off", "dst_off",
                 "comment_off")

    def __init__(self) -> None:
        self.version = 0
        self.type = 0
        self.result = 0
        self.squares: List[Optional[int]] = [None] * 32
        self.strings: Dict[str, str] = {}
        self.stream = bytes(32)
        self.src_off = 0
        self.dst_off = 0
        self.comment_off = 0

    def board_fen(self) -> str:
        """The board part of the FEN for the stored pieces.

        >>> decode_header(write_xqf(_demo())).board_fen()
        'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR'
        """
        return slots_board_fen(self.squares)


def _xy_square(v: int) -> Optional[int]:
    """The ICCS square of an XQF square byte ``X*10+Y`` (``None`` if off the board)."""
    if v > 89:
        return None
    return (v % 10) * 9 + v // 10


def _square_xy(sq: int) -> int:
    return (sq % 9) * 10 + sq // 9


def decode_header(data: bytes) -> XqfHeader:
    """Decode and unscramble the 1,024-byte header.

    >>> decode_header(write_xqf(_demo())).strings
    {'Red': '红方'}
    >>> decode_header(write_xqf(_demo())[:100])
    Traceback (most recent call last):
    ...
    xiangqi.errors.InvalidRecordError: truncated XQF header: 100 bytes, the header alone has 1024 (version byte 0x0a)

    Raises:
        * :exc:`~xiangqi.errors.InvalidRecordError`: "not an XQF file" when the magic ``XQ`` is missing,
          "truncated XQF header" when it is there but the data ends before the header does.
    """
    if data[:2] != b"XQ":
        raise InvalidRecordError(f"not an XQF file: magic {data[:2]!r}, expected b'XQ'")
    if len(data) < _HEADER_SIZE:
        raise InvalidRecordError(f"truncated XQF header: {len(data)} bytes, the header alone has {_HEADER_SIZE} "
                                 f"(version byte {f'{data[2]:#04x}' if len(data) > 2 else 'missing'})")
    h = XqfHeader()
    h.version = data[2]
    h.result = data[0x33]
    h.type = data[0x40]
    raw = data[0x10:0x30]
    if h.version < 11:
        pos = list(raw)
    else:
        key_mask, key_sum, key_xy, key_xyf, key_xyt = data[3], data[0x0C], data[0x0D], data[0x0E], data[0x0F]
        piece_off = (_f(key_xy) * key_xy) & 0xFF
        h.src_off = (_f(key_xyf) * piece_off) & 0xFF
        h.dst_off = (_f(key_xyt) * h.src_off) & 0xFF
        h.comment_off = (key_sum * 256 + key_xy) % 32000 + 767
        keys = (data[8] | (key_sum & key_mask), data[9] | (key_xy & key_mask),
                data[10] | (key_xyf & key_mask), data[11] | (key_xyt & key_mask))
        h.stream = bytes(keys[i % 4] & _COPYRIGHT[i] for i in range(32))
        pos = [0] * 32
        for i in range(32):
            v = (raw[i] - piece_off) & 0xFF
            if h.version >= 12:
                pos[(piece_off + 1 + i) % 32] = v
            else:
                pos[i] = v
    h.squares = [_xy_square(v) for v in pos]
    for offset, size, tag in HEADER_STRINGS:
        n = min(data[offset], size - 1)
        text = data[offset + 1:offset + 1 + n].decode("gb18030", "replace").strip("\x00").strip()
        if text:
            h.strings[tag] = text
    return h


def _unscramble(body: bytes, stream: bytes) -> bytes:
    """Subtract ``stream[n mod 32]`` from every byte ``n`` of ``body`` (modulo 256), 32 slices at a time."""
    out = bytearray(body)
    for k in range(32):
        shift = stream[k]
        if shift:
            table = bytes((b - shift) & 0xFF for b in range(256))
            out[k::32] = body[k::32].translate(table)
    return bytes(out)


class _Body:
    """The unscrambled move-record area, read front to back (positions are file offsets)."""

    __slots__ = ("data", "pos", "plain")

    def __init__(self, data: bytes, header: XqfHeader) -> None:
        self.plain = header.version < 11
        body = data[_HEADER_SIZE:]
        self.data = data[:_HEADER_SIZE] + (body if self.plain else _unscramble(body, header.stream))
        self.pos = _HEADER_SIZE

    def take(self, n: int) -> bytes:
        start = self.pos
        if start + n > len(self.data):
            raise InvalidRecordError(f"XQF file truncated at byte {start:#x}: a record needs {n} more bytes")
        self.pos = start + n
        return self.data[start:start + n]

    def at_end(self) -> bool:
        return self.pos >= len(self.data)


_Record = Tuple[int, int, bool, bool, str]


def _read_record(body: _Body, header: XqfHeader) -> _Record:
    """One record: (source byte, destination byte, has next, has variation, comment)."""
    if body.plain:
        src, dst, tag, _, length = struct.unpack("<BBBBi", body.take(8))
        src, dst = (src - 24) & 0xFF, (dst - 32) & 0xFF
        has_next, has_var = bool(tag & 0xF0), bool(tag & 0x0F)
    else:
        src, dst, tag, _ = body.take(4)
        src = (src - 24 - header.src_off) & 0xFF
        dst = (dst - 32 - header.dst_off) & 0xFF
        has_next, has_var = bool(tag & 0x80), bool(tag & 0x40)
        length = 0
        if tag & 0x20:
            length = struct.unpack("<i", body.take(4))[0] - header.comment_off
    comment = ""
    if length:
        if length < 0 or length > len(body.data) - body.pos:
            raise InvalidRecordError(f"XQF comment length {length} at byte {body.pos:#x} runs past the end "
                                     f"of the file ({len(body.data)} bytes)")
        comment = body.take(length).decode("gb18030", "replace").replace("\r\n", "\n").strip()
    return src, dst, has_next, has_var, comment


def _start_fen(header: XqfHeader, first_move_src: Optional[int]) -> str:
    """The start FEN: the stored pieces, the side of the first move's piece (Red if no move)."""
    board = header.board_fen()
    red = True
    if first_move_src is not None:
        for slot, sq in enumerate(header.squares):
            if sq == first_move_src:
                red = slot < 16
    return f"{board} {'w' if red else 'b'} - - 0 1"


def read_xqf(source: Union[bytes, bytearray, str, "os.PathLike[str]", IO[bytes]]) -> Game:
    """Read an XQF game from ``bytes``, a path or a binary file.

    Raises :class:`~xiangqi.pgn.InvalidRecordError` when the data is not XQF
    (wrong magic) or ends inside the 1,024-byte header. Everything else (a bad start position, an
    illegal move, a truncated body) is recorded in ``game.errors`` with the
    record's byte offset (:attr:`GameError.offset`), keeping what was read
    before it.

    >>> game = read_xqf(write_xqf(_demo()))
    >>> [m.iccs() for m in game.mainline_moves()], game.errors
    (['h2e2', 'h9g7'], [])
    >>> read_xqf(b"GIF89a")
    Traceback (most recent call last):
    ...
    xiangqi.errors.InvalidRecordError: not an XQF file: magic b'GI', expected b'XQ'

    Raises:
        * :exc:`~xiangqi.errors.InvalidRecordError` when the data is not XQF or ends inside the header;
        * :exc:`OSError` when a path cannot be opened or read.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            data = fh.read()
    else:
        data = source.read()
    header = decode_header(data)
    game = Game()
    game.headers["Result"] = _RESULTS.get(header.result, "*")
    game.headers.update(header.strings)
    _read_tree(game, data, header)
    return game


def _read_tree(game: Game, data: bytes, header: XqfHeader) -> None:
    body = _Body(data, header)
    if body.at_end():
        fen = _start_fen(header, None)
        game.headers["FEN"] = fen
        _drop_standard_fen(game)
        try:
            start_board(fen)  # a header without moves still has to hold a position
        except InvalidFenError as e:
            game.errors.append(GameError(0, "", f"bad start position: {e}", 0, e))
        return
    try:
        _, _, root_next, _, root_comment = _read_record(body, header)
    except InvalidRecordError as e:
        game.errors.append(GameError(0, "", str(e), 0, e, offset=body.pos))
        root_next, root_comment = False, ""
    game.comment = root_comment
    first_src: Optional[int] = None
    if root_next and not body.at_end():
        raw = body.take(1)[0]
        body.pos -= 1
        first_src = _xy_square((raw - 24 - header.src_off) & 0xFF)
    fen = _start_fen(header, first_src)
    game.headers["FEN"] = fen
    _drop_standard_fen(game)
    try:
        board = start_board(fen)
    except InvalidFenError as e:
        game.errors.append(GameError(0, "", f"bad start position: {e}", 0, e))
        return
    # Pre-order walk. `parent` is the node the next record is a child of (None: a dropped subtree), `main`
    # whether it is on the main line (kept here: asking the node walks to the root, per error);
    # `pending` holds, per record that announced a sibling, the parent, its `main` and the ply to return to.
    parent: Optional[GameNode] = game
    main = True
    ply = 0
    pending: List[Tuple[Optional[GameNode], bool, int]] = []
    while root_next:
        offset = body.pos
        try:
            src_b, dst_b, has_next, has_var, comment = _read_record(body, header)
        except InvalidRecordError as e:
            game.errors.append(GameError(ply, "", str(e), 0, e, parent is not None and main, offset))
            return
        if has_var:
            pending.append((parent, main, ply))
        node: Optional[GameNode] = None
        node_main = False
        if parent is not None:
            src, dst = _xy_square(src_b), _xy_square(dst_b)
            same = src is not None and src == dst  # no move stays put (the null move has no XQF record)
            move: Optional[Move] = Move(src, dst) if src is not None and dst is not None and not same else None
            if move is not None and board.is_legal(move):
                node = GameNode._child(parent, move)
                node_main = main and parent.variations[0] is node
                node.comment = comment
                board.push(move)
                ply += 1
            elif same and src is not None:
                token = SQUARE_NAMES[src] * 2
                reason = same_square_message(token)
                game.errors.append(GameError(ply, token, reason, 0, InvalidMoveError(reason), main, offset))
            else:
                token = move.iccs() if move is not None else f"{src_b:02x}{dst_b:02x}"
                reason = (f"illegal move {token!r} in {board.fen()}: {board.illegal_reason(move)}"
                          if move is not None else f"move record with off-board squares ({src_b}, {dst_b})")
                err: XiangqiError = IllegalMoveError(reason) if move is not None else InvalidMoveError(reason)
                game.errors.append(GameError(ply, token, reason, 0, err, main, offset))
        if has_next:
            parent, main = node, node_main
        else:
            if not pending:
                break
            parent, main, back_ply = pending.pop()
            while ply > back_ply:
                board.pop()
                ply -= 1


def _drop_standard_fen(game: Game) -> None:
    if game.headers.get("FEN", "").split()[:2] == STARTING_FEN.split()[:2]:
        del game.headers["FEN"]


# ---------------------------------------------------------------------------------------------------------------
# Writing (version 0x0A, unscrambled)
# ---------------------------------------------------------------------------------------------------------------

def slots_board_fen(squares: Sequence[Optional[int]]) -> str:
    """The board part of the FEN of the 32 piece slots' squares (:func:`piece_slots`' layout; ``None``: no
    such piece; a later slot on the same square hides an earlier one).

    >>> slots_board_fen([0] + [None] * 19 + [84] + [None] * 11)
    '3k5/9/9/9/9/9/9/9/9/R8'
    """
    cells: List[str] = [""] * 90
    for slot, sq in enumerate(squares):
        if sq is not None:
            letter = _FEN_LETTERS[PIECE_ORDER[slot % 16]]
            cells[sq] = letter.upper() if slot < 16 else letter
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            c = cells[rank * 9 + file]
            if c:
                row += (str(empty) if empty else "") + c
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def piece_slots(board: BaseBoard) -> Optional[List[Optional[int]]]:
    """The square of each of the 32 piece slots XQF and DhtmlXQ share (``None``: no such piece).

    Slots 0-15 are Red's and 16-31 Black's, each side in :data:`PIECE_ORDER`.
    ``None`` when the position has more pieces of one kind than the slots hold.

    >>> from xiangqi import Board
    >>> slots = piece_slots(Board("3k5/9/9/9/9/9/9/9/9/R3K4 w"))
    >>> slots[0], slots[4], slots[8], slots[20]      # the first red rook, the red king, no second rook; black king
    (0, 4, None, 84)
    """
    slots: List[Optional[int]] = [None] * 32
    for sq, code in enumerate(board.piece_codes()):
        if not code:
            continue
        red, ptype = bool(code >> 3), code & 7
        for i in range(16):
            slot = i if red else 16 + i
            if slots[slot] is None and PIECE_ORDER[i] == ptype:
                slots[slot] = sq
                break
        else:
            return None
    return slots


def write_xqf(game: Game, file: Optional[IO[bytes]] = None) -> bytes:
    """The game as an XQF 1.0 (version 0x0A, unscrambled) file; also written to ``file``.

    The start position must fit XQF's 32 piece slots (at most the standard
    number of each piece, which every position the FEN reader accepts does);
    strings longer than their field are cut.

    >>> data = write_xqf(_demo())
    >>> len(data) == 1024 + 3 * 8, data[:3]    # the header, then 8-byte records: the root and each move
    (True, b'XQ\\n')

    Raises:
        * :exc:`~xiangqi.errors.InvalidFenError` when the game's ``FEN`` header is not a valid position;
        * :exc:`~xiangqi.errors.InvalidRecordError` when the start position has more pieces of one kind than
          XQF's slots (a guard: the FEN reader refuses such positions first), or the game holds a null move
          (XQF has no record for one: :func:`null_move_refused`).
    """
    board = game.board()
    header = bytearray(_HEADER_SIZE)
    header[0:2] = b"XQ"
    header[2] = 0x0A
    squares = piece_slots(board)
    if squares is None:
        raise InvalidRecordError(f"position {board.fen()} has more pieces of one kind than XQF can store")
    header[0x10:0x30] = bytes(0xFF if sq is None else _square_xy(sq) for sq in squares)
    header[0x33] = _RESULT_BYTES.get(game.headers.get("Result", "*"), 0)
    header[0x40] = 0 if not game.headers.get("FEN") else 2
    for offset, size, tag in HEADER_STRINGS:
        text = game.headers.get(tag, "")
        if text in ("?", "????.??.??"):
            text = ""
        raw = text.encode("gb18030", "replace")[:size - 1]
        header[offset] = len(raw)
        header[offset + 1:offset + 1 + len(raw)] = raw
    out = bytearray(header)

    def record(src: int, dst: int, has_next: bool, has_var: bool, comment: str) -> None:
        text = comment.replace("\n", "\r\n").encode("gb18030", "replace")
        tag = (0xF0 if has_next else 0) | (0x0F if has_var else 0)
        out.extend(struct.pack("<BBBBi", (src + 24) & 0xFF, (dst + 32) & 0xFF, tag, 0, len(text)))
        out.extend(text)

    record(0, 0, bool(game.variations), False, game.comment)
    # Pre-order: a node, then its continuation subtree, then its next sibling.
    stack: List[GameNode] = list(reversed(game.variations))
    while stack:
        node = stack.pop()
        assert node.move is not None and node.parent is not None
        if not node.move:
            raise null_move_refused("XQF", node)
        siblings = node.parent.variations
        has_var = siblings.index(node) < len(siblings) - 1
        record(_square_xy(node.move.from_square), _square_xy(node.move.to_square), bool(node.variations),
               has_var, node.comment)
        stack.extend(reversed(node.variations))
    data = bytes(out)
    if file is not None:
        file.write(data)
    return data


def null_move_refused(fmt: str, node: GameNode) -> InvalidRecordError:
    """The error of a writer whose format ``fmt`` has no null move (XQF, DhtmlXQ: their move records hold two
    squares, and a move from a square to itself is refused on reading), for the null move at ``node``. PGN
    writes it as ``0000``.

    >>> game = Game(); node = game.add_line([Move.from_iccs("h2e2"), Move.null()])
    >>> print(null_move_refused("XQF", node))
    XQF has no null move: ply 2 of the main line is the null move (PGN writes it as 0000)
    """
    where = "the main line" if node.is_mainline() else "a variation"
    return InvalidRecordError(f"{fmt} has no null move: ply {node.ply()} of {where} is the null move "
                              "(PGN writes it as 0000)")


def _demo() -> Game:
    game = Game()
    game.headers["Red"] = "红方"
    game.add_line([Move.from_iccs("h2e2"), Move.from_iccs("h9g7")])
    return game
