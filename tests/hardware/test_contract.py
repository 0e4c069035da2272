"""One contract suite over every LED driver: what is shown is what the hardware shows."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware import (
    EMPTY,
    CellFrame,
    CellLight,
    Colour,
    DeviceClosedError,
    FrameError,
    LedMap,
    Pattern,
    Wiring,
    highlight,
)
from referee.geometry import parse_geometry
from tests.hardware.conftest import DRIVERS, Opener


def every_light_frame(cells: int) -> CellFrame:
    """Every colour in every pattern, spread over the board."""
    lights = [CellLight(c, p) for c in Colour for p in Pattern]
    step = max(1, cells // len(lights))
    return CellFrame({(i * step) % cells: light for i, light in enumerate(lights)})


@pytest.fixture(params=DRIVERS)
def driver(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_a_new_matrix_is_dark(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver)
    assert opened.matrix.shown() == EMPTY
    assert opened.observe() == EMPTY


def test_every_colour_and_pattern_reaches_the_leds(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver)
    frame = every_light_frame(len(opened.matrix.geometry))
    opened.matrix.show(frame)
    assert opened.matrix.shown() == frame
    assert opened.observe() == frame


def test_the_last_frame_wins_and_clear_darkens(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver)
    geometry = opened.matrix.geometry
    opened.matrix.show(CellFrame.parse(geometry, "h1=o g2=x! i2== h15=remove!!"))
    second = highlight.guidance(pending_cells={20: "x", 27: "="}, error_cells={12: "o", 13: None}, last=[5])
    opened.matrix.show(second)
    assert opened.observe() == second
    opened.matrix.clear()
    assert opened.matrix.shown() == EMPTY
    assert opened.observe() == EMPTY


def test_a_serpentine_rotated_map_with_two_leds_per_cell(driver: str, open_driver: Opener) -> None:
    led_map = LedMap(wiring=Wiring.SERPENTINE, rotation=90, mirror=True, offset=3, leds_per_cell=2)
    opened = open_driver(driver, "trapezoid:4,4", led_map)
    frame = every_light_frame(len(opened.matrix.geometry))
    opened.matrix.show(frame)
    assert opened.observe() == frame


def test_a_cell_off_the_board_is_refused(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver, "grid:3x3")
    with pytest.raises(FrameError, match="not on the grid:3x3 board"):
        opened.matrix.show(CellFrame({9: CellLight(Colour.WHITE)}))
    assert opened.matrix.shown() == EMPTY


def test_closing_darkens_and_refuses_more_frames(driver: str, open_driver: Opener) -> None:
    opened = open_driver(driver)
    with opened.matrix as matrix:
        matrix.show(CellFrame({0: CellLight(Colour.RED)}))
    assert matrix.closed
    matrix.close()  # twice is harmless
    with pytest.raises(DeviceClosedError, match="open them again"):
        matrix.show(EMPTY)


def test_every_board_shape(driver: str, open_driver: Opener) -> None:
    for spec in ("hex-diamond:3", "hexagon:3,3", "grid:4x3", "points:3x3"):
        opened = open_driver(driver, spec)
        frame = every_light_frame(len(parse_geometry(spec)))
        opened.matrix.show(frame)
        assert opened.observe() == frame, spec


lights = st.builds(CellLight, st.sampled_from(list(Colour)), st.sampled_from(list(Pattern)))
maps = st.builds(
    LedMap,
    wiring=st.sampled_from(list(Wiring)),
    rotation=st.sampled_from([0, 90, 180, 270]),
    mirror=st.booleans(),
    offset=st.integers(0, 9),
    leds_per_cell=st.integers(1, 2),
)


@pytest.mark.parametrize("driver", ["gpio:max7219", "gpio:hc595", "console:"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    board=st.sampled_from(["diamond:4", "trapezoid:3,4", "grid:5x3"]),
    led_map=maps,
    data=st.data(),
)
def test_any_frame_on_any_map_reads_back(driver: str, board: str, led_map: LedMap, data: st.DataObject) -> None:
    from tests.hardware.conftest import open_with_observer

    cells = len(parse_geometry(board))
    frame = CellFrame(data.draw(st.dictionaries(st.integers(0, cells - 1), lights, max_size=cells)))
    opened = open_with_observer(driver, board, led_map)
    try:
        opened.matrix.show(frame)
        assert opened.observe() == frame
    finally:
        opened.matrix.close()
