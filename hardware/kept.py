"""LEDs kept going beside the game: the controller may come and go, the game never waits for it.

:class:`KeptMatrix` wraps any :class:`~hardware.matrix.LedMatrix`. Its
``show(frame)`` only hands the frame over (one slot: the latest desired LED
state replaces any older one still waiting) and returns at once; its own
thread puts the frame on the LEDs. When the driver fails (a frame not
acknowledged, a controller gone silent, a port gone), the thread says so
(:class:`LinkState`, "LEDs disconnected since 20:31, retrying"), reconnects
with a growing pause between tries, and on reconnecting sends the whole
current state again; it calls the controller connected again once it has
stayed well for a moment, so a controller in a reset loop does not flicker
between the two. ``close()`` returns within about a second, whatever the
controller is doing.

Raw LEDs asked for by ``show_leds(leds)`` (to map the LEDs with the camera)
take the same slot, so the next frame replaces them like any older frame;
:meth:`KeptMatrix.show_leds_and_wait` returns once they are on the LEDs, or
says why they are not.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from hardware.errors import LedsNotShownError
from hardware.frame import CellFrame
from hardware.ledmap import LedMap
from hardware.matrix import LedMatrix

FIRST_RETRY_S = 0.25
MAX_RETRY_S = 1.0
"""The pause between tries grows to this; short, so a controller that comes back lights up within a second."""
CHECK_S = 0.25
"""How often an idle controller is checked for signs of life."""
SETTLE_S = 1.0
"""A controller found again is called connected once it has stayed well this long (not in a reset loop)."""
STOP_WAIT_S = 0.4
"""How long ``close()`` lets the thread finish a frame before it cuts the device off."""
LIGHT_WAIT_S = 5.0
"""How long :meth:`KeptMatrix.show_leds_and_wait` waits for a controller that answers to show the LEDs asked."""
REASON_LENGTH = 200


@dataclass(frozen=True)
class LinkState:
    """How the LEDs' controller is doing: answering or not, since when (``time.time()``), and why not."""

    connected: bool
    since: float
    reason: str = ""

    @property
    def words(self) -> str:
        """Plain words for the page and the terminal; empty while the controller answers."""
        if self.connected:
            return ""
        return f"LEDs disconnected since {time.strftime('%H:%M', time.localtime(self.since))}, retrying"


class KeptMatrix(LedMatrix):
    """An LED matrix driven from its own thread, reconnecting by itself (see the module docstring).

    ``on_change`` is called (from that thread) with the new :class:`LinkState`
    each time the controller is lost or found again, never once per retry.
    """

    def __init__(
        self,
        inner: LedMatrix,
        on_change: Callable[[LinkState], None] | None = None,
        first_retry_s: float = FIRST_RETRY_S,
        max_retry_s: float = MAX_RETRY_S,
        check_s: float = CHECK_S,
        settle_s: float = SETTLE_S,
    ) -> None:
        super().__init__(inner.geometry, inner.led_map)
        self.inner = inner
        self.name = inner.name
        self.single_colour = inner.single_colour
        self.on_change = on_change
        self.first_retry_s = first_retry_s
        self.max_retry_s = max_retry_s
        self.check_s = check_s
        self.settle_s = settle_s
        self._cond = threading.Condition()
        self._wanted: CellFrame | frozenset[int] = inner.shown()
        self._version = 0
        self._sent = 0
        self._stopping = False
        self._state = LinkState(True, time.time())
        self._failures = 0
        self._thread = threading.Thread(target=self._run, name=f"{self.name} LEDs", daemon=True)
        self._thread.start()

    # -- what the game sees ------------------------------------------------------------------

    @property
    def state(self) -> LinkState:
        """How the controller is doing now."""
        with self._cond:
            return self._state

    @property
    def failures(self) -> int:
        """How many times the controller was lost so far."""
        with self._cond:
            return self._failures

    @property
    def led_count(self) -> int:
        """The LEDs of the driver kept (a controller may drive more than the map uses)."""
        return self.inner.led_count

    @property
    def settled(self) -> bool:
        """True when the controller answers and shows the latest frame handed over."""
        with self._cond:
            return self._state.connected and self._sent == self._version

    def wait_until(self, predicate: Callable[[KeptMatrix], bool], timeout_s: float) -> bool:
        """Block until ``predicate(self)`` holds (checked on every change, and every ``check_s``); False on timeout."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while not predicate(self):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(min(remaining, self.check_s))
            return True

    def show_leds_and_wait(self, leds: Iterable[int], timeout_s: float = LIGHT_WAIT_S) -> None:
        """:meth:`show_leds`, then wait until the controller has exactly those LEDs on: the LED map's ``light``.

        Raises :class:`~hardware.errors.LedsNotShownError` at once while the
        controller is away (saying since when and why), when other lights were
        handed over before these showed, and when they are not on within
        ``timeout_s`` seconds.
        """
        with self._lock:  # no other frame comes between handing these over and noting which they are
            self.show_leds(leds)
            with self._cond:
                version = self._version
        self.wait_until(lambda k: k._sent >= version or not k._state.connected, timeout_s)
        with self._cond:
            replaced, sent, state = self._version != version, self._sent >= version, self._state
        if replaced:
            raise LedsNotShownError(
                f"the {self.name} LEDs were given other lights before the pattern showed: "
                "let nothing else light them while they are mapped, and map them again"
            )
        if sent:
            return
        if not state.connected:
            raise LedsNotShownError(f"{state.words}: {state.reason}; map them once they are back")
        raise LedsNotShownError(
            f"the {self.name} LEDs did not show the pattern within {timeout_s:g} s: check the controller"
        )

    def adopt_map(self, led_map: LedMap) -> None:
        """Take ``led_map`` as the wiring, the driver kept first (it says whether the map fits its LEDs)."""
        self.inner.adopt_map(led_map)
        super().adopt_map(led_map)

    def use_map(self, led_map: LedMap) -> None:
        """Light the cells through ``led_map`` from now on: the thread puts the frame wanted on the LEDs again,
        through the new map (see :meth:`LedMatrix.use_map`)."""
        self.adopt_map(led_map)
        with self._cond:
            self._version += 1
            self._cond.notify_all()

    def _show(self, frame: CellFrame) -> None:
        self._hand_over(frame)

    def _show_leds(self, leds: frozenset[int]) -> None:
        self._hand_over(leds)

    def _hand_over(self, wanted: CellFrame | frozenset[int]) -> None:
        with self._cond:
            self._wanted = wanted
            self._version += 1
            self._cond.notify_all()

    def _close(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread is threading.current_thread():
            return
        self._thread.join(STOP_WAIT_S)
        if self._thread.is_alive():  # stuck on a hung controller: cut it off, the thread then ends
            with contextlib.suppress(Exception):
                self.inner.abort()
            self._thread.join(STOP_WAIT_S)

    # -- the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        lost = False
        settle_until: float | None = None  # found again, not yet called connected
        retry_at = next_check = time.monotonic()
        pause = self.first_retry_s
        while True:
            with self._cond:
                while not self._stopping:
                    now = time.monotonic()
                    due = next_check
                    if lost:
                        due = retry_at
                    elif self._version != self._sent:
                        due = now
                    if due <= now:
                        break
                    self._cond.wait(due - now)
                if self._stopping:
                    break
                frame, version = self._wanted, self._version
            now = time.monotonic()
            try:
                if lost:
                    self.inner.reconnect()
                    self._put(frame)
                elif version != self._sent:
                    self._put(frame)
                else:
                    self.inner.check()
            except Exception as error:  # any failure of the device: the game goes on without it
                away = lost or settle_until is not None
                retry_at = time.monotonic() + (pause if away else self.first_retry_s)
                pause = min(pause * 2, self.max_retry_s) if away else self.first_retry_s
                lost, settle_until = True, None
                self._report(False, _reason(error))
                continue
            next_check = now + self.check_s
            if lost:
                lost, settle_until = False, now + self.settle_s
            elif settle_until is not None and now >= settle_until:
                settle_until = None
                pause = self.first_retry_s
                self._report(True, "")
            with self._cond:
                self._sent = version
                self._cond.notify_all()
        self._finish(lost)

    def _put(self, wanted: CellFrame | frozenset[int]) -> None:
        """Put a frame, or raw LEDs, on the driver's LEDs."""
        if isinstance(wanted, CellFrame):
            self.inner.show(wanted)
        else:
            self.inner.show_leds(wanted)

    def _finish(self, lost: bool) -> None:
        """Turn the LEDs off and let go of the device (at once when it is not answering)."""
        with contextlib.suppress(Exception):  # a device failing as it is let go of changes nothing
            if lost:
                self.inner.abort()
            else:
                self.inner.close()

    def _report(self, connected: bool, reason: str) -> None:
        with self._cond:
            if self._state.connected == connected:
                return
            self._state = LinkState(connected, time.time(), reason)
            if not connected:
                self._failures += 1
            state = self._state
            self._cond.notify_all()
        if self.on_change is not None:
            with contextlib.suppress(Exception):  # a listener's failure must not stop the LEDs
                self.on_change(state)


def _reason(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= REASON_LENGTH else text[: REASON_LENGTH - 1] + "…"
