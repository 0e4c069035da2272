"""The page with Flask's test client: state, page, events, actions and the token, board drawing."""

from __future__ import annotations

import json

import pytest

from companion.errors import SetupError
from companion.web import create_app
from companion.web.board import draw_board
from companion.web.broadcast import Broadcaster, encode_event
from referee.geometry import parse_geometry
from tests.companion.fakes import CellMark, FakeLive, make_snapshot

TOKEN = "s3cret"


@pytest.fixture
def live():
    return FakeLive()


@pytest.fixture
def client(live):
    app = create_app({"LIVE": live, "TOKEN": TOKEN, "TESTING": True})
    return app.test_client()


def test_state_has_the_required_fields(client, live):
    live.current = make_snapshot(
        pending=(CellMark("b2", "x"),), alerts=("The stone on c3 should be black",), moves=("o a3",)
    )
    state = client.get("/api/state").get_json()
    for key in ("game", "diagram", "score", "turn", "pending", "alerts", "moves"):
        assert key in state
    assert state["pending"] == [{"cell": "b2", "need": "x"}]
    assert state["score"] == {"white": 0, "black": 0}
    assert state["moves"] == ["o a3"]


def test_the_page_draws_every_cell_and_shows_the_alerts(client, live):
    live.current = make_snapshot(alerts=("Two stones were dropped: take one back",), moves=("o a3", "x b2 =", "o c3"))
    html = client.get("/").get_data(as_text=True)
    assert "<li>o a3   x b2 =</li><li>o c3</li>" in html
    for cell in parse_geometry("diamond:3").cells:
        assert f'id="cell-{cell.name}"' in html
        assert f'id="led-{cell.name}"' in html
    assert "Two stones were dropped: take one back" in html
    assert 'name="viewport"' in html


def test_events_start_with_the_current_snapshot_and_follow_changes(client, live):
    response = client.get("/events")
    assert response.mimetype == "text/event-stream"
    stream = iter(response.response)
    first = next(stream)
    first = first.decode() if isinstance(first, bytes) else first
    assert first.startswith("event: snapshot\n")
    assert json.loads(first.split("data: ", 1)[1])["seq"] == 1
    live.publish(make_snapshot(seq=2, turn="black to move"))
    second = next(stream)
    second = second.decode() if isinstance(second, bytes) else second
    assert json.loads(second.split("data: ", 1)[1])["turn"] == "black to move"
    live.broadcaster.close()
    assert list(stream) == []
    response.close()


def test_actions_need_the_token(client, live):
    assert client.post("/api/action/undo").status_code == 403
    assert client.post("/api/action/undo", data={"token": "wrong"}).status_code == 403
    answer = client.post("/api/action/undo", headers={"X-Cascade-Token": TOKEN})
    assert answer.status_code == 200 and answer.get_json()["message"] == "done: undo"
    answer = client.post("/api/action/correct", data={"token": TOKEN, "cell": "b2", "symbol": "x"})
    assert answer.status_code == 200
    assert live.actions == [("undo", {}), ("correct", {"cell": "b2", "symbol": "x"})]


def test_a_page_without_a_token_is_read_only(live):
    client = create_app({"LIVE": live}).test_client()
    assert client.post("/api/action/undo", data={"token": ""}).status_code == 403
    assert live.actions == []


def test_a_refused_action_says_why(client):
    answer = client.post("/api/action/correct", data={"token": TOKEN})
    assert answer.status_code == 400 and "which cell" in answer.get_json()["message"]
    assert client.post("/api/action/explode", data={"token": TOKEN}).status_code == 404


def test_camera_stream_is_multipart_jpeg(client):
    response = client.get("/camera.mjpg?frames=1")
    assert response.mimetype == "multipart/x-mixed-replace"
    body = response.get_data()
    assert b"Content-Type: image/jpeg" in body and b"\xff\xd8frame1\xff\xd9" in body


def test_create_app_needs_a_live_source():
    with pytest.raises(SetupError, match="LIVE"):
        create_app({})


def test_a_slow_viewer_is_dropped_and_never_blocks():
    broadcaster = Broadcaster(queue_size=4)
    slow = broadcaster.subscribe()
    fast = broadcaster.subscribe()
    stream = broadcaster.stream(fast)
    for n in range(10):
        broadcaster.publish(encode_event(str(n)))
        assert next(stream) == f"data: {n}\n\n"
    assert slow.dropped and broadcaster.dropped == 1
    assert broadcaster.viewer_count == 1
    leftover = list(broadcaster.stream(slow))  # ends by itself: the viewer was told to go
    assert leftover == [f"data: {n}\n\n" for n in range(1, 4)]


@pytest.mark.parametrize("spec", ["diamond:8", "hex-diamond:5", "trapezoid:8,8", "grid:6x6"])
def test_board_drawing_fits_its_view_box(spec):
    drawing = draw_board(parse_geometry(spec))
    left, top, width, height = map(float, drawing.view_box.split())
    assert len(drawing.cells) == len(parse_geometry(spec).cells)
    for cell in drawing.cells:
        assert left <= cell.cx <= left + width and top <= cell.cy <= top + height


def test_the_diamond_is_drawn_with_its_top_corner_up():
    drawing = draw_board(parse_geometry("diamond:8"))
    by_name = {c.name: c for c in drawing.cells}
    assert by_name["h1"].cy < by_name["a8"].cy < by_name["h15"].cy
    assert by_name["a8"].cx < by_name["h1"].cx < by_name["o8"].cx
    assert by_name["h1"].cx == pytest.approx(by_name["h15"].cx)
    assert by_name["a8"].cy == pytest.approx(by_name["o8"].cy)


def test_a_page_on_every_interface_is_announced_at_an_address_a_phone_can_reach():
    import ipaddress

    from companion.web.app import own_address

    address = ipaddress.ip_address(own_address())
    assert address.version == 4 and not address.is_unspecified


def test_the_page_s_mirror_of_the_leds_has_a_colour_for_every_light(client):
    import re

    from hardware import Colour

    script = client.get("/static/page.js").get_data(as_text=True)
    found = re.search(r"const LED_COLOURS = \{(.*?)\};", script)
    assert found is not None
    keys = set(re.findall(r'(?:"([^"]+)"|(\w+)): "#[0-9a-f]{6}"', found.group(1)))
    assert {a or b for a, b in keys} == {c.symbol for c in Colour}
