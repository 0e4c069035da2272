"""The LED controller comes and goes under ``cascade run`` and ``cascade demo``, as a user would see it.

A controller killed, restarted and frozen from outside (``cascade link emu``
on a port given with ``--port``; the simulator of ``--leds sim:``): the
command keeps refereeing and serving its page, the page and the terminal say
the LEDs are disconnected and then that they are back, and SIGTERM stops the
command cleanly even while the controller is frozen, taking a frozen
simulator with it.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.firmware_bridge.conftest import require_toolchain

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 60.0
LOST = "LEDs disconnected since "
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def cascade(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


class Watched:
    """A running command whose output lines are collected as they come."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: queue.Queue[tuple[str, str | None]] = queue.Queue()
        self.ended = 0
        self.out: list[str] = []
        self.err: list[str] = []
        for name, stream in (("out", process.stdout), ("err", process.stderr)):
            threading.Thread(target=self._read, args=(name, stream), daemon=True).start()

    def _read(self, name: str, stream: Any) -> None:
        for line in stream:
            (self.out if name == "out" else self.err).append(line)
            self.lines.put((name, line))
        self.lines.put((name, None))  # this stream ended

    def wait_line(self, accept: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            try:
                _, line = self.lines.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                break
            if line is None:
                self.ended += 1
                if self.ended == 2:
                    break  # the command ended: nothing more will come
            elif accept(line):
                return line
        raise AssertionError(f"no line with {what} within {WAIT_S:g} s; stderr: {''.join(self.err)[-2000:]}")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=WAIT_S)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def page_state(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "api/state", timeout=WAIT_S) as answer:
        state: dict[str, Any] = json.load(answer)
    return state


def poll_page(url: str, accept: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
    """Ask the page again and again (a generous deadline) until its state is accepted."""
    deadline = time.monotonic() + WAIT_S
    pause = threading.Event()
    while time.monotonic() < deadline:
        state = page_state(url)
        if accept(state):
            return state
        pause.wait(0.1)
    raise AssertionError(f"the page never showed {what}; it shows {state}")


def start_emulator(port: Path) -> Watched:
    emulator = Watched(cascade("link", "emu", "--port", str(port), "--leds", "64"))
    emulator.wait_line(lambda line: str(port) in line, "the emulator's port")
    return emulator


def run_on_table(tmp_path: Path, leds: str) -> Watched:
    """``cascade run`` of the demo's scripted table on diamond:5, with ``leds``, its store in ``tmp_path``."""
    store = str(tmp_path / "games.sqlite3")
    args = ("--camera", "table:?seed=3&fps=8", "--leds", leds, "--board", "diamond:5", "--store", store)
    return Watched(cascade("run", *args, "--port", "0"))


def children_named(parent: int, name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        if ppid == parent and comm == name:
            found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_demo_referees_on_while_a_serial_controller_is_killed_restarted_and_frozen(tmp_path: Path) -> None:
    port = tmp_path / "ttyLED"
    emulator = start_emulator(port)
    demo = Watched(
        cascade("demo", "--no-camera", "--port", "0", "--fps", "16", "--board", "diamond:5", "--leds", f"serial:{port}")
    )
    try:
        url = demo.wait_line(lambda line: "watch the game:" in line, "the page's address").split()[-1]
        poll_page(url, lambda s: len(s["moves"]) >= 2 and s["link"] == "", "a game under way with its LEDs")

        emulator.process.kill()  # the controller dies; its port stays behind, dead
        emulator.process.wait()
        lost = poll_page(url, lambda s: s["link"].startswith(LOST), "the LEDs disconnected")
        demo.wait_line(lambda line: LOST in line, "the loss on the terminal")
        poll_page(
            url,
            lambda s: s["frames"] >= lost["frames"] + 6 and s["moves"] != lost["moves"],
            "the game going on without its LEDs",
        )

        emulator = start_emulator(port)  # the controller is back on the same port
        poll_page(url, lambda s: s["link"] == "", "the LEDs back")
        demo.wait_line(lambda line: "LEDs reconnected" in line, "the return on the terminal")

        os.kill(emulator.process.pid, signal.SIGSTOP)  # frozen, as long as the game needs
        lost = poll_page(url, lambda s: s["link"].startswith(LOST), "the frozen LEDs disconnected")
        poll_page(
            url,
            lambda s: s["frames"] >= lost["frames"] + 6 and s["moves"] != lost["moves"],
            "the game going on beside a frozen controller",
        )
        assert demo.stop() == 0, "".join(demo.err)
    finally:
        demo.kill()
        if emulator.process.poll() is None:
            os.kill(emulator.process.pid, signal.SIGCONT)
        emulator.kill()
    assert "Demo stopped (SIGTERM)" in "".join(demo.out)
    assert "Traceback" not in "".join(demo.err)
    assert sum(LOST in line for line in demo.err) == 2, "the terminal must say it once per loss, not per retry"


def test_run_starts_without_a_serial_controller_and_lights_it_once_it_is_plugged_in(tmp_path: Path) -> None:
    port = tmp_path / "ttyLED"
    run = run_on_table(tmp_path, f"serial:{port}")
    emulator = None
    try:
        run.wait_line(lambda line: "the game starts without them" in line, "the start without LEDs")
        url = run.wait_line(lambda line: line.strip().startswith("page:"), "the page's address").split()[-1]
        run.wait_line(lambda line: line.startswith("ply 1:"), "the first ply, refereed without LEDs")
        # the terminal prints a ply once it is stored, a moment before the page's snapshot shows it
        poll_page(url, lambda s: s["link"].startswith(LOST) and s["moves"], "the LEDs disconnected, the ply shown")
        emulator = start_emulator(port)  # the controller is plugged in
        run.wait_line(lambda line: "LEDs reconnected" in line, "the LEDs found")
        poll_page(url, lambda s: s["link"] == "", "the LEDs connected")
        assert run.stop() == 0, "".join(run.err)
    finally:
        run.kill()
        if emulator is not None:
            emulator.kill()
    assert "Traceback" not in "".join(run.err)


@pytest.mark.firmware
def test_run_goes_on_when_its_simulator_is_killed_and_stops_on_sigterm_while_it_is_frozen(tmp_path: Path) -> None:
    require_toolchain()
    run = run_on_table(tmp_path, "sim:")
    try:
        url = run.wait_line(lambda line: line.strip().startswith("page:"), "the page's address").split()[-1]
        run.wait_line(lambda line: line.startswith("ply 1:"), "the first ply")
        (harness,) = children_named(run.process.pid, "simharness")
        os.kill(harness, signal.SIGKILL)
        run.wait_line(lambda line: LOST in line, "the loss on the terminal")
        run.wait_line(lambda line: "LEDs reconnected" in line, "a new simulator, reconnected")
        assert poll_page(url, lambda s: s["link"] == "", "the LEDs back")["link"] == ""

        (harness,) = children_named(run.process.pid, "simharness")
        os.kill(harness, signal.SIGSTOP)
        lost = poll_page(url, lambda s: s["link"].startswith(LOST), "the frozen LEDs disconnected")
        plies = len(lost["moves"])
        run.wait_line(lambda line: line.startswith(f"ply {plies + 1}:"), "a ply accepted beside the frozen simulator")
        assert run.stop() == 0, "".join(run.err)
    finally:
        run.kill()
    assert not Path(f"/proc/{harness}").exists() or "Z" in Path(f"/proc/{harness}/stat").read_text().split()[2]
    assert "Traceback" not in "".join(run.err)
    assert "stopped (SIGTERM)" in "".join(run.err)
