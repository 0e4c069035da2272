"""Learning a board's :class:`~vision.model.BoardModel` from the user's own photos.

Calibration is given photos of the board with known layouts (a game under
way is fine) and, when there is one, a photo of the empty board. From them:

1. **Where to look for a piece.** Pieces have height, and the camera sees
   their tops over the board beyond their cells (:mod:`vision.pose`). Each
   known stone is found where it looks most like the others of its colour,
   anywhere near its point; the height whose tops lie nearest those places
   is the one the reader uses.
2. **The light of each photo.** Photos taken at different moments are under
   different light. Each photo's light is a smooth field (as in
   :mod:`vision.cells`), fitted so that every known cell agrees with its
   class; the first photo's light is calibration's.
3. **Each cell's empty colour**: the median of what it showed when empty.
   A cell never seen empty takes the median of the nearest cells *like it*
   (the same square colour on a checkerboard), and its spread is widened by
   how far cells stray from their like neighbours (``like_spread``).
4. **Each stone colour**: the mean and covariance of every stone of it, in
   calibration's light.

Spreads never fall below ``spread_floor`` (a share of light, in log colour):
one photo shows no frame-to-frame noise, and a colour learned from one stone
has no spread of its own. A texture measure's never falls to nothing
(``TEXTURE_FLOOR``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from referee.geometry import Geometry
from vision.board_image import BoardView
from vision.cells import field_columns, field_offsets, light_terms
from vision.config import VisionConfig
from vision.cover import free_patches, ring_cells, ring_points
from vision.errors import ColourModelError
from vision.lens import STRAIGHT, Lens
from vision.model import STONES, BoardModel, StoneLook, Vector, as_matrix, as_vector, like_groups
from vision.pose import CameraPose

LIKE_NEIGHBOURS = 4
"""How many of the nearest like cells a cell never seen empty learns its colour from."""
HEIGHT_STEP = 0.05
"""Step (board units) of the search for where pieces are looked for."""
REACH = 0.9
"""How far (board units) from its point a known stone's top is looked for when learning the height: a tall
piece seen at a slant shows its top most of a cell away."""
LIGHT_ROUNDS = 4
"""Rounds of fitting each photo's light and the classes' colours in turn."""
LIGHT_RIDGE = 1.0
"""How strongly each photo's light field is held towards flat (see :mod:`vision.cells`)."""
TEXTURE_FLOOR = 1e-6
"""The least spread (squared) of a texture measure: it keeps a look's spread invertible where every example
shows the measure at exactly 0 (white stones at the camera's full scale show no line at all). The camera's
noise in a frame is the light's to tell (its texture noise floor, see :class:`vision.cells.Light`)."""


AUGMENT_SHIFT = 0.06
"""How far (board units) the augmented copies of a calibration photo are read off each cell's point: the
corners' error and a camera nudged by a pixel or two."""
AUGMENT_BLUR_PX = 1.0
"""Blur (Gaussian sigma, camera pixels) of the augmented copy of a calibration photo: focus and camera shake."""
AUGMENT_NOISE = 3.0
"""Sensor noise (grey levels) of the augmented copy of a calibration photo."""
AUGMENT_SEED = 0xCA1
"""Seeds the augmented copies' noise, so that calibration is repeatable."""


@dataclass(frozen=True, eq=False)
class CalibrationPhoto:
    """One calibration photo: the picture (BGR), its homography (board plane to picture) and the symbol of every
    cell (all ``.`` for the empty board; ``?`` cells are not learned from)."""

    image: np.ndarray
    homography: np.ndarray
    symbols: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class _Seen:
    """A calibration photo as the reader sees it: its features, its augmented copies', and the camera's pose."""

    features: np.ndarray
    augmented: tuple[np.ndarray, ...]
    pose: CameraPose


def learn_model(
    geometry: Geometry,
    view: BoardView,
    photos: Sequence[CalibrationPhoto],
    max_height: float,
    spread_floor: float,
    offsets: np.ndarray | None = None,
    reach: float = 0.9,
    lens: Lens = STRAIGHT,
) -> BoardModel:
    """The board model learned from ``photos`` (see the module docstring); raises ColourModelError when they
    cannot give one (no stone shown, no cell ever seen empty, a layout for another board). ``offsets`` (K×2,
    zero first) are where around its point a known stone may lie: each is learned where it looks most like
    the others of its colour. ``reach``: how far (board units) from its point a known stone's top is looked
    for when learning the height. ``lens``: how the camera bends the photos (their homographies map the board to
    the picture as a straight lens shows it)."""
    n = len(geometry.cells)
    for k, photo in enumerate(photos):
        if len(photo.symbols) != n:
            raise ColourModelError(f"calibration photo {k + 1} has {len(photo.symbols)} cells, {geometry.spec} has {n}")
    labels = np.array([photo.symbols for photo in photos])
    stones = [s for s in STONES if (labels == s).any()]
    if not stones:
        raise ColourModelError(
            "no stone was shown during calibration: give photos with known layouts that show each stone colour in play"
        )
    if not (labels == ".").any():
        raise ColourModelError("no cell was ever seen empty in the calibration photos: give one with empty cells")
    rng = np.random.default_rng(AUGMENT_SEED)
    seen_photos = [_see(view, photo, rng, lens) for photo in photos]
    centres = np.array(geometry.centres, dtype=np.float64)
    groups = like_groups(geometry)
    height = _best_height(view, seen_photos, centres, labels, max_height, reach)
    points = [p.pose.tops(centres, height) for p in seen_photos]
    if offsets is not None and len(offsets) > 1:
        points = _centred_on_stones(view, seen_photos, points, labels, stones, np.asarray(offsets, np.float64))
    seen = np.array([view.sample(p.features, q) for p, q in zip(seen_photos, points, strict=True)], dtype=np.float64)
    shifts = AUGMENT_SHIFT * np.array([(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)])
    # every photo's augmented copies, each read a little off each cell's point in four directions: A × T × N × F
    augmented = np.array(
        [
            [view.sample(p.augmented[c], q + d) for p, q in zip(seen_photos, points, strict=True)]
            for d in shifts
            for c in range(len(seen_photos[0].augmented))
        ],
        dtype=np.float64,
    )
    light = _photo_light(seen, labels, stones, centres, groups)
    normal = seen - light
    augmented_normal = augmented - light[None]
    empty, empty_seen = _empty_looks(normal, labels, centres, groups)
    width = seen.shape[2]
    floor = np.eye(width) * TEXTURE_FLOOR
    floor[:3, :3] = np.eye(3) * spread_floor**2
    looks = {s: _look(normal, augmented_normal, labels == s, floor) for s in stones}
    around = ball_looks = None
    if geometry.kind == "grid" and offsets is not None:
        around = _empty_around(view, seen_photos, points, labels, light, centres, groups, np.asarray(offsets))
        # a ball's look on each colour of square, where enough balls of its colour lay there to tell it
        squares = [groups == g for g in range(int(groups.max()) + 1)]
        ball_looks = tuple(
            {
                s: _look(normal, augmented_normal, (labels == s) & on, floor)
                for s in stones
                if ((labels == s) & on).sum() > width
            }
            for on in squares
        )
    return BoardModel(
        geometry=geometry.spec,
        height=height,
        empty=tuple(as_vector(c) for c in empty),
        empty_seen=tuple(bool(v) for v in empty_seen),
        empty_spread=as_matrix(_empty_spread(normal, augmented_normal, labels, empty) + floor),
        like_spread=as_matrix(_like_spread(empty, empty_seen, centres, groups)),
        stones=looks,
        empty_around=None if around is None else tuple(tuple(as_vector(v) for v in cell) for cell in around),
        lens=lens,
        ball_looks=ball_looks,
    )


def _look(normal: np.ndarray, augmented: np.ndarray, own: np.ndarray, floor: np.ndarray) -> StoneLook:
    """The look of the ``own`` cells of the photos (T×N, bool): the mean of what they show in calibration's light
    (``normal``, T×N×F), and a spread of how their augmented copies (``augmented``, A×T×N×F) differ from them,
    plus ``floor``, plus the cells' own scatter where there are more of them than features."""
    width = normal.shape[2]
    samples = normal[own]
    jitter = (augmented[:, own] - samples[None]).reshape(-1, width)
    spread = jitter.T @ jitter / len(jitter) + floor
    if len(samples) > width:
        spread += np.cov(samples.T)
    return StoneLook(mean=as_vector(samples.mean(axis=0)), spread=as_matrix(spread), count=len(samples))


def _empty_around(
    view: BoardView,
    photos: Sequence[_Seen],
    points: list[np.ndarray],
    labels: np.ndarray,
    light: np.ndarray,
    centres: np.ndarray,
    groups: np.ndarray,
    offsets: np.ndarray,
) -> np.ndarray:
    """Each cell's bare look at every offset (N×K×F): the median over the photos that show it empty, or, for a
    cell never seen empty, over its like cells' (the same square colour: the same pattern around the point)."""
    around = np.array(
        [view.sample(p.features, q[:, None, :] + offsets[None]) for p, q in zip(photos, points, strict=True)],
        dtype=np.float64,
    )
    around -= light[:, :, None, :]
    n = labels.shape[1]
    out = np.zeros((n, len(offsets), around.shape[3]))
    seen = (labels == ".").any(axis=0)
    for i in np.flatnonzero(seen):
        out[i] = np.median(around[labels[:, i] == ".", i], axis=0)
    for i in np.flatnonzero(~seen):
        out[i] = np.median(out[_like_seen(int(i), seen, centres, groups)], axis=0)
    return out


def _centred_on_stones(
    view: BoardView,
    photos: Sequence[_Seen],
    points: list[np.ndarray],
    labels: np.ndarray,
    stones: list[str],
    offsets: np.ndarray,
) -> list[np.ndarray]:
    """Each photo's points (N×2), each known stone's moved to the offset where it looks most like the typical
    stone of its colour (a stone placed off its point, or one of several Kaskade balls)."""
    around = np.array(
        [view.sample(p.features, q[:, None, :] + offsets[None]) for p, q in zip(photos, points, strict=True)]
    )
    chosen = np.zeros(labels.shape, dtype=np.intp)
    cost = 0.5 * (offsets**2).sum(axis=1) / max(float((offsets**2).sum(axis=1).max()) / 4.0, 1e-9)
    for _ in range(2):
        for s in stones:
            t, i = np.nonzero(labels == s)
            at = around[t, i, chosen[t, i]]
            centre = np.median(at, axis=0)
            spread = np.median(np.abs(at - centre), axis=0) * 1.4826 + 1e-3
            z2 = (((around[t, i] - centre) / spread) ** 2).sum(axis=2)
            chosen[t, i] = (z2 + cost[None, :]).argmin(axis=1)
    return [q + offsets[chosen[t]] for t, q in enumerate(points)]


def _see(view: BoardView, photo: CalibrationPhoto, rng: np.random.Generator, lens: Lens) -> _Seen:
    """The photo's features through the camera's ``lens``, and those of a copy as another frame of the game may
    show it: blurred and noisier (focus, shake, a dim sensor)."""
    image = photo.image
    copy = cv2.GaussianBlur(image, (0, 0), AUGMENT_BLUR_PX).astype(np.float32)
    copy += np.asarray(rng.normal(0.0, AUGMENT_NOISE, copy.shape), dtype=np.float32)
    noisy = np.clip(copy, 0, 255).astype(np.uint8)
    height, width = image.shape[:2]
    lens = lens.for_size((width, height))
    return _Seen(
        features=view.features(view.warp(image, photo.homography, lens)),
        augmented=(view.features(view.warp(noisy, photo.homography, lens)),),
        pose=CameraPose.from_homography(photo.homography, (width, height)),
    )


def _photo_light(
    seen: np.ndarray, labels: np.ndarray, stones: list[str], centres: np.ndarray, groups: np.ndarray
) -> np.ndarray:
    """Each photo's light as it changes each feature (T × N × F, zero for the first photo): the
    fields that make every known cell agree best with its class (see :mod:`vision.cells`)."""
    terms = light_terms(centres)
    ridge = np.diag([1e-6] + [LIGHT_RIDGE] * (terms.shape[1] - 1))
    light = np.zeros_like(seen)
    for _ in range(LIGHT_ROUNDS):
        normal = seen - light
        means = {s: np.median(normal[labels == s], axis=0) for s in stones}
        empty, _ = _empty_looks(normal, labels, centres, groups)
        for t in range(1, len(seen)):
            expected = np.array([empty[i] if s == "." else means.get(s, np.nan) for i, s in enumerate(labels[t])])
            known = np.isfinite(expected[:, 0])
            a = terms[known]
            coef = np.linalg.solve(a.T @ a + ridge, a.T @ field_columns(seen[t][known] - expected[known]))
            light[t] = field_offsets(terms @ coef, seen.shape[2])
    return light


def _best_height(
    view: BoardView,
    photos: Sequence[_Seen],
    centres: np.ndarray,
    labels: np.ndarray,
    max_height: float,
    reach: float,
) -> float:
    """The height whose tops best match where the known stones are seen.

    Each known stone is looked for all around its point (up to ``REACH``
    board units away) and found where it looks most like the typical stone
    of its colour (judged in turn from where they were found). The height
    is then the one whose tops (:meth:`~vision.pose.CameraPose.tops`) lie
    nearest the stones found, by the median distance: a stone placed off its
    point moves its own top, not the others'.
    """
    steps = np.arange(-reach, reach + 1e-9, reach / 6.0)
    offsets = np.array([(x, y) for y in steps for x in steps if x * x + y * y <= reach * reach + 1e-9])
    t, i = np.nonzero((labels != ".") & (labels != "?"))
    if t.size == 0:
        return 0.0
    around = np.array([view.sample(photos[int(a)].features, centres[b] + offsets) for a, b in zip(t, i, strict=True)])
    symbols = labels[t, i]
    chosen = np.full(t.size, int(np.argmin((offsets**2).sum(axis=1))))
    for _ in range(3):
        for s in np.unique(symbols):
            own = symbols == s
            at = around[own, chosen[own]]
            centre = np.median(at, axis=0)
            spread = np.median(np.abs(at - centre), axis=0) * 1.4826 + 1e-3
            chosen[own] = (((around[own] - centre) / spread) ** 2).sum(axis=2).argmin(axis=1)
    found = centres[i] + offsets[chosen]
    best, best_miss = 0.0, np.inf
    for height in np.arange(0.0, max_height + 1e-9, HEIGHT_STEP):
        tops = np.array(
            [photos[int(a)].pose.tops(centres[b : b + 1], float(height))[0] for a, b in zip(t, i, strict=True)]
        )
        miss = float(np.median(np.linalg.norm(tops - found, axis=1)))
        if miss < best_miss - 1e-9:
            best, best_miss = float(height), miss
    return best


def _empty_looks(
    normal: np.ndarray, labels: np.ndarray, centres: np.ndarray, groups: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's empty colour (N×3) and whether it was seen empty (N): a cell never seen empty takes the median
    of its nearest seen like cells (of any group when its own has none)."""
    n = normal.shape[1]
    empty = np.zeros((n, normal.shape[2]))
    seen = (labels == ".").any(axis=0)
    for i in np.flatnonzero(seen):
        empty[i] = np.median(normal[labels[:, i] == ".", i], axis=0)
    for i in np.flatnonzero(~seen):
        empty[i] = np.median(empty[_like_seen(int(i), seen, centres, groups)], axis=0)
    return empty, seen


def _like_seen(i: int, seen: np.ndarray, centres: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """The nearest cells seen empty that are like cell ``i`` (of its group when any is seen)."""
    pool = np.flatnonzero(seen & (groups == groups[i]))
    if pool.size == 0:
        pool = np.flatnonzero(seen)
    pool = pool[pool != i] if pool.size > 1 else pool
    distance = np.linalg.norm(centres[pool] - centres[i], axis=1)
    return pool[np.argsort(distance, kind="stable")[:LIKE_NEIGHBOURS]]


def _empty_spread(normal: np.ndarray, augmented: np.ndarray, labels: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """The covariance of empty cells' looks about their own empty look: over the augmented copies, and over the
    photos of cells seen empty more than once."""
    empty_cells = labels == "."
    jitter = (augmented[:, empty_cells] - normal[empty_cells][None]).reshape(-1, normal.shape[2])
    spread = jitter.T @ jitter / len(jitter)
    residuals = []
    for i in range(normal.shape[1]):
        shown = labels[:, i] == "."
        if shown.sum() > 1:
            r = normal[shown, i] - empty[i]
            residuals.append(r * np.sqrt(shown.sum() / (shown.sum() - 1.0)))
    if residuals:
        r = np.concatenate(residuals)
        spread = spread + (r.T @ r) / len(r)
    return spread


def _like_spread(empty: np.ndarray, seen: np.ndarray, centres: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """How far a seen cell's empty colour strays from what its like neighbours would give it (3×3 covariance)."""
    pool = np.flatnonzero(seen)
    if pool.size < 2:
        return np.zeros((empty.shape[1], empty.shape[1]))
    errors = np.array([empty[i] - np.median(empty[_like_seen(int(i), seen, centres, groups)], axis=0) for i in pool])
    return (errors.T @ errors) / len(errors)


def fit_colour_model(
    geometry: Geometry,
    photos: Sequence[CalibrationPhoto],
    config: VisionConfig | None = None,
    lens: Lens = STRAIGHT,
) -> BoardModel:
    """The board model of ``geometry`` learned from ``photos`` through the camera's ``lens`` (the photos'
    homographies map the board to the picture as a straight lens shows it) with the reader's own view and settings,
    with the
    ring around the board (see :mod:`vision.cover`): each patch as the first photo that shows it free (its
    cell empty) shows it, unknown where none does (an edge stone seen from the side leans over the rim).
    Raises ColourModelError when the photos cannot give one."""
    from vision.balls import BALL_RADIUS
    from vision.pipeline import make_view, ring_reach, search_offsets

    config = config or VisionConfig()
    if not photos:
        raise ColourModelError("no calibration photo was given: give photos of the board with known layouts")
    view = make_view(geometry, config)
    balls = geometry.kind == "grid"
    # Kaskade's pieces are balls, never taller than wide, anywhere in their cell
    model = learn_model(
        geometry,
        view,
        photos,
        2.0 * BALL_RADIUS if balls else config.max_height,
        config.spread_floor,
        search_offsets(geometry, config),
        0.5 - BALL_RADIUS if balls else REACH,
        lens,
    )
    ring = ring_points(geometry, config.border_out, config.border_step)
    beside = ring_cells(ring, np.array(geometry.centres, dtype=np.float64), ring_reach(geometry, config))
    border: list[Vector | None] = [None] * len(ring)
    for photo in photos:
        shown = free_patches(beside, np.array(photo.symbols) == ".")
        free = [i for i in np.flatnonzero(shown) if border[i] is None]
        if free:
            through = lens.for_size((photo.image.shape[1], photo.image.shape[0]))
            flat = view.warp(photo.image, photo.homography, through)
            around = view.sample(view.features(flat), ring[free])[:, :3]
            for i, colour in zip(free, around, strict=True):
                border[i] = as_vector(colour)
    return replace(model, border=tuple(border))
