"""The cell-to-LED map: wiring orders, rotation, mirroring, offsets, several or unused LEDs, tables."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import LedMap, LedMapError, Wiring
from hardware.ledmap import ROTATIONS, lattice_places
from referee.geometry import parse_geometry

BOARDS = ["diamond:2", "diamond:8", "hex-diamond:4", "trapezoid:8,8", "hexagon:3,3", "grid:6x6", "points:9x9"]


def names(board: str, led_map: LedMap) -> dict[str, tuple[int, ...]]:
    geometry = parse_geometry(board)
    layout = led_map.layout(geometry)
    return {cell.name: layout.leds(i) for i, cell in enumerate(geometry.cells)}


def test_row_major_follows_the_physical_squares_of_a_diamond() -> None:
    # diamond:2 is a 2x2 checkerboard turned 45 degrees: h1-like top cell b1 is square (0, 0)
    leds = names("diamond:2", LedMap())
    assert leds == {"b1": (0,), "c2": (1,), "a2": (2,), "b3": (3,)}


def test_serpentine_reverses_every_second_row() -> None:
    leds = names("grid:3x3", LedMap(wiring=Wiring.SERPENTINE))
    assert [leds[n][0] for n in ("a1", "b1", "c1", "a2", "b2", "c2", "a3")] == [0, 1, 2, 5, 4, 3, 6]


@pytest.mark.parametrize(
    ("rotation", "mirror", "first_three"),
    [
        (0, False, ("a1", "b1", "c1")),
        (90, False, ("a3", "a2", "a1")),
        (180, False, ("c3", "b3", "a3")),
        (270, False, ("c1", "c2", "c3")),
        (0, True, ("c1", "b1", "a1")),
        (90, True, ("a1", "a2", "a3")),
    ],
)
def test_rotation_and_mirror(rotation: int, mirror: bool, first_three: tuple[str, str, str]) -> None:
    leds = names("grid:3x3", LedMap(rotation=rotation, mirror=mirror))
    by_led = {v[0]: k for k, v in leds.items()}
    assert (by_led[0], by_led[1], by_led[2]) == first_three


def test_offset_several_leds_per_cell_and_skipped_leds() -> None:
    leds = names("grid:2x2", LedMap(offset=2, leds_per_cell=2, skip=(5, 6)))
    assert leds == {"a1": (2, 3), "b1": (4, 7), "a2": (8, 9), "b2": (10, 11)}


def test_a_matrix_stride_leaves_places_without_cells_dark() -> None:
    led_map = LedMap(stride=8)
    layout = led_map.layout(parse_geometry("grid:6x6"))
    assert layout.leds(6) == (8,)  # a2: second matrix row
    assert layout.led_count == 5 * 8 + 6


def test_hex_rows_are_strips() -> None:
    leds = names("trapezoid:2,3", LedMap(wiring="serpentine"))
    assert [leds[n][0] for n in ("a1", "b1", "a2", "b2", "c2", "a3", "d3")] == [0, 1, 4, 3, 2, 5, 8]


def test_an_explicit_table() -> None:
    led_map = LedMap.from_table({"h1": 5, "g2": [0, 1]}, led_count=10)
    layout = led_map.layout(parse_geometry("diamond:8"))
    assert layout.leds(0) == (5,) and layout.leds(1) == (0, 1)
    assert len(layout.unlit_cells) == 62 and layout.led_count == 10


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rotation": 45}, "rotation must be 0, 90, 180 or 270"),
        ({"wiring": "zigzag"}, "wiring must be 'rows' or 'serpentine'"),
        ({"offset": -1}, "offset must be a whole number from 0"),
        ({"leds_per_cell": 0}, "leds_per_cell must be"),
        ({"stride": 8, "skip": (3,)}, "skip is for strips"),
        ({"table": (("h1", (1,)), ("g2", (1,)))}, "LED 1 is given to both h1 and g2"),
        ({"table": (("h1", ()),)}, "has no LEDs"),
    ],
)
def test_bad_maps_say_what_to_do(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(LedMapError, match=message):
        LedMap(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("led_map", "board", "message"),
    [
        (LedMap(stride=5), "grid:6x6", "wider than the stride of 5"),
        (LedMap(led_count=10), "grid:6x6", "led_count is 10"),
        (LedMap.from_table({"z9": 1}), "grid:6x6", "z9 is not a cell of the grid:6x6 board"),
    ],
)
def test_maps_that_do_not_fit_the_board(led_map: LedMap, board: str, message: str) -> None:
    with pytest.raises(LedMapError, match=message):
        led_map.layout(parse_geometry(board))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"wirring": "rows"}, "unknown key 'wirring'"),
        ({"rotation": "90"}, "rotation must be a whole number"),
        ({"table": [1, 2]}, "table must map cell names"),
        ([], "expected an object"),
    ],
)
def test_bad_dicts(data: object, message: str) -> None:
    with pytest.raises(LedMapError, match=message):
        LedMap.from_dict(data)  # type: ignore[arg-type]


led_maps = st.builds(
    LedMap,
    wiring=st.sampled_from(list(Wiring)),
    rotation=st.sampled_from(ROTATIONS),
    mirror=st.booleans(),
    offset=st.integers(0, 20),
    leds_per_cell=st.integers(1, 3),
    skip=st.lists(st.integers(0, 300), max_size=5).map(tuple),
)


@given(led_map=led_maps, board=st.sampled_from(BOARDS))
def test_every_cell_gets_its_own_leds_and_skipped_ones_stay_unused(led_map: LedMap, board: str) -> None:
    geometry = parse_geometry(board)
    layout = led_map.layout(geometry)
    used = [led for leds in layout.cell_leds for led in leds]
    assert len(used) == len(set(used)) == len(geometry) * led_map.leds_per_cell
    assert not set(used) & set(led_map.skip)
    assert min(used) >= led_map.offset and max(used) < layout.led_count


@given(led_map=led_maps, stride=st.none() | st.integers(20, 40))
def test_maps_round_trip_through_json(led_map: LedMap, stride: int | None) -> None:
    if stride is not None:
        led_map = LedMap.from_dict({**led_map.to_dict(), "stride": stride, "skip": []})
    again = LedMap.from_dict(json.loads(json.dumps(led_map.to_dict())))
    assert again == led_map


def test_tables_round_trip_through_json() -> None:
    led_map = LedMap.from_table({"h1": 5, "g2": [0, 1]}, led_count=10)
    assert LedMap.from_dict(json.loads(json.dumps(led_map.to_dict()))) == led_map


@pytest.mark.parametrize("board", BOARDS)
def test_lattice_places_are_distinct(board: str) -> None:
    places = lattice_places(parse_geometry(board))
    assert len(set(places)) == len(places)
