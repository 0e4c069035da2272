"""The players' buttons (end turn, pass, confirm, undo, hint) and the error buzzer.

Every kind of buttons has one interface, :class:`Buttons`: presses arrive as
:class:`ButtonEvent` values, either through :meth:`Buttons.get` (a queue) or,
when ``on_press`` is set, by calling it (from the thread that saw the press);
:meth:`Buttons.buzz` sounds the error alert. Open them with
:func:`hardware.drivers.open_buttons`:

- ``gpio:end_turn=5&pass=6&confirm=13&undo=19&hint=20&buzzer=26`` real push buttons
  (to ground, pulled up) and a buzzer on a Raspberry Pi, debounced; see
  :mod:`hardware.gpio_buttons`;
- ``keyboard:`` a line on standard input per press: ``e`` end turn, ``p``
  pass, ``c`` confirm, ``u`` undo, ``h`` hint (or the full names); the buzzer rings the
  terminal bell;
- ``web:`` buttons on the page, which calls :meth:`WebButtons.press`; the
  buzzer calls ``on_buzz`` so the page can sound it;
- ``none:`` no buttons.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from enum import Enum
from types import TracebackType
from typing import Self, TextIO

from hardware.errors import ButtonError, DeviceClosedError


class ButtonEvent(Enum):
    """What a player asked for by pressing a button."""

    END_TURN = "end_turn"
    PASS = "pass"
    CONFIRM = "confirm"
    UNDO = "undo"
    HINT = "hint"

    @classmethod
    def parse(cls, name: str) -> ButtonEvent:
        """An event from its name (``end_turn``, ``end``, ``pass``, ``confirm``, ``undo``, ``hint``); raises
        ButtonError."""
        key = name.strip().lower().replace("-", "_").replace(" ", "_")
        found = _EVENT_WORDS.get(key)
        if found is None:
            raise ButtonError(f"'{name}' is not a button: use end_turn, pass, confirm, undo or hint")
        return found


_EVENT_WORDS = {**{e.value: e for e in ButtonEvent}, "end": ButtonEvent.END_TURN, "endturn": ButtonEvent.END_TURN}
QUEUE_SIZE = 64


class Buttons:
    """A set of buttons and an optional buzzer; a context manager that closes them.

    Presses go to ``on_press`` when it is set, otherwise into a queue of the
    last :data:`QUEUE_SIZE` presses read with :meth:`get`.
    """

    name = "buttons"

    def __init__(self, on_press: Callable[[ButtonEvent], None] | None = None) -> None:
        self.on_press = on_press
        self._queue: queue.Queue[ButtonEvent] = queue.Queue(QUEUE_SIZE)
        self._closed = False
        self.presses = 0
        self.buzzes = 0

    def get(self, timeout_s: float | None = 0.0) -> ButtonEvent | None:
        """The next press, waiting up to ``timeout_s`` seconds (``None``: until one comes); None if none."""
        try:
            if timeout_s is not None and timeout_s <= 0:
                return self._queue.get_nowait()
            return self._queue.get(timeout=timeout_s)
        except queue.Empty:
            return None

    def drain(self) -> list[ButtonEvent]:
        """Every press waiting in the queue, oldest first."""
        events = []
        while (event := self.get()) is not None:
            events.append(event)
        return events

    def _emit(self, event: ButtonEvent) -> None:
        """Deliver one press (drivers call this)."""
        if self._closed:
            return
        self.presses += 1
        callback = self.on_press
        if callback is not None:
            callback(event)
            return
        while True:
            try:
                self._queue.put_nowait(event)
                return
            except queue.Full:
                self.get()

    def buzz(self, wait: bool = False) -> None:
        """Sound the error alert (two short beeps); ``wait`` returns only when it is over."""
        if self._closed:
            raise DeviceClosedError(f"the {self.name} buttons are closed")
        self.buzzes += 1
        self._buzz(wait)

    def _buzz(self, wait: bool) -> None:
        """Drivers with a buzzer sound it here."""

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._closed

    def close(self) -> None:
        """Release the buttons; closing twice is harmless."""
        if not self._closed:
            self._closed = True
            self._close()

    def _close(self) -> None:
        """Drivers release their devices here."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


class NullButtons(Buttons):
    """``none:``: no buttons, no buzzer."""

    name = "none"


class WebButtons(Buttons):
    """``web:``: buttons on the page. The page calls :meth:`press`; :meth:`buzz` calls ``on_buzz``."""

    name = "web"

    def __init__(
        self,
        on_press: Callable[[ButtonEvent], None] | None = None,
        on_buzz: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(on_press)
        self.on_buzz = on_buzz

    def press(self, name: str | ButtonEvent) -> ButtonEvent:
        """A player pressed a button on the page (by event or name); returns the event."""
        event = name if isinstance(name, ButtonEvent) else ButtonEvent.parse(name)
        self._emit(event)
        return event

    def _buzz(self, wait: bool) -> None:
        if self.on_buzz is not None:
            self.on_buzz()


KEYS = {
    "e": ButtonEvent.END_TURN,
    "p": ButtonEvent.PASS,
    "c": ButtonEvent.CONFIRM,
    "u": ButtonEvent.UNDO,
    "h": ButtonEvent.HINT,
}


class KeyboardButtons(Buttons):
    """``keyboard:``: one line per press on ``stream`` (standard input by default).

    A line is a key (``e``, ``p``, ``c``, ``u``, ``h``, or others given as
    ``keys={"n": ButtonEvent.END_TURN}``) or a button name. Unknown lines are
    answered on ``echo`` (standard error) with the keys to use. The buzzer
    rings the terminal bell on ``echo``.
    """

    name = "keyboard"

    def __init__(
        self,
        on_press: Callable[[ButtonEvent], None] | None = None,
        *,
        stream: TextIO | None = None,
        echo: TextIO | None = None,
        keys: dict[str, ButtonEvent] | None = None,
    ) -> None:
        super().__init__(on_press)
        self.keys = dict(KEYS if keys is None else keys)
        self.echo = echo if echo is not None else sys.stderr
        self.stream = stream if stream is not None else sys.stdin
        self._reader = threading.Thread(target=self._read, name="keyboard-buttons", daemon=True)
        self._reader.start()

    def feed(self, line: str) -> ButtonEvent | None:
        """Act on one typed line; returns the event, or None for an unknown line."""
        text = line.strip().lower()
        if not text:
            return None
        event = self.keys.get(text)
        if event is None:
            try:
                event = ButtonEvent.parse(text)
            except ButtonError:
                keys = ", ".join(f"{k} {e.value.replace('_', ' ')}" for k, e in self.keys.items())
                self.echo.write(f"keys: {keys}\n")
                return None
        self._emit(event)
        return event

    def _read(self) -> None:
        for line in self.stream:
            if self._closed:
                return
            self.feed(line)

    def _buzz(self, wait: bool) -> None:
        self.echo.write("\a")
        self.echo.flush()
