"""Typed errors of the hardware package.

Every error subclasses :class:`HardwareError` and the matching built-in, and
its message says what is wrong and what to do about it.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base of every error raised by the hardware package."""


class LedSpecError(HardwareError, ValueError):
    """An LED or button spec string (``gpio:max7219?...``) is malformed."""


class LedMapError(HardwareError, ValueError):
    """A cell-to-LED map is malformed or does not fit the board or the LEDs."""


class FrameError(HardwareError, ValueError):
    """A frame names a cell the board does not have, or an unknown colour or pattern."""


class ButtonError(HardwareError, ValueError):
    """A button name or button spec is unknown or malformed."""


class DeviceClosedError(HardwareError, RuntimeError):
    """A matrix or a set of buttons was used after it was closed."""


class GpioError(HardwareError, RuntimeError):
    """The GPIO library is missing or cannot reach the pins."""


class LedsNotShownError(HardwareError, RuntimeError):
    """Raw LEDs asked for (to map them) did not show: the controller is away, slow, or other lights replaced them."""
