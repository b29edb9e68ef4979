"""python-chess's visitor idioms (``chess.pgn``), run with ``xiangqi.pgn`` in its place, and the visitors on games of
every format (PGN, XQF, DhtmlXQ)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import List

import pytest

import xiangqi.pgn
from xiangqi import Board, Move
from xiangqi.dhtmlxq import read_dhtmlxq, write_dhtmlxq
from xiangqi.pgn import (SKIP, BaseVisitor, BoardBuilder, FileExporter, Game, GameBuilder, GameError, HeadersBuilder,
                         SkipType, SkipVisitor, StringExporter, read_game, read_games, read_headers, skip_game,
                         write_game)
from xiangqi.xqf import read_xqf, write_xqf

GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "games"

PGN = """[Event "One"]
[Red "Hu"]
[Black "Liu"]
[Result "1-0"]

{opening} 1. 炮二平五 {the cannon} 马８进７ (1... 炮８平５ {same} 2. 马二进三) 2. h0g2 $1 i9h9 1-0

[Event "Two"]
[Result "*"]

1. C2.5 H8+7 2. H2+3 *

[Event "Three"]

1. h2e2 h2e2 *
"""


def _handle() -> io.StringIO:
    return io.StringIO(PGN)


# --- python-chess's idioms -----------------------------------------------------------------------------------------

def test_counting_games_with_skip_game() -> None:
    pgn = _handle()
    n = 0
    while xiangqi.pgn.skip_game(pgn):
        n += 1
    assert n == 3


def test_skip_game_leaves_the_handle_at_the_next_game() -> None:
    pgn = _handle()
    assert skip_game(pgn)
    game = read_game(pgn)
    assert game is not None and game.headers["Event"] == "Two"


def test_headers_with_read_headers() -> None:
    pgn = _handle()
    events = []
    while True:
        headers = xiangqi.pgn.read_headers(pgn)
        if headers is None:
            break
        events.append((headers["Event"], headers.get("Red")))
    assert events == [("One", "Hu"), ("Two", None), ("Three", None)]


def test_read_headers_then_read_game_at_an_offset() -> None:
    """python-chess's documented idiom: find games by their headers, remember ``tell()``, ``seek()`` back later."""
    pgn = io.BytesIO(PGN.encode("gb18030"))
    offsets = []
    while True:
        offset = pgn.tell()
        headers = read_headers(pgn)
        if headers is None:
            break
        if "Red" not in headers:
            offsets.append(offset)
    found = []
    for offset in offsets:
        pgn.seek(offset)
        game = read_game(pgn)
        assert game is not None
        found.append(game.headers["Event"])
    assert found == ["Two", "Three"]


def test_stripping_comments_with_string_exporter() -> None:
    game = read_game(_handle())
    assert game is not None
    exporter = StringExporter(headers=True, variations=True, comments=False)
    text = game.accept(exporter)
    assert "{" not in text and "$" not in text and "(" in text
    again = read_game(io.StringIO(text))
    assert again is not None
    assert again.mainline_moves() == game.mainline_moves()
    assert again.comment == "" and all(not node.comment for node in again.mainline())
    assert again.headers["Event"] == "One"


def test_string_exporter_switches() -> None:
    game = read_game(_handle())
    assert game is not None
    text = game.accept(StringExporter(headers=False, variations=False, comments=False, notation="iccs"))
    assert text == "1. h2e2 h9g7 2. h0g2 i9h9 1-0"
    assert str(StringExporter()) == ""     # a fresh exporter holds no text
    full = game.accept(StringExporter(columns=None, notation="iccs"))
    assert full.endswith("\n\n{opening} 1. h2e2 {the cannon} 1... h9g7 ( 1... h7e7 {same} 2. h0g2 ) 2. h0g2 $1 i9h9 1-0")
    assert full.splitlines()[0] == '[Game "Chinese Chess"]' and '[Format "ICCS"]' in full


def test_write_game_is_the_string_exporter() -> None:
    for game in read_games(PGN.encode()):
        for notation in ("chinese", "iccs", "wxf"):
            assert write_game(game, notation=notation) == game.accept(StringExporter(notation=notation)) + "\n\n"


def test_file_exporter_writes_games_and_counts_characters() -> None:
    out = io.StringIO()
    exporter = FileExporter(out, notation="iccs")
    total = 0
    for game in read_games(PGN.encode()):
        total += game.accept(exporter)
    assert total == len(out.getvalue())
    assert [g.headers["Event"] for g in read_games(out.getvalue().encode())] == ["One", "Two", "Three"]
    assert out.getvalue().endswith("*\n\n")


class IccsCollector(BaseVisitor[List[str]]):
    """A custom visitor: every move's ICCS, variations included (python-chess's docs collect every SAN)."""

    def begin_game(self) -> None:
        self.moves: List[str] = []

    def visit_move(self, board: Board, move: Move) -> None:
        assert board.is_legal(move)       # the board is the position before the move
        self.moves.append(move.iccs())

    def result(self) -> List[str]:
        return self.moves


def test_a_custom_visitor_collects_every_move_iccs() -> None:
    pgn = _handle()
    first = read_game(pgn, Visitor=IccsCollector)
    assert first == ["h2e2", "h9g7", "h7e7", "h0g2", "h0g2", "i9h9"]
    game = read_game(io.StringIO(PGN))
    assert game is not None and game.accept(IccsCollector()) == first
    # The custom visitor meets the errors: python-chess's default handle_error raises them.
    assert read_game(pgn, Visitor=IccsCollector) == ["h2e2", "h9g7", "h0g2"]
    with pytest.raises(xiangqi.IllegalMoveError):
        read_game(pgn, Visitor=IccsCollector)


def test_visitor_skips_variations_and_games() -> None:
    class MainLine(IccsCollector):
        def begin_variation(self) -> SkipType:
            return SKIP

    assert read_game(_handle(), Visitor=MainLine) == ["h2e2", "h9g7", "h0g2", "i9h9"]

    class Nothing(IccsCollector):
        def begin_game(self) -> SkipType:
            self.moves = []
            return SKIP

    assert list(read_games(PGN.encode(), Visitor=Nothing)) == [[], [], []]


def test_game_builder_subclass_hooks_errors() -> None:
    seen: List[GameError] = []

    class Logging(GameBuilder[Game]):
        def handle_error(self, error: object) -> None:
            assert isinstance(error, GameError)
            seen.append(error)
            super().handle_error(error)

    games = list(read_games(PGN.encode(), Visitor=Logging))
    fast = list(read_games(PGN.encode()))
    assert [write_game(g) for g in games] == [write_game(g) for g in fast]
    assert [str(e) for g in games for e in g.errors] == [str(e) for g in fast for e in g.errors] == [str(seen[0])]
    assert "line 15, ply 1, 'h2e2'" in str(seen[0])


def test_parse_move_hook_reads_a_files_quirks() -> None:
    class Dashes(GameBuilder[Game]):
        def parse_move(self, board: Board, text: str) -> Move:
            return board.parse_move(text.replace("~", "-"))

    game = read_game(io.StringIO("1. h2~e2 h9~g7 *\n"), Visitor=Dashes)
    assert game is not None and [m.iccs() for m in game.mainline_moves()] == ["h2e2", "h9g7"]
    plain = read_game(io.StringIO("1. h2~e2 h9~g7 *\n"))
    assert plain is not None and plain.mainline_moves() == [] and len(plain.errors) == 1


def test_board_builder_gives_the_main_line_position() -> None:
    pgn = _handle()
    boards = [read_game(pgn, Visitor=BoardBuilder) for _ in range(3)]
    games = list(read_games(PGN.encode()))
    for board, game in zip(boards, games):
        assert board is not None
        expected = game.board()
        for move in game.mainline_moves():
            expected.push(move)
        assert board.fen() == expected.fen() and board.move_stack == game.mainline_moves()
        assert game.accept(BoardBuilder()).fen() == expected.fen()


def test_skip_visitor_and_headers_builder_on_a_game() -> None:
    game = read_game(_handle())
    assert game is not None
    assert game.accept(SkipVisitor()) is True
    assert game.accept(HeadersBuilder())["Event"] == "One"
    assert read_game(io.StringIO(""), Visitor=HeadersBuilder) is None


def test_node_accept_walks_from_the_node() -> None:
    game = read_game(_handle())
    assert game is not None
    second = game.variations[0].variations[0]
    collector = IccsCollector()
    collector.begin_game()
    assert second.accept(collector) == ["h9g7", "h0g2", "i9h9"]   # its siblings are not its line


def test_game_and_headers_builders_of_subclasses() -> None:
    # python-chess: chess.pgn.read_game(handle, Visitor=MyGame.builder) and Headers.builder
    class MyGame(Game):
        pass

    class MyHeaders(xiangqi.pgn.Headers):
        pass

    game = read_game(_handle(), Visitor=MyGame.builder)
    assert type(game) is MyGame and game.headers["Event"] == "One" and len(game.mainline_moves()) == 4
    assert [str(e) for e in read_game(io.StringIO("1. h2e2 h2e2 *"), Visitor=MyGame.builder).errors] == \
        [str(e) for e in read_game(io.StringIO("1. h2e2 h2e2 *")).errors] != []   # errors kept as GameBuilder keeps
    headers = read_game(_handle(), Visitor=MyHeaders.builder)
    assert type(headers) is MyHeaders and dict(headers) == {"Event": "One", "Red": "Hu", "Black": "Liu",
                                                            "Result": "1-0"}


def test_accept_subgame_starts_the_game_after_the_node() -> None:
    # python-chess: node.accept_subgame(visitor) writes the game as if it started after the node
    game = read_game(_handle())
    assert game is not None
    first = game.variations[0]
    text = first.accept_subgame(StringExporter(comments=False, notation="iccs"))
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    sub = read_game(io.StringIO(text))
    assert sub is not None and not sub.errors
    assert sub.headers["FEN"] == board.fen() and sub.headers["Event"] == "One" and sub.headers["Result"] == "1-0"
    # the moves below the node, its variations with them: the subgame is the game's tree from that node on
    assert [m.iccs() for m in sub.mainline_moves()] == ["h9g7", "h0g2", "i9h9"]
    assert [[v.move.iccs() for v in node.variations] for node in sub.mainline()][:1] == [["h0g2"]]
    assert [v.move.iccs() for v in sub.variations] == ["h9g7", "h7e7"]
    # from the root: the same walk as accept (but for the game's own comment, which python-chess's accept_subgame
    # does not visit either), with the start position given as a FEN only where it is not standard
    assert game.accept_subgame(StringExporter(comments=False, notation="iccs")) == \
        game.accept(StringExporter(comments=False, notation="iccs"))
    assert "opening" not in game.accept_subgame(StringExporter(notation="iccs"))


# --- every format drives the same visitors --------------------------------------------------------------------------

def test_xqf_and_dhtmlxq_games_take_every_visitor() -> None:
    game = read_game(_handle())
    assert game is not None
    for again in (read_xqf(write_xqf(game)), read_dhtmlxq(write_dhtmlxq(game))):
        assert again.accept(IccsCollector()) == game.accept(IccsCollector())
        assert again.accept(StringExporter(headers=False, comments=False, notation="iccs")) == \
            game.accept(StringExporter(headers=False, comments=False, notation="iccs"))


@pytest.mark.skipif(not GAMES.is_dir(), reason="the shared corpus (../shared/data/games) is absent")
def test_shared_xqf_and_dhtmlxq_records_export_as_pgn() -> None:
    from xiangqi.dhtmlxq import read_games as read_dhtmlxq_games

    n = 0
    for path in sorted((GAMES / "xqf").glob("*"))[:20]:
        game = read_xqf(path.read_bytes())
        text = game.accept(StringExporter(notation="iccs"))
        assert read_game(io.StringIO(text)).mainline_moves() == game.mainline_moves()  # type: ignore[union-attr]
        n += 1
    for path in sorted((GAMES / "dhtmlxq").glob("*"))[:20]:
        for game in read_dhtmlxq_games(path.read_bytes()):
            text = game.accept(StringExporter(notation="iccs"))
            assert read_game(io.StringIO(text)).mainline_moves() == game.mainline_moves()  # type: ignore[union-attr]
            n += 1
    assert n > 0


@pytest.mark.skipif(not GAMES.is_dir(), reason="the shared corpus (../shared/data/games) is absent")
def test_read_headers_agrees_with_read_games_on_the_corpus() -> None:
    path = GAMES / "ccpd-positions-300.chinese.pgn"
    data = path.read_bytes()
    headers = list(read_games(data, Visitor=HeadersBuilder))
    games = list(read_games(data))
    assert len(headers) == len(games) > 0
    assert all(dict(h).items() <= dict(g.headers).items() for h, g in zip(headers, games))
    with open(path, "rb") as f:
        count = 0
        while skip_game(f):
            count += 1
    assert count == len(games)
