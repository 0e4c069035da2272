"""A printed sheet as a camera sees it: the synthetic camera photographing a sheet of :mod:`calibration.sheets`.

The sheet lies flat on a table; a camera drawn from a seed (tilt, yaw, lens
distortion, uneven tinted light, sensor noise, JPEG) photographs it. The
result keeps its ground truth: where each board-plane point lands in the
picture. Product code: it shows what a printed sheet gives before printing
it, and the tests use it to check that sheets are found at an angle.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.sheets import Sheet
from vision.synth.camera import CameraPose, distort, sample_pose
from vision.synth.conditions import TYPICAL, SynthConditions
from vision.synth.effects import apply_light, sensor
from vision.synth.render import sample_light

TABLE_BGR = (70.0, 95.0, 125.0)


@dataclass(frozen=True, eq=False)
class SheetPhoto:
    """A photo of a sheet: the picture and the camera, whose ``project`` gives true board positions."""

    image: np.ndarray
    pose: CameraPose
    sheet: Sheet

    def project(self, points: np.ndarray) -> np.ndarray:
        """True image positions (N×2, lens distortion included) of board-plane points (N×2)."""
        return self.pose.project(np.asarray(points, dtype=np.float64))


def photograph_sheet(
    sheet: Sheet,
    seed: int,
    conditions: SynthConditions = TYPICAL,
    size: tuple[int, int] = (1280, 720),
) -> SheetPhoto:
    """Photograph ``sheet`` lying on a table with a camera and light drawn from ``seed`` within ``conditions``."""
    rng = np.random.default_rng([seed, 0x5EE7])
    plan = sheet.plan
    width_mm, height_mm = plan.paper_mm
    to_board = np.linalg.inv(plan.board_to_mm())
    page = np.array([[0.0, 0.0, 1.0], [width_mm, height_mm, 1.0]]) @ to_board.T
    extent = (float(page[0, 0]), float(page[0, 1]), float(page[1, 0]), float(page[1, 1]))
    pose = sample_pose(
        rng,
        extent,
        size,
        conditions.tilt_deg,
        conditions.yaw_deg,
        conditions.fill,
        conditions.fov_deg,
        conditions.distortion,
    )
    page_to_image = pose.plane_homography(0.0) @ np.linalg.inv(sheet.board_to_px())
    page_image, page_to_image = _shrunk(sheet.image, page_to_image, extent, pose)
    picture = cv2.warpPerspective(
        page_image.astype(np.float32),
        page_to_image,
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=TABLE_BGR,
    )
    light = sample_light(rng, conditions, glare=False)
    lit = apply_light(distort(picture, pose), light)
    quality = round(rng.uniform(*conditions.jpeg_quality)) if conditions.jpeg_quality[1] > 0 else 0
    image = sensor(lit, rng, float(rng.uniform(*conditions.noise_sigma)), quality)
    return SheetPhoto(image=image, pose=pose, sheet=sheet)


def _shrunk(
    page: np.ndarray, page_to_image: np.ndarray, extent: tuple[float, float, float, float], pose: CameraPose
) -> tuple[np.ndarray, np.ndarray]:
    """The page picture shrunk (by area) to about the camera's resolution, so the warp does not alias."""
    x0, y0, x1, y1 = extent
    seen = pose.project(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), distort=False)
    longest_px = max(float(np.linalg.norm(seen[i] - seen[(i + 1) % 4])) for i in range(4))
    factor = min(1.0, 1.5 * longest_px / max(page.shape[:2]))
    if factor >= 0.9:
        return page, page_to_image
    small = cv2.resize(page, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    scale = np.array([[1.0 / factor, 0.0, 0.5 / factor - 0.5], [0.0, 1.0 / factor, 0.5 / factor - 0.5], [0, 0, 1.0]])
    return small, page_to_image @ scale
