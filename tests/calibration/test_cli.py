"""``cascade calibrate`` on the command line: the guided flow is reached, bad option sets get one clear line."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import pytest

import calibration.terminal
from companion.cli import main


def test_guided_runs_the_guided_flow_without_empty_photo_or_locator(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[argparse.Namespace] = []

    def fake_guided(args: argparse.Namespace) -> int:
        seen.append(args)
        return 0

    monkeypatch.setattr(calibration.terminal, "run_guided", fake_guided)
    assert main(["calibrate", "--guided", "--geometry", "diamond:8", "--camera", "sim:", "-o", "p.json"]) == 0
    assert len(seen) == 1
    assert seen[0].camera == "sim:" and seen[0].geometry == "diamond:8" and seen[0].output == "p.json"


def _photos(tmp_path: Path, geometry: str) -> tuple[list[str], list[tuple[str, tuple[str, ...]]]]:
    """Photos of the printed board under the synthetic camera, written as a user has them: an empty board and
    known layouts (``--known`` arguments), and one game position to read with its truth."""
    from calibration.printed import printed_board_renderer
    from calibration.ready import known_layouts, stones_in_play
    from referee.geometry import parse_geometry
    from vision.layout import format_layout
    from vision.synth import TYPICAL

    board = parse_geometry(geometry)
    renderer = printed_board_renderer(board, 8, TYPICAL.with_(glare_probability=0.0))
    n = len(board.cells)
    known = []
    for shift, layout in enumerate(known_layouts(board)[:2]):
        cv2.imwrite(str(tmp_path / f"known{shift}.png"), renderer.render(layout, seed=1 + shift).image)
        (tmp_path / f"known{shift}.txt").write_text(format_layout(board, layout), encoding="utf-8")
        known += ["--known", f"{tmp_path / f'known{shift}.png'}={tmp_path / f'known{shift}.txt'}"]
    rng = np.random.default_rng(8)
    game = tuple(str(s) for s in rng.choice([".", *stones_in_play(board)], n))
    cv2.imwrite(str(tmp_path / "game.png"), renderer.render(game, seed=9).image)
    return known, [(str(tmp_path / "game.png"), game)]


def test_calibrating_from_photos_then_reading_one_gives_its_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.geometry import parse_geometry
    from vision.layout import parse_layout

    known, games = _photos(tmp_path, "diamond:8")
    profile = str(tmp_path / "board.json")
    assert main(["calibrate", "--geometry", "diamond:8", "--markers", *known, "-o", profile]) == 0
    assert "stone colours o from" in capsys.readouterr().err
    ((path, truth),) = games
    assert main(["read", "--profile", profile, path]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"# {path}\n")
    assert parse_layout(out.split("\n", 1)[1], parse_geometry("diamond:8")) == truth


@pytest.mark.parametrize(
    ("how", "message"),
    [
        (["--markers"], "give at least one photo with a known layout: --known IMG=LAYOUT"),
        (["--known", "PHOTO"], "has no corners file beside it: give the board's corners with --corners, --markers"),
    ],
)
def test_photo_calibration_needs_known_photos_and_a_way_to_find_the_board(
    how: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    known, _ = _photos(tmp_path, "diamond:3")
    argv = [known[1] if arg == "PHOTO" else arg for arg in how]
    assert main(["calibrate", "--geometry", "diamond:3", *argv, "-o", str(tmp_path / "p.json")]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_missing_profile_is_one_line_saying_what_to_give(capsys, tmp_path) -> None:
    from companion.cli import main

    assert main(["read", "--profile", str(tmp_path / "none.json"), str(tmp_path / "x.jpg")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "cannot read the profile" in err and "cascade calibrate" in err
