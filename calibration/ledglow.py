"""The light of lit LEDs under a board, as the synthetic camera sees it.

An LED under a cell (through a diffuser, or a translucent board) makes a
soft spot of coloured light around the cell's centre that spills a little
into the neighbouring cells. :func:`add_glow` adds such spots to a rendered
frame; with the board's camera pose it puts them where the cells are. The
automatic LED map is tested with it, and ``cascade calibrate`` can show with
it what the LED step will look like.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from referee.geometry import Geometry
from vision.synth.camera import CameraPose

GLOW_BGR = (255.0, 235.0, 200.0)
"""Colour of a lit LED as the camera sees it (a slightly cool white)."""


def add_glow(
    image: np.ndarray,
    geometry: Geometry,
    pose: CameraPose,
    cells: Iterable[int],
    strength: float = 0.6,
    radius: float = 0.3,
    spread: float = 0.25,
    colour: tuple[float, float, float] = GLOW_BGR,
) -> np.ndarray:
    """``image`` (BGR, uint8) with the glow of an LED under each of ``cells`` added.

    ``radius`` is the bright core and ``spread`` the soft fall-off, both in
    cell pitches; ``strength`` the peak brightness as a share of full scale.
    """
    lit = sorted(set(cells))
    if not lit:
        return image
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    angles = np.linspace(0.0, 2.0 * np.pi, 24, endpoint=False)
    ring = np.column_stack((np.cos(angles), np.sin(angles))) * radius
    pitches = []
    for index in lit:
        centre = np.array(geometry.centres[index])
        outline = pose.project(centre + ring)
        cv2.fillPoly(mask, [np.round(outline * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        near = pose.project(np.array([centre, centre + np.array([1.0, 0.0])]))
        pitches.append(float(np.linalg.norm(near[1] - near[0])))
    sigma = max(1.0, spread * float(np.median(pitches)))
    blurred = np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma), dtype=np.float32)
    glow = blurred[..., None] * (np.array(colour, np.float32) * strength)
    return np.clip(image.astype(np.float32) + glow, 0, 255).astype(np.uint8)
