"""The running hub: the broker's messages in, the store and the board views kept, the page told of each change.

:class:`Hub` subscribes to every board of its event (``cascade/EVENT/+/state``
and ``.../journal``), feeds journal messages to the :class:`~hub.recorder.Recorder`
(each applied once, in order), keeps a :class:`BoardView` per board from the
boards' retained states and the store, and publishes each changed view to
the page's viewers as a Server-Sent Event (``board``; entries of a board's
earlier game, caught up after a fault, as an ``applied`` event). It asks a board again
(``cascade/EVENT/BOARD/resend``) for what it misses: entries waiting for an
earlier one at once, and entries the board's state says it sent (of its
current game and of its last few earlier ones) when they have not come
within :data:`BEHIND_GRACE_S`; the page shows a board that stays behind.
Everything runs on the link's thread and one checker thread.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import CompanionError
from companion.hub_messages import (
    BoardState,
    JournalMessage,
    ResendRequest,
    decode,
    encode,
    event_topics,
    resend_topic,
)
from companion.mqtt_link import Link
from companion.store import Store
from companion.web.broadcast import Broadcaster, encode_event
from hub.recorder import Outcome, Recorder

BEHIND_GRACE_S = 1.0
ASK_EVERY_S = 2.0
SHOW_BEHIND_S = 4.0
CHECK_EVERY_S = 0.5
VIEWER_QUEUE = 512


@dataclass(frozen=True)
class BoardView:
    """One board as the hub's page shows it: its latest state, and how much of its game the hub holds."""

    name: str
    game: str = ""
    game_id: int | None = None
    state: BoardState | None = None
    applied: int = 0
    at: str = ""
    moves: tuple[str, ...] = ()
    behind: str = ""
    heard: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict for the page."""
        state = self.state
        current = state is not None and state.game == self.game
        return {
            "board": self.name,
            "game": self.game,
            "game_id": self.game_id,
            "rules": state.rules if state else "",
            "geometry": state.geometry if state else "",
            "white": state.white if state else "",
            "black": state.black if state else "",
            "cells": list(state.cells) if state else [],
            "score": dict(state.score) if state else {},
            "turn": state.turn if state else "",
            "message": state.message if state else "",
            "alerts": list(state.alerts) if state else [],
            "result": state.result if current and state else None,
            "link": state.link if state else "",
            "applied": self.applied,
            "at": self.at,
            "moves": list(self.moves),
            "behind": self.behind,
            "heard": self.heard,
        }


class Hub:
    """The hub of one event (see the module docstring)."""

    def __init__(self, store: Store, event: str, link: Link, delay_min: float = 0.0) -> None:
        self.store = store
        self.event = event
        self.link = link
        self.delay_min = delay_min
        self.recorder = Recorder(store, event)
        self.broadcaster = Broadcaster(queue_size=VIEWER_QUEUE)
        self.counts: Counter[str] = Counter()
        self.behind_grace_s = BEHIND_GRACE_S
        self.show_behind_s = SHOW_BEHIND_S
        self._lock = threading.RLock()
        self._views: dict[str, BoardView] = {}
        self._behind_since: dict[tuple[str, str], float] = {}
        self._asked: dict[tuple[str, str], float] = {}
        self._known: dict[tuple[str, str], int] = {}
        self._stop = threading.Event()
        self._checker = threading.Thread(target=self._check_loop, name="hub-checker", daemon=True)
        self._load_views()
        link.on_message = self.receive
        link.subscribe(event_topics(event))

    def start(self, connect: bool = True) -> None:
        """Connect to the broker in the background (unless the link is started already) and start checking for
        missing entries."""
        if connect:
            self.link.start()
        self._checker.start()

    def close(self) -> None:
        """Stop, disconnect, end the page's streams (the store belongs to the caller)."""
        self._stop.set()
        if self._checker.is_alive():
            self._checker.join(timeout=5.0)
        self.link.close()
        self.broadcaster.close()

    # -- what the page reads ------------------------------------------------------------------

    def views(self) -> list[BoardView]:
        """Every board heard of, by name (numbers in numeric order)."""
        with self._lock:
            return sorted(self._views.values(), key=lambda v: _name_order(v.name))

    def view(self, name: str) -> BoardView | None:
        """One board's view."""
        with self._lock:
            return self._views.get(name)

    # -- messages -------------------------------------------------------------------------------

    def receive(self, topic: str, payload: bytes) -> None:
        """A message from the broker (on the link's thread)."""
        try:
            message = decode(topic, payload)
        except CompanionError:
            self.counts["bad"] += 1
            return
        late: dict[str, Any] | None = None
        with self._lock:
            if isinstance(message, JournalMessage):
                changed, late = self._journal(message)
            elif isinstance(message, BoardState):
                changed = self._state(message)
            else:
                return
        if changed is not None:
            self.broadcaster.publish(encode_event(json.dumps(changed.to_json()), "board"))
        if late is not None:  # a board's earlier game caught up: not on the page, but followers may count it
            self.broadcaster.publish(encode_event(json.dumps(late), "applied"))

    def _journal(self, message: JournalMessage) -> tuple[BoardView | None, dict[str, Any] | None]:
        """Apply a message; the board's changed view, or what was applied of an earlier game of the board."""
        outcomes = self.recorder.apply(message)
        for outcome in outcomes:
            self.counts[outcome.status] += 1
        applied = [o for o in outcomes if o.status == "applied"]
        key = (message.board, message.game)
        if any(o.status == "early" for o in outcomes):
            self._ask(key, force=False)
        view = self._views.get(message.board, BoardView(message.board))
        if not applied:
            return None, None
        last = applied[-1]
        if self.recorder.missing(*key, known=self._known.get(key, 0)) is None:
            self._behind_since.pop(key, None)
        if view.game != message.game and not _is_older(message.game, view.game):
            view = replace(view, game=message.game)
        if view.game != message.game:
            return None, {"board": message.board, "game": message.game, "applied": last.seq, "at": last.at}
        view = replace(self._with_progress(view, last), heard=time.time())
        self._views[message.board] = view
        return view, None

    def _with_progress(self, view: BoardView, last: Outcome) -> BoardView:
        game_id = last.game_id
        moves = tuple(p.ply for p in self.store.plies(game_id)) if game_id is not None else ()
        return replace(view, game_id=game_id, applied=last.seq, at=last.at, moves=moves, behind="")

    def _state(self, state: BoardState) -> BoardView:
        view = self._views.get(state.board, BoardView(state.board))
        if view.game and view.game != state.game and _is_older(state.game, view.game):
            return view  # an old retained state after a newer game's entries
        key = (state.board, state.game)
        if view.game != state.game:
            game_id = self.recorder.game_id(*key)
            moves = tuple(p.ply for p in self.store.plies(game_id)) if game_id is not None else ()
            applied = self.recorder.next_seq(*key) - 1
            view = replace(view, game=state.game, game_id=game_id, applied=applied, moves=moves)
        view = replace(view, state=state, heard=time.time())
        for game, seq in ((state.game, state.seq), *state.recent):
            known = (state.board, game)
            self._known[known] = max(self._known.get(known, 0), seq)
            if self.recorder.missing(*known, known=seq) is not None:
                self._behind_since.setdefault(known, time.monotonic())
        self._views[state.board] = view
        return view

    # -- asking again ---------------------------------------------------------------------------

    def _ask(self, key: tuple[str, str], force: bool) -> None:
        """Ask a board for a game's entries from the first one missing (at most every ASK_EVERY_S)."""
        board, game = key
        start = self.recorder.missing(board, game, self._known.get(key, 0))
        if start is None:
            self._behind_since.pop(key, None)
            return
        now = time.monotonic()
        if not force and now - self._asked.get(key, -ASK_EVERY_S) < ASK_EVERY_S:
            return
        self._asked[key] = now
        self.counts["asked"] += 1
        self.link.publish(resend_topic(self.event, board), encode(ResendRequest(board, game, start)))

    def _check_loop(self) -> None:
        while not self._stop.wait(CHECK_EVERY_S):
            self.check()

    def check(self) -> None:
        """Ask again for what stays missing; mark boards that stay behind on the page."""
        now = time.monotonic()
        changed: list[BoardView] = []
        with self._lock:
            for key, since in list(self._behind_since.items()):
                if now - since < self.behind_grace_s:
                    continue
                self._ask(key, force=False)
                view = self._views.get(key[0])
                if key not in self._behind_since or view is None:
                    continue
                if now - since >= self.show_behind_s and not view.behind and view.game == key[1]:
                    wanted = self.recorder.next_seq(*key)
                    words = f"board {key[0]}: changes from number {wanted} on have not arrived; asked the board again"
                    self._views[key[0]] = replace(view, behind=words)
                    changed.append(self._views[key[0]])
        for view in changed:
            self.broadcaster.publish(encode_event(json.dumps(view.to_json()), "board"))

    def _load_views(self) -> None:
        """The latest game of every board already in the store (a hub started again)."""
        for row in self.store.games():
            if row.header("Event") != self.event or not row.header("Table"):
                continue
            board, game = row.header("Table"), row.header("Origin")
            moves = tuple(p.ply for p in self.store.plies(row.id))
            applied = self.recorder.next_seq(board, game) - 1
            self._views[board] = BoardView(board, game, row.id, None, applied, "", moves)


def _is_older(game: str, than: str) -> bool:
    """True when board game key ``game`` names an earlier game of the board than ``than``."""
    try:
        return int(game.partition("@")[0]) < int(than.partition("@")[0])
    except ValueError:
        return False


def _name_order(name: str) -> tuple[int, int, str]:
    return (0, int(name), "") if name.isdigit() else (1, 0, name)
