"""Light that drifts from cold daylight to a warm lamp during a game: the colour model follows it."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.drift import DriftConfig, LightFollower
from calibration.printed import printed_board_renderer
from calibration.scenarios import calibrate_in, drifting_light, play_drifting_game
from referee.geometry import parse_geometry
from vision.locate import MarkerLocator
from vision.pipeline import BoardReader
from vision.synth import TYPICAL

PLIES = 40


@pytest.mark.parametrize("end_gain", [0.5, 2.0])
@pytest.mark.parametrize("spec", ["hex-diamond:8", "diamond:8"])
def test_no_wrong_stable_reading_while_the_light_drifts(spec: str, end_gain: float) -> None:
    game = play_drifting_game(spec, end_gain, follow=True, plies=PLIES)
    assert game.stable >= PLIES
    assert game.wrong == []
    assert game.learned > 0


def test_without_following_the_double_light_blinds_the_reader() -> None:
    game = play_drifting_game("hex-diamond:8", 2.0, follow=False, plies=PLIES)
    assert len(game.wrong) > 10


def test_nothing_is_learned_from_a_hand_or_before_cells_are_stable() -> None:
    geometry = parse_geometry("diamond:8")
    renderer = printed_board_renderer(geometry, 3, TYPICAL.with_(glare_probability=0.0))
    light = drifting_light(0.0, 1.0)
    model = calibrate_in(geometry, renderer, light)
    reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
    follower = LightFollower(reader, model)
    board = "." * len(geometry.cells)
    for k in range(2):
        follower.read(renderer.render(board, seed=10 + k, light=light).image)
    assert follower.learned == 0, "two frames are not yet stable"
    hand = renderer.sample_hand(np.random.default_rng(1), over_board=True, reach_board=geometry.centres[20])
    reading = follower.read(renderer.render(board, seed=12, light=light, hand=hand).image)
    assert reading.occluded or reading.change > DriftConfig().still_lab
    assert follower.learned == 0
    for k in range(3):
        follower.read(renderer.render(board, seed=13 + k, light=light).image)
    assert follower.learned > 0
    assert follower.model is not model
    assert follower.model.classes.keys() == model.classes.keys()
