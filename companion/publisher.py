"""Publishing a board's game to the event's hub, through an MQTT broker, without ever holding up the game.

The store is the queue. Every change of a game is in its journal
(:mod:`companion.journal`), written with the change itself; the
:class:`Publisher` sends the journal entries the broker has not acknowledged,
in order, at most :data:`WINDOW` at a time, and records (every
:data:`MARK_EVERY_S`) how far the broker has acknowledged them. While the
broker or the network is away the entries wait in the store, the game goes
on, and the page says so in one line (:attr:`Publisher.words`); when the link
is back they go out in order. A board killed and started again sends what
the broker had not acknowledged: a hub drops what it already has.

Beside the journal the publisher keeps the board's retained state message up
to date (position, score, turn, alerts, result; at most every
:data:`STATE_EVERY_S`), and answers a hub's request to send a game's entries
again (after a broker that lost them). It follows the live game through
``LiveGame.on_snapshot`` and works on a thread of its own; the link
(:class:`companion.mqtt_link.Link`) reconnects by itself.

Games that ended before the board first published to a destination are not
sent there: a board brings its current game to an event, not its history.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from companion.broker_url import BrokerUrl
from companion.errors import CompanionError
from companion.hub_messages import (
    BoardState,
    JournalMessage,
    ResendRequest,
    decode,
    encode,
    game_key,
    journal_topic,
    resend_topic,
    state_topic,
)
from companion.journal import Entry
from companion.mqtt_link import Link
from companion.snapshot import Snapshot
from companion.store import Store

WINDOW = 32
"""Journal entries handed to the link and not yet acknowledged, at most (the rest waits in the store)."""
MARK_EVERY_S = 1.0
STATE_EVERY_S = 0.2
RECENT_GAMES = 5
"""How many of its earlier games a board's state lists with their last entry sent, so a hub can notice a lost
tail of a game the board has left behind."""
FROM = "#from"
GRACE_S = 3.0
"""How long the link may be down before the page says so (a reconnection is not news)."""


@dataclass
class _InFlight:
    game_id: int
    seq: int
    acked: bool = False


class Publisher:
    """Sends a board's journal and state to the broker (see the module docstring). Thread-safe."""

    def __init__(self, store: Store, url: BrokerUrl, link: Link, window: int = WINDOW) -> None:
        self.store = store
        self.url = url
        self.link = link
        self.window = window
        self.destination = f"mqtt://{url.address}/{url.event}/{url.board}"
        self.on_words: Callable[[str], None] | None = None
        self.words = ""
        self.grace_s = GRACE_S
        self.sent = 0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._inflight: dict[int, _InFlight] = {}
        self._acks: deque[int] = deque()
        self._order: list[_InFlight] = []
        self._after = (0, 0)
        self._resends: list[tuple[int, int]] = []
        self._snapshot: Snapshot | None = None
        self._state_sent: tuple[object, ...] | None = None
        self._state_at = 0.0
        self._state_due: float | None = None
        self._handed: dict[int, int] = {}
        self._fresh = False
        self._heard = False  # True once the link has connected or failed to, at least once
        self._down_since: float | None = time.monotonic()
        self._down_wall = time.time()
        self._marked_at = time.monotonic()
        self._keys: dict[int, str] = {}
        self._from_game = 0
        self._marks = self._first_marks()
        link.on_connect = self._connected
        link.on_disconnect = self._lost
        link.on_ack = self._acked
        link.on_message = self._message
        self._thread = threading.Thread(target=self._run, name="publisher", daemon=True)

    def start(self) -> None:
        """Connect in the background and start sending."""
        self.link.subscribe([resend_topic(self.url.event, self.url.board)])
        self.link.start()
        self._thread.start()

    def notify(self, snapshot: Snapshot) -> None:
        """The live game changed (``LiveGame.on_snapshot``): send what is new. Never blocks."""
        self._snapshot = snapshot
        self._wake.set()

    def close(self, timeout_s: float = 2.0) -> None:
        """Send what can still be sent within ``timeout_s``, record what was acknowledged, disconnect.

        A link still making its first connection is waited for (up to
        ``timeout_s``); one known to be down is not.
        """
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and (self.link.connected or not self._heard) and self._unsent():
            self._wake.set()
            time.sleep(0.02)
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)
        self._take_acks()
        self._save_marks()
        self.link.close()

    # -- the link's callbacks (on the link's thread) --------------------------------------------

    def _connected(self) -> None:
        self._heard = True
        with self._lock:
            self._fresh = True
            self._down_since = None
        self._wake.set()

    def _lost(self, words: str) -> None:
        self._heard = True
        with self._lock:
            if self._down_since is None:
                self._down_since = time.monotonic()
                self._down_wall = time.time()
        self._wake.set()

    def _acked(self, mid: int) -> None:
        self._acks.append(mid)  # taken by the publisher's thread, which alone knows what each id was
        self._wake.set()

    def _take_acks(self) -> None:
        while self._acks:
            mid = self._acks.popleft()
            with self._lock:
                flight = self._inflight.pop(mid, None)
                if flight is not None:
                    flight.acked = True
                while self._order and self._order[0].acked:
                    done = self._order.pop(0)
                    self._marks[done.game_id] = max(self._marks.get(done.game_id, 0), done.seq)

    def _message(self, topic: str, payload: bytes) -> None:
        try:
            request = decode(topic, payload)
        except CompanionError:
            return
        if isinstance(request, ResendRequest) and request.board == self.url.board:
            game_id = _game_number(request.game)
            if game_id is not None and self._is_ours(game_id, request.game):
                with self._lock:
                    self._resends.append((game_id, request.start))
                self._wake.set()

    # -- the publisher's thread ---------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            due = self._state_due if self.link.connected else None
            self._wake.wait(0.5 if due is None else min(0.5, max(0.0, due - time.monotonic())))
            self._wake.clear()
            try:
                self._step()
            except CompanionError as error:  # the store failed: the game goes on, the page says why
                self._say(f"Cannot send the game to the hub: {error}")

    def _step(self) -> None:
        self._take_acks()
        if self.link.connected:
            with self._lock:
                fresh, self._fresh = self._fresh, False
                resends, self._resends = self._resends, []
            for game_id, start in resends:
                self._resend(game_id, start)
            self._send_entries()
            self._send_state(force=fresh)
        if time.monotonic() - self._marked_at >= MARK_EVERY_S:
            self._save_marks()
        self._say(self._status())

    def _send_entries(self) -> None:
        with self._lock:
            room = self.window - len(self._order)
            after = self._after
        if room <= 0:
            return
        for entry in self.store.unsent(self.destination, after, room):
            mid = self.link.publish(journal_topic(self.url.event, self.url.board), encode(self._message_of(entry)))
            with self._lock:
                flight = _InFlight(entry.game_id, entry.seq)
                self._inflight[mid] = flight
                self._order.append(flight)
                self._after = (entry.game_id, entry.seq)
                self._handed[entry.game_id] = entry.seq
            self.sent += 1

    def _resend(self, game_id: int, start: int) -> None:
        """A hub asked again: send the game's entries from ``start`` up to what was sent before (unacknowledged)."""
        with self._lock:
            upto = max(self._handed.get(game_id, 0), self._marks.get(game_id, 0))
        for entry in self.store.journal(game_id, start - 1):
            if entry.seq > upto:
                break
            self.link.publish(journal_topic(self.url.event, self.url.board), encode(self._message_of(entry)))
            self.sent += 1

    def _send_state(self, force: bool) -> None:
        snapshot = self._snapshot
        if snapshot is None or snapshot.game_id is None:
            return
        now = time.monotonic()
        if not force and now - self._state_at < STATE_EVERY_S:
            self._state_due = self._state_at + STATE_EVERY_S  # come back for it then
            return
        self._state_due = None
        state = self._state_of(snapshot)
        content = (state.game, state.seq, state.cells, state.score, state.turn, state.alerts, state.result, state.link)
        if not force and content == self._state_sent:
            return
        self.link.publish(state_topic(self.url.event, self.url.board), encode(state), retain=True)
        self._state_sent = content
        self._state_at = now

    def _state_of(self, snapshot: Snapshot) -> BoardState:
        game_id = int(snapshot.game_id or 0)
        with self._lock:
            seq = max(self._handed.get(game_id, 0), self._marks.get(game_id, 0))
            earlier = sorted(
                {g for g in (*self._handed, *self._marks) if self._from_game <= g < game_id}, reverse=True
            )[:RECENT_GAMES]
            recent = tuple((g, max(self._handed.get(g, 0), self._marks.get(g, 0))) for g in earlier)
        row = self.store.game(game_id)
        return BoardState(
            board=self.url.board,
            game=self._key(game_id),
            rules=snapshot.game,
            geometry=snapshot.geometry,
            seq=seq,
            white=row.header("White"),
            black=row.header("Black"),
            cells=snapshot.cells,
            score=snapshot.score,
            turn=snapshot.turn,
            alerts=snapshot.alerts,
            message=snapshot.message,
            result=snapshot.result,
            plies=len([m for m in snapshot.moves if not m.endswith("…")]),
            link=snapshot.link,
            sent_at=time.time(),
            recent=tuple((self._key(g), seq) for g, seq in recent if seq),
        )

    def _message_of(self, entry: Entry) -> JournalMessage:
        key = self._key(entry.game_id)
        return JournalMessage(self.url.board, key, entry.seq, entry.kind, entry.body, entry.written_at)

    def _is_ours(self, game_id: int, key: str) -> bool:
        try:
            return self._key(game_id) == key
        except CompanionError:
            return False

    def _key(self, game_id: int) -> str:
        if game_id not in self._keys:
            self._keys[game_id] = game_key(game_id, self.store.game(game_id).started_at)
        return self._keys[game_id]

    # -- bookkeeping ------------------------------------------------------------------------------

    def _first_marks(self) -> dict[int, int]:
        """How far each game was acknowledged; on a first publication, the ended games count as sent.

        The first game published is remembered beside the marks (as the
        destination ``…#from``), so that the state lists only published games.
        """
        marks = self.store.sent_marks(self.destination)
        first = self.store.sent_marks(self.destination + FROM)
        games = self.store.games()
        if not first and games:
            opened = [g.id for g in games if g.is_open]
            start = min(opened) if opened else games[-1].id + 1
            old = {g.id: self.store.last_entry(g.id) for g in games if not g.is_open and g.id < start}
            self.store.mark_sent(self.destination, {game: seq for game, seq in old.items() if seq})
            first = {start: 0} if opened else {games[-1].id: 1}  # (a game, 1): from the game after it
            self.store.mark_sent(self.destination + FROM, first)
            marks = self.store.sent_marks(self.destination)
        self._from_game = sum(next(iter(first.items()))) if first else 0
        return marks

    def _save_marks(self) -> None:
        with self._lock:
            marks = dict(self._marks)
        self._marked_at = time.monotonic()
        self.store.mark_sent(self.destination, marks)

    def _unsent(self) -> bool:
        """True while some entry waits to be handed to the link or acknowledged by the broker."""
        with self._lock:
            after, flying = self._after, bool(self._order)
        return flying or bool(self._acks) or bool(self.store.unsent(self.destination, after, 1))

    def _status(self) -> str:
        with self._lock:
            down = self._down_since
            waiting = len(self._order)
        if down is None or time.monotonic() - down < self.grace_s:
            return ""
        waiting += len(self.store.unsent(self.destination, self._after, 1000))
        since = time.strftime("%H:%M", time.localtime(self._down_wall))
        what = f"{waiting} change{'s' if waiting != 1 else ''} of the game wait" if waiting else "nothing waits"
        return (
            f"The event's hub is not reached (broker {self.url.address}) since {since}: {what} in the store "
            "and will be sent when it is back; the game goes on"
        )

    def _say(self, words: str) -> None:
        if words != self.words:
            self.words = words
            if self.on_words is not None:
                self.on_words(words)


def _game_number(key: str) -> int | None:
    number = key.partition("@")[0]
    return int(number) if number.isdigit() else None


def open_publisher(store: Store, url: BrokerUrl) -> Publisher:
    """A publisher to the broker of ``url`` through paho-mqtt (client id ``cascade-EVENT-BOARD``)."""
    from companion.mqtt_link import MqttLink

    link = MqttLink(url.host, url.port, f"cascade-{url.event}-{url.board}")
    return Publisher(store, url, link)
