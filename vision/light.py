"""Light normalisation: undo each frame's brightness, colour cast and light gradient.

The light on a board changes between frames (a lamp switched on, a cloud,
the camera's automatic exposure). Each cell's ``background`` colour (board
surface near its corners, see :mod:`vision.measure`) is compared with the
same place on the calibration image: the per-channel ratio, fitted over the
board as a plane ``g = a + b·x + c·y`` with outliers (stones, shadows, a hand
covering a corner) rejected, is the light gain at each cell. Dividing a
cell's colour by its gain brings it back to calibration light, so one
colour model serves any light that is a smooth per-channel gain.

A glare spot (a lamp mirrored by the board) is not a gain: it *adds* a
near-white light over a patch of the board, strongest in its middle. Where
a cell's own background is brighter in every channel than the fitted gain
predicts, :func:`glare_offset` takes the smallest of those excesses (white
light raises all three channels alike) as the light added over that cell,
and :func:`remove_light` subtracts it before dividing by the gain.
"""

from __future__ import annotations

import numpy as np

from vision.config import VisionConfig

ROUNDS = 3
MIN_RATIO = 0.2
MAX_RATIO = 5.0
CLIPPED = 0.97
"""A colour (0..1) with a channel at or above this is clipped by the camera."""


def light_gain(background: np.ndarray, reference: np.ndarray, design: np.ndarray, tolerance: float) -> np.ndarray:
    """Per-cell, per-channel gain (N×3) of this frame's light relative to the calibration light.

    ``design`` is the N×3 matrix ``[1, x, y]`` of the cells' normalised
    board positions (see :func:`design_matrix`); ``tolerance`` the smallest
    residual (as a ratio) still counted as an inlier. Each ratio weighs as
    its reference's brightness squared: noise, and any light added over the
    board (glare), move the ratio of a dark patch far more than a light one's.
    """
    ratio = np.clip(background / np.maximum(reference, 1e-3), MIN_RATIO, MAX_RATIO)
    # a clipped background only bounds its ratio from below: leave it out while enough others remain
    unclipped = background.max(axis=1) < CLIPPED
    gains = np.empty_like(ratio)
    for c in range(ratio.shape[1]):
        y = ratio[:, c]
        keep = unclipped.copy() if unclipped.sum() >= 6 else np.ones(len(y), dtype=bool)
        usable = keep.copy()
        coef = np.array([float(np.median(y)), 0.0, 0.0])
        for _ in range(ROUNDS):
            residual = y - design @ coef
            mad = float(np.median(np.abs(residual[keep]))) if keep.any() else 0.0
            keep = usable & (np.abs(residual) <= max(3.0 * 1.4826 * mad, tolerance))
            if keep.sum() < 6:
                coef = np.array([float(np.median(y)), 0.0, 0.0])
                break
            w = np.maximum(reference[keep, c], 0.02)[:, None]
            coef, *_ = np.linalg.lstsq(design[keep] * w, y[keep] * w[:, 0], rcond=None)
        gains[:, c] = design @ coef
    return np.clip(gains, MIN_RATIO, MAX_RATIO).astype(np.float32)


def lower_gain(
    background: np.ndarray, reference: np.ndarray, design: np.ndarray, quantile: float, rounds: int = 12
) -> np.ndarray:
    """Per-cell, per-channel gain (N×3) as the plane under the lower ``quantile`` of the light ratios.

    Glare only adds light, so where a wide spot lifts most of the board the
    gain lies low among the ratios, not at their median. Clipped backgrounds
    (a ratio that only bounds the light from below) are left out.
    """
    ratio = np.clip(background / np.maximum(reference, 1e-3), MIN_RATIO, MAX_RATIO)
    usable = background.max(axis=1) < CLIPPED
    if usable.sum() < 6:
        usable = np.ones(len(ratio), dtype=bool)
    x = design[usable]
    gains = np.empty_like(ratio)
    for c in range(ratio.shape[1]):
        y = ratio[usable, c]
        coef = np.array([float(np.quantile(y, quantile)), 0.0, 0.0])
        for _ in range(rounds):  # quantile regression by reweighted least squares
            residual = y - x @ coef
            weight = np.where(residual > 0, quantile, 1.0 - quantile) / np.maximum(np.abs(residual), 0.01)
            weight *= np.maximum(reference[usable, c], 0.02) ** 2
            w = np.sqrt(weight)[:, None]
            coef, *_ = np.linalg.lstsq(x * w, y * w[:, 0], rcond=None)
        gains[:, c] = design @ coef
    return np.clip(gains, MIN_RATIO, MAX_RATIO).astype(np.float32)


def glare_offset(
    background: np.ndarray, reference: np.ndarray, gain: np.ndarray, neighbours: np.ndarray | None, floor: float
) -> np.ndarray:
    """Additive white light over each cell (N, 0..1) beyond what ``gain`` explains; 0 below ``floor``.

    ``neighbours`` (N×K cell indices, padded with the cell itself) smooths the
    estimate over each cell and its neighbours with a median, so a stone or
    a shadow on one background patch does not count as glare.
    """
    excess = (background - gain * reference).min(axis=1)
    if neighbours is not None:
        excess = np.median(excess[neighbours], axis=1)
    return np.where(excess > floor, excess, 0.0).astype(np.float32)


def remove_light(disk: np.ndarray, gain: np.ndarray, glare: np.ndarray) -> np.ndarray:
    """Disk colours (N×3, 0..1) brought back to the calibration light: glare subtracted, gain divided out."""
    return (disk - glare[:, None]) / gain


def neighbour_table(neighbours: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """An N×K index array of each cell and its neighbours, padded by repeating the cell itself."""
    width = 1 + max((len(n) for n in neighbours), default=0)
    rows = [[i, *n] + [i] * (width - 1 - len(n)) for i, n in enumerate(neighbours)]
    return np.array(rows, dtype=np.intp)


def covered_cells(
    corners: np.ndarray, reference: np.ndarray, gain: np.ndarray, glare: np.ndarray, config: VisionConfig
) -> np.ndarray:
    """Cells whose board surface no longer looks like the lit calibration board (a hand, an arm, their shadow).

    ``corners`` (N×C×3) are the colours of the patches near each cell's
    corners, ``reference`` the same on the calibration image (N×C×3, or N×3
    when only each cell's pooled colour is known); ``glare`` the white light
    added over each cell (N) or over each patch (N×C). Once this frame's light (gain and glare) is accounted for, they
    must match the calibration image. A stone, or its shadow, reaches some of
    a cell's corner patches; a hand or an arm, far larger, reaches them all. A
    cell whose every patch is darker by more than ``config.covered_ratio``
    of its expected brightness, or brighter by more than
    ``config.covered_brighter`` (in some channel), is covered.
    """
    if reference.ndim == 2:
        reference = reference[:, None, :]
    # the camera clips: a patch expected brighter than white shows white
    added = glare[:, None, None] if glare.ndim == 1 else glare[:, :, None]
    expected = np.minimum(gain[:, None, :] * reference + added, 1.0)
    change = (corners - expected) / np.maximum(expected, config.covered_floor)
    # darker than expected: a hand's shadow; brighter: skin over a dark square (or a light misjudged where it clips)
    change = np.maximum(-change, change * (config.covered_ratio / config.covered_brighter))
    return change.max(axis=2).min(axis=1) > config.covered_ratio


def design_matrix(centres: np.ndarray) -> np.ndarray:
    """``[1, x, y]`` per cell, with x and y scaled to about -1..1 over the board."""
    mid = centres.mean(axis=0)
    span = np.maximum(np.ptp(centres, axis=0) / 2.0, 1e-6)
    scaled = (centres - mid) / span
    return np.column_stack([np.ones(len(centres)), scaled]).astype(np.float64)
