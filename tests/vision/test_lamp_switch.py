"""A lamp switched on during a game: the reader, warm from the last clear frame, never stalls on it.

Real photos of one Go game under white light and under seven coloured lamps (``go-coloured-light`` of
``../shared/data/real``), read in order as a camera's frames: the game's white-light photo, then one lamp's.
Before, the earlier light misread the frame, the frame came out covered, and a covered frame's light is never
kept: every frame after it was covered too, for as long as the lamp stayed on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from calibration.fit import fit_profile, load_photo
from calibration.profile import Profile
from referee.geometry import Geometry, parse_geometry
from vision.images import read_image
from vision.locate import corner_homography
from vision.pipeline import BoardReader, FrameReading
from vision.sidecar import corners_beside

SET = "go-coloured-light"
LAMPS = ("blue", "cyan", "green", "orange", "pink", "violet", "yellow")


@pytest.fixture(scope="module")
def photos(shared_data: Path) -> Path:
    folder = shared_data / "real" / SET
    missing = [
        name
        for name in ("g3_white_1", "g3_white_2", "g1_white_1", *(f"g1_{lamp}_1" for lamp in LAMPS))
        for suffix in (".jpg", ".txt", ".corners")
        if not (folder / f"{name}{suffix}").is_file()
    ]
    assert not missing, f"photos missing from {folder}: {', '.join(missing[:6])}"
    return folder


@pytest.fixture(scope="module")
def board(photos: Path) -> tuple[Geometry, Profile]:
    geometry = parse_geometry("points:19x19")
    known = [load_photo(photos / f"{n}.jpg", geometry, photos / f"{n}.txt") for n in ("g3_white_1", "g3_white_2")]
    return geometry, fit_profile(geometry, None, None, known)


def _frame(reader: BoardReader, geometry: Geometry, path: Path) -> FrameReading:
    corners = corners_beside(path)
    assert corners is not None
    return reader.read_located(read_image(path), corner_homography(geometry, corners))


@pytest.mark.parametrize("lamp", LAMPS)
def test_a_lamp_switched_on_is_read_as_a_fresh_look_reads_it(photos, board, lamp):
    """Whatever the earlier light, frames a fresh reader sees clear are reported clear from the second under the
    lamp on, and by the third the reading is the fresh reader's. The first may be reported covered: one frame
    cannot tell a lamp switched on from a hand a fresh light bends towards; a lamp stays, a hand moves."""
    geometry, profile = board
    lit = photos / f"g1_{lamp}_1.jpg"
    fresh = _frame(BoardReader(geometry, profile.locator, profile.colour_model), geometry, lit)
    if fresh.occluded:
        pytest.skip(f"a fresh look at g1_{lamp}_1 reports it covered: the rim's own case, not this one")
    reader = BoardReader(geometry, profile.locator, profile.colour_model)
    assert not _frame(reader, geometry, photos / "g1_white_1.jpg").occluded
    frames = [_frame(reader, geometry, lit) for _ in range(3)]
    assert not any(frame.occluded for frame in frames[1:]), f"{lamp}: still covered a frame after the lamp came on"
    assert frames[-1].symbols == fresh.symbols
