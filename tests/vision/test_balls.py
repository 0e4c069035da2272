"""Kaskade ball pixels: a black ball on a black square is seen, noise on black is not; glare is no ball; the
ball area of a cell not calibrated with a colour."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from referee.geometry import parse_geometry
from vision.balls import EmptyPixels, ball_pixels
from vision.classify import Classifier
from vision.colour_model import ColourModel, StoneColour, fit_colour_model
from vision.config import VisionConfig
from vision.light import CLIPPED
from vision.locate import MarkerLocator
from vision.measure import bgr_to_lab
from vision.synth import Renderer, make_scene, preset

PIXELS = 200
SQUARE = np.array([0.16, 0.16, 0.17], np.float32)  # a dark square of a pale set

WHITE_BALL = (0.85, 0.87, 0.88)
BLACK_BALL = (0.08, 0.08, 0.09)
RED = (0.12, 0.10, 0.62)
GREEN = np.array([0.33, 0.58, 0.45], np.float32)  # a dark square of a green set
CREAM = np.array([0.80, 0.90, 0.89], np.float32)  # a light square


def lab(bgr: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    lightness, a, b = (float(v) for v in bgr_to_lab(np.array([bgr], np.float32))[0])
    return (lightness, a, b)


def cells_of(
    square: np.ndarray, cells: int, balls: dict[str, tuple[float, float, float]]
) -> tuple[Classifier, EmptyPixels]:
    """A classifier for ``cells`` cells of one ``square`` colour (BGR) and ``balls`` colours, and the cells'
    empty pixels."""
    spread = {"=": (4.0, 3.0, 3.0)}  # red varies more in hue; the others in lightness only
    background = (float(square[0]), float(square[1]), float(square[2]))
    model = ColourModel(
        geometry=f"grid:{cells}x1",
        empty=(lab(square),) * cells,
        empty_sigma=(1.0, 1.0, 1.0),
        classes={s: StoneColour(lab(bgr), spread.get(s, (4.0, 2.0, 2.0)), 2) for s, bgr in balls.items()},
        background=(background,) * cells,
    )
    empty_bgr = np.broadcast_to(square, (cells, PIXELS, 3)).copy()
    return Classifier(model), EmptyPixels(
        bgr=empty_bgr, lab=bgr_to_lab(empty_bgr.reshape(-1, 3)).reshape(empty_bgr.shape)
    )


def votes_without_glare(seen: np.ndarray, classifier: Classifier, empty: EmptyPixels) -> np.ndarray:
    """The ball pixels' colour votes (N×(K+1)) of cells ``seen`` (N×P×3) in the calibration light, no glare."""
    n = len(seen)
    return ball_pixels(
        seen, np.ones((n, 3), np.float32), np.zeros(n, np.float32), classifier, VisionConfig(), empty
    ).votes


def test_a_black_ball_on_a_black_square_shows_and_noise_on_black_does_not() -> None:
    classifier, empty = cells_of(SQUARE, 2, {"o": WHITE_BALL, "x": BLACK_BALL})
    rng = np.random.default_rng(2)
    seen = empty.bgr + rng.normal(0.0, 0.008, empty.bgr.shape).astype(np.float32)  # sensor noise
    seen[0, :40] = [0.08, 0.08, 0.09]  # a black ball's body: half as bright as the square, few Lab units darker
    counts = votes_without_glare(seen, classifier, empty)
    black = list(classifier.names[1:]).index("x")
    assert counts[0, black] >= 35
    assert counts[1].sum() <= 2


def test_bare_board_under_an_uneven_spot_is_no_ball_and_a_red_ball_in_it_is() -> None:
    """A fitted spot is smooth but not exactly the lamp's: across one cell the glare rises from 0.18 to 0.42
    where the spot says 0.3 everywhere. The bare board must not read as balls, nor hide a red one."""
    classifier, empty = cells_of(GREEN, 2, {"o": WHITE_BALL, "x": BLACK_BALL, "=": RED})
    empty_bgr = empty.bgr
    rng = np.random.default_rng(3)
    glare = np.broadcast_to(np.linspace(0.18, 0.42, PIXELS, dtype=np.float32), (2, PIXELS))
    seen = empty_bgr + glare[..., None] + rng.normal(0.0, 0.004, empty_bgr.shape).astype(np.float32)
    seen[1, 80:120] = np.array(RED, np.float32) + 0.03  # a ball hides the reflection; only a veil shows on it
    seen = np.clip(seen, 0.0, 1.0)
    spot = np.full((2, PIXELS), 0.3, np.float32)
    counts = ball_pixels(seen, np.ones((2, 3), np.float32), spot[:, 0], classifier, VisionConfig(), empty, spot).votes
    red = list(classifier.names[1:]).index("=")
    assert counts[0].sum() <= 4
    assert counts[1, red] >= 35
    assert counts[1].sum() - counts[1, red] <= 4


def test_a_red_ball_on_a_light_square_the_glare_clips_is_one_red_ball() -> None:
    """Under a strong spot the bare board clips: only the ball and its shadow keep a channel below full scale.
    They must not be taken for the board's own glare, which would leave the clipped board reading white."""
    classifier, empty = cells_of(CREAM, 1, {"o": WHITE_BALL, "x": BLACK_BALL, "=": RED})
    empty_bgr = empty.bgr
    spot = np.full((1, PIXELS), 0.45, np.float32)
    seen = np.clip(empty_bgr + spot[..., None], 0.0, 1.0)
    seen[0, :50] = np.array(RED, np.float32) + 0.045  # the ball hides the reflection: only a veil on it
    seen[0, 50:80] = empty_bgr[0, 50:80] * 0.6  # its shadow: no lamp, so no reflection either
    counts = ball_pixels(seen, np.ones((1, 3), np.float32), spot[:, 0], classifier, VisionConfig(), empty, spot).votes
    red = list(classifier.names[1:]).index("=")
    white = list(classifier.names[1:]).index("o")
    assert counts[0, red] >= 45
    assert counts[0, white] <= 4


def test_a_black_ball_a_third_darker_than_a_black_square_shows() -> None:
    """In dim light a black ball's body, lifted by its own sheen, is only about 30 % darker than a black
    square; its pixels are still a ball's."""
    classifier, empty = cells_of(SQUARE, 1, {"o": WHITE_BALL, "x": (0.10, 0.10, 0.11)})
    rng = np.random.default_rng(4)
    seen = empty.bgr + rng.normal(0.0, 0.006, empty.bgr.shape).astype(np.float32)
    seen[0, :40] = SQUARE * 0.7
    counts = votes_without_glare(seen, classifier, empty)
    black = list(classifier.names[1:]).index("x")
    assert counts[0, black] >= 35
    assert counts[0].sum() <= 44


def black_ball_areas(first_cell_balls: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The black-ball area of every cell of a pale 4×4 Kaskade set calibrated with black balls on the top two
    rows only (``first_cell_balls`` on the first cell, where the photo says one), and which squares are dark."""
    geometry = parse_geometry("grid:4x4")
    quiet = preset("pale-board").with_(hand_probability=0.0, glare_probability=0.0, motion_blur_probability=0.0)
    renderer = Renderer(make_scene(geometry, 3, quiet, (960, 540)))
    n = len(geometry.cells)
    shown = range(n // 2)  # black balls on the top two rows only, white ones below
    layouts = [tuple("x" if i in shown else "." for i in range(n)), tuple("." if i in shown else "o" for i in range(n))]
    photo_counts = [(first_cell_balls, *(int(s != ".") for s in layouts[0][1:])), None]
    known = [
        (renderer.render(layout, counts, seed=2 + k, random_hand=False).image, layout)
        for k, (layout, counts) in enumerate(zip(layouts, photo_counts, strict=True))
    ]
    empty = renderer.render("." * n, seed=1, random_hand=False).image
    model = fit_colour_model(geometry, MarkerLocator.default(geometry), empty, known)
    assert model.ball_area is not None
    dark = np.array([(i // 4 + i % 4) % 2 == 1 for i in range(n)])
    return np.array(model.ball_area)[:, list(model.classes).index("x")], dark


def test_a_cell_never_calibrated_with_a_colour_takes_its_ball_area_from_like_squares() -> None:
    """On a pale set a black ball on a dark square shows only its sheen and rim, far less than on a light
    square. A cell the calibration photos never showed with black balls takes the area of the squares most
    like its own, not of the board at large."""
    black, dark = black_ball_areas()
    n = len(black)
    light_area, dark_area = (np.median(black[: n // 2][shade[: n // 2]]) for shade in (~dark, dark))
    assert dark_area < 0.8 * light_area, "the scene no longer shows the squares apart"
    for i in range(n // 2, n):
        like = dark_area if dark[i] else light_area
        assert abs(black[i] - like) <= 0.1 * like, f"cell {i}: {black[i]:.0f} pixels, like squares {like:.0f}"


def test_one_odd_calibration_ball_does_not_set_its_cells_area() -> None:
    """One photo of one ball is a noisy measure of its area, and a count multiplies the error: a cell whose
    photo showed twice a ball's area keeps the area of the squares like its own."""
    black, dark = black_ball_areas(first_cell_balls=2)
    like = np.median(black[1 : len(black) // 2][~dark[1 : len(black) // 2]])
    assert abs(black[0] - like) <= 0.1 * like, f"{black[0]:.0f} pixels, like squares {like:.0f}"


def test_three_red_balls_on_a_light_square_the_glare_clips_around_them_are_no_white_balls() -> None:
    """The fitted spot falls short and the glare clips the bare square around three red balls. The balls and
    their shadows, which hide the reflection, are much of what stays unclipped: the clipped pixels say how
    much glare the square has at least, and the bare square reads as bare."""
    classifier, empty = cells_of(CREAM, 1, {"o": WHITE_BALL, "x": BLACK_BALL, "=": RED})
    spot = np.full((1, PIXELS), 0.1, np.float32)
    seen = np.clip(empty.bgr + 0.3, 0.0, 1.0)
    seen[0, :60] = np.array(RED, np.float32) + 0.03
    seen[0, 60:90] = empty.bgr[0, 60:90] * 0.6
    seen[0, 90:110] = np.clip(empty.bgr[0, 90:110] + 0.12, 0.0, 1.0)  # the fringe: clipped in two channels
    assert (seen[0] >= CLIPPED).any(axis=1).mean() > 0.5, "most of the cell clips in some channel"
    assert (seen[0] < CLIPPED).any(axis=1).mean() > 0.5, "and most of it is measured in some channel"
    counts = ball_pixels(seen, np.ones((1, 3), np.float32), spot[:, 0], classifier, VisionConfig(), empty, spot).votes
    red = list(classifier.names[1:]).index("=")
    assert counts[0, red] >= 55
    assert counts[0].sum() - counts[0, red] <= 35, "only the shadows may change beyond the balls"
