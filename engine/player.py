"""Choosing a move: a level's search, its slips, and hints.

``choose(position, level, budget_s, seed)`` gives the ply the engine plays;
``hint(position)`` the strongest level's ply with what it expects, for a
player who asks. The same position, level and seed give the same ply at
every level that has a node budget (all but ``strongest``, whose depth
follows the clock): chance enters only through a generator seeded from the
seed and the position, never from the time or from earlier calls.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from engine.errors import EngineError, NoMoveError
from engine.games import model_of
from engine.levels import STRONGEST, Level, level_named
from engine.model import Model, Move, State
from engine.search import Search
from referee.plies import Ply
from referee.rules import Position

DEFAULT_BUDGET_S = 1.0
"""Seconds per move unless told otherwise."""


class BudgetError(EngineError, ValueError):
    """A time budget that is not a positive number of seconds."""


@dataclass(frozen=True)
class Hint:
    """A ply and what the engine expects of it.

    ``score`` is the engine's estimate of the final margin for the player to
    move (stones in Cascade and Cascades; in Kaskade cells, a won game scoring
    near 100000 and a lost one near -100000); ``exact`` says the search saw
    every end of the game, so ``score`` is the value under best play.
    ``line`` is the play the engine expects, this ply first.
    """

    ply: Ply
    score: float
    depth: int
    nodes: int
    seconds: float
    exact: bool
    line: tuple[Ply, ...]
    level: str
    slipped: bool = False

    def __str__(self) -> str:
        line = " ".join(str(p) for p in self.line)
        quality = "exact" if self.exact else f"{self.depth} plies deep"
        return f"{self.ply} (score {self.score:+.1f}, {quality}; expected: {line})"


def _generator(model: Model, state: State, level: Level, seed: int) -> random.Random:
    """A generator that depends on the seed, the level and the position only."""
    return random.Random(f"{seed}/{level.name}/{model.key(state)!r}")


def slip(model: Model, state: State, level: Level, rng: random.Random) -> tuple[float, Move]:
    """A beginner's move: notice some moves, judge each one ply deep, pick by weighted chance."""
    children = model.children(state)
    seen = [c for c in children if rng.random() < level.notice] or [children[rng.randrange(len(children))]]
    best = max(c[0] for c in seen)
    temperature = max(level.temperature, 1e-9)
    weights = [math.exp(max((score - best) / temperature, -700.0)) for score, _, _ in seen]
    score, move, _ = rng.choices(seen, weights)[0]
    return score, move


def analyse(
    position: Position, level: str | Level = STRONGEST, budget_s: float = DEFAULT_BUDGET_S, seed: int = 0
) -> Hint:
    """The ply the engine plays at ``level`` within ``budget_s`` seconds, with its score and search figures."""
    if not (isinstance(budget_s, int | float) and math.isfinite(budget_s) and budget_s > 0):
        raise BudgetError(f"the time budget must be a number of seconds above 0, not {budget_s!r}")
    chosen = level_named(level)
    if position.is_over:
        raise NoMoveError(f"the game is over ({position.result}): there is no move to choose")
    started = time.perf_counter()
    model = model_of(position.rules)
    state = model.state_of(position)
    rng = _generator(model, state, chosen, seed)
    if chosen.slip > 0 and rng.random() < chosen.slip:
        score, move = slip(model, state, chosen, rng)
        ply = model.ply(state, move)
        return Hint(ply, score, 1, 0, time.perf_counter() - started, False, (ply,), chosen.name, True)
    search = Search(model, started + budget_s, chosen.nodes)
    children = model.children(state)
    rng.shuffle(children)  # equal scores in an order the seed chooses
    children.sort(key=lambda c: c[0], reverse=True)
    search.nodes += len(children)
    found = search.deepen(state, chosen.depth, budget_s if chosen.nodes is None else None, children)
    plies = []
    s = state
    for move in found.line:
        plies.append(model.ply(s, move))
        s = model.play(s, move)
    return Hint(
        plies[0],
        found.score,
        found.depth,
        found.nodes,
        time.perf_counter() - started,
        found.exact,
        tuple(plies),
        chosen.name,
    )


def choose(
    position: Position, level: str | Level = STRONGEST, budget_s: float = DEFAULT_BUDGET_S, seed: int = 0
) -> Ply:
    """The ply the engine plays in ``position`` at ``level`` (a name or a :class:`Level`)."""
    return analyse(position, level, budget_s, seed).ply


def hint(position: Position, budget_s: float = DEFAULT_BUDGET_S, seed: int = 0) -> Hint:
    """The strongest level's ply for the player to move, with its score and the line it expects."""
    return analyse(position, STRONGEST, budget_s, seed)
