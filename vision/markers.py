"""Where the four ArUco markers sit on a board, in board-plane coordinates.

The default layout is shared by the synthetic renderer, the printable sheets
and the profiles: markers from ``cv2.aruco.DICT_4X4_50`` with ids 0, 1, 2, 3
beside the top-left, top-right, bottom-right and bottom-left corners of the
board's bounding box ``(0, 0)-(width, height)``, outside it, each a square of
side ``s = max(0.8, 0.1 * max(width, height))`` board units with a gap of
``0.3 s`` to the box. A profile may store any other placement.
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


def default_markers(geometry: Geometry) -> tuple[MarkerPlacement, ...]:
    """The default four markers around ``geometry``'s bounding box."""
    s = default_marker_side(geometry)
    gap = 0.3 * s
    w, h = geometry.width, geometry.height
    origins = (
        (-gap - s, -gap - s),
        (w + gap, -gap - s),
        (w + gap, h + gap),
        (-gap - s, h + gap),
    )
    return tuple(
        MarkerPlacement(
            id=i,
            corners=((x, y), (x + s, y), (x + s, y + s), (x, y + s)),
        )
        for i, (x, y) in enumerate(origins)
    )
