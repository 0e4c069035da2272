"""Games against the computer through the real live game, vision included: its plies lit, placed, checked, logged."""

from __future__ import annotations

import pytest

from companion.advice import Advice
from companion.computer import Computer, Opponent
from companion.demo_game import open_steadier
from companion.live import LiveGame
from companion.runner import CameraLoop
from companion.scenario import Script, Step
from companion.store import Store, export_record
from companion.table import ScriptedTable
from companion.versus import random_player, versus_steps
from referee import read_record, replay
from referee.game import make_rules
from tests.companion.test_vision_games import GAMES, ShownLeds
from vision.pipeline import BoardReader


@pytest.mark.parametrize(("game", "board"), GAMES)
def test_a_filmed_game_against_the_computer_places_checks_and_logs_its_plies(tmp_path, game, board):
    rules = make_rules(game, board)
    table = ScriptedTable(rules.geometry, seed=7, size=(640, 360))
    profile = table.calibrate()
    leds = ShownLeds()
    computer = Computer(Opponent("club"), side=1, budget_s=30.0, seed=5)  # its own thread, as at the board
    with Store(tmp_path / "games.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds)
        live.play_against(Advice(computer))
        reader = BoardReader(rules.geometry, profile.locator, profile.colour_model)
        loop = CameraLoop(live, reader, open_steadier(len(rules.geometry)))
        lit: list[tuple[str, ...]] = []
        alerts: list[str] = []
        for turn in versus_steps(live, random_player(3), mistake_at=1):
            before = live.position
            if turn.by_computer:
                lit.append(tuple(live.snapshot().leds[rules.geometry.index(m.cell)] for m in live.snapshot().suggested))
                assert live.snapshot().computer.startswith("The computer plays ")
            script = Script(before, (Step(before.symbols(), hand=False), *turn.steps), (), None)
            for frame in table.frames(script):
                loop.step(frame.image, (frame.button,) if frame.button else ())
                alerts += [a for a in live.snapshot().alerts if a not in alerts]
            assert live.position is not before, f"{turn} was not accepted: {live.snapshot().message}"
        assert live.position.is_over
        record = export_record(store, live.game_id)
        plies = [m.ply for m in live.moves]
    replayed = replay(read_record(record))
    assert [m.ply.cells for m in replayed.moves] == [p.cells for p in plies]
    assert lit and all(light.endswith("!!") and light[:1] in "ox=" for lights in lit for light in lights)
    assert any(a.startswith("The computer plays ") and "take the stone" in a for a in alerts), alerts
    assert any(f.values() for f in leds.frames)


def test_the_demo_plays_a_scripted_player_against_the_computer_filmed(tmp_path):
    from companion.demo_game import start_demo

    session = start_demo(
        tmp_path,
        game="kaskade",
        board="grid:3x3",
        fps=None,
        leds_spec="none:",
        games=1,
        camera=True,
        opponent=Opponent("casual"),
        engine_plays="white",
    )
    try:
        assert session.wait(600) == "the camera stopped"
        live = session.live
        assert session.worker_error is None
        assert live.position.is_over
        assert live.advice.computer is not None and live.advice.computer.side == 0
        record = export_record(session.store, live.game_id)
    finally:
        session.close()
    assert '[White "Engine (casual)"]' in record
