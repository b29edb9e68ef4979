"""Xiangqi PGN: a game model, a streaming reader that never loses a game, and a writer.

The model follows python-chess's ``chess.pgn``: a :class:`Game` is the root
:class:`GameNode` of a tree whose children are moves; the first child of a node
is its main line and the others are variations. A game carries its
:class:`Headers` (the xiangqi tag roster first: ``Game``, ``Event``, ``Site``,
``Date``, ``Round``, ``Red``, ``Black``, ``Result``) and the problems met while
reading it, as :class:`GameError` values in ``game.errors``.

Reading (:func:`read_game`, :func:`read_games`) accepts a path, a binary file or
a text file. Binary input may be gzip-compressed (detected by its magic bytes)
and UTF-8 (with or without a byte-order mark), GB18030/GBK or Big5 (detected by
content). Move text may be Chinese (simplified or traditional, full-width or
ASCII digits), ICCS (``h2e2``, ``H2-E2``) or WXF (``C2.5``, ``C2=5``), chosen by
the ``Format`` tag or recognised token by token. A move that cannot be read or
is not legal ends its line: the moves before it are kept, the problem is
recorded in ``game.errors`` (ply, token, reason, line of the file) and the next
game is read normally. Only one game is held in memory at a time.

For bulk work, :func:`scan_games` yields each game's tags and raw main-line move
tokens with their line numbers without building a tree, and
:func:`replay_mainline` turns one such game into moves on a board as fast as
this module can.

>>> import io
>>> game = read_game(io.StringIO('[Red "A"]\\n[Black "B"]\\n\\n1. 炮二平五 馬８進７ 2. h0g2 {ok} *\\n'))
>>> [m.iccs() for m in game.mainline_moves()], game.headers["Red"], game.errors
(['h2e2', 'h9g7', 'h0g2'], 'A', [])
"""

from __future__ import annotations

import codecs
import itertools
import re
import weakref
from typing import Any, Callable, Dict, Iterable, Iterator, List, Literal, Optional, Tuple, TypeVar, overload

from xiangqi import notation as _notation
from xiangqi._encoding import TextLines
from xiangqi._ffi.replay import TextPlayer, text_player as _thread_player
from xiangqi import _pgn_split
from xiangqi._pgn_split import (SCAN_KINDS, GameLines, game_batches, game_starts, game_starts_in_bytes,  # noqa: F401
                                split_games)
from xiangqi.board import Board
from xiangqi.core import STARTING_FEN, Move, moves_of
from xiangqi.errors import InvalidFenError, InvalidMoveError, InvalidRecordError, XiangqiError
from xiangqi.game import (RESULT_WORDS, misplaced_start_board, start_board, NAG_BLUNDER, NAG_BRILLIANT_MOVE, NAG_DUBIOUS_MOVE, NAG_GOOD_MOVE,  # noqa: F401
                          NAG_MISTAKE, NAG_SPECULATIVE_MOVE, RESULTS, TAG_ROSTER, Game, GameBuilder, GameError, GameNode,
                          Headers, HeadersBuilder, MoveErrors, join_comments)
from xiangqi.pgn_writer import (NOTATIONS, SKIP, BaseVisitor, FileExporter, ResultT, SkipType,  # noqa: F401
                                StringExporter, game_to_string, write_game)
from xiangqi.source import GZIP_MAGIC, Handle, Source, is_text_handle, open_text, text_lines

__all__ = [
    "TAG_ROSTER", "RESULTS", "NOTATIONS",
    "NAG_GOOD_MOVE", "NAG_MISTAKE", "NAG_BRILLIANT_MOVE", "NAG_BLUNDER", "NAG_SPECULATIVE_MOVE",
    "NAG_DUBIOUS_MOVE",
    "InvalidRecordError", "GameError", "Headers", "GameNode", "Game", "RawGame",
    "read_game", "read_games", "read_headers", "skip_game", "scan_games", "replay_mainline", "game_starts",
    "SkipType", "SKIP", "BaseVisitor", "GameBuilder", "HeadersBuilder", "BoardBuilder", "SkipVisitor",
    "StringExporter", "FileExporter",
    "GameLines", "split_games", "game_starts_in_bytes", "MAX_LINE_BYTES", "MAX_GAME_CHARS", "MAX_COMMENT_CHARS",
    "C_REPLAY",
    "write_game", "game_to_string",
]

_ErrorT = TypeVar("_ErrorT", bound=BaseException)

_SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

#: The longest PGN line read, in bytes (the PGN standard's export format keeps lines under 255 characters):
#: a longer line is cut there (wherever the read blocks end), the rest of it skipped without being kept, and
#: its game records an :class:`InvalidRecordError` naming the line, as the first of its errors. ``validate``
#: reads PGN with the same limit and reports the same error (kind ``parse-error``).
MAX_LINE_BYTES = _pgn_split.MAX_LINE_BYTES
#: The most characters of one game that are kept: its tag and move-text lines, each line counted with its line end (so
#: that a run of blank lines counts too). The line that takes a game past it is its last one kept; the game records an
#: :class:`InvalidRecordError` naming that line, as the first of its errors, and its lines after it, up to where the
#: next game begins, are read but not kept -- so a game without end costs time in proportion to its length and memory
#: in proportion to this limit. Counted in decoded characters, so that a game has the same verdict in every encoding.
#: The games of the project's corpora take at most about 3,000 characters; an annotated game with long comments rarely
#: reaches 100,000. (``validate`` gives the same verdicts, but its parent process still holds the text of such a game
#: whole while it cuts the file into pieces.)
MAX_GAME_CHARS = _pgn_split.MAX_GAME_CHARS
#: The longest ``{`` comment, in characters of the lines (with their line ends) from the one that opens it (while it is
#: open): a longer one is an :class:`InvalidRecordError` of its game (at the line where it opens) and is taken as never
#: closed, so that it cannot swallow the games after it: the splitter reads the lines after the one that takes it past
#: the limit as move text (a tag line or a new move 1 begins the next game), and no ``}`` further away than this keeps
#: a tag line after a blank line in the comment (:func:`split_games`). Twice :data:`MAX_LINE_BYTES`, so that only a
#: comment of many lines reaches it.
MAX_COMMENT_CHARS = _pgn_split.MAX_COMMENT_CHARS

# ---------------------------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------------------------

#: Kinds of move-text tokens: a move, a ``{…}`` or ``;`` comment, ``(``, ``)``, a NAG, a result.
T_MOVE, T_COMMENT, T_OPEN, T_CLOSE, T_NAG, T_RESULT = range(6)

_TOKEN_RE = re.compile(r"""
    (?P<comment>\{[^}]*\}?)
  | (?P<linecomment>;[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$\d+)
  | (?P<result>(?:1-0|0-1|1/2-1/2|½-½|\*))(?=[\s(){};$]|$)
  | (?P<number>\d+\s*(?:\.+|…)(?!\d(?![^\s(){};$!?]))|(?!0000(?=[\s(){};$]|$))\d+(?=[\s(){};$]|$))
  | (?P<move>[^\s{}()\[\];$!?]+)(?P<suffix>[!?]{1,2})?
  | (?P<annotation>[!?]{1,2})
  | (?P<junk>[\[\]!?])
""", re.VERBOSE)
#: Characters that send a game's move text to the full tokenizer.
_SPECIAL = re.compile(r"[{}();$\[\]!?]")
#: Fast tokenizer for plain move text: move numbers match with an empty group.
_PLAIN_RE = re.compile(r"\d+\s*(?:\.+|…)(?!\d(?!\S))|(?!0000(?!\S))\d+(?!\S)|(\S+)")  # 0000: the null move
_RESULT_KEYS = frozenset(RESULT_WORDS)

#: A move-text token: ``(kind, text, line)``, kind one of ``T_MOVE`` … ``T_RESULT``.
Token = Tuple[int, str, int]


#: The usual move numbers ("12.", "12..."): words that :data:`_PLAIN_RE` matches whole as move numbers.
_NUMBER_WORDS = frozenset([f"{i}." for i in range(1000)] + [f"{i}..." for i in range(1000)])
#: A word starting with a digit, where a move number may be written otherwise ("12", "12 .", "1.h2e2", "１.").
_DIGIT_WORD = re.compile(r"\s\d")


def _plain_words(text: str) -> List[str]:
    """``filter(None, _PLAIN_RE.findall(text))``: the words of plain move text without move numbers.

    The usual forms take a split and a set lookup per word; a text with a word that starts with a digit
    after that (other than a result such as ``1-0`` at the end) goes through :data:`_PLAIN_RE`, whose
    move-number rules (``2 . h0g2``, ``1.h2e2``) it alone knows.
    """
    numbers = _NUMBER_WORDS
    words = [w for w in text.split() if w not in numbers]
    if _DIGIT_WORD.search(" " + " ".join(words[:-1] if words and words[-1] in _RESULT_KEYS else words)):
        return list(filter(None, _PLAIN_RE.findall(text)))
    return words


class _Tokens:
    """A game's move text, tokenized.

    Plain move text (the common case: no comment, variation, NAG or
    annotation) is kept as the list of main-line move strings only, with line
    numbers worked out on demand; anything else as full ``(kind, text,
    line)`` tokens. ``errors`` holds what is wrong with the move text's
    structure: a ``{`` comment or a ``(`` variation that is never closed.
    """

    __slots__ = ("tokens", "moves", "result", "errors", "_chunk", "_move_lines")

    def __init__(self, chunk: GameLines, text: Optional[str] = None) -> None:
        """``text``: the chunk's move text joined by newlines, when the caller has it already."""
        self._chunk = chunk
        self._move_lines: Optional[List[int]] = None
        self.result: Optional[str] = None
        self.tokens: Optional[List[Token]] = None
        self.moves: List[str] = []
        self.errors: List[GameError] = []
        if text is None:
            text = chunk.movetext_text
        if not _SPECIAL.search(text):
            moves = _plain_words(text)
            if moves and moves[-1] in _RESULT_KEYS:
                self.result = RESULT_WORDS[moves.pop()]
            if _RESULT_KEYS.isdisjoint(moves):
                self.moves = moves
                return
        self.tokens = tokens = _full_tokens(text, chunk)
        unterminated = bool(tokens) and tokens[-1][0] == T_COMMENT and not text.rstrip().endswith("}") \
            and _ends_in_brace_comment(text)
        self.moves = moves = []
        opened: List[Tuple[int, int]] = []   # per open variation: its line and the main-line ply there
        for kind, tok, lineno in tokens:
            if kind == T_MOVE:
                if not opened:
                    moves.append(tok)
            elif kind == T_OPEN:
                opened.append((lineno, len(moves)))
            elif kind == T_CLOSE:
                if opened:
                    opened.pop()
            elif kind == T_RESULT and not opened:
                self.result = tok
        if unterminated:
            # It runs to the end of the move text, past any ")" of an open variation.
            line = tokens[-1][2]
            self.errors.append(_structure_error("comment", "{", line, len(self.moves), tokens[-1][1]))
        elif opened:
            line, ply = opened[0]
            i = 0
            for i, t in enumerate(tokens):   # the first "(" of that line
                if t[0] == T_OPEN and t[2] == line:
                    break
            after = " ".join([t[1] for t in tokens[i + 1:i + 4] if t[0] == T_MOVE])
            self.errors.append(_structure_error("variation", "(", line, ply, after))

    @property
    def move_lines(self) -> List[int]:
        """The line of each main-line move."""
        if self._move_lines is None:
            if self.tokens is not None:
                result: List[int] = []
                depth = 0
                for kind, _, lineno in self.tokens:
                    if kind == T_MOVE:
                        if depth == 0:
                            result.append(lineno)
                    elif kind == T_OPEN:
                        depth += 1
                    elif kind == T_CLOSE:
                        depth = max(0, depth - 1)
            elif _one_line(self._chunk):   # every move on the first line
                result = [self._chunk.movetext_start] * len(self.moves)
            else:
                result = []
                for lineno, line in enumerate(self._chunk.movetext, self._chunk.movetext_start):
                    n = sum(1 for t in _PLAIN_RE.findall(line) if t and t not in _RESULT_KEYS)
                    result.extend([lineno] * n)
            self._move_lines = result[:len(self.moves)]
        return self._move_lines

    def iter_tokens(self) -> Iterator[Token]:
        """All tokens with their lines (the plain form expanded)."""
        if self.tokens is not None:
            return iter(self.tokens)
        toks: List[Token] = [(T_MOVE, m, n) for m, n in zip(self.moves, self.move_lines)]
        if self.result is not None:
            toks.append((T_RESULT, self.result, self._chunk.movetext_start + len(self._chunk.movetext) - 1))
        return iter(toks)


def _one_line(chunk: GameLines) -> bool:
    """Whether all of a game's move text is on its first line (the lines after it blank)."""
    lines = chunk.movetext
    return len(lines) == 1 or not any(line and not line.isspace() for line in itertools.islice(lines, 1, None))


def _ends_in_brace_comment(text: str) -> bool:
    """Whether move text ends inside a ``{`` comment (as :data:`_TOKEN_RE` reads it)."""
    last = None
    for m in _COMMENT_SCAN.finditer(text):
        last = m
    return last is not None and last.group()[0] == "{" and not last.group().endswith("}")


#: Comments only, as :data:`_TOKEN_RE` finds them (a ``{`` or ``;`` elsewhere in a token does not occur).
_COMMENT_SCAN = re.compile(r"\{[^}]*\}?|;[^\n]*")


def _structure_error(what: str, token: str, line: int, ply: int, text: str) -> GameError:
    """The error of a ``{`` comment or ``(`` variation opened at ``line`` (main-line ply ``ply``) and never closed."""
    reason = f"unterminated {what} opened at line {line}"
    shown = text.strip()
    if len(shown) > 40:
        shown = shown[:40] + "..."
    detail = token + shown if what == "comment" else f"{token} {shown}".rstrip()
    return GameError(ply, token, reason, line,
                     InvalidRecordError(f"{reason} (main-line ply {ply}): {detail!r} is never closed; "
                                        f"the rest of the game's move text is lost in it"))


_NON_SPACE = re.compile(r"\S")


def _full_tokens(text: str, chunk: GameLines) -> List[Token]:
    """Tokens ``(kind, text, line)`` of move text with comments, variations or NAGs."""
    tokens: List[Token] = []
    append = tokens.append
    first = chunk.movetext_start
    ends = [len(text) + 1]   # the offset in text where each line's successor starts (one line: no search)
    nl = text.find("\n")
    if nl >= 0 and _NON_SPACE.search(text, nl) is not None:   # (blank lines after the first: no token there)
        ends = []
        pos = 0
        for line in chunk.movetext:
            pos += len(line) + 1
            ends.append(pos)
    li = 0      # the line of the last token (tokens come in order)
    nxt = ends[0]
    lineno = first
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        if kind == "number":
            continue
        if m.start() >= nxt:
            start = m.start()
            while start >= nxt:
                li += 1
                nxt = ends[li]
            lineno = first + li
        if kind == "move" or kind == "suffix":
            move, suffix = m.group("move", "suffix")
            if move in _RESULT_KEYS:
                append((T_RESULT, RESULT_WORDS[move], lineno))
                continue
            append((T_MOVE, move, lineno))
            if suffix:
                append((T_NAG, str(_SUFFIX_NAGS[suffix]), lineno))
            continue
        tok = m.group()
        if kind == "comment":
            body = tok[1:-1] if tok.endswith("}") else tok[1:]
            append((T_COMMENT, body.replace("\r", ""), lineno))
        elif kind == "linecomment":
            append((T_COMMENT, tok[1:].rstrip("\r"), lineno))
        elif kind == "open":
            append((T_OPEN, tok, lineno))
        elif kind == "close":
            append((T_CLOSE, tok, lineno))
        elif kind == "nag":
            append((T_NAG, tok[1:], lineno))
        elif kind == "annotation":
            append((T_NAG, str(_SUFFIX_NAGS[tok]), lineno))
        elif kind == "result":
            append((T_RESULT, RESULT_WORDS[tok], lineno))
        else:  # junk: a stray bracket or annotation mark
            append((T_MOVE, tok, lineno))
    return tokens


# ---------------------------------------------------------------------------------------------------------------
# Move decoding (fast paths, then the notation module through the Board)
# ---------------------------------------------------------------------------------------------------------------

_ICCS_RE = re.compile(r"[a-iA-I][0-9]-?[a-iA-I][0-9]")
_ICCS_CACHE: Dict[str, Move] = {}


def _notation_of(headers: Dict[str, str]) -> Optional[str]:
    fmt = headers.get("Format", "").strip().lower()
    if fmt in ("iccs", "uci", "ucci"):
        return "iccs"
    if fmt == "wxf":
        return "wxf"
    return None


def _iccs_move(tok: str) -> Optional[Move]:
    move = _ICCS_CACHE.get(tok)
    if move is None:
        if not _ICCS_RE.fullmatch(tok):
            return None
        move = Move.from_iccs(tok)
        if len(_ICCS_CACHE) < 65536:
            _ICCS_CACHE[tok] = move
    return move


def _decode(board: Any, tok: str) -> Move:
    """The legal move ``tok`` denotes on ``board`` (any notation). Raises the move errors."""
    move = _iccs_move(tok)
    if move is not None:
        if board.is_legal(move):
            return move
        # Raises IllegalMoveError, worded as every parser words it.
        return board.parse_move(tok)  # type: ignore[no-any-return]
    if not tok[0].isascii():
        return board.parse_chinese(tok)  # type: ignore[no-any-return]
    return board.parse_move(tok)  # type: ignore[no-any-return]


def _kept(error: _ErrorT) -> _ErrorT:
    """``error``, caught to be kept as data (a game's errors), without its traceback or the exception it replaced:
    the frames of the call that raised it, with every local (boards, the game being built), would stay alive with
    it, in a cycle the garbage collector alone breaks (from the frame that kept the error back to the error). A
    reader of many small games with bad moves spent about a sixth of its time collecting them."""
    error.__traceback__ = None
    if error.__suppress_context__:   # raised "from None": the context is never shown
        error.__context__ = None
    return error


#: The first bad move of a line: ``(ply, error)``.
LineError = Tuple[int, XiangqiError]


def _decode_line(fen: str, moves: List[str], notation: Optional[str]) -> Tuple[List[int], Optional[LineError]]:
    """The move codes of a main line played from ``fen``.

    Returns the codes of the moves before the first bad one and, if there is
    one, ``(ply, error)``. The whole line goes through
    :func:`xiangqi.notation.parse_game` in one call; only a line that fails
    there is replayed token by token (any notation per token) to find its
    first bad move and keep the moves before it. Raises
    :class:`~xiangqi.errors.InvalidFenError` for a bad ``fen``.
    """

    board = _start_board(fen)
    if not moves:
        return [], None

    kind = notation or ("chinese" if not moves[0][0].isascii() else "auto")
    try:
        return _notation.parse_game(fen, moves, notation=kind), None
    except MoveErrors:
        return _decode_tokens(board, moves)


def _decode_tokens(board: Any, moves: List[str]) -> Tuple[List[int], Optional[LineError]]:
    """Token by token on ``board`` (modified): codes, and the first error with its ply."""
    codes: List[int] = []
    append = codes.append
    push = board.push
    cache = _ICCS_CACHE
    is_legal = board.is_legal
    for ply, tok in enumerate(moves):
        move = cache.get(tok)
        if move is None or not is_legal(move):
            try:
                move = _decode(board, tok)
            except MoveErrors as e:
                return codes, (ply, _kept(e))
        push(move)
        append(move.from_square << 7 | move.to_square)
    return codes, None


# ---------------------------------------------------------------------------------------------------------------
# Building games
# ---------------------------------------------------------------------------------------------------------------

def _fen_error(headers: Dict[str, str], tag_lines: Dict[str, int], first_line: int, moves: List[str],
               e: InvalidFenError) -> GameError:
    """The error of a bad ``FEN`` tag: at ply 0, its token the first move (as the CCPD index records it;
    validation reports name the tag's text)."""
    return GameError(0, moves[0] if moves else "", f"bad FEN tag: {e}", tag_lines.get("FEN", first_line), e)


#: FEN tag text -> its board, validated once (:func:`xiangqi.game.start_board`; an invalid FEN is not kept).
_START_BOARDS: Dict[str, Board] = {}


def _start_board(fen: str) -> Board:
    """A new :func:`~xiangqi.game.start_board` of ``fen``, a copy of the one validated the first time this FEN
    came (validating a position costs ten times its copy, and most games start from the same few).

    Raises:
        * :exc:`~xiangqi.errors.InvalidFenError` as :func:`~xiangqi.game.start_board` does.
    """
    hit = _START_BOARDS.get(fen)
    if hit is None:
        hit = start_board(fen)
        if len(_START_BOARDS) >= 1024:
            _START_BOARDS.clear()
        _START_BOARDS[fen] = hit
    return hit.copy()   # its history is empty: the copy's start FEN is the kept one (no FEN written again)


def _build_game(chunk: GameLines, decode: Optional[Callable[[Board, str], Move]] = None) -> Game:
    """A :class:`Game` from one game's lines; problems go to ``game.errors``. ``decode`` (a visitor's
    ``parse_move``) reads each move token in place of the reader's own decoding (and its C replay)."""
    game = Game(Headers(chunk.tags))
    if chunk.errors:
        game.errors.extend(chunk.errors)
    text = chunk.movetext_text
    if decode is None and C_REPLAY and _build_played(game, chunk, text):
        return game
    toks = _Tokens(chunk, text)
    if toks.result is not None and game.headers.get("Result", "*") in ("*", ""):
        game.headers["Result"] = toks.result
    try:
        if toks.tokens is None and decode is None:
            _build_plain(game, toks)
        else:
            _build_tree(game, _start_board(game.headers.get("FEN", "").strip() or STARTING_FEN),
                        toks.tokens if toks.tokens is not None else list(toks.iter_tokens()), decode)
    except InvalidFenError as e:
        game.errors.append(_fen_error(game.headers, chunk.tag_lines, chunk.first_line, toks.moves, _kept(e)))
        board = misplaced_start_board(game.headers.get("FEN", "").strip())
        if board is not None:  # a piece where none can stand: reported, and the moves read from it all the same
            if toks.tokens is None:
                _build_plain(game, toks, board)
            else:
                _build_tree(game, board, toks.tokens)
        else:
            for kind, text, _ in toks.iter_tokens():
                if kind == T_COMMENT:
                    game.comment = join_comments(game.comment, text)
    if toks.errors:
        # In file order, after the damage of the lines themselves (they come first: the chunk's errors).
        game.errors.extend(toks.errors)
        k = len(chunk.errors)
        if len(game.errors) - k > 1:
            game.errors[k:] = sorted(game.errors[k:], key=_line_of)
    return game


def _line_of(error: GameError) -> int:
    return error.line


def _build_plain(game: Game, toks: _Tokens, board: Optional[Board] = None) -> None:
    """Main line only: the fast path (from ``board`` when given, else from the ``FEN`` tag)."""
    if board is None:
        codes, error = _decode_line(game.headers.get("FEN", "").strip() or STARTING_FEN, toks.moves,
                                    _notation_of(game.headers))
    else:
        codes, error = _decode_tokens(board, toks.moves)
    game._set_lazy_mainline(codes)
    if error is not None:
        ply, e = error
        game.errors.append(GameError(ply, toks.moves[ply], str(e), toks.move_lines[ply], e))


# --- The C replay of move text -----------------------------------------------------------------------------------
#
# A game's move text goes to the C core's ``xq_play_text`` whole: it plays ICCS and four-character Chinese moves
# (skipping move numbers "12." and "12...") and stops at the first token it will not play. When what follows is
# plain (no comment, variation or NAG) -- usually just the result -- it is tokenized and decoded here exactly as
# :func:`_decode_line` would have decoded the whole line (same notation choice, same fall-back to token-by-token
# decoding, same errors); otherwise the game goes to the tree builder, which plays each run of moves between
# comments and variations in C the same way (:func:`_play_run`). A token the C core plays means the move the
# notation module reads in it, so the games are those of the Python path; ``C_REPLAY = False`` switches
# the C replay off (the tests compare both).

#: Whether the reader and validation replay move text in C (``xq_play_text``) as far as it goes: ``False`` decodes
#: every move with the notation module, the path the C replay must agree with (a hook for tests and benchmarks).
C_REPLAY = True


def text_player() -> TextPlayer:
    """This thread's C replay of move text: the position and undo records the reader's main-line replayer
    (:func:`play_line`) leaves behind, its start positions checked as :func:`xiangqi.game.start_board` checks
    them (validation judges a game on them).

    >>> player = text_player()
    >>> player.run("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", b"h2e2 h9g7 *")
    (2, 10)
    >>> player.side(), player.count_legal()
    (1, 35)
    """
    return _thread_player(_start_board)


_FIRST_MOVE_BYTE = re.compile(rb"[^0-9.\s]")
_ASCII_LETTER = re.compile(rb"[A-Za-z]")


def _build_played(game: Game, chunk: GameLines, text: str) -> bool:
    """Read a plain move text with the C core's replay; ``False`` (``game`` untouched) sends it to the Python path.

    The result equals what :func:`_build_plain` makes of the same text.
    """
    if "{" in text or "(" in text or ";" in text or "}" in text or ")" in text:
        return False   # a comment or variation mark: the C replay plays no token holding one (the tree builder's)
    headers = game.headers
    fen = headers.get("FEN")
    fen = fen.strip() or STARTING_FEN if fen else STARTING_FEN
    data = text.encode("utf-8", "surrogatepass")
    try:
        codes, stop = _thread_player(_start_board).play(fen, data)
    except InvalidFenError:
        return False   # the Python path records it
    result: Optional[str] = None
    error: Optional[LineError] = None
    played = line = 0
    rest: List[str] = []
    if stop < len(data):
        rest_text = data[stop:].decode("utf-8", "surrogatepass")
        if _SPECIAL.search(rest_text):
            return False   # comments, variations, NAGs: the tree builder's business (the C part has none)
        rest = [t for t in _PLAIN_RE.findall(rest_text) if t]
        if rest and rest[-1] in _RESULT_KEYS:
            result = RESULT_WORDS[rest.pop()]
        if rest:
            if not _RESULT_KEYS.isdisjoint(rest):
                return False   # a result inside the moves: the full tokenizer's business
            played = len(codes)
            try:
                codes, error = _decode_rest(fen, codes, data[:stop], rest, _notation_of(game.headers))
            except InvalidFenError:  # pragma: no cover - a position reached by legal moves
                return False
            if error is not None:
                if _one_line(chunk):   # the bad move's token is of rest, its line the first
                    line = chunk.movetext_start
                else:
                    toks = _Tokens(chunk, text)
                    if toks.moves[played:] != rest:  # pragma: no cover - the tokenizers disagree
                        return False
                    line = toks.move_lines[error[0]]
    if result is not None and headers.get("Result", "*") in ("*", ""):
        headers["Result"] = result
    game._set_lazy_mainline(codes)
    if error is not None:
        ply, e = error
        game.errors.append(GameError(ply, rest[ply - played], str(e), line, e))
    return True


#: A token ``xq_play_text`` would skip as a move number (never a move token of the tokenizers, but checked).
_C_MOVE_NUMBER = re.compile(r"(?:^| )[0-9]+\.(?:\.\.)?(?= |$)")


def play_line(fen: str, moves: List[str], notation: Optional[str]) -> Tuple[List[int], Optional[LineError]]:
    """The one main-line replayer: :func:`_decode_line` for move tokens, played by the C core
    (``xq_play_text``) as far as it goes and the rest by the notation module.

    Returns the move codes before the first bad move and that move as ``(ply, error)`` (or ``None``); this
    thread's :func:`text_player` then holds the position after those moves, with their undo records
    (validation judges the game on them). With :data:`C_REPLAY` off every move is decoded by the notation
    module. Raises :class:`~xiangqi.errors.InvalidFenError` for a bad ``fen``.
    """
    text = " ".join(moves)
    player = _thread_player(_start_board)
    if not (C_REPLAY and moves) or _C_MOVE_NUMBER.search(text):
        codes, error = _decode_line(fen, moves, notation)
        player.reset(fen)
        player.push_codes(codes, 0)
        return codes, error
    data = text.encode("utf-8", "surrogatepass")
    codes, stop = player.play(fen, data)
    if stop >= len(data):
        return codes, None
    played = len(codes)
    codes, error = _decode_rest(fen, codes, data[:stop], moves[played:], notation)
    player.push_codes(codes[played:], played)   # the moves decoded after the C replay stopped
    return codes, error


def play_movetext(fen: str, text: str) -> Optional[Tuple[int, Optional[str]]]:
    """A game's whole move text (move numbers, a result token at its end) played by the C core alone from
    ``fen``: the number of moves played and the result token (normalized; ``None`` without one), or ``None``
    when the C replay stops before the end on anything else (a move it does not play, a comment, a result
    before the end: the reader's path decides then). This thread's :func:`text_player` holds the moves played.

    >>> play_movetext("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "1. h2e2 h9g7 1-0")
    (2, '1-0')
    >>> play_movetext("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "1. h2e2 {good} h9g7") is None
    True
    """
    data = text.encode("utf-8", "surrogatepass")
    plies, stop = _thread_player(_start_board).run(fen, data)
    if stop >= len(data):
        return plies, None
    tail = data[stop:].split()
    if len(tail) == 1:   # the usual end: the C replay stopped at the result token, which ends the text
        result = _RESULT_BYTES.get(tail[0])
        if result is not None:
            return plies, result
    return None


#: The result words as the C replay's text (UTF-8) holds them, normalized.
_RESULT_BYTES = {k.encode("utf-8"): v for k, v in RESULT_WORDS.items()}


def _decode_rest(fen: str, codes: List[int], prefix: bytes, rest: List[str],
                 notation: Optional[str]) -> Tuple[List[int], Optional[LineError]]:
    """Decode the tokens after the C replay stopped as :func:`_decode_line` decodes the whole line: the codes of
    the whole line (``codes`` first) and its first error, its ply counted from the line's start.

    ``codes`` were played from ``fen`` by the tokens in ``prefix`` (the text before the stop), as the last play of
    this thread's :func:`text_player`, whose position is the one after them. :func:`_decode_line` tries the whole line with
    :func:`xiangqi.notation.parse_game` in one notation and, when that fails, decodes token by token: the
    same happens here, where the prefix's part of that decision is read off its bytes.
    """

    m = _FIRST_MOVE_BYTE.search(prefix) if codes else None
    first_ascii = rest[0][0].isascii() if m is None else prefix[m.start()] < 0x80
    kind = notation or ("chinese" if not first_ascii else "auto")
    if not codes:
        whole = True
    elif kind == "chinese":
        whole = _ASCII_LETTER.search(prefix) is None      # no ICCS move before the stop
    elif kind == "iccs":
        whole = prefix.isascii()                          # no Chinese move before the stop
    else:
        whole = kind == "auto"                            # WXF reads neither
    # The position after ``codes``: this thread's C replay holds it (it played them last and stopped there), so
    # a board at the start takes it, as a board set up there (the moves' history is not needed to read the rest).
    board = _start_board(fen)
    _thread_player(_start_board).copy_to(board)
    if whole:
        # An ICCS move the C replay stopped on and that is not legal fails the whole line here too: only the
        # token by token decoding below words its error.
        try:
            first = _iccs_move(rest[0])
        except InvalidMoveError:     # a0a0: the token by token decoding words it
            whole = False
        else:
            whole = first is None or board.is_legal(first)
    if whole:
        try:
            return codes + _notation.parse_game(board.fen(), rest, notation=kind), None
        except MoveErrors:
            pass
    more, error = _decode_tokens(board, rest)
    return codes + more, None if error is None else (error[0] + len(codes), error[1])


def _play_run(player: TextPlayer, board: Board, tokens: List[Token], i: int) -> Tuple[List[Move], int]:
    """The moves the C core plays for the move tokens that follow one another from ``tokens[i]``, on ``board``'s
    position (the board is not changed), and the index of the next token worth a C replay."""
    j = i
    n = len(tokens)
    while j < n and tokens[j][0] == T_MOVE:
        j += 1
    text = " ".join([t[1] for t in tokens[i:j]])
    if _C_MOVE_NUMBER.search(text):
        return [], j
    codes = player.play_on(board, text.encode("utf-8", "surrogatepass"))
    # After a token the C replay stops on (decoded in Python) try it again, unless it played nothing here.
    return moves_of(codes), i + len(codes) + 1 if codes else j


def _build_tree(game: Game, board: Any, tokens: List[Token],
                parse: Optional[Callable[[Board, str], Move]] = None) -> None:
    """Comments, NAGs and variations (python-chess semantics: ``(`` is an alternative to the last move)."""
    node: GameNode = game
    ply = 0
    skip = False
    var_start = False      # just after "(": a comment here is the next move's starting comment
    pending_start = ""
    # Per open variation: (node to return to, or None for a skipped variation; its ply; skip state outside).
    stack: List[Tuple[Optional[GameNode], int, bool]] = []
    push = board.push
    decode: Callable[[Any, str], Move] = _decode
    if parse is not None:
        def decode(board: Any, text: str) -> Move:  # noqa: F811
            move = parse(board, text)
            return move if board.is_legal(move) else board.parse_move(move.iccs())   # raises, worded as usual
    new_child = GameNode._child
    # Runs of move tokens are played by the C core from the board's position as far as it goes
    # (_play_run); tokens[c_from:c_from + len(c_moves)] then have their moves in c_moves, and a C
    # replay is not tried again before token c_next. Other tokens are decoded one by one.
    player = _thread_player(_start_board) if parse is None and C_REPLAY else None
    is_legal, n = board.is_legal, len(tokens)
    c_from = c_next = 0
    c_moves: List[Move] = []
    for i, (kind, text, lineno) in enumerate(tokens):
        if kind == T_MOVE:
            if skip:
                continue
            k = i - c_from
            if k >= len(c_moves) and player is not None and i >= c_next:
                # A run of one ICCS move (between comments, before a variation) is its move when legal here (what
                # the C replay plays for it), without a C call.
                move = None
                if i + 1 == n or tokens[i + 1][0] != T_MOVE:
                    try:
                        move = _iccs_move(text)
                    except InvalidMoveError:   # a0a0: the C replay and the decoding below word it
                        pass
                if move is not None and is_legal(move):
                    c_moves, c_next, c_from, k = [move], i + 1, i, 0
                else:
                    c_moves, c_next = _play_run(player, board, tokens, i)
                    c_from, k = i, 0
            if 0 <= k < len(c_moves):
                move = c_moves[k]
            else:
                try:
                    move = decode(board, text)
                except MoveErrors as e:
                    game.errors.append(GameError(ply, text, str(e), lineno, _kept(e), not stack))
                    skip = True
                    continue
            push(move)
            ply += 1
            child = node = new_child(node, move)
            if var_start:
                var_start = False
                child.starting_comment = pending_start
                pending_start = ""
        elif kind == T_COMMENT:
            if skip:
                continue
            if var_start:
                pending_start = join_comments(pending_start, text)
            else:
                node.comment = join_comments(node.comment, text)
        elif kind == T_NAG:
            if not skip and node is not game and not var_start:
                try:
                    node.nags.add(int(text))
                except ValueError:
                    pass
        elif kind == T_OPEN:
            if skip or node.parent is None:
                stack.append((None, ply, skip))
                skip = True
                continue
            stack.append((node, ply, skip))
            board.pop()
            ply -= 1
            node = node.parent
            var_start = True
            pending_start = ""
        elif kind == T_CLOSE:
            if not stack:
                continue
            back, back_ply, skip = stack.pop()
            if back is None:
                continue
            while ply >= back_ply:
                board.pop()
                ply -= 1
            assert back.move is not None
            push(back.move)
            ply += 1
            node = back
            var_start = False
            pending_start = ""


# ---------------------------------------------------------------------------------------------------------------
# Visitors (python-chess's chess.pgn builders; the protocol and the exporters are in xiangqi.pgn_writer)
# ---------------------------------------------------------------------------------------------------------------

class BoardBuilder(BaseVisitor[Board]):
    """The position at the end of the main line, the main line on its move stack (python-chess's
    ``BoardBuilder``). Read with this class itself, only the main line is replayed (no tree); a game whose
    ``FEN`` tag is not a position gives the standard start position, its error to :meth:`handle_error`.

    >>> import io
    >>> board = read_game(io.StringIO("1. h2e2 h9g7 (1... h7e7) 2. h0g2 *"), Visitor=BoardBuilder)
    >>> board.move_stack, board.turn
    ([Move.from_iccs('h2e2'), Move.from_iccs('h9g7'), Move.from_iccs('h0g2')], False)
    """

    def begin_game(self) -> None:
        """Start a new game."""
        self._skip_depth = 0
        self._start: Optional[Board] = None
        self._moves: List[Move] = []
        self.board = Board()

    def begin_variation(self) -> SkipType:
        """Start a variation (an alternative to the last move)."""
        self._skip_depth += 1
        return SKIP

    def end_variation(self) -> None:
        """Return from a variation."""
        self._skip_depth = max(self._skip_depth - 1, 0)

    def visit_board(self, board: Board) -> None:
        """Note the start position."""
        if self._start is None:
            self._start = board.copy(stack=False)

    def visit_move(self, board: Board, move: Move) -> None:
        """Add a move."""
        if not self._skip_depth:
            self._moves.append(move)

    def handle_error(self, error: object) -> None:
        """Errors end the main line where they are; the board is what was played before them."""

    def end_game(self) -> None:
        """Play the main line on the start position."""
        if self._start is not None:
            board, self._start = self._start, None
            for move in self._moves:
                board.push(move)
            self.board = board

    def result(self) -> Board:
        """What was built."""
        return self.board


class SkipVisitor(BaseVisitor[Literal[True]]):
    """Skips a game (python-chess's ``SkipVisitor``; see :func:`skip_game`).

    >>> import io
    >>> read_game(io.StringIO("1. h2e2 *"), Visitor=SkipVisitor), read_game(io.StringIO(""), Visitor=SkipVisitor)
    (True, None)
    """

    def begin_game(self) -> SkipType:
        """Start a new game."""
        return SKIP

    def end_headers(self) -> SkipType:
        """Skip the moves."""
        return SKIP

    def begin_variation(self) -> SkipType:
        """Start a variation (an alternative to the last move)."""
        return SKIP

    def result(self) -> Literal[True]:
        """What was built."""
        return True


class _Moves(BaseVisitor[None]):
    """Hands a built game's moves on to ``visitor`` (the reader has given it the headers and errors already)."""

    def __init__(self, visitor: BaseVisitor[Any]) -> None:
        self.v = visitor
        self.visit_move = visitor.visit_move              # type: ignore[method-assign]
        self.visit_board = visitor.visit_board            # type: ignore[method-assign]
        self.visit_comment = visitor.visit_comment        # type: ignore[method-assign]
        self.visit_nag = visitor.visit_nag                # type: ignore[method-assign]
        self.begin_variation = visitor.begin_variation    # type: ignore[method-assign]
        self.end_variation = visitor.end_variation        # type: ignore[method-assign]
        self.visit_result = visitor.visit_result          # type: ignore[method-assign]

    def result(self) -> None:
        return None


def _headers_of(tags: Iterable[Tuple[str, str]]) -> Headers:
    """What :class:`HeadersBuilder` makes of a game's ``tags`` when no error is reported to it."""
    headers = Headers.without_tag_roster()
    headers.update(tags)
    return headers


def _visit(chunk: GameLines, Visitor: Callable[[], BaseVisitor[Any]], damage: Optional[InvalidRecordError]) -> Any:
    """Hand one game's lines to a new ``Visitor()``, reading only what it asks for: its result. ``damage``: the
    input ended early after this game (:func:`read_games`)."""
    if Visitor is GameBuilder:       # the model itself: the reader's fast paths
        game = _build_game(chunk)
        if damage is not None:
            game.errors.append(_damage_error(damage, len(game.mainline_moves()), chunk))
        return game
    if Visitor is HeadersBuilder and not chunk.errors:   # what it makes, without the calls per tag
        return _headers_of(chunk.tag_pairs())
    visitor = Visitor()
    if visitor.begin_game() is not SKIP:
        visitor.begin_headers()
        for name, value in chunk.tags:
            visitor.visit_header(name, value)
        if visitor.end_headers() is SKIP:
            for error in chunk.errors:
                visitor.handle_error(error)
        elif type(visitor) is BoardBuilder:   # the main line alone: no tree
            raw = RawGame(chunk)
            replay = replay_mainline(raw)
            for error in chunk.errors:
                visitor.handle_error(error)
            if replay.error is not None and replay.error not in chunk.errors:
                visitor.handle_error(replay.error)
            try:
                start: Optional[Board] = _start_board(raw.fen)
            except InvalidFenError:
                start = None
            if start is not None:
                visitor.visit_board(start)
                for move in replay.moves:
                    visitor.visit_move(start, move)   # BoardBuilder reads the moves alone
            if damage is not None:
                visitor.handle_error(_damage_error(damage, len(replay.codes), chunk))
            visitor.visit_result(raw.headers.get("Result") or raw.result or "*")
        else:
            parse = type(visitor).parse_move
            game = _build_game(chunk, None if parse is BaseVisitor.parse_move else visitor.parse_move)
            for error in game.errors:
                visitor.handle_error(error)
            if damage is not None:
                visitor.handle_error(_damage_error(damage, len(game.mainline_moves()), chunk))
            game.accept(_Moves(visitor))   # the moves, comments and result (the headers were given)
            visitor.end_game()
            return visitor.result()
    visitor.end_game()
    return visitor.result()


# ---------------------------------------------------------------------------------------------------------------
# Public reading API
# ---------------------------------------------------------------------------------------------------------------

_READERS: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_READERS_STRONG: Dict[int, Tuple[Any, Any]] = {}


def _handle_state(handle: Any, make: Callable[[], Any]) -> Any:
    """Per-handle reader state, kept for as long as the handle lives."""
    try:
        state = _READERS.get(handle)
        if state is None:
            state = _READERS[handle] = make()
        return state
    except TypeError:  # not weak-referenceable
        entry = _READERS_STRONG.get(id(handle))
        if entry is None or entry[0] is not handle:
            entry = _READERS_STRONG[id(handle)] = (handle, make())
        return entry[1]


def _is_seekable(handle: Any) -> bool:
    try:
        return bool(handle.seekable())
    except Exception:
        return False


class _Bytes:
    """``read(n)`` of a seekable byte stream from offset :attr:`at` on, seeking there first: the splitter's reads go
    on where they stopped whatever the handle does between two games. :attr:`stream` is set for the length of a
    call alone (the reader's state holds no reference to the handle)."""

    __slots__ = ("stream", "at", "grow")

    def __init__(self, stream: Any, at: int) -> None:
        self.stream = stream
        self.at = at
        #: While non-zero, the most a read takes, doubled by each read: reading after a seek splits a small block
        #: first, so one game read at an offset an index gave costs a few KB, not a whole block of games.
        self.grow = 0

    def read(self, n: int) -> bytes:
        stream = self.stream
        stream.seek(self.at)
        grow = self.grow
        if grow:
            self.grow = grow * 2 if grow * 2 < n else 0
            n = min(n, grow)
        data: bytes = stream.read(n)
        self.at += len(data)
        return data


class _SeekState:
    """A seekable handle's reading: where the last call left it (:attr:`pos`) and the number of the line there
    (:attr:`line`, counted from where reading began or the handle was last moved), and the one splitter over its
    bytes from there on (:attr:`batches`, ``None`` where the handle's text is read line by line), the games of its
    last list still to hand out from :attr:`next` on in :attr:`games`."""

    __slots__ = ("pos", "line", "batches", "games", "next", "base", "reader", "text", "encoding", "cr")

    def __init__(self) -> None:
        self.pos = -1
        self.line = 1
        self.batches: Optional[Iterator[List[GameLines]]] = None
        self.games: List[GameLines] = []
        self.next = 0
        self.base = 0         # the offset where the splitter began (its games' ends count from there)
        self.reader = _Bytes(None, 0)
        self.text = False     # whether the bytes are a text file's (its buffer)
        self.encoding = ""    # the encoding the splitter read, kept when it begins again at another place
        self.cr = False       # whether the file's lines end in CR alone (TextLines.cr)


#: The blocks the splitter reads from a seekable handle (a game read after a seek costs a block, not the file).
_HANDLE_BLOCK_BYTES = 1 << 16
#: The first read after a seek (where the encoding is known), doubled up to :data:`_HANDLE_BLOCK_BYTES`.
_FIRST_READ_BYTES = 1 << 12


def _begin(handle: Any, state: _SeekState, text: bool) -> bool:
    """Set ``state`` to read the games of a seekable ``handle`` from where it stands by the one splitter over its
    bytes (a text file's by those under it, where its position is a byte offset and its encoding one that the
    splitter reads alike, decoded strictly); ``False`` where the bytes cannot be read so (gzip data, UTF-16)."""
    start = handle.tell()
    if text:
        stream = _raw_of(handle)
        if stream is False or start >> 64:   # no such bytes, or a position that is no byte offset
            return False
        encoding: Optional[str] = codecs.lookup(handle.encoding).name
    else:
        stream, encoding = handle, state.encoding or None
    reader = _Bytes(stream, start)
    if not text and not encoding:
        gzipped = reader.read(2) == GZIP_MAGIC
        handle.seek(start)
        if gzipped:
            return False
        reader.at = start
    if encoding:   # known, so no sample is read to detect it
        reader.grow = _FIRST_READ_BYTES
    try:
        lines = TextLines(reader.read, encoding, _HANDLE_BLOCK_BYTES, max_line=MAX_LINE_BYTES, lazy=True,
                          errors="strict" if text else "replace", cr=state.cr if state.encoding else None)
    finally:
        reader.stream = None
        handle.seek(start)
    if lines.whole:
        return False
    if start != state.pos:
        state.line = 1
    state.batches = game_batches(lines, state.line - 1, long_lines=lines.long_lines, offsets=True)
    state.games, state.next = [], 0
    state.pos, state.base, state.reader, state.text, state.cr = start, start, reader, text, lines.cr
    if not text:
        state.encoding = lines.encoding
    return True


def _next_game(handle: Any, state: _SeekState) -> Optional[GameLines]:
    """The splitter's next game of a handle :func:`_begin` set reading, the handle left where the next game begins
    (at the end, the end of the file)."""
    games, k = state.games, state.next
    if k < len(games):
        chunk: Optional[GameLines] = games[k]
        state.next = k + 1
    else:
        chunk = _next_batch(handle, state)
    if chunk is None:
        end = state.reader.at
        state.batches = None   # the next call reads the file again from here: games may have been appended
    else:
        end = chunk.end
        end = end + state.base if end >= 0 else state.reader.at   # -1: the end of the file
        state.line = chunk.next_line
    handle.seek(end)
    state.pos = end
    return chunk


def _next_batch(handle: Any, state: _SeekState) -> Optional[GameLines]:
    """The first game of the splitter's next list (kept in ``state``), or ``None`` at the end."""
    reader, batches = state.reader, state.batches
    assert batches is not None
    reader.stream = handle.buffer if state.text else handle
    state.games = []   # not kept while the next block is read
    try:
        for games in batches:
            if games:
                state.games, state.next = games, 1
                return games[0]
        state.games, state.next = [], 0
        return None
    except BaseException:
        state.batches = None   # read again from the game's start at the next call
        handle.seek(state.pos)
        raise
    finally:
        reader.stream = None


def _raw_of(handle: Any) -> Any:
    """The seekable byte stream under a text file that decodes strictly in an encoding of :data:`SCAN_KINDS`,
    else ``False``."""
    try:
        raw = handle.buffer
        name = codecs.lookup(handle.encoding).name
        if handle.errors == "strict" and name in SCAN_KINDS and raw.seekable():
            return raw
    except (AttributeError, LookupError, TypeError, ValueError, OSError):
        pass
    return False


def _read_lines_seekable(handle: Any, state: _SeekState) -> Optional[GameLines]:
    """One game of a seekable text file whose bytes the splitter does not read (:class:`io.StringIO`, an encoding
    it does not read alike), by the line loop over its lines, leaving ``handle`` at the start of the next game."""
    start = handle.tell()
    if start != state.pos:  # first call, or the caller moved the handle: count lines from here
        state.line = 1
    state.batches = None
    where = [0, False]   # lines read, end of file reached
    # A text file's tell() costs a re-decoding of its read-ahead, so it is not asked at every line: the position of
    # the line to come back to is found by reading the game's lines again from its start.

    def lines() -> Iterator[str]:
        first = start == 0
        readline = handle.readline
        while True:
            line = readline()
            if not line:
                where[1] = True
                return
            where[0] += 1
            if first:
                first = False
                line = line.lstrip("\ufeff")
            yield line[:-1] if line.endswith("\n") else line

    chunk = next(split_games(lines(), state.line - 1), None)
    # The chunker stopped on the first line of the next game (or, having looked ahead, chunk.overread lines
    # past the game): start there next time.
    back = 0 if chunk is None else chunk.overread or (0 if where[1] else 1)
    if back:
        where[0] -= back
        handle.seek(start)
        readline = handle.readline
        for _ in range(where[0]):
            readline()
    state.line += where[0]
    state.pos = handle.tell()
    return chunk


@overload
def read_game(handle: Handle) -> Optional[Game]:
    """Overload: the game."""


@overload
def read_game(handle: Handle, *, Visitor: Callable[[], BaseVisitor[ResultT]]) -> Optional[ResultT]:
    """Overload: the visitor's result."""


def read_game(handle: Handle, *, Visitor: Optional[Callable[[], BaseVisitor[object]]] = None) -> object:
    """Read the next game from an open file (text or binary), or ``None`` at its end.

    ``Visitor`` (python-chess's argument: a visitor class, or any callable
    making a visitor) is handed the game in PGN order and its ``result()``
    returned; the default, :class:`GameBuilder`, returns the :class:`Game`.
    The reader does only what the visitor asks for: :class:`HeadersBuilder`
    and :class:`SkipVisitor` cost no move text, :class:`BoardBuilder` only the
    main line (no tree).

    On a seekable, uncompressed handle the games are cut by the one
    splitter of :func:`read_games` (a block of bytes at a time: of a text
    file, the bytes under it where its encoding allows), and the handle is
    left at the start of the next game, so ``tell()``/``seek()`` between
    calls work as with python-chess. Other handles (pipes, gzip data, UTF-16
    text) are read ahead, and the reader keeps its place per handle: do not
    mix other reads of such a handle with these calls. Line numbers in
    ``game.errors`` count from where reading began (or from the last seek).

    >>> import io
    >>> handle = io.StringIO('[Event "A"]\\n\\n1. h2e2 h9g7 1-0\\n\\n[Event "B"]\\n\\n1. 炮二平五 *\\n')
    >>> first = read_game(handle)
    >>> first.headers["Event"], first.mainline_moves(), read_game(handle).headers["Event"], read_game(handle)
    ('A', [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')], 'B', None)
    >>> read_game(io.StringIO('[Event "A"]\\n\\n1. h2e2 h9g7 1-0\\n'), Visitor=BoardBuilder).fen()
    'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2'

    Raises:
        * :exc:`OSError` when reading the file fails;
        * what the visitor's methods raise (:meth:`BaseVisitor.handle_error` raises the errors of the game by
          default; :class:`GameBuilder` keeps them in ``game.errors``).
    """
    return _read_visited(handle, GameBuilder if Visitor is None else Visitor)


def _read_visited(handle: Any, Visitor: Callable[[], BaseVisitor[Any]]) -> Any:
    """The next game handed to ``Visitor()`` (its result), or ``None`` at the end."""
    chunk = _read_chunk(handle)
    return None if chunk is None else _visit(chunk, Visitor, None)


def read_headers(handle: Handle) -> Optional[Headers]:
    """The headers of the next game (its tags as the file has them, no roster added), or ``None`` at the end:
    ``read_game(handle, Visitor=HeadersBuilder)``. The move text is skipped unread.

    >>> import io
    >>> handle = io.StringIO('[Event "A"]\\n\\n1. h2e2 1-0\\n\\n[Event "B"]\\n[Red "Hu"]\\n\\n1. h2e2 *\\n')
    >>> [dict(h) for h in iter(lambda: read_headers(handle), None)]
    [{'Event': 'A'}, {'Event': 'B', 'Red': 'Hu'}]

    Raises:
        * :exc:`OSError` when reading the file fails.
    """
    chunk = _read_chunk(handle)
    if chunk is None:
        return None
    # What HeadersBuilder makes (_visit), without its dispatch.
    return _headers_of(chunk.tag_pairs()) if not chunk.errors else _visit(chunk, HeadersBuilder, None)


def skip_game(handle: Handle) -> bool:
    """Skip the next game: whether there was one (``read_game(handle, Visitor=SkipVisitor)``).

    >>> import io
    >>> handle = io.StringIO('[Event "A"]\\n\\n1. h2e2 1-0\\n\\n[Event "B"]\\n\\n1. h2e2 *\\n')
    >>> skip_game(handle), read_headers(handle)["Event"], skip_game(handle)
    (True, 'B', False)

    Raises:
        * :exc:`OSError` when reading the file fails.
    """
    return _read_chunk(handle) is not None   # SkipVisitor's result, without the visit


#: The handle :func:`_known_state` last found (a weak reference) and its state: a loop of reads asks about one
#: handle again and again (a look-up in :data:`_READERS` makes a weak reference each time).
_LAST_KNOWN: List[Any] = [None, None]


def _known_state(handle: Any) -> Optional[_SeekState]:
    """The state of a seekable ``handle`` :func:`read_game` has read before, else ``None``."""
    ref, known = _LAST_KNOWN
    if ref is not None and ref() is handle:
        return known  # type: ignore[no-any-return]
    try:
        known = _READERS.get(handle)
    except TypeError:  # not weak-referenceable
        return None
    if type(known) is not _SeekState:
        return None
    _LAST_KNOWN[:] = [weakref.ref(handle), known]
    return known


def _read_chunk(handle: Any) -> Optional[GameLines]:
    """The lines of the next game of ``handle`` (:func:`read_game`'s reading), or ``None`` at its end."""
    # The handle's other methods (seek, tell, readline) are looked up as the file has them.
    known = _known_state(handle)
    if known is not None and known.batches is not None and handle.tell() == known.pos:
        return _next_game(handle, known)   # the next game of a file read before, where the last call left it
    text = is_text_handle(handle)
    if _is_seekable(handle):
        state: Any = _handle_state(handle, _SeekState)
        if isinstance(state, _SeekState):
            if _begin(handle, state, text):
                return _next_game(handle, state)
            if text:
                return _read_lines_seekable(handle, state)
            _forget_handle(handle)
    chunks: Iterator[GameLines] = _handle_state(handle, lambda: split_games(text_lines(handle)))
    return next(chunks, None)


def _forget_handle(handle: Any) -> None:
    _LAST_KNOWN[:] = [None, None]
    try:
        _READERS.pop(handle, None)
    except TypeError:
        _READERS_STRONG.pop(id(handle), None)


def _last_line(chunk: GameLines) -> int:
    return chunk.movetext_start + len(chunk.movetext) - 1 if chunk.movetext else chunk.first_line


def _chunks(source: Source,
            encoding: Optional[str] = None) -> Iterator[Tuple[GameLines, Optional[InvalidRecordError]]]:
    """The games of ``source`` as the splitter cuts them (a binary source a block at a time, a text file line by
    line), each with ``None``, or the last with the damage that ended the input early (damaged compressed data;
    a game without lines when none came before it). A line cut at :data:`MAX_LINE_BYTES` is an error of its
    game (:class:`InvalidRecordError`), as are the splitter's limits (:func:`split_games`)."""
    cut: List[int] = []
    held: Optional[GameLines] = None
    try:
        for chunk in _source_games(source, encoding, cut):
            if held is not None:
                yield held, None
            held = chunk
    except InvalidRecordError as exc:
        yield (held if held is not None else GameLines(1)), exc
        return
    if held is not None:
        yield held, None


def _source_games(source: Source, encoding: Optional[str], cut: List[int]) -> Iterator[GameLines]:
    """:func:`split_games` of the lines of ``source``, the numbers of the lines cut at :data:`MAX_LINE_BYTES`
    gathered in ``cut``."""
    if is_text_handle(source):
        yield from split_games(text_lines(source), long_lines=cut)
        return
    with open_text(source, encoding, max_line=MAX_LINE_BYTES, lazy=True) as lines:  # type: ignore[arg-type]
        lines.long_lines = cut
        yield from split_games(lines, long_lines=cut)


def _damage_error(exc: InvalidRecordError, ply: int, chunk: GameLines) -> GameError:
    return GameError(ply, "", f"{exc}: the input ends early, what follows is lost", _last_line(chunk) + 1, exc)


@overload
def read_games(source: Source, *, encoding: Optional[str] = None) -> Iterator[Game]:
    """Overload: the games."""


@overload
def read_games(source: Source, *, encoding: Optional[str] = None,
               Visitor: Callable[[], BaseVisitor[ResultT]]) -> Iterator[ResultT]:
    """Overload: the visitors' results."""


def read_games(source: Source, *, encoding: Optional[str] = None,
               Visitor: Optional[Callable[[], BaseVisitor[object]]] = None) -> Iterator[object]:
    """Stream the games of a path, ``bytes``, or an open binary or text file.

    ``encoding`` overrides detection for binary input. Only one game is held
    in memory at a time; a file opened from a path is closed when the
    iterator is exhausted or discarded.

    Damage is data, as in the games' other errors: where compressed data is
    damaged (``gzip(a) + b"GARBAGE" + gzip(b)``, a cut ``.gz``), the games
    read before it are yielded and the last of them records the damage in
    its :attr:`~xiangqi.game.Game.errors` (an :class:`InvalidRecordError` at
    the ply after its last move; a game without moves or tags carries it
    when the damage comes first). Limits keep memory bounded whatever the
    input, each an error of its game (:class:`InvalidRecordError`, the first
    of its errors), the games after it read as usual: a line longer than
    :data:`MAX_LINE_BYTES` (64 KiB) is cut there, a game keeps at most
    :data:`MAX_GAME_CHARS` (256 Ki characters; the rest of it is skipped),
    and a comment open for more than :data:`MAX_COMMENT_CHARS` (128 Ki
    characters) no longer swallows the games after it (:func:`split_games`).

    ``Visitor`` is :func:`read_game`'s: each game's ``result()`` is yielded
    (``Visitor=HeadersBuilder``: the headers of each game, its move text
    unread).

    >>> data = '[Event "A"]\\n\\n1. h2e2 h9g7 1-0\\n\\n[Event "B"]\\n\\n1. 炮二平五 車９進９ *\\n'.encode("gb18030")
    >>> [(game.headers["Event"], len(game.mainline_moves()), len(game.errors)) for game in read_games(data)]
    [('A', 2, 0), ('B', 1, 1)]

    Raises:
        * :exc:`OSError` when a path cannot be opened or a read fails.
    """
    make = GameBuilder if Visitor is None else Visitor
    for chunk, damage in _chunks(source, encoding):
        yield _visit(chunk, make, damage)


class RawGame:
    """One game as :func:`scan_games` finds it: tags and main-line move tokens, no tree.

    ``headers`` holds the file's tags in file order (no roster added),
    ``tag_lines`` the line of each tag, ``first_line`` the game's first line,
    ``moves`` the main-line move tokens (move numbers, comments, NAGs,
    annotations and variations removed), ``move_lines`` their lines (worked
    out on first access), ``result`` the result token that ended the move
    text (or ``None``), ``has_comments`` whether the move text had comments,
    variations or NAGs, ``errors`` the problems of the move text's structure
    (a ``{`` comment or ``(`` variation never closed, which cuts the main line
    short: :class:`GameError` with an :class:`InvalidRecordError`; empty for
    a sound record). :func:`replay_mainline` reports the first of them when
    every move is legal.

    >>> raw = next(scan_games(b'[Red "Hu"]\\n\\n1. h2e2 {the cannon} h9g7 2. h0g2 1-0\\n'))
    >>> raw, raw.moves, raw.result, raw.has_comments
    (<RawGame line 1: 3 moves, Hu - ?>, ['h2e2', 'h9g7', 'h0g2'], '1-0', True)
    """

    __slots__ = ("headers", "first_line", "moves", "result", "has_comments", "errors", "_tokens", "_chunk")

    def __init__(self, chunk: GameLines) -> None:
        toks = _Tokens(chunk)
        self.headers = dict(chunk.tags)
        self._chunk = chunk
        self.first_line = chunk.first_line
        self.moves = toks.moves
        self.result = toks.result
        self.has_comments = toks.tokens is not None
        self.errors: List[GameError] = chunk.errors + toks.errors
        self._tokens = toks

    @property
    def tag_lines(self) -> Dict[str, int]:
        """The 1-based file line of each tag (of its last line when a name comes twice), worked out when asked.

        >>> next(scan_games(b'[Red "Hu"]\\n[Black "Xu"]\\n\\n1. h2e2 *\\n')).tag_lines
        {'Red': 1, 'Black': 2}
        """
        return self._chunk.tag_lines

    @property
    def move_lines(self) -> List[int]:
        """The 1-based file line of each move in :attr:`moves`.

        >>> next(scan_games(b'[Red "Hu"]\\n\\n1. h2e2 h9g7\\n2. h0g2 *\\n')).move_lines
        [3, 3, 4]
        """
        return self._tokens.move_lines

    @property
    def fen(self) -> str:
        """The ``FEN`` tag, or the standard start position.

        >>> next(scan_games(b'[FEN "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]\\n\\n*\\n')).fen
        '4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1'
        """
        return self.headers.get("FEN", "").strip() or STARTING_FEN

    @property
    def notation(self) -> Optional[str]:
        """``"iccs"`` or ``"wxf"`` when the ``Format`` tag says so, else ``None`` (detect per token).

        >>> next(scan_games(b'[Format "ICCS"]\\n\\n1. h2e2 *\\n')).notation, next(scan_games(b"1. h2e2 *")).notation
        ('iccs', None)
        """
        return _notation_of(self.headers)

    def __repr__(self) -> str:
        return f"<RawGame line {self.first_line}: {len(self.moves)} moves, {self.headers.get('Red', '?')} - " \
               f"{self.headers.get('Black', '?')}>"


def scan_games(source: Source, *, encoding: Optional[str] = None) -> Iterator[RawGame]:
    """Stream each game's tags and raw main-line move tokens, without parsing moves.

    The fast front end for bulk validation: no board, no tree. Use
    :func:`replay_mainline` to turn a :class:`RawGame` into legal moves.

    >>> data = b'[Event "A"]\\n\\n1. h2e2 h9g7 1-0\\n\\n[Event "B"]\\n\\n1. b2e2 *\\n'
    >>> [(raw.headers["Event"], raw.moves) for raw in scan_games(data)]
    [('A', ['h2e2', 'h9g7']), ('B', ['b2e2'])]

    Raises:
        * :exc:`OSError` when a path cannot be opened or a read fails.
    """
    for chunk, damage in _chunks(source, encoding):
        raw = RawGame(chunk)
        if damage is not None:
            raw.errors.append(_damage_error(damage, len(raw.moves), chunk))
        yield raw


class Replay:
    """The outcome of :func:`replay_mainline`.

    ``codes`` are the 16-bit codes (``from << 7 | to``) of the moves played
    before the first problem, ``error`` that problem (``None`` when every
    move was legal and the record is sound: a comment or variation never
    closed is reported here too, see :attr:`RawGame.errors`), ``fen`` the
    start position; :attr:`moves` and
    :attr:`board` are worked out on demand.
    """

    __slots__ = ("fen", "codes", "error")

    def __init__(self, fen: str, codes: List[int], error: Optional[GameError]) -> None:
        self.fen = fen
        self.codes = codes
        self.error = error

    @property
    def moves(self) -> List[Move]:
        """The moves played, as :class:`~xiangqi.Move` objects."""
        return moves_of(self.codes)

    @property
    def board(self) -> Optional[Board]:
        """A new board after the moves played (``None`` when the ``FEN`` tag is invalid)."""
        try:
            board = Board(self.fen)
        except InvalidFenError:
            return None
        for c in self.codes:
            board.push(Move(c >> 7, c & 127))
        return board

    def __repr__(self) -> str:
        return f"<Replay {len(self.codes)} moves, error={self.error}>"


def replay_mainline(raw: RawGame) -> Replay:
    """Play a :class:`RawGame`'s main-line tokens, stopping at the first bad one.

    When every move token plays, :attr:`Replay.error` is the first of :attr:`RawGame.errors` (if any). Bad
    data never raises: a bad ``FEN`` tag or move is the replay's ``error``.

    >>> replay = replay_mainline(next(scan_games(b"1. h2e2 h9g7 2. h0g2 *")))
    >>> replay.moves, replay.error, replay.board.fen()
    ([Move.from_iccs('h2e2'), Move.from_iccs('h9g7'), Move.from_iccs('h0g2')], None, 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2')
    >>> print(replay_mainline(next(scan_games(b"1. h2e2 h2e2 *"))).error)
    line 1, ply 1, 'h2e2': illegal ICCS move 'h2e2' in rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1: there is no piece on h2
    """
    fen = raw.fen
    try:
        codes, error = play_line(fen, raw.moves, raw.notation)
    except InvalidFenError as e:
        return Replay(fen, [], _fen_error(raw.headers, raw.tag_lines, raw.first_line, raw.moves, _kept(e)))
    if error is None:
        # Every move token played: a structural problem (the main line cut short) is the one to report.
        return Replay(fen, codes, raw.errors[0] if raw.errors else None)
    ply, exc = error
    return Replay(fen, codes, GameError(ply, raw.moves[ply], str(exc), raw.move_lines[ply], exc))
