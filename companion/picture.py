"""Pictures of a position: the board drawn cell by cell, each cell named, as SVG or PNG.

One drawing, two outputs: :func:`board_shapes` lays the board out as plain
shapes (cells, stones or balls, labels) in pixels, :func:`to_svg` writes them
as an SVG document (standard library only) and :func:`to_png` paints them
with OpenCV. Every board of the three games draws the same way: each cell's
outline from its geometry, a stone as a disc in its colour, a Kaskade ball
as a disc with its count, and the cell's name in small type at the top of
the cell, so that a reader can follow a record on the picture.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.rules import Position
from referee.symbols import BLACK, EMPTY, RED, WHITE

UNIT_PX = 48
"""Pixels per board unit (a square cell's side, a hexagonal cell's width)."""
MARGIN = 0.35
"""Blank border around the cells, in board units."""
STONE = 0.33
"""A stone's radius in board units: it leaves the cell's name above it readable."""
NAME_SIZE = 0.2
"""The cell name's type size in board units."""
TITLE_SIZE = 0.28
"""The title's type size in board units."""
TITLE_WIDTH = 0.62
"""A bold character's width, as a share of the type size (DejaVu Sans and OpenCV's plain font both stay within)."""
NAME_RISE = 0.36
"""How far above the cell's centre its name sits, in board units."""

BOARD = "#e7c98f"
LINE = "#6b4f23"
NAME = "#6b4f23"
FILLS = {WHITE: "#f6f5ef", BLACK: "#23211f", RED: "#c8372d"}
RIMS = {WHITE: "#8a877c", BLACK: "#000000", RED: "#7d1c15"}
INKS = {WHITE: "#23211f", BLACK: "#f6f5ef", RED: "#f6f5ef"}


@dataclass(frozen=True)
class Outline:
    """A filled polygon with an edge (a cell)."""

    points: tuple[tuple[float, float], ...]
    fill: str
    edge: str


@dataclass(frozen=True)
class Disc:
    """A filled circle with an edge (a stone or ball)."""

    centre: tuple[float, float]
    radius: float
    fill: str
    edge: str


@dataclass(frozen=True)
class Label:
    """Text centred on a point."""

    at: tuple[float, float]
    text: str
    size: float
    ink: str
    bold: bool = False


Shape = Outline | Disc | Label


@dataclass(frozen=True)
class Drawing:
    """Shapes in pixels on a canvas of ``width`` × ``height``, drawn in order."""

    width: int
    height: int
    shapes: tuple[Shape, ...]


def board_shapes(position: Position, title: str | None = None) -> Drawing:
    """The drawing of ``position``: every cell named, its stone or ball in place; ``title`` above the board."""
    geometry = position.geometry
    turn = _diamond_turn if geometry.kind == "diamond" else _unturned
    outlines = [tuple(turn(*point) for point in geometry.polygon(cell)) for cell in geometry.cells]
    xs = [x for outline in outlines for x, _ in outline]
    ys = [y for outline in outlines for _, y in outline]
    top = MARGIN + (0.5 if title else 0.0)
    x0, y0 = min(xs) - MARGIN, min(ys) - top
    board_width = round((max(xs) + MARGIN - x0) * UNIT_PX)
    height = round((max(ys) + MARGIN - y0) * UNIT_PX)
    title_size = TITLE_SIZE * UNIT_PX
    width = max(board_width, round(len(title or "") * TITLE_WIDTH * title_size + 2 * MARGIN * UNIT_PX))
    shift = (width - board_width) / 2  # a title wider than the board: the board stays in the middle

    def px(x: float, y: float) -> tuple[float, float]:
        return (round((x - x0) * UNIT_PX + shift, 2), round((y - y0) * UNIT_PX, 2))

    shapes: list[Shape] = []
    if title:
        shapes.append(Label(((width / 2), (0.4 * UNIT_PX)), title, title_size, NAME, bold=True))
    for outline in outlines:
        shapes.append(Outline(tuple(px(x, y) for x, y in outline), BOARD, LINE))
    for cell, token in zip(geometry.cells, position.symbols(), strict=True):
        cx, cy = turn(*geometry.centre(cell))
        shapes.append(Label(px(cx, cy - NAME_RISE), cell.name, NAME_SIZE * UNIT_PX, NAME))
        if token == EMPTY:
            continue
        colour, count = token[0], token[1:]
        shapes.append(Disc(px(cx, cy + 0.06), STONE * UNIT_PX, FILLS[colour], RIMS[colour]))
        if count:
            shapes.append(Label(px(cx, cy + 0.06), count, 0.3 * UNIT_PX, INKS[colour], bold=True))
    return Drawing(width, height, tuple(shapes))


def _diamond_turn(x: float, y: float) -> tuple[float, float]:
    """A Cascade board's square turned a quarter of a right angle clockwise: its top cell on top, as the
    rules' diagrams draw it and the cascades fall."""
    half = math.sqrt(0.5)
    return (half * (x - y), half * (x + y))


def _unturned(x: float, y: float) -> tuple[float, float]:
    """A board drawn as it lies."""
    return (x, y)


def to_svg(drawing: Drawing) -> str:
    """The drawing as a self-contained SVG document."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{drawing.width}" height="{drawing.height}" '
        f'viewBox="0 0 {drawing.width} {drawing.height}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{drawing.width}" height="{drawing.height}" fill="#ffffff"/>',
    ]
    for shape in drawing.shapes:
        if isinstance(shape, Outline):
            points = " ".join(f"{x:g},{y:g}" for x, y in shape.points)
            out.append(f'<polygon points="{points}" fill="{shape.fill}" stroke="{shape.edge}" stroke-width="1.5"/>')
        elif isinstance(shape, Disc):
            (x, y), r = shape.centre, shape.radius
            out.append(
                f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{shape.fill}" stroke="{shape.edge}" '
                'stroke-width="1.5"/>'
            )
        else:
            (x, y), weight = shape.at, ' font-weight="bold"' if shape.bold else ""
            out.append(
                f'<text x="{x:g}" y="{y:g}" font-size="{shape.size:g}" fill="{shape.ink}"{weight} '
                f'text-anchor="middle" dominant-baseline="central">{html.escape(shape.text, quote=False)}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_png(drawing: Drawing) -> bytes:
    """The drawing painted as a PNG image (OpenCV)."""
    import cv2
    import numpy as np

    canvas = np.full((drawing.height, drawing.width, 3), 255, dtype=np.uint8)
    for shape in drawing.shapes:
        if isinstance(shape, Outline):
            contour = np.round(np.array(shape.points, dtype=np.float64)).astype(np.int32)
            cv2.fillPoly(canvas, [contour], _bgr(shape.fill), lineType=cv2.LINE_AA)
            cv2.polylines(canvas, [contour], True, _bgr(shape.edge), 1, lineType=cv2.LINE_AA)
        elif isinstance(shape, Disc):
            centre = (round(shape.centre[0]), round(shape.centre[1]))
            cv2.circle(canvas, centre, round(shape.radius), _bgr(shape.fill), -1, lineType=cv2.LINE_AA)
            cv2.circle(canvas, centre, round(shape.radius), _bgr(shape.edge), 1, lineType=cv2.LINE_AA)
        else:
            _put_text(cv2, canvas, shape)
    ok, encoded = cv2.imencode(".png", canvas)
    if not ok:  # pragma: no cover - OpenCV always encodes an 8-bit image as PNG
        raise ValueError("the picture could not be encoded as PNG")
    return bytes(encoded.tobytes())


def _put_text(cv2: Any, canvas: Any, label: Label) -> None:
    """``label`` centred on its point in OpenCV's plain font, scaled to its size."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    thickness = 2 if label.bold else 1
    (w, h), _ = cv2.getTextSize(label.text, font, 1.0, thickness)
    scale = label.size / max(h, 1) * 0.75
    (w, h), _ = cv2.getTextSize(label.text, font, scale, thickness)
    origin = (round(label.at[0] - w / 2), round(label.at[1] + h / 2))
    cv2.putText(canvas, label.text, origin, font, scale, _bgr(label.ink), thickness, cv2.LINE_AA)


def _bgr(colour: str) -> tuple[int, int, int]:
    """A ``#rrggbb`` colour as OpenCV's blue, green, red."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return (b, g, r)


def names_shown(drawing: Drawing) -> Sequence[str]:
    """The texts of the drawing's labels, in order (what a reader sees written on it)."""
    return [shape.text for shape in drawing.shapes if isinstance(shape, Label)]
