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
and :func:`remove_light` subtracts it before dividing by the gain. A spot
too small or too strong for these per-cell estimates (it peaks between the
patches, or the camera clips it) is fitted over the whole board by
:mod:`vision.glare`.

The gain's fit starts from the plane most cells agree with (see
:func:`consensus`), so that an arm over a large part of a small board does
not tilt it. A cell is covered (:func:`covered_cells`) when all its corner
patches changed, and a frame is covered (:func:`hand_over_board`) when two
cells are, or one on the board's edge, where an arm reaches in.
"""

from __future__ import annotations

import numpy as np

from vision.config import VisionConfig

ROUNDS = 3
MIN_RATIO = 0.2
MAX_RATIO = 5.0
CLIPPED = 0.97
"""A colour (0..1) with a channel at or above this is clipped by the camera."""


def weighted_fit(design: np.ndarray, target: np.ndarray, weight: np.ndarray | None = None) -> np.ndarray | None:
    """Weighted least-squares coefficients of ``target`` on the columns of ``design`` (rows weigh ``weight``),
    by the normal equations: the problems here have a handful of columns, for which this is many times
    faster than a general solver. None when they do not determine the coefficients."""
    xt = design.T if weight is None else design.T * weight
    try:
        coef = np.linalg.solve(xt @ design, xt @ target)
    except np.linalg.LinAlgError:
        return None
    return coef if np.all(np.isfinite(coef)) else None


CONSENSUS_TRIALS = 64
"""Planes tried, each through three cells, to find the light most of the board agrees with."""
CONSENSUS_SHARE = 0.12
"""A cell agrees with a light plane when its ratio lies within this share of the board's typical ratio."""


def consensus(ratio: np.ndarray, design: np.ndarray, usable: np.ndarray, tolerance: float) -> np.ndarray | None:
    """The cells (a boolean N array) that agree, in every channel, with the light plane most cells agree with.

    Planes through ``CONSENSUS_TRIALS`` triples of ``usable`` cells (chosen
    the same way every time, so a frame always reads the same) are scored
    by how many cells lie within ``CONSENSUS_SHARE`` of them (at least
    ``tolerance``). None with too few usable cells.
    """
    idx = np.flatnonzero(usable)
    if len(idx) < 6:
        return None
    rng = np.random.default_rng(len(idx))
    triples = idx[np.argsort(rng.random((CONSENSUS_TRIALS, len(idx))), axis=1)[:, :3]]
    corners = design[triples]  # K×3 points×3 terms
    solvable = np.abs(np.linalg.det(corners)) > 1e-6
    if not solvable.any():
        return None
    planes = np.linalg.solve(corners[solvable], ratio[triples[solvable]])  # K×3 terms×3 channels
    predicted = np.einsum("nt,ktc->knc", design, planes)
    tol = np.maximum(CONSENSUS_SHARE * np.median(ratio[usable], axis=0), tolerance)
    agree = (np.abs(predicted - ratio[None]) <= tol).all(axis=2) & usable
    best = agree[int(np.argmax(agree.sum(axis=1)))]
    return best if best.sum() >= 6 else None


def light_gain(
    background: np.ndarray, reference: np.ndarray, design: np.ndarray, tolerance: float, agree: bool = True
) -> np.ndarray:
    """Per-cell, per-channel gain (N×3) of this frame's light relative to the calibration light.

    ``design`` is the N×3 matrix ``[1, x, y]`` of the cells' normalised
    board positions (see :func:`design_matrix`); ``tolerance`` the smallest
    residual (as a ratio) still counted as an inlier. Each ratio weighs as
    its reference's brightness squared: noise, and any light added over the
    board (glare), move the ratio of a dark patch far more than a light one's.
    With ``agree`` the fit starts from the plane most cells agree with (see
    :func:`consensus`), so that a hand over a large part of the board does
    not tilt it.
    """
    ratio, usable = _ratios(background, reference)
    agreed = consensus(ratio, design, usable, tolerance) if agree else None
    gains = np.empty_like(ratio)
    for c in range(ratio.shape[1]):
        y = ratio[:, c]
        keep = usable.copy()
        coef = np.array([float(np.median(y)), 0.0, 0.0])
        weight = np.maximum(reference[:, c], 0.02) ** 2
        start = None if agreed is None else weighted_fit(design[agreed], y[agreed], weight[agreed])
        if agreed is not None and start is not None:
            # start from the plane most of the board agrees with: a hand over a third of it does not tilt it
            keep, coef = agreed, start
        for _ in range(ROUNDS):
            residual = y - design @ coef
            mad = float(np.median(np.abs(residual[keep]))) if keep.any() else 0.0
            keep = usable & (np.abs(residual) <= max(3.0 * 1.4826 * mad, tolerance))
            if keep.sum() < 6:
                coef = np.array([float(np.median(y)), 0.0, 0.0])
                break
            fitted = weighted_fit(design[keep], y[keep], weight[keep])
            if fitted is None:
                coef = np.array([float(np.median(y)), 0.0, 0.0])
                break
            coef = fitted
        gains[:, c] = design @ coef
    return np.clip(gains, MIN_RATIO, MAX_RATIO).astype(np.float32)


def _ratios(background: np.ndarray, reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's light ratio (N×3) and which cells to fit it on: a clipped background only bounds its
    ratio from below, so it is left out while enough others remain."""
    ratio = np.clip(background / np.maximum(reference, 1e-3), MIN_RATIO, MAX_RATIO)
    unclipped = background.max(axis=1) < CLIPPED
    usable = unclipped if unclipped.sum() >= 6 else np.ones(len(ratio), dtype=bool)
    return ratio, usable


def lower_gain(
    background: np.ndarray, reference: np.ndarray, design: np.ndarray, quantile: float, rounds: int = 12
) -> np.ndarray:
    """Per-cell, per-channel gain (N×3) as the plane under the lower ``quantile`` of the light ratios.

    Glare only adds light, so where a wide spot lifts most of the board the
    gain lies low among the ratios, not at their median. Clipped backgrounds
    (a ratio that only bounds the light from below) are left out.
    """
    ratio, usable = _ratios(background, reference)
    x = design[usable]
    gains = np.empty_like(ratio)
    for c in range(ratio.shape[1]):
        y = ratio[usable, c]
        coef = np.array([float(np.quantile(y, quantile)), 0.0, 0.0])
        for _ in range(rounds):  # quantile regression by reweighted least squares
            residual = y - x @ coef
            weight = np.where(residual > 0, quantile, 1.0 - quantile) / np.maximum(np.abs(residual), 0.01)
            weight *= np.maximum(reference[usable, c], 0.02) ** 2
            fitted = weighted_fit(x, y, weight)
            if fitted is None:
                break
            coef = fitted
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
    cell whose every patch is darker by more than ``config.covered_darker``
    of its expected brightness, or brighter by more than
    ``config.covered_brighter`` (in some channel), or shifted in hue (see
    below), is covered. Stones all round a cell can shade every one of its
    patches, but no deeper than a stone's shadow.
    """
    if reference.ndim == 2:
        reference = reference[:, None, :]
    added = glare[:, None, None] if glare.ndim == 1 else glare[:, :, None]
    expected = expected_patches(reference, gain, added)
    difference = corners - expected
    change = difference / np.maximum(expected, config.covered_floor)
    # darker than expected: a hand's shadow (deeper than stones'); brighter: skin over a dark square (or a light
    # misjudged where it clips)
    change = np.maximum(
        -change * (config.covered_ratio / config.covered_darker),
        change * (config.covered_ratio / config.covered_brighter),
    ).max(axis=2)
    # another hue: skin as bright as a light square still shifts its channels against each other (a shadow or a
    # change of light moves them alike)
    shift = np.ptp(difference, axis=2) / np.maximum(expected.max(axis=2), config.covered_floor)
    change = np.maximum(change, shift * (config.covered_ratio / config.covered_hue))
    return change.min(axis=1) > config.covered_ratio


def crossed_border(
    border: np.ndarray, reference: np.ndarray, gain: np.ndarray, glare: np.ndarray, config: VisionConfig
) -> bool:
    """Whether an arm crosses the ring of patches around the board: two neighbours in the ring (``border``,
    M×3, in order around it; ``reference`` the same on the calibration image) whose unclipped channels change
    against each other by more than ``config.border_hue`` of the patch's expected brightness under this
    frame's ``gain`` (M×3) and white light ``glare`` (M).

    A hand reaching for a cell crosses the board's rim, however thin the
    fingers the cells see. Skin and sleeves shift the channels of the rim
    against each other; a change of light, glare and shadows move them
    alike (only unclipped channels are compared: glare that clips some
    channels holds the others back).
    """
    expected = expected_patches(reference[:, None, :], gain, glare[:, None, None])[:, 0, :]
    unclipped = border < CLIPPED
    difference = np.where(unclipped, border - expected, np.nan)
    known = unclipped.sum(axis=1) >= 2
    spread = np.zeros(len(border))
    if known.any():
        spread[known] = np.nanmax(difference[known], axis=1) - np.nanmin(difference[known], axis=1)
    crossed = spread > config.border_hue * np.maximum(expected.max(axis=1), config.covered_floor)
    return bool((crossed & np.roll(crossed, 1)).any())


def unclipped_excess(seen: np.ndarray, lit: np.ndarray) -> np.ndarray:
    """The white light colours (...×3, 0..1) show beyond ``lit`` (the same shape), from their unclipped
    channels only: white light raises every channel alike, so the smallest excess is the light added, and a
    clipped channel shows less than that. Infinite where every channel is clipped (...)."""
    return np.where(seen >= CLIPPED, np.inf, seen - lit).min(axis=-1)


def clipped_need(seen: np.ndarray, lit: np.ndarray) -> np.ndarray:
    """The least white light colours (...×3, 0..1) need, beyond ``lit`` (the same shape), to show their clipped
    channels: the most that lifts one of those to full scale. Minus infinity where no channel is clipped."""
    return np.where(seen >= CLIPPED, CLIPPED - lit, -np.inf).max(axis=-1)


def expected_patches(reference: np.ndarray, gain: np.ndarray, added: np.ndarray | float) -> np.ndarray:
    """What the light-reference patches (``reference``, N×C×3 on the calibration image) should show under
    this frame's gain (N×3) with white light ``added`` (broadcast to N×C×1): the camera clips, so a patch
    expected brighter than white shows white."""
    return np.minimum(gain[:, None, :] * reference + added, 1.0)


def edge_cells(neighbours: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """The cells on the board's edge (a boolean N array): those with fewer neighbours than inner cells."""
    most = max((len(n) for n in neighbours), default=0)
    return np.array([len(n) < most for n in neighbours], dtype=bool)


def hand_over_board(covered: np.ndarray, edge_cells: np.ndarray, min_covered: int) -> bool:
    """Whether the covered cells (a boolean N array) are a hand or an arm: at least ``min_covered`` of them,
    or any on the board's edge (``edge_cells``), where an arm reaches in from outside. A stone and its
    shadow, tilted towards the camera, can change every corner of one cell inside the board."""
    return int(covered.sum()) >= min_covered or bool((covered & edge_cells).any())


def design_matrix(centres: np.ndarray) -> np.ndarray:
    """``[1, x, y]`` per cell, with x and y scaled to about -1..1 over the board."""
    mid = centres.mean(axis=0)
    span = np.maximum(np.ptp(centres, axis=0) / 2.0, 1e-6)
    scaled = (centres - mid) / span
    return np.column_stack([np.ones(len(centres)), scaled]).astype(np.float64)


def light_doubt(gain: np.ndarray, free: float) -> np.ndarray:
    """How far (a log ratio, N) each cell's light may be off: how much further than
    ``free`` its fitted gain (N×3) lies from the board's typical gain.

    Real light changes gently across a board; a gain fitted much brighter
    over one part of it than over the rest is as likely a lamp's reflection
    on the bare board, which the stones there do not show.
    """
    level = np.log(np.maximum(gain, 1e-3)).mean(axis=1)
    return np.maximum(np.abs(level - np.median(level)) - free, 0.0).astype(np.float32)
