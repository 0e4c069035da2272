"""``cascade read``: print the layout of each photo, read with a calibration profile."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``read`` command."""
    parser = sub.add_parser(
        "read",
        help="read the board in photos and print their layouts",
        description=(
            "Read every cell of the board in each photo and print, per photo, a line '# IMG' then the "
            "layout: one line per board row, symbols . o x = (? where undecided) separated by spaces, first "
            "line at the top of the image. Exit status 1 when the board was not found in some photo."
        ),
    )
    parser.add_argument("--profile", required=True, help="the calibration profile (from cascade calibrate)")
    parser.add_argument("images", nargs="+", metavar="IMG", help="photos to read")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read each image and print its layout block."""
    from calibration.profile import load_profile
    from vision.images import read_image
    from vision.layout import format_layout
    from vision.pipeline import BoardReader

    profile = load_profile(args.profile)
    geometry = profile.board
    status = 0
    for path in args.images:
        reader = BoardReader(geometry, profile.locator, profile.colour_model)
        reading = reader.read(read_image(path))
        print(f"# {path}")
        print(format_layout(geometry, reading.symbols), flush=True)
        if not reading.located:
            print(f"cascade read: {path}: the board was not found", file=sys.stderr)
            status = 1
        elif reading.occluded:
            print(f"cascade read: {path}: something covers part of the board", file=sys.stderr)
    return status
