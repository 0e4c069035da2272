"""The LED controller's behaviour, in pure Python: bytes and a clock in, bytes out.

This is the model the firmware implements in C and the ``emu:`` emulator runs
over a pseudo-terminal. Times are seconds of the device's own clock, passed
in by the caller, so the model is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_bridge import protocol as p
from firmware_bridge.errors import ProtocolError
from firmware_bridge.leds import (
    DEFAULT_BRIGHTNESS,
    DEFAULT_PALETTE,
    RGB,
    Blink,
    BlinkTiming,
    Capability,
    DeviceInfo,
    LedFrame,
    disconnected_pattern,
    phases,
    render,
)

FIRMWARE_VERSION = (1, 0, 0)
HEARTBEAT_INTERVAL_S = 1.0
HEARTBEAT_TIMEOUT_S = 3.0
CAPABILITIES = Capability.BLINK | Capability.BRIGHTNESS | Capability.WATCHDOG


def capabilities_of(palette: Sequence[RGB]) -> Capability:
    """What a device with this palette announces: full colour only if some colour is not a grey."""
    full_colour = any(len(set(rgb)) > 1 for rgb in palette)
    return CAPABILITIES | (Capability.RGB if full_colour else Capability.NONE)


class DeviceModel:
    """One LED controller: its LED state, blink clock and heartbeat watchdog."""

    def __init__(self, led_count: int = 64, palette: Sequence[RGB] = DEFAULT_PALETTE) -> None:
        self.info = DeviceInfo(
            p.PROTOCOL_VERSION, FIRMWARE_VERSION, led_count, tuple(palette), capabilities_of(palette)
        )
        self._power_on()

    def _power_on(self) -> None:
        led_count = self.info.led_count
        self.decoder = p.FrameDecoder()
        self.frame = LedFrame.off(led_count)
        self.brightness = DEFAULT_BRIGHTNESS
        self.timing = BlinkTiming()
        self.disconnected = False
        self.last_heard_s = 0.0
        self.next_heartbeat_s = 0.0
        self.own_sequence = 0

    def boot(self, now_s: float) -> bytes:
        """Power-on: all LEDs off, settings at their defaults; returns the announcement."""
        self._power_on()
        self.last_heard_s = now_s
        self.next_heartbeat_s = now_s + HEARTBEAT_INTERVAL_S
        return p.encode(p.announce_message(p.BOOT_SEQUENCE, self.info))

    def receive(self, data: bytes, now_s: float) -> bytes:
        """Bytes from the host; returns the answers (the caller updates the LEDs before sending them)."""
        out = bytearray()
        for message in self.decoder.feed(data):
            out += self._handle(message, now_s)
        return bytes(out)

    def tick(self, now_s: float) -> bytes:
        """Time passes: the watchdog may trip and a heartbeat may be due."""
        if not self.disconnected and now_s - self.last_heard_s >= HEARTBEAT_TIMEOUT_S:
            self.disconnected = True
        if now_s >= self.next_heartbeat_s:
            self.next_heartbeat_s = now_s + HEARTBEAT_INTERVAL_S
            self.own_sequence = (self.own_sequence + 1) & 0xFF
            status = p.DeviceStatus(self.disconnected, self.decoder.dropped & 0xFFFF)
            return p.encode(p.device_heartbeat(self.own_sequence, status))
        return b""

    def next_event_s(self, now_s: float) -> float:
        """When :meth:`tick` next has something to do, or the blink phase next changes."""
        events = [self.next_heartbeat_s]
        if not self.disconnected:
            events.append(self.last_heard_s + HEARTBEAT_TIMEOUT_S)
        blinks = set(self.shown_frame().blinks)
        now_ms = now_s * 1000.0
        for period, modes in (
            (self.timing.slow_period_ms, {Blink.SLOW, Blink.SLOW_ALT}),
            (self.timing.fast_period_ms, {Blink.FAST, Blink.FAST_ALT}),
        ):
            if blinks & modes:
                half = period / 2
                events.append((now_ms // half + 1) * half / 1000.0)
        return max(now_s, min(events))

    def shown_frame(self) -> LedFrame:
        """The frame in effect: the host's, or the disconnected pattern."""
        return disconnected_pattern(self.info.led_count) if self.disconnected else self.frame

    def colours_at(self, now_s: float) -> tuple[RGB, ...]:
        """What the LEDs show at a time of the device clock, blink applied."""
        slow_on, fast_on = phases(now_s * 1000.0, self.timing)
        return render(self.shown_frame(), self.info.palette, self.brightness, slow_on, fast_on)

    def _handle(self, message: p.Message, now_s: float) -> bytes:
        kind = message.type
        if kind & 0x80:
            return b""  # a device's message echoed back: not for us
        self.last_heard_s = now_s
        self.disconnected = False
        try:
            if kind == p.MessageType.HEARTBEAT:
                return b""
            if kind == p.MessageType.HELLO:
                self.frame = LedFrame.off(self.info.led_count)
                return p.encode(p.announce_message(message.sequence, self.info))
            if kind == p.MessageType.FRAME:
                if len(message.payload) != self.info.led_count:
                    return self._refuse(message, p.ErrorCode.BAD_LENGTH)
                frame = p.parse_frame(message.payload)
                if max(frame.colours) >= len(self.info.palette):
                    return self._refuse(message, p.ErrorCode.BAD_VALUE)
                self.frame = frame
            elif kind == p.MessageType.BRIGHTNESS:
                if len(message.payload) != 1:
                    return self._refuse(message, p.ErrorCode.BAD_LENGTH)
                self.brightness = message.payload[0]
            elif kind == p.MessageType.BLINK:
                if len(message.payload) != 4:
                    return self._refuse(message, p.ErrorCode.BAD_LENGTH)
                self.timing = p.parse_blink(message.payload)
            else:
                return self._refuse(message, p.ErrorCode.UNKNOWN_TYPE)
        except ProtocolError:
            return self._refuse(message, p.ErrorCode.BAD_VALUE)
        return p.encode(p.ack_message(message.sequence, kind))

    @staticmethod
    def _refuse(message: p.Message, code: p.ErrorCode) -> bytes:
        return p.encode(p.error_message(message.sequence, message.type, code))
