"""Faults on the line and at the port: noise, unplug and replug, the wrong device, no device."""

from __future__ import annotations

import random
import threading

import pytest

from firmware_bridge import (
    LedFrame,
    Link,
    LinkError,
    NoDeviceError,
    NotOurDeviceError,
    open_device,
    render,
)
from firmware_bridge import protocol as p
from firmware_bridge.device import DeviceModel
from firmware_bridge.emulator import EmulatedDevice
from firmware_bridge.leds import DEFAULT_BRIGHTNESS
from firmware_bridge.sim import SimulatedDevice

from .conftest import require_toolchain
from .line import ForeignDevice, NoisyLine

LEDS = 8


def frames(count: int, seed: int) -> list[LedFrame]:
    rng = random.Random(seed)
    return [LedFrame.from_lists([rng.randrange(12) for _ in range(LEDS)]) for _ in range(count)]


@pytest.mark.parametrize("kind", ["emu", pytest.param("sim", marks=pytest.mark.firmware)])
def test_with_one_percent_of_bytes_corrupted_every_frame_is_delivered_and_shown(kind: str) -> None:
    if kind == "sim":
        require_toolchain()
    device = EmulatedDevice(leds=LEDS) if kind == "emu" else SimulatedDevice(leds=LEDS)
    line = NoisyLine(device.port, rate=0.01, seed=1234)
    try:
        with Link(line.port, device=device, resend_s=0.3, handshake_timeout_s=20) as link:
            for frame in frames(80, seed=99):
                link.show(frame, timeout_s=30)
                assert device.colours() == render(frame, link.info.palette, DEFAULT_BRIGHTNESS, True, True)
            assert line.corrupted > 0, "the line corrupted nothing: the test proves nothing"
            assert link.stats.resent > 0
    finally:
        line.close()


def test_the_emulator_can_corrupt_its_own_line() -> None:
    with open_device("emu:", leds=LEDS, corrupt_rate=0.01, seed=7, resend_s=0.2) as link:
        for frame in frames(60, seed=3):
            link.show(frame, timeout_s=30)
            assert link.device.colours() == render(frame, link.info.palette, DEFAULT_BRIGHTNESS, True, True)
        assert link.device.corrupted > 0


def test_unplug_and_replug_restore_the_frame_and_the_link_carries_on() -> None:
    with open_device("emu:", leds=LEDS) as link:
        first, second = frames(2, seed=5)
        link.set_brightness(90)
        link.show(first)
        wanted = render(first, link.info.palette, 90, True, True)
        link.device.unplug()
        link.device.wait_for(lambda _c: link.stats.reconnects == 0 and link._port is None, 10, "the link noticing")
        link.device.replug()
        link.device.wait_for(lambda c: c == wanted and link.stats.reconnects == 1, 20, "the frame restored")
        assert link.stats.handshakes == 2
        link.show(second)
        assert link.device.colours() == render(second, link.info.palette, 90, True, True)


def test_a_frame_shown_while_unplugged_arrives_after_the_replug() -> None:
    with open_device("emu:", leds=LEDS) as link:
        frame = frames(1, seed=6)[0]
        link.device.unplug()
        link.device.wait_for(lambda _c: link._port is None, 10, "the link noticing")
        done = threading.Event()
        errors: list[BaseException] = []

        def show() -> None:
            try:
                link.show(frame, timeout_s=30)
            except BaseException as error:  # handed to the test thread
                errors.append(error)
            done.set()

        threading.Thread(target=show, daemon=True).start()
        link.device.replug()
        assert done.wait(30) and not errors
        assert link.device.colours() == render(frame, link.info.palette, DEFAULT_BRIGHTNESS, True, True)


def test_showing_while_unplugged_for_good_fails_clearly() -> None:
    with open_device("emu:", leds=LEDS) as link:
        link.device.unplug()
        # Either this request finds the port gone itself, or it finds the link busy reconnecting to a port
        # that is gone: both say the port went away.
        with pytest.raises(LinkError, match=r"went away|did not acknowledge"):
            link.show(frames(1, seed=1)[0], timeout_s=1.0)


def test_a_missing_port_is_no_device() -> None:
    with pytest.raises(NoDeviceError, match="cannot open the LED port"):
        open_device("/dev/no-such-led-controller")
    with pytest.raises(NoDeviceError):
        open_device("serial:")


def test_a_chattering_foreign_device_is_not_ours() -> None:
    foreign = ForeignDevice(b"$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n")
    try:
        with pytest.raises(NotOurDeviceError, match="never in the LED protocol"):
            open_device(foreign.port, handshake_timeout_s=1.0)
    finally:
        foreign.close()


def test_a_silent_port_is_not_ours() -> None:
    foreign = ForeignDevice()
    try:
        with pytest.raises(NotOurDeviceError, match="nothing on"):
            open_device(foreign.port, handshake_timeout_s=1.0)
    finally:
        foreign.close()


def test_a_device_speaking_another_protocol_version_is_not_ours() -> None:
    info = DeviceModel(LEDS).info
    newer = p.announce_message(0, type(info)(9, info.firmware_version, LEDS, info.palette, info.capabilities))
    foreign = ForeignDevice(p.encode(newer))
    try:
        with pytest.raises(NotOurDeviceError, match="protocol 9"):
            open_device(foreign.port, handshake_timeout_s=2.0)
    finally:
        foreign.close()


def test_emulator_options_are_checked() -> None:
    with pytest.raises(LinkError, match="does not take"):
        open_device("emu:", colour="red")
    with pytest.raises(LinkError, match=r"1\.\.256"):
        open_device("emu:", leds=300)
