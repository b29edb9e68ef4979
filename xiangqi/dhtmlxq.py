"""DhtmlXQ (东萍 dpxq.com "UBB") game records, as embedded in web pages.

A record is a block ``[DhtmlXQ]…[/DhtmlXQ]`` of ``[DhtmlXQ_<tag>]value[/DhtmlXQ_<tag>]``
pairs. The moves use digit pairs ``xy`` with x = file 0–8 (a–i) and y = row
0–9 counted **from the top** (ICCS rank = 9 − y):

* ``binit``: 64 digits, the squares of the 32 pieces in the order
  ``RNBAKABNRCCPPPPP`` (Red) then ``rnbakabnrccppppp``; ``99`` = absent; empty or
  missing = the standard start. ``fen`` (a FEN) takes precedence when present.
* ``movelist``: the main line, 4 digits a move (``7747`` = ``h2e2``).
* ``move_B_P_N``: variation ``N``, branching from branch ``B`` (0 = main line)
  at ply ``P`` (1-based): its first move replaces the ``P``-th move of ``B``.
* ``commentP`` (main line) and ``commentN_P`` (branch ``N``): the comment after
  ply ``P``; ``comment0`` comes before the first move. ``||`` is a line break.

The side to move is the colour of the piece on the first move's source
square. :func:`read_dhtmlxq` parses one block; :func:`read_games` streams the
blocks of a page or file (encoding detected as for PGN). Both return
:class:`~xiangqi.pgn.Game` objects; problems (a bad start position, a bad or
illegal move) are recorded in ``game.errors`` and the moves before them kept.
:func:`write_dhtmlxq` writes a game back, variations and comments included.

>>> game = read_dhtmlxq("[DhtmlXQ][DhtmlXQ_red]A[/DhtmlXQ_red][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]")
>>> [m.iccs() for m in game.mainline_moves()], game.headers["Red"]
(['h2e2', 'h9g7'], 'A')
"""

from __future__ import annotations

import bisect
import functools
import heapq
import itertools
import re
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from xiangqi._nested import Nested, run_nested
from xiangqi.board import Board
from xiangqi.core import SQUARE_NAMES, STARTING_FEN, Move, moves_of, same_square_message
from xiangqi.errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from xiangqi.game import Game, GameError, GameNode, start_board
from xiangqi.source import Source, text_lines
from xiangqi.xqf import PIECE_ORDER, null_move_refused, piece_slots, slots_board_fen

__all__ = ["read_dhtmlxq", "read_games", "write_dhtmlxq", "parse_tags", "PIECE_ORDER", "TAG_MAP"]


#: DhtmlXQ tags copied to PGN headers, and their PGN names.
TAG_MAP = {
    "title": "Title", "event": "Event", "date": "Date", "place": "Site", "round": "Round", "table": "Table",
    "red": "Red", "redteam": "RedTeam", "redrating": "RedElo", "redtime": "RedTime",
    "black": "Black", "blackteam": "BlackTeam", "blackrating": "BlackElo", "blacktime": "BlackTime",
    "open": "Opening", "remark": "Remark", "author": "Author", "owner": "Owner", "refer": "Refer",
    "timerule": "TimeControl", "endtype": "Termination", "type": "Type",
}
#: Result texts seen on dpxq.com and wxf.ca (W/D/L from Red's side).
_RESULTS = {
    "w": "1-0", "l": "0-1", "d": "1/2-1/2", "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "*": "*",
    "红胜": "1-0", "紅勝": "1-0", "红先胜": "1-0", "紅先勝": "1-0", "黑负": "1-0", "黑負": "1-0",
    "黑胜": "0-1", "黑勝": "0-1", "红负": "0-1", "紅負": "0-1", "红先负": "0-1", "紅先負": "0-1", "黑先胜": "0-1",
    "和棋": "1/2-1/2", "和局": "1/2-1/2", "和": "1/2-1/2", "红先和": "1/2-1/2", "紅先和": "1/2-1/2",
    "黑先和": "1/2-1/2",
}

_BLOCK_RE = re.compile(r"\[DhtmlXQ\](.*?)\[/DhtmlXQ\]", re.S)
_MOVE_TAG_RE = re.compile(r"move_(\d+)_(\d+)_(\d+)")
_COMMENT_TAG_RE = re.compile(r"comment(?:(\d+)_)?(\d+)")


_OPEN_TAG_RE = re.compile(r"\[DhtmlXQ_([A-Za-z0-9_]+)\]")
_CLOSE_TAG_RE = re.compile(r"\[/DhtmlXQ_([A-Za-z0-9_]+)\]")


def _tag_pairs(block: str) -> Iterator[Tuple[str, str]]:
    """The ``(tag, value)`` pairs of a block in order, in O(n log n): what the regular expression
    ``\\[DhtmlXQ_(NAME)\\](.*?)\\[/DhtmlXQ_\\1\\]`` (re.S) finds, which looks for each opening tag's closing
    tag anew, to the end of the text when there is none (``"[DhtmlXQ_a]" * 32000`` took 108 s). Here every
    closing tag is found once and each opening tag takes the first of its name after it.
    """
    closes: Dict[str, List[int]] = {}
    for c in _CLOSE_TAG_RE.finditer(block):
        closes.setdefault(c.group(1), []).append(c.start())
    pos = 0
    while True:
        m = _OPEN_TAG_RE.search(block, pos)
        if m is None:
            return
        name, start = m.group(1), m.end()
        where = closes.get(name)
        i = bisect.bisect_left(where, start) if where else 0
        if where is None or i == len(where):
            pos = m.start() + 1  # no closing tag: the next opening tag may still have one
            continue
        end = where[i]
        yield name, block[start:end]
        pos = end + len(name) + 11  # len("[/DhtmlXQ_]") == 11


def parse_tags(block: str) -> Dict[str, str]:
    """The ``[DhtmlXQ_<tag>]value[/DhtmlXQ_<tag>]`` pairs of a block, by tag (first one wins).

    >>> parse_tags("[DhtmlXQ_title]demo[/DhtmlXQ_title][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]")
    {'title': 'demo', 'movelist': '7747'}
    """
    tags: Dict[str, str] = {}
    for name, value in _tag_pairs(block):
        tags.setdefault(name, value)
    return tags


def _square(x: int, y: int) -> int:
    return (9 - y) * 9 + x


def _binit_board(binit: str) -> Tuple[str, List[Optional[int]]]:
    """The FEN board part and the square of each slot for a ``binit`` value."""
    digits = re.sub(r"\s", "", binit)
    if len(digits) != 64 or not digits.isdigit() or not digits.isascii():
        raise InvalidFenError(f"invalid DhtmlXQ binit {binit!r}: expected 64 digits (32 squares xy, 99 = absent)",
                              fen=binit)
    squares: List[Optional[int]] = []
    for slot in range(32):
        x, y = int(digits[2 * slot]), int(digits[2 * slot + 1])
        squares.append(_square(x, y) if x <= 8 else None)
    return slots_board_fen(squares), squares


_SPACE_RE = re.compile(r"\s")
#: A move record's four digits -> its move code (0: from a square to itself); made on first use.
_RECORD_CODES: Dict[str, int] = {}


def _moves(digits: str) -> Tuple[List[str], List[int], str]:
    """The 4-digit move records of a move list: their texts, their move codes (0: a record from a square to
    itself, -1: not a move record), and any leftover characters. Looked up in a table of the 8,100 records
    (an 80,000-move list took seconds decoded one record at a time)."""
    if not _RECORD_CODES:
        for x1 in range(9):
            for y1 in range(10):
                for x2 in range(9):
                    for y2 in range(10):
                        src, dst = _square(x1, y1), _square(x2, y2)
                        _RECORD_CODES[f"{x1}{y1}{x2}{y2}"] = src << 7 | dst if src != dst else 0
    s = _SPACE_RE.sub("", digits)
    n = len(s) // 4 * 4
    texts = [s[i:i + 4] for i in range(0, n, 4)]
    return texts, list(map(_RECORD_CODES.get, texts, itertools.repeat(-1))), s[n:]


def _record_error(text: str, code: int) -> InvalidMoveError:
    """Why the record ``text`` (code ``code`` <= 0, :func:`_moves`) is no move."""
    if code == 0:   # a0 to a0 included (Move(0, 0) would be the null move)
        return InvalidMoveError(same_square_message(SQUARE_NAMES[_square(int(text[0]), int(text[1]))] * 2))
    return InvalidMoveError(f"invalid DhtmlXQ move {text!r}: expected 4 digits x1 y1 x2 y2 (x 0-8, y 0-9 from the "
                            "top)")


def _start_fen(tags: Dict[str, str], first: Optional[Move]) -> str:
    fen = tags.get("fen", "").strip()
    if fen:
        parts = fen.split()
        board_part = parts[0]
        side = parts[1] if len(parts) > 1 else ""
    else:
        binit = tags.get("binit", "").strip()
        board_part = _binit_board(binit)[0] if binit else STARTING_FEN.split()[0]
        side = ""
    if first is not None:
        # The side of the piece on the first move's source square decides.
        colors = _piece_colors(board_part)
        if colors is not None and colors[first.from_square] is not None:
            side = "w" if colors[first.from_square] else "b"
    if side not in ("w", "b", "r"):
        side = "w"
    if fen and len(fen.split()) > 2:
        return " ".join([board_part, side] + fen.split()[2:])
    return f"{board_part} {side} - - 0 1"


@functools.lru_cache(maxsize=64)
def _piece_colors(board_part: str) -> Optional[Tuple[Optional[bool], ...]]:
    """The colour of the piece on each square of a FEN board part (``None``: empty), or ``None`` when it does
    not read (a collection's games mostly share their start: it is read once)."""
    try:
        probe = Board(f"{board_part} w - - 0 1")
    except InvalidFenError:
        return None
    return tuple(None if piece is None else piece.color for piece in map(probe.piece_at, range(90)))


def read_dhtmlxq(text: str, *, line: int = 0) -> Game:
    """The game of one DhtmlXQ block (the ``[DhtmlXQ]`` wrapper is optional).

    ``line`` is the block's line in its file, used in ``game.errors``. Bad data never raises: a bad start
    position or move is kept in ``game.errors``.

    >>> game = read_dhtmlxq("[DhtmlXQ_red]Hu[/DhtmlXQ_red][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]"
    ...                     "[DhtmlXQ_result]红胜[/DhtmlXQ_result]")
    >>> game.headers["Red"], game.headers["Result"], [m.iccs() for m in game.mainline_moves()]
    ('Hu', '1-0', ['h2e2', 'h9g7'])
    >>> read_dhtmlxq("[DhtmlXQ_movelist]774770[/DhtmlXQ_movelist]").errors[0].reason
    "DhtmlXQ move list ends with '70', not a whole 4-digit move"
    """

    tags = parse_tags(text)
    game = Game()
    for tag, name in TAG_MAP.items():
        if tag in tags:
            value = tags[tag].strip()
            if value:
                game.headers[name] = value
    result = tags.get("result", "").strip()
    if result:
        game.headers["Result"] = _RESULTS.get(result.lower(), "*")
    opening = tags.get("open", "").strip()
    m = re.match(r"([A-E]\d\d)\b\s*(.*)", opening)
    if m:
        game.headers["ECCO"] = m.group(1)
        if m.group(2):
            game.headers["Opening"] = m.group(2)
    texts, codes, leftover = _moves(tags.get("movelist", ""))
    try:
        fen = _start_fen(tags, Move.from_code(codes[0]) if codes and codes[0] > 0 else None)
        board = Board() if fen == STARTING_FEN else start_board(fen)   # the standard start is playable
    except InvalidFenError as e:
        game.errors.append(GameError(0, texts[0] if texts else "", f"bad start position: {e}", line, e))
        return game
    if fen != STARTING_FEN and fen.split()[:2] != STARTING_FEN.split()[:2]:
        game.headers["FEN"] = fen
    comments: Dict[Tuple[int, int], str] = {}
    for tag, value in tags.items():
        cm = _COMMENT_TAG_RE.fullmatch(tag)
        if cm:
            comments[(int(cm.group(1) or 0), int(cm.group(2)))] = value.replace("||", "\n").strip()
    game.comment = comments.get((0, 0), "")
    variations: List[Tuple[int, int, int, str]] = []
    for tag, value in tags.items():
        vm = _MOVE_TAG_RE.fullmatch(tag)
        if vm:
            variations.append((int(vm.group(1)), int(vm.group(2)), int(vm.group(3)), value))
    # nodes[(branch, ply)]: the node of `branch` after `ply` moves (only the branch's own nodes, and the root);
    # fens[key]: the position at the nodes variations branch from (replaying a node's line per variation
    # from the root is quadratic in a chain of variations).
    nodes: Dict[Tuple[int, int], GameNode] = {(0, 0): game}
    fens: Dict[Tuple[int, int], str] = {(b, p - 1): "" for b, p, _, _ in variations if p >= 1}
    if (0, 0) in fens:
        fens[(0, 0)] = board.fen()
    _add_line(game, board, game, 0, 0, texts, codes, comments, nodes, line, fens,
              codes_only=not variations and not any(key[0] == 0 and key[1] > 0 for key in comments))
    if leftover and len(game.mainline_moves()) == len(codes):
        bad = InvalidMoveError(f"DhtmlXQ move list ends with {leftover!r}, not a whole 4-digit move")
        game.errors.append(GameError(len(codes), leftover, str(bad), line, bad))
    _add_variations(game, variations, comments, nodes, fens, line)
    return game


def _add_variations(game: Game, variations: List[Tuple[int, int, int, str]], comments: Dict[Tuple[int, int], str],
                    nodes: Dict[Tuple[int, int], GameNode], fens: Dict[Tuple[int, int], str], line: int) -> None:
    """Add the ``move_B_P_N`` lines in the order of passes over the list in tag order, each pass taking
    the lines whose branch point exists by then, until a pass adds none (a variation may branch from one
    listed after it). Passes are simulated: a line is taken at (pass, index) once the line that makes its
    branch point has been taken, so a chain of lines listed child first costs linear time, not one pass
    per line."""

    waiting: Dict[Tuple[int, int], List[int]] = {}  # branch point -> indices of the lines that wait for it
    ready: List[Tuple[int, int]] = []  # heap of (pass, index)
    for i, (b, p, _, _) in enumerate(variations):
        if p >= 1 and (b, p - 1) in nodes:
            ready.append((1, i))
        elif p >= 1:
            waiting.setdefault((b, p - 1), []).append(i)
    taken = [False] * len(variations)
    while ready:
        pass_number, i = heapq.heappop(ready)
        taken[i] = True
        b, p, n, value = variations[i]
        target = nodes[(b, p - 1)]
        texts, codes, rest = _moves(value)
        if _add_line(game, Board(fens[(b, p - 1)]), target, n, p - 1, texts, codes, comments, nodes, line,
                     fens) and rest:
            bad = InvalidMoveError(f"DhtmlXQ variation move_{b}_{p}_{n} ends with {rest!r}, "
                                   "not a whole 4-digit move")
            game.errors.append(GameError(p - 1 + len(codes), rest, str(bad), line, bad, False))
        for ply in range(p, p + len(codes)):
            if (n, ply) in nodes:
                for j in waiting.pop((n, ply), ()):
                    # Later in this pass, or in the next one for a line listed before this one.
                    heapq.heappush(ready, (pass_number if j > i else pass_number + 1, j))
    for i, (b, p, n, _) in enumerate(variations):
        if not taken[i]:
            bad = InvalidMoveError(f"DhtmlXQ variation move_{b}_{p}_{n} branches from a ply that does not exist")
            game.errors.append(GameError(max(p - 1, 0), f"move_{b}_{p}_{n}", str(bad), line, bad, False))


def _add_line(game: Game, board: Any, parent: GameNode, branch: int, ply: int, texts: List[str], codes: List[int],
              comments: Dict[Tuple[int, int], str], nodes: Dict[Tuple[int, int], GameNode], line: int,
              fens: Dict[Tuple[int, int], str], *, codes_only: bool = False) -> bool:
    """Append the moves of ``texts`` (move codes ``codes``, :func:`_moves`) below ``parent`` (position ``board``,
    ``ply`` moves in) as branch ``branch``; note the position at each node whose key is in ``fens``.

    The moves are played in C (:meth:`~xiangqi.Board.push_codes`), stopping only where a position is to be
    noted. With ``codes_only`` (a game's main line without comments or variations) they are kept as move codes
    (:class:`~xiangqi.game.Game` makes their nodes on first use). Returns whether every move was added (a bad
    one is recorded and ends the line)."""
    mainline = branch == 0
    good = min((codes.index(bad) for bad in (0, -1) if bad in codes), default=len(codes))
    # Where a position is to be noted: looked for among the line's plies or among the keys, whichever are fewer
    # (4,000 chained one-move variations, each looking through every key, were quadratic).
    if len(fens) <= good:
        stops = sorted({p - ply for b, p in fens if b == branch and ply < p <= ply + good})
    else:
        stops = [k for k in range(1, good + 1) if (branch, ply + k) in fens]
    base = len(board.move_stack)
    for stop in stops + [good]:
        try:
            board.push_codes(codes[len(board.move_stack) - base:stop])
        except IllegalMoveError:
            break
        if (branch, ply + stop) in fens:
            fens[(branch, ply + stop)] = board.fen()
    played = len(board.move_stack) - base
    if codes_only:
        game._set_lazy_mainline(codes[:played])
    else:
        node = parent
        for at, move in enumerate(moves_of(codes[:played]), ply + 1):
            node = GameNode._child(node, move)
            node.comment = comments.get((branch, at), "")
            nodes[(branch, at)] = node
    if played == len(codes):
        return True
    text, code = texts[played], codes[played]
    if code > 0:
        move = Move.from_code(code)
        reason = f"illegal move {move.iccs()!r} ({text}) in {board.fen()}: {board.illegal_reason(move)}"
        game.errors.append(GameError(ply + played, text, reason, line, IllegalMoveError(reason), mainline))
    else:
        bad = _record_error(text, code)
        game.errors.append(GameError(ply + played, text, str(bad), line, bad, mainline))
    return False


def read_games(source: Source, *, encoding: Optional[str] = None) -> Iterator[Game]:
    """Stream the DhtmlXQ blocks of a path, ``bytes``, or an open text or binary file.

    Text outside ``[DhtmlXQ]…[/DhtmlXQ]`` (the rest of a web page) is skipped.

    >>> page = ("<p>[DhtmlXQ][DhtmlXQ_event]A[/DhtmlXQ_event][/DhtmlXQ]</p>"
    ...         "<p>[DhtmlXQ][DhtmlXQ_event]B[/DhtmlXQ_event][/DhtmlXQ]</p>").encode("gb18030")
    >>> [game.headers["Event"] for game in read_games(page)]
    ['A', 'B']

    Raises:
        * :exc:`~xiangqi.errors.InvalidRecordError` when gzip-compressed input is damaged (after the games
          before the damage);
        * :exc:`OSError` when a path cannot be opened or read.
    """
    yield from _blocks(text_lines(source, encoding))


def _blocks(lines: Iterator[str]) -> Iterator[Game]:
    buffer = ""
    start_line = 0
    lineno = 0
    for text in lines:
        lineno += 1
        if not buffer:
            i = text.find("[DhtmlXQ]")
            if i < 0:
                continue
            text = text[i:]
            start_line = lineno
        buffer += text + "\n"
        if "[/DhtmlXQ]" not in text:
            continue
        while True:
            m = _BLOCK_RE.search(buffer)
            if m is None:
                break
            yield read_dhtmlxq(m.group(1), line=start_line + buffer.count("\n", 0, m.start()))
            rest = buffer[m.end():]
            i = rest.find("[DhtmlXQ]")
            if i < 0:
                buffer = ""
                break
            start_line += buffer.count("\n", 0, m.end() + i)
            buffer = rest[i:]
    if buffer and next(_tag_pairs(buffer), None) is not None:
        # An unclosed block at the end of the input: read what is there.
        yield read_dhtmlxq(buffer, line=start_line)


# ---------------------------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------------------------

_RESULT_TEXT = {"1-0": "红胜", "0-1": "黑胜", "1/2-1/2": "和棋"}


def _xy(sq: int) -> str:
    return f"{sq % 9}{9 - sq // 9}"


def _binit(board: Any) -> Optional[str]:
    """The ``binit`` digits of a position, or ``None`` if it does not fit the 32 slots."""
    squares = piece_slots(board)
    if squares is None:
        return None
    return "".join("99" if sq is None else _xy(sq) for sq in squares)


def write_dhtmlxq(game: Game) -> str:
    """One ``[DhtmlXQ]…[/DhtmlXQ]`` block (a single line, ``||`` for line breaks in comments).

    Branch numbers follow the reader's convention: the main line is branch 0;
    every other child of a node starts a new branch ``N`` written as
    ``move_B_P_N`` (branching from the parent's branch ``B`` at ply ``P``). A
    non-standard start is written both as ``binit`` (when it fits the 32 piece
    slots) and as ``fen``.

    >>> write_dhtmlxq(read_dhtmlxq("[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]"))
    '[DhtmlXQ][DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]'

    Raises:
        * :exc:`~xiangqi.errors.InvalidFenError` when the game's ``FEN`` header is not a valid position;
        * :exc:`~xiangqi.errors.InvalidRecordError` when the game holds a null move (DhtmlXQ has none:
          :func:`xiangqi.xqf.null_move_refused`).
    """
    board = game.board()
    parts: List[str] = []

    def tag(name: str, value: str) -> None:
        parts.append(f"[DhtmlXQ_{name}]{value}[/DhtmlXQ_{name}]")

    reverse = {v: k for k, v in TAG_MAP.items()}
    for name, value in game.headers.items():
        key = reverse.get(name)
        if key is not None and value and value not in ("?", "????.??.??"):
            tag(key, value.replace("[", "(").replace("]", ")"))
    result = _RESULT_TEXT.get(game.headers.get("Result", "*"))
    if result:
        tag("result", result)
    if game.headers.get("FEN"):
        binit = _binit(board)
        if binit is not None:
            tag("binit", binit)
        tag("fen", board.fen())

    def comment_text(text: str) -> str:
        return text.replace("\r\n", "\n").replace("\n", "||").replace("[", "(").replace("]", ")")

    if game.comment:
        tag("comment0", comment_text(game.comment))
    counter = [0]
    lines: List[Tuple[int, int, int, str]] = []   # (branch from, ply, branch, digits)
    comments: List[Tuple[str, str]] = []

    def walk(start: GameNode, branch: int, ply: int) -> Nested[str]:
        """Digits of the line starting at ``start`` (a move node at ``ply``) in ``branch``; records side lines.
        A step of a nested walk (:func:`run_nested`): variations nest to any depth without recursion."""
        digits: List[str] = []
        node: Optional[GameNode] = start
        while node is not None:
            assert node.move is not None and node.parent is not None
            if not node.move:
                raise null_move_refused("DhtmlXQ", node)
            digits.append(_xy(node.move.from_square) + _xy(node.move.to_square))
            if node.comment:
                key = f"comment{ply}" if branch == 0 else f"comment{branch}_{ply}"
                comments.append((key, comment_text(node.comment)))
            for var in node.variations[1:]:
                counter[0] += 1
                n = counter[0]
                lines.append((branch, ply + 1, n, (yield walk(var, n, ply + 1))))
            node = node.variations[0] if node.variations else None
            ply += 1
        return "".join(digits)

    main = ""
    lazy: Optional[List[int]] = getattr(game, "_lazy", None)
    if lazy is not None and 0 not in lazy:
        # A main line kept as move codes (a null move goes the nodes' way, which refuses it by its node).
        main = "".join(_xy(code >> 7) + _xy(code & 127) for code in lazy)
    elif game.variations:
        main = run_nested(walk(game.variations[0], 0, 1))
        for var in game.variations[1:]:
            counter[0] += 1
            n = counter[0]
            lines.append((0, 1, n, run_nested(walk(var, n, 1))))
    tag("movelist", main)
    for b, p, n, digits in sorted(lines, key=lambda t: t[2]):
        tag(f"move_{b}_{p}_{n}", digits)
    for key, text in comments:
        tag(key, text)
    return "[DhtmlXQ]" + "".join(parts) + "[/DhtmlXQ]"
