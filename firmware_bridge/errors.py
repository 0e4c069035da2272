"""The errors of the LED link.

Everything that can go wrong on the wire or with the device is one of these,
so callers can catch the family (``LinkError`` for the port and the device,
``ProtocolError`` for bytes that are not a valid message).
"""

from __future__ import annotations


class LinkError(OSError):
    """Something is wrong with the serial link to the LED controller."""


class NoDeviceError(LinkError):
    """The port does not exist or cannot be opened (unplugged, wrong name, no permission)."""


class NotOurDeviceError(LinkError):
    """The port opened, but nothing on it speaks the LED protocol (another device, other firmware)."""


class DeviceTimeoutError(LinkError):
    """The device did not acknowledge in time, even after resending."""


class DeviceRejectedError(LinkError):
    """The device answered a message with an error (a bad length or value the host should not have sent)."""


class EmulatorError(LinkError):
    """An emulator (``emu:`` or ``sim:``) could not be started or stopped working."""


class ToolchainMissingError(EmulatorError):
    """The AVR toolchain or simavr is not installed, so ``sim:`` cannot run."""


class ProtocolError(ValueError):
    """Bytes that are not a valid message of the LED protocol (bad COBS, CRC, length or field)."""
