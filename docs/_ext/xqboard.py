"""Sphinx directive ``.. xiangqi-board:: FEN``: a board drawn by :func:`xiangqi.svg.board` when the page is built.

Options:

* ``:moves: a3b3 a7b7`` ICCS moves played from the FEN before drawing (the last one is highlighted, a king in
  check is marked, as ``Board._repr_svg_`` does);
* ``:arrows: f5e5 e9f9`` arrows drawn on the board, tail and head as an ICCS move (a bad one fails the build);
* ``:size:`` width in pixels (default 300);
* ``:caption:`` a line of text under the board.

The picture goes into the HTML inline (its element ids are unique per look, so many boards share a page); other
builders leave it out. A FEN or move that the library rejects fails the build with the library's message.
"""

from __future__ import annotations

from typing import Any, Dict, List

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

import xiangqi
from xiangqi import svg


class XiangqiBoard(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"moves": directives.unchanged, "arrows": directives.unchanged,
                   "size": directives.positive_int, "caption": directives.unchanged}

    def run(self) -> List[nodes.Node]:
        fen = self.arguments[0].strip()
        try:
            board = xiangqi.Board(fen)
            for move in self.options.get("moves", "").split():
                board.push_iccs(move)
            arrows = [(m.from_square, m.to_square)
                      for m in map(xiangqi.Move.from_iccs, self.options.get("arrows", "").split())]
        except ValueError as exc:
            raise self.error(f"xiangqi-board: {exc}") from None
        picture = svg.board(board, lastmove=board.peek() if board.move_stack else None,
                            check=board.king(board.turn) if board.is_check() else None, arrows=arrows,
                            size=self.options.get("size", 300))
        caption = self.options.get("caption", "")
        html = f'<figure class="xiangqi-board">{picture}'
        if caption:
            html += f"<figcaption>{_escape(caption)}</figcaption>"
        html += "</figure>"
        return [nodes.raw("", html, format="html")]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def setup(app: Sphinx) -> Dict[str, Any]:
    app.add_directive("xiangqi-board", XiangqiBoard)
    return {"version": "1", "parallel_read_safe": True}
