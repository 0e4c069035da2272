"""``cascade calibrate`` on the command line: the guided flow is reached, bad option sets get one clear line."""

from __future__ import annotations

import argparse

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


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--geometry", "diamond:8", "--empty", "e.png", "-o", "p.json"], "--markers, --checkerboard or --corners"),
        (["--geometry", "diamond:8", "--markers", "-o", "p.json"], "--empty IMG"),
    ],
)
def test_photo_calibration_still_needs_a_locator_and_an_empty_photo(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_missing_profile_is_one_line_saying_what_to_give(capsys, tmp_path) -> None:
    from companion.cli import main

    assert main(["read", "--profile", str(tmp_path / "none.json"), str(tmp_path / "x.jpg")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "cannot read the profile" in err and "cascade calibrate" in err
