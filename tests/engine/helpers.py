"""Setups and random positions for the engine's tests (random generators come from hypothesis)."""

from __future__ import annotations

import random

from referee import Position, make_rules

SETUPS = [
    ("cascade", "diamond:5", None),
    ("cascade", "hex-diamond:4", None),
    ("cascade", "diamond:4", "fill-above"),
    ("cascades", "trapezoid:4,4", None),
    ("cascades", "trapezoid:3,5", "territory"),
    ("cascades", "hexagon:3,3", "hexagon"),
    ("cascades", "trapezoid:3,3", "free-drop"),
    ("kaskade", "grid:4x3", None),
]
"""Every game and variant, on boards small enough for quick tests."""


def setup_id(setup: tuple[str, str, str | None]) -> str:
    """A test id for a setup."""
    game, board, variant = setup
    return f"{game}-{board}" + (f"-{variant}" if variant else "")


def random_position(rng: random.Random, setup: tuple[str, str, str | None], plies: int) -> Position:
    """The position after up to ``plies`` random legal plies from the start (the game may end sooner)."""
    position = make_rules(*setup).start()
    for _ in range(plies):
        if position.is_over:
            break
        legal = list(position.legal_plies())
        position = position.play(legal[rng.randrange(len(legal))]).position
    return position
