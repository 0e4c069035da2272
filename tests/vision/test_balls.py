"""Kaskade balls counted pixel by pixel: a black ball on a black square is seen, noise on black is not."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.balls import EmptyPixels, ball_pixels
from vision.classify import Classifier
from vision.colour_model import ColourModel, StoneColour
from vision.config import VisionConfig
from vision.measure import bgr_to_lab

PIXELS = 200
SQUARE = np.array([0.16, 0.16, 0.17], np.float32)  # a dark square of a pale set


def lab(bgr: Sequence[float]) -> tuple[float, float, float]:
    lightness, a, b = (float(v) for v in bgr_to_lab(np.array([bgr], np.float32))[0])
    return (lightness, a, b)


def test_a_black_ball_on_a_black_square_shows_and_noise_on_black_does_not() -> None:
    square = lab(tuple(SQUARE))
    model = ColourModel(
        geometry="grid:2x1",
        empty=(square, square),
        empty_sigma=(1.0, 1.0, 1.0),
        classes={
            "o": StoneColour(lab((0.85, 0.87, 0.88)), (4.0, 2.0, 2.0), 2),
            "x": StoneColour(lab((0.08, 0.08, 0.09)), (4.0, 2.0, 2.0), 2),
        },
        background=((0.16, 0.16, 0.17),) * 2,
    )
    rng = np.random.default_rng(2)
    empty_bgr = np.broadcast_to(SQUARE, (2, PIXELS, 3)).copy()
    empty = EmptyPixels(bgr=empty_bgr, lab=bgr_to_lab(empty_bgr.reshape(-1, 3)).reshape(empty_bgr.shape))
    seen = empty_bgr + rng.normal(0.0, 0.008, empty_bgr.shape).astype(np.float32)  # sensor noise
    seen[0, :40] = [0.08, 0.08, 0.09]  # a black ball's body: half as bright as the square, few Lab units darker
    counts = ball_pixels(
        seen, np.ones((2, 3), np.float32), np.zeros(2, np.float32), Classifier(model), VisionConfig(), empty
    )
    black = list(Classifier(model).names[1:]).index("x")
    assert counts[0, black] >= 35
    assert counts[1].sum() <= 2


GREEN_BGR = (0.33, 0.58, 0.45)  # a dark square of a green set
GREEN = np.array(GREEN_BGR, np.float32)
RED = (0.12, 0.10, 0.62)


def test_bare_board_under_an_uneven_spot_is_no_ball_and_a_red_ball_in_it_is() -> None:
    """A fitted spot is smooth but not exactly the lamp's: across one cell the glare rises from 0.18 to 0.42
    where the spot says 0.3 everywhere. The bare board must not read as balls, nor hide a red one."""
    square = lab(tuple(GREEN))
    model = ColourModel(
        geometry="grid:2x1",
        empty=(square, square),
        empty_sigma=(1.0, 1.0, 1.0),
        classes={
            "o": StoneColour(lab((0.85, 0.87, 0.88)), (4.0, 2.0, 2.0), 2),
            "x": StoneColour(lab((0.08, 0.08, 0.09)), (4.0, 2.0, 2.0), 2),
            "=": StoneColour(lab(RED), (4.0, 3.0, 3.0), 2),
        },
        background=(GREEN_BGR,) * 2,
    )
    rng = np.random.default_rng(3)
    empty_bgr = np.broadcast_to(GREEN, (2, PIXELS, 3)).copy()
    empty = EmptyPixels(bgr=empty_bgr, lab=bgr_to_lab(empty_bgr.reshape(-1, 3)).reshape(empty_bgr.shape))
    glare = np.broadcast_to(np.linspace(0.18, 0.42, PIXELS, dtype=np.float32), (2, PIXELS))
    seen = empty_bgr + glare[..., None] + rng.normal(0.0, 0.004, empty_bgr.shape).astype(np.float32)
    seen[1, 80:120] = np.array(RED, np.float32) + 0.03  # a ball hides the reflection; only a veil shows on it
    seen = np.clip(seen, 0.0, 1.0)
    spot = np.full((2, PIXELS), 0.3, np.float32)
    classifier = Classifier(model)
    counts = ball_pixels(seen, np.ones((2, 3), np.float32), spot[:, 0], classifier, VisionConfig(), empty, spot)
    red = list(classifier.names[1:]).index("=")
    assert counts[0].sum() <= 4
    assert counts[1, red] >= 35
    assert counts[1].sum() - counts[1, red] <= 4


CREAM_BGR = (0.80, 0.90, 0.89)  # a light square


def test_a_red_ball_on_a_light_square_the_glare_clips_is_one_red_ball() -> None:
    """Under a strong spot the bare board clips: only the ball and its shadow keep a channel below full scale.
    They must not be taken for the board's own glare, which would leave the clipped board reading white."""
    square = lab(CREAM_BGR)
    model = ColourModel(
        geometry="grid:1x1",
        empty=(square,),
        empty_sigma=(1.0, 1.0, 1.0),
        classes={
            "o": StoneColour(lab((0.85, 0.87, 0.88)), (4.0, 2.0, 2.0), 2),
            "x": StoneColour(lab((0.08, 0.08, 0.09)), (4.0, 2.0, 2.0), 2),
            "=": StoneColour(lab(RED), (4.0, 3.0, 3.0), 2),
        },
        background=(CREAM_BGR,),
    )
    empty_bgr = np.broadcast_to(np.array(CREAM_BGR, np.float32), (1, PIXELS, 3)).copy()
    empty = EmptyPixels(bgr=empty_bgr, lab=bgr_to_lab(empty_bgr.reshape(-1, 3)).reshape(empty_bgr.shape))
    spot = np.full((1, PIXELS), 0.45, np.float32)
    seen = np.clip(empty_bgr + spot[..., None], 0.0, 1.0)
    seen[0, :50] = np.array(RED, np.float32) + 0.045  # the ball hides the reflection: only a veil on it
    seen[0, 50:80] = empty_bgr[0, 50:80] * 0.6  # its shadow: no lamp, so no reflection either
    classifier = Classifier(model)
    counts = ball_pixels(seen, np.ones((1, 3), np.float32), spot[:, 0], classifier, VisionConfig(), empty, spot)
    red = list(classifier.names[1:]).index("=")
    white = list(classifier.names[1:]).index("o")
    assert counts[0, red] >= 45
    assert counts[0, white] <= 4


def test_a_black_ball_a_third_darker_than_a_black_square_shows() -> None:
    """In dim light a black ball's body, lifted by its own sheen, is only about 30 % darker than a black
    square; its pixels are still a ball's."""
    square = lab(tuple(SQUARE))
    model = ColourModel(
        geometry="grid:1x1",
        empty=(square,),
        empty_sigma=(1.0, 1.0, 1.0),
        classes={
            "o": StoneColour(lab((0.85, 0.87, 0.88)), (4.0, 2.0, 2.0), 2),
            "x": StoneColour(lab((0.10, 0.10, 0.11)), (4.0, 2.0, 2.0), 2),
        },
        background=((0.16, 0.16, 0.17),),
    )
    rng = np.random.default_rng(4)
    empty_bgr = np.broadcast_to(SQUARE, (1, PIXELS, 3)).copy()
    empty = EmptyPixels(bgr=empty_bgr, lab=bgr_to_lab(empty_bgr.reshape(-1, 3)).reshape(empty_bgr.shape))
    seen = empty_bgr + rng.normal(0.0, 0.006, empty_bgr.shape).astype(np.float32)
    seen[0, :40] = SQUARE * 0.7
    classifier = Classifier(model)
    counts = ball_pixels(seen, np.ones((1, 3), np.float32), np.zeros(1, np.float32), classifier, VisionConfig(), empty)
    black = list(classifier.names[1:]).index("x")
    assert counts[0, black] >= 35
    assert counts[0].sum() <= 44
