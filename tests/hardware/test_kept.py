"""KeptMatrix: the LEDs beside the game, with a stand-in driver that hangs, fails and comes back on demand."""

from __future__ import annotations

import threading
import time

import pytest

from firmware_bridge import DeviceTimeoutError, NoDeviceError
from hardware import (
    EMPTY,
    CellFrame,
    CellLight,
    Colour,
    KeptMatrix,
    LedMap,
    LedMatrix,
    LedsNotShownError,
    LinkState,
    NullMatrix,
    Pattern,
    Wiring,
)
from referee.geometry import parse_geometry

WAIT_S = 20.0


class FlakyMatrix(LedMatrix):
    """A driver whose device can hang (until aborted or released) or be gone; records what reached it."""

    name = "flaky"

    def __init__(self) -> None:
        super().__init__(parse_geometry("diamond:3"))
        self.gone = False
        self.hung = threading.Event()
        self.released = threading.Event()
        self.waiting = threading.Event()
        self.aborted = threading.Event()
        self.shown_frames: list[CellFrame] = []
        self.shown_leds: list[frozenset[int]] = []
        self.reconnects = 0
        self.threads: set[str] = set()
        self.closed_by: str | None = None

    def _show(self, frame: CellFrame) -> None:
        self.threads.add(threading.current_thread().name)
        if self.hung.is_set():
            self.waiting.set()
            self.released.wait(WAIT_S)
            if self.aborted.is_set():
                raise NoDeviceError("the device was let go of")
        if self.gone:
            raise DeviceTimeoutError("the controller did not acknowledge")
        self.shown_frames.append(frame)

    def _show_leds(self, leds: frozenset[int]) -> None:
        self._show(EMPTY)
        self.shown_leds.append(leds)

    def check(self) -> None:
        if self.gone:
            raise DeviceTimeoutError("the controller has said nothing for 3 s")

    def reconnect(self) -> None:
        self.reconnects += 1
        if self.gone:
            raise NoDeviceError("the port went away")

    def abort(self) -> None:
        self.aborted.set()
        self.released.set()

    def _close(self) -> None:
        self.closed_by = threading.current_thread().name


def light(cell: int) -> CellFrame:
    return CellFrame({cell: CellLight(Colour.WHITE, Pattern.STEADY)})


def kept(driver: FlakyMatrix, changes: list[LinkState]) -> KeptMatrix:
    return KeptMatrix(driver, on_change=changes.append, first_retry_s=0.02, max_retry_s=0.1, check_s=0.02, settle_s=0.1)


def test_show_hands_the_frame_over_and_the_latest_frame_wins_while_the_device_hangs() -> None:
    driver, changes = FlakyMatrix(), []
    leds = kept(driver, changes)
    try:
        driver.hung.set()
        leds.show(light(0))
        for cell in range(1, 9):
            leds.show(light(cell))  # returns at once although the device is stuck on the first frame
        assert leds.shown() == light(8)
        driver.hung.clear()
        driver.released.set()
        assert leds.wait_until(lambda k: k.settled, WAIT_S)
        assert driver.shown_frames[-1] == light(8)
        assert len(driver.shown_frames) <= 3, "frames that were replaced before they were sent must not be sent"
        assert driver.threads == {leds._thread.name}, "only the LED thread may talk to the device"
    finally:
        leds.close()


def test_a_lost_device_is_reported_once_retried_and_given_the_whole_state_when_it_is_back() -> None:
    driver, changes = FlakyMatrix(), []
    leds = kept(driver, changes)
    try:
        leds.show(light(1))
        assert leds.wait_until(lambda k: k.settled, WAIT_S)
        driver.gone = True
        assert leds.wait_until(lambda k: not k.state.connected, WAIT_S)
        leds.show(light(2))
        leds.show(light(3))
        assert leds.wait_until(lambda k: driver.reconnects >= 4, WAIT_S)
        assert [c.connected for c in changes] == [False], "one report per change, not one per retry"
        assert changes[0].words.startswith("LEDs disconnected since ") and changes[0].words.endswith(", retrying")
        assert "said nothing" in changes[0].reason or "acknowledge" in changes[0].reason
        driver.gone = False
        assert leds.wait_until(lambda k: k.state.connected, WAIT_S)
        assert driver.shown_frames[-1] == light(3)
        assert [c.connected for c in changes] == [False, True]
        assert changes[1].words == ""
        assert leds.failures == 1
    finally:
        leds.close()


def test_close_returns_and_lets_go_of_a_hung_device() -> None:
    driver, changes = FlakyMatrix(), []
    leds = kept(driver, changes)
    driver.hung.set()
    leds.show(light(4))
    closer = threading.Thread(target=leds.close)
    closer.start()
    closer.join(WAIT_S)
    assert not closer.is_alive(), "close() waited for a hung device"
    assert driver.aborted.is_set()
    assert leds.closed


def test_close_turns_a_healthy_device_off_from_the_led_thread() -> None:
    driver, changes = FlakyMatrix(), []
    leds = kept(driver, changes)
    leds.show(light(5))
    assert leds.wait_until(lambda k: k.settled, WAIT_S)
    leds.close()
    assert driver.shown_frames[-1] == EMPTY
    assert driver.closed_by == leds._thread.name
    assert not driver.aborted.is_set()


def test_the_words_name_the_time_of_the_loss() -> None:
    since = time.mktime((2024, 5, 1, 20, 31, 0, 0, 0, -1))
    assert LinkState(False, since, "gone").words == "LEDs disconnected since 20:31, retrying"
    assert LinkState(True, since).words == ""


def test_raw_leds_reach_the_driver_through_the_slot_and_a_later_frame_replaces_them() -> None:
    geometry, wiring = parse_geometry("diamond:3"), LedMap(wiring=Wiring.SERPENTINE)
    driver = NullMatrix(geometry, wiring)
    leds = KeptMatrix(driver, first_retry_s=0.02, max_retry_s=0.1, check_s=0.02, settle_s=0.1)
    try:
        leds.show(light(4))
        leds.show_leds_and_wait({0, 7})
        assert driver.lit_leds == {0, 7} and driver.shown() == EMPTY and leds.shown() == EMPTY
        assert leds.led_count == driver.led_count == 9
        leds.show(light(5))
        assert leds.wait_until(lambda k: k.settled, WAIT_S)
        assert driver.shown() == light(5) and driver.lit_leds == set(wiring.layout(geometry).leds(5))
    finally:
        leds.close()


def test_raw_leds_are_refused_at_once_while_the_controller_is_away_and_sent_again_when_it_is_back() -> None:
    driver, changes = FlakyMatrix(), []
    leds = kept(driver, changes)
    try:
        driver.gone = True
        assert leds.wait_until(lambda k: not k.state.connected, WAIT_S)
        with pytest.raises(LedsNotShownError, match=r"LEDs disconnected since .*said nothing for 3 s; map them once"):
            leds.show_leds_and_wait({2})
        driver.gone = False
        assert leds.wait_until(lambda k: k.settled, WAIT_S)
        assert driver.shown_leds[-1] == {2}, "the raw LEDs are the whole state sent again on reconnecting"
    finally:
        leds.close()


def test_a_frame_handed_over_before_the_raw_leds_showed_is_reported() -> None:
    driver, changes = FlakyMatrix(), []
    leds = kept(driver, changes)
    failures: list[Exception] = []

    def map_one() -> None:
        try:
            leds.show_leds_and_wait({1}, timeout_s=WAIT_S)
        except LedsNotShownError as error:
            failures.append(error)

    try:
        driver.hung.set()
        leds.show(light(0))  # the device hangs on this frame
        assert driver.waiting.wait(WAIT_S), "the LED thread never took the first frame"
        waiter = threading.Thread(target=map_one)
        waiter.start()
        assert leds.wait_until(lambda k: k._version >= 2, WAIT_S)
        leds.show(light(3))  # the game lights a cell while the pattern waits
        driver.hung.clear()
        driver.released.set()
        waiter.join(WAIT_S)
        assert [str(e) for e in failures] == [
            "the flaky LEDs were given other lights before the pattern showed: let nothing else light them while "
            "they are mapped, and map them again"
        ]
        assert leds.wait_until(lambda k: k.settled, WAIT_S) and driver.shown_frames[-1] == light(3)
        assert {1} not in driver.shown_leds, "raw LEDs replaced before they were sent are never sent"
    finally:
        leds.close()


def test_raw_leds_a_hung_controller_does_not_show_fail_after_the_timeout() -> None:
    driver, changes = FlakyMatrix(), []
    leds = kept(driver, changes)
    try:
        driver.hung.set()
        with pytest.raises(LedsNotShownError, match=r"did not show the pattern within 0\.05 s: check the controller"):
            leds.show_leds_and_wait({1}, timeout_s=0.05)
    finally:
        driver.released.set()
        leds.close()


def test_a_new_map_reaches_the_driver_and_the_frame_wanted_goes_out_again_through_it() -> None:
    geometry = parse_geometry("diamond:3")
    driver = NullMatrix(geometry, LedMap(wiring=Wiring.SERPENTINE))
    leds = KeptMatrix(driver, first_retry_s=0.02, max_retry_s=0.1, check_s=0.02, settle_s=0.1)
    measured = LedMap(rotation=90, mirror=True)
    try:
        leds.show(light(5))
        assert leds.wait_until(lambda k: k.settled, WAIT_S)
        leds.use_map(measured)
        assert leds.wait_until(lambda k: k.settled, WAIT_S)
        assert driver.layout == leds.layout == measured.layout(geometry)
        assert driver.lit_leds == set(measured.layout(geometry).leds(5))
    finally:
        leds.close()
