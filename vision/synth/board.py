"""The board as printed: a picture of the board plane with the table, the frame, the cells and the markers.

Drawn once per scene at ``px_per_unit`` pixels per board unit over a box
(``BoardTexture.extent``) that holds the board, its ArUco markers (real
``cv2.aruco`` patterns on white paper) and a margin of table around them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee.geometry import Geometry, Layout
from vision.markers import DEFAULT_DICTIONARY, default_markers

BGR = tuple[int, int, int]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Scheme:
    """Colours (BGR) of one board style: light and dark squares, frame, lines; and how grainy."""

    light: BGR
    dark: BGR
    frame: BGR
    line: BGR
    grain: float


SCHEMES: dict[str, Scheme] = {
    "wood": Scheme(light=(128, 178, 216), dark=(45, 78, 120), frame=(40, 70, 105), line=(30, 45, 60), grain=0.10),
    "green-cream": Scheme(
        light=(205, 235, 238), dark=(84, 148, 118), frame=(60, 90, 70), line=(40, 60, 40), grain=0.03
    ),
    "grey": Scheme(light=(196, 198, 200), dark=(92, 92, 95), frame=(60, 60, 62), line=(40, 40, 40), grain=0.03),
    "blue": Scheme(light=(232, 226, 218), dark=(150, 105, 70), frame=(110, 70, 45), line=(80, 50, 30), grain=0.03),
    "pale": Scheme(light=(226, 234, 238), dark=(38, 36, 40), frame=(30, 30, 34), line=(20, 20, 20), grain=0.03),
    "maple-ebony": Scheme(light=(175, 212, 236), dark=(30, 36, 48), frame=(25, 30, 40), line=(20, 20, 20), grain=0.08),
}

TABLES: tuple[BGR, ...] = ((70, 95, 125), (150, 150, 150), (60, 80, 60), (200, 205, 210), (95, 75, 60))


@dataclass(frozen=True)
class BoardTexture:
    """A picture of the board plane: ``image[v, u]`` shows board point ((u + 0.5) / ppu + x0, ...)."""

    image: np.ndarray
    extent: Box
    px_per_unit: float

    def to_texture(self) -> np.ndarray:
        """The 3×3 matrix from board-plane points to texture pixels (OpenCV pixel-centre convention)."""
        p = self.px_per_unit
        x0, y0, _, _ = self.extent
        return np.array([[p, 0.0, -x0 * p - 0.5], [0.0, p, -y0 * p - 0.5], [0.0, 0.0, 1.0]])


def cells_box(geometry: Geometry, margin: float = 0.0) -> Box:
    """Bounding box of all cells (with their outlines) in the board plane, grown by ``margin``."""
    pts = np.array([p for cell in geometry.cells for p in geometry.polygon(cell)])
    return (
        float(pts[:, 0].min() - margin),
        float(pts[:, 1].min() - margin),
        float(pts[:, 0].max() + margin),
        float(pts[:, 1].max() + margin),
    )


def markers_box(geometry: Geometry) -> Box:
    """Bounding box of the board and its default markers (with their quiet zone)."""
    pts = np.array([c for m in default_markers(geometry) for c in m.corners])
    x0, y0, x1, y1 = cells_box(geometry)
    quiet = _quiet(geometry)
    return (
        min(x0, float(pts[:, 0].min())) - quiet,
        min(y0, float(pts[:, 1].min())) - quiet,
        max(x1, float(pts[:, 0].max())) + quiet,
        max(y1, float(pts[:, 1].max())) + quiet,
    )


def _quiet(geometry: Geometry) -> float:
    markers = default_markers(geometry)
    (ax, _), (bx, _) = markers[0].corners[0], markers[0].corners[1]
    return (bx - ax) / 5.0


def px_per_unit_for(geometry: Geometry) -> float:
    """Texture resolution: fine enough for a 1280×720 picture, small enough to draw fast."""
    x0, y0, x1, y1 = markers_box(geometry)
    return float(np.clip(round(1000.0 / max(x1 - x0, y1 - y0)), 14, 64))


def draw_board(geometry: Geometry, scheme_name: str, rng: np.random.Generator) -> BoardTexture:
    """Draw the board of ``geometry`` in the colours of ``scheme_name`` on a random table."""
    scheme = SCHEMES[scheme_name]
    ppu = px_per_unit_for(geometry)
    mx0, my0, mx1, my1 = markers_box(geometry)
    table_margin = 0.35 * max(mx1 - mx0, my1 - my0)
    extent = (mx0 - table_margin, my0 - table_margin, mx1 + table_margin, my1 + table_margin)
    width = int(round((extent[2] - extent[0]) * ppu))
    height = int(round((extent[3] - extent[1]) * ppu))
    texture = BoardTexture(np.zeros((height, width, 3), np.uint8), extent, ppu)
    table = np.array(TABLES[int(rng.integers(len(TABLES)))], np.float32) * rng.uniform(0.85, 1.1)
    image = np.empty((height, width, 3), np.float32)
    image[:] = table
    image *= _noise(rng, (height, width), 0.06, stretch=1)[..., None]
    canvas = _Canvas(image, texture)

    frame_pad = 0.3
    bx0, by0, bx1, by1 = cells_box(geometry, frame_pad)
    tb, tg, tr = (int(c * 0.55) for c in table.astype(int))
    canvas.polygon(
        [(bx0 + 0.08, by0 + 0.12), (bx1 + 0.08, by0 + 0.12), (bx1 + 0.08, by1 + 0.12), (bx0 + 0.08, by1 + 0.12)],
        (tb, tg, tr),
    )
    canvas.polygon([(bx0, by0), (bx1, by0), (bx1, by1), (bx0, by1)], scheme.frame)
    _draw_cells(geometry, scheme, canvas, rng)
    grain = _noise(rng, (height, width), scheme.grain, stretch=12)
    image *= grain[..., None]
    _draw_markers(geometry, canvas)
    np.clip(image, 0, 255, out=image)
    return BoardTexture(image.astype(np.uint8), extent, ppu)


class _Canvas:
    """Draws board-plane polygons and lines into a float texture, anti-aliased."""

    SHIFT = 4

    def __init__(self, image: np.ndarray, texture: BoardTexture) -> None:
        self.image = image
        self.matrix = texture.to_texture()
        self.ppu = texture.px_per_unit

    def _px(self, points: list[tuple[float, float]]) -> np.ndarray:
        pts = np.array(points, np.float64)
        px = pts @ self.matrix[:2, :2].T + self.matrix[:2, 2]
        return np.round(px * (1 << self.SHIFT)).astype(np.int32)

    def polygon(self, points: list[tuple[float, float]], colour: BGR) -> None:
        cv2.fillPoly(self.image, [self._px(points)], tuple(float(c) for c in colour), cv2.LINE_AA, self.SHIFT)

    def polyline(self, points: list[tuple[float, float]], colour: BGR, width: float, closed: bool) -> None:
        thickness = max(1, int(round(width * self.ppu)))
        cv2.polylines(
            self.image, [self._px(points)], closed, tuple(float(c) for c in colour), thickness, cv2.LINE_AA, self.SHIFT
        )

    def disc(self, centre: tuple[float, float], radius: float, colour: BGR) -> None:
        ((cx, cy),) = self._px([centre])
        cv2.circle(
            self.image,
            (int(cx), int(cy)),
            int(radius * self.ppu * (1 << self.SHIFT)),
            tuple(float(c) for c in colour),
            -1,
            cv2.LINE_AA,
            self.SHIFT,
        )


def _draw_cells(geometry: Geometry, scheme: Scheme, canvas: _Canvas, rng: np.random.Generator) -> None:
    line_width = float(rng.uniform(0.02, 0.04))
    if geometry.layout is Layout.POINT:
        x0, y0, x1, y1 = cells_box(geometry, -0.5)
        canvas.polygon(
            [(x0 - 0.5, y0 - 0.5), (x1 + 0.5, y0 - 0.5), (x1 + 0.5, y1 + 0.5), (x0 - 0.5, y1 + 0.5)], scheme.light
        )
        for x in np.arange(x0, x1 + 0.5):
            canvas.polyline([(x, y0), (x, y1)], scheme.line, line_width, False)
        for y in np.arange(y0, y1 + 0.5):
            canvas.polyline([(x0, y), (x1, y)], scheme.line, line_width, False)
        return
    checker = geometry.kind == "diamond" or (geometry.kind == "grid" and rng.random() < 0.5)
    lined = geometry.layout is Layout.HEX or not checker or rng.random() < 0.4
    mid = tuple(int((a + b) / 2) for a, b in zip(scheme.light, scheme.dark, strict=True))
    for i, cell in enumerate(geometry.cells):
        x, y = geometry.centres[i]
        if geometry.layout is Layout.HEX:
            shade = round(2 * x) % 3
            colour = (scheme.light, _blend(scheme.light, mid, 0.35), _blend(scheme.light, mid, 0.7))[shade]
        elif checker:
            colour = scheme.light if (int(x) + int(y)) % 2 == 0 else scheme.dark
        else:
            colour = scheme.light
        canvas.polygon(list(geometry.polygon(cell)), colour)
    if lined:
        for cell in geometry.cells:
            canvas.polyline(list(geometry.polygon(cell)), scheme.line, line_width, True)


def _blend(a: BGR, b: tuple[int, ...], t: float) -> BGR:
    return (int(a[0] * (1 - t) + b[0] * t), int(a[1] * (1 - t) + b[1] * t), int(a[2] * (1 - t) + b[2] * t))


def _draw_markers(geometry: Geometry, canvas: _Canvas) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DEFAULT_DICTIONARY))
    quiet = _quiet(geometry)
    for marker in default_markers(geometry):
        (x0, y0), _, (x1, y1), _ = marker.corners
        canvas.polygon(
            [(x0 - quiet, y0 - quiet), (x1 + quiet, y0 - quiet), (x1 + quiet, y1 + quiet), (x0 - quiet, y1 + quiet)],
            (236, 238, 240),
        )
        pattern = dictionary.generateImageMarker(marker.id, 6 * 16).astype(np.float32)
        side = (x1 - x0) * canvas.ppu
        scale = side / pattern.shape[0]
        ((u0, v0),) = (np.array([[x0, y0]]) @ canvas.matrix[:2, :2].T + canvas.matrix[:2, 2]) + 0.5
        warp = np.array([[scale, 0.0, u0 - 0.5 + 0.5 * scale], [0.0, scale, v0 - 0.5 + 0.5 * scale]])
        h, w = canvas.image.shape[:2]
        ink = cv2.warpAffine(pattern, warp, (w, h), flags=cv2.INTER_LINEAR, borderValue=255.0)
        mask = ink < 254.5
        dark = 24.0 + ink[mask] / 255.0 * 212.0
        canvas.image[mask] = dark[:, None]


def _noise(rng: np.random.Generator, shape: tuple[int, int], amount: float, stretch: int) -> np.ndarray:
    """A smooth multiplicative noise field around 1; ``stretch`` > 1 draws streaks along x (wood grain)."""
    h, w = shape
    if amount <= 0:
        return np.ones(shape, np.float32)
    coarse = rng.standard_normal((max(2, h // 6), max(2, w // (6 * stretch)))).astype(np.float32)
    field: np.ndarray = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    low = cv2.resize(rng.standard_normal((4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    field = 0.6 * field + 0.4 * low
    field /= max(1e-6, float(field.std()))
    return (1.0 + amount * np.clip(field, -2.5, 2.5)).astype(np.float32)
