"""``cascade bench calibration``: figures of the guided calibration, the automatic LED map and light drift.

- guided: simulated seconds for a newcomer who makes every usual mistake
  once (and for one who makes none) to reach a verified profile on the
  printed board, frames seen, milliseconds per frame, and the cells misread
  in a synthetic game read with the profile;
- LED map: frames lit and whether the map is exact, for each wiring;
- light drift: stable readings and wrong stable readings of a game whose
  light drifts from cold daylight to a warm lamp at half and at double
  brightness, with and without the board model following the light.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

BOARDS = ("diamond:8", "hex-diamond:8", "trapezoid:8,8")
PARTS = ("guided", "ledmap", "drift")


class BenchArgumentError(ValueError):
    """An option of the calibration benchmark is out of range."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the calibration benchmark."""
    parser.add_argument(
        "--boards",
        nargs="+",
        default=list(BOARDS),
        metavar="BOARD",
        help=f"boards to measure (default {' '.join(BOARDS)})",
    )
    parser.add_argument("--plies", type=int, default=40, help="plies of each drifting-light game (default 40)")
    parser.add_argument(
        "--parts", default=",".join(PARTS), help=f"what to measure, among {','.join(PARTS)} (default all)"
    )


def run(args: argparse.Namespace) -> int:
    """Measure and print the figures (one JSON object with --json)."""
    boards = [b.strip() for b in args.boards if b.strip()]
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    if not parts <= set(PARTS) or not parts:
        raise BenchArgumentError(f"--parts {args.parts}: choose among {', '.join(PARTS)}")
    if args.plies < 1:
        raise BenchArgumentError(f"--plies must be 1 or more, not {args.plies}")
    figures: dict[str, Any] = {"guided": [], "ledmap": [], "drift": []}
    for spec in boards:
        if "guided" in parts:
            figures["guided"] += [_guided(spec, mistakes) for mistakes in (True, False)]
        if "ledmap" in parts:
            figures["ledmap"] += _ledmap(spec)
        if "drift" in parts:
            figures["drift"] += [
                _drift(spec, gain, follow, args.plies) for gain in (0.5, 2.0) for follow in (True, False)
            ]
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    out = sys.stdout
    for g in figures["guided"]:
        print(
            f"guided  {g['board']:<14} mistakes={g['mistakes']!s:<5} done={g['done']!s:<5} "
            f"simulated {g['simulated_s']:6.1f} s  {g['frames']:4d} frames  {g['ms_per_frame']:5.1f} ms/frame  "
            f"misread in a game: {g['misread']}",
            file=out,
        )
    for m in figures["ledmap"]:
        print(
            f"ledmap  {m['board']:<14} {m['wiring']:<34} {m['leds']:3d} LEDs  {m['frames']:2d} frames  "
            f"exact={m['exact']}",
            file=out,
        )
    for d in figures["drift"]:
        print(
            f"drift   {d['board']:<14} end gain {d['end_gain']:.1f}  following={d['following']!s:<5} "
            f"stable readings {d['stable']:4d}  wrong cells {d['wrong']:4d}",
            file=out,
        )
    return 0


def _guided(spec: str, mistakes: bool) -> dict[str, Any]:
    from calibration.guided import GuidedCalibration
    from calibration.ready import READY, load_ready_profile
    from calibration.scenarios import read_game
    from calibration.simtable import CalibrationTable, run_on_table
    from referee.geometry import parse_geometry

    geometry = parse_geometry(spec)
    start = load_ready_profile(spec) if geometry.spec in READY else None
    table = CalibrationTable(geometry, seed=3, mistakes=mistakes)
    t0 = time.perf_counter()
    result = run_on_table(GuidedCalibration(geometry, start=start), table, limit_s=300.0)
    wall = time.perf_counter() - t0
    misread = (
        len(read_game(result.flow.profile, table.renderer, table.light, plies=12, seed=3)) if result.flow.done else -1
    )
    return {
        "board": spec,
        "mistakes": mistakes,
        "done": result.flow.done,
        "simulated_s": round(result.seconds, 1),
        "frames": result.frames,
        "ms_per_frame": round(1000.0 * wall / max(result.frames, 1), 1),
        "misread": misread,
        "problems": list(result.problems),
    }


def _ledmap(spec: str) -> list[dict[str, Any]]:
    from calibration.ledmap_auto import LedMapError, map_leds
    from calibration.ready import row_major_leds
    from calibration.scenarios import emulated_leds
    from referee.geometry import parse_geometry
    from vision.locate import MarkerLocator

    geometry = parse_geometry(spec)
    standard = row_major_leds(geometry)
    wirings = {
        "row-major": standard,
        "serpentine": row_major_leds(geometry, serpentine=True),
        "reversed (rotated 180)": tuple(len(standard) - 1 - led for led in standard),
    }
    out = []
    for seed, (name, leds) in enumerate(wirings.items(), start=1):
        light, grab, shown = emulated_leds(geometry, [(led,) for led in leds], len(leds), seed)
        try:
            result = map_leds(geometry, MarkerLocator.default(geometry), len(leds), light, grab)
            exact = result.cell_leds == tuple(leds)
        except LedMapError:
            exact = False
        out.append({"board": spec, "wiring": name, "leds": len(leds), "frames": len(shown) - 1, "exact": exact})
    return out


def _drift(spec: str, gain: float, follow: bool, plies: int) -> dict[str, Any]:
    from calibration.scenarios import play_drifting_game

    game = play_drifting_game(spec, gain, follow=follow, plies=plies)
    return {"board": spec, "end_gain": gain, "following": follow, "stable": game.stable, "wrong": len(game.wrong)}
