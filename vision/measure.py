"""Rectification of the board region and per-cell measurement.

The board region alone is warped to a small image with ``cell_px`` pixels per
board unit (the rest of the camera frame is never touched). Each cell is then
measured from the board-plane geometry that :mod:`referee.geometry` gives:

- ``disk``: the per-channel median colour (BGR, 0..1) of a central disk
  smaller than a stone; the median ignores glare spots, grid lines and the
  part of an off-centre or perspective-shifted stone that leaves the disk;
- ``pixels`` (Kaskade boards only): every pixel of a disk that holds all
  of a cell's balls, for :mod:`vision.balls` to count them;
- ``background``: the median colour of small patches near the cell's
  corners, where no centred stone reaches; it tells how the light falls on
  that part of the board in this frame (see :mod:`vision.light`);
- ``texture``: what the cell looks like apart from its colour, in measures
  that do not change with the light (each is a ratio of brightnesses): the
  edge energy on the ring where a stone's rim lies, the edge energy of the
  central disk, and how dark the darkest tenth of the central disk is against
  its median. A stone as light as its square still shows its shaded rim and
  a smooth top; an empty point of a Go board shows its crossing lines.

All cells are measured at once with precomputed pixel indices, so the cost
is a single small warp and a few array operations per frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from referee.geometry import Geometry, Layout
from vision.config import VisionConfig

GREY_FLOOR = 8.0
"""Added to every brightness (grey levels, 0..255) a texture measure is divided by, so that noise on a dark
square does not pass for edges."""

GREY_WEIGHTS = np.array([0.114, 0.587, 0.299], np.float32)
"""Weights of the blue, green and red channels in OpenCV's grey."""


def light_wash(seen: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """How much of a cell's texture survives the light added over it (N, 0..1): colours ``seen`` against
    those ``expected`` without that light (both N×3 BGR, 0..1).

    Every texture measure is divided by the brightness it is taken at, and
    white light added evenly over a cell (glare) adds to that brightness but
    no edges: the edge energies shrink by this factor, and the dark share
    moves as far towards one.
    """
    seen_grey = seen @ GREY_WEIGHTS * 255.0
    expected_grey = expected @ GREY_WEIGHTS * 255.0
    return np.clip((expected_grey + GREY_FLOOR) / (seen_grey + GREY_FLOOR), 0.0, 1.0).astype(np.float32)


@dataclass(frozen=True, eq=False)
class CellMeasures:
    """Measures of every cell of one frame, in ``geometry.cells`` order (N×3 BGR arrays, 0..1).

    ``pixels``: on Kaskade boards, the colours (N×P×3 BGR, 0..1) of every
    pixel of a disk wide enough to hold the cell's balls; None otherwise.
    ``border``: the colours (M×3) of the patches of the ring around the board
    (:attr:`Rectifier.border_points`).
    """

    disk: np.ndarray
    background: np.ndarray
    pixels: np.ndarray | None = None
    corners: np.ndarray | None = None
    texture: np.ndarray | None = None
    border: np.ndarray | None = None

    @property
    def rim(self) -> np.ndarray | None:
        """The edge energy on each cell's rim ring (the first column of ``texture``), or None."""
        return None if self.texture is None else self.texture[:, 0]


class Rectifier:
    """Warps the board region of a frame and measures each cell; built once per geometry and config."""

    def __init__(self, geometry: Geometry, config: VisionConfig | None = None) -> None:
        self.geometry = geometry
        self.config = config or VisionConfig()
        self.balls = geometry.kind == "grid"
        self.px = px = self.config.ball_cell_px if self.balls else self.config.cell_px
        margin = self.config.margin
        self.size = (
            int(np.ceil((geometry.width + 2 * margin) * px)),
            int(np.ceil((geometry.height + 2 * margin) * px)),
        )
        # canvas pixel (u, v) shows board point ((u + 0.5) / px - margin, (v + 0.5) / px - margin)
        self.canvas_to_board = np.array(
            [[1.0 / px, 0.0, 0.5 / px - margin], [0.0, 1.0 / px, 0.5 / px - margin], [0.0, 0.0, 1.0]]
        )
        centres = np.array(geometry.centres, dtype=np.float64)
        piece_radius = self.config.ball_radius if self.balls else geometry.stone_radius
        radius_px = self.config.disk_radius * piece_radius * px
        self.disk_index = self._patches(centres, _disk_offsets(radius_px))
        inset = self.config.background_inset_hex if geometry.layout is Layout.HEX else self.config.background_inset
        corners = []
        for k, centre in enumerate(centres):
            polygon = np.array(geometry.polygon(geometry.cells[k]))
            corners.append(centre + inset * (polygon - centre))
        patch = _square_offsets(self.config.background_patch_px)
        self.corner_count = len(corners[0])
        self.corner_points = np.array(corners, dtype=np.float64)
        """Board position of every light-reference patch (N×C×2), in ``corners`` order."""
        self.border_points = _ring(geometry, self.config.border_out, self.config.border_step)
        """Board positions (M×2) of the patches of a ring around the cells, in order along it: an arm reaching
        in crosses it, however little of it the cells see."""
        self.border_index = self._patches(self.border_points, patch)
        per_corner = [self._patches(np.array([c[j] for c in corners]), patch) for j in range(self.corner_count)]
        self.background_index = np.concatenate(per_corner, axis=1)
        # Kaskade cells hold up to three small balls anywhere in the cell: every pixel of a wide disk is looked at
        self.cell_offsets = _disk_offsets(self.config.ball_reach * px) if self.balls else None
        """Where each pixel of ``CellMeasures.pixels`` lies from its cell's centre (du, dv, in pixels), on Kaskade
        boards."""
        self.cell_index = None if self.cell_offsets is None else self._patches(centres, self.cell_offsets)
        self.cell_points = None if self.cell_index is None else self.board_points(self.cell_index)
        """Board position of every pixel in ``CellMeasures.pixels`` (N×P×2), on Kaskade boards."""
        rim_radii = (
            self.config.rim_inner * geometry.stone_radius * px,
            self.config.rim_outer * geometry.stone_radius * px,
        )
        self.rim_index = None if self.balls else self._patches(centres, _ring_offsets(*rim_radii))
        top = _disk_offsets(self.config.top_radius * geometry.stone_radius * px)
        self.top_index = None if self.balls else self._patches(centres, top)

    def _patches(self, points: np.ndarray, offsets: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        px, margin = self.px, self.config.margin
        w, h = self.size
        cu = np.rint((points[:, 0] + margin) * px - 0.5).astype(int)
        cv = np.rint((points[:, 1] + margin) * px - 0.5).astype(int)
        du, dv = offsets
        uu = np.clip(cu[:, None] + du[None, :], 0, w - 1)
        vv = np.clip(cv[:, None] + dv[None, :], 0, h - 1)
        return (vv * w + uu).astype(np.intp)

    def board_points(self, index: np.ndarray) -> np.ndarray:
        """Board positions (...×2) of rectified pixels given by their flat ``index`` (any shape)."""
        w = self.size[0]
        u, v = index % w, index // w
        m = self.canvas_to_board
        return np.stack([m[0, 0] * u + m[0, 2], m[1, 1] * v + m[1, 2]], axis=-1)

    def rectify(self, image: np.ndarray, homography: np.ndarray) -> np.ndarray:
        """The board region of a BGR image, warped to the board plane (uint8 BGR).

        Where the camera sees the board larger than the rectified image
        (several camera pixels to one board pixel), the board region is first
        halved with a Gaussian pyramid as often as that leaves at least one
        camera pixel to each board pixel: sampling without it keeps a random
        few of a thin line's pixels (grid lines read dashed, and bolder in a
        slightly blurred frame than in the sharp calibration photo). Not on
        Kaskade boards, whose small balls are counted pixel by pixel against
        the empty board: there the smoothing blurs a ball into the board
        around it, and more balls were misread with it than without.
        """
        m = homography @ self.canvas_to_board
        w, h = self.size
        corners = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), m)[0]
        levels = 0 if self.balls else _pyramid_levels(corners, w, h)
        if levels:
            pad = 2 << levels
            x0, y0 = np.floor(corners.min(axis=0)).astype(int) - pad
            x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + pad
            x0, y0 = max(int(x0), 0), max(int(y0), 0)
            x1, y1 = min(int(x1), image.shape[1]), min(int(y1), image.shape[0])
            if x1 - x0 > pad and y1 - y0 > pad:
                crop = image[y0:y1, x0:x1]
                for _ in range(levels):
                    crop = cv2.pyrDown(crop)
                f = 0.5**levels
                # a pyramid level's pixel centres: x' = (x + 0.5) * f - 0.5
                to_crop = np.array([[f, 0.0, (0.5 - x0) * f - 0.5], [0.0, f, (0.5 - y0) * f - 0.5], [0.0, 0.0, 1.0]])
                image, m = crop, to_crop @ m
        return cv2.warpPerspective(
            image, m, self.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
        )

    def measure(self, image: np.ndarray, homography: np.ndarray) -> CellMeasures:
        """Rectify ``image`` with ``homography`` (board plane -> image) and measure every cell."""
        return self.measure_rectified(self.rectify(image, homography))

    def measure_rectified(self, board_bgr: np.ndarray) -> CellMeasures:
        """Measure every cell of an already rectified board image."""
        flat = board_bgr.reshape(-1, 3)
        disk = np.median(flat[self.disk_index], axis=1).astype(np.float32) * (1.0 / 255.0)
        patches = flat[self.background_index]
        background = np.median(patches, axis=1).astype(np.float32) * (1.0 / 255.0)
        n, k, _ = patches.shape
        corners = np.median(patches.reshape(n, self.corner_count, k // self.corner_count, 3), axis=2)
        pixels = None
        if self.cell_index is not None:
            pixels = flat[self.cell_index].astype(np.float32) * (1.0 / 255.0)
        texture = None
        if self.rim_index is not None and self.top_index is not None:
            texture = self._texture(board_bgr)
        return CellMeasures(
            disk=disk,
            background=background,
            pixels=pixels,
            corners=corners.astype(np.float32) * (1.0 / 255.0),
            texture=texture,
            border=np.median(flat[self.border_index], axis=1).astype(np.float32) * (1.0 / 255.0),
        )

    def _texture(self, board_bgr: np.ndarray) -> np.ndarray:
        """Rim edge energy, top edge energy and dark share of every cell (N×3, see the module docstring)."""
        assert self.rim_index is not None and self.top_index is not None
        grey = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
        edges = cv2.magnitude(
            cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
        ).ravel()
        grey = grey.ravel()
        rim = edges[self.rim_index].mean(axis=1) / (grey[self.rim_index].mean(axis=1) + GREY_FLOOR)
        top_grey = grey[self.top_index]
        top = edges[self.top_index].mean(axis=1) / (top_grey.mean(axis=1) + GREY_FLOOR)
        tenth = max(1, top_grey.shape[1] // 10)
        ordered = np.partition(top_grey, (tenth, top_grey.shape[1] // 2), axis=1)
        dark = ordered[:, tenth] / (ordered[:, top_grey.shape[1] // 2] + GREY_FLOOR)
        return np.column_stack([rim, top, dark]).astype(np.float32)


def _pyramid_levels(corners: np.ndarray, width: int, height: int) -> int:
    """How many times to halve the camera picture before warping it to a ``width``×``height`` board image
    whose corners it shows at ``corners``: as often as it still shows each board pixel over a camera pixel."""
    sides = [float(np.linalg.norm(corners[(k + 1) % 4] - corners[k])) for k in range(4)]
    across = (sides[0] + sides[2]) / (2.0 * width)
    down = (sides[1] + sides[3]) / (2.0 * height)
    scale = math.sqrt(max(across * down, 1e-12))
    return int(math.floor(math.log2(scale))) if scale >= 2.0 else 0


def _disk_offsets(radius_px: float) -> tuple[np.ndarray, np.ndarray]:
    r = int(np.ceil(radius_px))
    du, dv = np.meshgrid(np.arange(-r, r + 1), np.arange(-r, r + 1))
    inside = du**2 + dv**2 <= max(radius_px, 0.5) ** 2
    return du[inside], dv[inside]


def _ring_offsets(inner_px: float, outer_px: float) -> tuple[np.ndarray, np.ndarray]:
    r = int(np.ceil(outer_px))
    du, dv = np.meshgrid(np.arange(-r, r + 1), np.arange(-r, r + 1))
    d2 = du**2 + dv**2
    inside = (d2 >= inner_px**2) & (d2 <= max(outer_px, inner_px + 1.0) ** 2)
    return du[inside], dv[inside]


def _ring(geometry: Geometry, out: float, step: float) -> np.ndarray:
    """Points (M×2) every ``step`` or less along the rectangle ``out`` board units around the cells' bounding box,
    in order around it."""
    vertices = np.array([v for cell in geometry.cells for v in geometry.polygon(cell)], dtype=np.float64)
    (x0, y0), (x1, y1) = vertices.min(axis=0) - out, vertices.max(axis=0) + out
    corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    points: list[np.ndarray] = []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        count = max(1, math.ceil(float(np.linalg.norm(b - a)) / step))
        points.extend(a + (b - a) * t for t in np.arange(count) / count)
    return np.array(points)


def _square_offsets(side: int) -> tuple[np.ndarray, np.ndarray]:
    half = side // 2
    du, dv = np.meshgrid(np.arange(-half, side - half), np.arange(-half, side - half))
    return du.ravel(), dv.ravel()


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100) of an N×3 array of BGR colours in 0..1."""
    clipped = np.clip(bgr, 0.0, 1.0).astype(np.float32).reshape(-1, 1, 3)
    return cv2.cvtColor(clipped, cv2.COLOR_BGR2Lab).reshape(-1, 3)


def lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    """BGR colours (0..1) of an N×3 array of CIE Lab colours (L 0..100)."""
    lab32 = np.asarray(lab, dtype=np.float32).reshape(-1, 1, 3)
    return np.clip(cv2.cvtColor(lab32, cv2.COLOR_Lab2BGR).reshape(-1, 3), 0.0, 1.0)
