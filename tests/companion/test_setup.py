"""Setting the table up from the page: the guided calibration driven by camera frames, the LED map, a new game."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.guided import GuidedCalibration
from calibration.profile import load_profile, save_profile
from calibration.ready import load_ready_profile, row_major_leds
from calibration.simtable import CalibrationTable
from companion.cli import main
from companion.live import LiveGame
from companion.running import page_profile_path
from companion.store import Store
from companion.table_setup import SetupRefusedError, TableSetup
from companion.web import create_app
from referee.game import make_rules
from referee.geometry import parse_geometry
from tests.companion.fakes import FakeLive

TOKEN = "setup-token"
FRAMES = 1500


class Player:
    """A live game stand-in that records restarts."""

    def __init__(self, spec: str = "diamond:4") -> None:
        self.position = make_rules("cascade", spec).start()
        self.restarts: list[tuple[object, dict]] = []

    def restart(self, start, players) -> str:
        self.restarts.append((start, dict(players)))
        self.position = start
        return "New game: set the board to its start position"


def calibrating(tmp_path, spec="diamond:4", leds=True):
    geometry = parse_geometry(spec)
    table = CalibrationTable(geometry, led_wiring=row_major_leds(geometry) if leds else None)
    installed: list = []
    lit: list = []
    setup = TableSetup(
        Player(spec),
        tmp_path / "profile.json",
        lambda: GuidedCalibration(geometry),
        installed.append,
        leds=(len(table.led_wiring), table.light_leds) if leds else None,
        see=table.see,
        calibrated=False,
        light_cells=lit.append,
    )
    return setup, table, installed, lit


def run_until(setup, table, done, limit=FRAMES):
    for _ in range(limit):
        if done(setup.calibration.state()):
            return
        if setup.calibration.state()["step"]["asks"]:
            setup.calibration.answer(table.answer(setup.calibration.flow))
            continue
        assert setup.feed(table.grab())
    raise AssertionError(f"not reached in {limit} frames: {setup.calibration.state()}")


def test_the_page_drives_the_guided_calibration_to_a_saved_profile_with_its_led_map(tmp_path):
    setup, table, installed, lit = calibrating(tmp_path)
    state = setup.state()
    assert state["calibrating"] and not state["calibrated"]
    assert state["calibration"]["step"]["title"] == "Find the board" and state["calibration"]["number"] == 1
    with pytest.raises(SetupRefusedError, match="no question is asked"):
        setup.calibration.answer(True)
    with pytest.raises(SetupRefusedError, match="finish it first"):
        setup.save()
    problems = []

    def note(state):
        problems.extend(p["what"] for p in state["problems"])
        return state["step"]["name"] == "confirm"

    run_until(setup, table, note)
    assert problems  # the simulated newcomer makes the usual mistakes, and is told of them in plain words
    preview = setup.calibration.preview()
    assert preview and cv2.imdecode(np.frombuffer(preview, np.uint8), cv2.IMREAD_COLOR).shape[1] == 640
    run_until(setup, table, lambda s: s["done"])
    assert any(step for step in lit if step)  # the cells of the stones step were lit
    assert setup.calibration.state()["can_map_leds"]
    setup.calibration.map_leds()
    run_until(setup, table, lambda s: not s["mapping"] and s["leds"].startswith("LEDs mapped"))
    assert setup.save().startswith("Profile saved to")
    saved = load_profile(tmp_path / "profile.json")
    assert saved.geometry == "diamond:4" and saved.led_map is not None
    assert installed and installed[0].geometry == "diamond:4"
    assert setup.state()["calibrated"] and not setup.state()["calibrating"] and lit[-1] == {}
    assert not setup.feed(table.grab())  # the game reads the frames again


def test_without_single_leds_the_led_map_is_refused_in_plain_words(tmp_path):
    setup, table, _, _ = calibrating(tmp_path, leds=False)
    run_until(setup, table, lambda s: s["done"])
    with pytest.raises(SetupRefusedError, match="cannot light single LEDs"):
        setup.calibration.map_leds()
    setup.save()


def page(setup, live=None):
    return create_app({"LIVE": live or FakeLive(), "TOKEN": TOKEN, "SETUP": setup}).test_client()


def act(client, name, body=None, token=TOKEN):
    return client.post(f"/api/setup/{name}", json=body or {}, headers={"X-Cascade-Token": token} if token else {})


def test_the_setup_page_is_read_only_without_the_token_and_refuses_bad_requests(tmp_path):
    setup, table, _, _ = calibrating(tmp_path)
    client = page(setup)
    shown = client.get("/setup")
    assert shown.status_code == 200 and "Find the board" not in shown.data.decode()  # filled in by the script
    assert json.loads(client.get("/api/setup").data)["calibration"]["step"]["name"] == "locate"
    assert client.get("/setup/preview.jpg").status_code == 404
    setup.feed(table.grab())
    assert client.get("/setup/preview.jpg").headers["Content-Type"] == "image/jpeg"
    for token in ("", "wrong"):
        assert act(client, "calibrate", token=token).status_code == 403
    for name, body, words in [
        ("answer", {"yes": "yes"}, "no question is asked"),
        ("answer", {"yes": "perhaps"}, "answer yes or no"),
        ("save", {}, "finish it first"),
        ("again", {}, "has not been captured yet"),
        ("calibrate", {"board": "x"}, "takes no parameters"),
        ("new_game", {"board": "diamond:8"}, "watches the diamond:4 board"),
        ("new_game", {"variant": "upside-down"}, "has no variant 'upside-down': choose fill-above"),
        ("new_game", {"first": "red"}, "white or black"),
    ]:
        answer = act(client, name, body)
        assert answer.status_code == 400 and words in answer.json["message"], (name, answer.json)
    assert act(client, "launch").status_code == 404
    assert create_app({"LIVE": FakeLive()}).test_client().get("/setup").status_code == 404


def test_a_new_game_from_the_page_takes_its_options_and_players(tmp_path):
    start = make_rules("cascade", "diamond:4").start()
    with Store(tmp_path / "games.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        live.on_reading(start.play("o a4").position.symbols())
        setup = TableSetup(live, tmp_path / "p.json", lambda: GuidedCalibration(start.geometry), lambda p: None)
        client = page(setup, live)
        options = json.loads(client.get("/api/setup").data)["options"]
        assert options == {"game": "cascade", "board": "diamond:4", "variants": ["fill-above"], "first": True}
        answer = act(client, "new_game", {"variant": "fill-above", "first": "black", "white": "Ada", "black": " Bo "})
        assert answer.status_code == 200 and "New game" in answer.json["message"]
        games = store.games()
        assert games[0].result == "*" and games[0].ply_count == 1  # the game under way is kept, unfinished
        latest = games[-1]
        assert latest.header("Variant") == "fill-above" and latest.header("First") == "black"
        assert latest.header("White") == "Ada" and latest.header("Black") == "Bo"
        assert live.game_id == latest.id and live.position.rules.variant == "fill-above"
        assert live.position.mover_colour == "x"  # the first player owns black


def run_args(tmp_path, camera):
    return ["run", "--camera", camera, "--store", str(tmp_path / "store" / "games.sqlite3"), "--port", "0"]


def test_cascade_run_without_a_profile_opens_the_calibration_on_the_page(tmp_path, capsys):
    geometry = parse_geometry("diamond:8")
    table = CalibrationTable(geometry, mistakes=False)
    frames = tmp_path / "frames"
    frames.mkdir()
    for number in range(3):
        cv2.imwrite(str(frames / f"{number:03d}.png"), table.grab())
    assert main(run_args(tmp_path, f"dir:{frames}")) == 0
    err = capsys.readouterr().err
    assert "has no calibration profile yet: calibrate it on the page" in err and "/setup?token=" in err
    saved = page_profile_path(tmp_path / "store" / "games.sqlite3", geometry)
    assert saved.name == "diamond-8.json" and saved.parent.is_dir()
    save_profile(load_ready_profile("diamond:8"), saved)  # as the page saves it
    assert main(run_args(tmp_path, f"dir:{frames}")) == 0
    assert "reading the board with the profile calibrated on the page" in capsys.readouterr().err


def test_page_profile_path_is_beside_the_store():
    path = page_profile_path(Path("/x/games.sqlite3"), parse_geometry("trapezoid:8,8"))
    assert path == Path("/x/profiles/trapezoid-8-8.json")
