"""The ring of patches around the board, where an arm reaching in shows: learned only where it was seen free."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geometry import Layout, parse_geometry
from tests.vision.synthetic import SIZE
from vision.board_image import BRIGHTEST, DARKEST, LOG_FLOOR, tells_light
from vision.cells import light_terms
from vision.config import VisionConfig
from vision.cover import crossed_ring, free_patches, ring_cells, ring_points
from vision.learn import CalibrationPhoto, fit_colour_model
from vision.locate import MarkerLocator, locate
from vision.model import BoardModel
from vision.pipeline import ring_reach
from vision.synth import CLEAN, Renderer, make_scene


def test_the_rim_beside_a_calibration_stone_is_left_unknown() -> None:
    """A stone on an edge cell, seen from the side, leans over the rim: calibration photos of a game under way
    must not teach the rim the stone's colour. A patch a stone may reach in every photo stays unknown; one seen
    free in any photo is learned."""
    geometry = parse_geometry("diamond:4")
    config = VisionConfig()
    ring = ring_points(geometry, config.border_out, config.border_step)
    beside = ring_cells(ring, np.array(geometry.centres, dtype=np.float64), ring_reach(geometry, config))
    edge = sorted(set(np.flatnonzero(beside[: len(beside) // 3].any(axis=0)).tolist()))
    layout = tuple("o" if i in edge else ("x" if i % 5 == 0 else ".") for i in range(len(geometry.cells)))
    renderer = Renderer(make_scene(geometry, 3, CLEAN.with_(hand_probability=0.0, glare_probability=0.0), SIZE))
    photos = []
    for seed in (1, 2):
        image = renderer.render(layout, seed=seed, random_hand=False).image
        homography = locate(image, geometry, MarkerLocator.default(geometry)).homography
        photos.append(CalibrationPhoto(image, homography, layout))
    model = fit_colour_model(geometry, photos, config)
    assert model.border is not None
    unknown = [c is None for c in model.border]
    assert unknown == [any(layout[cell] != "." for cell in np.flatnonzero(row)) for row in beside]
    assert any(unknown) and not all(unknown)
    again = BoardModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.border is not None
    assert [c is None for c in again.border] == unknown


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 19), st.floats(0.5, 2.0))
def test_an_unknown_patch_never_shows_an_arm(start: int, change: float) -> None:
    """However far a patch calibration never saw free has changed its hue, it tells nothing; the same change on
    known patches is an arm."""
    reference = np.tile(np.array([-0.5, -0.6, -0.4]), (20, 1))
    seen = reference.copy()
    arm = [start, (start + 1) % 20]
    seen[arm, 2] -= change
    free = np.ones(20, dtype=bool)
    light = np.zeros((20, 3))
    terms = np.ones((20, 1))
    assert crossed_ring(seen, reference, light, terms, 0.23, free)
    reference[arm] = np.nan
    assert not crossed_ring(seen, reference, light, terms, 0.23, free)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 19), st.lists(st.floats(0.0, 1.0), min_size=20, max_size=20))
def test_a_channel_within_the_cameras_noise_tells_no_hue(start: int, noise: list[float]) -> None:
    """Under a blue lamp a margin's red channel sits at a few 255ths, where its log colour jumps by a whole unit
    from photo to photo: no jump there is an arm. The same channel dropping there from where the camera shows
    it (not to black itself, which tells no hue) is one."""
    reference = np.tile(np.array([-0.3, -0.1, 0.0]), (20, 1))
    light = np.tile(np.array([0.4, -0.3, -2.6]), (20, 1))  # red expected at 4 of 255
    seen = reference + light
    seen[:, 2] = np.log(np.array(noise) * LOG_FLOOR + LOG_FLOOR)  # anywhere from black to the noise
    free = np.ones(20, dtype=bool)
    terms = np.ones((20, 1))
    assert not crossed_ring(seen, reference, light, terms, 0.23, free)
    arm = [start, (start + 1) % 20]
    lit = reference + np.array([0.4, -0.3, -0.6])
    dropped = lit.copy()
    dropped[arm, 2] = np.log(2.0 * LOG_FLOOR)  # as dark as the noise
    assert crossed_ring(dropped, reference, lit - reference, terms, 0.23, free)


def _ring_of(spec: str) -> tuple[np.ndarray, np.ndarray]:
    """A board's ring and the light field's terms at its patches."""
    geometry = parse_geometry(spec)
    config = VisionConfig()
    ring = ring_points(geometry, config.border_out, config.border_step)
    return ring, light_terms(np.array(geometry.centres, dtype=np.float64), ring)


LAMPS = st.lists(st.floats(-0.4, 0.4), min_size=18, max_size=18).map(lambda c: np.array(c).reshape(6, 3))


@settings(max_examples=40, deadline=None)
@given(LAMPS, st.sampled_from(("points:9x9", "diamond:8", "grid:6x6")))
def test_a_tinted_lamp_alone_never_crosses_the_rim(lamp: np.ndarray, spec: str) -> None:
    """A lamp of another colour, brighter on one side, moves every channel of the ring its own smooth way, however
    unlike the cells' light (here: none at all), a channel going black or clipped where it will, as a camera
    shows it: no arm."""
    ring, terms = _ring_of(spec)
    reference = np.tile(np.array([-0.9, -0.5, -0.3]), (len(ring), 1))
    seen = np.clip(reference + terms @ lamp, DARKEST, BRIGHTEST)
    free = np.ones(len(ring), dtype=bool)
    assert not crossed_ring(seen, reference, np.zeros_like(seen), terms, 0.23, free)


RIM_ANSWERS = st.lists(st.floats(0.5, 1.5), min_size=3, max_size=3).map(np.array)


@settings(max_examples=40, deadline=None)
@given(LAMPS, RIM_ANSWERS, st.integers(0, 200), st.integers(2, 6), st.floats(0.4, 1.5))
def test_an_arm_crosses_the_rim_under_any_lamp(
    lamp: np.ndarray, answer: np.ndarray, start: int, width: int, change: float
) -> None:
    """The same lamps, which the cells' light follows and the rim answers in its own measure (half to one and a
    half times as strongly, each channel), with an arm over a few neighbouring patches (skin moves red against
    blue): an arm. The lamp is dimmed until the camera shows the ring, and the red the arm takes, within its
    range: where a lamp clips the ring, the ring shows only part of a change (the cells still see the hand)."""
    ring, terms = _ring_of("points:9x9")
    reference = np.tile(np.array([-0.9, -0.5, -0.3]), (len(ring), 1))
    arm = (start + np.arange(width)) % len(ring)
    for dimmer in 2.0 ** -np.arange(8):  # the lamp dimmed until the ring and the arm's red show within range
        seen = reference + terms @ (lamp * answer * dimmer)
        if tells_light(seen).all() and tells_light(seen[arm, 0] - change).all():
            break
    else:
        seen = reference.copy()
    seen[arm, 0] -= change
    seen[arm, 2] += change / 2.0
    seen = np.clip(seen, DARKEST, BRIGHTEST)
    free = np.ones(len(ring), dtype=bool)
    assert crossed_ring(seen, reference, terms @ lamp, terms, 0.23, free)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=3, max_size=3), st.integers(0, 200), st.booleans())
def test_a_ring_of_two_surfaces_under_a_lamp_of_one_colour_shows_only_the_arm(
    weights: list[float], start: int, arm: bool
) -> None:
    """The ring crosses the board's dark margin and the pale table beyond it, half and half. Under a lamp of one
    narrow colour every channel shows each surface's reflectance at that colour: one mixture of its channels
    under white light. The two surfaces' hues then change otherwise, which no field over the ring follows; the
    lamp's map of colours does, and only an arm crosses."""
    ring, terms = _ring_of("points:9x9")
    table = np.arange(len(ring)) % 24 < 12
    reference = np.where(table[:, None], np.array([-0.3, -0.4, -0.5]), np.array([-1.6, -1.1, -0.6]))
    mix = np.array(weights) + 0.1
    reflectance = reference @ (mix / mix.sum())  # the surface at the lamp's colour, in log
    seen = reflectance[:, None] + np.array([-0.9, -0.3, 0.2]) + 0.05 * terms[:, 1:2]
    reach = (start + np.arange(3)) % len(ring)
    if arm:
        seen[reach, 0] -= 0.8
        seen[reach, 2] += 0.4
    free = np.ones(len(ring), dtype=bool)
    assert crossed_ring(seen, reference, np.zeros_like(seen), terms, 0.23, free) == arm


def test_the_ring_lies_on_the_boards_margin() -> None:
    """Beyond what the board shows: its squares, or on a board of points (Go) the lines through them, whose
    margin is often under a pitch wide."""
    out = VisionConfig().border_out
    for spec, reach in (("points:9x9", (0.0, 8.0)), ("grid:6x6", (0.0, 6.0)), ("diamond:4", (0.0, 4.0))):
        ring = ring_points(parse_geometry(spec), out, 0.5)
        low, high = reach
        assert np.isclose(ring.min(), low - out) and np.isclose(ring.max(), high + out), spec


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 200), st.integers(2, 8), st.floats(1.2, 2.0), st.floats(0.3, 0.7))
def test_a_channel_calibration_saw_clipped_tells_no_hue(start: int, width: int, over: float, gain: float) -> None:
    """Where the ring's margin is bright enough that calibration's camera clipped one channel, that channel's
    reference is short of the margin's true colour. A dimmer lamp brings it into range, brighter than the
    reference says against the other channels; the camera showed no hue there to compare with: no arm."""
    ring, terms = _ring_of("points:9x9")
    around = np.cos(2.0 * np.pi * np.arange(len(ring)) / len(ring))
    true = np.stack([0.45 + 0.1 * around, 0.6 + 0.1 * around, 0.7 + 0.25 * around], axis=1)
    bright = (start + np.arange(width)) % len(ring)
    true[bright, 2] = over
    reference = np.log(np.minimum(true, 1.0) + LOG_FLOOR)
    seen = np.log(np.minimum(true * gain, 1.0) + LOG_FLOOR)
    free = np.ones(len(ring), dtype=bool)
    light = np.full_like(seen, np.log(gain))
    assert not crossed_ring(seen, reference, light, terms, 0.23, free)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(("points:9x9", "points:19x19", "diamond:8", "hexagon:4,4")), st.data())
def test_a_patch_is_free_only_when_no_piece_may_reach_it(spec: str, data: st.DataObject) -> None:
    """A patch is free when no cell whose piece may show over it holds one: its nearest cell, and on a board of
    points the neighbouring edge point's too (a Go stone beside a patch half a pitch along the rim, or lying a
    little off its point, reaches over it: its body and shadow changed the hue of `go-coloured-light`'s rim
    beside a bare edge point). A stone on any other cell leaves the patch free."""
    geometry = parse_geometry(spec)
    config = VisionConfig()
    centres = np.array(geometry.centres, dtype=np.float64)
    ring = ring_points(geometry, config.border_out, config.border_step)
    reach = ring_reach(geometry, config)
    beside = ring_cells(ring, centres, reach)
    patch = data.draw(st.integers(0, len(ring) - 1))
    distance = np.linalg.norm(centres - ring[patch], axis=1)
    assert beside[patch, distance.argmin()]
    beyond = distance > reach + 1e-9
    beyond[distance.argmin()] = False  # the nearest cell's piece counts however far its point lies
    assert not beside[patch, beyond].any()
    stone = data.draw(st.integers(0, len(centres) - 1))
    bare = np.ones(len(centres), dtype=bool)
    bare[stone] = False
    assert free_patches(beside, bare)[patch] == (not beside[patch, stone])
    if geometry.layout is Layout.POINT:
        # the patch half a pitch along the bottom rim between two edge points: either one's stone reaches it,
        # a stone on the row above does not
        cell = {(round(x), round(y)): i for i, (x, y) in enumerate(centres.tolist())}
        low = max(y for _, y in cell)
        between = np.argmin(np.linalg.norm(ring - np.array([2.5, low + config.border_out]), axis=1))
        assert beside[between, cell[(2, low)]] and beside[between, cell[(3, low)]]
        assert not beside[between, cell[(2, low - 1)]]
