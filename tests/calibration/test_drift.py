"""Light that drifts from cold daylight to a warm lamp during a game: the colour model follows it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from calibration.drift import DriftConfig, LightFollower
from calibration.printed import printed_board_renderer
from calibration.ready import stones_in_play
from referee.geometry import Geometry, parse_geometry
from vision.colour_model import ColourModel, fit_colour_model
from vision.locate import MarkerLocator
from vision.pipeline import BoardReader, FrameReading
from vision.synth import TYPICAL, Renderer
from vision.synth.effects import LightField

COLD_DAYLIGHT = np.array([1.10, 1.00, 0.88])
WARM_LAMP = np.array([0.72, 0.94, 1.12])
PLIES = 40
STILL_FRAMES = 3


def drifting_light(t: float, end_gain: float) -> LightField:
    """The light at share ``t`` of the game: cold daylight at full gain to a warm lamp at ``end_gain``, from a side."""
    cast = COLD_DAYLIGHT * (1.0 - t) + WARM_LAMP * t
    return LightField(
        gain=1.0 + (end_gain - 1.0) * t,
        gradient=0.25 * t,
        gradient_angle=0.7,
        cast=(float(cast[0]), float(cast[1]), float(cast[2])),
    )


def calibrate(geometry: Geometry, renderer: Renderer) -> ColourModel:
    """Calibrate in the game's first light: the empty board and known layouts of every colour in play."""
    n = len(geometry.cells)
    light = drifting_light(0.0, 1.0)
    cycle = (*stones_in_play(geometry), ".")
    known = []
    for shift in range(len(cycle)):
        layout = tuple(cycle[(i + shift) % len(cycle)] for i in range(n))
        known.append((renderer.render(layout, seed=2 + shift, light=light).image, layout))
    empty = renderer.render("." * n, seed=1, light=light).image
    return fit_colour_model(geometry, MarkerLocator.default(geometry), empty, known)


@dataclass
class Game:
    """What reading the game gave: every stable reading that was wrong, and how many stable readings there were."""

    wrong: list[str]
    stable: int


def play(spec: str, end_gain: float, follow: bool, seed: int = 5) -> Game:
    """A game of random stones, a hand placing each, the light drifting from start to end; read frame by frame.

    A stable reading is the symbols of the third still, unoccluded frame in a
    row that all read the same.
    """
    geometry = parse_geometry(spec)
    renderer = printed_board_renderer(geometry, seed, TYPICAL.with_(glare_probability=0.0))
    model = calibrate(geometry, renderer)
    reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
    follower = LightFollower(reader, model, DriftConfig()) if follow else None
    rng = np.random.default_rng(seed)
    board = ["."] * len(geometry.cells)
    game = Game([], 0)
    frame_seed = 100
    for ply in range(PLIES):
        light = drifting_light((ply + 1) / PLIES, end_gain)
        cell = int(rng.choice([i for i, s in enumerate(board) if s == "."]))
        hand = renderer.sample_hand(rng, over_board=True, reach_board=geometry.centres[cell])
        frames = [renderer.render(tuple(board), seed=frame_seed, light=light, hand=hand)]
        board[cell] = str(rng.choice(stones_in_play(geometry)))
        frames += [renderer.render(tuple(board), seed=frame_seed + k, light=light) for k in range(1, 4)]
        frame_seed += 4
        run: list[FrameReading] = []
        for frame in frames:
            reading = follower.read(frame.image) if follower else reader.read(frame.image)
            run = [] if reading.occluded else [*run, reading]
            if len(run) >= STILL_FRAMES and len({r.symbols for r in run[-STILL_FRAMES:]}) == 1:
                game.stable += 1
                game.wrong += [
                    f"ply {ply}: {geometry.cells[i].name} read {s}, is {board[i]}"
                    for i, s in enumerate(reading.symbols)
                    if s != board[i] and not frame.hand_visible
                ]
    return game


@pytest.mark.parametrize("end_gain", [0.5, 2.0])
@pytest.mark.parametrize("spec", ["hex-diamond:8", "diamond:8"])
def test_no_wrong_stable_reading_while_the_light_drifts(spec: str, end_gain: float) -> None:
    game = play(spec, end_gain, follow=True)
    assert game.stable >= PLIES
    assert game.wrong == []


def test_without_following_the_double_light_blinds_the_reader() -> None:
    game = play("hex-diamond:8", 2.0, follow=False)
    assert len(game.wrong) > 10


def test_nothing_is_learned_from_a_hand_or_before_cells_are_stable() -> None:
    geometry = parse_geometry("diamond:8")
    renderer = printed_board_renderer(geometry, 3, TYPICAL.with_(glare_probability=0.0))
    model = calibrate(geometry, renderer)
    reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
    follower = LightFollower(reader, model)
    light = drifting_light(0.0, 1.0)
    board = "." * len(geometry.cells)
    for k in range(2):
        follower.read(renderer.render(board, seed=10 + k, light=light).image)
    assert follower.learned == 0, "two frames are not yet stable"
    rng = np.random.default_rng(1)
    hand = renderer.sample_hand(rng, over_board=True, reach_board=geometry.centres[20])
    reading = follower.read(renderer.render(board, seed=12, light=light, hand=hand).image)
    assert reading.occluded or reading.change > DriftConfig().still_lab
    assert follower.learned == 0
    for k in range(3):
        follower.read(renderer.render(board, seed=13 + k, light=light).image)
    assert follower.learned > 0
    assert follower.model is not model and reader.classifier is not None
