"""``cascade read``: print the layout of each photo, read with a calibration profile."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from vision.pipeline import BoardReader, FrameReading


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``read`` command."""
    parser = sub.add_parser(
        "read",
        help="read the board in photos and print their layouts",
        description=(
            "Read every cell of the board in each photo and print, per photo, a line '# IMG' then the "
            "layout: one line per board row, symbols . o x = (? where undecided) separated by spaces, first "
            "line at the top of the image. A photo NAME.jpg with a file NAME.corners beside it (one line "
            "x,y x,y x,y x,y) is located by those corners instead of the profile's. Exit status 1 when the "
            "board was not found in some photo."
        ),
    )
    parser.add_argument("--profile", required=True, help="the calibration profile (from cascade calibrate)")
    parser.add_argument(
        "--overlay",
        metavar="DIR",
        help="also write each photo, with the lattice and what was read drawn over it, into DIR (as NAME.png)",
    )
    parser.add_argument(
        "--truth",
        action="store_true",
        help="with --overlay: ring the cells that differ from the layout NAME.txt beside each photo, if any",
    )
    parser.add_argument("images", nargs="+", metavar="IMG", help="photos to read")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read each image and print its layout block."""
    from calibration.errors import ProfileError
    from calibration.fit import read_photo
    from calibration.profile import load_profile
    from vision.layout import format_layout, parse_layout
    from vision.pipeline import BoardReader

    profile = load_profile(args.profile)
    geometry = profile.board
    overlay_dir = None
    if args.overlay:
        overlay_dir = Path(args.overlay)
        try:
            overlay_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ProfileError(
                f"--overlay {args.overlay}: cannot make the folder ({error.strerror or error})"
            ) from None
    status = 0
    for path in args.images:
        reader = BoardReader(geometry, profile.locator, profile.colour_model)
        image, reading = read_photo(reader, path)
        print(f"# {path}")
        print(format_layout(geometry, reading.symbols), flush=True)
        if not reading.located:
            print(f"cascade read: {path}: the board was not found", file=sys.stderr)
            status = 1
        elif reading.occluded:
            print(f"cascade read: {path}: something covers part of the board", file=sys.stderr)
        if overlay_dir is not None and reader.location is not None:
            truth = None
            layout = Path(path).with_suffix(".txt")
            if args.truth and layout.is_file():
                truth = parse_layout(layout.read_text(encoding="utf-8"), geometry)
            _write_overlay(overlay_dir / (Path(path).stem + ".png"), image, reader, reading, truth)
    return status


def _write_overlay(
    target: Path, image: np.ndarray, reader: BoardReader, reading: FrameReading, truth: Sequence[str] | None
) -> None:
    """Write the photo with the reading drawn over it (see :mod:`vision.overlay`)."""
    import cv2

    from calibration.errors import ProfileError
    from vision.overlay import draw_overlay

    assert reader.location is not None
    drawn = draw_overlay(
        image,
        reader.geometry,
        reader.location.homography,
        reading.symbols,
        reading.looked,
        reading.unexplained,
        truth,
        reading.occluded,
        reader.location.lens,
    )
    if not cv2.imwrite(str(target), drawn):
        raise ProfileError(f"--overlay: cannot write {target}")
