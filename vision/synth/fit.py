"""Calibrate the vision pipeline on a synthetic scene, the way a user calibrates on a real board.

:func:`fit_scene` renders the empty board and a few known layouts in a
scene (no hands, no glare) and fits a colour model from them with
:func:`vision.colour_model.fit_colour_model`; :func:`scene_reader` gives a
ready :class:`~vision.pipeline.BoardReader`. Used by ``cascade bench vision``,
the ``synth:`` frame source's users and the tests.
"""

from __future__ import annotations

from referee.geometry import Geometry
from vision.colour_model import ColourModel, fit_colour_model
from vision.config import VisionConfig
from vision.locate import MarkerLocator
from vision.pipeline import BoardReader
from vision.synth.render import Renderer

CALIBRATION_SEED = 900_000
"""Frame seeds of calibration pictures start here, clear of the seeds of read frames."""


def known_layouts(geometry: Geometry, colours: tuple[str, ...] = ("o", "x", "=")) -> list[tuple[str, ...]]:
    """Layouts that show every stone colour on every cell once (plus empty cells), one per shift."""
    symbols = (*colours, ".")
    n = len(geometry.cells)
    return [tuple(symbols[(i + shift) % len(symbols)] for i in range(n)) for shift in range(len(symbols) - 1)]


def fit_scene(renderer: Renderer, config: VisionConfig | None = None) -> ColourModel:
    """A colour model fitted from rendered pictures of the empty board and of :func:`known_layouts`.

    The pictures are taken in the scene's own light, without glare or hands,
    as a user calibrates in a calm moment.
    """
    geometry = renderer.geometry
    light = renderer.scene.base_light
    empty = renderer.render("." * len(geometry.cells), seed=CALIBRATION_SEED, random_hand=False, light=light).image
    known = [
        (renderer.render(layout, seed=CALIBRATION_SEED + 1 + k, random_hand=False, light=light).image, layout)
        for k, layout in enumerate(known_layouts(geometry))
    ]
    return fit_colour_model(geometry, MarkerLocator.default(geometry), empty, known, config)


def scene_reader(renderer: Renderer, config: VisionConfig | None = None) -> BoardReader:
    """A board reader for the scene, calibrated with :func:`fit_scene`."""
    geometry = renderer.geometry
    return BoardReader(geometry, MarkerLocator.default(geometry), fit_scene(renderer, config), config)
