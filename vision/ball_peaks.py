"""Counting Kaskade balls by their shape: one ball is one disc of changed pixels.

How many pixels of a cell a ball changes varies a lot: a white ball on a
light square changes only its shaded rim and its shadow, three balls shade
each other, and blur or glare widen or shrink every ball. So the count is
not the changed area over one ball's area but the number of places where a
disc of one ball's radius is covered by changed pixels (its share, the disc
*response*) clearly enough, no two of them closer than two radii: balls do
not overlap. A shadow lies against its own ball, within that distance, and
never counts twice.

The response each cell must show to hold a ball is ``need`` of the share one
calibrated ball of that colour covered there (at most the whole disc): where
a ball shows as a broken ring, a ring is what a ball looks like.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MAX_BALLS = 3
APART = 2.0
"""Least distance between two balls' centres, in ball radii: they never overlap."""
CLEAR_MARGIN = 0.1
"""A ball's response this share of the threshold away from it (either side) is a sure call."""


@dataclass(frozen=True, eq=False)
class DiskGrid:
    """Where each pixel of a cell's wide disk lies on a small square canvas (``rows``, ``cols``, P, on a
    ``side``×``side`` canvas), and the disc of one ball (``radius_px``) its response is measured with:
    ``disc`` sums to one, ``disc_area`` is its pixel count. Built once per reader."""

    rows: np.ndarray
    cols: np.ndarray
    side: int
    radius_px: float
    disc: np.ndarray
    disc_area: float

    @classmethod
    def of(cls, du: np.ndarray, dv: np.ndarray, radius_px: float) -> DiskGrid:
        """The grid of disk pixels at offsets ``du``, ``dv`` from the cell's centre, padded for a ball's disc of
        ``radius_px`` so that no response reaches across to the next cell."""
        pad = int(np.ceil(radius_px)) + 1
        cols = du - du.min() + pad
        rows = dv - dv.min() + pad
        side = int(max(rows.max(), cols.max())) + 1 + pad
        disc = _disc_pixels(radius_px)
        area = float(disc.sum())
        return cls(
            rows=rows.astype(np.intp),
            cols=cols.astype(np.intp),
            side=side,
            radius_px=float(radius_px),
            disc=disc / area,
            disc_area=area,
        )


@dataclass(frozen=True, eq=False)
class Peaks:
    """Balls found in every cell: ``counts`` (0..3) and ``margin`` (0 on the threshold, 1 when clear)."""

    counts: np.ndarray
    margin: np.ndarray


def _disc_pixels(radius_px: float) -> np.ndarray:
    """The pixels (a square 0/1 array) of a disc of ``radius_px`` around its middle pixel."""
    k = int(np.ceil(radius_px))
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    return (xx**2 + yy**2 <= radius_px**2).astype(np.float32)


def _response(canvas: np.ndarray, grid: DiskGrid) -> np.ndarray:
    """The share (0..1) of a ball's disc around every pixel of each cell's canvas (N×side²) that its changed
    pixels cover: N×side²."""
    n, side = canvas.shape[0], grid.side
    # cells stacked one above the other: each is padded by more than the disc's reach, so none sees the next
    stacked = cv2.filter2D(canvas.reshape(n * side, side), -1, grid.disc, borderType=cv2.BORDER_CONSTANT)
    return stacked.reshape(n, side * side)


def find_balls(mask: np.ndarray, grid: DiskGrid, need: np.ndarray) -> Peaks:
    """Count the balls of every cell from its changed pixels ``mask`` (N×P): the strongest disc response,
    if at least ``need`` (N), is a ball; so is the next strongest at least ``APART`` radii from every ball
    found, and so on, up to ``MAX_BALLS``.

    The margin compares the weakest ball found, and the strongest place
    left that could still hold one, with ``need``.
    """
    n = mask.shape[0]
    side = grid.side
    canvas = np.zeros((n, side, side), np.float32)
    canvas[:, grid.rows, grid.cols] = mask
    ys, xs = np.divmod(np.arange(side * side), side)
    counts = np.zeros(n, np.intp)
    weakest = np.full(n, np.inf, np.float32)
    searching = np.ones(n, bool)
    taken = np.zeros((n, side * side), bool)
    rows = np.arange(n)
    live = _response(canvas.reshape(n, -1), grid)
    for _ in range(MAX_BALLS):
        live[taken] = -1.0
        best = live.argmax(axis=1)
        value = live[rows, best]
        found = searching & (value >= need)
        if not found.any():
            break
        counts[found] += 1
        weakest[found] = np.minimum(weakest[found], value[found])
        near = (xs[None, :] - xs[best][:, None]) ** 2 + (ys[None, :] - ys[best][:, None]) ** 2
        taken |= found[:, None] & (near < (APART * grid.radius_px) ** 2)
        searching = found
    live[taken] = -1.0
    left = np.maximum(live.max(axis=1), 0.0)
    scale = np.maximum(need, 1e-6)
    above = np.where(counts > 0, (weakest - need) / scale, np.inf)
    below = np.where(counts < MAX_BALLS, (need - left) / scale, np.inf)
    margin = np.clip(np.minimum(above, below) / CLEAR_MARGIN, 0.0, 1.0)
    return Peaks(counts=counts, margin=margin)
