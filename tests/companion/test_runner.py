"""The camera loop with stand-in reader and stabiliser: what reaches the live game, buttons, the buzzer."""

from __future__ import annotations

import numpy as np

from companion.cameras import resume_step, table_script
from companion.live import LiveGame
from companion.runner import CameraLoop, reading_tokens
from companion.store import Store
from referee.game import make_rules
from vision.pipeline import FrameReading


def reading(symbols, occluded=False, counts=None):
    n = len(symbols)
    return FrameReading(tuple(symbols), (1.0,) * n, counts, occluded, True, 0.0)


class ScriptedReader:
    """Returns the readings it is given, one per frame."""

    def __init__(self, geometry, readings):
        self.geometry = geometry
        self.location = None
        self._readings = iter(readings)

    def read(self, image):
        return next(self._readings)


class PassOn:
    """A stabiliser that passes every unoccluded reading on."""

    def update(self, got):
        return None if got.occluded else got


class Buttons:
    def __init__(self, presses):
        self.presses = list(presses)
        self.buzzes = 0

    def drain(self):
        out, self.presses = self.presses, []
        return out

    def buzz(self, wait=False):
        self.buzzes += 1


class Press:
    def __init__(self, name):
        self.name = name


def test_reading_tokens_add_ball_counts():
    assert reading_tokens(reading("o.x", counts=(2, 0, 1))) == ("o2", ".", "x1")
    assert reading_tokens(reading("o.x")) == ("o", ".", "x")


def test_the_loop_feeds_readings_presses_and_buzzes_once_per_error(tmp_path):
    start = make_rules("cascade", "diamond:3").start()
    geometry = start.geometry
    empty = start.symbols()
    dropped = start.play("o c1").position.symbols()
    two = list(dropped)
    two[geometry.index("c5")] = "x"
    frames = [reading(empty), reading(empty, occluded=True), reading(two), reading(two), reading(dropped)]
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        buttons = Buttons([])
        loop = CameraLoop(live, ScriptedReader(geometry, frames), PassOn(), buttons)
        image = np.zeros((8, 8, 3), np.uint8)
        for _ in frames:
            loop.step(image)
        assert [str(m.ply) for m in live.moves] == ["o c1"]
        assert buttons.buzzes == 1
        assert loop.stats.occluded == 1 and loop.stats.frames == 5
        buttons.presses.append(Press("UNDO"))
        loop.reader = ScriptedReader(geometry, [reading(dropped)])
        loop.step(image)
        assert live.moves == ()
        assert live.camera_jpeg(-1, 0.0) is not None


def test_the_table_resumes_where_the_board_was():
    start = make_rules("cascade", "diamond:4").start()
    script = table_script(start, seed=3)
    assert resume_step(script, start) == 0
    position = script.moves[4].position
    step = resume_step(script, position)
    assert script.steps[step].board == position.symbols()
    assert all(s.move <= 5 for s in script.steps[: step + 1])


class FailingReader(ScriptedReader):
    """Raises for every reading given as None, as a reader does on a corrupt frame."""

    def read(self, image):
        got = next(self._readings)
        if got is None:
            raise ValueError("the JPEG ended early")
        return got


def test_frames_that_cannot_be_read_are_skipped_and_told_once(tmp_path):
    start = make_rules("cascade", "diamond:3").start()
    dropped = start.play("o c1").position.symbols()
    frames = [reading(start.symbols()), None, None, reading(dropped), None, reading(dropped)]
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        notices = []
        live.on_notice = notices.append
        loop = CameraLoop(live, FailingReader(start.geometry, frames), PassOn())
        image = np.zeros((8, 8, 3), np.uint8)
        for _ in frames:
            loop.step(image)
        assert [str(m.ply) for m in live.moves] == ["o c1"]
        assert loop.stats.unreadable == 3 and loop.stats.frames == 6
        assert len(notices) == 2 and all("the JPEG ended early" in n for n in notices)
