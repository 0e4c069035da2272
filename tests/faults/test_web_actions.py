"""Hostile requests to the page: checked against the game, answered 400 (never 500), changing nothing."""

from __future__ import annotations

import json
import re

import pytest

from companion.live import LiveGame
from companion.store import Store
from companion.web import create_app
from referee.game import make_rules
from tests.companion.fakes import FakeLive, make_snapshot

TOKEN = "s3cret"
SCRIPT = "</script><script>alert(1)</script>"


@pytest.fixture
def live():
    return FakeLive()


@pytest.fixture
def client(live):
    return create_app({"LIVE": live, "TOKEN": TOKEN, "TESTING": True}).test_client()


def post(client, name, **fields):
    return client.post(f"/api/action/{name}", data={"token": TOKEN, **fields})


def post_json(client, name, body):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(
        f"/api/action/{name}", data=data, headers={"X-Cascade-Token": TOKEN, "Content-Type": "application/json"}
    )


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"cell": "b2", "symbol": "é"}, "'é' is not what a cascade cell can hold: use one of ., o, x, ="),
        ({"cell": "b2", "symbol": "ox"}, "'ox' is not what a cascade cell can hold"),
        ({"cell": "b2", "symbol": SCRIPT}, "'</script><script>al…' is not what a cascade cell can hold"),
        ({"cell": "b2", "symbol": "?"}, "'?' is not what"),
        ({"cell": "z99", "symbol": "x"}, "'z99' is not a cell of the diamond:3 board"),
        ({"cell": "b2" * 1000, "symbol": "x"}, "is not a cell of the diamond:3 board"),
        ({"cell": "", "symbol": "x"}, "say which cell to correct"),
        ({"cell": "b2", "symbol": "x", "extra": "1"}, "correct takes only cell and symbol, not 'extra'"),
    ],
)
def test_a_bad_correction_is_refused_and_changes_nothing(client, live, fields, words):
    answer = post(client, "correct", **fields)
    assert answer.status_code == 400
    assert words in answer.get_json()["message"] and not answer.get_json()["ok"]
    assert live.actions == []


def test_actions_without_parameters_take_none(client, live):
    answer = post(client, "undo", cell="b2")
    assert answer.status_code == 400 and answer.get_json()["message"] == "undo takes no parameters, not 'cell'"
    assert live.actions == []


def test_a_good_correction_reaches_the_game_with_its_cell_named_canonically(client, live):
    assert post(client, "correct", cell=" B2 ", symbol="").status_code == 200
    assert live.actions == [("correct", {"cell": "b2", "symbol": "."})]


@pytest.mark.parametrize(
    ("game", "spec", "good", "bad"),
    [
        ("cascades", "trapezoid:3,3", ["o", "x", "."], ["=", "o1"]),
        ("kaskade", "grid:3x3", ["o1", "x4", "o9", "."], ["o", "=", "o0", "x10", "o²"]),
    ],
)
def test_each_game_takes_its_own_symbols(live, game, spec, good, bad):
    live.current = make_snapshot(spec, game=game)
    client = create_app({"LIVE": live, "TOKEN": TOKEN}).test_client()
    for symbol in good:
        assert post(client, "correct", cell="a1", symbol=symbol).status_code == 200, symbol
    for symbol in bad:
        assert post(client, "correct", cell="a1", symbol=symbol).status_code == 400, symbol
    assert [params["symbol"] for _, params in live.actions] == good


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ([1, 2], "must be a JSON object of names and values"),
        ("[" * 100_000 + "]" * 100_000, "Request Entity Too Large"),
        ("[" * 5000 + "]" * 5000, "the body is not JSON"),
        ('{"cell": ' * 1500 + "1" + "}" * 1500, "the body is not JSON"),
        ({"cell": {"nested": "b2"}, "symbol": "x"}, "the value of 'cell' must be text or a number"),
        ({"cell": "b2", "symbol": None}, "the value of 'symbol' must be text"),
        ("{not json", "the body is not JSON"),
        (b"\xff\xfe\x00", "the body is not JSON"),
        ('"just text"', "not a JSON str"),
    ],
)
def test_a_body_that_is_not_a_small_json_object_answers_4xx_never_500(client, live, body, words):
    answer = post_json(client, "correct", body)
    assert answer.status_code in (400, 413)
    assert answer.is_json and words in answer.get_json()["message"]
    assert live.actions == []


def test_a_json_object_is_an_action_s_parameters(client, live):
    assert post_json(client, "correct", {"cell": "c3", "symbol": "x"}).status_code == 200
    assert post_json(client, "undo", "").status_code == 200
    assert live.actions == [("correct", {"cell": "c3", "symbol": "x"}), ("undo", {})]


def test_a_refused_correction_never_reaches_the_live_game(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        game = LiveGame.start_or_resume(make_rules("cascade", "diamond:3").start(), store)
        client = create_app({"LIVE": game, "TOKEN": TOKEN}).test_client()
        empty = ("." for _ in range(9))
        game.on_reading(tuple(empty))
        for symbol in ("é", "ox", SCRIPT):
            assert post(client, "correct", cell="b2", symbol=symbol).status_code == 400
        snap = game.on_reading(tuple("." for _ in range(9)))  # the next reading is judged as before
        assert snap.errors == () and snap.alerts == ()
        assert post(client, "correct", cell="b2", symbol="x").status_code == 200
        game.close()


def initial_state(html):
    found = re.search(r'<script id="initial-state" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_state_embedded_in_the_page_cannot_close_its_script(client, live):
    live.current = make_snapshot(message=SCRIPT, alerts=(SCRIPT,), moves=(SCRIPT, "o a3"), turn="<b>&</b>")
    html = client.get("/").get_data(as_text=True)
    assert "<script>alert(1)" not in html
    assert html.count("</script>") == 3  # the state's, page.js's and coach.js's own ends
    state = initial_state(html)
    assert state == live.current.to_json()


def test_every_answer_carries_a_content_security_policy(client):
    for path in ("/", "/api/state", "/api/board", "/static/page.js", "/api/action/undo"):
        response = client.post(path) if "action" in path else client.get(path)
        policy = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "default-src 'none'" in policy, path
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        response.close()


def test_the_page_shows_the_led_link_only_when_it_has_something_to_say(client, live):
    live.current = make_snapshot(link="LEDs disconnected since 20:31, retrying")
    html = client.get("/").get_data(as_text=True)
    assert '<p id="link" class="link" role="status">LEDs disconnected since 20:31, retrying</p>' in html
    live.current = make_snapshot()
    html = client.get("/").get_data(as_text=True)
    assert '<p id="link" class="link" role="status" hidden></p>' in html


def test_the_correction_menu_offers_the_game_s_own_symbols(live):
    live.current = make_snapshot("grid:3x3", game="kaskade")
    html = create_app({"LIVE": live}).test_client().get("/").get_data(as_text=True)
    assert '<option value="o2">2 white</option>' in html and '<option value="=">' not in html
