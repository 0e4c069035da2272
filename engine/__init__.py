"""The engine: a player for every game and variant of docs/rules.md, and exact play on small boards.

Standard library and :mod:`referee` only. Typical use::

    from engine import choose, hint, solve
    ply = choose(position, level="club", budget_s=1.0, seed=7)   # a referee Ply
    advice = hint(position)              # the strongest level's ply, its score and expected line
    solution = solve(make_rules("cascade", "diamond:3"))         # the value under best play

Levels (:data:`LEVELS`, weakest first): ``beginner`` (human-like slips),
``casual``, ``club`` (a fixed node budget: the same move on any machine) and
``strongest`` (as deep as the time budget allows). How the engine thinks,
and the values of every board solved: docs/engine.md.
"""

from engine.errors import EngineError, NoMoveError, SolveTimeoutError, UnknownLevelError, UnsolvableError
from engine.levels import BEGINNER, CASUAL, CLUB, LEVELS, STRONGEST, Level, level_named
from engine.player import DEFAULT_BUDGET_S, BudgetError, Hint, analyse, choose, hint
from engine.solve import Solution, solve

__all__ = [
    "BEGINNER",
    "CASUAL",
    "CLUB",
    "DEFAULT_BUDGET_S",
    "LEVELS",
    "STRONGEST",
    "BudgetError",
    "EngineError",
    "Hint",
    "Level",
    "NoMoveError",
    "Solution",
    "SolveTimeoutError",
    "UnknownLevelError",
    "UnsolvableError",
    "analyse",
    "choose",
    "hint",
    "level_named",
    "solve",
]
