"""The computer as a player at the board: who it is, which side it takes, and its thinking off the camera's thread.

``cascade run --opponent engine:club --engine-plays black`` (and ``cascade
play``, ``cascade demo``) give the engine of :mod:`engine` one side of the
game. :func:`parse_opponent` and :func:`parse_side` read those options;
:class:`Computer` thinks: asked for a position where it is to move, it
chooses its ply on a thread of its own (the frame loop keeps reading the
camera meanwhile), within the time budget, and hands the ply to a callback.
The live game lights the ply, the player places it for the computer, and the
companion checks it like any ply (:mod:`companion.live`).

Its answers are kept by position, so a board set back by an undo gets the
same ply again at once; every level but ``strongest`` chooses it from the
position and the seed alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import CompanionError
from referee.records import player_name
from referee.rules import Position, Rules
from referee.symbols import BLACK, WHITE

if TYPE_CHECKING:
    from engine import Hint

BUDGET_S = 1.0
"""The computer's time per ply at the board unless ``--engine-seconds`` says otherwise: the engine's own default
(``engine.DEFAULT_BUDGET_S``)."""
DEFAULT_LEVEL = "club"
"""The level of ``--opponent engine`` without one: strong, and the same move on any machine."""
SIDES = ("white", "black", "first", "second")
"""The words ``--engine-plays`` takes: a player's colour, or the order of play."""


class OpponentError(CompanionError, ValueError):
    """An opponent or a side the companion does not know; says what to write instead."""


@dataclass(frozen=True)
class Opponent:
    """The computer opponent asked for: the engine at ``level``."""

    level: str = DEFAULT_LEVEL

    def __str__(self) -> str:
        return f"engine:{self.level}"


def parse_opponent(text: str) -> Opponent:
    """``engine`` or ``engine:LEVEL`` (a level of :data:`engine.LEVELS`); raises OpponentError."""
    from engine import LEVELS  # the engine loads only for a game against it

    kind, _, level = text.strip().lower().partition(":")
    levels = ", ".join(LEVELS)
    if kind != "engine":
        raise OpponentError(
            f"'{text[:40]}' is not an opponent: write engine, or engine:LEVEL with LEVEL one of {levels}"
        )
    level = level.strip() or DEFAULT_LEVEL
    if level not in LEVELS:
        raise OpponentError(f"'{level[:40]}' is not a level of the engine: use one of {levels}")
    return Opponent(level)


def parse_side(text: str) -> str:
    """A side word of ``--engine-plays`` (white, black, first or second, any case); raises OpponentError."""
    word = text.strip().lower()
    if word not in SIDES:
        raise OpponentError(f"'{text[:40]}' is not a side: use white or black (or first or second)")
    return word


def side_of(rules: Rules, word: str | None) -> int:
    """The player (0 first, 1 second) a side word names in this game; None: the second player."""
    if word in (None, "second"):
        return 1
    if word == "first":
        return 0
    colour = WHITE if word == "white" else BLACK
    return 0 if rules.player_colour(0) == colour else 1


def side_words(rules: Rules, computer: Computer) -> str:
    """``the engine at club plays black (second player)``: who the computer is at this board."""
    if computer.side is None:
        return f"the engine at {computer.opponent.level} gives hints"
    return f"the engine at {computer.opponent.level} plays {player_name(rules, computer.side)}"


def record_names(rules: Rules, computer: Computer | None) -> dict[str, str]:
    """The record's name of the computer's colour (``{"Black": "Engine (club)"}``); none without a computer."""
    if computer is None or computer.side is None:
        return {}
    colour = "White" if rules.player_colour(computer.side) == WHITE else "Black"
    return {colour: f"Engine ({computer.opponent.level})"}


def position_key(position: Position) -> tuple[int, int, tuple[str, ...]]:
    """What tells two positions of one game apart for the computer: plies played, the mover and the board."""
    return (position.plies, position.to_move, position.symbols())


Think = Callable[[Position], "Hint"]
Start = Callable[[Callable[[], None]], None]


def _thread(body: Callable[[], None]) -> None:
    threading.Thread(target=body, name="computer", daemon=True).start()


class Computer:
    """The engine at one side of a game, thinking on its own thread (see the module docstring).

    ``side``: the player it plays (0 first, 1 second; None: whoever is to
    move, as an adviser giving hints).
    ``start`` runs a thinking job (default: on a new daemon thread; a test may
    run it at once). ``think`` chooses a ply (default: the engine at the
    opponent's level within ``budget_s``).
    """

    def __init__(
        self,
        opponent: Opponent,
        side: int | None,
        budget_s: float = BUDGET_S,
        seed: int = 0,
        start: Start = _thread,
        think: Think | None = None,
    ) -> None:
        self.opponent = opponent
        self.side = side
        self.budget_s = budget_s
        self.seed = seed
        self._start = start
        self._think: Think = think or self._search
        self._lock = threading.Lock()
        self._answers: dict[tuple[int, int, tuple[str, ...]], Hint] = {}
        self._thinking: set[tuple[int, int, tuple[str, ...]]] = set()
        self.idle = threading.Event()
        """Set while the computer is not thinking (tests and the demo wait on it)."""
        self.idle.set()
        self.failure: BaseException | None = None
        """The error of the last thinking that failed (the live game says so on the page)."""

    def _search(self, position: Position) -> Hint:
        """The engine's ply at the opponent's level, within the budget."""
        from engine import analyse

        return analyse(position, self.opponent.level, self.budget_s, self.seed)

    def plays(self, position: Position) -> bool:
        """True when it is the computer's turn in ``position``."""
        return not position.is_over and (self.side is None or position.to_move == self.side)

    def answer(self, position: Position) -> Hint | None:
        """The computer's chosen ply in ``position``, once it has one."""
        with self._lock:
            return self._answers.get(position_key(position))

    def thinking(self, position: Position) -> bool:
        """True while the computer is choosing its ply in ``position``."""
        with self._lock:
            return position_key(position) in self._thinking

    def ask(self, position: Position, ready: Callable[[Position, Hint], None]) -> None:
        """Choose a ply for ``position`` unless it is known or being chosen; ``ready`` is called with it."""
        key = position_key(position)
        with self._lock:
            if not self.plays(position) or key in self._answers or key in self._thinking:
                return
            self._thinking.add(key)
            self.idle.clear()

        def body() -> None:
            hint: Hint | None = None
            try:
                hint = self._think(position)
            except Exception as error:  # shown on the page; the player can still move for it by hand
                self.failure = error
            with self._lock:
                self._thinking.discard(key)
                if hint is not None:
                    self._answers[key] = hint
            try:
                if hint is not None:
                    ready(position, hint)
            finally:
                with self._lock:
                    if not self._thinking:
                        self.idle.set()  # after ready: whoever waits sees the ply already shown

        self._start(body)


__all__ = [
    "BUDGET_S",
    "DEFAULT_LEVEL",
    "SIDES",
    "Computer",
    "Opponent",
    "OpponentError",
    "parse_opponent",
    "parse_side",
    "record_names",
    "side_of",
    "side_words",
]
