"""Videos of scripted games from the synthetic camera: the truth per frame, determinism, bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from referee.geometry import parse_geometry
from vision.synth import CLEAN, SynthError, render_game, scripted_game
from vision.synth.fit import known_layouts

SIZE = (320, 240)


def test_scripted_game_adds_one_stone_per_move():
    positions = scripted_game("diamond:4", seed=2, moves=6)
    assert len(positions) == 7
    assert set(positions[0]) == {"."}
    for before, after in itertools.pairwise(positions):
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(changed) == 1 and before[changed[0]] == "." and after[changed[0]] in "ox="


def test_scripted_game_never_plays_more_moves_than_cells():
    positions = scripted_game("grid:2x2", seed=1, moves=50)
    assert len(positions) == 5 and "." not in positions[-1]


def test_a_video_shows_every_position_in_order_with_hands_between():
    positions = scripted_game("trapezoid:3,3", seed=4, moves=4)
    frames = list(render_game("trapezoid:3,3", positions, seed=4, conditions=CLEAN, size=SIZE, still_frames=3))
    assert [f.index for f in frames] == list(range(len(frames)))
    shown = [f.position for f in frames]
    assert shown == sorted(shown), "positions appear in order"
    assert set(shown) == set(range(len(positions)))
    for f in frames:
        assert f.symbols == positions[f.position]
        assert f.image.shape == (SIZE[1], SIZE[0], 3)
        assert f.still == (not f.hand_visible)
        assert not f.occluded or f.hand_visible
    for k in range(1, len(positions)):
        during = [f for f in frames if f.position in (k - 1, k)]
        first_new = next(i for i, f in enumerate(during) if f.position == k)
        assert during[first_new].occluded, "a stone is put down under a hand"
        assert during[first_new - 1].hand_visible, "the hand comes in before the stone is down"
    tail = frames[-3:]
    assert all(f.still and f.position == len(positions) - 1 for f in tail)


def test_a_video_is_the_same_for_the_same_seed_and_differs_for_another():
    positions = scripted_game("diamond:3", seed=1, moves=2)
    a = [f.image for f in render_game("diamond:3", positions, seed=5, size=SIZE, still_frames=2)]
    b = [f.image for f in render_game("diamond:3", positions, seed=5, size=SIZE, still_frames=2)]
    c = [f.image for f in render_game("diamond:3", positions, seed=6, size=SIZE, still_frames=2)]
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert len(a) != len(c) or any(not np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_hands_sometimes_linger():
    positions = scripted_game("diamond:3", seed=3, moves=6)
    lingering = list(render_game("diamond:3", positions, seed=3, size=SIZE, still_frames=1, linger_probability=1.0))
    brief = list(render_game("diamond:3", positions, seed=3, size=SIZE, still_frames=1, linger_probability=0.0))
    assert len(lingering) > len(brief) + 6


@pytest.mark.parametrize(
    ("positions", "message"),
    [([], "at least one position"), ([".."], "needs 9 cell symbols"), (["........k"], "unknown cell symbols")],
)
def test_bad_positions_are_refused(positions, message):
    with pytest.raises(SynthError, match=message):
        list(render_game("diamond:3", positions, seed=1, size=SIZE))


def test_known_layouts_show_every_colour_on_many_cells_and_every_cell_in_several_states():
    geometry = parse_geometry("diamond:4")
    layouts = known_layouts(geometry)
    for colour in "ox=":
        cells = {i for layout in layouts for i, s in enumerate(layout) if s == colour}
        assert len(cells) >= len(geometry.cells) // 2, f"{colour} on too few cells"
    for i in range(len(geometry.cells)):
        assert len({layout[i] for layout in layouts}) == len(layouts)
