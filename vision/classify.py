"""Per-cell classification with a calibrated colour model.

Each cell's Lab measure (and, where the model has it, the edge energy on
the ring of a stone's rim) is scored against the cell's own empty appearance and
against every stone colour of the model, as a Gaussian with per-channel
spread (never narrower than ``config.sigma_floor``). The symbol is the most
likely class; its posterior probability is the confidence, and a cell below
``config.min_confidence`` reads ``?``. A cell far from every class
(``config.outlier_distance``, in spreads) is *unexplained*: a hand, an arm or
a dark shadow over it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.colour_model import ColourModel
from vision.config import VisionConfig


@dataclass(frozen=True, eq=False)
class CellClasses:
    """Classification of every cell of one frame.

    ``symbols`` one of ``. o x = ?`` per cell; ``confidence`` the posterior
    of the chosen class; ``unexplained`` a boolean array, True where no class
    fits; ``distance`` each cell's normalised distance to its best class.
    """

    symbols: tuple[str, ...]
    confidence: tuple[float, ...]
    unexplained: np.ndarray
    distance: np.ndarray


class Classifier:
    """Scores cell measures against a colour model; built once, used every frame."""

    def __init__(self, model: ColourModel, config: VisionConfig | None = None) -> None:
        self.config = config or VisionConfig()
        self.reference = np.array(model.background, dtype=np.float32)
        floor = self.config.sigma_floor
        self.names = (".", *model.classes)
        self.empty = np.array(model.empty, dtype=np.float32)
        self.empty_sigma = np.maximum(np.array(model.empty_sigma, dtype=np.float32), floor)
        self.means = np.array([c.mean for c in model.classes.values()], dtype=np.float32).reshape(-1, 3)
        self.sigmas = np.maximum(
            np.array([c.sigma for c in model.classes.values()], dtype=np.float32).reshape(-1, 3), floor
        )
        self.rim_empty: np.ndarray | None = None
        if model.rim_empty is not None and model.rim_spread is not None and model.stone_rims is not None:
            self.rim_empty = np.array(model.rim_empty, dtype=np.float32)
            self.rim_sigma = max(model.rim_spread, self.config.rim_sigma_floor)
            share = self.config.rim_low_share
            self.rim_low = np.array([share * model.stone_rims.get(s, 0.0) for s in model.classes], dtype=np.float32)

    def distances(self, lab: np.ndarray) -> np.ndarray:
        """Squared normalised distance of each cell (rows) to each class (columns, ``names`` order)."""
        d_empty = (((lab - self.empty) / self.empty_sigma) ** 2).sum(axis=1)
        d_stones = (((lab[:, None, :] - self.means[None, :, :]) / self.sigmas[None, :, :]) ** 2).sum(axis=2)
        return np.column_stack([d_empty, d_stones])

    def rim_distances(self, rim: np.ndarray) -> np.ndarray:
        """Squared normalised distance of each cell's rim edge energy to each class (zeros without a rim model).

        An empty cell's rim should match its calibrated value; a stone's
        should reach at least ``rim_low_share`` of its colour's value (more
        is never held against it: shadows and neighbours add edges). Edges
        also come from a neighbour's stone or shadow reaching into the ring, so
        the rim's evidence is capped at ``config.rim_max_penalty``: it decides
        where the colours are alike (white on a light square) and yields where
        the colour is plain.
        """
        out = np.zeros((len(rim), len(self.names)), dtype=np.float64)
        if self.rim_empty is None:
            return out
        out[:, 0] = ((rim - self.rim_empty) / self.rim_sigma) ** 2
        low = self.rim_low[None, :]
        out[:, 1:] = (np.maximum(low - rim[:, None], 0.0) / np.maximum(0.5 * low, 1e-3)) ** 2
        return np.minimum(out, self.config.rim_max_penalty)

    def classify(self, lab: np.ndarray, rim: np.ndarray | None = None) -> CellClasses:
        """Classify each cell from its Lab measure (an N×3 array) and, when given, its rim edge energy (N)."""
        colour_d2 = self.distances(lab)
        d2 = colour_d2 if rim is None else colour_d2 + self.rim_distances(rim)
        log_norm = np.concatenate([[np.log(self.empty_sigma).sum()], np.log(self.sigmas).sum(axis=1)])
        loglik = -0.5 * d2 - log_norm[None, :]
        loglik -= loglik.max(axis=1, keepdims=True)
        post = np.exp(loglik)
        post /= post.sum(axis=1, keepdims=True)
        best = post.argmax(axis=1)
        conf = post[np.arange(len(best)), best]
        best_d = np.sqrt(colour_d2[np.arange(len(best)), best] / 3.0)
        symbols = tuple(
            self.names[b] if c >= self.config.min_confidence else "?" for b, c in zip(best, conf, strict=True)
        )
        return CellClasses(
            symbols=symbols,
            confidence=tuple(float(c) for c in conf),
            unexplained=best_d > self.config.outlier_distance,
            distance=best_d,
        )
