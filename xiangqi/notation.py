"""Move notation: Chinese (simplified, traditional, full-width), WXF letters and ICCS coordinates.

Reading is lenient; writing follows one documented convention.  A token is
*decoded* once into a small description that does not depend on the position
(cached by its text), then *resolved* against a position given as the 90 C
piece codes and the side to move.  Resolving a plain token such as ``車二進六``
costs one slice of the piece codes and one count; the C core is asked only
whether the resulting move is legal (and, rarely, which of two pieces that
could both make a move is allowed to).

Reading
=======

Chinese (four-character vertical-line notation, 纵线记谱):

* pieces: 帅帥 / 将將 (king), 仕士 (advisor), 相象 (elephant), 马馬傌㐷 (horse),
  车車俥伡 (rook), 炮砲包 (cannon), 兵 / 卒 (pawn).  帅帥兵 belong to Red and
  将將卒 to Black; such a character for the side not to move raises
  :class:`IllegalMoveError`.  The other characters name either side's piece
  (books write 士/象 for Red as well).
* directions: 进進 and the older 上 (forward), 退 and the older 下
  (backward), 平 (sideways).
* numerals: 一…九, ``1``…``9`` and full-width ``１``…``９``, either script for
  either side.  A number always counts in the mover's own numbering: files
  from the mover's right.
* several pieces of one kind on one file: 前/后(後) for two; 前/中/后 for
  three; 前 (or 一), 二, 三, 四, 五 and 后 for the last, for four or five.
  When two files each hold two or more pawns the file is added, with five
  characters (``前兵九平八``) or with the piece left out (``前九平八``,
  ``二7平6``).  An ordinal with the piece and no file (``二兵进一``) counts
  xqbase's way: every pawn on a file holding two or more, files from the
  mover's right, then front to back.  Advisors and elephants do not need
  前/后 but may have it.  A piece written with its file when others of its
  kind stand there is accepted when only one of them can make the move.

WXF: letters ``K A E H R C P`` (``B``/``N`` too, either case), operators ``+``
``-`` and ``.`` or ``=``.  Several pieces on a file: ``R+.3``, ``C-+1``; pawns
``P+``/``P-`` (2 or 3), ``P<file>`` (the middle pawn of 3 or 5), ``++``/
``P+``/``P-``/``--`` (4 or 5), ``3+``/``33``/``3-`` (two files with tandem
pawns: file digit first), pyffish's ``17=6`` (ordinal, then file) and
xqbase's ``C+-2``, ``+C-2``, ``Pa+1``, ``P.+1``.  ``33`` is the middle pawn
of three on file 3 in WXF but the third in pyffish; when both readings name a
pawn that can make the move, the text is ambiguous.

ICCS: ``h2e2``, ``H2-E2`` (ranks 0–9); ``0000`` is the null move.
Fairy-Stockfish's and pyffish's 1-based ranks (``h3e3``, ``a10a9``) are read
only with ``one_based=True``: ``h3e3`` is also a valid 0-based move.

:func:`parse_move` detects the notation: text with Chinese characters is
Chinese; ASCII text (full-width letters, digits and signs are folded to ASCII
first) is ICCS when it has that shape and WXF otherwise.

In every notation, annotation marks after a complete move are dropped:
``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``, ``+``, ``#``, ``。``, ``！``, ``？``
(``炮二平五!``, ``C2.5?!``, ``h2e2#``).  A complete move is four characters or
more ending in a numeral, so a WXF operator (``C2+1``, ``P++1``) is never taken
for a mark, and ``C2+`` is reported as too short.

Writing (the canonical forms)
=============================

Chinese, always four characters.  Simplified (default): 帅仕相车马炮兵 /
将士象车马炮卒, 进退平, 前中后; traditional: 帥仕相車馬炮兵 / 將士象車馬炮卒,
進退平, 前中後 (exactly the CCPD corpus's forms).  Red's numerals are 一…九;
Black's are full-width ``１``…``９`` (``fullwidth=False``: ``1``…``9``).
Pieces of one kind on one file: 前/后 (2), 前/中/后 (3), 前/二/三/四/五
(4 or 5) in place of the piece's file; advisors and elephants get 前/后 only
when the direction does not tell them apart.  When two files each hold two
or more pawns, those pawns are written qualifier, file, direction, number
(``前九平八``), the four-character form of the Chinese rules.  With
``compact=True`` a rook, horse, cannon or king gets 前/后 only when the other
piece on its file could make the same move by the piece rules, which is the
CCPD corpus's habit: ``format_game(..., traditional=True, compact=True)``
rewrites every move of its games exactly as the corpus has it.

WXF: upper-case letters ``K A E H R C P`` for both sides, operators ``+ - .``;
``R+``/``R-`` for two pieces on a file; pawns ``P+ P-`` (2), ``P+ P<f> P-``
(3), ``++ P+ P- --`` (4), ``++ P+ P<f> P- --`` (5); two files with tandem
pawns ``<f>+``, ``<f><f>`` (middle of 3; ``2<f>`` on files 1 and 3, where
``<f><f>`` would be ambiguous), ``<f>-``.

ICCS: lower case ``h2e2``; ``one_based=True`` writes ``h3e3``.

Whole games
===========

:func:`parse_game`, :func:`format_game` and :func:`convert_game` take a FEN and
a list of tokens or moves.  They follow the pieces in a local copy of the piece
codes, so a token costs a dictionary lookup and a few byte operations; the
moves are checked for legality on one board, and the error (typed as for a
single move) names the token, its ply and the position before it.
"""

from __future__ import annotations

from typing import Callable, Dict, Iterable, List, NoReturn, Optional, Sequence, Tuple, Union

from xiangqi._ffi.replay import CodeReplay
from xiangqi._notation_text import (
    ALL, ANY, ANY_CACHE, any_entry, CHINESE_CACHE, chinese_entry, delta_of, Desc, DIAGONAL, Entry, file_index,
    file_number_of, ICCS_CACHE, iccs_entry, Invalid, KIND_CHINESE, KIND_ICCS, KIND_NAMES, LAST, MIDDLE, ORDINALS,
    PIECE_WORD, RED_NUMERALS, SIDE_WORD, Style, STYLES, W_FILE, W_FRONT, W_MID_OR_ORD, W_REAR, WXF_CACHE, wxf_entry,
    WXF_LETTERS,
)
from xiangqi.core import ADVISOR, ELEPHANT, NULL_MOVE_TEXT, NULL_MOVE_TEXTS, PAWN, SQUARE_NAMES, STARTING_FEN, Move
from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from xiangqi._reasons import piece_name as _piece_name
from xiangqi._reasons import pseudo_reason as _pseudo_reason
from xiangqi._reasons import why_illegal as _why_illegal
from xiangqi.position import BaseBoard

__all__ = [
    "format_chinese",
    "parse_chinese",
    "format_wxf",
    "parse_wxf",
    "format_iccs",
    "parse_iccs",
    "parse_move",
    "decode_move",
    "parse_game",
    "format_game",
    "convert_game",
    "NOTATIONS",
]

#: Notation names accepted by the whole-game functions.
NOTATIONS = ("chinese", "wxf", "iccs")

_Codes = Union[bytes, bytearray]

# ---------------------------------------------------------------------------
# Geometry: why a move is not legal
# ---------------------------------------------------------------------------


def illegal_reason(board: BaseBoard, move: Move) -> str:
    """Why ``move`` is not legal on ``board``, in one phrase (``'legal'`` when it is): the wording every
    parser and record reader of this library gives for an illegal move."""
    if move.from_square < 90 and move.to_square < 90 and board.is_legal(move):
        return "legal"
    return _why_illegal(board.piece_codes(), bool(board.turn), move.from_square, move.to_square)


# ---------------------------------------------------------------------------
# Resolution: description + position -> move code
# ---------------------------------------------------------------------------

#: A legality test on 16-bit move codes in the current position.
_Legal = Callable[[int], bool]


class _Fail(Exception):
    """Raised by the resolver; the public functions add the token, the ply and the FEN."""

    def __init__(self, cls: type, reason: str) -> None:
        super().__init__(reason)
        self.cls = cls
        self.reason = reason


def _file_squares(pc: _Codes, fi: int, code: int, red: bool) -> List[int]:
    """Squares of piece ``code`` on file index ``fi``, the front one (nearest the opponent) first."""
    col = pc[fi::9]
    ranks = [r for r in range(10) if col[r] == code]
    if red:
        ranks.reverse()
    return [r * 9 + fi for r in ranks]


def _select(seq: List[int], q: int) -> List[int]:
    """The pieces qualifier ``q`` picks among ``seq`` (one file, front to back)."""
    k = len(seq)
    if k == 0:
        return []
    if 1 <= q <= 5:
        return seq[q - 1:q]
    if q == LAST:
        return [seq[-1]]
    if q == ALL:
        return seq
    if q == W_FILE:
        return [seq[k // 2]] if k in (1, 3, 5) else seq
    if q == MIDDLE:
        if k % 2:
            return [seq[k // 2]] if k >= 3 else []
        return seq[k // 2 - 1:k // 2 + 1] if k >= 4 else []
    if q == W_FRONT:
        return [seq[0] if k <= 3 else seq[1]]
    if q == W_REAR:
        return [seq[-1] if k <= 3 else seq[-2]]
    # W_MID_OR_ORD + d: WXF's "dd" is the middle pawn of 3 or 5, pyffish's is the d-th
    o = q - W_MID_OR_ORD
    return list(dict.fromkeys(([seq[k // 2]] if k in (3, 5) else []) + seq[o - 1:o]))


def _candidates(desc: Desc, pc: _Codes, red: bool) -> List[int]:
    """From-squares the description can mean, before looking at the move itself."""
    code = int(red) << 3 | desc.ptype
    out: List[int] = []
    for q, f in desc.selectors:
        if f:
            out.extend(_select(_file_squares(pc, file_index(f, red), code, red), q))
            continue
        files = range(8, -1, -1) if red else range(9)  # from the mover's right
        groups = [g for g in (_file_squares(pc, fi, code, red) for fi in files) if len(g) >= 2]
        if 1 <= q <= 5 and len(groups) > 1:
            out.extend([sq for g in groups for sq in g][q - 1:q])  # xqbase's ordinals across files
        else:
            for g in groups:
                out.extend(_select(g, q))
    return list(dict.fromkeys(out))


def _no_candidate(desc: Desc, pc: _Codes, red: bool) -> str:
    code = int(red) << 3 | desc.ptype
    pname = _piece_name(code)
    parts = []
    for q, f in desc.selectors:
        if f:
            fi = file_index(f, red)
            n = pc[fi::9].count(code)
            where = f"file {RED_NUMERALS[f - 1] if red else f} (ICCS file {'abcdefghi'[fi]})"
            parts.append(f"there is no {pname} on {where}" if n == 0 else
                         f"the qualifier picks none of the {n} {pname}s on {where}")
        elif not any(pc[fi::9].count(code) >= 2 for fi in range(9)):
            parts.append(f"no two {pname}s stand on one file, so 前/中/后, ordinals and +/- do not apply")
        else:
            parts.append(f"the qualifier picks none of the {pname}s standing two or more on a file")
    return "; ".join(dict.fromkeys(parts))


def _resolve(desc: Desc, pc: _Codes, red: bool, legal: _Legal) -> int:
    """The move code a description names, or raise :class:`_Fail`.

    The code obeys the piece rules; it is fully legal only if several
    candidates had to be told apart (``legal`` is asked then), so the caller
    still checks the result.  ICCS codes are returned as they are.
    """
    if desc.kind == KIND_ICCS:
        return desc.code
    side = SIDE_WORD[int(red)]
    if desc.hint not in (ANY, int(red)):
        raise _Fail(IllegalMoveError, f"{desc.text[0] if desc.kind == KIND_CHINESE else desc.text[:2]!r} is "
                    f"{SIDE_WORD[desc.hint]}'s {PIECE_WORD[desc.ptype]}, but {side} is to move")
    cands = _candidates(desc, pc, red)
    if not cands:
        raise _Fail(IllegalMoveError, _no_candidate(desc, pc, red))
    moves: List[int] = []
    reasons: List[str] = []
    for frm in cands:
        delta = delta_of(desc.ptype, red, frm % 9, desc.direction, desc.number)
        to = -1 if delta is None else frm + delta
        if not 0 <= to < 90:
            reasons.append(f"the {_piece_name(pc[frm])} on {SQUARE_NAMES[frm]} has no such move "
                           f"(it would leave the board{' or not change file' if delta is None else ''})")
            continue
        reason = _pseudo_reason(pc, red, frm, to)
        if reason is None:
            moves.append(frm << 7 | to)
        else:
            reasons.append(reason)
    if len(moves) == 1:
        return moves[0]
    if not moves:
        raise _Fail(IllegalMoveError, "; ".join(reasons))
    legal_moves = [c for c in moves if legal(c)]
    if len(legal_moves) == 1:
        return legal_moves[0]
    if not legal_moves:
        raise _Fail(IllegalMoveError, "; ".join(_why_illegal(pc, red, c >> 7, c & 127) for c in moves))
    pname = _piece_name(pc[legal_moves[0] >> 7])
    hint = "前/后 (前/中/后, 一…五)" if desc.kind == KIND_CHINESE else "+/- (or an ordinal)"
    raise _Fail(AmbiguousMoveError, f"the {pname}s on {' and '.join(SQUARE_NAMES[c >> 7] for c in legal_moves)} "
                f"can each make it ({', '.join(Move.from_code(c).iccs() for c in legal_moves)}); "
                f"name one with {hint}")


# ---------------------------------------------------------------------------
# One move against a Board
# ---------------------------------------------------------------------------

_ERROR_WORD: Dict[type, str] = {InvalidMoveError: "invalid", IllegalMoveError: "illegal",
                                AmbiguousMoveError: "ambiguous"}


def _show(text: object) -> str:
    r = repr(text)
    return r if len(r) <= 40 else r[:36] + "…'"


def _error(cls: type, what: str, text: object, fen: str, reason: str, ply: int = -1) -> Exception:
    where = f" at ply {ply}" if ply >= 0 else ""
    err: Exception = cls(f"{_ERROR_WORD.get(cls, 'bad')} {what + ' ' if what else ''}move {_show(text)}{where} "
                         f"in {fen}: {reason}")
    return err


def _legal_fn(board: BaseBoard) -> _Legal:
    is_legal = board.is_legal
    return lambda code: bool(is_legal(Move(code >> 7, code & 127)))


def _fast_code(fast: Tuple[int, int, int], pc: Sequence[int]) -> int:
    """The move code of an entry's fast form (piece code, file, step) when exactly one such piece stands on the
    file and the step stays on the board, else -1 (the move needs the full resolution)."""
    pcode, fi, delta = fast
    col = pc[fi::9]
    if col.count(pcode) == 1:
        frm = col.index(pcode) * 9 + fi
        to = frm + delta
        if 0 <= to < 90:
            return frm << 7 | to
    return -1


def _parse_with(board: BaseBoard, text: str, get_entry: Callable[[str], Entry], what: str) -> Move:
    if not isinstance(text, str):
        raise TypeError(f"a move text must be a str, not {type(text).__name__}")
    if text.strip() in NULL_MOVE_TEXTS:
        return Move.null()
    try:
        e = get_entry(text)
    except Invalid as exc:
        raise _error(InvalidMoveError, what, text, board.fen(), str(exc)) from None
    red = bool(board.turn)
    pc = board.piece_codes()
    fast = e[1] if red else e[0]
    code = -1 if fast is None else _fast_code(fast, pc)
    d = e[2]
    if code < 0:
        try:
            code = _resolve(d, pc, red, _legal_fn(board))
        except _Fail as fail:
            raise _error(fail.cls, what or KIND_NAMES[d.kind], text, board.fen(), fail.reason) from None
        if code == 0:
            return Move.null()
    m = Move(code >> 7, code & 127)
    if code >> 7 >= 90 or not board.is_legal(m):
        raise _error(IllegalMoveError, what or KIND_NAMES[d.kind], text, board.fen(),
                     _why_illegal(pc, red, code >> 7, code & 127))
    return m


def parse_chinese(board: BaseBoard, text: str) -> Move:
    """The legal move that Chinese text (``炮二平五``, ``馬８進７``, ``前车进一``) names in ``board``.

    >>> from xiangqi import Board
    >>> parse_chinese(Board(), "炮二平五")
    Move.from_iccs('h2e2')

    Messages quote the text and the FEN.

    Raises:
        :class:`InvalidMoveError`: ``text`` is not Chinese notation.
        :class:`IllegalMoveError`: no legal move here fits it (the message says which piece and why).
        :class:`AmbiguousMoveError`: more than one legal move fits it (the message names the pieces).
        :class:`TypeError`: ``text`` is not a :class:`str`.
    """
    return _parse_with(board, text, chinese_entry, "Chinese")


def parse_wxf(board: BaseBoard, text: str) -> Move:
    """The legal move that WXF text (``C2.5``, ``h8+7``, ``R+.3``, ``P++1``) names in ``board``.

    >>> from xiangqi import Board
    >>> parse_wxf(Board(), "C2.5"), parse_wxf(Board(), "h2+3")
    (Move.from_iccs('h2e2'), Move.from_iccs('h0g2'))

    Raises:
        :class:`InvalidMoveError`: ``text`` is not WXF.
        :class:`IllegalMoveError`: no legal move here fits it (the message says which piece and why).
        :class:`AmbiguousMoveError`: more than one legal move fits it (the message names the pieces).
        :class:`TypeError`: ``text`` is not a :class:`str`.
    """
    return _parse_with(board, text, wxf_entry, "WXF")


def parse_iccs(board: BaseBoard, text: str, *, one_based: bool = False) -> Move:
    """The legal move for ICCS text ``h2e2`` / ``H2-E2``; ``one_based=True`` reads ``h3e3`` / ``a10a9``.

    ``0000`` is returned as the null move.

    >>> from xiangqi import Board
    >>> parse_iccs(Board(), "H2-E2"), parse_iccs(Board(), "h3e3", one_based=True), parse_iccs(Board(), "0000")
    (Move.from_iccs('h2e2'), Move.from_iccs('h2e2'), Move.from_iccs('0000'))

    Raises:
        :class:`InvalidMoveError`: ``text`` is not coordinates.
        :class:`IllegalMoveError`: no legal move here fits it (the message says which piece and why).
        :class:`TypeError`: ``text`` is not a :class:`str`.
    """
    return _parse_with(board, text, lambda t: iccs_entry(t, bool(one_based)), "ICCS")


def parse_move(board: BaseBoard, text: str, *, one_based: bool = False) -> Move:
    """The legal move ``text`` names in ``board``, in any notation (Chinese, WXF or ICCS, detected).

    ``one_based`` reads coordinates with ranks 1–10 (Fairy-Stockfish UCI,
    pyffish); it is never guessed.

    >>> from xiangqi import Board
    >>> [parse_move(Board(), text) for text in ("炮二平五", "炮2平5", "C2.5", "h2e2")]
    [Move.from_iccs('h2e2'), Move.from_iccs('h2e2'), Move.from_iccs('h2e2'), Move.from_iccs('h2e2')]

    Raises:
        :class:`InvalidMoveError`: ``text`` is not a move in any of these notations.
        :class:`IllegalMoveError`: no legal move here fits it (the message says which piece and why).
        :class:`AmbiguousMoveError`: more than one legal move fits it (the message names the pieces).
        :class:`TypeError`: ``text`` is not a :class:`str`.
    """
    return _parse_with(board, text, lambda t: any_entry(t, bool(one_based)), "")


def decode_move(board: BaseBoard, text: str, *, one_based: bool = False) -> Move:
    """The move ``text`` names in ``board`` by the pieces' rules, whether or not it is legal (any notation).

    For showing a faulty move: ``士４進５`` that would leave the king in check still has its two squares.
    The piece must exist and move as its kind does; a king left in check, kings facing each other, or
    (for ICCS) anything at all is let through.

    >>> from xiangqi import Board
    >>> decode_move(Board("3k5/9/9/9/9/9/9/9/4r4/3K5 w"), "帥六進一")
    Move.from_iccs('d0d1')

    Raises:
        :class:`InvalidMoveError`: ``text`` is in no notation.
        :class:`IllegalMoveError`: no piece can move so.
        :class:`AmbiguousMoveError`: more than one piece can.
        :class:`TypeError`: ``text`` is not a :class:`str`.
    """
    if not isinstance(text, str):
        raise TypeError(f"a move text must be a str, not {type(text).__name__}")
    try:
        d = any_entry(text, bool(one_based))[2]
    except Invalid as exc:
        raise _error(InvalidMoveError, "", text, board.fen(), str(exc)) from None
    try:
        code = _resolve(d, board.piece_codes(), bool(board.turn), lambda c: True)
    except _Fail as fail:
        raise _error(fail.cls, KIND_NAMES[d.kind], text, board.fen(), fail.reason) from None
    return Move(code >> 7, code & 127) if code else Move.null()


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def _needs_qualifier(pc: _Codes, red: bool, frm: int, to: int, legal: Optional[_Legal], compact: bool) -> bool:
    """Whether the moving piece needs 前/后 (or +/-) rather than its file.

    Always for a pawn, rook, horse, cannon or king that shares its file with
    one of its kind; with ``compact`` only when that other piece could make
    the same move by the piece rules.  Advisors and elephants only when the
    other one could legally make the same move.
    """
    p = pc[frm]
    fi = frm % 9
    col = pc[fi::9]
    if col.count(p) == 1:
        return False
    pt = p & 7
    diagonal_pair = pt == ADVISOR or pt == ELEPHANT
    if not diagonal_pair and not (compact and pt != PAWN):
        return True
    sideways = frm // 9 == to // 9
    for r in range(10):
        sq = r * 9 + fi
        if sq != frm and col[r] == p:
            other = sq - fi + to % 9 if sideways else sq + to - frm
            if 0 <= other < 90 and _pseudo_reason(pc, red, sq, other) is None and \
                    (not diagonal_pair or legal is None or legal(sq << 7 | other)):
                return True
    return False


def _tail(pt: int, red: bool, frm: int, to: int) -> Tuple[int, int]:
    """(direction 0 / 1 / -1, number 1-9) of a move."""
    dr = to // 9 - frm // 9
    if not red:
        dr = -dr
    if dr == 0:
        return 0, file_number_of(to % 9, red)
    return (1 if dr > 0 else -1), (file_number_of(to % 9, red) if DIAGONAL[pt] else abs(dr))


def _tandem(pc: _Codes, red: bool, frm: int) -> Tuple[int, int, int]:
    """(pieces on the moving piece's file, its index front to back, files holding two or more)."""
    p = pc[frm]
    seq = _file_squares(pc, frm % 9, p, red)
    return len(seq), seq.index(frm), sum(1 for fi in range(9) if pc[fi::9].count(p) >= 2)


def _chinese_text(pc: _Codes, red: bool, frm: int, to: int, style: Style, legal: Optional[_Legal],
                  compact: bool = False) -> str:
    p = pc[frm]
    pt, c = p & 7, int(red)
    direction, number = _tail(pt, red, frm, to)
    tail = style.directions[direction] + style.numerals[c][number]
    if not _needs_qualifier(pc, red, frm, to, legal, compact):
        return style.pieces[c][pt] + style.numerals[c][file_number_of(frm % 9, red)] + tail
    k, i, files = _tandem(pc, red, frm)
    q = ("前", style.rear)[i] if k == 2 else ("前", "中", style.rear)[i] if k == 3 else ORDINALS[i]
    if files == 1:
        return q + style.pieces[c][pt] + tail
    if pt != PAWN:  # pragma: no cover - the core allows at most two of any other piece
        return q + style.pieces[c][pt] + style.numerals[c][file_number_of(frm % 9, red)] + tail
    # Two files with tandem pawns: the file replaces the piece (前九平八).
    return q + style.numerals[c][file_number_of(frm % 9, red)] + tail


def _wxf_text(pc: _Codes, red: bool, frm: int, to: int, legal: Optional[_Legal]) -> str:
    pt = pc[frm] & 7
    direction, number = _tail(pt, red, frm, to)
    tail = ".+-"[direction] + str(number)
    letter = WXF_LETTERS[pt]
    f = str(file_number_of(frm % 9, red))
    if not _needs_qualifier(pc, red, frm, to, legal, False):
        return letter + f + tail
    k, i, files = _tandem(pc, red, frm)
    if files == 1 or pt != PAWN:
        if k == 2:
            return letter + "+-"[i] + tail
        if k == 3:
            return letter + ("+", f, "-")[i] + tail
        if k == 4:
            return ("++", "P+", "P-", "--")[i] + tail
        return ("++", "P+", "P" + f, "P-", "--")[i] + tail
    if k == 2 or i != 1:
        return f + ("+" if i == 0 else "-") + tail
    # The middle of three: WXF's "33" would also be pyffish's "third on file 3"; write "23" then.
    return ("2" if f in "13" else f) + f + tail


#: Written texts of moves by a piece alone on its file, keyed by piece code << 14 | move code.
_CHINESE_WRITTEN: Dict[Tuple[bool, bool], Dict[int, str]] = {key: {} for key in STYLES}
_WXF_WRITTEN: Dict[int, str] = {}


def _write_chinese(pc: _Codes, red: bool, frm: int, to: int, style: Style, legal: Optional[_Legal],
                   compact: bool = False) -> str:
    p = pc[frm]
    if pc[frm % 9::9].count(p) == 1:
        cache = _CHINESE_WRITTEN[style.key]
        key = p << 14 | frm << 7 | to
        s = cache.get(key)
        if s is None:
            s = cache[key] = _chinese_text(pc, red, frm, to, style, legal)
        return s
    return _chinese_text(pc, red, frm, to, style, legal, compact)


def _write_wxf(pc: _Codes, red: bool, frm: int, to: int, legal: Optional[_Legal]) -> str:
    p = pc[frm]
    if pc[frm % 9::9].count(p) == 1:
        key = p << 14 | frm << 7 | to
        s = _WXF_WRITTEN.get(key)
        if s is None:
            s = _WXF_WRITTEN[key] = _wxf_text(pc, red, frm, to, legal)
        return s
    return _wxf_text(pc, red, frm, to, legal)


def _checked_for_writing(board: BaseBoard, move: Move, what: str) -> Tuple[bytes, bool]:
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, not {type(move).__name__}")
    red = bool(board.turn)
    pc = board.piece_codes()
    if move and (move.from_square >= 90 or move.to_square >= 90 or not board.is_legal(move)):
        reason = _why_illegal(pc, red, move.from_square, move.to_square) if move.from_square < 90 and \
            move.to_square < 90 else "square out of range"
        raise IllegalMoveError(f"cannot write illegal move {move.iccs()!r} in {what} notation in {board.fen()}: "
                               f"{reason}")
    return pc, red


def _format_move(board: BaseBoard, move: Move, what: str,
                 write: Callable[[_Codes, bool, int, int, Optional[_Legal]], str]) -> str:
    """The one path of format_chinese and format_wxf: ``move`` checked, the null move as ``0000``, else ``write``."""
    pc, red = _checked_for_writing(board, move, what)
    if not move:
        return NULL_MOVE_TEXT
    return write(pc, red, move.from_square, move.to_square, _legal_fn(board))


def format_chinese(board: BaseBoard, move: Move, *, traditional: bool = False, fullwidth: bool = True,
                   compact: bool = False) -> str:
    """The canonical Chinese text of a legal ``move`` in ``board`` (conventions: module docstring).

    >>> from xiangqi import Board, Move
    >>> format_chinese(Board(), Move.from_iccs("h2e2"))
    '炮二平五'
    >>> format_chinese(Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"),
    ...                Move.from_iccs("h9g7"), traditional=True)
    '馬８進７'

    ``traditional`` writes 車馬進後帥將; ``fullwidth`` (the default) writes
    Black's numbers ``１``…``９`` rather than ``1``…``9``.  ``compact`` gives
    a rook, horse, cannon or king 前/后 only when the other piece on its file
    could make the same move (the CCPD corpus's habit; pawns keep them
    always).  The null move is written ``0000``.

    Raises:
        :class:`IllegalMoveError`: ``move`` is not legal here.
        :class:`TypeError`: ``move`` is not a :class:`Move`.
    """
    style, compact = STYLES[bool(traditional), bool(fullwidth)], bool(compact)
    return _format_move(board, move, "Chinese",
                        lambda pc, red, frm, to, legal: _write_chinese(pc, red, frm, to, style, legal, compact))


def format_wxf(board: BaseBoard, move: Move) -> str:
    """The canonical WXF text of a legal ``move`` in ``board``: ``C2.5``, ``H8+7``, ``R+.3``, ``++.4``.

    The null move is written ``0000`` (in every notation).

    >>> from xiangqi import Board
    >>> format_wxf(Board(), Move.from_iccs("h2e2")), format_wxf(Board(), Move.from_iccs("h0g2"))
    ('C2.5', 'H2+3')

    Raises:
        :class:`IllegalMoveError`: ``move`` is not legal here.
        :class:`TypeError`: ``move`` is not a :class:`Move`.
    """
    return _format_move(board, move, "WXF", _write_wxf)


_SQUARE_NAMES_1 = [name[0] + str(int(name[1:]) + 1) for name in SQUARE_NAMES]


def format_iccs(move: Move, *, one_based: bool = False) -> str:
    """``h2e2``; with ``one_based`` Fairy-Stockfish's ``h3e3`` / ``a10a9``; ``0000`` for the null move.

    No board is needed: the text is the squares alone (legality is not checked).

    >>> format_iccs(Move.from_iccs("a9a8")), format_iccs(Move.from_iccs("a9a8"), one_based=True)
    ('a9a8', 'a10a9')
    """
    if not one_based or not move:
        return move.iccs()
    return _SQUARE_NAMES_1[move.from_square] + _SQUARE_NAMES_1[move.to_square]


# ---------------------------------------------------------------------------
# Whole games
# ---------------------------------------------------------------------------


def _new_board(fen: "Optional[str] | BaseBoard") -> BaseBoard:
    if isinstance(fen, BaseBoard):
        return fen.copy(stack=False)  # a board as it is (also one being set up, which a FEN could not give)
    return BaseBoard(STARTING_FEN if fen is None else fen)


class _Replay:
    """A board that trails a growing list of move codes and catches up only when asked.

    The whole-game functions follow the pieces in their own copy of the piece
    codes; the board plays the moves (each checked for legality) when a
    legality question needs the current position, when an error needs its
    FEN, and at the end.  The board is private to the whole-game function, so
    it is played through the C core directly (:class:`~xiangqi._ffi.replay.CodeReplay`,
    no move stack).
    """

    __slots__ = ("board", "codes", "played", "texts", "what", "_c")

    def __init__(self, board: BaseBoard, codes: List[int], texts: Optional[Sequence[str]], what: str) -> None:
        self.board = board
        self.codes = codes
        self.played = 0
        self.texts = texts
        self.what = what
        self._c = CodeReplay(board)

    def catch_up(self, upto: int) -> None:
        """Play the codes before index ``upto``; raise :class:`IllegalMoveError` at the first illegal one."""
        if self.played >= upto:
            return
        i = self._c.play(self.codes, self.played, upto)
        self.played = i
        if i < upto:
            c = self.codes[i]
            self.fail(IllegalMoveError, i, _why_illegal(self.board.piece_codes(), bool(self.board.turn), c >> 7,
                                                        c & 127))

    def legal(self, code: int, ply: int) -> bool:
        """Whether ``code`` is legal just before ``ply``."""
        self.catch_up(ply)
        return bool(self.board.is_legal(Move(code >> 7, code & 127)))

    def fail(self, cls: type, ply: int, reason: str) -> NoReturn:
        """Raise ``cls`` for the token at ``ply``, with the position before it."""
        self.catch_up(ply)
        text: object = self.texts[ply] if self.texts is not None else Move.from_code(self.codes[ply]).iccs()
        raise _error(cls, self.what, text, self.board.fen(), reason, ply)


_WHAT = {"chinese": "Chinese", "wxf": "WXF", "iccs": "ICCS", "auto": ""}
_GAME_ENTRY: Dict[str, Callable[[str, bool], Entry]] = {
    "chinese": lambda t, ob: chinese_entry(t),
    "wxf": lambda t, ob: wxf_entry(t),
    "iccs": iccs_entry,
    "auto": any_entry,
}


def parse_game(fen: Optional[str], tokens: Iterable[str], *, notation: str = "auto",
               one_based: bool = False) -> List[int]:
    """The 16-bit move codes (``from << 7 | to``) of a whole game's move texts, played from ``fen``.

    >>> parse_game(None, ["炮二平五", "H8+7", "h0g2"])
    [3222, 11333, 920]

    ``notation`` is ``"chinese"``, ``"wxf"``, ``"iccs"`` or ``"auto"`` (each
    token detected); ``fen=None`` is the starting position.  Every move is
    checked for legality.

    Raises:
        :class:`InvalidMoveError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`: a token does not
            read as a legal move; the message names the token, its ply (0-based) and the position before it.
        :class:`InvalidFenError`: ``fen`` cannot be read.
        :class:`ValueError`: ``notation`` is none of those four.
        :class:`TypeError`: ``tokens`` is a :class:`str` (pass a list: ``text.split()``) or holds a non-str.
    """
    texts = _token_list(tokens)
    return _parse_codes(_new_board(fen), texts, notation, bool(one_based))


def _token_list(tokens: Iterable[str]) -> Sequence[str]:
    """``tokens`` as a list or tuple; a plain str (whose items would be its characters) raises TypeError."""
    if isinstance(tokens, (list, tuple)):
        return tokens
    if isinstance(tokens, str):
        raise TypeError(f"tokens must be a list of move texts, not a str ({tokens[:40]!r}): "
                        f"pass a list, or split the text (text.split())")
    return list(tokens)


def _move_codes(moves: Iterable[Union[Move, int]]) -> List[int]:
    """The move codes of ``moves`` (``Move`` objects or ints); anything else raises TypeError naming it."""
    if isinstance(moves, str):
        raise TypeError(f"moves must be Move objects or move codes, not a str ({moves[:40]!r}): "
                        f"parse texts with parse_game")
    items = moves if isinstance(moves, (list, tuple)) else list(moves)
    try:
        return [m if isinstance(m, int) else m.code for m in items]
    except AttributeError:
        for i, m in enumerate(items):
            if not isinstance(m, (int, Move)):
                raise TypeError(f"moves[{i}] is {m!r} ({type(m).__name__}): expected a Move or an int move code"
                                + (" (parse texts with parse_game)" if isinstance(m, str) else "")) from None
        raise


def _parse_codes(board: BaseBoard, texts: Sequence[str], notation: str, one_based: bool) -> List[int]:
    get_entry = _GAME_ENTRY.get(notation)
    if get_entry is None:
        raise ValueError(f"unknown notation {notation!r}: expected one of {NOTATIONS + ('auto',)}")
    if notation == "chinese":
        cache = CHINESE_CACHE
    elif notation == "wxf":
        cache = WXF_CACHE
    else:
        cache = (ICCS_CACHE if notation == "iccs" else ANY_CACHE)[one_based]
    codes: List[int] = []
    replay = _Replay(board, codes, texts, _WHAT[notation])
    pc = bytearray(board.piece_codes())
    red = bool(board.turn)
    append = codes.append
    get = cache.get
    for text in texts:
        e = get(text)
        if e is None:
            if isinstance(text, str) and text.strip() in NULL_MOVE_TEXTS:
                append(0)
                red = not red
                continue
            try:
                e = get_entry(text, one_based)
            except Invalid as exc:
                replay.fail(InvalidMoveError, len(codes), str(exc))
            except (TypeError, AttributeError):
                raise TypeError(f"a move text must be a str, not {type(text).__name__} "
                                f"(ply {len(codes)})") from None
        fast = e[1] if red else e[0]
        if fast is not None:
            code = _fast_code(fast, pc)
            if code < 0:
                code = _resolve_in_game(e[2], pc, red, replay, len(codes))
        elif e[3] > 0:  # ICCS: taken as it is; an illegal code stops the replay before any later token counts
            code = e[3]
        else:
            code = _resolve_in_game(e[2], pc, red, replay, len(codes))
        frm, to = code >> 7, code & 127
        append(code)
        pc[to] = pc[frm]
        pc[frm] = 0
        red = not red
    replay.catch_up(len(codes))
    return codes


def _resolve_in_game(desc: Desc, pc: _Codes, red: bool, replay: _Replay, ply: int) -> int:
    try:
        code = _resolve(desc, pc, red, lambda c: replay.legal(c, ply))
    except _Fail as fail:
        replay.fail(fail.cls, ply, fail.reason)
    # An ICCS code is taken as it is: if it is illegal, the replay stops there before any later token counts.
    return code


def format_game(fen: Optional[str], moves: Iterable[Union[Move, int]], *, to: str = "chinese",
                traditional: bool = False, fullwidth: bool = True, compact: bool = False,
                one_based: bool = False) -> List[str]:
    """The texts of a whole game's moves (``Move`` objects or 16-bit codes) played from ``fen``.

    >>> format_game(None, [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")], to="wxf")
    ['C2.5', 'H8+7']

    ``to`` is ``"chinese"`` (``traditional``, ``fullwidth`` and ``compact`` as
    in :func:`format_chinese`), ``"wxf"`` or ``"iccs"`` (with ``one_based``).
    Every move is checked for legality.

    Raises:
        :class:`IllegalMoveError`: a move is not legal in turn (the message names its ply and the position).
        :class:`InvalidFenError`: ``fen`` cannot be read.
        :class:`ValueError`: ``to`` is none of the three notations.
        :class:`TypeError`: ``moves`` is a :class:`str` or holds something other than a Move or an int.
    """
    codes = _move_codes(moves)
    return _format_codes(_new_board(fen), codes, to, traditional, fullwidth, compact, one_based, True)


def _format_codes(board: BaseBoard, codes: List[int], to: str, traditional: bool, fullwidth: bool, compact: bool,
                  one_based: bool, validate: bool) -> List[str]:
    if to not in NOTATIONS:
        raise ValueError(f"unknown notation {to!r}: expected one of {NOTATIONS}")
    replay = _Replay(board, codes, None, "")
    out: List[str] = []
    append = out.append
    if to == "iccs":
        names = _SQUARE_NAMES_1 if one_based else SQUARE_NAMES
        for code in codes:
            frm, dst = code >> 7, code & 127
            if not 0 <= frm < 90 or dst >= 90 or (frm == dst and code):
                replay.fail(IllegalMoveError, len(out), f"not a move code: {code}")
            append(names[frm] + names[dst] if code else NULL_MOVE_TEXT)
    else:
        pc = bytearray(board.piece_codes())
        red = bool(board.turn)
        chinese = to == "chinese"
        style = STYLES[bool(traditional), bool(fullwidth)]
        get = (_CHINESE_WRITTEN[style.key] if chinese else _WXF_WRITTEN).get
        for code in codes:
            if not code:
                append(NULL_MOVE_TEXT)
                red = not red
                continue
            frm, dst = code >> 7, code & 127
            p = pc[frm] if 0 <= frm < 90 else 0
            s = get(p << 14 | code) if p and pc[frm % 9::9].count(p) == 1 else None
            if s is None:
                s = _write_in_game(pc, red, frm, dst, chinese, style, compact, replay, len(out))
            append(s)
            pc[dst] = p
            pc[frm] = 0
            red = not red
    if validate:
        replay.catch_up(len(codes))
    return out


def _write_in_game(pc: _Codes, red: bool, frm: int, dst: int, chinese: bool, style: Style, compact: bool,
                   replay: _Replay, ply: int) -> str:
    if not 0 <= frm < 90 or not 0 <= dst < 90 or frm == dst:
        replay.fail(IllegalMoveError, ply, "null move" if frm == dst == 0 else "not a move between two squares")
    reason = _pseudo_reason(pc, red, frm, dst)
    if reason is not None:
        replay.fail(IllegalMoveError, ply, reason)

    def legal(c: int) -> bool:
        return replay.legal(c, ply)

    return _write_chinese(pc, red, frm, dst, style, legal, compact) if chinese else \
        _write_wxf(pc, red, frm, dst, legal)


def format_variation(fen: "Optional[str] | BaseBoard", moves: Iterable[Union[Move, int]], *, to: str = "chinese",
                     traditional: bool = False, fullwidth: bool = True, compact: bool = False,
                     one_based: bool = False) -> str:
    """A line of moves from ``fen`` (a FEN, ``None`` for the start, or a board, which is not changed) with move
    numbers, as :func:`format_game` writes each move.

    >>> format_variation(None, [Move.from_iccs("h2e2"), Move.from_iccs("h9g7"), Move.from_iccs("h0g2")])
    '1. 炮二平五 马８进７ 2. 马二进三'
    >>> format_variation("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    ...                  [Move.from_iccs("h9g7")], to="wxf")
    '1... H8+7'
    """
    board = _new_board(fen)
    number, red = board.fullmove_number, board.turn  # read before the replay below plays the moves on board
    texts = _format_codes(board, _move_codes(moves), to, traditional, fullwidth, compact, one_based, True)
    words: List[str] = []
    for text in texts:
        if red:
            words.append(f"{number}.")
        elif not words:
            words.append(f"{number}...")
        words.append(text)
        if not red:
            number += 1
        red = not red
    return " ".join(words)


def convert_game(fen: Optional[str], tokens: Iterable[str], *, to: str = "iccs", notation: str = "auto",
                 traditional: bool = False, fullwidth: bool = True, compact: bool = False,
                 one_based: bool = False) -> List[str]:
    """Convert a whole game's move texts from one notation to another.

    >>> convert_game(None, ["炮二平五", "马8进7"], to="wxf")
    ['C2.5', 'H8+7']
    >>> convert_game(None, ["h2e2", "h9g7"], to="chinese", traditional=True)
    ['炮二平五', '馬８進７']

    ``notation`` names the input (``"auto"``: each token detected);
    ``one_based`` applies to ICCS input and output.

    Raises:
        :class:`InvalidMoveError`, :class:`IllegalMoveError` or :class:`AmbiguousMoveError`: a token does not
            read as a legal move; the message names the token, its ply (0-based) and the position before it.
        :class:`InvalidFenError`: ``fen`` cannot be read.
        :class:`ValueError`: ``notation`` or ``to`` names no notation.
        :class:`TypeError`: ``tokens`` is a :class:`str` (pass a list: ``text.split()``) or holds a non-str.
    """
    texts = _token_list(tokens)
    codes = _parse_codes(_new_board(fen), texts, notation, bool(one_based))
    return _format_codes(_new_board(fen), codes, to, traditional, fullwidth, compact, one_based, False)
