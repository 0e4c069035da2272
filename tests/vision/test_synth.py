"""The synthetic camera: deterministic pictures whose truth (markers, corners, hands) matches what is drawn."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth import CLEAN, HANDS, PRESETS, Renderer, SynthError, make_scene, preset, render_frame, scene_reader

SIZE = (480, 360)


def test_the_same_seed_gives_the_same_picture_and_another_seed_another():
    a = render_frame("diamond:4", "o.x=" * 4, seed=3, size=SIZE)
    b = render_frame("diamond:4", "o.x=" * 4, seed=3, size=SIZE)
    c = render_frame("diamond:4", "o.x=" * 4, seed=4, size=SIZE)
    assert np.array_equal(a.image, b.image)
    assert not np.array_equal(a.image, c.image)
    assert a.image.shape == (SIZE[1], SIZE[0], 3) and a.image.dtype == np.uint8


@pytest.mark.parametrize("board", ["diamond:4", "hex-diamond:4", "trapezoid:4,4", "grid:4x4", "points:5x5"])
def test_the_markers_are_found_where_the_truth_says(board):
    frame = render_frame(
        board, "." * len(make_scene(board, 1, CLEAN, SIZE).geometry.cells), seed=1, conditions=CLEAN, size=SIZE
    )
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(int(i) for i in ids.ravel()) == [0, 1, 2, 3]
    for found, marker_id in zip(corners, ids.ravel(), strict=True):
        truth = np.array(frame.markers_px[int(marker_id)])
        assert np.abs(found.reshape(4, 2) - truth).max() < 2.0


def test_a_hand_over_the_board_is_marked_occluded_and_one_beside_it_is_not():
    renderer = Renderer(make_scene("diamond:5", 2, HANDS.with_(fill=(0.5, 0.55)), (640, 360)))
    rng = np.random.default_rng(5)
    over = renderer.sample_hand(rng, over_board=True, reach_board=renderer.geometry.centres[12])
    beside = renderer.sample_hand(rng, over_board=False)
    empty = "." * len(renderer.geometry.cells)
    covered = renderer.render(empty, seed=1, hand=over)
    assert beside is not None, "a board filling half the picture leaves room beside it"
    clear = renderer.render(empty, seed=1, hand=beside)
    assert covered.occluded and covered.hand_visible
    assert clear.hand_visible and not clear.occluded


def test_a_calibrated_reader_reads_a_clean_frame_exactly():
    renderer = Renderer(make_scene("diamond:5", 8, CLEAN, (640, 480)))
    reader = scene_reader(renderer)
    position = tuple(("o", "x", "=", ".", ".")[(i * 7) % 5] for i in range(len(renderer.geometry.cells)))
    frame = renderer.render(position, seed=3, light=renderer.scene.base_light)
    assert reader.read(frame.image).symbols == position


@pytest.mark.parametrize(("symbols", "message"), [("o.x", "needs 16 cell symbols"), ("k" * 16, "unknown cell symbols")])
def test_bad_positions_are_refused(symbols, message):
    with pytest.raises(SynthError, match=message):
        render_frame("diamond:4", symbols, seed=1, size=SIZE)


def test_presets_by_name():
    assert set(PRESETS) >= {"clean", "typical", "pale-board", "warm-light", "glare", "hands", "hard"}
    assert preset(" Hard ") is PRESETS["hard"]
    with pytest.raises(SynthError, match="use one of clean"):
        preset("foggy")
