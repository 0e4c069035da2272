"""Typed errors of the referee.

Every error subclasses :class:`RefereeError` and the matching built-in, and its
message says what is wrong and what to do about it.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Base of every error raised by the referee."""


class GeometryError(RefereeError, ValueError):
    """A geometry spec string is malformed or out of range."""


class CellError(RefereeError, ValueError):
    """A cell name does not name a cell of the board."""


class IllegalMoveError(RefereeError, ValueError):
    """A ply breaks the rules in the given position (a filled cell, a cell without support, ...)."""


class RecordError(RefereeError, ValueError):
    """A record cannot be read; the message names the line and column."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(f"{where}{message}")
        self.reason = message
        self.line = line
        self.column = column


class ReplayError(RefereeError, ValueError):
    """A ply of a record disagrees with the rules; the message names move, player, record and rules."""

    def __init__(
        self, message: str, move_number: int = 0, player: str = "", recorded: str = "", ruled: str = ""
    ) -> None:
        super().__init__(message)
        self.move_number = move_number
        self.player = player
        self.recorded = recorded
        self.ruled = ruled


class DiagramError(RefereeError, ValueError):
    """A diagram does not match any board of its game; the message says which line is wrong."""


class GameOptionError(RefereeError, ValueError):
    """An unknown game, variant or option was asked for; the message lists the accepted ones."""
