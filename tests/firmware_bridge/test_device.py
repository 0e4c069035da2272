"""The device model (what the firmware does), with its clock in the test's hands."""

from __future__ import annotations

from firmware_bridge import Blink, LedFrame, disconnected_pattern, render
from firmware_bridge import protocol as p
from firmware_bridge.device import HEARTBEAT_TIMEOUT_S, DeviceModel
from firmware_bridge.leds import DEFAULT_BRIGHTNESS


def answers(data: bytes) -> list[p.Message]:
    return p.FrameDecoder().feed(data)


def test_boot_announces_with_sequence_zero() -> None:
    device = DeviceModel(16)
    (announce,) = answers(device.boot(0.0))
    assert announce.type == p.MessageType.ANNOUNCE and announce.sequence == p.BOOT_SEQUENCE
    assert p.parse_announce(announce.payload).led_count == 16


def test_a_frame_is_acknowledged_with_its_sequence() -> None:
    device = DeviceModel(4)
    device.boot(0.0)
    frame = LedFrame.from_lists([1, 2, 0, 3], [Blink.STEADY, Blink.FAST, 0, 0])
    (ack,) = answers(device.receive(p.encode(p.frame_message(42, frame)), 0.1))
    assert (ack.type, ack.sequence, ack.payload) == (p.MessageType.ACK, 42, bytes([p.MessageType.FRAME]))
    assert device.frame == frame


def test_bad_messages_are_refused_with_the_right_code() -> None:
    device = DeviceModel(4)
    device.boot(0.0)
    cases = [
        (p.Message(p.MessageType.FRAME, 1, bytes(3)), p.ErrorCode.BAD_LENGTH),
        (p.Message(p.MessageType.FRAME, 2, bytes([1, 2, 3, 12])), p.ErrorCode.BAD_VALUE),  # past the palette
        (p.Message(p.MessageType.FRAME, 3, bytes([0x51, 0, 0, 0])), p.ErrorCode.BAD_VALUE),  # blink mode 5
        (p.Message(p.MessageType.BRIGHTNESS, 4, b""), p.ErrorCode.BAD_LENGTH),
        (p.Message(p.MessageType.BLINK, 5, bytes([0, 5, 0, 100])), p.ErrorCode.BAD_VALUE),
        (p.Message(0x42, 6, b""), p.ErrorCode.UNKNOWN_TYPE),
    ]
    for message, code in cases:
        (error,) = answers(device.receive(p.encode(message), 0.1))
        assert error.type == p.MessageType.ERROR and error.sequence == message.sequence
        assert p.parse_error(error.payload) == (code, message.type)
    assert device.frame == LedFrame.off(4)


def test_the_watchdog_trips_after_the_timeout_and_any_message_clears_it() -> None:
    device = DeviceModel(8)
    device.boot(0.0)
    device.receive(p.encode(p.frame_message(1, LedFrame.from_lists([2] * 8))), 1.0)
    device.tick(1.0 + HEARTBEAT_TIMEOUT_S - 0.01)
    assert not device.disconnected
    device.tick(1.0 + HEARTBEAT_TIMEOUT_S)
    assert device.disconnected
    assert device.shown_frame() == disconnected_pattern(8)
    statuses = [p.parse_device_heartbeat(m.payload) for m in answers(device.tick(6.0))]
    assert statuses == [p.DeviceStatus(True, 0)]
    device.receive(p.encode(p.heartbeat(0)), 5.0)
    assert not device.disconnected and device.shown_frame().colours == (2,) * 8


def test_hello_starts_a_new_session_with_the_leds_off() -> None:
    device = DeviceModel(4)
    device.boot(0.0)
    device.receive(p.encode(p.frame_message(1, LedFrame.from_lists([1] * 4))), 0.1)
    (announce,) = answers(device.receive(p.encode(p.hello(9)), 0.2))
    assert announce.sequence == 9 and device.frame == LedFrame.off(4)


def test_blink_phases_follow_the_device_clock() -> None:
    device = DeviceModel(2)
    device.boot(0.0)
    frame = LedFrame.from_lists([1, 1], [Blink.SLOW, Blink.SLOW_ALT])
    device.receive(p.encode(p.frame_message(1, frame)), 0.0)
    lit = render(frame, device.info.palette, DEFAULT_BRIGHTNESS, True, True)
    dark = render(frame, device.info.palette, DEFAULT_BRIGHTNESS, False, True)
    assert device.colours_at(0.1) == lit
    assert device.colours_at(0.6) == dark
    assert device.next_event_s(0.1) == 0.5


def test_garbage_is_counted_and_reported() -> None:
    device = DeviceModel(2)
    device.boot(0.0)
    assert device.receive(b"\x13\x37garbage\x00\x05\x00", 0.1) == b""
    (beat,) = answers(device.tick(1.0))
    assert p.parse_device_heartbeat(beat.payload).dropped == 2


def test_a_single_colour_palette_is_announced_without_full_colour() -> None:
    from firmware_bridge import Capability

    assert Capability.RGB in DeviceModel(4).info.capabilities
    mono = DeviceModel(4, palette=((0, 0, 0), (255, 255, 255), (60, 60, 60))).info.capabilities
    assert Capability.RGB not in mono and Capability.BLINK in mono
