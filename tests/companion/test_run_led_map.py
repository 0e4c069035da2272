"""``cascade run`` lights the LEDs through the profile's calibrated LED map."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from companion.running import profile_led_map
from referee.geometry import parse_geometry


def test_a_profile_without_a_map_keeps_the_standard_wiring() -> None:
    assert profile_led_map(SimpleNamespace(led_map=None), parse_geometry("diamond:3")) is None


def test_the_profile_map_puts_each_cell_on_its_measured_led() -> None:
    geometry = parse_geometry("diamond:3")
    measured = tuple(reversed(range(len(geometry.cells))))
    led_map = profile_led_map(SimpleNamespace(led_map=measured), geometry)
    assert led_map is not None
    layout = led_map.layout(geometry)
    assert layout.cell_leds == tuple((led,) for led in measured)


def test_a_wiring_description_in_the_profile_lights_run_as_it_lights_leds_test(tmp_path) -> None:
    import json

    import pytest

    from calibration.profile import Profile
    from companion.commands.leds import board_and_map
    from hardware import LedMap, LedMapError

    root = Path(__file__).resolve().parents[2]
    ready = json.loads((root / "calibration" / "profiles" / "diamond-8.json").read_text(encoding="utf-8"))
    ready["led_map"] = {"wiring": "serpentine", "rotation": 90}
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(ready), encoding="utf-8")
    profile = Profile.from_dict(json.loads(path.read_text(encoding="utf-8")))
    geometry = profile.board
    wanted = LedMap.from_dict(ready["led_map"]).layout(geometry).cell_leds
    by_run = profile_led_map(profile, geometry)
    _, by_leds_test = board_and_map(SimpleNamespace(profile=str(path), board=None))
    assert by_run is not None and by_leds_test is not None
    assert by_run.layout(geometry).cell_leds == by_leds_test.layout(geometry).cell_leds == wanted
    assert Profile.from_dict(profile.to_dict()) == profile
    with pytest.raises(LedMapError, match="unknown key 'wirng'"):
        profile_led_map(SimpleNamespace(led_map={"wirng": "rows"}), geometry)
