"""Light that drifts from cold daylight to a warm lamp during a game: the board model follows it."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.drift import DriftConfig, LightFollower
from calibration.printed import printed_board_renderer
from calibration.scenarios import calibrate_in, drifting_light, play_drifting_game
from referee.geometry import parse_geometry
from tests.vision.synthetic import SIZE
from vision.locate import MarkerLocator
from vision.model import like_groups
from vision.pipeline import BoardReader
from vision.synth import TYPICAL, Renderer, fit_scene, make_scene

PLIES = 40


BRIGHTER = 1.7
"""The lamp at the end of the game, against the daylight of calibration: bright enough to blow out the white
stones and the light cells in part, which no light field undoes."""


@pytest.mark.parametrize("spec", ["diamond:8", "hex-diamond:8"])
def test_no_wrong_stable_reading_while_the_light_drifts(spec: str) -> None:
    game = play_drifting_game(spec, BRIGHTER, follow=True, plies=PLIES)
    assert game.stable >= PLIES
    assert game.wrong == []
    assert game.learned > 0


def test_without_following_the_frames_own_look_of_each_piece_still_reads_the_game() -> None:
    """Before the reader settled each frame by its own look of each piece, this game was misread unless the
    model followed the light; the frame's own look now follows it within each frame."""
    game = play_drifting_game("diamond:8", BRIGHTER, follow=False, plies=PLIES)
    assert game.stable >= PLIES
    assert game.wrong == []


def test_nothing_is_learned_from_a_hand_or_before_cells_are_stable() -> None:
    geometry = parse_geometry("diamond:8")
    renderer = printed_board_renderer(geometry, 3, TYPICAL.with_(glare_probability=0.0))
    light = drifting_light(0.0, 1.0)
    model = calibrate_in(geometry, renderer, light)
    reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
    follower = LightFollower(reader)
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


def test_a_stable_empty_cell_moves_its_look_a_share_of_the_way_to_what_it_showed() -> None:
    geometry = parse_geometry("diamond:8")
    renderer = printed_board_renderer(geometry, 3, TYPICAL.with_(glare_probability=0.0))
    model = calibrate_in(geometry, renderer, drifting_light(0.0, 1.0))
    reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
    follower = LightFollower(reader, DriftConfig(rate=0.25, stable_frames=1))
    board = "." * len(geometry.cells)
    follower.read(renderer.render(board, seed=10, light=drifting_light(0.5, BRIGHTER)).image)
    seen = reader.last_features()
    assert seen is not None
    before, after = np.array(model.empty), np.array(follower.model.empty)
    nudged = ~np.isclose(after, before, atol=1e-9).all(axis=1)
    assert nudged.sum() == follower.learned >= 0.9 * len(geometry.cells)
    assert np.allclose(after[nudged], before[nudged] + 0.25 * (seen[nudged] - before[nudged]))
    assert follower.model.empty_spread == model.empty_spread
    assert follower.model.stones == model.stones, "no stone was seen, so no stone look moves"


def test_a_kaskade_balls_look_follows_on_the_colour_of_square_it_was_seen_on() -> None:
    """White balls seen only on one colour of square move white's look there (and white's look overall), not
    its look on the other colour."""
    renderer = Renderer(make_scene("grid:6x6", 3, TYPICAL.with_(glare_probability=0.0, hand_probability=0.0), SIZE))
    geometry = renderer.geometry
    model = fit_scene(renderer)
    assert model.ball_looks is not None
    reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
    follower = LightFollower(reader, DriftConfig(rate=0.25, stable_frames=1))
    squares = like_groups(geometry)
    symbols = tuple("o" if squares[i] == 0 and i % 3 == 0 else "." for i in range(len(geometry.cells)))
    counts = tuple(1 if s == "o" else 0 for s in symbols)
    reading = follower.read(renderer.render(symbols, counts, seed=5, random_hand=False).image)
    assert reading.symbols == symbols
    assert follower.learned > 0
    after = follower.model
    assert after.ball_looks is not None
    assert after.ball_looks[0]["o"].mean != model.ball_looks[0]["o"].mean
    assert after.stones["o"].mean != model.stones["o"].mean
    assert after.ball_looks[1]["o"] == model.ball_looks[1]["o"]
    assert after.ball_looks[0]["x"] == model.ball_looks[0]["x"]
