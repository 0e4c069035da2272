"""The live game's engine side: the computer opponent, hints on demand and the teaching mode.

:class:`Advice` belongs to one :class:`~companion.live.LiveGame` and keeps
what the engine said about its positions:

- with a :class:`~companion.computer.Computer`, the computer's ply for the
  position where it is to move (chosen on its own thread);
- a hint asked for (the strongest level's ply for the player to move), lit
  for :attr:`Advice.hint_s` seconds or until the position changes;
- whether the teaching mode is on (the page then shows the legal cells, and
  what dropping on a pointed cell would cause; in Cascades the LEDs light
  the legal cells too).

It never touches the LEDs or the page itself: the live game asks it for the
cells to light (:meth:`Advice.suggested`) and the words to show, under its
own lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from companion.assess import put_words
from companion.coach import computer_words, legal_cells, lights_legal_cells, ply_marks
from companion.computer import BUDGET_S, Computer, Opponent, position_key, side_of
from companion.errors import SetupError
from companion.snapshot import CellMark
from referee.plies import Ply
from referee.rules import Position, Rules
from referee.symbols import COLOUR_NAMES
from referee.verdict import Fix, Problem

if TYPE_CHECKING:
    from engine import Hint

HINT_S = 5.0
"""How long a hint stays lit, seconds."""


class Advice:
    """The computer, the hints and the teaching mode of one live game (see the module docstring)."""

    def __init__(self, computer: Computer | None = None, adviser: Computer | None = None) -> None:
        self.computer = computer
        self.adviser = adviser or Computer(
            Opponent("strongest"),
            side=None,
            budget_s=computer.budget_s if computer is not None else BUDGET_S,
        )
        self.hint_s: float | None = HINT_S
        """Seconds a hint stays lit (None: until the position changes)."""
        self.teaching = False
        self._hint: tuple[tuple[int, int, tuple[str, ...]], Ply] | None = None
        self.timer: threading.Timer | None = None
        """The timer of the last hint lit for a time (it may have run out already)."""

    # -- the computer --------------------------------------------------------------------------

    def computer_to_move(self, position: Position) -> bool:
        """True when the computer plays the side to move."""
        return self.computer is not None and self.computer.plays(position)

    def computer_ply(self, position: Position) -> Ply | None:
        """The computer's ply in ``position`` once chosen (None: not its turn, or still thinking)."""
        if self.computer is None or not self.computer.plays(position):
            return None
        answer = self.computer.answer(position)
        return answer.ply if answer is not None else None

    def consult(self, position: Position, ready: Callable[[Position, Hint], None]) -> None:
        """Let the computer think about ``position`` if it is to move there and has not yet."""
        if self.computer is None:
            return
        known = self.computer.answer(position) if self.computer.plays(position) else None
        if known is not None and known.ply.passes:
            ready(position, known)  # a pass is played at once, also when the game comes back to it
            return
        self.computer.ask(position, ready)

    def computer_line(self, position: Position) -> str:
        """``The computer plays = e6``, ``The computer is thinking…``, or nothing on the player's turn."""
        if self.computer is None or not self.computer.plays(position):
            return ""
        ply = self.computer_ply(position)
        if ply is not None:
            return computer_words(ply)[:1].upper() + computer_words(ply)[1:]
        if self.computer.failure is not None and not self.computer.thinking(position):
            return f"The computer could not choose a ply ({self.computer.failure}): play one for it"
        return "The computer is thinking…"

    def computer_message(self, position: Position, observed: Sequence[str] | None) -> str:
        """The page's message on the computer's turn: its ply and what to place for it (empty otherwise)."""
        line = self.computer_line(position)
        marks = self.suggested(position, observed) if self.computer_ply(position) is not None else ()
        if not line or not marks:
            return line
        if len(marks[0].need) > 1:  # Kaskade: one ball
            todo = f"add a {COLOUR_NAMES[marks[0].need[:1]]} ball to {marks[0].cell}"
        else:
            todo = put_words(tuple(Fix(position.geometry.cell(m.cell), m.need, "", Problem.TO_FILL) for m in marks))
        return f"{line}: {todo[:1].lower()}{todo[1:]} for it"

    # -- hints --------------------------------------------------------------------------------

    def ask_hint(self, position: Position, ready: Callable[[Position, Hint], None], expire: Callable[[], None]) -> str:
        """Start choosing a hint for the player to move (``ready`` gets it); returns what to tell the player."""
        if position.is_over:
            return "The game is over: there is nothing to hint"
        if self.computer_to_move(position):
            return "It is the computer's turn: place its stone, lit on the board"
        known = self.adviser.answer(position)
        if known is not None:
            self.hint_ready(position, known, expire)
            return f"Hint: {known.ply}"
        self.adviser.ask(position, ready)
        return "Thinking of a hint…"

    def hint_ready(self, position: Position, hint: Hint, expire: Callable[[], None]) -> None:
        """A hint was chosen for ``position``: light it for :attr:`hint_s` seconds (``expire`` then)."""
        key = position_key(position)
        self._hint = (key, hint.ply)
        if self.timer is not None:
            self.timer.cancel()
        if self.hint_s is not None:
            timer = threading.Timer(self.hint_s, lambda: self._expire(key, expire))
            timer.daemon = True
            self.timer = timer
            timer.start()

    def _expire(self, key: tuple[int, int, tuple[str, ...]], expire: Callable[[], None]) -> None:
        if self._hint is not None and self._hint[0] == key:
            self.clear_hint()
            expire()

    def clear_hint(self) -> None:
        """Put the hint out."""
        self._hint = None
        if self.timer is not None:
            self.timer.cancel()

    def hint_ply(self, position: Position) -> Ply | None:
        """The hint lit for ``position`` (None once it expired or the position changed)."""
        if self._hint is None or self._hint[0] != position_key(position):
            return None
        return self._hint[1]

    # -- what to light and show -----------------------------------------------------------------

    def suggested(self, position: Position, observed: Sequence[str] | None) -> tuple[CellMark, ...]:
        """The cells to light as a ply to place (the computer's, else a hint), less those already placed."""
        ply = self.computer_ply(position) or self.hint_ply(position)
        if ply is None or position.is_over:
            return ()
        marks = ply_marks(position, ply)
        if observed is None:
            return marks
        geometry = position.geometry
        return tuple(m for m in marks if observed[geometry.index(m.cell)] != m.need)

    def legal(self, position: Position, placed: Ply | None = None) -> tuple[str, ...]:
        """The legal cells while the teaching mode is on (after ``placed``, the first stone of a Cascades turn,
        the cells of its second stone)."""
        return legal_cells(position, placed) if self.teaching else ()

    def lit_legal(self, position: Position, placed: Ply | None = None) -> tuple[str, ...]:
        """The legal cells to light on the LEDs while the teaching mode is on: in the games where they say
        something (:func:`~companion.coach.lights_legal_cells`), and never on the computer's turn, whose ply is
        the one cell to place."""
        if not lights_legal_cells(position.rules) or self.computer_to_move(position):
            return ()
        return self.legal(position, placed)

    def close(self) -> None:
        """Stop the hint's timer."""
        self.clear_hint()


def advice_for(
    opponent: Opponent | None, side: str | None, rules: Rules, budget_s: float | None = None, seed: int = 0
) -> Advice:
    """The advice of a game from ``--opponent``, ``--engine-plays`` and ``--engine-seconds`` (``budget_s``,
    None: :data:`~companion.computer.BUDGET_S`); raises SetupError for a side or a time without an opponent.

    The hints take the computer's time: one number says how long the engine may think at this board.
    """
    if opponent is None:
        if side is not None:
            raise SetupError(f"--engine-plays {side} needs an opponent: add --opponent engine (or engine:LEVEL)")
        if budget_s is not None:
            raise SetupError(
                f"--engine-seconds {budget_s:g} needs an opponent: add --opponent engine (or engine:LEVEL)"
            )
        return Advice()
    return Advice(Computer(opponent, side_of(rules, side), BUDGET_S if budget_s is None else budget_s, seed))


__all__ = ["HINT_S", "Advice", "advice_for"]
