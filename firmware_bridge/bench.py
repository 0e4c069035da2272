"""``cascade bench link``: LED frames per second and the round trip of a full 8×8 frame.

Each frame is a random palette index per LED; one frame is in flight at a
time, so the round trip (send to acknowledgement, the LEDs updated) also
bounds the frame rate.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

BOARD_LEDS = 64  # an 8×8 matrix


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cascade bench link``."""
    parser.add_argument(
        "--leds",
        default="emu:",
        metavar="SPEC",
        help="the LED controller: emu:, sim: or a serial port / pyserial URL (default emu:)",
    )
    parser.add_argument("--frames", type=_positive, default=300, help="frames to send (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random frames")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"--frames must be a whole number of at least 1, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """Send the frames, print frames per second and round-trip times."""
    from firmware_bridge import LedFrame, open_device

    spec = args.leds
    options = {"leds": BOARD_LEDS} if spec in ("emu:", "sim:") else {}
    rng = random.Random(args.seed)
    with open_device(spec, **options) as link:
        leds = link.info.led_count
        colours = len(link.info.palette)
        frames = [LedFrame.from_lists([rng.randrange(colours) for _ in range(leds)]) for _ in range(args.frames)]
        link.show(frames[0])  # warm up
        round_trips = []
        start = time.perf_counter()
        for frame in frames:
            sent = time.perf_counter()
            link.show(frame)
            round_trips.append(time.perf_counter() - sent)
        elapsed = time.perf_counter() - start
        resent = link.stats.resent
    ms = sorted(t * 1000.0 for t in round_trips)
    result = {
        "device": spec,
        "leds": leds,
        "frames": len(frames),
        "frames_per_s": round(len(frames) / elapsed, 1),
        "round_trip_ms_median": round(statistics.median(ms), 3),
        "round_trip_ms_p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 3),
        "round_trip_ms_max": round(ms[-1], 3),
        "resent": resent,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"LED link to {spec} ({leds} LEDs), {len(frames)} frames, one in flight:")
        print(f"  {result['frames_per_s']} frames/s")
        print(
            f"  round trip to acknowledgement: median {result['round_trip_ms_median']} ms, "
            f"95th percentile {result['round_trip_ms_p95']} ms, max {result['round_trip_ms_max']} ms"
        )
        print(f"  resent: {resent}")
    return 0
