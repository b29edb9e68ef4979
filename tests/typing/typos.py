"""Mistakes ``mypy --strict`` must report in a user's script (``tests/typing/check.py``): each line whose comment
names an error must get an error containing that text, and no other line any. Proof that mypy sees the installed
package's types (it would find nothing if it skipped the package as untyped or missing).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # checked by mypy, never run (nor imported for doctests)
    import xiangqi
    from xiangqi import pgn

    xiangqi.Board().push_iccz("h2e2")  # error: has no attribute "push_iccz"
    game = pgn.read_game(io.StringIO("1. h2e2 *"))
    assert game is not None
    game.end().board().push_iccs(7)  # error: incompatible type "int"
    game.end().board().ply + 1  # error: Unsupported operand types
    pgn.read_game("games.pgn")  # error: No overload variant of "read_game" matches argument type "str"
    pgn.game_to_string(game, notation="wxf", colums=80)  # error: Unexpected keyword argument "colums"
    xiangqi.SquareSet([1]) - "a0"  # error: Unsupported operand types
    xiangqi.Board().board_fen = 7  # error: Incompatible types in assignment
