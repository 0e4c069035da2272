"""What calibration measures of the cells beside the reader's verdicts: disk averages and colours on the flat board.

The guided calibration and the LED map look at the board the way the reader
does, through :func:`vision.pipeline.make_view`: the picture warped flat,
and its features (log colour first, see :mod:`vision.board_image`) read at
board points. Two things the reader does not give are measured here:

- :func:`disk_means`: any map of the flat board (brightness, a mask of
  blown-out pixels) averaged over a disk round each cell's centre: how much
  an LED under the cell lights it, how much of it glare covers;
- :func:`lab`: the reader's log colours in CIE Lab, where a distance means
  about the same to the eye for dark and light colours, so one threshold
  says "this cell changed" on black and on white squares alike.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.board_image import BoardView, colour_of_log

DISK_RADIUS = 0.3
"""Radius (board units) of the disk round a cell's centre that the cell's brightness and glare are taken over:
the middle of the cell, which a stone on it covers and an LED under it lights."""


def disk_means(view: BoardView, flat_map: np.ndarray, points: np.ndarray, radius: float = DISK_RADIUS) -> np.ndarray:
    """The mean of ``flat_map`` (H×W or H×W×C, on ``view``'s flat board) over a disk of ``radius`` board units round
    each of ``points`` (N×2, board units): N or N×C values."""
    r = max(1, int(math.ceil(radius * view.px)))
    du, dv = np.meshgrid(np.arange(-r, r + 1), np.arange(-r, r + 1))
    kernel = ((du**2 + dv**2) <= (radius * view.px) ** 2).astype(np.float32)
    kernel /= kernel.sum()
    averaged = cv2.filter2D(np.asarray(flat_map, dtype=np.float32), -1, kernel, borderType=cv2.BORDER_REPLICATE)
    out = view.sample(averaged, np.asarray(points, dtype=np.float64))
    return out[:, 0] if np.asarray(flat_map).ndim == 2 else out


def lab(log_colour: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100) of the reader's log colours (N×3, the first three features of a cell)."""
    bgr = colour_of_log(np.asarray(log_colour)[:, :3]).astype(np.float32).reshape(-1, 1, 3)
    return np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)).reshape(-1, 3).astype(np.float64)
