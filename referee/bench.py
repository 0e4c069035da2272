"""``cascade bench referee``: random legal complete games per second, each game, one core.

Every game runs through the real rules code (the positions' own ``drop``,
``add_ball`` and ``apply``), choosing uniformly among legal drops with a
seeded generator, until the game ends.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

from referee.cascade import CascadePosition, CascadeRules, cascade_rules
from referee.cascades import CascadesRules, cascades_rules
from referee.kaskade import KaskadePosition, KaskadeRules, kaskade_rules
from referee.plies import PASS, Ply
from referee.symbols import EMPTY_CODE


def random_cascade_game(rules: CascadeRules, rng: random.Random) -> CascadePosition:
    """Play one random complete Cascade game; returns the final position."""
    position = rules.start()
    randrange = rng.randrange
    n = len(position.board)
    while EMPTY_CODE in position.board:
        board = position.board
        ix = randrange(n)
        while board[ix] != EMPTY_CODE:  # uniform among the empty cells, without listing them
            ix = randrange(n)
        position = position.drop(ix, randrange(3)).position  # type: ignore[assignment]
    return position


def random_kaskade_game(rules: KaskadeRules, rng: random.Random, max_plies: int = 10_000) -> KaskadePosition:
    """Play one random complete Kaskade game (a ball on a random legal cell each ply)."""
    position = rules.start()
    randrange = rng.randrange
    while position.won is None and position.plies < max_plies:
        mover = position.to_move
        legal = [i for i, v in enumerate(position.board) if v in (EMPTY_CODE, mover)]
        position = position.add_ball(legal[randrange(len(legal))]).position  # type: ignore[assignment]
    return position


def random_cascades_game(rules: CascadesRules, rng: random.Random) -> object:
    """Play one random complete Cascades game: one or two random supported stones, pass when stuck."""
    position = rules.start()
    cells = rules.geometry.cells
    while not position.is_over:
        code = position.to_move
        first = position.placements(code)
        if not first:
            position = position.apply(PASS).position  # type: ignore[assignment]
            continue
        a = first[rng.randrange(len(first))]
        stones = [cells[a]]
        if position.plies > 0 and rng.random() < 0.5:
            board = bytearray(position.board)
            board[a] = code
            second = position.placements(code, board)
            if second:
                stones.append(cells[second[rng.randrange(len(second))]])
        position = position.apply(Ply(tuple(stones))).position  # type: ignore[assignment]
    return position


def games_per_second(play_one: Callable[[random.Random], object], seconds: float, seed: int = 1) -> float:
    """Complete games per second of ``play_one`` over about ``seconds`` of wall time."""
    rng = random.Random(seed)
    play_one(rng)  # warm the caches
    count = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        play_one(rng)
        count += 1
        elapsed = time.perf_counter() - start
    return count / elapsed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cascade bench referee``."""
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent on each game (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")


def run(args: argparse.Namespace) -> int:
    """Measure and print games per second for each game."""
    if args.seconds <= 0:
        print("cascade bench referee: --seconds must be positive")
        return 2
    cascade8 = cascade_rules(8)
    kaskade6 = kaskade_rules(6, 6)
    cascades8 = cascades_rules(8, 8)
    figures = {
        "cascade_8_games_per_s": games_per_second(lambda r: random_cascade_game(cascade8, r), args.seconds, args.seed),
        "kaskade_6x6_games_per_s": games_per_second(
            lambda r: random_kaskade_game(kaskade6, r), args.seconds, args.seed
        ),
        "cascades_8_8_games_per_s": games_per_second(
            lambda r: random_cascades_game(cascades8, r), args.seconds, args.seed
        ),
    }
    if args.json:
        print(json.dumps({k: round(v, 1) for k, v in figures.items()}))
    else:
        print("random complete games per second, one core, pure Python:")
        print(f"  Cascade 8x8 (diamond:8):          {figures['cascade_8_games_per_s']:10.1f}  (target 2000)")
        print(f"  Kaskade 6x6 (grid:6x6):           {figures['kaskade_6x6_games_per_s']:10.1f}  (target 300)")
        print(f"  Cascades 8,8 (trapezoid:8,8):     {figures['cascades_8_8_games_per_s']:10.1f}")
    return 0
