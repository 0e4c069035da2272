"""Real camera photos: calibrate from two labelled frames, then read the other ten exactly.

Uses ``../shared/data/real/go-sequence-1280`` (a 19x19 Go board, fixed webcam);
only ``frame_00`` (empty) and ``frame_02`` with its layout are used for
calibration, through the same ``cascade calibrate`` and ``cascade read``
commands a user runs.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import pytest

from calibration.profile import load_profile
from companion.cli import main
from referee.geometry import parse_geometry
from vision.pipeline import BoardReader

CALIBRATION_FRAMES = ("frame_00", "frame_02")


def readme_corners(folder: Path) -> str:
    """The four corner intersections as written in the folder's README."""
    text = (folder / "README.md").read_text(encoding="utf-8")
    points = re.findall(r"\((\d+),\s*(\d+)\)", text)
    assert len(points) == 4, "the README should list four corner points"
    return " ".join(f"{x},{y}" for x, y in points)


@pytest.fixture(scope="module")
def go_folder(shared_data: Path) -> Path:
    return shared_data / "real" / "go-sequence-1280"


@pytest.fixture(scope="module")
def go_profile(go_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    profile = tmp_path_factory.mktemp("profile") / "go.json"
    status = main(
        [
            "calibrate",
            "--geometry", "points:19x19",
            "--corners", readme_corners(go_folder),
            "--empty", str(go_folder / "frame_00.jpg"),
            "--known", f"{go_folder / 'frame_02.jpg'}={go_folder / 'frame_02.txt'}",
            "-o", str(profile),
        ]
    )  # fmt: skip
    assert status == 0
    return profile


def test_read_prints_every_point_of_the_other_ten_frames_correctly(
    go_folder: Path, go_profile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = sorted(p for p in go_folder.glob("frame_*.jpg") if p.stem not in CALIBRATION_FRAMES)
    assert len(frames) == 10
    capsys.readouterr()
    assert main(["read", "--profile", str(go_profile), *map(str, frames)]) == 0
    blocks = capsys.readouterr().out.split("# ")[1:]
    assert len(blocks) == len(frames)
    wrong = []
    for frame, block in zip(frames, blocks, strict=True):
        header, _, body = block.partition("\n")
        assert header == str(frame)
        truth = frame.with_suffix(".txt").read_text(encoding="utf-8").split("\n")
        got = body.rstrip("\n").split("\n")
        assert len(got) == 19
        for r, (want_row, got_row) in enumerate(zip(truth, got, strict=False), start=1):
            for c, (want, seen) in enumerate(zip(want_row.split(), got_row.split(), strict=True), start=1):
                if want != seen:
                    wrong.append(f"{frame.stem} row {r} col {c}: {seen} instead of {want}")
    assert wrong == []


def test_no_real_frame_is_taken_for_a_hand_over_the_board(go_folder: Path, go_profile: Path) -> None:
    """Nothing covers the board in these photos: the real light, the table and the board's rim around the
    points (see :func:`vision.light.crossed_border`) must not read as an arm reaching in."""
    profile = load_profile(go_profile)
    reader = BoardReader(parse_geometry(profile.geometry), profile.locator, profile.colour_model)
    covered = [p.stem for p in sorted(go_folder.glob("frame_*.jpg")) if reader.read(cv2.imread(str(p))).occluded]
    assert covered == []
