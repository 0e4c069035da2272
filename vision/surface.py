"""The bare board under a lamp's glare.

The light field of :mod:`vision.cells` is smooth; glare is not. It is a lamp
mirrored by the board's bare surface: white light added to the board's own
colour (``w``, 0..1), clipped where the camera clips. It washes the board's
texture out by the share of the brightness it adds (a clipped spot shows
none). A stone hides it.

:func:`lit_surface` finds, for what a spot shows, the glare that best explains
its colour from the bare board's own, and what the bare board would then
show. A hand over the board changes the hue and the texture as well, which
glare does not explain.
"""

from __future__ import annotations

import numpy as np

from vision.board_image import AT_LIMIT, DARKEST, LOG_FLOOR

CLIPPED = 0.98
"""A channel at least this bright (0..1) is clipped by the camera."""


def shows_hue(seen: np.ndarray) -> np.ndarray:
    """Which channels of log colours (any shape ×3) the camera shows as they are: neither clipped (``CLIPPED``)
    nor black (within :data:`~vision.board_image.AT_LIMIT` of it). Up to the clip itself, unlike
    :func:`~vision.board_image.tells_light`, which the cells' light fit keeps ``AT_LIMIT`` below it: the
    glare and the rim's hue are judged from every channel the camera did not clip."""
    return (np.exp(seen) - LOG_FLOOR < CLIPPED) & (seen > DARKEST + AT_LIMIT)


def lit_surface(board: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the bare board (its look ``board``, …×F, colour in this frame's light) shows under the glare that
    best explains the colour ``seen`` (…×F): that look, the glare (…, 0..1 white light added), and the share
    of the spot's light the glare adds (…, 0..1)."""
    expected = np.maximum(np.exp(board[..., :3]) - LOG_FLOOR, 0.0)
    shown = np.exp(seen[..., :3]) - LOG_FLOOR
    unclipped = shows_hue(seen[..., :3])
    count = unclipped.sum(axis=-1)
    # white light raises every channel alike: the mean excess of the unclipped channels
    excess = np.where(unclipped, shown - expected, 0.0).sum(axis=-1) / np.maximum(count, 1)
    glare = np.maximum(excess, 0.0)
    every = count == 0
    glare = np.where(every, np.maximum(CLIPPED - expected.min(axis=-1), 0.0), glare)
    lit = np.minimum(expected + glare[..., None], 1.0)
    out = board.copy()
    out[..., :3] = np.log(lit + LOG_FLOOR)
    brightness = expected.mean(axis=-1)
    wash = np.where(every, 0.0, brightness / np.maximum(brightness + glare, 1e-6))
    out[..., 3:] = board[..., 3:] * wash[..., None]
    return out, glare, 1.0 - wash
