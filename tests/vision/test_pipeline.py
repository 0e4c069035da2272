"""The board reader on small synthetic frames: every layout, Kaskade balls, hands, a bumped camera."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.synthetic import calibrated_table
from vision.pipeline import _corner_groups
from vision.synth import HANDS, TYPICAL, Renderer, make_scene, preset, scene_reader


@pytest.mark.parametrize("spec", ["diamond:4", "hex-diamond:4", "trapezoid:4,4", "hexagon:3,3"])
def test_every_cell_of_clean_frames_reads_right(spec: str) -> None:
    table = calibrated_table(spec)
    reader = table.reader()
    for seed in (11, 12):
        position = table.position(seed)
        reading = reader.read(table.renderer.render(position, seed=seed).image)
        assert reading.located and not reading.occluded
        assert reading.symbols == position
        assert reading.counts is None
        assert min(reading.confidence) >= 0.6


def test_typical_webcam_frames_read_right() -> None:
    table = calibrated_table("diamond:4", seed=5, conditions=TYPICAL.with_(glare_probability=0.0))
    reader = table.reader()
    position = table.position(21)
    reading = reader.read(table.renderer.render(position, seed=21).image)
    assert not reading.occluded
    assert reading.symbols == position


def test_kaskade_reads_single_balls_and_counts_up_to_three() -> None:
    table = calibrated_table("grid:4x4", seed=4)
    reader = table.reader()
    symbols = ("o", "x", ".", "o", "x", "o", "x", ".", ".", "o", "x", "o", "x", ".", "o", "x")
    counts = tuple(0 if s == "." else 1 + (i % 3) for i, s in enumerate(symbols))
    reading = reader.read(table.renderer.render(symbols, counts, seed=9).image)
    assert reading.symbols == symbols
    assert reading.counts == counts
    singles = tuple("." if c != 1 else s for s, c in zip(symbols, counts, strict=True))
    reading = reader.read(table.renderer.render(singles, tuple(int(s != ".") for s in singles), seed=10).image)
    assert reading.symbols == singles


def test_a_hand_over_the_board_marks_the_frame_occluded() -> None:
    """Hands over a small board are seen. One of these four is not: fingers of the rim's own hue over one row,
    a stone between them still showing, leave neither three neighbouring cells that nothing explains nor a
    crossed rim. One odd cell alone is no hand (a real board has cells a lamp's sheen moves as far), so such
    a hand may pass; ``cascade bench vision`` counts every miss (``occluded_not_flagged``)."""
    table = calibrated_table("diamond:4", seed=6, conditions=HANDS.with_(glare_probability=0.0))
    reader = table.reader()
    rng = np.random.default_rng(0)
    position = table.position(30)
    assert not reader.read(table.renderer.render(position, seed=30, random_hand=False).image).occluded
    covered, missed = 0, []
    for k in range(4):
        hand = table.renderer.sample_hand(rng, over_board=True)
        frame = table.renderer.render(position, seed=31 + k, hand=hand)
        reading = reader.read(frame.image)
        if frame.occluded:
            covered += 1
            if not reading.occluded:
                missed.append(k)
    assert covered >= 3
    assert len(missed) <= 1, f"hands {missed} cover the board but their frames were not marked occluded"


def test_markers_are_detected_once_while_still_and_again_after_a_bump() -> None:
    table = calibrated_table("diamond:4", seed=7)
    reader = table.reader()
    position = table.position(40)
    first = reader.read(table.renderer.render(position, seed=40).image)
    assert reader.location is not None and reader.location.redetected
    assert reader.read(table.renderer.render(position, seed=41).image).symbols == first.symbols
    assert not reader.location.redetected
    bumped = table.renderer.scene.pose.shifted(25.0, -15.0)
    reading = reader.read(table.renderer.render(position, seed=42, pose=bumped).image)
    assert reader.location.redetected
    assert reading.symbols == position and not reading.occluded


def test_stage_times_are_reported() -> None:
    table = calibrated_table("diamond:4")
    reading = table.reader().read(table.renderer.render(table.position(1), seed=1).image)
    assert set(reading.stage_ms) == {"locate", "measure", "classify"}
    assert all(ms >= 0.0 for ms in reading.stage_ms.values())


def test_a_stone_on_an_edge_cell_seen_at_a_slant_is_no_hand() -> None:
    """A black stone on an edge cell of a board seen at a slant (the bench's scene 30, hard light) spills over
    its cell and shades the board beside it: it reads as that stone, and the frame is not occluded."""
    renderer = Renderer(make_scene("diamond:6", 30, preset("hard"), (1280, 720)))
    reader = scene_reader(renderer)
    position = tuple("..=oo.xx.=.=.o=..oxx.ooxx=xoooo=xx.x")
    frame = renderer.render(position, seed=0)
    assert not frame.hand_visible
    reading = reader.read(frame.image)
    assert not reading.occluded
    assert reading.symbols == position


def test_bare_board_under_a_narrow_glare_spot_reads_empty() -> None:
    """A lamp's small reflection on a corner hex (the bench's scene 44) clips the cell under it; the spot fitted
    from the patches around misses its peak, yet the cell is bare board, not a white stone."""
    renderer = Renderer(make_scene("trapezoid:6,6", 44, preset("glare"), (1280, 720)))
    reader = scene_reader(renderer)
    position = tuple("=....=......=..o.=oo..........xxx..o.o=.......=.o==")
    reading = reader.read(renderer.render(position, seed=9).image)
    assert not reading.occluded
    assert reading.symbols == position


@pytest.mark.parametrize(
    ("spec", "scene", "seed", "position", "counts"),
    [
        ("hex-diamond:6", 19, 8, ".==x=.xoo..=xo...x......ox=x=.o.o=.o", None),
        (
            "grid:6x6",
            9,
            6,
            "=oxo.oo....=x.x..xx=..x..xo.xxoox..o",
            "133203200002202003110010032022221001",
        ),
    ],
)
def test_an_arm_crossing_the_boards_rim_marks_the_frame_occluded(
    spec: str, scene: int, seed: int, position: str, counts: str | None
) -> None:
    """Fingers that change no cell's every corner (the bench's scene 19), or skin as pale as the squares
    under it (scene 9), still reach in across the board's rim: the ring around the board shows the arm."""
    renderer = Renderer(make_scene(spec, scene, preset("hands"), (1280, 720)))
    reader = scene_reader(renderer)
    balls = None if counts is None else tuple(int(c) for c in counts)
    frame = renderer.render(tuple(position), balls, seed=seed)
    assert frame.occluded, "the scene no longer puts a hand over the board"
    assert reader.read(frame.image).occluded
    assert not reader.read(renderer.render(tuple(position), balls, seed=seed, random_hand=False).image).occluded


def test_a_hand_a_fresh_look_would_explain_away_still_covers_the_frame() -> None:
    """A hand over an 8×8 board (the bench's scene 10, its eighth frame): the light of the frame before sees it,
    and a fresh look, free to fit any light, bends its light towards the hand and explains it. The fresh look
    is for a light the earlier one cannot follow (a lamp switched on), not for this one."""
    renderer = Renderer(make_scene("diamond:8", 10, preset("hands"), (1280, 720)))
    reader = scene_reader(renderer)
    rng = np.random.default_rng([0, 11, 0xBE4C])  # the bench's frames of that scene, in order
    frames = []
    for k in range(8):
        fill = rng.uniform(0.2, 0.8)
        symbols = tuple(
            str(rng.choice(("o", "x", "="))) if rng.random() < fill else "." for _ in renderer.geometry.cells
        )
        frames.append(renderer.render(symbols, None, seed=k))
    assert frames[-1].occluded, "the scene no longer puts a hand over the board"
    readings = [reader.read(frame.image) for frame in frames]
    assert readings[-1].occluded


def test_a_hand_that_stays_is_seen_every_frame_and_the_light_searched_for_once(monkeypatch) -> None:
    """A hand resting over the board for several frames: every frame is covered, and the fresh look each
    covered frame takes (in case a lamp rather than a hand changed it) searches the light from nothing only on
    the first; each later one starts from the light the frame before's fresh look found."""
    table = calibrated_table("diamond:6", seed=3, conditions=HANDS.with_(glare_probability=0.0))
    reader = table.reader()
    searched = []
    search = reader.judge._likeliest_light
    monkeypatch.setattr(reader.judge, "_likeliest_light", lambda *a: searched.append(1) or search(*a))
    position = table.position(5)
    for k in range(2):
        assert not reader.read(table.renderer.render(position, seed=k, random_hand=False).image).occluded
    before = len(searched)
    rng = np.random.default_rng(2)
    hand = table.renderer.sample_hand(rng, over_board=True)
    frames = [table.renderer.render(position, seed=10 + k, hand=hand) for k in range(5)]
    assert all(frame.occluded for frame in frames), "the hand no longer covers a cell"
    assert all(reader.read(frame.image).occluded for frame in frames)
    assert len(searched) - before == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**16))
def test_the_board_between_the_cells_is_the_median_of_each_cells_corners_on_the_playing_area(seed: int) -> None:
    """Grouping the cells by how many of their corners lie on the playing area takes the same medians as a median
    that skips the corners off it; a cell with none shows nothing."""
    rng = np.random.default_rng(seed)
    cells, corners = int(rng.integers(1, 40)), int(rng.integers(3, 7))
    on_board = rng.random((cells, corners)) < rng.uniform(0.2, 1.0)
    shown = rng.normal(size=(cells, corners, 3))
    expected = np.full((cells, 3), np.nan)
    some = on_board.any(axis=1)
    expected[some] = np.nanmedian(np.where(on_board[:, :, None], shown, np.nan)[some], axis=1)
    between = np.full((cells, 3), np.nan)
    for group, at in _corner_groups(on_board):
        between[group] = np.median(shown[group[:, None], at], axis=1)
    np.testing.assert_allclose(between, expected)
