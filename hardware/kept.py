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
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from hardware.frame import CellFrame
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
        self._wanted: CellFrame = inner.shown()
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

    def _show(self, frame: CellFrame) -> None:
        with self._cond:
            self._wanted = frame
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
                    self.inner.show(frame)
                elif version != self._sent:
                    self.inner.show(frame)
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
