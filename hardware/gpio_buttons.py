"""``gpio:``: push buttons and a buzzer on a Raspberry Pi, through gpiozero.

Each button connects its pin to ground (the pin is pulled up; set
``pull_up=false`` for buttons to 3.3 V with pull-downs). Presses are
debounced twice: gpiozero's ``bounce_time`` (done by the pin library where it
can) and a :class:`Debouncer` of our own, so contacts that chatter give one
press on every pin library, mocks included.

Options (spec ``gpio:end_turn=5&pass=6&confirm=13&undo=19&buzzer=26`` or
keywords): a pin for any of ``end_turn`` (or ``end``), ``pass``, ``confirm``,
``undo``, ``hint``; ``buzzer`` (an active buzzer, optional); ``bounce_ms`` (default 50);
``pull_up`` (true); ``factory`` or ``pin_factory``; ``clock`` (a function
returning seconds, for tests; default ``time.monotonic``); ``on_press``.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.buttons import ButtonEvent, Buttons
from hardware.errors import ButtonError, GpioError
from hardware.gpio import Options, pin_factory_from

BEEP_ON_S = 0.08
BEEP_OFF_S = 0.08
BEEPS = 2


class Debouncer:
    """Turns the raw edges of one contact into presses.

    A press is the contact closing after it has been quiet (no edge at all)
    for at least ``bounce_s``; the chatter of a closing or opening contact
    comes sooner and is ignored.
    """

    def __init__(self, bounce_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.bounce_s = bounce_s
        self.clock = clock
        self._last_edge = -math.inf
        self._closed_contact = False
        self._lock = threading.Lock()

    def edge(self, closed: bool) -> bool:
        """Record an edge (the contact now ``closed`` or open); True when it is a press."""
        with self._lock:
            now = self.clock()
            quiet = now - self._last_edge
            self._last_edge = now
            was = self._closed_contact
            self._closed_contact = closed
            return closed and not was and quiet >= self.bounce_s


class GpioButtons(Buttons):
    """Buttons and buzzer on GPIO pins; see the module docstring for options."""

    name = "gpio"

    def __init__(self, **options: Any) -> None:
        on_press = options.pop("on_press", None)
        clock = options.pop("clock", time.monotonic)
        super().__init__(on_press)
        opts = Options("gpio buttons", {}, options)
        pins: dict[ButtonEvent, int | str] = {}
        for event in ButtonEvent:
            pin = opts.pin(event.value, None)
            if event is ButtonEvent.END_TURN and pin is None:
                pin = opts.pin("end", None)
            if pin is not None:
                pins[event] = pin
        buzzer_pin = opts.pin("buzzer", None)
        bounce_ms = opts.integer("bounce_ms", 50)
        assert bounce_ms is not None
        pull_up = opts.flag("pull_up", True)
        factory, _ = pin_factory_from(opts)
        opts.done()
        if not pins:
            raise ButtonError("gpio buttons: give at least one pin, like gpio:end_turn=5&pass=6&confirm=13&undo=19")
        self.pin_factory = factory
        self.bounce_s = bounce_ms / 1000.0
        self.debouncers = {event: Debouncer(self.bounce_s, clock) for event in pins}
        self.buttons: dict[ButtonEvent, Any] = {}
        self.buzzer: Any = None
        from gpiozero import Button, Buzzer

        try:
            for event, pin in pins.items():
                button = Button(pin, pull_up=pull_up, bounce_time=self.bounce_s or None, pin_factory=factory)
                button.when_pressed = self._edge_handler(event, True)
                button.when_released = self._edge_handler(event, False)
                self.buttons[event] = button
            if buzzer_pin is not None:
                self.buzzer = Buzzer(buzzer_pin, pin_factory=factory)
        except Exception as error:
            self._close()
            raise GpioError(f"gpio buttons: cannot use the pins ({type(error).__name__}: {error})") from None

    def _edge_handler(self, event: ButtonEvent, closed: bool) -> Callable[[], None]:
        def handler() -> None:
            if self.debouncers[event].edge(closed):
                self._emit(event)

        return handler

    def _buzz(self, wait: bool) -> None:
        if self.buzzer is not None:
            self.buzzer.beep(on_time=BEEP_ON_S, off_time=BEEP_OFF_S, n=BEEPS, background=not wait)

    def _close(self) -> None:
        for button in self.buttons.values():
            button.close()
        if self.buzzer is not None:
            self.buzzer.close()
