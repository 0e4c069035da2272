"""The commands of an event: ``cascade hub``, and ``cascade demo --publish`` with a broker and without one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from hub.errors import MosquittoMissingError
from hub.mosquitto import Mosquitto, free_port, mosquitto_binary

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def cascade(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", *args]


def started(command: list[str], marker: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    assert process.stdout is not None
    for line in process.stdout:
        if marker in line:
            return process, line.split()[-1]
    raise AssertionError(
        f"{command} ended without printing {marker!r}: {process.stderr.read() if process.stderr else ''}"
    )


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


def until(condition, timeout_s=60.0):
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, "the condition was not met in time"
        time.sleep(0.1)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["hub", "--broker", "http://h/ev"], "is not an MQTT address"),
        (["hub", "--broker", "mqtt://h/ev/7"], "should end in /EVENT"),
        (["hub", "--broker", "mqtt://h:99999/ev"], "port that is not one from 1 to 65535"),
        (["hub", "--broker", "mqtt://h/ev", "--port", "70000"], "must be a port from 0 to 65535"),
        (["hub", "--broker", "mqtt://h/ev", "--delay", "-5"], "must be a number of seconds, 0 or more"),
        (["demo", "--publish", "mqtt://h/ev"], "should end in /EVENT/BOARD"),
        (["run", "--camera", "table:", "--publish", "mqtt://h/e v/1"], "must be 1 to 40 letters"),
    ],
)
def test_bad_input_is_one_line_and_status_2(argv, words):
    done = subprocess.run(cascade(*argv), cwd=ROOT, capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2
    assert words in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_hub_whose_broker_is_not_there_says_so_in_one_line(tmp_path):
    store = tmp_path / "hub.sqlite3"
    argv = cascade("hub", "--broker", f"mqtt://127.0.0.1:{free_port()}/ev", "--wait", "1", "--store", str(store))
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2
    assert "did not answer within 1 s: start it" in done.stderr and done.stderr.count("\n") == 1
    assert not store.exists()


def test_a_board_with_no_broker_plays_as_before_with_one_line_on_its_page():
    argv = ["demo", "--no-camera", "--leds", "none:", "--fps", "30", "--port", "0"]
    demo, page = started(cascade(*argv, "--publish", f"mqtt://127.0.0.1:{free_port()}/ev/1"), "watch the game:")
    try:
        state = until(lambda: (s := get_json(page + "api/state"))["hub"] and s)
        assert "The event's hub is not reached" in state["hub"] and "the game goes on" in state["hub"]
        until(lambda: len(get_json(page + "api/state")["moves"]) >= 3)
        demo.send_signal(signal.SIGINT)
        out, err = demo.communicate(timeout=30)
    finally:
        if demo.poll() is None:
            demo.kill()
    assert demo.returncode == 0, err
    assert "Demo stopped" in out and "Traceback" not in err


@pytest.fixture
def mosquitto(tmp_path):
    try:
        mosquitto_binary()
    except MosquittoMissingError as error:
        pytest.fail(str(error))
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    yield broker
    broker.stop()


def test_a_demo_published_to_a_hub_is_on_its_page_and_exported_from_its_store(tmp_path, mosquitto):
    store = tmp_path / "hub.sqlite3"
    hub, page = started(
        cascade("hub", "--broker", f"{mosquitto.url}/club", "--store", str(store), "--port", "0"), "page:"
    )
    demo = None
    try:
        argv = ["demo", "--no-camera", "--leds", "none:", "--fps", "40", "--port", "0"]
        demo, _ = started(cascade(*argv, "--publish", f"{mosquitto.url}/club/demo"), "publishing to:")
        view = until(lambda: [v for v in get_json(page + "api/boards") if len(v["moves"]) >= 4])
        assert view[0]["board"] == "demo" and view[0]["white"] == "Ada" and view[0]["rules"] == "cascade"
        with urllib.request.urlopen(page, timeout=10) as answer:
            assert 'id="board-demo"' in answer.read().decode()
        demo.send_signal(signal.SIGINT)
        demo.communicate(timeout=30)
        assert demo.returncode == 0
        index = until(lambda: get_json(page + "feed/event.json")["games"])
        record = urllib.request.urlopen(page + index[0]["record"].lstrip("/"), timeout=10).read().decode()
        assert '[Table "demo"]' in record and "1. " in record
    finally:
        for process in (demo, hub):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)
    assert hub.returncode == 0
    games = subprocess.run(cascade("games", "--store", str(store)), cwd=ROOT, capture_output=True, text=True, env=ENV)
    assert games.returncode == 0 and "cascade" in games.stdout, games.stderr
