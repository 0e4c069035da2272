"""The frame's own look of each piece: a lamp that moves the pieces unlike calibration is followed by the frame."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geometry import Layout, parse_geometry
from vision.board_image import feature_count
from vision.cells import LIGHT_SPREAD, OUTLINED, _bare_beside, light_terms, near_offsets, nearby_weights, own_features
from vision.config import VisionConfig
from vision.own_look import BareBoard, _fit_pieces, _scatter, bare_by_texture, own_distance, own_reading
from vision.pipeline import search_offsets

BOARD = parse_geometry("points:19x19")
NEARBY = nearby_weights(np.array(BOARD.centres))
ALONE = np.zeros_like(NEARBY)
"""No cell tells another's light: the bare board's structure alone."""
LOOKS = np.array([[0.0, 0.0, 0.0], [0.15, 0.8, 0.0], [-0.15, -0.8, 0.4]])
"""The pieces' looks in the frames of :func:`frame`: bare, white, black."""


def far_corner(terms: np.ndarray) -> np.ndarray:
    """The cells (N, bool) of one corner of the board, about a sixteenth of it, from their light terms."""
    return (terms[:, 1] > 0.5) & (terms[:, 2] > 0.5)


def frame(seed: int, tilt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A frame of three pieces whose looks lie close along the first feature and apart along another, under a
    field that tilts the whole board by ``tilt``: its features, its light terms and its truth. Each cell's noise
    stays within three spreads, so no cell of one piece lies where another piece is likelier: a cell that does
    is read as that piece by any reader, and its truth would be no test of this one."""
    rng = np.random.default_rng(seed)
    terms = light_terms(np.array(BOARD.centres))
    truth = rng.choice(3, size=len(terms), p=[0.5, 0.25, 0.25])
    spread = np.array([0.05, 0.1, 0.05])
    features = LOOKS[truth] + np.clip(rng.normal(size=(len(truth), 3)), -3.0, 3.0) * spread
    features[:, 0] += tilt * terms[:, 1]
    return features, terms, truth


def reader(truth: np.ndarray, wrong: np.ndarray, confidence: float = 0.7) -> np.ndarray:
    """A reader's posterior that believes ``wrong`` cells hold the next class."""
    said = np.where(wrong, (truth + 1) % 3, truth)
    post = np.full((len(truth), 3), (1.0 - confidence) / 2.0)
    post[np.arange(len(truth)), said] = confidence
    return post


def test_the_frame_corrects_cells_calibration_read_as_another_piece() -> None:
    features, terms, truth = frame(seed=1, tilt=0.3)
    rng = np.random.default_rng(2)
    wrong = rng.random(len(truth)) < 0.15  # a lamp made calibration read one cell in seven wrong
    labels, post = own_reading(features, terms, reader(truth, wrong))
    assert (labels != truth).sum() == 0, f"{(labels != truth).sum()} cells still wrong of {wrong.sum()}"
    assert post.shape == (len(truth), 3) and np.allclose(post.sum(axis=1), 1.0)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.floats(-0.5, 0.5))
def test_a_reading_that_is_already_the_frames_own_stays(seed: int, tilt: float) -> None:
    features, terms, truth = frame(seed, tilt)
    labels, post = own_reading(features, terms, reader(truth, np.zeros(len(truth), bool)))
    assert np.array_equal(labels, truth)
    assert np.array_equal(post.argmax(axis=1), labels)


def test_a_piece_no_cell_holds_is_never_read() -> None:
    features, terms, truth = frame(seed=3, tilt=0.0)
    post = reader(truth, np.zeros(len(truth), bool))
    post = np.column_stack([post, np.zeros(len(truth))])  # a fourth piece nobody placed
    labels, settled = own_reading(features, terms, post)
    assert not (labels == 3).any() and not settled[:, 3].any()


def test_a_board_too_small_to_tell_a_covariance_keeps_the_readers_posterior() -> None:
    post = np.array([[0.5, 0.3, 0.2], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]])
    terms = light_terms(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    labels, settled = own_reading(np.zeros((3, 6)), terms, post)
    assert labels.tolist() == [0, 1, 2] and settled is post


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.floats(-0.5, 0.5), st.floats(0.05, 0.25))
def test_a_hand_read_as_bare_board_stays_odd(seed: int, tilt: float, share: float) -> None:
    """A hand lies over a patch of the board, its cells read as bare board: up to a quarter of that
    piece's cells, skin as varied as a piece. All but a tenth of the hand's cells (or one) stay odd by the
    frame's own look, and the cells it does not cover are explained."""
    features, terms, truth = frame(seed, tilt)
    bare = np.flatnonzero(truth == 0)
    hand = bare[: int(share * len(bare))]
    rng = np.random.default_rng(seed)
    features[hand] = np.array([0.5, 0.35, -0.45]) + rng.normal(size=(len(hand), 3)) * 0.08
    distance = own_distance(features, terms, truth, 3)
    clear = np.setdiff1d(np.arange(len(truth)), hand)
    assert (distance[hand] <= 3.0).sum() <= max(1, len(hand) // 10)
    assert (distance[clear] <= 3.0).mean() > 0.98


def test_a_piece_too_few_to_tell_explains_no_cell() -> None:
    """Eight cells read as a piece are too few to tell how the frame shows it: they stay as odd as no piece's,
    while the pieces of many cells explain theirs. A board of twenty cells tells no piece at all."""
    features, terms, truth = frame(seed=5, tilt=0.0)
    third = np.flatnonzero(truth == 2)
    labels = truth.copy()
    labels[third[8:]] = 0
    distance = own_distance(features, terms, labels, 3)
    assert (distance[third[:8]] > 3.0).all()
    assert (distance[truth != 2] <= 3.0).mean() > 0.98
    assert np.isinf(own_distance(features[:20], terms[:20], truth[:20], 3)).all()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**16), st.integers(3, 6), st.floats(0.0, 0.1), st.floats(10.0, 100.0))
def test_a_few_far_cells_barely_move_a_pieces_scatter(seed: int, width: int, share: float, far: float) -> None:
    """A piece's look is a Student-t's: a few of its cells far off (a lamp's spot, a speck, a shadow's edge)
    count less the further they lie, so its scatter stays near what its other cells show. A Gaussian's
    covariance would grow with them until it reached over a neighbouring piece's cells."""
    rng = np.random.default_rng(seed)
    cells = rng.normal(size=(200, width)) * 0.05
    odd = rng.random(len(cells)) < share
    seen = cells.copy()
    seen[odd] += far * 0.05 * rng.choice((-1.0, 1.0), size=(int(odd.sum()), width))
    clean = np.diag(cells.T @ cells / len(cells))
    scatter = np.diag(_scatter(seen - seen[~odd].mean(axis=0)))
    assert (scatter < 2.0 * clean).all() and (scatter > 0.3 * clean).all()


def spotted(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A frame where a lamp's spot brightens some bare cells towards the white stones and the reader took them
    for white stones: its features, its light terms, its truth and the spot."""
    rng = np.random.default_rng(seed)
    terms = light_terms(np.array(BOARD.centres))
    truth = rng.choice(3, size=len(terms), p=[0.5, 0.25, 0.25])
    looks = np.array([[0.0, 0.0, 0.0], [0.6, 0.4, 0.0], [-0.8, -0.8, 0.4]])
    features = looks[truth] + np.clip(rng.normal(size=(len(truth), 3)), -3.0, 3.0) * 0.06
    spot = (truth == 0) & (rng.random(len(truth)) < 0.15)
    features[spot] += np.array([0.2, 0.0, 0.4])
    return features, terms, truth, spot


@pytest.mark.parametrize("seed", range(4))
def test_of_several_starts_the_reading_the_frame_explains_best_is_kept(seed: int) -> None:
    """From the reader's reading alone the spot's bare cells stay among the white stones, whose look they
    widen; started as well from a reading that has them bare, the frame's own look keeps that one."""
    features, terms, truth, spot = spotted(seed)
    post = reader(truth, np.zeros(len(truth), bool))
    post[spot] = post[spot][:, [2, 0, 1]]  # the reader's likeliest class there: the white stone (1)
    alone, _ = own_reading(features, terms, post)
    assert (alone[spot] == 1).all(), "the frame's own look alone no longer keeps the spot white"
    both, _ = own_reading(features, terms, post, (np.where(spot, 0, post.argmax(axis=1)),))
    assert np.array_equal(both, truth)


@pytest.mark.parametrize("seed", range(4))
def test_a_start_that_names_the_pieces_otherwise_is_named_as_the_reader_names_them(seed: int) -> None:
    """A start with every piece under another's name settles to the same grouping of the cells, which the frame
    explains as well: the names are the reader's, so its reading comes back rightly named."""
    features, terms, truth = frame(seed, tilt=0.2)
    post = reader(truth, np.zeros(len(truth), bool))
    labels, _ = own_reading(features, terms, post, ((truth + 1) % 3,))
    assert np.array_equal(labels, truth)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**16))
def test_only_a_stone_that_shows_the_board_beside_it_starts_bare(seed: int) -> None:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, size=50)
    between = rng.normal(size=(50, 3))
    colour = between + rng.choice((0.01, 1.0), size=(50, 1)) * rng.normal(size=(50, 3))
    between[rng.random(50) < 0.2] = np.nan
    start = _bare_beside(labels, colour, between)
    shows = np.isfinite(between).all(axis=1) & (np.sqrt(((colour - between) ** 2).mean(axis=1)) < LIGHT_SPREAD)
    assert np.array_equal(start, np.where(shows, 0, labels))


def two_stones(sure: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A bare board (class 0) with two white stones (class 1) the reader is ``sure`` of, whose colours agree and
    whose textures do not (one seen smooth on its top, one across its outline), as on a real webcam's frame:
    features, light terms, the reader's posterior."""
    rng = np.random.default_rng(5)
    terms = light_terms(np.array(BOARD.centres))
    spread = np.array([0.13, 0.1, 0.08, 0.34, 0.28, 0.08])
    features = np.clip(rng.normal(size=(len(terms), 6)), -3.0, 3.0) * spread
    features[10] = (0.9, 0.6, 0.3, -1.5, -1.1, -0.2)
    features[20] = (0.9, 0.6, 0.3, -0.3, 0.2, -1.0)
    post = np.zeros((len(terms), 3))
    post[:, 0] = 1.0
    post[[10, 20]] = (1.0 - sure, sure, 0.0)
    return features, terms, post


def test_lone_stones_the_reader_is_decisive_about_stay_however_few_their_piece() -> None:
    """Two cells read white cannot tell a look of their own: their mean lies between them, far from both under
    the scatter every piece shares (the bare board's), and the bare board's weight took one. The reader's
    decisive reading stands."""
    features, terms, post = two_stones(0.9999)
    labels, settled = own_reading(features, terms, post)
    assert (labels[[10, 20]] == 1).all() and (settled[[10, 20], 1] > 0.99).all()


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.floats(0.05, 0.4),
    st.floats(0.5, 2.0),
    st.sampled_from(("points:19x19", "points:9x9", "diamond:8")),
    st.data(),
)
def test_a_neighbours_outline_over_one_side_of_a_point_is_not_the_points_own(
    seed: int, lines: float, outline: float, spec: str, data: st.DataObject
) -> None:
    """On a board of points a neighbour lying a little towards a bare point lays its outline over the point and
    over the step towards it: the own look sees the point's own lines there. A stone's outline, shown at most
    steps around its point, it sees. On a board of cells every feature is the point's own."""
    geometry = parse_geometry(spec)
    offsets = search_offsets(geometry, VisionConfig())
    near = near_offsets(offsets)
    rng = np.random.default_rng(seed)
    seen = rng.normal(size=(30, len(offsets), feature_count(geometry)))
    outlined = list(OUTLINED)
    seen[:, :, outlined] = lines
    side = data.draw(st.sampled_from(near[1:].tolist()))
    hemmed, stone = seen.copy(), seen.copy()
    hemmed[np.ix_(np.arange(30), [0, side], outlined)] += outline
    stone[np.ix_(np.arange(30), near, outlined)] += outline
    points = geometry.layout is Layout.POINT
    assert np.allclose(own_features(hemmed, near, points)[:, outlined], hemmed[:, 0, outlined] if not points else lines)
    assert np.allclose(own_features(stone, near, points)[:, outlined], lines + outline)
    assert np.array_equal(own_features(seen, near, points)[:, :3], seen[:, 0, :3])


def lit_corner(seed: int, tilt: float, strength: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A frame whose bare board, in one corner of the board, shows a lamp's spot ``strength`` of the way from the
    bare board's colour to the white stones', as calibration saw it there too: its features, light terms,
    truth and the spot as calibration saw the bare board (N×F, what each cell's bare look adds)."""
    features, terms, truth = frame(seed, tilt)
    corner = far_corner(terms)
    structure = np.zeros_like(features)
    structure[corner] = strength * LOOKS[1]
    features[truth == 0] += structure[truth == 0]
    return features, terms, truth, structure


@pytest.mark.parametrize("seed", range(6))
def test_bare_cells_in_a_spot_calibration_saw_are_read_bare(seed: int) -> None:
    """The reader took about half the spot's bare cells for white stones. Under one smooth field the frame's own
    look reads at least those white; knowing how calibration saw the bare board differ from cell to cell, it
    reads it bare but for a cell or so where the spot meets the board (the spot's other bare cells show how
    much of it the frame still shows). A third of the way closer, bare and white would share one colour."""
    features, terms, truth, structure = lit_corner(seed, tilt=0.2, strength=0.6)
    spot = (truth == 0) & (structure[:, 1] > 0)
    took = spot & (np.random.default_rng(seed + 100).random(len(truth)) < 0.5)
    post = reader(truth, took)
    plain, _ = own_reading(features, terms, post)
    assert (plain[spot] != 0).sum() >= took.sum(), "one smooth field alone now reads the spot bare"
    labels, _ = own_reading(features, terms, post, bare=BareBoard(structure, ALONE))
    assert (labels[spot] != 0).sum() <= 1 and (labels != truth).sum() <= 3


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.floats(-0.5, 0.5), st.sampled_from((-1.0, 1.0)))
def test_a_spot_the_frame_does_not_show_changes_no_reading(seed: int, tilt: float, sign: float) -> None:
    """A lamp calibration saw and the frame does not (switched off, or its opposite: a shadow where it shone)
    is taken as shown by little or none of it: the reading stays the frame's own."""
    features, terms, truth = frame(seed, tilt)
    corner = far_corner(terms)
    structure = np.where(corner[:, None], sign * LOOKS[1], 0.0)
    post = reader(truth, np.zeros(len(truth), bool))
    labels, _ = own_reading(features, terms, post, bare=BareBoard(structure, ALONE))
    assert np.array_equal(labels, truth)
    near, _ = own_reading(features, terms, post, bare=BareBoard(structure, NEARBY))
    assert np.array_equal(near, truth)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**16), st.floats(-1.0, 2.0))
def test_the_bare_board_shows_between_none_and_all_of_calibrations_structure(seed: int, shown: float) -> None:
    """A frame whose bare cells show ``shown`` times the spot calibration saw, under a tilted light: the share the
    own look takes is that, kept between none (a lamp switched off; a shadow where it shone is no spot) and all
    of it. Each piece shows one look here, so that the share is the structure's alone."""
    _, terms, truth, structure = lit_corner(seed, tilt=0.0, strength=0.6)
    features = LOOKS[truth] + 0.3 * terms[:, [1]] + np.where((truth == 0)[:, None], shown * structure, 0.0)
    present = np.unique(truth)
    _, _, share = _fit_pieces(features, terms[:, 1:], truth, present, np.ones(len(truth), bool), structure)
    spot = structure[:, 1] > 0
    assert np.allclose(share[spot, 1] / structure[spot, 1], np.clip(shown, 0.0, 1.0), atol=1e-6)
    assert not share[~spot].any()


@pytest.mark.parametrize("seed", range(6))
def test_bare_cells_in_a_spot_of_the_frames_own_are_read_bare(seed: int) -> None:
    """A lamp's spot calibration never saw lights the bare board in one corner, where no stone lies, 0.6 of the
    way to the white stones' colour; the reader took about half its cells for white stones. As one look under
    one smooth field the frame's own look reads the whole spot white; the bare cells near each cell show its
    light, and it reads the spot bare but for a cell or so. Had the reader taken every cell of it, no bare cell
    would show the spot's light."""
    features, terms, truth = frame(seed, tilt=0.2)
    spot = far_corner(terms)
    features[spot] += LOOKS[0] - LOOKS[truth[spot]] + 0.6 * LOOKS[1]
    truth = np.where(spot, 0, truth)
    took = spot & (np.random.default_rng(seed + 100).random(len(truth)) < 0.5)
    post = reader(truth, took)
    unseen = np.zeros_like(features)
    plain, _ = own_reading(features, terms, post, bare=BareBoard(unseen, ALONE))
    assert (plain[spot] != 0).sum() >= took.sum(), "the bare board as one look now reads the spot bare"
    labels, _ = own_reading(features, terms, post, bare=BareBoard(unseen, NEARBY))
    assert (labels[spot] != 0).sum() <= 1 and (labels != truth).sum() <= 2


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.floats(-0.5, 0.5))
def test_the_bare_cells_near_a_stone_do_not_read_it_bare(seed: int, tilt: float) -> None:
    """A reading that is the frame's own stays so when the bare cells near each cell tell its light: a stone's
    own look is no part of the light the bare board shows there, and half the board's cells are bare, so
    nearly every stone has bare cells near it."""
    features, terms, truth = frame(seed, tilt)
    post = reader(truth, np.zeros(len(truth), bool))
    labels, _ = own_reading(features, terms, post, bare=BareBoard(np.zeros_like(features), NEARBY))
    assert np.array_equal(labels, truth)


def test_a_cell_tells_the_light_of_the_cells_near_it_only() -> None:
    """One pitch's Gaussian over the cells within two pitches, nothing of a cell's own, the same both ways."""
    names = [str(cell) for cell in BOARD.cells]
    centre = names.index("j10")
    assert NEARBY[centre, centre] == 0.0 and np.allclose(NEARBY, NEARBY.T)
    assert NEARBY[centre, names.index("k10")] == pytest.approx(np.exp(-0.5))
    assert NEARBY[centre, names.index("k11")] == pytest.approx(np.exp(-1.0))
    assert NEARBY[centre, names.index("l10")] == pytest.approx(np.exp(-2.0))
    assert NEARBY[centre, names.index("l11")] == 0.0
    assert (NEARBY[centre] > 0).sum() == 12


def spot_with_lines(seed: int, strength: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A frame of colour and texture whose bare board, in one corner where no stone lies, a lamp's spot lights
    ``strength`` of the way to the white stones' colour, while it shows the board's lines as the rest of the
    bare board does: its features (N×5, the colour first), light terms, truth and the spot (N, bool)."""
    colour, terms, truth = frame(seed, tilt=0.2)
    spot = far_corner(terms)
    colour[spot] += LOOKS[0] - LOOKS[truth[spot]] + strength * LOOKS[1]
    truth = np.where(spot, 0, truth)
    lines = np.array([[0.4, 0.2], [0.9, 0.0], [1.2, 0.05]])
    noise = np.clip(np.random.default_rng(seed + 7).normal(size=(len(truth), 2)), -3.0, 3.0) * 0.1
    return np.concatenate([colour, lines[truth] + noise], axis=1), terms, truth, spot


@pytest.mark.parametrize("seed", range(6))
def test_a_spot_read_wholly_white_is_read_bare_by_its_lines(seed: int) -> None:
    """The reader took every cell of the spot for a white stone, so no cell read bare shows its light. The
    frame's own look of the texture alone reads the spot bare: from there, with the light the bare cells near
    each show, the own look reads it bare; from the reader's reading alone it stays white."""
    features, terms, truth, spot = spot_with_lines(seed, strength=0.8)
    post = reader(truth, spot)
    start = bare_by_texture(features, terms, post.argmax(axis=1), 3)
    assert (start[spot] == 0).all()
    bare = BareBoard(np.zeros_like(features), NEARBY)
    plain, _ = own_reading(features, terms, post, bare=bare)
    assert (plain[spot] != 0).all(), "the reader's start alone now reads the spot bare"
    labels, _ = own_reading(features, terms, post, (start,), bare=bare)
    assert (labels != truth).sum() <= 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.floats(0.0, 1.0), st.floats(0.0, 0.3))
def test_the_texture_alone_only_ever_reads_stones_bare(seed: int, strength: float, wrong: float) -> None:
    """Whatever the reader said, the start by the texture alone differs from it only where it reads a stone bare:
    never a bare cell as a stone, nor one stone as another (by its texture alone a white stone may pass for a
    black one). Without texture it is the reader's reading."""
    features, terms, truth, _ = spot_with_lines(seed, strength)
    said = reader(truth, np.random.default_rng(seed).random(len(truth)) < wrong).argmax(axis=1)
    start = bare_by_texture(features, terms, said, 3)
    changed = start != said
    assert (start[changed] == 0).all() and (said[changed] != 0).all()
    assert np.array_equal(bare_by_texture(features[:, :3], terms, said, 3), said)
