"""Board geometries: cell sets, names, relations and board-plane coordinates."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.errors import CellError, GeometryError
from referee.geometry import Cell, Layout, parse_geometry


def test_diamond_8_rows_match_rules() -> None:
    g = parse_geometry("diamond:8")
    rows = {r: [g.cells[i].name for i in g.row_cells[r - 1]] for r in range(1, g.rows + 1)}
    assert rows[1] == ["h1"]
    assert rows[8] == ["a8", "c8", "e8", "g8", "i8", "k8", "m8", "o8"]
    assert rows[15] == ["h15"]
    assert len(g) == 64
    assert g.rows == 15 and g.columns == 15


@given(st.integers(2, 13))
def test_diamond_has_n_squared_cells_and_square_mapping(n: int) -> None:
    g = parse_geometry(f"diamond:{n}")
    assert len(g) == n * n
    for i in range(n):
        for j in range(n):
            cell = Cell(row=i + j + 1, col=n + j - i)
            assert g.centre(cell) == (j + 0.5, i + 0.5)


@given(st.integers(2, 13))
def test_hex_diamond_has_the_same_topology_as_the_square_one(n: int) -> None:
    square, hexa = parse_geometry(f"diamond:{n}"), parse_geometry(f"hex-diamond:{n}")
    assert square.cells == hexa.cells
    assert square.parents_ix == hexa.parents_ix
    assert square.children_ix == hexa.children_ix
    assert hexa.layout is Layout.HEX


@pytest.mark.parametrize("spec", ["hex-diamond:8", "trapezoid:8,8", "hexagon:10,10"])
def test_hex_neighbours_are_one_pitch_apart(spec: str) -> None:
    g = parse_geometry(spec)
    for i, near in enumerate(g.neighbours_ix):
        assert 2 <= len(near) <= 6
        for j in near:
            assert math.dist(g.centres[i], g.centres[j]) == pytest.approx(1.0)
            assert i in g.neighbours_ix[j]


def test_parents_and_children_of_the_diamond() -> None:
    g = parse_geometry("diamond:8")
    assert [c.name for c in g.parents("h3")] == ["g2", "i2"]
    assert [c.name for c in g.children("h1")] == ["g2", "i2"]
    assert g.parents("h1") == ()
    assert [c.name for c in g.parents("a8")] == ["b7"]


def test_trapezoid_rows_and_cells_below() -> None:
    g = parse_geometry("trapezoid:8,8")
    widths = [len(r) for r in g.row_cells]
    assert widths == list(range(8, 16))
    assert [c.name for c in g.children("c2")] == ["c3", "d3"]
    assert [c.name for c in g.parents("a2")] == ["a1"]


def test_hexagon_continuation_narrows_back_to_the_top_width() -> None:
    g = parse_geometry("hexagon:8,8")
    widths = [len(r) for r in g.row_cells]
    assert widths == list(range(8, 16)) + list(range(14, 7, -1))
    assert [c.name for c in g.children("b8")] == ["a9", "b9"]


def test_grid_neighbours_are_orthogonal() -> None:
    g = parse_geometry("grid:6x6")
    assert len(g.neighbours("a1")) == 2
    assert len(g.neighbours("a3")) == 3
    assert len(g.neighbours("c3")) == 4
    assert g.corners == ((0.0, 0.0), (6.0, 0.0), (6.0, 6.0), (0.0, 6.0))


def test_points_corners_are_the_corner_nodes() -> None:
    g = parse_geometry("points:19x19")
    assert g.centre("a1") == (0.0, 0.0)
    assert g.centre("s19") == (18.0, 18.0)
    assert g.corners[2] == (18.0, 18.0)


@pytest.mark.parametrize(
    "spec",
    ["diamond:1", "diamond:14", "diamond", "square:8", "grid:6", "grid:1x5", "trapezoid:20,10", "", "diamond:8x8"],
)
def test_bad_specs_say_what_is_accepted(spec: str) -> None:
    with pytest.raises(GeometryError) as info:
        parse_geometry(spec)
    assert "diamond" in str(info.value) or "must be" in str(info.value)


@pytest.mark.parametrize("name", ["a1", "h16", "zz", "9a", ""])
def test_bad_cell_names_are_cell_errors(name: str) -> None:
    with pytest.raises(CellError):
        parse_geometry("diamond:8").cell(name)


@pytest.mark.parametrize(
    "spec", ["diamond:8", "hex-diamond:5", "trapezoid:8,8", "hexagon:4,4", "grid:6x5", "points:9x9"]
)
def test_every_centre_lies_inside_the_board(spec: str) -> None:
    g = parse_geometry(spec)
    for x, y in g.centres:
        assert 0.0 <= x <= g.width and 0.0 <= y <= g.height
    names = [c.name for c in g.cells]
    assert len(set(names)) == len(names)
    assert list(g.cells) == sorted(g.cells)
