"""The serial path to the LED matrix: wire protocol, host link, emulators, firmware.

The one entry point is :func:`open_device`::

    from firmware_bridge import Blink, LedFrame, open_device

    with open_device("emu:", leds=64) as link:      # or "sim:", "/dev/ttyACM0", "socket://host:port"
        print(link.info)                            # DeviceInfo(led_count=64, palette=..., ...)
        link.set_brightness(128)
        link.show(LedFrame.from_lists([2] * 64, [Blink.SLOW] * 64))   # returns once the LEDs show it
        link.device.colours()                       # emulators only: what the LEDs show now

A :class:`Link` (from :mod:`firmware_bridge.link`) has ``info`` (the
device's :class:`DeviceInfo`), ``show(frame, timeout_s)``,
``set_brightness(level)``, ``set_blink(slow_period_ms, fast_period_ms)``,
``close()``, ``stats`` (sent, resent, handshakes, reconnects, resets the
device made on its own, frames the device dropped), ``silent_s()`` (how long
the device has said nothing valid) and ``device_disconnected`` (the device
reported that it shows the disconnected pattern). Requests block until
acknowledged, resend on timeout, and survive a device reset or replug (the
link shakes hands again and restores brightness, blink periods and frame by
itself).

``link.device`` is the emulator behind ``emu:`` and ``sim:`` (``None`` for real
hardware): ``colours()`` what each LED shows now, ``wait_for(predicate,
timeout_s)`` and ``wait_for_colours(colours)`` to wait for a sight, ``history``
of (time, colours) changes, ``reset()``; ``emu:`` also has ``colours_at(t)``,
``unplug()`` and ``replug()``; ``sim:`` has ``timing_errors`` (LED updates the
harness rejected for WS2812 timing) and ``sim_time_s``. Both act out what goes
wrong with a real controller: ``freeze()``/``thaw()``, ``kill()``/``restart()``
(``alive`` says which), ``unplug()``/``replug()``, and ``misbehave(fault)``
with a :class:`Fault` (silent, garbage, ERROR answers, a reset loop); see
:mod:`firmware_bridge.faults`.

The protocol itself (:mod:`firmware_bridge.protocol`) is pure bytes in, bytes
out; only :mod:`firmware_bridge.link` imports pyserial. PROTOCOL.md beside
this file is the reference for the bytes on the wire; README.md is for users
(wiring, flashing, baud rate).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from firmware_bridge.errors import (
    DeviceRejectedError,
    DeviceTimeoutError,
    EmulatorError,
    LinkError,
    NoDeviceError,
    NotOurDeviceError,
    ProtocolError,
    ToolchainMissingError,
)
from firmware_bridge.faults import Fault
from firmware_bridge.leds import (
    DEFAULT_PALETTE,
    PALETTE_NAMES,
    RGB,
    Blink,
    BlinkTiming,
    Capability,
    DeviceInfo,
    LedFrame,
    disconnected_pattern,
    render,
)

if TYPE_CHECKING:
    from firmware_bridge.link import Link

__all__ = [
    "DEFAULT_PALETTE",
    "PALETTE_NAMES",
    "RGB",
    "Blink",
    "BlinkTiming",
    "Capability",
    "DeviceInfo",
    "DeviceRejectedError",
    "DeviceTimeoutError",
    "EmulatorError",
    "Fault",
    "LedFrame",
    "Link",
    "LinkError",
    "NoDeviceError",
    "NotOurDeviceError",
    "ProtocolError",
    "ToolchainMissingError",
    "disconnected_pattern",
    "open_device",
    "render",
]


def __getattr__(name: str) -> Any:
    """``Link`` is imported on first use, so importing the package does not load pyserial."""
    if name == "Link":
        from firmware_bridge.link import Link

        return Link
    raise AttributeError(f"module 'firmware_bridge' has no attribute {name!r}")


LINK_OPTIONS = ("baudrate", "handshake_timeout_s", "resend_s", "heartbeat_s")
EMU_OPTIONS = ("leds", "palette", "corrupt_rate", "seed", "port_path")
SIM_OPTIONS = ("leds", "build_dir", "port_path")


def open_device(spec: str, **options: Any) -> Link:
    """Open the LED controller named by ``spec`` and shake hands with it.

    ``spec`` is ``emu:`` (the Python emulator on a fresh pseudo-terminal;
    options ``leds``, ``palette``, ``corrupt_rate``, ``seed``, ``port_path``), ``sim:`` (the
    compiled firmware in simavr, built if needed; options ``leds``,
    ``build_dir``, ``port_path``), or a pyserial URL or device path, optionally prefixed
    ``serial:`` (``/dev/ttyACM0``, ``socket://host:7000``, ``spy:///dev/ttyUSB0``).
    Link options for all: ``baudrate``, ``handshake_timeout_s``, ``resend_s``,
    ``heartbeat_s`` (``None`` stops the host's heartbeat).

    Raises :class:`NoDeviceError` when the port cannot be opened,
    :class:`NotOurDeviceError` when nothing on it speaks the protocol, and
    :class:`EmulatorError` when an emulator cannot start.
    """
    from firmware_bridge.link import Link

    link_options = {k: options.pop(k) for k in LINK_OPTIONS if k in options}
    kind = spec.split(":", 1)[0] if ":" in spec else ""
    if kind in ("emu", "sim"):
        allowed = EMU_OPTIONS if kind == "emu" else SIM_OPTIONS
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise EmulatorError(f"{kind}: does not take {', '.join(unknown)}; it takes {', '.join(allowed)}")
        if spec not in (f"{kind}:", f"{kind}://"):
            raise EmulatorError(f"write the {kind} spec as '{kind}:' and pass its settings as options")
        device: Any
        if kind == "emu":
            from firmware_bridge.emulator import EmulatedDevice

            device = EmulatedDevice(**options)
        else:
            from firmware_bridge.sim import SimulatedDevice

            device = SimulatedDevice(**options)
            link_options.setdefault("resend_s", 1.0)
            link_options.setdefault("handshake_timeout_s", 20.0)
        try:
            return Link(device.port, device=device, **link_options)
        except BaseException:
            device.close()
            raise
    if options:
        raise LinkError(f"a serial port takes no options {', '.join(sorted(options))}")
    url = spec.removeprefix("serial:")
    if not url:
        raise NoDeviceError("no port given: write a device path such as /dev/ttyACM0, or emu: or sim:")
    return Link(url, **link_options)
