"""``serial:URL``, ``emu:`` and ``sim:``: an LED controller behind the firmware bridge.

The controller holds a palette and blinks by itself, so the host sends one
frame per change: for every LED a palette index (the palette entry nearest to
the colour's display colour in :data:`hardware.blink.RGB`) and a blink mode
(steady, slow, fast). The cell-to-LED map stays on the host.

Options: ``brightness`` (0..1, sent when given), and the options of
:func:`firmware_bridge.open_device` (``baudrate``, ``leds`` for the
emulators: by default as many as the LED map uses, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hardware.blink import RGB
from hardware.errors import LedMapError, LedSpecError
from hardware.frame import CellFrame, Colour, Pattern
from hardware.ledmap import LedMap
from hardware.matrix import LedMatrix
from referee.geometry import Geometry

if TYPE_CHECKING:
    from firmware_bridge import LedFrame, Link


def nearest(palette: tuple[tuple[int, int, int], ...], rgb: tuple[int, int, int]) -> int:
    """The index of the palette entry nearest to ``rgb``, never 0 (off)."""
    return min(
        range(1, len(palette)),
        key=lambda i: sum((a - b) ** 2 for a, b in zip(palette[i], rgb, strict=True)),
    )


_NUMBERS: dict[str, type] = {
    "leds": int,
    "seed": int,
    "baudrate": int,
    "corrupt_rate": float,
    "handshake_timeout_s": float,
    "resend_s": float,
    "heartbeat_s": float,
}


def _number(spec: str, name: str, value: Any) -> Any:
    """Spec options arrive as text; turn the numeric ones into numbers."""
    kind = _NUMBERS.get(name)
    if kind is None or not isinstance(value, str):
        return value
    try:
        return kind(value)
    except ValueError:
        raise LedSpecError(f"{spec}: {name} must be a number, not {value!r}") from None


class BridgeMatrix(LedMatrix):
    """LEDs on a controller reached through :func:`firmware_bridge.open_device`."""

    def __init__(self, geometry: Geometry, led_map: LedMap | None = None, *, spec: str, **options: Any) -> None:
        from firmware_bridge import Blink, open_device

        super().__init__(geometry, led_map)
        self.name = spec
        brightness = options.pop("brightness", None)
        if spec.startswith(("emu:", "sim:")):
            options.setdefault("leds", self.layout.led_count)
        options = {name: _number(spec, name, value) for name, value in options.items()}
        self.link: Link = open_device(spec, **options)
        info = self.link.info
        if info.led_count < self.layout.led_count:
            self.link.close()
            raise LedMapError(
                f"{spec}: the controller has {info.led_count} LEDs, but the LED map uses {self.layout.led_count}; "
                "fix the map or the controller's LED count"
            )
        if len(info.palette) < 2:
            self.link.close()
            raise LedSpecError(f"{spec}: the controller's palette has no colour besides off")
        self.palette_index = {colour: nearest(info.palette, RGB[colour]) for colour in Colour}
        self.blink_mode = {Pattern.STEADY: Blink.STEADY, Pattern.BLINK: Blink.SLOW, Pattern.FAST: Blink.FAST}
        if brightness is not None:
            try:
                level = float(brightness)
            except ValueError:
                level = -1.0
            if not 0.0 <= level <= 1.0:
                self.link.close()
                raise LedSpecError(f"{spec}: brightness must be a number from 0 to 1, not {brightness!r}")
            self.link.set_brightness(round(level * 255))
        self._show(CellFrame())

    def led_frame(self, frame: CellFrame) -> LedFrame:
        """The controller frame (palette index and blink mode per LED) for ``frame``."""
        from firmware_bridge import Blink, LedFrame

        count = self.link.info.led_count
        colours = [0] * count
        blinks = [Blink.STEADY] * count
        for cell, light in frame.items():
            for led in self.layout.leds(cell):
                colours[led] = self.palette_index[light.colour]
                blinks[led] = self.blink_mode[light.pattern]
        return LedFrame.from_lists(colours, blinks)

    def _show(self, frame: CellFrame) -> None:
        self.link.show(self.led_frame(frame))

    def _close(self) -> None:
        self.link.close()
