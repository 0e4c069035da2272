"""The bare board under this frame's odd light: a lamp's glare and a stone's shadow.

The light field of :mod:`vision.cells` is smooth; two things the board shows
are not:

- **glare**, a lamp mirrored by the board's bare surface: white light added
  to the board's own colour (``w``, 0..1), clipped where the camera clips.
  It washes the board's texture out by the share of the brightness it adds
  (a clipped spot shows none). A stone hides it.
- **shade**, a stone's (or a hand's) shadow: the light over a spot of the
  board cut to a share ``s`` of itself (no less than ``SHADE_MIN``). It
  leaves the board's hue and texture alone.

:func:`lit_surface` finds, for what a spot shows, the glare and shade that
best explain its colour from the bare board's own, and what the bare board
would then show. A hand over the board changes the hue and the texture as
well, which neither explains.
"""

from __future__ import annotations

import numpy as np

from vision.board_image import LOG_FLOOR

CLIPPED = 0.98
"""A channel at least this bright (0..1) is clipped by the camera."""
SHADE_MIN = 1.0
"""The least share of the light a shadow leaves on the board."""


def lit_surface(board: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What the bare board (its look ``board``, …×F, colour in this frame's light) shows under the glare and
    shade that best explain the colour ``seen`` (…×F): that look, the glare (…, 0..1 white light added), the
    shade (…, share of light left), and how much of the spot's light the two changed (…, 0..1)."""
    expected = np.exp(board[..., :3]) - LOG_FLOOR
    shown = np.exp(seen[..., :3]) - LOG_FLOOR
    mask = (shown < CLIPPED).astype(np.float64)
    every = mask.sum(axis=-1) == 0
    shade, glare = _fit(expected, shown, mask)
    glare = np.where(every, np.maximum(CLIPPED - expected.min(axis=-1), 0.0), glare)
    shade = np.where(every, 1.0, shade)
    lit = np.minimum(shade[..., None] * expected + glare[..., None], 1.0)
    out = board.copy()
    out[..., :3] = np.log(lit + LOG_FLOOR)
    brightness = shade * expected.mean(axis=-1)
    wash = np.where(every, 0.0, brightness / np.maximum(brightness + glare, 1e-6))
    out[..., 3:] = board[..., 3:] * wash[..., None]
    changed = np.clip((1.0 - wash) + (1.0 - shade), 0.0, 1.0)
    return out, glare, shade, changed


def _fit(expected: np.ndarray, shown: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The shade ``s`` (SHADE_MIN..1) and glare ``w`` (≥ 0) that make ``s · expected + w`` nearest ``shown``
    over the unclipped channels (``mask``), by least squares within those bounds."""
    m = mask
    see = (m * expected * expected).sum(axis=-1)
    se = (m * expected).sum(axis=-1)
    sm = m.sum(axis=-1)
    sec = (m * expected * shown).sum(axis=-1)
    sc = (m * shown).sum(axis=-1)
    candidates = []
    det = see * sm - se * se
    with np.errstate(divide="ignore", invalid="ignore"):
        s_free = np.where(np.abs(det) > 1e-12, (sec * sm - se * sc) / det, 1.0)
        w_free = np.where(np.abs(det) > 1e-12, (see * sc - se * sec) / det, 0.0)
        s_only = np.where(see > 1e-12, sec / see, 1.0)
    candidates.append((s_free, w_free))
    candidates.append((np.clip(s_only, SHADE_MIN, 1.0), np.zeros_like(see)))
    for s in (np.ones_like(see), np.full_like(see, SHADE_MIN)):
        w = np.where(sm > 0, (sc - s * se) / np.maximum(sm, 1e-12), 0.0)
        candidates.append((s, np.maximum(w, 0.0)))
    best_s, best_w = np.ones_like(see), np.zeros_like(see)
    best_r = np.full_like(see, np.inf)
    for s, w in candidates:
        feasible = (s >= SHADE_MIN - 1e-9) & (s <= 1.0 + 1e-9) & (w >= -1e-9)
        r = (m * (shown - s[..., None] * expected - w[..., None]) ** 2).sum(axis=-1)
        better = feasible & (r < best_r)
        best_s, best_w, best_r = np.where(better, s, best_s), np.where(better, w, best_w), np.where(better, r, best_r)
    return np.clip(best_s, SHADE_MIN, 1.0), np.maximum(best_w, 0.0)
