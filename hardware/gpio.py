"""Shared plumbing of the Raspberry Pi GPIO drivers: pin factories and spec options.

Devices never pick a GPIO library themselves: they get a gpiozero pin
factory passed in (``pin_factory=``), or build the one named by the spec's
``factory=`` option (``lgpio``, ``rpigpio``, ``pigpio``, ``native``, or
``mock`` for gpiozero's mock pins with the simulated chips attached). The
global default factory of gpiozero is never used. gpiozero itself is imported
only here, inside functions, when a GPIO driver is chosen.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from hardware.errors import GpioError, LedSpecError
from hardware.options import parse_flag

FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory", "python3-lgpio (apt) or lgpio (pip)"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory", "python3-rpi.gpio (apt) or RPi.GPIO (pip)"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory", "pigpio (apt and pip), with pigpiod running"),
    "native": ("gpiozero.pins.native", "NativeFactory", "nothing more"),
    "mock": ("gpiozero.pins.mock", "MockFactory", "nothing more"),
}
DEFAULT_FACTORY = "lgpio"


def make_pin_factory(name: str) -> Any:
    """A new gpiozero pin factory by name; raises GpioError saying what to install."""
    if name not in FACTORIES:
        raise LedSpecError(f"'{name}' is not a pin factory: use one of {', '.join(FACTORIES)}")
    module_name, class_name, install = FACTORIES[name]
    try:
        importlib.import_module("gpiozero")
    except ImportError:
        raise GpioError("the GPIO drivers need gpiozero: pip install 'cascade-companion[gpio]'") from None
    try:
        factory_class = getattr(importlib.import_module(module_name), class_name)
        return factory_class()
    except ImportError as error:
        raise GpioError(f"the {name} pin factory needs {install} ({error})") from None
    except Exception as error:  # the factory probes the board and its GPIO chip
        raise GpioError(
            f"the {name} pin factory cannot reach the GPIO pins ({type(error).__name__}: {error}); "
            "run on a Raspberry Pi, or use factory=mock to simulate"
        ) from None


class Options:
    """Options of a spec string (``?chips=2&select=8``) merged with keyword options.

    Keyword options win over the spec's. Every read names the option in its
    error; :meth:`done` rejects options nobody read.
    """

    def __init__(self, what: str, query: Mapping[str, str], extra: Mapping[str, Any]) -> None:
        self.what = what
        self.values: dict[str, Any] = {**query, **extra}
        self._read: set[str] = set()

    def take(self, name: str, default: Any = None) -> Any:
        """The raw value of ``name`` (or ``default``)."""
        self._read.add(name)
        return self.values.get(name, default)

    def integer(self, name: str, default: int | None, low: int = 0) -> int | None:
        """A whole number option, at least ``low``."""
        value = self.take(name, default)
        if value is None:
            return None
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise LedSpecError(f"{self.what}: {name} must be a whole number, not {value!r}") from None
        if number < low:
            raise LedSpecError(f"{self.what}: {name} must be at least {low}, not {number}")
        return number

    def fraction(self, name: str, default: float) -> float:
        """A number from 0 to 1."""
        value = self.take(name, default)
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise LedSpecError(f"{self.what}: {name} must be a number from 0 to 1, not {value!r}") from None
        if not 0.0 <= number <= 1.0:
            raise LedSpecError(f"{self.what}: {name} must be from 0 to 1, not {number}")
        return number

    def flag(self, name: str, default: bool) -> bool:
        """A yes/no option (``1``, ``true``, ``yes``, ``on`` or ``0``, ``false``, ``no``, ``off``)."""
        return parse_flag(self.take(name, default), f"{self.what}: {name}")

    def pin(self, name: str, default: int | str | None) -> int | str | None:
        """A GPIO pin: a BCM number (``10``) or a gpiozero pin name (``GPIO10``, ``BOARD19``)."""
        value = self.take(name, default)
        if value is None or isinstance(value, int):
            return value
        text = str(value).strip()
        if text.lower() in ("", "none", "-"):
            return None
        return int(text) if text.isdigit() else text

    def done(self) -> None:
        """Raise LedSpecError for any option that was not read."""
        unknown = sorted(set(self.values) - self._read)
        if unknown:
            raise LedSpecError(f"{self.what}: unknown option {unknown[0]!r}; it takes {', '.join(sorted(self._read))}")


def pin_factory_from(options: Options) -> tuple[Any, bool]:
    """The pin factory given (``pin_factory=``) or named (``factory=``); and whether it is a new mock.

    A new mock factory gets the simulated chips attached by the driver.
    """
    given = options.take("pin_factory")
    name = options.take("factory")
    if given is not None:
        if name is not None:
            raise LedSpecError(f"{options.what}: give either pin_factory or factory, not both")
        return given, False
    name = str(name or DEFAULT_FACTORY).strip().lower()
    return make_pin_factory(name), name == "mock"


SPI0_CLOCK, SPI0_DATA, SPI0_SELECTS = 11, 10, (8, 7)
"""The Pi's SPI0 pins (BCM numbers): on them the kernel's SPI can be used."""


class BitBangBus:
    """A write-only SPI-style bus on three GPIO outputs: clock, data and latch (chip select).

    Mode 0, most significant bit first: the data line is set, then the clock
    rises (the chips take the bit) and falls; the latch line is low during a
    transfer and its rising edge at the end makes the chips act. Used where
    the kernel's SPI is not (other pins, mock pins).
    """

    def __init__(self, factory: Any, clock_pin: Any, data_pin: Any, latch_pin: Any) -> None:
        from gpiozero import DigitalOutputDevice

        self._devices: list[Any] = []
        try:
            self._latch = DigitalOutputDevice(latch_pin, active_high=False, initial_value=False, pin_factory=factory)
            self._devices.append(self._latch)
            self._clock = DigitalOutputDevice(clock_pin, initial_value=False, pin_factory=factory)
            self._devices.append(self._clock)
            self._data = DigitalOutputDevice(data_pin, initial_value=False, pin_factory=factory)
            self._devices.append(self._data)
        except BaseException:
            self.close()
            raise

    def transfer(self, data: list[int]) -> None:
        """Send 8-bit words, most significant bit first, inside one latch pulse."""
        clock, line = self._clock.pin, self._data.pin
        self._latch.on()
        try:
            for word in data:
                for shift in range(7, -1, -1):
                    line.state = word >> shift & 1
                    clock.state = 1
                    clock.state = 0
        finally:
            self._latch.off()

    def close(self) -> None:
        """Release the pins."""
        for device in self._devices:
            device.close()
        self._devices = []


def open_spi(factory: Any, what: str, clock_pin: Any, mosi_pin: Any, select_pin: Any) -> Any:
    """A write-only bus (mode 0, MSB first, 8-bit words) on the given pins, with ``transfer(words)``.

    On the Pi's SPI0 pins with a real pin factory it is the kernel's SPI (via
    gpiozero's ``factory.spi``); anywhere else a :class:`BitBangBus` through
    gpiozero output devices.
    """
    hardware = (
        clock_pin == SPI0_CLOCK
        and mosi_pin == SPI0_DATA
        and select_pin in SPI0_SELECTS
        and type(factory).__name__ != "MockFactory"
    )
    try:
        if not hardware:
            return BitBangBus(factory, clock_pin, mosi_pin, select_pin)
        spi = factory.spi(clock_pin=clock_pin, mosi_pin=mosi_pin, miso_pin=None, select_pin=select_pin)
    except Exception as error:
        raise GpioError(
            f"{what}: cannot open the pins clock {clock_pin}, data {mosi_pin}, latch/select {select_pin} "
            f"({type(error).__name__}: {error}); check the pins and that no other program uses them"
        ) from None
    spi.clock_mode = 0
    spi.lsb_first = False
    spi.bits_per_word = 8
    return spi
