"""Kaskade balls counted by their shape: every ball is one disc of changed pixels, however much of the cell
its rim, its shadow or its neighbours change."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geometry import parse_geometry
from vision.ball_peaks import DiskGrid, find_balls
from vision.balls import BallPixels, count_balls
from vision.classify import Classifier
from vision.colour_model import ColourModel, StoneColour
from vision.config import VisionConfig
from vision.measure import Rectifier

CONFIG = VisionConfig()
RECTIFIER = Rectifier(parse_geometry("grid:2x2"), CONFIG)
assert RECTIFIER.cell_offsets is not None
DU, DV = RECTIFIER.cell_offsets
RADIUS = CONFIG.ball_radius * RECTIFIER.px
GRID = DiskGrid.of(DU, DV, RADIUS)
REACH = CONFIG.ball_reach * RECTIFIER.px


def disc(centre: tuple[float, float], radius: float = RADIUS, inner: float = 0.0) -> np.ndarray:
    """The pixels of one cell's disk (P) within ``radius`` of ``centre`` (pixels from the cell's centre) and
    beyond ``inner``."""
    d2 = (DU - centre[0]) ** 2 + (DV - centre[1]) ** 2
    return (d2 <= radius**2) & (d2 >= inner**2)


def placed(count: int, turn: float, spread: float, shift: tuple[float, float]) -> list[tuple[float, float]]:
    """``count`` ball centres around ``shift``, ``spread`` pixels from it, evenly turned from ``turn``."""
    if count == 1:
        return [shift]
    return [
        (
            shift[0] + spread * math.cos(turn + 2 * math.pi * k / count),
            shift[1] + spread * math.sin(turn + 2 * math.pi * k / count),
        )
        for k in range(count)
    ]


@settings(max_examples=80, deadline=None)
@given(
    count=st.integers(0, 3),
    turn=st.floats(0.0, 2 * math.pi),
    slack=st.floats(0.0, 0.3),
    shift=st.tuples(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0)),
    shadow=st.tuples(st.floats(-0.5, 0.5), st.floats(-0.5, 0.5)),
)
def test_balls_that_touch_or_lie_apart_count_one_each_with_their_shadows(
    count: int, turn: float, slack: float, shift: tuple[float, float], shadow: tuple[float, float]
) -> None:
    """Balls never overlap, but they touch, lie anywhere in the cell, and each casts a shadow against its
    own side (up to half a radius beyond it, a lamp higher than about 55°): one disc of changed pixels per
    ball, whatever the area of them all."""
    # touching balls' centres are two radii apart: the spread that sets them so, and a little more
    spread = (2.0 + slack) * RADIUS / (2 * math.sin(math.pi / count)) if count > 1 else 0.0
    centres = placed(count, turn, spread, shift)
    assert all(math.hypot(*c) + RADIUS <= REACH for c in centres), "the balls lie within the cell's disk"
    mask = np.zeros(len(DU), bool)
    for x, y in centres:
        mask |= disc((x, y)) | disc((x + shadow[0] * RADIUS, y + shadow[1] * RADIUS))
    peaks = find_balls(mask[None, :], GRID, np.array([CONFIG.ball_need]))
    assert peaks.counts[0] == count


def test_three_broken_rings_count_three_where_one_ball_shows_a_broken_ring() -> None:
    """A white ball on a light square changes only its shaded rim, and not all of it: three such balls show
    less area than two whole discs, and are three balls all the same where calibration saw one ring."""
    rng = np.random.default_rng(5)
    centres = placed(3, 0.4, 1.15 * RADIUS * 2 / math.sqrt(3), (0.5, -0.3))
    mask = np.zeros(len(DU), bool)
    for c in centres:
        mask |= disc(c, inner=0.55 * RADIUS) & (rng.random(len(DU)) < 0.75)
    one_disc = disc((0.0, 0.0)).sum()
    assert mask.sum() < 2 * one_disc, "the rings show less than two whole balls"
    one_ring = 0.75 * (disc((0.0, 0.0)) & ~disc((0.0, 0.0), 0.55 * RADIUS)).sum()
    shown = one_ring / one_disc
    peaks = find_balls(mask[None, :], GRID, np.array([CONFIG.ball_need * shown]))
    assert peaks.counts[0] == 3
    assert peaks.margin[0] > 0.5


def test_scattered_noise_and_a_thin_grid_line_are_no_ball() -> None:
    """Changed pixels strewn over the cell, or along a line, cover no ball's disc."""
    rng = np.random.default_rng(9)
    noise = rng.random(len(DU)) < 0.12
    line = np.abs(DU - 3) <= 0
    peaks = find_balls(np.stack([noise, line]), GRID, np.full(2, CONFIG.ball_need))
    assert tuple(peaks.counts) == (0, 0)
    assert (peaks.margin > 0.5).all()


def test_counts_name_the_colour_most_ball_pixels_lie_near_and_say_how_sure() -> None:
    """Two cells: two black balls, and one white ball whose pixels are half shadow (which votes for no colour)."""
    model = ColourModel(
        geometry="grid:2x1",
        empty=((80.0, 0.0, 5.0),) * 2,
        empty_sigma=(1.0, 1.0, 1.0),
        classes={
            "o": StoneColour((90.0, 0.0, 0.0), (4.0, 2.0, 2.0), 2),
            "x": StoneColour((10.0, 0.0, 0.0), (4.0, 2.0, 2.0), 2),
        },
        background=((0.8, 0.8, 0.8),) * 2,
    )
    classifier = Classifier(model, CONFIG)
    mask = np.stack([disc((-4.0, 0.0)) | disc((4.0, 1.0)), disc((1.0, 2.0))])
    votes = np.array([[0.0, mask[0].sum(), 0.0], [mask[1].sum() / 2, 0.0, mask[1].sum() / 2]])
    area = np.full((2, 2), float(disc((0.0, 0.0)).sum()))
    result = count_balls(BallPixels(mask=mask, votes=votes), area, classifier, GRID, CONFIG.ball_need)
    assert result.counts == (2, 1)
    assert result.symbols == ("x", "o")
    assert min(result.confidence) >= CONFIG.min_confidence


def test_a_calibration_that_saw_almost_nothing_of_a_ball_does_not_make_noise_count() -> None:
    """A cell whose calibration ball showed only a few pixels (a black ball's sheen on a dark square) still
    needs most of a disc's worth of changed pixels: sensor noise, which changes up to one pixel in twenty of
    an empty cell, covers that much nowhere."""
    model = ColourModel(
        geometry="grid:2x1",
        empty=((20.0, 0.0, 0.0),) * 2,
        empty_sigma=(1.0, 1.0, 1.0),
        classes={"x": StoneColour((8.0, 0.0, 0.0), (4.0, 2.0, 2.0), 2)},
        background=((0.2, 0.2, 0.2),) * 2,
    )
    rng = np.random.default_rng(11)
    mask = rng.random((2, len(DU))) < 0.05
    votes = np.column_stack([mask.sum(axis=1), np.zeros(2)]).astype(float)
    area = np.full((2, 1), CONFIG.ball_min_area)
    result = count_balls(BallPixels(mask=mask, votes=votes), area, Classifier(model, CONFIG), GRID, CONFIG.ball_need)
    assert result.counts == (0, 0)
