"""The bare board under a lamp's glare.

The light field of :mod:`vision.cells` is smooth; glare is not. It is a lamp
mirrored by the board's bare surface: the lamp's own light added to the
board's own colour (0..1), clipped where the camera clips. Calibration's
light shows white; a lamp of another colour shows its glare in its colour
(:func:`lamp_hue`): under a cyan lamp a spot brightens blue and green and
leaves red black. It washes the board's texture out by the share of the
brightness it adds (a clipped spot shows none). A stone hides it.

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
    return _shown_as_is(np.exp(seen) - LOG_FLOOR, seen)


def _shown_as_is(shown: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """:func:`shows_hue` of log colours ``seen`` whose colours (0..1) ``shown`` are already known."""
    return (shown < CLIPPED) & (seen > DARKEST + AT_LIMIT)


def lamp_hue(light: np.ndarray) -> np.ndarray:
    """The colour of the lamp that a light shows (…×3, 0..1, its brightest channel 1), from the light (…×3, log
    colour added to calibration's): each channel's gain on calibration's light, which shows white."""
    light = np.asarray(light, dtype=np.float64)
    return np.exp(light - light.max(axis=-1, keepdims=True))


def lit_surface(
    board: np.ndarray, seen: np.ndarray, hue: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the bare board (its look ``board``, …×F, colour in this frame's light) shows under the glare that
    best explains the colour ``seen`` (…×F): that look, the glare (…, 0..1: the light it adds, the mean over
    the channels), and the share of the spot's light the glare adds (…, 0..1). ``hue``: the lamp's colour
    (…×3, see :func:`lamp_hue`), white when None."""
    expected = np.maximum(np.exp(board[..., :3]) - LOG_FLOOR, 0.0)
    shown = np.exp(seen[..., :3]) - LOG_FLOOR
    colour = np.ones_like(expected) if hue is None else np.broadcast_to(np.asarray(hue, np.float64), expected.shape)
    unclipped = _shown_as_is(shown, seen[..., :3])
    # the lamp's light raises each channel by its colour: the least-squares amount over the unclipped channels
    reach = np.where(unclipped, colour, 0.0)
    told = (reach * reach).sum(axis=-1)
    amount = np.maximum((reach * (shown - expected)).sum(axis=-1) / np.maximum(told, 1e-12), 0.0)
    every = told < 1e-6
    # a spot the camera shows clipped in every channel: the least glare that clips them all
    clipping = ((CLIPPED - expected) / np.maximum(colour, 1e-3)).max(axis=-1)
    amount = np.where(every, np.maximum(clipping, 0.0), amount)
    added = amount[..., None] * colour
    glare = added.mean(axis=-1)
    lit = np.minimum(expected + added, 1.0)
    out = board.copy()
    out[..., :3] = np.log(lit + LOG_FLOOR)
    brightness = expected.mean(axis=-1)
    wash = np.where(every, 0.0, brightness / np.maximum(brightness + glare, 1e-6))
    out[..., 3:] = board[..., 3:] * wash[..., None]
    return out, glare, 1.0 - wash
