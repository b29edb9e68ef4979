"""Judging games: each game of a :class:`~xiangqi.chunks.Chunk` replayed on the C core and checked
(:func:`validate_chunk`), one :class:`~xiangqi.reports.GameReport` a game.

PGN games are split by the PGN reader and their move text replayed in C; a game whose text only the reader's
tokenizer can cut (comments, variations, odd tokens) is read by it. XQF, DhtmlXQ and any registered format are
read by their readers. What each error kind means is told in :mod:`xiangqi.validate`.

>>> chunk = Chunk("demo.pgn", "pgn", b"1. h2e2 h9g7 *\\n\\n1. h2e2 h2e2 *\\n")
>>> [(r.index, r.ok, r.error and r.error.kind) for r in validate_chunk(chunk)]
[(1, True, None), (2, False, 'illegal-move')]
"""

from __future__ import annotations

import dataclasses
import re
import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

from xiangqi import formats, pgn
from xiangqi import rules as _rules
from xiangqi.chunks import Chunk, chunk_lines
from xiangqi.core import STARTING_FEN
from xiangqi.errors import AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError, XiangqiError
from xiangqi.facts import no_move_outcome
from xiangqi.tags import RESULT_WORDS as _RESULT_WORDS
from xiangqi.tags import RESULTS, normalize_result
from xiangqi.reports import ErrorInfo, GameReport

__all__ = ["validate_chunk"]


# =====================================================================================================================
# Move tokens: results and move numbers (the moves are the C replay's and the notation module's)
# =====================================================================================================================

#: A move number token ("12.", "12..."): skipped in move text, as the C replay skips it.
_MOVE_NUMBER = re.compile(r"[0-9]+\.(?:\.\.)?")


# =====================================================================================================================
# Replaying one game on the C core
# =====================================================================================================================

class _Replay:
    """What a replay found: plies played, the first error, the result token met, and whether only move
    numbers follow the failing token (it was the last move of the text)."""

    __slots__ = ("plies", "error", "result", "last_token_failed")

    def __init__(self, plies: int, error: Optional[ErrorInfo], result: Optional[str],
                 last_token_failed: bool) -> None:
        self.plies = plies
        self.error = error
        self.result = result
        self.last_token_failed = last_token_failed


class _Delegate(Exception):
    """The fast scanner met text whose tokens only the PGN reader may cut."""


_KIND_OF = {InvalidMoveError: "invalid-notation", IllegalMoveError: "illegal-move",
            AmbiguousMoveError: "ambiguous-move", InvalidFenError: "invalid-fen"}


def _kind_of(exc: BaseException) -> str:
    for cls, kind in _KIND_OF.items():
        if isinstance(exc, cls):
            return kind
    return "parse-error"


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text if text.endswith(".") else text + "."


class _Start:
    """A start position: its FEN text (ready in the player), or why it is unusable."""

    __slots__ = ("fen", "error")

    def __init__(self, fen: str, error: Optional[ErrorInfo]) -> None:
        self.fen = fen
        self.error = error


class _Replayer:
    """Judges games on the PGN reader's C position (one per thread: :func:`xiangqi.pgn.text_player`),
    replayed by the reader's one main-line replayer (:func:`xiangqi.pgn.play_line`) or, for a game's raw
    move text, by the C replay alone (:meth:`replay_text`)."""

    def __init__(self) -> None:
        self.player = pgn.text_player()
        self.starts: Dict[str, _Start] = {}
        self.initial = self._start(STARTING_FEN)
        self.rule_sets: Dict[str, Tuple[Any, int, int, int, int]] = {}

    def _start(self, fen: str) -> _Start:
        hit = self.starts.get(fen)
        if hit is not None:
            return hit
        error: Optional[ErrorInfo] = None
        try:
            self.player.prepare(fen)
        except InvalidFenError as exc:
            error = ErrorInfo("invalid-fen", 0, fen, _sentence(str(exc)))
        start = _Start(fen, error)
        if len(self.starts) > 4096:
            self.starts.clear()
        self.starts[fen] = start
        return start

    def start(self, fen_tag: Optional[str]) -> _Start:
        """The start position for a ``FEN`` tag value (``None`` or blank: the standard start)."""
        if not fen_tag:
            return self.initial
        fen_tag = fen_tag.strip()
        return self._start(fen_tag) if fen_tag else self.initial

    def fen(self) -> str:
        """The FEN of the position after the game last replayed."""
        return self.player.fen()

    def replay(self, start: _Start, tokens: List[str], clean: bool, notation: Optional[str] = None) -> "_Replay":
        """Play ``tokens`` from ``start``; stop at the first bad move.

        ``clean`` tokens are moves only (from the PGN reader or a game's moves), played by the reader's
        main-line replayer; otherwise they are move text (move numbers and a result token may be mixed
        in), played as :meth:`replay_text` plays it (which may raise :class:`_Delegate`).
        """
        if not clean:
            plies, result = self.replay_text(start, " ".join(tokens))
            return _Replay(plies, None, result, False)
        codes, error = pgn.play_line(start.fen, tokens, notation)
        n = len(codes)
        if error is None:
            return _Replay(n, None, None, False)
        ply, exc = error
        return _Replay(n, ErrorInfo(_kind_of(exc), ply, tokens[ply], _sentence(str(exc))), None,
                       _only_numbers_after(tokens, ply))

    def replay_text(self, start: _Start, movetext: str) -> Tuple[int, Optional[str]]:
        """Play a game's move text in C (``xq_play_text``): the moves played and the result token met.

        When the C replay stops before the end on anything but a last result
        token (move numbers aside) -- a move it does not play, another token,
        a result before the end -- raises :class:`_Delegate`: the PGN reader
        reads the game and :meth:`replay` plays its moves, the rest with the
        notation module.
        """
        played = pgn.play_movetext(start.fen, movetext) if pgn.C_REPLAY else None
        if played is None:
            raise _Delegate()
        return played

    def rule_set(self, rules: str) -> Tuple[Any, int, int, int, int]:
        """The rule set named ``rules`` with what each game asks of it: (rules, repetition count, C facts
        flags, natural limit, red-must-vary rounds)."""
        hit = self.rule_sets.get(rules)
        if hit is None:
            rs = _rules.get_rules(rules)
            hit = self.rule_sets[rules] = (rs, rs.repetition_count, rs.facts_flags(), rs.natural_limit,
                                           rs.red_must_vary_rounds)
        return hit


_LOCAL = threading.local()


def _replayer() -> _Replayer:
    """This thread's replayer (a C position is not shared between threads)."""
    rp: Optional[_Replayer] = getattr(_LOCAL, "replayer", None)
    if rp is None:
        rp = _LOCAL.replayer = _Replayer()
    return rp


# =====================================================================================================================
# Rulings (xiangqi.rules)
# =====================================================================================================================

def _rulings(rp: _Replayer, g: "_GameText", plies: int, rs: Any, suspects: int) -> Tuple[Optional[Any], List[ErrorInfo]]:
    """The repetition or natural-limit ruling at the end of a game, and the forbidden repetitions before it.

    Only called when the C core's loop summary (``xq_repetition_loops``, one
    pass over the game's keys, then over the moves inside loops) or the
    halfmove clock says a ruling is possible. Works on the replay's own undo
    records: no :class:`~xiangqi.Board` is built, and only the rulings reported are
    worded (:func:`xiangqi.rules.game_rulings`).
    """
    player = rp.player
    outcome, found = _rules.game_rulings(player.history(plies), rs,
                                         player.loops(suspects) if suspects >= 0 else None)
    warnings: List[ErrorInfo] = []
    merged: List[List[Any]] = []  # [first ruling, last ply of its loop, rulings merged]
    for ruling in found:
        if merged and merged[-1][0].termination is ruling.termination and \
                merged[-1][0].winner == ruling.winner and ruling.first_ply <= merged[-1][1] + 2:
            merged[-1][1] = ruling.last_ply
            merged[-1][2] += 1
            continue
        merged.append([ruling, ruling.last_ply, 1])
    for ruling, last, n in merged:
        ply = ruling.ply - 1
        reason = ruling.outcome().reason.rstrip(".")
        more = f"; the same ruling applied again up to ply {last}" if n > 1 else ""
        warnings.append(ErrorInfo("rule-violation", ply, g.move_token(ply),
                                  _sentence(f"{reason}; play went on{more}")))
    return outcome, warnings


# =====================================================================================================================
# Checking a game
# =====================================================================================================================

#: Terminations where the board alone decides the result.
_BOARD_DECIDES = {"CHECKMATE", "STALEMATE"}
#: Terminations by a repetition ruling that names a loser.
_RULED_LOSS = {"PERPETUAL_CHECK", "PERPETUAL_CHASE", "FORBIDDEN_PATTERN"}
_DEFINITE = RESULTS[:3]


_norm_result = normalize_result


_NEW = object.__new__


def _report(source: str, index: int, line: Optional[int], ok: bool, plies: int, error: Optional[ErrorInfo],
            result_recorded: Optional[str], result_computed: Optional[str], termination: Optional[str],
            final_fen: Optional[str], warnings: Tuple[ErrorInfo, ...] = ()) -> GameReport:
    """``GameReport(...)`` without the frozen dataclass's per-field ``object.__setattr__`` (the hot path):
    the same object, its fields set in its ``__dict__``."""
    r = _NEW(GameReport)
    d = r.__dict__
    d["source"] = source
    d["index"] = index
    d["line"] = line
    d["ok"] = ok
    d["plies"] = plies
    d["error"] = error
    d["result_recorded"] = result_recorded
    d["result_computed"] = result_computed
    d["termination"] = termination
    d["final_fen"] = final_fen
    d["warnings"] = warnings
    return r


class _GameText:
    """One game as scanned: first line, tags, move tokens and the result token."""

    __slots__ = ("line", "headers", "_tokens", "movetext", "result", "clean", "last", "errors", "damage",
                 "notation", "_moves")

    def __init__(self, line: Optional[int], headers: Dict[str, str], tokens: Optional[List[str]],
                 result: Optional[str], clean: bool, movetext: Optional[str] = None,
                 notation: Optional[str] = None) -> None:
        self.line = line
        self.notation = notation  # the moves' notation where the record says (None: told per line)
        self.headers = headers
        self._tokens = tokens
        self.movetext = movetext
        self.result = result
        self.clean = clean
        self.last = False
        self.errors: Sequence[Any] = ()
        #: The first damage of the game's lines (a cut line, a limit, a damaged tag line): its first problem.
        self.damage: Optional[Any] = None
        self._moves: Optional[List[str]] = None

    @property
    def tokens(self) -> List[str]:
        """The move text's tokens (split on demand when the game came as text)."""
        if self._tokens is None:
            self._tokens = (self.movetext or "").split()
        return self._tokens

    def move_token(self, ply: int) -> Optional[str]:
        """The text of the move token played at ``ply`` (move numbers and results skipped in move text), or
        ``None``."""
        moves = self._moves
        if moves is None:
            moves = tokens = self.tokens
            if not self.clean:
                # A move number ends in a dot, a move never does: the cheap test first.
                number = _MOVE_NUMBER.fullmatch
                moves = [tok for tok in tokens if not (tok[-1] == "." and number(tok) or tok in _RESULT_WORDS)]
            self._moves = moves
        return moves[ply] if 0 <= ply < len(moves) else None


def _check_game(rp: _Replayer, source: str, index: int, g: _GameText, rules: str, chunk: Chunk) -> GameReport:
    """Replay one scanned game and judge it. Raises :class:`_Delegate` (fast scan only)."""
    headers = g.headers
    tag_result = headers.get("Result")
    start = rp.start(headers.get("FEN"))
    if start.error is not None:
        recorded = tag_result if tag_result is not None else g.result
        first = start.error if g.damage is None else _damage_info(g.damage)
        return _report(source, index, g.line, False, 0, first, recorded, None, None, None)
    rep: Optional[_Replay] = None
    error: Optional[ErrorInfo] = None
    if g.movetext is not None:
        plies, result_tok = rp.replay_text(start, g.movetext)
    else:
        rep = rp.replay(start, g.tokens, g.clean, g.notation)
        plies, error, result_tok = rep.plies, rep.error, rep.result
    if g.damage is not None:   # the damage of the lines comes first, as in the reader's game.errors
        error = _damage_info(g.damage)
    if result_tok is None:
        result_tok = g.result
    recorded = tag_result if tag_result is not None else result_tok
    truncated = g.last and chunk.last and result_tok is None and (
        chunk.cut or not chunk.eof_newline or tag_result is not None or error is not None and
        rep is not None and rep.last_token_failed)
    if truncated or (g.last and chunk.last and chunk.cut):
        if error is not None:
            error = ErrorInfo("truncated", error.ply, error.token, _sentence(
                f"the file ends inside this game: {error.message}"))
        else:
            error = ErrorInfo("truncated", plies, None, _sentence(
                f"the file ends after ply {plies} of this game without a result token: the record is cut short"
                + (" (damaged compressed data)" if chunk.cut else "")))
    if error is None and g.errors:
        e = g.errors[0]
        error = ErrorInfo("parse-error", e.ply, e.token or None, _sentence(e.reason))
    if error is not None:
        return _report(source, index, g.line, False, plies, error, recorded, None, None, rp.fen())
    computed: Optional[str] = None
    termination: Optional[str] = None
    reason = ""
    warnings: List[ErrorInfo] = []
    player = rp.player
    rs, c, flags, limit, _vary = rp.rule_set(rules)
    legal, halfmove, suspects, end_count, final_fen = player.ending(plies, c, flags)
    if legal == 0:
        ended = no_move_outcome(bool(player.side()), player.in_check())
        computed = ended.result()
        termination = ended.termination.name
        reason = ended.reason
    elif plies >= 4:
        # A ruling is due at the end (the count reached there, or the natural limit), or some loop before it
        # has a side whose every move attacks, or lies in the opening's first rounds where Red must vary (the
        # C core counts those among the suspects); otherwise each is a draw that play may go on from.
        if suspects != 0 or end_count >= c or bool(limit and halfmove >= limit):
            outcome, warnings = _rulings(rp, g, plies, rs, suspects)
            if outcome is not None:
                termination = outcome.termination.name
                computed = outcome.result()
                reason = outcome.reason.rstrip(".")
    mismatch: Optional[ErrorInfo] = None
    rec = _norm_result(tag_result)
    tok = _norm_result(result_tok)
    if computed is not None and (termination in _BOARD_DECIDES or termination in _RULED_LOSS):
        for value, text in ((rec, tag_result), (tok, result_tok)):
            if value not in _DEFINITE or value == computed:
                continue
            if termination in _RULED_LOSS and value == "1/2-1/2":
                # A draw recorded where the rules name a loser: agreed, or the arbiter saw it otherwise.
                warnings.append(ErrorInfo("rule-violation", plies - 1, g.move_token(plies - 1),
                                          _sentence(f"the record says {value}, but {reason}")))
                break
            mismatch = ErrorInfo("result-mismatch", None, text, _sentence(
                f"the record says {value}, but {reason}, so the result is {computed}"))
            break
    if mismatch is None and rec in _DEFINITE and tok in _DEFINITE and rec != tok:
        mismatch = ErrorInfo("result-mismatch", None, result_tok, _sentence(
            f"the Result tag says {tag_result} but the move text ends with {result_tok}"))
    if mismatch is not None:
        return _report(source, index, g.line, False, plies, mismatch, recorded, computed, termination, final_fen,
                          tuple(warnings))
    return _report(source, index, g.line, True, plies, None, recorded, computed, termination, final_fen,
                      tuple(warnings))


def _damage_info(e: Any) -> ErrorInfo:
    """A game's error from the damage of its lines (a :class:`~xiangqi.game.GameError` of the splitter)."""
    return ErrorInfo("parse-error", e.ply, e.token or None, _sentence(e.reason))


def start_fen(headers: Dict[str, str]) -> str:
    """The start FEN of a game's tags (``FEN`` tag or the standard start)."""
    fen = headers.get("FEN", "").strip()
    return fen or STARTING_FEN


def _only_numbers_after(tokens: Sequence[str], i: int) -> bool:
    """Whether nothing but move numbers follows token ``i`` (the failing token is the last move)."""
    number = _MOVE_NUMBER.fullmatch
    return all(number(tok) for tok in tokens[i + 1:])


# =====================================================================================================================
# PGN: games as the PGN reader splits them, checked on its fast path
# =====================================================================================================================

def _chunk_text(chunk: Chunk) -> str:
    """The lines of a chunk's bytes (:func:`xiangqi.chunks.chunk_lines`) joined by ``\\n``, a block at a time."""
    return "\n".join(block.text for block in chunk_lines(chunk).blocks())


#: The tags that judging a game reads (:func:`_check_game`): the fast path reads these alone.
_TAGS_READ = ("FEN", "Result")


def _game_text(raw: pgn.GameLines) -> _GameText:
    """A game as the PGN reader's splitter gives it, for the C replay of its move text (``movetext``)."""
    headers = {name: value for name in _TAGS_READ if (value := raw.tag(name)) is not None}
    g = _GameText(raw.first_line, headers, None, None, False, raw.movetext_text)
    g.errors = errors = raw.errors
    if errors:
        g.damage = errors[0]
    return g


def _read_game_text(raw: pgn.GameLines) -> _GameText:
    """The same game read by the PGN reader's tokenizer (comments, variations, odd tokens): its main-line
    move tokens, result token and structural errors."""
    scanned = pgn.RawGame(raw)   # its headers and moves are new, this game's alone: no copies
    g = _GameText(scanned.first_line, scanned.headers, scanned.moves, scanned.result, True,
                  notation=scanned.notation)
    g.errors = scanned.errors
    if raw.errors:
        g.damage = raw.errors[0]
    return g


def _pgn_reports(chunk: Chunk, rules: str) -> List[GameReport]:
    rp = _replayer()
    src = chunk.source
    out: List[GameReport] = []
    stream = chunk.stream
    if stream is not None:   # the rest of a file read as lines, within the splitter's limits (no text held)
        games = pgn.split_games(stream, chunk.line_offset, long_lines=stream.long_lines)
    else:   # the one splitter of a file's blocks: a game the C scan marks plain is made from its bytes
        games = pgn.split_games(chunk_lines(chunk), chunk.line_offset,
                                long_lines=list(chunk.long_lines) if chunk.long_lines else None)
    raw = next(games, None)
    while raw is not None:
        after = next(games, None)
        if after is None and stream is not None:   # the lines are read: how the file ends is known
            chunk = dataclasses.replace(chunk, eof_newline=stream.eof_newline, cut=stream.damage is not None)
        g = _game_text(raw)
        g.last = after is None
        text = g.movetext or ""
        try:
            # Move text holding a comment or a variation goes to the reader's tokenizer at once: the C replay
            # plays no token that holds one, so it would stop there and hand the game over after replaying it
            # in part. (Three searches for a character: a twentieth of the time of one regular expression's.)
            if "{" in text or "(" in text or ";" in text:
                raise _Delegate()
            out.append(_check_game(rp, src, len(out) + 1, g, rules, chunk))
        except _Delegate:
            g = _read_game_text(raw)
            g.last = after is None
            out.append(_check_game(rp, src, len(out) + 1, g, rules, chunk))
        raw = after
    return out


# =====================================================================================================================
# XQF and DhtmlXQ: games read by their readers
# =====================================================================================================================

def _game_report(rp: _Replayer, source: str, index: int, line: Optional[int], game: Any, rules: str,
                 chunk: Chunk) -> GameReport:
    """Judge a :class:`xiangqi.pgn.Game` (as the XQF and DhtmlXQ readers return them)."""
    headers = dict(game.headers)
    errors = [e for e in getattr(game, "errors", []) if getattr(e, "mainline", True)]
    moves = game.mainline_moves()
    if errors and isinstance(errors[0].error, InvalidFenError):
        e = errors[0]
        fen = headers.get("FEN") or e.token or ""
        return GameReport(source, index, line, False, 0, ErrorInfo("invalid-fen", 0, fen, _sentence(e.reason)),
                          headers.get("Result"), None, None, None)
    tokens = [m.iccs() for m in moves]
    g = _GameText(line, headers, tokens, None, True, notation="iccs")
    g.last = False
    report = _check_game(rp, source, index, g, rules, chunk)
    if errors and report.error is None or errors and report.error is not None and \
            report.error.kind == "result-mismatch":
        e = errors[0]
        kind = _kind_of(e.error) if e.error is not None else "parse-error"
        err = ErrorInfo(kind, e.ply, e.token or None, _sentence(e.reason))
        return dataclasses.replace(report, ok=False, error=err, result_computed=None, termination=None)
    return report


def _reader_reports(chunk: Chunk, rules: str) -> List[GameReport]:
    """The games of a whole file read by its format's reader (XQF, DhtmlXQ, any registered format)."""
    fmt = formats.FORMATS[chunk.fmt]
    rp = _replayer()
    out: List[GameReport] = []
    try:
        text = None if fmt.binary else _chunk_text(chunk)
        for n, (line, game) in enumerate(formats.located_games(chunk.fmt, chunk.data, text), 1):
            out.append(_game_report(rp, chunk.source, n, line, game, rules, chunk))
    except (XiangqiError, ValueError, IndexError, KeyError, EOFError) as exc:
        out.append(_parse_error(chunk, len(out) + 1, None, f"not a readable {fmt.title} file: {exc}"))
    return out


def _parse_error(chunk: Chunk, index: int, line: Optional[int], message: str) -> GameReport:
    return GameReport(chunk.source, index, line, False, 0, ErrorInfo("parse-error", None, None, _sentence(message)),
                      None, None, None, None)


def validate_chunk(chunk: Chunk, rules: str = "axf") -> List[GameReport]:
    """Check every game of one chunk; indices count from 1 within the chunk.

    This is the function workers run (module level, so executors can pickle
    it by reference). Bad data never raises: it is the reports' ``error``.

    >>> from xiangqi.chunks import iter_chunks
    >>> [(r.index, r.ok) for chunk in iter_chunks([_example_pgn()]) for r in validate_chunk(chunk, rules="cxa")]
    [(1, True), (2, False)]
    """
    if chunk.read_error is not None and not chunk.data:
        return [_parse_error(chunk, 1, None, chunk.read_error)]
    streamed = formats.FORMATS[chunk.fmt].streamed
    out = _pgn_reports(chunk, rules) if streamed else _reader_reports(chunk, rules)
    if chunk.cut and not streamed and out and out[-1].ok:
        last = out[-1]
        out[-1] = dataclasses.replace(last, ok=False, error=ErrorInfo(
            "truncated", last.plies, None, _sentence("the file ends early (damaged compressed data)")))
    return out
