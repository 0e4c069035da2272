"""Many page viewers at once, for load checks: raw Server-Sent-Event clients on one thread.

:class:`SseViewers` opens N connections to ``/events`` and reads them all with
one :mod:`selectors` loop, keeping for each viewer how many snapshot events it
got and the newest snapshot number (``seq``). Viewers made with
``reading=False`` connect and then never read, like a stalled phone: the
server must drop them rather than let them hold up the game.
"""

from __future__ import annotations

import re
import selectors
import socket
import threading
import time

_SEQ = re.compile(rb'"seq": (\d+)')


class SseViewers:
    """N event-stream clients on loopback (see the module docstring)."""

    def __init__(self, host: str, port: int, count: int, reading: bool = True, path: str = "/events") -> None:
        self.count = count
        self.events = [0] * count
        self.last_seq = [0] * count
        self.closed_by_server = [False] * count
        self._reading = reading
        self._selector = selectors.DefaultSelector()
        self._sockets: list[socket.socket] = []
        self._buffers: list[bytes] = [b""] * count
        self._stop = threading.Event()
        self._changed = threading.Condition()
        request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
        for index in range(count):
            sock = socket.create_connection((host, port), timeout=10.0)
            sock.sendall(request)
            sock.setblocking(False)
            self._sockets.append(sock)
            if reading:
                self._selector.register(sock, selectors.EVENT_READ, index)
        self._thread = threading.Thread(target=self._loop, name="sse-viewers", daemon=True)
        if reading:
            self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._selector.select(timeout=0.2):
                index = int(key.data)
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                try:
                    data = sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.closed_by_server[index] = True
                    self._selector.unregister(sock)
                    continue
                self._take(index, data)

    def _take(self, index: int, data: bytes) -> None:
        buffer = self._buffers[index] + data
        *events, rest = buffer.split(b"\n\n")
        self._buffers[index] = rest
        got = False
        for event in events:
            if b"event: snapshot" in event:
                match = _SEQ.search(event)
                if match:
                    self.events[index] += 1
                    self.last_seq[index] = int(match.group(1))
                    got = True
        if got:
            with self._changed:
                self._changed.notify_all()

    def wait_for_seq(self, seq: int, timeout_s: float) -> bool:
        """Wait until every viewer has seen snapshot ``seq`` (or newer); False after ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while min(self.last_seq) < seq:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(min(remaining, 0.5))
        return True

    def close(self) -> None:
        """Close every connection."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)
        for sock in self._sockets:
            sock.close()
        self._selector.close()
