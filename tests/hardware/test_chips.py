"""Chip-level checks of the GPIO LED drivers: the exact bits that reach the MAX7219s and 74HC595s.

The drivers run on gpiozero's mock pins with the simulated chips attached;
expected register contents are written out by hand from the datasheets, so a
wrong chip order, bit order or word layout fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from hardware import CellFrame, CellLight, Colour, GpioError, LedMap, LedMapError, LedSpecError, Pattern, open_leds
from hardware.chips import DECODE_MODE, INTENSITY, SCAN_LIMIT, SHUTDOWN, Hc595Chain, Max7219Chain, attach_spi_chain
from hardware.gpio import BitBangBus
from hardware.hc595 import Hc595Matrix
from hardware.max7219 import Max7219Matrix
from tests.hardware.conftest import mock_factory

WHITE = CellLight(Colour.WHITE)


def max7219(spec: str, board: str, led_map: LedMap | None = None, **options: Any) -> Max7219Matrix:
    """A MAX7219 matrix on mock pins, stepped by hand."""
    options.setdefault("animate", False)
    matrix = open_leds(spec, board, led_map, **options)
    assert isinstance(matrix, Max7219Matrix)
    return matrix


def hc595(spec: str, board: str, led_map: LedMap | None = None, **options: Any) -> Hc595Matrix:
    """A 74HC595 matrix on mock pins."""
    options.setdefault("animate", False)
    matrix = open_leds(spec, board, led_map, **options)
    assert isinstance(matrix, Hc595Matrix)
    return matrix


def test_the_max7219_chain_model_passes_bits_from_chip_to_chip() -> None:
    chain = Max7219Chain(2)
    for word in (0x0C01, 0x0A05):  # first word travels to the far chip
        for shift in range(15, -1, -1):
            chain.clock_in(word >> shift & 1)
    chain.latch()
    assert chain.chips[1].shutdown is False and chain.chips[1].intensity == 0
    assert chain.chips[0].intensity == 5 and chain.chips[0].shutdown is True


def test_the_hc595_chain_model_shifts_qa_to_qh_then_to_the_next_chip() -> None:
    chain = Hc595Chain(2)
    for bit in (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1):
        chain.clock_in(bit)
    assert chain.outputs() == (False,) * 16  # nothing before the latch
    chain.latch()
    assert [q for q, on in enumerate(chain.outputs()) if on] == [0, 15]


def test_the_bit_bang_bus_sends_msb_first_inside_one_latch_pulse() -> None:
    factory = mock_factory()
    chain = Hc595Chain(2)
    attach_spi_chain(factory, chain, clock_pin=11, mosi_pin=10, select_pin=8)
    bus = BitBangBus(factory, 11, 10, 8)
    bus.transfer([0x80, 0x01])  # 0x80 goes to the far chip's QH, 0x01 to the near chip's QA
    assert chain.latches == 1
    assert [q for q, on in enumerate(chain.outputs()) if on] == [0, 15]
    bus.close()


def test_max7219_setup_registers() -> None:
    with max7219("gpio:max7219?factory=mock&brightness=1&chips=2", "diamond:8") as matrix:
        for chip in matrix.chips.chips:
            assert not chip.shutdown and not chip.display_test
            assert (chip.decode_mode, chip.scan_limit, chip.intensity) == (0, 7, 15)
            assert chip.digits == [0] * 8
        writes = [register for register, _ in matrix.chips.chips[0].writes]
        assert writes.index(SHUTDOWN) > max(writes.index(DECODE_MODE), writes.index(SCAN_LIMIT))
        assert INTENSITY in writes
    assert all(chip.shutdown for chip in matrix.chips.chips)


def test_max7219_led_index_to_chip_digit_and_segment() -> None:
    # grid:8x8 row-major: cell a1 is LED 0, b1 LED 1, a2 LED 8; an offset of 64 moves all to the far chip
    with max7219("gpio:max7219?factory=mock", "grid:8x8", LedMap(offset=64)) as matrix:
        assert matrix.chip_count == 2
        g = matrix.geometry
        matrix.show(CellFrame.from_names(g, {"a1": WHITE, "b1": WHITE, "a2": WHITE, "h8": WHITE}))
        near, far = matrix.chips.chips
        assert near.digits == [0] * 8
        assert far.digits == [0b1100_0000, 0b1000_0000, 0, 0, 0, 0, 0, 0b0000_0001]


def test_max7219_serpentine_second_row_runs_backwards() -> None:
    with max7219("gpio:max7219?factory=mock", "grid:8x8", LedMap(wiring="serpentine")) as matrix:
        matrix.show(CellFrame.from_names(matrix.geometry, {"a2": WHITE}))
        assert matrix.chips.chips[0].digits[1] == 0b0000_0001


def test_max7219_rewrites_only_rows_that_change() -> None:
    with max7219("gpio:max7219?factory=mock", "grid:8x8") as matrix:
        chip = matrix.chips.chips[0]
        before = len(chip.writes)
        matrix.show(CellFrame.from_names(matrix.geometry, {"c3": WHITE}))
        assert chip.writes[before:] == [(3, 0b0010_0000)]


def test_max7219_codes_colours_by_blinking() -> None:
    with max7219("gpio:max7219?factory=mock", "grid:8x8") as matrix:
        matrix.show(CellFrame({0: CellLight(Colour.BLACK, Pattern.BLINK)}))
        seen = ""
        for tick in range(16):
            matrix.render(tick)
            seen += "#" if 0 in matrix.chips.lit_leds() else "."
        assert seen == "######.........."


def test_hc595_rgb_channels_chips_and_order() -> None:
    spec = "gpio:hc595?factory=mock&order=grb"
    with hc595(spec, "grid:3x3") as matrix:
        assert matrix.chip_count == 4  # 9 LEDs * 3 channels = 27 outputs
        g = matrix.geometry
        red, blue = CellLight(Colour.RED), CellLight(Colour.BLACK)
        matrix.show(CellFrame.from_names(g, {"a1": red, "c2": blue, "c3": WHITE}))
        on = [q for q, level in enumerate(matrix.chips.outputs()) if level]
        # a1 = LED 0: red is the 2nd channel in grb -> output 1; c2 = LED 5: blue -> 17; c3 = LED 8: 24..26
        assert on == [1, 17, 24, 25, 26]


def test_hc595_active_low_for_common_anode_leds() -> None:
    with hc595("gpio:hc595?factory=mock&active_low=1", "grid:2x2") as matrix:
        matrix.show(CellFrame({0: CellLight(Colour.LAST)}))
        off = [q for q, level in enumerate(matrix.chips.outputs()) if not level]
        assert off == [1]


def test_hc595_output_enable_waits_for_the_first_frame() -> None:
    factory = mock_factory()
    chain = Hc595Chain(1)
    attach_spi_chain(factory, chain, clock_pin=11, mosi_pin=10, select_pin=8)
    enable_pin = factory.pin(25)
    matrix = hc595("gpio:hc595?enable=25", "grid:2x2", pin_factory=factory)
    assert chain.latches >= 1
    assert enable_pin.state is False  # OE is active low: outputs on
    assert [state for _, state in enable_pin.states][-2:] == [True, False]
    matrix.close()
    assert chain.outputs() == (False,) * 8


def test_the_animation_thread_steps_blinking_cells() -> None:
    chain = Hc595Chain(1)
    factory = mock_factory()
    attach_spi_chain(factory, chain, clock_pin=11, mosi_pin=10, select_pin=8)
    with hc595("gpio:hc595", "grid:2x2", pin_factory=factory, animate=True) as matrix:
        matrix.show(CellFrame({0: CellLight(Colour.RED, Pattern.FAST)}))
        latches = chain.latches
        # a fast blink changes every tick: the thread must latch again by itself
        assert chain.wait_latches(latches + 2, timeout_s=10.0), "the blinking cell was never redrawn"


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("gpio:max7219?factory=mock&chips=0", LedSpecError, "chips must be at least 1"),
        ("gpio:max7219?factory=mock&chips=1&brightness=2", LedSpecError, "brightness must be from 0 to 1"),
        ("gpio:max7219?factory=mock&colour=red", LedSpecError, "unknown option 'colour'"),
        ("gpio:hc595?factory=mock&order=rgr", LedSpecError, "order must name r, g and b"),
        ("gpio:hc595?factory=mock&chips=1", LedMapError, "need"),
        ("gpio:ws2812", LedSpecError, "gpio:max7219"),
        ("gpio:max7219?factory=nope", LedSpecError, "not a pin factory"),
        ("gpio:max7219?factory=lgpio", GpioError, "lgpio"),
    ],
)
def test_bad_gpio_specs_say_what_to_do(spec: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        open_leds(spec, "diamond:8", animate=False)


def test_a_max7219_chain_too_short_for_the_map() -> None:
    with pytest.raises(LedMapError, match="add chips"):
        open_leds("gpio:max7219?factory=mock&chips=1", "grid:8x8", LedMap(offset=1), animate=False)


def test_the_max7219_animates_colour_codes_of_steady_cells() -> None:
    chain = Max7219Chain(1)
    factory = mock_factory()
    attach_spi_chain(factory, chain, clock_pin=11, mosi_pin=10, select_pin=8)
    with max7219("gpio:max7219", "grid:2x2", pin_factory=factory, animate=True) as matrix:
        matrix.show(CellFrame({0: CellLight(Colour.WHITE)}))
        assert not matrix.moving(matrix.shown())
        matrix.show(CellFrame({0: CellLight(Colour.BLACK)}))  # steady, but black's code blinks
        latches = chain.latches
        assert chain.wait_latches(latches + 1, timeout_s=10.0), "the colour code was never stepped"
