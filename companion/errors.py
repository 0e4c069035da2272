"""Typed errors of the companion.

Each subclasses :class:`CompanionError` and the matching built-in, and its
message says what is wrong and what to do about it.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error raised by the companion."""


class StoreError(CompanionError, RuntimeError):
    """The game store cannot be opened or used (not ours, corrupt, too new)."""


class StoreWriteError(StoreError):
    """A write to the game store failed (read-only file, full disk): what is already committed is kept."""


class StoreLockedError(StoreError):
    """Another companion is writing to the game store; the message names its process."""


class StoreDamagedError(StoreError):
    """The game store's file or rows are damaged; the message names the game and ply, and what to do."""


class StoreNotFoundError(StoreError, FileNotFoundError):
    """There is no game store at the path given (a store is only made by a companion that writes to it)."""


class UnknownGameError(CompanionError, LookupError):
    """No game with that number is in the store."""


class LiveGameError(CompanionError, ValueError):
    """A request to the live game makes no sense in its current state."""


class SetupError(CompanionError, ValueError):
    """The options given to a command do not fit together."""
