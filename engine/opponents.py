"""The yardsticks the engine is measured against: a random player and a greedy one.

- ``random_ply``: uniform among the referee's legal plies.
- ``greedy_ply``: the ply that leaves the best score at once, the mover's
  count minus the opponent's as the game scores it (in Kaskade, cells owned,
  a win counting as the whole board); equal scores are broken by chance.
  It looks one ply ahead and no further.
"""

from __future__ import annotations

import random

from engine.games import model_of
from referee.plies import Ply
from referee.rules import Position


def random_ply(position: Position, rng: random.Random) -> Ply:
    """A legal ply chosen uniformly."""
    plies = list(position.legal_plies())
    return plies[rng.randrange(len(plies))]


def greedy_ply(position: Position, rng: random.Random) -> Ply:
    """A ply with the best immediate score for the mover, chance breaking ties."""
    model = model_of(position.rules)
    state = model.state_of(position)
    best: list = []
    best_margin = None
    for move in model.moves(state):
        margin = -model.margin(model.play(state, move))
        if best_margin is None or margin > best_margin:
            best, best_margin = [move], margin
        elif margin == best_margin:
            best.append(move)
    return model.ply(state, best[rng.randrange(len(best))])
