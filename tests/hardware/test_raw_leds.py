"""Raw LEDs past the LED map, on every driver: exactly the LEDs asked light, and the next frame is read through
the board's map again."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware import (
    EMPTY,
    CellFrame,
    CellLight,
    Colour,
    DeviceClosedError,
    FrameError,
    LedMap,
    LedMapError,
    Pattern,
    Wiring,
    highlight,
    open_leds,
)
from hardware.blink import CYCLE_TICKS
from tests.hardware.conftest import DRIVERS, Opener, open_with_observer
from tests.hardware.observe import raw_observer


@pytest.fixture(params=DRIVERS)
def driver(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_exactly_the_raw_leds_asked_light_then_a_frame_goes_through_the_map(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver, "diamond:8", LedMap(wiring=Wiring.SERPENTINE, rotation=90))
    matrix = opened.matrix
    observe = raw_observer(driver, matrix)
    frame = highlight.guidance(pending_cells={3: "x"}, error_cells={9: None}, last=[40])
    matrix.show(frame)
    for leds in (frozenset({0}), frozenset({5, 6, 63}), frozenset(range(0, 64, 3)), frozenset()):
        matrix.show_leds(leds)
        assert matrix.shown() == EMPTY, "no game frame is on display while raw LEDs are"
        assert observe(leds) == leds
    matrix.show(frame)
    assert matrix.shown() == frame
    assert opened.observe() == frame


def test_an_led_the_matrix_does_not_drive_is_refused(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver, "grid:3x3")
    matrix = opened.matrix
    count = matrix.led_count
    for wrong in (count, -1, "3", True):
        with pytest.raises(FrameError, match=f"its {count} LEDs are numbered 0 to {count - 1}"):
            matrix.show_leds({0, wrong})
    matrix.close()
    with pytest.raises(DeviceClosedError, match="open them again"):
        matrix.show_leds({0})


lights = st.builds(CellLight, st.sampled_from(list(Colour)), st.sampled_from(list(Pattern)))
maps = st.builds(
    LedMap,
    wiring=st.sampled_from(list(Wiring)),
    rotation=st.sampled_from([0, 90, 180, 270]),
    mirror=st.booleans(),
    offset=st.integers(0, 9),
    leds_per_cell=st.integers(1, 2),
)


@pytest.mark.parametrize("driver", ["none:", "gpio:max7219", "gpio:hc595"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(board=st.sampled_from(["diamond:4", "trapezoid:3,4", "grid:5x3"]), led_map=maps, data=st.data())
def test_any_raw_leds_on_any_map_light_exactly(driver: str, board: str, led_map: LedMap, data: st.DataObject) -> None:
    opened = open_with_observer(driver, board, led_map)
    try:
        matrix = opened.matrix
        cells = len(matrix.geometry)
        frame = CellFrame(data.draw(st.dictionaries(st.integers(0, cells - 1), lights, max_size=cells)))
        leds = data.draw(st.frozensets(st.integers(0, matrix.led_count - 1)))
        matrix.show(frame)
        matrix.show_leds(leds)
        assert raw_observer(driver, matrix)(leds) == leds
        matrix.show(frame)
        assert opened.observe() == frame
    finally:
        opened.matrix.close()


def test_a_controller_is_probed_over_every_led_it_drives_not_only_those_the_map_uses() -> None:
    with open_leds("emu:?leds=24", "diamond:4", brightness=1.0) as matrix:
        assert matrix.layout.led_count == 16 and matrix.led_count == 24
        matrix.show_leds({17, 23})
        assert raw_observer("emu:", matrix)(frozenset({17, 23})) == {17, 23}
    with open_leds("gpio:max7219?factory=mock", "grid:6x6", animate=False) as chips:
        assert chips.layout.led_count == 36 and chips.led_count == 64
        chips.show_leds({63})
        assert raw_observer("gpio:max7219", chips)(frozenset({63})) == {63}
    with open_leds("gpio:hc595?factory=mock", "grid:2x2", animate=False) as shift:
        assert shift.layout.led_count == 4 and shift.led_count == 5  # two chips: 16 outputs, five RGB LEDs
        shift.show_leds({4})
        assert raw_observer("gpio:hc595", shift)(frozenset({4})) == {4}


class Ticks:
    """Stands in for the blink thread's stop event: lets ``count`` ticks pass at once, then ends the loop."""

    def __init__(self, count: int) -> None:
        self.left = count

    def wait(self, timeout_s: float) -> bool:
        self.left -= 1
        return self.left < 0

    def set(self) -> None:
        self.left = 0


@pytest.mark.parametrize("driver", ["gpio:max7219", "gpio:hc595"])
def test_the_blink_thread_leaves_raw_leds_alone(driver: str) -> None:
    opened = open_with_observer(driver, "diamond:4")
    matrix = opened.matrix
    chips = matrix.chips
    try:
        matrix.show(highlight.errors({0: "x", 5: None, 9: "o"}))
        before = chips.latches
        matrix._stop = Ticks(CYCLE_TICKS)
        matrix._run()  # the blink thread's loop, a cycle of ticks at once
        assert chips.latches > before, "a blinking frame is stepped by the loop"
        matrix.show_leds({7, 9})
        before = chips.latches
        matrix._stop = Ticks(CYCLE_TICKS)
        matrix._run()
        assert chips.latches == before
        assert raw_observer(driver, matrix)(frozenset({7, 9})) == {7, 9}
    finally:
        matrix.close()


def test_a_new_map_lights_the_frame_on_display_through_it(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver, "diamond:8", LedMap(wiring=Wiring.SERPENTINE, rotation=90))
    matrix = opened.matrix
    frame = highlight.guidance(pending_cells={3: "x"}, error_cells={9: None}, last=[40])
    matrix.show(frame)
    measured = LedMap(wiring=Wiring.ROWS, rotation=180, mirror=True)
    matrix.use_map(measured)
    assert matrix.layout == measured.layout(matrix.geometry)
    assert opened.observe() == frame, "every LED lit is the new map's LED of a cell of the frame"


@pytest.mark.parametrize("driver", ["emu:", "gpio:max7219", "gpio:hc595"])
def test_a_map_past_the_hardware_s_leds_is_refused_and_the_one_in_use_stays(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver, "grid:3x3")
    matrix = opened.matrix
    before = matrix.layout
    frame = CellFrame({4: CellLight(Colour.RED, Pattern.STEADY)})
    matrix.show(frame)
    with pytest.raises(LedMapError, match="map them again"):
        matrix.use_map(LedMap(offset=matrix.led_count))
    assert matrix.layout == before
    assert opened.observe() == frame
