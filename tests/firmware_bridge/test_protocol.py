"""The wire protocol: golden bytes, round trips, and a fuzz of the decoder."""

from __future__ import annotations

import contextlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import Blink, BlinkTiming, LedFrame, ProtocolError
from firmware_bridge import protocol as p
from firmware_bridge.device import DeviceModel

from .conftest import GOLDEN as GOLDEN_PATH
from .conftest import golden_messages

GOLDEN = golden_messages()


def built(name: str) -> p.Message:
    """The message each golden line holds, built with the public functions."""
    info8, info64, info256 = DeviceModel(8).info, DeviceModel(64).info, DeviceModel(256).info
    return {
        "hello.seq1": p.hello(1),
        "frame.8leds.seq2": p.frame_message(
            2, LedFrame.from_lists([1, 2, 3, 4, 5, 0, 0, 11], [0, 1, 2, 3, 4, 0, 0, 1])
        ),
        "frame.8leds.off.seq3": p.frame_message(3, LedFrame.off(8)),
        "frame.256leds.seq4": p.frame_message(
            4, LedFrame.from_lists([(i % 11) + 1 for i in range(256)], [i % 5 for i in range(256)])
        ),
        "brightness.128.seq5": p.brightness_message(5, 128),
        "blink.1000.250.seq6": p.blink_message(6, BlinkTiming(1000, 250)),
        "heartbeat.seq0": p.heartbeat(0),
        "announce.8leds.boot": p.announce_message(0, info8),
        "announce.8leds.seq1": p.announce_message(1, info8),
        "announce.64leds.seq1": p.announce_message(1, info64),
        "announce.256leds.seq1": p.announce_message(1, info256),
        "ack.frame.seq2": p.ack_message(2, p.MessageType.FRAME),
        "ack.brightness.seq5": p.ack_message(5, p.MessageType.BRIGHTNESS),
        "error.bad-length.frame.seq7": p.error_message(7, p.MessageType.FRAME, p.ErrorCode.BAD_LENGTH),
        "error.unknown-type.seq8": p.error_message(8, 0x42, p.ErrorCode.UNKNOWN_TYPE),
        "device-heartbeat.seq1": p.device_heartbeat(1, p.DeviceStatus(False, 0)),
        "device-heartbeat.disconnected.seq2": p.device_heartbeat(2, p.DeviceStatus(True, 3)),
    }[name]


def test_the_crc_is_ccitt_false() -> None:
    assert p.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_bytes_match_what_the_host_builds(name: str) -> None:
    _, raw, wire = GOLDEN[name]
    message = built(name)
    assert p.encode(message) == wire
    assert p.cobs_decode(wire[:-1]) == raw
    assert p.decode(wire[:-1]) == message


def test_golden_file_covers_every_message_type() -> None:
    types = {p.decode(wire[:-1]).type for _, _, wire in GOLDEN.values()}
    assert types == {int(t) for t in p.MessageType}


def test_golden_largest_frame_is_within_the_maximum() -> None:
    _, raw, wire = GOLDEN["frame.256leds.seq4"]
    assert len(raw) == p.MAX_MESSAGE
    assert len(wire) - 1 <= p.MAX_ENCODED


def test_announce_and_frame_payloads_read_back() -> None:
    info = p.parse_announce(p.decode(GOLDEN["announce.64leds.seq1"][2][:-1]).payload)
    assert info == DeviceModel(64).info
    frame = p.parse_frame(p.decode(GOLDEN["frame.8leds.seq2"][2][:-1]).payload)
    assert frame.blinks[4] == Blink.FAST_ALT and frame.colours[7] == 11


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_a_zero(data: bytes) -> None:
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert p.cobs_decode(encoded) == data


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=p.MAX_PAYLOAD))
def test_messages_round_trip(kind: int, sequence: int, payload: bytes) -> None:
    message = p.Message(kind, sequence, payload)
    wire = p.encode(message)
    assert wire.count(0) == 1 and wire.endswith(b"\x00")
    assert p.decode(wire[:-1]) == message


@given(
    st.lists(st.tuples(st.integers(0, 255), st.binary(max_size=40)), max_size=5),
    st.binary(max_size=200),
)
def test_the_stream_decoder_recovers_after_garbage(messages: list[tuple[int, bytes]], garbage: bytes) -> None:
    decoder = p.FrameDecoder()
    decoder.feed(garbage)
    wanted = [p.Message(p.MessageType.FRAME, seq, payload) for seq, payload in messages]
    stream = b"\x00" + b"".join(p.encode(m) for m in wanted)
    got = []
    for i in range(0, len(stream), 7):  # arrives in pieces
        got += decoder.feed(stream[i : i + 7])
    assert got == wanted


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.binary(max_size=300), min_size=100, max_size=100))
def test_decoder_fuzz_raises_only_protocol_errors(frames: list[bytes]) -> None:
    """1,000 examples of 100 frames each: 100,000 decoder inputs."""
    for frame in frames:
        try:
            message = p.decode(frame)
        except ProtocolError:
            continue
        assert p.encode(message)[:-1] == frame or p.decode(p.encode(message)[:-1]) == message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_stream_decoder_fuzz_never_raises(data: bytes) -> None:
    decoder = p.FrameDecoder()
    for message in decoder.feed(data):
        assert isinstance(message, p.Message)


@given(st.binary(min_size=1, max_size=300))
def test_payload_parsers_raise_only_protocol_errors(payload: bytes) -> None:
    for parse in (p.parse_announce, p.parse_frame, p.parse_blink, p.parse_device_heartbeat, p.parse_error):
        with contextlib.suppress(ProtocolError):
            parse(payload)


def test_a_corrupted_byte_is_caught_by_the_crc() -> None:
    wire = p.encode(p.brightness_message(9, 200))
    for i in range(len(wire) - 1):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(wire[:-1])
            bad[i] ^= flip
            if 0 in bad:
                continue
            with pytest.raises(ProtocolError):
                p.decode(bytes(bad))


def test_an_overlong_frame_is_dropped_and_the_next_one_read() -> None:
    decoder = p.FrameDecoder()
    got = decoder.feed(b"\x01" * 1000 + b"\x00" + p.encode(p.hello(3)))
    assert got == [p.hello(3)] and decoder.dropped == 1


def test_bad_values_are_refused_when_building() -> None:
    with pytest.raises(ValueError):
        p.brightness_message(1, 256)
    with pytest.raises(ValueError):
        BlinkTiming(10, 250)
    with pytest.raises(ValueError):
        LedFrame.from_lists([16])
    with pytest.raises(ValueError):
        LedFrame.from_lists([1] * 257)


def test_protocol_md_quotes_the_golden_file_exactly() -> None:
    text = (GOLDEN_PATH.parent.parent / "PROTOCOL.md").read_text()
    quoted = re.findall(
        r"^ {4}(\S+)  \((host|device)\)\n {6}message: ([0-9a-f ]+)\n {6}wire: +([0-9a-f ]+)$", text, re.M
    )
    assert len(quoted) >= 10
    for name, direction, raw, wire in quoted:
        assert GOLDEN[name] == (direction, bytes.fromhex(raw), bytes.fromhex(wire)), name
