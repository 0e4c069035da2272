"""The engine: exact play on small boards for every game and variant of docs/rules.md.

Standard library and :mod:`referee` only. Typical use::

    from engine import solve
    solution = solve(make_rules("cascade", "diamond:3"))         # the value under best play
"""

from engine.errors import EngineError, SolveTimeoutError, UnsolvableError
from engine.solve import Solution, solve

__all__ = ["EngineError", "Solution", "SolveTimeoutError", "UnsolvableError", "solve"]
