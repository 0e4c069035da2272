"""``cascade run`` lights the LEDs through the profile's calibrated LED map."""

from __future__ import annotations

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
