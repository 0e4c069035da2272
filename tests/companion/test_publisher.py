"""Publishing a board's game: in order, nothing lost while the broker is away, nothing held up, resumable."""

from __future__ import annotations

import time

import pytest

from companion.broker_url import BrokerUrl
from companion.hub_messages import JournalMessage, ResendRequest, decode, encode, journal_topic, resend_topic
from companion.live import LiveGame
from companion.mqtt_sim import MemoryBroker, matches
from companion.publisher import Publisher
from companion.scenario import script_game
from companion.store import Store
from referee.game import make_rules

URL = BrokerUrl("127.0.0.1", 1883, "ev", "7")
RULES = make_rules("cascade", "diamond:4")


def until(condition, timeout_s=10.0):
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "the condition was not met in time"
        time.sleep(0.01)


class Listener:
    """The hub's side of the in-process broker: every journal message and state, in arrival order."""

    def __init__(self, broker: MemoryBroker) -> None:
        self.link = broker.link("hub")
        self.journal: list[JournalMessage] = []
        self.states = []
        self.link.on_message = self.take
        self.link.subscribe(["cascade/ev/+/journal", "cascade/ev/+/state"])
        self.link.start()

    def take(self, topic, payload):
        message = decode(topic, payload)
        (self.journal if isinstance(message, JournalMessage) else self.states).append(message)

    def seqs(self, game=None):
        return [m.seq for m in self.journal if game is None or m.game == game]


@pytest.fixture
def board(tmp_path):
    broker = MemoryBroker()
    store = Store(tmp_path / "board.sqlite3")
    live = LiveGame.start_or_resume(RULES.start(), store, headers={"White": "Ada", "Black": "Bo"})
    link = broker.link("board")
    publisher = Publisher(store, URL, link)
    publisher.on_words = live.set_hub
    live.on_snapshot = publisher.notify
    yield broker, store, live, link, publisher
    live.on_snapshot = None
    publisher.close(0.5)
    store.close()
    broker.close()


def play(live, plies):
    script = script_game(RULES.start(), seed=3)
    for step in script.steps:
        if len(live.moves) >= plies:
            return
        live.on_reading(step.board)


def test_every_change_goes_out_once_in_order_with_the_board_state(board):
    broker, store, live, _link, publisher = board
    hub = Listener(broker)
    publisher.start()
    play(live, 99)
    assert live.position.is_over
    game = live.game_id
    wanted = [e.seq for e in store.journal(game)]
    until(lambda: hub.seqs() == wanted)
    assert next(m.kind for m in hub.journal) == "start" and hub.journal[-1].kind == "result"
    assert [m.body["ply"] for m in hub.journal if m.kind == "ply"] == [p.ply for p in store.plies(game)]
    until(lambda: hub.states and hub.states[-1].result == live.position.result)
    state = hub.states[-1]
    assert (state.white, state.black, state.seq, state.plies) == ("Ada", "Bo", wanted[-1], len(live.moves))
    assert state.cells == live.position.symbols()
    assert decode("cascade/ev/7/state", broker.retained("cascade/ev/7/state")) == state
    until(lambda: store.sent_marks(publisher.destination).get(game) == wanted[-1])


def test_a_cut_link_keeps_the_game_going_and_says_so_then_sends_everything_in_order(board):
    broker, store, live, link, publisher = board
    hub = Listener(broker)
    publisher.grace_s = 0.0
    publisher.start()
    play(live, 2)
    until(lambda: len(hub.journal) == store.last_entry(live.game_id))
    link.cut()
    play(live, 8)
    assert len(live.moves) == 8
    until(lambda: "not reached" in live.snapshot().hub)
    assert "wait in the store" in live.snapshot().hub and "game goes on" in live.snapshot().hub
    assert len(hub.journal) == 3
    link.mend()
    until(lambda: hub.seqs() == list(range(1, store.last_entry(live.game_id) + 1)))
    until(lambda: live.snapshot().hub == "")


def test_a_board_started_again_sends_what_the_broker_never_acknowledged(board, tmp_path):
    broker, store, live, link, publisher = board
    hub = Listener(broker)
    link.cut()
    publisher.start()
    play(live, 5)
    publisher.close(0.0)  # the board stops with nothing acknowledged
    again = Publisher(store, URL, broker.link("board"))
    live.on_snapshot = again.notify
    again.start()
    again.notify(live.snapshot())
    until(lambda: hub.seqs() == list(range(1, store.last_entry(live.game_id) + 1)))
    again.close(0.5)


def test_a_hub_that_asks_again_gets_the_entries_again(board):
    broker, store, live, _link, publisher = board
    hub = Listener(broker)
    publisher.start()
    play(live, 4)
    last = store.last_entry(live.game_id)
    until(lambda: hub.seqs() == list(range(1, last + 1)))
    key = hub.journal[0].game
    hub.link.publish(resend_topic("ev", "7"), encode(ResendRequest("7", key, 3)))
    until(lambda: hub.seqs() == list(range(1, last + 1)) + list(range(3, last + 1)))


def test_games_ended_before_the_first_publication_stay_at_home(tmp_path):
    broker = MemoryBroker()
    with Store(tmp_path / "b.sqlite3") as store:
        old = store.new_game("cascade", "diamond:4")
        store.end_game(old, "*")
        current = store.new_game("cascade", "diamond:4")
        hub = Listener(broker)
        publisher = Publisher(store, URL, broker.link("board"))
        publisher.start()
        publisher.notify(None)  # type: ignore[arg-type]
        until(lambda: len(hub.journal) == 1)
        assert hub.journal[0].game.startswith(f"{current}@")
        publisher.close(0.5)
    broker.close()


def test_the_in_process_broker_matches_topics_as_mqtt_does():
    assert matches("cascade/ev/+/state", "cascade/ev/7/state")
    assert not matches("cascade/ev/+/state", "cascade/ev/7/journal")
    assert not matches("cascade/ev/+", "cascade/ev/7/state")
    assert matches("cascade/#", "cascade/ev/7/state")
    assert journal_topic("ev", "7") == "cascade/ev/7/journal"
