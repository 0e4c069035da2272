"""``cascade demo``: the README's first command runs, serves a live game, and stops cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from companion.demo_game import start_demo

ROOT = Path(__file__).resolve().parents[2]


def cascade(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", *args]


def wait_for_line(process: subprocess.Popen, text: str) -> str:
    assert process.stdout is not None
    for line in process.stdout:
        if text in line:
            return line
    raise AssertionError(f"the demo ended without printing {text!r}")


@pytest.mark.parametrize(
    "camera", [pytest.param(True, id="filmed", marks=pytest.mark.slow), pytest.param(False, id="direct")]
)
def test_demo_plays_a_whole_game_with_its_mistake_caught(tmp_path, camera):
    session = start_demo(tmp_path, fps=None, games=1, leds_spec="emu:", port=0, camera=camera)
    assert session.filmed is camera
    seen_alerts = []
    viewer = session.live.broadcaster.subscribe()
    stream = session.live.broadcaster.stream(viewer)
    try:
        for event in stream:
            state = json.loads(event.split("data: ", 1)[1])
            if state["alerts"]:
                seen_alerts.append(state["alerts"][0])
            if state["result"]:
                break
        result = session.live.snapshot().result
    finally:
        session.close()
    assert result in ("1-0", "0-1", "1/2-1/2")
    assert seen_alerts and any("should be" in alert for alert in seen_alerts)
    assert session.worker_error is None


def test_demo_stops_after_its_duration(tmp_path):
    done = subprocess.run(
        cascade("demo", "--port", "0", "--duration", "4"), cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "http://127.0.0.1:" in done.stdout
    assert "Demo stopped (time is up)" in done.stdout


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_demo_stops_cleanly_on_a_signal(sig):
    process = subprocess.Popen(
        cascade("demo", "--port", "0"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = wait_for_line(process, "watch the game:")
        url = line.split()[-1]
        with urllib.request.urlopen(url + "api/state", timeout=30) as answer:
            state = json.load(answer)
        assert state["game"] == "cascade" and "diagram" in state
        wait_for_line(process, "Press Ctrl-C")
        process.send_signal(sig)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "Demo stopped" in out
    assert "Traceback" not in err


def test_demo_refuses_a_bad_duration():
    done = subprocess.run(cascade("demo", "--duration", "-1"), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--duration" in done.stderr
