"""Fixtures for the hardware tests: every LED driver with a way to read back what it shows."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from hardware import LedMap, LedMatrix, open_leds
from referee.geometry import Geometry, parse_geometry
from tests.hardware import observe

DRIVERS = ["none:", "console:", "emu:", "sim:", "gpio:max7219", "gpio:hc595"]


def require_toolchain() -> None:
    """Fail (never skip) with the packages to install when sim: cannot run here."""
    from firmware_bridge import ToolchainMissingError
    from firmware_bridge.sim import check_toolchain

    try:
        check_toolchain()
    except ToolchainMissingError as error:
        pytest.fail(str(error))


def mock_factory() -> Any:
    """A fresh gpiozero mock pin factory (fails saying what to install without gpiozero)."""
    try:
        from gpiozero.pins.mock import MockFactory
    except ImportError:
        pytest.fail("the GPIO tests need gpiozero: pip install -e '.[test]'")
    return MockFactory()


@dataclass
class Opened:
    """A matrix and a function reading back, from the hardware side, the frame it shows."""

    matrix: LedMatrix
    observe: observe.Observer


Opener = Callable[..., Opened]


def open_with_observer(driver: str, geometry: Geometry | str = "diamond:8", led_map: LedMap | None = None) -> Opened:
    """Open a driver by name for a board, with a reader of what its hardware shows."""
    board = parse_geometry(geometry) if isinstance(geometry, str) else geometry
    matrix: Any
    if driver == "none:":
        matrix = open_leds("none:", board, led_map)
        reader = matrix.shown
    elif driver == "console:":
        stream = io.StringIO()
        matrix = open_leds("console:", board, led_map, stream=stream, ansi=False)
        reader = observe.console_observer(matrix, stream)
    elif driver == "emu:":
        matrix = open_leds("emu:", board, led_map, brightness=1.0)
        reader = observe.emu_observer(matrix)
    elif driver == "sim:":
        require_toolchain()
        matrix = open_leds("sim:", board, led_map, brightness=1.0, leds=64)  # one firmware build for all
        reader = observe.sim_observer(matrix)
    elif driver == "gpio:max7219":
        matrix = open_leds("gpio:max7219?factory=mock", board, led_map, animate=False)
        reader = observe.max7219_observer(matrix)
    elif driver == "gpio:hc595":
        matrix = open_leds("gpio:hc595?factory=mock", board, led_map, animate=False)
        reader = observe.hc595_observer(matrix)
    else:
        raise AssertionError(driver)
    return Opened(matrix, reader)


@pytest.fixture
def open_driver() -> Iterator[Opener]:
    """Open a driver by name for a board (closing every one after the test)."""
    opened: list[LedMatrix] = []

    def opener(driver: str, geometry: Geometry | str = "diamond:8", led_map: LedMap | None = None) -> Opened:
        opened_now = open_with_observer(driver, geometry, led_map)
        opened.append(opened_now.matrix)
        return opened_now

    yield opener
    for matrix in opened:
        matrix.close()
