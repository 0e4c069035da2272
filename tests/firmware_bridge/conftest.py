"""Fixtures for the LED link: devices of every kind, opened and closed per test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import Link, ToolchainMissingError, open_device
from firmware_bridge.sim import check_toolchain

GOLDEN = Path(__file__).resolve().parents[2] / "firmware_bridge" / "golden" / "messages.golden"


def golden_messages() -> dict[str, tuple[str, bytes, bytes]]:
    """name -> (direction, message bytes, wire bytes) from the golden file."""
    entries = {}
    for line in GOLDEN.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, direction, raw, wire = line.split()
        entries[name] = (direction, bytes.fromhex(raw), bytes.fromhex(wire))
    return entries


def require_toolchain() -> None:
    """Fail (never skip) with the packages to install when sim: cannot run here."""
    try:
        check_toolchain()
    except ToolchainMissingError as error:
        pytest.fail(str(error))


@pytest.fixture(params=["emu:", pytest.param("sim:", marks=pytest.mark.firmware)])
def spec(request: pytest.FixtureRequest) -> str:
    """Each emulated device in turn; the conformance suite runs against both."""
    if request.param == "sim:":
        require_toolchain()
    return str(request.param)


@pytest.fixture
def open_link() -> Iterator[Callable[..., Link]]:
    """Open links (closed after the test); for sim:, no update of the LEDs may break the WS2812 timing."""
    links: list[Link] = []

    def opener(spec: str, **options: Any) -> Link:
        link = open_device(spec, **options)
        links.append(link)
        return link

    yield opener
    for link in links:
        errors = list(getattr(link.device, "timing_errors", []))
        link.close()
        assert errors == [], f"the WS2812 waveform broke the datasheet's timing: {errors[:3]}"
