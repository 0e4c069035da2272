"""``gpio:hc595``: an RGB LED per cell on a chain of 74HC595 shift registers.

Wiring: the first chip's SER on the data pin, SRCLK on the clock pin, RCLK
(latch) on the latch pin, further chips chained QH' to SER; optionally OE
(active low) on the enable pin, held off until the first frame is latched so
the LEDs never show power-up noise. LED index ``i`` of the LED map uses
outputs ``3i``, ``3i+1``, ``3i+2`` of the chain in the order given by ``order``
(``rgb`` by default); output ``q`` is chip ``q // 8`` (chip 0 nearest the Pi),
pin QA (``q % 8 == 0``) to QH. ``active_low`` is for common-anode LEDs.

The data goes out over SPI (mode 0, MSB first) with the latch as chip select:
on the Pi's SPI pins (data 10, clock 11, latch 8 or 7) the kernel's SPI is
used, elsewhere gpiozero bit-bangs the same waveform. Each channel is on or
off (colours of :data:`hardware.blink.RGB` with a channel of 128 or more
count as on); blinking is stepped on the host.

Options: ``chips`` (default: enough for the map), ``data`` (10), ``clock``
(11), ``latch`` (8), ``enable`` (none), ``order`` (``rgb``), ``active_low``
(false), ``factory`` or ``pin_factory``, ``animate`` (true).
"""

from __future__ import annotations

from typing import Any

from hardware import chips as chip_models
from hardware.blink import RGB, lit
from hardware.errors import GpioError, LedMapError, LedSpecError
from hardware.frame import CellFrame
from hardware.gpio import Options, open_spi, pin_factory_from
from hardware.ledmap import LedMap
from hardware.matrix import AnimatedMatrix
from referee.geometry import Geometry

CHANNELS = 3


class Hc595Matrix(AnimatedMatrix):
    """74HC595 chain driver; see the module docstring for wiring and options."""

    name = "gpio:hc595"
    fixed_count = True

    def __init__(self, geometry: Geometry, led_map: LedMap | None = None, **options: Any) -> None:
        opts = Options(self.name, {}, options)
        super().__init__(geometry, led_map, animate=opts.flag("animate", True))
        needed = -(-self.layout.led_count * CHANNELS // 8)
        count = opts.integer("chips", needed, low=1)
        assert count is not None
        if count * 8 < self.layout.led_count * CHANNELS:
            raise LedMapError(
                f"{self.name}: the LED map uses {self.layout.led_count} RGB LEDs, which need "
                f"{needed} chips, not {count}; add chips=... or fix the map"
            )
        self.chip_count = count
        order = str(opts.take("order", "rgb")).strip().lower()
        if sorted(order) != ["b", "g", "r"]:
            raise LedSpecError(f"{self.name}: order must name r, g and b once each, like rgb or grb, not {order!r}")
        self.channel_of = {channel: order.index(channel) for channel in "rgb"}
        self.active_low = opts.flag("active_low", False)
        data, clock, latch = opts.pin("data", 10), opts.pin("clock", 11), opts.pin("latch", 8)
        enable = opts.pin("enable", None)
        factory, new_mock = pin_factory_from(opts)
        opts.done()
        self.pin_factory = factory
        self.chips: chip_models.Hc595Chain | None = None
        self._detach = None
        if new_mock:
            self.chips = chip_models.Hc595Chain(count)
            self._detach = chip_models.attach_spi_chain(
                factory, self.chips, clock_pin=clock, mosi_pin=data, select_pin=latch
            )
        self._spi = open_spi(factory, self.name, clock, data, latch)
        self._enable: Any = None
        if enable is not None:
            from gpiozero import DigitalOutputDevice

            try:
                self._enable = DigitalOutputDevice(enable, active_high=False, initial_value=False, pin_factory=factory)
            except Exception as error:
                self._spi.close()
                raise GpioError(f"{self.name}: cannot use pin {enable} as output enable ({error})") from None
        self._sent: list[int] | None = None
        self._push(CellFrame(), 0)
        if self._enable is not None:
            self._enable.on()
        self._start()

    @property
    def led_count(self) -> int:
        """Every RGB LED the chips have outputs for (three outputs each): mapping the LEDs probes them all."""
        return self.chip_count * 8 // CHANNELS

    def outputs_for(self, frame: CellFrame, tick: int) -> list[int]:
        """The output byte of every chip (bit 0 = QA) for ``frame`` at ``tick``, before ``active_low``."""
        chips = [0] * self.chip_count
        for cell, light in frame.items():
            if not lit(light.pattern, tick):
                continue
            rgb = dict(zip("rgb", RGB[light.colour], strict=True))
            for led in self.layout.leds(cell):
                for channel, value in rgb.items():
                    if value >= 128:
                        q = led * CHANNELS + self.channel_of[channel]
                        chips[q // 8] |= 1 << (q % 8)
        return chips

    def _push(self, frame: CellFrame, tick: int) -> None:
        chips = self.outputs_for(frame, tick)
        if self.active_low:
            chips = [~value & 0xFF for value in chips]
        if chips == self._sent:
            return
        # the first byte sent travels to the farthest chip; QH is bit 7 and is sent first
        self._spi.transfer(list(reversed(chips)))
        self._sent = chips

    def _close(self) -> None:
        try:
            if self._enable is not None:
                self._enable.off()
                self._enable.close()
        finally:
            self._spi.close()
            if self._detach is not None:
                self._detach()
