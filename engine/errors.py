"""Typed errors of the engine.

Every error subclasses :class:`EngineError` and the matching built-in, and its
message says what is wrong and what to do about it.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error raised by the engine."""


class NoMoveError(EngineError, ValueError):
    """There is no move to choose: the game is over."""


class UnknownLevelError(EngineError, LookupError):
    """A level name the engine does not know; the message lists the known ones."""


class UnsolvableError(EngineError, ValueError):
    """The solver will not finish on this board (too large, or a variant whose games need not end)."""


class SolveTimeoutError(EngineError, TimeoutError):
    """The solver ran past the time it was given; the message says how far it got."""
