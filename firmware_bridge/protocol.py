"""The wire protocol between the host and the LED controller: bytes in, bytes out.

A message is ``type (1) | sequence (1) | payload | CRC-16/CCITT-FALSE (2, big-endian)``,
COBS-encoded and followed by a zero byte. Extra zero bytes between frames are
allowed and ignored, so a sender may start with one to cut off any garbage.
PROTOCOL.md beside this file describes every message; ``golden/messages.golden``
holds byte-exact examples read by both the Python and the firmware tests.

Nothing here touches a port: :class:`FrameDecoder` turns a byte stream into
messages, :func:`encode` turns a message into bytes.
"""

from __future__ import annotations

import binascii
import enum
import struct
from collections.abc import Iterable
from dataclasses import dataclass

from firmware_bridge.errors import ProtocolError
from firmware_bridge.leds import (
    MAX_LEDS,
    MAX_PALETTE,
    MAX_PERIOD_MS,
    MIN_PERIOD_MS,
    Blink,
    BlinkTiming,
    Capability,
    DeviceInfo,
    LedFrame,
)

PROTOCOL_VERSION = 1
BAUD_RATE = 115200
MAX_PAYLOAD = MAX_LEDS
MAX_MESSAGE = 2 + MAX_PAYLOAD + 2  # type, sequence, payload, CRC
MAX_ENCODED = MAX_MESSAGE + (MAX_MESSAGE + 253) // 254  # COBS overhead, without the delimiter
BOOT_SEQUENCE = 0  # the device's own announcement on boot; the host never uses 0


class MessageType(enum.IntEnum):
    """Message types; the high bit is set on messages from the device."""

    HELLO = 0x01
    FRAME = 0x02
    BRIGHTNESS = 0x03
    BLINK = 0x04
    HEARTBEAT = 0x05
    ANNOUNCE = 0x81
    ACK = 0x82
    ERROR = 0x83
    DEVICE_HEARTBEAT = 0x85


class ErrorCode(enum.IntEnum):
    """Why the device refused a well-formed message."""

    UNKNOWN_TYPE = 1
    BAD_LENGTH = 2
    BAD_VALUE = 3


@dataclass(frozen=True)
class Message:
    """One decoded message: its type byte, sequence number and payload."""

    type: int
    sequence: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.type <= 0xFF or not 0 <= self.sequence <= 0xFF:
            raise ProtocolError(f"type and sequence are single bytes, got {self.type} and {self.sequence}")
        if len(self.payload) > MAX_PAYLOAD:
            raise ProtocolError(f"a payload holds at most {MAX_PAYLOAD} bytes, not {len(self.payload)}")


@dataclass(frozen=True)
class DeviceStatus:
    """The device's heartbeat: whether it shows the disconnected pattern, and how many frames it dropped."""

    disconnected: bool
    dropped: int


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF)."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the same bytes without any zero, one byte longer per 254."""
    out = bytearray()
    for part in data.split(b"\x00"):
        while len(part) >= 254:
            out.append(0xFF)
            out += part[:254]
            part = part[254:]
        out.append(len(part) + 1)
        out += part
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`; raises :class:`ProtocolError` on anything it could not have produced."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("a zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise ProtocolError("a COBS block runs past the end of the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise ProtocolError("a zero byte inside a COBS frame")
        out += block
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode(message: Message) -> bytes:
    """The bytes on the wire for one message, delimiter included."""
    body = bytes((message.type, message.sequence)) + message.payload
    return cobs_encode(body + crc16(body).to_bytes(2, "big")) + b"\x00"


def decode(frame: bytes) -> Message:
    """One message from the bytes between two delimiters (without them)."""
    if len(frame) > MAX_ENCODED:
        raise ProtocolError(f"a frame of {len(frame)} bytes is longer than the maximum {MAX_ENCODED}")
    raw = cobs_decode(frame)
    if len(raw) < 4:
        raise ProtocolError(f"a message needs at least 4 bytes, got {len(raw)}")
    body, check = raw[:-2], int.from_bytes(raw[-2:], "big")
    if crc16(body) != check:
        raise ProtocolError(f"CRC mismatch: computed {crc16(body):04x}, received {check:04x}")
    return Message(body[0], body[1], bytes(body[2:]))


class FrameDecoder:
    """Turns a byte stream into messages; never raises: bad frames are counted in ``dropped`` and skipped."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False
        self.dropped = 0
        self.received = 0

    def feed(self, data: Iterable[int] | bytes) -> list[Message]:
        """Add bytes; return the messages they completed."""
        messages: list[Message] = []
        chunk = bytes(data)
        parts = chunk.split(b"\x00")
        for index, part in enumerate(parts):
            if not self._overflow:
                self._buffer += part
                if len(self._buffer) > MAX_ENCODED:
                    self._overflow = True
                    self._buffer.clear()
            if index == len(parts) - 1:
                break  # no delimiter after the last part yet
            if self._overflow:
                self.dropped += 1
            elif self._buffer:
                try:
                    messages.append(decode(bytes(self._buffer)))
                    self.received += 1
                except ProtocolError:
                    self.dropped += 1
            self._buffer.clear()
            self._overflow = False
        return messages


# -- building and reading each message ---------------------------------------------------------


def hello(sequence: int) -> Message:
    """Ask the device to announce itself; it also turns all LEDs off (a new session)."""
    return Message(MessageType.HELLO, sequence, bytes((PROTOCOL_VERSION,)))


def frame_payload(frame: LedFrame) -> bytes:
    """One byte per LED: the palette index in the low nibble, the blink mode in bits 4..6."""
    return bytes(colour | (int(blink) << 4) for colour, blink in zip(frame.colours, frame.blinks, strict=True))


def parse_frame(payload: bytes) -> LedFrame:
    """The frame in a FRAME payload."""
    if not 1 <= len(payload) <= MAX_LEDS:
        raise ProtocolError(f"a frame holds 1..{MAX_LEDS} LEDs, not {len(payload)}")
    colours = []
    blinks = []
    for i, byte in enumerate(payload):
        mode = byte >> 4
        if mode > max(Blink) or byte & 0x80:
            raise ProtocolError(f"LED {i}: blink mode {mode} is unknown")
        colours.append(byte & 0x0F)
        blinks.append(Blink(mode))
    return LedFrame(tuple(colours), tuple(blinks))


def frame_message(sequence: int, frame: LedFrame) -> Message:
    """The whole LED state."""
    return Message(MessageType.FRAME, sequence, frame_payload(frame))


def brightness_message(sequence: int, level: int) -> Message:
    """Brightness 0..255 for every colour."""
    if not 0 <= level <= 255:
        raise ValueError(f"brightness is 0..255, not {level}")
    return Message(MessageType.BRIGHTNESS, sequence, bytes((level,)))


def blink_message(sequence: int, timing: BlinkTiming) -> Message:
    """The slow and fast blink periods."""
    return Message(MessageType.BLINK, sequence, struct.pack(">HH", timing.slow_period_ms, timing.fast_period_ms))


def parse_blink(payload: bytes) -> BlinkTiming:
    """The blink periods in a BLINK payload."""
    if len(payload) != 4:
        raise ProtocolError(f"a blink message has 4 bytes of payload, not {len(payload)}")
    slow, fast = struct.unpack(">HH", payload)
    for value in (slow, fast):
        if not MIN_PERIOD_MS <= value <= MAX_PERIOD_MS:
            raise ProtocolError(f"blink period {value} ms is outside {MIN_PERIOD_MS}..{MAX_PERIOD_MS}")
    return BlinkTiming(slow, fast)


def heartbeat(sequence: int) -> Message:
    """The host is alive."""
    return Message(MessageType.HEARTBEAT, sequence)


def announce_message(sequence: int, info: DeviceInfo) -> Message:
    """The device's announcement."""
    major, minor, patch = info.firmware_version
    head = struct.pack(
        ">BBBBHBB",
        info.protocol_version,
        major,
        minor,
        patch,
        info.led_count,
        int(info.capabilities),
        len(info.palette),
    )
    return Message(MessageType.ANNOUNCE, sequence, head + b"".join(bytes(rgb) for rgb in info.palette))


def parse_announce(payload: bytes) -> DeviceInfo:
    """The device's identity from an ANNOUNCE payload."""
    if len(payload) < 8:
        raise ProtocolError(f"an announcement has at least 8 bytes of payload, not {len(payload)}")
    version, major, minor, patch, leds, caps, count = struct.unpack(">BBBBHBB", payload[:8])
    if len(payload) != 8 + 3 * count:
        raise ProtocolError(f"an announcement of {count} colours needs {8 + 3 * count} bytes, not {len(payload)}")
    if not 1 <= leds <= MAX_LEDS or not 1 <= count <= MAX_PALETTE:
        raise ProtocolError(f"an announcement of {leds} LEDs and {count} colours is out of range")
    colours = payload[8:]
    palette = tuple((colours[i], colours[i + 1], colours[i + 2]) for i in range(0, len(colours), 3))
    return DeviceInfo(version, (major, minor, patch), leds, palette, Capability(caps & 0xFF))


def ack_message(sequence: int, acked_type: int) -> Message:
    """The LEDs now show the message with this sequence number."""
    return Message(MessageType.ACK, sequence, bytes((acked_type,)))


def error_message(sequence: int, refused_type: int, code: ErrorCode) -> Message:
    """The message with this sequence number was refused."""
    return Message(MessageType.ERROR, sequence, bytes((int(code), refused_type)))


def parse_error(payload: bytes) -> tuple[ErrorCode | int, int]:
    """(error code, refused type) from an ERROR payload."""
    if len(payload) != 2:
        raise ProtocolError(f"an error message has 2 bytes of payload, not {len(payload)}")
    code = payload[0]
    try:
        return ErrorCode(code), payload[1]
    except ValueError:
        return code, payload[1]


def device_heartbeat(sequence: int, status: DeviceStatus) -> Message:
    """The device is alive; its status."""
    return Message(MessageType.DEVICE_HEARTBEAT, sequence, struct.pack(">BH", int(status.disconnected), status.dropped))


def parse_device_heartbeat(payload: bytes) -> DeviceStatus:
    """The status in a device heartbeat."""
    if len(payload) != 3:
        raise ProtocolError(f"a device heartbeat has 3 bytes of payload, not {len(payload)}")
    flags, dropped = struct.unpack(">BH", payload)
    return DeviceStatus(bool(flags & 1), dropped)
