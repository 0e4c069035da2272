"""``cascade bench TARGET``: benchmarks that print figures.

Each target is a module with ``add_arguments(parser)`` and ``run(args) -> int``
(both with a light top level). A target whose module is not importable here
is not offered.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util

TARGETS = {
    "referee": ("referee.bench", "random complete games per second, each game, one core"),
    "engine": ("engine.bench", "each engine level against a random and a greedy player; about two hours in full"),
    "real": ("calibration.bench_real", "cells and photos read right on real labelled photos, calibrated as users do"),
    "vision": ("vision.bench", "per-cell accuracy and milliseconds per frame on rendered frames"),
    "link": ("firmware_bridge.bench", "LED frames per second and round trip through the serial link"),
    "leds": ("hardware.bench", "time to push a full-board update through each LED driver"),
    "live": ("companion.bench_live", "latency from a drop to the LEDs, frames per second with viewers"),
    "calibration": ("calibration.bench", "guided calibration time, LED map exactness, reading under drifting light"),
    "page": ("companion.bench_page", "the archive's pages with 10,000 logged games: median and p95 ms per answer"),
    "hub": ("hub.bench", "an event's round through faults: ply-to-hub-page latency, losses, hub CPU, messages/s"),
}


def _available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``bench`` and its targets."""
    parser = sub.add_parser("bench", help="run a benchmark and print its figures")
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, (module_name, summary) in TARGETS.items():
        if not _available(module_name):
            continue
        module = importlib.import_module(module_name)
        target = targets.add_parser(name, help=summary, description=summary)
        target.add_argument("--json", action="store_true", help="print one JSON object on stdout")
        module.add_arguments(target)
        target.set_defaults(run=module.run)
