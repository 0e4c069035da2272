"""``cascade calibrate``: fit a calibration profile from photos of the board."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``calibrate`` command."""
    parser = sub.add_parser(
        "calibrate",
        help="fit a calibration profile from photos with known layouts (and the empty board, if you have one)",
        description=(
            "Fit a calibration profile: where the board is and what its cells and stones look like. "
            "Give the board, how to locate it, photos with known layouts that show every stone colour in play "
            "(a text file in the layout format: one line per row, symbols . o x = separated by spaces, first "
            "line at the top of the image) and, if you have one, a photo of the empty board. A photo NAME.jpg "
            "with a file NAME.corners beside it (one line x,y x,y x,y x,y) is located by those corners."
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
    parser.add_argument(
        "--empty", metavar="IMG", help="a photo of the empty board, if you have one (not with --guided)"
    )
    parser.add_argument(
        "--known", action="append", default=[], metavar="IMG=LAYOUT", help="a photo and its layout file (repeatable)"
    )
    parser.add_argument("-o", "--output", required=True, metavar="PROFILE", help="the profile file to write")
    from calibration.options import add_guided_arguments

    add_guided_arguments(parser)
    parser.set_defaults(run=run)


def parse_corners(text: str) -> tuple[tuple[float, float], ...]:
    """Four ``x,y`` points separated by spaces; raises CornersError with a clear message."""
    from vision.sidecar import parse_corners as parse

    return parse(text)


def run(args: argparse.Namespace) -> int:
    """Fit and save the profile; print what was fitted."""
    from calibration.errors import ProfileError

    if args.guided:
        from calibration.terminal import run_guided

        return run_guided(args)
    from calibration.fit import fit_profile, load_photo
    from calibration.profile import save_profile
    from referee.geometry import parse_geometry
    from vision.locate import CheckerboardLocator, CornerLocator, Locator, MarkerLocator

    geometry = parse_geometry(args.geometry)
    locator: Locator | None = None
    if args.corners:
        locator = CornerLocator(corners=parse_corners(args.corners))  # type: ignore[arg-type]
    elif args.markers:
        locator = MarkerLocator.default(geometry)
    elif args.checkerboard:
        locator = CheckerboardLocator()
    if not args.known:
        raise ProfileError("give at least one photo with a known layout: --known IMG=LAYOUT (or use --guided)")
    known = []
    for item in args.known:
        image_path, sep, layout_path = item.rpartition("=")
        if not sep or not image_path or not layout_path:
            raise ProfileError(f"--known {item}: write IMG=LAYOUT, the photo and its layout file")
        known.append(load_photo(image_path, geometry, layout_path))
    empty = None if not args.empty else load_photo(args.empty, geometry)
    profile = fit_profile(geometry, locator, empty, known)
    save_profile(profile, args.output)
    classes = ", ".join(f"{s} from {c.count}" for s, c in profile.colour_model.stones.items())
    where = "" if profile.locator is not None else "; every photo read with it must bring its corners"
    lens = profile.colour_model.lens
    bent = "" if lens.straight else f"; the lens bends the board's lines (k1 {lens.k1:+.3f}), read straightened"
    print(f"wrote {args.output}: {geometry.spec}, stone colours {classes}{bent}{where}", file=sys.stderr)
    return 0
