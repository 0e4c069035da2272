"""The temporal stabiliser on hand-made readings: when a reading becomes stable, and when it never does."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.pipeline import FrameReading
from vision.stabilise import Stabiliser, StabiliserConfig

BOARD_A = ("o", ".", "x", ".")
BOARD_B = ("o", "x", "x", ".")


def reading(symbols=BOARD_A, change=0.0, occluded=False, located=True, counts=None) -> FrameReading:
    return FrameReading(
        symbols=tuple(symbols),
        confidence=(0.9,) * len(symbols),
        counts=counts,
        occluded=occluded,
        located=located,
        change=change,
    )


def feed(stabiliser: Stabiliser, readings) -> list[FrameReading | None]:
    return [stabiliser.update(r) for r in readings]


def test_a_still_board_becomes_stable_once_after_enough_frames():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=3))
    out = feed(stabiliser, [reading(change=50.0), reading(), reading(), reading(), reading()])
    assert [o is not None for o in out] == [False, False, True, False, False]
    assert out[2].symbols == BOARD_A
    assert stabiliser.settled


def test_the_default_needs_four_still_frames():
    out = feed(Stabiliser(), [reading()] * 5)
    assert [o is not None for o in out] == [False, False, False, True, False]


def test_an_occluded_frame_breaks_the_run_and_never_yields():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=3))
    out = feed(stabiliser, [reading(), reading(), reading(occluded=True), reading(), reading()])
    assert out == [None] * 5
    assert stabiliser.update(reading()) is not None


def test_an_unlocated_frame_breaks_the_run():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=2))
    out = feed(stabiliser, [reading(), reading(located=False, change=float("inf")), reading()])
    assert out == [None, None, None]


def test_a_moving_board_does_not_settle_until_the_change_is_low():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=3, max_change=10.0))
    out = feed(stabiliser, [reading(), reading(change=30.0), reading(change=25.0), reading(change=2.0)])
    assert out == [None] * 4
    assert stabiliser.update(reading(change=1.0)) is not None


def test_frames_that_disagree_on_any_cell_do_not_settle():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=2))
    out = feed(stabiliser, [reading(BOARD_A), reading(BOARD_B), reading(BOARD_A), reading(BOARD_B)])
    assert out == [None] * 4


def test_ball_counts_must_agree_too():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=2))
    out = feed(stabiliser, [reading(counts=(1, 0, 2, 0)), reading(counts=(1, 0, 3, 0)), reading(counts=(1, 0, 3, 0))])
    assert [o is not None for o in out] == [False, False, True]
    assert out[2].counts == (1, 0, 3, 0)


def test_an_unreadable_cell_stays_unreadable():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=2))
    feed(stabiliser, [reading(BOARD_A), reading(BOARD_A)])
    unsure = ("o", "?", "x", ".")
    out = feed(stabiliser, [reading(unsure, change=30.0), reading(unsure)])
    assert out[1] is not None and out[1].symbols == unsure


def test_a_new_move_settles_into_a_new_stable_reading():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=2))
    first = feed(stabiliser, [reading(BOARD_A), reading(BOARD_A)])
    second = feed(stabiliser, [reading(BOARD_B, change=40.0), reading(BOARD_B), reading(BOARD_B)])
    assert first[1].symbols == BOARD_A
    assert [o is not None for o in second] == [False, True, False]
    assert second[1].symbols == BOARD_B


def test_after_hands_the_same_board_is_given_again():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=2))
    feed(stabiliser, [reading(), reading()])
    out = feed(stabiliser, [reading(occluded=True), reading(change=40.0), reading()])
    assert [o is not None for o in out] == [False, False, True]


def test_a_flicker_that_settles_back_gives_nothing_new():
    stabiliser = Stabiliser(StabiliserConfig(still_frames=2))
    feed(stabiliser, [reading(), reading()])
    out = feed(stabiliser, [reading(change=40.0), reading(BOARD_B, change=30.0), reading(change=30.0), reading()])
    assert out == [None] * 4


@pytest.mark.parametrize(("frames", "change"), [(0, 5.0), (3, -1.0), (3, float("nan"))])
def test_bad_settings_are_refused(frames, change):
    with pytest.raises(ValueError, match="must be"):
        StabiliserConfig(still_frames=frames, max_change=change)


readings = st.builds(
    reading,
    symbols=st.sampled_from([BOARD_A, BOARD_B, ("o", "?", "x", ".")]),
    change=st.sampled_from([0.0, 3.0, 15.0, 60.0, float("inf")]),
    occluded=st.booleans(),
    located=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(readings, max_size=40), st.integers(1, 4))
def test_every_stable_reading_is_the_last_frames_agreeing_uncovered_and_still(stream, still_frames):
    config = StabiliserConfig(still_frames=still_frames, max_change=10.0)
    stabiliser = Stabiliser(config)
    last_given: tuple[str, ...] | None = None
    for k, r in enumerate(stream):
        out = stabiliser.update(r)
        if r.occluded or not r.located:
            last_given = None
        if out is None:
            continue
        assert out is r, "a stable reading is the frame's own reading, never a mix of frames"
        run = stream[k - still_frames + 1 : k + 1]
        assert len(run) == still_frames
        assert all(not f.occluded and f.located and f.symbols == r.symbols for f in run)
        assert all(f.change <= config.max_change for f in run[1:])
        assert r.symbols != last_given, "the same board is given twice without a cover in between"
        last_given = r.symbols


@settings(max_examples=200, deadline=None)
@given(st.lists(readings, max_size=30), st.integers(1, 4), st.sampled_from([BOARD_A, BOARD_B]))
def test_a_board_that_stays_still_long_enough_is_always_given(stream, still_frames, board):
    stabiliser = Stabiliser(StabiliserConfig(still_frames=still_frames, max_change=10.0))
    feed(stabiliser, stream)
    out = feed(stabiliser, [reading(occluded=True)] + [reading(board, change=1.0)] * (still_frames + 2))
    assert [o is not None for o in out] == [k == still_frames for k in range(still_frames + 3)]
