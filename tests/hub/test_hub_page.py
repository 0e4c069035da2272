"""The hub gathers boards through the in-process broker and serves their page, standings, archive and feed."""

from __future__ import annotations

import json
import threading
import time

import pytest

from companion.broker_url import BrokerUrl
from companion.hub_messages import JournalMessage, encode, journal_topic
from companion.mqtt_sim import MemoryBroker
from companion.store import Store, export_record
from hub.feed import feed_game, shown_until
from hub.service import Hub
from hub.standings import Played, standings
from hub.tables import SimulatedBoard, TablePlan
from hub.web import create_hub_app
from referee.records import read_record, replay

BOARDS = ("1", "2", "3")


def until(condition, timeout_s=20.0):
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the condition was not met in time"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """Three boards play two games each through the in-process broker; the hub gathers them."""
    folder = tmp_path_factory.mktemp("event")
    broker = MemoryBroker()
    store = Store(folder / "hub.sqlite3", refuse_damage=False)
    hub = Hub(store, "ev", broker.link("hub"))
    hub.start()
    boards = []
    for name in BOARDS:
        url = BrokerUrl("127.0.0.1", 1883, "ev", name)
        plan = TablePlan(board="diamond:4", games=2, seed=int(name), step_s=0.0)
        boards.append(SimulatedBoard(folder, url, plan, link=broker.link(name)))
    stop = threading.Event()
    for board in boards:
        board.start()
        board.play(stop)
    for board in boards:
        until(lambda board=board: hub.recorder.next_seq(board.url.board, _key(board)) > board.store.last_entry(2))
    yield hub, boards, folder
    for board in boards:
        board.close()
    hub.close()
    store.close()
    broker.close()


def _key(board: SimulatedBoard) -> str:
    row = board.store.game(2)
    return f"2@{row.started_at}"


def test_the_hub_holds_every_game_of_every_board_as_the_board_does(event):
    hub, boards, _ = event
    for board in boards:
        for row in board.store.games():
            key = f"{row.id}@{row.started_at}"
            game = hub.recorder.game_id(board.url.board, key)
            assert game is not None
            assert [p.ply for p in hub.store.plies(game)] == [p.ply for p in board.store.plies(row.id)]
            mine = [(e.seq, e.kind, dict(e.body)) for e in hub.store.journal(game) if e.kind != "start"]
            assert mine == [(e.seq, e.kind, dict(e.body)) for e in board.store.journal(row.id) if e.kind != "start"]
            assert hub.store.game(game).result == row.result
            record = export_record(hub.store, game)  # cascade export works on the hub's store
            assert replay(read_record(record)).position.result == row.result
    assert hub.counts["applied"] == sum(b.store.last_entry(g.id) for b in boards for g in b.store.games())


def test_the_overview_shows_every_board_live(event):
    hub, _, _ = event
    until(lambda: all(v.state is not None and v.state.result for v in hub.views()))
    client = create_hub_app(hub).test_client()
    page = client.get("/").get_data(as_text=True)
    for name in BOARDS:
        assert f'id="board-{name}"' in page
    assert page.count('class="mini"') == len(BOARDS)
    assert "Game over" in page and "W1" in page
    assert client.get("/").headers["Content-Security-Policy"].startswith("default-src 'none'")
    views = client.get("/api/boards").get_json()
    assert [v["board"] for v in views] == list(BOARDS)
    assert all(v["applied"] > 0 and v["white"] == f"W{v['board']}" for v in views)


def test_a_boards_page_shows_its_moves_and_an_unknown_board_is_not_found(event):
    hub, _, _ = event
    client = create_hub_app(hub).test_client()
    page = client.get("/board/2").get_data(as_text=True)
    moves = hub.view("2").moves
    assert moves and moves[0] in page and 'class="full"' in page
    assert client.get("/board/99").status_code == 404


def test_the_standings_and_the_archive(event):
    hub, _, _ = event
    client = create_hub_app(hub).test_client()
    page = client.get("/standings").get_data(as_text=True)
    for name in BOARDS:
        assert f"W{name}" in page and f"B{name}" in page
    archive = client.get("/archive").get_data(as_text=True)
    assert archive.count("/feed/game/") == 2 * len(BOARDS)


def test_the_feed_gives_each_record_at_a_stable_address_and_all_of_them(event):
    hub, _, _ = event
    client = create_hub_app(hub).test_client()
    index = client.get("/feed/event.json").get_json()
    assert index["event"] == "ev" and len(index["games"]) == 2 * len(BOARDS)
    first = index["games"][0]
    record = client.get(first["record"]).get_data(as_text=True)
    assert '[Event "ev"]' in record and '[Table "1"]' in record and "Origin" not in record
    assert replay(read_record(record)).position.result == first["result"]
    everything = client.get("/feed/event.txt").get_data(as_text=True)
    assert everything.count('[Game "cascade"]') == 2 * len(BOARDS)
    assert client.get("/feed/game/999.txt").status_code == 404


def test_the_feed_runs_late_when_asked(event):
    hub, _, _ = event
    late = Hub(hub.store, "ev", MemoryBroker().link("late"), delay_min=30.0)
    client = create_hub_app(late).test_client()
    index = client.get("/feed/event.json").get_json()
    assert index["delay_minutes"] == 30.0
    assert all(g["plies"] == 0 and g["result"] == "*" for g in index["games"])


def test_an_illegal_or_corrected_ply_never_stops_a_games_feed(tmp_path):
    broker = MemoryBroker()
    with Store(tmp_path / "hub.sqlite3", refuse_damage=False) as store:
        hub = Hub(store, "ev", broker.link("hub"))
        hub.start()
        board = broker.link("board")
        board.start()
        start = {"game": "cascade", "geometry": "diamond:4", "headers": {"White": "Ann"}, "started_at": "t"}
        for message in (
            JournalMessage("5", "1@t", 1, "start", start),
            JournalMessage("5", "1@t", 2, "ply", {"number": 1, "ply": "o a1"}),
            JournalMessage("5", "1@t", 3, "ply", {"number": 2, "ply": "o a1"}),  # the same cell again: illegal
            JournalMessage("5", "1@t", 4, "ply", {"number": 3, "ply": "x b2"}),
            JournalMessage("5", "1@t", 5, "correction", {"number": 2, "ply": "x a2"}),
        ):
            board.publish(journal_topic("ev", "5"), encode(message))
        until(lambda: hub.recorder.next_seq("5", "1@t") == 6)
        record = create_hub_app(hub).test_client().get("/feed/game/1.txt").get_data(as_text=True)
        assert record.splitlines()[-2:] == ["1. o a1  x a2", "2. x b2"]
        hub.close()
    broker.close()


def test_feed_and_standings_are_pure():
    rows = standings(
        [
            Played("1", "Ann", "Bob", "1-0"),
            Played("2", "Cid", "Ann", "1/2-1/2"),
            Played("3", "", "", "0-1"),
            Played("4", "Bob", "Cid", "*"),
        ]
    )
    assert [(s.player, s.points, s.games) for s in rows] == [
        ("Ann", 1.5, 2),
        ("board 3 Black", 1.0, 1),
        ("Cid", 0.5, 1),
        ("Bob", 0.0, 1),
        ("board 3 White", 0.0, 1),
    ]
    from datetime import UTC, datetime

    assert shown_until(datetime(2026, 5, 1, 20, 0, tzinfo=UTC), 15) == "2026-05-01T19:45:00.000+00:00"
    assert callable(feed_game)


def test_a_follower_gets_each_games_record_as_an_event(event):
    hub, _, _ = event
    response = create_hub_app(hub).test_client().get("/feed/follow", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    first = next(chunks)
    first = first.decode() if isinstance(first, bytes) else first
    assert first.startswith("event: record\n")
    data = json.loads("".join(line[6:] for line in first.splitlines() if line.startswith("data: ")))
    assert data["game"] == 1 and '[Table "1"]' in data["record"]
    response.close()


def test_a_board_whose_changes_do_not_come_is_asked_again_and_shown_behind(tmp_path):
    from companion.hub_messages import BoardState, ResendRequest, decode, state_topic

    broker = MemoryBroker()
    asked = []
    board = broker.link("board")
    board.on_message = lambda topic, payload: asked.append(decode(topic, payload))
    board.subscribe(["cascade/ev/9/resend"])
    board.start()
    with Store(tmp_path / "hub.sqlite3", refuse_damage=False) as store:
        hub = Hub(store, "ev", broker.link("hub"))
        hub.behind_grace_s = hub.show_behind_s = 0.0
        hub.start()
        state = BoardState("9", "4@t", "cascade", "diamond:4", 6, recent=(("3@t", 20),))
        board.publish(state_topic("ev", "9"), encode(state), retain=True)
        until(lambda: hub.view("9") is not None and hub.view("9").behind)
        assert "changes from number 1 on have not arrived" in hub.view("9").behind
        until(lambda: {r.game for r in asked} == {"4@t", "3@t"})
        assert all(isinstance(r, ResendRequest) and r.start == 1 for r in asked)
        page = create_hub_app(hub).test_client().get("/").get_data(as_text=True)
        assert "board 9: changes from number 1 on have not arrived" in page
        hub.close()
    broker.close()
