"""``serial:URL``, ``emu:`` and ``sim:``: an LED controller behind the firmware bridge.

The controller holds a palette and blinks by itself, so the host sends one
frame per change: for every LED a palette index (the palette entry nearest to
the colour's display colour in :data:`hardware.blink.RGB`) and a blink mode
(steady, slow, fast). The cell-to-LED map stays on the host.

Options: ``brightness`` (0..1, sent when given), ``silence_s`` (how long a
silent controller is trusted, default 3) and ``show_timeout_s`` (how long a
frame waits for its acknowledgement, default 2), and the options of
:func:`firmware_bridge.open_device` (``baudrate``, ``leds`` for the
emulators: by default as many as the LED map uses, ...).
"""

from __future__ import annotations

import time
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
    "silence_s": float,
    "show_timeout_s": float,
}

SILENCE_S = 3.0
"""A controller that says nothing valid for this long is gone or hung (it sends a heartbeat every second)."""
SHOW_TIMEOUT_S = 2.0
RECONNECT_HANDSHAKE_S = 2.0
RESETS_WINDOW_S = 3.0
RESETS_IN_WINDOW = 3
"""A controller that resets itself this often within the window is in a reset loop."""


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
    """LEDs on a controller reached through :func:`firmware_bridge.open_device`.

    ``check()`` fails when the controller has said nothing for ``silence_s``
    seconds, keeps resetting itself, or reports that it hears nothing from
    the host; ``reconnect()`` opens the link again (to the same port, or to
    the same emulator, restarted if it died). Frames wait at most
    ``show_timeout_s`` for the controller's acknowledgement.
    """

    fixed_count = True

    def __init__(self, geometry: Geometry, led_map: LedMap | None = None, *, spec: str, **options: Any) -> None:
        from firmware_bridge import LINK_OPTIONS, Blink, open_device

        super().__init__(geometry, led_map)
        self.name = spec
        brightness = options.pop("brightness", None)
        if spec.startswith(("emu:", "sim:")):
            options.setdefault("leds", self.layout.led_count)
        options = {name: _number(spec, name, value) for name, value in options.items()}
        self.silence_s = float(options.pop("silence_s", SILENCE_S))
        self.show_timeout_s = float(options.pop("show_timeout_s", SHOW_TIMEOUT_S))
        self._link_options = {k: options[k] for k in LINK_OPTIONS if k in options}
        self.link: Link = open_device(spec, **options)
        self.device: Any = self.link.device
        self.blink_mode = {Pattern.STEADY: Blink.STEADY, Pattern.BLINK: Blink.SLOW, Pattern.FAST: Blink.FAST}
        self._level: int | None = None
        self._resets_seen = 0
        self._reset_times: list[float] = []
        try:
            self._take(self.link)
            if brightness is not None:
                try:
                    level = float(brightness)
                except ValueError:
                    level = -1.0
                if not 0.0 <= level <= 1.0:
                    raise LedSpecError(f"{spec}: brightness must be a number from 0 to 1, not {brightness!r}")
                self._level = round(level * 255)
                self.link.set_brightness(self._level)
        except BaseException:
            self.link.close()
            raise
        self._show(CellFrame())

    def _take(self, link: Link) -> None:
        """Check what a freshly opened controller announced, and map our colours to its palette."""
        info = link.info
        if info.led_count < self.layout.led_count:
            raise LedMapError(
                f"{self.name}: the controller has {info.led_count} LEDs, but the LED map uses "
                f"{self.layout.led_count}; fix the map or the controller's LED count"
            )
        if len(info.palette) < 2:
            raise LedSpecError(f"{self.name}: the controller's palette has no colour besides off")
        self.palette_index = {colour: nearest(info.palette, RGB[colour]) for colour in Colour}

    @property
    def led_count(self) -> int:
        """The LEDs the controller drives, as it announced them: at least as many as the LED map uses, perhaps more.

        A controller set up for a longer strip, or for an 8×8 module under a
        smaller board, drives LEDs the map leaves dark; every frame sets them
        all. Mapping the LEDs probes them all too (:meth:`show_leds`), since
        until the map is found the LEDs under the cells may be any of them.
        """
        return self.link.info.led_count

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

    def check(self) -> None:
        """Raise :class:`~firmware_bridge.LinkError` if the controller is silent, resetting, or deaf to us."""
        from firmware_bridge import DeviceTimeoutError, LinkError

        link = self.link
        silent = link.silent_s()
        if silent >= self.silence_s:
            raise DeviceTimeoutError(
                f"the LED controller on {link.url} has said nothing for {silent:.0f} s; check its cable and power"
            )
        now = time.monotonic()
        resets = link.stats.resets
        self._reset_times = [t for t in self._reset_times if now - t < RESETS_WINDOW_S]
        self._reset_times += [now] * (resets - self._resets_seen)
        self._resets_seen = resets
        if len(self._reset_times) >= RESETS_IN_WINDOW:
            raise LinkError(
                f"the LED controller on {link.url} keeps restarting; check its power supply (the LEDs may draw "
                "more than it gives)"
            )
        if link.device_disconnected:
            raise LinkError(f"the LED controller on {link.url} hears nothing from this computer; check the cable")

    def reconnect(self) -> None:
        """Open the link again: the same port, or the same emulator (restarted if it died)."""
        from firmware_bridge.link import Link

        old = self.link
        old.close(stop_device=False)
        device = self.device
        if device is not None and not device.alive:
            device.restart()
        options = {**self._link_options}
        options["handshake_timeout_s"] = min(float(options.get("handshake_timeout_s", 5.0)), RECONNECT_HANDSHAKE_S)
        if device is not None and self.name.startswith("sim:"):
            options.setdefault("resend_s", 1.0)
        link = Link(device.port if device is not None else old.url, device=device, owns_device=False, **options)
        try:
            self._take(link)
            if self._level is not None:
                link.set_brightness(self._level, timeout_s=self.show_timeout_s)
        except BaseException:
            link.close(stop_device=False)
            raise
        link.owns_device = True
        self._resets_seen = link.stats.resets
        self._reset_times = []
        self.link = link

    def abort(self) -> None:
        """Close the link and stop any emulator behind it at once (a request on its way fails)."""
        self.link.close()
        if self.device is not None:
            self.device.close()

    def _show(self, frame: CellFrame) -> None:
        self.link.show(self.led_frame(frame), timeout_s=self.show_timeout_s)

    def _close(self) -> None:
        self.link.close()
