"""Printable sheets: the four ArUco markers and the board at true scale, on A4 or Letter paper.

A sheet shows a board of any geometry in its board-plane frame (see
:mod:`referee.geometry`; a ``diamond`` board prints as the untilted square,
turn the paper 45° to play), the four markers of :mod:`vision.markers` at
their default places around it, each on a white quiet zone, a caption naming
the board, the cell pitch and the markers, and a 50 mm scale bar to check the
print with a ruler. Because the markers sit where the default
:class:`~vision.locate.MarkerLocator` and the ready profiles expect them, a
printed sheet is found without any further set-up.

Two kinds: ``outline`` draws only the cells' edges (lay your own board on it,
or check that the markers fit around it); ``board`` fills the cells, so the
sheet itself is a playable board (a checkerboard for square boards, hexagons
in three shades for hex boards).

:func:`plan_sheet` chooses the orientation and the largest cell pitch the
paper holds (or checks a pitch asked for); :func:`draw_sheet` draws it at a
given resolution; :func:`save_sheet` writes PNG (with its resolution
recorded, so it prints at true scale) or a one-page PDF holding the picture
at true scale.
"""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from referee.geometry import Geometry, Layout
from vision.markers import DEFAULT_DICTIONARY, default_markers

PAPERS_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes (width, height) in millimetres, portrait."""

KINDS = ("outline", "board")
MARGIN_MM = 10.0
CAPTION_MM = 14.0
SCALE_BAR_MM = 50.0
MM_PER_INCH = 25.4
POINTS_PER_MM = 72.0 / MM_PER_INCH

PAPER_BGR = (255, 255, 255)
LINE_BGR = (40, 40, 40)
OUTLINE_BGR = (150, 150, 150)
LIGHT_BGR = (150, 200, 230)
DARK_BGR = (70, 110, 150)
HEX_BGR = ((150, 200, 230), (125, 175, 210), (100, 150, 190))
"""Printed colours (BGR): light and dark squares, and the three hexagon shades by column.

Wood tones chosen to stay far from the stones: the light squares are darker
and more yellow than a white stone, the dark squares lighter than a black
stone and far less red than a red one, so every stone reads on every square.
"""

LINE_WIDTH = 0.025
"""Width of the cell edges, in cell pitches."""


class SheetError(ValueError):
    """A printable sheet cannot be made as asked (paper, pitch, file type); the message says what to change."""


def quiet_zone(geometry: Geometry) -> float:
    """Width of the white border around each marker, in board units (a fifth of a marker's side)."""
    (ax, _), (bx, _) = default_markers(geometry)[0].corners[:2]
    return (bx - ax) / 5.0


def sheet_box(geometry: Geometry) -> tuple[float, float, float, float]:
    """The board-plane box (x0, y0, x1, y1) a sheet must show: cells, markers and their quiet zones."""
    pts = [p for cell in geometry.cells for p in geometry.polygon(cell)]
    pts += [c for m in default_markers(geometry) for c in m.corners]
    q = quiet_zone(geometry)
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    return (min(xs) - q, min(ys) - q, max(xs) + q, max(ys) + q)


@dataclass(frozen=True)
class SheetPlan:
    """Where a board goes on the paper.

    ``paper_mm`` is the page (width, height) as oriented; ``cell_mm`` the
    printed cell pitch; ``origin_mm`` the page position of the board plane's
    (0, 0), measured from the page's top-left corner.
    """

    geometry: Geometry
    paper: str
    paper_mm: tuple[float, float]
    cell_mm: float
    origin_mm: tuple[float, float]
    kind: str

    def board_to_mm(self) -> np.ndarray:
        """The 3×3 matrix from board-plane points to page millimetres."""
        s = self.cell_mm
        ox, oy = self.origin_mm
        return np.array([[s, 0.0, ox], [0.0, s, oy], [0.0, 0.0, 1.0]])


def largest_cell_mm(geometry: Geometry, paper: str) -> tuple[float, bool]:
    """The largest cell pitch (mm) that fits ``paper``, and whether that needs landscape orientation."""
    width, height = _paper(paper)
    x0, y0, x1, y1 = sheet_box(geometry)
    bw, bh = x1 - x0, y1 - y0

    def fit(w: float, h: float) -> float:
        return min((w - 2 * MARGIN_MM) / bw, (h - 2 * MARGIN_MM - CAPTION_MM) / bh)

    portrait, landscape = fit(width, height), fit(height, width)
    return (max(portrait, landscape), landscape > portrait)


def plan_sheet(geometry: Geometry, paper: str = "a4", cell_mm: float | None = None, kind: str = "outline") -> SheetPlan:
    """Lay ``geometry`` out on ``paper``: the largest pitch that fits, or ``cell_mm`` if it fits.

    Raises :class:`SheetError` for an unknown paper or kind, or a pitch the
    paper cannot hold (the message gives the largest that fits).
    """
    if kind not in KINDS:
        raise SheetError(f"sheet kind '{kind}' is unknown: use {' or '.join(KINDS)}")
    best, landscape = largest_cell_mm(geometry, paper)
    if cell_mm is None:
        cell_mm = math.floor(best * 10.0) / 10.0
    elif not math.isfinite(cell_mm) or cell_mm <= 0:
        raise SheetError(f"the cell pitch must be a positive number of millimetres, not {cell_mm}")
    elif cell_mm > best + 1e-9:
        raise SheetError(
            f"a {geometry.spec} board with {cell_mm:g} mm cells and its markers does not fit on {paper} paper: "
            f"the largest pitch that fits is {math.floor(best * 10) / 10:g} mm; print the markers for a "
            "smaller board or use bigger paper"
        )
    width, height = _paper(paper)
    if landscape:
        width, height = height, width
    x0, y0, x1, y1 = sheet_box(geometry)
    used_w, used_h = (x1 - x0) * cell_mm, (y1 - y0) * cell_mm
    left = (width - used_w) / 2.0
    top = MARGIN_MM + (height - 2 * MARGIN_MM - CAPTION_MM - used_h) / 2.0
    origin = (left - x0 * cell_mm, top - y0 * cell_mm)
    return SheetPlan(geometry, paper, (width, height), float(cell_mm), origin, kind)


def _paper(paper: str) -> tuple[float, float]:
    try:
        return PAPERS_MM[paper.strip().lower()]
    except KeyError:
        raise SheetError(f"paper '{paper}' is unknown: use {' or '.join(PAPERS_MM)}") from None


@dataclass(frozen=True, eq=False)
class Sheet:
    """A drawn sheet: the page picture (BGR, uint8) at ``dpi`` and its plan."""

    plan: SheetPlan
    dpi: float
    image: np.ndarray

    @property
    def px_per_mm(self) -> float:
        """Pixels per millimetre of the picture."""
        return self.dpi / MM_PER_INCH

    def board_to_px(self) -> np.ndarray:
        """The 3×3 matrix from board-plane points to picture pixels (pixel centres at integers)."""
        k = self.px_per_mm
        to_px = np.array([[k, 0.0, -0.5], [0.0, k, -0.5], [0.0, 0.0, 1.0]])
        return to_px @ self.plan.board_to_mm()


def draw_sheet(plan: SheetPlan, dpi: float = 300.0) -> Sheet:
    """Draw ``plan`` at ``dpi`` dots per inch: cells, markers, caption and scale bar."""
    if not 50.0 <= dpi <= 1200.0:
        raise SheetError(f"the resolution must be between 50 and 1200 dpi, not {dpi:g}")
    k = dpi / MM_PER_INCH
    width_mm, height_mm = plan.paper_mm
    image = np.full((round(height_mm * k), round(width_mm * k), 3), PAPER_BGR, np.uint8)
    sheet = Sheet(plan, float(dpi), image)
    canvas = _Canvas(image, sheet.board_to_px())
    geometry = plan.geometry
    if plan.kind == "board":
        _fill_cells(geometry, canvas)
        line, width = LINE_BGR, LINE_WIDTH
    else:
        line, width = OUTLINE_BGR, LINE_WIDTH / 2
    for cell in geometry.cells:
        canvas.polyline(list(geometry.polygon(cell)), line, width)
    _draw_markers(geometry, canvas, k * plan.cell_mm)
    _draw_caption(sheet)
    return sheet


class _Canvas:
    """Draws board-plane shapes into the page picture, anti-aliased, with sub-pixel precision."""

    SHIFT = 4

    def __init__(self, image: np.ndarray, board_to_px: np.ndarray) -> None:
        self.image = image
        self.matrix = board_to_px
        self.px_per_unit = float(board_to_px[0, 0])

    def px(self, points: list[tuple[float, float]]) -> np.ndarray:
        pts = np.array(points, np.float64) @ self.matrix[:2, :2].T + self.matrix[:2, 2]
        return np.round(pts * (1 << self.SHIFT)).astype(np.int32)

    def polygon(self, points: list[tuple[float, float]], colour: tuple[int, int, int]) -> None:
        cv2.fillPoly(self.image, [self.px(points)], colour, cv2.LINE_AA, self.SHIFT)

    def polyline(self, points: list[tuple[float, float]], colour: tuple[int, int, int], width: float) -> None:
        thickness = max(1, round(width * self.px_per_unit))
        cv2.polylines(self.image, [self.px(points)], True, colour, thickness, cv2.LINE_AA, self.SHIFT)


def cell_shade(geometry: Geometry, index: int) -> tuple[int, int, int]:
    """The printed colour (BGR) of cell ``index`` on a ``board`` sheet."""
    x, y = geometry.centres[index]
    if geometry.layout is Layout.HEX:
        return HEX_BGR[round(2 * x) % 3]
    if geometry.layout is Layout.SQUARE:
        return LIGHT_BGR if (int(x) + int(y)) % 2 == 0 else DARK_BGR
    return LIGHT_BGR


def _fill_cells(geometry: Geometry, canvas: _Canvas) -> None:
    for i, cell in enumerate(geometry.cells):
        canvas.polygon(list(geometry.polygon(cell)), cell_shade(geometry, i))


def _draw_markers(geometry: Geometry, canvas: _Canvas, px_per_unit: float) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DEFAULT_DICTIONARY))
    for marker in default_markers(geometry):
        (x0, y0), _, (x1, y1), _ = marker.corners
        (u0, v0), (u1, _v1) = (canvas.matrix[:2, :2] @ np.array([[x0, x1], [y0, y1]])).T + canvas.matrix[:2, 2] + 0.5
        side = round(u1 - u0)
        left, top = round(u0), round(v0)
        pattern = dictionary.generateImageMarker(marker.id, side)
        h, w = canvas.image.shape[:2]
        if left < 0 or top < 0 or left + side > w or top + side > h:
            raise SheetError("a marker falls off the page: use bigger paper or a smaller cell pitch")
        canvas.image[top : top + side, left : left + side] = pattern[:, :, None]


def _draw_caption(sheet: Sheet) -> None:
    plan = sheet.plan
    k = sheet.px_per_mm
    image = sheet.image
    height_mm = plan.paper_mm[1]
    baseline = (height_mm - MARGIN_MM - CAPTION_MM / 2.0) * k
    x = MARGIN_MM * k
    scale = 3.2 * k / 30.0
    thickness = max(1, round(0.3 * k))
    text = (
        f"{plan.geometry.spec}   cell pitch {plan.cell_mm:g} mm   markers {DEFAULT_DICTIONARY} ids 0-3   "
        "print at 100% (actual size)"
    )
    cv2.putText(image, text, (int(x), int(baseline)), cv2.FONT_HERSHEY_SIMPLEX, scale, LINE_BGR, thickness, cv2.LINE_AA)
    if plan.geometry.kind == "diamond":
        top = plan.geometry.cells[0].name
        hint = f"turn the sheet 45 degrees: the top-left square ({top}) is the corner farthest from the players"
        cv2.putText(
            image,
            hint,
            (int(x), int(baseline - 5.0 * k)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            LINE_BGR,
            thickness,
            cv2.LINE_AA,
        )
    bar_top = baseline + 2.0 * k
    p0 = (round(x), round(bar_top))
    p1 = (round(x + SCALE_BAR_MM * k) - 1, round(bar_top + 1.5 * k))
    cv2.rectangle(image, p0, p1, LINE_BGR, -1)
    label = f"{SCALE_BAR_MM:g} mm"
    cv2.putText(
        image,
        label,
        (int(p1[0] + 2 * k), int(p1[1])),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        LINE_BGR,
        thickness,
        cv2.LINE_AA,
    )


# --- files -----------------------------------------------------------------------------------------------


def save_sheet(sheet: Sheet, path: str | Path) -> Path:
    """Write ``sheet`` to ``path``: ``.png`` (resolution recorded) or ``.pdf`` (one page at true scale)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".png":
        ok, data = cv2.imencode(".png", sheet.image)
        if not ok:
            raise SheetError(f"{path}: the picture could not be encoded as PNG")
        path.write_bytes(png_with_dpi(data.tobytes(), sheet.dpi))
    elif suffix == ".pdf":
        path.write_bytes(pdf_with_image(sheet.image, sheet.plan.paper_mm))
    else:
        raise SheetError(f"{path}: write the sheet to a .pdf or .png file")
    return path


def png_with_dpi(png: bytes, dpi: float) -> bytes:
    """The PNG ``png`` with a pHYs chunk saying its resolution, so that it prints at true scale."""
    signature, rest = png[:8], png[8:]
    ihdr_end = 8 + struct.unpack(">I", rest[:4])[0] + 4
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    return signature + rest[:ihdr_end] + chunk + rest[ihdr_end:]


def pdf_with_image(image_bgr: np.ndarray, paper_mm: tuple[float, float]) -> bytes:
    """A one-page PDF of ``paper_mm`` whose page is filled by ``image_bgr`` (so it prints at true scale)."""
    h, w = image_bgr.shape[:2]
    rgb = np.ascontiguousarray(image_bgr[:, :, ::-1])
    pixels = zlib.compress(rgb.tobytes(), 6)
    page_w, page_h = paper_mm[0] * POINTS_PER_MM, paper_mm[1] * POINTS_PER_MM
    content = f"q {page_w:.3f} 0 0 {page_h:.3f} 0 0 cm /Im0 Do Q".encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w:.3f} {page_h:.3f}] "
            "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>"
        ).encode("ascii"),
        (
            f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB "
            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n"
        ).encode("ascii")
        + pixels
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode("ascii") + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode("ascii")
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode("ascii")
    return bytes(out)
