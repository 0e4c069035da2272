"""Exact play on small boards: the value of the start position under best play.

The value is from the first player's view: for Cascade and Cascades the final
margin (the first player's scoring stones minus the opponent's, as the game
scores them) when both sides play to maximise their own margin; for Kaskade
+1 when the first player wins and -1 when they lose (Kaskade has no draw).

The solver is negamax with alpha-beta over the exact values of finished
games, with no evaluation and no depth limit, and a table of the bounds known
for each position. Positions that play alike share one entry: the colours
are swapped so the mover's is white (the rules treat both alike), and a
board is folded onto its mirror images (the left-right mirror of Cascade's
diamond and Cascades' trapezoid; the grid's four or eight symmetries in
Kaskade). Moves are tried best first by the engine's evaluation, which only
speeds the search up: the value is exact whatever the order.

Cascades' free-drop variant is not solved: a stone placed where it cannot
connect is removed at once, which leaves the board as it was without
counting as a pass, so a game need not end.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.errors import SolveTimeoutError, UnsolvableError
from engine.games import model_of
from engine.model import Model, State
from referee.cascades import FREE_DROP
from referee.plies import Ply
from referee.rules import Rules

INFINITY = float("inf")
MOST_CELLS = {"cascade": 16, "cascades": 40, "kaskade": 12}
"""The largest boards, in cells, the solver accepts for each game; larger ones would not finish in hours."""
MOST_POSITIONS = 10_000_000
"""The most positions the solver keeps (about 200 bytes each) before it gives up."""


@dataclass(frozen=True)
class Solution:
    """The value of a game's start position under best play, and what it took to find it.

    ``value``: the first player's final margin (Kaskade: +1 win, -1 loss);
    ``result``: ``win``, ``draw`` or ``loss`` for the first player;
    ``positions``: the distinct positions (up to symmetry) whose value the
    solver stored; ``best``: a first ply that reaches the value.
    """

    game: str
    board: str
    variant: str | None
    value: int
    result: str
    positions: int
    seconds: float
    best: Ply | None

    def as_json(self) -> dict[str, int | float | str]:
        """The figures of ``cascade solve --json``."""
        return {"value": self.value, "result": self.result, "positions": self.positions, "seconds": self.seconds}


class Solver:
    """One exact search over a rule set, with a time limit."""

    def __init__(self, model: Model, limit_s: float | None = None) -> None:
        self.model = model
        self.started = time.perf_counter()
        self.deadline = self.started + limit_s if limit_s is not None else float("inf")
        self.limit_s = limit_s
        self.table: dict[object, tuple[float, float]] = {}
        self.visits = 0

    def _check_clock(self) -> None:
        if time.perf_counter() > self.deadline:
            raise SolveTimeoutError(
                f"not solved within {self.limit_s:g} s ({len(self.table):,} positions so far): "
                "give a larger --limit or solve a smaller board"
            )
        if len(self.table) > MOST_POSITIONS:
            raise UnsolvableError(
                f"not solved within {MOST_POSITIONS:,} positions (about two gigabytes of memory): solve a smaller board"
            )

    def value(self, state: State, alpha: float, beta: float) -> float:
        """The exact value of ``state`` for its mover, fail-soft within (alpha, beta)."""
        model = self.model
        if model.is_over(state):
            return model.exact(state)
        self.visits += 1
        if not self.visits & 1023:
            self._check_clock()
        key = model.canonical(state)
        low, high = self.table.get(key, (-INFINITY, INFINITY))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        best = -INFINITY
        a = alpha
        for _, _, child in model.children(state):
            v = -self.value(child, -beta, -a)
            if v > best:
                best = v
                if best > a:
                    a = best
                    if a >= beta:
                        break
        if best <= alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (low, high)
        return best

    def solve(self, state: State) -> tuple[int, Ply | None]:
        """The exact value of ``state`` for its mover, and a move that reaches it."""
        model = self.model
        if model.is_over(state):
            return model.exact(state), None
        best_value = -INFINITY
        best_move = None
        for _, move, child in model.children(state):
            v = -self.value(child, -INFINITY, -best_value)
            if v > best_value:
                best_value, best_move = v, move
        return int(best_value), model.ply(state, best_move)


def check_solvable(rules: Rules) -> None:
    """Raise UnsolvableError, saying why and what to do, for a board the solver will not finish."""
    cells = len(rules.geometry)
    most = MOST_CELLS.get(rules.game)
    if rules.game == "cascades" and rules.variant == FREE_DROP:
        raise UnsolvableError(
            "free-drop games need not end (a stone that cannot connect is removed at once, which is no pass): "
            "solve another variant"
        )
    if most is not None and cells > most:
        raise UnsolvableError(
            f"{rules.geometry.spec} has {cells} cells; the solver takes at most {most} for {rules.game} "
            "(a larger board would not finish in hours): choose a smaller board"
        )


def solve(rules: Rules, limit_s: float | None = None) -> Solution:
    """Solve the start position of ``rules`` exactly; raises UnsolvableError or SolveTimeoutError."""
    check_solvable(rules)
    model = model_of(rules)
    solver = Solver(model, limit_s)
    start = rules.start()
    value, best = solver.solve(model.state_of(start))
    result = "win" if value > 0 else ("loss" if value < 0 else "draw")
    return Solution(
        rules.game,
        rules.geometry.spec,
        rules.variant,
        value,
        result,
        len(solver.table),
        round(time.perf_counter() - solver.started, 3),
        best,
    )
