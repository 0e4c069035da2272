"""A photo's own corners file, and labelled sets of real photos: read as written, refused in one clear line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.labelled import LabelledSetError, find_sets, load_set
from vision.sidecar import CornersError, corners_beside, parse_corners, sidecar_path

COORDINATES = st.floats(-5000, 5000, allow_nan=False).map(lambda v: round(v, 2))


@given(st.lists(st.tuples(COORDINATES, COORDINATES), min_size=4, max_size=4))
def test_corners_written_as_text_read_back(points):
    text = " ".join(f"{x},{y}" for x, y in points)
    assert parse_corners(text) == tuple(points)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "1,2 3,4 5,6",
        "1,2 3,4 5,6 7,8 9,10",
        "1,2 3,4 5,6 x,8",
        "1;2 3,4 5,6 7,8",
        "nan,1 2,3 4,5 6,7",
        "1e9,0 1,1 2,2 3,3",
    ],
)
def test_corners_that_are_not_four_points_are_refused_saying_what_to_write(text):
    with pytest.raises(CornersError, match=r'give four image points as "x,y x,y x,y x,y"'):
        parse_corners(text)


def test_a_photo_brings_its_corners_in_a_file_beside_it(tmp_path):
    photo = tmp_path / "shot.jpg"
    assert sidecar_path(photo) == tmp_path / "shot.corners"
    assert corners_beside(photo) is None
    (tmp_path / "shot.corners").write_text("10,20 110,20 110,120 10,120\n", encoding="utf-8")
    assert corners_beside(photo) == ((10.0, 20.0), (110.0, 20.0), (110.0, 120.0), (10.0, 120.0))
    (tmp_path / "shot.corners").write_bytes(b"\xff\xfe garbage")
    with pytest.raises(CornersError, match=r"shot\.corners: not a readable text file"):
        corners_beside(photo)
    (tmp_path / "shot.corners").write_text("1,1 " * 5000, encoding="utf-8")
    with pytest.raises(CornersError, match="too long for a corners file"):
        corners_beside(photo)


def make_set(folder: Path, description: dict, photos: list[str], corners: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in photos:
        (folder / name).write_bytes(b"not decoded here")
        (folder / name).with_suffix(".txt").write_text(". .\n. .\n", encoding="utf-8")
        if corners:
            (folder / name).with_suffix(".corners").write_text("0,0 10,0 10,10 0,10", encoding="utf-8")
    (folder / "set.json").write_text(json.dumps(description), encoding="utf-8")
    return folder


def test_a_set_reads_what_it_calibrates_from_and_what_it_scores(tmp_path):
    folder = make_set(
        tmp_path / "board",
        {
            "geometry": "points:2x2",
            "corners": "0,0 10,0 10,10 0,10",
            "empty": "e.jpg",
            "known": ["k.jpg"],
            "read": ["*.jpg"],
        },
        ["e.jpg", "k.jpg", "a.jpg", "b.jpg"],
    )
    (run,) = load_set(folder)
    assert run.name == "board"
    assert run.empty == folder / "e.jpg" and run.known == (folder / "k.jpg",)
    assert run.read == (folder / "a.jpg", folder / "b.jpg"), "photos given to calibration are never scored"
    assert run.layout_of(run.read[0]) == folder / "a.txt"
    assert find_sets(tmp_path) == (folder,)
    assert find_sets(folder) == (folder,)


def test_runs_take_the_sets_fields_unless_they_give_their_own(tmp_path):
    folder = make_set(
        tmp_path / "lights",
        {
            "geometry": "points:2x2",
            "empty": None,
            "read": ["*.jpg"],
            "runs": [{"name": "one", "known": ["a.jpg"]}, {"name": "two", "known": ["b.jpg"], "read": ["a.jpg"]}],
        },
        ["a.jpg", "b.jpg"],
        corners=True,
    )
    one, two = load_set(folder)
    assert (one.name, one.known, one.read) == ("lights/one", (folder / "a.jpg",), (folder / "b.jpg",))
    assert (two.name, two.known, two.read) == ("lights/two", (folder / "b.jpg",), (folder / "a.jpg",))
    assert one.corners is None and one.empty is None


@pytest.mark.parametrize(
    ("description", "message"),
    [
        ({"geometry": 3, "read": ["*.jpg"]}, "field 'geometry' must be a board spec"),
        ({"geometry": "points:2x2", "corners": "0,0 1,1", "read": ["*.jpg"]}, "give four image points"),
        ({"geometry": "points:2x2", "corners": "0,0 1,0 1,1 0,1", "read": []}, "field 'read' must be a non-empty list"),
        ({"geometry": "points:2x2", "corners": "0,0 1,0 1,1 0,1", "read": ["*.png"]}, "no photo matches '\\*.png'"),
        (
            {"geometry": "points:2x2", "corners": "0,0 1,0 1,1 0,1", "known": ["gone.jpg"], "read": ["*.jpg"]},
            "the photo gone.jpg is not in the set's folder",
        ),
        ({"geometry": "points:2x2", "read": ["*.jpg"]}, "a.jpg has no corners: give the set's 'corners'"),
        (
            {"geometry": "points:2x2", "corners": "0,0 1,0 1,1 0,1", "known": ["a.jpg"], "read": ["a.jpg"]},
            "every photo to read is also given to calibration",
        ),
        ({"geometry": "points:2x2", "runs": [3], "read": ["*.jpg"]}, "runs\\[0\\] must be an object"),
    ],
)
def test_a_malformed_set_is_refused_saying_which_part(tmp_path, description, message):
    folder = make_set(tmp_path / "bad", description, ["a.jpg"])
    with pytest.raises(LabelledSetError, match=message):
        load_set(folder)


def test_a_set_file_that_is_not_json_is_refused(tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "set.json").write_bytes(b"{" * 100_000)
    with pytest.raises(LabelledSetError, match="not valid JSON text"):
        load_set(folder)
    with pytest.raises(LabelledSetError, match="no such folder"):
        find_sets(tmp_path / "missing")


def test_the_shared_sets_describe_their_runs(shared_data):
    real = shared_data / "real"
    runs = [run for folder in find_sets(real) for run in load_set(folder)]
    names = {run.name for run in runs}
    for expected in ("go-sequence-1280", "go-webcam-640", "go-coloured-light/game2"):
        assert expected in names, f"the labelled set {expected} is missing from {real}"
    for run in runs:
        assert run.read and all(photo.is_file() for photo in run.read)
