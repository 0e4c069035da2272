"""Where the four ArUco markers sit on a board, in board-plane coordinates.

The default layout is shared by the synthetic renderer, the printable sheets
and the profiles: markers from ``cv2.aruco.DICT_4X4_50`` with ids 0, 1, 2, 3
beside the top-left, top-right, bottom-right and bottom-left corners of the
board's playing area, outside it, each a square of side
``s = max(0.8, 0.1 * max(width, height))`` board units with a gap of ``0.3 s``
to the area. The playing area is the bounding box ``(0, 0)-(width, height)``
grown to hold a stone of half a pitch on every cell (:func:`stone_extent`):
on square and hex boards that is the box itself, on ``points`` boards the
stones on the outer nodes stick out half a pitch, so the markers sit that much
further out and stones never touch a marker's white quiet zone. A profile may
store any other placement.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.geometry import Geometry

Point = tuple[float, float]

DEFAULT_DICTIONARY = "DICT_4X4_50"


@dataclass(frozen=True)
class MarkerPlacement:
    """One marker: its id and its four corners in the board plane.

    Corners are in ArUco's order: top-left, top-right, bottom-right,
    bottom-left of the printed marker.
    """

    id: int
    corners: tuple[Point, Point, Point, Point]

    @property
    def centre(self) -> Point:
        """The marker's centre in the board plane."""
        return (
            sum(x for x, _ in self.corners) / 4.0,
            sum(y for _, y in self.corners) / 4.0,
        )


def default_marker_side(geometry: Geometry) -> float:
    """Side of each default marker in board units."""
    return max(0.8, 0.1 * max(geometry.width, geometry.height))


STONE_RADIUS = 0.5
"""The largest stone a cell or point holds, in board units (half a pitch)."""


def stone_extent(geometry: Geometry) -> tuple[float, float, float, float]:
    """``(left, top, right, bottom)`` of the board's bounding box grown to hold a stone on every cell."""
    xs = [x for x, _ in geometry.centres]
    ys = [y for _, y in geometry.centres]
    return (
        min(0.0, min(xs) - STONE_RADIUS),
        min(0.0, min(ys) - STONE_RADIUS),
        max(geometry.width, max(xs) + STONE_RADIUS),
        max(geometry.height, max(ys) + STONE_RADIUS),
    )


def default_markers(geometry: Geometry) -> tuple[MarkerPlacement, ...]:
    """The default four markers around ``geometry``'s playing area (:func:`stone_extent`)."""
    s = default_marker_side(geometry)
    gap = 0.3 * s
    left, top, right, bottom = stone_extent(geometry)
    origins = (
        (left - gap - s, top - gap - s),
        (right + gap, top - gap - s),
        (right + gap, bottom + gap),
        (left - gap - s, bottom + gap),
    )
    return tuple(
        MarkerPlacement(
            id=i,
            corners=((x, y), (x + s, y), (x + s, y + s), (x, y + s)),
        )
        for i, (x, y) in enumerate(origins)
    )
