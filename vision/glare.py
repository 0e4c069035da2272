"""A lamp's reflection on the board (glare), fitted over the whole board from its bare surface.

A glossy board mirrors a lamp as a bright spot: white light added to the
board's surface, strongest in the middle and fading smoothly, often so
strong that the camera clips. Measured cell by cell (see
:func:`vision.light.glare_offset`) such a spot is underestimated twice over:
its peak lies between the few places where the bare board shows, and a
clipped place shows only part of the light added there.

:func:`fit_glare_spot` fits one spot over the board instead: the white
light that each light-reference patch (near a cell's corner) shows beyond
the frame's gain, with clipped patches counted as lower bounds, as a
log-quadratic field ``exp(q(x, y))`` of the
board position (the shape of a specular lobe). The fitted
:class:`GlareSpot` then gives the glare at any board point: cell centres,
corner patches, the pixels of a cell. Where no such spot fits (no glare, a
broad wash of light, two lamps) the fit declines and the per-cell estimate
stands.

A stone hides the board's reflection under it (a domed stone shows only its
own small highlight), so the reader subtracts a spot's light in full where
it expects bare board and only a veil of it (``VisionConfig.stone_glare``)
where it expects a stone (see :mod:`vision.pipeline`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.config import VisionConfig
from vision.light import (
    CLIPPED,
    clipped_need,
    expected_patches,
    light_gain,
    lower_gain,
    unclipped_excess,
    weighted_fit,
)

ROUNDS = 4
"""Refits of the spot, each with the patches' weights updated."""

SPOT_WIDTH = 1.0
"""Spread (board units) of the round spot fitted when too little of a spot shows to measure its width."""

GLARE_SLACK = 1.5
"""How much stronger than fitted a glare spot may be where the camera clips (see :func:`remove_board_light`)."""

SPOT_MARGIN = 0.95
"""A light with a glare spot is kept only if it misses the patches by at most this share of the light without."""

CLIP_AGREEMENT = 0.02
"""How far (0..1) a disk's unclipped channels may show less white light than its clipped ones need."""

STONE_SPREAD = 0.15
"""How much brighter (0..1) than its calibrated colour a stone's disk may show: one a little brighter may clip."""

MAX_GLARE = 2.0
"""The most white light (in units of full scale) a fitted spot is allowed to predict anywhere."""


@dataclass(frozen=True, eq=False)
class GlareSpot:
    """A fitted glare spot: ``log(light) = q(x, y)``, a quadratic in board coordinates normalised by
    ``origin`` and ``scale``; ``coef`` holds the six coefficients of ``1, x, y, x², xy, y²``."""

    coef: np.ndarray
    origin: np.ndarray
    scale: np.ndarray

    def at(self, points: np.ndarray) -> np.ndarray:
        """The white light (0..``MAX_GLARE``) the spot adds at each board point (an ...×2 array)."""
        pts = np.asarray(points, dtype=np.float64)
        flat = pts.reshape(-1, 2)
        log_light = _basis((flat - self.origin) / self.scale) @ self.coef
        light = np.exp(np.minimum(log_light, np.log(MAX_GLARE)))
        return light.reshape(pts.shape[:-1]).astype(np.float32)

    @property
    def peak(self) -> float:
        """The spot's brightest added light."""
        a, b, c = self.coef[3], self.coef[4], self.coef[5]
        # the maximum of the quadratic: solve its gradient for zero
        centre = np.linalg.solve(np.array([[2 * a, b], [b, 2 * c]]), -self.coef[1:3])
        return float(self.at(centre * self.scale + self.origin))


def _basis(xy: np.ndarray) -> np.ndarray:
    x, y = xy[:, 0], xy[:, 1]
    return np.column_stack([np.ones(len(xy)), x, y, x * x, x * y, y * y])


def patch_excess(corners: np.ndarray, reference: np.ndarray, gain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The white light each light-reference patch shows beyond the frame's gain, and whether it is clipped.

    ``corners`` (N×C×3, BGR 0..1) are the patches in this frame, ``reference``
    the same on the calibration image (N×C×3), ``gain`` the frame's gain per
    cell (N×3). White light raises every channel alike, so the smallest
    excess of the unclipped channels is the added light: a light wood board
    under a bright lamp clips its red channel all over, and that channel
    shows less than the light added. A patch clipped in every channel shows
    at least the light that clips it (a lower bound, flagged clipped).
    """
    lit = gain[:, None, :] * reference
    excess = unclipped_excess(corners, lit)
    clipped = ~np.isfinite(excess)
    return np.where(clipped, clipped_need(corners, lit), excess), clipped


def fit_glare_spot(
    points: np.ndarray, excess: np.ndarray, clipped: np.ndarray, config: VisionConfig | None = None
) -> GlareSpot | None:
    """The glare spot that best explains the patches' added light, or None when no single spot does.

    ``points`` (M×2) are the patches' board positions, ``excess`` (M) the
    white light they show and ``clipped`` (M) which ones the camera clipped
    (their light is a lower bound), all as from :func:`patch_excess`.

    Only lit patches count, and the fit follows their upper envelope: a
    patch in a stone's shadow, where the lamp's light does not reach, shows
    less of the spot than its neighbours (it weighs ``1 - config.glare_envelope``),
    and one far above the spot is a light stone over a dark patch (left out).
    The settings are ``config.glare_*`` (see :class:`~vision.config.VisionConfig`).
    """
    config = config or VisionConfig()
    floor, min_patches = config.glare_lit, config.glare_min_patches
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    light = np.asarray(excess, dtype=np.float64).ravel()
    lower = np.asarray(clipped, dtype=bool).ravel()
    lit = light > floor
    if int(lit.sum()) < min_patches:
        return None
    # bare board the spot does not reach: a patch darker than that is in a shadow and says nothing
    dark = ~lit & (light > -floor)
    keep = lit | dark
    pts, light, lower, lit = pts[keep], light[keep], lower[keep], lit[keep]
    origin = pts[np.argmax(light)]
    scale = np.full(2, max(float(np.ptp(pts, axis=0).max()) / 2.0, 0.5))
    xy = (pts - origin) / scale
    # the general spot first; when too little of it shows to bend it into a spot (cut by the board's edge, all
    # clipped), a round one; when even that will not close, a round one a cell wide
    coef = _envelope_fit(_basis(xy), lambda c: c, light, lower, lit, config)
    if coef is None or not _is_spot(coef):
        round_basis = np.column_stack([np.ones(len(xy)), xy, (xy**2).sum(axis=1)])
        coef = _envelope_fit(
            round_basis, lambda c: np.array([c[0], c[1], c[2], c[3], 0.0, c[3]]), light, lower, lit, config
        )
    if coef is None or not _is_spot(coef):
        bend = -0.5 * (scale[0] / SPOT_WIDTH) ** 2
        fixed = np.column_stack([np.ones(len(xy)), xy])
        coef = _envelope_fit(
            fixed,
            lambda c: np.array([c[0], c[1], c[2], bend, 0.0, bend]),
            light,
            lower,
            lit,
            config,
            offset=bend * (xy**2).sum(axis=1),
        )
    if coef is None or not _is_spot(coef):
        return None  # not a spot: a wash of light that grows towards an edge
    spot = GlareSpot(coef=coef, origin=origin, scale=scale)
    if spot.peak < config.glare_min_peak:
        return None
    # a real spot lights most bare patches in its core; scattered bright patches (stones) light few
    core = spot.at(pts) > 2.0 * floor  # every patch kept is lit or bare: shadowed ones were left out
    if not core.any() or float(lit[core].mean()) < config.glare_min_lit_share:
        return None
    return spot


def _is_spot(coef: np.ndarray) -> bool:
    a, b, c = coef[3], coef[4], coef[5]
    return bool(a < 0 and c < 0 and 4 * a * c - b * b > 0)


def _envelope_fit(
    basis: np.ndarray,
    full: Callable[[np.ndarray], np.ndarray],
    light: np.ndarray,
    lower: np.ndarray,
    lit: np.ndarray,
    config: VisionConfig,
    offset: np.ndarray | float = 0.0,
) -> np.ndarray | None:
    """Fit ``log(light) - offset`` on ``basis`` to the upper envelope of the lit patches, bounded above by the
    unlit ones; returns the six quadratic coefficients (``full`` maps the fit's own to them), or None."""
    floor = config.glare_lit
    log_floor = float(np.log(floor))
    observed = np.log(np.maximum(light, floor))
    coef = _weighted_fit(basis[lit], (observed - offset)[lit], light[lit])
    for _ in range(ROUNDS):
        if coef is None:
            return None
        predicted = basis @ coef + offset
        residual = observed - predicted
        weight = light * np.where(residual > 0, config.glare_envelope, 1.0 - config.glare_envelope)
        weight[lower & (residual < 0)] = 0.0  # a clipped patch the spot already outshines says nothing more
        weight[lit & (residual > np.log(config.glare_outlier_ratio))] = 0.0
        # an unlit patch only bounds the spot from above
        weight[~lit] = np.where(predicted[~lit] > log_floor, floor * (1.0 - config.glare_envelope), 0.0)
        if int((weight[lit] > 0).sum()) < config.glare_min_patches:
            return None
        use = weight > 0
        target = np.where(lit, observed, log_floor) - offset
        coef = _weighted_fit(basis[use], target[use], weight[use])
    return None if coef is None else full(coef)


def _weighted_fit(basis: np.ndarray, target: np.ndarray, weight: np.ndarray) -> np.ndarray | None:
    if len(target) < basis.shape[1]:
        return None
    return weighted_fit(basis, target, weight)


@dataclass(frozen=True, eq=False)
class FrameLight:
    """A frame's light over the board: the gain per cell and channel (N×3) and the glare spot, if any."""

    gain: np.ndarray
    spot: GlareSpot | None


LOWER_QUANTILE = 0.25
"""The gain a wide glare cannot lift is looked for this low among the light ratios."""


def fit_frame_light(
    corners: np.ndarray,
    corner_reference: np.ndarray,
    corner_points: np.ndarray,
    background: np.ndarray,
    reference: np.ndarray,
    design: np.ndarray,
    gain: np.ndarray,
    rounds: int,
    config: VisionConfig,
) -> FrameLight:
    """The gain and glare spot that together best explain the light-reference patches.

    ``corners``, ``corner_reference`` and ``corner_points`` are the patches
    in this frame, on the calibration image and on the board (N×C×3, N×C×3,
    N×C×2); ``background`` and ``reference`` the same pooled per cell (N×3);
    ``gain`` the gain fitted as if there were no glare. A spot lifts the
    ratios the gain is fitted from, and a wide one lifts most of them, so the
    gain and the spot are fitted in turn (``rounds`` times) from two starts:
    ``gain`` and the plane under the lower ratios. The light kept is the one
    whose prediction of every patch (clipping included) misses least, the
    glare-free ``gain`` among them.
    """
    candidates = [FrameLight(gain, None)]
    excess, clipped = patch_excess(corners, corner_reference, gain)
    if int((excess > config.glare_lit).sum()) < config.glare_min_patches and not clipped.any():
        return candidates[0]  # nothing lit, nothing clipped: no spot to look for (even a wide one shows its core)
    for start in (gain, lower_gain(background, reference, design, LOWER_QUANTILE)):
        current = start
        for turn in range(rounds):
            seen = (
                (excess, clipped) if turn == 0 and current is gain else patch_excess(corners, corner_reference, current)
            )
            spot = fit_glare_spot(corner_points, *seen, config)
            if spot is None:
                break
            candidates.append(FrameLight(current, spot))
            unlit = np.median(corners - spot.at(corner_points)[..., None], axis=1)
            # the spot is out of these ratios: a plain robust fit follows them best
            current = light_gain(unlit, reference, design, config.light_tolerance, agree=False)
    # the turns can also run away (a spot too strong darkens the board, which lowers the gain, which grows the
    # spot): every pair met is a candidate, and the one that explains the patches best is kept
    misses = [_miss(light, corners, corner_reference, corner_points) for light in candidates]
    best = int(np.argmin(misses))
    return candidates[best] if misses[best] <= SPOT_MARGIN * misses[0] else candidates[0]


def _miss(light: FrameLight, corners: np.ndarray, corner_reference: np.ndarray, corner_points: np.ndarray) -> float:
    added = 0.0 if light.spot is None else light.spot.at(corner_points)[..., None]
    return float(np.median(np.abs(corners - expected_patches(corner_reference, light.gain, added))))


def remove_board_light(
    seen: np.ndarray, gain: np.ndarray, glare: np.ndarray, empty_bgr: np.ndarray, slack: float = GLARE_SLACK
) -> np.ndarray:
    """Colours (...×3, 0..1: cells' disks, or every pixel of them) brought back to the calibration light as
    bare board would be: the glare (the same shape without the channels) subtracted in full, the gain
    (broadcast to ...×3) divided out.

    Where the camera clipped a channel that the empty board (``empty_bgr``,
    calibration light, broadcast like ``gain``) would clip too under this
    light (with the glare up to ``slack`` times as strong as given; for a
    fitted spot, whose peak is often underestimated, ``GLARE_SLACK``), the
    clipped value agrees with the empty board: it reads no darker than it.
    """
    plain = (seen - glare[..., None]) / gain
    clipped = (seen >= CLIPPED) & (gain * empty_bgr + slack * glare[..., None] >= CLIPPED)
    return np.where(clipped, np.maximum(plain, empty_bgr), plain)


def clipped_glare(
    disk: np.ndarray, gain: np.ndarray, glare: np.ndarray, empty_bgr: np.ndarray, stones_bgr: np.ndarray, veil: float
) -> np.ndarray:
    """The white light over each cell (N) that its disk (N×3, 0..1) shows where the camera clipped it, read as
    bare board (``empty_bgr`` under ``gain``); ``glare`` where the disk is not clipped, or does not read so.

    A clipped channel needs at least the light that lifts the empty board to
    full scale; the unclipped ones show theirs. White light lifts every
    channel alike, so the disk is bare board under that light when its
    unclipped channels show (within ``CLIP_AGREEMENT``) at least what the
    clipped ones need. A stone hides the board's reflection (``veil`` of
    ``glare`` reaches it), so it clips only in light bright enough for its
    own colour (``stones_bgr``, K×3) to clip: where some stone would clip the
    same channels (within ``STONE_SPREAD``), the clipped disk says nothing
    and ``glare`` stands. Never less than ``glare``.
    """
    clipped = disk >= CLIPPED
    lit = gain * empty_bgr
    shown = unclipped_excess(disk, lit)
    needed = clipped_need(disk, lit)
    shown = np.where(np.isfinite(shown), shown, needed)  # clipped in every channel: it shows what it needs
    reads_bare = (
        clipped.any(axis=1) & (shown >= needed - CLIP_AGREEMENT) & ~stone_may_clip(disk, gain, glare, stones_bgr, veil)
    )
    return np.where(reads_bare, np.maximum(np.maximum(shown, needed), glare), glare).astype(np.float32)


def stone_may_clip(
    disk: np.ndarray,
    gain: np.ndarray,
    glare: np.ndarray,
    stones_bgr: np.ndarray,
    veil: float,
    spread: float = STONE_SPREAD,
) -> np.ndarray:
    """Whether some stone (``stones_bgr``, K×3) could clip each disk's (N×3) clipped channels under this light
    (N): ``gain`` and the ``veil`` of ``glare`` that reaches a stone, the stone up to ``spread`` brighter than
    calibrated."""
    clipped = disk >= CLIPPED
    stone = gain[:, None, :] * stones_bgr[None, :, :] + veil * glare[:, None, None]
    return np.all((stone >= CLIPPED - spread) | ~clipped[:, None, :], axis=2).any(axis=1)
