"""The live game's writes to the store, kept in order in memory while the store cannot take them.

A store write can fail in the middle of a game (a full disk, a file made
read-only): the store raises :class:`~companion.errors.StoreWriteError` and
keeps everything it committed before. The game must go on, so
:class:`Backlog` keeps the writes that failed (and every write after them, to
keep their order) and tries them again later; once the store takes them all,
the store holds exactly the game that was played. Meanwhile :attr:`Backlog.problem`
says in plain words what happened and what to do.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import StoreWriteError
from companion.store import Store

RETRY_S = 1.0
"""How often the live game tries the store again while writes wait."""


@dataclass(frozen=True)
class Write:
    """One store write: ``kind`` is new_game, add_ply, take_back, alert or end_game; ``game`` None: the latest new
    game."""

    kind: str
    game: int | None
    args: tuple[Any, ...] = ()
    headers: tuple[tuple[str, str], ...] = field(default=())


class Backlog:
    """The store as the live game writes to it, with the writes that failed waiting in order.

    ``on_ply(number, text)`` is called for every ply once it is committed;
    ``on_problem(words)`` when writes start to wait (with :attr:`problem`) and
    when they are all saved again (with empty words), not once per write.
    """

    def __init__(
        self,
        store: Store,
        on_ply: Callable[[int, str], None] | None = None,
        on_problem: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.on_ply = on_ply
        self.on_problem = on_problem
        self._waiting: list[Write] = []
        self._created: int | None = None
        self._error = ""
        self._troubled = False
        self._tried_s = 0.0

    # -- the writes --------------------------------------------------------------------------

    def new_game(self, game: str, geometry: str, headers: Mapping[str, str]) -> int | None:
        """Start a game in the store; its number, or None while the store cannot take it."""
        self._write(Write("new_game", None, (game, geometry), tuple(dict(headers).items())))
        return None if self._pending_new_game() else self._created

    def add_ply(self, game: int | None, ply: str, diagram: str, jpeg: bytes | None = None) -> None:
        """Append a ply to a game (``on_ply`` follows once it is committed)."""
        self._write(Write("add_ply", game, (ply, diagram, jpeg)))

    def take_back(self, game: int | None, count: int) -> None:
        """Take back the last ``count`` plies of a game."""
        self._write(Write("take_back", game, (count,)))

    def alert(self, game: int | None, message: str) -> None:
        """Keep an error the board showed in a game's journal."""
        self._write(Write("alert", game, (message,)))

    def end_game(self, game: int | None, result: str) -> None:
        """Close a game with its result."""
        self._write(Write("end_game", game, (result,)))

    def game_id(self, current: int | None) -> int | None:
        """The number of the game ``current`` stands for (None: the latest new game, once it is stored)."""
        if current is not None or self._pending_new_game():
            return current
        return self._created

    # -- waiting writes ------------------------------------------------------------------------

    @property
    def problem(self) -> str:
        """What is wrong with the store and what to do, in plain words; empty when everything is saved."""
        if not self._waiting:
            return ""
        plies = sum(1 for w in self._waiting if w.kind == "add_ply")
        what = f"{plies} {'ply is' if plies == 1 else 'plies are'}" if plies else "the latest changes are"
        return (
            f"The game store cannot be written ({self._error}): {what} kept in memory only. "
            "Free some disk space or make the store file writable; they are saved as soon as it can be written, "
            "and the game goes on meanwhile."
        )

    @property
    def waiting(self) -> tuple[Write, ...]:
        """The writes the store has not taken yet, oldest first."""
        return tuple(self._waiting)

    def unsaved_plies(self) -> list[str]:
        """The plies not in the store yet, in order."""
        return [str(w.args[0]) for w in self._waiting if w.kind == "add_ply"]

    def retry(self, force: bool = False) -> bool:
        """Try the waiting writes again (at most every :data:`RETRY_S` unless ``force``); True when all are saved."""
        if not self._waiting:
            return True
        if not force and time.monotonic() - self._tried_s < RETRY_S:
            return False
        self._flush()
        return not self._waiting

    def _write(self, write: Write) -> None:
        self._waiting.append(write)
        self._flush()

    def _flush(self) -> None:
        self._store_all()
        troubled = bool(self._waiting)
        if troubled != self._troubled:
            self._troubled = troubled
            if self.on_problem is not None:
                self.on_problem(self.problem)

    def _store_all(self) -> None:
        self._tried_s = time.monotonic()
        while self._waiting:
            write = self._waiting[0]
            try:
                number = self._apply(write)
            except StoreWriteError as error:
                self._error = str(error).rstrip(".")
                return
            self._waiting.pop(0)  # done, before anyone hears of it: a listener that fails cannot make it twice
            if number is not None and self.on_ply is not None:
                self.on_ply(number, write.args[0])

    def _apply(self, write: Write) -> int | None:
        """Make one write in the store; the ply's number for a ply."""
        game = write.game if write.game is not None else self._created
        if write.kind == "new_game":
            kind, geometry = write.args
            self._created = self.store.new_game(kind, geometry, dict(write.headers))
            return None
        assert game is not None, "a write for a game that was never started"
        if write.kind == "add_ply":
            ply, diagram, jpeg = write.args
            return int(self.store.add_ply(game, ply, diagram, jpeg=jpeg))
        elif write.kind == "take_back":
            self.store.take_back(game, write.args[0])
        elif write.kind == "alert":
            self.store.add_alert(game, write.args[0])
        elif write.kind == "end_game":
            self.store.end_game(game, write.args[0])
        return None

    def _pending_new_game(self) -> bool:
        return any(w.kind == "new_game" for w in self._waiting)
