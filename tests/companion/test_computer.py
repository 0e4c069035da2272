"""The computer opponent at the board: its options, its ply lit and checked, hints and the teaching mode."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.advice import Advice, advice_for
from companion.cli import main
from companion.computer import Computer, Opponent, OpponentError, parse_opponent, parse_side, side_of
from companion.errors import SetupError
from companion.live import LiveGame
from companion.scenario import move_steps, random_moves
from companion.store import Store
from companion.versus import placed_ply
from companion.web.app import create_app
from engine import Hint
from hardware import highlight
from hardware.blink import COMPUTER_WORDS, legend
from hardware.frame import CellFrame, CellLight, Colour, Pattern
from referee.game import make_rules
from referee.rules import Position


def at_once(body):
    body()


def fixed(text: str):
    """A computer that always plays ``text`` (chosen at once, on the caller's thread)."""

    def think(position: Position) -> Hint:
        ply = position.play(text).ply
        return Hint(ply, 0.0, 1, 1, 0.0, False, (ply,), "club")

    return think


def live_game(tmp_path, game="cascade", board="diamond:3", side=0, think=None, level="club"):
    rules = make_rules(game, board)
    store = Store(tmp_path / "games.sqlite3")
    live = LiveGame.start_or_resume(rules.start(), store)
    computer = Computer(Opponent(level), side, budget_s=5.0, start=at_once, think=think)
    live.play_against(Advice(computer))
    return live, store


def board_with(position: Position, **cells: str) -> tuple[str, ...]:
    board = list(position.symbols())
    for name, token in cells.items():
        board[position.geometry.index(name)] = token
    return tuple(board)


def test_the_computer_takes_the_engine_s_own_time_per_ply():
    from companion.computer import BUDGET_S
    from engine import DEFAULT_BUDGET_S

    assert BUDGET_S == DEFAULT_BUDGET_S


def test_opponent_and_side_words():
    assert parse_opponent("engine") == Opponent("club")
    assert parse_opponent(" Engine:Strongest ") == Opponent("strongest")
    for bad in ("computer", "engine:master", "", "engine:"[:3]):
        with pytest.raises(OpponentError):
            parse_opponent(bad)
    assert parse_side("WHITE") == "white"
    with pytest.raises(OpponentError):
        parse_side("red")
    rules = make_rules("cascade", "diamond:3", None, "black")  # the first player owns black
    assert side_of(rules, "black") == 0 and side_of(rules, "white") == 1 and side_of(rules, None) == 1
    assert side_of(make_rules("kaskade", "grid:3x3"), "white") == 0
    with pytest.raises(SetupError, match="needs an opponent"):
        advice_for(None, "white", rules)


def test_the_computer_s_ply_is_lit_blinking_fast_and_named_on_the_page(tmp_path):
    live, store = live_game(tmp_path, think=fixed("= c3"))
    with store:
        snap = live.snapshot()
        assert snap.computer == "The computer plays = c3"
        assert snap.message == "The computer plays = c3: put a red stone on c3 for it"
        index = live.position.geometry.index("c3")
        assert snap.leds[index] == "=!!"
        assert [(m.cell, m.need) for m in snap.suggested] == [("c3", "=")]
        live.on_reading(board_with(live.position, c3="="))
        assert [str(m.ply) for m in live.moves] == ["= c3"]
        assert store.plies(live.game_id)[-1].ply == "= c3"
        assert live.snapshot().computer == ""


def test_a_wrong_colour_or_cell_for_the_computer_is_an_error_naming_the_fix(tmp_path):
    live, store = live_game(tmp_path, think=fixed("= c3"))
    with store:
        start = live.position
        snap = live.on_reading(board_with(start, c3="x"))
        assert snap.alerts == ("The computer plays = c3: the stone on c3 should be red",)
        assert snap.leds[start.geometry.index("c3")] == "=!"  # an error blinks slowly
        snap = live.on_reading(board_with(start, b2="="))
        assert snap.alerts == ("The computer plays = c3: take the stone off b2; put a red stone on c3",)
        assert live.moves == ()
        live.on_reading(board_with(start, c3="="))
        assert [str(m.ply) for m in live.moves] == ["= c3"]


def test_a_stone_placed_while_the_computer_thinks_is_taken_back(tmp_path):
    waiting: list = []
    rules = make_rules("cascade", "diamond:3")
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store)
        live.play_against(Advice(Computer(Opponent(), 0, start=waiting.append, think=fixed("o c3"))))
        assert live.snapshot().computer == "The computer is thinking…"
        snap = live.on_reading(board_with(live.position, c3="o"))
        assert snap.alerts == ("The computer is still thinking: take the stone off c3",)
        waiting.pop()()  # the computer's thread ends: its ply is shown, and the stone placed is the one
        assert [str(m.ply) for m in live.moves] == ["o c3"]


def test_a_ply_chosen_after_the_game_closed_changes_nothing(tmp_path):
    waiting: list = []
    rules = make_rules("cascades", "trapezoid:3,3")
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store)
        live.play_against(Advice(Computer(Opponent(), 0, start=waiting.append, think=fixed("a2"))))
        assert len(waiting) == 1
        live.close()
        waiting.pop()()
        assert live.moves == () and live.snapshot().suggested == ()


def test_a_cascades_turn_of_one_stone_ends_without_end_turn_and_a_pass_is_played_for_it(tmp_path):
    live, store = live_game(tmp_path, "cascades", "trapezoid:3,3", side=1, think=fixed("b2"))
    with store:
        live.on_reading(board_with(live.position, a2="o"))
        live.on_reading(board_with(live.position, b2="x"))
        assert [str(m.ply) for m in live.moves] == ["a2", "b2"]
    rules = make_rules("cascades", "trapezoid:3,3")
    with Store(tmp_path / "p.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store)
        live.play_against(Advice(Computer(Opponent(), 1, start=at_once, think=fixed("pass"))))
        live.on_reading(board_with(live.position, a2="o"))
        assert [str(m.ply) for m in live.moves] == ["a2", "pass"]
        assert live.snapshot().message == "The computer passes"


def test_the_computer_s_two_stones_are_both_lit_until_placed(tmp_path):
    live, store = live_game(tmp_path, "cascades", "trapezoid:3,3", side=1, think=fixed("c2,d3"))
    with store:
        live.on_reading(board_with(live.position, a2="o"))
        assert [m.cell for m in live.snapshot().suggested] == ["c2", "d3"]
        live.on_reading(board_with(live.position, c2="x"))
        assert [m.cell for m in live.snapshot().suggested] == ["d3"] and len(live.moves) == 1
        live.on_reading(board_with(live.position, c2="x", d3="x"))
        assert [str(m.ply) for m in live.moves] == ["a2", "c2,d3"]


def test_a_hint_is_lit_until_the_position_changes_and_teaching_shows_legal_cells_and_a_preview(tmp_path):
    rules = make_rules("cascade", "diamond:3")
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store)
        advice = Advice(adviser=Computer(Opponent("strongest"), None, start=at_once, think=fixed("x b2")))
        advice.hint_s = None
        live.play_against(advice)
        assert live.perform("hint", {}) == "Hint: x b2"
        snap = live.snapshot()
        assert snap.message == "Hint: x b2" and snap.leds[rules.geometry.index("b2")] == "x!!"
        live.on_reading(board_with(live.position, a3="o"))
        assert live.snapshot().suggested == ()
        assert live.perform("teach", {}).startswith("Teaching")
        assert live.snapshot().teaching and "b2" in live.snapshot().legal and "a3" not in live.snapshot().legal
        assert live.preview("a3") == ()  # filled: no stone may go there
        assert {m.cell for m in live.preview("b4", "o")} >= {"b4"}
        assert live.perform("teach", {}) == "Teaching off" and live.snapshot().legal == ()


def test_a_hint_goes_out_by_itself(tmp_path):
    rules = make_rules("cascade", "diamond:3")
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store)
        advice = Advice(adviser=Computer(Opponent("strongest"), None, start=at_once, think=fixed("x b2")))
        advice.hint_s = 0.0
        live.play_against(advice)
        live.perform("hint", {})
        assert advice.timer is not None
        advice.timer.join()
        assert live.snapshot().suggested == ()
        live.close()


def test_the_page_asks_for_hints_and_previews_with_the_token_only(tmp_path):
    live, store = live_game(tmp_path, side=1, think=fixed("x b2"))
    with store:
        live.advice.adviser = Computer(Opponent("strongest"), None, start=at_once, think=fixed("o b2"))
        client = create_app({"LIVE": live, "TOKEN": "t"}).test_client()
        assert client.post("/api/action/hint").status_code == 403
        answer = client.post("/api/action/hint", data={"token": "t"})
        assert answer.status_code == 200 and answer.get_json()["ok"]
        assert client.get("/api/state").get_json()["suggested"] == [{"cell": "b2", "need": "o"}]
        assert client.post("/api/action/teach", data={"token": "t"}).status_code == 200
        assert "b2" in client.get("/api/state").get_json()["legal"]
        assert client.get("/api/preview?cell=b2").status_code == 403
        got = client.get("/api/preview?cell=b2&colour==", headers={"X-Cascade-Token": "t"})
        assert got.status_code == 200 and {"cell": "b2", "need": "="} in got.get_json()["cells"]
        for bad in ("cell=zz9", "cell=", "cell=b2&colour=r", "cell=" + "b" * 50):
            got = client.get(f"/api/preview?{bad}", headers={"X-Cascade-Token": "t"})
            assert got.status_code == 400 and "Traceback" not in got.get_data(as_text=True)
        page = client.get("/?token=t").get_data(as_text=True)
        assert 'data-action="hint"' in page and "coach.js" in page


class Recorded:
    """LEDs that keep the last frame shown."""

    def __init__(self) -> None:
        self.frame = CellFrame()

    def show(self, frame: CellFrame) -> None:
        self.frame = frame


def taught(live: LiveGame, leds: Recorded) -> set[str]:
    """The cells the LEDs light as legal, by name; the page's mirror of the LEDs says the same."""
    cells = live.position.geometry.cells
    lit = {cells[i].name for i, light in leds.frame.items() if light == highlight.LEGAL}
    assert lit == {cells[i].name for i, led in enumerate(live.snapshot().leds) if led == ":"}
    return lit


def test_teaching_lights_exactly_the_legal_cells_of_cascades_and_off_clears_them(tmp_path):
    rules = make_rules("cascades", "trapezoid:4,3")
    leds = Recorded()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds)
        live.on_reading(live.position.symbols())
        assert taught(live, leds) == set() and leds.frame == CellFrame()
        assert live.perform("teach", {}).startswith("Teaching: the page and the LEDs (cyan) show")
        assert taught(live, leds) == {"a2", "b2", "c2", "d2"}  # below white's a1 and c1
        assert set(leds.frame.values()) == {highlight.LEGAL}
        live.on_reading(board_with(live.position, a2="o"))  # white's first turn is one stone
        assert [str(m.ply) for m in live.moves] == ["a2"]
        assert taught(live, leds) == {"b2", "c2", "d2", "e2"}  # below black's b1 and d1
        assert leds.frame[rules.geometry.index("a2")] == highlight.LAST_MOVE
        live.on_reading(board_with(live.position, b2="x"))  # black's first stone of two
        assert taught(live, leds) == {"c2", "d2", "e2", "b3", "c3"}  # where the second may go, b2's too
        assert live.snapshot().legal == ("c2", "d2", "e2", "b3", "c3")
        assert [(m.cell, m.need) for m in live.preview("b3")] == [("b3", "x")]  # the second stone, on b2's
        assert live.preview("a3") == () and live.preview("b2") == ()
        assert live.perform("teach", {}) == "Teaching off"
        assert taught(live, leds) == set() and live.snapshot().legal == ()
        assert set(leds.frame.values()) == {highlight.LAST_MOVE}


def test_an_error_and_a_hint_win_over_the_legal_cells(tmp_path):
    rules = make_rules("cascades", "trapezoid:4,3")
    leds = Recorded()
    geometry = rules.geometry
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds)
        advice = Advice(adviser=Computer(Opponent("strongest"), None, start=at_once, think=fixed("c2")))
        advice.hint_s = None
        live.play_against(advice)
        live.on_reading(live.position.symbols())
        live.perform("teach", {})
        assert live.perform("hint", {}) == "Hint: c2"
        assert leds.frame[geometry.index("c2")] == CellLight(Colour.WHITE, Pattern.FAST)
        assert taught(live, leds) == {"a2", "b2", "d2"}
        snap = live.on_reading(board_with(live.position, c3="o"))  # below nothing of white's
        assert snap.errors and leds.frame[geometry.index("c3")] == highlight.REMOVE
        assert leds.frame[geometry.index("c2")] == CellLight(Colour.WHITE, Pattern.FAST)  # the hint stays
        assert taught(live, leds) == {"a2", "b2", "d2"}  # where else the stone may go instead


def test_the_computer_s_turn_lights_its_ply_and_no_legal_cell(tmp_path):
    rules = make_rules("cascades", "trapezoid:4,3")
    leds = Recorded()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds)
        live.play_against(Advice(Computer(Opponent(), 1, start=at_once, think=fixed("e2"))))
        live.on_reading(live.position.symbols())
        live.perform("teach", {})
        assert taught(live, leds) == {"a2", "b2", "c2", "d2"}
        live.on_reading(board_with(live.position, a2="o"))
        assert live.snapshot().computer == "The computer plays e2"
        assert taught(live, leds) == set()
        assert leds.frame[rules.geometry.index("e2")] == CellLight(Colour.BLACK, Pattern.FAST)
        live.on_reading(board_with(live.position, e2="x"))
        assert [str(m.ply) for m in live.moves] == ["a2", "e2"]
        assert taught(live, leds) == {"b2", "c2", "d2", "a3", "b3"}  # below a1, c1 and a2


@pytest.mark.parametrize(("game", "board"), [("cascade", "diamond:3"), ("kaskade", "grid:3x3")])
def test_teaching_in_cascade_and_kaskade_stays_on_the_page(tmp_path, game, board):
    rules = make_rules(game, board)
    leds = Recorded()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds)
        live.on_reading(live.position.symbols())
        assert live.perform("teach", {}).startswith("Teaching: the page shows")
        assert len(live.snapshot().legal) == len(rules.geometry.cells)
        assert taught(live, leds) == set() and leds.frame == CellFrame()


def test_every_other_light_wins_over_a_legal_cell():
    frame = highlight.guidance(
        pending_cells={1: "x"},
        error_cells={2: "o", 3: None},
        suggested_cells={4: "="},
        last=[5],
        winning=[6],
        legal_cells=range(8),
    )
    assert [frame[i] for i in range(8)] == [
        highlight.LEGAL,
        CellLight(Colour.BLACK, highlight.PENDING),
        CellLight(Colour.WHITE, highlight.NEEDS),
        highlight.REMOVE,
        CellLight(Colour.RED, highlight.SUGGESTED),
        highlight.LAST_MOVE,
        highlight.WINNER,
        highlight.LEGAL,
    ]
    others = {highlight.REMOVE, highlight.LAST_MOVE, highlight.WINNER}
    others |= {CellLight(c, p) for c in (Colour.WHITE, Colour.BLACK, Colour.RED) for p in Pattern}
    assert highlight.LEGAL not in others
    assert any("cyan: the teaching mode" in line for line in legend())
    assert any("(#.#.#...): the teaching mode" in line for line in legend(single_colour=True))


def test_the_ply_to_place_has_a_pattern_of_its_own_on_the_leds_and_in_the_legend():
    frame = highlight.guidance(pending_cells={1: "o"}, error_cells={2: "o", 3: None}, suggested_cells={4: "o", 1: "x"})
    assert frame[4].pattern is Pattern.FAST and frame[4].colour == "o"
    assert frame[1].pattern is Pattern.STEADY  # pending wins over a ply to place
    lights = {frame[1], frame[2], frame[3], frame[4]}
    assert len(lights) == 4
    assert any(COMPUTER_WORDS in line for line in legend())
    assert any("the computer plays" in line for line in legend(single_colour=True))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    st.sampled_from(["cascade", "cascades", "kaskade"]),
    st.integers(0, 40),
    st.sampled_from(["beginner", "casual", "club"]),
)
def test_the_computer_s_lit_ply_is_accepted_when_placed_in_any_position(game, plies, level):
    """Whatever the position and level, placing the lit cells as a player reads them plays the computer's ply."""
    rules = make_rules(game, {"cascade": "diamond:3", "cascades": "trapezoid:3,3", "kaskade": "grid:3x3"}[game])
    moves = random_moves(rules.start(), seed=plies, max_plies=plies)
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "s.sqlite3") as store:
        game_id = store.new_game(rules.game, rules.spec, rules.headers())
        live = LiveGame(rules.start(), store, game_id, moves=moves)
        position = live.position
        if position.is_over:
            return
        live.on_reading(position.symbols())
        live.play_against(Advice(Computer(Opponent(level), position.to_move, budget_s=5.0, start=at_once)))
        if live.position is not position:  # it passed, and the live game played the pass for it
            assert live.moves[-1].ply.passes
            return
        marks = live.snapshot().suggested
        chosen = live.advice.computer_ply(position)
        move = position.play(placed_ply(position, live))
        assert marks and chosen is not None and move.ply.cells == chosen.cells
        for board, _ in move_steps(move, 0):
            live.on_reading(board)
        assert live.moves[-1].ply.cells == chosen.cells and len(live.moves) == len(moves) + 1


def test_bad_opponent_options_are_one_line_and_status_2(capsys):
    for argv in (
        ["play", "--engine-plays", "black"],
        ["play", "--opponent", "engine:master"],
        ["play", "--opponent", "human"],
        ["run", "--camera", "table:", "--engine-plays", "purple"],
        ["run", "--camera", "table:", "--engine-plays", "white"],
        ["demo", "--engine-plays", "white"],
        *(
            [command, *base, "--opponent", "engine", "--engine-seconds", bad]
            for command, base in (("play", []), ("run", ["--camera", "table:"]), ("demo", []))
            for bad in ("0", "-1", "nan", "inf", "1e999", "soon", "")
        ),
        ["play", "--engine-seconds", "2"],
        ["demo", "--engine-seconds", "0.5"],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "Traceback" not in err, err


def test_engine_seconds_without_an_opponent_is_refused_before_anything_starts(tmp_path, capsys):
    store = tmp_path / "games.sqlite3"
    argv = ["run", "--camera", "table:", "--store", str(store), "--port", "0", "--engine-seconds", "3"]
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "cascade run: --engine-seconds 3 needs an opponent: add --opponent engine (or engine:LEVEL)\n"
    )
    assert not store.exists()


def test_engine_seconds_is_the_computer_s_time_and_the_hints_time():
    rules = make_rules("cascade", "diamond:3")
    advice = advice_for(Opponent(), None, rules, 2.5)
    assert advice.computer is not None and advice.computer.budget_s == 2.5 and advice.adviser.budget_s == 2.5
    default = advice_for(Opponent(), None, rules)
    assert default.computer is not None and default.computer.budget_s == 1.0 and default.adviser.budget_s == 1.0
    assert advice_for(None, None, rules).adviser.budget_s == 1.0


def test_play_gives_the_computer_and_the_hints_the_engine_seconds(monkeypatch, capsys, tmp_path):
    import io

    import engine

    budgets: list[tuple[str, float]] = []
    analyse, hint = engine.analyse, engine.hint

    def timed_analyse(position, level, budget_s, seed=0):
        budgets.append(("analyse", budget_s))
        return analyse(position, level, budget_s, seed)

    def timed_hint(position, budget_s):
        budgets.append(("hint", budget_s))
        return hint(position, budget_s)

    monkeypatch.setattr(engine, "analyse", timed_analyse)
    monkeypatch.setattr(engine, "hint", timed_hint)
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    argv = ["play", "--size", "3", "--opponent", "engine:beginner", "--engine-plays", "white"]
    assert main([*argv, "--engine-seconds", "0.25", "-o", str(tmp_path / "g.rec")]) == 0
    assert budgets == [("analyse", 0.25), ("hint", 0.25)]


def test_demo_gives_the_computer_the_engine_seconds(monkeypatch):
    import companion.demo_game

    given: dict = {}

    def refuse(folder, **options):
        given.update(options)
        raise SetupError("stop here")

    monkeypatch.setattr(companion.demo_game, "start_demo", refuse)
    assert main(["demo", "--opponent", "engine", "--engine-seconds", "0.75"]) == 2
    assert given["engine_seconds"] == 0.75
    assert main(["demo"]) == 2
    assert given["engine_seconds"] is None


def test_play_against_the_computer_in_the_terminal(monkeypatch, capsys, tmp_path):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("o b4\nhint\nundo\nquit\n"))
    record = tmp_path / "g.rec"
    assert main(["play", "--size", "3", "--opponent", "engine", "-o", str(record)]) == 0
    out = capsys.readouterr().out
    assert "the computer plays x" in out and "hint: " in out
    assert '[Black "Engine (club)"]' in record.read_text(encoding="utf-8")


def test_run_gives_the_computer_its_side_and_its_name_in_the_record(tmp_path):
    from companion.cli import build_parser
    from companion.running import start_run

    store = str(tmp_path / "games.sqlite3")
    argv = ["run", "--camera", "table:", "--store", store, "--port", "0", "--opponent", "engine:beginner"]
    session = start_run(build_parser().parse_args([*argv, "--engine-plays", "white", "--engine-seconds", "2.5"]))
    try:
        computer = session.live.advice.computer
        assert computer is not None and computer.side == 0 and computer.opponent == Opponent("beginner")
        assert computer.budget_s == 2.5 and session.live.advice.adviser.budget_s == 2.5
        headers = session.store.games()[-1].headers
    finally:
        session.close()
    assert dict(headers).get("White") == "Engine (beginner)"
