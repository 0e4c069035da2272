"""A photo with what was read drawn over it: the lattice, and each cell's reading where it was looked at.

Drawn over the picture:

- the board's lattice as the reader placed it (cell outlines, or the lines
  of a point lattice), thin and grey;
- for every cell, a dot where its piece was looked for (a stone's top, off
  the cell's point as the camera sees it), filled in the colour read: white,
  black, red; a small green dot for an empty cell;
- a yellow ring round a cell read ``?``; a magenta ring round a cell nothing
  explains (something covers it);
- given the true layout, a red ring round every cell read wrongly, with the
  true symbol beside it;
- a line of text: what was read, and whether the board was covered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from referee.geometry import Geometry, Layout
from vision.lens import STRAIGHT, Lens, project

FILL = {"o": (245, 245, 245), "x": (20, 20, 20), "=": (40, 40, 220), ".": (60, 200, 60)}
"""The dot's colour (BGR) for each symbol read."""
UNDECIDED = (0, 220, 255)
WRONG = (0, 0, 255)
COVERED = (255, 0, 255)
LATTICE = (150, 150, 150)


def draw_overlay(
    image: np.ndarray,
    geometry: Geometry,
    homography: np.ndarray,
    symbols: Sequence[str],
    looked: Sequence[tuple[float, float]],
    unexplained: Sequence[int] = (),
    truth: Sequence[str] | None = None,
    occluded: bool = False,
    lens: Lens = STRAIGHT,
) -> np.ndarray:
    """The picture (BGR) with the reading drawn over it (see the module docstring); ``homography`` maps the board
    to the picture as a straight lens shows it, and ``lens`` is how the camera bends it."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h = np.asarray(homography, dtype=np.float64)

    def seen(points: np.ndarray) -> np.ndarray:
        return project(h, lens, points)

    scale = max(1, round(max(out.shape[:2]) / 800))
    _lattice(out, geometry, seen, scale)
    centres = seen(np.array(geometry.centres, dtype=np.float64))
    spots = seen(np.array(looked, dtype=np.float64)) if len(looked) else centres
    pitch = _pitch_px(seen, geometry)
    radius = max(2, int(pitch * 0.12))
    for i, symbol in enumerate(symbols):
        spot = tuple(int(v) for v in np.round(spots[i]))
        centre = tuple(int(v) for v in np.round(centres[i]))
        if spot != centre:
            cv2.line(out, centre, spot, LATTICE, 1, cv2.LINE_AA)
        if symbol == "?":
            cv2.circle(out, spot, radius * 2, UNDECIDED, scale + 1, cv2.LINE_AA)
        else:
            size = radius if symbol != "." else max(1, radius // 2)
            cv2.circle(out, spot, size + 1, (0, 0, 0) if symbol == "o" else (255, 255, 255), -1, cv2.LINE_AA)
            cv2.circle(out, spot, size, FILL.get(symbol, UNDECIDED), -1, cv2.LINE_AA)
        if i in set(unexplained):
            cv2.circle(out, spot, radius * 3, COVERED, scale, cv2.LINE_AA)
        if truth is not None and truth[i] != symbol:
            cv2.circle(out, spot, radius * 3 + 2, WRONG, scale + 1, cv2.LINE_AA)
            cv2.putText(
                out, truth[i], (spot[0] + radius * 3, spot[1] - radius * 2), cv2.FONT_HERSHEY_SIMPLEX,
                0.4 * scale, WRONG, scale, cv2.LINE_AA,
            )  # fmt: skip
    _caption(out, symbols, truth, occluded, scale)
    return out


Seen = Callable[[np.ndarray], np.ndarray]
"""Where the picture shows board points (N×2 in, N×2 pixels out)."""


def _pitch_px(seen: Seen, geometry: Geometry) -> float:
    """About how many picture pixels one board unit spans, in the middle of the board."""
    mid = np.array([[geometry.width / 2.0, geometry.height / 2.0]])
    a = seen(mid)[0]
    b = seen(mid + np.array([1.0, 0.0]))[0]
    return float(np.linalg.norm(b - a))


def _lattice(out: np.ndarray, geometry: Geometry, seen: Seen, scale: int) -> None:
    if geometry.layout is Layout.POINT:
        centres = np.array(geometry.centres, dtype=np.float64)
        for i, near in enumerate(geometry.neighbours_ix):
            for j in near:
                if j > i:
                    a, b = seen(centres[[i, j]])
                    cv2.line(out, _pt(a), _pt(b), LATTICE, 1, cv2.LINE_AA)
        return
    for cell in geometry.cells:
        polygon = seen(np.array(geometry.polygon(cell), dtype=np.float64))
        cv2.polylines(out, [np.round(polygon).astype(np.int32)], True, LATTICE, 1, cv2.LINE_AA)


def _pt(p: np.ndarray) -> tuple[int, int]:
    return (int(round(float(p[0]))), int(round(float(p[1]))))


def _caption(out: np.ndarray, symbols: Sequence[str], truth: Sequence[str] | None, occluded: bool, scale: int) -> None:
    stones = sum(s in "ox=" for s in symbols)
    text = f"{stones} stones, {sum(s == '?' for s in symbols)} undecided"
    if truth is not None:
        text += f", {sum(t != s for t, s in zip(truth, symbols, strict=True))} wrong"
    if occluded:
        text += ", something covers the board"
    origin = (8 * scale, 22 * scale)
    cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, (0, 0, 0), 4 * scale, cv2.LINE_AA)
    cv2.putText(out, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, (255, 255, 255), scale, cv2.LINE_AA)
