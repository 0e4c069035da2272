"""One conformance suite for every LED controller we can run here: ``emu:`` and ``sim:``.

What the LEDs show is read from the device (the Python model's LEDs, or the
WS2812 waveform decoded in simavr) and compared with :func:`render`, the one
rule for turning a frame into colours.
"""

from __future__ import annotations

import dataclasses
import os
import random
import select
import time
import tty
from collections.abc import Callable

import pytest

from firmware_bridge import Blink, Capability, DeviceRejectedError, LedFrame, Link, disconnected_pattern, render
from firmware_bridge import protocol as p
from firmware_bridge.emulator import EmulatedDevice
from firmware_bridge.leds import DEFAULT_BRIGHTNESS, DEFAULT_PALETTE
from firmware_bridge.sim import SimulatedDevice

from .conftest import golden_messages

Opener = Callable[..., Link]
LEDS = 8


def steady(link: Link, frame: LedFrame, brightness: int = DEFAULT_BRIGHTNESS) -> tuple:
    return render(frame, link.info.palette, brightness, True, True)


def sample_frame(seed: int, leds: int = LEDS) -> LedFrame:
    rng = random.Random(seed)
    return LedFrame.from_lists([rng.randrange(len(DEFAULT_PALETTE)) for _ in range(leds)])


def test_handshake_announces_the_device(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS)
    assert link.info.protocol_version == p.PROTOCOL_VERSION
    assert link.info.led_count == LEDS
    assert link.info.palette == DEFAULT_PALETTE and len(link.info.palette) >= 8
    assert Capability.BLINK in link.info.capabilities and Capability.WATCHDOG in link.info.capabilities
    assert link.info.firmware_version[0] >= 1


def test_the_device_answers_the_golden_hello_with_the_golden_announcement(spec: str) -> None:
    golden = golden_messages()
    device = EmulatedDevice(leds=LEDS) if spec == "emu:" else SimulatedDevice(leds=LEDS)
    fd = os.open(device.port, os.O_RDWR | os.O_NOCTTY)
    try:
        tty.setraw(fd)
        os.write(fd, golden["hello.seq1"][2])
        wanted = golden["announce.8leds.seq1"][2]
        decoder = p.FrameDecoder()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                for message in decoder.feed(os.read(fd, 512)):
                    if message.type == p.MessageType.ANNOUNCE and message.sequence == 1:
                        assert p.encode(message) == wanted
                        return
        raise AssertionError("no announcement came back")
    finally:
        os.close(fd)
        device.close()


def test_a_frame_is_shown_before_it_is_acknowledged(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS)
    for seed in range(3):
        frame = sample_frame(seed)
        link.show(frame)
        assert link.device.colours() == steady(link, frame)


def test_brightness_scales_every_colour(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS)
    frame = LedFrame.from_lists([1, 2, 3, 4, 5, 6, 7, 8])
    link.show(frame)
    for level in (255, 10, 0):
        link.set_brightness(level)
        assert link.device.colours() == steady(link, frame, level)


def test_blink_modes_take_turns(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS)
    link.set_brightness(255)
    link.set_blink(slow_period_ms=400, fast_period_ms=100)
    frame = LedFrame.from_lists(
        [1, 2, 3, 4, 5, 0, 0, 6],
        [Blink.SLOW, Blink.SLOW_ALT, Blink.FAST, Blink.FAST_ALT, Blink.STEADY, 0, 0, Blink.STEADY],
    )
    link.show(frame)
    palette = link.info.palette
    for slow_on in (True, False, True):
        for fast_on in (True, False):
            wanted = render(frame, palette, 255, slow_on, fast_on)
            link.device.wait_for_colours(wanted, timeout_s=20)


def test_heartbeat_loss_shows_the_disconnected_pattern_and_a_frame_ends_it(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS, heartbeat_s=None)
    frame = LedFrame.from_lists([2] * LEDS)
    link.show(frame)
    pattern = disconnected_pattern(LEDS)
    lit = render(pattern, link.info.palette, DEFAULT_BRIGHTNESS, True, True)
    link.device.wait_for_colours(lit, timeout_s=30)
    link.device.wait_for(lambda _c: link.device_disconnected, timeout_s=30, what="the device reporting it")
    link.show(frame)
    assert link.device.colours() == steady(link, frame)


def test_the_host_heartbeat_keeps_the_frame(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS, heartbeat_s=0.5)
    frame = LedFrame.from_lists([3] * LEDS)
    link.show(frame)
    start = link.stats.device_heartbeats
    # four device seconds: longer than the device's 3 s watchdog
    link.device.wait_for(lambda _c: link.stats.device_heartbeats >= start + 4, timeout_s=30, what="4 heartbeats")
    assert link.device.colours() == steady(link, frame)
    assert not link.device_disconnected


def test_a_reset_mid_game_is_followed_by_a_new_handshake_and_the_frame_again(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS)
    link.set_brightness(200)
    frame = sample_frame(7)
    link.show(frame)
    wanted = steady(link, frame, 200)
    link.device.reset()
    link.device.wait_for(lambda _c: link.stats.handshakes >= 2, timeout_s=30, what="a new handshake")
    link.device.wait_for_colours(wanted, timeout_s=30)
    next_frame = sample_frame(8)
    link.show(next_frame)
    assert link.device.colours() == steady(link, next_frame, 200)


def test_garbage_on_the_line_is_dropped_without_harm(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS)
    frame = sample_frame(11)
    link.show(frame)
    rng = random.Random(5)
    fd = os.open(link.device.port, os.O_WRONLY | os.O_NOCTTY)
    try:
        garbage = bytes(rng.randrange(256) for _ in range(600))
        # garbage, a valid frame sent by hand, more garbage: only the valid one may change the LEDs
        by_hand = sample_frame(12)
        os.write(fd, garbage + b"\x00" + p.encode(p.frame_message(200, by_hand)) + garbage[:300] + b"\x00")
    finally:
        os.close(fd)
    link.device.wait_for_colours(steady(link, by_hand), timeout_s=20)
    link.show(frame)
    assert link.device.colours() == steady(link, frame)
    link.device.wait_for(lambda _c: link.stats.device_dropped > 0, timeout_s=20, what="the dropped count reported")


def test_frames_back_to_back(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS)
    for seed in range(40):
        frame = sample_frame(100 + seed)
        link.show(frame)
        assert link.device.colours() == steady(link, frame)


def test_the_largest_frame(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=256)
    assert link.info.led_count == 256
    frame = LedFrame.from_lists([(i % 11) + 1 for i in range(256)])
    link.set_brightness(255)
    link.show(frame)
    assert link.device.colours() == steady(link, frame, 255)
    link.show(LedFrame.off(256))
    assert link.device.colours() == ((0, 0, 0),) * 256


def test_a_frame_for_another_chain_length_is_refused(spec: str, open_link: Opener) -> None:
    link = open_link(spec, leds=LEDS)
    with pytest.raises(ValueError, match="the device has 8 LEDs"):
        link.show(LedFrame.off(LEDS + 1))
    link.info = dataclasses.replace(link.info, led_count=LEDS + 1)  # as if the host believed a stale announcement
    with pytest.raises(DeviceRejectedError, match="BAD_LENGTH"):
        link.show(LedFrame.off(LEDS + 1))
