"""Scripted scenes for the calibration's checks: emulated LEDs under the printed board, drifting light, a game.

Product code shared by the tests and ``cascade bench calibration``:

- :func:`emulated_leds`: ``light`` and ``grab`` callables for LEDs wired by
  any map (given as the LED indices under each cell) under the printed
  board, seen by the synthetic camera in a steady room light;
- :func:`drifting_light` and :func:`play_drifting_game`: a game whose light
  drifts from cold daylight to a warm lamp, with a hand placing each stone,
  read frame by frame, counting the wrong stable readings;
- :func:`read_game`: random stones put on a table one at a time, read with a
  profile; the misread cells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from calibration.drift import DriftConfig, LightFollower
from calibration.ledglow import add_glow
from calibration.printed import printed_board_renderer
from calibration.profile import Profile
from calibration.ready import known_layouts, stones_in_play
from referee.geometry import Geometry, parse_geometry
from vision.learn import CalibrationPhoto, fit_colour_model
from vision.locate import MarkerLocator, locate
from vision.model import BoardModel
from vision.pipeline import BoardReader, FrameReading
from vision.synth import TYPICAL, Renderer
from vision.synth.effects import LightField
from vision.synth.render import sample_light

COLD_DAYLIGHT = (1.10, 1.00, 0.88)
"""Per-channel (BGR) cast of cold daylight."""
WARM_LAMP = (0.72, 0.94, 1.12)
"""Per-channel (BGR) cast of a warm (tungsten) lamp."""
STILL_FRAMES = 3
"""Still, unoccluded frames that read the same before a reading counts as stable."""


@dataclass
class _Lit:
    leds: frozenset[int] = frozenset()
    frame: int = 0
    shown: list[frozenset[int]] = field(default_factory=list)


def emulated_leds(
    geometry: Geometry, cell_leds: Sequence[Sequence[int]], led_count: int, seed: int
) -> tuple[Callable[[frozenset[int]], None], Callable[[], np.ndarray], list[frozenset[int]]]:
    """``light``, ``grab`` and the list of LED sets lit, for LEDs wired as ``cell_leds`` (per cell, canonical
    order) under the printed board of ``geometry``; a synthetic camera drawn from ``seed`` watches."""
    renderer = printed_board_renderer(geometry, seed, TYPICAL)
    light = sample_light(np.random.default_rng(seed), TYPICAL.with_(glare_probability=0.0), glare=False)
    state = _Lit()

    def light_leds(leds: frozenset[int]) -> None:
        bad = sorted(led for led in leds if not 0 <= led < led_count)
        if bad:
            raise ValueError(f"LED {bad[0]} does not exist: the device has {led_count} LEDs")
        state.leds = frozenset(leds)
        state.shown.append(state.leds)

    def grab() -> np.ndarray:
        state.frame += 1
        frame = renderer.render("." * len(geometry.cells), seed=state.frame, light=light)
        cells = [cell for cell, leds in enumerate(cell_leds) if set(leds) & state.leds]
        return add_glow(frame.image, geometry, frame.pose, cells)

    return light_leds, grab, state.shown


def drifting_light(t: float, end_gain: float) -> LightField:
    """The light at share ``t`` of a game: cold daylight at full gain to a warm lamp at ``end_gain``, from a side."""
    cast = np.array(COLD_DAYLIGHT) * (1.0 - t) + np.array(WARM_LAMP) * t
    return LightField(
        gain=1.0 + (end_gain - 1.0) * t,
        gradient=0.25 * t,
        gradient_angle=0.7,
        cast=(float(cast[0]), float(cast[1]), float(cast[2])),
    )


def calibrate_in(geometry: Geometry, renderer: Renderer, light: LightField) -> BoardModel:
    """A board model calibrated in ``light``: the empty board and known layouts of every colour in play, each
    photo located by its markers."""
    layouts = [tuple("." * len(geometry.cells)), *known_layouts(geometry)]
    locator = MarkerLocator.default(geometry)
    photos = []
    for k, layout in enumerate(layouts):
        image = renderer.render(layout, seed=1 + k, light=light).image
        photos.append(CalibrationPhoto(image, locate(image, geometry, locator).homography, tuple(layout)))
    return fit_colour_model(geometry, photos)


@dataclass
class DriftGame:
    """What reading a drifting game gave: the wrong stable readings (as text), how many stable readings there
    were, and how many cell looks the board model learned from."""

    wrong: list[str]
    stable: int
    learned: int


def play_drifting_game(spec: str, end_gain: float, follow: bool, plies: int = 40, seed: int = 5) -> DriftGame:
    """A game of random stones, a hand placing each, the light drifting over the game; read frame by frame.

    Calibrated in the first light. A stable reading is the symbols of the
    third still, unoccluded frame in a row that all read the same; a wrong
    one is any cell of it that differs from the board (frames showing a hand
    are never judged).
    """
    geometry = parse_geometry(spec)
    renderer = printed_board_renderer(geometry, seed, TYPICAL.with_(glare_probability=0.0))
    model = calibrate_in(geometry, renderer, drifting_light(0.0, end_gain))
    reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
    follower = LightFollower(reader, DriftConfig()) if follow else None
    rng = np.random.default_rng(seed)
    board = ["."] * len(geometry.cells)
    game = DriftGame([], 0, 0)
    frame_seed = 100
    for ply in range(plies):
        light = drifting_light((ply + 1) / plies, end_gain)
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
                if not frame.hand_visible:
                    game.wrong += [
                        f"ply {ply + 1}: {geometry.cells[i].name} read {s}, is {board[i]}"
                        for i, s in enumerate(reading.symbols)
                        if s != board[i]
                    ]
    game.learned = follower.learned if follower else 0
    return game


def read_game(profile: Profile, renderer: Renderer, light: LightField, plies: int, seed: int) -> list[str]:
    """Put random stones of the colours in play on the board one at a time; the misread cells of every frame."""
    geometry = profile.board
    rng = np.random.default_rng(seed)
    board = ["."] * len(geometry.cells)
    reader = BoardReader(geometry, profile.locator, profile.colour_model)
    wrong = []
    for ply in range(plies):
        empty = [i for i, s in enumerate(board) if s == "."]
        board[int(rng.choice(empty))] = str(rng.choice(stones_in_play(geometry)))
        reading = reader.read(renderer.render(tuple(board), seed=500 + ply, light=light).image)
        wrong += [f"ply {ply + 1}: {geometry.cells[i].name}" for i, s in enumerate(reading.symbols) if s != board[i]]
    return wrong
