"""An in-process broadcaster for Server-Sent Events.

Each viewer gets its own bounded queue. Publishing never blocks: a viewer
whose queue is full (a slow phone, a stalled tab) is dropped, and its stream
ends; the browser's EventSource reconnects by itself and starts again from
the current snapshot. So no viewer can ever stall the live game.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator

QUEUE_SIZE = 16
HEARTBEAT_S = 15.0
_END = object()


class Viewer:
    """One connected viewer: a bounded queue of encoded events."""

    def __init__(self, size: int) -> None:
        self.queue: queue.Queue[object] = queue.Queue(maxsize=size)
        self.dropped = False

    def offer(self, item: object) -> bool:
        """Queue an item without waiting; False when the queue is full."""
        try:
            self.queue.put_nowait(item)
        except queue.Full:
            return False
        return True

    def end(self) -> None:
        """Make the viewer's stream finish (room is made for the end mark)."""
        while not self.offer(_END):
            with contextlib.suppress(queue.Empty):
                self.queue.get_nowait()


class Broadcaster:
    """Fan one stream of events out to many viewers, never waiting for any of them."""

    def __init__(self, queue_size: int = QUEUE_SIZE, heartbeat_s: float = HEARTBEAT_S) -> None:
        self._viewers: set[Viewer] = set()
        self._lock = threading.Lock()
        self._queue_size = queue_size
        self._heartbeat_s = heartbeat_s
        self._closed = False
        self.dropped = 0

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    @property
    def viewer_count(self) -> int:
        """How many viewers are connected now."""
        with self._lock:
            return len(self._viewers)

    def subscribe(self, first: str | None = None) -> Viewer:
        """A new viewer, optionally starting with one event already queued."""
        viewer = Viewer(self._queue_size)
        if first is not None:
            viewer.offer(first)
        with self._lock:
            if self._closed:
                viewer.end()
            else:
                self._viewers.add(viewer)
        return viewer

    def unsubscribe(self, viewer: Viewer) -> None:
        """Forget a viewer (its stream has ended)."""
        with self._lock:
            self._viewers.discard(viewer)

    def publish(self, event: str) -> None:
        """Queue an encoded event for every viewer; drop the ones that cannot keep up."""
        with self._lock:
            viewers = list(self._viewers)
        for viewer in viewers:
            if not viewer.offer(event):
                viewer.dropped = True
                viewer.end()
                self.unsubscribe(viewer)
                self.dropped += 1

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        with self._lock:
            self._closed = True
            viewers = list(self._viewers)
            self._viewers.clear()
        for viewer in viewers:
            viewer.end()

    def stream(self, viewer: Viewer) -> Iterator[str]:
        """The text of a viewer's event stream, with heartbeat comments while idle."""
        try:
            while True:
                try:
                    item = viewer.queue.get(timeout=self._heartbeat_s)
                except queue.Empty:
                    yield ": heartbeat\n\n"
                    continue
                if item is _END:
                    return
                yield str(item)
        finally:
            self.unsubscribe(viewer)


def encode_event(data: str, event: str | None = None) -> str:
    """One Server-Sent Event: an optional event name and a data line per line of ``data``."""
    head = f"event: {event}\n" if event else ""
    body = "".join(f"data: {line}\n" for line in data.split("\n"))
    return head + body + "\n"
