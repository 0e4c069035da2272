"""The lines' depth over a piece's top: a Go point's crossing lines, which no stone shows."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.geometry import parse_geometry
from vision.board_image import FEATURE_NAMES, SOBEL_GAIN, BoardView, _valleys, feature_count
from vision.config import VisionConfig
from vision.errors import ColourModelError
from vision.model import BoardModel, StoneLook, as_matrix, as_vector
from vision.pipeline import make_view

LINES = FEATURE_NAMES.index("top lines")
LEVELS = st.floats(-2.5, 0.0)
DEPTHS = st.floats(0.05, 1.0)


@given(LEVELS, DEPTHS, st.integers(4, 12), st.booleans())
def test_a_thin_dark_line_is_a_valley_as_deep_as_it_is_dark(level, depth, at, across):
    brightness = np.full((16, 16), level, np.float32)
    if across:
        brightness[:, at] -= depth
    else:
        brightness[at, :] -= depth
    valleys = _valleys(brightness, 1)
    line = valleys[:, at] if across else valleys[at, :]
    assert np.allclose(line, SOBEL_GAIN * np.float32(depth), rtol=1e-4)
    off = np.delete(valleys, at, axis=1 if across else 0)
    assert np.all(off == 0.0)


@given(LEVELS, DEPTHS, st.integers(2, 14), st.booleans())
def test_a_step_or_a_highlight_is_no_valley(level, rise, at, peak):
    brightness = np.full((16, 16), level, np.float32)
    if peak:
        brightness[at, :] += rise  # a highlight's ridge
    else:
        brightness[:, at:] += rise  # an outline, or a shadow's edge
    assert np.all(_valleys(brightness, 1) == 0.0)


def _flat_board(view: BoardView, stones: dict[tuple[float, float], int]) -> np.ndarray:
    """A flat Go board as the reader's warp gives it: pale wood, dark one-pixel lines through every point, and
    discs of the given grey levels on some points."""
    width, height = view.size
    flat = np.full((height, width, 3), (120, 180, 215), np.uint8)
    geometry = view.geometry
    xs = sorted({round(c[0], 6) for c in geometry.centres})
    ys = sorted({round(c[1], 6) for c in geometry.centres})
    for x in xs:
        u = int(round(view.pixel(np.array([[x, ys[0]]]))[0, 0]))
        top, bottom = view.pixel(np.array([[x, ys[0]], [x, ys[-1]]]))[:, 1]
        flat[int(round(top)) : int(round(bottom)) + 1, u] = (40, 60, 70)
    for y in ys:
        v = int(round(view.pixel(np.array([[xs[0], y]]))[0, 1]))
        left, right = view.pixel(np.array([[xs[0], y], [xs[-1], y]]))[:, 0]
        flat[v, int(round(left)) : int(round(right)) + 1] = (40, 60, 70)
    radius = int(0.45 * view.px)
    for (x, y), grey in stones.items():
        u, v = view.pixel(np.array([[x, y]]))[0]
        cv2.circle(flat, (int(round(u)), int(round(v))), radius, (grey, grey, grey), -1, cv2.LINE_AA)
    return flat


def test_the_lines_of_a_bare_point_show_and_a_stone_hides_them():
    geometry = parse_geometry("points:5x5")
    view = make_view(geometry, VisionConfig())
    centres = np.array(geometry.centres, dtype=np.float64)
    white, black = tuple(centres[6]), tuple(centres[12])
    features = view.features(_flat_board(view, {white: 245, black: 25}))
    assert features.shape[2] == len(FEATURE_NAMES)
    lines = view.sample(features, centres)[:, LINES]
    bare = np.delete(lines, [6, 12])
    assert bare.min() > 0.5
    assert lines[6] < 0.1 * bare.min() and lines[12] < 0.1 * bare.min()
    # the same board a little brighter or darker: the lines' depth is a ratio, which no gain moves
    brighter = view.features(np.clip(_flat_board(view, {}).astype(np.float32) * 0.6, 0, 255).astype(np.uint8))
    seen = view.sample(brighter, centres)[:, LINES]
    assert np.allclose(seen, view.sample(view.features(_flat_board(view, {})), centres)[:, LINES], atol=0.15)


@pytest.mark.parametrize(("spec", "count"), [("points:9x9", 7), ("diamond:8", 6), ("grid:6x6", 6), ("hexagon:4,4", 6)])
def test_only_a_board_of_points_is_seen_with_its_lines(spec, count):
    geometry = parse_geometry(spec)
    assert feature_count(geometry) == count
    view = make_view(geometry, VisionConfig())
    flat = np.full((view.size[1], view.size[0], 3), 128, np.uint8)
    assert view.features(flat).shape[2] == count


def test_a_board_of_points_calibrated_without_its_lines_is_refused_saying_to_calibrate_again():
    geometry = parse_geometry("points:3x3")
    n = len(geometry.cells)
    spread = as_matrix(np.eye(6) * 0.01)
    old = BoardModel(
        geometry="points:3x3",
        height=0.0,
        empty=tuple(as_vector(np.zeros(6)) for _ in range(n)),
        empty_seen=(True,) * n,
        empty_spread=spread,
        like_spread=spread,
        stones={"o": StoneLook(as_vector(np.zeros(6)), spread, 3)},
    )
    with pytest.raises(ColourModelError, match=r"6 features, this reader with 7: .* calibrate again"):
        old.check_fits(geometry)
