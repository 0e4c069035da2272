"""Text a user wrote, quoted for a message: the one way every error names what it refuses."""

from __future__ import annotations

SHOWN_CHARS = 40
"""How much of a user's text a message quotes before cutting it short."""


def shown(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` quoted for a message and cut short past ``limit`` characters: ``'o d5'``, ``'xxxxx…'``."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{text}'"
