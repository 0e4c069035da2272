"""Per-cell classification with a calibrated colour model.

Each cell's Lab measure (and, where the model has it, its texture: the
light-independent measures of :class:`~vision.measure.CellMeasures`) is
scored against the cell's own empty appearance and against every stone
colour of the model, as a Gaussian with a spread per channel and per
texture measure (never narrower than ``config.sigma_floor`` and
``config.texture_sigma_floor``). Each texture measure counts at most
``config.texture_max_penalty`` against a class, so that no single measure
(a neighbour's shadow on a rim, a lamp's reflection) decides alone; all but
a stone's rim seen weaker than its own, which counts in full: a stone's
outline shows against the board in any light (its shaded side against the
board, brighter still under glare), while glare can wash a bare cell flat
and white as a white stone. The bare board's own texture is compared as
washed out by the light over the cell and by blur (see
:meth:`Classifier.washed_empty`). Where the light fitted over a cell is in
doubt, a stone's lightness is held more loosely (see
:meth:`Classifier.stone_sigmas`). The symbol is the most likely class; its
posterior probability is the confidence, and a cell below
``config.min_confidence`` reads ``?``. A cell far from every class
(``config.outlier_distance``, in spreads) is *unexplained*: a hand, an arm or
a dark shadow over it. So is one whose nearest class is a little far in
colour (``config.odd_colour``) and far in texture (``config.odd_texture``):
skin as pale as the board shows neither a stone's rim nor the board's own
lines or grain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.colour_model import ColourModel
from vision.config import VisionConfig
from vision.measure import bgr_to_lab, lab_to_bgr

BALANCE_FLOOR = 1e-3
"""Least edge energy an edge balance takes a measure to have, so that a flat cell's balance stays finite."""


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
        self.empty_bgr = lab_to_bgr(self.empty)
        """Each cell's empty colour in BGR (0..1), calibration light."""
        self.empty_sigma = np.maximum(np.array(model.empty_sigma, dtype=np.float32), floor)
        self.means = np.array([c.mean for c in model.classes.values()], dtype=np.float32).reshape(-1, 3)
        self.sigmas = np.maximum(
            np.array([c.sigma for c in model.classes.values()], dtype=np.float32).reshape(-1, 3), floor
        )
        self.stones_bgr = lab_to_bgr(self.means) if len(self.means) else np.zeros((0, 3), np.float32)
        """Each stone colour in BGR (0..1), calibration light."""
        self.texture_mean: np.ndarray | None = None
        self.balance_mean: np.ndarray | None = None
        self.balance_sigma: np.ndarray | None = None
        """Each cell's edge balance for each class, and its spread (both N×classes), where the texture has a rim
        and a top measure (see :func:`_edge_balance`)."""
        texture = model.texture
        if texture is not None and all(s in texture.stones for s in model.classes):
            empty = np.array(texture.empty, dtype=np.float32)
            stones = np.array([texture.stones[s][0] for s in model.classes], dtype=np.float32).reshape(
                -1, empty.shape[1]
            )
            spread = np.array([texture.stones[s][1] for s in model.classes], dtype=np.float32).reshape(stones.shape)
            # N × classes × T: each cell's own empty texture, then every stone colour's
            self.texture_mean = np.concatenate(
                [empty[:, None, :], np.broadcast_to(stones, (len(empty), *stones.shape))], 1
            )
            sigma = np.vstack([np.array(texture.spread, dtype=np.float32), spread])
            floor = np.maximum(
                self.config.texture_sigma_floor,
                self.config.texture_relative_floor * np.abs(np.vstack([empty.mean(axis=0), stones])),
            )
            self.texture_sigma = np.maximum(sigma, floor)
            self.balance_mean, self.balance_sigma = _edge_balance(
                self.texture_mean, np.broadcast_to(self.texture_sigma, self.texture_mean.shape)
            )

    def distances(
        self, lab: np.ndarray, stone_lab: np.ndarray | None = None, light_doubt: np.ndarray | None = None
    ) -> np.ndarray:
        """Squared normalised distance of each cell (rows) to each class (columns, ``names`` order).

        ``stone_lab``, when given, is the colour the stone classes are judged
        on (the light removed as it falls on a stone rather than on the bare
        board); ``lab`` otherwise. ``light_doubt`` (N), when given, widens
        the stones' lightness spreads (see :meth:`stone_sigmas`).
        """
        return self._distances(lab, stone_lab, self.stone_sigmas(light_doubt))

    def _distances(self, lab: np.ndarray, stone_lab: np.ndarray | None, stone_sigmas: np.ndarray) -> np.ndarray:
        stone_lab = lab if stone_lab is None else stone_lab
        d_empty = self.empty_distances(lab)
        d_stones = (((stone_lab[:, None, :] - self.means[None, :, :]) / stone_sigmas) ** 2).sum(axis=2)
        return np.column_stack([d_empty, d_stones])

    def stone_sigmas(self, light_doubt: np.ndarray | None = None) -> np.ndarray:
        """The stone colours' spreads (1×classes×3, or N×classes×3 with ``light_doubt``).

        ``light_doubt`` (N, ≥ 0) is how far (as a log ratio) each cell's light
        may be off. The board's light is measured on the bare board, and a
        stone shows only part of it: a lamp's reflection the light model took
        for light over the board brightens the board, not the stone, which
        then reads darker. A stone's lightness spread widens by the most
        lightness its colour gains or loses under that much more or less light.
        The empty colour is judged on the same light it was measured from,
        and keeps its spread.
        """
        sigmas = self.sigmas[None, :, :]
        if light_doubt is None or not len(self.means):
            return sigmas
        doubt = np.asarray(light_doubt, dtype=np.float32)
        wide = np.broadcast_to(sigmas, (len(doubt), *self.sigmas.shape)).copy()
        if not doubt.any():
            return wide
        ratio = np.exp(doubt)[:, None, None]
        stones = self.stones_bgr[None, :, :]
        darker = bgr_to_lab((stones / ratio).reshape(-1, 3))[:, 0].reshape(wide.shape[:2])
        brighter = bgr_to_lab((stones * ratio).reshape(-1, 3))[:, 0].reshape(wide.shape[:2])
        lightness = self.means[None, :, 0]
        shift = np.maximum(lightness - darker, brighter - lightness)
        wide[..., 0] = np.sqrt(wide[..., 0] ** 2 + shift**2)
        return wide

    def empty_distances(self, lab: np.ndarray) -> np.ndarray:
        """Squared normalised distance of each cell's Lab measure (N×3) to its own empty colour."""
        return (((lab - self.empty) / self.empty_sigma) ** 2).sum(axis=1)

    def washed_empty(self, texture: np.ndarray, wash: np.ndarray) -> np.ndarray:
        """Each cell's empty texture (N×3: rim, top, dark share) washed out as far as best explains the cell's
        ``texture`` (N×3, NaN where not seen), but no further than ``wash`` (N, 0..1; 1: not at all).

        Light added evenly over a cell, or a blur, keeps the bare board's
        pattern but weakens it: a wash ``s`` scales both edge energies by
        ``s`` and moves the dark share ``d`` to ``1 - s·(1 - d)``. The best
        ``s`` is a weighted least-squares fit (each measure by its spread).
        A stone's texture is never washed: its outline and its shade stand
        out of the board's glare (a stone hides it), and a blur weakens them
        far less than a board's fine lines.
        """
        assert self.texture_mean is not None
        mean = self.texture_mean[:, 0, :]
        # texture ≈ base + s·slope
        base = np.zeros_like(mean)
        base[:, 2] = 1.0
        slope = mean - base
        weight = np.isfinite(texture) / self.texture_sigma[0] ** 2
        seen = np.nan_to_num(texture - base, nan=0.0)
        fit = (weight * seen * slope).sum(axis=1)
        norm = (weight * slope * slope).sum(axis=1)
        s = np.where(norm > 0, fit / np.maximum(norm, 1e-12), 1.0)
        return base + np.clip(s, wash, 1.0)[:, None] * slope

    def texture_distances(self, texture: np.ndarray | None, wash: np.ndarray | None = None) -> np.ndarray:
        """Squared normalised distance of each cell's texture (N×T) to each class, each measure capped
        at ``config.texture_max_penalty`` (but a stone's weak rim); zeros without a texture model or measure, and
        for a measure that is NaN (not seen). With ``wash`` (N), each cell's empty texture is first washed out
        (see :meth:`washed_empty`)."""
        if self.texture_mean is None or texture is None:
            return np.zeros((0 if texture is None else len(texture), len(self.names)))
        mean = self.texture_mean
        if wash is not None and mean.shape[2] == 3:
            mean = mean.copy()
            mean[:, 0, :] = self.washed_empty(texture, wash)
        z = (texture[:, None, :] - mean) / self.texture_sigma[None, :, :]
        d2 = np.minimum(z**2, self.config.texture_max_penalty)
        # a stone's outline shows against the board in any light: a stone's rim weaker than its own counts in full
        d2[:, 1:, 0] = np.where(z[:, 1:, 0] < 0, z[:, 1:, 0] ** 2, d2[:, 1:, 0])
        d2 = np.nan_to_num(d2, nan=0.0).sum(axis=2)
        if self.balance_mean is None or self.balance_sigma is None:
            return d2
        seen, _ = _edge_balance(texture[:, None, :])
        assert seen is not None
        # a stone's top may be smoother against its rim than calibrated, never rougher
        zb = (seen - self.balance_mean) / self.balance_sigma
        zb[:, 1:] = np.minimum(zb[:, 1:], 0.0)
        return d2 + np.nan_to_num(np.minimum(zb**2, self.config.texture_max_penalty), nan=0.0)

    def classify(
        self,
        lab: np.ndarray,
        texture: np.ndarray | None = None,
        stone_lab: np.ndarray | None = None,
        wash: np.ndarray | None = None,
        light_doubt: np.ndarray | None = None,
    ) -> CellClasses:
        """Classify each cell from its Lab measure (an N×3 array) and, when given, its texture (N×T), the
        colour to judge stones on (N×3, see :meth:`distances`), how far the bare board's texture may be washed
        out (N, see :meth:`washed_empty`) and how far each cell's light may be off (N, see
        :meth:`stone_sigmas`)."""
        stone_sigmas = self.stone_sigmas(light_doubt)
        colour_d2 = self._distances(lab, stone_lab, stone_sigmas)
        stone_norm = np.log(stone_sigmas).sum(axis=2)
        empty_norm = np.full((len(stone_norm), 1), np.log(self.empty_sigma).sum())
        log_norm = np.concatenate([empty_norm, stone_norm], axis=1)
        d2 = colour_d2
        if texture is not None and self.texture_mean is not None:
            d2 = colour_d2 + self.texture_distances(texture, wash)
            log_norm = log_norm + np.log(self.texture_sigma).sum(axis=1)[None, :]
        # the edge balance is no measure of its own but of the rim and top against each other: its spreads come
        # from theirs, already counted in the norm
        loglik = -0.5 * d2 - log_norm
        loglik -= loglik.max(axis=1, keepdims=True)
        post = np.exp(loglik)
        post /= post.sum(axis=1, keepdims=True)
        best = post.argmax(axis=1)
        conf = post[np.arange(len(best)), best]
        best_d = np.sqrt(colour_d2[np.arange(len(best)), best] / 3.0)
        unexplained = best_d > self.config.outlier_distance
        if texture is not None and self.texture_mean is not None:
            # skin as pale as the board: near no class in colour, and far from the nearest in texture
            texture_d2 = (d2 - colour_d2)[np.arange(len(best)), best]
            unexplained |= (best_d > self.config.odd_colour) & (texture_d2 > self.config.odd_texture)
        symbols = tuple(
            self.names[b] if c >= self.config.min_confidence else "?" for b, c in zip(best, conf, strict=True)
        )
        return CellClasses(
            symbols=symbols,
            confidence=tuple(float(c) for c in conf),
            unexplained=unexplained,
            distance=best_d,
        )


def _edge_balance(mean: np.ndarray, sigma: np.ndarray | None = None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The edge balance of texture measures (…×T): the log of the rim's edge energy over the top's, and its
    spread from the measures' spreads (``sigma``, …×T), or None for either when there is no rim and top
    measure (or no spread given).

    Both edge energies are gradients over brightness, and the rim and the top
    of a cell are about as bright: a glare the light model missed adds white
    light to both, which lowers each measure but leaves their balance. An
    empty square under glare loses its texture; a white stone keeps its
    shaded rim against its smooth top. A stone's top may show smoother still
    (a frame sharper than calibration's), so a stone is only held to a
    balance at least its own.
    """
    if mean.shape[-1] < 2:
        return None, None
    rim, top = np.maximum(mean[..., 0], BALANCE_FLOOR), np.maximum(mean[..., 1], BALANCE_FLOOR)
    balance = np.log(rim / top)
    if sigma is None:
        return balance, None
    spread = np.sqrt((sigma[..., 0] / rim) ** 2 + (sigma[..., 1] / top) ** 2)
    return balance, spread
