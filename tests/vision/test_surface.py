"""The bare board under a lamp's glare: the lamp mirrored, in the lamp's own colour."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.board_image import LOG_FLOOR
from vision.surface import lamp_hue, lit_surface

TEXTURE = np.array([0.4, 0.5, 0.0])


def log_of(linear: np.ndarray) -> np.ndarray:
    return np.log(np.asarray(linear, dtype=np.float64) + LOG_FLOOR)


@settings(max_examples=60)
@given(
    st.lists(st.floats(0.05, 0.6), min_size=3, max_size=3),
    st.lists(st.floats(-3.0, 0.5), min_size=3, max_size=3),
    st.floats(0.0, 0.3),
)
def test_glare_of_the_lamps_colour_is_taken_out_whole(colour, light, amount):
    """A bare spot that shows the lamp's light added in the lamp's colour is explained by that glare alone: the
    look comes back, and the texture is washed out by the share the glare adds."""
    hue = lamp_hue(np.array(light))
    expected = np.array(colour)
    shown = np.minimum(expected + amount * hue, 0.97)
    if not np.allclose(shown, expected + amount * hue):
        return  # clipped: the camera hides how much was added
    board = np.concatenate([log_of(expected), TEXTURE])
    seen = np.concatenate([log_of(shown), TEXTURE])
    lit, glare, share = lit_surface(board, seen, hue)
    assert np.allclose(lit[:3], seen[:3], atol=1e-6)
    assert np.isclose(glare, amount * hue.mean(), atol=1e-6)
    assert np.isclose(share, glare / (expected.mean() + glare), atol=1e-6)
    assert np.allclose(lit[3:], TEXTURE * (1.0 - share), atol=1e-6)


def test_a_lamp_of_one_colour_mirrors_that_colour_not_white():
    """Under a cyan lamp a spot brightens blue and green and leaves red black: white glare would raise red
    too, which the spot does not show."""
    cyan = lamp_hue(np.array([0.3, 0.0, -2.5]))
    assert cyan.max() == 1.0 and cyan[2] < 0.1
    expected = np.array([0.45, 0.55, 0.005])
    seen = np.concatenate([log_of(expected + 0.3 * cyan), TEXTURE])
    board = np.concatenate([log_of(expected), TEXTURE])
    coloured, _, _ = lit_surface(board, seen, cyan)
    white, _, _ = lit_surface(board, seen)
    assert abs(coloured[2] - seen[2]) < 0.01
    assert white[2] - seen[2] > 0.5  # white glare explains red far brighter than the spot shows it


def test_calibrations_own_light_shows_white():
    assert np.allclose(lamp_hue(np.zeros(3)), 1.0)
    assert np.allclose(lamp_hue(np.full((4, 3), -0.7)), 1.0)
