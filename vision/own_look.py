"""The frame's own look of each piece: a reading settled by the frame's own cells.

Calibration says how each piece looked under calibration's light; a lamp of
another colour changes the pieces unlike one another (under a blue lamp a
white stone and the bare board take the same hue, and the red channel orders
the pieces otherwise than white light does), and no light fitted to
calibration's looks follows that. The frame itself shows hundreds of cells of
each piece. Starting from the reader's decision, each piece is a Student-t of
the frame's own, of ``TAILS`` degrees of freedom as calibration's looks are
(its mean from the cells read as it, under one smooth field over the board
shared by all pieces; its scatter the t's own, in which a cell far off counts
less, where the piece has cells enough to tell it). Every cell is decided
again by those, and so on until no cell changes (classification EM), or for
at most ``ROUNDS`` rounds: a piece that gains or loses its own covariance
changes the model, so a round need not explain the frame better than the one
before. A Gaussian's covariance is widened by a piece's few odd cells, or by
the cells of another piece the reader took for it (bare points in a lamp's
spot read as white stones), until it reaches over them and keeps them.

The bare board is no one look, though: calibration saw its colour differ from
cell to cell (a lamp's spot, a flash, the margin's light beside the edge), and
one smooth field cannot follow that. Given that structure, the bare piece's
mean at each cell moves by the share of it the frame still shows, fitted with
the pieces and the field to the cells read bare: from none (a lamp switched
off) to all of it (the lamps of calibration), never its opposite. Nor is the
frame's light calibration's: a lamp's spot of its own lights a few cells of
the bare board beyond what the field and that share follow, and its bare points
read as white stones. So the bare piece's mean at each cell moves as well by
what the cells near it read bare show beyond it (:class:`BareBoard`).

The same looks tell which cells no piece explains as the frame shows it
(:func:`own_distance`): under a tinted lamp the bare board is far from
calibration's look of it, cell after cell, yet near the frame's own. A hand
is unlike the cells of every piece around it, however the lamp shines; but
its cells, read as some piece, would widen that piece's spread and hide
themselves. So each piece's look there is the one of the half of its cells
nearest it (the minimum covariance determinant's concentration steps), its
spread scaled back to what a whole Gaussian piece would show.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from vision.median import median

TAILS = 4.0
"""Degrees of freedom of the Student-t a piece's look counts with: each block of features (colour, texture) of
calibration's looks (:mod:`vision.cells`), and the frame's own look of it."""

ROUNDS = 30
"""At most this many rounds; a reading settles in a handful."""

TOLD = 3
"""Cells per feature that tell how far a piece's cells may lie. For :func:`own_distance` the nearer half of a
piece's cells must hold this many: a covariance told by fewer is mostly noise, and on a small board a hand may
be most of a piece's cells (with fewer, a hand over an 8×8 board's pieces went unseen: ``cascade bench vision
--geometry diamond:8``). For :func:`own_reading` a piece with fewer keeps the plain covariance rather than the
Student-t's scatter, which weighs its cells by how far each lies: with fewer cells than that, it narrowed an
8×8 board's bare squares around a few of them and left one lit bare square to the white stones."""

DECISIVE = float(np.log(100.0))
"""How much likelier (log-likelihood) the frame's own look must find a reading settled from another start than
the reader's, to keep it: a hundred times, decisive on Jeffreys' scale of evidence. The reader's reading stands
otherwise: on ``go-coloured-light`` the other start lost a few cells wherever it won by less (0.5 to 3.7), and
won ten to three hundred and fifty where it was the right one (19 to 357)."""

SCATTER_ROUNDS = 8
"""Rounds of reweighing a piece's cells by how far each lies, towards the Student-t's scatter: its fixed point
(on ``go-coloured-light`` the reading is the same from 6 rounds to 10)."""

RIDGE = 1e-3
"""Added to every covariance's diagonal (log colour², texture²): a piece whose cells all look alike is still no
point, and the covariance stays invertible."""

COLOURS = 3
"""The features that are the colour, first (log, per channel); the rest are the texture."""

LOCAL_PRIOR = 1.0
"""How firmly the bare board's light at a cell is the board's as a whole, in near cells at full weight (see
:attr:`BareBoard.nearby`): with no near cell read bare it is the board's, with one at full weight it moves half
way to what that cell shows. On ``go-coloured-light`` 0.3 and 3 read 16 and 16 wrong cells against 12."""


@dataclass(frozen=True, eq=False)
class BareBoard:
    """What the frame's own look knows of the bare board beyond one look under one smooth field: how calibration
    saw it differ from cell to cell, and which cells lie near which.

    ``structure``: the bare board's difference from cell to cell as calibration saw it (N×F), of which the
    frame shows a share per feature from none to all (:func:`_fit_pieces`). ``nearby``: how much each cell's
    bare board tells of each other's light (N×N, nothing of its own): a lamp's spot lights the cells near one
    another alike, a stone is one cell. The bare piece's colour at each cell moves by the weighted mean of what
    the cells near it read bare show beyond the piece, the field and the structure's share, shrunk towards
    none by ``LOCAL_PRIOR`` (:func:`_local_light`)."""

    structure: np.ndarray
    nearby: np.ndarray


def own_reading(
    features: np.ndarray,
    terms: np.ndarray,
    posterior: np.ndarray,
    starts: tuple[np.ndarray, ...] = (),
    bare: BareBoard | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The reading settled by the frame's own look of each piece, and each cell's posterior over the classes.

    ``features``: what each cell shows (N×F); ``terms``: the light field's terms at each cell (N×T, the first
    the constant); ``posterior``: the reader's (N×C), whose likeliest classes start it. ``starts``: other
    readings (each N classes) to start from as well; of the readings settled from each start, the one the
    frame's own look explains best (its log-likelihood, every cell by the mixture of the pieces) is kept,
    the reader's unless another is likelier by ``DECISIVE``. ``bare``: what is known of the bare board (class 0)
    beyond one look under the field (:class:`BareBoard`), None for nothing. A class no cell holds stays
    empty: the frame cannot show how it looks. A piece with too few cells for a covariance of its own takes
    the one all pieces share. A board of too few cells to tell a covariance keeps the reader's."""
    x = np.asarray(features, dtype=np.float64)
    if len(x) <= 2 * x.shape[1] + 2:
        return posterior.argmax(axis=1), posterior
    slope = np.asarray(terms, dtype=np.float64)[:, 1:]
    classes = posterior.shape[1]
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    first = posterior.argmax(axis=1)
    for start in (first, *(s for s in starts if not np.array_equal(s, first))):
        labels, loglik = _named(*_settled(x, slope, np.asarray(start), classes, bare), posterior)
        top = loglik.max(axis=1, keepdims=True)
        explained = float((top[:, 0] + np.log(np.exp(loglik - top).sum(axis=1))).sum())
        if best is None or explained > best[0] + DECISIVE:
            post = np.exp(loglik - top)
            best = (explained, labels, post / post.sum(axis=1, keepdims=True))
    assert best is not None
    labels, post = best[1], best[2]
    # a piece the reader finds in too few cells for a look of the frame's own: where the reader is decisive
    # about it, the frame cannot overturn it (its few cells' mean, under every piece's shared scatter, leaves
    # a lone stone beside a second, odd one far from both, and the bare board's weight takes it)
    sure = posterior.max(axis=1) >= 1.0 - 1.0 / (1.0 + np.exp(DECISIVE))
    rare = _too_few(np.bincount(first, minlength=classes)[first], x.shape[1]) & sure
    labels[rare], post[rare] = first[rare], posterior[rare]
    return labels, post


def bare_by_texture(features: np.ndarray, terms: np.ndarray, labels: np.ndarray, classes: int) -> np.ndarray:
    """A reading (N classes) from ``labels``: every cell read as a piece that the frame's own look of the texture
    alone, settled from ``labels``, reads bare, read bare instead (``features`` and ``terms`` as for
    :func:`own_reading`). A lamp moves the colours, not the texture: in a lamp's spot bare points take a white
    stone's colour and keep the board's lines, and the texture alone tells them bare. It adds no stone: by its
    texture alone a white stone may pass for a black one."""
    texture = np.asarray(features, dtype=np.float64)[:, COLOURS:]
    if not texture.shape[1] or len(texture) <= 2 * texture.shape[1] + 2:
        return labels
    settled, _ = _settled(texture, np.asarray(terms, dtype=np.float64)[:, 1:], labels, classes)
    return np.where((settled == 0) & (labels != 0), 0, labels)


def _settled(
    x: np.ndarray, slope: np.ndarray, labels: np.ndarray, classes: int, bare: BareBoard | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The reading classification EM settles on from ``labels`` (N), and each cell's log-likelihood under each
    class (N×C) in the pieces fitted to it."""
    loglik = _loglik(x, slope, labels, classes, bare)
    for _ in range(ROUNDS):
        settled = loglik.argmax(axis=1)
        if np.array_equal(settled, labels):
            break
        labels = settled
        loglik = _loglik(x, slope, labels, classes, bare)
    return labels, loglik


def _named(labels: np.ndarray, loglik: np.ndarray, posterior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A settled reading (``labels``, N) and its log-likelihoods (N×C) under the names calibration gives its
    pieces: of every way of naming them, the one under which the reader's ``posterior`` (N×C) agrees with the
    most cells. The frame's own look tells the pieces apart, not which is which: a start that named them
    otherwise settles to a reading it explains as well."""
    classes = posterior.shape[1]
    agree = np.stack([posterior[labels == c].sum(axis=0) for c in range(classes)])  # C×C: read as c, said d
    names = max(itertools.permutations(range(classes)), key=lambda p: sum(agree[c, p[c]] for c in range(classes)))
    order = np.array(names)
    named = np.empty_like(loglik)
    named[:, order] = loglik
    return order[labels], named


def _loglik(
    x: np.ndarray, slope: np.ndarray, labels: np.ndarray, classes: int, bare: BareBoard | None = None
) -> np.ndarray:
    """Each cell's log-likelihood under each class (N×C, -inf for a class no cell holds), the classes fitted
    to ``labels``: a mean each, one field over the board, a scatter each (or the shared covariance): the
    Student-t's where the piece has ``TOLD`` cells per feature, else the plain covariance. The bare board's
    mean (class 0) moves at each cell by the share of ``bare``'s structure the frame shows (see
    :func:`_fit_pieces`) and by the light the bare cells near it show (:func:`_local_light`)."""
    n, width = x.shape
    present = np.flatnonzero(np.bincount(labels, minlength=classes))
    structure = None if bare is None else bare.structure
    means, flat, shift = _fit_pieces(x, slope, labels, present, np.ones(n, dtype=bool), structure)
    residual = flat - means[np.searchsorted(present, labels)] - np.where((labels == 0)[:, None], shift, 0.0)
    if bare is not None:
        local = _local_light(residual, labels == 0, bare.nearby)
        shift = shift + local
        residual[labels == 0] -= local[labels == 0]
    shared = residual.T @ residual / n
    out = np.full((n, classes), -np.inf)
    for j, c in enumerate(present.tolist()):
        members = labels == c
        count = int(members.sum())
        own = residual[members]
        if _too_few(count, width):
            cov = shared
        elif count < TOLD * width:
            cov = own.T @ own / count
        else:
            cov = _scatter(own)
        d2 = _squared(flat - means[j] - (shift if c == 0 else 0.0), cov)
        half_log_det = 0.5 * np.linalg.slogdet(cov + RIDGE * np.eye(width))[1]
        out[:, c] = np.log(count / n) - 0.5 * (TAILS + width) * np.log1p(d2 / TAILS) - half_log_det
    return out


def _local_light(residual: np.ndarray, read_bare: np.ndarray, nearby: np.ndarray) -> np.ndarray:
    """The light (N×F, the colour's only) the bare board shows at each cell beyond the bare piece, the field and
    the structure: the mean of what the cells near it read bare (``read_bare``, N) show beyond them
    (``residual``, N×F), weighed by ``nearby`` (N×N) and shrunk towards none by ``LOCAL_PRIOR``. A cell's own
    look is no part of it: a white stone would explain itself. The texture is left out: it tells a stone from
    the bare board under any lamp (with it, ``go-coloured-light`` read 20 wrong cells rather than 12)."""
    bare = read_bare.astype(np.float64)
    out = np.zeros_like(residual)
    out[:, :COLOURS] = nearby @ (residual[:, :COLOURS] * bare[:, None]) / (LOCAL_PRIOR + nearby @ bare)[:, None]
    return out


def _too_few(count: np.ndarray | int, width: int) -> np.ndarray | bool:
    """Whether a piece of ``count`` cells is too few for a covariance of its own over ``width`` features (it
    takes the one all pieces share)."""
    return count <= width + 2


def _scatter(residual: np.ndarray) -> np.ndarray:
    """The Student-t's scatter (F×F) of a piece's cells about its mean (``residual``, M×F): each cell weighed
    by ``(TAILS + F) / (TAILS + d²)``, its squared distance under the last scatter, from the plain covariance
    on (``SCATTER_ROUNDS``)."""
    count, width = residual.shape
    scatter = residual.T @ residual / count
    for _ in range(SCATTER_ROUNDS):
        weight = (TAILS + width) / (TAILS + _squared(residual, scatter))
        scatter = (residual * weight[:, None]).T @ residual / count
    return scatter


def own_distance(features: np.ndarray, terms: np.ndarray, labels: np.ndarray, classes: int) -> np.ndarray:
    """Each cell's distance (N, in spreads: the root mean square per feature) to the nearest piece as the frame
    shows it, inf where the frame cannot tell.

    Each piece's look is fitted to the half of the cells read as it (``labels``, N) that lies nearest it,
    found by concentration steps from all of them, under one smooth field over the board (``terms`` as for
    :func:`own_reading`): a hand read as some piece, up to half its cells, does not widen its spread. A piece
    whose half holds fewer than ``TOLD`` cells per feature explains no cell. Its spread is then scaled so that
    the median cell of the piece lies at the median distance of a Gaussian's (Wilson–Hilferty), as the whole
    piece would show it."""
    x = np.asarray(features, dtype=np.float64)
    n, width = x.shape
    slope = np.asarray(terms, dtype=np.float64)[:, 1:]
    present = [c for c in range(classes) if (labels == c).sum() // 2 >= TOLD * width]
    out = np.full(n, np.inf)
    if not present:
        return out
    core = np.ones(n, dtype=bool)
    d2 = _half_look(x, slope, labels, present, core)
    for _ in range(ROUNDS):
        nearer = np.zeros(n, dtype=bool)
        for j, c in enumerate(present):
            members = np.flatnonzero(labels == c)
            nearer[members[np.argsort(d2[members, j], kind="stable")[: len(members) // 2]]] = True
        if np.array_equal(nearer, core):
            break
        core = nearer
        d2 = _half_look(x, slope, labels, present, core)
    # a Gaussian's median squared distance in ``width`` dimensions (Wilson–Hilferty)
    typical = width * (1.0 - 2.0 / (9.0 * width)) ** 3
    for j, c in enumerate(present):
        d2[:, j] *= typical / median(d2[labels == c, j])
    return np.sqrt(d2.min(axis=1) / width)


def _half_look(
    x: np.ndarray, slope: np.ndarray, labels: np.ndarray, present: list[int], core: np.ndarray
) -> np.ndarray:
    """Each cell's squared Mahalanobis distance (N×len(present)) to each present piece, fitted to the ``core``
    cells read as it: a mean each and one field over the board."""
    fit = core & np.isin(labels, present)
    means, flat, _ = _fit_pieces(x, slope, labels, np.array(present), fit)
    out = np.empty((len(x), len(present)))
    for j, c in enumerate(present):
        residual = flat[fit & (labels == c)] - means[j]
        out[:, j] = _squared(flat - means[j], residual.T @ residual / len(residual))
    return out


def _fit_pieces(
    x: np.ndarray,
    slope: np.ndarray,
    labels: np.ndarray,
    present: np.ndarray,
    rows: np.ndarray,
    structure: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``present`` pieces' means (len(present)×F), every cell's features with the one field over the board
    taken out (N×F), and what of ``structure`` the bare board's cells show (N×F), all fitted by least squares to
    the ``rows`` (N, bool) as read (``labels``). ``structure``: how the bare board (class 0) differs from cell to
    cell (N×F, :attr:`BareBoard.structure`), of which the cells read bare show a share of 0 to 1 per feature;
    None for none."""
    design = np.concatenate([(labels[:, None] == present[None, :]).astype(np.float64), slope], axis=1)
    d, shown = design[rows], x[rows]
    gram = d.T @ d + 1e-9 * np.eye(design.shape[1])
    coef = np.linalg.solve(gram, d.T @ shown)
    if structure is None:
        return coef[: len(present)], x - slope @ coef[len(present) :], np.zeros_like(x)
    # the share of the structure each feature shows, with the pieces and the field taken out of both (the
    # Frisch–Waugh way), kept between none of it and all of it
    structure = np.asarray(structure, dtype=np.float64)
    read_bare = np.where((labels == 0)[:, None], structure, 0.0)
    own = np.linalg.solve(gram, d.T @ read_bare[rows])
    left, apart = shown - d @ coef, read_bare[rows] - d @ own
    told = (apart * apart).sum(axis=0)
    share = np.clip((apart * left).sum(axis=0) / np.maximum(told, 1e-12), 0.0, 1.0)
    coef = coef - own * share
    return coef[: len(present)], x - slope @ coef[len(present) :], structure * share


def _squared(offset: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """Each cell's squared Mahalanobis distance (N) of its ``offset`` from a piece (N×F) under ``cov`` (F×F,
    ``RIDGE`` added to its diagonal)."""
    inverse = np.linalg.inv(cov + RIDGE * np.eye(len(cov)))
    return np.asarray(((offset @ inverse) * offset).sum(axis=1))
