"""The board drawn as the players see it, from the referee's geometry.

Cell outlines and centres come from :mod:`referee.geometry` in board-plane
units; the square Cascade board (``diamond:N``) is turned 45° so its top
corner points up, as it lies in front of the players. Everything is scaled
to SVG pixels and framed by a view box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee.geometry import Geometry, Layout, Point

CELL_PX = 40.0
MARGIN_PX = 6.0


@dataclass(frozen=True)
class CellShape:
    """One cell of the drawing: its name, outline (SVG points string) and centre in pixels."""

    name: str
    points: str
    cx: float
    cy: float
    r: float


@dataclass(frozen=True)
class BoardDrawing:
    """The whole board: cell shapes and the SVG view box."""

    spec: str
    cells: tuple[CellShape, ...]
    view_box: str
    width: float
    height: float


def _turn(geometry: Geometry) -> bool:
    return geometry.kind == "diamond"


def _place(geometry: Geometry, point: Point) -> Point:
    x, y = point
    if _turn(geometry):
        return ((x - y) / math.sqrt(2.0) * CELL_PX, (x + y) / math.sqrt(2.0) * CELL_PX)
    return (x * CELL_PX, y * CELL_PX)


def draw_board(geometry: Geometry) -> BoardDrawing:
    """The drawing of a board, ready for the page's SVG."""
    shapes: list[CellShape] = []
    xs: list[float] = []
    ys: list[float] = []
    radius = geometry.stone_radius * CELL_PX * (0.8 if geometry.layout is Layout.HEX else 0.82)
    for cell in geometry.cells:
        outline = [_place(geometry, p) for p in geometry.polygon(cell)]
        cx, cy = _place(geometry, geometry.centre(cell))
        xs.extend(p[0] for p in outline)
        ys.extend(p[1] for p in outline)
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in outline)
        shapes.append(CellShape(cell.name, points, round(cx, 1), round(cy, 1), round(radius, 1)))
    left, top = min(xs) - MARGIN_PX, min(ys) - MARGIN_PX
    width, height = max(xs) - min(xs) + 2 * MARGIN_PX, max(ys) - min(ys) + 2 * MARGIN_PX
    return BoardDrawing(
        spec=geometry.spec,
        cells=tuple(shapes),
        view_box=f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}",
        width=round(width, 1),
        height=round(height, 1),
    )
