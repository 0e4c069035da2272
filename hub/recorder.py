"""Applying the boards' journal messages to the hub's store: each exactly once, and in order.

A board numbers the journal of each game 1, 2, 3… (:mod:`companion.journal`);
the hub's store numbers its own journal of that game the same way, because
each message becomes exactly one store change (start: a new game; ply: a ply;
undo: plies taken back; correction: a ply replaced in place; result: the end;
headers: the players' names set afterwards).
So the next number the hub wants is its own journal's last number plus one,
on disk, surviving a restart of the hub. A message numbered below it is a
duplicate (a resend, a redelivery after a reconnection) and is dropped; one
numbered above it waits (at most :data:`MAX_EARLY` per game) for the ones
before it, which the hub asks the board for again (:meth:`Recorder.missing`).

A hub game carries the board's name and game key in its headers (``Event``,
``Table``, ``Origin``), so a hub started again knows its games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError
from companion.hub_messages import JournalMessage
from companion.store import Store

MAX_EARLY = 2000
SETTABLE_HEADERS = ("White", "Black")
"""The headers a board may change after a game's start (its own keys, Event, Table and Origin, stay the hub's)."""


@dataclass(frozen=True)
class Outcome:
    """What became of one message: ``applied``, ``duplicate``, ``early`` (waits for a gap) or ``refused``."""

    board: str
    game: str
    seq: int
    status: str
    game_id: int | None = None
    words: str = ""
    at: str = ""


class Recorder:
    """The hub's store, fed with journal messages (see the module docstring). Not thread-safe: one caller."""

    def __init__(self, store: Store, event: str) -> None:
        self.store = store
        self.event = event
        self._games: dict[tuple[str, str], int] = {}
        self._next: dict[tuple[str, str], int] = {}
        self._early: dict[tuple[str, str], dict[int, JournalMessage]] = {}
        self._refused: dict[tuple[str, str], str] = {}
        for row in store.games():
            if row.header("Event") == event and row.header("Table") and row.header("Origin"):
                key = (row.header("Table"), row.header("Origin"))
                self._games[key] = row.id
                self._next[key] = store.last_entry(row.id) + 1

    def game_id(self, board: str, game: str) -> int | None:
        """The hub's number of a board's game, once its start has been applied."""
        return self._games.get((board, game))

    def next_seq(self, board: str, game: str) -> int:
        """The number of the next message the hub wants of a board's game."""
        return self._next.get((board, game), 1)

    def missing(self, board: str, game: str, known: int = 0) -> int | None:
        """The first entry to ask for again: when some wait for a gap, or the board says it sent up to ``known``."""
        key = (board, game)
        if key in self._refused:
            return None
        wanted = self.next_seq(board, game)
        if self._early.get(key) or known >= wanted:
            return wanted
        return None

    def refused(self, board: str, game: str) -> str:
        """Why a board's game could not be kept (empty: it is kept)."""
        return self._refused.get((board, game), "")

    def apply(self, message: JournalMessage) -> list[Outcome]:
        """Apply a message, and then any that waited for it; the outcome of each, in order."""
        key = (message.board, message.game)
        wanted = self.next_seq(*key)
        if key in self._refused:
            return [self._outcome(message, "refused", self._refused[key])]
        if message.seq < wanted:
            return [self._outcome(message, "duplicate")]
        if message.seq > wanted:
            early = self._early.setdefault(key, {})
            if len(early) < MAX_EARLY:
                early[message.seq] = message
            return [self._outcome(message, "early", f"waiting for entry {wanted}")]
        outcomes = [self._apply_now(message)]
        early = self._early.get(key, {})
        while outcomes[-1].status == "applied" and self.next_seq(*key) in early:
            outcomes.append(self._apply_now(early.pop(self.next_seq(*key))))
        for seq in [s for s in early if s < self.next_seq(*key)]:
            del early[seq]
        if not early:
            self._early.pop(key, None)
        return outcomes

    def _apply_now(self, message: JournalMessage) -> Outcome:
        key = (message.board, message.game)
        try:
            words = self._change(message, message.body)
        except (CompanionError, KeyError, TypeError, ValueError) as error:
            self._refused[key] = f"entry {message.seq} ({message.kind}) cannot be kept: {error}"
            return self._outcome(message, "refused", self._refused[key])
        self._next[key] = message.seq + 1
        return self._outcome(message, "applied", words)

    def _change(self, message: JournalMessage, body: Any) -> str:
        """Make the store change a message tells of; returns words about anything odd."""
        key = (message.board, message.game)
        if message.kind == "start":
            headers = {str(k): str(v) for k, v in dict(body.get("headers") or {}).items()}
            headers.update({"Event": self.event, "Table": message.board, "Origin": message.game})
            self._games[key] = self.store.new_game(str(body["game"]), str(body["geometry"]), headers)
            return ""
        game_id = self._games.get(key)
        if game_id is None:
            raise ValueError("the game's start was never received")
        if message.kind == "ply":
            number = self.store.add_ply(game_id, str(body["ply"]), str(body.get("diagram", "")))
            said = body.get("number")
            return "" if said in (None, number) else f"the board numbers this ply {said}, the hub {number}"
        if message.kind == "undo":
            self.store.take_back(game_id, int(body["count"]))
            return ""
        if message.kind == "correction":
            self.store.replace_ply(game_id, int(body["number"]), str(body["ply"]), str(body.get("diagram", "")))
            return ""
        if message.kind == "result":
            self.store.end_game(game_id, str(body["result"]))
            return ""
        if message.kind == "headers":
            names = {str(k): str(v) for k, v in dict(body["headers"]).items() if k in SETTABLE_HEADERS}
            self.store.set_players(game_id, names, f"board {message.board}")
            return ""
        if message.kind == "alert":
            self.store.add_alert(game_id, str(body["message"]))
            return ""
        raise ValueError(f"{message.kind!r} is not a journal entry")

    def _outcome(self, message: JournalMessage, status: str, words: str = "") -> Outcome:
        game_id = self._games.get((message.board, message.game))
        return Outcome(message.board, message.game, message.seq, status, game_id, words, message.at)
