"""The board as the reader sees it: the board region warped flat, and the colour at any board point.

:class:`BoardView` warps the board region of a camera picture onto the
board plane at ``cell_px`` pixels per board unit, with a margin around the
cells wide enough for the tops of tall pieces on the edge cells, which the
camera sees beyond the board. The warped board is then median-filtered over
a window about half a stone wide: a stone's colour is what most of the
window shows, so a grid line, a highlight on a glossy stone or a speck of
wood grain does not move it, and neither does a stone's edge until the
window is mostly off it.

Colours are kept as ``log(value + LOG_FLOOR)`` per channel (value 0..1):
a change of light multiplies each channel, which adds a constant here, so
the light over the board is an additive field (see :mod:`vision.cells`).
The floor keeps the noise of very dark pixels from spreading wide.

Beside its colour, the reader sees a cell's *texture*, in measures that
no change of light moves: the mean gradient of the log brightness over a
piece's top (a stone's top is smooth, an empty Go point shows its crossing
lines) and over a ring where a piece's outline lies (a stone's rim shows
against the board even where its colour is the board's), the gradient's
flux through that ring, and how deep the thin dark lines over the top lie:
a board's line is darker than the board on both sides of it, while a
stone's outline, a shadow's edge or a highlight is darker or brighter on
one side only. The gradient alone cannot tell a Go point's lines from a
white stone's outline and highlight (over `go-coloured-light`'s photos the
top's edge energy is 0.31 at the median bare point and 0.25 at the median
white stone); the lines' depth can (0.18 against 0.02: a third of the
white stones show no line at all). All come from the unfiltered warped board; a gain
over the board adds a constant to the log brightness and leaves its
differences alone.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from referee.geometry import Geometry, Layout
from vision.lens import Lens

LOG_FLOOR = 0.06
"""Added to every channel (0..1) before its logarithm."""
DARKEST = math.log(LOG_FLOOR)
"""The log colour of a channel the camera shows black."""
BRIGHTEST = math.log(1.0 + LOG_FLOOR)
"""The log colour of a channel the camera shows at full scale (clipped)."""
AT_LIMIT = 0.05
"""A channel this close (log colour) to black or to full scale is at the camera's limit: it tells little of the
light."""
SUBPIXELS = 32
"""Steps per pixel of the positions the features are interpolated at (OpenCV's remap's own)."""
EDGE_ENERGIES = (3, 4, 6)
"""The features that are edge energies (the top's, the rim's, and the top's lines): a slope added over a cell only
raises them, and the camera's noise adds to them."""
FEATURE_NAMES = ("blue", "green", "red", "top edges", "rim edges", "rim flux", "top lines")
"""What each feature of :meth:`BoardView.features` is; the last only on a board of points, whose lines cross at
every point (a board of cells has no lines through its cells)."""
SOBEL_GAIN = 4.0
"""What OpenCV's 3×3 Sobel filter gives across a step of one: the lines' depth is measured in the edge energies'
units, and the camera's noise raises both alike (see ``vision.cells.Light``)."""
LINE_GAP = 1.0 / 16.0
"""How far (board units) on either side of a pixel its brightness is compared, to tell a thin dark line there:
about the width of a Go board's line and a half."""


def feature_count(geometry: Geometry) -> int:
    """How many features a cell of ``geometry`` is seen with (see ``FEATURE_NAMES``): the lines' depth only on a
    board of points."""
    return len(FEATURE_NAMES) if geometry.layout is Layout.POINT else len(FEATURE_NAMES) - 1


def at_full_scale(log: np.ndarray) -> np.ndarray:
    """Which channels of log colours (any shape) the camera shows at full scale, or within ``AT_LIMIT`` of it."""
    return np.asarray(log >= BRIGHTEST - AT_LIMIT)


def tells_light(log: np.ndarray) -> np.ndarray:
    """Which channels of log colours (any shape) tell the light: neither black nor clipped (``AT_LIMIT``)."""
    return (log > DARKEST + AT_LIMIT) & ~at_full_scale(log)


def log_colour(bgr: np.ndarray) -> np.ndarray:
    """Colours (any shape ×3, 0..1) in the log space of the reader."""
    return np.log(np.asarray(bgr, dtype=np.float32) + LOG_FLOOR)


_LOG_OF_BYTE = log_colour(np.arange(256, dtype=np.float32) * np.float32(1.0 / 255.0)).reshape(1, 256)
"""The log colour of each 8-bit value (float32, as OpenCV's ``LUT`` takes it): looked up, not computed per
pixel."""


def colour_of_log(log: np.ndarray) -> np.ndarray:
    """Colours (0..1) of log-space colours (any shape ×3)."""
    return np.clip(np.exp(np.asarray(log, dtype=np.float32)) - LOG_FLOOR, 0.0, 1.0)


class BoardView:
    """Warps pictures of one board flat and reads colours at board points; built once per board."""

    def __init__(
        self,
        geometry: Geometry,
        cell_px: int,
        margin: float,
        window: float,
        top: float,
        rim: tuple[float, float],
    ) -> None:
        """``cell_px``: pixels per board unit; ``margin``: board units kept around the cells' bounding box;
        ``window``: side of the median window, in board units; ``top``: radius of a piece's top, and ``rim``:
        inner and outer radius of the ring of its outline (board units)."""
        self.geometry = geometry
        self.px = cell_px
        self.margin = margin
        vertices = np.array([v for cell in geometry.cells for v in geometry.polygon(cell)], dtype=np.float64)
        low = np.minimum(vertices.min(axis=0), 0.0) - margin
        high = np.maximum(vertices.max(axis=0), (geometry.width, geometry.height)) + margin
        self.origin = low
        self.size = (int(math.ceil((high[0] - low[0]) * cell_px)), int(math.ceil((high[1] - low[1]) * cell_px)))
        # flat pixel (u, v) shows board point origin + ((u + 0.5) / px, (v + 0.5) / px)
        self.canvas_to_board = np.array(
            [[1.0 / cell_px, 0.0, low[0] + 0.5 / cell_px], [0.0, 1.0 / cell_px, low[1] + 0.5 / cell_px], [0, 0, 1.0]]
        )
        self.window_px = max(3, int(round(window * cell_px)) // 2 * 2 + 1)
        self.top_kernel = _ring_kernel(0.0, top * cell_px)
        self.rim_kernel = _ring_kernel(rim[0] * cell_px, rim[1] * cell_px)
        self.flux_kernels = _flux_kernels(rim[0] * cell_px, rim[1] * cell_px)
        self.line_px = max(1, int(round(LINE_GAP * cell_px)))
        self.width = feature_count(geometry)
        """How many features :meth:`features` gives each pixel (see :func:`feature_count`)."""
        self._bent: tuple[tuple[bytes, Lens, tuple[int, ...]], Box | None, np.ndarray, np.ndarray] | None = None
        """The last bent lens's warp: its key, the picture's region, and OpenCV's remap tables."""

    def warp(self, image: np.ndarray, homography: np.ndarray, lens: Lens | None = None) -> np.ndarray:
        """The board region of a BGR picture, warped flat (uint8 BGR, ``size``); ``homography`` maps the board plane
        to the picture as a straight lens shows it, and ``lens`` (straight when None) is how the camera bends it.

        Where the camera sees the board larger than the flat image, the
        region is first halved with a Gaussian pyramid as often as that
        leaves a camera pixel to each flat pixel: warping without it keeps a
        random few of a thin line's pixels. A bent lens's warp is a table of
        where each flat pixel lies in the picture, made once per board
        position.
        """
        m = np.asarray(homography, dtype=np.float64) @ self.canvas_to_board
        w, h = self.size
        edges = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
        if lens is not None and not lens.straight:
            return self._warp_bent(image, m, lens, lens.bend(cv2.perspectiveTransform(edges, m)[0]))
        box = _pyramid_box(image.shape, cv2.perspectiveTransform(edges, m)[0], w, h)
        if box is not None:
            image, m = _shrunk(image, box), _to_box(box) @ m
        return _bgr(
            cv2.warpPerspective(
                image, m, self.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
            )
        )

    def _warp_bent(self, image: np.ndarray, m: np.ndarray, lens: Lens, corners: np.ndarray) -> np.ndarray:
        """The warp through a bent ``lens`` of the picture that ``m`` maps flat pixels into (before the lens), whose
        flat image's corners the picture shows at ``corners``."""
        key = (m.tobytes(), lens, image.shape[:2])
        if self._bent is None or self._bent[0] != key:
            w, h = self.size
            u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
            flat = np.stack([u, v], axis=-1).reshape(-1, 1, 2)
            seen = lens.bend(cv2.perspectiveTransform(flat, m).reshape(h, w, 2))
            box = _pyramid_box(image.shape, corners, w, h, seen.reshape(-1, 2))
            if box is not None:
                to_box = _to_box(box)
                seen = seen * to_box[0, 0] + to_box[:2, 2]
            table = seen.astype(np.float32)
            fixed, fraction = cv2.convertMaps(table[..., 0], table[..., 1], cv2.CV_16SC2)
            self._bent = (key, box, fixed, fraction)
        _, box, fixed, fraction = self._bent
        if box is not None:
            image = _shrunk(image, box)
        return _bgr(cv2.remap(image, fixed, fraction, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))

    def features(self, flat: np.ndarray) -> np.ndarray:
        """What the reader sees around every flat pixel (H×W×``width`` float32, see ``FEATURE_NAMES``): the
        median-filtered log colour (3), the mean log-brightness gradient over a top and over a rim centred
        there (``EDGE_ENERGIES``), the gradient's mean outward flux through that rim (a disc's
        outline crosses it at right angles; a line through the centre runs along the radius and adds
        nothing), and on a board of points the square root of the mean depth of thin dark lines over the top
        (:func:`_valleys`)."""
        smooth = self._median(flat)
        out = np.empty((*flat.shape[:2], self.width), dtype=np.float32)
        out[..., :3] = cv2.LUT(smooth, _LOG_OF_BYTE)
        brightness = cv2.LUT(cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY), _LOG_OF_BYTE)
        across = cv2.Sobel(brightness, cv2.CV_32F, 1, 0, ksize=3)
        down = cv2.Sobel(brightness, cv2.CV_32F, 0, 1, ksize=3)
        gradient = cv2.magnitude(across, down)
        top = cv2.filter2D(gradient, -1, self.top_kernel, borderType=cv2.BORDER_REPLICATE)
        rim = cv2.filter2D(gradient, -1, self.rim_kernel, borderType=cv2.BORDER_REPLICATE)
        kx, ky = self.flux_kernels
        flux = cv2.filter2D(across, -1, kx, borderType=cv2.BORDER_REPLICATE) + cv2.filter2D(
            down, -1, ky, borderType=cv2.BORDER_REPLICATE
        )
        out[..., 3], out[..., 4], out[..., 5] = top, rim, flux
        if self.width == len(FEATURE_NAMES):
            lines = _valleys(brightness, self.line_px)
            out[..., 6] = cv2.sqrt(cv2.filter2D(lines, -1, self.top_kernel, borderType=cv2.BORDER_REPLICATE))
        return out

    def _median(self, flat: np.ndarray) -> np.ndarray:
        """The median filter over about ``window_px``: OpenCV's 8-bit median is quick up to a 5-pixel window and
        slow beyond, so a wider window is two 5-pixel passes (an iterated median, as robust)."""
        if self.window_px <= 5:
            return cv2.medianBlur(flat, self.window_px)
        return cv2.medianBlur(cv2.medianBlur(flat, 5), 5)

    def pixel(self, points: np.ndarray) -> np.ndarray:
        """Flat-image positions (…×2, float) of board points (…×2)."""
        pts = np.asarray(points, dtype=np.float64)
        return (pts - self.origin) * self.px - 0.5

    def sample(self, features: np.ndarray, points: np.ndarray) -> np.ndarray:
        """The features (…×F) at board points (…×2), interpolated between the four nearest flat pixels (the edge
        pixels repeated beyond the image) as OpenCV's bilinear remap does: only those pixels are read, however
        many features."""
        pts = np.asarray(points, dtype=np.float64)
        shape = pts.shape[:-1]
        maps = features if features.ndim == 3 else features[:, :, None]
        height, width = maps.shape[:2]
        uv = self.pixel(pts.reshape(-1, 2)).astype(np.float32).astype(np.float64)
        u = np.clip(uv[:, 0], 0.0, width - 1.0)
        v = np.clip(uv[:, 1], 0.0, height - 1.0)
        u0 = np.minimum(u.astype(np.intp), width - 2) if width > 1 else np.zeros(len(u), np.intp)
        v0 = np.minimum(v.astype(np.intp), height - 2) if height > 1 else np.zeros(len(v), np.intp)
        # positions to a 32nd of a pixel, as OpenCV's remap takes them: profiles saved before read the same
        fu = (np.round((u - u0) * SUBPIXELS) / SUBPIXELS).astype(np.float32)[:, None]
        fv = (np.round((v - v0) * SUBPIXELS) / SUBPIXELS).astype(np.float32)[:, None]
        u1 = np.minimum(u0 + 1, width - 1)
        v1 = np.minimum(v0 + 1, height - 1)
        top = maps[v0, u0] * (1.0 - fu) + maps[v0, u1] * fu
        bottom = maps[v1, u0] * (1.0 - fu) + maps[v1, u1] * fu
        out = (top * (1.0 - fv) + bottom * fv).astype(np.float32)
        return out.reshape(*shape, maps.shape[2])


def _valleys(brightness: np.ndarray, gap: int) -> np.ndarray:
    """How deep a thin dark line along either axis lies at every pixel of a log brightness (H×W float32, in
    ``SOBEL_GAIN`` units): the least rise to the pixels ``gap`` away on both sides, across the rows and across
    the columns, each never below 0. A board's line is such a valley; a stone's outline or a shadow's edge is a
    step, which rises on one side only, and a highlight a peak."""
    h, w = brightness.shape
    pad = cv2.copyMakeBorder(brightness, gap, gap, gap, gap, cv2.BORDER_REPLICATE)
    centre = pad[gap : gap + h, gap : gap + w]
    across = cv2.subtract(cv2.min(pad[gap : gap + h, :w], pad[gap : gap + h, 2 * gap :]), centre)
    down = cv2.subtract(cv2.min(pad[:h, gap : gap + w], pad[2 * gap :, gap : gap + w]), centre)
    # each rise never below 0, then their sum in Sobel's units (OpenCV's passes: half numpy's time)
    across = cv2.threshold(across, 0.0, 0.0, cv2.THRESH_TOZERO)[1]
    down = cv2.threshold(down, 0.0, 0.0, cv2.THRESH_TOZERO)[1]
    return cv2.addWeighted(across, SOBEL_GAIN, down, SOBEL_GAIN, 0.0)


def _ring_kernel(inner_px: float, outer_px: float) -> np.ndarray:
    """A normalised kernel averaging the pixels between two radii (a disc when ``inner_px`` is 0)."""
    r = max(1, int(math.ceil(outer_px)))
    du, dv = np.meshgrid(np.arange(-r, r + 1), np.arange(-r, r + 1))
    d2 = du**2 + dv**2
    inside = (d2 >= inner_px**2) & (d2 <= max(outer_px, inner_px + 1.0, 1.0) ** 2)
    kernel = inside.astype(np.float32)
    return kernel / kernel.sum()


def _flux_kernels(inner_px: float, outer_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Kernels that, correlated with the x and y gradients, give their mean outward (radial) component over a
    ring between two radii."""
    r = max(1, int(math.ceil(outer_px)))
    du, dv = np.meshgrid(np.arange(-r, r + 1), np.arange(-r, r + 1))
    d = np.sqrt(du**2 + dv**2)
    inside = (d >= inner_px) & (d <= max(outer_px, inner_px + 1.0, 1.0)) & (d > 0)
    count = max(int(inside.sum()), 1)
    kx = np.where(inside, du / np.maximum(d, 1e-9), 0.0) / count
    ky = np.where(inside, dv / np.maximum(d, 1e-9), 0.0) / count
    return kx.astype(np.float32), ky.astype(np.float32)


def _pyramid_levels(corners: np.ndarray, width: int, height: int) -> int:
    """How many times to halve the picture before warping it to a ``width``×``height`` flat image whose corners
    it shows at ``corners``: as often as it still shows each flat pixel over a camera pixel."""
    sides = [float(np.linalg.norm(corners[(k + 1) % 4] - corners[k])) for k in range(4)]
    across = (sides[0] + sides[2]) / (2.0 * width)
    down = (sides[1] + sides[3]) / (2.0 * height)
    scale = math.sqrt(max(across * down, 1e-12))
    return int(math.floor(math.log2(scale))) if scale >= 2.0 else 0


Box = tuple[int, int, int, int, int]
"""A region of a picture (x0, y0, x1, y1) and how many times it is halved."""


def _pyramid_box(
    shape: tuple[int, ...], corners: np.ndarray, width: int, height: int, reach: np.ndarray | None = None
) -> Box | None:
    """The region of a picture of ``shape`` about ``corners`` (where it shows the flat image's corners), or about
    every point of ``reach`` (a bent lens bows the flat image's edges out), and how often to halve it
    (:func:`_pyramid_levels`); None when the picture needs no halving."""
    levels = _pyramid_levels(corners, width, height)
    if not levels:
        return None
    pad = 2 << levels
    spread = corners if reach is None else reach
    x0, y0 = np.floor(spread.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(spread.max(axis=0)).astype(int) + pad
    x0, y0 = max(int(x0), 0), max(int(y0), 0)
    x1, y1 = min(int(x1), shape[1]), min(int(y1), shape[0])
    if x1 - x0 <= pad or y1 - y0 <= pad:
        return None
    return x0, y0, x1, y1, levels


def _shrunk(image: np.ndarray, box: Box) -> np.ndarray:
    """The region ``box`` of a BGR picture, halved by a Gaussian pyramid as often as it says, as BGRA: OpenCV's
    pyramid has vector code for four channels, not three (the warp drops the fourth after)."""
    x0, y0, x1, y1, levels = box
    crop = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2BGRA)
    for _ in range(levels):
        crop = cv2.pyrDown(crop)
    return crop


def _bgr(flat: np.ndarray) -> np.ndarray:
    """A warped flat image as BGR: one warped from a halved region (BGRA, see :func:`_shrunk`) drops its fourth
    channel."""
    return cv2.cvtColor(flat, cv2.COLOR_BGRA2BGR) if flat.shape[2] == 4 else flat


def _to_box(box: Box) -> np.ndarray:
    """The affine map (3×3) from a picture's pixels to those of its region ``box`` as :func:`_shrunk` gives it."""
    x0, y0, _, _, levels = box
    f = 0.5**levels
    # a pyramid level's pixel centres: x' = (x + 0.5) * f - 0.5
    return np.array([[f, 0.0, (0.5 - x0) * f - 0.5], [0.0, f, (0.5 - y0) * f - 0.5], [0.0, 0.0, 1.0]])
