"""``cascade bench real`` on small labelled sets made with the synthetic camera: the figures, and the lines a
user gets for a folder that holds no set."""

from __future__ import annotations

import json
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

SPEC = "points:9x9"


def corners_text(frame) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in frame.corners_px)


def write_set(folder: Path, own_corners: bool, with_empty: bool) -> None:
    """A set of six photos of one game: with the empty board and the set's corners (a fixed camera), or with
    each photo's own corners and a different camera for each (a phone), and no empty board."""
    folder.mkdir(parents=True)
    positions = [
        "." * 81,
        "." * 30 + "ox" + "." * 49,
        "o" * 10 + "x" * 10 + "." * 61,
        ".x.o" * 20 + ".",
        "xo" * 40 + ".",
        "." * 40 + "x" + "." * 40,
    ]
    conditions = CLEAN.with_(tilt_deg=(10.0, 30.0))
    scene = make_scene(SPEC, 5, conditions, (800, 600))
    renderer = Renderer(scene)
    corners = None
    for k, position in enumerate(positions):
        if own_corners:  # the same board, from a camera held somewhere else
            rng = np.random.default_rng([k, 0xF0])
            pose = sample_pose(
                rng, markers_box(renderer.geometry), scene.size, conditions.tilt_deg, conditions.yaw_deg,
                conditions.fill, conditions.fov_deg, conditions.distortion,
            )  # fmt: skip
            renderer = Renderer(replace(scene, pose=pose))
        frame = renderer.render(tuple(position), seed=k, random_hand=False)
        name = f"photo_{k}"
        cv2.imwrite(str(folder / f"{name}.jpg"), frame.image)
        (folder / f"{name}.txt").write_text(format_layout(renderer.geometry, tuple(position)) + "\n", encoding="utf-8")
        if own_corners:
            (folder / f"{name}.corners").write_text(corners_text(frame) + "\n", encoding="utf-8")
        corners = corners or corners_text(frame)
    description = {
        "geometry": SPEC,
        "empty": "photo_0.jpg" if with_empty else None,
        "known": ["photo_2.jpg"],
        "read": ["photo_*.jpg"],
    }
    if not own_corners:
        description["corners"] = corners
    (folder / "set.json").write_text(json.dumps(description), encoding="utf-8")


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("real")
    write_set(root / "fixed-camera", own_corners=False, with_empty=True)
    write_set(root / "phone", own_corners=True, with_empty=False)
    return root


def test_the_figures_of_every_set_in_a_folder(sets, capsys):
    assert main(["bench", "real", "--json", str(sets)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures["sets"]) == {"fixed-camera", "phone"}
    fixed, phone = figures["sets"]["fixed-camera"], figures["sets"]["phone"]
    assert (fixed["photos"], phone["photos"]) == (4, 5), "photos given to calibration are not scored"
    for run in (fixed, phone):
        assert set(run) >= {"cell_accuracy", "frame_accuracy", "flagged_covered", "ms_per_photo"}
        assert run["cell_accuracy"] == 1.0 and run["frame_accuracy"] == 1.0
    assert fixed["flagged_covered"] == 0
    assert figures["cell_accuracy_min"] == 1.0 and figures["frame_accuracy_min"] == 1.0


def test_the_figures_as_text_name_each_set(sets, capsys):
    assert main(["bench", "real", str(sets / "phone")]) == 0
    out = capsys.readouterr().out
    assert "phone" in out and "cells 100.00 %" in out and "photos fully right 5/5" in out


def test_a_folder_without_sets_is_one_clear_line(tmp_path, capsys):
    assert main(["bench", "real", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no labelled set" in err


def test_a_set_is_read_again_through_a_wider_lens(sets, capsys):
    """``--lens``: each photo bent as a wider lens shows it, its corners with it; the set reads as it did."""
    assert main(["bench", "real", "--json", "--lens", "-0.1", str(sets / "fixed-camera")]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures["sets"]) == {"fixed-camera", "fixed-camera through lens -0.1"}
    bent = figures["sets"]["fixed-camera through lens -0.1"]
    assert bent["photos"] == 4 and bent["cell_accuracy"] == 1.0


def test_a_lens_out_of_range_is_one_clear_line(sets, capsys):
    assert main(["bench", "real", "--lens", "0.9", str(sets)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lens" in err and "out of range" in err
