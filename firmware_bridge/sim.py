"""``sim:``: the compiled firmware running in simavr, reached through a pseudo-terminal.

:func:`build` compiles the firmware (for a given number of LEDs) and the
harness (``firmware/harness/simharness.c``, linked against libsimavr and
libsimavrparts) with the firmware's Makefile. :class:`SimulatedDevice` starts
the harness, reads the name of its pty, and follows what the LEDs show as the
harness decodes it from the WS2812 waveform, bit times checked against the
datasheet.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.errors import EmulatorError, ToolchainMissingError
from firmware_bridge.faults import Fault, FaultyLine
from firmware_bridge.leds import MAX_LEDS, RGB
from firmware_bridge.observe import Colours, ShownLeds

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
DEBIAN_PACKAGES = "make gcc pkg-config gcc-avr avr-libc binutils-avr simavr libsimavr-dev libsimavrparts1"
FREQUENCY_HZ = 16_000_000
START_TIMEOUT_S = 30.0
QUIT_TIMEOUT_S = 1.0


@dataclass(frozen=True)
class SimBuild:
    """The built firmware for one chain length and the harness that runs it."""

    firmware: Path
    harness: Path


def default_build_dir() -> Path:
    """``firmware/build`` beside the sources when writable, else a folder in the user's cache."""
    local = FIRMWARE_DIR / "build"
    with contextlib.suppress(OSError):
        local.mkdir(exist_ok=True)
        if os.access(local, os.W_OK):
            return local
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cascade" / "firmware"


def check_toolchain() -> None:
    """Raise :class:`ToolchainMissingError`, naming the Debian packages, if something needed is missing."""
    missing = [tool for tool in ("make", "cc", "avr-gcc", "avr-objcopy", "avr-size") if shutil.which(tool) is None]
    if not Path("/usr/include/simavr/sim_avr.h").exists() and not Path("/usr/local/include/simavr/sim_avr.h").exists():
        missing.append("the simavr headers")
    if not Path("/usr/include/avr/io.h").exists() and not Path("/usr/lib/avr/include/avr/io.h").exists():
        missing.append("avr-libc")
    if missing:
        raise ToolchainMissingError(
            f"sim: needs the AVR toolchain and simavr, missing {', '.join(missing)}: "
            f"install the Debian packages {DEBIAN_PACKAGES} (or use emu:)"
        )


def build(leds: int = 64, build_dir: Path | None = None) -> SimBuild:
    """Compile the firmware for ``leds`` LEDs and the harness (only what changed), with the firmware's Makefile."""
    if not 1 <= leds <= MAX_LEDS:
        raise EmulatorError(f"the firmware drives 1..{MAX_LEDS} LEDs, not {leds}")
    check_toolchain()
    folder = Path(build_dir) if build_dir is not None else default_build_dir()
    folder.mkdir(parents=True, exist_ok=True)
    command = ["make", "-s", "-C", str(FIRMWARE_DIR), f"BUILD={folder}", f"LEDS={leds}", "firmware", "harness"]
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # tests running side by side build one at a time
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise EmulatorError(f"building the firmware failed ({' '.join(command)}):\n{tail}")
    return SimBuild(folder / f"leds-{leds}" / "firmware.elf", folder / "simharness")


class SimulatedDevice(ShownLeds):
    """The firmware in simavr; ``port`` is its serial port, ``colours()`` what the decoded WS2812 chain shows.

    ``timing_errors`` lists every LED update the harness rejected because a
    bit was outside the datasheet's timing; ``sim_time_s`` is the simulated
    time of the last update.

    The host reaches the chip through a :class:`~firmware_bridge.faults.FaultyLine`
    (as through a USB-serial adapter): ``port`` is a path that stays the same
    (``port_path`` if given) when the simulator is restarted. Faults to
    rehearse: :meth:`freeze` and :meth:`thaw` (the simulator stops and goes on),
    :meth:`kill` and :meth:`restart` (it dies, its port goes; restarted, it
    boots on the same port), :meth:`unplug` and :meth:`replug`, and
    :meth:`misbehave` with a :class:`~firmware_bridge.faults.Fault`.
    """

    def __init__(
        self, leds: int = 64, build_dir: Path | None = None, port_path: str | os.PathLike[str] | None = None
    ) -> None:
        super().__init__(leds)
        self.led_count = leds
        self.paths = build(leds, build_dir)
        self.timing_errors: list[str] = []
        self.sim_time_s = 0.0
        self.line = FaultyLine(port_path, reboot=self.reset)
        self.port = self.line.port
        self.pty = ""
        self._frozen = False
        self._closed = False
        self._start_lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        try:
            self._start()
        except BaseException:
            self.line.close()
            raise

    def _start(self) -> None:
        """Start the harness and join the line to its pty."""
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the harness)
        process = subprocess.Popen(
            [str(self.paths.harness), str(self.paths.firmware), str(self.led_count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            bufsize=1,
            cwd=tempfile.gettempdir(),
        )
        self._process = process
        self._frozen = False
        self._sync_condition = threading.Condition()
        self._sync_asked = 0
        self._sync_seen = 0
        self._ended = False
        self._port_ready = threading.Event()
        self.pty = ""
        self._reader = threading.Thread(target=self._read, args=(process,), name="sim-device", daemon=True)
        self._reader.start()
        if not self._port_ready.wait(START_TIMEOUT_S) or not self.pty:
            log = self._stderr()
            self._stop_process()
            raise EmulatorError(f"the simavr harness did not start: {log or 'no message'}")
        if self._closed:  # closed while it was starting: it must not outlive its device
            self._stop_process()
            raise EmulatorError("the simulator was closed while it started")
        self.line.connect(self.pty)
        self.line.replug()

    def colours(self) -> Colours:
        """What each LED shows now: every update the harness decoded before this call is included.

        The harness reports the LEDs on its own pipe, apart from the serial
        line; a round trip through it makes sure an update that happened
        before an acknowledgement the host already has is not still on its way.
        """
        self.sync()
        return super().colours()

    def sync(self, timeout_s: float = 10.0) -> None:
        """Wait until every LED update the harness printed so far has been read."""
        with self._sync_condition:
            self._sync_asked += 1
            wanted = self._sync_asked
        self._command(f"sync {wanted}")
        with self._sync_condition:
            if not self._sync_condition.wait_for(lambda: self._sync_seen >= wanted or self._ended, timeout_s):
                raise EmulatorError(f"the simavr harness did not answer within {timeout_s:g} s")
            if self._sync_seen < wanted:
                raise EmulatorError(f"the simavr harness stopped: {self._stderr()}")

    def reset(self) -> None:
        """Press the reset button: the firmware reboots and announces itself again."""
        self._command("reset")

    # -- faults ------------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        """True while the simulator runs (frozen or not)."""
        return not self._closed and self._process is not None and self._process.poll() is None

    def freeze(self) -> None:
        """Stop the simulator where it is (SIGSTOP): it reads nothing and says nothing until :meth:`thaw`."""
        if self.alive and self._process is not None:
            self._frozen = True
            self._process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """Let a frozen simulator go on (SIGCONT)."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGCONT)
        self._frozen = False

    def kill(self) -> None:
        """The simulator dies (SIGKILL): its port goes away and the chip's state is lost, until :meth:`restart`."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    def restart(self) -> None:
        """Start a fresh simulator behind the same port (after :meth:`kill`, or to end a hang)."""
        with self._start_lock:
            if self._closed:
                raise EmulatorError("the simulator was closed; open a new one")
            self._stop_process()
            self.line.misbehave(None)
            self._start()

    def unplug(self) -> None:
        """The port goes away (the cable pulled); the chip keeps running."""
        self.line.unplug()

    def replug(self) -> None:
        """The port comes back at the same path, and the chip boots (plugging in powers it)."""
        self.line.replug()
        with contextlib.suppress(EmulatorError):
            self.reset()

    def misbehave(self, fault: Fault | str | None) -> None:
        """Show ``fault`` from now on (``None``: behave again); see :mod:`firmware_bridge.faults`."""
        self.line.misbehave(fault)

    def close(self) -> None:
        """Stop the simulation and remove its port."""
        self._closed = True
        self._stop_process()
        self.line.close()

    def _stop_process(self) -> None:
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.send_signal(signal.SIGCONT)  # a frozen simulator must be able to quit
            with contextlib.suppress(OSError, ValueError):
                self._command("quit")
            try:
                process.wait(timeout=QUIT_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        with contextlib.suppress(OSError, ValueError):
            self._log.close()

    def __enter__(self) -> SimulatedDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _command(self, line: str) -> None:
        process = self._process
        stdin = process.stdin if process is not None else None
        if process is None or stdin is None or process.poll() is not None:
            raise EmulatorError(f"the simavr harness is not running: {self._stderr()}")
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (OSError, ValueError):
            raise EmulatorError(f"the simavr harness is not running: {self._stderr()}") from None

    def _stderr(self) -> str:
        with contextlib.suppress(OSError, ValueError):
            self._log.seek(0)
            return self._log.read().decode(errors="replace").strip()[-500:]
        return ""

    def _read(self, process: subprocess.Popen[str]) -> None:
        stdout = process.stdout
        assert stdout is not None
        with contextlib.suppress(OSError, ValueError):
            for line in stdout:
                kind, _, rest = line.strip().partition(" ")
                if kind == "PTY":
                    self.pty = rest
                    self._port_ready.set()
                elif kind == "LEDS":
                    cycle, _, colours = rest.partition(" ")
                    self.sim_time_s = int(cycle) / FREQUENCY_HZ
                    self._publish(parse_colours(colours), self.sim_time_s)
                elif kind == "BAD":
                    self.timing_errors.append(rest)
                elif kind == "SYNC":
                    with self._sync_condition:
                        self._sync_seen = max(self._sync_seen, int(rest))
                        self._sync_condition.notify_all()
        self._port_ready.set()
        with self._sync_condition:
            self._ended = True
            self._sync_condition.notify_all()


def parse_colours(text: str) -> tuple[RGB, ...]:
    """``rrggbb`` per LED, as the harness prints them."""
    return tuple(
        (int(text[i : i + 2], 16), int(text[i + 2 : i + 4], 16), int(text[i + 4 : i + 6], 16))
        for i in range(0, len(text), 6)
    )
