"""Random positions and games for the referee's property tests (random generators come from hypothesis)."""

from __future__ import annotations

import random

from referee import Game, Position, new_game
from referee.cascade import CascadePosition, cascade_rules
from referee.kaskade import KaskadePosition, KaskadeRules
from referee.plies import Ply
from referee.symbols import EMPTY_CODE

CASCADES_SETUPS = [
    ("cascades", "trapezoid:4,4", None),
    ("cascades", "trapezoid:3,5", "territory"),
    ("cascades", "hexagon:3,3", "hexagon"),
    ("cascades", "trapezoid:4,4", "free-drop"),
]
ALL_SETUPS = [
    ("cascade", "diamond:5", None),
    ("cascade", "hex-diamond:4", None),
    ("cascade", "diamond:5", "fill-above"),
    ("kaskade", "grid:4x3", None),
    *CASCADES_SETUPS,
]


def random_cascade_position(rng: random.Random, size: int, variant: str | None, fill: float) -> CascadePosition:
    """A closed Cascade position reached by random drops until about ``fill`` of the board is filled."""
    position = cascade_rules(size, variant).start()
    n = len(position.board)
    while position.board.count(EMPTY_CODE) > n * (1 - fill):
        empties = [i for i, v in enumerate(position.board) if v == EMPTY_CODE]
        after = position.drop(rng.choice(empties), rng.randrange(3)).position
        assert isinstance(after, CascadePosition)
        position = after
    return position


def random_game(rng: random.Random, game: str, spec: str, variant: str | None, max_plies: int = 60) -> Game:
    """A game of random legal plies (one- and two-stone turns alike), at most ``max_plies`` long."""
    g = new_game(game, spec, variant)
    for _ in range(max_plies):
        if g.is_over:
            break
        plies = list(g.position.legal_plies())
        if game == "cascades":
            singles = [p for p in plies if len(p.cells) == 1]
            pairs = [p for p in plies if len(p.cells) == 2]
            pool = pairs if pairs and rng.random() < 0.5 else singles
            if not pool or rng.random() < 0.03:
                pool = [p for p in plies if p.passes] or plies
            ply: Ply = rng.choice(pool)
        else:
            ply = rng.choice(plies)
        g = g.play(ply)
    return g


def random_kaskade_position(rng: random.Random, rules: KaskadeRules, density: float, plies: int) -> KaskadePosition:
    """A stable Kaskade position: each cell empty or below capacity, owners at random."""
    owners = bytearray()
    counts = bytearray()
    for cap in rules.capacity:
        if rng.random() < density:
            counts.append(rng.randrange(1, cap))
            owners.append(rng.randrange(2))
        else:
            counts.append(0)
            owners.append(EMPTY_CODE)
    return KaskadePosition(rules, bytes(owners), rng.randrange(2), plies, None, bytes(counts))


def position_symbols(position: Position) -> list[str]:
    """A mutable copy of a position's tokens."""
    return list(position.symbols())
