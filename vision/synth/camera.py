"""The synthetic camera: a pinhole with radial distortion looking down at the board plane.

World coordinates are the board plane's (board units, x right, y down) with
z pointing into the table, so a point at height h above the board has
z = -h. ``CameraPose`` holds the intrinsics, the radial distortion and the
pose (OpenCV's rvec/tvec convention: camera = R world + t).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

Point = tuple[float, float]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class CameraPose:
    """Intrinsics, radial distortion (k1, k2) and pose of the synthetic camera."""

    size: tuple[int, int]
    focal_px: float
    centre_px: Point
    k1: float
    k2: float
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]

    @property
    def camera_matrix(self) -> np.ndarray:
        """OpenCV's 3×3 camera matrix K."""
        cx, cy = self.centre_px
        return np.array([[self.focal_px, 0.0, cx], [0.0, self.focal_px, cy], [0.0, 0.0, 1.0]])

    @property
    def dist_coeffs(self) -> np.ndarray:
        """OpenCV's distortion coefficients (k1, k2, p1, p2)."""
        return np.array([self.k1, self.k2, 0.0, 0.0])

    @property
    def rotation(self) -> np.ndarray:
        """The 3×3 rotation from world to camera."""
        rot, _ = cv2.Rodrigues(np.array(self.rvec, dtype=np.float64))
        return rot

    def plane_homography(self, height: float = 0.0) -> np.ndarray:
        """Homography from the plane ``height`` board units above the board to the undistorted image."""
        rot = self.rotation
        t = np.array(self.tvec)
        columns = np.column_stack((rot[:, 0], rot[:, 1], -height * rot[:, 2] + t))
        h = self.camera_matrix @ columns
        return h / h[2, 2]

    def project(self, points: np.ndarray, height: float = 0.0, distort: bool = True) -> np.ndarray:
        """Image positions (N×2) of board-plane points (N×2) at ``height``, with or without lens distortion."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        if not distort or (self.k1 == 0.0 and self.k2 == 0.0):
            return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.plane_homography(height)).reshape(-1, 2)
        world = np.column_stack((pts, np.full(len(pts), -height)))
        image, _ = cv2.projectPoints(
            world, np.array(self.rvec), np.array(self.tvec), self.camera_matrix, self.dist_coeffs
        )
        return image.reshape(-1, 2)

    def shifted(self, dx_px: float, dy_px: float) -> CameraPose:
        """The same camera panned so that the picture moves by about (dx, dy) pixels."""
        t = np.array(self.tvec)
        depth = t[2]
        return CameraPose(
            self.size,
            self.focal_px,
            self.centre_px,
            self.k1,
            self.k2,
            self.rvec,
            (t[0] + dx_px * depth / self.focal_px, t[1] + dy_px * depth / self.focal_px, t[2]),
        )


def look_at(target: np.ndarray, eye: np.ndarray, down: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """rvec and tvec of a camera at ``eye`` looking at ``target``, ``down`` pointing down in the picture."""
    forward = target - eye
    forward /= np.linalg.norm(forward)
    y_axis = down - np.dot(down, forward) * forward
    y_axis /= np.linalg.norm(y_axis)
    x_axis = np.cross(y_axis, forward)
    rot = np.vstack((x_axis, y_axis, forward))
    rvec, _ = cv2.Rodrigues(rot)
    return rvec.reshape(3), -rot @ eye


def sample_pose(
    rng: np.random.Generator,
    extent: Box,
    size: tuple[int, int],
    tilt_deg: tuple[float, float],
    yaw_deg: tuple[float, float],
    fill: tuple[float, float],
    fov_deg: tuple[float, float],
    distortion: tuple[float, float],
) -> CameraPose:
    """A random camera that sees the board-plane box ``extent`` (x0, y0, x1, y1) whole.

    The camera stands on the players' side (+y), tilted by ``tilt_deg``, its
    picture rotated by ``yaw_deg``; its distance is chosen so that the box
    spans ``fill`` of the picture.
    """
    width, height = size
    fov = math.radians(rng.uniform(*fov_deg))
    focal = (width / 2.0) / math.tan(fov / 2.0)
    centre = (width / 2.0 + rng.uniform(-0.01, 0.01) * width, height / 2.0 + rng.uniform(-0.01, 0.01) * height)
    k1 = float(rng.uniform(*distortion))
    k2 = float(-0.2 * k1 * rng.uniform(0.0, 1.0))
    tilt = math.radians(rng.uniform(*tilt_deg))
    yaw = math.radians(rng.uniform(*yaw_deg))
    target_fill = rng.uniform(*fill)
    x0, y0, x1, y1 = extent
    span = max(x1 - x0, y1 - y0)
    target = np.array([(x0 + x1) / 2.0, (y0 + y1) / 2.0, 0.0])
    target[:2] += rng.uniform(-0.04, 0.04, 2) * span
    toward = np.array([math.sin(yaw), math.cos(yaw), 0.0])
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    distance = focal * span / (target_fill * height)
    pose = None
    for _ in range(12):
        eye = target + distance * (math.sin(tilt) * toward + np.array([0.0, 0.0, -math.cos(tilt)]))
        rvec, tvec = look_at(target, eye, toward)
        rx, ry, rz = (float(v) for v in rvec)
        tx, ty, tz = (float(v) for v in tvec)
        pose = CameraPose(size, focal, centre, k1, k2, (rx, ry, rz), (tx, ty, tz))
        corners = pose.project(box, distort=False)
        spread = max(np.ptp(corners[:, 0]) / width, np.ptp(corners[:, 1]) / height)
        margin = min(
            corners[:, 0].min(), corners[:, 1].min(), width - corners[:, 0].max(), height - corners[:, 1].max()
        )
        if abs(spread - target_fill) < 0.01 and margin > 0.02 * height:
            break
        wanted = target_fill if margin > 0.02 * height else target_fill * 0.95
        target_fill = wanted
        distance *= spread / wanted
    assert pose is not None
    return pose


@lru_cache(maxsize=8)
def distortion_maps(pose_key: tuple[tuple[int, int], float, Point, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Remap tables that turn an undistorted picture into the distorted one (cached per lens).

    For each output (distorted) pixel they give the undistorted position,
    found by inverting the radial model with a few fixed-point steps.
    """
    (width, height), focal, (cx, cy), k1, k2 = pose_key
    step = 4
    xs = np.arange(0, width + step, step, dtype=np.float64)
    ys = np.arange(0, height + step, step, dtype=np.float64)
    gx, gy = np.meshgrid((xs - cx) / focal, (ys - cy) / focal)
    ux, uy = gx.copy(), gy.copy()
    for _ in range(8):
        r2 = ux * ux + uy * uy
        factor = 1.0 + k1 * r2 + k2 * r2 * r2
        ux, uy = gx / factor, gy / factor
    fine_x = _upsample(ux * focal + cx, step, width, height)
    fine_y = _upsample(uy * focal + cy, step, width, height)
    return cv2.convertMaps(fine_x, fine_y, cv2.CV_16SC2)


def _upsample(coarse: np.ndarray, step: int, width: int, height: int) -> np.ndarray:
    """Bilinear upsampling of a grid sampled every ``step`` pixels to every pixel."""
    xs = np.arange(width, dtype=np.float32) / step
    ys = np.arange(height, dtype=np.float32) / step
    map_x, map_y = np.meshgrid(xs, ys)
    return cv2.remap(coarse.astype(np.float32), map_x, map_y, cv2.INTER_LINEAR)


def distort(image: np.ndarray, pose: CameraPose) -> np.ndarray:
    """The undistorted rendering ``image`` as the camera's lens sees it."""
    if pose.k1 == 0.0 and pose.k2 == 0.0:
        return image
    map1, map2 = distortion_maps((pose.size, pose.focal_px, pose.centre_px, pose.k1, pose.k2))
    return cv2.remap(image, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
