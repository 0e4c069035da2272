"""A lamp switched on during a game: the reader, warm from the last clear frame, never stalls on it, and
never reads it wrong unflagged.

Real photos of one Go game under white light and under seven coloured lamps (``go-coloured-light`` of
``../shared/data/real``), read in order as a camera's frames: the game's white-light photo, then one lamp's.
Before, the earlier light misread the frame, the frame came out covered, and a covered frame's light is never
kept: every frame after it was covered too, for as long as the lamp stayed on. And a dimming lamp over a
nearly full board was followed by the warm light into reading every bare point as a white stone, unflagged.
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


def _calibrated(photos: Path, game: str) -> tuple[Geometry, Profile]:
    geometry = parse_geometry("points:19x19")
    known = [load_photo(photos / f"{game}_white_{k}.jpg", geometry, photos / f"{game}_white_{k}.txt") for k in (1, 2)]
    return geometry, fit_profile(geometry, None, None, known)


@pytest.fixture(scope="module")
def board(photos: Path) -> tuple[Geometry, Profile]:
    return _calibrated(photos, "g3")


@pytest.fixture(scope="module")
def boards(shared_data: Path) -> dict[str, tuple[Path, Geometry, Profile]]:
    """Each game read by the other's calibration, as ``cascade bench real`` runs them: game 1 by game 3's, game
    3 by game 1's."""
    folder = shared_data / "real" / SET
    needed = [f"{game}_{lamp}_{shot}" for game in ("g1", "g3") for lamp in ("white", *LAMPS) for shot in (1, 2)]
    missing = [
        f"{n}{suffix}"
        for n in needed
        for suffix in (".jpg", ".txt", ".corners")
        if not (folder / f"{n}{suffix}").is_file()
    ]
    assert not missing, f"photos missing from {folder}: {', '.join(missing[:6])}"
    return {read: (folder, *_calibrated(folder, by)) for read, by in (("g1", "g3"), ("g3", "g1"))}


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


@pytest.mark.parametrize("shot", (1, 2))
@pytest.mark.parametrize("lamp", LAMPS)
@pytest.mark.parametrize("game", ("g1", "g3"))
def test_a_lamp_switched_on_is_never_read_wrong_unflagged(boards, game, lamp, shot):
    """Every frame under the lamp is reported covered or read as a fresh reader reads it, however far the lamp
    moved the light: a warm light followed a dimming lamp into every bare point of a nearly full board as a
    white stone (78 cells), and a fresh reading, once believed, turned in the next frames into calibration's
    (36 cells), neither flagged."""
    folder, geometry, profile = boards[game]
    lit = folder / f"{game}_{lamp}_{shot}.jpg"
    fresh = _frame(BoardReader(geometry, profile.locator, profile.colour_model), geometry, lit)
    reader = BoardReader(geometry, profile.locator, profile.colour_model)
    assert not _frame(reader, geometry, folder / f"{game}_white_1.jpg").occluded
    for k in range(4):
        frame = _frame(reader, geometry, lit)
        wrong = sum(a != b for a, b in zip(frame.symbols, fresh.symbols, strict=True))
        assert frame.occluded or not wrong, f"{lamp} {shot}, frame {k + 1}: {wrong} cells read otherwise than afresh"
