"""DhtmlXQ reading (start position, main line, variations, comments), writing, and fuzzing."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Dict, List

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import shared_path
from xiangqi import Move
from xiangqi.dhtmlxq import parse_tags, read_dhtmlxq, read_games, write_dhtmlxq
from xiangqi.errors import IllegalMoveError, InvalidFenError, InvalidMoveError, XiangqiError
from xiangqi.pgn import Game, GameNode, read_games as read_pgn_games, write_game

DATA = Path(__file__).resolve().parent / "data" / "games"
START_SIDE = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"


def rows(path: Path) -> List[Dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def check_file(blocks: Path, expected: Path) -> int:
    games = list(read_games(blocks))
    want = rows(expected)
    assert len(games) == len(want)
    for game, row in zip(games, want):
        assert game.errors == []
        fen = game.headers.get("FEN") or START_SIDE
        assert " ".join(fen.split()[:2]) == row["start_fen_and_side"]
        assert " ".join(m.iccs() for m in game.mainline_moves()) == row["iccs_moves"].strip()
        assert len(game.mainline_moves()) == int(row["plies"])
        assert game.headers["Result"] == {"W": "1-0", "L": "0-1", "D": "1/2-1/2"}[row["DhtmlXQ_result"]]
    return len(games)


def test_bundled_sample() -> None:
    assert check_file(DATA / "wxf-ca-sample.dhtmlxq.txt", DATA / "wxf-ca-sample.expected.tsv") == 3


def test_wxf_ca_15() -> None:
    d = shared_path("data", "games", "dhtmlxq")
    assert check_file(d / "wxf-ca-15.dhtmlxq.txt", d / "wxf-ca-15.expected.tsv") == 15


def test_headers() -> None:
    (game,) = list(read_games(DATA / "wxf-ca-sample.dhtmlxq.txt"))[:1]
    assert game.headers["Red"] == "ZHAO GuoRong" and game.headers["Black"] == "KE YongQing"
    assert game.headers["RedTeam"] == "China-HeilongJiang" and game.headers["Event"].startswith("Zhongli")
    g = read_dhtmlxq("[DhtmlXQ_open]C70 五七炮对屏风马[/DhtmlXQ_open][DhtmlXQ_result]红胜[/DhtmlXQ_result]")
    assert g.headers["ECCO"] == "C70" and g.headers["Opening"] == "五七炮对屏风马" and g.headers["Result"] == "1-0"


# Main line: 炮二平五 马8进7 马二进三 车9平8; variations at ply 2 (main) and ply 3 (inside branch 1).
BLOCK = ("<html>[DhtmlXQ]\n[DhtmlXQ_title]t[/DhtmlXQ_title]\n"
         "[DhtmlXQ_movelist]7747706279678070[/DhtmlXQ_movelist]\n"
         "[DhtmlXQ_move_1_3_2]2625[/DhtmlXQ_move_1_3_2]\n"      # listed before the branch it hangs from
         "[DhtmlXQ_move_0_2_1]10227967[/DhtmlXQ_move_0_2_1]\n"
         "[DhtmlXQ_comment0]start||two lines[/DhtmlXQ_comment0][DhtmlXQ_comment2]main 2[/DhtmlXQ_comment2]"
         "[DhtmlXQ_comment1_2]branch 1 ply 2[/DhtmlXQ_comment1_2]\n[/DhtmlXQ]</html>\n")


def test_variations_and_comments() -> None:
    (game,) = list(read_games(io.StringIO(BLOCK)))
    assert game.errors == []
    assert [m.iccs() for m in game.mainline_moves()] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert game.comment == "start\ntwo lines"
    first = game.next()
    assert first is not None
    main2, alt2 = first.variations
    assert main2.move == Move.from_iccs("h9g7") and main2.comment == "main 2"
    assert alt2.move == Move.from_iccs("b9c7") and alt2.comment == "branch 1 ply 2"
    assert [v.move.iccs() for v in alt2.variations] == ["h0g2", "c3c4"]  # type: ignore[union-attr]
    assert game.count_nodes() == 7


def test_start_position_from_binit_and_fen() -> None:
    # Black to move in an endgame: the side comes from the first move's piece. Rows count from the top.
    binit = ["99"] * 32
    binit[4] = "39"     # slot 4, the red king: d0
    binit[20] = "40"    # slot 20, the black king: e9
    binit[31] = "04"    # slot 31, a black pawn: a5
    text = f"[DhtmlXQ_binit]{''.join(binit)}[/DhtmlXQ_binit][DhtmlXQ_movelist]0405[/DhtmlXQ_movelist]"
    g = read_dhtmlxq(text)
    assert g.errors == [] and g.headers["FEN"] == "4k4/9/9/9/p8/9/9/9/9/3K5 b - - 0 1"
    assert [m.iccs() for m in g.mainline_moves()] == ["a5a4"]
    g = read_dhtmlxq("[DhtmlXQ_fen]4k4/9/9/9/p8/9/9/9/9/3K5 b - - 0 1[/DhtmlXQ_fen]"
                     f"[DhtmlXQ_binit]{'99' * 32}[/DhtmlXQ_binit]")
    assert g.headers["FEN"] == "4k4/9/9/9/p8/9/9/9/9/3K5 b - - 0 1" and g.errors == []


def test_problems_are_recorded() -> None:
    g = read_dhtmlxq("[DhtmlXQ_movelist]77477047[/DhtmlXQ_movelist]")       # h9 horse cannot reach e2... illegal
    assert [m.iccs() for m in g.mainline_moves()] == ["h2e2"]
    assert g.errors[0].ply == 1 and isinstance(g.errors[0].error, IllegalMoveError)
    g = read_dhtmlxq("[DhtmlXQ_movelist]7747x062774[/DhtmlXQ_movelist]")
    assert [m.iccs() for m in g.mainline_moves()] == ["h2e2"]
    assert isinstance(g.errors[0].error, InvalidMoveError)
    g = read_dhtmlxq("[DhtmlXQ_binit]123[/DhtmlXQ_binit][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]")
    assert isinstance(g.errors[0].error, InvalidFenError) and g.mainline_moves() == []
    g = read_dhtmlxq("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_move_3_9_4]7062[/DhtmlXQ_move_3_9_4]")
    assert g.errors and g.errors[0].mainline is False and "move_3_9_4" in g.errors[0].token


def test_unclosed_block_at_end_is_read() -> None:
    (g,) = list(read_games(b"junk [DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"))
    assert [m.iccs() for m in g.mainline_moves()] == ["h2e2"]


def test_several_blocks_on_one_line_and_encodings() -> None:
    one = "[DhtmlXQ][DhtmlXQ_red]红方[/DhtmlXQ_red][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]"
    text = one + " x " + one.replace("7747", "7062".join(["7747", ""])) + "\n" + one
    for data in (text.encode("gbk"), text.encode("utf-8"), text.encode("big5", "replace")):
        games = list(read_games(data))
        assert [len(g.mainline_moves()) for g in games] == [1, 2, 1]
    assert [g.headers["Red"] for g in read_games(text.encode("gbk"))] == ["红方"] * 3


def same_tree(a: GameNode, b: GameNode) -> bool:
    if (a.move, a.comment) != (b.move, b.comment) or len(a.variations) != len(b.variations):
        return False
    return all(same_tree(x, y) for x, y in zip(a.variations, b.variations))


def test_write_read_round_trip() -> None:
    (game,) = list(read_games(io.StringIO(BLOCK)))
    text = write_dhtmlxq(game)
    assert "\n" not in text and text.startswith("[DhtmlXQ]")
    back = read_dhtmlxq(text)
    assert back.errors == [] and same_tree(game, back) and back.comment == game.comment
    assert back.headers["Title"] == "t"
    # Through PGN and back.
    (pgn,) = list(read_pgn_games(io.StringIO(write_game(back))))
    assert same_tree(read_dhtmlxq(write_dhtmlxq(pgn)), game)


def test_write_set_up_position_and_result() -> None:
    game = Game()
    game.setup("4kc3/4a4/b2a4b/2P2RP2/4r4/7N1/9/5A3/5K3/9 b - - 0 1")
    game.headers["Result"] = "0-1"
    game.add_line([Move.from_iccs("e8f7"), Move.from_iccs("f6f7")])
    text = write_dhtmlxq(game)
    tags = parse_tags(text)
    assert len(tags["binit"]) == 64 and tags["result"] == "黑胜"
    back = read_dhtmlxq(text)
    assert back.headers["FEN"] == game.headers["FEN"] and back.mainline_moves() == game.mainline_moves()
    assert back.headers["Result"] == "0-1"


_PIECES = list("[]/_DhtmlXQ0123456789 |binitmovelistcommentfen\n") + [
    "[DhtmlXQ]", "[/DhtmlXQ]", "[DhtmlXQ_movelist]", "[/DhtmlXQ_movelist]", "[DhtmlXQ_move_0_1_1]",
    "[/DhtmlXQ_move_0_1_1]", "[DhtmlXQ_move_1_2_2]", "[/DhtmlXQ_move_1_2_2]", "7747", "7062", "1022",
    "[DhtmlXQ_binit]", "[/DhtmlXQ_binit]", "[DhtmlXQ_comment1]", "[/DhtmlXQ_comment1]", "[DhtmlXQ_fen]",
    "[/DhtmlXQ_fen]", "4k4/9/9/9/p8/9/9/9/9/3K5 b"]


@settings(max_examples=300, deadline=2000)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_fuzz_text(text: str) -> None:
    for source in (text, "[DhtmlXQ]" + text + "[/DhtmlXQ]"):
        game = read_dhtmlxq(source)
        assert all(isinstance(e.error, XiangqiError) for e in game.errors)
        for g in read_games(source.encode("utf-8")):
            write_dhtmlxq(g) if not any(isinstance(e.error, InvalidFenError) for e in g.errors) else None


@settings(max_examples=200, deadline=2000)
@given(st.binary(max_size=400))
def test_fuzz_bytes(data: bytes) -> None:
    for g in read_games(b"[DhtmlXQ]" + data + b"[/DhtmlXQ]"):
        assert all(isinstance(e.error, XiangqiError) for e in g.errors)


def test_the_tests_use_the_shared_data_helper_of_conftest() -> None:
    assert shared_path.__module__ == "conftest"


def test_a_move_record_from_a_square_to_itself_is_an_error_of_the_game() -> None:
    """'4444' (e5 to e5) raised InvalidMoveError out of the reader; '0909' (a0 to a0) was read as the null move
    and called illegal. Both are the one same-square error every reader gives, the moves before them kept."""
    from xiangqi.core import SAME_SQUARE_REASON
    from xiangqi.errors import InvalidMoveError

    for record, name in (("0909", "a0a0"), ("4444", "e5e5"), ("8080", "i9i9")):
        game = read_dhtmlxq(f"[DhtmlXQ_movelist]7747{record}7062[/DhtmlXQ_movelist]")
        assert game.mainline_moves() == [Move.from_iccs("h2e2")]
        assert [(e.token, e.reason) for e in game.errors] == [
            (record, f"invalid move {name!r}: {SAME_SQUARE_REASON}")]
        assert isinstance(game.errors[0].error, InvalidMoveError)
        side = read_dhtmlxq("[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]"
                            f"[DhtmlXQ_move_0_1_1]{record}[/DhtmlXQ_move_0_1_1]")
        assert [e.reason for e in side.errors] == [f"invalid move {name!r}: {SAME_SQUARE_REASON}"]
