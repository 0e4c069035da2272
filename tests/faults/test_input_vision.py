"""A profile or a photo that cannot be read right is refused with one line, never read into empty cells."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main

READY = Path(__file__).resolve().parents[2] / "calibration" / "profiles" / "diamond-8.json"


@pytest.mark.parametrize("bad", [float("nan"), 1e300])
def test_a_profile_with_marker_corners_that_are_no_position_is_refused(tmp_path, capsys, bad):
    profile = json.loads(READY.read_text(encoding="utf-8"))
    profile["locator"]["markers"][0]["corners"][0] = [bad, 10.0]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(profile), encoding="utf-8")  # json writes NaN as the bare word NaN
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), np.full((120, 160, 3), 128, np.uint8))
    assert main(["read", "--profile", str(path), str(photo)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "no position: calibrate again" in err[0]


def test_a_greyscale_photo_read_with_a_colour_profile_is_refused(tmp_path, capsys):
    photo = tmp_path / "grey.png"
    cv2.imwrite(str(photo), np.full((480, 640), 128, np.uint8))
    (tmp_path / "grey.corners").write_text("100,100 540,100 540,380 100,380\n", encoding="utf-8")
    assert main(["read", "--profile", str(READY), str(photo)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "greyscale photo" in err[0] and "give a colour photo" in err[0]
