"""The link to an MQTT broker: the one module that talks MQTT, through paho-mqtt.

:class:`MqttLink` keeps one connection to a broker in the background and
never makes its caller wait: it connects, reconnects after a lost
connection (every :data:`RECONNECT_MAX_S` at most), publishes with QoS 1 and
reports each acknowledgement, and hands on the messages of its subscriptions.
Its session is persistent (a fixed client id, ``clean_session`` off), so the
broker keeps what it owes the link while the link is away; subscriptions are
made again on every connection, in case the broker forgot them (a broker
restarted without its persistence file).

:class:`Link` is what the publisher and the hub need of a link;
:mod:`companion.mqtt_sim` has an in-process broker whose links behave the
same, for tests and for trying things without a broker.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

KEEPALIVE_S = 5
RECONNECT_MIN_S = 0.25
RECONNECT_MAX_S = 2.0
MAX_INFLIGHT = 64


class Link(Protocol):
    """A connection to a broker kept in the background (see the module docstring)."""

    on_connect: Callable[[], None] | None
    on_disconnect: Callable[[str], None] | None
    on_message: Callable[[str, bytes], None] | None
    on_ack: Callable[[int], None] | None

    @property
    def connected(self) -> bool:
        """True while the broker has accepted the connection."""

    def start(self) -> None:
        """Connect in the background and keep reconnecting until closed."""

    def subscribe(self, topics: Sequence[str]) -> None:
        """Subscribe (QoS 1) now and on every later connection."""

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> int:
        """Queue a QoS 1 message (sent now or once connected); returns its id, later given to ``on_ack``."""

    def close(self) -> None:
        """Disconnect and stop the background thread."""


class MqttLink:
    """A :class:`Link` through paho-mqtt (see the module docstring)."""

    def __init__(self, host: str, port: int, client_id: str, keepalive_s: int = KEEPALIVE_S) -> None:
        import paho.mqtt.client as mqtt

        self.host = host
        self.port = port
        self.on_connect: Callable[[], None] | None = None
        self.on_disconnect: Callable[[str], None] | None = None
        self.on_message: Callable[[str, bytes], None] | None = None
        self.on_ack: Callable[[int], None] | None = None
        self._topics: list[str] = []
        self._connected = threading.Event()
        self._keepalive_s = keepalive_s
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False, protocol=mqtt.MQTTv311
        )
        client.max_inflight_messages_set(MAX_INFLIGHT)
        client.max_queued_messages_set(0)
        client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)  # type: ignore[arg-type]
        client.on_connect = self._connected_cb
        client.on_disconnect = self._disconnected_cb
        client.on_connect_fail = self._failed_cb
        client.on_message = self._message_cb
        client.on_publish = self._published_cb
        self._client = client

    @property
    def connected(self) -> bool:
        """True while the broker has accepted the connection."""
        return self._connected.is_set()

    def start(self) -> None:
        """Connect in the background (a broker not there yet is tried again and again)."""
        self._client.connect_async(self.host, self.port, keepalive=self._keepalive_s)
        self._client.loop_start()

    def subscribe(self, topics: Sequence[str]) -> None:
        """Subscribe with QoS 1 now (when connected) and after every reconnection."""
        self._topics = list(topics)
        if self.connected:
            self._client.subscribe([(topic, 1) for topic in self._topics])

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> int:
        """Queue a QoS 1 message; paho sends it now or after the next connection."""
        return int(self._client.publish(topic, payload, qos=1, retain=retain).mid)

    def close(self) -> None:
        """Disconnect cleanly and stop paho's thread."""
        self._client.disconnect()
        self._client.loop_stop()
        self._connected.clear()

    def wait_connected(self, timeout_s: float) -> bool:
        """Wait until the broker accepts the connection; False after ``timeout_s``."""
        return self._connected.wait(timeout_s)

    # -- paho's callbacks (on paho's thread) ---------------------------------------------------

    def _connected_cb(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            if self.on_disconnect is not None:
                self.on_disconnect(f"the broker refused the connection ({reason})")
            return
        self._connected.set()
        if self._topics:
            client.subscribe([(topic, 1) for topic in self._topics])
        if self.on_connect is not None:
            self.on_connect()

    def _disconnected_cb(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self._connected.clear()
        if self.on_disconnect is not None:
            self.on_disconnect(f"the connection was lost ({reason})")

    def _failed_cb(self, client: Any, userdata: Any) -> None:
        self._connected.clear()
        if self.on_disconnect is not None:
            self.on_disconnect("the broker cannot be reached")

    def _message_cb(self, client: Any, userdata: Any, message: Any) -> None:
        if self.on_message is not None:
            self.on_message(str(message.topic), bytes(message.payload))

    def _published_cb(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        if self.on_ack is not None:
            self.on_ack(int(mid))
