"""The verdict of comparing an observed board with the expected position.

A :class:`Verdict` is a small frozen value with everything the live game
needs: what kind of situation the board shows, the drop (cell and colour),
the cells still to fill (each with the token it needs), the cells to fix
(each with what it needs: a colour, a count, or empty), the unreadable cells
the verdict depends on, Kaskade's wave, and a message in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from referee.geometry import Cell
from referee.plies import Ply
from referee.rules import Move
from referee.symbols import EMPTY, UNKNOWN, colour_name


class VerdictKind(Enum):
    """What the observed board shows."""

    NOTHING = "nothing"  # the expected position: nothing happened
    PENDING = "pending"  # a ply has started; cascade stones / waves / removals still to do
    COMPLETE = "complete"  # the board shows the full result of a ply
    ERROR = "error"  # something must be fixed before play goes on
    WAITING = "waiting"  # the answer depends on cells that could not be read


class Problem(Enum):
    """Why a cell is listed in a verdict."""

    TO_FILL = "to fill"  # a pending cascade stone / wave cell / removal: not an error
    WRONG_COLOUR = "wrong colour"
    NOT_HERE = "a stone where none belongs"
    MISSING = "a stone missing"
    TWO_DROPS = "two drops at once"
    MOVED = "a stone moved"
    ILLEGAL = "not a legal placement"
    TOO_MANY = "too many stones"
    WRONG_COUNT = "wrong ball count"


def token_words(token: str) -> str:
    """A cell token in plain words: ``white``, ``empty``, ``2 black balls``."""
    if token == EMPTY:
        return "empty"
    if token == UNKNOWN:
        return "unreadable"
    if len(token) > 1 and token[1:] == UNKNOWN:
        return f"{colour_name(token[0])} balls (count unreadable)"
    if len(token) > 1:
        n = int(token[1:])
        return f"{n} {colour_name(token[0])} ball{'s' if n != 1 else ''}"
    return colour_name(token)


@dataclass(frozen=True)
class Fix:
    """One cell to act on: the token it ``needs`` (``.`` = empty), what it ``shows``, and why."""

    cell: Cell
    needs: str
    shows: str
    problem: Problem

    def describe(self) -> str:
        """The fix in plain words, for the page."""
        if self.problem is Problem.TO_FILL:
            return f"{self.cell.name}: make it {token_words(self.needs)}"
        return (
            f"{self.cell.name}: {self.problem.value}; it shows {token_words(self.shows)}, "
            f"it needs to be {token_words(self.needs)}"
        )


@dataclass(frozen=True)
class Verdict:
    """The judgement of one observed board against the expected position.

    - ``drop``/``drop_symbol``: the player's own stone or ball, when found
      (for a two-stone Cascades turn, ``stones`` lists both).
    - ``move``: the full ply the board shows or has started (its ``position``
      is what the board must become; accept it when the kind is COMPLETE).
    - ``pending``: cells still to act on, each with the token it needs.
    - ``errors``: cells to fix, each with what it needs.
    - ``unreadable``: unknown cells the verdict depends on.
    - ``wave``/``waves``: Kaskade: waves the board shows done (0 = the ball
      just placed) and the move's total; the next wave is ``wave + 1``.
    - ``more_allowed``: Cascades: the turn may still take a second stone.
    - ``next_turn``: Cascades: the opponent's stones already on the board;
      they ended the turn of ``move``. Accept ``move``, then judge again.
    """

    kind: VerdictKind
    message: str
    drop: Cell | None = None
    drop_symbol: str | None = None
    stones: tuple[Cell, ...] = ()
    move: Move | None = None
    pending: tuple[Fix, ...] = ()
    errors: tuple[Fix, ...] = ()
    unreadable: tuple[Cell, ...] = ()
    wave: int | None = None
    waves: int | None = None
    more_allowed: bool = False
    next_turn: tuple[Cell, ...] = ()

    @property
    def ply(self) -> Ply | None:
        """The ply the board shows (complete or started)."""
        return self.move.ply if self.move else None

    @property
    def is_complete(self) -> bool:
        """True when the board shows a whole, correct ply."""
        return self.kind is VerdictKind.COMPLETE

    @property
    def is_error(self) -> bool:
        """True when something must be fixed."""
        return self.kind is VerdictKind.ERROR

    def lights(self) -> dict[Cell, str]:
        """Cells to light and the token each needs: errors first, then pending cells."""
        out = {f.cell: f.needs for f in self.pending}
        out.update({f.cell: f.needs for f in self.errors})
        return out

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready summary for the page and the log (cells by name)."""

        def fixes(items: tuple[Fix, ...]) -> list[dict[str, str]]:
            return [
                {
                    "cell": f.cell.name,
                    "needs": f.needs,
                    "shows": f.shows,
                    "problem": f.problem.value,
                    "text": f.describe(),
                }
                for f in items
            ]

        return {
            "kind": self.kind.value,
            "message": self.message,
            "drop": self.drop.name if self.drop else None,
            "drop_symbol": self.drop_symbol,
            "stones": [c.name for c in self.stones],
            "ply": str(self.ply) if self.ply else None,
            "pending": fixes(self.pending),
            "errors": fixes(self.errors),
            "unreadable": [c.name for c in self.unreadable],
            "wave": self.wave,
            "waves": self.waves,
            "more_allowed": self.more_allowed,
            "next_turn": [c.name for c in self.next_turn],
        }

    def describe(self) -> str:
        """The message and every cell in plain words, one line each."""
        lines = [self.message]
        lines += [f.describe() for f in self.errors]
        lines += [f.describe() for f in self.pending]
        return "\n".join(lines)


def unreadable_words(cells: tuple[Cell, ...] | list[Cell]) -> str:
    """``c3 unreadable`` / ``c3, d4 unreadable``."""
    return ", ".join(c.name for c in cells) + " unreadable"
