"""The default markers keep clear of the stones, so every board of ``cascade bench vision`` can be calibrated."""

from __future__ import annotations

import pytest

from referee.geometry import parse_geometry
from vision.markers import default_marker_side, default_markers, stone_extent
from vision.synth import Renderer, fit_scene, make_scene, preset

SPECS = ("diamond:6", "hex-diamond:8", "trapezoid:8,8", "grid:6x6", "points:9x9", "points:5x7", "hexagon:4,4")


@pytest.mark.parametrize("spec", SPECS)
def test_every_stone_stays_a_quiet_zone_away_from_every_marker(spec):
    geometry = parse_geometry(spec)
    gap = 0.3 * default_marker_side(geometry)
    for marker in default_markers(geometry):
        xs = [x for x, _ in marker.corners]
        ys = [y for _, y in marker.corners]
        for cx, cy in geometry.centres:
            dx = max(min(xs) - cx, 0.0, cx - max(xs))
            dy = max(min(ys) - cy, 0.0, cy - max(ys))
            assert (dx * dx + dy * dy) ** 0.5 >= 0.5 + gap - 1e-9, f"{spec}: a stone at {(cx, cy)} nears {marker.id}"


def test_point_boards_grow_by_half_a_pitch_and_cell_boards_keep_their_box():
    assert stone_extent(parse_geometry("points:9x9")) == (-0.5, -0.5, 8.5, 8.5)
    assert stone_extent(parse_geometry("diamond:8")) == (0.0, 0.0, 8.0, 8.0)


def test_a_go_board_with_stones_on_its_corners_calibrates():
    renderer = Renderer(make_scene("points:9x9", 4, preset("typical"), (960, 540)))
    model = fit_scene(renderer)
    assert model is not None
