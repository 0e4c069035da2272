"""The emulators act out a misbehaving controller: silent, garbled, refusing, in a reset loop, frozen, killed."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import DeviceRejectedError, EmulatorError, Fault, LedFrame, LinkError, render
from firmware_bridge.emulator import EmulatedDevice
from firmware_bridge.leds import DEFAULT_BRIGHTNESS
from firmware_bridge.link import Link
from firmware_bridge.sim import SimulatedDevice

from .conftest import require_toolchain

LEDS = 8
WAIT_S = 20.0


@pytest.fixture(params=["emu", pytest.param("sim", marks=pytest.mark.firmware)])
def device(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sim":
        require_toolchain()
        made: Any = SimulatedDevice(leds=LEDS, port_path=tmp_path / "port")
    else:
        made = EmulatedDevice(leds=LEDS, port_path=tmp_path / "port")
    yield made
    made.close()


def frame(colour: int) -> LedFrame:
    return LedFrame.from_lists([colour] * LEDS)


def shows(device: Any, link: Link, wanted: LedFrame) -> None:
    expected = render(wanted, link.info.palette, DEFAULT_BRIGHTNESS, True, True)
    device.wait_for(lambda colours: colours == expected, WAIT_S, "the frame")


def fresh_link(device: Any) -> Link:
    return Link(device.port, device=device, owns_device=False, handshake_timeout_s=WAIT_S, resend_s=0.3)


def test_the_port_is_where_it_was_asked_to_be(device: Any, tmp_path: Path) -> None:
    assert device.port == str(tmp_path / "port")
    assert os.path.exists(device.port)
    with fresh_link(device) as link:
        link.show(frame(2))
        shows(device, link, frame(2))


def test_a_silent_controller_says_nothing_and_a_healed_one_answers_again(device: Any) -> None:
    link = fresh_link(device)
    try:
        device.misbehave(Fault.SILENT)
        with pytest.raises(LinkError, match="did not acknowledge"):
            link.show(frame(3), timeout_s=1.0)
        assert link.silent_s() >= 0.9
    finally:
        link.close()
    device.misbehave(None)
    with fresh_link(device) as healed:
        healed.show(frame(4))
        shows(device, healed, frame(4))


def test_a_garbled_line_brings_bytes_but_no_message(device: Any) -> None:
    link = fresh_link(device)
    try:
        device.misbehave("garbage")
        with pytest.raises(LinkError):
            link.show(frame(3), timeout_s=1.0)
        assert link.stats.host_dropped > 0, "nothing garbled arrived: the fault was not acted out"
        assert link.silent_s() >= 0.9
    finally:
        link.close()


def test_a_refusing_controller_answers_error(device: Any) -> None:
    with fresh_link(device) as link:
        device.misbehave(Fault.ERROR)
        with pytest.raises(DeviceRejectedError):
            link.show(frame(5), timeout_s=WAIT_S)


def test_a_controller_in_a_reset_loop_keeps_announcing_itself(device: Any) -> None:
    with fresh_link(device) as link:
        device.misbehave(Fault.REANNOUNCE)
        device.wait_for(lambda _c: link.stats.resets >= 3, WAIT_S, "three announcements nobody asked for")
        device.misbehave(None)


def test_a_frozen_controller_answers_after_it_thaws_and_closing_meanwhile_returns(device: Any) -> None:
    link = fresh_link(device)
    device.freeze()
    with pytest.raises(LinkError):
        link.show(frame(6), timeout_s=1.0)
    closer = threading.Thread(target=link.close)
    closer.start()
    closer.join(WAIT_S)
    assert not closer.is_alive(), "closing the link waited for a frozen controller"
    device.thaw()
    with fresh_link(device) as thawed:
        thawed.show(frame(7))
        shows(device, thawed, frame(7))


def test_a_killed_controller_loses_its_port_and_restarts_on_the_same_one(device: Any) -> None:
    link = fresh_link(device)
    link.show(frame(2))
    device.kill()
    assert not device.alive
    device.wait_for(lambda _c: not os.path.exists(device.port), WAIT_S, "the port going away")
    with pytest.raises(LinkError):
        link.show(frame(3), timeout_s=1.0)
    link.close()
    device.restart()
    assert device.alive
    with fresh_link(device) as again:
        again.show(frame(3))
        shows(device, again, frame(3))


def test_a_frozen_simulator_is_stopped_by_close(tmp_path: Path) -> None:
    require_toolchain()
    device = SimulatedDevice(leds=LEDS)
    device.freeze()
    process = device._process
    closer = threading.Thread(target=device.close)
    closer.start()
    closer.join(WAIT_S)
    assert not closer.is_alive()
    assert process is not None and process.poll() is not None, "a frozen simulator outlived its device"
    assert not os.path.exists(device.port)


def test_faults_are_named() -> None:
    with EmulatedDevice(leds=LEDS) as device, pytest.raises(EmulatorError, match="silent, garbage, error, reannounce"):
        device.misbehave("sparks")


def test_a_port_path_taken_by_a_file_is_refused(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("mine")
    with pytest.raises(EmulatorError, match="not a port link"):
        EmulatedDevice(leds=LEDS, port_path=taken)


def test_a_cable_pulled_while_the_controller_waits_on_its_port_leaves_it_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The controller's thread picks the port to wait on under its lock and waits outside it: a cable pulled in
    between closes the port under the wait. The thread must go round again, not die of the closed descriptor."""
    import select

    from firmware_bridge import emulator

    died: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: died.append(args.exc_value))
    device = EmulatedDevice(leds=LEDS, port_path=tmp_path / "port")
    pulled = threading.Event()

    def wait(readers: list[int], writers: list[int], errors: list[int], timeout: float | None) -> Any:
        if not pulled.is_set() and len(readers) > 1:
            pulled.set()
            device.unplug()  # the cable pulled just as the thread starts to wait on the port
        return select.select(readers, writers, errors, timeout)

    monkeypatch.setattr(emulator, "select", type("Select", (), {"select": staticmethod(wait)}))
    try:
        device.misbehave(None)  # wakes the thread, which waits on its port again
        assert pulled.wait(WAIT_S), "the controller never waited on its port"
        device.replug()
        with fresh_link(device) as link:
            link.show(frame(3))
            shows(device, link, frame(3))
        assert device._thread.is_alive() and not died, f"the controller's thread died: {died}"
    finally:
        device.close()
