"""Test helpers: a noisy serial line between the host and a device, and ports that do not speak the protocol."""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import tty


class NoisyLine:
    """A pseudo-terminal (``port``) forwarding to ``device_port`` and back, corrupting a fraction of the bytes."""

    def __init__(self, device_port: str, rate: float, seed: int) -> None:
        self.rate = rate
        self.corrupted = 0
        self._random = random.Random(seed)
        self._device = os.open(device_port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self._device)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _noise(self, data: bytes) -> bytes:
        out = bytearray(data)
        for i in range(len(out)):
            if self._random.random() < self.rate:
                out[i] ^= self._random.randrange(1, 256)
                self.corrupted += 1
        return bytes(out)

    def _run(self) -> None:
        pairs = {self._master: self._device, self._device: self._master}
        while True:
            ready, _, _ = select.select([self._master, self._device, self._stop_r], [], [])
            if self._stop_r in ready:
                return
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                    os.write(pairs[fd], self._noise(data))
                except OSError:
                    continue

    def close(self) -> None:
        os.write(self._stop_w, b"x")
        self._thread.join(timeout=5)
        for fd in (self._master, self._slave, self._device, self._stop_r, self._stop_w):
            with contextlib.suppress(OSError):
                os.close(fd)


class ForeignDevice:
    """A pseudo-terminal with something else on it: silent, chattering, or announcing another protocol."""

    def __init__(self, says: bytes = b"", every_s: float = 0.05) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._says = says
        self._every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._every_s):
            with contextlib.suppress(OSError):
                ready, _, _ = select.select([self._master], [], [], 0)
                if ready:
                    os.read(self._master, 4096)
                if self._says:
                    os.write(self._master, self._says)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
