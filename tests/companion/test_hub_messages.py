"""Where a board publishes (its URL) and what it says (the messages): parsed, refused, round-tripped, golden."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.broker_url import BrokerUrl, BrokerUrlError, parse_broker_url
from companion.hub_messages import (
    BoardState,
    JournalMessage,
    MessageError,
    ResendRequest,
    decode,
    encode,
    event_topics,
    journal_topic,
    resend_topic,
    state_topic,
)

GOLDEN = Path(__file__).parent / "golden" / "hub-messages.json"


def test_a_board_url_gives_host_port_event_and_board():
    assert parse_broker_url("mqtt://192.168.1.10/club-night/7") == BrokerUrl("192.168.1.10", 1883, "club-night", "7")
    assert parse_broker_url("mqtt://localhost:1884/ev_1/table-3") == BrokerUrl("localhost", 1884, "ev_1", "table-3")
    assert parse_broker_url("mqtt://hub.local/ev", board=False) == BrokerUrl("hub.local", 1883, "ev", "")
    assert str(parse_broker_url("mqtt://h:1/e/b")) == "mqtt://h:1/e/b"


@pytest.mark.parametrize(
    ("text", "board", "words"),
    [
        ("http://h/e/b", True, "not an MQTT address"),
        ("mqtt:///e/b", True, "names no broker host"),
        ("mqtt://h:99999/e/b", True, "port that is not one from 1 to 65535"),
        ("mqtt://h:x/e/b", True, "port that is not one"),
        ("mqtt://h:0/e/b", True, "port 0"),
        ("mqtt://h/e", True, "should end in /EVENT/BOARD"),
        ("mqtt://h/e/b", False, "should end in /EVENT"),
        ("mqtt://h/e/+", True, "must be 1 to 40 letters"),
        ("mqtt://h/e/#", True, "should end in /EVENT/BOARD"),
        ("mqtt://u:p@h/e/b", True, "parts an address of this form has not"),
        ("mqtt://h/" + "e" * 400, True, "characters long"),
    ],
)
def test_a_bad_url_is_refused_saying_the_form_to_write(text, board, words):
    with pytest.raises(BrokerUrlError, match=words) as raised:
        parse_broker_url(text, board=board)
    assert "\n" not in str(raised.value)


@given(st.text(max_size=80))
def test_any_text_is_a_url_or_a_broker_url_error(text):
    try:
        url = parse_broker_url(text)
    except BrokerUrlError:
        return
    assert parse_broker_url(str(url)) == url


def test_the_topics_of_an_event():
    assert state_topic("ev", "7") == "cascade/ev/7/state"
    assert journal_topic("ev", "7") == "cascade/ev/7/journal"
    assert resend_topic("ev", "7") == "cascade/ev/7/resend"
    assert event_topics("ev") == ("cascade/ev/+/state", "cascade/ev/+/journal")


SAMPLES = {
    "journal-start": (
        "cascade/ev/7/journal",
        JournalMessage(
            "7",
            "3@2026-05-01T19:00:00.000+00:00",
            1,
            "start",
            {"game": "cascade", "geometry": "diamond:8", "headers": {"White": "Ada"}, "started_at": "t"},
            "2026-05-01T19:00:00.000+00:00",
        ),
    ),
    "journal-ply": ("cascade/ev/7/journal", JournalMessage("7", "3@t", 2, "ply", {"number": 1, "ply": "o d5"}, "t")),
    "journal-correction": (
        "cascade/ev/7/journal",
        JournalMessage("7", "3@t", 5, "correction", {"number": 1, "ply": "o d4", "diagram": ""}, "t"),
    ),
    "journal-undo": ("cascade/ev/7/journal", JournalMessage("7", "3@t", 4, "undo", {"count": 1, "plies": 1}, "t")),
    "journal-result": ("cascade/ev/7/journal", JournalMessage("7", "3@t", 6, "result", {"result": "1-0"}, "t")),
    "state": (
        "cascade/ev/7/state",
        BoardState(
            "7",
            "3@t",
            "cascade",
            "diamond:2",
            4,
            "Ada",
            "Bo",
            ("o", ".", ".", "x"),
            (("White", 1), ("Black", 1)),
            "White to move",
            ("e6 should be black",),
            "e6 should be black",
            None,
            2,
            "",
            1777000000.5,
            (("2@s", 40), ("1@r", 33)),
        ),
    ),
    "resend": ("cascade/ev/7/resend", ResendRequest("7", "3@t", 4)),
}


def test_every_message_is_the_golden_bytes_and_reads_back():
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(golden) == sorted(SAMPLES)
    for name, (topic, message) in SAMPLES.items():
        assert json.loads(encode(message)) == golden[name], name
        assert decode(topic, encode(message)) == message


@given(st.binary(max_size=300), st.sampled_from(["state", "journal", "resend", "other"]))
def test_any_bytes_are_a_message_or_a_message_error(payload, kind):
    with contextlib.suppress(MessageError):
        decode(f"cascade/ev/7/{kind}", payload)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
        max_leaves=12,
    ),
    st.sampled_from(["state", "journal", "resend"]),
)
def test_any_json_is_a_message_or_a_message_error(value, kind):
    for data in (value, {"v": 1, **value} if isinstance(value, dict) else value):
        with contextlib.suppress(MessageError):
            decode(f"cascade/ev/7/{kind}", json.dumps(data).encode())
