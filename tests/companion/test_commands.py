"""Bad input to ``cascade run`` and ``cascade demo`` gets one clear line and exit status 2."""

from __future__ import annotations

import pytest

from companion.cli import main


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--camera", "0"], "camera 0 cannot be opened"),  # without a profile the page would calibrate it
        (["--camera", "table:?seed=x"], "whole number"),
        (["--camera", "table:?sed=3"], "takes seed and fps"),
        (["--camera", "table:?fps=nan"], "fps must be a number, 0 or more, not 'nan'"),
        (["--camera", "table:", "--profile", "/no/such/profile.json"], "cannot read the profile"),
        (["--camera", "table:", "--game", "cascade", "--board", "diamond:99"], "diamond:99"),
    ],
)
def test_run_refuses_bad_options_in_one_line(tmp_path, capsys, args, words):
    status = main(["run", *args, "--store", str(tmp_path / "s.sqlite3"), "--port", "0"])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert len(err.splitlines()) == 1 and words in err


def test_demo_refuses_a_bad_frame_rate(capsys):
    assert main(["demo", "--fps", "0"]) == 2
    assert "--fps" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("board", "game"),
    [
        ("grid:6x6", "kaskade"),
        ("trapezoid:8,8", "cascades"),
        ("hexagon:3,3", "cascades"),
        ("hex-diamond:8", "cascade"),
        ("diamond:8", "cascade"),
        (None, "cascade"),
    ],
)
def test_run_plays_the_game_of_its_board_unless_told_otherwise(board, game):
    from referee.game import game_on

    assert game_on(board) == game


def test_run_refuses_a_profile_that_cannot_find_the_board_in_a_cameras_frames(tmp_path, capsys):
    import json
    from pathlib import Path

    ready = Path(__file__).resolve().parents[2] / "calibration" / "profiles" / "diamond-8.json"
    profile = json.loads(ready.read_text(encoding="utf-8"))
    profile["locator"] = {"kind": "per-photo"}
    path = tmp_path / "photos-only.json"
    path.write_text(json.dumps(profile), encoding="utf-8")
    store = tmp_path / "games.sqlite3"
    args = ["run", "--camera", "table:", "--leds", "none:", "--profile", str(path), "--store", str(store)]
    assert main([*args, "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "calibrate again with --markers" in err and err.count("\n") == 1
