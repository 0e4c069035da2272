"""A Mosquitto broker on loopback, started and stopped by the tests and the benchmark.

Mosquitto is the broker docs/hub.md recommends for a club's server (Debian's
``mosquitto`` package). :class:`Mosquitto` writes a small configuration (one
listener on 127.0.0.1, anonymous clients, a persistence file saved every
second, no limit on the messages it queues for a client that is away),
starts the broker, and can kill it hard and start it again on the same port,
as a power cut of the club's server would.
"""

from __future__ import annotations

import getpass
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from hub.errors import MosquittoMissingError

CONFIG = """user {user}
listener {port} 127.0.0.1
allow_anonymous true
persistence true
persistence_location {folder}/
autosave_interval 1
max_queued_messages 0
max_inflight_messages 64
log_dest file {folder}/mosquitto.log
"""
INSTALL = (
    "Mosquitto is not installed: install Debian's mosquitto package (apt-get install mosquitto; scripts/test.sh does)"
)


def mosquitto_binary() -> str:
    """The path of the mosquitto program; raises MosquittoMissingError saying what to install."""
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/bin/mosquitto") if Path(p).exists()), None
    )
    if found is None:
        raise MosquittoMissingError(INSTALL)
    return found


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mosquitto:
    """One broker process on loopback (see the module docstring)."""

    def __init__(self, folder: Path, port: int = 0) -> None:
        self.binary = mosquitto_binary()
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.config = self.folder / "mosquitto.conf"
        user = getpass.getuser()  # as root, Mosquitto would become "mosquitto", who cannot write this folder
        self.config.write_text(CONFIG.format(user=user, port=self.port, folder=self.folder), encoding="utf-8")
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``mqtt://127.0.0.1:PORT``, to which an event's name is added."""
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 10.0) -> None:
        """Start the broker and wait until it accepts connections."""
        self._process = subprocess.Popen(
            [self.binary, "-c", str(self.config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise MosquittoMissingError(f"mosquitto stopped at once; see {self.folder / 'mosquitto.log'}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise MosquittoMissingError(f"mosquitto did not listen on port {self.port} within {timeout_s:g} s")

    def kill(self) -> None:
        """Kill the broker at once (SIGKILL): what it had not saved is lost, as in a power cut."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGKILL)
            self._process.wait(timeout=10.0)

    def stop(self) -> None:
        """Stop the broker cleanly."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10.0)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> Mosquitto:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
