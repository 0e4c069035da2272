"""Errors of the vision pipeline.

Every error says what went wrong and what to do about it; all of them derive
from :class:`VisionError`, itself a ``RuntimeError``.
"""

from __future__ import annotations


class VisionError(RuntimeError):
    """Something in the vision pipeline failed."""


class BoardNotFoundError(VisionError):
    """The board could not be located in an image (markers, corners or checkerboard)."""


class ColourModelError(VisionError, ValueError):
    """A colour model is malformed or does not fit the board it is used with."""


class LayoutError(VisionError, ValueError):
    """A layout text (rows of cell symbols) does not fit the board."""
