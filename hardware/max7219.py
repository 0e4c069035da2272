"""``gpio:max7219``: 8×8 single-colour LED matrices on MAX7219 drivers over SPI.

Wiring: the first chip's DIN on MOSI, CLK on SCLK, LOAD (CS) on a chip
select; further chips daisy-chained DOUT to DIN. LED index ``i`` of the LED
map is chip ``i // 64`` (chip 0 nearest the Pi), digit row ``(i % 64) // 8``,
column ``i % 8`` with column 0 on segment DP (D7) and column 7 on segment G
(D0); rotate or mirror the LED map to match how the modules sit.

A single colour cannot show colours, so each colour is its own blink code
(:mod:`hardware.blink`; ``legend(single_colour=True)`` for the page). The host
steps the codes, rewriting only the digit rows that change.

Options (spec ``gpio:max7219?chips=2&select=8`` or keywords): ``chips``
(default: enough for the map), ``clock`` (11), ``data`` (10), ``select`` (8),
``brightness`` (0..1, default 0.5), ``factory`` or ``pin_factory``,
``animate`` (default true).
"""

from __future__ import annotations

from typing import Any

from hardware import chips as chip_regs
from hardware.blink import mono_lit, mono_sequence
from hardware.errors import LedMapError
from hardware.frame import CellFrame
from hardware.gpio import Options, open_spi, pin_factory_from
from hardware.ledmap import LedMap
from hardware.matrix import AnimatedMatrix
from referee.geometry import Geometry

LEDS_PER_CHIP = 64


class Max7219Matrix(AnimatedMatrix):
    """MAX7219 chain driver; see the module docstring for wiring and options."""

    name = "gpio:max7219"
    fixed_count = True
    single_colour = True

    def __init__(self, geometry: Geometry, led_map: LedMap | None = None, **options: Any) -> None:
        opts = Options(self.name, {}, options)
        animate = opts.flag("animate", True)
        super().__init__(geometry, led_map, animate=animate)
        needed = -(-self.layout.led_count // LEDS_PER_CHIP)
        count = opts.integer("chips", needed, low=1)
        assert count is not None
        if count * LEDS_PER_CHIP < self.layout.led_count:
            raise LedMapError(
                f"{self.name}: the LED map uses {self.layout.led_count} LEDs but {count} chips drive "
                f"{count * LEDS_PER_CHIP}; add chips=... or fix the map"
            )
        self.chip_count = count
        clock, data, select = opts.pin("clock", 11), opts.pin("data", 10), opts.pin("select", 8)
        self.intensity = round(opts.fraction("brightness", 0.5) * 15)
        factory, new_mock = pin_factory_from(opts)
        opts.done()
        self.pin_factory = factory
        self.chips: chip_regs.Max7219Chain | None = None
        self._detach = None
        if new_mock:
            self.chips = chip_regs.Max7219Chain(count)
            self._detach = chip_regs.attach_spi_chain(
                factory, self.chips, clock_pin=clock, mosi_pin=data, select_pin=select
            )
        self._spi = open_spi(factory, self.name, clock, data, select)
        self._rows: list[list[int]] | None = None
        for register, value in (
            (chip_regs.DISPLAY_TEST, 0),
            (chip_regs.DECODE_MODE, 0),
            (chip_regs.SCAN_LIMIT, 7),
            (chip_regs.INTENSITY, self.intensity),
        ):
            self._write_all(register, value)
        self._push(CellFrame(), 0)
        self._write_all(chip_regs.SHUTDOWN, 1)
        self._start()

    @property
    def led_count(self) -> int:
        """Every LED of the chips, 64 a chip: mapping the LEDs probes them all, whichever the map uses."""
        return self.chip_count * LEDS_PER_CHIP

    def _write(self, words: list[int]) -> None:
        """One transfer: ``words[c]`` reaches chip ``c``; the farthest chip's word goes first."""
        data: list[int] = []
        for word in reversed(words):
            data += [word >> 8 & 0xFF, word & 0xFF]
        self._spi.transfer(data)

    def _write_all(self, register: int, value: int) -> None:
        self._write([register << 8 | value] * self.chip_count)

    def moving(self, frame: CellFrame) -> bool:
        """Every colour but white blinks its code, steady or not."""
        return any(len(set(mono_sequence(light))) > 1 for light in frame.values())

    def rows_for(self, frame: CellFrame, tick: int) -> list[list[int]]:
        """The eight digit-row bytes of every chip for ``frame`` at ``tick``."""
        rows = [[0] * 8 for _ in range(self.chip_count)]
        for cell, light in frame.items():
            if not mono_lit(light, tick):
                continue
            for led in self.layout.leds(cell):
                chip, place = divmod(led, LEDS_PER_CHIP)
                row, column = divmod(place, 8)
                rows[chip][row] |= 0x80 >> column
        return rows

    def _push(self, frame: CellFrame, tick: int) -> None:
        rows = self.rows_for(frame, tick)
        for row in range(8):
            if self._rows is not None and all(rows[c][row] == self._rows[c][row] for c in range(self.chip_count)):
                continue
            words = [
                (chip_regs.DIGIT_0 + row) << 8 | rows[c][row]
                if self._rows is None or rows[c][row] != self._rows[c][row]
                else chip_regs.NO_OP << 8
                for c in range(self.chip_count)
            ]
            self._write(words)
        self._rows = rows

    def _close(self) -> None:
        try:
            self._write_all(chip_regs.SHUTDOWN, 0)
        finally:
            self._spi.close()
            if self._detach is not None:
                self._detach()
