"""Command-line options of the guided calibration, kept free of OpenCV so ``cascade --help`` starts fast."""

from __future__ import annotations

import argparse


def add_guided_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``cascade calibrate --guided`` to ``parser``."""
    parser.add_argument("--camera", default="0", help="the camera: 0, /dev/video0, file:..., or sim: (simulated table)")
    parser.add_argument("--start", metavar="PROFILE", help="a profile to start from (default: the ready profile)")
    parser.add_argument("--overlay", metavar="PNG", help="where to save the picture with the found grid")
    parser.add_argument(
        "--sim-wiring",
        choices=("rows", "serpentine"),
        help="with --camera sim:, put LEDs under the simulated board wired this way and map them",
    )
