"""The board's real lines: where they cross in a picture, and the lens they tell.

Four corners give a homography, and a homography draws straight lines; a
wide-angle lens bows them (see :mod:`vision.lens`), so a lattice from the
corners misses the middle of the board by up to a sixth of a pitch. The board
shows where its lines really run: a Go board's lines cross at every point, a
checkerboard's squares meet at their corners, a hex board's cells at theirs.
Those *crossings* that no piece covers are found in the picture with OpenCV's
corner refinement (``cornerSubPix``: the point where the picture's gradients
around it all point across the lines through it), started from where the
current lattice puts them; then the lens and each photo's homography that
best explain them are fitted. A crossing found off by more than a share of a
pitch is something else (a piece's edge, the wood's grain) and counts no more
than that share: the fit is robust to a few.

:func:`fit_lens` does this over the calibration photos, whose layouts say which
crossings are bare.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from referee.geometry import Geometry, Layout
from vision.lens import MAX_BEND, STRAIGHT, Lens, project

WINDOWS = (0.4, 0.2)
"""Half the side of the window a crossing is refined over, as a share of the local pitch: in the first round wide
enough to reach a crossing the lattice from four corners misses by a third of a pitch (the next lines lie a pitch
away), then narrower, to keep out what lies beside a crossing the last fit already puts near it."""
TRUNCATE = 0.08
"""A crossing further than this share of a pitch from the fitted lattice counts as if it lay just that far."""
MIN_CROSSINGS = 24
"""Fewest bare crossings, over all photos, for the lens to be fitted; with fewer the lens is taken straight."""
PER_PHOTO = 8
"""Fewest crossings a photo must show for its homography to be fitted to them (and them to count)."""
ROUNDS = 3
"""Rounds of finding the crossings where the last fit puts them and fitting again."""

SIGNIFICANT = 10.83
"""The least likelihood-ratio statistic (chi-squared, one degree of freedom) at which a bent lens is believed over
a straight one: one chance in a thousand that crossings seen through a straight lens pass it. A small board in
the middle of the picture bends too little to tell."""

FOLLOWED = 26.12
"""The least likelihood-ratio statistic (chi-squared, eight degrees of freedom: a homography's free terms) at which
the board's crossings move a located board: one chance in a thousand that crossings of a board located right pass
it."""

Found = tuple[int, np.ndarray, np.ndarray, tuple[int, int], np.ndarray]
"""The crossings one photo showed: its index, their board points and picture positions (M×2 each), the picture's
size, and the pitch (pixels) at each."""


@dataclass(frozen=True)
class LensFit:
    """What :func:`fit_lens` found: the ``lens``, how many crossings told it (``crossings``, within ``TRUNCATE`` of
    the fit), and how far (root mean square, shares of a pitch) they lie from the fitted lattice (``residual``)
    and from the straight lattice fitted to the same crossings (``straight_residual``)."""

    lens: Lens
    crossings: int
    residual: float
    straight_residual: float


def crossings(geometry: Geometry) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    """The board points where the board's lines cross (M×2), and for each the cells a piece on which may cover
    it: on a board of points its own points (its lines run to the edge); otherwise the corners that cells meet at
    all round (four squares, three hexagons), since where a cell meets the board's margin the margin may be of the
    cell's own colour, and no corner shows there."""
    if geometry.layout is Layout.POINT:
        points = np.array(geometry.centres, dtype=np.float64)
        near = tuple((i, *geometry.neighbours_ix[i]) for i in range(len(geometry.cells)))
        return points, near
    keyed: dict[tuple[int, int], list[int]] = {}
    where: dict[tuple[int, int], tuple[float, float]] = {}
    for i, cell in enumerate(geometry.cells):
        for x, y in geometry.polygon(cell):
            key = (round(x * 1000), round(y * 1000))
            keyed.setdefault(key, []).append(i)
            where.setdefault(key, (x, y))
    meeting = 3 if geometry.layout is Layout.HEX else 4
    keys = sorted(k for k in keyed if len(keyed[k]) >= meeting)
    if not keys:
        return np.zeros((0, 2)), ()
    return np.array([where[k] for k in keys], dtype=np.float64), tuple(tuple(keyed[k]) for k in keys)


def bare(near: tuple[tuple[int, ...], ...], symbols: Sequence[str]) -> np.ndarray:
    """Which crossings (M bools) no piece covers in a photo whose cells hold ``symbols``."""
    return np.array([all(symbols[i] == "." for i in cells) for cells in near], dtype=bool)


def bare_crossings(geometry: Geometry, layouts: Sequence[Sequence[str]]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The board's crossings (M×2) and, for each of ``layouts`` (calibration's known cells' symbols), which of
    them it shows bare: those no piece may cover (:func:`crossings`); or, on a board of points whose layouts
    leave fewer of those than ``MIN_CROSSINGS`` in all, every crossing whose own point is bare. A nearly full
    board (a game under way) leaves few points whose four neighbours are bare too, yet a stone on a neighbouring
    point covers the lines only from half a pitch out, beyond the window a crossing is refined over, unless it
    lies off its point towards it: the fit's truncation bears those few, and the stricter crossings are taken
    wherever they are enough. Only for layouts known to be true: a reading may take a stone for a bare point,
    and a covered frame's reading takes many (:func:`follow_lines` keeps to the stricter crossings)."""
    points, near = crossings(geometry)
    shown = [bare(near, symbols) for symbols in layouts]
    if sum(int(free.sum()) for free in shown) < MIN_CROSSINGS and geometry.layout is Layout.POINT:
        shown = [np.array([symbol == "." for symbol in symbols], dtype=bool) for symbols in layouts]
    return points, shown


def find_crossings(
    grey: np.ndarray, homography: np.ndarray, lens: Lens, points: np.ndarray, window: float
) -> tuple[np.ndarray, np.ndarray]:
    """Where a grey picture shows the crossings at board ``points`` (M×2), each refined over a window ``window``
    pitches from its centre, from where ``homography`` and ``lens`` put it; returns the positions (M×2 pixels) and
    which were found within the window."""
    predicted = project(homography, lens, points)
    pitch = _pitch_px(homography, lens, points)
    found = predicted.copy()
    inside = (
        (predicted[:, 0] >= 1)
        & (predicted[:, 1] >= 1)
        & (predicted[:, 0] < grey.shape[1] - 2)
        & (predicted[:, 1] < grey.shape[0] - 2)
        & (pitch >= 6.0)
    )
    half = np.clip(np.round(window * pitch), 2, 40).astype(int)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 0.01)
    for size in np.unique(half[inside]):
        chosen = np.flatnonzero(inside & (half == size))
        corners = predicted[chosen].astype(np.float32).reshape(-1, 1, 2)
        refined = cv2.cornerSubPix(grey, corners, (int(size), int(size)), (-1, -1), criteria)
        found[chosen] = refined.reshape(-1, 2)
    near = np.linalg.norm(found - predicted, axis=1) <= window * pitch
    return found, inside & near


def fit_lens(geometry: Geometry, photos: Sequence[tuple[np.ndarray, np.ndarray, Sequence[str]]]) -> LensFit:
    """The lens that best explains where the calibration photos show their bare crossings.

    ``photos``: each a BGR picture, its homography from the board plane to the picture as located without a lens
    (from its corners or markers), and its cells' symbols. Every photo keeps a homography of its own, so photos
    from any pose can tell one lens; the lens is taken straight when too few crossings are bare.
    """
    points, shown = bare_crossings(geometry, [symbols for _, _, symbols in photos])
    views = []
    for (image, homography, _), free in zip(photos, shown, strict=True):
        if free.any():
            views.append((_grey(image), np.asarray(homography, np.float64), points[free]))
    if sum(len(v[2]) for v in views) < MIN_CROSSINGS:
        return LensFit(STRAIGHT, 0, float("nan"), float("nan"))
    k1 = 0.0
    homographies = [v[1] for v in views]
    seen: list[Found] = []
    for round_ in range(ROUNDS):
        window = WINDOWS[min(round_, len(WINDOWS) - 1)]
        seen = []
        for k, (grey, _, board) in enumerate(views):
            size = (grey.shape[1], grey.shape[0])
            found, ok = find_crossings(grey, homographies[k], Lens(k1, size), board, window)
            if ok.sum() >= PER_PHOTO and _spread(board[ok]) >= 1.0:
                seen.append((k, board[ok], found[ok], size, _pitch_px(homographies[k], Lens(k1, size), board[ok])))
        if sum(len(s[1]) for s in seen) < MIN_CROSSINGS:
            return LensFit(STRAIGHT, 0, float("nan"), float("nan"))
        k1 = _best_k1(seen)
        if not _telling(seen, k1):
            k1 = 0.0
        for k, board, found, size, pitch in seen:
            homographies[k] = _fitted(board, found, Lens(k1, size), pitch)[0]
    used, residual = _summary(seen, k1)
    _, straight = _summary(seen, 0.0)
    if used < MIN_CROSSINGS:
        return LensFit(STRAIGHT, used, residual, straight)
    return LensFit(Lens(k1, (views[0][0].shape[1], views[0][0].shape[0])), used, residual, straight)


def follow_lines(
    geometry: Geometry,
    homography: np.ndarray,
    lens: Lens,
    views: Sequence[tuple[np.ndarray, Sequence[str]]],
) -> np.ndarray:
    """The homography (board plane to the straight picture) that the board's own crossings put the board at in
    ``views`` (pictures of one board position, each with its cells' symbols), starting from ``homography`` (from
    four corners) seen through ``lens``; ``homography`` itself unless the crossings tell it apart.

    Corners clicked a few pixels off leave the lattice off by a tenth of a pitch over the board. The crossings
    the symbols show bare are found as :func:`fit_lens` finds them, over every view at once, and the homography
    fitted to them is kept when it explains them better than ``homography`` beyond chance (a likelihood ratio
    past ``FOLLOWED``, for its eight free terms).
    """
    points, near = crossings(geometry)
    shown = []
    for image, symbols in views:
        free = points[bare(near, symbols)]
        if len(free):
            grey = _grey(image)
            shown.append((grey, free, lens.for_size((grey.shape[1], grey.shape[0]))))
    if sum(len(free) for _, free, _ in shown) < MIN_CROSSINGS:
        return homography
    start = np.asarray(homography, dtype=np.float64)
    fitted = start
    for window in WINDOWS:
        board, seen, pitch = [], [], []
        for grey, free, through in shown:
            found, ok = find_crossings(grey, fitted, through, free, window)
            board.append(free[ok])
            seen.append(through.straighten(found[ok]))
            pitch.append(_pitch_px(fitted, STRAIGHT, free[ok]) if ok.any() else np.zeros(0))
        all_board, all_seen, all_pitch = np.concatenate(board), np.concatenate(seen), np.concatenate(pitch)
        if len(all_board) < MIN_CROSSINGS or _spread(all_board) < 1.0:
            return homography
        # every view's crossings straightened through its own lens: one homography fits them all
        fitted, miss = _fitted(all_board, all_seen, STRAIGHT, all_pitch)
    before = np.linalg.norm(project(start, STRAIGHT, all_board) - all_seen, axis=1) / np.maximum(all_pitch, 1e-9)
    if int((miss <= TRUNCATE).sum()) < MIN_CROSSINGS:
        return homography
    return fitted if _beyond_chance(_truncated(before), _truncated(miss), len(miss), FOLLOWED) else homography


def locate_through_lens(
    geometry: Geometry,
    images: Sequence[np.ndarray],
    symbols: Sequence[Sequence[str]],
    locate: Callable[[int, Lens], np.ndarray],
    positions: Sequence[int | None] | None = None,
) -> tuple[Lens, list[np.ndarray]]:
    """The lens the calibration photos' lines tell, and each photo's homography through it.

    ``locate(k, lens)`` gives photo ``k``'s homography (board plane to the picture as a straight lens shows it)
    through ``lens`` on that photo's size, as the reader will locate it (by its corners or markers): first
    through a straight lens, for :func:`fit_lens` to start from, then through the lens fitted. ``positions``
    says which photos a pair of corners placed (photos of one number share one board position; None, or no
    ``positions``: markers placed it): each such position is then moved onto the crossings its photos show
    bare (:func:`follow_lines`), as the reader moves a board its corners placed, so that calibration sees each
    photo as the reader will see it.
    """
    straight = [locate(k, STRAIGHT) for k in range(len(images))]
    lens = fit_lens(geometry, list(zip(images, straight, symbols, strict=True))).lens
    located = straight
    if not lens.straight:
        located = [locate(k, lens.for_size((image.shape[1], image.shape[0]))) for k, image in enumerate(images)]
    if positions is None:
        return lens, located
    for position in sorted({p for p in positions if p is not None}):
        members = [k for k, p in enumerate(positions) if p == position]
        followed = follow_lines(geometry, located[members[0]], lens, [(images[k], symbols[k]) for k in members])
        for k in members:
            located[k] = followed
    return lens, located


def _grey(image: np.ndarray) -> np.ndarray:
    """A picture in grey, as ``cornerSubPix`` takes it."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _spread(points: np.ndarray) -> float:
    """How far (board units, root mean square) points spread in the direction they spread least: a homography
    needs points off one line."""
    centred = points - points.mean(axis=0)
    return float(np.linalg.svd(centred, compute_uv=False)[-1] / np.sqrt(len(points)))


def _pitch_px(homography: np.ndarray, lens: Lens, points: np.ndarray) -> np.ndarray:
    """The pitch (pixels) the picture shows at each board point (M): the mean of its steps along x and y."""
    if len(points) == 0:
        return np.zeros(0)
    at = project(homography, lens, points)
    along = project(homography, lens, points + np.array([1.0, 0.0]))
    down = project(homography, lens, points + np.array([0.0, 1.0]))
    return 0.5 * (np.linalg.norm(along - at, axis=1) + np.linalg.norm(down - at, axis=1))


def _fitted(board: np.ndarray, found: np.ndarray, lens: Lens, pitch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The homography (board plane to the straight picture) that ``lens`` and the crossings found (M×2 pixels) at
    ``board`` points best agree with, refitted twice without the crossings beyond ``TRUNCATE`` of a pitch;
    returns it and each crossing's distance from it in pitches."""
    keep = np.ones(len(board), dtype=bool)
    homography = lens.straight_homography(board, found)
    for _ in range(2):
        miss = np.linalg.norm(project(homography, lens, board) - found, axis=1) / np.maximum(pitch, 1e-9)
        keep = miss <= max(TRUNCATE, 3.0 * float(np.median(miss)))
        if keep.sum() < 4:
            break
        homography = lens.straight_homography(board[keep], found[keep])
    miss = np.linalg.norm(project(homography, lens, board) - found, axis=1) / np.maximum(pitch, 1e-9)
    return homography, miss


def _cost(seen: list[Found], k1: float) -> float:
    """How badly the lens ``k1`` explains the crossings found: each photo's homography fitted, each crossing's
    distance from the lattice in pitches, squared, at most ``TRUNCATE`` squared."""
    total = 0.0
    for _, board, found, size, pitch in seen:
        total += _truncated(_fitted(board, found, Lens(k1, size), pitch)[1])
    return total


def _best_k1(seen: list[Found]) -> float:
    """The lens's ``k1`` of least :func:`_cost`: every hundredth over the range a lens may have, then every
    thousandth about the best of those."""
    coarse = np.linspace(-MAX_BEND, MAX_BEND, 61)
    best = float(coarse[int(np.nanargmin([_cost(seen, float(k)) for k in coarse]))])
    fine = np.clip(best + np.linspace(-0.01, 0.01, 21), -MAX_BEND, MAX_BEND)
    return float(fine[int(np.nanargmin([_cost(seen, float(k)) for k in fine]))])


def _telling(seen: list[Found], k1: float) -> bool:
    """Whether the crossings tell the lens ``k1`` apart from a straight one: the likelihood ratio of the bent lattice
    against the straight, each crossing's scatter about it as its own fit leaves it, passes ``SIGNIFICANT``."""
    return _beyond_chance(_cost(seen, 0.0), _cost(seen, k1), sum(len(s[1]) for s in seen), SIGNIFICANT)


def _truncated(miss: np.ndarray) -> float:
    """The cost of crossings ``miss`` pitches off a lattice: each squared, at most ``TRUNCATE`` squared."""
    return float((np.minimum(miss, TRUNCATE) ** 2).sum())


def _beyond_chance(plain: float, fitted: float, count: int, bound: float) -> bool:
    """Whether a lattice of more free terms, whose ``count`` crossings cost ``fitted``, explains them better than
    the ``plain`` one's cost beyond chance: the likelihood ratio, each crossing's scatter as the fitted lattice
    leaves it, passes ``bound``."""
    return count > 0 and fitted > 0.0 and (plain - fitted) / (fitted / count) > bound


def _summary(seen: list[Found], k1: float) -> tuple[int, float]:
    """How many crossings lie within ``TRUNCATE`` of a pitch of the lattice of lens ``k1``, and their root mean
    square distance (pitches)."""
    misses = [_fitted(board, found, Lens(k1, size), pitch)[1] for _, board, found, size, pitch in seen]
    near = np.concatenate(misses) if misses else np.zeros(0)
    near = near[near <= TRUNCATE]
    return int(len(near)), float(np.sqrt((near**2).mean())) if len(near) else float("nan")
