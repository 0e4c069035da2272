"""Faults an emulated LED controller shows on demand, and a serial line that can put them on any port.

A real controller misbehaves in a few ways the companion must live through:
it hangs (:attr:`Fault.SILENT`), its line fills with noise
(:attr:`Fault.GARBAGE`), a mismatched firmware refuses every request
(:attr:`Fault.ERROR`), or it resets again and again, announcing itself each
time (:attr:`Fault.REANNOUNCE`). Both emulators take them
(``device.misbehave(Fault.GARBAGE)``, ``device.misbehave(None)`` to heal);
``emu:`` acts them out itself, ``sim:`` through a :class:`FaultyLine` in front
of the simulated chip.

A :class:`FaultyLine` is a pseudo-terminal at a path that stays the same
(``port``) joined to a device's port; besides the faults above it can be
unplugged and plugged in again (the port goes away and comes back at the same
path, as a USB device re-enumerates), and it follows its device: when the
device's side of the line dies, the port goes away.
"""

from __future__ import annotations

import contextlib
import enum
import os
import random
import select
import shutil
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from firmware_bridge import protocol as p
from firmware_bridge.errors import EmulatorError

FAULT_PERIOD_S = 0.1
"""How often a garbled line sends noise, or a device in a reset loop announces itself."""
REBOOT_PERIOD_S = 0.5
"""How often a chip in a reset loop is reset: long enough for the firmware to boot and announce itself."""
NOISE_BYTES = 48
DEVICE_WRITE_WAIT_S = 0.5


class Fault(enum.Enum):
    """A way an LED controller misbehaves (see the module docstring)."""

    SILENT = "silent"
    GARBAGE = "garbage"
    ERROR = "error"
    REANNOUNCE = "reannounce"


def parse_fault(name: str | Fault | None) -> Fault | None:
    """A fault from its name (``silent``, ``garbage``, ``error``, ``reannounce``); ``None`` or ``""`` for none."""
    if name is None or isinstance(name, Fault):
        return name
    if not name.strip():
        return None
    try:
        return Fault(name.strip().lower())
    except ValueError:
        names = ", ".join(f.value for f in Fault)
        raise EmulatorError(f"'{name}' is not a fault of the LED controller: use one of {names}") from None


def refusals(decoder: p.FrameDecoder, data: bytes) -> bytes:
    """What a device refusing everything answers to ``data`` from the host: an ERROR per request."""
    out = bytearray()
    for message in decoder.feed(data):
        if not message.type & 0x80 and message.type != p.MessageType.HEARTBEAT:
            out += p.encode(p.error_message(message.sequence, message.type, p.ErrorCode.BAD_VALUE))
    return bytes(out)


def noise(rng: random.Random, count: int = NOISE_BYTES) -> bytes:
    """Bytes that are no message of the protocol (a few zero bytes among them, so they end garbled frames)."""
    return bytes(rng.randrange(256) for _ in range(count))


def make_port_link(port_path: str | os.PathLike[str] | None, prefix: str) -> tuple[Path, Path | None]:
    """The path of a device's port (a symlink), and the temporary folder holding it if none was given."""
    if port_path is None:
        folder = Path(tempfile.mkdtemp(prefix=prefix))
        return folder / "tty", folder
    path = Path(port_path)
    if path.exists() and not path.is_symlink():
        raise EmulatorError(f"{path} exists and is not a port link: choose a path that is free")
    if not path.parent.is_dir():
        raise EmulatorError(f"{path.parent} is not a folder: choose a port path in an existing folder")
    return path, None


def point_link(path: Path, target: str) -> None:
    """(Re)point the port symlink ``path`` at a terminal, replacing a stale one."""
    path.unlink(missing_ok=True)
    path.symlink_to(target)


class FaultyLine:
    """A serial line with faults on demand between a host and a device (see the module docstring).

    ``port`` is the path the host opens; :meth:`connect` joins it to a
    device's port. ``reboot`` is called when the line is asked to make the
    device reset in a loop (:attr:`Fault.REANNOUNCE`); without it the line
    repeats the device's last announcement itself.
    """

    def __init__(
        self,
        port_path: str | os.PathLike[str] | None = None,
        reboot: Callable[[], None] | None = None,
        seed: int = 0,
    ) -> None:
        self._link, self._folder = make_port_link(port_path, "cascade-line-")
        self.port = str(self._link)
        self.fault: Fault | None = None
        self._reboot = reboot
        self._random = random.Random(seed)
        self._lock = threading.RLock()
        self._host = -1  # master side of the host's pseudo-terminal
        self._host_slave = -1  # kept open so the master never reads EIO while no host has the port open
        self._device = -1
        self._from_host = p.FrameDecoder()
        self._from_device = p.FrameDecoder()
        self._announce = b""
        self._next_fault_s = 0.0
        self._wake_r, self._wake_w = os.pipe()
        self._running = True
        self.replug()
        self._thread = threading.Thread(target=self._run, name="faulty-line", daemon=True)
        self._thread.start()

    # -- the device's side -------------------------------------------------------------------

    def connect(self, device_port: str) -> None:
        """Join the line to a device's port (replacing any device joined before)."""
        fd = os.open(device_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(fd)
        with self._lock:
            self._drop_device()
            self._device = fd
            self._from_device = p.FrameDecoder()
        self._wake()

    def _drop_device(self) -> None:
        if self._device >= 0:
            with contextlib.suppress(OSError):
                os.close(self._device)
        self._device = -1

    # -- faults ------------------------------------------------------------------------------

    def misbehave(self, fault: Fault | str | None) -> None:
        """Show ``fault`` from now on (``None``: behave again)."""
        with self._lock:
            self.fault = parse_fault(fault)
            self._from_host = p.FrameDecoder()
            self._next_fault_s = 0.0
        self._wake()

    def unplug(self) -> None:
        """The port goes away (a cable pulled); the device behind the line keeps running."""
        with self._lock:
            for fd in (self._host, self._host_slave):
                if fd >= 0:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._host = self._host_slave = -1
            self._link.unlink(missing_ok=True)
        self._wake()

    def replug(self) -> None:
        """The port comes back at the same path (a fresh terminal, as after a USB re-enumeration)."""
        with self._lock:
            if self._host >= 0:
                return
            self._host, self._host_slave = os.openpty()
            tty.setraw(self._host_slave)
            os.set_blocking(self._host, False)
            point_link(self._link, os.ttyname(self._host_slave))
        self._wake()

    @property
    def plugged(self) -> bool:
        """True while the port is there."""
        return self._host >= 0

    def close(self) -> None:
        """Stop the line, remove its port and let go of the device's port."""
        if not self._running:
            return
        self._running = False
        self._wake()
        self._thread.join(timeout=5)
        with self._lock:
            self.unplug()
            self._drop_device()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    # -- the loop ----------------------------------------------------------------------------

    def _run(self) -> None:
        while self._running:
            with self._lock:
                watched = [self._wake_r] + [fd for fd in (self._host, self._device) if fd >= 0]
                periodic = self.fault in (Fault.GARBAGE, Fault.REANNOUNCE)
                timeout = max(0.0, self._next_fault_s - time.monotonic()) if periodic else None
            try:
                readable, _, _ = select.select(watched, [], [], timeout)
            except (OSError, ValueError):
                continue  # a descriptor closed under us by unplug or connect: look again
            with self._lock:
                if self._wake_r in readable:
                    with contextlib.suppress(OSError):
                        os.read(self._wake_r, 64)
                if self._host >= 0 and self._host in readable:
                    self._from_host_side()
                if self._device >= 0 and self._device in readable:
                    self._from_device_side()
                if periodic and time.monotonic() >= self._next_fault_s:
                    rebooting = self.fault is Fault.REANNOUNCE and self._reboot is not None
                    self._next_fault_s = time.monotonic() + (REBOOT_PERIOD_S if rebooting else FAULT_PERIOD_S)
                    self._periodic()

    def _from_host_side(self) -> None:
        try:
            data = os.read(self._host, 4096)
        except OSError:
            return
        if self.fault is None or self.fault is Fault.REANNOUNCE:
            self._to_device(data)
        elif self.fault is Fault.ERROR:
            self._to_host(refusals(self._from_host, data))

    def _from_device_side(self) -> None:
        try:
            data = os.read(self._device, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the device's side died: its port goes away too
            self._drop_device()
            self.unplug()
            return
        for message in self._from_device.feed(data):
            if message.type == p.MessageType.ANNOUNCE:
                self._announce = p.encode(p.Message(message.type, p.BOOT_SEQUENCE, message.payload))
        if self.fault in (None, Fault.REANNOUNCE, Fault.ERROR):
            self._to_host(data)

    def _periodic(self) -> None:
        if self.fault is Fault.GARBAGE:
            self._to_host(noise(self._random))
        elif self.fault is Fault.REANNOUNCE:
            if self._reboot is not None:
                with contextlib.suppress(EmulatorError, OSError):
                    self._reboot()
            elif self._announce:
                self._to_host(self._announce)

    def _to_host(self, data: bytes) -> None:
        if data and self._host >= 0:
            with contextlib.suppress(OSError):  # nobody reading and the buffer full: lost, as on a real line
                os.write(self._host, data)

    def _to_device(self, data: bytes) -> None:
        deadline = time.monotonic() + DEVICE_WRITE_WAIT_S
        while data and self._device >= 0 and time.monotonic() < deadline:
            try:
                data = data[os.write(self._device, data) :]
            except BlockingIOError:
                select.select([], [self._device], [], max(0.0, deadline - time.monotonic()))
            except OSError:
                return

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
