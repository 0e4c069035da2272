"""Buttons: GPIO buttons on mock pins (bounces included), the buzzer, and the keyboard and web stand-ins."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from hardware import ButtonError, ButtonEvent, Buttons, DeviceClosedError, LedSpecError, open_buttons
from hardware.gpio_buttons import Debouncer, GpioButtons
from tests.hardware.conftest import mock_factory

PINS = {"end_turn": 5, "pass": 6, "confirm": 13, "undo": 19}


class FakeClock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def gpio(clock: FakeClock) -> Iterator[tuple[GpioButtons, Any]]:
    factory = mock_factory()
    spec = "gpio:" + "&".join(f"{name}={pin}" for name, pin in PINS.items()) + "&buzzer=26&bounce_ms=20"
    buttons = open_buttons(spec, pin_factory=factory, clock=clock)
    assert isinstance(buttons, GpioButtons)
    yield buttons, factory
    buttons.close()


def press(pin: Any, clock: FakeClock, bounces: int = 0) -> None:
    """Close the contact, chattering ``bounces`` times a millisecond apart, then hold it."""
    pin.drive_low()
    for _ in range(bounces):
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
        pin.drive_low()
    clock.advance(0.2)


def release(pin: Any, clock: FakeClock, bounces: int = 0) -> None:
    pin.drive_high()
    for _ in range(bounces):
        clock.advance(0.001)
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
    clock.advance(0.2)


def test_each_button_gives_its_event(gpio: tuple[GpioButtons, Any], clock: FakeClock) -> None:
    buttons, factory = gpio
    for name, pin_number in PINS.items():
        pin = factory.pin(pin_number)
        press(pin, clock)
        release(pin, clock)
        assert buttons.get() is ButtonEvent.parse(name)
    assert buttons.get() is None


def test_bouncing_contacts_give_one_press(gpio: tuple[GpioButtons, Any], clock: FakeClock) -> None:
    buttons, factory = gpio
    pin = factory.pin(PINS["confirm"])
    press(pin, clock, bounces=5)
    release(pin, clock, bounces=4)
    press(pin, clock, bounces=3)
    release(pin, clock)
    assert buttons.drain() == [ButtonEvent.CONFIRM, ButtonEvent.CONFIRM]


def test_two_quick_real_presses_both_count(gpio: tuple[GpioButtons, Any], clock: FakeClock) -> None:
    buttons, factory = gpio
    pin = factory.pin(PINS["pass"])
    for _ in range(2):
        pin.drive_low()
        clock.advance(0.03)
        pin.drive_high()
        clock.advance(0.03)
    assert buttons.drain() == [ButtonEvent.PASS, ButtonEvent.PASS]


def test_presses_can_go_to_a_callback(clock: FakeClock) -> None:
    factory = mock_factory()
    seen: list[ButtonEvent] = []
    with open_buttons("gpio:undo=19", pin_factory=factory, clock=clock, on_press=seen.append) as buttons:
        press(factory.pin(19), clock)
        assert seen == [ButtonEvent.UNDO]
        assert buttons.get() is None


def test_the_buzzer_beeps_twice(gpio: tuple[GpioButtons, Any]) -> None:
    buttons, factory = gpio
    buzzer = factory.pin(26)
    buzzer.clear_states()
    buttons.buzz(wait=True)
    assert [state for _, state in buzzer.states] == [False, True, False, True, False]


def test_debouncer_alone() -> None:
    clock = FakeClock()
    debouncer = Debouncer(0.05, clock)
    assert debouncer.edge(True)
    clock.advance(0.002)
    assert not debouncer.edge(False)
    clock.advance(0.002)
    assert not debouncer.edge(True)
    clock.advance(0.5)
    assert not debouncer.edge(False)
    clock.advance(0.5)
    assert debouncer.edge(True)


def test_web_buttons() -> None:
    buzzes: list[int] = []
    with open_buttons("web:", on_buzz=lambda: buzzes.append(1)) as buttons:
        assert isinstance(buttons, Buttons)
        buttons.press("end turn")  # type: ignore[attr-defined]
        buttons.press(ButtonEvent.UNDO)  # type: ignore[attr-defined]
        buttons.buzz()
        assert buttons.drain() == [ButtonEvent.END_TURN, ButtonEvent.UNDO]
        assert buzzes == [1]
        with pytest.raises(ButtonError, match="not a button"):
            buttons.press("jump")  # type: ignore[attr-defined]
    with pytest.raises(DeviceClosedError):
        buttons.buzz()


def test_keyboard_buttons_read_lines() -> None:
    echo = io.StringIO()
    done = threading.Event()
    events: list[ButtonEvent] = []

    def collect(event: ButtonEvent) -> None:
        events.append(event)
        if len(events) == 4:
            done.set()

    stream = io.StringIO("e\nx\npass\nc\n\nU\n")
    buttons = open_buttons("keyboard:", stream=stream, echo=echo, on_press=collect)
    assert done.wait(10.0)
    assert events == [ButtonEvent.END_TURN, ButtonEvent.PASS, ButtonEvent.CONFIRM, ButtonEvent.UNDO]
    assert "keys: e end turn, p pass, c confirm, u undo" in echo.getvalue()
    buttons.buzz()
    assert echo.getvalue().endswith("\a")
    buttons.close()


def test_keyboard_keys_can_be_remapped() -> None:
    buttons = open_buttons("keyboard:?end_turn=n", stream=io.StringIO(""), echo=io.StringIO())
    assert buttons.feed("n") is ButtonEvent.END_TURN  # type: ignore[attr-defined]
    assert buttons.feed("e") is None  # type: ignore[attr-defined]
    buttons.close()


def test_none_buttons() -> None:
    with open_buttons("none:") as buttons:
        buttons.buzz()
        assert buttons.get() is None


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("gpio:", ButtonError, "give at least one pin"),
        ("gpio:jump=4", LedSpecError, "unknown option 'jump'"),
        ("gpio:undo=4&bounce_ms=x", LedSpecError, "bounce_ms must be a whole number"),
        ("joystick:", ButtonError, "not a buttons spec"),
        ("web:x", ButtonError, "takes no settings"),
        ("keyboard:?end_turn=n&fly=f", ButtonError, "'fly' is not a button"),
    ],
)
def test_bad_button_specs(spec: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        open_buttons(spec, pin_factory=mock_factory())
