"""The live game fed scripted readings (no camera): whole games, mistakes, undo, corrections, resume."""

from __future__ import annotations

import pytest

from companion.assess import ply_text
from companion.errors import LiveGameError, StoreWriteError
from companion.live import LiveGame
from companion.scenario import Script, script_game
from companion.store import Store, export_record
from referee import read_record, replay
from referee.game import make_rules

GAMES = [("cascade", "diamond:4"), ("cascades", "trapezoid:4,4"), ("kaskade", "grid:3x3")]


class RecordingLeds:
    """Keeps every frame shown, and what the store held at that moment."""

    def __init__(self, store: Store | None = None) -> None:
        self.frames: list[object] = []
        self.store = store
        self.plies_at_show: list[int] = []

    def show(self, frame) -> None:
        self.frames.append(frame)
        if self.store is not None:
            game = self.store.open_game() or self.store.games()[-1]
            self.plies_at_show.append(game.ply_count)


def play_script(live: LiveGame, script: Script, upto: int | None = None) -> list:
    snaps = []
    for step in script.steps[:upto]:
        if step.hand:
            live.on_reading(step.board, occluded=True)
        snaps.append(live.on_reading(step.board))
        if step.button:
            live.on_button(step.button)
    return snaps


@pytest.mark.parametrize(("game", "board"), GAMES)
def test_a_whole_scripted_game_ends_with_the_right_record(tmp_path, game, board):
    script = script_game(make_rules(game, board).start(), seed=3, mistake_at=2)
    with Store(tmp_path / "games.sqlite3") as store:
        live = LiveGame.start_or_resume(script.start, store)
        snaps = play_script(live, script)
        assert live.position.symbols() == script.final.symbols()
        assert live.position.result == script.final.result != "*"
        assert snaps[-1].result == script.final.result
        replayed = replay(read_record(export_record(store, live.game_id)))
        assert replayed.position.symbols() == script.final.symbols()
        assert replayed.result == script.final.result
        assert store.game(live.game_id).result == script.final.result
        mistake = snaps[script.mistake_step]
        assert mistake.alerts and mistake.errors
        assert not snaps[script.mistake_step + 1].errors


def test_the_cascade_mistake_is_named_in_plain_words(tmp_path):
    script = script_game(make_rules("cascade", "diamond:4").start(), seed=3, mistake_at=2)
    with Store(tmp_path / "s.sqlite3") as store:
        snaps = play_script(LiveGame.start_or_resume(script.start, store), script)
    before, mistake = snaps[script.mistake_step - 1], snaps[script.mistake_step]
    assert before.message.startswith("Put a ") and " stone on " in before.message
    assert mistake.alerts[0].startswith("The stone on ") and "should be" in mistake.alerts[0]


def test_a_covered_board_says_what_may_cover_it_and_nothing_moves(tmp_path):
    """The reader calls a frame covered for a hand over the cells or anything lying across the board's rim
    (a sleeve, or a cup pushed against it): the page names both, so a player knows what to clear."""
    script = script_game(make_rules("cascade", "diamond:4").start(), seed=3, mistake_at=2)
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(script.start, store)
        covered = live.on_reading(script.steps[0].board, occluded=True)
        assert "Hands over the board" in covered.message and "rim" in covered.message
        assert live.moves == ()


def test_every_ply_is_committed_before_the_leds_change(tmp_path):
    script = script_game(make_rules("cascade", "diamond:3").start(), seed=5)
    with Store(tmp_path / "s.sqlite3") as store:
        leds = RecordingLeds(store)
        live = LiveGame.start_or_resume(script.start, store, leds=leds)
        play_script(live, script)
        # each LED frame that shows a last move was shown with that move already stored
        for frame_index, count in enumerate(leds.plies_at_show):
            assert count >= _moves_lit(leds.frames[frame_index])
        assert leds.plies_at_show[-1] == len(script.moves)


def _moves_lit(frame) -> int:
    return 1 if any(str(light).startswith("+") for light in frame.values()) else 0


def test_two_drops_at_once_are_an_error(tmp_path):
    start = make_rules("cascade", "diamond:4").start()
    board = list(start.symbols())
    board[0], board[-1] = "o", "x"
    with Store(tmp_path / "s.sqlite3") as store:
        snap = LiveGame.start_or_resume(start, store).on_reading(board)
    assert snap.alerts and "Two stones were dropped" in snap.alerts[0] and "take one back" in snap.alerts[0]
    assert snap.moves == ()


def test_each_error_the_board_shows_is_kept_once_in_the_journal(tmp_path):
    """A mistake stays on the board for many frames: it is one alert, told as the players saw it and after how
    many plies; put right and made again, it is another."""
    start = make_rules("cascade", "diamond:4").start()
    clear = list(start.symbols())
    two = list(clear)
    two[0], two[-1] = "o", "x"
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        seen = [live.on_reading(board) for board in (two, two, two, clear, two)]
        alerts = [e for e in store.journal(live.game_id) if e.kind == "alert"]
    assert [snap.alerts[0] if snap.alerts else "" for snap in seen[:3]] == [alerts[0].body["message"]] * 3
    assert len(alerts) == 2 and alerts[0].body == alerts[1].body
    assert "Two stones were dropped" in alerts[0].body["message"] and alerts[0].body["plies"] == 0


def test_an_earlier_position_offers_undo_and_confirm_takes_it_back(tmp_path):
    script = script_game(make_rules("cascade", "diamond:4").start(), seed=3, max_plies=3)
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(script.start, store)
        play_script(live, script)
        assert len(live.moves) == 3
        snap = live.on_reading(live.positions[1].symbols())
        assert snap.undo_offer == 2 and "confirm" in snap.message.lower()
        live.perform("confirm", {})
        assert len(live.moves) == 1
        assert len(store.plies(live.game_id)) == 1
        assert live.snapshot().errors == () and live.snapshot().undo_offer == 0


def test_a_misread_cell_can_be_corrected(tmp_path):
    start = make_rules("cascade", "diamond:4").start()
    d1 = start.geometry.index("d1")
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        after = start.play("o d1").position
        live.on_reading(after.symbols())
        misread = list(after.symbols())
        misread[d1] = "x"  # the camera now sees black where white lies
        snap = live.on_reading(misread)
        assert snap.alerts == ("The stone on d1 should be white",)
        live.perform("correct", {"cell": "d1", "symbol": "o"})
        snap = live.snapshot()
        assert snap.errors == () and snap.observed[d1] == "o"
        black = after.play("x a4").position
        misread_black = list(black.symbols())
        misread_black[d1] = "x"
        live.on_reading(misread_black)
        assert [str(m.ply) for m in live.moves] == ["o d1", "x a4"]
        with pytest.raises(LiveGameError, match="which cell"):
            live.perform("correct", {})


def test_a_restarted_companion_resumes_the_open_game(tmp_path):
    path = tmp_path / "s.sqlite3"
    script = script_game(make_rules("kaskade", "grid:3x3").start(), seed=3)
    half = len(script.steps) // 2
    with Store(path) as store:
        live = LiveGame.start_or_resume(script.start, store)
        play_script(live, script, half)
        kept = [str(m.ply) for m in live.moves]
        game_id = live.game_id
    with Store(path) as store:
        again = LiveGame.start_or_resume(script.start, store)
        assert again.game_id == game_id and [str(m.ply) for m in again.moves] == kept
        for step in script.steps[half:]:
            again.on_reading(step.board)
        assert again.position.symbols() == script.final.symbols()


def test_resign_and_new_game(tmp_path):
    start = make_rules("cascade", "diamond:3").start()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        first = live.game_id
        assert "resigns" in live.perform("resign", {})
        assert live.snapshot().result == "0-1"
        live.perform("new_game", {})
        assert live.game_id != first and live.snapshot().result is None
        with pytest.raises(LiveGameError):
            live.perform("fly", {})


def test_a_cascades_turn_ends_with_the_opponents_next_stone(tmp_path):
    start = make_rules("cascades", "trapezoid:4,4").start()
    first = start.play(next(iter(start.legal_plies())))
    black = next(p for p in first.position.legal_plies() if len(p.cells) == 1)
    after_black = first.position.play(black).position
    white = next(p for p in after_black.legal_plies() if len(p.cells) == 1)
    after_white = after_black.play(white).position
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        live.on_reading(first.position.symbols())
        snap = live.on_reading(after_black.symbols())
        assert "second stone" in snap.message and len(live.moves) == 1
        live.on_reading(after_white.symbols())
        assert [str(m.ply) for m in live.moves][:2] == [str(first.ply), str(black)]
        assert [p.ply for p in store.plies(live.game_id)][:2] == [str(first.ply), str(black)]


def test_an_undo_waits_for_the_stones_to_be_taken_off(tmp_path):
    start = make_rules("cascade", "diamond:3").start()
    dropped = start.play("o c1").position.symbols()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        live.on_reading(dropped)
        live.perform("undo", {})
        snap = live.on_reading(dropped)
        assert live.moves == () and snap.alerts == ("Undone: take the stone off c1",)
        live.on_reading(start.symbols())
        assert live.snapshot().alerts == ()
        live.on_reading(dropped)
        assert [str(m.ply) for m in live.moves] == ["o c1"]


def test_a_new_game_asks_for_the_board_to_be_cleared(tmp_path):
    start = make_rules("cascade", "diamond:3").start()
    dropped = start.play("o c1").position.symbols()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        live.on_reading(dropped)
        live.perform("new_game", {})
        assert live.snapshot().alerts == ("New game: take the stone off c1",)
        assert store.games()[0].result == "*"


class FlakyStore(Store):
    """A store whose writes fail (as on a full disk) while ``failing`` is set; nothing is written then."""

    failing = False

    def _refuse(self) -> None:
        if self.failing:
            raise StoreWriteError("cannot write the game store (database or disk is full)")

    def new_game(self, *args, **kwargs):
        self._refuse()
        return super().new_game(*args, **kwargs)

    def add_ply(self, *args, **kwargs):
        self._refuse()
        return super().add_ply(*args, **kwargs)

    def take_back(self, *args, **kwargs):
        self._refuse()
        return super().take_back(*args, **kwargs)

    def end_game(self, *args, **kwargs):
        self._refuse()
        return super().end_game(*args, **kwargs)


def stored(store: Store, game_id) -> list[str]:
    return [p.ply for p in store.plies(game_id)]


def texts(moves) -> list[str]:
    return [ply_text(m) for m in moves]


def test_a_store_that_cannot_be_written_does_not_stop_the_game_and_gets_every_ply_later(tmp_path):
    script = script_game(make_rules("cascade", "diamond:4").start(), seed=3)
    with FlakyStore(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(script.start, store)
        notices, printed = [], []
        live.on_notice = notices.append
        live.on_ply = lambda number, text: printed.append((number, text))
        third = next(i for i, s in enumerate(script.steps) if s.move == 4)
        play_script(live, script, third)
        committed = stored(store, live.game_id)
        assert len(committed) == 3
        store.failing = True
        sixth = next(i for i, s in enumerate(script.steps) if s.move == 7)
        for step in script.steps[third:sixth]:
            snap = live.on_reading(step.board)
        assert len(live.moves) == 6, "the game stopped refereeing when the store failed"
        assert stored(store, live.game_id) == committed, "what was committed before must stay as it was"
        assert snap.alerts[0].startswith("The game store cannot be written (cannot write the game store")
        assert "3 plies are kept in memory only" in snap.alerts[0] and "Free some disk space" in snap.alerts[0]
        assert len(notices) == 1 and "1 ply is kept in memory only" in notices[0], "one notice, not one per ply"
        assert [n for _, n in printed] == committed, "a ply was printed as saved before it was"
        assert live.unsaved_plies() == texts(live.moves[3:])
        store.failing = False
        live.backlog._tried_s = 0.0  # the next reading tries the store again at once
        live.on_reading(script.steps[sixth - 1].board)
        assert stored(store, live.game_id) == texts(live.moves)
        assert [n for _, n in printed] == texts(live.moves)
        assert len(notices) == 2
        assert notices[-1] == "The game store can be written again: every ply is saved"
        assert not any("cannot be written" in a for a in live.snapshot().alerts)
        play_script(live, Script(script.start, script.steps[sixth:], script.moves, None))
        assert stored(store, live.game_id) == texts(script.moves)
        assert store.game(live.game_id).result == script.final.result


def test_undo_and_a_new_game_while_the_store_fails_reach_it_in_order(tmp_path):
    start = make_rules("cascade", "diamond:3").start()
    one = start.play("o c1").position
    two = one.play("x c5").position
    with FlakyStore(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        first = live.game_id
        live.on_reading(one.symbols())
        store.failing = True
        live.on_reading(two.symbols())
        live.perform("undo", {})
        live.on_reading(one.symbols())
        live.perform("new_game", {})
        assert live.game_id is None
        live.on_reading(start.symbols())
        live.on_reading(start.play("x c1").position.symbols())
        assert [str(m.ply) for m in live.moves] == ["x c1"]
        assert len(store.games()) == 1 and stored(store, first) == ["o c1"]
        store.failing = False
        live.close()
        assert live.unsaved_plies() == []
        games = store.games()
        assert [g.id for g in games] == [first, live.game_id]
        assert stored(store, first) == ["o c1"] and games[0].result == "*"
        assert stored(store, live.game_id) == ["x c1"]


def test_plies_the_store_never_took_are_named_at_the_end(tmp_path):
    start = make_rules("cascade", "diamond:3").start()
    with FlakyStore(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        store.failing = True
        live.on_reading(start.play("o c1").position.symbols())
        live.close()
        assert live.unsaved_plies() == ["o c1"]
        assert stored(store, live.game_id) == []


def test_the_led_controller_state_reaches_the_page(tmp_path):
    start = make_rules("cascade", "diamond:3").start()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        viewer = live.broadcaster.subscribe()
        live.set_link("LEDs disconnected since 20:31, retrying")
        assert live.snapshot().link == "LEDs disconnected since 20:31, retrying"
        assert live.snapshot().to_json()["link"] == "LEDs disconnected since 20:31, retrying"
        live.on_reading(start.play("o c1").position.symbols())
        assert live.snapshot().link == "LEDs disconnected since 20:31, retrying" and len(live.moves) == 1
        live.set_link("")
        assert live.snapshot().link == ""
        live.broadcaster.unsubscribe(viewer)


def test_a_game_of_other_rules_says_which_open_game_it_left_unfinished(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        first = LiveGame.start_or_resume(make_rules("cascade", "diamond:3").start(), store)
        assert first.left_unfinished is None
        again = LiveGame.start_or_resume(make_rules("cascade", "diamond:3").start(), store)
        assert again.game_id == first.game_id and again.left_unfinished is None
        other = LiveGame.start_or_resume(make_rules("kaskade", "grid:3x3").start(), store)
        assert other.left_unfinished is not None and other.left_unfinished.id == first.game_id
        assert store.game(first.game_id).result == "*"
