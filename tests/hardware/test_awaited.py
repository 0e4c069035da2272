"""LEDs whose controller is absent when the game starts: the game starts anyway, the LEDs catch up."""

from __future__ import annotations

import pytest

from firmware_bridge import NoDeviceError
from hardware import CellFrame, CellLight, Colour, KeptMatrix, LedMap, Pattern
from hardware.awaited import AwaitedMatrix, ControllerAwaitedError, open_leds_awaiting
from hardware.errors import LedSpecError
from hardware.matrix import NullMatrix
from referee.geometry import parse_geometry

GEOMETRY = parse_geometry("diamond:3")
WAIT_S = 20.0


def light(cell: int) -> CellFrame:
    return CellFrame({cell: CellLight(Colour.RED, Pattern.STEADY)})


class Plug:
    """A controller that is plugged in after ``tries`` attempts to open it."""

    def __init__(self, tries: int) -> None:
        self.tries = tries
        self.attempts = 0
        self.driver: NullMatrix | None = None

    def __call__(self) -> NullMatrix:
        self.attempts += 1
        if self.attempts <= self.tries:
            raise NoDeviceError(f"cannot open the LED port /dev/ttyACM0 (attempt {self.attempts})")
        self.driver = NullMatrix(GEOMETRY)
        return self.driver


def test_frames_wait_for_the_controller_and_the_latest_one_reaches_it():
    plug = Plug(tries=3)
    awaited = AwaitedMatrix(plug, GEOMETRY, name="serial:/dev/ttyACM0", reason="cannot open the LED port")
    kept = KeptMatrix(awaited, first_retry_s=0.02, max_retry_s=0.05, check_s=0.05, settle_s=0.05)
    try:
        kept.show(light(0))
        assert kept.wait_until(lambda k: not k.state.connected, WAIT_S)
        assert "attempt" in kept.state.reason or "cannot open" in kept.state.reason
        kept.show(light(4))
        assert kept.wait_until(lambda k: k.settled and k.state.connected, WAIT_S)
        assert plug.driver is not None and plug.driver.shown() == light(4)
        assert plug.attempts == 4
    finally:
        kept.close()
    assert plug.driver.closed


def test_a_controller_never_found_closes_quietly_and_says_why():
    awaited = AwaitedMatrix(Plug(tries=10**6), GEOMETRY, reason="cannot open the LED port /dev/ttyACM0")
    with pytest.raises(ControllerAwaitedError, match="cannot open the LED port"):
        awaited.show(light(1))
    with pytest.raises(NoDeviceError, match="attempt 1"):
        awaited.reconnect()
    with pytest.raises(ControllerAwaitedError, match="attempt 1"):
        awaited.check()
    awaited.close()
    assert awaited.closed


def test_only_an_absent_serial_controller_is_awaited(tmp_path):
    said: list[str] = []
    awaited = open_leds_awaiting(f"serial:{tmp_path}/no-such-port", GEOMETRY, say=said.append)
    assert isinstance(awaited, AwaitedMatrix) and len(said) == 1 and "the game starts without them" in said[0]
    awaited.close()
    with pytest.raises(LedSpecError):
        open_leds_awaiting("serail:/dev/ttyACM0", GEOMETRY, say=said.append)
    assert isinstance(open_leds_awaiting("none:", GEOMETRY), NullMatrix)


def test_raw_leds_wait_for_the_controller_and_reach_its_driver_once_open():
    plug = Plug(tries=1)
    awaited = AwaitedMatrix(plug, GEOMETRY, name="serial:/dev/ttyACM0", reason="cannot open the LED port")
    assert awaited.led_count == 9  # the map's LEDs until the controller says how many it drives
    with pytest.raises(ControllerAwaitedError, match="cannot open the LED port"):
        awaited.show_leds({3})
    with pytest.raises(NoDeviceError):
        awaited.reconnect()
    awaited.reconnect()
    awaited.show_leds({3, 8})
    assert plug.driver is not None and plug.driver.lit_leds == {3, 8} and awaited.shown() == CellFrame()
    assert awaited.led_count == plug.driver.led_count
    awaited.close()


def test_a_map_measured_while_the_controller_is_away_is_the_one_it_opens_with() -> None:
    geometry = parse_geometry("diamond:3")
    first, measured = LedMap(), LedMap(rotation=270)
    matrix = AwaitedMatrix(lambda: NullMatrix(geometry, first), geometry, first)
    matrix.adopt_map(measured)
    matrix.reconnect()
    assert matrix.inner is not None and matrix.inner.layout == matrix.layout == measured.layout(geometry)
    matrix.adopt_map(first)
    assert matrix.inner.led_map == first
