"""``cascade print-markers``: a printable sheet with the four board markers (and the board) at true scale."""

from __future__ import annotations

import argparse
import sys

from companion.options import output_path, positive_number


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``print-markers`` command."""
    parser = sub.add_parser(
        "print-markers",
        help="write a printable sheet with the four ArUco markers and the board at true scale",
        description=(
            "Write a sheet to print at 100% (actual size): the four ArUco markers (DICT_4X4_50, ids 0-3) "
            "where the default profiles expect them, the board's outline, a caption and a 50 mm scale bar. "
            "With --board the cells are filled, so the sheet is a playable board (an 8x8 checkerboard to turn "
            "45 degrees for diamond:8, a hex rhombus for hex-diamond:8). The cell pitch is the largest the "
            "paper holds unless --cell-mm is given."
        ),
    )
    parser.add_argument("--geometry", required=True, help="the board, e.g. diamond:8, hex-diamond:8, trapezoid:8,8")
    parser.add_argument("--paper", default="a4", choices=("a4", "letter"), help="paper size (default a4)")
    parser.add_argument("--board", action="store_true", help="fill the cells: a printable board, not only its outline")
    parser.add_argument("--cell-mm", type=positive_number, default=None, metavar="MM", help="cell pitch in millimetres")
    parser.add_argument("--dpi", type=positive_number, default=300.0, help="resolution of the picture (default 300)")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        type=output_path,
        metavar="FILE",
        help="the sheet to write: FILE.pdf or FILE.png",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Plan, draw and save the sheet; say its pitch."""
    from calibration.sheets import draw_sheet, plan_sheet, save_sheet
    from referee.geometry import parse_geometry

    geometry = parse_geometry(args.geometry)
    plan = plan_sheet(geometry, args.paper, args.cell_mm, "board" if args.board else "outline")
    path = save_sheet(draw_sheet(plan, args.dpi), args.output)
    print(
        f"wrote {path}: {geometry.spec} on {plan.paper}, cell pitch {plan.cell_mm:g} mm; "
        "print at 100% (actual size) and check the 50 mm bar with a ruler",
        file=sys.stderr,
    )
    return 0
