"""``cascade bench leds``: the time to push a full-board update through each LED driver.

Every driver that can run here is measured on the same board: ``none:``,
``console:`` (drawing to a null stream), ``emu:``, ``sim:`` (when the AVR
toolchain and simavr are installed), and the GPIO drivers on gpiozero's mock
pins with the simulated chips attached (bit-banged, so far slower than the
kernel's SPI on a Pi). Updates alternate between every cell lit (in the three
stone colours) and every cell dark, so every LED changes and no driver can
skip a write; the figure is the mean wall time of ``show()`` (for the serial
drivers: until the controller acknowledged).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

DRIVERS = ("none:", "console:", "emu:", "sim:", "gpio:max7219?factory=mock", "gpio:hc595?factory=mock")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--board``, ``--seconds`` and ``--drivers``."""
    parser.add_argument("--board", default="diamond:8", help="board spec (default diamond:8)")
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="time to spend on each driver (default 1; at least 5 updates)"
    )
    parser.add_argument("--drivers", nargs="+", metavar="SPEC", help=f"LED specs to measure (default: {DRIVERS})")


def full_frames(cells: int) -> tuple[Any, Any]:
    """Every cell lit (white, black, red by turns), and every cell dark."""
    from hardware import EMPTY, CellFrame, CellLight, Colour, Pattern

    stones = (Colour.WHITE, Colour.BLACK, Colour.RED)
    return CellFrame({i: CellLight(stones[i % 3], Pattern.STEADY) for i in range(cells)}), EMPTY


def measure(spec: str, board: str, seconds: float) -> dict[str, Any]:
    """Mean milliseconds per full-board update through ``spec``, with the number of LEDs the board's map lights."""
    import os

    from hardware import open_leds

    options: dict[str, Any] = {}
    stream = None
    if spec.startswith("console:"):
        stream = open(os.devnull, "w")  # noqa: SIM115 - closed below
        options.update(stream=stream, ansi=False)
    if spec.startswith("gpio:"):
        options["animate"] = False
    if spec.startswith("sim:"):
        from firmware_bridge.sim import check_toolchain

        check_toolchain()
    try:
        with open_leds(spec, board, **options) as leds:
            frames = full_frames(len(leds.geometry))
            leds.show(frames[1])
            count = 0
            started = time.perf_counter()
            while True:
                leds.show(frames[count % 2])
                count += 1
                elapsed = time.perf_counter() - started
                if count >= 5 and elapsed >= seconds:
                    break
            return {"ms_per_update": 1000.0 * elapsed / count, "updates": count, "leds": leds.layout.led_count}
    finally:
        if stream is not None:
            stream.close()


def run(args: argparse.Namespace) -> int:
    """Measure each driver and print a table (or one JSON object with ``--json``)."""
    from referee.geometry import parse_geometry

    board = parse_geometry(args.board).spec
    results: dict[str, dict[str, Any]] = {}
    for spec in args.drivers or DRIVERS:
        try:
            results[spec] = measure(spec, board, args.seconds)
        except Exception as error:  # a driver that cannot run here is reported, not fatal
            results[spec] = {"unavailable": f"{type(error).__name__}: {error}"}
    if args.json:
        print(json.dumps({"board": board, "drivers": results}, indent=2))
        return 0
    print(f"full-board LED updates on {board} ({len(parse_geometry(board))} cells)")
    print(f"{'driver':<28} {'ms/update':>10} {'updates/s':>10} {'LEDs':>5}")
    for spec, result in results.items():
        if "unavailable" in result:
            print(f"{spec:<28} unavailable: {result['unavailable']}")
            continue
        ms = result["ms_per_update"]
        print(f"{spec:<28} {ms:>10.3f} {1000.0 / ms:>10.1f} {result['leds']:>5}")
    return 0
