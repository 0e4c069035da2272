"""Rectification of the board region and per-cell measurement.

The board region alone is warped to a small image with ``cell_px`` pixels per
board unit (the rest of the camera frame is never touched). Each cell is then
measured on a central disk around the board-plane centre that
:mod:`referee.geometry` gives for it, in CIE Lab:

- ``lab``: the per-channel median of the disk; the median ignores glare
  spots, grid lines and the part of an off-centre stone that leaves the disk;
- ``spread``: the interquartile range of the disk's lightness (an empty
  intersection with its grid lines, or a stone's rim, is spread; a stone's
  top is flat).

All cells are measured at once with precomputed pixel indices, so the cost
is a single small warp and a few array operations per frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.geometry import Geometry
from vision.config import VisionConfig


@dataclass(frozen=True, eq=False)
class CellMeasures:
    """Measures of every cell of one frame, in ``geometry.cells`` order.

    ``lab`` is an N×3 array (L 0..100, a, b), ``spread`` an N array (L units),
    ``board`` the rectified board in Lab (float32), kept for change measures.
    """

    lab: np.ndarray
    spread: np.ndarray
    board: np.ndarray = field(repr=False)


class Rectifier:
    """Warps the board region of a frame and measures each cell's disk.

    Built once per geometry and config; :meth:`measure` is the per-frame work.
    """

    def __init__(self, geometry: Geometry, config: VisionConfig | None = None) -> None:
        self.geometry = geometry
        self.config = config or VisionConfig()
        px, margin = self.config.cell_px, self.config.margin
        self.size = (
            int(np.ceil((geometry.width + 2 * margin) * px)),
            int(np.ceil((geometry.height + 2 * margin) * px)),
        )
        # canvas pixel (u, v) <- board point ((u + 0.5) / px - margin, ...)
        self.canvas_to_board = np.array(
            [[1.0 / px, 0.0, 0.5 / px - margin], [0.0, 1.0 / px, 0.5 / px - margin], [0, 0, 1.0]]
        )
        radius_px = self.config.disk_radius * geometry.stone_radius * px
        r = int(np.ceil(radius_px))
        du, dv = np.meshgrid(np.arange(-r, r + 1), np.arange(-r, r + 1))
        inside = du**2 + dv**2 <= radius_px**2
        du, dv = du[inside], dv[inside]
        centres = np.array(geometry.centres, dtype=np.float64)
        cu = np.rint((centres[:, 0] + margin) * px - 0.5).astype(int)
        cv = np.rint((centres[:, 1] + margin) * px - 0.5).astype(int)
        w, h = self.size
        uu = np.clip(cu[:, None] + du[None, :], 0, w - 1)
        vv = np.clip(cv[:, None] + dv[None, :], 0, h - 1)
        self.disk_index = (vv * w + uu).astype(np.intp)
        self.disk_pixels = int(inside.sum())

    def rectify(self, image: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The board region of a BGR image, warped to the board plane (uint8 BGR)."""
        m = homography @ self.canvas_to_board
        return cv2.warpPerspective(
            image, m, self.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
        )

    def measure(self, image: np.ndarray, homography: np.ndarray) -> CellMeasures:
        """Rectify ``image`` with ``homography`` (board plane -> image) and measure every cell."""
        return self.measure_rectified(self.rectify(image, homography))

    def measure_rectified(self, board_bgr: np.ndarray) -> CellMeasures:
        """Measure every cell of an already rectified board image."""
        lab = cv2.cvtColor(board_bgr.astype(np.float32) * (1.0 / 255.0), cv2.COLOR_BGR2Lab)
        flat = lab.reshape(-1, 3)
        disks = flat[self.disk_index]  # N x P x 3
        q = np.percentile(disks[:, :, 0], (25.0, 50.0, 75.0), axis=1)
        med = np.median(disks[:, :, 1:], axis=1)
        cell_lab = np.column_stack([q[1], med])
        return CellMeasures(lab=cell_lab.astype(np.float32), spread=(q[2] - q[0]).astype(np.float32), board=lab)
