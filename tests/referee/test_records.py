"""Records and diagrams: round trips, parsing details, and bad records through the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from referee import IllegalMoveError, RecordError, new_game, parse_ply, read_diagram, read_record, replay, write_record
from referee.game import position_from

from .helpers import ALL_SETUPS, random_game

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.rec"))


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.randoms(use_true_random=False), st.sampled_from(ALL_SETUPS), st.booleans())
def test_record_write_and_parse_round_trip(rng, setup, resign):
    game = random_game(rng, *setup)
    if resign and not game.is_over:
        game = game.play("resigns")
    text = write_record(game.with_headers(White="Ann", Black="Bob"))
    record = read_record(text)
    again = replay(record)
    assert again.positions == game.positions
    assert [str(m.ply.cells) for m in again.moves] == [str(m.ply.cells) for m in game.moves]
    assert write_record(again) == text
    assert record.header("White") == "Ann"


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.randoms(use_true_random=False), st.sampled_from(ALL_SETUPS))
def test_diagram_write_and_read_round_trip(rng, setup):
    position = random_game(rng, *setup).position
    diagram = read_diagram("    " + position.diagram().replace("\n", "\n    "), position.rules.game)
    assert (
        diagram.geometry == position.geometry
        or diagram.geometry.spec.split(":")[1] == position.geometry.spec.split(":")[1]
    )
    assert diagram.symbols == position.symbols()
    rebuilt = position_from(position.rules, diagram.symbols, position.to_move)
    assert rebuilt.symbols() == position.symbols()


def test_one_stone_cascade_is_told_apart_from_a_red_drop():
    record = read_record('[Game "cascade"] [Size "8"]\n1. o d5  x f5 =\n2. = c6 =  x h5\n')
    plies = [str(p.ply) for p in record.plies]
    assert plies == ["o d5", "x f5 =", "= c6 =", "x h5"]
    record = read_record("1. o d5 x f5 = 2. = c6")
    assert [str(p.ply) for p in record.plies] == ["o d5", "x f5 =", "= c6"]


def test_cascades_two_stone_plies_and_passes():
    record = read_record('[Game "cascades"] [Top "3"] [Rows "3"]\n1. b2 c2,c3\n2. pass resigns\n')
    assert [str(p.ply) for p in record.plies] == ["b2", "c2,c3", "pass", "resigns"]
    assert replay(record).result == "1-0"


def test_parse_ply_for_each_game():
    g = new_game("cascade").rules.geometry
    assert str(parse_ply("= h13 ox=", "cascade", g)) == "= h13 ox="
    with pytest.raises(RecordError, match="unknown colour letter 'w'"):
        parse_ply("w h13", "cascade", g)
    # a well-formed name the board lacks is written fine; playing it is what breaks the rules
    assert str(parse_ply("o a1", "cascade", g)) == "o a1"
    with pytest.raises(IllegalMoveError, match="a1 is not a cell of the diamond:8 board"):
        new_game("cascade").position.play("o a1")
    with pytest.raises(RecordError, match="'9z' is not a cell name"):
        parse_ply("o 9z", "cascade", g)


def test_undo_returns_the_previous_position():
    game = new_game("cascade", "diamond:4")
    before = game.play("o d1").play("x c2")
    after = before.play("= e2 =")
    assert after.undo() == before
    assert after.undo().position is before.position


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_examples_replay(path, capsys):
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1].startswith("score: white ")


BAD = {
    "bad-cell-name": ("1. o d5 x 9z\n", "line 1, column 11: '9z' is not a cell name"),
    "unknown-colour": ("1. o d5\n2. q f5\n", "line 2, column 4: unknown colour letter 'q'"),
    "malformed-header": ('[Game "cascade" [Size "8"]\n1. o d5\n', "line 1, column 1: malformed header"),
    "bad-size": ('[Game "cascade"]\n[Size "eight"]\n1. o d5\n', "line 2, column 1: the Size header must be"),
    "unknown-game": ('[Game "chess"]\n1. e4\n', 'unknown Game "chess"'),
    "move-number": ("1. o d5\n3. x f5\n", "line 2, column 1: move number 3 where 2 was due"),
    "bad-result": ('[Game "cascade"] [Result "2-0"]\n1. o h1\n', "line 1, column 18: the Result header must be"),
    "two-results": (
        '[Game "cascade"] [Size "2"] [Result "1-0"]\n1. o b1  x a2\n2. o c2 0-1\n',
        "line 3, column 9: the moves end with 0-1, but the Result header says '1-0'",
    ),
    "empty": ("", "the record is empty"),
    "blank": ("  \n\n", "the record is empty"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_records_give_one_clear_line(name, tmp_path, capsys):
    text, message = BAD[name]
    path = tmp_path / "bad.rec"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message in err


def test_binary_garbage_gives_one_clear_line(tmp_path, capsys):
    path = tmp_path / "garbage.rec"
    path.write_bytes(b"1. o d5\n\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a text record" in err and "line 2" in err


def test_control_characters_give_one_clear_line(tmp_path, capsys):
    path = tmp_path / "nul.rec"
    path.write_bytes(b"1. o d5\x00 x f5\n")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 1, column 8" in err


def test_missing_file_and_folder(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.rec")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["replay", str(tmp_path)]) == 2
    assert "folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1. o d5 x f5 =\n2. o d5\n", "move 2, white (first player): the record says o d5, but d5 is already filled"),
        ("1. o d5 x f5 ox\n", "move 1, black (second player): the record says x f5 ox, the rules give x f5 ="),
        ("1. o d5 x f5\n2. = c6 o\n", "the record says = c6 o, the rules give = c6 ="),
        ("1. o d5 x f5 = d5\n", "line 1, column 14: '=': a move holds at most two plies; number the next move 2."),
        ("1. o d5 x\n", "move 1, white (first player): the record says o d5 x, the rules give o d5 (no cascade)"),
        # a cell the board lacks is written fine; playing it is what breaks the rules
        ('[Game "cascade"] [Size "8"]\n1. o p8\n', "move 1, white (first player): the record says o p8, but p8 is not"),
        ('[Game "cascade"] [Size "8"]\n1. o d5 x z9\n', "move 1, black (second player): the record says x z9, but z9"),
        ('[Game "cascades"] [Size "3,3"]\n1. z1\n', "move 1, white (first player): the record says z1, but z1 is not"),
        ('[Game "kaskade"] [Width "4"] [Height "4"]\n1. e1\n', "the record says e1, but e1 is not a cell of the grid"),
    ],
)
def test_disagreements_name_move_player_record_and_rules(text, message, tmp_path, capsys):
    path = tmp_path / "game.rec"
    path.write_text(text, encoding="utf-8")
    status = main(["replay", str(path)])
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert message in err
    assert status == (2 if "line 1" in message else 1)


def test_replay_prints_the_final_diagram_and_score(tmp_path, capsys):
    path = tmp_path / "game.rec"
    path.write_text('[Game "cascade"] [Size "8"]\n1. o d5 x f5 =\n2. = c6 = x h5 xox\n3. o g4\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "   o x x . .   " in out
    assert out.strip().splitlines()[-1] == "score: white 3, black 4; black to play"


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(max_size=30), st.text(max_size=30))
def test_any_player_name_is_kept_in_its_own_header(white, black):
    game = new_game("cascade", "diamond:4").play("o d1").with_headers(White=white, Black=black)
    text = write_record(game)
    record = read_record(text)
    assert [key for key, _ in record.headers] == ["Game", "Size", "White", "Black"]  # nothing injected

    def kept(name):
        return "".join(c if c.isprintable() else " " for c in name)

    assert record.header("White") == kept(white) and record.header("Black") == kept(black)
    assert len(text.splitlines()) == 5
    assert replay(record).positions == game.positions


def test_a_quote_in_a_name_injects_no_header():
    game = new_game("cascade", "diamond:4").with_headers(White='Ann"] [Result "0-1', Black='Bob\n[Result "1-0"]')
    text = write_record(game)
    assert text.splitlines()[2:4] == ['[White "Ann\\"] [Result \\"0-1"]', '[Black "Bob [Result \\"1-0\\"]"]']
    assert read_record(text).header("Result") == ""


def test_a_huge_record_is_refused_before_it_is_parsed():
    with pytest.raises(RecordError, match="more than the 1,000,000 a record may be"):
        read_record("1. o d5\n" + " " * 1_000_000)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Size "' + "9" * 5000 + '"]\n1. o d5\n', "the Size header must be a small whole number, not '999"),
        ("1" * 5000 + ". o d5\n", "move number 1111111"),
        ("1. o d5 x " + "f" * 100_000 + "\n", "'fffffffffffffffffffffffffffffffffffffff…' is not a cell name"),
        ("1. o d5 x f5 " + "=" * 100_000 + "\n", "a cascade lists at most 64 stones on diamond:8"),
        ('[Board "diamond:' + "9" * 5000 + '"]\n1. o d5\n', "bad header: 'diamond:" + "9" * 31 + "…' is not a board"),
    ],
)
def test_long_words_are_never_echoed_whole(text, message):
    with pytest.raises(RecordError) as failed:
        read_record(text)
    assert message in str(failed.value) and len(str(failed.value)) < 300


def test_a_result_after_the_moves_is_checked_against_the_rules_as_the_header_is(tmp_path, capsys):
    path = tmp_path / "r.rec"
    path.write_text('[Game "cascade"] [Size "2"]\n1. o b1  x a2\n2. o c2 0-1\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "the record's Result says 0-1, the rules give 1-0" in capsys.readouterr().err
    path.write_text('[Game "cascade"] [Size "2"]\n1. o b1 1-0\n', encoding="utf-8")
    record = read_record(path.read_text(encoding="utf-8"))
    assert record.header("Result") == "1-0" and replay(record).result == "*"  # an unfinished game keeps its word
