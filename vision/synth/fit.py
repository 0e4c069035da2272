"""Calibrate the vision pipeline on a synthetic scene, the way a user calibrates on a real board.

:func:`fit_scene` renders the empty board and a few known layouts in a
scene (no hands, no glare) and learns a board model from them with
:func:`vision.learn.fit_colour_model`; :func:`scene_reader` gives a
ready :class:`~vision.pipeline.BoardReader`. Used by ``cascade bench vision``,
the ``synth:`` frame source's users and the tests.
"""

from __future__ import annotations

import numpy as np

from referee.geometry import Geometry
from vision.config import VisionConfig
from vision.learn import CalibrationPhoto, fit_colour_model
from vision.lens import Lens
from vision.lines import locate_through_lens
from vision.locate import MarkerLocator, locate
from vision.model import BoardModel
from vision.pipeline import BoardReader
from vision.synth.render import Renderer

CALIBRATION_SEED = 900_000
"""Frame seeds of calibration pictures start here, clear of the seeds of read frames."""


def known_layouts(
    geometry: Geometry, colours: tuple[str, ...] = ("o", "x", "="), shifts: int | None = None
) -> list[tuple[str, ...]]:
    """Layouts of the colours and the empty cell in turn along the cells, shifted by one from each layout to
    the next: ``shifts`` of them, by default one per colour (every colour on every cell once); one more
    shows every cell empty once as well."""
    symbols = (*colours, ".")
    n = len(geometry.cells)
    count = len(colours) if shifts is None else shifts
    return [tuple(symbols[(i + shift) % len(symbols)] for i in range(n)) for shift in range(count)]


def fit_scene(renderer: Renderer, config: VisionConfig | None = None) -> BoardModel:
    """A board model learned from rendered pictures of the empty board and of :func:`known_layouts`, each
    located by its markers through the lens their lines tell (:func:`vision.lines.locate_through_lens`).

    The pictures are taken in the scene's own light, without glare or hands,
    as a user calibrates in a calm moment.
    """
    geometry = renderer.geometry
    light = renderer.scene.base_light
    locator = MarkerLocator.default(geometry)
    layouts = ["." * len(geometry.cells), *known_layouts(geometry)]
    images = [
        renderer.render(layout, seed=CALIBRATION_SEED + k, random_hand=False, light=light).image
        for k, layout in enumerate(layouts)
    ]

    def located(k: int, lens: Lens) -> np.ndarray:
        return locate(images[k], geometry, locator, config=config, lens=lens).homography

    lens, homographies = locate_through_lens(geometry, images, layouts, located)
    photos = [
        CalibrationPhoto(image, homography, tuple(layout))
        for image, homography, layout in zip(images, homographies, layouts, strict=True)
    ]
    return fit_colour_model(geometry, photos, config, lens)


def scene_reader(renderer: Renderer, config: VisionConfig | None = None) -> BoardReader:
    """A board reader for the scene, calibrated with :func:`fit_scene`."""
    geometry = renderer.geometry
    return BoardReader(geometry, MarkerLocator.default(geometry), fit_scene(renderer, config), config)
