"""Where the camera stands, worked out from the board's homography, and where a piece's top appears.

A stone, a draught or a ball has height: seen at a slant, its top lies in
the picture over a point of the board beyond its own cell, away from the
camera. The board's homography (board plane to picture) holds the camera's
pose once the lens's focal length is known:

    H ~ K [s_x r1, s_y r2, t]

with ``K`` the camera matrix (principal point at the picture's centre,
square pixels), ``r1, r2`` the first two columns of the camera's rotation
and ``s_x, s_y`` the physical size of one board unit along x and y (a Go
board's cells are about 7 % taller than wide). The two rotation columns
must be at right angles; that one condition gives the focal length, and
where it cannot (a camera looking straight down, where any focal length
fits), a common webcam lens (``DEFAULT_FOV``) is taken: there a piece's top
moves little anyway.

:meth:`CameraPose.tops` gives, for points on the board, the board-plane
point under the top of a piece ``height`` board units tall standing on
each: that is where the reader looks for a piece.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

DEFAULT_FOV_DEG = 60.0
"""The horizontal field of view taken when the homography cannot tell the focal length."""
FOCAL_RANGE = (0.4, 4.0)
"""Focal lengths, as shares of the picture's longer side, that a real lens has (a fisheye to a long zoom)."""


@dataclass(frozen=True, eq=False)
class CameraPose:
    """A pinhole camera over the board plane: camera matrix, rotation, translation (in board x units), and the
    board's aspect (how much longer a board unit is along y than along x)."""

    matrix: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray
    aspect: float
    homography: np.ndarray

    @classmethod
    def from_homography(cls, homography: np.ndarray, image_size: tuple[int, int]) -> CameraPose:
        """The pose of a camera whose picture (``image_size`` = width, height) shows the board plane through
        ``homography`` (board plane to picture)."""
        width, height = image_size
        cx, cy = (width - 1) / 2.0, (height - 1) / 2.0
        h = np.asarray(homography, dtype=np.float64)
        centred = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]]) @ h
        g1, g2 = centred[:, 0], centred[:, 1]
        # r1 . r2 = 0 with r = K^-1 g: (g1x g2x + g1y g2y) / f^2 + g1z g2z = 0
        across = g1[0] * g2[0] + g1[1] * g2[1]
        longest = float(max(width, height))
        focal = 0.5 * width / math.tan(math.radians(DEFAULT_FOV_DEG) / 2.0)
        if abs(across) > 1e-12:
            inverse_square = -g1[2] * g2[2] / across
            if inverse_square > 0:
                candidate = 1.0 / math.sqrt(inverse_square)
                if FOCAL_RANGE[0] * longest <= candidate <= FOCAL_RANGE[1] * longest:
                    focal = candidate
        matrix = np.array([[focal, 0.0, cx], [0.0, focal, cy], [0.0, 0.0, 1.0]])
        m = np.linalg.inv(matrix) @ h
        n1, n2 = float(np.linalg.norm(m[:, 0])), float(np.linalg.norm(m[:, 1]))
        sign = 1.0 if m[2, 2] > 0 else -1.0
        r1, r2, t = sign * m[:, 0] / n1, sign * m[:, 1] / n2, sign * m[:, 2] / n1
        u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
        return cls(matrix=matrix, rotation=u @ vt, translation=t, aspect=n2 / n1, homography=h)

    @property
    def centre(self) -> np.ndarray:
        """The camera's position in board units (x, y along the board, z negative above it)."""
        c = -self.rotation.T @ self.translation
        return np.array([c[0], c[1] / self.aspect, c[2]])

    def project(self, points: np.ndarray, height: float) -> np.ndarray:
        """Picture positions (N×2) of points (N×2, board units) raised ``height`` board (x) units above the
        board."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        world = np.column_stack([pts[:, 0], pts[:, 1] * self.aspect, np.full(len(pts), -float(height))])
        seen = world @ self.rotation.T + self.translation
        pix = seen @ self.matrix.T
        return pix[:, :2] / pix[:, 2:3]

    def tops(self, points: np.ndarray, height: float) -> np.ndarray:
        """The board-plane points (N×2) the camera sees under the top of a piece ``height`` board units tall
        standing on each of ``points`` (N×2): the points themselves for ``height`` 0."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if height == 0.0:
            return pts.copy()
        seen = self.project(pts, height).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(seen, np.linalg.inv(self.homography)).reshape(-1, 2)
