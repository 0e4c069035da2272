"""Values of spec-string options, read the same way by every driver."""

from __future__ import annotations

from typing import Any

from hardware.errors import LedSpecError

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def parse_flag(value: Any, what: str) -> bool:
    """A yes/no option (``1``, ``true``, ``yes``, ``on`` or ``0``, ``false``, ``no``, ``off``).

    ``what`` names the option in the error, for example ``"ansi"``.
    """
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise LedSpecError(f"{what} must be true or false, not {value!r}")
