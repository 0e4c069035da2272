"""LEDs whose controller was not there when the game started: opened when it turns up.

A player who starts ``cascade run`` with the LED controller still unplugged
(or still booting) should get a game, not an error: the LEDs are a help, the
refereeing is the point. :class:`AwaitedMatrix` stands in for the driver
until it can be opened. Until then every frame fails with the reason the
controller could not be opened; :meth:`reconnect` tries to open it again.
Wrapped in a :class:`~hardware.kept.KeptMatrix`, which retries with a
growing pause and sends the whole state once the driver is open, the game
goes on and the LEDs catch up when the controller is plugged in.
"""

from __future__ import annotations

from collections.abc import Callable

from hardware.errors import HardwareError
from hardware.frame import CellFrame
from hardware.ledmap import LedMap
from hardware.matrix import LedMatrix
from referee.geometry import Geometry


class ControllerAwaitedError(HardwareError, ConnectionError):
    """The LED controller has not been opened yet; the message says why."""


class AwaitedMatrix(LedMatrix):
    """A driver opened later by ``opener``, once the controller answers; ``reason`` says why it is not open now."""

    def __init__(
        self,
        opener: Callable[[], LedMatrix],
        geometry: Geometry,
        led_map: LedMap | None = None,
        name: str = "leds",
        reason: str = "",
    ) -> None:
        super().__init__(geometry, led_map)
        self.opener = opener
        self.name = name
        self.reason = reason or "the LED controller has not answered yet"
        self.inner: LedMatrix | None = None

    @property
    def led_count(self) -> int:
        """The LEDs of the opened driver; until it is open, the LEDs the map uses."""
        return self.inner.led_count if self.inner is not None else self.layout.led_count

    def close(self) -> None:
        """Turn the LEDs off and let go of the controller; a controller never opened has nothing to turn off."""
        if self.inner is None:
            with self._lock:
                self._closed = True
            return
        super().close()

    def check(self) -> None:
        """Raise the reason the controller is not open yet, or what its driver finds wrong."""
        self._driver().check()

    def reconnect(self) -> None:
        """Open the controller (the first time), or reopen it through its driver."""
        if self.inner is None:
            try:
                inner = self.opener()
            except Exception as error:
                self.reason = str(error) or self.reason
                raise
            if inner.led_map != self.led_map:  # a map measured while the controller was away
                inner.adopt_map(self.led_map)
            self.inner = inner
            return
        self.inner.reconnect()

    def abort(self) -> None:
        """Let go of the controller at once, if it was ever opened."""
        if self.inner is not None:
            self.inner.abort()

    def _driver(self) -> LedMatrix:
        if self.inner is None:
            raise ControllerAwaitedError(self.reason)
        return self.inner

    def adopt_map(self, led_map: LedMap) -> None:
        """Take ``led_map`` as the wiring, the driver first once it is open."""
        if self.inner is not None:
            self.inner.adopt_map(led_map)
        super().adopt_map(led_map)

    def _show(self, frame: CellFrame) -> None:
        self._driver().show(frame)

    def _show_leds(self, leds: frozenset[int]) -> None:
        self._driver().show_leds(leds)

    def _close(self) -> None:
        if self.inner is not None:
            self.inner.close()


def open_leds_awaiting(
    spec: str, geometry: Geometry, led_map: LedMap | None = None, say: Callable[[str], None] | None = None
) -> LedMatrix:
    """``open_leds(spec, ...)``; but a ``serial:`` controller that is absent or silent now is awaited instead
    (an :class:`AwaitedMatrix`, to be kept by a :class:`~hardware.kept.KeptMatrix`), and ``say`` is told so in
    one line. A mistyped spec, or a device that answers something other than our protocol, still fails."""
    from firmware_bridge.errors import DeviceTimeoutError, NoDeviceError
    from hardware.drivers import open_leds

    try:
        return open_leds(spec, geometry, led_map=led_map)
    except (NoDeviceError, DeviceTimeoutError) as error:
        if not spec.strip().startswith("serial:"):
            raise
        if say is not None:
            say(f"LEDs: {error}; the game starts without them and opens them when the controller answers")
        return AwaitedMatrix(
            lambda: open_leds(spec, geometry, led_map=led_map), geometry, led_map, name=spec.strip(), reason=str(error)
        )
