"""``cascade calibrate`` and ``cascade read`` as a user runs them on photos: with or without the empty board,
photos that bring their own corners, and the overlay that shows what was read."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.layout import format_layout
from vision.synth import CLEAN, Renderer, make_scene
from vision.synth.camera import sample_pose
from vision.synth.render import markers_box

SPEC = "diamond:4"
POSITIONS = ["." * 16, "ox=." * 4, "=.ox" * 4, ".o.x" * 4]


def corners_text(frame) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in frame.corners_px)


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four photos of one board, each from its own camera pose, each with its corners file and its layout."""
    folder = tmp_path_factory.mktemp("photos")
    conditions = CLEAN.with_(tilt_deg=(10.0, 30.0))
    scene = make_scene(SPEC, 3, conditions, (800, 600))
    for k, position in enumerate(POSITIONS):
        rng = np.random.default_rng([k, 0xF1])
        pose = sample_pose(
            rng, markers_box(scene_geometry := Renderer(scene).geometry), scene.size, conditions.tilt_deg,
            conditions.yaw_deg, conditions.fill, conditions.fov_deg, conditions.distortion,
        )  # fmt: skip
        frame = Renderer(replace(scene, pose=pose)).render(tuple(position), seed=k, random_hand=False)
        cv2.imwrite(str(folder / f"shot_{k}.png"), frame.image)
        (folder / f"shot_{k}.corners").write_text(corners_text(frame), encoding="utf-8")
        (folder / f"shot_{k}.txt").write_text(format_layout(scene_geometry, tuple(position)), encoding="utf-8")
    return folder


def test_photos_with_their_own_corners_calibrate_without_the_empty_board_and_read(photos, tmp_path, capsys):
    profile = tmp_path / "p.json"
    known = [f"{photos / 'shot_1.png'}={photos / 'shot_1.txt'}", f"{photos / 'shot_2.png'}={photos / 'shot_2.txt'}"]
    assert main(["calibrate", "--geometry", SPEC, *(a for k in known for a in ("--known", k)), "-o", str(profile)]) == 0
    assert "every photo read with it must bring its corners" in capsys.readouterr().err
    shots = [photos / "shot_0.png", photos / "shot_3.png"]
    overlay = tmp_path / "seen"
    assert main(["read", "--profile", str(profile), "--overlay", str(overlay), "--truth", *map(str, shots)]) == 0
    blocks = capsys.readouterr().out.split("# ")[1:]
    for shot, block in zip(shots, blocks, strict=True):
        header, _, body = block.partition("\n")
        assert header == str(shot)
        assert body.split() == shot.with_suffix(".txt").read_text(encoding="utf-8").split()
    drawn = cv2.imread(str(overlay / "shot_3.png"))
    assert drawn is not None and drawn.shape == cv2.imread(str(shots[1])).shape
    assert not np.array_equal(drawn, cv2.imread(str(shots[1]))), "the overlay draws over the photo"


def test_a_photo_without_corners_is_refused_when_the_profile_has_no_location(photos, tmp_path, capsys):
    profile = tmp_path / "p.json"
    assert main(["calibrate", "--geometry", SPEC, "--known", f"{photos / 'shot_1.png'}={photos / 'shot_1.txt'}",
                 "-o", str(profile)]) == 0  # fmt: skip
    bare = tmp_path / "bare.png"
    bare.write_bytes((photos / "shot_0.png").read_bytes())
    capsys.readouterr()
    assert main(["read", "--profile", str(profile), str(bare)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no corners file beside it (bare.corners)" in err


def test_a_bad_corners_file_is_one_line(photos, tmp_path, capsys):
    shot = tmp_path / "odd.png"
    shot.write_bytes((photos / "shot_1.png").read_bytes())
    (tmp_path / "odd.corners").write_text("1,2 3,4", encoding="utf-8")
    (tmp_path / "odd.txt").write_text((photos / "shot_1.txt").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["calibrate", "--geometry", SPEC, "--known", f"{shot}={tmp_path / 'odd.txt'}", "-o",
                 str(tmp_path / "p.json")]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "odd.corners" in err and "give four image points" in err


def test_without_corners_or_a_locator_calibration_says_how_to_find_the_board(photos, tmp_path, capsys):
    shot = tmp_path / "plain.png"
    shot.write_bytes((photos / "shot_1.png").read_bytes())
    assert main(["calibrate", "--geometry", SPEC, "--known", f"{shot}={photos / 'shot_1.txt'}", "-o",
                 str(tmp_path / "p.json")]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--corners, --markers or --checkerboard" in err
