"""The camera's lens: how it bends the straight lines of the board.

A wide-angle lens (most webcams) draws a straight line that does not pass
through the picture's centre as a curve bowed outwards (barrel distortion); a
lattice drawn from the board's four corners then misses the middle of the
board. :class:`Lens` is the one-parameter radial model of that bending, about
the picture's centre:

    p_seen = c + (p - c) * (1 + k1 * r^2),    r = |p - c| / half the picture's diagonal

where ``p`` is where a pinhole camera would show a point (the *straight*
picture) and ``p_seen`` where this lens shows it. ``k1`` is the share by
which the lens draws the picture's corners towards its centre (negative:
barrel) or away from it (positive: pincushion); 0 is a straight lens.

Every homography of the reader maps the board plane to the straight picture;
:meth:`Lens.bend` and :meth:`Lens.straighten` go between it and the pixels
the camera gives. :mod:`vision.lines` fits ``k1`` to the board's real lines at
calibration.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

MAX_BEND = 0.3
"""The strongest ``k1`` a lens may have either way (the picture's corners drawn in or out by 30 %): beyond it the
model stops being one-to-one over the picture, and a fisheye needs a model of its own."""


class LensError(ValueError):
    """A lens description is out of range: the message says which value and what to give."""


@dataclass(frozen=True)
class Lens:
    """Radial distortion ``k1`` about the centre of pictures of ``size`` (width, height) pixels (see the module
    docstring); ``Lens()`` is a straight lens."""

    k1: float = 0.0
    size: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.k1) and abs(self.k1) <= MAX_BEND):
            raise LensError(f"lens k1 {self.k1} is out of range: give a value from {-MAX_BEND} to {MAX_BEND}")
        if self.k1 != 0.0 and (self.size[0] < 1 or self.size[1] < 1):
            raise LensError("a bent lens needs the size of the pictures it was measured on")

    @property
    def straight(self) -> bool:
        """Whether the lens bends nothing."""
        return self.k1 == 0.0

    def for_size(self, size: tuple[int, int]) -> Lens:
        """This lens on pictures of ``size`` (the same sensor read at another resolution: ``k1`` is a share of the
        picture, so only the size changes)."""
        if self.straight or tuple(size) == self.size:
            return self
        return Lens(self.k1, (int(size[0]), int(size[1])))

    def _centre_radius(self) -> tuple[np.ndarray, float]:
        width, height = self.size
        return np.array([(width - 1) / 2.0, (height - 1) / 2.0]), 0.5 * math.hypot(width, height)

    def bend(self, points: np.ndarray) -> np.ndarray:
        """Where this lens shows points (…×2, pixels) of the straight picture."""
        pts = np.asarray(points, dtype=np.float64)
        if self.straight:
            return pts.copy()
        centre, radius = self._centre_radius()
        d = (pts - centre) / radius
        r2 = (d * d).sum(axis=-1, keepdims=True)
        return centre + d * radius * (1.0 + self.k1 * r2)

    def straighten(self, points: np.ndarray) -> np.ndarray:
        """Where the straight picture has points (…×2, pixels) that this lens shows where they are given: the
        inverse of :meth:`bend` (Newton's method on each point's radius)."""
        pts = np.asarray(points, dtype=np.float64)
        if self.straight:
            return pts.copy()
        centre, radius = self._centre_radius()
        d = (pts - centre) / radius
        seen = np.sqrt((d * d).sum(axis=-1, keepdims=True))
        # r (1 + k1 r^2) = seen, increasing up to where its slope 1 + 3 k1 r^2 falls to nothing (a barrel's edge):
        # Newton's steps from r = seen approach the root from one side and never pass it
        top = math.sqrt(-1.0 / (3.0 * self.k1)) if self.k1 < 0 else math.inf
        r = np.minimum(seen, top)
        for _ in range(8):
            slope = np.maximum(1.0 + 3.0 * self.k1 * r * r, 1e-6)
            r = np.clip(r - (r * (1.0 + self.k1 * r * r) - seen) / slope, 0.0, top)
        scale = np.where(seen > 1e-12, r / np.maximum(seen, 1e-12), 1.0)
        return centre + d * radius * scale

    def straight_homography(self, board: np.ndarray, seen: np.ndarray) -> np.ndarray:
        """The homography from board points (N×2, N ≥ 4) to the straight picture, given where this lens shows
        them (N×2 pixels): least squares over all of them."""
        src = np.asarray(board, dtype=np.float64).reshape(-1, 2)
        dst = self.straighten(np.asarray(seen, dtype=np.float64).reshape(-1, 2))
        if len(src) == 4:
            return np.asarray(cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)), np.float64)
        h, _ = cv2.findHomography(src, dst, 0)
        if h is None:
            raise LensError("the points give no board position: they lie on one line")
        return np.asarray(h, dtype=np.float64)

    def show(self, straight: np.ndarray) -> np.ndarray:
        """The picture this lens would give of the scene a straight lens shows as ``straight`` (same size; where the
        straight picture shows nothing, its edge repeated): real photos seen through a wider lens."""
        if self.straight:
            return straight.copy()
        lens = self.for_size((straight.shape[1], straight.shape[0]))
        height, width = straight.shape[:2]
        u, v = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
        source = lens.straighten(np.stack([u, v], axis=-1)).astype(np.float32)
        return cv2.remap(straight, source[..., 0], source[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {"k1": round(self.k1, 5), "size": [int(self.size[0]), int(self.size[1])]}

    @classmethod
    def from_dict(cls, data: object) -> Lens:
        """The lens ``data`` describes (as :meth:`to_dict` makes it); raises LensError saying what is wrong."""
        if not isinstance(data, dict):
            raise LensError("lens: give an object with k1 and size")
        k1, size = data.get("k1"), data.get("size")
        if not isinstance(k1, int | float) or isinstance(k1, bool):
            raise LensError("lens: k1 must be a number")
        if (
            not isinstance(size, list)
            or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100_000 for v in size)
        ):
            raise LensError("lens: size must be [width, height] in pixels")
        return cls(float(k1), (size[0], size[1]))


STRAIGHT = Lens()
"""A lens that bends nothing: a pinhole camera's."""


def project(homography: np.ndarray, lens: Lens, points: np.ndarray) -> np.ndarray:
    """Picture positions (N×2, as the camera shows them) of board points (N×2) through ``homography`` (board plane to
    the straight picture) and ``lens``."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    straight = cv2.perspectiveTransform(pts, np.asarray(homography, dtype=np.float64)).reshape(-1, 2)
    return lens.bend(straight)
