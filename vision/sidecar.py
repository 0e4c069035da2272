"""A photo's own board corners, in a small text file beside it.

A photo taken from its own pose (a phone held over the board, a camera that
was moved) brings the image positions of the board's four corners in a
*sidecar* file: ``NAME.corners`` beside ``NAME.jpg``, one line
``x,y x,y x,y x,y`` (top-left, top-right, bottom-right, bottom-left, the form
of ``cascade calibrate --corners``). Where a photo has one, it is located by
it rather than by the profile's stored location.
"""

from __future__ import annotations

import math
from pathlib import Path

from vision.errors import BoardNotFoundError

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]

SUFFIX = ".corners"
MAX_SIDECAR_BYTES = 4096
"""A corners file is one short line; anything longer is not one."""


class CornersError(BoardNotFoundError, ValueError):
    """Corners given as text (on the command line or in a sidecar file) are malformed."""


def parse_corners(text: str, source: str = "--corners") -> Quad:
    """Four ``x,y`` image points separated by spaces (top-left first, clockwise); raises CornersError saying
    what to write. ``source`` names where the text came from, for the message."""
    parts = text.replace(";", " ").split()
    points: list[Point] = []
    for part in parts:
        xy = part.split(",")
        if len(xy) != 2:
            break
        try:
            x, y = float(xy[0]), float(xy[1])
        except ValueError:
            break
        if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > 1e6 or abs(y) > 1e6:
            break
        points.append((x, y))
    if len(points) != 4 or len(parts) != 4:
        shown = text.strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise CornersError(
            f'{source} "{shown}": give four image points as "x,y x,y x,y x,y" '
            "(top-left, top-right, bottom-right, bottom-left)"
        )
    return (points[0], points[1], points[2], points[3])


def sidecar_path(image: str | Path) -> Path:
    """Where the corners file of ``image`` is (``NAME.corners`` beside ``NAME.jpg``)."""
    return Path(image).with_suffix(SUFFIX)


def corners_beside(image: str | Path) -> Quad | None:
    """The corners in the sidecar file of ``image``, or None when it has none; raises CornersError for a
    sidecar that cannot be read as four points."""
    path = sidecar_path(image)
    if not path.is_file():
        return None
    try:
        raw = path.read_bytes()[: MAX_SIDECAR_BYTES + 1]
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        raise CornersError(f"{path}: not a readable text file of four x,y points: write it again") from None
    if len(raw) > MAX_SIDECAR_BYTES:
        raise CornersError(f"{path}: too long for a corners file: write one line of four x,y points")
    return parse_corners(text, str(path))
