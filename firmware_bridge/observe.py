"""What an emulated device's LEDs show, kept up to date and waited on.

Both emulators (``emu:`` in Python, ``sim:`` decoded from the firmware's
WS2812 waveform) publish each change of their LEDs here, so tests and LED
drivers can check what a player would see without sleeping.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from firmware_bridge.errors import DeviceTimeoutError
from firmware_bridge.leds import RGB

Colours = tuple[RGB, ...]
RECHECK_S = 0.05  # a predicate may also look at other state (a link's counters): look again this often


class ShownLeds:
    """The colours on the LEDs now, the recent changes, and a way to wait for a sight."""

    def __init__(self, led_count: int, history: int = 4096) -> None:
        self._condition = threading.Condition()
        self._colours: Colours = ((0, 0, 0),) * led_count
        self._updates = 0
        self.history: deque[tuple[float, Colours]] = deque(maxlen=history)

    def colours(self) -> Colours:
        """What each LED shows now, in chain order."""
        with self._condition:
            return self._colours

    @property
    def updates(self) -> int:
        """How many times the LEDs were written (a repeat of the same colours counts too)."""
        with self._condition:
            return self._updates

    def wait_for(self, predicate: Callable[[Colours], bool], timeout_s: float = 10.0, what: str = "") -> Colours:
        """Block until the LEDs show something ``predicate`` accepts; return it.

        The predicate is checked on every change of the LEDs and, since it may
        also look at other state, every few tens of milliseconds. Raises
        :class:`DeviceTimeoutError` (naming ``what``) if it is not satisfied
        within ``timeout_s`` seconds.
        """
        deadline = time.monotonic() + timeout_s
        with self._condition:
            while not predicate(self._colours):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise DeviceTimeoutError(
                        f"the LEDs did not show {what or 'the expected colours'} within {timeout_s:g} s; "
                        f"they show {self._colours[:8]}..."
                    )
                self._condition.wait(min(remaining, RECHECK_S))
            return self._colours

    def wait_for_colours(self, expected: Colours, timeout_s: float = 10.0) -> Colours:
        """Block until the LEDs show exactly ``expected``."""
        return self.wait_for(lambda shown: shown == tuple(expected), timeout_s, f"{tuple(expected)[:8]}...")

    def _publish(self, colours: Colours, at_s: float) -> None:
        with self._condition:
            self._updates += 1
            if colours != self._colours:
                self.history.append((at_s, colours))
            self._colours = colours
            self._condition.notify_all()
