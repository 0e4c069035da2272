"""Light correction, covered cells and the colour model's file form, on hand-made numbers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.geometry import parse_geometry
from vision.classify import Classifier
from vision.colour_model import ColourModel, StoneColour, TextureModel
from vision.config import VisionConfig
from vision.errors import ColourModelError
from vision.light import (
    covered_cells,
    crossed_border,
    design_matrix,
    edge_cells,
    glare_offset,
    hand_over_board,
    light_gain,
    neighbour_table,
    remove_light,
)
from vision.measure import Rectifier

GEOMETRY = parse_geometry("diamond:4")
N = len(GEOMETRY.cells)


def reference() -> np.ndarray:
    rng = np.random.default_rng(1)
    return rng.uniform(0.2, 0.8, (N, 3)).astype(np.float32)


@given(st.floats(0.5, 1.6), st.floats(0.5, 1.6), st.floats(0.5, 1.6))
def test_a_uniform_light_change_is_found_and_undone(b: float, g: float, r: float) -> None:
    ref = reference()
    gain_true = np.array([b, g, r], dtype=np.float32)
    design = design_matrix(np.array(GEOMETRY.centres))
    gain = light_gain(ref * gain_true, ref, design, 0.03)
    assert np.allclose(gain, gain_true, rtol=0.01)
    glare = glare_offset(ref * gain_true, ref, gain, None, 0.06)
    assert np.all(glare == 0.0)
    assert np.allclose(remove_light(ref * gain_true, gain, glare), ref, atol=0.01)


def test_added_white_light_counts_as_glare_and_is_removed() -> None:
    ref = reference()
    design = design_matrix(np.array(GEOMETRY.centres))
    seen = ref.copy()
    seen[5] += 0.3
    gain = light_gain(seen, ref, design, 0.03)
    glare = glare_offset(seen, ref, gain, None, 0.06)
    assert glare[5] == pytest.approx(0.3, abs=0.03)
    assert np.count_nonzero(glare) == 1
    assert np.allclose(remove_light(seen, gain, glare)[5], ref[5], atol=0.03)


def test_neighbour_table_pads_with_the_cell_itself() -> None:
    table = neighbour_table(GEOMETRY.neighbours_ix)
    assert table.shape[0] == N
    for i, row in enumerate(table):
        assert row[0] == i
        assert set(row[1:]) <= {i, *GEOMETRY.neighbours_ix[i]}


def test_a_cell_is_covered_only_when_every_corner_changed() -> None:
    config = VisionConfig()
    ref = np.repeat(reference()[:, None, :], 4, axis=1)
    seen = ref.copy()
    seen[2, 0] *= 0.4  # a stone's shadow on one corner
    seen[7] *= 0.4  # a hand's shadow over the whole cell
    covered = covered_cells(seen, ref, np.ones((N, 3), np.float32), np.zeros(N, np.float32), config)
    assert np.flatnonzero(covered).tolist() == [7]


def test_a_cell_ringed_by_stones_has_their_shadows_on_every_corner_and_is_not_covered() -> None:
    """Stones all round a cell, lit from low, shade each of its corners; a hand's shadow is deeper."""
    config = VisionConfig()
    ref = np.repeat(reference()[:, None, :], 4, axis=1)
    seen = ref.copy()
    seen[3] *= np.array([0.62, 0.7, 0.66, 0.64])[:, None]  # every corner in some stone's shadow
    seen[5] *= 0.5  # a hand's shadow over the whole cell
    covered = covered_cells(seen, ref, np.ones((N, 3), np.float32), np.zeros(N, np.float32), config)
    assert np.flatnonzero(covered).tolist() == [5]


def test_kaskade_cells_measure_every_pixel_of_a_wide_disk_other_boards_do_not() -> None:
    grid = Rectifier(parse_geometry("grid:4x4"))
    board = np.full((grid.size[1], grid.size[0], 3), 128, np.uint8)
    measures = grid.measure_rectified(board)
    assert measures.pixels is not None and measures.pixels.shape[0] == 16
    assert measures.corners is not None and measures.corners.shape == (16, 4, 3)
    other = Rectifier(GEOMETRY)
    assert other.measure_rectified(np.zeros((other.size[1], other.size[0], 3), np.uint8)).pixels is None


def model(**extra: object) -> ColourModel:
    return ColourModel(
        geometry="diamond:4",
        empty=((50.0, 0.0, 0.0),) * N,
        empty_sigma=(1.0, 1.0, 1.0),
        classes={"o": StoneColour((90.0, 0.0, 0.0), (2.0, 1.0, 1.0), 4)},
        background=((0.5, 0.5, 0.5),) * N,
        **extra,  # type: ignore[arg-type]
    )


def test_the_colour_model_file_form_keeps_ball_areas_and_corner_colours() -> None:
    pixels = bytes(i % 256 for i in range(N * 3 * 5))
    full = model(
        ball_area=((40.0,),) * N,
        corners=(((0.5, 0.5, 0.5),) * 4,) * N,
        texture=texture(),
        empty_pixels=pixels,
        border=((0.2, 0.3, 0.4),) * 7,
    )
    again = ColourModel.from_dict(full.to_dict())
    assert again.ball_area == full.ball_area and again.corners == full.corners and again.border == full.border
    assert again.texture == full.texture and again.empty_pixels == pixels
    colours = again.empty_pixel_colours(5)
    assert colours is not None and colours.shape == (N, 5, 3) and colours[0, 0, 1] == pytest.approx(1 / 255)
    with pytest.raises(ColourModelError, match="calibrate this board again"):
        again.empty_pixel_colours(6)
    assert ColourModel.from_dict(model().to_dict()).ball_area is None


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("ball_area", [[40.0]] * (N - 1)),
        ("ball_area", [[-1.0]] * N),
        ("corners", [[[0.5, 0.5]]] * N),
        ("border", [[0.5, 0.5]] * 7),
        ("border", {"0": [0.5, 0.5, 0.5]}),
        ("texture", {"empty": [[0.1, 0.2, 0.9]] * (N - 1), "spread": [0.1, 0.1, 0.1], "stones": {}}),
        ("texture", {"empty": [[0.1, 0.2, 0.9]] * N, "spread": [0.1, 0.1], "stones": {}}),
        ("texture", {"empty": [[0.1, 0.2, 0.9]] * N, "spread": [0.1, 0.1, 0.1], "stones": {"k": {}}}),
        ("empty_pixels", "not base64!"),
        ("empty_pixels", "AAAA"),
    ],
)
def test_a_malformed_colour_model_says_which_field(key: str, value: object) -> None:
    data = model().to_dict()
    data[key] = value
    with pytest.raises(ColourModelError, match=key):
        ColourModel.from_dict(data)


def test_a_stone_of_the_square_colour_still_shows_edges_on_its_rim() -> None:
    rectifier = Rectifier(GEOMETRY)
    board = np.full((rectifier.size[1], rectifier.size[0], 3), 200, np.uint8)
    flat = rectifier.measure_rectified(board).rim
    px = rectifier.px
    x, y = GEOMETRY.centres[5]
    centre = (int((x + rectifier.config.margin) * px), int((y + rectifier.config.margin) * px))
    # a stone as light as the square, seen only by its shaded rim
    cv2.circle(board, centre, int(0.43 * px), (120, 120, 120), 2)
    ringed = rectifier.measure_rectified(board).rim
    assert flat is not None and ringed is not None
    assert ringed[5] > flat[5] + 0.1
    others = np.delete(np.arange(N), 5)
    assert np.allclose(ringed[others], flat[others], atol=0.05)


def texture() -> TextureModel:
    # a Go board's empty points show crossing lines (edges, a dark tenth); a stone's top is smooth
    return TextureModel(
        empty=((0.2, 1.3, 0.6),) * N,
        spread=(0.05, 0.1, 0.05),
        stones={"o": ((0.8, 0.5, 0.87), (0.06, 0.05, 0.02))},
    )


def test_texture_tells_a_stone_from_an_empty_cell_of_the_same_colour() -> None:
    same = model(texture=texture())
    classifier = Classifier(replace_classes(same, (50.0, 0.0, 0.0)))
    lab = np.zeros((N, 3), np.float32)
    lab[:, 0] = 50.0
    seen = np.array([[0.21, 1.25, 0.62], [0.78, 0.52, 0.86]] * (N // 2), np.float32)
    assert classifier.classify(lab, seen).symbols == (".", "o") * (N // 2)
    # without texture the two are a toss-up and read as unknown
    assert Classifier(replace_classes(model(), (50.0, 0.0, 0.0))).classify(lab).symbols == ("?",) * N


def replace_classes(base: ColourModel, white: tuple[float, float, float]) -> ColourModel:
    from dataclasses import replace

    return replace(base, classes={"o": StoneColour(white, (1.0, 1.0, 1.0), 4)})


def test_a_smooth_stone_top_hides_the_crossing_lines_of_an_empty_point() -> None:
    rectifier = Rectifier(GEOMETRY)
    board = np.full((rectifier.size[1], rectifier.size[0], 3), 200, np.uint8)
    px, margin = rectifier.px, rectifier.config.margin
    for x, y in GEOMETRY.centres:
        u, v = int((x + margin) * px), int((y + margin) * px)
        cv2.line(board, (u - px, v), (u + px, v), (40, 40, 40), 1)
        cv2.line(board, (u, v - px), (u, v + px), (40, 40, 40), 1)
    lines = rectifier.measure_rectified(board).texture
    x, y = GEOMETRY.centres[5]
    cv2.circle(board, (int((x + margin) * px), int((y + margin) * px)), int(0.43 * px), (200, 200, 200), -1)
    stone = rectifier.measure_rectified(board).texture
    assert lines is not None and stone is not None and lines.shape == (N, 3)
    assert stone[5, 1] < 0.5 * lines[5, 1]  # the top's edges are gone
    assert stone[5, 2] > lines[5, 2] + 0.3  # and so is its dark tenth
    others = np.delete(np.arange(N), 5)
    assert np.allclose(stone[others], lines[others], atol=0.05)


def _lined_picture(geometry, px_per_unit: float) -> tuple[np.ndarray, np.ndarray]:
    """A camera picture of a Go board's thin grid lines (1 camera pixel wide), and its board-to-picture map."""
    homography = np.array([[px_per_unit, 0.0, 40.0], [0.0, px_per_unit, 40.0], [0.0, 0.0, 1.0]])
    side = int(80 + px_per_unit * (geometry.width + 1))
    picture = np.full((side, side, 3), 200, np.uint8)
    for x in sorted({x for x, _ in geometry.centres}):
        u = int(round(px_per_unit * x + 40.0))
        picture[:, u] = 30
    return picture, homography


def _line_darkness(board: np.ndarray, rectifier: Rectifier, xs: list[float]) -> np.ndarray:
    """How dark each vertical line reads: the darkest column mean within a pixel of where it lies."""
    columns = board.astype(float).mean(axis=(0, 2))
    at = [int(round((x + rectifier.config.margin) * rectifier.px - 0.5)) for x in xs]
    return np.array([200.0 - columns[max(u - 1, 0) : u + 2].min() for u in at])


def test_thin_lines_read_alike_wherever_they_fall_among_the_samples() -> None:
    geometry = parse_geometry("points:9x9")
    rectifier = Rectifier(geometry)
    xs = sorted({x for x, _ in geometry.centres})
    picture, homography = _lined_picture(geometry, 61.3)
    board = rectifier.rectify(picture, homography)
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    plain = cv2.warpPerspective(picture, homography @ rectifier.canvas_to_board, rectifier.size, flags=flags)
    filtered, sampled = _line_darkness(board, rectifier, xs), _line_darkness(plain, rectifier, xs)
    # a warp alone keeps whichever camera pixels it happens to sample: a line it misses is gone
    assert sampled.min() < 5
    assert filtered.min() > 15, "every line shows after filtering"


def test_a_hand_over_two_fifths_of_the_board_does_not_tilt_the_light() -> None:
    geometry = parse_geometry("diamond:6")
    centres = np.array(geometry.centres)
    design = design_matrix(centres)
    rng = np.random.default_rng(3)
    reference = rng.uniform(0.3, 0.8, (len(centres), 1)) * np.array([0.9, 1.0, 1.1])
    true_gain = np.outer(design @ np.array([0.9, 0.06, -0.04]), np.ones(3))
    seen = true_gain * reference * (1 + rng.normal(0, 0.005, reference.shape))
    hand = centres[:, 0] < np.quantile(centres[:, 0], 0.4)  # one side of the board, as an arm reaches in
    seen[hand] = np.array([0.35, 0.45, 0.6])  # skin, whatever lies under it
    gain = light_gain(seen, reference, design, 0.03)
    assert np.abs(gain - true_gain).max() < 0.03


def test_skin_as_bright_as_the_board_is_covered_and_a_light_shadow_is_not() -> None:
    n, config = 3, VisionConfig()
    ref = np.full((n, 4, 3), [0.42, 0.46, 0.47], np.float32)  # light maple
    seen = ref.copy()
    seen[0] = [0.36, 0.46, 0.58]  # skin: no brighter, no darker, another hue
    seen[1] *= 0.85  # a stone's shadow: every channel alike, a little darker
    covered = covered_cells(seen, ref, np.ones((n, 3), np.float32), np.zeros(n, np.float32), config)
    assert covered.tolist() == [True, False, False]


def test_one_covered_cell_is_a_hand_only_on_the_edge_where_an_arm_reaches_in() -> None:
    edge = edge_cells(parse_geometry("diamond:4").neighbours_ix)
    inner = int(np.flatnonzero(~edge)[0])
    covered = np.zeros(len(edge), dtype=bool)
    assert not hand_over_board(covered, edge, 2)
    covered[inner] = True
    assert not hand_over_board(covered, edge, 2), "a stone and its shadow inside the board"
    covered[int(np.flatnonzero(edge)[0])] = True
    assert hand_over_board(covered, edge, 2)
    covered[:] = False
    covered[int(np.flatnonzero(edge)[1])] = True
    assert hand_over_board(covered, edge, 2), "a fingertip on an edge cell, the arm beyond the board"


def test_an_arm_crosses_the_rim_and_glare_a_shadow_or_one_odd_patch_do_not() -> None:
    """Skin over two neighbouring patches of the ring around a dark board shifts their channels against
    each other; a lamp's reflection (clipping some channels), a shadow, or one patch alone does not count."""
    config, m = VisionConfig(), 12
    ref = np.full((m, 3), [0.08, 0.10, 0.14], np.float32)  # dark wood
    gain, glare = np.ones((m, 3), np.float32), np.zeros(m, np.float32)
    assert not crossed_border(ref.copy(), ref, gain, glare, config)
    arm = ref.copy()
    arm[[11, 0]] = [0.45, 0.55, 0.75]  # skin over the patches either side of the ring's start
    assert crossed_border(arm, ref, gain, glare, config)
    one = ref.copy()
    one[5] = [0.45, 0.55, 0.75]
    assert not crossed_border(one, ref, gain, glare, config), "one patch: a stone's top or a crumb"
    lamp = ref.copy()
    lamp[3:5] += 0.5  # white light: every channel alike
    lamp[5:7] = np.minimum(lamp[5:7] + 0.88, 1.0)  # so strong that it clips two channels
    assert not crossed_border(lamp, ref, gain, glare, config)
    shade = ref * 0.4
    assert not crossed_border(shade, ref, gain, glare, config)
    brighter = gain * 1.2
    assert crossed_border(arm * 1.2, ref, brighter, glare, config), "judged under this frame's light"
    assert not crossed_border(ref * 1.2, ref, brighter, glare, config)
