"""Whole synthetic games through the real live game, vision included: camera loop, stabiliser, referee, store."""

from __future__ import annotations

import pytest

from companion.demo_game import open_steadier
from companion.live import LiveGame
from companion.runner import CameraLoop
from companion.scenario import script_game
from companion.store import Store, export_record
from companion.table import ScriptedTable
from referee import read_record, replay
from referee.game import make_rules
from vision.pipeline import BoardReader

GAMES = [("cascade", "diamond:4"), ("cascades", "trapezoid:4,4"), ("kaskade", "grid:3x3")]


class ShownLeds:
    def __init__(self) -> None:
        self.frames: list = []

    def show(self, frame) -> None:
        self.frames.append(frame)


@pytest.mark.parametrize(("game", "board"), GAMES)
def test_a_filmed_game_ends_with_the_right_record_and_result(tmp_path, game, board):
    rules = make_rules(game, board)
    table = ScriptedTable(rules.geometry, seed=7, size=(640, 360))
    profile = table.calibrate()
    script = script_game(rules.start(), seed=3, mistake_at=2)
    leds = ShownLeds()
    with Store(tmp_path / "games.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds)
        reader = BoardReader(rules.geometry, profile.locator, profile.colour_model)
        loop = CameraLoop(live, reader, open_steadier(len(rules.geometry)))
        alerts: list[tuple[str, ...]] = []
        live.broadcaster.subscribe()  # a viewer of the page, so snapshots are published to someone
        for frame in table.frames(script):
            loop.step(frame.image, (frame.button,) if frame.button else ())
            if live.snapshot().alerts and (not alerts or alerts[-1] != live.snapshot().alerts):
                alerts.append(live.snapshot().alerts)
        assert live.position.symbols() == script.final.symbols()
        assert live.position.result == script.final.result != "*"
        record = export_record(store, live.game_id)
    replayed = replay(read_record(record))
    assert replayed.position.symbols() == script.final.symbols()
    assert replayed.result == script.final.result
    assert alerts, "the scripted mistake was not caught"
    assert loop.stats.occluded > 0, "the hands over the board were never seen"
    assert any(len(frame) for frame in leds.frames)


def test_the_camera_view_has_the_cells_drawn_over_it(tmp_path):
    rules = make_rules("cascade", "diamond:4")
    table = ScriptedTable(rules.geometry, seed=7, size=(640, 360))
    profile = table.calibrate()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(rules.start(), store)
        loop = CameraLoop(live, BoardReader(rules.geometry, profile.locator, profile.colour_model), open_steadier(16))
        loop.step(table.render(rules.start().symbols()))
        got = live.camera_jpeg(-1, 0.0)
    assert got is not None and got[1][:2] == b"\xff\xd8"
