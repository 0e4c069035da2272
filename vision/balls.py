"""Kaskade balls: how many balls (0..3) lie in each cell, and their colour.

A Kaskade cell holds up to three small balls of one colour, side by side and
rarely centred, so the colour of a central disk says little (two balls leave
the middle of the cell bare). Instead every pixel of a disk wide enough to
hold three balls (see :class:`~vision.measure.CellMeasures` ``pixels``) is
brought back to the calibration light. A pixel that differs from the same
pixel of the empty board (``ColourModel.empty_pixels``; the cell's empty
colour for older models) by more than ``config.ball_pixel_change`` (Lab units) shows
a ball: its body, its shaded rim or its shadow (a white ball on a white
board differs from it only there). The balls are the discs those pixels
cover (see :mod:`vision.ball_peaks`). The colour is the calibrated ball
colour most of those pixels lie near (within ``config.ball_colour_distance``
spreads): a ball's shadow on a light square changes as many pixels as the
ball itself but looks like no ball colour, so it never votes for a colour.
One ball's area in each cell (``ColourModel.ball_area``, fitted from the
calibration photos where each stone is a single ball) says how much of its
disc a ball covers there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.ball_peaks import DiskGrid, find_balls
from vision.classify import Classifier
from vision.colour_model import ColourModel
from vision.config import VisionConfig
from vision.glare import remove_board_light
from vision.light import CLIPPED, clipped_need, unclipped_excess
from vision.measure import bgr_to_lab

DARK_FLOOR = 0.1
"""Smallest empty brightness (0..1) a pixel's darkening is taken relative to, so noise on black reads as none."""
MIN_MEASURED = 0.5
"""Least share of a cell's pixels, unclipped in some channel, from which its glare is measured: the median
of those is bare board only while bare board is most of them. Where the glare clips the board, the ball and
its shadow (up to two fifths of the cell with three balls) are what stays unclipped."""

SHOWN_FLOOR = 0.7
"""Least share of its disc one calibrated ball is taken to cover (see :func:`count_balls`)."""

CLIPPED_SHARE = 0.5
"""Least share of a Kaskade cell's pixels, clipped in some channel, that says how much glare it has at least:
more than three balls and their shadows cover."""
CLIPPED_BOARD_GLARE = 0.35
"""Most glare (0..1) a cell's clipped pixels are taken to need as bare board when the cell's glare cannot be
measured: a lamp's reflection clips a light square, never a dark one (nor a white ball on it)."""


@dataclass(frozen=True, eq=False)
class BallCounts:
    """Balls of every cell: ``symbols`` (``.`` when none), ``counts`` 0..3, ``confidence`` 0..1."""

    symbols: tuple[str, ...]
    counts: tuple[int, ...]
    confidence: tuple[float, ...]


@dataclass(frozen=True, eq=False)
class BallPixels:
    """The pixels of every cell that show a ball: ``mask`` (N×P), and ``votes`` (N×(K+1)): how many of them
    lie near each ball colour (the first K columns, ``classifier.names[1:]`` order) and near none (the last)."""

    mask: np.ndarray
    votes: np.ndarray


@dataclass(frozen=True, eq=False)
class EmptyPixels:
    """The pixels of every cell's wide disk on the empty board (``ColourModel.empty_pixels``), N×P×3 both in
    BGR (0..1) and in Lab, converted once rather than every frame."""

    bgr: np.ndarray
    lab: np.ndarray

    @classmethod
    def of(cls, model: ColourModel, per_cell: int) -> EmptyPixels | None:
        """The model's empty pixels for ``per_cell`` pixels per cell, or None when it has none."""
        bgr = model.empty_pixel_colours(per_cell)
        if bgr is None:
            return None
        return cls(bgr=bgr, lab=bgr_to_lab(bgr.reshape(-1, 3)).reshape(bgr.shape))


def ball_pixels(
    pixels: np.ndarray,
    gain: np.ndarray,
    glare: np.ndarray,
    classifier: Classifier,
    config: VisionConfig,
    empty: EmptyPixels | None = None,
    spot: np.ndarray | None = None,
) -> BallPixels:
    """The pixels of every cell that show a ball, and the ball colour each lies near.

    ``pixels`` are the cells' disk pixels (N×P×3 BGR, 0..1); ``gain`` and
    ``glare`` the frame's light at each cell (see :mod:`vision.light`);
    ``empty`` the same pixels on the empty board, or None to compare every
    pixel with its cell's empty colour; ``spot`` the white light a glare spot
    adds at each pixel (N×P, see :mod:`vision.glare`), or None. With
    ``empty``, the glare over each cell beyond the spot is measured on its
    own pixels rather than taken from ``glare``: a lamp's reflection adds
    white light to every pixel of the bare board, which is what most of a
    cell's pixels show beyond the empty board under ``gain`` (balls cover a
    few of them only), and at least what its clipped pixels need (see
    :func:`_clipped_board_glare`).

    A pixel darker than the empty board by ``config.ball_dark_ratio`` of it in
    every channel shows a ball too: a black ball on a black square differs
    from it by few Lab units, which squeezes dark colours together.

    A ball hides the board's reflection: a pixel is compared with the empty
    board with the glare added (each pixel within ``config.ball_glare_band``
    of it, see :func:`_pixel_glare`), and its colour is judged with only
    ``config.stone_glare`` of the glare removed. A pixel the camera clipped
    where the empty board would clip too is bare board.
    """
    n, p, _ = pixels.shape
    if classifier.means.shape[0] == 0:
        return BallPixels(mask=np.zeros((n, p), bool), votes=np.zeros((n, 1)))
    gain = gain.astype(np.float32)
    added = np.zeros((n, p), np.float32) if spot is None else spot.astype(np.float32)
    if empty is not None:
        lit = gain[:, None, :] * empty.bgr
        excess = unclipped_excess(pixels, lit) - added
        measured = np.isfinite(excess)
        excess = np.where(measured, excess, np.nan)
        enough = measured.sum(axis=1) >= MIN_MEASURED * p
        glare = np.zeros(n, np.float32)
        if enough.any():
            glare[enough] = np.nanpercentile(excess[enough], config.ball_glare_percentile, axis=1)
        glare = np.maximum(glare, _clipped_board_glare(pixels, lit, added))
        if spot is None:
            glare = np.maximum(glare, 0.0)
    # beyond a spot the cell's own pixels correct it either way (a spot's shape is only near the lamp's)
    added = np.maximum(added + glare[:, None].astype(np.float32), 0.0)
    empty_bgr = classifier.empty_bgr[:, None, :] if empty is None else empty.bgr
    board = remove_board_light(
        pixels, gain[:, None, :], _pixel_glare(pixels, gain, added, empty_bgr, config), empty_bgr
    )
    lab = bgr_to_lab(board.reshape(-1, 3)).reshape(n, p, 3)
    diff = lab - (classifier.empty[:, None, :] if empty is None else empty.lab)
    is_ball = np.einsum("npc,npc->np", diff, diff) > config.ball_pixel_change**2
    # near black, Lab squeezes a black ball against a dark square: in every channel it is clearly darker, though
    darker = ((empty_bgr - board) / np.maximum(empty_bgr, DARK_FLOOR)).min(axis=2)
    is_ball |= darker > config.ball_dark_ratio
    if np.any(added > 0):
        plain = (pixels - config.stone_glare * added[..., None]) / gain[:, None, :]
        lab = bgr_to_lab(plain.reshape(-1, 3)).reshape(n, p, 3)
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
    coloured = is_ball & (nearest <= 3.0 * config.ball_colour_distance**2)
    columns = [(coloured & (best == j)).sum(axis=1) for j in range(k)]
    columns.append((is_ball & ~coloured).sum(axis=1))
    return BallPixels(mask=is_ball, votes=np.stack(columns, axis=1).astype(np.float64))


def _clipped_board_glare(pixels: np.ndarray, lit: np.ndarray, added: np.ndarray) -> np.ndarray:
    """The glare (N) over each cell beyond ``added`` (N×P) that its clipped pixels need to be bare board: the
    median over the pixels clipped in some channel of the light that lifts the empty board under this light
    (``lit``, N×P×3) to full scale in those channels. None where fewer than ``CLIPPED_SHARE`` of the pixels
    clipped or they would need more than ``CLIPPED_BOARD_GLARE``.

    Where the glare clips a light square around a few balls, the balls and
    their shadows (which hide the reflection) can be most of what stays
    unclipped, and the median of those says the cell has no glare. But
    three balls and their shadows cover less than half the cell, so a cell
    clipped over half is clipped board; and only a little light clips a
    light square (a dark one, or a white ball on it, would need far more).
    """
    some = (pixels >= CLIPPED).any(axis=2)
    needed = np.where(some, clipped_need(pixels, lit) - added, np.nan)
    glare = np.zeros(len(pixels), np.float32)
    many = some.sum(axis=1) >= CLIPPED_SHARE * pixels.shape[1]
    if many.any():
        glare[many] = np.nanmedian(needed[many], axis=1)
    return np.where((glare > 0.0) & (glare <= CLIPPED_BOARD_GLARE), glare, 0.0).astype(np.float32)


def _pixel_glare(
    pixels: np.ndarray, gain: np.ndarray, added: np.ndarray, empty_bgr: np.ndarray, config: VisionConfig
) -> np.ndarray:
    """The glare each pixel (N×P) shows as bare board: the white light its unclipped channels show beyond the
    empty board, on average, kept within ``config.ball_glare_band`` of ``added`` (the cell's glare, N×P).

    A glare spot is smooth but never exactly the fitted shape, and under a
    strong one a few hundredths of error read as a colour change of many Lab
    units. Bare board under white light shows the same excess in every
    channel, and the band lets it show its own. A ball hides the glare: it
    shows less in every channel (a white or black ball, beyond the band) or
    uneven excesses (a red one), which no white light explains either way.
    A pixel clipped in every channel gets the band's top.
    """
    unclipped = pixels < CLIPPED
    excess = np.where(unclipped, pixels - gain[:, None, :] * empty_bgr, 0.0).sum(axis=2)
    shown = np.where(unclipped.any(axis=2), excess / np.maximum(unclipped.sum(axis=2), 1), np.inf)
    band = config.ball_glare_band
    return np.clip(shown, added * (1.0 - band), added * (1.0 + band)).astype(np.float32)


def count_balls(
    pixels: BallPixels,
    ball_area: np.ndarray,
    classifier: Classifier,
    grid: DiskGrid,
    need: float,
) -> BallCounts:
    """Counts and colours from the ball pixels of each cell (see :func:`ball_pixels`), laid out on ``grid``.

    ``ball_area`` (N×K) holds the ball pixels one ball of each colour shows
    in each cell; a ball there covers at least ``need`` of that share of its
    disc (``grid.radius_px``), and at least ``need`` of the whole disc where one
    ball shows more than its disc (its shadow). The share is never taken
    below ``SHOWN_FLOOR``: changed pixels strewn by noise cover a good part
    of a disc here and there.
    """
    votes = pixels.votes
    n = votes.shape[0]
    if votes.shape[1] <= 1:
        return BallCounts((".",) * n, (0,) * n, (1.0,) * n)
    per_colour = votes[:, :-1]
    colour = per_colour.argmax(axis=1)
    shown = np.clip(ball_area[np.arange(n), colour] / grid.disc_area, SHOWN_FLOOR, 1.0)
    peaks = find_balls(pixels.mask, grid, need * shown)
    counts, margin = peaks.counts, peaks.margin
    purity = per_colour.max(axis=1) / np.maximum(per_colour.sum(axis=1), 1.0)
    names = classifier.names[1:]
    symbols = tuple("." if c == 0 else names[k] for c, k in zip(counts, colour, strict=True))
    confidence = np.where(counts == 0, 0.5 + 0.5 * margin, (0.5 + 0.5 * margin) * np.minimum(1.0, 2.0 * purity - 0.2))
    return BallCounts(
        symbols=symbols,
        counts=tuple(int(c) for c in counts),
        confidence=tuple(float(c) for c in confidence),
    )
