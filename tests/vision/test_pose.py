"""The camera's pose from the board's homography: where a piece's top appears, checked against the renderer's
own camera."""

from __future__ import annotations

import numpy as np
import pytest

from referee.geometry import parse_geometry
from vision.pose import CameraPose
from vision.synth import TYPICAL, make_scene


def test_a_flat_piece_appears_on_its_own_point():
    homography = np.array([[30.0, 2.0, 100.0], [1.0, 28.0, 80.0], [0.0005, 0.001, 1.0]])
    pose = CameraPose.from_homography(homography, (1280, 720))
    points = np.array([[0.0, 0.0], [3.5, 2.0], [8.0, 8.0]])
    assert np.allclose(pose.tops(points, 0.0), points)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_tops_lie_where_the_renderers_camera_shows_them(seed):
    """A synthetic scene knows its camera: the top of a piece 0.3 units tall, projected by it and carried back
    to the board plane, is where the pose found from the board's homography alone puts it."""
    geometry = parse_geometry("diamond:8")
    scene = make_scene(geometry, seed, TYPICAL.with_(distortion=(0.0, 0.0), tilt_deg=(20.0, 35.0)), (1280, 720))
    camera = scene.pose
    homography = camera.plane_homography(0.0)
    pose = CameraPose.from_homography(homography, (1280, 720))
    points = np.array(geometry.centres)
    seen = camera.project(points, height=0.3, distort=False)
    true_tops = np.linalg.solve(homography, np.column_stack([seen, np.ones(len(seen))]).T).T
    true_tops = true_tops[:, :2] / true_tops[:, 2:3]
    moved = np.linalg.norm(true_tops - points, axis=1)
    assert moved.max() > 0.05, "the scene's camera should be at a slant"
    error = np.linalg.norm(pose.tops(points, 0.3) - true_tops, axis=1)
    assert error.max() < 0.25 * moved.max() + 0.02
