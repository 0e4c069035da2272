"""The one interface of every LED matrix driver.

A :class:`LedMatrix` shows :class:`~hardware.frame.CellFrame` values on a
board's LEDs: ``show(frame)``, ``clear()``, ``close()``, and ``shown()`` for
the frame on display (the page mirrors it). It is a context manager that
clears and closes on exit. ``show_leds(leds)`` lights raw LED indices instead,
past the cell-to-LED map: that is how the map itself is found, by lighting
patterns and watching them with the camera.

Drivers implement ``_show(frame)`` (and ``_close()``); a driver whose device
can come and go (a controller on a cable) also implements ``check()``,
``reconnect()`` and ``abort()``, which :class:`~hardware.kept.KeptMatrix` uses
to keep it going beside the game. Drivers whose LEDs
cannot blink by themselves derive from :class:`AnimatedMatrix`, which keeps a
tick counter and pushes the LED state once per tick from a background thread
(only when something blinks and the state changes); tests and benchmarks
step it by hand with :meth:`AnimatedMatrix.render` instead.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable
from types import TracebackType
from typing import Self

from hardware.blink import CYCLE_TICKS, TICK_S
from hardware.errors import DeviceClosedError, FrameError, LedMapError
from hardware.frame import EMPTY, CellFrame, CellLight, Colour, Pattern
from hardware.ledmap import LedLayout, LedMap
from referee.geometry import Geometry

PROBE = CellLight(Colour.WHITE, Pattern.STEADY)
"""How raw LEDs are lit by :meth:`LedMatrix.show_leds`: white (every channel on) and steady."""


class LedMatrix(ABC):
    """The LEDs under one board, behind one interface.

    ``geometry`` is the board; ``led_map`` how the LEDs are wired (the default
    map, row-major with one LED per cell, when not given); ``layout`` the map
    applied to the board.
    """

    name = "leds"
    single_colour = False
    fixed_count = False
    """True when :attr:`led_count` is what the hardware drives, whatever the map: a map may use no more."""

    def __init__(self, geometry: Geometry, led_map: LedMap | None = None) -> None:
        self.geometry = geometry
        self.led_map = led_map if led_map is not None else LedMap()
        self.layout: LedLayout = self.led_map.layout(geometry)
        self._shown: CellFrame = EMPTY
        self._closed = False
        self._lock = threading.RLock()

    @property
    def led_count(self) -> int:
        """Number of LEDs this matrix drives, the raw indices :meth:`show_leds` takes: by default those the map
        uses; a controller or a chain of chips says every LED it drives."""
        return self.layout.led_count

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._closed

    def show(self, frame: CellFrame) -> None:
        """Light the cells of ``frame`` (every other cell dark); raises FrameError for cells off the board."""
        if not isinstance(frame, CellFrame):
            frame = CellFrame(frame)
        frame.check(self.geometry)
        with self._lock:
            if self._closed:
                raise DeviceClosedError(f"the {self.name} LEDs are closed; open them again to show a frame")
            self._show(frame)
            self._shown = frame

    def clear(self) -> None:
        """Turn every LED off."""
        self.show(EMPTY)

    def show_leds(self, leds: Iterable[int]) -> None:
        """Light exactly the LEDs with these raw indices (white, steady), every other LED dark, past the LED map.

        For mapping the LEDs with the camera, when which LED sits under which
        cell is what is being found. Raises FrameError for an index that is
        not one of the :attr:`led_count` LEDs. Until the next :meth:`show`,
        :meth:`shown` is the empty frame: no cell's meaning is on display (and
        a driver that blinks on the host has nothing to step).
        """
        wanted = frozenset(leds)
        count = self.led_count
        for led in wanted:
            if isinstance(led, bool) or not isinstance(led, int) or not 0 <= led < count:
                raise FrameError(
                    f"{led!r} is not an LED of {self.name}: its {count} LEDs are numbered 0 to {count - 1}"
                )
        with self._lock:
            if self._closed:
                raise DeviceClosedError(f"the {self.name} LEDs are closed; open them again to light LEDs")
            self._show_leds(wanted)
            self._shown = EMPTY

    def use_map(self, led_map: LedMap) -> None:
        """Light the cells through ``led_map`` from now on (a map just measured on the page), and show the frame
        on display again through it. Raises LedMapError, keeping the map in use, when the new one does not fit
        the board or needs more LEDs than the hardware drives."""
        with self._lock:
            if self._closed:
                raise DeviceClosedError(f"the {self.name} LEDs are closed; open them again to change their map")
            self.adopt_map(led_map)
            self._show(self._shown)

    def adopt_map(self, led_map: LedMap) -> None:
        """Take ``led_map`` as the wiring without lighting anything (see :meth:`use_map`)."""
        layout = led_map.layout(self.geometry)
        with self._lock:
            if self.fixed_count and layout.led_count > self.led_count:
                raise LedMapError(
                    f"{self.name}: the LED map uses {layout.led_count} LEDs, but these LEDs are {self.led_count}; "
                    "map them again with this controller"
                )
            self.led_map, self.layout = led_map, layout

    def shown(self) -> CellFrame:
        """The frame on display now."""
        return self._shown

    def close(self) -> None:
        """Turn the LEDs off and release the device; closing twice is harmless."""
        with self._lock:
            if self._closed:
                return
            try:
                self._show(EMPTY)
                self._shown = EMPTY
            finally:
                self._closed = True
                self._close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} {self.geometry.spec} {self.led_count} LEDs>"

    def check(self) -> None:  # noqa: B027 - optional hook
        """Raise an error saying what is wrong if the device is known to be gone or hung (default: nothing)."""

    def reconnect(self) -> None:  # noqa: B027 - optional hook
        """Open the device again after it failed (default: nothing to reopen, the next frame just tries again)."""

    def abort(self) -> None:  # noqa: B027 - optional hook
        """Let go of the device at once, from any thread, even while a frame is on its way (default: nothing)."""

    @abstractmethod
    def _show(self, frame: CellFrame) -> None:
        """Put ``frame`` on the LEDs."""

    def _show_leds(self, leds: frozenset[int]) -> None:
        """Put exactly ``leds`` on, under the lock.

        By default the first cell is shown through a probe layout
        (:meth:`~hardware.ledmap.LedLayout.probe`) that puts all of ``leds``
        under it, so every driver lights them its own way; the board's layout
        is back before the lock is let go of.
        """
        layout = self.layout
        self.layout = LedLayout.probe(self.geometry, leds, self.led_count)
        try:
            self._show(CellFrame({0: PROBE}) if leds else EMPTY)
        finally:
            self.layout = layout

    def _close(self) -> None:  # noqa: B027 - optional hook
        """Release the device (after the LEDs went dark)."""


class NullMatrix(LedMatrix):
    """``none:``: no LEDs; remembers what it was asked to show, and in ``lit_leds`` which LEDs that would light."""

    name = "none"
    lit_leds: frozenset[int] = frozenset()

    def _show(self, frame: CellFrame) -> None:
        self.lit_leds = frozenset(led for cell in frame for led in self.layout.leds(cell))


class AnimatedMatrix(LedMatrix):
    """A matrix whose driver steps blink patterns on the host, one tick at a time.

    Subclasses implement :meth:`_push` (send the LED state of a tick to the
    hardware). With ``animate=True`` a daemon thread advances the tick every
    :data:`~hardware.blink.TICK_S` seconds while a blinking cell is shown; with
    ``animate=False`` nothing moves until :meth:`render` is called.
    """

    def __init__(self, geometry: Geometry, led_map: LedMap | None = None, *, animate: bool = True) -> None:
        super().__init__(geometry, led_map)
        self.tick = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._animate = animate

    def _start(self) -> None:
        """Start the animation thread (call at the end of a subclass's __init__)."""
        if self._animate and self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"{self.name}-blink", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(TICK_S):
            with self._lock:
                if self._closed:
                    return
                if not self.moving(self._shown):
                    continue
                self.tick = (self.tick + 1) % CYCLE_TICKS
                self._push(self._shown, self.tick)

    def moving(self, frame: CellFrame) -> bool:
        """Whether ``frame`` changes from tick to tick (then the thread keeps pushing it)."""
        return any(light.pattern is not Pattern.STEADY for light in frame.values())

    def render(self, tick: int) -> None:
        """Push the LED state of ``tick`` of the frame on display (for tests and benchmarks)."""
        with self._lock:
            if self._closed:
                raise DeviceClosedError(f"the {self.name} LEDs are closed; open them again to show a frame")
            self.tick = tick % CYCLE_TICKS
            self._push(self._shown, self.tick)

    def _show(self, frame: CellFrame) -> None:
        self._push(frame, self.tick)

    def close(self) -> None:
        """Stop the animation, turn the LEDs off and release the device."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        super().close()

    @abstractmethod
    def _push(self, frame: CellFrame, tick: int) -> None:
        """Send the LED state of ``frame`` at ``tick`` to the hardware."""
