"""PGN reading and writing: the game model, the streaming reader, encodings, errors, round trips, fuzzing."""

from __future__ import annotations

import codecs
import csv
import gc
import gzip
import io
import random
import tracemalloc
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SHARED_DIR, shared_path
from xiangqi import Board, Move
from xiangqi._encoding import LineDecoder, detect_encoding, iter_text_lines
from xiangqi.errors import (AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError,
                            XiangqiError)
from xiangqi.pgn import (TAG_ROSTER, Game, GameError, GameNode, Headers, InvalidRecordError, RawGame, read_game,
                         read_games, replay_mainline, scan_games, write_game)

DATA = Path(__file__).resolve().parent / "data" / "games"
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def one(text: str) -> Game:
    games = list(read_games(io.StringIO(text)))
    assert len(games) == 1, games
    return games[0]


def iccs(game: GameNode) -> List[str]:
    return [m.iccs() for m in game.mainline_moves()]


def final_board(game: Game) -> Board:
    board: Board = game.board()
    for move in game.mainline_moves():
        board.push(move)
    return board


def index_rows(path: Path) -> List[Dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


# ----------------------------------------------------------------------------------------------- model


def test_headers_start_with_the_roster_in_order() -> None:
    h = Headers()
    assert tuple(h) == TAG_ROSTER
    assert h["Game"] == "Chinese Chess" and h["Result"] == "*"
    assert dict(Headers.without_tag_roster()) == {}
    g = one('[Black "B"]\n[ECCO "C70"]\n[Red "R"]\n\n1. h2e2 *\n')
    assert list(g.headers)[:8] == list(TAG_ROSTER)
    assert list(g.headers)[8:] == ["ECCO"]
    assert g.headers["Red"] == "R" and g.headers["Black"] == "B"


def test_game_tree_navigation_and_editing() -> None:
    game = Game()
    a = game.add_variation(Move.from_iccs("h2e2"))
    b = a.add_variation(Move.from_iccs("h9g7"))
    alt = a.add_variation(Move.from_iccs("b9c7"), comment="alt")
    assert game.mainline_moves() == [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]
    assert b.ply() == 2 and b.is_mainline() and not alt.is_mainline() and alt.is_main_variation() is False
    assert game.end() is b and b.game() is game and alt.board().fen().split()[1] == "w"
    a.promote_to_main(Move.from_iccs("b9c7"))
    assert a.next() is alt and not b.is_mainline()
    a.demote(Move.from_iccs("b9c7"))
    assert a.next() is b
    a.remove_variation(Move.from_iccs("b9c7"))
    assert a.variations == [b] and game.count_nodes() == 2
    with pytest.raises(KeyError):
        a.variation(Move.from_iccs("a0a1"))
    assert (a.iccs(), a.chinese(), a.wxf(), b.chinese(traditional=True)) == ("h2e2", "炮二平五", "C2.5", "馬８進７")
    with pytest.raises(ValueError):
        game.chinese()


def test_game_from_board_and_setup() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    board.push(Move.from_iccs("e9f9"))
    game = Game.from_board(board)
    assert game.headers["FEN"] == "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1"
    assert iccs(game) == ["e9f9"]
    game.setup(START)
    assert "FEN" not in game.headers


# ---------------------------------------------------------------------------------------------- reading


def test_move_text_in_every_notation_and_move_number_style() -> None:
    g = one("1.炮二平五 1...马8进7 2 . 馬二進三 2... h9i7? 3.R1.2 {x}\n3.          车９平８ *\n")
    # h9i7 is illegal: the horse already left h9.
    assert iccs(g) == ["h2e2", "h9g7", "h0g2"]
    assert g.errors[0].token == "h9i7" and isinstance(g.errors[0].error, IllegalMoveError)
    g = one("1.炮二平五 1...马8进7 2.马二进三 2...车9平8 3.R1.2 {x}\n3.          c6c5 *\n")
    assert iccs(g) == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "c6c5"]
    assert g.errors == []


def test_iccs_forms_and_format_tag() -> None:
    g = one('[Format "ICCS"]\n\n1. H2-E2 h9g7 2. h0g2 *\n')
    assert iccs(g) == ["h2e2", "h9g7", "h0g2"] and g.errors == []
    g = one('[Format "WXF"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n')
    assert iccs(g) == ["h2e2", "h9g7", "h0g2", "i9h9"]


@pytest.mark.parametrize("token,result", [("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "1/2-1/2"), ("*", "*")])
def test_result_tokens(token: str, result: str) -> None:
    g = one(f"1. h2e2 h9g7 {token}\n")
    assert iccs(g) == ["h2e2", "h9g7"] and g.headers["Result"] == result and g.errors == []
    # An explicit tag wins over the move text's token.
    g = one(f'[Result "1-0"]\n1. h2e2 {token}\n')
    assert g.headers["Result"] == "1-0"
    raw = next(scan_games(io.StringIO(f"1. h2e2 {token}\n")))
    assert raw.result == result and raw.moves == ["h2e2"]


def test_several_games_without_blank_lines() -> None:
    text = ('[Event "a"]\n1. h2e2 h9g7 1-0\n[Event "b"]\n[Red "x"]\n1. c3c4 *\n[Event "c"]\n1. b2e2\n'
            '[Event "d"]\n')
    games = list(read_games(io.StringIO(text)))
    assert [g.headers["Event"] for g in games] == ["a", "b", "c", "d"]
    assert [iccs(g) for g in games] == [["h2e2", "h9g7"], ["c3c4"], ["b2e2"], []]
    assert games[1].headers["Red"] == "x"


def test_games_without_tags_are_split_at_a_result_then_move_one() -> None:
    text = "1. h2e2 h9g7 1-0\n\n1. c3c4 c6c5 0-1\n{a comment after the result}\n"
    games = list(read_games(io.StringIO(text)))
    assert [iccs(g) for g in games] == [["h2e2", "h9g7"], ["c3c4", "c6c5"]]
    assert [g.headers["Result"] for g in games] == ["1-0", "0-1"]


def test_black_first_in_both_forms() -> None:
    fen = "4kc3/4a4/b2a4b/2P2RP2/4r4/7N1/9/5A3/5K3/9 b - - 0 1"
    for text in (f'[FEN "{fen}"]\n1... e8f7 2. f6f7 e5e1 *\n', f'[FEN "{fen}"]\n1. e8f7 f6f7 2. e5e1 *\n',
                 f'[FEN "{fen}"]\n1. 士５進６ 2. 車四進一 車５進４ *\n'):
        g = one(text)
        assert iccs(g) == ["e8f7", "f6f7", "e5e1"], (text, g.errors)
    out = write_game(one(f'[FEN "{fen}"]\n1... e8f7 2. f6f7 *\n'), notation="iccs")
    assert "1... e8f7 2. f6f7 *" in out


def test_comments_variations_nags() -> None:
    text = """{before} 1. 炮二平五 {after 1} 1... 馬８進７ $1 2. 馬二進三 $14 ( {why not} 2. c3c4 !? { multi
[Event "not a tag"]
line } 2... c6c5 ( 2... 車９平８ ) 3. b2c2 ) 2... 車９平８ ; rest of line
% escaped line
3. 車一平二 ?! *
"""
    g = one(text)
    assert g.errors == []
    assert g.headers["Event"] == "?"
    assert g.comment == "before"
    n1 = g.next()
    assert n1 is not None and n1.comment == "after 1"
    n2 = n1.next()
    assert n2 is not None and n2.nags == {1}
    assert len(n2.variations) == 2
    main3, alt3 = n2.variations
    assert main3.move == Move.from_iccs("h0g2") and main3.nags == {14}
    assert alt3.move == Move.from_iccs("c3c4") and alt3.starting_comment == "why not" and alt3.nags == {5}
    assert '[Event "not a tag"]' in alt3.comment and alt3.comment.startswith("multi")
    assert [v.move for v in alt3.variations] == [Move.from_iccs("c6c5"), Move.from_iccs("i9h9")]
    assert iccs(alt3.variations[0]) == ["b2c2"]
    assert main3.next() is not None and main3.next().comment == "rest of line"  # type: ignore[union-attr]
    assert iccs(g) == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]
    assert g.end().nags == {6}
    assert g.count_nodes() == 9


def test_illegal_move_keeps_the_moves_before_and_the_next_game_is_read() -> None:
    text = '[Event "one"]\n\n1. h2e2 h9g7\n2. h2h9 i9h9\n\n[Event "two"]\n\n1. c3c4 *\n'
    one_, two = list(read_games(io.StringIO(text)))
    assert iccs(one_) == ["h2e2", "h9g7"]
    (err,) = one_.errors
    assert (err.ply, err.token, err.line, err.mainline) == (2, "h2h9", 4, True)
    assert isinstance(err.error, IllegalMoveError) and "h2h9" in err.reason and "line 4" in str(err)
    assert iccs(two) == ["c3c4"] and two.errors == []


def test_unreadable_and_ambiguous_tokens_are_typed() -> None:
    g = one("1. h2e2 xyzzy h9g7 *\n")
    assert iccs(g) == ["h2e2"] and isinstance(g.errors[0].error, InvalidMoveError)
    assert g.errors[0].ply == 1 and g.errors[0].token == "xyzzy"
    # Two red rooks on file 一 (i): 车一进一 does not say which.
    g = one('[FEN "4k4/9/9/9/9/9/8R/9/8R/3K5 w - - 0 1"]\n1. 车一进一 *\n')
    assert g.mainline_moves() == [] and isinstance(g.errors[0].error, (AmbiguousMoveError, IllegalMoveError))


def test_error_inside_a_variation_keeps_the_main_line() -> None:
    g = one("1. h2e2 (1. h2h8 c6c5) (1. c3c4 c6c5) 1... h9g7 2. h0g2 *\n")
    assert iccs(g) == ["h2e2", "h9g7", "h0g2"]
    assert [v.move for v in g.variations] == [Move.from_iccs("h2e2"), Move.from_iccs("c3c4")]
    (err,) = g.errors
    assert err.ply == 0 and err.token == "h2h8" and err.mainline is False


# --- A comment or variation never closed -------------------------------------------------------------------------

_NEXT_GAME = '\n\n[Event "2"]\n[Red "r"]\n\n1. h2e2 h9g7 2. h0g2 *\n'


def _structure_errors(game: "Game | RawGame") -> List[Tuple[int, str, str, int, bool]]:
    return [(e.ply, e.token, e.reason, e.line, e.mainline) for e in game.errors
            if isinstance(e.error, InvalidRecordError)]


@pytest.mark.parametrize("opening,what", [("{oops h9g7 *", "comment"), ("(h0g2 h9g7 *", "variation"),
                                          ("(h0g2 {oops h9g7 ) *", "comment")])
def test_a_comment_or_variation_never_closed_ends_with_its_game(opening: str, what: str) -> None:
    """The unclosed ``{``/``(`` is an error of its game, and the next game (after a blank line and tags) is read."""
    text = '[Event "1"]\n\n1. h2e2 ' + opening + _NEXT_GAME
    first, second = games = list(read_games(io.StringIO(text)))
    token = "{" if what == "comment" else "("
    assert _structure_errors(first) == [(1, token, f"unterminated {what} opened at line 3", 3, True)]
    assert "h9g7" in str(first.errors[0].error) and "line 3" in str(first.errors[0].error)  # names the input
    assert iccs(first) == ["h2e2"] and "line 3" in str(first.errors[0])
    assert dict(second.headers)["Event"] == "2" and dict(second.headers)["Red"] == "r"
    assert iccs(second) == ["h2e2", "h9g7", "h0g2"] and second.errors == []
    assert second.headers["Result"] == "*"
    # The scanning front end and its replay carry the error; the next game starts on its own first line.
    raw1, raw2 = scan_games(text.encode("utf-8"))
    assert _structure_errors(raw1) == _structure_errors(first) and raw2.errors == []
    assert raw1.moves == ["h2e2"] and raw2.first_line == 5 and raw2.move_lines == [8, 8, 8]
    rep = replay_mainline(raw1)
    assert rep.error is not None and rep.error.reason == f"unterminated {what} opened at line 3" and rep.codes
    assert replay_mainline(raw2).error is None
    assert [g[:3] for g in _both_paths(text)] == [_record(g)[:3] for g in games]


def test_an_unclosed_comment_is_an_error_at_the_end_of_the_file_too() -> None:
    g = one('[Event "1"]\n\n1. h2e2 h9g7\n2. h0g2 {oops\n\nh0g2 *\n')
    assert iccs(g) == ["h2e2", "h9g7", "h0g2"]
    assert _structure_errors(g) == [(3, "{", "unterminated comment opened at line 4", 4, True)]
    # A ";" comment runs to the end of its line and is not unclosed.
    assert one("1. h2e2 h9g7 ; a {line comment\n").errors == []
    assert one("1. h2e2 {a} h9g7 ;a {\n").errors == []


def test_a_bad_move_before_an_unclosed_comment_comes_first() -> None:
    text = "1. h2e2 h9g7\n2. h2h9 {oops\n"
    g = one(text)
    assert [(e.ply, e.token, e.line) for e in g.errors] == [(2, "h2h9", 2), (3, "{", 2)]
    assert isinstance(g.errors[0].error, IllegalMoveError)
    (raw,) = scan_games(text.encode("utf-8"))
    rep = replay_mainline(raw)
    assert rep.error is not None and rep.error.token == "h2h9" and len(rep.codes) == 2


def test_tag_lines_inside_a_comment_that_closes_stay_in_it() -> None:
    """A blank line and a tag line end an open comment's game only when what follows does not close it."""
    text = '[Event "1"]\n\n1. h2e2 {see\n\n[Event "not a game"]\n\n} h9g7 *\n\n[Event "2"]\n\n1. c3c4 *\n'
    first, second = read_games(io.StringIO(text))
    assert first.errors == [] and iccs(first) == ["h2e2", "h9g7"]
    assert first.next() is not None and '[Event "not a game"]' in first.next().comment  # type: ignore[union-attr]
    assert (second.headers["Event"], iccs(second)) == ("2", ["c3c4"])
    # The next game's own comment does not close the one left open before it.
    text = '[Event "1"]\n\n1. h2e2 {oops h9g7 *\n\n[Event "2"]\n\n1. c3c4 {fine} c6c5 *\n'
    first, second = read_games(io.StringIO(text))
    assert _structure_errors(first) == [(1, "{", "unterminated comment opened at line 3", 3, True)]
    assert second.errors == [] and iccs(second) == ["c3c4", "c6c5"] and second.next().comment == "fine"  # type: ignore[union-attr]


def test_read_game_after_an_unclosed_comment_leaves_the_handle_at_the_next_game(tmp_path: Path) -> None:
    """read_game looks ahead past the open comment's game: the handle still ends up at the next game's start."""
    text = ('[Event "a"]\n\n1. h2e2 {oops h9g7 *\n\n[Event "b"]\n[Red "x"]\n\n1. c3c4 c6c5\n2. h2h8 *\n'
            '\n[Event "c"]\n\n1. b2e2 {open\n\n\n[Event "d"]\n\n1. h2e2 *\n')
    path = tmp_path / "u.pgn"
    for encoding in ("utf-8", "gbk"):
        path.write_bytes(text.encode(encoding))
        expected = [(g.headers["Event"], iccs(g), [(e.ply, e.token, e.line) for e in g.errors])
                    for g in read_games(path)]
        assert [e[0] for e in expected] == ["a", "b", "c", "d"]
        assert expected[1][2] == [(2, "h2h8", 9)] and expected[2][2] == [(1, "{", 13)] and expected[3][2] == []
        for mode in ("r", "rb"):
            with open(path, mode, **({"encoding": encoding} if mode == "r" else {})) as fh:  # type: ignore[call-overload]
                got, offsets = [], []
                while True:
                    offsets.append(fh.tell())
                    g = read_game(fh)
                    if g is None:
                        break
                    got.append((g.headers["Event"], iccs(g), [(e.ply, e.token, e.line) for e in g.errors]))
                assert got == expected, (encoding, mode)
                fh.seek(offsets[1])
                again = read_game(fh)
                assert again is not None and again.headers["Event"] == "b"


def test_bad_fen_tag() -> None:
    g = one('[FEN "rnbakabnr/9/9/9/9/9/9/9/9/RNBA1ABNR w - - 0 1"]\n\n1. h2e2 *\n')
    assert g.mainline_moves() == []
    (err,) = g.errors
    assert isinstance(err.error, InvalidFenError) and err.ply == 0 and err.token == "h2e2" and err.line == 1
    assert "FEN" in err.reason
    assert "[FEN" in write_game(g)  # a game that cannot be played is still written out


def test_read_game_continues_on_the_same_handle() -> None:
    text = '[Event "a"]\n1. h2e2 *\n\n[Event "b"]\n1. c3c4 h2h8 *\n'
    for handle in (io.StringIO(text), io.BytesIO(text.encode("gbk")), io.BytesIO(gzip.compress(text.encode())),
                   _NoSeek(text.encode("utf-16")), io.BytesIO(text.encode("utf-16"))):
        a, b = read_game(handle), read_game(handle)
        assert a is not None and b is not None, handle
        assert (a.headers["Event"], b.headers["Event"]) == ("a", "b")
        assert iccs(b) == ["c3c4"] and b.errors[0].line == 5  # line numbers run on across calls
        assert read_game(handle) is None and read_game(handle) is None


def test_read_game_leaves_a_seekable_handle_at_the_next_game(tmp_path: Path) -> None:
    text = '[Event "a"]\n1. h2e2 *\n\n[Event "b"]\n1. c3c4 *\n[Event "c"]\n1. b2e2 *\n'
    path = tmp_path / "g.pgn"
    path.write_text(text, encoding="utf-8")
    for mode in ("r", "rb"):
        with open(path, mode) as fh:
            assert read_game(fh).headers["Event"] == "a"  # type: ignore[union-attr]
            offset = fh.tell()
            assert read_game(fh).headers["Event"] == "b"  # type: ignore[union-attr]
            assert read_game(fh).headers["Event"] == "c"  # type: ignore[union-attr]
            assert read_game(fh) is None
            fh.seek(offset)
            again = read_game(fh)
            assert again is not None and again.headers["Event"] == "b" and iccs(again) == ["c3c4"]
            fh.seek(0)
            assert read_game(fh).headers["Event"] == "a"  # type: ignore[union-attr]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "gbk"])
def test_read_game_on_a_text_file_stops_at_each_next_game(tmp_path: Path, newline: str, encoding: str) -> None:
    """A text file read game by game: the games of read_games, each leaving the file at the next game's first line."""
    text = _sample_games(8) + '1. 炮二平五 {c} 馬８進７ *\n1. h2e2 *\n  [Event "last"]\n\n1. c3c4 xyz\n'
    path = tmp_path / "g.pgn"
    path.write_bytes(text.replace("\n", newline).encode(encoding))
    expected = [(dict(g.headers), iccs(g), [(e.ply, e.token, e.line) for e in g.errors]) for g in read_games(path)]
    firsts = [line for line in text.split("\n") if line.startswith("[Game ")][1:] + ["1. 炮二平五 {c} 馬８進７ *",
                                                                                    "1. h2e2 *", '  [Event "last"]']
    games = []
    with open(path, encoding=encoding) as fh:
        while (g := read_game(fh)) is not None:
            games.append((dict(g.headers), iccs(g), [(e.ply, e.token, e.line) for e in g.errors]))
            where = fh.tell()
            next_line = fh.readline().rstrip("\n")
            assert next_line == (firsts[len(games) - 1] if len(games) <= len(firsts) else ""), len(games)
            fh.seek(where)
    assert games == expected and len(games) == len(firsts) + 1
    assert games[-1][1] == ["c3c4"] and games[-1][2][0][:2] == (1, "xyz")


def test_sources_paths_bytes_gzip_and_boms(tmp_path: Path) -> None:
    text = '[Event "東"]\n1. 炮二平五 馬８進７ *\n'
    expected = ["h2e2", "h9g7"]
    p = tmp_path / "a.pgn"
    p.write_text(text, encoding="utf-8")
    gz = tmp_path / "a.pgn.gz"
    gz.write_bytes(gzip.compress(text.encode("gb18030")))
    sources = [str(p), p, text.encode("utf-8"), codecs.BOM_UTF8 + text.encode("utf-8"),
               text.encode("utf-16"), gz, io.BytesIO(gzip.compress(text.encode("big5"))),
               io.StringIO("\ufeff" + text)]
    for src in sources:
        (g,) = list(read_games(src))
        assert g.headers["Event"] == "東" and iccs(g) == expected, src


class _NoSeek(io.RawIOBase):
    """A forward-only binary stream without peek or seek."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def readable(self) -> bool:
        return True

    def readinto(self, b: "bytearray | memoryview") -> int:  # type: ignore[override]
        n = min(len(b), len(self._data), 7)
        b[:n] = self._data[:n]
        self._data = self._data[n:]
        return n


def test_unseekable_gzip_stream() -> None:
    data = gzip.compress("1. 炮二平五 *\n".encode("gbk"))
    (g,) = list(read_games(_NoSeek(data)))
    assert iccs(g) == ["h2e2"]


def test_a_kept_move_error_holds_no_frames() -> None:
    """A bad move's error kept in ``game.errors`` (and by the replay that validation reads) holds no traceback: the
    frames of the reading, with its boards and the game, stayed alive in a cycle only the garbage collector broke."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        games = list(read_games(b'[Event "x"]\n\n1. h2e2 h2e2 *\n\n1. h2e2 ( h2e2 ) h0g2 h2e2 *\n\n'
                                b'[FEN "4k4/9/9/9/9/9/9/9/9/4K4 w"]\n\n1. e0e1 *\n\n' * 10))
        errors = [e.error for g in games for e in g.errors]
        assert len(errors) == 30 and all(e is not None and e.__traceback__ is None for e in errors)
        raw = next(scan_games(b'[Event "x"]\n\n1. h2e2 h2e2 *\n'))
        replay = replay_mainline(raw)
        assert replay.error is not None and replay.error.error is not None
        assert replay.error.error.__traceback__ is None
        gc.set_debug(gc.DEBUG_SAVEALL)
        del games, errors, raw, replay
        gc.collect()
        # A tree's nodes and their parents are a cycle of their own; no frame may be in one.
        assert not [o for o in gc.garbage if type(o).__name__ in ("frame", "traceback")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


def test_encoding_detection_counts_lines_of_each_kind() -> None:
    """The UTF-8 vote counts non-ASCII lines, valid UTF-8 against not (the last line valid when it stops inside a
    character, another line cut so is not), then GB and Big5 are scored; each case tips one way."""
    utf8, gbk = "[Red \"胡荣华\"]\n".encode(), "[Black \"柳大华\"]\n".encode("gbk")
    moves = "1. 炮二平五 马８进７ 2. 马二进三 车９平８\n" * 3
    cut = "車".encode()[:2]
    assert detect_encoding(utf8 + moves.encode("gbk")) == "gb18030"        # one UTF-8 line, three not
    assert detect_encoding(utf8 * 3 + moves.encode("gbk")) == "utf-8"      # three and three
    assert detect_encoding(utf8 * 2 + gbk) == detect_encoding(utf8 + gbk + b"x\n" + cut) == "utf-8"
    assert detect_encoding(b"x\n" + cut + b"\n" + gbk) == "gb18030"        # a cut character inside the sample
    assert detect_encoding(b"abc\n" * 100 + gbk) == "gb18030"
    assert detect_encoding(("车马炮" * 50 + "\ue000" * 10).encode("gbk", "replace")) == "gb18030"
    assert detect_encoding(b"caf\xe9 au lait\n") == "utf-8"   # reads like no Chinese: UTF-8 with a damaged byte


def test_encoding_detection_and_line_fallback() -> None:
    assert detect_encoding("車九平八 馬二進三".encode("big5")) == "big5"
    assert detect_encoding("车九平八 马二进三".encode("gbk")) == "gb18030"
    assert detect_encoding(codecs.BOM_UTF8 + b"x") == "utf-8-sig"
    # A UTF-8 file with one GBK line: that line is decoded by itself, nothing is replaced.
    data = "[Event \"事件\"]\n".encode("utf-8") + "[Site \"广州\"]\n".encode("gbk") + b"1. h2e2 *\n"
    (g,) = list(read_games(data))
    assert g.headers["Event"] == "事件" and g.headers["Site"] == "广州" and iccs(g) == ["h2e2"]
    assert LineDecoder(encoding="big5").decode("馬".encode("big5")) == "馬"
    # Block decoding splits lines correctly across block boundaries.
    text = "".join(f"[Event \"第{i}局\"]\r\n1. h2e2 *\n\n" for i in range(5000))
    for enc in ("gb18030", "big5", "utf-8"):
        reader = io.BytesIO(text.encode(enc)).read
        lines = list(iter_text_lines(reader, block_size=97))
        assert lines == text.split("\n")[:-1]


def _sample_games(n: int) -> str:
    path = SHARED_DIR / "data" / "games" / "ccpd-master-3000.chinese.pgn"
    if not path.exists():
        path = DATA / "ccpd-sample.chinese.pgn"
    out: List[str] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("[Game ") and sum(1 for x in out if x.startswith("[Game ")) >= n:
                break
            out.append(line)
    return "".join(out)


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "big5", "utf-8", "utf-8-sig"])
def test_reencoded_sample_reads_back_identically(encoding: str) -> None:
    text = _sample_games(40)
    reference = list(read_games(io.StringIO(text)))
    assert len(reference) >= 5
    games = list(read_games(text.encode(encoding)))
    assert [dict(g.headers) for g in games] == [dict(g.headers) for g in reference]
    assert [g.mainline_moves() for g in games] == [g.mainline_moves() for g in reference]
    assert all(not g.errors for g in games)


def test_scan_games_and_replay() -> None:
    text = '[Event "a"]\n[FEN "bad"]\n\n1. h2e2\n\n[Event "b"]\n\n1. h2e2 {c} h9g7 (1... b9c7)\n2. h0g2 2... h9g7 1-0\n'
    a, b = list(scan_games(io.StringIO(text)))
    assert isinstance(a, RawGame) and a.first_line == 1 and a.moves == ["h2e2"] and a.move_lines == [4]
    assert b.first_line == 6 and b.moves == ["h2e2", "h9g7", "h0g2", "h9g7"] and b.move_lines == [8, 8, 9, 9]
    assert b.result == "1-0" and b.has_comments and b.fen == START
    rep = replay_mainline(a)
    assert rep.board is None and isinstance(rep.error.error, InvalidFenError)  # type: ignore[union-attr]
    rep = replay_mainline(b)
    assert [m.iccs() for m in rep.moves] == ["h2e2", "h9g7", "h0g2"]
    err = rep.error
    assert err is not None and (err.ply, err.token, err.line) == (3, "h9g7", 9)
    assert rep.board.fen().split()[0] == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R"


class _Repeat(io.TextIOBase):
    """A text stream that yields the same game ``n`` times without holding them."""

    def __init__(self, game: str, n: int) -> None:
        self._game, self._n = game, n

    def readable(self) -> bool:
        return True

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        for i in range(self._n):
            yield from self._game.splitlines(keepends=True)


def test_reading_streams_in_constant_memory() -> None:
    game = _sample_games(1)

    def peak(n: int) -> int:
        tracemalloc.start()
        count = 0
        for g in read_games(_Repeat(game, n)):
            count += len(g.mainline_moves())
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert count > 0
        return top

    small, large = peak(20), peak(400)
    assert large < small * 2 + 200_000, (small, large)


# ---------------------------------------------------------------------------------------------- writing


def _tree_game() -> Game:
    return one('[Event "e"]\n{intro} 1. 炮二平五 {c1} 馬８進７ $1 2. 馬二進三 (2. c3c4 {x} c6c5 (2... 車９平８ 3. b2c2)) '
               '(2. b2c2) 2... 車９平８ 3. 車一平二 $3 0-1\n')


def _same_tree(a: GameNode, b: GameNode) -> bool:
    if (a.move, a.comment, a.starting_comment, a.nags) != (b.move, b.comment, b.starting_comment, b.nags):
        return False
    return len(a.variations) == len(b.variations) and all(
        _same_tree(x, y) for x, y in zip(a.variations, b.variations))


@pytest.mark.parametrize("notation", ["chinese", "iccs", "wxf"])
@pytest.mark.parametrize("traditional", [False, True])
def test_write_read_round_trip(notation: str, traditional: bool) -> None:
    g = _tree_game()
    text = write_game(g, notation=notation, traditional=traditional)
    back = one(text)
    assert back.errors == [] and _same_tree(g, back) and dict(back.headers) == {
        **{k: v for k, v in g.headers.items() if k != "Format"},
        **({"Format": notation.upper()} if notation != "chinese" else {})}
    assert back.headers["Result"] == "0-1"
    if notation == "chinese":
        assert ("車" in text) == traditional and "Format" not in text
    assert str(g) == write_game(g)
    buf = io.StringIO()
    assert write_game(g, buf, notation=notation) == buf.getvalue()


def test_writer_escapes_tags_and_comments_and_wraps() -> None:
    g = Game()
    g.headers["Event"] = 'say "hi" \\ there'
    node = g.add_variation(Move.from_iccs("h2e2"), comment="has } brace")
    for m in ["h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5", "g3g4", "g6g5"]:
        node = node.add_variation(Move.from_iccs(m))
    text = write_game(g, notation="iccs", columns=30)
    assert all(len(line) <= 30 for line in text.splitlines() if not line.startswith("["))
    back = one(text)
    assert back.headers["Event"] == 'say "hi" \\ there' and back.next().comment == "has  brace"  # type: ignore[union-attr]
    assert back.mainline_moves() == g.mainline_moves()
    with pytest.raises(ValueError):
        write_game(g, notation="san")


def _random_game(rng: random.Random, fen: str) -> Game:
    game = Game()
    board = Board(fen)
    game.setup(board)
    comments = ["", "", "好棋", "a note", "line one\nline two", "?"]

    def grow(node: GameNode, board: Board, depth: int, budget: int) -> None:
        """Add up to ``budget`` moves below ``node``; ``board`` is left as it was found."""
        pushed = 0
        for _ in range(budget):
            moves = list(board.legal_moves)
            if not moves:
                break
            k = 1 if depth > 1 or rng.random() < 0.8 else rng.randint(2, 3)
            picks = rng.sample(moves, min(k, len(moves)))
            children = [node.add_variation(m, comment=rng.choice(comments),
                                           nags=[rng.randint(1, 20)] if rng.random() < 0.1 else [])
                        for m in picks]
            for child in children[1:]:
                child.starting_comment = rng.choice(comments)
                assert child.move is not None
                board.push(child.move)
                grow(child, board, depth + 1, rng.randint(0, 4))
                board.pop()
            assert children[0].move is not None
            board.push(children[0].move)
            pushed += 1
            node = children[0]
        for _ in range(pushed):
            board.pop()

    grow(game, board, 0, rng.randint(0, 40))
    game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), notation=st.sampled_from(["chinese", "iccs", "wxf"]),
       fen_index=st.integers(0, 2))
def test_random_games_round_trip(seed: int, notation: str, fen_index: int) -> None:
    fens = [START, "4kc3/4a4/b2a4b/2P2RP2/4r4/7N1/9/5A3/5K3/9 b - - 0 1",
            "2bak4/4a4/4b4/9/6NRR/2B6/1rP1P4/3pB4/4p4/3K5 w - - 0 1"]
    game = _random_game(random.Random(seed), fens[fen_index])
    text = write_game(game, notation=notation, traditional=bool(seed & 1))
    back = one(text)
    assert back.errors == [], (text, back.errors)
    assert _same_tree(game, back), text


# ---------------------------------------------------------------------------------------------- fuzzing


_SEED_TEXT = ('[Event "x"]\n[FEN "4kc3/4a4/b2a4b/2P2RP2/4r4/7N1/9/5A3/5K3/9 b - - 0 1"]\n'
              '{c} 1... e8f7 (1... e5e1 $2) 2. f6f7 e5e1 {x} 3. 車四進一 *\n')


def _read_all(data: "bytes | str") -> None:
    """Read everything; only damaged gzip data may raise (InvalidRecordError), after the games before it."""
    source = io.StringIO(data) if isinstance(data, str) else data
    try:
        for game in read_games(source):
            for err in game.errors:
                assert isinstance(err, GameError) and isinstance(err.error, XiangqiError)
            text = write_game(game, notation="iccs")
            again = one(text)
            assert again.mainline_moves() == game.mainline_moves()
        for raw in scan_games(io.StringIO(data) if isinstance(data, str) else data):
            replay_mainline(raw)
    except InvalidRecordError:
        assert isinstance(data, bytes) and data[:2] == b"\x1f\x8b"


@settings(max_examples=300, deadline=2000)
@given(st.binary(max_size=600))
def test_fuzz_random_bytes(data: bytes) -> None:
    _read_all(data)
    _read_all(b"\x1f\x8b" + data)
    _read_all(gzip.compress(_SEED_TEXT.encode("gbk"))[:len(data) % 150])


def test_damaged_gzip_keeps_the_games_before_the_damage() -> None:
    text = "".join(f'[Event "{i}"]\n1. h2e2 h9g7 *\n\n' for i in range(3000))
    data = gzip.compress(text.encode("utf-8"))
    games = list(read_games(data[:len(data) // 2]))  # the damage is data: an error of the last game read
    assert len(games) > 1000 and all(iccs(g) == ["h2e2", "h9g7"] and not g.errors for g in games[:-1])
    damage = games[-1].errors[-1]  # after what the cut did to the last game's text
    assert isinstance(damage.error, InvalidRecordError) and damage.ply == len(games[-1].mainline_moves())
    assert damage.reason.startswith("damaged gzip data")


@settings(max_examples=300, deadline=2000)
@given(st.lists(st.tuples(st.integers(0, len(_SEED_TEXT) - 1), st.sampled_from(
    list("{}()[]\";$!?.\n 0123456789abcdefghiKARHCP+-=.車馬炮兵將帥進退平前後１９一九") + ["1-0", "1...", "%"])),
    max_size=8))
def test_fuzz_mutated_text(edits: List[Tuple[int, str]]) -> None:
    text = _SEED_TEXT
    for pos, ch in edits:
        text = text[:pos] + ch + text[pos + 1:]
    _read_all(text)


# ----------------------------------------------------------------- the C replay of plain move text
#
# Plain move text is played by the C core (xq_play_text) up to the first token it will not play; the rest is
# decoded in Python. The games must be exactly those of the Python path (pgn.C_REPLAY = False).


def _record(game: Game) -> Tuple[Any, ...]:
    return (list(game.headers.items()), iccs(game),
            [(e.ply, e.token, e.reason, e.line, e.mainline, type(e.error)) for e in game.errors],
            game.comment, write_game(game, notation="iccs"), game.count_nodes())


def _both_paths(text: str) -> List[Tuple[Any, ...]]:
    """The games of ``text`` read with and without the C replay; asserts they are identical."""
    from xiangqi import pgn

    def replays() -> List[Tuple[Any, ...]]:
        out: List[Tuple[Any, ...]] = []
        for raw in scan_games(text.encode("utf-8")):
            rep = replay_mainline(raw)
            e = rep.error
            out.append((rep.fen, rep.codes, e and (e.ply, e.token, e.reason, e.line, type(e.error))))
        return out

    fast = [_record(g) for g in read_games(text.encode("utf-8"))]
    fast_replays = replays()
    saved = pgn.C_REPLAY
    pgn.C_REPLAY = False
    try:
        slow = [_record(g) for g in read_games(text.encode("utf-8"))]
        slow_replays = replays()
    finally:
        pgn.C_REPLAY = saved
    assert fast == slow
    assert fast_replays == slow_replays
    # Without comments, variations or a bad FEN tag a game and its replay agree.
    for game, rep in zip(fast, fast_replays):
        if "bad FEN" not in str(game[2]):
            assert [Move.from_code(c).iccs() for c in rep[1]] == game[1] or game[5] != len(game[1])
    return fast


_TWO_ROOKS = "3k5/9/9/9/9/9/R8/9/R8/4K4 w - - 0 1"
_THREE_PAWNS = "3k5/9/9/9/4P4/4P4/4P4/9/9/4K4 w - - 0 1"
_BLACK_FIRST = "4kc3/4a4/b2a4b/2P2RP2/4r4/7N1/9/5A3/5K3/9 b - - 0 1"

#: (move text, FEN tag or "", Format tag or "", expected ICCS main line, expected error (ply, token) or None)
_C_PATH_CASES = [
    ("1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0", "", "", ["h2e2", "h9g7", "h0g2", "i9h9"], None),
    ("1. 炮二平五 h9g7\n2. H0-G2 车９平８ *", "", "", ["h2e2", "h9g7", "h0g2", "i9h9"], None),
    ("1. 炮二平五 馬８進７ 2. H2+3 R9.8 3. 車一平二 *", "", "", ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"], None),
    ("1. 炮二平五 h9g7 2. H2+3 *", "", "", ["h2e2", "h9g7", "h0g2"], None),
    ("1. h2e2 h9g7 2. C8.7 *", "", "WXF", ["h2e2", "h9g7", "b2c2"], None),
    ("1. C2.5 h9g7 2. H2+3 *", "", "WXF", ["h2e2", "h9g7", "h0g2"], None),
    ("1. h2e2 h9g7 2. ｈ０ｇ２ *", "", "ICCS", ["h2e2", "h9g7", "h0g2"], None),
    ("1. h2e2 h9g7 2. ｈ０ｇ２ *", "", "", ["h2e2", "h9g7", "h0g2"], None),
    ("1. Ｃ２．５ H8+7 *", "", "WXF", ["h2e2", "h9g7"], None),
    ("1. h2e2 h9g7 2. Ｈ２＋３ *", "", "WXF", ["h2e2", "h9g7"], (2, "Ｈ２＋３")),
    ("1. 炮二平五 h9g7 2. ｈ０ｇ２ *", "", "ICCS", ["h2e2", "h9g7"], (2, "ｈ０ｇ２")),
    ("1. 炮二平五 馬８進７\n2. 馬二進三 車１進４\n3. 車一平二 *", "", "", ["h2e2", "h9g7", "h0g2"], (3, "車１進４")),
    ("1. 炮二平五 馬８進７ 2. 帥五平四 *", "", "", ["h2e2", "h9g7"], (2, "帥五平四")),
    ("1. 炮二平五 帥五平四 *", "", "", ["h2e2"], (1, "帥五平四")),
    ("1. 車九進一 *", _TWO_ROOKS, "", [], (0, "車九進一")),
    ("1. 前車進一 將４進１ 2. 後車平二 *", _TWO_ROOKS, "", ["a3a4", "d9d8", "a1h1"], None),
    ("1. 前兵進一 將４進１ 2. 中兵進一 *", _THREE_PAWNS, "", ["e5e6", "d9d8", "e4e5"], None),
    ("1.炮二平五 1...馬８進７ 2 . 馬二進三 2… 車９平８ 3 車一平二 *", "", "", ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"],
     None),
    ("1. 炮二平五\u3000馬８進７ 2. 馬二進三 *", "", "", ["h2e2", "h9g7", "h0g2"], None),
    ("1. 炮二平五 馬８進７ 1-0 2. 馬二進三 *", "", "", ["h2e2", "h9g7", "h0g2"], None),
    ("1. 炮二平五 馬８進７ 2. 馬二進三 紅勝", "", "", ["h2e2", "h9g7", "h0g2"], None),
    ("1. 炮二平五 馬８進７\n% an escaped line\n2. 馬二進三 xyz *", "", "", ["h2e2", "h9g7", "h0g2"], (3, "xyz")),
    ("1. 士５進６ 2. 車四進一 車５進４ *", _BLACK_FIRST, "", ["e8f7", "f6f7", "e5e1"], None),
    ("1... e8f7 2. f6f7 e5e1 0-1", _BLACK_FIRST, "iccs", ["e8f7", "f6f7", "e5e1"], None),
    ("1. h2e2 h9g7 2. h2h9 *", "bad", "", [], (0, "h2e2")),
    ("*", "", "", [], None),
    ("1. 炮二平五 馬８上７ *", "", "", ["h2e2", "h9g7"], None),
    # Comments and variations: runs of moves between them are played in C too.
    ("{s} 1. 炮二平五 {c} 馬８進７ 2. 馬二進三 ( 2. h0g2 c6c5 {v} 3. 車一平二 ) 車９平８ 3. 車一平二 *", "", "",
     ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"], None),
    ("1. h2e2 h9g7 ( 1... h9h0 c3c4 ) ( 1... c6c5 2. c3c4 ) 2. h0g2 $1 i9h9 ! 3. i0h0 *", "", "",
     ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"], (1, "h9h0")),
    ("1. 炮二平五 {c} H8+7 2. 馬二進三 車９平８ 3. 車一平二 {d} 車８進９ 4. xyz *", "", "",
     ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"], (5, "車８進９")),
    ("1. 前車進一 {c} 將４進１ 2. 後車平二 ( 2. 前車平二 ) 將４退１ *", _TWO_ROOKS, "", ["a3a4", "d9d8", "a1h1", "d8d9"],
     None),
]


@pytest.mark.parametrize("movetext,fen,fmt,moves,error", _C_PATH_CASES)
def test_c_replay_reads_as_the_python_path(movetext: str, fen: str, fmt: str, moves: List[str],
                                          error: "Tuple[int, str] | None") -> None:
    tags = '[Event "e"]\n' + (f'[FEN "{fen}"]\n' if fen else "") + (f'[Format "{fmt}"]\n' if fmt else "")
    text = tags + "\n" + movetext + "\n\n" + '[Event "next"]\n\n1. c3c4 *\n'
    (headers, mainline, errors, *_), nxt = _both_paths(text)
    assert mainline == moves
    assert [(e[0], e[1]) for e in errors] == ([error] if error else [])
    assert nxt[1] == ["c3c4"]
    if error and fen != "bad":
        assert errors[0][3] == 1 + tags.count("\n") + movetext[:movetext.index(error[1])].count("\n") + 1


@pytest.mark.parametrize("game", [
    '[Event "x"]\n\n1. h2e2 { *\n\n', "1. h2e2 ( *\n\n", '[Event "x"]\n\n1. h2e2 ( *\n\n', '[Event "x"]\n\n1. h2e2 ; c *\n\n',
    '[Event "x"]\n\n1. h2e2 } *\n\n', '[Event "x"]\n\n1. h2e2 h2e2 *\n\n',
    # One move token between comments, before a variation, at the end: an ICCS one is read without a C call.
    "1. h2e2 {a} h9g7 {b} 2. H0-G2 ( 2. h0i2 ) i9h9 ( 2... a6a5 ) 3. h2h9 {c} i9i8 *\n\n",
    "1. h2e2 {a} h2e2 {b} *\n\n1. 炮二平五 {a} 馬８進７ ( 1... a6a5 ) *\n\n1. h2e2 {a} a0a0 *\n\n1. h2e2 (1. a3a4) {x} a6a5 *\n\n",
])
def test_tiny_games_with_structure_read_as_the_python_path(game: str) -> None:
    """The fuzz stage's families of tiny games (issue 22), several in a row: the reader's fast paths (one-token
    runs, cached start boards, the C replay) give the games, errors and comments of the Python path."""
    games = _both_paths(game * 3)
    assert len(games) == 3 * (1 + game.count("*\n\n1."))


def test_plain_games_are_played_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C replay reads a plain game without the Python decoder (which would be 3x slower): neither the
    notation module's :func:`~xiangqi.notation.parse_game` nor a board's move parsers run; with the documented
    switch :data:`xiangqi.pgn.C_REPLAY` off they do, so the check can fail."""
    from xiangqi import notation, pgn

    def no_python(*args: object, **kwargs: object) -> None:
        raise AssertionError("the Python decoder was used")

    for owner, name in ((notation, "parse_game"), (Board, "parse_move"), (Board, "parse_chinese")):
        monkeypatch.setattr(owner, name, no_python)
    plain = "1. 炮二平五 馬８進７\n2. H0-G2 车９平８\n3. i0h0 *\n"
    g = one(plain)
    assert iccs(g) == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"] and g.headers["Result"] == "*"
    assert g.mainline_moves()[0] is one("1. 炮二平五 *").mainline_moves()[0]  # moves are shared values
    # The moves between comments and variations too.
    structured = "1. 炮二平五 {c} 馬８進７ ( 1... c6c5 2. h0g2 ) 2. 馬二進三 $1 車９平８ *\n"
    g = one(structured)
    assert iccs(g) == ["h2e2", "h9g7", "h0g2", "i9h9"] and g.next().comment == "c"  # type: ignore[union-attr]
    first = g.next()
    assert first is not None and [v.iccs() for v in first.variations] == ["h9g7", "c6c5"]
    assert iccs(first.variations[1]) == ["h0g2"]
    monkeypatch.setattr(pgn, "C_REPLAY", False)
    for text in (plain, structured):
        with pytest.raises(AssertionError, match="the Python decoder was used"):
            one(text)


_C_TOKENS = ["炮二平五", "馬８進７", "h2e2", "H2-E2", "h9g7", "車一平二", "前車進一", "後馬退二", "兵五進一", "卒３進１",
             "帥五平四", "將５平４", "C2.5", "H8+7", "1.", "12", "2...", "1…", "xyz", "1-0", "*", "紅勝", "０", "ｈ２ｅ２",
             "車二上一", "前兵九平八", "仕四進五", "士４進５", "相三進五", "象３進５", "\u3000", "\n", "%", "1.炮二平五",
             "{c}", "{", "}", "(", ")", "( 1. c3c4 )", "$1", "!?", ";x\n"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_c_replay_matches_the_python_path_on_mutated_games(data: st.DataObject) -> None:
    games = _sample_games(6).split("\n\n[")
    text = games[data.draw(st.integers(0, len(games) - 1))]
    text = text if text.startswith("[") else "[" + text
    head, _, body = text.partition("\n\n")
    words = body.split(" ")
    for _ in range(data.draw(st.integers(0, 4))):
        i = data.draw(st.integers(0, len(words) - 1))
        op = data.draw(st.sampled_from(["replace", "insert", "delete", "swap"]))
        if op == "replace":
            words[i] = data.draw(st.sampled_from(_C_TOKENS + words))
        elif op == "insert":
            words.insert(i, data.draw(st.sampled_from(_C_TOKENS)))
        elif op == "delete" and len(words) > 1:
            del words[i]
        else:
            j = data.draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
    extra = data.draw(st.sampled_from(["", '[Format "ICCS"]\n', '[Format "WXF"]\n',
                                       f'[FEN "{_BLACK_FIRST}"]\n', '[FEN "bad"]\n']))
    _both_paths(head + "\n" + extra + "\n" + " ".join(words) + "\n")


@pytest.mark.parametrize("name", ["ccpd-positions-300.chinese.pgn", "ccpd-known-bad-12.chinese.pgn"])
def test_c_replay_matches_the_python_path_on_shared_files(name: str) -> None:
    assert len(_both_paths(shared_path("data", "games", name).read_text("utf-8"))) in (300, 12)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ccpd-master-3000.chinese.pgn", "ccpd-master-3000.iccs.pgn",
                                  "ccpd-positions-300.iccs.pgn", "wukong-liu-dahua-1125.iccs.pgn",
                                  "wukong-hu-ronghua-1391.iccs.pgn"])
def test_c_replay_matches_the_python_path_on_whole_corpora(name: str) -> None:
    assert _both_paths(shared_path("data", "games", name).read_text("utf-8"))


_CHUNKER_TEXT = """[Event "a"]
[Red "x \\"y\\""]
[Black z]
1. h2e2 h9g7
2. h0g2 xyz 1-0
1. c3c4 c6c5 0-1
  [Event "b"]
\t[Site "s"]
{ a comment
[Event "inside"]
} 1. h2e2
%escaped
10. h9g7 *
[Event "c"]
[Round "1"]
1. b2e2 {c} ; line comment [Event "no"]
2. b9c7
[Bad tag line
3. h0g2 *


[Event "d"]"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_chunker_games_tags_and_lines(newline: str) -> None:
    """Tags, games without tags, comments holding tag-like lines, escapes: read whole, and game by game."""
    text = _CHUNKER_TEXT.replace("\n", newline)

    def summary(games: List[Game]) -> List[Tuple[Any, ...]]:
        return [(dict(g.headers), iccs(g), [(e.ply, e.token, e.line) for e in g.errors]) for g in games]

    whole = summary(list(read_games(text.encode("utf-8"))))
    handle = io.BytesIO(text.encode("utf-8"))
    one_by_one: List[Game] = []
    while (g := read_game(handle)) is not None:
        one_by_one.append(g)
    assert summary(one_by_one) == whole
    assert [h["Event"] for h, _, _ in whole] == ["a", "?", "b", "c", "d"]
    assert whole[0][0]["Red"] == 'x "y"' and whole[0][0]["Black"] == "z"
    assert whole[0][1:] == (["h2e2", "h9g7", "h0g2"], [(3, "xyz", 5)])
    assert whole[1][1] == ["c3c4", "c6c5"] and whole[1][0]["Result"] == "0-1"
    assert whole[2][0]["Site"] == "s" and whole[2][1] == ["h2e2", "h9g7"]
    assert whole[3][1] == ["b2e2", "b9c7"] and whole[3][2][0][1:] == ("[", 18)
    assert whole[4][1] == []


_WORDS = ["12", "12.", "12...", "12..", ".", "...", "…", "1…", "1.h2e2", "１.", "１２.", "1-0", "0-1", "1/2-1/2", "*",
          "½-½", "紅勝", "12.5", "0.", "999.", "1000.", "01.", "h2e2", "炮二平五", "1兵進一", "١.", "2...h9g7", "h9g7.",
          "1x", "5", "1.1", "-", "1/2", "２…"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from([" ", "\n", "\t", "\r\n", "\u3000", "\xa0", ""])),
                max_size=12))
def test_plain_words_are_the_plain_tokenizers_words(parts: List[Tuple[str, str]]) -> None:
    """The split-based word list of plain move text equals the regular expression's (move numbers dropped)."""
    from xiangqi import pgn

    text = "".join(w + sep for w, sep in parts)
    assert pgn._plain_words(text) == [t for t in pgn._PLAIN_RE.findall(text) if t]


# ---------------------------------------------------------------------------------------------- real data


def _check_against_index(pgn: Path, index: Path, compare_fullmove: bool = True) -> int:
    rows = index_rows(index)
    n = 0
    for game, row in zip(read_games(pgn), rows):
        n += 1
        assert game.errors == [], (row, game.errors)
        assert len(game.mainline_moves()) == int(row["plies"]), row
        fen = final_board(game).fen()
        expected = row["final_fen"]
        if not compare_fullmove:  # the index counts full moves from 1, not from the FEN tag's number
            fen, expected = fen.rsplit(" ", 1)[0], expected.rsplit(" ", 1)[0]
        assert fen == expected, row
        if row["result"]:
            assert game.headers["Result"] == row["result"]
    assert n == len(rows)
    return n


@pytest.mark.parametrize("name", ["ccpd-sample.chinese.pgn", "ccpd-sample.iccs.pgn"])
def test_bundled_samples(name: str) -> None:
    assert _check_against_index(DATA / name, DATA / "ccpd-sample.index.tsv") == 5


@pytest.mark.parametrize("name", ["ccpd-positions-sample.chinese.pgn", "ccpd-positions-sample.iccs.pgn"])
def test_bundled_position_samples(name: str) -> None:
    assert _check_against_index(DATA / name, DATA / "ccpd-positions-sample.index.tsv", False) == 5


@pytest.mark.parametrize("name", ["ccpd-master-3000.chinese.pgn", "ccpd-master-3000.iccs.pgn"])
def test_master_games(name: str) -> None:
    games = shared_path("data", "games")
    assert _check_against_index(games / name, games / "ccpd-master-3000.index.tsv") == 3000


@pytest.mark.parametrize("name", ["ccpd-positions-300.chinese.pgn", "ccpd-positions-300.iccs.pgn"])
def test_position_games(name: str) -> None:
    games = shared_path("data", "games")
    assert _check_against_index(games / name, games / "ccpd-positions-300.index.tsv", False) == 300
    black_first = sum(1 for g in read_games(games / name) if g.board().turn is False)
    assert black_first == 117


@pytest.mark.parametrize("name,count,plies", [("wukong-liu-dahua-1125.iccs.pgn", 1125, 101321),
                                              ("wukong-hu-ronghua-1391.iccs.pgn", 1391, 120357)])
def test_wukong_games(name: str, count: int, plies: int) -> None:
    path = shared_path("data", "games", name)
    games = list(read_games(path))
    assert len(games) == count
    assert sum(len(g.mainline_moves()) for g in games) == plies
    assert all(not g.errors for g in games)
    assert all(g.headers["Red"] != "?" and g.headers["Result"] == "*" for g in games)


def test_known_bad_records() -> None:
    games_dir = shared_path("data", "games")
    rows = index_rows(games_dir / "ccpd-known-bad-12.tsv")
    games = list(read_games(games_dir / "ccpd-known-bad-12.chinese.pgn"))
    assert len(games) == len(rows) == 12
    for game, row in zip(games, rows):
        assert game.headers["CCPDPath"] == row["ccpd_path"]
        (err,) = game.errors
        ply = int(row["failing_ply_0based"])
        assert (err.ply, err.token) == (ply, row["failing_token"]), (row, err)
        if row["reason"].startswith("FEN tag"):
            assert isinstance(err.error, InvalidFenError) and game.mainline_moves() == []
            assert "king" in err.reason
        else:
            assert isinstance(err.error, IllegalMoveError) and len(game.mainline_moves()) == ply
        assert err.line > 0
    # The scanner reports the same.
    for raw, row in zip(scan_games(games_dir / "ccpd-known-bad-12.chinese.pgn"), rows):
        rep = replay_mainline(raw)
        assert rep.error is not None and rep.error.ply == int(row["failing_ply_0based"])


def test_xqbase_sample_pgn_matches_its_xqf() -> None:
    xqf_dir = shared_path("data", "games", "xqf")
    from xiangqi.xqf import read_xqf

    (pgn_game,) = list(read_games(xqf_dir / "xqbase-SAMPLE.gb18030.pgn"))
    xqf_game = read_xqf(xqf_dir / "xqbase-SAMPLE.XQF")
    assert pgn_game.errors == [] and pgn_game.mainline_moves() == xqf_game.mainline_moves()
    assert pgn_game.headers["Event"] == xqf_game.headers["Event"] == "许银川让九子对聂棋圣"
    assert pgn_game.headers["FEN"] == xqf_game.headers["FEN"]
    assert pgn_game.comment.startswith("象棋让九子") and len(pgn_game.mainline_moves()) == 75


# ---------------------------------------------------------------------------------------------- convert


def _same_moves_and_comments(a: GameNode, b: GameNode) -> bool:
    """Tree equality for formats without NAGs or starting comments (XQF, DhtmlXQ)."""
    if (a.move, a.comment) != (b.move, b.comment) or len(a.variations) != len(b.variations):
        return False
    return all(_same_moves_and_comments(x, y) for x, y in zip(a.variations, b.variations))


def test_convert_between_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.convert import convert_main
    from xiangqi.dhtmlxq import read_games as read_dhtmlxq_games
    from xiangqi.xqf import read_xqf

    src = _tree_game()
    pgn = tmp_path / "a.pgn"
    pgn.write_text(write_game(src), encoding="utf-8")
    xqf, dh, iccs_pgn = tmp_path / "a.xqf", tmp_path / "a.dhtmlxq", tmp_path / "b.pgn"
    assert convert_main([str(pgn), str(xqf)]) == 0
    assert _same_moves_and_comments(read_xqf(xqf), src)
    assert convert_main([str(xqf), str(dh)]) == 0
    (from_dh,) = list(read_dhtmlxq_games(dh))
    assert _same_moves_and_comments(from_dh, src)
    assert convert_main([str(dh), str(iccs_pgn), "--notation", "iccs"]) == 0
    text = iccs_pgn.read_text(encoding="utf-8")
    assert '[Format "ICCS"]' in text and "h2e2" in text and _same_moves_and_comments(one(text), src)
    capsys.readouterr()
    assert convert_main([str(pgn), "-", "--notation", "wxf"]) == 0
    assert "C2.5" in capsys.readouterr().out
    assert convert_main([str(pgn), "-", "--traditional"]) == 0
    assert "馬" in capsys.readouterr().out


def test_convert_reports_problems_and_bad_requests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.convert import convert_main

    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n1. h2e2 h2h8\n\n[Event "y"]\n1. c3c4 *\n', encoding="utf-8")
    out = tmp_path / "out.pgn"
    assert convert_main([str(bad), str(out)]) == 1
    err = capsys.readouterr().err
    assert "game 1" in err and "h2h8" in err and "line 2" in err
    games = list(read_games(out))
    assert [iccs(g) for g in games] == [["h2e2"], ["c3c4"]]
    assert convert_main([str(tmp_path / "missing.pgn"), str(out)]) == 2
    assert convert_main([str(bad), str(tmp_path / "several.xqf")]) == 2
    empty = tmp_path / "empty.pgn"
    empty.write_text("\n", encoding="utf-8")
    assert convert_main([str(empty), str(out)]) == 2
    with pytest.raises(SystemExit):
        convert_main([str(bad), str(tmp_path / "x.unknown")])
    # Content sniffing for an input without a known extension.
    odd = tmp_path / "record.bin"
    odd.write_bytes(b"[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]")
    assert convert_main([str(odd), str(out), "--notation", "iccs"]) == 0
    assert iccs(next(read_games(out))) == ["h2e2"]


_THREE = '[Event "a"]\n\n1. h2e2 h9g7 *\n\n[Event "b"]\n\n1. c3c4 *\n\n[Event "c"]\n\n1. b0c2 b9c7 *\n'


@pytest.mark.parametrize("to", ["game.xqf", "game.pgn", "game.dhtmlxq"])
def test_convert_game_picks_one_game_of_several(to: str, tmp_path: Path) -> None:
    """An XQF holds one game: a PGN of several could not be converted to it at all."""
    from xiangqi.convert import convert_main, read_any

    src = tmp_path / "three.pgn"
    src.write_text(_THREE, encoding="utf-8")
    out = tmp_path / to
    for n, moves, event in ((1, ["h2e2", "h9g7"], "a"), (3, ["b0c2", "b9c7"], "c"), (2, ["c3c4"], "b")):
        assert convert_main([str(src), str(out), "--game", str(n)]) == 0
        (game,) = list(read_any(str(out)))
        assert iccs(game) == moves
        if not to.endswith(".xqf"):
            assert game.headers["Event"] == event


def test_convert_game_out_of_range_and_several_games_for_xqf(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.convert import convert_main

    src = tmp_path / "three.pgn"
    src.write_text(_THREE, encoding="utf-8")
    out = tmp_path / "out.xqf"
    assert convert_main([str(src), str(out)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"xiangqi convert: {src} holds 3 games and XQF holds one: choose one with --game N (1 to 3)"]
    for to in ("out.xqf", "out.pgn", "-"):
        assert convert_main([str(src), str(tmp_path / to) if to != "-" else to, "--game", "4"]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.splitlines() == [f"xiangqi convert: {src} has no game 4: it holds 3 games"]
        assert not (tmp_path / to).exists()  # nothing written
    one_game = tmp_path / "one.pgn"
    one_game.write_text('[Event "a"]\n\n1. h2e2 *\n', encoding="utf-8")
    assert convert_main([str(one_game), str(out), "--game", "2"]) == 2
    assert capsys.readouterr().err.splitlines() == [f"xiangqi convert: {one_game} has no game 2: it holds 1 game"]
    assert convert_main([str(one_game), str(out)]) == 0  # one game: no --game needed
    with pytest.raises(SystemExit) as exc:
        convert_main([str(src), str(out), "--game", "0"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == "xiangqi convert: error: --game counts from 1, not 0"


def test_convert_game_reports_the_problems_of_that_game_under_its_number(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.convert import convert_main

    src = tmp_path / "bad.pgn"
    src.write_text('[Event "x"]\n\n1. h2e2 *\n\n[Event "y"]\n\n1. c3c4 h2h8 *\n', encoding="utf-8")
    assert convert_main([str(src), str(tmp_path / "out.xqf"), "--game", "1"]) == 0
    assert capsys.readouterr().err == ""
    assert convert_main([str(src), str(tmp_path / "out.xqf"), "--game", "2"]) == 1
    err = capsys.readouterr().err
    assert "game 2" in err and "h2h8" in err


def test_convert_may_write_over_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OUT == IN: OUT used to be opened for writing (emptied) before the lazy reader read IN."""
    from xiangqi.convert import convert_main
    from xiangqi.dhtmlxq import read_games as read_dhtmlxq_games

    same = tmp_path / "same.pgn"
    same.write_text('[Event "x"]\n\n1. 炮二平五 马8进7 *\n\n[Event "y"]\n\n1. c3c4 *\n', encoding="utf-8")
    assert convert_main([str(same), str(same), "--notation", "iccs"]) == 0
    assert [iccs(g) for g in read_games(same)] == [["h2e2", "h9g7"], ["c3c4"]]
    assert "h2e2 h9g7" in same.read_text(encoding="utf-8")
    dh = tmp_path / "same.dhtmlxq"
    assert convert_main([str(same), str(dh)]) == 0
    assert convert_main([str(dh), str(dh)]) == 0
    assert [iccs(g) for g in read_dhtmlxq_games(dh)] == [["h2e2", "h9g7"], ["c3c4"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["same.dhtmlxq", "same.pgn"]  # no temporary file left
    # A failed conversion leaves OUT as it was.
    empty = tmp_path / "empty.pgn"
    empty.write_text("\n", encoding="utf-8")
    before = same.read_bytes()
    assert convert_main([str(empty), str(same)]) == 2
    assert same.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.pgn", "same.dhtmlxq", "same.pgn"]


def test_convert_writes_gzip_for_a_gz_output(tmp_path: Path) -> None:
    from xiangqi.convert import convert_main

    src = tmp_path / "a.pgn"
    src.write_text('[Event "x"]\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    out = tmp_path / "a.iccs.pgn.gz"
    assert convert_main([str(src), str(out), "--notation", "iccs"]) == 0
    assert out.read_bytes()[:2] == b"\x1f\x8b"
    with gzip.open(out, "rt", encoding="utf-8") as fh:
        assert "1. h2e2 h9g7" in fh.read()
    assert [iccs(g) for g in read_games(out)] == [["h2e2", "h9g7"]]


def test_convert_sniffs_a_pgn_saved_as_txt_and_names_a_directory(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.convert import convert_main, read_any

    text = '[Event "x"]\n\n1. h2e2 h9g7 *\n'
    for name in ("g.txt", "g.htm", "g.html"):
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert [iccs(g) for g in read_any(str(tmp_path / name))] == [["h2e2", "h9g7"]], name
    out = tmp_path / "out.pgn"
    assert convert_main([str(tmp_path / "g.txt"), str(out), "--notation", "iccs"]) == 0
    assert [iccs(g) for g in read_games(out)] == [["h2e2", "h9g7"]]
    # A DhtmlXQ block anywhere in a .txt (here past the first 64 KiB of a page) still makes it DhtmlXQ.
    page = tmp_path / "page.txt"
    page.write_text("<p>" + "x" * 70000 + "</p>\n[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]\n",
                    encoding="utf-8")
    assert [iccs(g) for g in read_any(str(page))] == [["h2e2"]]
    capsys.readouterr()
    assert convert_main([str(tmp_path), str(out)]) == 2
    err = capsys.readouterr().err
    assert "is a directory" in err and "no such file" not in err


def test_the_tests_use_the_shared_data_helper_of_conftest() -> None:
    assert shared_path.__module__ == "conftest"


@pytest.mark.parametrize("module", ["pgn", "xqf", "dhtmlxq", "convert", "_encoding"])
def test_public_names_of_the_record_modules_have_docstrings(module: str) -> None:
    """Every public class, function, method and property (getter and setter) of the readers is documented."""
    import ast
    import importlib

    mod = importlib.import_module(f"xiangqi.{module}")
    assert mod.__file__ is not None and mod.__doc__
    tree = ast.parse(Path(mod.__file__).read_text(encoding="utf-8"))
    missing: List[str] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for n in ast.iter_child_nodes(node):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not n.name.startswith("_"):
                if ast.get_docstring(n) is None:
                    missing.append(f"{prefix}{n.name} (line {n.lineno})")
                if isinstance(n, ast.ClassDef):
                    walk(n, f"{prefix}{n.name}.")

    walk(tree, "")
    assert missing == []
