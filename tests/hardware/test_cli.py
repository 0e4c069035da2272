"""``cascade leds test/show/legend`` and ``cascade bench leds``, through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from hardware import CellFrame, LedMap
from hardware.console import read_drawing
from referee.geometry import parse_geometry


def test_show_draws_the_board_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leds", "show", "--leds", "console:", "--cells", "h1=o g2=x! c6=="]) == 0
    out = capsys.readouterr().out
    geometry = parse_geometry("diamond:8")
    assert read_drawing(geometry, out.rstrip("\n").split("\n")) == CellFrame.parse(geometry, "h1=o g2=x! c6==")


def test_show_on_other_boards_and_drivers(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "leds",
                "show",
                "--leds",
                "gpio:hc595?factory=mock",
                "--board",
                "grid:6x6",
                "--cells",
                "a1=o",
                "--hold-s",
                "0",
            ]
        )
        == 0
    )
    assert "gpio:hc595?factory=mock shows a1=o" in capsys.readouterr().err
    spec = "emu:"
    assert main(["leds", "show", "--leds", spec, "--board", "trapezoid:8,8", "--cells", "a1=x!!", "--hold-s", "0"]) == 0


def test_test_lights_each_cell_with_the_profile_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "profile.json"
    led_map = LedMap(wiring="serpentine", offset=1)
    profile.write_text(json.dumps({"geometry": "grid:3x2", "led_map": led_map.to_dict()}))
    assert main(["leds", "test", "--leds", "console:", "--profile", str(profile), "--step-s", "0"]) == 0
    out = capsys.readouterr().out
    named = [line for line in out.splitlines() if ": LED " in line]
    assert named == ["a1: LED 1", "b1: LED 2", "c1: LED 3", "a2: LED 6", "b2: LED 5", "c2: LED 4"]
    assert "lit 6 cells of grid:3x2" in out


def test_a_profile_with_one_led_per_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps({"geometry": "grid:2x2", "led_map": [3, 2, 1, 0]}))
    assert main(["leds", "test", "--leds", "none:", "--profile", str(profile), "--step-s", "0"]) == 0
    assert "a1: LED 3" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["leds", "show", "--leds", "laser:", "--cells", "h1=o"], "is not an LED spec"),
        (["leds", "show", "--leds", "console:", "--cells", "h1=q"], "'q' is not an LED colour"),
        (["leds", "show", "--leds", "console:", "--cells", "z9=o"], "not a cell of the diamond:8 board"),
        (["leds", "test", "--leds", "none:", "--profile", "/nonexistent/profile.json"], "No such file"),
        (["leds", "test", "--leds", "gpio:max7219?factory=mock&chips=x"], "chips must be a whole number"),
    ],
)
def test_bad_input_is_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_bad_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps({"geometry": "grid:2x2", "led_map": {"rotation": 45}}))
    assert main(["leds", "test", "--leds", "none:", "--profile", str(profile)]) == 2
    assert "rotation must be 0, 90, 180 or 270" in capsys.readouterr().err


def test_legend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leds", "legend", "--single-colour"]) == 0
    assert "two flashes (##.##...): place a red stone (=)" in capsys.readouterr().out


def test_bench_leds_prints_a_figure_per_driver(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "leds", "--json", "--seconds", "0", "--board", "grid:3x3"]
    argv += ["--drivers", "none:", "console:", "emu:", "gpio:max7219?factory=mock", "gpio:hc595?factory=mock", "x:"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["board"] == "grid:3x3"
    for spec, figures in result["drivers"].items():
        if spec == "x:":
            assert "is not an LED spec" in figures["unavailable"]
        else:
            assert figures["ms_per_update"] > 0 and figures["updates"] >= 5 and figures["leds"] == 9
