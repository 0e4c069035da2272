"""Small synthetic boards for the pipeline tests: a calibrated reader and frames of one camera set-up."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.ready import known_layouts, stones_in_play
from referee.geometry import Geometry, parse_geometry
from vision.learn import CalibrationPhoto, fit_colour_model
from vision.locate import MarkerLocator, locate
from vision.model import BoardModel
from vision.pipeline import BoardReader
from vision.synth import CLEAN, Renderer, SynthConditions, make_scene

SIZE = (960, 540)


@dataclass
class Table:
    """One camera set-up over one board, calibrated as a user would: an empty photo and photos of known stones."""

    geometry: Geometry
    renderer: Renderer
    model: BoardModel

    def reader(self) -> BoardReader:
        """A fresh reader with the fitted model."""
        return BoardReader(self.geometry, MarkerLocator.default(self.geometry), self.model)

    def position(self, seed: int) -> tuple[str, ...]:
        """A random position (seeded) with every stone colour and empty cells."""
        rng = np.random.default_rng(seed)
        return tuple(str(s) for s in rng.choice([".", *stones_in_play(self.geometry)], size=len(self.geometry.cells)))


def calibrated_table(spec: str, seed: int = 3, conditions: SynthConditions = CLEAN) -> Table:
    """Calibrate ``spec`` under ``conditions`` (glare-free photos, no hands), as the guided flow would."""
    geometry = parse_geometry(spec)
    quiet = conditions.with_(hand_probability=0.0, glare_probability=0.0, motion_blur_probability=0.0)
    calibration = Renderer(make_scene(geometry, seed, quiet, SIZE))
    layouts = [tuple("." * len(geometry.cells)), *known_layouts(geometry)]
    locator = MarkerLocator.default(geometry)
    photos = []
    for k, layout in enumerate(layouts):
        image = calibration.render(layout, seed=1 + k, random_hand=False).image
        photos.append(CalibrationPhoto(image, locate(image, geometry, locator).homography, layout))
    model = fit_colour_model(geometry, photos)
    return Table(geometry, Renderer(make_scene(geometry, seed, conditions, SIZE)), model)
