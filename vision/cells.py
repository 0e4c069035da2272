"""Deciding every cell of one frame: the frame's light, then the most likely piece on each cell.

How one cell is decided (the whole of it):

1. It is seen (:meth:`vision.board_image.BoardView.features`: colour and
   texture) where a piece's top would appear (:mod:`vision.pose`), and at
   points around it up to ``search`` board units away: a stone may lie off
   its cell's centre.
2. The frame's light is a smooth field over the board (per channel, a
   quadratic in board position, additive in log colour): what turns
   calibration's colours into this frame's. It is fitted to the cells
   themselves: given each cell's most likely piece, the field that best
   explains what the cells show, each counting less the further it lies off
   the field (glare, a shadow); then the pieces are decided again under it.
   A frame seen cold takes the field's shape from the bare board between the
   cells first (:meth:`CellJudge._light_between`), which needs no reading.
3. Each class scores by its likelihood (the stone colours first moved
   towards what the frame's surest stones of each show, see
   :meth:`CellJudge._adapted_means`): the cell's own empty look at its
   point; each stone colour at the offset where it fits best, less what so
   far an offset costs (stones lie near their point: a Gaussian prior of
   spread ``search / 2``). Colour and texture each count as a Student-t
   (``TAILS`` degrees of freedom) about the class's mean and spread: a
   neighbour's shadow over a cell, a highlight or a speck of grain moves one
   feature far, and should cost a class much less than a wholly other look.
4. Two stones cannot overlap: where neighbouring cells both found a stone
   and the two lie closer than ``1.5 × stone radius``, the stone belongs to
   the cell that explains it better, and the other cell is decided again
   without the offsets that reach into it (the side and shadow of a
   neighbour's stone are no stone of one's own).
5. The most likely class wins; its posterior is the confidence, and below
   ``min_confidence`` the cell reads ``?``. A cell that neither the bare
   board anywhere in its reach nor any stone explains within ``outlier``
   spreads, in colour and in texture alike, is *unexplained*: a hand or an
   object over it (pale skin over a pale board matches its colour, not its
   grain or lines; a stone's colour, not its outline). Under a tinted lamp
   calibration's looks explain no bare cell, so the frame's own look of each
   piece may explain it too (:func:`vision.own_look.own_distance`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

import numpy as np

from vision.board_image import BRIGHTEST, DARKEST, EDGE_ENERGIES, FEATURE_NAMES, at_full_scale, tells_light
from vision.median import median
from vision.model import BoardModel, StoneLook
from vision.own_look import TAILS, BareBoard, bare_by_texture, own_distance, own_reading
from vision.surface import lamp_hue, lit_surface

WARM_ROUNDS = 1
"""Rounds when starting from an earlier frame's light, which is most often nearly this frame's: a second
changed no reading of ``cascade bench vision`` (500 frames, and ``diamond:8``) and cost 0.7–0.9 ms a frame."""
LIGHT_COLUMNS = 3
"""The light field's columns: blue, green and red light."""
LIGHT_ROUNDS = 3
"""Rounds of fitting the light to the cells' pieces and deciding the pieces under it."""
RIDGE = 1.0
"""How strongly the light field's slopes and curvature are held towards flat (in cells' worth of evidence)."""
ADAPT_ROUNDS = 2
"""Rounds of letting the stone colours follow what the frame's sure stones show."""
ADAPT_PRIOR = 3.0
"""How many sure stones weigh as much as calibration's colour, when a stone colour follows the frame."""
ADAPT_STILL = 0.01
"""A stone colour moved less than this (log colour) by the frame's stones is left where it is."""
SURE = 0.95
"""A cell read with at least this posterior is a sure example of its class."""
LIGHT_SPREAD = 0.1
"""How far (log colour) a cell may lie off the fitted light and still count fully in the next fit."""
FOLLOWED = 3.0
"""The farthest (in ``LIGHT_SPREAD``, root mean square over the cells) a frame's light moves from the frame
before's and was followed there: the warm fit starts from the earlier light and weighs each cell by how near
it lies (a Cauchy weight, a tenth at three spreads), so beyond that it no longer sees the board, only the
cells that happen to match. On the synthetic bench's clear frames the light moves up to 2.7 spreads between
frames of a scene and is followed; a lamp switched on over ``go-coloured-light``'s game 1 moves it 8 to 11,
where the warm fit settled on every bare point as a white stone in a dimmer light (see
:meth:`Light.moved_from`)."""
CONTRAST_RIDGE = 10.0
"""How strongly a frame's contrast is held towards calibration's (in cells' worth of evidence)."""
CONTRAST_FLOOR = 0.05
"""Below this contrast a channel is taken to say nothing of calibration's colours."""
CONTRASTS = (1.0, 0.5, 0.1)
"""The contrasts per channel a frame's light is first tried with, when no earlier frame's light is known."""
CONTRAST_GRID = tuple(itertools.product(CONTRASTS, repeat=3))
TEXTURE_GAINS = (1.0, 0.5, 0.25)
"""The texture gains a frame's light is first tried with (see :class:`Light`)."""
TEXTURE_NOISES = (0.0, 0.15, 0.3, 0.45)
"""The texture noise floors a frame's light is first tried with (edge energy, see :class:`Light`)."""
TEXTURE_GRID = tuple(itertools.product(TEXTURE_GAINS, TEXTURE_NOISES))
VOTE_CHUNK = 256
"""Candidates weighed at once in the light's vote (bounds its memory)."""
OVERLAP = 1.5
"""Two stones whose found centres lie closer than this many stone radii would overlap."""
BLOCKS = (slice(0, 3), slice(3, None))
"""The feature blocks that count on their own: colour, then texture."""
LOCAL_REACH = 1.0
"""How far one cell's bare board tells another's light (the Gaussian's spread, in pitches: the least distance
between two cells), over the cells within ``2 * LOCAL_REACH``: a lamp's spot spans a few cells, a stone one.
On ``go-coloured-light`` 0.7 and 1.5 read 17 and 19 wrong cells against 12."""

GLARE_COST = 10.0
"""What glare costs the bare board's likelihood, per unit of white light (0..1) it adds over the cell."""
GLARE_TEXTURE = 0.04
"""The share of a cell's light that glare adds that makes its texture one spread less certain (a
lamp's spot or a shadow's edge adds a slope of its own over the cell)."""


@dataclass(frozen=True, eq=False)
class Light:
    """A frame's light: what turns calibration's colours into this frame's.

    ``field``: a smooth field over the board (terms × ``LIGHT_COLUMNS``, see
    :func:`light_terms`), added to the log colour of every cell and piece;
    ``contrast``: per channel, how much of calibration's differences between
    colours (about the board's own colour) the frame still shows. A camera's
    tone curve and a lamp of narrow colour both change it: under a blue lamp
    the red channel of every piece is nearly the same dark.
    ``texture``: how the light changes texture, as a gain on calibration's
    and a noise floor, ``(gain, noise)``: a lamp of narrow colour leaves a
    Go board's lines faint, a dim one adds the camera's noise to the
    smoothest stone.
    """

    field: np.ndarray
    contrast: np.ndarray
    texture: np.ndarray

    @classmethod
    def plain(cls, terms: int) -> Light:
        """Calibration's own light."""
        return cls(np.zeros((terms, LIGHT_COLUMNS)), np.ones(LIGHT_COLUMNS), np.array([1.0, 0.0]))

    def moved_from(self, other: Light, terms: np.ndarray) -> float:
        """How far this light's field lies from ``other``'s (log colour, root mean square over the cells whose
        field terms are ``terms`` and the channels)."""
        change = terms @ (self.field - other.field)
        return float(np.sqrt((change**2).mean()))

    def show(self, texture: np.ndarray) -> np.ndarray:
        """Calibration's texture measures (…×T) as this light shows them: each scaled by the gain, and the
        edge energies (never below the noise floor) added to the noise in quadrature."""
        gain, noise = self.texture
        out = np.asarray(texture, dtype=np.float64) * gain
        energies = [i - 3 for i in EDGE_ENERGIES if 0 <= i - 3 < out.shape[-1]]
        out[..., energies] = np.sqrt(out[..., energies] ** 2 + noise**2)
        return out

    def unshow(self, texture: np.ndarray) -> np.ndarray:
        """The inverse of :meth:`show`: what texture measures seen in this light were in calibration's."""
        gain, noise = self.texture
        out = np.array(texture, dtype=np.float64, copy=True)
        energies = [i - 3 for i in EDGE_ENERGIES if 0 <= i - 3 < out.shape[-1]]
        out[..., energies] = np.sqrt(np.maximum(out[..., energies] ** 2 - noise**2, 0.0))
        return out / max(gain, CONTRAST_FLOOR)


@dataclass(frozen=True, eq=False)
class CellVerdicts:
    """What every cell of a frame holds.

    ``symbols``: ``. o x = ?`` per cell; ``confidence``: the posterior of
    the chosen class; ``unexplained``: cells nothing explains;
    ``distance``: each cell's distance (in spreads) to the nearest class;
    ``light``: the fitted light field's coefficients (terms ×
    ``LIGHT_COLUMNS``: light per colour channel), to start the next frame
    from; ``offsets``: where each cell's piece was found
    (N×2, board units from its point; zero for empty cells), and ``found``
    the index of that offset among the judge's; ``calibrated``: each
    cell's likeliest class by calibration's looks alone.
    """

    symbols: tuple[str, ...]
    confidence: tuple[float, ...]
    unexplained: np.ndarray
    distance: np.ndarray
    light: Light
    offsets: np.ndarray
    found: np.ndarray
    calibrated: tuple[str, ...]
    """The likeliest class of each cell by calibration's looks alone, before the frame's own look settled
    the reading (:mod:`vision.own_look`)."""
    classes: np.ndarray
    """The class (index among the judge's names) the frame's own look settled each cell on, undecided ones
    too: the next frame's own look starts from it as well."""


OUTLINED = (FEATURE_NAMES.index("top edges"), FEATURE_NAMES.index("rim edges"))
"""The features a neighbour's outline raises where it lies over a cell: the edge energies over the top and the rim."""


def near_offsets(offsets: np.ndarray) -> np.ndarray:
    """Which search offsets (K×2, the first zero) lie within half the reach of the farthest: where the bare board
    of an empty cell is looked for (indices)."""
    length = np.sqrt((np.asarray(offsets, dtype=np.float64) ** 2).sum(axis=1))
    return np.flatnonzero(length <= length.max() / 2.0 + 1e-9)


def own_features(seen: np.ndarray, near: np.ndarray, points: bool) -> np.ndarray:
    """What the frame's own look sees of each cell (N×F) of what the cells show at each offset (``seen``, N×K×F):
    what its point shows, and on a board of points (``points``) its edge energies over the top and the rim
    (``OUTLINED``) as their median over the offsets ``near`` its point (where the bare board is looked for).
    Go stones touch: a neighbour lying a little towards a bare point lays its outline over one side of it,
    and the steps to the other sides show the point's own lines; a stone's own outline shows at most steps.
    On a board of cells a piece keeps to its cell."""
    own = seen[:, 0, :]
    if not points:
        return own
    own = own.copy()
    outlined = list(OUTLINED)
    own[:, outlined] = median(seen[:, near][:, :, outlined], axis=1)
    return own


def _tails(d2_blocks: list[np.ndarray], blocks: list[slice], width: int) -> np.ndarray:
    """The log-likelihood (up to the spreads' norm) of squared distances in each feature block under a
    Student-t of ``TAILS`` degrees of freedom."""
    total = np.zeros_like(d2_blocks[0])
    for d2, b in zip(d2_blocks, blocks, strict=True):
        dims = len(range(width)[b])
        total = total - 0.5 * (TAILS + dims) * np.log1p(d2 / TAILS)
    return total


def _quadratic(d: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Each ``d·inv·d`` (…×K) of differences ``d`` (…×K×F) under one inverse spread (F×F) or each cell's, or each
    class's (…×F×F, broadcast as :func:`numpy.matmul` does)."""
    return np.asarray((np.matmul(d, inv) * d).sum(axis=-1))


def _shown(mean: np.ndarray, field: np.ndarray) -> np.ndarray:
    """A class's mean (F), or several classes' (C×F), as each cell can show it under the light ``field`` (N×3),
    less that light (N×F, or C×N×F): the camera shows no channel darker than black nor brighter than full
    scale."""
    mean = np.asarray(mean)
    out = np.broadcast_to(mean[..., None, :], (*mean.shape[:-1], len(field), mean.shape[-1])).copy()
    out[..., :3] = np.clip(mean[..., None, :3] + field[:, :3], DARKEST, BRIGHTEST) - field[:, :3]
    return out


def _stone_arrays(
    looks: list[StoneLook], width: int, blocks: list[slice]
) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
    """The means (C×F), inverse spreads (per feature block, C×B×B) and norms (C) of stone ``looks``."""
    means = np.array([s.mean for s in looks], dtype=np.float64).reshape(-1, width)
    spreads = np.array([s.spread for s in looks], dtype=np.float64).reshape(-1, width, width)
    inverses = [np.linalg.inv(spreads[:, b, b]) if len(spreads) else spreads for b in blocks]
    norm = sum(0.5 * np.linalg.slogdet(spreads[:, b, b])[1] for b in blocks) if len(spreads) else np.zeros(0)
    return means, inverses, np.asarray(norm, dtype=np.float64)


def _near_light(off: np.ndarray) -> np.ndarray:
    """How fully each cell (N) counts in a fit of the light, by how far its colour lies off it (``off``, N×3 log):
    a Cauchy weight of scale ``LIGHT_SPREAD`` on the root mean square over the channels."""
    return 1.0 / (1.0 + ((off / LIGHT_SPREAD) ** 2).mean(axis=1))


def _bare_beside(labels: np.ndarray, colour: np.ndarray, between: np.ndarray) -> np.ndarray:
    """A reading (N classes) from ``labels``, with every cell read as a stone whose colour (``colour``, N×3 log)
    lies within ``LIGHT_SPREAD`` (root mean square over the channels) of the bare board beside it (``between``,
    N×3, NaN where the cell has no corner on the board) read bare instead: a lamp's spot makes bare points look
    like white stones to calibration's looks, and the board beside them shows them as what they are."""
    told = np.isfinite(between).all(axis=1)
    off = colour - np.where(told[:, None], between, 0.0)
    near = told & (np.sqrt((off**2).mean(axis=1)) < LIGHT_SPREAD)
    return np.where(near, 0, labels)


def _worst_block(parts: list[np.ndarray], blocks: list[slice], width: int) -> np.ndarray:
    """The mean squared distance per feature of the worst-fitting block (N×K): a class explains a cell only when
    it explains both its colour and its texture."""
    return np.maximum.reduce([part / len(range(width)[b]) for part, b in zip(parts, blocks, strict=True)])


def field_offsets(field: np.ndarray, width: int) -> np.ndarray:
    """What a light field (…×``LIGHT_COLUMNS``: blue, green and red light) adds to each feature (…×``width``):
    the light to the log colour, nothing to the texture, whose measures are ratios no light moves."""
    out = np.zeros((*field.shape[:-1], width))
    out[..., :3] = field[..., :3]
    return out


def field_columns(residual: np.ndarray) -> np.ndarray:
    """Features' differences (…×F) as what the light field's columns explain of them (…×``LIGHT_COLUMNS``)."""
    return residual[..., :3]


def nearby_weights(centres: np.ndarray) -> np.ndarray:
    """How much each cell's bare board tells of each other cell's light (N×N, nothing of its own): a Gaussian of
    ``LOCAL_REACH`` pitches (the least distance between two cells), over the cells within twice that."""
    cells = np.asarray(centres, dtype=np.float64)
    d2 = ((cells[:, None, :] - cells[None, :, :]) ** 2).sum(axis=-1)
    if len(cells) < 2:
        return np.zeros_like(d2)
    pitch2 = float(d2[d2 > 1e-12].min()) * LOCAL_REACH**2
    weight = np.exp(-d2 / (2.0 * pitch2))
    weight[d2 > 4.0 * pitch2 * (1.0 + 1e-9)] = 0.0
    np.fill_diagonal(weight, 0.0)
    return weight


def light_terms(centres: np.ndarray, points: np.ndarray | None = None) -> np.ndarray:
    """The light field's design matrix (M×6) at board ``points`` (the ``centres`` themselves when None):
    1, u, v, u², uv, v² with u, v the points centred on the cells and scaled to about ±1 over them."""
    cells = np.asarray(centres, dtype=np.float64)
    pts = cells if points is None else np.asarray(points, dtype=np.float64)
    mid = (cells.max(axis=0) + cells.min(axis=0)) / 2.0
    half = max(float((cells.max(axis=0) - cells.min(axis=0)).max()) / 2.0, 1e-6)
    u, v = ((pts - mid) / half).T
    return np.column_stack([np.ones(len(pts)), u, v, u * u, u * v, v * v])


@dataclass(frozen=True, eq=False)
class _Bare:
    """The bare board in one light: its log-likelihood at each cell's point (N), how near it comes anywhere
    within half the reach (N, the mean squared spreads per feature in its worst block), and its look at each
    cell's point (N×F). It depends on the light alone, not on the stones' looks."""

    loglik: np.ndarray
    nearest: np.ndarray
    look: np.ndarray


@dataclass(frozen=True, eq=False)
class _Scores:
    """Every class's log-likelihood per cell (N×C, at its best offset), the best offset's index per class
    (N×C), how near the nearest class comes anywhere in each cell's reach (N, the mean
    squared spreads per feature in its worst block), and the bare board (:class:`_Bare`) in the light
    scored."""

    loglik: np.ndarray
    best: np.ndarray
    nearest: np.ndarray
    bare: _Bare

    def posterior(self) -> np.ndarray:
        """Every class's posterior per cell (N×C), the classes equally likely beforehand."""
        post = np.exp(self.loglik - self.loglik.max(axis=1, keepdims=True))
        return post / post.sum(axis=1, keepdims=True)


class CellJudge:
    """Decides the cells of frames of one board with one model; built once per reader."""

    def __init__(
        self,
        model: BoardModel,
        centres: np.ndarray,
        neighbours: tuple[tuple[int, ...], ...],
        offsets: np.ndarray,
        stone_radius: float,
        min_confidence: float,
        outlier: float,
        squares: np.ndarray | None = None,
    ) -> None:
        """``centres``: the cells' board positions (for the light field); ``neighbours``: each cell's neighbours;
        ``offsets``: the search offsets (K×2, the first one zero); ``stone_radius``: the largest a stone is
        (board units); ``min_confidence``: least posterior of a read symbol; ``outlier``: distance (in spreads)
        beyond which a cell is unexplained; ``squares``: each cell's colour of square (N ints, see
        :func:`vision.model.like_groups`), which tells which of the model's ball looks apply to it."""
        self.names = (".", *model.stones)
        self.offsets = np.asarray(offsets, dtype=np.float64)
        reach = float(np.sqrt((self.offsets**2).sum(axis=1)).max())
        spread = max(reach / 2.0, 1e-6)
        self.offset_cost = 0.5 * (self.offsets**2).sum(axis=1) / spread**2
        self.near = near_offsets(self.offsets)
        """The offsets within half the reach, where the bare board of an empty cell must show somewhere: a
        neighbour's stone may lean over the rest, a hand covers it all."""
        self.neighbours = neighbours
        pairs = [(i, j) for i, near in enumerate(neighbours) for j in near]
        self._pairs = np.array(pairs, dtype=np.intp).reshape(-1, 2).T
        """Every cell and a neighbour of it (2×P: the cells, their neighbours)."""
        self.overlap = OVERLAP * stone_radius
        self.min_confidence = min_confidence
        self.outlier = outlier
        self.terms = light_terms(centres)
        self.nearby = nearby_weights(centres)
        self.empty = np.array(model.empty, dtype=np.float64)
        width = self.empty.shape[1]
        self.around = None if model.empty_around is None else np.array(model.empty_around, dtype=np.float64)
        """Each cell's bare look at every offset (N×K×F), where the model has it (Kaskade boards)."""
        self.empty_seen = np.array(model.empty_seen, dtype=bool)
        unseen = ~self.empty_seen
        # each cell's empty covariance: the frame-to-frame spread, plus the like cells' spread where never seen
        cov = np.broadcast_to(np.array(model.empty_spread), (len(self.empty), width, width)).copy()
        cov[unseen] += np.array(model.like_spread)
        self.blocks = [b for b in BLOCKS if len(range(width)[b])]
        self.empty_inv = [np.linalg.inv(cov[:, b, b]) for b in self.blocks]
        self.empty_norm = sum(0.5 * np.linalg.slogdet(cov[:, b, b])[1] for b in self.blocks)
        self.means, self.stone_inv, self.stone_norm = _stone_arrays(list(model.stones.values()), width, self.blocks)
        self.ball_looks = [(np.ones(len(self.empty), dtype=bool), self.means, self.stone_inv, self.stone_norm)]
        """The looks a ball may have in each cell: for each colour of square its cells (N, bool) and each ball
        colour's mean (C×F), inverse spreads (per block, C×B×B) and norm (C); calibration's look of each
        piece alone on boards without ball looks of their own."""
        if model.ball_looks is not None and squares is not None:
            self.ball_looks = [
                (
                    np.asarray(squares) == g,
                    *_stone_arrays([on.get(c, look) for c, look in model.stones.items()], width, self.blocks),
                )
                for g, on in enumerate(model.ball_looks)
            ]
        self.pivot = np.median(self.empty[:, :3], axis=0)
        """The board's own colour: the light's contrast works about it, its field's constant is the light there."""
        ridge = np.full(self.terms.shape[1], RIDGE)
        ridge[0] = 1e-6
        self.ridge = np.diag(ridge)

    def judge(
        self,
        seen: np.ndarray,
        points: np.ndarray,
        light: Light | None = None,
        between: np.ndarray | None = None,
        beside: bool = True,
        previous: np.ndarray | None = None,
    ) -> CellVerdicts:
        """Decide every cell from what it shows at the search offsets (N×K×F, offset 0 first) around its point
        (``points``, N×2 board units), starting from ``light``: an earlier frame's, most often nearly this
        one's. Without it the light is first searched (:meth:`_likeliest_light`), its shape over the board
        from ``between`` when given: the log colour (N×3) of the bare board between each cell and its
        neighbours, where no piece lies. ``beside``: whether that is the bare board each point lies on (the
        lines of a board of points cross one surface; a square's corners are where squares of both colours
        meet): then, cold or warm, it gives the frame's own look a second start (:func:`_bare_beside`), and
        ``previous``, the classes the frame before settled on (:attr:`CellVerdicts.classes`), one more."""
        n = seen.shape[0]
        rows = np.arange(n)
        allowed = np.ones((n, len(self.offsets)), dtype=bool)
        cold = light is None
        if light is None:
            light = self._likeliest_light(seen, allowed, between)
        rounds = LIGHT_ROUNDS if cold else WARM_ROUNDS
        best: tuple[float, Light, _Scores] | None = None
        for round_ in range(rounds + 1):
            scores = self._scores(seen, light, allowed)
            fit = self._fit(scores, light)
            if best is None or fit > best[0] or not cold:
                best = (fit, light, scores)  # a light searched from afar is kept only while it explains more
            if round_ == rounds:
                break
            field = self.terms @ light.field
            k = scores.loglik.argmax(axis=1)
            found = seen[rows, scores.best[rows, k]]
            at = found[:, :3]
            explained = scores.nearest <= self.outlier**2
            looks = np.where((k == 0)[:, None], self.empty, self._stone_means(k))
            expected = looks[:, :3]
            glare = np.zeros_like(at)
            if round_ > 0:
                # what glare adds to a bare cell is no light of the board's
                board = self.in_light(self.empty[:, :3], light.contrast) + field
                glare = np.where((k == 0)[:, None], scores.bare.look[:, :3] - board, 0.0)
            # the light most cells agree on, each counting less the further it lies off (a Cauchy weight): a
            # cell read wrong under the last light, a shadow, says little of the light over the whole board
            off = at - glare - field - self.in_light(expected, light.contrast)
            weight = explained * _near_light(off) if round_ == 0 else explained.astype(np.float64)
            light = self._fit_light(at - glare, expected, weight, light, contrast_free=cold)
        assert best is not None
        _, light, scores = best
        narrowed = self._without_overlaps(scores, points, allowed)
        if not np.array_equal(narrowed, allowed):
            allowed = narrowed
            scores = self._scores(seen, light, allowed, bare=scores.bare)
        means = self._shown_means(light)
        for _ in range(ADAPT_ROUNDS):
            moved = self._adapted_means(seen, light, scores)
            if np.abs(moved - means).max(initial=0.0) < ADAPT_STILL:
                break
            means = moved
            scores = self._scores(seen, light, allowed, means, scores.bare)
        # the frame's own look of each piece settles the reading (at each cell's point: where it was read)
        calibrated = scores.posterior()
        said = calibrated.argmax(axis=1)
        # the board beside each point tells the bare board there: a second start reads bare every stone that
        # shows it, and the frame's own look keeps the reading it explains better. Warm frames need it as much
        # as cold ones: a tinted lamp's frames, read right afresh, were read with bare points as white stones
        # in the light the fresh look found
        starts = () if between is None or not beside else (_bare_beside(said, seen[:, 0, :3], between),)
        # and from the reading the frame before settled on: the board seldom changes between frames, and the
        # own look settles on the likeliest reading only from near it (a lamp's frame read warm settled 10.6
        # below the reading the same frame had settled on afresh, 6 cells otherwise). Not on a board of cells,
        # whose bare board is squares of two colours to the own look's one bare piece: a start from a wholly
        # other reading settled there on light squares as white stones
        if previous is not None and beside:
            starts = (previous, *starts)
        own = own_features(seen, self.near, beside)
        # and, on a board of points, from the reader's reading with every stone the own look of the texture alone
        # settles as bare read bare: a lamp's spot gives bare points a white stone's colour, not its outline, and
        # the board beside an edge point may lie outside the spot (the violet lamp's brightens towards the margin)
        if beside:
            starts = (*starts, bare_by_texture(own, self.terms, said, len(self.names)))
        bare = BareBoard(self._bare_structure(light), self.nearby) if beside else None
        k, post = own_reading(own, self.terms, calibrated, starts, bare)
        conf = post[rows, k]
        # odd only when neither calibration's looks nor the frame's own look of any piece explains the cell
        distance = np.minimum(np.sqrt(scores.nearest), own_distance(own, self.terms, k, len(self.names)))
        symbols = tuple(
            self.names[j] if c >= self.min_confidence else "?" for j, c in zip(k.tolist(), conf.tolist(), strict=True)
        )
        found = np.where(k > 0, scores.best[rows, k], 0)
        return CellVerdicts(
            symbols=symbols,
            confidence=tuple(float(c) for c in conf),
            unexplained=distance > self.outlier,
            distance=distance,
            light=light,
            offsets=self.offsets[found],
            found=found,
            calibrated=tuple(self.names[j] for j in said.tolist()),
            classes=k,
        )

    def _likeliest_light(self, seen: np.ndarray, allowed: np.ndarray, between: np.ndarray | None) -> Light:
        """The likeliest light of a frame seen cold. Its shape over the board is the one the bare board
        ``between`` the cells shows (:meth:`_light_between`), flat without it; its brightness per channel
        the one most cells vote for (:meth:`_voted_brightness`); its contrast (every one of ``CONTRASTS``
        per channel) and its texture (every one of ``TEXTURE_GAINS`` and ``TEXTURE_NOISES``), each in turn,
        those under which the cells' likeliest pieces explain them best."""
        calibration = Light.plain(self.terms.shape[1]) if between is None else self._light_between(between)
        shape = self.terms @ calibration.field
        field = calibration.field.copy()
        field[0] += self._voted_brightness(seen[:, 0, :3] - shape, calibration.contrast)
        points, here = seen[:, :1], allowed[:, :1]  # each cell at its point: enough to weigh a light, and quick
        # calibration's own brightness stands against the voted one: where the cells vote as much for another
        # light (every bare cell a white stone in a dimmer one), the one that explains them better wins
        lights = [replace(calibration, field=field), calibration]
        light = lights[int(np.argmax([self._fit(self._scores(points, t, here), t) for t in lights]))]
        trials = [
            [replace(light, contrast=np.array(c, dtype=np.float64)) for c in CONTRAST_GRID],
            [replace(light, texture=np.array(t, dtype=np.float64)) for t in TEXTURE_GRID],
            [replace(light, contrast=np.array(c, dtype=np.float64)) for c in CONTRAST_GRID],
        ]
        for turn in range(len(trials)):
            candidates = [
                replace(light, contrast=t.contrast) if turn != 1 else replace(light, texture=t.texture)
                for t in trials[turn]
            ]
            scores = [self._fit(self._scores(points, t, here), t) for t in candidates]
            light = candidates[int(np.argmax(scores))]
        return light

    def _light_between(self, between: np.ndarray) -> Light:
        """The shape of a light over the board (its field, less its constant) that the bare board between the
        cells shows: what turns each cell's empty look into the board beside it (``between``, N×3 log, NaN
        where the cell has no corner on the board), each cell counting less the further it lies off (a Cauchy
        weight of scale ``LIGHT_SPREAD``, the first about the median). The cells calibration saw empty count
        (their empty look was measured, not taken from like cells) when there are three per term of the field;
        else every cell; with fewer than that the shape is flat. No cell's reading is needed for it, so a lamp
        that brightens one side of the board far beyond the other does not make its bare points there look
        like stones before the field is known; a piece leaning over the board there, or its shadow, is one of
        a few cells that lie off."""
        expected = self.empty[:, :3]
        shown = np.isfinite(between).all(axis=1)
        least = 3 * self.terms.shape[1]
        told = shown & self.empty_seen if (shown & self.empty_seen).sum() >= least else shown
        if told.sum() < least:
            return Light.plain(self.terms.shape[1])
        between = np.where(shown[:, None], between, expected)
        off = between - expected
        off = off - median(off[told], axis=0)
        light = Light.plain(self.terms.shape[1])
        for _ in range(LIGHT_ROUNDS):
            light = self._fit_light(between, expected, told * _near_light(off), light, contrast_free=False)
            off = between - self.terms @ light.field - expected
        field = light.field.copy()
        field[0] = 0.0
        return replace(light, field=field)

    @staticmethod
    def _fit(scores: _Scores, light: Light) -> float:
        """How well ``light`` explains the cells (log-likelihood, each cell by its likeliest piece), less what
        its contrast and texture away from calibration's cost: as much as ``CONTRAST_RIDGE`` cells each
        ``LIGHT_SPREAD`` off per unit (the fit's own hold towards calibration's light)."""
        gain, noise = light.texture
        away = float(((light.contrast - 1.0) ** 2).sum()) + (gain - 1.0) ** 2 + noise**2
        return float(scores.loglik.max(axis=1).sum()) - 0.5 * CONTRAST_RIDGE * away / LIGHT_SPREAD**2

    def _voted_brightness(self, shown: np.ndarray, contrast: np.ndarray) -> np.ndarray:
        """The light's brightness (log colour added, per channel) that most cells agree on: each cell votes,
        for each piece it may hold, for the brightness that would make it show as it does (``shown``, N×3);
        the brightness with the most support wins, each cell supporting it through the piece that comes
        nearest (a Cauchy weight of scale ``LIGHT_SPREAD``). Every cell votes once for the true light, whatever
        it holds; a wrong light gathers only the cells whose pieces it happens to mix up."""
        looks = [self.empty[:, None, :3]]
        if len(self.means):
            looks.append(np.broadcast_to(self.means[None, :, :3], (len(shown), len(self.means), 3)))
        votes = shown[:, None, :] - self.in_light(np.concatenate(looks, axis=1), contrast)
        candidates = votes.reshape(-1, 3)
        support = np.zeros(len(candidates))
        for chunk in range(0, len(candidates), VOTE_CHUNK):
            part = candidates[chunk : chunk + VOTE_CHUNK]
            d2 = (((part[:, None, None, :] - votes[None]) / LIGHT_SPREAD) ** 2).mean(axis=-1)
            support[chunk : chunk + VOTE_CHUNK] = (1.0 / (1.0 + d2)).max(axis=2).sum(axis=1)
        return np.array(candidates[support.argmax()])

    def in_light(self, colour: np.ndarray, contrast: np.ndarray) -> np.ndarray:
        """Calibration's log colours (…×3) as a light of ``contrast`` shows them, before its field is added."""
        return self.pivot + contrast * (colour - self.pivot)

    def calibration_look(self, features: np.ndarray, light: Light) -> np.ndarray:
        """What cells showing ``features`` (N×F) in ``light`` would have shown in calibration's light: comparable
        with the model's ``empty`` and stones' ``mean``. A channel the light left without contrast says little."""
        out = np.array(features, dtype=np.float64, copy=True)
        colour = out[:, :3] - self.terms @ light.field
        out[:, :3] = self.pivot + (colour - self.pivot) / np.maximum(light.contrast, CONTRAST_FLOOR)
        out[:, 3:] = light.unshow(out[:, 3:])
        return out

    def _bare_structure(self, light: Light) -> np.ndarray:
        """How the bare board's colour differs from cell to cell as calibration saw it (N×F, nothing in the
        texture), in ``light``'s contrast, about its median over the board: a lamp's glare or spot, a flash, the
        margin's light beside the edge points. The frame's own look fits how much of it the frame still shows
        (:func:`vision.own_look.own_reading`). Its texture is left out: the own look sees a point's outline
        energies as their median around it, calibration's empty look at the point alone."""
        colour = self.in_light(self.empty[:, :3], light.contrast)
        out = np.zeros_like(self.empty)
        out[:, :3] = colour - median(colour, axis=0)
        return out

    def _shown_means(self, light: Light, means: np.ndarray | None = None) -> np.ndarray:
        """The stone colours' means (C×F; ``means``, calibration's when None) in ``light``, before its field is
        added."""
        means = (self.means if means is None else means).copy()
        means[:, :3] = self.in_light(means[:, :3], light.contrast)
        means[:, 3:] = light.show(means[:, 3:])
        return means

    def _adapted_means(self, seen: np.ndarray, light: Light, scores: _Scores) -> np.ndarray:
        """The stone colours as this frame shows them (C×F, before the light's field is added): each moved from
        calibration's towards the median of the stones read surely as it (posterior ``SURE``, explained), the
        more so the more of them there are. A lamp of another colour moves a white stone unlike the board (it
        mirrors the lamp, it may clip); the frame's own stones show how."""
        post = scores.posterior()
        k = post.argmax(axis=1)
        sure = (post.max(axis=1) >= SURE) & (scores.nearest <= self.outlier**2)
        rows = np.arange(len(k))
        field = self.terms @ light.field
        normal = seen[rows, scores.best[rows, k], :3] - field
        base = self._shown_means(light)
        means = base.copy()
        for c in range(len(means)):
            members = sure & (k == c + 1)
            if members.any():
                shift = median(normal[members] - base[c, :3], axis=0)
                means[c, :3] += shift * members.sum() / (members.sum() + ADAPT_PRIOR)
        return means

    def _stone_means(self, k: np.ndarray) -> np.ndarray:
        if not len(self.means):
            return np.zeros((len(k), self.empty.shape[1]))
        return self.means[np.maximum(k - 1, 0)]

    def _scores(
        self,
        seen: np.ndarray,
        light: Light,
        allowed: np.ndarray,
        means: np.ndarray | None = None,
        bare: _Bare | None = None,
    ) -> _Scores:
        """Every class's scores in ``light``; ``means``: the stone colours as the frame shows them (before the
        light's field is added), calibration's in that light when None; ``bare``: the bare board already
        scored in this light (:meth:`_bare`), when known."""
        n = seen.shape[0]
        field = self.terms @ light.field
        normal = seen - field_offsets(field, seen.shape[2])[:, None, :]
        looked = seen.shape[1]  # the first offsets only, when the light is searched
        if bare is None:
            bare = self._bare(seen, light)
        width = seen.shape[2]
        stones = self._shown_means(light) if means is None else means
        if not len(stones):
            return _Scores(bare.loglik[:, None], np.zeros((n, 1), dtype=np.intp), bare.nearest, bare)
        # every stone colour at once (C×N×K): what each cell shows at each offset against each colour's look
        d = normal[None] - _shown(stones, field)[:, :, None, :]
        parts = [_quadratic(d[..., b], inv[:, None]) for b, inv in zip(self.blocks, self.stone_inv, strict=True)]
        cost = np.where(allowed, self.offset_cost[:looked] - _tails(parts, self.blocks, width), np.inf)
        j = cost.argmin(axis=2)
        loglik = -np.take_along_axis(cost, j[:, :, None], axis=2)[:, :, 0] - self.stone_norm[:, None]
        worst = np.where(allowed, _worst_block(parts, self.blocks, width), np.inf)
        return _Scores(
            loglik=np.column_stack([bare.loglik, loglik.T]),
            best=np.column_stack([np.zeros(n, dtype=np.intp), j.T]),
            nearest=np.minimum(bare.nearest, worst.min(axis=(0, 2))),
            bare=bare,
        )

    def _bare(self, seen: np.ndarray, light: Light) -> _Bare:
        """The bare board's scores in ``light`` (see :class:`_Bare`): at each cell's point, and looked for
        within half the reach (``near``) only, of the offsets ``seen`` holds."""
        looked = seen.shape[1]
        near = self.near[self.near < looked]
        # calibration's bare look at each offset goes with them only when every offset was looked at
        at = near if looked == len(self.offsets) else None
        look, loglik, parts = self._bare_loglik(seen[:, near], light, at)
        nearest = _worst_block(parts, self.blocks, seen.shape[2]).min(axis=1)
        return _Bare(loglik=loglik[:, 0], nearest=nearest, look=look[:, 0])

    def _bare_loglik(
        self, seen: np.ndarray, light: Light, at: np.ndarray | None = None, glare_texture: bool = True
    ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """What each cell's bare board shows at each offset under its glare (N×K×F), the log-likelihood of what
        is seen there under it (N×K), and the squared distance in each feature block (each N×K). ``at``: which
        of the judge's offsets ``seen`` holds, when not all of them.

        The more glare, the more texture the board may show beyond its own: a
        lamp's spot adds a slope of its own over the cell (unless
        ``glare_texture`` is False: see :meth:`evidence`). It never shows less
        edge energy than its own washed out by the glare: skin over a Go
        board's lines is smoother than any light makes the lines. Unless the
        glare drives a channel of the board to the camera's limit: the camera
        clips the board's bright side while its lines stay below, and washes
        them out further than the glare's share of the light says."""
        bare, cost, share = self._bare_board(seen, light, at)
        loosen = 1.0 + (share / GLARE_TEXTURE) ** 2 if glare_texture else np.ones_like(share)
        d = seen - bare
        slack = np.sqrt(loosen)[:, :, None]
        texture = d[:, :, 3:]
        grows = np.zeros(texture.shape[2], dtype=bool)
        grows[[i - 3 for i in EDGE_ENERGIES if i >= 3 and i - 3 < texture.shape[2]]] = True
        clipped = at_full_scale(bare[..., :3]).any(axis=-1, keepdims=True)
        d[:, :, 3:] = np.where(grows & (texture < 0) & ~clipped, texture, texture / slack)
        parts = []
        for b, inv in zip(self.blocks, self.empty_inv, strict=True):
            parts.append(_quadratic(d[:, :, b], inv))
        textures = seen.shape[2] - 3
        loglik = (
            _tails(parts, self.blocks, seen.shape[2])
            - cost
            - self.empty_norm[:, None]
            - textures * np.log((1.0 + np.sqrt(loosen)) / 2.0)
        )
        return bare, loglik, parts

    def _bare_board(
        self, seen: np.ndarray, light: Light, at: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What each cell's bare board would show at each offset (N×K×F, in this frame's light) under the glare
        that best explains its colour, in the lamp's colour as the light's field shows it
        (:func:`vision.surface.lit_surface`), what that glare costs
        (N×K, log-likelihood), and the share of the spot's light the two changed (N×K). ``at``: which of the
        judge's offsets ``seen`` holds, when not all of them."""
        around = self.around if self.around is None or at is None else self.around[:, at]
        if around is not None and around.shape[1] == seen.shape[1]:
            board = around.copy()
        else:
            board = self.empty[:, None, :].repeat(seen.shape[1], axis=1)
        board[..., :3] = self.in_light(board[..., :3], light.contrast)
        board[..., 3:] = light.show(board[..., 3:])
        field = self.terms @ light.field
        board = board + field_offsets(field, seen.shape[2])[:, None, :]
        lit, glare, changed = lit_surface(board, seen, lamp_hue(field)[:, None, :])
        return lit, GLARE_COST * glare, changed

    def evidence(self, seen: np.ndarray, light: Light) -> np.ndarray:
        """How much better each stone colour explains each offset of each cell than the bare board there (N×C×K
        log-likelihood ratios, C the model's stones, no offset prior), in ``light``: where pieces of that colour
        lie in a cell that holds several.

        The bare board there may still show glare, but only in its colour, not
        with texture of its own: a pale ball on a dark square is the glare of a
        lamp in colour (a spot giving 60 to 80 % of the light there), and the
        slack in texture that much glare allows (15 to 20 spreads) explained the
        ball's outline as well. On the synthetic bench's 20 ``grid:6x6``
        scenes (their glare scenes too) that read 37 cells wrong, white balls
        on dark squares as black ones beside them; without it 11, and no glare
        spot read as a ball."""
        field = self.terms @ light.field
        normal = seen - field_offsets(field, seen.shape[2])[:, None, :]
        _, empty, _ = self._bare_loglik(seen, light, glare_texture=False)
        out = np.empty((seen.shape[0], len(self.means), seen.shape[1]))
        for cells, means, inverses, norm in self.ball_looks:
            shown = self._shown_means(light, means)
            for stone in range(len(means)):
                d = normal[cells] - _shown(shown[stone], field[cells])[:, None, :]
                parts = [_quadratic(d[:, :, b], inv[stone]) for b, inv in zip(self.blocks, inverses, strict=True)]
                out[cells, stone] = _tails(parts, self.blocks, seen.shape[2]) - norm[stone] - empty[cells]
        return out

    def _without_overlaps(self, scores: _Scores, points: np.ndarray, allowed: np.ndarray) -> np.ndarray:
        """The offsets each cell may still take a stone at, once every stone that overlaps a neighbour's better
        explained stone is left to the neighbour."""
        k = scores.loglik.argmax(axis=1)
        if np.count_nonzero(k) < 2:
            return allowed
        rows = np.arange(len(k))
        found = points + self.offsets[scores.best[rows, k]]
        fit = scores.loglik[rows, k]
        i, j = self._pairs
        # a stone overlapping a neighbour's better explained stone (every such pair at once)
        overlapping = (k[i] > 0) & (k[j] > 0) & (fit[j] > fit[i])
        overlapping[overlapping] = np.linalg.norm(found[i[overlapping]] - found[j[overlapping]], axis=1) < self.overlap
        i, j = i[overlapping], j[overlapping]
        allowed = allowed.copy()
        reach = points[i][:, None, :] + self.offsets[None, :, :]
        np.logical_and.at(allowed, i, np.linalg.norm(reach - found[j][:, None, :], axis=2) >= self.overlap)
        allowed[:, 0] = True
        return allowed

    def _fit_light(
        self, shown: np.ndarray, expected: np.ndarray, weight: np.ndarray, light: Light, contrast_free: bool
    ) -> Light:
        """``light`` with the field (and, when ``contrast_free``, the contrast) that best turns calibration's
        colours ``expected`` (N×3, each cell's piece) into the colours the cells show (``shown``, N×3), each
        cell by its ``weight``, each channel only where the cell is not at the camera's limit. The contrast
        is held towards 1 by ``CONTRAST_RIDGE`` cells' worth of evidence and never falls below 0: no light
        turns dark into bright."""
        usable = tells_light(shown)
        terms = self.terms.shape[1]
        field = np.zeros((terms, LIGHT_COLUMNS))
        contrast = light.contrast.copy()
        free = 1 if contrast_free else 0
        prior = np.zeros(terms + free)
        prior[terms:] = 1.0
        ridge = np.zeros((terms + free, terms + free))
        ridge[:terms, :terms] = self.ridge
        ridge[terms:, terms:] = CONTRAST_RIDGE
        for j in range(LIGHT_COLUMNS):
            change = expected[:, j] - self.pivot[j]
            if contrast_free:
                x, y = np.column_stack([self.terms, change]), shown[:, j] - self.pivot[j]
            else:
                x, y = self.terms, shown[:, j] - self.pivot[j] - contrast[j] * change
            w = (weight * usable[:, j])[:, None]
            coef = np.linalg.solve((x * w).T @ x + ridge, (x * w).T @ y + ridge @ prior)
            field[:, j] = coef[:terms]
            if contrast_free:
                contrast[j] = max(float(coef[terms]), 0.0)
        return replace(light, field=field, contrast=contrast)
