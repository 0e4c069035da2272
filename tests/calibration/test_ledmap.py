"""The automatic LED map, watched by the synthetic camera: exact for every wiring, clear when it cannot be."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from calibration.ledmap_auto import LedMapError, led_patterns, map_leds, with_led_map
from calibration.ready import load_ready_profile
from calibration.scenarios import emulated_leds
from hardware.ledmap import LedLayout, LedMap, Wiring
from referee.geometry import Geometry, parse_geometry
from vision.lens import Lens
from vision.locate import MarkerLocator

WIRINGS = {
    "row-major": LedMap(),
    "serpentine": LedMap(wiring=Wiring.SERPENTINE),
    "rotated 90": LedMap(rotation=90),
    "rotated 180 serpentine": LedMap(rotation=180, wiring=Wiring.SERPENTINE),
    "mirrored": LedMap(mirror=True),
    "rotated 270 mirrored serpentine": LedMap(rotation=270, mirror=True, wiring=Wiring.SERPENTINE),
}


def emulated_table(geometry: Geometry, layout: LedLayout, seed: int) -> tuple[Callable, Callable, list[int]]:
    """The scene's ``light`` and ``grab`` for LEDs wired as ``layout``, and the sizes of the LED sets lit."""
    light, grab, shown = emulated_leds(geometry, layout.cell_leds, layout.led_count, seed)
    sizes: list[int] = []

    def light_leds(leds: frozenset[int]) -> None:
        light(leds)
        sizes.append(len(shown[-1]))

    return light_leds, grab, sizes


@pytest.mark.parametrize("spec", ["diamond:8", "hex-diamond:8", "trapezoid:8,8"])
def test_the_map_is_exact_for_every_wiring(spec: str) -> None:
    geometry = parse_geometry(spec)
    for seed, (name, wiring) in enumerate(WIRINGS.items(), start=1):
        layout = wiring.layout(geometry)
        light, grab, shown = emulated_table(geometry, layout, seed)
        result = map_leds(geometry, MarkerLocator.default(geometry), layout.led_count, light, grab)
        assert result.cell_leds == tuple(leds[0] for leds in layout.cell_leds), name
        assert result.frames == len(led_patterns(layout.led_count)) <= 2 * 7 + 2
        assert shown[-1] == 0, "the LEDs are left off"
        assert LedMap.from_table(result.table()).layout(geometry).cell_leds == layout.cell_leds


def test_a_matrix_wider_than_the_board_leaves_its_spare_leds_out() -> None:
    geometry = parse_geometry("grid:6x6")
    layout = LedMap(stride=8, offset=3, led_count=64).layout(geometry)
    light, grab, _ = emulated_table(geometry, layout, 9)
    result = map_leds(geometry, MarkerLocator.default(geometry), 64, light, grab)
    assert result.cell_leds == tuple(leds[0] for leds in layout.cell_leds)
    profile = with_led_map(load_ready_profile("grid:6x6"), result)
    assert profile.led_map == result.cell_leds


def test_cells_without_an_led_are_named() -> None:
    geometry = parse_geometry("diamond:8")
    full = LedMap().layout(geometry)
    table = {geometry.cells[i].name: leds for i, leds in enumerate(full.cell_leds) if geometry.cells[i].name != "h7"}
    layout = LedMap.from_table(table, led_count=64).layout(geometry)
    light, grab, _ = emulated_table(geometry, layout, 4)
    result = map_leds(geometry, MarkerLocator.default(geometry), 64, light, grab)
    assert result.cell_leds[geometry.index("h7")] is None
    with pytest.raises(LedMapError, match="no LED lights h7: check the LEDs under those cells"):
        result.led_map()


def test_two_leds_under_one_cell_are_refused_in_plain_words() -> None:
    geometry = parse_geometry("hex-diamond:8")
    layout = LedMap(leds_per_cell=2).layout(geometry)
    light, grab, _ = emulated_table(geometry, layout, 5)
    with pytest.raises(LedMapError, match="more than one LED may light each of them"):
        map_leds(geometry, MarkerLocator.default(geometry), layout.led_count, light, grab)


def test_patterns_are_few_and_give_every_led_its_own_code() -> None:
    patterns = led_patterns(92)
    assert len(patterns) == 2 + 2 * 7
    codes = {led: tuple(led in p for p in patterns[2::2]) for led in range(92)}
    assert len(set(codes.values())) == 92
    for on, off in zip(patterns[2::2], patterns[3::2], strict=True):
        assert on | off == patterns[1] and not on & off
    with pytest.raises(LedMapError, match="is the LED controller connected"):
        led_patterns(0)


def test_a_profile_without_a_board_location_cannot_map_and_says_what_to_do() -> None:
    geometry = parse_geometry("diamond:3")

    def never(_: frozenset[int]) -> None:
        raise AssertionError("no LED is lit before the board can be found")

    with pytest.raises(LedMapError, match="calibrate with --markers or --corners"):
        map_leds(geometry, None, 9, never, lambda: None)


def test_the_map_follows_the_cells_through_a_wide_lens() -> None:
    """A wide lens moves the outer cells of a board off the straight lattice, far enough on a trapezoid that a
    straight map takes one cell's light for two; seen through the profile's lens, the map is exact."""
    geometry = parse_geometry("trapezoid:8,8")
    layout = LedMap().layout(geometry)
    light, grab, _ = emulated_table(geometry, layout, 3)
    lens = Lens(-0.3, (1, 1))

    def bent() -> np.ndarray:
        return lens.show(grab())

    result = map_leds(geometry, MarkerLocator.default(geometry), layout.led_count, light, bent, lens=lens)
    assert result.cell_leds == tuple(leds[0] for leds in layout.cell_leds)
