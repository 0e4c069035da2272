"""The board model as stored in a profile, and how the judge decides cells from what they show."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geometry import parse_geometry
from vision.cells import CellJudge, Light, light_terms
from vision.errors import ColourModelError
from vision.model import BoardModel, StoneLook, as_matrix, as_vector

GEOMETRY = parse_geometry("points:3x3")
N = len(GEOMETRY.cells)
OFFSETS = np.array([(0.0, 0.0), (0.15, 0.0), (-0.15, 0.0), (0.0, 0.15), (0.0, -0.15)])
BOARD = np.array([-0.7, -0.5, -0.35, 0.4, 0.3, 0.0])
WHITE = np.array([-0.1, -0.1, -0.1, 0.1, 0.9, -0.5])
BLACK = np.array([-2.0, -2.0, -2.0, 1.5, 2.0, 1.5])


def model(**change) -> BoardModel:
    spread = np.diag([0.05, 0.05, 0.05, 0.08, 0.1, 0.1]) ** 2
    base = {
        "geometry": "points:3x3",
        "height": 0.2,
        "empty": tuple(as_vector(BOARD) for _ in range(N)),
        "empty_seen": (True,) * N,
        "empty_spread": as_matrix(spread),
        "like_spread": as_matrix(spread),
        "stones": {
            "o": StoneLook(as_vector(WHITE), as_matrix(spread), 5),
            "x": StoneLook(as_vector(BLACK), as_matrix(spread * 4), 5),
        },
    }
    base.update(change)
    return BoardModel(**base)


@settings(max_examples=30)
@given(st.floats(0.0, 2.0), st.lists(st.floats(-3.0, 3.0), min_size=6, max_size=6))
def test_a_model_stored_as_json_reads_back_the_same(height, look):
    original = model(height=round(height, 4), empty=tuple(as_vector(np.round(look, 4)) for _ in range(N)))
    again = BoardModel.from_dict(json.loads(json.dumps(original.to_dict())))
    assert again.height == original.height
    assert np.allclose(again.empty, original.empty, atol=1e-4)
    assert np.allclose(again.stones["x"].spread, original.stones["x"].spread, atol=1e-6)
    assert again.empty_seen == original.empty_seen
    assert again.ball_looks is None
    squares = (original.stones, {"o": original.stones["x"]})
    with_balls = BoardModel.from_dict(json.loads(json.dumps(model(ball_looks=squares).to_dict())))
    assert with_balls.ball_looks is not None
    assert [sorted(on) for on in with_balls.ball_looks] == [["o", "x"], ["o"]]
    assert np.allclose(with_balls.ball_looks[1]["o"].mean, original.stones["x"].mean, atol=1e-4)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": "old"}, "older kind: calibrate this board again"),
        ({"height": float("nan")}, "height must be a finite number"),
        ({"height": 9.0}, "height must lie between 0 and 5"),
        ({"empty": [[1, 2]] * N}, "the same features, 3 or more"),
        ({"stones": {"q": {"mean": [0] * 6, "spread": [[1] * 6] * 6, "count": 1}}}, "stones has 'q'"),
        ({"empty_spread": [[1.0, 2.0, 0, 0, 0, 0]] + [[0, 0, 0, 0, 0, 1.0]] * 5}, "symmetric positive definite"),
        ({"ball_looks": {"o": {}}}, "ball_looks must be a list"),
        (
            {"ball_looks": [{"o": {"mean": [0] * 6, "spread": [[1] * 6] * 6, "count": True}}]},
            r"ball_looks\[0\].o.count",
        ),
    ],
)
def test_a_malformed_model_is_refused_naming_the_field(change, message):
    data = model().to_dict()
    data.update(change)
    with pytest.raises(ColourModelError, match=message):
        BoardModel.from_dict(data)


def judge(m: BoardModel | None = None) -> CellJudge:
    return CellJudge(m or model(), np.array(GEOMETRY.centres), GEOMETRY.neighbours_ix, OFFSETS, 0.5, 0.6, 4.0)


def seen_of(looks: list[np.ndarray]) -> np.ndarray:
    return np.array([[look] * len(OFFSETS) for look in looks])


def test_each_cell_reads_the_class_it_looks_like():
    looks = [BOARD, WHITE, BLACK, BOARD, BOARD, WHITE, BLACK, BOARD, BOARD]
    verdicts = judge().judge(seen_of(looks), np.array(GEOMETRY.centres))
    assert verdicts.symbols == (".", "o", "x", ".", ".", "o", "x", ".", ".")
    assert not verdicts.unexplained.any()


@pytest.mark.parametrize("light", [-0.4, -0.2, 0.2])
def test_a_change_of_light_over_the_whole_board_is_taken_out(light):
    looks = [BOARD, WHITE, BLACK, BOARD, BOARD, WHITE, BOARD, BOARD, BOARD]
    shifted = [look + np.array([light] * 3 + [0.0] * 3) for look in looks]
    verdicts = judge().judge(seen_of(shifted), np.array(GEOMETRY.centres))
    assert verdicts.symbols == (".", "o", "x", ".", ".", "o", ".", ".", ".")
    assert np.allclose(verdicts.light.field[0], light, atol=0.05)


def test_a_bare_cell_under_the_glare_of_a_tinted_lamp_reads_empty():
    """A cyan-ish lamp's reflection on a bare cell brightens blue and green and leaves red dark, as the lamp's
    light does: glare of the lamp's colour explains it. White glare would raise red as well, and the spot,
    brighter than the board and smooth where the glare washed its lines out, read as a white stone."""
    from vision.board_image import LOG_FLOOR

    light = np.array([0.25, 0.0, -1.2])
    looks = [np.concatenate([look[:3] + light, look[3:]]) for look in [BOARD, WHITE, BLACK] + [BOARD] * 6]
    spot = looks[4].copy()
    bare = np.exp(spot[:3]) - LOG_FLOOR
    glare = 0.3 * np.exp(light - light.max())
    spot[:3] = np.log(bare + glare + LOG_FLOOR)
    spot[3:] = BOARD[3:] * bare.mean() / (bare.mean() + glare.mean())
    looks[4] = spot
    verdicts = judge().judge(seen_of(looks), np.array(GEOMETRY.centres))
    assert verdicts.symbols == (".", "o", "x", ".", ".", ".", ".", ".", ".")
    assert not verdicts.unexplained.any()


def test_a_stone_off_its_point_is_found_where_it_lies():
    seen = seen_of([BOARD] * N)
    seen[4, 1] = BLACK  # a black stone a third of a cell right of the middle point: 0.15 to the right is all stone
    seen[4, 0] = (BLACK + BOARD) / 2.0  # and the point shows its edge
    verdicts = judge().judge(seen, np.array(GEOMETRY.centres))
    assert verdicts.symbols[4] == "x"
    assert tuple(verdicts.offsets[4]) == (0.15, 0.0)


def test_a_stone_belongs_to_the_cell_that_explains_it_best():
    """The right neighbour sees the edge of the middle cell's stone, off its own point: the stone cannot be
    two stones that overlap, and it is the middle cell's, whose point it lies on."""
    seen = seen_of([BOARD] * N)
    seen[4, :] = BLACK
    seen[5, 2] = BLACK + np.array([0.3, 0.3, 0.3, 0.0, 0.0, 0.0])
    verdicts = judge().judge(seen, np.array(GEOMETRY.centres))
    assert verdicts.symbols[4] == "x"
    assert verdicts.symbols[5] == "."


def test_glare_over_the_bare_board_is_no_white_stone():
    """Glare adds white light to the board and washes its texture out a little; a white stone shows its own
    outline. The judge reads the lit bare board as empty."""
    board = np.exp(BOARD[:3]) - 0.06
    lit = np.log(board + 0.35 + 0.06)
    wash = board.mean() / (board.mean() + 0.35)
    glared = np.concatenate([lit, BOARD[3:] * wash])
    seen = seen_of([BOARD, glared, BOARD, BOARD, glared, BOARD, BOARD, BOARD, WHITE])
    verdicts = judge().judge(seen, np.array(GEOMETRY.centres))
    assert verdicts.symbols == (".", ".", ".", ".", ".", ".", ".", ".", "o")


def test_something_no_class_explains_is_unexplained():
    skin = np.array([-0.3, -0.6, -0.9, 0.05, 0.05, 0.0])
    verdicts = judge().judge(seen_of([BOARD] * 4 + [skin] + [BOARD] * 4), np.array(GEOMETRY.centres))
    assert verdicts.unexplained[4] and verdicts.unexplained.sum() == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**16), st.floats(-2.0, 2.0))
def test_how_far_a_light_moved_is_its_field_apart_and_a_uniform_change_moves_it_by_that_much(
    seed: int, shift: float
) -> None:
    """A light lies nowhere from itself, as far from a second as the second from it, and a change of brightness
    alike over the board and in every channel moves it by that change."""
    rng = np.random.default_rng(seed)
    terms = light_terms(np.array(parse_geometry("points:9x9").centres, dtype=np.float64))
    light = Light(rng.normal(0.0, 0.3, (terms.shape[1], 3)), np.ones(3), np.array([1.0, 0.0]))
    other = Light(rng.normal(0.0, 0.3, (terms.shape[1], 3)), np.ones(3), np.array([1.0, 0.0]))
    brighter = Light(light.field + np.outer(np.eye(terms.shape[1])[0], np.full(3, shift)), np.ones(3), light.texture)
    assert light.moved_from(light, terms) == 0.0
    assert light.moved_from(other, terms) == pytest.approx(other.moved_from(light, terms))
    assert brighter.moved_from(light, terms) == pytest.approx(abs(shift))
