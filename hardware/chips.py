"""Simulated LED driver chips, bit by bit as the silicon sees them.

:class:`Max7219Chain` and :class:`Hc595Chain` model daisy-chained MAX7219
LED drivers and 74HC595 shift registers: bits clocked in at the first chip's
data input move through every chip's shift register to the next chip, and a
rising edge on the load/latch line makes each chip act on what its own
register holds. A wrong chip order, bit order or word layout in a driver shows
up as the wrong LEDs lit.

:func:`attach_spi_chain` connects a chain to gpiozero's mock pins (a
``MockSPIDevice`` on the clock, data and load pins), so a driver talking to a
``MockFactory`` drives the simulated chips. This is the simulator behind
``gpio:max7219?factory=mock`` and ``gpio:hc595?factory=mock`` and the chip
level check of the tests. gpiozero is imported only when attaching.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

# MAX7219 register addresses (datasheet table 2)
NO_OP = 0x0
DIGIT_0 = 0x1
DECODE_MODE = 0x9
INTENSITY = 0xA
SCAN_LIMIT = 0xB
SHUTDOWN = 0xC
DISPLAY_TEST = 0xF


class ShiftChain(Protocol):
    """A chain of chips fed one bit per clock and latched by a rising load edge."""

    def clock_in(self, bit: int) -> None:
        """Shift one bit into the first chip of the chain."""

    def latch(self) -> None:
        """The load/latch line rose: every chip acts on its shift register."""


class LatchCounter:
    """Counts latch edges and lets a reader wait for the next ones (no polling)."""

    def __init__(self) -> None:
        self.latches = 0
        self._latched = threading.Condition()

    def _count_latch(self) -> None:
        with self._latched:
            self.latches += 1
            self._latched.notify_all()

    def wait_latches(self, count: int, timeout_s: float = 5.0) -> bool:
        """Wait until the chain has latched ``count`` times in all; False on timeout."""
        with self._latched:
            return self._latched.wait_for(lambda: self.latches >= count, timeout_s)


class Max7219:
    """One MAX7219: its registers after power-up (shut down, no decode, scan limit 0)."""

    def __init__(self) -> None:
        self.digits = [0] * 8
        self.decode_mode = 0
        self.intensity = 0
        self.scan_limit = 0
        self.shutdown = True
        self.display_test = False
        self.writes: list[tuple[int, int]] = []

    def execute(self, word: int) -> None:
        """Act on one 16-bit word: D11-D8 the register address, D7-D0 the data."""
        address, data = (word >> 8) & 0xF, word & 0xFF
        if address == NO_OP:
            return
        self.writes.append((address, data))
        if DIGIT_0 <= address <= DIGIT_0 + 7:
            self.digits[address - DIGIT_0] = data
        elif address == DECODE_MODE:
            self.decode_mode = data
        elif address == INTENSITY:
            self.intensity = data & 0xF
        elif address == SCAN_LIMIT:
            self.scan_limit = data & 0x7
        elif address == SHUTDOWN:
            self.shutdown = not data & 1
        elif address == DISPLAY_TEST:
            self.display_test = bool(data & 1)

    def lit(self, row: int, column: int) -> bool:
        """Whether the LED on digit ``row`` (0-7), segment bit ``7 - column`` is on.

        Column 0 is segment DP (D7), column 7 segment G (D0), as on the common
        8×8 matrix modules. Decode mode must be off for a matrix: a chip with
        decoding on shows nothing here.
        """
        if self.display_test:
            return True
        if self.shutdown or row > self.scan_limit or self.decode_mode:
            return False
        return bool(self.digits[row] >> (7 - column) & 1)


class Max7219Chain(LatchCounter):
    """``count`` MAX7219s in a chain; chip 0 takes its data from the host."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.chips = [Max7219() for _ in range(count)]
        self._shift = [0] * count

    def clock_in(self, bit: int) -> None:
        """Shift one bit in; the bit leaving each chip's D15 enters the next chip."""
        carry = bit & 1
        for i, value in enumerate(self._shift):
            out = value >> 15 & 1
            self._shift[i] = (value << 1 | carry) & 0xFFFF
            carry = out

    def latch(self) -> None:
        """LOAD rose: every chip executes the word in its shift register."""
        for chip, word in zip(self.chips, self._shift, strict=True):
            chip.execute(word)
        self._count_latch()

    def lit_leds(self) -> frozenset[int]:
        """LED indices on now: chip * 64 + digit row * 8 + column."""
        return frozenset(
            c * 64 + row * 8 + col
            for c, chip in enumerate(self.chips)
            for row in range(8)
            for col in range(8)
            if chip.lit(row, col)
        )


class Hc595Chain(LatchCounter):
    """``count`` 74HC595s in a chain; chip 0's SER is the host's data line.

    ``outputs(q)`` is the level of output ``q`` of the chain: chip ``q // 8``,
    pin QA (``q % 8 == 0``) to QH (7).
    """

    def __init__(self, count: int) -> None:
        super().__init__()
        self._shift = [0] * count
        self._storage = [0] * count

    @property
    def count(self) -> int:
        """Number of chips."""
        return len(self._shift)

    def clock_in(self, bit: int) -> None:
        """SRCLK rose: QA takes SER, each stage the one before, QH' feeds the next chip."""
        carry = bit & 1
        for i, value in enumerate(self._shift):
            out = value >> 7 & 1
            self._shift[i] = (value << 1 | carry) & 0xFF
            carry = out

    def latch(self) -> None:
        """RCLK rose: the storage registers (the outputs) take the shift registers."""
        self._storage = list(self._shift)
        self._count_latch()

    def output(self, q: int) -> bool:
        """The level of output ``q`` of the chain."""
        return bool(self._storage[q // 8] >> (q % 8) & 1)

    def outputs(self) -> tuple[bool, ...]:
        """Every output of the chain, in order."""
        return tuple(self.output(q) for q in range(8 * self.count))


def attach_spi_chain(
    factory: Any, chain: ShiftChain, *, clock_pin: Any, mosi_pin: Any, select_pin: Any
) -> Callable[[], None]:
    """Connect ``chain`` to the mock pins of ``factory`` (a gpiozero ``MockFactory``).

    Must run before the driver opens its SPI interface on those pins. Data is
    taken on the rising clock edge (SPI mode 0) while the select line is low,
    and the chain latches when the select line rises. Returns a function that
    disconnects it.
    """
    from gpiozero.pins.mock import MockSPIDevice

    class ChainDevice(MockSPIDevice):
        def __init__(self) -> None:
            self._selected = False
            super().__init__(clock_pin, mosi_pin, None, select_pin, pin_factory=factory)

        def on_select(self) -> None:
            selected = self.select_pin.state == self.select_high
            if selected and not self._selected:
                self.on_start()
            elif self._selected and not selected:
                chain.latch()
            self._selected = selected

        def on_bit(self) -> None:
            chain.clock_in(int(self.rx_buf[-1]))
            self.rx_buf.clear()

    device = ChainDevice()
    return device.close
