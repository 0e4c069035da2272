"""The guided calibration in a terminal: steps and problems as text, questions answered by typing.

:func:`run_in_terminal` drives a :class:`~calibration.guided.GuidedCalibration`
with any frame source (a callable that returns the next BGR frame), prints
each step's instructions and each new problem, saves the found grid drawn
over the picture to a file and asks whether it sits on the cells, and lights
each step's cells through an optional callable (the command layer wires it to
the LEDs). :func:`add_guided_arguments` and :func:`run_guided` are the
``cascade calibrate --guided`` command: ``--camera sim:`` runs the flow
against the simulated table (:mod:`calibration.simtable`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from calibration.guided import Check, GuidedCalibration, Step
from calibration.profile import Profile, load_profile, save_profile

Grab = Callable[[], np.ndarray | None]
Ask = Callable[[str], str]
Say = Callable[[str], None]
Light = Callable[[dict[int, str]], None]


class GuidedStopError(RuntimeError):
    """The guided calibration was stopped before it ended (the camera ran out, or the user quit)."""


def run_in_terminal(
    flow: GuidedCalibration,
    grab: Grab,
    ask: Ask,
    say: Say,
    light: Light | None = None,
    overlay_path: Path | None = None,
    answer: Callable[[GuidedCalibration], bool] | None = None,
    max_frames: int | None = None,
    see: Callable[[Step, Check | None], None] | None = None,
) -> Profile:
    """Run ``flow`` to its end and return the verified profile.

    ``grab`` gives frames (None: the camera ended); ``ask`` shows a question
    and returns the typed answer; ``say`` prints a line; ``answer``, when
    given, answers the grid question instead of ``ask``, and ``see`` is shown
    every step and check as they come (both: a simulated user).
    Raises GuidedStopError when the camera ends, the user quits, or
    ``max_frames`` pass.
    """
    shown_step = ""
    shown_problems: tuple[str, ...] = ()
    frames = 0
    check: Check | None = None
    while not flow.done:
        step = flow.step
        if see is not None:
            see(step, check)
        if step.name != shown_step:
            shown_step = step.name
            shown_problems = ()
            say(f"== {step.title} ==")
            say(step.instructions)
            if light is not None:
                light(step.lit)
        if step.asks:
            _save_overlay(flow, grab, say, overlay_path)
            yes = answer(flow) if answer is not None else _ask_grid(ask, say)
            flow.answer(yes)
            check = None
            continue
        image = grab()
        if image is None:
            raise GuidedStopError(
                f"the camera gave no more pictures during step '{step.name}': check it and start again"
            )
        check = flow.offer(image)
        frames += 1
        problems = tuple(str(p) for p in check.problems)
        if problems != shown_problems:
            for text in problems:
                if text not in shown_problems:
                    say(f"  ! {text}")
            shown_problems = problems
        if check.advanced:
            say("  ok")
        if max_frames is not None and frames >= max_frames:
            raise GuidedStopError(f"stopped after {frames} pictures at step '{flow.step.name}'")
    if light is not None:
        light({})
    return flow.profile


def _save_overlay(flow: GuidedCalibration, grab: Grab, say: Say, overlay_path: Path | None) -> None:
    image = grab()
    if image is not None and overlay_path is not None:
        cv2.imwrite(str(overlay_path), flow.overlay(image))
        say(f"  the found grid is drawn over the picture in {overlay_path}")


def _ask_grid(ask: Ask, say: Say) -> bool:
    while True:
        try:
            reply = ask("Does the green grid sit on the board's cells? [y/n/q] ").strip().lower()
        except EOFError:
            reply = "q"
        if reply in ("y", "yes"):
            return True
        if reply in ("n", "no"):
            say("  then find the board again: make sure the board lies flat and the markers are its own")
            return False
        if reply in ("q", "quit"):
            raise GuidedStopError("calibration stopped; nothing was saved")
        say("  answer y (yes), n (no) or q (quit)")


def map_leds_in_terminal(
    profile: Profile, led_count: int, light: Callable[[frozenset[int]], None], grab: Grab, say: Say
) -> Profile:
    """Measure the LED under every cell (see :mod:`calibration.ledmap_auto`) and put it into ``profile``."""
    from calibration.ledmap_auto import led_patterns, map_leds, with_led_map

    say("== LED map ==")
    say(f"Keep the board empty and still: {len(led_patterns(led_count))} pictures with LED patterns follow.")

    def frames() -> np.ndarray:
        image = grab()
        if image is None:
            raise GuidedStopError("the camera gave no more pictures while mapping the LEDs: check it and map again")
        return image

    result = map_leds(profile.board, profile.locator, led_count, light, frames, lens=profile.colour_model.lens)
    say(f"  ok: {sum(led is not None for led in result.cell_leds)} cells, each with its own LED")
    return with_led_map(profile, result)


# --- the command -----------------------------------------------------------------------------------------


def run_guided(
    args: argparse.Namespace,
    say: Say = print,
    ask: Ask = input,
    light: Light | None = None,
    leds: tuple[int, Callable[[frozenset[int]], None]] | None = None,
) -> int:
    """Run ``cascade calibrate --guided``: ``args`` has geometry, camera, start, overlay and output.

    ``light`` lights the cells of each step; ``leds`` (the LED count and a
    callable that lights exactly the given LED indices) adds the LED map.
    """
    from calibration.ready import READY, load_ready_profile, row_major_leds
    from referee.geometry import parse_geometry

    geometry = parse_geometry(args.geometry)
    start = (
        load_profile(args.start)
        if args.start
        else load_ready_profile(geometry.spec)
        if geometry.spec in READY
        else None
    )
    flow = GuidedCalibration(geometry, start=start)
    overlay = Path(args.overlay) if args.overlay else Path(args.output).with_suffix(".grid.png")
    if args.camera.strip() == "sim:":
        from calibration.simtable import CalibrationTable

        wiring = getattr(args, "sim_wiring", None)
        table = CalibrationTable(
            geometry, led_wiring=None if wiring is None else row_major_leds(geometry, wiring == "serpentine")
        )
        profile = run_in_terminal(
            flow, table.grab, ask, say, light, overlay, answer=table.answer, max_frames=600, see=table.see
        )
        if table.led_wiring is not None:
            profile = map_leds_in_terminal(profile, len(table.led_wiring), table.light_leds, table.grab, say)
        say(f"simulated time: {table.clock_s:.1f} s")
    else:
        try:
            from vision.sources import open_source  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise GuidedStopError("this installation cannot open cameras: use --camera sim: to try the flow") from None
        source = iter(open_source(args.camera))

        def grab() -> np.ndarray | None:
            frame = next(source, None)
            return None if frame is None else frame.image

        profile = run_in_terminal(flow, grab, ask, say, light, overlay)
        if leds is not None:
            profile = map_leds_in_terminal(profile, leds[0], leds[1], grab, say)
    if profile.led_map is None:
        profile = _with_led_map(profile, start)
    save_profile(profile, args.output)
    say(f"wrote {args.output}: {geometry.spec}, stone colours {', '.join(profile.colour_model.classes)}")
    return 0


def _with_led_map(profile: Profile, start: Profile | None) -> Profile:
    if start is None or start.led_map is None or start.geometry != profile.geometry:
        return profile
    return Profile(profile.geometry, profile.locator, profile.colour_model, start.led_map)
