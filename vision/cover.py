"""Whether something covers the board: a hand, an arm, an object.

Two signs, both read against what calibration saw, in this frame's light:

- a hand is large: where neighbouring cells, at least ``odd_group`` of them,
  are each explained poorly (beyond ``odd`` spreads: neither the bare board
  near their point nor any stone, see :mod:`vision.cells`), something lies
  over the board. Pale skin over a pale board comes near the board's
  colour, and over a dark square near a lamp's glare, but never as near as
  the bare board comes, cell after cell. One odd cell alone is no hand: a
  real board has cells of its own that a lamp's sheen or a speck moves far
  from what calibration saw;
- an arm reaching for a cell crosses the board's rim, however thin the
  fingers the cells see. A ring of patches on the board's margin, just
  outside its playing area, is read
  every frame: skin and sleeves move the colour channels against each other
  (a hue), while a change of light, a shadow or glare moves them together.
  Two neighbouring patches of the ring whose hue changed by more than
  ``border_hue`` (log colour) are an arm crossing; a patch that a piece on
  the board may reach says nothing (a Go stone on the edge line, seen from
  the side, reaches over the rim, beside its own point and its neighbours').

A still board in odd light is never covered: the light field of
:mod:`vision.cells` takes the light's change out of both signs first. The
rim is another surface than the cells (a lacquered margin, the board's edge)
and answers a tinted lamp in its own way, so it also has a smooth light of
its own (:func:`rim_light`), fitted to the whole ring each frame: a lamp
changes the ring all round, an arm a few patches of it.
"""

from __future__ import annotations

import math

import numpy as np

from referee.geometry import Geometry, Layout
from vision.board_image import LOG_FLOOR
from vision.median import median
from vision.surface import lit_surface, shows_hue

RIM_SPREAD = 0.05
"""How far (log colour) a patch may lie off the ring's own light and still count fully in its fit."""
RIM_ROUNDS = 6
"""Rounds of fitting the ring's own light, each weighing the patches by how far they lay off the last."""
NOISE = math.log(2.0 * LOG_FLOOR)
"""The log colour of a channel as bright as the camera's noise (:data:`~vision.board_image.LOG_FLOOR`, which
the log colour is floored at). Darker, a channel may change by a whole unit between two photos of one board:
under the blue lamp of ``go-coloured-light`` the margin's red channel, 1 to 4 of 255 where the ring's light
expected 4, moved a patch's hue by up to 0.6 and reported a clear board covered (``g2_blue_1``)."""


def covered_cells(distance: np.ndarray, neighbours: tuple[tuple[int, ...], ...], odd: float, group: int) -> np.ndarray:
    """The cells (indices) something covers: every group of at least ``group`` neighbouring cells each beyond
    ``odd`` spreads from every class (``distance``: N, see :class:`~vision.cells.CellVerdicts`)."""
    covered: set[int] = set()
    hot = set(np.flatnonzero(distance > odd).tolist())
    while hot:
        stack = [hot.pop()]
        members = []
        while stack:
            cell = stack.pop()
            members.append(cell)
            for near in neighbours[cell]:
                if near in hot:
                    hot.remove(near)
                    stack.append(near)
        if len(members) >= group:
            covered.update(members)
    return np.array(sorted(covered), dtype=np.intp)


def ring_points(geometry: Geometry, out: float, step: float) -> np.ndarray:
    """Points (M×2) every ``step`` or less along the rectangle ``out`` board units around the playing area's
    bounding box, in order around it: on the board's own margin. The playing area is what the board shows:
    its squares or hexagons, or on a board of points (Go) the lines through them, whose margin beyond the
    edge lines is often under a pitch wide."""
    if geometry.layout is Layout.POINT:
        vertices = np.array(geometry.centres, dtype=np.float64)
    else:
        vertices = np.array([v for cell in geometry.cells for v in geometry.polygon(cell)], dtype=np.float64)
    (x0, y0), (x1, y1) = vertices.min(axis=0) - out, vertices.max(axis=0) + out
    corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    points: list[np.ndarray] = []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        count = max(1, math.ceil(float(np.linalg.norm(b - a)) / step))
        points.extend(a + (b - a) * t for t in np.arange(count) / count)
    return np.array(points)


def ring_cells(ring: np.ndarray, centres: np.ndarray, reach: float) -> np.ndarray:
    """Which cells' pieces may show over each patch of the ring (M×N, bool): the nearest cell's, and every
    cell's whose point lies within ``reach`` of the patch (a piece's radius, how far off its point it may lie,
    and half the window a patch's colour is read over). A Go stone on the edge line reaches over the rim
    beside its neighbour's point too, and its shadow further."""
    distance = np.linalg.norm(ring[:, None, :] - centres[None, :, :], axis=2)
    beside = distance <= reach
    beside[np.arange(len(ring)), distance.argmin(axis=1)] = True
    return beside


def free_patches(beside: np.ndarray, bare: np.ndarray) -> np.ndarray:
    """Which patches of the ring (M) no piece shows over: every cell ``beside`` them (M×N, see
    :func:`ring_cells`) is ``bare`` (N)."""
    return ~(beside & ~bare[None, :]).any(axis=1)


def _tells_hue(seen: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Which channels of the ring's patches (M×3) tell a hue: shown as they are (:func:`vision.surface.shows_hue`)
    in this frame and in calibration's, whose clipped channel falls short of the surface's colour."""
    return shows_hue(seen) & shows_hue(reference)


def _tells_hues(told: np.ndarray) -> np.ndarray:
    """Which patches of the ring tell a hue, from which of their channels do (``told``, M×3, see
    :func:`_tells_hue`): two channels or more, one to change against another."""
    return np.asarray(told.sum(axis=1) >= 2)


def ring_hues(seen: np.ndarray, reference: np.ndarray, light: np.ndarray) -> np.ndarray:
    """How far each patch of the ring changed its hue (M, log colour): ``seen`` and ``reference`` are the patches'
    log colours (M×3, in order around the ring) in this frame and at calibration, ``light`` this frame's light
    at each (M×3, log). The lamp's glare the patch shows is taken out first (:func:`vision.surface.lit_surface`);
    channels the camera shows black or clipped, in this frame or in calibration's (whose clipped channel falls
    short of the surface's colour), tell no hue, nor does a patch with fewer than two others. A channel within
    the camera's noise of black (:data:`NOISE`) is taken at that noise, in this frame and in what the patch
    would show: darker tells nothing more."""
    lit, _, _ = lit_surface(reference + light, seen)
    change = np.maximum(seen, NOISE) - np.maximum(lit, NOISE)
    told = _tells_hue(seen, reference)
    known = _tells_hues(told)
    spread = np.zeros(len(seen))
    if known.any():
        masked = np.where(told, change, np.nan)[known]
        spread[known] = np.nanmax(masked, axis=1) - np.nanmin(masked, axis=1)
    return spread


def rim_light(
    seen: np.ndarray, reference: np.ndarray, light: np.ndarray, terms: np.ndarray, known: np.ndarray
) -> np.ndarray:
    """The ring's own light (M×3, log): the cells' ``light`` at each patch plus what best turns the ``known``
    patches' ``reference`` into what they show (``seen``), each counting less the further it lies off the last
    fit (a Cauchy weight of scale ``RIM_SPREAD``, the first about the ring's median change): a lamp moves the
    whole ring alike, an arm only where it lies.

    What the lamp does is a smooth field (``terms``, M×T, as the cells' field) and, where enough patches are
    known to tell it, a linear map of the reference colour about its median: the ring's margin, its edge and
    the table beyond are other surfaces, and a tinted lamp moves each surface's channels otherwise (under a
    lamp of one narrow colour every channel shows the surface's reflectance at that colour, which its colour
    under white light tells). Channels black or clipped, in this frame or calibration's, say nothing; with
    fewer known patches than three per term, the field alone, and with fewer still the cells' light alone."""
    pivot = median(reference[known], axis=0) if known.any() else np.zeros(reference.shape[1])
    designs = (np.concatenate([terms, reference - pivot], axis=1), terms)
    design = next((d for d in designs if known.sum() >= 3 * d.shape[1]), None)
    if design is None:
        return light
    told = known[:, None] & _tells_hue(seen, reference)
    residual = np.where(told, seen - reference - light, 0.0)
    ridge = 1e-3 * np.eye(design.shape[1])
    telling = told.any(axis=0)
    # the first weights about the ring's median change: a wide arm never pulls the first fit its way
    middle = np.array([median(residual[told[:, j], j]) if telling[j] else 0.0 for j in range(told.shape[1])])
    off = residual - middle
    fit = np.zeros_like(residual)
    for _ in range(RIM_ROUNDS):
        weight = told / (1.0 + (off / RIM_SPREAD) ** 2)  # M×3: every channel's fit at once
        weighted = weight.T[:, :, None] * design[None]  # 3×M×D
        normal = weighted.transpose(0, 2, 1) @ design + ridge
        coef = np.linalg.solve(normal, (weighted * residual.T[:, :, None]).sum(axis=1)[:, :, None])[:, :, 0]
        fit = design @ coef.T
        off = residual - fit
    return light + np.where(telling, fit, 0.0)


def crossed_ring(
    seen: np.ndarray, reference: np.ndarray, light: np.ndarray, terms: np.ndarray, hue: float, free: np.ndarray
) -> bool:
    """Whether an arm crosses the ring: two neighbouring patches whose hue changed by more than ``hue`` (see
    :func:`ring_hues`) in the ring's own light (:func:`rim_light`, from the cells' ``light`` at each patch and
    the light field's ``terms`` there), each ``free`` (M): beside no piece, whose side or top may lean over the
    ring. A patch whose ``reference`` is unknown (not finite: calibration never saw it free) tells nothing.

    The ring's own light is fitted to the patches that tell a hue (two channels or more shown as they are, see
    :func:`ring_hues`): a patch that shows one channel alone lies at the camera's limits, where its tone curve
    bends. Under the violet lamp of ``go-coloured-light`` the right margin of game 2, whose reference showed red
    clipped and green at 0.88 to 0.94, lost 0.3 to 0.4 less green than the margin beside it; its green alone bent
    the fit, and four free patches of the near margin beyond it read as an arm crossing (``g2_violet_*``)."""
    free = free & np.isfinite(reference).all(axis=1)
    reference = np.where(np.isfinite(reference), reference, 0.0)
    telling = free & _tells_hues(_tells_hue(seen, reference))
    light = rim_light(seen, reference, light, terms, telling)
    crossed = (ring_hues(seen, reference, light) > hue) & free
    return bool((crossed & np.roll(crossed, 1)).any())
