"""Kaskade balls: how many balls (0..3) lie in each cell, and their colour.

A Kaskade cell holds up to three small balls of one colour, side by side and
rarely centred, so the colour of a central disk says little (two balls leave
the middle of the cell bare). Instead every pixel of a disk wide enough to
hold three balls (see :class:`~vision.measure.CellMeasures` ``pixels``) is
brought back to the calibration light. A pixel that differs from the cell's
own empty colour by more than ``config.ball_pixel_change`` (Lab units) shows
a ball: its body, its shaded rim or its shadow (a white ball on a white
board differs from it only there), and takes the nearest calibrated ball
colour. The ball pixels of a cell, divided by the area one ball
shows in that cell (``ColourModel.ball_area``, fitted from the calibration
photos where each stone is a single ball), give the count; the colour is the one most of
those pixels have.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.classify import Classifier
from vision.config import VisionConfig
from vision.measure import bgr_to_lab

MAX_BALLS = 3


@dataclass(frozen=True, eq=False)
class BallCounts:
    """Balls of every cell: ``symbols`` (``.`` when none), ``counts`` 0..3, ``confidence`` 0..1, ``area``
    (ball pixels found, in units of one ball's area)."""

    symbols: tuple[str, ...]
    counts: tuple[int, ...]
    confidence: tuple[float, ...]
    area: np.ndarray


def ball_pixels(
    pixels: np.ndarray, gain: np.ndarray, glare: np.ndarray, classifier: Classifier, config: VisionConfig
) -> np.ndarray:
    """Per cell, how many pixels show each ball colour (N×K, ``classifier.names[1:]`` order).

    ``pixels`` are the cells' disk pixels (N×P×3 BGR, 0..1); ``gain`` and
    ``glare`` the frame's light at each cell (see :mod:`vision.light`).
    """
    n, p, _ = pixels.shape
    if classifier.means.shape[0] == 0:
        return np.zeros((n, 0))
    plain = (pixels - glare[:, None, None].astype(np.float32)) / gain[:, None, :].astype(np.float32)
    lab = bgr_to_lab(plain.reshape(-1, 3)).reshape(n, p, 3)
    diff = lab - classifier.empty[:, None, :]
    is_ball = np.einsum("npc,npc->np", diff, diff) > config.ball_pixel_change**2
    sigmas = np.maximum(classifier.sigmas, config.pixel_sigma_floor)
    k = classifier.means.shape[0]
    best = np.zeros((n, p), dtype=np.intp)
    nearest = np.full((n, p), np.inf, dtype=np.float32)
    for j in range(k):
        scaled = (lab - classifier.means[j]) / sigmas[j]
        d = np.einsum("npc,npc->np", scaled, scaled)
        closer = d < nearest
        best[closer] = j
        nearest = np.minimum(nearest, d)
    return np.stack([(is_ball & (best == j)).sum(axis=1) for j in range(k)], axis=1).astype(np.float64)


def count_balls(per_colour: np.ndarray, ball_area: np.ndarray, classifier: Classifier) -> BallCounts:
    """Counts and colours from the ball pixels of each cell (see :func:`ball_pixels`).

    ``ball_area`` (N×K) holds the ball pixels one ball of each colour shows in each cell.
    """
    n = per_colour.shape[0]
    if per_colour.shape[1] == 0:
        return BallCounts((".",) * n, (0,) * n, (1.0,) * n, np.zeros(n))
    total = per_colour.sum(axis=1)
    colour = per_colour.argmax(axis=1)
    area = total / np.maximum(ball_area[np.arange(n), colour], 1.0)
    counts = np.clip(np.floor(area + 0.5), 0, MAX_BALLS).astype(int)
    # how far the area is from the nearest boundary between two counts (1 in the middle, 0 on a boundary)
    margin = np.where(area >= MAX_BALLS, 1.0, 1.0 - 2.0 * np.abs(area - np.floor(area + 0.5)))
    purity = per_colour.max(axis=1) / np.maximum(total, 1.0)
    names = classifier.names[1:]
    symbols = tuple("." if c == 0 else names[k] for c, k in zip(counts, colour, strict=True))
    confidence = np.where(counts == 0, 0.5 + 0.5 * margin, (0.5 + 0.5 * margin) * np.minimum(1.0, 2.0 * purity - 0.2))
    return BallCounts(
        symbols=symbols,
        counts=tuple(int(c) for c in counts),
        confidence=tuple(float(c) for c in confidence),
        area=area,
    )
