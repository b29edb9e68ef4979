"""The C replay of move text (``xq_replay.h``): :class:`TextPlayer`, one per thread (:func:`text_player`).

A player holds a C position, its undo records and the start positions it has seen (by FEN text); it plays a
main line's move text (``xq_play_text``) or move codes on them and answers the questions a reader or a
validator asks of the position reached. No cffi object leaves it: start positions are named by their FEN
text, moves are 16-bit codes (``from << 7 | to``).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from xiangqi._ffi import FEN_MAX, ffi, lib, raise_internal
from xiangqi._ffi.position import NativePosition
from xiangqi._ffi.rules import NativeHistory, NativeLoops

_UNDO_SIZE = int(ffi.sizeof("xq_undo"))
_MOVE_OFFSET = int(ffi.offsetof("xq_undo", "move"))
if _UNDO_SIZE % 2 or _MOVE_OFFSET % 2 or int(ffi.sizeof("xq_move")) != 2:  # pragma: no cover - other ABIs
    raise ImportError("xq_undo layout not supported by the buffer view")

#: Start positions kept per player (a file of many FEN tags clears them and starts again).
_MAX_STARTS = 4096


class TextPlayer:
    """One thread's C position, undo buffer and start positions for the C replay of move text.

    ``make_board(fen)`` gives the checked start board of a FEN text (it raises what the reader reports for a
    bad FEN); the player keeps a copy of each start position it was asked for."""

    def __init__(self, make_board: Callable[[str], NativePosition]) -> None:
        self.make_board = make_board
        self._copy = lib.xq_pos_copy           # the C calls of the hot path, looked up once
        self._play_text = lib.xq_play_text
        self._buffer = ffi.buffer
        self.pos: Any = ffi.new("xq_pos *")
        self._stop: Any = ffi.new("size_t *")
        self._stride = _UNDO_SIZE // 2
        self._first = _MOVE_OFFSET // 2
        self.cap = 0
        self._cap_bytes = 0   # the longest text the undo buffer surely holds
        self.undo: Any = None
        self.grow(1024)
        self._starts: Dict[str, Any] = {}
        self._fen_buf: Any = ffi.new("char[]", FEN_MAX)
        self._count_legal = lib.xq_count_legal
        self._text_ending = lib.xq_text_ending
        self._ending_out: Any = ffi.new("int[4]")
        self._unpack = ffi.unpack
        self._loops_cap = 0
        self._loops: Any = None

    def grow(self, need: int) -> None:
        """Room for ``need`` undo records; the records held are kept (validation plays on after a stop)."""
        old, old_cap = self.undo, self.cap
        self.cap = max(need, 2 * self.cap)
        self._cap_bytes = 4 * (self.cap - 2)
        self.undo = ffi.new("xq_undo[]", self.cap)
        if old_cap:
            ffi.memmove(self.undo, old, _UNDO_SIZE * old_cap)

    def prepare(self, fen: str) -> None:
        """Make ready (and keep) the start position of ``fen``; raises what ``make_board`` raises for a bad one."""
        self._start(fen)

    def _start(self, fen: str) -> Any:
        pos = self._starts.get(fen)
        if pos is None:
            board = self.make_board(fen)
            pos = ffi.new("xq_pos *")
            lib.xq_pos_copy(pos, board._pos)
            if len(self._starts) >= _MAX_STARTS:
                self._starts.clear()
            self._starts[fen] = pos
        return pos

    def _run(self, start: Any, data: bytes) -> int:
        """Play ``data`` from the C position ``start`` on :attr:`pos`, an undo record per move in :attr:`undo`:
        the number of moves played (the byte offset where it stopped is ``_stop[0]``)."""
        n = len(data)
        if n > self._cap_bytes:
            self.grow(n // 4 + 2)   # a played token and its separator take at least five bytes
        pos = self.pos
        self._copy(pos, start)
        plies: int = self._play_text(pos, data, n, self.undo, self.cap, self._stop)
        if plies < 0:  # pragma: no cover - only for bad arguments
            raise_internal(plies, "xq_play_text")
        return plies

    def codes(self, plies: int) -> List[int]:
        """The codes of the first ``plies`` moves of the undo records."""
        if plies <= 0:
            return []
        view = memoryview(self._buffer(self.undo, plies * _UNDO_SIZE)).cast("H")
        return view[self._first::self._stride].tolist()

    def run(self, fen: str, data: bytes) -> Tuple[int, int]:
        """Play the move text ``data`` from ``fen``'s start position on this player's position, an undo record
        per move: the number of moves played and the byte offset where the replay stopped."""
        start = self._starts.get(fen)
        return self._run(self._start(fen) if start is None else start, data), int(self._stop[0])

    def play(self, fen: str, data: bytes) -> Tuple[List[int], int]:
        """Play ``data`` from ``fen``: the codes of the moves played and the byte offset where it stopped."""
        start = self._starts.get(fen)
        plies = self._run(self._start(fen) if start is None else start, data)
        return self.codes(plies), int(self._stop[0])

    def play_on(self, board: NativePosition, data: bytes) -> List[int]:
        """The codes of the moves ``data`` plays from ``board``'s position (the board is not changed)."""
        return self.codes(self._run(board._pos, data))

    def copy_to(self, board: NativePosition) -> None:
        """Set ``board``'s position to this player's (its undo records and move history are not touched)."""
        lib.xq_pos_copy(board._pos, self.pos)

    def reset(self, fen: str) -> None:
        """Set this player's position to ``fen``'s start position."""
        lib.xq_pos_copy(self.pos, self._start(fen))

    def push_codes(self, codes: Sequence[int], ply: int) -> None:
        """Play ``codes`` (legal moves) on this player's position from ply ``ply`` on, with their undo records."""
        n = ply + len(codes)
        if n + 2 >= self.cap:
            self.grow(n + 2)
        do_move, pos, undo = lib.xq_pos_do_move, self.pos, self.undo
        for i, code in enumerate(codes, ply):
            do_move(pos, code, undo + i)

    def fen(self) -> str:
        """The FEN of this player's position."""
        n = lib.xq_pos_fen(self.pos, self._fen_buf, FEN_MAX)
        if n < 0:  # pragma: no cover - the buffer is FEN_MAX long
            raise_internal(n, "xq_pos_fen")
        return str(ffi.unpack(self._fen_buf, n).decode("ascii"))

    def side(self) -> int:
        """The side to move in this player's position: 1 Red, 0 Black."""
        return int(self.pos.side)

    def count_legal(self) -> int:
        """The number of legal moves in this player's position."""
        return int(self._count_legal(self.pos))

    def in_check(self) -> bool:
        """Whether the side to move in this player's position is in check."""
        return bool(lib.xq_pos_in_check(self.pos))

    def ending(self, plies: int, count: int, flags: int) -> Tuple[int, int, int, int, str]:
        """What judging the end of the game just played (``plies`` moves) asks of the C core, in one call
        (``xq_text_ending``): the number of legal moves in the last position, its halfmove clock, and, when it
        has legal moves and the game at least 4 plies, ``xq_repetition_loops`` over the game into this player's
        loop buffer (read with :meth:`loops`): how many due positions have a side whose every loop move attacks
        (negative: the C core refused the history) and how often the last position occurred (else 0 and 0);
        and the last position's FEN."""
        if self._loops_cap <= plies:
            self._loops_cap = 2 * plies + 2
            self._loops = ffi.new("xq_rep_info[]", self._loops_cap)
        out = self._ending_out
        n = self._text_ending(self.pos, self.undo, plies, count, flags, self._loops, self._fen_buf, FEN_MAX, out)
        if n < 0:  # pragma: no cover - only for bad arguments
            raise_internal(n, "xq_text_ending")
        legal, halfmove, suspects, end_count = self._unpack(out, 4)
        return legal, halfmove, suspects, end_count, self._unpack(self._fen_buf, n).decode("ascii")

    def loops(self, suspects: int) -> NativeLoops:
        """The loop summary of the last :meth:`ending` (``suspects`` is what it returned)."""
        return NativeLoops(self._loops, suspects)

    def history(self, plies: int) -> NativeHistory:
        """The game last played on this player as the rulings read it: its position and first ``plies``
        undo records (valid until the player plays again)."""
        return NativeHistory(self.pos, self.undo, plies)


_LOCAL = threading.local()


def text_player(make_board: Callable[[str], NativePosition]) -> TextPlayer:
    """This thread's :class:`TextPlayer` (made with ``make_board`` the first time)."""
    player: Optional[TextPlayer] = getattr(_LOCAL, "player", None)
    if player is None:
        player = _LOCAL.player = TextPlayer(make_board)
    return player


class CodeReplay:
    """Plays move codes on a scratch board's position without recording them (no move stack, one scratch undo
    record): about 0.35 µs a move, against 0.85 µs through a board's ``is_legal`` and ``push``."""

    __slots__ = ("_pos", "_undo")

    def __init__(self, board: NativePosition) -> None:
        self._pos = board._pos
        self._undo = ffi.new("xq_undo *")

    def play(self, codes: Sequence[int], start: int, upto: int) -> int:
        """Play ``codes[start:upto]``, each checked for legality (a 0 code is the null move: the turn passes):
        the index of the first code refused, ``upto`` when all were played."""
        pos, undo = self._pos, self._undo
        is_legal, do_move, do_null = lib.xq_pos_is_legal, lib.xq_pos_do_move, lib.xq_pos_do_null
        i = start
        while i < upto:
            c = codes[i]
            if not c:
                do_null(pos, undo)
            elif not is_legal(pos, c) or do_move(pos, c, undo):
                break
            i += 1
        return i
