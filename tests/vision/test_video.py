"""Filmed games through the real board reader and stabiliser: exactly the true positions, each once, in order.

Each video is a scripted game rendered by :func:`vision.synth.render_game`:
hands come in, place a stone, draw back, sometimes linger over or beside the
board. The reader is calibrated from rendered pictures of the empty board and
known layouts, as a user calibrates.
"""

from __future__ import annotations

import pytest

from vision.stabilise import Stabiliser
from vision.synth import Renderer, make_scene, preset, render_game, scene_reader, scripted_game

VIDEOS = [
    ("diamond:5", "typical", (640, 480), 6, 0.3),
    ("trapezoid:4,4", "warm-light", (480, 360), 28, 0.3),
    ("hexagon:3,3", "pale-board", (480, 360), 48, 0.3),
    ("diamond:6", "clean", (480, 360), 3, 1.0),
]
"""Board, synthetic-camera preset, frame size, seed, and the chance that a hand lingers after a move."""
MOVES = 8


@pytest.mark.parametrize(("board", "conditions", "size", "seed", "linger"), VIDEOS)
def test_a_filmed_game_yields_exactly_the_true_stable_positions(board, conditions, size, seed, linger):
    positions = scripted_game(board, seed, MOVES)
    reader = scene_reader(Renderer(make_scene(board, seed, preset(conditions), size)))
    stabiliser = Stabiliser()
    stable: list[tuple[str, ...]] = []
    hand_frames = 0
    for frame in render_game(board, positions, seed, preset(conditions), size, linger_probability=linger):
        hand_frames += frame.occluded
        out = stabiliser.update(reader.read(frame.image))
        if out is None:
            continue
        assert not frame.occluded or out.symbols == frame.symbols, (
            f"frame {frame.index}: a stable reading under a hand differs from the board"
        )
        stable.append(out.symbols)
    assert hand_frames >= MOVES, "the video should show a hand for every move"
    assert stable == positions
