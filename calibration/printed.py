"""The printed board under the synthetic camera: stones, hands and light on a sheet of :mod:`calibration.sheets`.

:func:`printed_board_renderer` gives a :class:`vision.synth.Renderer` whose
board is the ``board`` sheet that ``cascade print-markers --board`` prints,
lying on a table, so that the synthetic camera (pose, lens, light, stones
with height and shadows, sensor) photographs exactly what a user prints.
The ready profiles are fitted with it, and the guided calibration, the LED
map and the light-drift tests play on it.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.sheets import draw_sheet, plan_sheet
from referee.geometry import Geometry, parse_geometry
from vision.synth import Renderer, SynthConditions, make_scene
from vision.synth.board import BoardTexture

TARGET_PX_PER_UNIT = 48.0
"""Texture resolution of the printed sheet, in pixels per cell pitch (as fine as the synthetic boards)."""

TABLE_BGR = (70, 95, 125)
TABLE_SHARE = 0.3


def printed_texture(geometry: Geometry, paper: str = "a4") -> BoardTexture:
    """The ``board`` sheet of ``geometry`` on ``paper`` as a board-plane texture, with some table around it."""
    plan = plan_sheet(geometry, paper, kind="board")
    dpi = float(np.clip(TARGET_PX_PER_UNIT * 25.4 / plan.cell_mm, 50.0, 1200.0))
    sheet = draw_sheet(plan, dpi)
    ppu = sheet.px_per_mm * plan.cell_mm
    h, w = sheet.image.shape[:2]
    pad = round(TABLE_SHARE * max(h, w))
    image = cv2.copyMakeBorder(sheet.image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=TABLE_BGR)
    ox, oy = plan.origin_mm
    x0 = -ox / plan.cell_mm - pad / ppu
    y0 = -oy / plan.cell_mm - pad / ppu
    extent = (x0, y0, x0 + image.shape[1] / ppu, y0 + image.shape[0] / ppu)
    return BoardTexture(image=image, extent=extent, px_per_unit=ppu)


def printed_board_renderer(
    geometry: Geometry | str,
    seed: int,
    conditions: SynthConditions,
    size: tuple[int, int] = (960, 540),
    paper: str = "a4",
) -> Renderer:
    """A synthetic camera set-up (drawn from ``seed`` within ``conditions``) looking at the printed board."""
    geo = parse_geometry(geometry) if isinstance(geometry, str) else geometry
    renderer = Renderer(make_scene(geo, seed, conditions, size))
    renderer.board = printed_texture(geo, paper)
    return renderer
