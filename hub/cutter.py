"""A network link that can be cut: a TCP relay on loopback between a board and its broker.

A board given the relay's port instead of the broker's talks through it. While
the relay is cut (:meth:`CuttableRelay.cut`) nothing passes either way and new
connections hang, as when a cable is pulled or a Wi-Fi access point goes
away: the board notices only by its keep-alive. When the relay is mended
(:meth:`CuttableRelay.mend`) every connection made before or during the cut
is closed, as a link that comes back after a long silence finds them dead,
and the board connects again.
"""

from __future__ import annotations

import contextlib
import socket
import threading


class CuttableRelay:
    """A TCP relay from a port on 127.0.0.1 to ``target`` (see the module docstring)."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._mended = threading.Event()
        self._mended.set()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._closed = False
        self.cuts = 0
        threading.Thread(target=self._accept, name="relay-accept", daemon=True).start()

    @property
    def is_cut(self) -> bool:
        """True while nothing passes."""
        return not self._mended.is_set()

    def cut(self) -> None:
        """Let nothing pass from now on."""
        self.cuts += 1
        self._mended.clear()

    def mend(self) -> None:
        """Close every connection there is, and let new ones pass."""
        with self._lock:
            dead, self._sockets = self._sockets, []
        for sock in dead:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self._mended.set()

    def close(self) -> None:
        """Stop relaying."""
        self._closed = True
        self._listener.close()
        self.mend()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self._sockets.append(client)
            threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        self._mended.wait()
        with self._lock:
            if client not in self._sockets:
                return  # closed by a mend while it waited
        try:
            upstream = socket.create_connection(self.target, timeout=5.0)
            upstream.settimeout(None)
        except OSError:
            client.close()
            return
        with self._lock:
            self._sockets.append(upstream)
        for source, sink in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if not self._mended.is_set():
                    self._mended.wait()
                    break  # the mend closed this connection: what came during the cut is lost
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
