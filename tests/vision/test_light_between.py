"""A frame seen cold takes its light's shape from the bare board between the cells, before any cell is read."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geometry import parse_geometry
from vision.cells import CellJudge
from vision.model import BoardModel, StoneLook, as_matrix, as_vector
from vision.pipeline import cell_corners

GEOMETRY = parse_geometry("points:9x9")
N = len(GEOMETRY.cells)
CENTRES = np.array(GEOMETRY.centres, dtype=np.float64)
OFFSETS = np.array([(0.0, 0.0), (0.15, 0.0), (-0.15, 0.0), (0.0, 0.15), (0.0, -0.15)])
# the bare board and a white stone differ mostly in brightness, as under a lamp of one narrow colour
BOARD = np.array([-1.3, -1.2, -1.1, 0.3, 0.3, 0.0])
WHITE = np.array([-0.7, -0.7, -0.7, 0.25, 0.4, -0.15])
BLACK = np.array([-2.0, -2.0, -2.0, 1.5, 2.0, 1.5])
SPREAD = np.diag([0.05, 0.05, 0.05, 0.08, 0.1, 0.1]) ** 2


def judge() -> CellJudge:
    model = BoardModel(
        geometry=GEOMETRY.spec,
        height=0.2,
        empty=tuple(as_vector(BOARD) for _ in range(N)),
        empty_seen=(True,) * N,
        empty_spread=as_matrix(SPREAD),
        like_spread=as_matrix(SPREAD),
        stones={
            "o": StoneLook(as_vector(WHITE), as_matrix(SPREAD), 5),
            "x": StoneLook(as_vector(BLACK), as_matrix(SPREAD * 4), 5),
        },
    )
    return CellJudge(model, CENTRES, GEOMETRY.neighbours_ix, OFFSETS, 0.5, 0.6, 4.0)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 2.0 * np.pi), st.floats(0.3, 0.6))
def test_a_lamp_brighter_on_one_side_leaves_its_bare_points_bare(seed: int, angle: float, slope: float) -> None:
    # one side of the board lit far more than the other: its bare points show as bright as a white stone shows
    # in the middle, and a reader that settles the light from the cells alone may call them white
    rng = np.random.default_rng(seed)
    layout = rng.choice(np.array([".", "o", "x"]), size=N, p=[0.6, 0.2, 0.2])
    u = (CENTRES - CENTRES.mean(axis=0)) / (np.ptp(CENTRES, axis=0) / 2.0)
    tilt = slope * (np.cos(angle) * u[:, 0] + np.sin(angle) * u[:, 1])
    shown = np.array([{".": BOARD, "o": WHITE, "x": BLACK}[s] for s in layout])
    shown[:, :3] += tilt[:, None] + rng.normal(0.0, 0.03, (N, 3))
    between = BOARD[:3] + tilt[:, None] + rng.normal(0.0, 0.03, (N, 3))
    seen = np.repeat(shown[:, None, :], len(OFFSETS), axis=1)
    verdicts = judge().judge(seen, CENTRES, None, between)
    assert verdicts.symbols == tuple(layout)


def test_a_points_board_looks_between_its_lines_a_cells_board_at_every_corner() -> None:
    corners, on_board = cell_corners(GEOMETRY)
    assert corners.shape == (N, 4, 2)
    # a corner point of a Go board has one corner between its lines, an edge point two, the others four
    assert np.bincount(on_board.sum(axis=1), minlength=5).tolist() == [0, 4, 28, 0, 49]
    squares = parse_geometry("diamond:8")
    corners, on_board = cell_corners(squares)
    assert corners.shape == (len(squares.cells), 4, 2)
    assert on_board.all()


def test_a_board_with_nothing_between_its_cells_reads_as_with_a_flat_shape() -> None:
    rng = np.random.default_rng(7)
    layout = rng.choice(np.array([".", "o", "x"]), size=N, p=[0.6, 0.2, 0.2])
    shown = np.array([{".": BOARD, "o": WHITE, "x": BLACK}[s] for s in layout]) + rng.normal(0.0, 0.02, (N, 6))
    seen = np.repeat(shown[:, None, :], len(OFFSETS), axis=1)
    nothing = judge().judge(seen, CENTRES, None, np.full((N, 3), np.nan))
    assert nothing.symbols == judge().judge(seen, CENTRES, None, None).symbols == tuple(layout)
