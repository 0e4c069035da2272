"""The board reader: one camera frame in, one reading of every cell out.

:class:`BoardReader` chains the stages (locate, rectify and measure,
classify) and keeps the little state that makes consecutive frames cheap:
the last board location (so the full marker detection runs only when the
marker patches no longer match) and the last cell measures (for the change
measure that the temporal stabiliser uses).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from referee.geometry import Geometry
from vision.classify import Classifier
from vision.colour_model import ColourModel, normalised_lab
from vision.config import VisionConfig
from vision.errors import BoardNotFoundError
from vision.light import design_matrix
from vision.locate import CheckerboardLocator, Location, Locator, find_checkerboard, locate
from vision.measure import Rectifier


@dataclass(frozen=True)
class FrameReading:
    """What one frame shows.

    ``symbols``: one of ``o x = . ?`` per cell in ``geometry.cells`` order
    (``?`` where the reader cannot decide). ``confidence``: the posterior of
    each symbol (0..1). ``counts``: Kaskade ball counts per cell, or None for
    other boards. ``occluded``: something covers the board (a hand, an arm,
    their shadow) or the board could not be confirmed; never trust such a
    frame. ``located``: the board was found (now or by an earlier frame).
    ``change``: the largest Lab distance of any cell's measure from the
    previous frame (0 for the first frame; large while anything moves).
    ``stage_ms``: milliseconds spent per stage (``locate``, ``measure``,
    ``classify``).
    """

    symbols: tuple[str, ...]
    confidence: tuple[float, ...]
    counts: tuple[int, ...] | None
    occluded: bool
    located: bool
    change: float
    stage_ms: dict[str, float] = field(default_factory=dict)


class BoardReader:
    """Reads frames of one board with one calibration; keeps tracking state between frames.

    Not thread-safe: use one reader per camera.
    """

    def __init__(
        self,
        geometry: Geometry,
        locator: Locator,
        colour_model: ColourModel,
        config: VisionConfig | None = None,
    ) -> None:
        colour_model.check_fits(geometry)
        self.geometry = geometry
        self.locator = locator
        self.config = config or VisionConfig()
        self.rectifier = Rectifier(geometry, self.config)
        self.classifier = Classifier(colour_model, self.config)
        self.design = design_matrix(np.array(geometry.centres))
        self._location: Location | None = None
        self._previous_lab: np.ndarray | None = None

    @property
    def location(self) -> Location | None:
        """The last board location, or None before the first located frame."""
        return self._location

    def read(self, image_bgr: np.ndarray) -> FrameReading:
        """Read one BGR frame."""
        n = len(self.geometry.cells)
        t0 = time.perf_counter()
        try:
            if isinstance(self.locator, CheckerboardLocator) and self._location is None:
                self.locator = find_checkerboard(image_bgr, self.geometry)
            location = locate(image_bgr, self.geometry, self.locator, self._location, self.config)
        except BoardNotFoundError:
            ms = (time.perf_counter() - t0) * 1000.0
            return FrameReading(
                symbols=("?",) * n,
                confidence=(0.0,) * n,
                counts=None,
                occluded=True,
                located=False,
                change=float("inf"),
                stage_ms={"locate": ms},
            )
        self._location = location
        t1 = time.perf_counter()
        measures = self.rectifier.measure(image_bgr, location.homography)
        t2 = time.perf_counter()
        lab = normalised_lab(measures, self.classifier.reference, self.design, self.config)
        classes = self.classifier.classify(lab)
        t3 = time.perf_counter()
        change = 0.0 if self._previous_lab is None else _change(lab, self._previous_lab)
        self._previous_lab = lab
        occluded = (not location.confirmed) or int(classes.unexplained.sum()) >= self.config.occluded_min_cells
        return FrameReading(
            symbols=classes.symbols,
            confidence=classes.confidence,
            counts=None,
            occluded=bool(occluded),
            located=True,
            change=change,
            stage_ms={"locate": (t1 - t0) * 1000.0, "measure": (t2 - t1) * 1000.0, "classify": (t3 - t2) * 1000.0},
        )


def _change(lab: np.ndarray, previous: np.ndarray) -> float:
    return float(np.sqrt(((lab - previous) ** 2).sum(axis=1)).max())
