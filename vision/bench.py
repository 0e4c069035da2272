"""``cascade bench vision``: how well and how fast the board reader reads rendered frames.

A fixed-seed set of synthetic frames (default 500 at 1280x720) over several
boards (square, hex, Go-style points, Kaskade grid) and conditions, the hard
ones included: white stones on light squares and black on dark ones (the
pale board), red stones under a warm lamp, glare, hands over and beside the
board, and everything at once. Each scene (board, camera, light) is
calibrated once from rendered pictures of its empty board and known layouts
(:func:`vision.synth.fit_scene`) under the scene's own base light, without
glare or hands, as a user calibrates at their table; then its frames are read
one by one with a :class:`~vision.pipeline.BoardReader` on one core
(``cv2.setNumThreads(1)``), each frame under a light drawn from the scene's
conditions (brightness, fall-off, colour cast, glare) as a room's light
changes during a game.

Figures: per-cell accuracy (frames with no hand over the board), the share
of frames read fully correct (a frame with a hand over the board counts as
correct when it is flagged occluded), the median milliseconds per frame and
per stage, the frames with a hand and how many hand-covered frames were
wrongly not flagged, and per condition and per board the clear frames wrongly
flagged occluded. A Kaskade cell holds one to three balls and reads right
only with its colour and its count. :func:`measure` gives the same figures to
programs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

BOARDS = ("diamond:6", "hex-diamond:6", "trapezoid:6,6", "grid:6x6", "points:9x9", "hexagon:4,4")
"""The boards of the set, one per scene in turn."""
CONDITIONS = ("typical", "pale-board", "warm-light", "glare", "hands", "hard")
"""The synthetic-camera presets of the set, one per scene in turn."""
BALL_STREAM = 0xBA11
"""Seeds the ball counts apart from the symbols, so the other boards' frames stay the same."""
FRAMES_PER_SCENE = 10
DEFAULT_FRAMES = 500
DEFAULT_SIZE = (1280, 720)


class BenchArgumentError(ValueError):
    """An option of the vision benchmark is out of range: the message says which and what to give."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the vision benchmark (``--json`` is added by ``cascade bench``)."""
    parser.add_argument("--frames", type=int, default=DEFAULT_FRAMES, help=f"frames to read (default {DEFAULT_FRAMES})")
    parser.add_argument(
        "--size", default="x".join(map(str, DEFAULT_SIZE)), help="frame size WIDTHxHEIGHT (default 1280x720)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the frame set (default 0)")
    parser.add_argument(
        "--geometry",
        action="append",
        metavar="SPEC",
        help="read only this board (repeatable), e.g. diamond:8 for the 8x8 speed target (default: the set's boards)",
    )


def parse_size(text: str) -> tuple[int, int]:
    """``1280x720`` -> (1280, 720); raises BenchArgumentError for anything else."""
    width, sep, height = text.strip().lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        size = (0, 0)
    if not sep or size[0] < 160 or size[1] < 120:
        raise BenchArgumentError(f"--size {text}: give WIDTHxHEIGHT of at least 160x120, like 1280x720")
    return size


def run(args: argparse.Namespace) -> int:
    """Measure and print the figures (one JSON object with ``--json``)."""
    if args.frames < 1:
        raise BenchArgumentError(f"--frames must be 1 or more, not {args.frames}")
    size = parse_size(args.size)
    figures = measure(args.frames, size, args.seed, tuple(args.geometry or BOARDS))
    if getattr(args, "json", False):
        print(json.dumps(figures))
    else:
        print(report(figures))
    return 0


def measure(
    frames: int = DEFAULT_FRAMES, size: tuple[int, int] = DEFAULT_SIZE, seed: int = 0, boards: tuple[str, ...] = BOARDS
) -> dict[str, Any]:
    """Read the fixed-seed set of ``frames`` frames on ``boards`` and return the figures (see the module docstring).

    Raises BenchArgumentError for a board spec that is not a geometry.
    """
    import time

    import cv2
    import numpy as np

    from referee.errors import GeometryError
    from referee.geometry import parse_geometry
    from vision.balls import MAX_BALLS
    from vision.errors import VisionError
    from vision.locate import MarkerLocator
    from vision.pipeline import BoardReader
    from vision.synth import Renderer, fit_scene, make_scene, preset

    for spec in boards:
        try:
            parse_geometry(spec)
        except GeometryError as bad:
            raise BenchArgumentError(f"--geometry {spec}: {bad}") from None
    cv2.setNumThreads(1)
    tally = _Tally()
    scene_index = 0
    while tally.frames < frames:
        spec = boards[scene_index % len(boards)]
        # every board meets every condition in turn (a round of boards per condition shift)
        conditions = CONDITIONS[(scene_index % len(boards) + scene_index // len(boards)) % len(CONDITIONS)]
        scene_seed = seed * 1_000_003 + scene_index
        renderer = Renderer(make_scene(spec, scene_seed, preset(conditions), size))
        geometry = renderer.geometry
        scene_index += 1
        try:
            model = fit_scene(renderer)
        except VisionError:
            tally.not_calibrated.append(f"{spec} {conditions}")
            continue
        reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
        rng = np.random.default_rng([seed, scene_index, 0xBE4C])
        ball_rng = np.random.default_rng([seed, scene_index, BALL_STREAM])
        if len(tally.not_calibrated) > frames:
            raise VisionError(f"no scene of the set could be calibrated at {size[0]}x{size[1]}: try a larger --size")
        for k in range(min(FRAMES_PER_SCENE, frames - tally.frames)):
            fill = rng.uniform(0.2, 0.8)
            symbols = tuple(str(rng.choice(("o", "x", "="))) if rng.random() < fill else "." for _ in geometry.cells)
            counts = None
            if geometry.kind == "grid":
                counts = tuple(0 if s == "." else int(ball_rng.integers(1, MAX_BALLS + 1)) for s in symbols)
            frame = renderer.render(symbols, counts, seed=k)
            started = time.perf_counter()
            reading = reader.read(frame.image)
            elapsed_ms = (time.perf_counter() - started) * 1000.0
            tally.add(
                (conditions, spec),
                _truth(frame, counts),
                frame.occluded,
                frame.hand_visible,
                _read(reading),
                elapsed_ms,
            )
    return tally.figures(size, seed, scene_index)


def _truth(frame: Any, counts: tuple[int, ...] | None) -> tuple[str, ...]:
    """The cells a frame shows: symbols, with the ball ``counts`` on Kaskade boards (``o2``)."""
    if counts is None:
        return tuple(frame.symbols)
    return tuple(s if s == "." else f"{s}{c}" for s, c in zip(frame.symbols, counts, strict=True))


def _read(reading: Any) -> Any:
    """A reading whose symbols carry the ball counts on Kaskade boards, to compare with :func:`_truth`."""
    if reading.counts is None:
        return reading
    symbols = tuple(s if s in ".?" else f"{s}{c}" for s, c in zip(reading.symbols, reading.counts, strict=True))
    return dataclasses.replace(reading, symbols=symbols)


class _Tally:
    """Counts of the frames read so far, overall and per condition."""

    def __init__(self) -> None:
        self.frames = 0
        self.not_calibrated: list[str] = []
        self.cells = self.cells_right = 0
        self.frames_right = 0
        self.hand_frames = self.hand_over_board = self.hand_flagged = 0
        self.occluded_not_flagged = self.clear_flagged = 0
        self.ms: list[float] = []
        self.stage_ms: dict[str, list[float]] = {}
        self.by_group: dict[str, dict[str, list[int]]] = {"condition": {}, "board": {}}

    def add(
        self, groups: tuple[str, str], truth: tuple[str, ...], occluded: bool, hand: bool, reading: Any, ms: float
    ) -> None:
        self.frames += 1
        self.ms.append(ms)
        for stage, value in reading.stage_ms.items():
            self.stage_ms.setdefault(stage, []).append(value)
        self.hand_frames += int(hand)
        tallies = [
            self.by_group[kind].setdefault(name, [0] * 5) for kind, name in zip(self.by_group, groups, strict=True)
        ]
        for counts in tallies:  # frames, frames right, cells, cells right, clear frames flagged
            counts[0] += 1
        if occluded:
            self.hand_over_board += 1
            right = bool(reading.occluded)
            self.hand_flagged += int(right)
            self.occluded_not_flagged += int(not right)
        else:
            matching = sum(a == b for a, b in zip(reading.symbols, truth, strict=True))
            self.cells += len(truth)
            self.cells_right += matching
            for counts in tallies:
                counts[2] += len(truth)
                counts[3] += matching
            self.clear_flagged += int(bool(reading.occluded))
            for counts in tallies:
                counts[4] += int(bool(reading.occluded))
            right = matching == len(truth) and not reading.occluded
        self.frames_right += int(right)
        for counts in tallies:
            counts[1] += int(right)

    def figures(self, size: tuple[int, int], seed: int, scenes: int) -> dict[str, Any]:
        import statistics

        def median(values: list[float]) -> float:
            return round(statistics.median(values), 2) if values else 0.0

        return {
            "frames": self.frames,
            "size": f"{size[0]}x{size[1]}",
            "seed": seed,
            "scenes": scenes,
            "scenes_not_calibrated": len(self.not_calibrated),
            "scenes_not_calibrated_list": self.not_calibrated,
            "cell_accuracy": round(self.cells_right / self.cells, 5) if self.cells else None,
            "frame_accuracy": round(self.frames_right / self.frames, 5),
            "ms_per_frame_median": median(self.ms),
            "stage_ms_median": {stage: median(values) for stage, values in sorted(self.stage_ms.items())},
            "hand_frames": self.hand_frames,
            "hand_over_board_frames": self.hand_over_board,
            "hand_frames_flagged": self.hand_flagged,
            "occluded_not_flagged": self.occluded_not_flagged,
            "clear_frames_flagged": self.clear_flagged,
            **{
                f"by_{kind}": {
                    name: {
                        "frames": c[0],
                        "frame_accuracy": round(c[1] / c[0], 5),
                        "cell_accuracy": round(c[3] / c[2], 5) if c[2] else None,
                        "clear_frames_flagged": c[4],
                    }
                    for name, c in sorted(group.items())
                }
                for kind, group in self.by_group.items()
            },
        }


def report(figures: dict[str, Any]) -> str:
    """The figures as lines of text."""
    cell = figures["cell_accuracy"]
    lines = [
        f"vision: {figures['frames']} frames at {figures['size']} in {figures['scenes']} scenes "
        f"(seed {figures['seed']})",
        f"  scenes not calibrated {figures['scenes_not_calibrated']}"
        + "".join(f"; {scene}" for scene in figures["scenes_not_calibrated_list"]),
        f"  cell accuracy        {'n/a' if cell is None else f'{cell * 100:.2f} %'}"
        "  (frames without a hand over the board)",
        f"  frames fully correct {figures['frame_accuracy'] * 100:.1f} %"
        "  (a hand over the board: correct when flagged)",
        f"  ms per frame         {figures['ms_per_frame_median']:.1f} median, one core"
        + "".join(f"; {stage} {ms:.1f}" for stage, ms in figures["stage_ms_median"].items()),
        f"  frames with a hand   {figures['hand_frames']} ({figures['hand_over_board_frames']} over the board, "
        f"{figures['hand_frames_flagged']} of those flagged, {figures['occluded_not_flagged']} not flagged)",
        f"  clear frames flagged occluded {figures['clear_frames_flagged']}",
    ]
    for name, c in [*figures["by_condition"].items(), *figures["by_board"].items()]:
        cells = "n/a" if c["cell_accuracy"] is None else f"{c['cell_accuracy'] * 100:.2f} %"
        lines.append(
            f"  {name:12s} {c['frames']:4d} frames  fully correct {c['frame_accuracy'] * 100:5.1f} %  cells {cells}"
            f"  clear flagged {c['clear_frames_flagged']}"
        )
    return "\n".join(lines)
