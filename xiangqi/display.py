"""HTML for notebooks: a game record as its headers, its moves in Chinese notation and its final position.

``Game._repr_html_`` calls :func:`game_html`, so a game shows itself inline in Jupyter:

>>> import io
>>> from xiangqi import pgn
>>> game = pgn.read_game(io.StringIO('[Red "Hu Ronghua"]\\n1. 炮二平五 馬８進７ *\\n'))
>>> page = game._repr_html_()
>>> "Hu Ronghua" in page, "炮二平五" in page, "<svg" in page
(True, True, True)
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, List

from xiangqi import svg
from xiangqi.errors import XiangqiError

if TYPE_CHECKING:
    from xiangqi.game import Game

__all__ = ["game_html"]


def game_html(game: "Game", *, size: int = 360) -> str:
    """An HTML fragment showing ``game``: headers, main line in Chinese notation, final position as SVG.

    A record with a bad start position or a move that does not replay shows the moves up to the
    problem and says what it was; the problems the reader met (``game.errors``) are listed too.
    Jupyter shows a :class:`~xiangqi.game.Game` this way.

    >>> import io
    >>> from xiangqi.pgn import read_game
    >>> fragment = game_html(read_game(io.StringIO("1. h2e2 h9g7 *")), size=200)
    >>> "<svg" in fragment, "1. 炮二平五" in fragment
    (True, True)
    """
    rows = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                   for k, v in game.headers.items())
    parts: List[str] = ['<div class="xiangqi-game" style="display:flex;gap:1em;align-items:flex-start">']
    try:
        board = game.board()
    except XiangqiError as exc:
        parts.append(f"<div><table>{rows}</table><p>{html.escape(str(exc))}</p></div></div>")
        return "".join(parts)
    moves: List[str] = []
    problem = ""
    for move in game.mainline_moves():
        number = f"{board.fullmove_number}. " if board.turn else "" if moves else f"{board.fullmove_number}... "
        try:
            text = board.chinese(move)
            board.push(move)
        except XiangqiError as exc:
            problem = str(exc)
            break
        # One move never breaks across lines (a move number, or 车 apart from 一平二, reads wrong).
        moves.append(f"<span style='white-space:nowrap'>{number}{html.escape(text)}</span>")
    picture = svg.board(board, lastmove=board.peek() if board.move_stack else None,
                        check=board.king(board.turn) if board.is_check() else None, size=size)
    parts.append(f"<div>{picture}</div><div><table>{rows}</table>")
    parts.append(f"<p class='moves'>{' '.join(moves) or '(no moves)'}</p>")
    notes = [problem] if problem else []
    notes += [str(e) for e in game.errors]
    if notes:
        parts.append("<ul class='errors'>" + "".join(f"<li>{html.escape(n)}</li>" for n in notes) + "</ul>")
    parts.append("</div></div>")
    return "".join(parts)
