"""Light that changes during a game: the colour model follows it slowly.

Light normalisation (:mod:`vision.light`) undoes a smooth change of light
per frame, but not everything: a lamp brighter than at calibration blows
out the white stones and the light cells, a warm lamp tints stones and board
differently, shadows move. :class:`LightFollower` wraps a
:class:`~vision.pipeline.BoardReader` and, after every frame, nudges the
colour model towards what it sees, learning only from cells that are read
confidently and stably:

- a cell counts when the frame is neither occluded nor moving, and the cell
  has read the same symbol, each time with at least ``min_confidence``, for
  ``stable_frames`` frames in a row;
- its measure must also lie within ``max_distance`` spreads of its class,
  so that a stone that has just been put down or a passing shadow teaches
  nothing;
- an empty cell moves its own empty appearance (colour and texture), a
  stone its colour's mean (colour and texture), each by ``rate`` of the way
  per frame (an exponential moving average), so
  a game that starts in daylight and ends under a lamp keeps reading right,
  while a single odd frame changes almost nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.classify import Classifier
from vision.colour_model import ColourModel, StoneColour, TextureModel, normalised_lab
from vision.pipeline import BoardReader, FrameReading


@dataclass(frozen=True)
class DriftConfig:
    """How the colour model follows the light (see the module docstring).

    ``rate``: share of the way to the new measure per frame. ``min_confidence``:
    least confidence of a reading to learn from. ``stable_frames``: frames in a
    row a cell must have read the same. ``max_distance``: largest normalised
    distance (in spreads) from the class to learn from. ``still_lab``: largest
    change of any cell between frames for the board to count as still.
    """

    rate: float = 0.1
    min_confidence: float = 0.9
    stable_frames: int = 3
    max_distance: float = 3.0
    still_lab: float = 8.0


class LightFollower:
    """Reads frames with a board reader and lets its colour model follow the light (see the module docstring)."""

    def __init__(self, reader: BoardReader, model: ColourModel, config: DriftConfig | None = None) -> None:
        self.reader = reader
        self.config = config or DriftConfig()
        self._model = model
        self._empty = np.array(model.empty, dtype=np.float64)
        self._means = {s: np.array(c.mean, dtype=np.float64) for s, c in model.classes.items()}
        texture = model.texture
        self._empty_texture = None if texture is None else np.array(texture.empty, dtype=np.float64)
        self._stone_textures = {} if texture is None else {s: np.array(m) for s, (m, _) in texture.stones.items()}
        n = len(model.empty)
        self._symbol = np.array(["?"] * n)
        self._run = np.zeros(n, dtype=np.int64)
        self.learned = 0

    @property
    def model(self) -> ColourModel:
        """The colour model as it stands now."""
        return self._model

    def read(self, image: np.ndarray) -> FrameReading:
        """Read ``image`` with the current model, then learn from it."""
        reading = self.reader.read(image)
        self.learn(image, reading)
        return reading

    def learn(self, image: np.ndarray, reading: FrameReading) -> int:
        """Update the model from the confidently and stably read cells of ``image``; returns how many."""
        config = self.config
        symbols = np.array(reading.symbols)
        confident = (np.array(reading.confidence) >= config.min_confidence) & (symbols != "?")
        steady = confident & (symbols == self._symbol)
        self._run = np.where(steady, self._run + 1, np.where(confident, 1, 0))
        self._symbol = symbols
        location = self.reader.location
        if reading.occluded or not reading.located or location is None or reading.change > config.still_lab:
            return 0
        stable = self._run >= config.stable_frames
        if not stable.any():
            return 0
        classifier = self.reader.classifier
        measures = self.reader.rectifier.measure(image, location.homography)
        lab = normalised_lab(measures, classifier.reference, self.reader.design, self.reader.config)
        distance = classifier.distances(lab)
        near = np.sqrt(distance[np.arange(len(symbols)), [self._column(s) for s in symbols]] / 3.0)
        learn = stable & (near <= config.max_distance)
        rate = config.rate
        empty = learn & (symbols == ".")
        self._empty[empty] += rate * (lab[empty] - self._empty[empty])
        texture = measures.texture
        if texture is not None and self._empty_texture is not None:
            self._empty_texture[empty] += rate * (texture[empty] - self._empty_texture[empty])
        for symbol, mean in self._means.items():
            cells = learn & (symbols == symbol)
            if cells.any():
                mean += rate * (lab[cells].mean(axis=0) - mean)
                if texture is not None and symbol in self._stone_textures:
                    self._stone_textures[symbol] += rate * (texture[cells].mean(axis=0) - self._stone_textures[symbol])
        count = int(learn.sum())
        if count:
            self._rebuild()
            self.learned += count
        return count

    def _column(self, symbol: str) -> int:
        names = self.reader.classifier.names
        return names.index(symbol) if symbol in names else 0

    def _rebuild(self) -> None:
        classes = {
            s: StoneColour(mean=tuple(float(v) for v in self._means[s]), sigma=c.sigma, count=c.count)  # type: ignore[arg-type]
            for s, c in self._model.classes.items()
        }
        empty = tuple(tuple(float(v) for v in row) for row in self._empty)
        texture = self._model.texture
        if texture is not None and self._empty_texture is not None:
            texture = TextureModel(
                empty=tuple(tuple(float(v) for v in row) for row in self._empty_texture),
                spread=texture.spread,
                stones={
                    s: (tuple(float(v) for v in self._stone_textures[s]), sigma)
                    for s, (_, sigma) in texture.stones.items()
                },
            )
        self._model = replace(self._model, empty=empty, classes=classes, texture=texture)  # type: ignore[arg-type]
        self.reader.classifier = Classifier(self._model, self.reader.config)
