"""The C scan of PGN text for game starts (``xq_scan.h``)."""

from __future__ import annotations

from typing import List, Optional, Tuple

from xiangqi._ffi import ffi, lib

#: Byte kinds of the scan: every byte below 0x80 an ASCII character (UTF-8), or a byte from 0x81 beginning a
#: two-byte character (GBK, GB18030, Big5).
UTF8 = int(lib.XQ_SCAN_UTF8)
DOUBLE_BYTE = int(lib.XQ_SCAN_DOUBLE_BYTE)

_UNDECIDED = int(lib.XQ_SCAN_UNDECIDED)
#: The starts array is as long as the worst case (a quarter of the block) and never read past what the scan
#: wrote: allocated without zeroing it (zeroing cost about as much as the scan itself).
_NEW = ffi.new_allocator(should_clear_after_alloc=False)


def pgn_game_starts(data: bytes, kind: int, in_comment: bool) -> Optional[Tuple[List[int], bool]]:
    """``xq_pgn_game_starts`` over ``data`` of byte kind ``kind`` (:data:`UTF8` or :data:`DOUBLE_BYTE`), a
    ``{`` comment open before it or not: the byte offsets of the game starts found and whether a comment is
    open at the end; ``None`` where the scan leaves the text undecided.

    Raises:
        * :exc:`ValueError` when the C scan refuses its arguments (a bug, never bad text).
    """
    cap = len(data) // 4 + 1   # a start needs at least a move line, a blank line and "[" before the next
    starts = _NEW("size_t[]", cap)
    state = _NEW("int *", in_comment)
    n = int(lib.xq_pgn_game_starts(data, len(data), kind, state, starts, cap))
    if n < 0:
        if n == _UNDECIDED:
            return None
        raise ValueError(f"xq_pgn_game_starts failed with status {n}")  # pragma: no cover - bad arguments
    return list(ffi.unpack(starts, n)), bool(state[0])


def pgn_plain_games(data: bytes, kind: int, starts: List[int]) -> List[int]:
    """``xq_pgn_plain_games``: for the games ``data[0:starts[0]]``, ``data[starts[0]:starts[1]]``, ... (the
    starts :func:`pgn_game_starts` found), three numbers each: where its tag lines end (its first ``"\\n\\n"``)
    when it surely is one game of the common form as the splitter's line loop reads it, else -1; its end; its
    number of lines (0 when -1).

    Raises:
        * :exc:`ValueError` when the C function refuses its arguments (a bug, never bad text).
    """
    n = len(starts)
    info = _NEW("long[]", 3 * n)
    got = int(lib.xq_pgn_plain_games(data, len(data), kind, starts, n, info))
    if got != n:
        raise ValueError(f"xq_pgn_plain_games failed with status {got}")  # pragma: no cover - bad arguments
    return list(ffi.unpack(info, 3 * n))


def double_byte_plain(data: bytes, pairs: bytes) -> bool:
    """``xq_double_byte_plain``: whether ``data`` is ASCII and two-byte characters that the table ``pairs``
    (32,768 bytes: ``pairs[(lead - 0x80) * 256 + trail]`` non-zero where the pair decodes) marks as decoding.

    Raises:
        * :exc:`ValueError` when the table is not 32,768 bytes long.
    """
    if len(pairs) != 1 << 15:
        raise ValueError(f"a pair table has 32768 bytes, not {len(pairs)}")
    return bool(lib.xq_double_byte_plain(data, len(data), pairs) == 1)
