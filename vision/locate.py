"""Board localisation: where the board plane lies in a camera image.

A *locator* describes how a board is found, and is stored in the profile:

- :class:`MarkerLocator`: four (or more) ArUco markers at known board-plane
  positions (see :mod:`vision.markers`); robust to a bumped board or camera.
- :class:`CornerLocator`: the image positions of the geometry's four
  ``corners``, fixed (a camera and board that never move).
- :class:`CheckerboardLocator`: OpenCV's checkerboard corner finder on the
  empty square board; :func:`find_checkerboard` runs it once and returns a
  :class:`CornerLocator` to store.

:func:`locate` turns an image into a :class:`Location`: the homography from
the board plane to the image. Given the previous location it first checks the
marker patches where they were (a few tiny warps); only when that check fails
does it run the full ArUco detection, so a still camera costs almost nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import cv2
import numpy as np

from referee.geometry import Geometry, Layout
from vision.config import VisionConfig
from vision.errors import BoardNotFoundError, VisionError
from vision.lens import STRAIGHT, Lens, project
from vision.markers import DEFAULT_DICTIONARY, MarkerPlacement, default_markers

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


@dataclass(frozen=True)
class MarkerLocator:
    """Locate the board by ArUco markers at known board-plane positions."""

    markers: tuple[MarkerPlacement, ...]
    dictionary: str = DEFAULT_DICTIONARY

    @classmethod
    def default(cls, geometry: Geometry) -> MarkerLocator:
        """The default four markers of :mod:`vision.markers` around ``geometry``."""
        return cls(markers=default_markers(geometry), dictionary=DEFAULT_DICTIONARY)


@dataclass(frozen=True)
class CornerLocator:
    """Fixed image positions (x, y) of the geometry's four ``corners``, clockwise from top-left."""

    corners: Quad


@dataclass(frozen=True)
class CheckerboardLocator:
    """Find the empty square board with OpenCV's checkerboard corner finder (slow; run once)."""


Locator = MarkerLocator | CornerLocator | CheckerboardLocator


@dataclass(frozen=True, eq=False)
class Location:
    """Where the board is in one image.

    ``homography`` maps board-plane points (x, y, 1) to image points as a
    straight lens shows them, and ``lens`` is how the camera bends them (see
    :mod:`vision.lens`).
    ``markers_seen`` are the ids of the markers confirmed in this image
    (empty for the other locators). ``redetected`` is True when this image
    needed a full detection, False when the previous location was confirmed
    by the cheap check (or for fixed corners). ``confirmed`` is False when
    nothing in this image confirmed the board and the previous homography was
    kept (markers hidden): such a frame must be treated as occluded.
    ``followed`` is True when the board's own lines have nothing more to say
    of it: markers placed it, or a position that corners placed has been
    moved onto the lines (:func:`vision.lines.follow_lines`); a location kept
    from an earlier frame keeps it.
    """

    homography: np.ndarray
    markers_seen: tuple[int, ...] = ()
    redetected: bool = False
    confirmed: bool = True
    marker_quads: dict[int, np.ndarray] = field(default_factory=dict)
    marker_patches: dict[int, np.ndarray] = field(default_factory=dict)
    lens: Lens = STRAIGHT
    followed: bool = False

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image positions (as the camera shows them) of board-plane points (an N×2 array)."""
        return project(self.homography, self.lens, points)


def locate(
    image: np.ndarray,
    geometry: Geometry,
    locator: Locator,
    previous: Location | None = None,
    config: VisionConfig | None = None,
    lens: Lens | None = None,
) -> Location:
    """Locate ``geometry`` in a BGR (or grey) ``image`` with ``locator``, through the camera's ``lens`` (straight
    when None).

    Raises :class:`BoardNotFoundError` when the board cannot be found and
    there is no previous location to fall back on.
    """
    config = config or VisionConfig()
    lens = Lens() if lens is None else lens
    if isinstance(locator, CornerLocator):
        if previous is not None:
            return previous
        return Location(homography=corner_homography(geometry, locator.corners, lens), redetected=True, lens=lens)
    if isinstance(locator, CheckerboardLocator):
        if previous is not None:
            return previous
        found = find_checkerboard(image, geometry, lens)
        return Location(homography=corner_homography(geometry, found.corners, lens), redetected=True, lens=lens)
    return _locate_markers(image, locator, previous, config, lens)


def corner_homography(geometry: Geometry, corners: Quad, lens: Lens | None = None) -> np.ndarray:
    """The homography that sends ``geometry.corners`` to the image points ``corners`` as a straight lens would show
    them, given the camera's ``lens`` (straight when None)."""
    src = np.array(geometry.corners, dtype=np.float64)
    dst = np.array(corners, dtype=np.float64)
    if dst.shape != (4, 2) or not np.all(np.isfinite(dst)):
        raise BoardNotFoundError("give exactly four corners as x,y image points")
    if abs(_signed_area(dst)) < 1.0:
        raise BoardNotFoundError(
            "the four corners enclose no area: give them top-left, top-right, bottom-right, bottom-left"
        )
    if lens is not None:
        dst = lens.straighten(dst)
    h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    return np.asarray(h, dtype=np.float64)


def _signed_area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


# --- markers -----------------------------------------------------------------------------------------


@cache
def _detector(dictionary: str) -> Any:
    name = getattr(cv2.aruco, dictionary, None)
    if not isinstance(name, int):
        raise VisionError(f"'{dictionary}' is not an ArUco dictionary of OpenCV: use a name like DICT_4X4_50")
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(name), params)


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _patch(image: np.ndarray, quad: np.ndarray, side: int) -> np.ndarray:
    dst = np.array([(0, 0), (side, 0), (side, side), (0, side)], dtype=np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    patch = cv2.warpPerspective(image, m, (side, side), flags=cv2.INTER_LINEAR)
    return _grey(patch).astype(np.float32)


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    denom = math.sqrt(float((a * a).sum()) * float((b * b).sum()))
    return float((a * b).sum()) / denom if denom > 1e-6 else 0.0


def _locate_markers(
    image: np.ndarray, locator: MarkerLocator, previous: Location | None, config: VisionConfig, lens: Lens
) -> Location:
    side = config.marker_patch_px
    wanted = {m.id: m for m in locator.markers}
    if previous is not None and previous.marker_quads and set(previous.marker_quads) == set(wanted):
        still = all(
            _ncc(_patch(image, quad, side), previous.marker_patches[mid]) >= config.marker_check_ncc
            for mid, quad in previous.marker_quads.items()
        )
        if still:
            return Location(
                homography=previous.homography,
                markers_seen=tuple(sorted(previous.marker_quads)),
                redetected=False,
                marker_quads=previous.marker_quads,
                marker_patches=previous.marker_patches,
                lens=previous.lens,
                followed=previous.followed,
            )
    quads = detect_markers(image, locator.dictionary, set(wanted))
    if len(quads) < min(config.min_markers, len(wanted)):
        if previous is not None:
            return Location(
                homography=previous.homography,
                redetected=True,
                confirmed=False,
                lens=previous.lens,
                followed=previous.followed,
            )
        seen = ", ".join(str(i) for i in sorted(quads)) or "none"
        raise BoardNotFoundError(
            f"found too few board markers (ids seen: {seen}; expected {sorted(wanted)} from "
            f"{locator.dictionary}): make sure all four markers are in view, flat and not covered"
        )
    src = np.concatenate([np.array(wanted[i].corners, dtype=np.float64) for i in sorted(quads)])
    dst = lens.straighten(np.concatenate([quads[i] for i in sorted(quads)]))
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise BoardNotFoundError("the markers found do not give a board position: check their placement")
    return Location(
        homography=np.asarray(h, dtype=np.float64),
        markers_seen=tuple(sorted(quads)),
        redetected=True,
        marker_quads=quads,
        marker_patches={i: _patch(image, q, side) for i, q in quads.items()},
        lens=lens,
        followed=True,
    )


def detect_markers(image: np.ndarray, dictionary: str, ids: set[int] | None = None) -> dict[int, np.ndarray]:
    """Full ArUco detection: image corners (4×2, ArUco order) of each marker found, by id.

    A marker id seen more than once is left out (ambiguous).
    """
    corners, found, _ = _detector(dictionary).detectMarkers(_grey(image))
    if found is None:
        return {}
    result: dict[int, np.ndarray] = {}
    twice: set[int] = set()
    for quad, mid in zip(corners, found.ravel(), strict=True):
        mid = int(mid)
        if ids is not None and mid not in ids:
            continue
        if mid in result:
            twice.add(mid)
        result[mid] = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    for mid in twice:
        del result[mid]
    return result


# --- checkerboard ------------------------------------------------------------------------------------


def find_checkerboard(image: np.ndarray, geometry: Geometry, lens: Lens | None = None) -> CornerLocator:
    """Find an empty square board with OpenCV's checkerboard finder; return its corners, extended from the inner
    corners found through the camera's ``lens`` (straight when None).

    Works for square layouts (``diamond:N``, ``grid:WxH``) whose squares
    alternate light and dark. Orientation: the board corner listed first in
    ``geometry.corners`` is the one the camera sees at the top (for a diamond)
    or top-left.
    """
    if geometry.layout is not Layout.SQUARE:
        raise BoardNotFoundError(f"a {geometry.spec} board is not a checkerboard: locate it by markers or corners")
    cols, rows = round(geometry.width) - 1, round(geometry.height) - 1
    if cols < 2 or rows < 2:
        raise BoardNotFoundError(
            f"a {geometry.spec} board is too small for the checkerboard finder: locate it by markers or corners"
        )
    grey = _grey(image)
    ok, found = cv2.findChessboardCornersSB(grey, (cols, rows), flags=cv2.CALIB_CB_EXHAUSTIVE)
    if not ok:
        raise BoardNotFoundError(
            f"no {cols}x{rows} inner-corner checkerboard found: the board must be empty, fully in view "
            "and evenly lit; or give its corners with --corners"
        )
    lens = Lens() if lens is None else lens
    pts = lens.straighten(np.asarray(found, dtype=np.float64)).reshape(rows, cols, 2)
    best: tuple[float, np.ndarray] | None = None
    for grid in _symmetries(pts):
        r, c = grid.shape[:2]
        if (c, r) != (cols, rows):
            continue
        board = np.array([(j + 1.0, i + 1.0) for i in range(rows) for j in range(cols)])
        h, _ = cv2.findHomography(board, grid.reshape(-1, 2), 0)
        if h is None:
            continue
        quad = cv2.perspectiveTransform(np.array(geometry.corners).reshape(-1, 1, 2), h).reshape(4, 2)
        if _signed_area(quad) <= 0:  # image y points down: clockwise on screen is a positive area
            continue
        score = _corner_angle_error(geometry, quad)
        if best is None or score < best[0]:
            best = (score, quad)
    if best is None:
        raise BoardNotFoundError("the checkerboard was found but its orientation is unclear: give --corners")
    q = lens.bend(best[1])
    return CornerLocator(corners=tuple((float(x), float(y)) for x, y in q))  # type: ignore[arg-type]


def _symmetries(grid: np.ndarray) -> list[np.ndarray]:
    out = []
    g = grid
    for _ in range(4):
        out.append(g)
        out.append(g[:, ::-1])
        g = np.rot90(g)
    return out


def _corner_angle_error(geometry: Geometry, quad: np.ndarray) -> float:
    """How far the first projected corner is from where a viewer expects it (top, or top-left)."""
    centre = quad.mean(axis=0)
    dx, dy = quad[0] - centre
    expected = -90.0 if geometry.kind == "diamond" else -135.0
    diff = (math.degrees(math.atan2(dy, dx)) - expected + 180.0) % 360.0 - 180.0
    return abs(diff)
