"""A board's position in C: :class:`NativePosition` and the perft calls on it."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

from xiangqi._ffi import FEN_MAX, MAX_MOVES, OK, ffi, join_bb, lib, raise_internal
from xiangqi.errors import InternalError

#: The "no square" value of the C core (a side without a king).
NO_SQUARE: int = lib.XQ_SQ_NONE
#: FEN reading flags: a side may have no king (a position being set up); more pieces of a type than the set holds.
FEN_ALLOW_NO_KING: int = lib.XQ_FEN_ALLOW_NO_KING
FEN_ALLOW_ANY_COUNT: int = lib.XQ_FEN_ALLOW_ANY_COUNT


# The C calls of the per-move paths (push, pop, len(legal_moves)), looked up once and typed here: a global name
# and a typed call save the attribute lookup on ``lib`` and an ``int()``/``bool()`` per call (about a tenth of a
# push and pop).
_pos_push: Callable[[Any, int, Any, int], int] = lib.xq_pos_push
_pos_pop: Callable[[Any, int, Any, int], int] = lib.xq_pos_pop
_count_legal: Callable[[Any], int] = lib.xq_count_legal
_pos_copy: Callable[[Any, Any], None] = lib.xq_pos_copy


class NativePosition:
    """One C position (``xq_pos``), its undo records and a move buffer: the state a board keeps in C.

    :class:`xiangqi.position.BaseBoard` builds on it; every C call on a board's position and every read of the C
    structs goes through these methods, so no other module handles cffi objects. Codes are the C core's:
    moves ``from << 7 | to``, pieces ``color << 3 | type``, colours 1 (Red) and 0 (Black)."""

    _pos: Any
    _undo: Any
    _movebuf: Any
    _cap: int
    _first_cap: int

    def _native_alloc(self, cap: int) -> None:
        """Fresh C buffers: the position; the ``cap`` undo records and the move list come with the first move
        played and the first move list (a board that is only read or copied -- a game's start, a writer's
        board -- never pays for them)."""
        self._pos = ffi.new("xq_pos *")
        self._cap = 0
        self._first_cap = cap
        self._undo = ffi.NULL
        self._movebuf = None

    def _native_grow(self, needed: int) -> None:
        """Room for at least ``needed`` undo records (doubling), keeping those there."""
        cap = self._cap or self._first_cap
        while cap < needed:
            cap *= 2
        if cap != self._cap:
            new = ffi.new("xq_undo[]", cap)
            if self._cap:
                ffi.memmove(new, self._undo, ffi.sizeof("xq_undo") * self._cap)
            self._undo = new
            self._cap = cap

    def _native_moves(self) -> Any:
        """The move list buffer (made on first use)."""
        buf = self._movebuf
        if buf is None:
            buf = self._movebuf = ffi.new("xq_move[]", MAX_MOVES)
        return buf

    def _native_copy_from(self, other: "NativePosition", plies: int) -> None:
        """This position set to ``other``'s, with its first ``plies`` undo records (0: none)."""
        lib.xq_pos_copy(self._pos, other._pos)
        if plies:
            self._native_grow(plies)
            ffi.memmove(self._undo, other._undo, ffi.sizeof("xq_undo") * plies)

    def _native_snapshot(self) -> Any:
        """A copy of this position alone (no undo records), opaque: :meth:`_native_restore` sets a position to it."""
        snap = ffi.new("xq_pos *")
        lib.xq_pos_copy(snap, self._pos)
        return snap

    def _native_restore(self, snapshot: Any) -> None:
        """This position set to a :meth:`_native_snapshot` (its undo records left as they are)."""
        _pos_copy(self._pos, snapshot)

    # -- FEN and fields

    def _native_set_fen(self, data: bytes, flags: int) -> Tuple[int, int]:
        """Load an ASCII FEN with the ``FEN_ALLOW_*`` ``flags``: the C status and the offset of the problem (0 when
        the status is :data:`OK`)."""
        off = ffi.new("size_t *")
        st = lib.xq_pos_set_fen_flags(self._pos, data, len(data), off, flags)
        return int(st), int(off[0])

    def _native_fen(self) -> str:
        buf = ffi.new("char[]", FEN_MAX)
        n = lib.xq_pos_fen(self._pos, buf, FEN_MAX)
        if n < 0:
            raise_internal(n, "xq_pos_fen")
        return str(ffi.unpack(buf, n).decode("ascii"))

    def _native_side(self) -> int:
        return int(self._pos.side)

    def _native_halfmove(self) -> int:
        return int(self._pos.halfmove)

    def _native_fullmove(self) -> int:
        return int(self._pos.fullmove)

    def _native_key(self) -> int:
        return int(self._pos.key)

    def _native_code_at(self, square: int) -> int:
        """The piece code on ``square`` (0-89), 0 when empty."""
        return int(self._pos.board[square])

    def _native_codes(self) -> bytes:
        """The 90 piece codes, square 0 first."""
        return bytes(ffi.buffer(self._pos.board, 90))

    def _native_king(self, color: int) -> int:
        """The king square of colour ``color`` (1 Red, 0 Black), :data:`NO_SQUARE` without one."""
        return int(self._pos.king_sq[color])

    def _native_keys(self, plies: int) -> List[int]:
        """The Zobrist keys before each of the first ``plies`` moves."""
        undo = self._undo
        return [int(undo[i].key) for i in range(plies)]

    def _native_captured(self, plies: int) -> bytes:
        """The code of the piece each of the first ``plies`` moves captured (0 for none)."""
        undo = self._undo
        return bytes(int(undo[i].captured) for i in range(plies))

    # -- moves

    def _native_legal_codes(self) -> List[int]:
        buf = self._movebuf or self._native_moves()
        n = lib.xq_gen_legal(self._pos, buf, MAX_MOVES)
        if n < 0:
            raise_internal(n, "xq_gen_legal")
        return list(ffi.unpack(buf, n))

    def _native_pseudo_legal_codes(self) -> List[int]:
        buf = self._movebuf or self._native_moves()
        n = lib.xq_gen_pseudo_legal(self._pos, buf, MAX_MOVES)
        if n < 0:
            raise_internal(n, "xq_gen_pseudo_legal")
        return list(ffi.unpack(buf, n))

    def _native_count_legal(self) -> int:
        return _count_legal(self._pos)

    def _native_is_legal(self, code: int) -> bool:
        return bool(lib.xq_pos_is_legal(self._pos, code))

    def _native_is_pseudo_legal(self, code: int) -> bool:
        return bool(lib.xq_pos_is_pseudo_legal(self._pos, code))

    def _native_gives_check(self, code: int) -> bool:
        return bool(lib.xq_gives_check(self._pos, code))

    def _native_push(self, code: int, ply: int) -> int:
        """Play ``code`` as ply ``ply`` (checked as :meth:`xiangqi.Board.push` checks): the C status."""
        if ply >= self._cap:
            self._native_grow(ply + 1)
        return _pos_push(self._pos, code, self._undo, ply)

    def _native_do_move(self, code: int, ply: int) -> int:
        """Play ``code`` as ply ``ply`` with the C core's do-move checks: the C status."""
        if ply >= self._cap:
            self._native_grow(ply + 1)
        return int(lib.xq_pos_do_move(self._pos, code, self._undo + ply))

    def _native_play_codes(self, codes: Sequence[int], ply: int, check_legal: bool) -> int:
        """Play ``codes`` from ply ``ply`` on: how many were played before the first refused one.

        Raises:
            :class:`OverflowError`, :class:`TypeError`: a code is not an int 0-65535.
        """
        n = len(codes)
        self._native_grow(ply + n)
        buf = ffi.new("xq_move[]", list(codes))
        played = lib.xq_pos_play_codes(self._pos, buf, n, self._undo + ply, 1 if check_legal else 0)
        if played < 0:
            raise_internal(played, "xq_pos_play_codes")
        return int(played)

    def _native_pop(self, code: int, ply: int) -> bool:
        """Take back ``code``, played as ply ``ply``: whether its undo record was another move's (misuse)."""
        return _pos_pop(self._pos, code, self._undo, ply) != 0

    # -- attacks and checks

    def _native_in_check(self) -> bool:
        return bool(lib.xq_pos_in_check(self._pos))

    def _native_opposite_in_check(self) -> bool:
        """Whether the side not to move is in check."""
        undo = ffi.new("xq_undo *")
        lib.xq_pos_do_null(self._pos, undo)
        try:
            return bool(lib.xq_pos_in_check(self._pos))
        finally:
            lib.xq_pos_undo_null(self._pos, undo)

    def _native_checkers(self) -> int:
        out = ffi.new("uint64_t[2]")
        lib.xq_pos_checkers(self._pos, out)
        return join_bb(out)

    def _native_attackers(self, square: int, color: int) -> int:
        out = ffi.new("uint64_t[2]")
        lib.xq_attackers_to(self._pos, square, color, out)
        return join_bb(out)

    def _native_attacks_from(self, square: int, color: int) -> int:
        """The squares a piece of colour ``color`` on ``square`` attacks (by the attacker sets of every square)."""
        pos, out, mask, bit = self._pos, ffi.new("uint64_t[2]"), 0, 1 << square
        for t in range(90):
            lib.xq_attackers_to(pos, t, color, out)
            if join_bb(out) & bit:
                mask |= 1 << t
        return mask

    def _native_pieces(self, color: int, piece_type: int) -> int:
        out = ffi.new("uint64_t[2]")
        lib.xq_pos_pieces(self._pos, color, piece_type, out)
        return join_bb(out)

    def _native_attack_counts(self, color: int, out: Any) -> None:
        """Write into the writable 90-byte buffer ``out`` how many pieces of ``color`` attack each square."""
        lib.xq_attack_counts(self._pos, color, ffi.from_buffer("uint8_t[]", out, require_writable=True))



def attackers_on_placement(fen: bytes, square: int, color: int) -> int:
    """The pieces of ``color`` attacking ``square`` in an ASCII FEN of any placement (an edited board)."""
    pos = NativePosition()
    pos._native_alloc(1)
    st, _ = pos._native_set_fen(fen, FEN_ALLOW_NO_KING | FEN_ALLOW_ANY_COUNT)
    if st != OK:  # pragma: no cover - the FEN is written from a board's own codes
        raise_internal(st, "xq_pos_set_fen_flags")
    return pos._native_attackers(square, color)





def native_perft(pos: NativePosition, depth: int, bulk: bool) -> int:
    """The perft count of ``pos`` to ``depth`` (``bulk``: the last ply counted, not played)."""
    return int(lib.xq_perft(pos._pos, depth, 1 if bulk else 0))


def perft_divide(pos: NativePosition, depth: int, bulk: bool) -> List[Tuple[int, int]]:
    """Each legal move code of ``pos`` with its perft count to ``depth``."""
    moves = ffi.new("xq_move[]", MAX_MOVES)
    counts = ffi.new("uint64_t[]", MAX_MOVES)
    n = lib.xq_perft_divide(pos._pos, depth, 1 if bulk else 0, moves, counts, MAX_MOVES)
    if n < 0:
        raise_internal(n, "xq_perft_divide")
    return [(int(moves[i]), int(counts[i])) for i in range(n)]


class PerftTable:
    """The transposition table of a hashed perft (``xq_perft_hashed``): about ``nbytes`` of zeroed memory, owned
    here (the C core never allocates), that the C core fills. Threads counting at once may share it, and later
    counts (any position, any depth) may reuse it."""

    def __init__(self, nbytes: int) -> None:
        bucket = int(lib.XQ_PERFT_HASH_BUCKET)
        if nbytes < bucket:
            raise ValueError(f"a perft hash table needs at least {bucket} bytes, not {nbytes}")
        #: The size in bytes: whole buckets.
        self.nbytes = nbytes // bucket * bucket
        self._words = ffi.new("uint64_t[]", self.nbytes // 8)


def legal_codes_after(root: NativePosition, code: int) -> List[int]:
    """The legal move codes of ``root`` after its legal move ``code`` (``root`` is left as it is)."""
    pos = NativePosition()
    pos._native_alloc(1)
    pos._native_copy_from(root, 0)
    st = pos._native_do_move(code, 0)
    if st:
        raise_internal(st, "xq_pos_do_move")
    return pos._native_legal_codes()


def perft_after(root: NativePosition, path: Sequence[int], depth: int, bulk: bool, stop: Any = None,
                table: Optional[PerftTable] = None, verify_every: int = 0) -> int:
    """The perft count to ``depth`` of ``root`` (left as it is) after the legal moves ``path``:
    ``xq_perft_stoppable``, or with a ``table`` ``xq_perft_hashed`` (bulk-counted; ``verify_every`` = N recounts
    one hit in N without the table). ``stop`` is an ``int *`` from ``ffi.new`` or None."""
    pos = root._pos
    if path:  # the C functions take the position as const: only a path needs a copy
        pos = ffi.new("xq_pos *")
        lib.xq_pos_copy(pos, root._pos)
        undo = ffi.new("xq_undo *")
        for code in path:
            st = lib.xq_pos_do_move(pos, code, undo)
            if st:
                raise_internal(st, "xq_pos_do_move")
    if stop is None:
        stop = ffi.NULL
    if table is None:
        return int(lib.xq_perft_stoppable(pos, depth, 1 if bulk else 0, stop))
    out = ffi.new("uint64_t *")
    st = lib.xq_perft_hashed(pos, depth, table._words, table.nbytes, verify_every, stop, out)
    if st == lib.XQ_E_HASH_MISMATCH:
        raise InternalError(f"hashed perft: a table count differs from its recount without the table "
                            f"(depth {depth}); count without --hash")
    if st:
        raise_internal(st, "xq_perft_hashed")
    return int(out[0])
