"""``emu:``: the LED controller in Python, speaking the real protocol on a pseudo-terminal.

The device behaviour is :class:`firmware_bridge.device.DeviceModel`; this
module gives it a serial port (a pty, reached through a symlink that stays
the same across an unplug and replug), a clock, and optional line noise.
Use it wherever the AVR toolchain is missing, in the demo, and in tests.

It also acts out what goes wrong with a real controller, to rehearse the
companion against it: :meth:`EmulatedDevice.unplug` and ``replug``,
:meth:`~EmulatedDevice.freeze` and ``thaw`` (it stops in its tracks, bytes
pile up on the line), :meth:`~EmulatedDevice.kill` and ``restart`` (it dies
and its port goes; restarted, it boots on the same port), and
:meth:`~EmulatedDevice.misbehave` with a :class:`~firmware_bridge.faults.Fault`.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import shutil
import threading
import time
import tty
from collections.abc import Sequence

from firmware_bridge import protocol as p
from firmware_bridge.device import DeviceModel
from firmware_bridge.errors import EmulatorError
from firmware_bridge.faults import FAULT_PERIOD_S, Fault, make_port_link, noise, parse_fault, point_link, refusals
from firmware_bridge.leds import DEFAULT_PALETTE, MAX_LEDS, RGB
from firmware_bridge.observe import Colours, ShownLeds


class EmulatedDevice(ShownLeds):
    """A running Python LED controller; ``port`` is the path to open with pyserial.

    ``corrupt_rate`` replaces that fraction of the bytes in both directions by
    random ones (seeded by ``seed``), to test the link against a noisy line.
    ``port_path`` puts the port at that path (a symlink to the pty), so a
    restarted emulator is found where the last one was.
    """

    def __init__(
        self,
        leds: int = 64,
        palette: Sequence[RGB] = DEFAULT_PALETTE,
        corrupt_rate: float = 0.0,
        seed: int = 0,
        port_path: str | os.PathLike[str] | None = None,
    ) -> None:
        if not 1 <= leds <= MAX_LEDS:
            raise EmulatorError(f"the emulator drives 1..{MAX_LEDS} LEDs, not {leds}")
        if not 0.0 <= corrupt_rate < 1.0:
            raise EmulatorError(f"corrupt_rate is a fraction 0..1, not {corrupt_rate}")
        super().__init__(leds)
        self.model = DeviceModel(leds, palette)
        self.corrupt_rate = corrupt_rate
        self.corrupted = 0
        self._random = random.Random(seed)
        self._lock = threading.RLock()
        self._t0 = time.monotonic()
        self._link, self._folder = make_port_link(port_path, "cascade-emu-")
        self.port = str(self._link)
        self._master = -1
        self._slave = -1
        self._wake_r, self._wake_w = os.pipe()
        self._running = True
        self._dead = False
        self._thawed = threading.Event()
        self._thawed.set()
        self.fault: Fault | None = None
        self._refuser = p.FrameDecoder()
        self._next_fault_s = 0.0
        self.replug()
        self._thread = threading.Thread(target=self._run, name="emu-device", daemon=True)
        self._thread.start()

    # -- the device's clock and LEDs ---------------------------------------------------------

    def now_s(self) -> float:
        """The device clock: seconds since the emulator started."""
        return time.monotonic() - self._t0

    def colours_at(self, monotonic_s: float) -> Colours:
        """What the LEDs show at a ``time.monotonic()`` instant, blink applied, for the current state."""
        with self._lock:
            return self.model.colours_at(monotonic_s - self._t0)

    # -- faults ------------------------------------------------------------------------------

    def reset(self) -> None:
        """The controller reboots (a power glitch or the reset button); the port stays."""
        with self._lock:
            if self._master >= 0:
                self._write(self.model.boot(self.now_s()))
                self._refresh(self.now_s())

    def unplug(self) -> None:
        """Pull the USB cable: the port disappears."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd >= 0:
                    os.close(fd)
            self._master = self._slave = -1
            self._link.unlink(missing_ok=True)
            self._wake()

    def replug(self) -> None:
        """Plug the cable back in: a fresh port at the same path, and the controller boots."""
        with self._lock:
            if self._master >= 0 or self._dead:
                return
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)
            os.set_blocking(self._master, False)
            point_link(self._link, os.ttyname(self._slave))
            self._write(self.model.boot(self.now_s()))
            self._refresh(self.now_s())
            self._wake()

    def freeze(self) -> None:
        """The controller stops in its tracks: it reads nothing and says nothing until :meth:`thaw`."""
        self._thawed.clear()
        self._wake()

    def thaw(self) -> None:
        """The controller carries on from where it froze, with whatever piled up on the line."""
        self._thawed.set()

    def kill(self) -> None:
        """The emulator dies: its port goes away and its LED state is lost, until :meth:`restart`."""
        with self._lock:
            self._dead = True
            self.unplug()

    def restart(self) -> None:
        """Start the emulator again after :meth:`kill` (or a hang): it boots on the same port."""
        with self._lock:
            self._dead = False
            self.fault = None
            self.unplug()
            self.replug()
        self.thaw()

    @property
    def alive(self) -> bool:
        """False once killed (until restarted) or closed."""
        return self._running and not self._dead

    def misbehave(self, fault: Fault | str | None) -> None:
        """Show ``fault`` from now on (``None``: behave again); see :mod:`firmware_bridge.faults`."""
        with self._lock:
            self.fault = parse_fault(fault)
            self._refuser = p.FrameDecoder()
            self._next_fault_s = 0.0
        self._wake()

    def close(self) -> None:
        """Stop the emulator and remove its port."""
        if not self._running:
            return
        self._running = False
        self._thawed.set()
        self._wake()
        self._thread.join(timeout=5)
        self.unplug()
        os.close(self._wake_r)
        os.close(self._wake_w)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> EmulatedDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the loop ----------------------------------------------------------------------------

    def _run(self) -> None:
        while self._running:
            if not self._thawed.is_set():
                self._thawed.wait()
                continue
            with self._lock:
                now = self.now_s()
                timeout = self.model.next_event_s(now) - now if self._master >= 0 else None
                if self.fault in (Fault.GARBAGE, Fault.REANNOUNCE) and self._master >= 0:
                    timeout = max(0.0, min(timeout or FAULT_PERIOD_S, self._next_fault_s - now))
                watched = [self._wake_r] + ([self._master] if self._master >= 0 else [])
            try:
                readable, _, _ = select.select(watched, [], [], timeout)
            except OSError:
                continue  # the cable was pulled while the port was watched: its descriptor is closed; look again
            if self._wake_r in readable:
                os.read(self._wake_r, 64)
            if not self._thawed.is_set():
                continue
            with self._lock:
                if self._master < 0:
                    continue
                now = self.now_s()
                data = b""
                if self._master in readable:
                    try:
                        data = os.read(self._master, 4096)
                    except OSError:
                        data = b""
                if self.fault is not None and self.fault is not Fault.REANNOUNCE:
                    self._act_out(data, now)
                    continue
                out = b""
                applied = self.model.decoder.received
                if self.fault is Fault.REANNOUNCE and now >= self._next_fault_s:
                    self._next_fault_s = now + FAULT_PERIOD_S
                    out += self.model.boot(now)
                out += self.model.receive(self._corrupt(data), now)
                out += self.model.tick(now)
                # the firmware writes the LEDs for every request it applies and when blink or watchdog change them
                self._refresh(now, always=self.model.decoder.received != applied)
                if out:
                    self._write(out)

    def _act_out(self, data: bytes, now: float) -> None:
        """A silent, garbled or refusing controller: the host's bytes never reach the LED state."""
        if self.fault is Fault.ERROR:
            self._write(refusals(self._refuser, data) + self.model.tick(now))
        elif self.fault is Fault.GARBAGE and now >= self._next_fault_s:
            self._next_fault_s = now + FAULT_PERIOD_S
            self._write(noise(self._random))
        self._refresh(now, always=False)

    def _refresh(self, now_s: float, always: bool = True) -> None:
        colours = self.model.colours_at(now_s)
        if always or colours != self.colours():
            self._publish(colours, time.monotonic())

    def _write(self, data: bytes) -> None:
        # nobody listening, or the buffer is full: bytes on a real line are lost the same way
        with contextlib.suppress(OSError):
            os.write(self._master, self._corrupt(data))

    def _corrupt(self, data: bytes) -> bytes:
        if not self.corrupt_rate or not data:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self._random.random() < self.corrupt_rate:
                out[i] ^= self._random.randrange(1, 256)
                self.corrupted += 1
        return bytes(out)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
