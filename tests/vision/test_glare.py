"""A lamp's reflection on the board: one spot fitted over the board, the gain fitted with it, stones spared."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geometry import parse_geometry
from vision.config import VisionConfig
from vision.glare import clipped_glare, fit_frame_light, fit_glare_spot, patch_excess, remove_board_light
from vision.light import design_matrix, light_gain
from vision.measure import Rectifier
from vision.synth import CLEAN, Renderer, make_scene
from vision.synth.render import sample_light

GEOMETRY = parse_geometry("diamond:8")
RECTIFIER = Rectifier(GEOMETRY)
POINTS = RECTIFIER.corner_points  # N×4×2 board positions of the light-reference patches
CENTRES = np.array(GEOMETRY.centres)


def spot_light(peak: float, centre: tuple[float, float], sigma: tuple[float, float]) -> np.ndarray:
    """The white light (N×C) an elliptic spot adds at every patch."""
    d = (POINTS - np.array(centre)) / np.array(sigma)
    return peak * np.exp(-0.5 * (d**2).sum(axis=-1))


def board(rng: np.random.Generator) -> np.ndarray:
    """Reference colours of every patch (N×C×3): light and dark squares' surroundings, a little grain."""
    base = rng.uniform(0.25, 0.8, size=(*POINTS.shape[:2], 1))
    return np.clip(base * np.array([0.9, 1.0, 1.05]) + rng.normal(0, 0.01, (*POINTS.shape[:2], 3)), 0.02, 0.95)


def seen(reference: np.ndarray, gain: np.ndarray, glare: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The patches as the camera shows them: gain, added white light, a few stones' shadows, noise, clipping."""
    out = gain * reference + glare[..., None]
    shadowed = rng.random(POINTS.shape[:2]) < 0.1
    out[shadowed] *= 0.6  # in a stone's shadow the lamp's reflection does not show either
    return np.clip(out + rng.normal(0, 0.005, out.shape), 0.0, 1.0)


def test_a_clipped_spot_is_found_where_it_is_and_about_as_strong():
    rng = np.random.default_rng(1)
    reference = board(rng)
    glare = spot_light(0.9, (7.0, 6.0), (1.2, 0.8))
    corners = seen(reference, np.ones(3), glare, rng)
    excess, clipped = patch_excess(corners, reference, np.ones((len(POINTS), 3)))
    assert clipped.sum() > 5, "the test needs patches the camera clips"
    spot = fit_glare_spot(POINTS, excess, clipped)
    assert spot is not None
    assert spot.peak == pytest.approx(0.9, rel=0.3)
    brightest = CENTRES[int(np.argmax(spot.at(CENTRES)))]
    assert np.linalg.norm(brightest - np.array([7.0, 6.0])) < 1.0
    far = np.linalg.norm(CENTRES - np.array([7.0, 6.0]), axis=1) > 4.0
    assert spot.at(CENTRES)[far].max() < 0.05


def test_a_spot_on_a_board_whose_red_channel_clips_all_over_is_found_from_the_other_two():
    """A light wood board under a bright lamp: the camera clips red everywhere, so red shows none of the
    lamp's reflection; blue and green still show it in full."""
    rng = np.random.default_rng(3)
    reference = np.clip(board(rng) * np.array([0.7, 0.9, 1.0]) + np.array([0.0, 0.0, 0.35]), 0.0, 0.96)
    glare = spot_light(0.5, (4.0, 3.0), (1.5, 1.2))
    corners = seen(reference, np.array([1.0, 1.0, 1.1]), glare, rng)
    corners[..., 2] = np.maximum(corners[..., 2], 0.99)  # red: clipped all over
    excess, clipped = patch_excess(corners, reference, np.tile([1.0, 1.0, 1.1], (len(POINTS), 1)))
    assert not clipped.all(), "blue and green are measured"
    spot = fit_glare_spot(POINTS, excess, clipped)
    assert spot is not None
    assert spot.peak == pytest.approx(0.5, rel=0.3)
    brightest = CENTRES[int(np.argmax(spot.at(CENTRES)))]
    assert np.linalg.norm(brightest - np.array([4.0, 3.0])) < 1.0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), stones=st.integers(0, 12))
def test_no_spot_is_seen_on_a_board_without_glare(seed, stones):
    rng = np.random.default_rng(seed)
    reference = board(rng)
    corners = seen(reference, np.ones(3), np.zeros(POINTS.shape[:2]), rng)
    # a few light stones lying over dark patches: bright, but scattered, so no spot
    for cell in rng.choice(len(POINTS), size=stones, replace=False):
        corners[cell, rng.integers(4)] = 0.85
    excess, clipped = patch_excess(corners, reference, np.ones((len(POINTS), 3)))
    assert fit_glare_spot(POINTS, excess, clipped) is None


def test_the_gain_under_a_spot_wider_than_half_the_board_is_found_again():
    rng = np.random.default_rng(4)
    reference = board(rng)
    design = design_matrix(CENTRES)
    true_gain = np.broadcast_to(
        design @ np.array([[0.9, 0.9, 0.85], [0.05, 0.04, 0.05], [-0.08, -0.07, -0.06]]), (len(POINTS), 3)
    )
    glare = spot_light(0.8, (5.0, 8.0), (3.0, 2.5))
    assert (glare > 0.05).mean() > 0.5, "the test needs a spot over most of the board"
    corners = seen(reference, true_gain[:, None, :], glare, rng)
    background = np.median(corners, axis=1)
    pooled = np.median(reference, axis=1)
    naive = light_gain(background, pooled, design, 0.03)
    light = fit_frame_light(corners, reference, POINTS, background, pooled, design, naive, 4, VisionConfig())
    assert np.abs(naive - true_gain).max() > 0.15, "without the spot the gain is far off"
    assert light.spot is not None
    assert np.abs(light.gain - true_gain).max() < 0.06


def test_a_clipped_channel_the_empty_board_would_clip_reads_as_the_empty_board():
    empty = np.array([[0.8, 0.82, 0.85], [0.2, 0.2, 0.2]], np.float32)
    gain = np.ones((2, 3), np.float32)
    glare = np.array([0.5, 0.5], np.float32)
    disk = np.array([[1.0, 1.0, 1.0], [0.85, 0.86, 0.84]], np.float32)  # clipped bare board; a lit stone
    plain = remove_board_light(disk, gain, glare, empty)
    assert np.allclose(plain[0], empty[0])
    assert np.allclose(plain[1], disk[1] - 0.5)


def test_a_stone_hides_the_boards_reflection_and_the_bare_board_shows_it():
    renderer = Renderer(make_scene("diamond:4", 3, CLEAN.with_(glare_probability=1.0), (640, 480)))
    geometry = renderer.geometry
    cell = 5
    symbols = tuple("o" if i == cell else "." for i in range(len(geometry.cells)))
    light = sample_light(np.random.default_rng(0), renderer.scene.conditions, glare=False)
    centre = renderer.scene.pose.project(np.array([geometry.centres[cell]]))[0]
    lamp = dataclasses.replace(
        light,
        glare_centre=(float(centre[0]), float(centre[1])),
        glare_radius_px=renderer.pitch_px(),
        glare_strength=0.6,
    )
    dark = renderer.render(symbols, seed=1, light=light, random_hand=False).image.astype(float)
    lit = renderer.render(symbols, seed=1, light=lamp, random_hand=False).image.astype(float)
    x, y = (int(round(v)) for v in centre)
    top = (lit - dark)[y - 2 : y + 3, x - 2 : x + 3].mean()
    beside = renderer.pitch_px() * 0.5
    board_gain = (lit - dark)[y - 2 : y + 3, int(x + beside) - 2 : int(x + beside) + 3].mean()
    assert top < 0.15 * 0.6 * 255
    assert board_gain > 3 * top


def test_a_disk_a_narrow_spot_clips_shows_the_glare_over_it_and_a_stone_does_not():
    """A narrow spot's peak lies between the patches it is fitted from: the fit says 0.3 where 0.6 lies."""
    cream = np.array([0.32, 0.45, 0.62], np.float32)  # a light hex of a maple board
    white = np.array([0.8, 0.82, 0.84], np.float32)
    stones = np.stack([white, [0.08, 0.08, 0.09], [0.12, 0.1, 0.62]]).astype(np.float32)
    empty = np.stack([cream] * 5)
    gain = np.full((5, 3), 0.9, np.float32)
    gain[4] = 1.1  # a bright lamp: a white stone a little brighter than calibrated clips by itself
    fitted = np.full(5, 0.3, np.float32)
    disk = np.stack(
        [
            np.minimum(gain[0] * cream + 0.6, 1.0),  # bare board, clipped in every channel
            np.minimum(gain[1] * cream + 0.45, 1.0),  # bare board, the red channel clipped
            white * gain[2] + 0.03,  # a white stone: it hides the reflection
            np.minimum(stones[2] * gain[3] + 0.35, 1.0),  # a red stone lit hard: red clips
            np.minimum(white * gain[4] + 0.03 + 0.08, 1.0),  # a white stone the camera clips
        ]
    ).astype(np.float32)
    glare = clipped_glare(disk, gain, fitted, empty, stones, 0.1)
    plain = remove_board_light(disk, gain, glare, empty)
    assert np.allclose(plain[:2], empty[:2], atol=0.02), "bare board under the glare it shows"
    assert glare[1] == pytest.approx(0.45, abs=0.01)
    assert np.array_equal(glare[2:], fitted[2:]), "a stone is no bare board under more glare"
