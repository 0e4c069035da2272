"""An MQTT broker in the process, for tests and for trying a hub without one: the simulator of the broker link.

:class:`MemoryBroker` keeps retained messages and subscriptions (with ``+``
wildcards) and delivers every message on one thread of its own, in the
order it was published. Its links (:meth:`MemoryBroker.link`) behave as
:class:`companion.mqtt_link.MqttLink` does: QoS 1 messages published while
the link is down wait in the link and go once it is up again, each is
acknowledged when the broker has it, and subscriptions are made again on
every connection. :meth:`MemoryLink.cut` takes a link down (a cable pulled)
and :meth:`MemoryLink.mend` brings it back.
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable, Sequence


def matches(pattern: str, topic: str) -> bool:
    """True when ``topic`` matches a subscription ``pattern`` (``+``: one level; ``#`` last: the rest)."""
    want, have = pattern.split("/"), topic.split("/")
    for index, level in enumerate(want):
        if level == "#":
            return True
        if index >= len(have) or (level != "+" and level != have[index]):
            return False
    return len(want) == len(have)


class MemoryBroker:
    """The in-process broker (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._retained: dict[str, bytes] = {}
        self._links: list[MemoryLink] = []
        self._queue: queue.Queue[tuple[MemoryLink, str, bytes] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._deliver, name="memory-broker", daemon=True)
        self._thread.start()
        self.delivered = 0

    def link(self, client_id: str = "") -> MemoryLink:
        """A new link to this broker (started with :meth:`MemoryLink.start`)."""
        link = MemoryLink(self, client_id)
        with self._lock:
            self._links.append(link)
        return link

    def retained(self, topic: str) -> bytes | None:
        """The retained message of a topic, if any."""
        with self._lock:
            return self._retained.get(topic)

    def accept(self, link: MemoryLink, topic: str, payload: bytes, retain: bool) -> None:
        """A message from a link: keep it if retained, deliver it to every matching subscriber."""
        with self._lock:
            if retain:
                self._retained[topic] = payload
            targets = [other for other in self._links if other.connected and other.wants(topic)]
        for target in targets:
            self._queue.put((target, topic, payload))

    def subscribed(self, link: MemoryLink, patterns: Sequence[str]) -> None:
        """A link subscribed: send it the retained messages its patterns match."""
        with self._lock:
            found = [(t, p) for t, p in self._retained.items() if any(matches(pat, t) for pat in patterns)]
        for topic, payload in found:
            self._queue.put((link, topic, payload))

    def close(self) -> None:
        """Stop delivering."""
        self._queue.put(None)
        self._thread.join(timeout=5.0)

    def _deliver(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            link, topic, payload = item
            if link.connected and link.on_message is not None:
                link.on_message(topic, payload)
                self.delivered += 1


class MemoryLink:
    """A link to a :class:`MemoryBroker` (see the module docstring)."""

    def __init__(self, broker: MemoryBroker, client_id: str) -> None:
        self.broker = broker
        self.client_id = client_id
        self.on_connect: Callable[[], None] | None = None
        self.on_disconnect: Callable[[str], None] | None = None
        self.on_message: Callable[[str, bytes], None] | None = None
        self.on_ack: Callable[[int], None] | None = None
        self._lock = threading.Lock()
        self._up = False
        self._started = False
        self._cut = False
        self._topics: list[str] = []
        self._waiting: list[tuple[int, str, bytes, bool]] = []
        self._ids = itertools.count(1)
        self.published = 0

    @property
    def connected(self) -> bool:
        """True while started and not cut."""
        return self._up

    def wants(self, topic: str) -> bool:
        """True when one of the link's subscriptions matches ``topic``."""
        return any(matches(pattern, topic) for pattern in self._topics)

    def start(self) -> None:
        """Connect (at once, unless the link is cut)."""
        self._started = True
        self._come_up()

    def subscribe(self, topics: Sequence[str]) -> None:
        """Subscribe now and on every later connection."""
        self._topics = list(topics)
        if self._up:
            self.broker.subscribed(self, self._topics)

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> int:
        """Send a message now, or keep it until the link is up."""
        with self._lock:
            number = next(self._ids)
            self._waiting.append((number, topic, payload, retain))
        self._flush()
        return number

    def cut(self) -> None:
        """Take the link down, as a pulled cable would."""
        self._cut = True
        if self._up:
            self._up = False
            if self.on_disconnect is not None:
                self.on_disconnect("the connection was lost (cut)")

    def mend(self) -> None:
        """Bring a cut link back up."""
        self._cut = False
        self._come_up()

    def close(self) -> None:
        """Disconnect."""
        self._up = False
        self._started = False

    def _come_up(self) -> None:
        if not self._started or self._cut or self._up:
            return
        self._up = True
        if self._topics:
            self.broker.subscribed(self, self._topics)
        if self.on_connect is not None:
            self.on_connect()
        self._flush()

    def _flush(self) -> None:
        while self._up:
            with self._lock:
                if not self._waiting:
                    return
                number, topic, payload, retain = self._waiting.pop(0)
            self.broker.accept(self, topic, payload, retain)
            self.published += 1
            if self.on_ack is not None:
                self.on_ack(number)
