"""``cascade leds``: check the LED wiring and show cells by hand.

- ``cascade leds test --leds SPEC [--profile PROFILE] [--board BOARD]`` lights
  every cell in turn (and names it), to check the wiring and the LED map;
- ``cascade leds show --leds SPEC --cells "h1=o g2=x! c6=="`` lights the given
  cells (``!`` blinks, ``!!`` blinks fast); ``console:`` draws them on stdout;
- ``cascade leds legend [--single-colour]`` prints what the colours and blink
  codes mean.

The LED map comes from the profile's ``led_map`` (a map object, or a list of
one LED number per cell) and the board from its ``geometry``; ``--board``
overrides the board.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

DEFAULT_BOARD = "diamond:8"


def seconds(text: str) -> float:
    """An argparse type: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not 0 <= value < float("inf"):  # nan and inf too: a pause that never ends
        raise argparse.ArgumentTypeError(f"seconds must be 0 or more, not {text}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``leds test``, ``leds show`` and ``leds legend``."""
    parser = sub.add_parser("leds", help="check the LED wiring, light cells by hand")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def common(action: argparse.ArgumentParser) -> None:
        action.add_argument(
            "--leds",
            required=True,
            metavar="SPEC",
            help="serial:PORT, emu:, sim:, gpio:max7219?..., gpio:hc595?..., console: or none:",
        )
        action.add_argument("--profile", metavar="PROFILE", help="calibration profile (JSON) holding the LED map")
        action.add_argument(
            "--board", metavar="BOARD", help=f"board spec (default: the profile's, else {DEFAULT_BOARD})"
        )

    test = actions.add_parser("test", help="light every cell in turn, to check the wiring")
    common(test)
    test.add_argument("--step-s", type=seconds, default=0.5, metavar="S", help="seconds per cell (default 0.5)")
    test.add_argument("--colour", default="o", help="colour to light the cells in (default o)")
    test.set_defaults(run=run_test)

    show = actions.add_parser("show", help="light the given cells")
    common(show)
    show.add_argument("--cells", required=True, help='cells and colours, like "h1=o g2=x! c6=="')
    show.add_argument(
        "--hold-s",
        type=seconds,
        metavar="S",
        help="seconds to keep them lit (default: until Ctrl-C on real LEDs, 0 on simulated ones)",
    )
    show.set_defaults(run=run_show)

    legend = actions.add_parser("legend", help="what the LED colours and blink codes mean")
    legend.add_argument("--single-colour", action="store_true", help="the codes of a single-colour matrix")
    legend.set_defaults(run=run_legend)


def read_profile(path: str) -> tuple[str | None, Any]:
    """(geometry spec, LED map value) from a profile file; raises OSError or LedMapError with what is wrong."""
    from hardware import LedMapError

    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as error:
        raise LedMapError(f"{path} is not JSON ({error}); give a calibration profile") from None
    if not isinstance(data, dict):
        raise LedMapError(f"{path} is not a calibration profile: expected a JSON object")
    geometry = data.get("geometry")
    return (geometry if isinstance(geometry, str) else None), data.get("led_map")


def board_and_map(args: argparse.Namespace) -> tuple[Any, Any]:
    """The board and the LED map from ``--board`` and ``--profile``."""
    from hardware.ledmap import led_map_of
    from referee.geometry import parse_geometry

    profile_board, map_value = read_profile(args.profile) if args.profile else (None, None)
    geometry = parse_geometry(args.board or profile_board or DEFAULT_BOARD)
    return geometry, led_map_of(map_value, geometry)


def run_test(args: argparse.Namespace) -> int:
    """Light each cell alone, in canonical order, naming it and its LEDs."""
    import time

    from hardware import CellFrame, CellLight, Colour, open_leds

    geometry, led_map = board_and_map(args)
    colour = Colour.parse(args.colour)
    with open_leds(args.leds, geometry, led_map) as leds:
        for index, cell in enumerate(geometry.cells):
            numbers = ", ".join(str(n) for n in leds.layout.leds(index)) or "none"
            print(f"{cell.name}: LED {numbers}", flush=True)
            leds.show(CellFrame({index: CellLight(colour)}))
            time.sleep(args.step_s)
        leds.clear()
    print(f"lit {len(geometry)} cells of {geometry.spec} one by one on {args.leds}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Show the cells, then hold them."""
    import threading

    from hardware import CellFrame, open_leds

    geometry, led_map = board_and_map(args)
    frame = CellFrame.parse(geometry, args.cells)
    spec = args.leds.strip()
    virtual = spec.startswith(("console:", "none:", "emu:", "sim:")) or "factory=mock" in spec
    hold = args.hold_s if args.hold_s is not None else (0.0 if virtual else None)
    with open_leds(args.leds, geometry, led_map) as leds:
        leds.show(frame)
        if not args.leds.strip().startswith("console:"):
            print(f"{args.leds} shows {frame.describe(geometry) or 'all dark'}", file=sys.stderr)
        if hold is None:
            print("Ctrl-C turns them off", file=sys.stderr)
            with contextlib.suppress(KeyboardInterrupt):
                threading.Event().wait()
        elif hold > 0:
            threading.Event().wait(hold)
    return 0


def run_legend(args: argparse.Namespace) -> int:
    """Print the legend."""
    from hardware import legend

    for line in legend(single_colour=args.single_colour):
        print(line)
    return 0
