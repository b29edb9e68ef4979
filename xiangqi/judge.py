"""``xiangqi judge``: rule on a game's end (mate, stalemate, perpetual check or chase, natural limit).

Usage::

    xiangqi judge GAME.pgn [--rules axf|cxa]     (or .pgn.gz, .xqf, DhtmlXQ .txt/.htm)
    xiangqi judge "FEN" MOVE MOVE ... [--rules axf|cxa]
    xiangqi judge "FEN moves MOVE MOVE ..."
    xiangqi judge startpos moves MOVE ...      (or just the moves, from the start position)

Moves may be ICCS (``h2e2``), WXF (``C2.5``) or Chinese (``炮二平五``);
``0000`` is a null move (the side to move passes; a repetition whose loop
holds one is ruled against neither side). The
verdict is printed with its reason in English and Chinese; ``--explain``
adds what every move of the repetition loop does, ``--json`` prints one JSON
object per game. Rulings that play went past (a side that should already
have lost) are listed as well.

Exit status: 0 when judged; 1 when a game file holds games with errors (they
are reported on standard error, and each game is judged on the moves before
its first error; a game whose start position cannot occur in a game, such as
kings facing each other, is not judged) or no game at all; 2 for a missing
file, a bad position (one that is not a FEN, or that cannot occur in a game),
move or option.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple, Union

from xiangqi import formats
from xiangqi import rules as rulings
from xiangqi._cliio import add_rules_options, guard, input_problem, reason, regular_input
from xiangqi.board import Board
from xiangqi.core import STARTING_FEN
from xiangqi.errors import XiangqiError
from xiangqi.game import require_playable, start_board

__all__ = ["judge_main", "judge_board", "split_position", "board_from_words"]

_FEN_SIDE = {"w", "r", "b", "red", "black"}
#: Names of game files (a missing one is reported as such, not read as a move).
#: A move number of pasted text (``1.``, ``12...``); anything else is read as a move (``0000`` passes the turn).
_MOVE_NUMBER = re.compile(r"\d+\.+[,;]*")


def split_position(tokens: Sequence[str]) -> Tuple[str, List[str]]:
    """(FEN, move tokens) from the command line's position words, the one vocabulary of every command that takes a
    position (``judge``, ``render``, ``perft --fen``): a FEN (one word or its fields as words) or ``startpos``,
    then optionally ``moves`` and the moves; words that do not start with either are moves from the start.

    >>> split_position(["startpos", "moves", "h2e2"])
    ('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', ['h2e2'])
    >>> split_position(["4k4/9/9/9/9/9/9/9/9/3K5 b h9h8"])
    ('4k4/9/9/9/9/9/9/9/9/3K5 b', ['h9h8'])

    Raises:
        :class:`~xiangqi.errors.XiangqiError`: the first word starts no position (neither a FEN, ``startpos``
            nor a move from the start).
    """
    toks = [t for tok in tokens for t in tok.split()]
    if not toks:
        return STARTING_FEN, []
    if toks[0].lower() == "startpos":
        fen, rest = STARTING_FEN, toks[1:]
    elif toks[0].lower() == "fen":
        return split_position(toks[1:])
    elif "/" in toks[0]:
        fields = [toks[0]]
        i = 1
        if i < len(toks) and toks[i].lower() in _FEN_SIDE:
            fields.append(toks[i])
            i += 1
            # optional castling/en-passant placeholders and counters
            while i < len(toks) and len(fields) < 6 and (toks[i] == "-" or toks[i].isdigit()):
                fields.append(toks[i])
                i += 1
        fen, rest = " ".join(fields), toks[i:]
    elif toks[0].lower() == "moves":
        fen, rest = STARTING_FEN, toks
    else:
        _check_first_move(toks[0])
        fen, rest = STARTING_FEN, toks
    if rest and rest[0].lower() == "moves":
        rest = rest[1:]
    return fen, rest


def _check_first_move(word: str) -> None:
    """Raise a clear error unless ``word``, the first of the position words, is a move from the start position
    (a position starts with a FEN or ``startpos``; without either, the words are moves from the start)."""

    if _MOVE_NUMBER.fullmatch(word) or word == "0000":
        return
    try:
        Board().parse_move(word.rstrip(".,;"))
    except XiangqiError:
        raise XiangqiError(
            f"{word!r} does not start a position: give a FEN (its board ranks separated by '/'), 'startpos', "
            "or moves from the start position") from None


def board_from_words(tokens: Sequence[str], *, playable: bool = True) -> Board:
    """The board after the position words (:func:`split_position`): move numbers (``1.``, ``12...``) are skipped
    and moves may be in any notation. With ``playable`` (judging, perft) the start position must be one a game can
    have; without (a diagram) any position a FEN holds.

    >>> board_from_words(["startpos", "moves", "1.", "炮二平五", "h9g7"]).move_stack
    [Move.from_iccs('h2e2'), Move.from_iccs('h9g7')]

    Raises:
        :class:`~xiangqi.errors.XiangqiError`: as :func:`split_position`; a FEN that does not read or (with
            ``playable``) a position that cannot occur in a game; a move that cannot be played (named, with
            its number).
    """
    fen, moves = split_position(tokens)
    # there is no game to judge from a position that cannot occur in one
    board = start_board(fen) if playable else Board(fen)
    for i, text in enumerate(moves):
        if _MOVE_NUMBER.fullmatch(text):
            continue  # move numbers such as "1." or "12..." in pasted text
        text = text.rstrip(".,;")
        if not text:
            continue
        try:
            board.push_move(text)
        except XiangqiError as exc:
            raise XiangqiError(f"move {i + 1} ({text!r}) after {len(board.move_stack)} plies: {exc}") from None
    return board


def judge_board(board: Board, rules: Union[str, rulings.RuleSet] = "axf", *, count: Optional[int] = None,
                limit: Optional[int] = None) -> Dict[str, Any]:
    """The verdict on a board's game as a dict (what ``--json`` prints).

    Keys: ``result`` ("1-0", "0-1", "1/2-1/2" or "*"), ``termination``, ``reason``,
    ``reason_zh``, ``plies``, ``fen``, ``rules``, ``loop`` (first and last ply of the
    repetition loop, or ``None``), ``violations`` (earlier rulings play went past:
    ply, result, reason), ``facts`` (per move of the loop, English lines).

    >>> from xiangqi import Board
    >>> board = Board("3k5/1R7/9/9/9/9/9/9/9/R3K4 w")
    >>> board.push_iccs("a0a9")
    Move.from_iccs('a0a9')
    >>> verdict = judge_board(board)
    >>> verdict["result"], verdict["termination"], verdict["reason"], verdict["rules"]
    ('1-0', 'checkmate', 'Black is checkmated and loses', 'axf')
    >>> judge_board(Board(), rules="cxa")["reason"]
    'The game goes on: the position has occurred 1 time, 0 plies without a capture (natural limit 120).'

    ``rules`` is a rule-set name (with options, :func:`xiangqi.rulesets.rules_spec`) or a
    :class:`~xiangqi.rulesets.RuleSet`.

    Raises:
        * :exc:`ValueError` when ``rules`` names no rule set.
    """

    rs = rulings.get_rules(rules)
    ruling = None
    if board.legal_move_codes():
        ruling = rulings.judge(board, rs, count=count, natural_limit=limit)
        outcome = ruling.outcome if ruling is not None else None
    else:
        outcome = board.outcome(rules=rs.name)  # checkmate or stalemate
    violations = [
        {"ply": r.ply, "result": r.outcome.result(), "termination": r.outcome.termination.name.lower(),
         "reason": r.outcome.reason, "reason_zh": r.outcome.reason_zh}
        for r in rulings.scan_violations(board, rs, count=count, natural_limit=limit)
        if r.ply < len(board.move_stack)
    ]
    facts: List[str] = []
    loop = None
    if ruling is not None and ruling.kind == "repetition":
        loop = [ruling.first_ply, ruling.last_ply]
        facts = [line.strip() for line in ruling.explain().splitlines()[2:]]
    elif ruling is not None and ruling.natural is not None:
        facts = [ruling.explain().splitlines()[-1]]
    return {
        "result": outcome.result() if outcome else "*",
        "termination": outcome.termination.name.lower() if outcome else None,
        "reason": outcome.reason if outcome else _goes_on(board, rs),
        "reason_zh": outcome.reason_zh if outcome else "对局继续",
        "plies": len(board.move_stack),
        "fen": board.fen(),
        "rules": rs.name,
        "loop": loop,
        "violations": violations,
        "facts": facts,
    }


def _goes_on(board: Board, rs: rulings.RuleSet) -> str:
    n = rulings.repetition_count(board)
    nl = rulings.natural_limit(board, rules=rs)
    return (f"The game goes on: the position has occurred {n} time{'s' if n != 1 else ''}, "
            f"{nl.plies} pl{'ies' if nl.plies != 1 else 'y'} without a capture (natural limit {nl.limit}).")


def _print(verdict: Dict[str, Any], out: TextIO, *, title: str = "", explain: bool = False) -> None:
    if title:
        print(title, file=out)
    term = verdict["termination"]
    print(f"{verdict['result']}" + (f" ({term.replace('_', ' ')})" if term else ""), file=out)
    print(verdict["reason"], file=out)
    if verdict["termination"]:
        print(verdict["reason_zh"], file=out)
    if explain and verdict["facts"]:
        for line in verdict["facts"]:
            print("  " + line, file=out)
    for v in verdict["violations"]:
        print(f"  earlier, at ply {v['ply']}: {v['result']} — {v['reason']}", file=out)


def judge_main(argv: List[str]) -> int:
    """``xiangqi judge`` entry point; returns the exit status (0 judged, 1 a game file with errors or no game,
    2 a bad position, move or option, with one line on standard error).

    >>> judge_main(["startpos", "h2e2", "h9g7"])
    *
    The game goes on: the position has occurred 1 time, 2 plies without a capture (natural limit 120).
    0
    >>> judge_main(["startpos", "h2e3"])
    2
    """
    parser = argparse.ArgumentParser(
        prog="xiangqi judge",
        description="Rule on a game's end: checkmate, stalemate, perpetual check or chase and their mixes\n"
                    "(Asian or Chinese rules), the 60-move natural limit. Give a game file (PGN, XQF,\n"
                    "DhtmlXQ), or a FEN (or 'startpos') followed by moves in ICCS, WXF or Chinese notation.",
        epilog="examples:\n"
               "  xiangqi judge games.pgn                 (also .pgn.gz, .xqf, DhtmlXQ .txt/.htm)\n"
               "  xiangqi judge startpos moves h2e2 h9g7 b0c2\n"
               "  xiangqi judge 炮二平五 马8进7\n"
               "  xiangqi judge \"3k5/9/9/9/9/9/9/9/4R4/4K4 w\" e1d1 --rules cxa --explain\n"
               "  xiangqi judge \"FEN moves MOVE MOVE ...\" --json\n"
               "\nexit status: 0 judged, 1 a game file with errors or no game, 2 a bad position, move or option",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", nargs="+",
                        help="a game file (PGN, XQF, DhtmlXQ), or FEN/startpos [moves] MOVE ...")
    add_rules_options(parser, "axf (Asian, default) or cxa (Chinese)")
    parser.add_argument("--count", type=int, default=None,
                        help="occurrences of a position that make it adjudicable (default: 3)")
    parser.add_argument("--limit", type=int, default=None,
                        help="natural limit in plies without capture (default: 120; 0 turns it off)")
    parser.add_argument("--explain", action="store_true", help="show what each move of the loop does")
    parser.add_argument("--json", action="store_true", help="print one JSON object per game")
    args = parser.parse_intermixed_args(argv)  # options may come between the moves

    try:
        spec = rulings.rules_spec(args.rules, red_must_vary=args.red_must_vary)
        rs = rulings.get_rules(spec)
    except ValueError as exc:
        parser.error(str(exc))
    if args.count is not None and not 2 <= args.count <= 255:
        parser.error(f"--count must be 2 to 255, not {args.count}")
    if args.limit is not None and args.limit < 0:
        parser.error(f"--limit must be at least 0 (0 turns it off), not {args.limit}")

    out = guard(sys.stdout, "standard output")
    first = args.position[0]
    if len(args.position) == 1 and (os.path.exists(first) or formats.format_of(first, writing=True) is not None):
        problem = input_problem(first)
        if problem:
            print(f"xiangqi judge: {problem}", file=sys.stderr)
            return 2
        status = 0
        index = 0
        try:
            with regular_input(first) as source:
                games = formats.read(source)
                for index, game in enumerate(games, 1):
                    try:
                        board = require_playable(game.board(), game.headers.get("FEN"))
                        for move in game.mainline_moves():
                            board.push(move)
                    except XiangqiError as exc:
                        print(f"xiangqi judge: {first}: game {index}: {exc}", file=sys.stderr)
                        status = 1
                        continue
                    verdict = judge_board(board, spec, count=args.count, limit=args.limit)
                    verdict["game"] = index
                    verdict["recorded_result"] = game.headers.get("Result", "*")
                    for err in game.errors:
                        print(f"xiangqi judge: {first}: game {index}: {err}", file=sys.stderr)
                        status = 1
                    if args.json:
                        print(json.dumps(verdict, ensure_ascii=False), file=out)
                    else:
                        h = game.headers
                        title = (f"game {index}: {h.get('Red', '?')} - {h.get('Black', '?')}, "
                                 f"recorded {verdict['recorded_result']}, {verdict['plies']} plies")
                        _print(verdict, out, title=title, explain=args.explain)
        except (OSError, XiangqiError) as exc:
            print(f"xiangqi judge: {first}: {reason(exc) if isinstance(exc, OSError) else exc}", file=sys.stderr)
            return 2
        if index == 0:
            print(f"xiangqi judge: no game in {first}", file=sys.stderr)
            return 1
        return status

    try:
        board = board_from_words(args.position)
    except (XiangqiError, ValueError) as exc:
        print(f"xiangqi judge: {exc}", file=sys.stderr)
        return 2
    verdict = judge_board(board, spec, count=args.count, limit=args.limit)
    if args.json:
        print(json.dumps(verdict, ensure_ascii=False), file=out)
    else:
        _print(verdict, out, explain=args.explain)
    return 0
