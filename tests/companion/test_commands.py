"""Bad input to ``cascade run`` and ``cascade demo`` gets one clear line and exit status 2."""

from __future__ import annotations

import pytest

from companion.cli import main


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--camera", "0"], "--profile"),
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
    from companion.running import game_on

    assert game_on(board) == game
