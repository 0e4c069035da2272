"""Kaskade balls counted pixel by pixel: a black ball on a black square is seen, noise on black is not."""

from __future__ import annotations

import numpy as np

from vision.balls import EmptyPixels, ball_pixels
from vision.classify import Classifier
from vision.colour_model import ColourModel, StoneColour
from vision.config import VisionConfig
from vision.measure import bgr_to_lab

PIXELS = 200
SQUARE = np.array([0.16, 0.16, 0.17], np.float32)  # a dark square of a pale set


def lab(bgr: tuple[float, float, float]) -> tuple[float, float, float]:
    lightness, a, b = (float(v) for v in bgr_to_lab(np.array([bgr], np.float32))[0])
    return (lightness, a, b)


def test_a_black_ball_on_a_black_square_shows_and_noise_on_black_does_not() -> None:
    square = lab(tuple(SQUARE))  # type: ignore[arg-type]
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
