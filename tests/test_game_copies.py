"""Pickling and copying game trees: any depth (a game of 200 plies raised RecursionError), the same tree after."""

from __future__ import annotations

import copy
import io
import pickle
import sys
from typing import Any, List, Tuple

import pytest

from xiangqi.core import Move
from xiangqi.game import Game, GameNode
from xiangqi.pgn import read_game, write_game

SHUFFLE = [Move.from_iccs(m) for m in ("h0g2", "h9g7", "g2h0", "g7h9")]  # horses out and back: legal for ever


def long_game(plies: int) -> Game:
    """A game of ``plies`` moves with comments, NAGs, a variation every 50 plies and a reading error."""
    game = read_game(io.StringIO('[Event "long"]\n[FEN "bad"]\n\n*'))
    assert game is not None and game.errors
    game.headers.pop("FEN")
    node: GameNode = game
    for i in range(plies):
        if i % 50 == 1:
            node.add_variation(Move.from_iccs("a6a5"), comment=f"side line {i}", starting_comment="or")
        node = node.add_main_variation(SHUFFLE[i % 4], comment="c" if i % 7 == 0 else "", nags=[i % 6 + 1])
    return game


def tree(node: GameNode) -> List[Tuple[Any, ...]]:
    """Everything a tree holds, node by node (preorder), with each node's place (its parent's number in this list,
    its index among the parent's children): comparable across copies."""
    out: List[Tuple[Any, ...]] = []
    stack: List[Tuple[GameNode, int, int]] = [(node, -1, 0)]
    while stack:
        n, parent, index = stack.pop()
        assert all(child.parent is n for child in n.variations)
        out.append((parent, index, n.move, n.comment, n.starting_comment, sorted(n.nags), len(n.variations)))
        stack.extend((child, len(out) - 1, i) for i, child in reversed(list(enumerate(n.variations))))
    return out


def same_game(a: Game, b: Game) -> None:
    assert a is not b and tree(a) == tree(b)
    assert dict(a.headers) == dict(b.headers) and [str(e) for e in a.errors] == [str(e) for e in b.errors]
    assert write_game(a) == write_game(b)


@pytest.mark.parametrize("plies", [0, 1, 200, 5000])
def test_pickle_and_deepcopy_any_length(plies: int) -> None:
    game = long_game(plies)
    limit = sys.getrecursionlimit()
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        same_game(game, pickle.loads(pickle.dumps(game, protocol)))
    same_game(game, copy.deepcopy(game))
    assert sys.getrecursionlimit() == limit


def test_a_game_read_keeps_its_main_line_as_codes_when_pickled() -> None:
    text = "1. " + " ".join(m.iccs() for m in SHUFFLE * 1000) + " *\n"
    game = read_game(io.StringIO(text))
    assert game is not None
    back = pickle.loads(pickle.dumps(game))
    assert back.mainline_moves() == game.mainline_moves() and len(back.mainline_moves()) == 4000
    assert len(pickle.dumps(game)) < 30_000  # move codes, not 4,000 nodes
    game.variations  # the nodes, made on first use
    same_game(game, pickle.loads(pickle.dumps(game)))
    same_game(game, copy.deepcopy(back))


def test_a_node_pickles_and_copies_with_its_whole_tree() -> None:
    game = long_game(3000)
    node = game.variations[0].variations[1]  # the side line of ply 1
    last = game.end()
    back = pickle.loads(pickle.dumps(node))
    assert back.move == Move.from_iccs("a6a5") and back.comment == "side line 1"
    same_game(game, back.game())
    assert back.parent is not None and back in back.parent.variations
    deep = copy.deepcopy(last)
    assert deep.ply() == 3000 and deep.move == last.move and deep is not last
    same_game(game, deep.game())
    # One pickle of several nodes of a tree: one tree, each node in it.
    g2, n2, l2 = pickle.loads(pickle.dumps([game, node, last]))
    assert n2.game() is g2 and l2.game() is g2 and l2 is g2.end()
    same_game(game, g2)
    g3, l3 = copy.deepcopy([game, last])
    assert l3 is g3.end()


def test_a_shallow_copy_shares_the_tree_as_before() -> None:
    game = long_game(300)
    shallow = copy.copy(game)
    assert shallow is not game and shallow.variations is game.variations and shallow.headers is game.headers
    node = game.next()
    assert node is not None
    twin = copy.copy(node)
    assert twin.parent is game and twin.variations is node.variations and twin.move == node.move
    assert twin not in game.variations


class Annotated(GameNode):
    """A subclass with a slot of its own and an instance dictionary (what user code may add)."""

    __slots__ = ("score", "__dict__")


def test_subclasses_keep_their_class_and_attributes() -> None:
    game = Game()
    node: GameNode = game
    for i in range(400):
        child = Annotated(node, SHUFFLE[i % 4])
        child.score = i
        if i % 2:
            child.note = f"n{i}"  # type: ignore[attr-defined]
        node.variations.append(child)
        node = child
    for back in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        nodes = list(back.mainline())
        assert all(type(n) is Annotated for n in nodes) and [n.score for n in nodes] == list(range(400))
        assert [getattr(n, "note", None) for n in nodes] == [f"n{i}" if i % 2 else None for i in range(400)]
    game.variations.append(Annotated(game, SHUFFLE[0]))  # a slot never set stays unset
    assert not hasattr(pickle.loads(pickle.dumps(game)).variations[-1], "score")
