"""``cascade calibrate``: fit a calibration profile from photos of the board."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``calibrate`` command."""
    parser = sub.add_parser(
        "calibrate",
        help="fit a calibration profile from an empty-board photo and photos with known layouts",
        description=(
            "Fit a calibration profile: where the board is and what its cells and stones look like. "
            "Give the board, how to locate it, a photo of the empty board and, for each stone colour in "
            "play, at least one photo with a known layout (a text file in the layout format: one line per "
            "row, symbols . o x = separated by spaces, first line at the top of the image)."
        ),
    )
    parser.add_argument("--geometry", required=True, help="the board, e.g. diamond:8, grid:6x6, points:19x19")
    parser.add_argument(
        "--guided", action="store_true", help="calibrate step by step with the camera, guided in the terminal"
    )
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--corners",
        metavar='"X,Y X,Y X,Y X,Y"',
        help="image positions of the board's four corners: top-left, top-right, bottom-right, bottom-left",
    )
    how.add_argument("--markers", action="store_true", help="locate by the four default ArUco markers (DICT_4X4_50)")
    how.add_argument(
        "--checkerboard", action="store_true", help="find the empty square board by its checkerboard pattern"
    )
    parser.add_argument("--empty", metavar="IMG", help="a photo of the empty board (not with --guided)")
    parser.add_argument(
        "--known", action="append", default=[], metavar="IMG=LAYOUT", help="a photo and its layout file (repeatable)"
    )
    parser.add_argument("-o", "--output", required=True, metavar="PROFILE", help="the profile file to write")
    from calibration.options import add_guided_arguments

    add_guided_arguments(parser)
    parser.set_defaults(run=run)


def parse_corners(text: str) -> tuple[tuple[float, float], ...]:
    """Four ``x,y`` points separated by spaces; raises ValueError with a clear message."""
    from calibration.errors import ProfileError

    parts = text.replace(";", " ").split()
    try:
        points = tuple((float(p.split(",")[0]), float(p.split(",")[1])) for p in parts if len(p.split(",")) == 2)
    except ValueError:
        points = ()
    if len(points) != 4 or len(parts) != 4:
        raise ProfileError(f'--corners "{text}": give four points as "x,y x,y x,y x,y" (top-left first, clockwise)')
    return points


def run(args: argparse.Namespace) -> int:
    """Fit and save the profile; print what was fitted."""
    from calibration.errors import ProfileError

    if args.guided:
        from calibration.terminal import run_guided

        return run_guided(args)
    if not (args.corners or args.markers or args.checkerboard):
        raise ProfileError("say how to find the board: --markers, --checkerboard or --corners (or use --guided)")
    if not args.empty:
        raise ProfileError("give a photo of the empty board with --empty IMG (or use --guided)")
    from calibration.fit import fit_profile
    from calibration.profile import save_profile
    from referee.geometry import parse_geometry
    from vision.images import read_image
    from vision.layout import parse_layout
    from vision.locate import CheckerboardLocator, CornerLocator, Locator, MarkerLocator

    geometry = parse_geometry(args.geometry)
    locator: Locator
    if args.corners:
        locator = CornerLocator(corners=parse_corners(args.corners))  # type: ignore[arg-type]
    elif args.markers:
        locator = MarkerLocator.default(geometry)
    else:
        locator = CheckerboardLocator()
    known = []
    for item in args.known:
        image_path, sep, layout_path = item.rpartition("=")
        if not sep or not image_path or not layout_path:
            raise ProfileError(f"--known {item}: write IMG=LAYOUT, the photo and its layout file")
        with open(layout_path, encoding="utf-8") as handle:
            symbols = parse_layout(handle.read(), geometry)
        known.append((read_image(image_path), symbols))
    profile = fit_profile(geometry, locator, read_image(args.empty), known)
    save_profile(profile, args.output)
    classes = ", ".join(f"{s} from {c.count}" for s, c in profile.colour_model.classes.items())
    print(f"wrote {args.output}: {geometry.spec}, stone colours {classes}", file=sys.stderr)
    return 0
