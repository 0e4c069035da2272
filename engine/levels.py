"""The engine's levels: how deep it looks, how much, and how often it slips.

Each level is a frozen value; :data:`LEVELS` names them from the weakest.

- ``beginner`` plays like someone who has just learnt the rules: it looks at
  some of the moves only (a person scanning the board misses some cells, and
  with them some cascades), judges each by what it gives at once, and picks
  among them by chance weighted towards the better ones (a softmax over
  their scores). It takes good moves often and blunders sometimes.
- ``casual`` looks two plies ahead (its move and the answer) but slips now
  and then into a beginner's move.
- ``club`` searches a few plies deep within a fixed budget of positions and
  never slips; its choice depends only on the position and the seed, not on
  the machine's speed.
- ``strongest`` searches as deep as the time budget allows (iterative
  deepening to the clock): the deepest look, but how deep depends on the
  machine, so the same position may get a different move on a slower one.

The time budget (``budget_s``, default 1 s) bounds every level.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import UnknownLevelError


@dataclass(frozen=True)
class Level:
    """How the engine plays at one level.

    ``depth``: the most plies searched. ``nodes``: the most positions looked
    at per move (None: only the clock stops it). ``slip``: the chance, per
    move, of playing a beginner's move instead of the search's.
    ``notice``: the share of moves seen when slipping. ``temperature``: how
    loosely a slip picks among the moves seen, in the game's score units
    (higher: closer to random).
    """

    name: str
    depth: int
    nodes: int | None
    slip: float
    notice: float
    temperature: float
    summary: str


BEGINNER = Level("beginner", 1, None, 1.0, 0.5, 1.0, "sees half the moves, one ply, picks by weighted chance")
CASUAL = Level("casual", 2, 60_000, 0.3, 0.7, 0.5, "two plies ahead, slips into a beginner's move 3 times in 10")
CLUB = Level("club", 4, 150_000, 0.0, 1.0, 0.0, "a few plies within a fixed budget of positions; never slips")
STRONGEST = Level("strongest", 64, None, 0.0, 1.0, 0.0, "as deep as the time budget allows")

LEVELS = {level.name: level for level in (BEGINNER, CASUAL, CLUB, STRONGEST)}
"""Every level by name, weakest first."""


def level_named(name: str | Level) -> Level:
    """The level called ``name`` (a Level is returned as it is); raises UnknownLevelError."""
    if isinstance(name, Level):
        return name
    found = LEVELS.get(name.strip().lower()) if isinstance(name, str) else None
    if found is None:
        raise UnknownLevelError(f"unknown level {str(name)[:40]!r}: use one of {', '.join(LEVELS)}")
    return found
