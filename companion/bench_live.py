"""``cascade bench live``: how fast the live game answers a drop, and how many frames it takes per second.

A scripted Cascade game on ``diamond:8`` is filmed by the synthetic camera and
fed, as fast as it can be read, through the real pipeline: vision, the
stabiliser, the referee, the store (a temporary file) and the LEDs on
``emu:`` (the device emulator over a pseudo-terminal, real protocol; a frame
counts as shown when the device has acknowledged it).

- latency: from the first frame that shows a drop (the hand gone) to the LED
  frame that answers it being acknowledged, in frames and in milliseconds of
  processing (frames read back to back; at a camera's frame rate add the
  frame interval times the frame count);
- frames per second with no page viewer, and with 200 viewers connected to
  the page's event stream over loopback.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_VIEWERS = 200


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cascade bench live``."""
    parser.add_argument("--viewers", type=int, default=DEFAULT_VIEWERS, help="page viewers for the second run (200)")
    parser.add_argument("--plies", type=int, default=12, help="plies of the scripted game per run (12)")
    parser.add_argument("--leds", default="emu:", help="LED spec (default emu:)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scripted game")


class TimedLeds:
    """Wraps an LED matrix: records when each new frame has been shown (acknowledged)."""

    def __init__(self, leds: Any) -> None:
        self.leds = leds
        self.shown_at: list[float] = []
        self._last: Any = None

    def show(self, frame: Any) -> None:
        """Show a frame; note the time once the device has it (only when it changed)."""
        self.leds.show(frame)
        if frame != self._last:
            self.shown_at.append(time.perf_counter())
            self._last = frame

    def close(self) -> None:
        """Close the wrapped matrix."""
        self.leds.close()


def _run_once(folder: Path, args: argparse.Namespace, viewers: int, tag: str) -> dict[str, Any]:
    from companion.demo_game import open_steadier
    from companion.live import LiveGame
    from companion.runner import CameraLoop
    from companion.scenario import script_game
    from companion.session import Session
    from companion.store import Store
    from companion.table import ScriptedTable
    from companion.web.viewers import SseViewers
    from hardware import open_leds
    from referee.game import make_rules
    from vision.pipeline import BoardReader

    rules = make_rules("cascade", "diamond:8")
    geometry = rules.geometry
    table = ScriptedTable(geometry, seed=args.seed + 6)
    profile = table.calibrate()
    script = script_game(rules.start(), seed=args.seed, max_plies=args.plies)
    frames = list(table.frames(script))
    store = Store(folder / f"bench-{tag}.sqlite3")
    leds = TimedLeds(open_leds(args.leds, geometry))
    live = LiveGame.start_or_resume(rules.start(), store, leds=leds)
    session = Session(live, store, leds)
    crowd = SseViewers("127.0.0.1", session.server.port, viewers) if viewers else None
    try:
        if crowd is not None and not crowd.wait_for_seq(live.snapshot().seq, 30.0):
            raise RuntimeError("the page viewers could not all connect within 30 s")
        reader = BoardReader(geometry, profile.locator, profile.colour_model)
        loop = CameraLoop(live, reader, open_steadier(len(geometry)))
        drop_frames: list[tuple[int, float]] = []
        answers: list[tuple[int, float]] = []
        start = time.perf_counter()
        for number, frame in enumerate(frames):
            arrived = time.perf_counter()
            before = len(leds.shown_at)
            loop.step(frame.image, (frame.button,) if frame.button else ())
            if frame.first_still and _is_drop(script, frame.step):
                drop_frames.append((number, arrived))
            if len(leds.shown_at) > before:
                answers.append((number, leds.shown_at[-1]))
        elapsed = time.perf_counter() - start
        latencies = _latencies(drop_frames, answers)
        delivered = crowd.wait_for_seq(live.snapshot().seq, 30.0) if crowd is not None else True
    finally:
        if crowd is not None:
            crowd.close()
        session.close()
    return {
        "fps": len(frames) / elapsed,
        "frames": len(frames),
        "latency_frames": [f for f, _ in latencies],
        "latency_ms": [ms for _, ms in latencies],
        "plies": len(live.moves),
        "viewers_all_current": delivered,
        "dropped_viewers": live.broadcaster.dropped,
    }


def _is_drop(script: Any, step: int) -> bool:
    current = script.steps[step]
    if step == 0 or current.move == 0:
        return False
    return script.steps[step - 1].move != current.move


def _latencies(drops: list[tuple[int, float]], answers: list[tuple[int, float]]) -> list[tuple[int, float]]:
    out = []
    for frame, arrived in drops:
        answer = next(((f, t) for f, t in answers if f >= frame), None)
        if answer is not None:
            out.append((answer[0] - frame + 1, (answer[1] - arrived) * 1000.0))
    return out


def run(args: argparse.Namespace) -> int:
    """Run both measurements and print the figures."""
    if args.viewers < 0 or args.plies < 1:
        print("cascade bench live: --viewers must be 0 or more and --plies at least 1")
        return 2
    with tempfile.TemporaryDirectory(prefix="cascade-bench-") as folder:
        quiet = _run_once(Path(folder), args, 0, "quiet")
        crowded = _run_once(Path(folder), args, args.viewers, "crowded")
    ms = quiet["latency_ms"] + crowded["latency_ms"]
    frames = quiet["latency_frames"] + crowded["latency_frames"]
    if not ms:
        print("cascade bench live: no drop was answered; check the camera and the stabiliser")
        return 1
    figures = {
        "latency_ms_median": round(statistics.median(ms), 1),
        "latency_ms_max": round(max(ms), 1),
        "latency_frames_median": statistics.median(frames),
        "latency_frames_max": max(frames),
        "fps_no_viewers": round(quiet["fps"], 1),
        "fps_200_viewers": round(crowded["fps"], 1),
        "viewers": args.viewers,
        "drops_measured": len(ms),
        "frames_per_run": quiet["frames"],
        "viewers_all_current": crowded["viewers_all_current"],
        "viewers_dropped": crowded["dropped_viewers"],
        "leds": args.leds,
        "cores": _cores(),
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"live game, diamond:8, {quiet['frames']} frames per run, LEDs {args.leds}")
    print(
        f"  drop to LEDs acknowledged: median {figures['latency_ms_median']} ms "
        f"({figures['latency_frames_median']} frames), worst {figures['latency_ms_max']} ms "
        f"({figures['latency_frames_max']} frames), over {len(ms)} drops"
    )
    print(f"  frames per second, no viewers:      {figures['fps_no_viewers']}")
    print(f"  frames per second, {args.viewers} viewers:    {figures['fps_200_viewers']}")
    print(f"  every viewer got the last snapshot: {'yes' if crowded['viewers_all_current'] else 'NO'}")
    return 0


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


__all__ = ["add_arguments", "run"]
