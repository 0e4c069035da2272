"""``cascade link`` and ``cascade bench link`` from the command line."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_link_info_prints_the_announcement(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["link", "info", "emu:"]) == 0
    out = capsys.readouterr().out
    assert "protocol 1, firmware 1.0.0, 64 LEDs" in out
    assert "#ff0000 red" in out


def test_link_info_on_a_missing_port_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["link", "info", "/dev/no-such-led-controller"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot open the LED port" in err and "Traceback" not in err


def test_bench_link_prints_json_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "link", "--leds", "emu:", "--frames", "20", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["leds"] == 64 and figures["frames"] == 20
    assert figures["frames_per_s"] > 0 and figures["round_trip_ms_median"] > 0


def test_bench_link_refuses_zero_frames(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "link", "--frames", "0"]) == 2
    assert "--frames must be a whole number of at least 1" in capsys.readouterr().err
