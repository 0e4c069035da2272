"""Light normalisation: undo each frame's brightness, colour cast and light gradient.

The light on a board changes between frames (a lamp switched on, a cloud,
the camera's automatic exposure). Each cell's ``background`` colour (board
surface near its corners, see :mod:`vision.measure`) is compared with the
same place on the calibration image: the per-channel ratio, fitted over the
board as a plane ``g = a + b·x + c·y`` with outliers (stones, shadows, a hand
covering a corner) rejected, is the light gain at each cell. Dividing a
cell's colour by its gain brings it back to calibration light, so one
colour model serves any light that is a smooth per-channel gain.
"""

from __future__ import annotations

import numpy as np

ROUNDS = 3
MIN_RATIO = 0.2
MAX_RATIO = 5.0


def light_gain(background: np.ndarray, reference: np.ndarray, design: np.ndarray, tolerance: float) -> np.ndarray:
    """Per-cell, per-channel gain (N×3) of this frame's light relative to the calibration light.

    ``design`` is the N×3 matrix ``[1, x, y]`` of the cells' normalised
    board positions (see :func:`design_matrix`); ``tolerance`` the smallest
    residual (as a ratio) still counted as an inlier.
    """
    ratio = np.clip(background / np.maximum(reference, 1e-3), MIN_RATIO, MAX_RATIO)
    gains = np.empty_like(ratio)
    for c in range(ratio.shape[1]):
        y = ratio[:, c]
        keep = np.ones(len(y), dtype=bool)
        coef = np.array([float(np.median(y)), 0.0, 0.0])
        for _ in range(ROUNDS):
            residual = y - design @ coef
            mad = float(np.median(np.abs(residual[keep]))) if keep.any() else 0.0
            keep = np.abs(residual) <= max(3.0 * 1.4826 * mad, tolerance)
            if keep.sum() < 6:
                coef = np.array([float(np.median(y)), 0.0, 0.0])
                break
            coef, *_ = np.linalg.lstsq(design[keep], y[keep], rcond=None)
        gains[:, c] = design @ coef
    return np.clip(gains, MIN_RATIO, MAX_RATIO).astype(np.float32)


def design_matrix(centres: np.ndarray) -> np.ndarray:
    """``[1, x, y]`` per cell, with x and y scaled to about -1..1 over the board."""
    mid = centres.mean(axis=0)
    span = np.maximum(np.ptp(centres, axis=0) / 2.0, 1e-6)
    scaled = (centres - mid) / span
    return np.column_stack([np.ones(len(centres)), scaled]).astype(np.float64)
