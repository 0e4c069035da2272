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
