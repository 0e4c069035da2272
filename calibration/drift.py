"""Light that changes during a game: the board model follows it slowly.

The reader fits every frame's light as a smooth field over the board
(:mod:`vision.cells`), the same for every cell and every piece. That undoes
a brighter or dimmer lamp, but not everything: a warm lamp tints white
stones, red stones and the board each its own way, a lamp brighter than at
calibration blows out the white stones and the light cells, shadows move.
:class:`LightFollower` wraps a :class:`~vision.pipeline.BoardReader` and,
after every frame, nudges the reader's :class:`~vision.model.BoardModel`
towards what the cells showed (:meth:`~vision.pipeline.BoardReader.last_features`,
with the frame's light already taken out), learning only from cells read
confidently and stably:

- a cell counts when the frame is neither occluded nor moving, and the cell
  has read the same symbol, each time with at least ``min_confidence``, for
  ``stable_frames`` frames in a row;
- what it shows must also lie within ``max_distance`` spreads of its class
  (its own empty look, or its stone colour), so that a stone that has just
  been put down or a passing shadow teaches nothing;
- an empty cell moves its own empty look, a stone its colour's mean, each
  by ``rate`` of the way per frame (an exponential moving average), so a
  game that starts in daylight and ends under a lamp keeps reading right,
  while a single odd frame changes almost nothing. Spreads stay as
  calibrated.

The nudged model goes back to the reader (:meth:`~vision.pipeline.BoardReader.use_model`);
:attr:`LightFollower.model` is the model as it stands.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.model import BoardModel, StoneLook, as_vector, like_groups
from vision.pipeline import BoardReader, FrameReading


@dataclass(frozen=True)
class DriftConfig:
    """How the board model follows the light (see the module docstring).

    ``rate``: share of the way to the new look per frame. ``min_confidence``:
    least confidence of a reading to learn from. ``stable_frames``: frames in a
    row a cell must have read the same. ``max_distance``: largest distance
    (root mean square, in spreads per feature) from its class a cell may show
    to be learned from. ``still_lab``: largest change of any cell between
    frames (Lab units) for the board to count as still.
    """

    rate: float = 0.1
    min_confidence: float = 0.9
    stable_frames: int = 3
    max_distance: float = 3.0
    still_lab: float = 8.0


class LightFollower:
    """Reads frames with a board reader and lets its board model follow the light (see the module docstring)."""

    def __init__(self, reader: BoardReader, config: DriftConfig | None = None) -> None:
        self.reader = reader
        self.config = config or DriftConfig()
        n = len(reader.model.empty)
        self._symbol = np.array(["?"] * n)
        self._run = np.zeros(n, dtype=np.int64)
        self.learned = 0
        """How many cell looks the model has learned from so far."""

    @property
    def model(self) -> BoardModel:
        """The board model as it stands now (the reader's)."""
        return self.reader.model

    def read(self, image: np.ndarray) -> FrameReading:
        """Read ``image`` with the current model, then learn from it."""
        reading = self.reader.read(image)
        self.learn(reading)
        return reading

    def learn(self, reading: FrameReading) -> int:
        """Nudge the model towards the confidently and stably read cells of ``reading``, the reader's last frame;
        returns how many cells it learned from."""
        config = self.config
        symbols = np.array(reading.symbols)
        confident = (np.array(reading.confidence) >= config.min_confidence) & (symbols != "?")
        steady = confident & (symbols == self._symbol)
        self._run = np.where(steady, self._run + 1, np.where(confident, 1, 0))
        self._symbol = symbols
        seen = self.reader.last_features()
        if reading.occluded or not reading.located or seen is None or reading.change > config.still_lab:
            return 0
        model = self.model
        learn = (self._run >= config.stable_frames) & (_distances(model, seen, symbols) <= config.max_distance)
        count = int(learn.sum())
        if count == 0:
            return 0
        rate = config.rate
        empty = np.array(model.empty, dtype=np.float64)
        cells = learn & (symbols == ".")
        empty[cells] += rate * (seen[cells] - empty[cells])
        stones = _nudged(model.stones, learn, symbols, seen, rate)
        ball_looks = model.ball_looks
        if ball_looks is not None:
            squares = like_groups(self.reader.geometry)
            ball_looks = tuple(
                _nudged(on, learn & (squares == g), symbols, seen, rate) for g, on in enumerate(ball_looks)
            )
        self.reader.use_model(
            replace(model, empty=tuple(as_vector(row) for row in empty), stones=stones, ball_looks=ball_looks)
        )
        self.learned += count
        return count


def _nudged(
    looks: dict[str, StoneLook], learn: np.ndarray, symbols: np.ndarray, seen: np.ndarray, rate: float
) -> dict[str, StoneLook]:
    """The stone ``looks`` each moved by ``rate`` towards the mean of the cells it learns from (``learn`` and read as
    it: ``symbols``, their features ``seen``)."""
    out = dict(looks)
    for symbol, look in looks.items():
        cells = learn & (symbols == symbol)
        if cells.any():
            mean = np.array(look.mean, dtype=np.float64)
            out[symbol] = replace(look, mean=as_vector(mean + rate * (seen[cells].mean(axis=0) - mean)))
    return out


def _distances(model: BoardModel, seen: np.ndarray, symbols: np.ndarray) -> np.ndarray:
    """How far (root mean square, in spreads per feature) each cell's look lies from its class's; infinite for a
    cell read ``?`` or as a stone colour the model does not hold."""
    n, width = seen.shape
    out = np.full(n, np.inf)
    empty_cov = np.array(model.empty_spread, dtype=np.float64)
    like_cov = np.array(model.like_spread, dtype=np.float64)
    empty = np.array(model.empty, dtype=np.float64)
    for i in np.flatnonzero(symbols == "."):
        cov = empty_cov if model.empty_seen[i] else empty_cov + like_cov
        d = seen[i] - empty[i]
        out[i] = float(d @ np.linalg.solve(cov, d))
    for symbol, look in model.stones.items():
        cells = np.flatnonzero(symbols == symbol)
        if cells.size:
            d = seen[cells] - np.array(look.mean, dtype=np.float64)
            out[cells] = np.einsum("nf,nf->n", d, np.linalg.solve(np.array(look.spread, dtype=np.float64), d.T).T)
    return np.sqrt(out / width)
