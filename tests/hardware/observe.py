"""Read back, from the simulated hardware, which cells each driver lights and how.

Every reader turns the physical side (chip registers, a drawing, the
controller's frame or its LED colours) back into a CellFrame, so the contract
suite can compare it with the frame that was shown.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from hardware import CellFrame, CellLight, Colour, LedMatrix, Pattern
from hardware.blink import CYCLE_TICKS, RGB, lit, mono_decode
from hardware.console import read_drawing

Observer = Callable[[], CellFrame]


def _per_cell(matrix: LedMatrix, led_light: dict[int, CellLight]) -> CellFrame:
    """Cells whose LEDs all show the same light; a cell with LEDs that disagree fails."""
    lights = {}
    for cell, leds in enumerate(matrix.layout.cell_leds):
        seen = {led_light.get(led) for led in leds}
        assert len(seen) == 1, f"the LEDs of cell {cell} disagree: {seen}"
        light = seen.pop()
        if light is not None:
            lights[cell] = light
    unmapped = set(led_light) - set(matrix.layout.led_cells)
    assert not unmapped, f"LEDs outside the map are lit: {sorted(unmapped)}"
    return CellFrame(lights)


def nearest_colour(rgb: tuple[int, int, int]) -> Colour:
    """The colour whose display colour is nearest to ``rgb``."""
    return min(Colour, key=lambda c: sum((a - b) ** 2 for a, b in zip(RGB[c], rgb, strict=True)))


def pattern_of(sequence: list[bool]) -> Pattern:
    """The pattern whose on/off sequence over one cycle is ``sequence``."""
    for pattern in Pattern:
        if [lit(pattern, t) for t in range(CYCLE_TICKS)] == sequence:
            return pattern
    raise AssertionError(f"no pattern blinks as {sequence}")


def max7219_observer(matrix) -> Observer:
    """Step a MAX7219 matrix through a cycle and decode each LED's blink code from the chips."""

    def observe() -> CellFrame:
        sequences: dict[int, str] = {}
        for tick in range(CYCLE_TICKS):
            matrix.render(tick)
            on = matrix.chips.lit_leds()
            for led in range(matrix.chip_count * 64):
                sequences[led] = sequences.get(led, "") + ("#" if led in on else ".")
        lights = {}
        for led, sequence in sequences.items():
            if "#" in sequence:
                light = mono_decode(sequence)
                assert light is not None, f"LED {led} blinks {sequence}, which is no colour's code"
                lights[led] = light
        return _per_cell(matrix, lights)

    return observe


def hc595_observer(matrix) -> Observer:
    """Step a 74HC595 matrix through a cycle and decode each RGB LED from the chain's outputs."""

    def observe() -> CellFrame:
        channels = {"r": 0, "g": 1, "b": 2}
        samples: dict[int, list[tuple[int, int, int]]] = {}
        for tick in range(CYCLE_TICKS):
            matrix.render(tick)
            outputs = matrix.chips.outputs()
            if matrix.active_low:
                outputs = tuple(not o for o in outputs)
            for led in range(matrix.chip_count * 8 // 3):
                rgb = tuple(255 * outputs[3 * led + matrix.channel_of[c]] for c in channels)
                samples.setdefault(led, []).append(rgb)
        lights = {}
        for led, seq in samples.items():
            on = [rgb != (0, 0, 0) for rgb in seq]
            if any(on):
                colours = {rgb for rgb in seq if rgb != (0, 0, 0)}
                assert len(colours) == 1, f"LED {led} changes colour: {colours}"
                lights[led] = CellLight(nearest_colour(colours.pop()), pattern_of(on))
        return _per_cell(matrix, lights)

    return observe


def console_observer(matrix, stream: io.StringIO) -> Observer:
    """Read the last drawing written by a console matrix."""

    def observe() -> CellFrame:
        if not stream.getvalue():
            return CellFrame()  # nothing drawn yet: a console draws from the first frame on
        drawings = stream.getvalue().rstrip("\n").split("\n\n")
        return read_drawing(matrix.geometry, drawings[-1].split("\n"))

    return observe


def emu_observer(matrix) -> Observer:
    """Decode the frame in effect on the emulated controller (palette index and blink mode per LED)."""
    from firmware_bridge import Blink

    patterns = {Blink.STEADY: Pattern.STEADY, Blink.SLOW: Pattern.BLINK, Blink.FAST: Pattern.FAST}

    def observe() -> CellFrame:
        device = matrix.link.device
        frame = device.model.shown_frame()
        palette = matrix.link.info.palette
        lights = {}
        for led, (index, blink) in enumerate(zip(frame.colours, frame.blinks, strict=True)):
            if index:
                lights[led] = CellLight(nearest_colour(palette[index]), patterns[blink])
        return _per_cell(matrix, lights)

    return observe


def sim_observer(matrix) -> Observer:
    """Wait until the firmware's LEDs (decoded from its WS2812 waveform) agree with what was shown.

    Steady cells must show their colour, blinking cells their colour or dark,
    other LEDs dark; the colours are decoded at full brightness.
    """

    def agrees(colours: tuple[tuple[int, int, int], ...]) -> bool:
        expected = matrix.shown()
        led_cells = matrix.layout.led_cells
        for led, rgb in enumerate(colours):
            cell = led_cells.get(led)
            light = expected.get(cell) if cell is not None else None
            if rgb == (0, 0, 0):
                if light is not None and light.pattern is Pattern.STEADY:
                    return False
            elif light is None or nearest_colour(rgb) != light.colour:
                return False
        return True

    def observe() -> CellFrame:
        matrix.link.device.wait_for(agrees, timeout_s=10.0, what="the frame shown")
        return matrix.shown()

    return observe


RawObserver = Callable[[frozenset[int]], frozenset[int]]


def raw_observer(driver: str, matrix) -> RawObserver:
    """Read back the raw LEDs a driver has on (each must be white and steady), from its hardware side.

    The reader is given the LEDs expected, so that ``sim:`` can wait for the
    firmware's waveform to show them; it returns what is on (for ``console:``,
    the LEDs under the cells drawn lit).
    """
    from firmware_bridge import Blink, DeviceTimeoutError

    def white(rgb: tuple[int, int, int]) -> bool:
        return nearest_colour(rgb) is Colour.WHITE

    def none(expected: frozenset[int]) -> frozenset[int]:
        return matrix.lit_leds

    def console(expected: frozenset[int]) -> frozenset[int]:
        frame = console_observer(matrix, matrix.stream)()
        assert all(light == CellLight(Colour.WHITE) for light in frame.values()), frame
        return frozenset(led for cell in frame for led in matrix.layout.leds(cell))

    def emu(expected: frozenset[int]) -> frozenset[int]:
        frame = matrix.link.device.model.shown_frame()
        palette = matrix.link.info.palette
        on = {led for led, index in enumerate(frame.colours) if index}
        assert all(white(palette[frame.colours[led]]) and frame.blinks[led] is Blink.STEADY for led in on)
        return frozenset(on)

    def sim(expected: frozenset[int]) -> frozenset[int]:
        def on(colours: tuple[tuple[int, int, int], ...]) -> frozenset[int]:
            return frozenset(led for led, rgb in enumerate(colours) if rgb != (0, 0, 0))

        device = matrix.link.device
        try:
            colours = device.wait_for(lambda c: on(c) == expected, timeout_s=10.0, what="the raw LEDs")
        except DeviceTimeoutError:  # show what is on instead, for the assertion to name
            colours = device.colours()
        assert all(white(colours[led]) for led in on(colours))
        return on(colours)

    def max7219(expected: frozenset[int]) -> frozenset[int]:
        return frozenset(matrix.chips.lit_leds())

    def hc595(expected: frozenset[int]) -> frozenset[int]:
        outputs = matrix.chips.outputs()
        if matrix.active_low:
            outputs = tuple(not o for o in outputs)
        on = set()
        for led in range(matrix.led_count):
            channels = [outputs[3 * led + matrix.channel_of[c]] for c in "rgb"]
            if any(channels):
                assert all(channels), f"LED {led} is not white: {channels}"
                on.add(led)
        return frozenset(on)

    readers: dict[str, RawObserver] = {
        "none:": none,
        "console:": console,
        "emu:": emu,
        "sim:": sim,
        "gpio:max7219": max7219,
        "gpio:hc595": hc595,
    }
    return readers[driver]
