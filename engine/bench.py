"""``cascade bench engine``: each level's score against a random and a greedy player, and its time per move.

For each game on its standard board (Cascade ``diamond:8``, Cascades
``trapezoid:8,8``, Kaskade ``grid:6x6``) and each level, the engine plays
``--games`` games against each yardstick of :mod:`engine.opponents`, taking
the first player's side in every other game. The figures: the share of games
won (a draw is no win), the share drawn, and the median and the longest time
the engine took for a move, in milliseconds. Every game is seeded, so the
moves of all levels but ``strongest`` (whose depth follows the clock) are the
same on every run.

The full run (100 games per pairing, 1 s per move) takes about two hours on
one core; ``--games 10`` about a tenth of that. ``--jobs N`` plays N games
at once in worker processes: each game is seeded by its number, so the
games are the same; the strongest level's, which follow the clock, are the
same only while every job has a core of its own.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.levels import LEVELS, STRONGEST
from engine.opponents import greedy_ply, random_ply
from engine.player import DEFAULT_BUDGET_S, analyse
from referee.game import make_rules
from referee.plies import Ply
from referee.rules import Position

BOARDS = {"cascade": "diamond:8", "cascades": "trapezoid:8,8", "kaskade": "grid:6x6"}
"""The standard board of each game."""
OPPONENTS: dict[str, Callable[[Position, random.Random], Ply]] = {"random": random_ply, "greedy": greedy_ply}
"""The yardsticks, by name."""
DEFAULT_GAMES = 100


@dataclass(frozen=True)
class Pairing:
    """The outcome of one level's games against one yardstick, and the engine's time per move."""

    wins: int
    draws: int
    losses: int
    move_ms: tuple[float, ...]

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        """The share of games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def draw_rate(self) -> float:
        """The share of games drawn."""
        return self.draws / self.games if self.games else 0.0


def play_game(
    game: str, level: str, opponent: str, engine_side: int, budget_s: float, seed: str
) -> tuple[int, list[float]]:
    """One game on the standard board: +1, 0 or -1 for the engine, and its milliseconds per move."""
    position = make_rules(game, BOARDS[game]).start()
    rng = random.Random(seed)
    yardstick = OPPONENTS[opponent]
    times: list[float] = []
    while not position.is_over:
        if position.to_move == engine_side:
            started = time.perf_counter()
            ply = analyse(position, level, budget_s, rng.randrange(1 << 30)).ply
            times.append((time.perf_counter() - started) * 1000.0)
        else:
            ply = yardstick(position, rng)
        position = position.play(ply).position
    mine = position.rules.player_colour(engine_side)
    winner = position.winner
    return (0 if winner is None else 1 if winner == mine else -1), times


def _seed(seed: int, game: str, level: str, opponent: str, number: int) -> str:
    """The seed of one game: the same whichever process plays it."""
    return f"{seed}/{game}/{level}/{opponent}/{number}"


def measure(game: str, level: str, opponent: str, games: int, budget_s: float, seed: int) -> Pairing:
    """``games`` games of a level against a yardstick, the engine first in the even ones."""
    played = [
        play_game(game, level, opponent, number % 2, budget_s, _seed(seed, game, level, opponent, number))
        for number in range(games)
    ]
    return pairing_of(played)


def pairing_of(played: list[tuple[int, list[float]]]) -> Pairing:
    """The pairing's figures from its games' outcomes and times."""
    outcomes = [outcome for outcome, _ in played]
    times = [t for _, ms in played for t in ms]
    return Pairing(outcomes.count(1), outcomes.count(0), outcomes.count(-1), tuple(times))


def _play_task(task: tuple[str, str, str, int, float, int]) -> tuple[int, list[float]]:
    """One game of a pairing, for a worker process."""
    game, level, opponent, number, budget_s, seed = task
    return play_game(game, level, opponent, number % 2, budget_s, _seed(seed, game, level, opponent, number))


def measure_all(
    pairings: list[tuple[str, str, str]], games: int, budget_s: float, seed: int, jobs: int
) -> dict[tuple[str, str, str], Pairing]:
    """Every pairing's games, ``jobs`` at a time in worker processes (one: in this process, in order).

    Games are independent and seeded by their number, so every level's moves
    but the strongest's (which follow the clock) do not depend on ``jobs``.
    """
    results: dict[tuple[str, str, str], Pairing] = {}
    if jobs <= 1:
        for game, level, opponent in pairings:
            started = time.perf_counter()
            results[(game, level, opponent)] = measure(game, level, opponent, games, budget_s, seed)
            _report(game, level, opponent, games, time.perf_counter() - started)
        return results
    started = time.perf_counter()
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        for game, level, opponent in pairings:
            tasks = [(game, level, opponent, number, budget_s, seed) for number in range(games)]
            results[(game, level, opponent)] = pairing_of(list(pool.map(_play_task, tasks)))
            _report(game, level, opponent, games, time.perf_counter() - started)
            started = time.perf_counter()
    return results


def _report(game: str, level: str, opponent: str, games: int, seconds: float) -> None:
    """One line of progress on the standard error."""
    print(
        f"cascade bench engine: {game} {level} against {opponent}: {games} games in {seconds:.0f} s",
        file=sys.stderr,
        flush=True,
    )


def figures(against: dict[str, Pairing]) -> dict[str, float | int]:
    """The JSON figures of one level in one game."""
    times = [t for pairing in against.values() for t in pairing.move_ms]
    out: dict[str, float | int] = {}
    for name, pairing in against.items():
        out[f"win_rate_vs_{name}"] = round(pairing.win_rate, 3)
        out[f"draw_rate_vs_{name}"] = round(pairing.draw_rate, 3)
        out[f"games_vs_{name}"] = pairing.games
    out["ms_per_move_median"] = round(statistics.median(times), 1) if times else 0.0
    out["ms_per_move_max"] = round(max(times), 1) if times else 0.0
    return out


def count_of_games(text: str) -> int:
    """An ``argparse`` type: a whole number of games from 1 to 100000."""
    if not (text.strip().isascii() and text.strip().isdigit()) or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"must be a whole number of games from 1 to 100000, not '{text[:40]}'")
    return int(text)


def count_of_jobs(text: str) -> int:
    """An ``argparse`` type: a whole number of worker processes from 1 to 64."""
    if not (text.strip().isascii() and text.strip().isdigit()) or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"must be a whole number of processes from 1 to 64, not '{text[:40]}'")
    return int(text)


def seconds_per_move(text: str) -> float:
    """An ``argparse`` type: a number of seconds above 0 and at most an hour."""
    try:
        value = float(text) if len(text) <= 40 else -1.0
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 (at most 3600), not '{text[:40]}'")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cascade bench engine``."""
    parser.description = (
        "Each level of the engine against a random and a greedy player on each game's standard board, "
        "sides alternating; the full run (100 games per pairing, 1 s per move) takes about two hours on one core."
    )
    parser.add_argument(
        "--games",
        type=count_of_games,
        default=DEFAULT_GAMES,
        help=f"games per level and yardstick (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--budget",
        type=seconds_per_move,
        default=DEFAULT_BUDGET_S,
        metavar="SECONDS",
        help=f"the engine's time per move (default {DEFAULT_BUDGET_S:g})",
    )
    parser.add_argument("--game", choices=sorted(BOARDS), action="append", help="only this game (repeatable)")
    parser.add_argument("--level", choices=list(LEVELS), action="append", help="only this level (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--jobs",
        type=count_of_jobs,
        default=1,
        help="games played at once, one process each (default 1: the times are those of one core; "
        "more jobs than free cores lengthen the moves of the strongest level)",
    )


def run(args: argparse.Namespace) -> int:
    """Play every pairing and print the figures."""
    games = args.game or list(BOARDS)
    levels = args.level or list(LEVELS)
    pairings = [(game, level, opponent) for game in games for level in levels for opponent in OPPONENTS]
    measured = measure_all(pairings, args.games, args.budget, args.seed, args.jobs)
    results: dict[str, dict[str, dict[str, float | int]]] = {}
    for game in games:
        results[game] = {}
        for level in levels:
            results[game][level] = figures({opponent: measured[(game, level, opponent)] for opponent in OPPONENTS})
    strongest = {game: results[game][STRONGEST.name] for game in games if STRONGEST.name in results[game]}
    if args.json:
        print(
            json.dumps(
                {
                    "games": results,
                    "strongest": strongest,
                    "budget_s": args.budget,
                    "games_per_pairing": args.games,
                    "jobs": args.jobs,
                }
            )
        )
        return 0
    print(f"the engine against a random and a greedy player, {args.games} games each, {args.budget:g} s per move:")
    print(f"  {'game':9s} {'level':10s} {'vs random':>18s} {'vs greedy':>18s} {'ms median':>10s} {'ms max':>8s}")
    for game, by_level in results.items():
        for level, f in by_level.items():
            vs = [f"{f[f'win_rate_vs_{o}']:.0%} won {f[f'draw_rate_vs_{o}']:.0%} drawn" for o in OPPONENTS]
            print(
                f"  {game:9s} {level:10s} {vs[0]:>18s} {vs[1]:>18s} "
                f"{f['ms_per_move_median']:10.0f} {f['ms_per_move_max']:8.0f}"
            )
    return 0
