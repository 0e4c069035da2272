"""The board reader: one camera frame in, one reading of every cell out.

:class:`BoardReader` chains the stages: locate the board (:mod:`vision.locate`),
see it flat (:mod:`vision.board_image`) where each piece's top would appear
(:mod:`vision.pose`), decide every cell (:mod:`vision.cells`), count Kaskade
balls (:mod:`vision.balls`) and tell whether something covers the board
(:mod:`vision.cover`). It keeps the little state that makes consecutive
frames cheap and steady: the last board location (the full marker detection
runs only when the marker patches no longer match), the points each cell is
read at for that location, the last clear frame's light (the next frame
starts from it; a frame that light leaves covered is read afresh, as the
first frame is, and kept so when nothing covers it then: a lamp switched on
during a game is no hand), and the last cells' colours (for the change
measure that the temporal stabiliser uses).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np

from referee.geometry import Geometry, Layout
from vision.balls import BALL_RADIUS, count_balls
from vision.board_image import BoardView, colour_of_log
from vision.cells import FOLLOWED, LIGHT_SPREAD, CellJudge, CellVerdicts, light_terms
from vision.config import VisionConfig
from vision.cover import covered_cells, crossed_ring, free_patches, ring_cells, ring_points
from vision.errors import BoardNotFoundError
from vision.lens import Lens
from vision.lines import follow_lines
from vision.locate import CheckerboardLocator, Location, Locator, find_checkerboard, locate
from vision.median import median
from vision.model import BoardModel, like_groups
from vision.pose import CameraPose


@dataclass(frozen=True)
class FrameReading:
    """What one frame shows.

    ``symbols``: one of ``o x = . ?`` per cell in ``geometry.cells`` order
    (``?`` where the reader cannot decide). ``confidence``: the posterior of
    each symbol (0..1). ``counts``: Kaskade ball counts per cell (0..3), or
    None for other boards. ``occluded``: something covers the board (a hand,
    an arm) or the board could not be confirmed; never trust such a frame.
    ``located``: the board was found (now or by an earlier frame).
    ``change``: the largest colour change (CIE Lab distance) of any cell from
    the previous frame (0 for the first frame; large while anything moves).
    ``stage_ms``: milliseconds spent per stage (``locate``, ``measure``,
    ``classify``). ``looked``: the board points (N×2) each cell's piece was
    found at, or its own point when empty (empty for a frame not located).
    ``unexplained``: the cells something covers (see :func:`vision.cover.covered_cells`).
    """

    symbols: tuple[str, ...]
    confidence: tuple[float, ...]
    counts: tuple[int, ...] | None
    occluded: bool
    located: bool
    change: float
    stage_ms: dict[str, float] = field(default_factory=dict)
    looked: tuple[tuple[float, float], ...] = ()
    unexplained: tuple[int, ...] = ()


class _Decided(NamedTuple):
    """One way of deciding a frame: the cells' verdicts, their symbols and ball counts, the covered cells, and
    whether anything covers the board."""

    verdicts: CellVerdicts
    symbols: tuple[str, ...]
    counts: tuple[int, ...] | None
    covered: np.ndarray
    occluded: bool


def piece_radius(geometry: Geometry) -> float:
    """The radius (board units) of the pieces of ``geometry``: Kaskade's small balls, or a stone."""
    return BALL_RADIUS if geometry.kind == "grid" else geometry.stone_radius


def make_view(geometry: Geometry, config: VisionConfig) -> BoardView:
    """The flat view of ``geometry`` the reader and calibration share."""
    radius = piece_radius(geometry)
    px = config.ball_cell_px if geometry.kind == "grid" else config.cell_px
    return BoardView(
        geometry,
        px,
        config.margin,
        config.window * 2.0 * radius,
        config.top * radius,
        (config.rim[0] * radius, config.rim[1] * radius),
    )


def ring_reach(geometry: Geometry, config: VisionConfig) -> float:
    """How far (board units) from its point a piece of ``geometry`` may show over the ring around the board:
    its radius, as far off its point as it is looked for, and half the window a patch's colour is read over."""
    radius = piece_radius(geometry)
    return radius + float(np.linalg.norm(search_offsets(geometry, config), axis=1).max()) + config.window * radius


def search_offsets(geometry: Geometry, config: VisionConfig) -> np.ndarray:
    """The offsets (K×2, board units, zero first) around a cell's point where its piece is looked for: up to
    ``config.search`` away for a stone; anywhere a ball can lie on a Kaskade cell."""
    if geometry.kind == "grid":
        reach, step = 2.0 * BALL_RADIUS, BALL_RADIUS / 2.0
    else:
        reach, step = config.search, config.search_step
    steps = np.arange(-reach, reach + 1e-9, step)
    steps = np.concatenate([steps, [0.0]]) if not np.isclose(steps, 0.0).any() else steps
    grid = [(float(x), float(y)) for y in steps for x in steps if x * x + y * y <= reach * reach + 1e-9]
    others = [p for p in grid if abs(p[0]) > 1e-9 or abs(p[1]) > 1e-9]
    return np.array([(0.0, 0.0), *others])


class BoardReader:
    """Reads frames of one board with one calibration; keeps tracking state between frames.

    Not thread-safe: use one reader per camera.
    """

    def __init__(
        self,
        geometry: Geometry,
        locator: Locator | None,
        colour_model: BoardModel,
        config: VisionConfig | None = None,
    ) -> None:
        """``locator``: how the board is found; None when every frame is read with its own homography
        (:meth:`read_located`)."""
        colour_model.check_fits(geometry)
        self.geometry = geometry
        self.locator = locator
        self.model = colour_model
        self.config = config or VisionConfig()
        self.view = make_view(geometry, self.config)
        self.centres = np.array(geometry.centres, dtype=np.float64)
        self.offsets = search_offsets(geometry, self.config)
        self.judge = self._judge_of(colour_model)
        self.ring = ring_points(geometry, self.config.border_out, self.config.border_step)
        self.ring_terms = light_terms(self.centres, self.ring)
        self.ring_cells = ring_cells(self.ring, self.centres, ring_reach(geometry, self.config))
        """Which cells' pieces may show over each patch of the ring (M×N)."""
        self.corners, self.corner_on_board = cell_corners(geometry)
        self._corner_groups = _corner_groups(self.corner_on_board)
        self._location: Location | None = None
        self._points: np.ndarray | None = None
        self._points_for: np.ndarray | None = None
        self._clear: CellVerdicts | None = None
        """The last clear frame's verdicts: the next frame starts from its light and its settled classes."""
        self._afresh: tuple[tuple[str, ...], tuple[int, ...] | None] | None = None
        """What the last frame's fresh look read, when it found that frame clear and its warm reading did not."""
        self._fresh: CellVerdicts | None = None
        """The last frame's fresh look, when it found that frame covered too: the next covered frame's fresh look
        starts from its light rather than from nothing, unless the light moved beyond what a warm fit follows."""
        self._previous_lab: np.ndarray | None = None
        self._seen: np.ndarray | None = None

    def use_model(self, colour_model: BoardModel) -> None:
        """Read the next frames with ``colour_model`` (the same board's model, nudged or learned again)."""
        colour_model.check_fits(self.geometry)
        self.model = colour_model
        self.judge = self._judge_of(colour_model)
        self._points = None

    def _judge_of(self, colour_model: BoardModel) -> CellJudge:
        """The judge of this board's cells under ``colour_model``."""
        return CellJudge(
            colour_model,
            self.centres,
            self.geometry.neighbours_ix,
            self.offsets,
            piece_radius(self.geometry),
            self.config.min_confidence,
            self.config.outlier,
            like_groups(self.geometry),
        )

    def last_features(self) -> np.ndarray | None:
        """What each cell showed in the last frame read (N×F features, see
        :meth:`~vision.board_image.BoardView.features`) where its piece was found, or at its point when empty,
        with that frame's light taken out of the colour: comparable with the model's ``empty`` and stones'
        ``mean``. None before the first located frame."""
        return None if self._seen is None else self._seen.copy()

    @property
    def location(self) -> Location | None:
        """The last board location, or None before the first located frame."""
        return self._location

    def read(self, image_bgr: np.ndarray) -> FrameReading:
        """Read one BGR frame, locating the board with the reader's locator."""
        n = len(self.geometry.cells)
        t0 = time.perf_counter()
        try:
            if self.locator is None:
                raise BoardNotFoundError("this profile holds no board location: give each photo its corners")
            if isinstance(self.locator, CheckerboardLocator) and self._location is None:
                self.locator = find_checkerboard(image_bgr, self.geometry)
            location = locate(
                image_bgr, self.geometry, self.locator, self._location, self.config, self.lens_for(image_bgr)
            )
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
        return self._read(image_bgr, location, t0)

    def lens_for(self, image_bgr: np.ndarray) -> Lens:
        """The camera's lens (calibration's) on a picture of this one's size."""
        return self.model.lens.for_size((image_bgr.shape[1], image_bgr.shape[0]))

    def read_located(self, image_bgr: np.ndarray, homography: np.ndarray) -> FrameReading:
        """Read one BGR frame whose board lies where ``homography`` (board plane to the picture as a straight lens
        shows it, see :meth:`lens_for`) says: a photo that brings its own corners."""
        location = Location(homography=np.asarray(homography, np.float64), lens=self.lens_for(image_bgr))
        return self._read(image_bgr, location, time.perf_counter())

    def _read(self, image: np.ndarray, location: Location, t0: float) -> FrameReading:
        if location.followed:
            return self._read_at(image, location, t0)
        # a new board position placed by corners: read there, then move it onto the board's own lines where the
        # reading shows them bare, and read again if they moved it (the state the first reading left is not
        # kept). A covered frame's board is moved for itself alone: the next frame follows the lines again
        state = (self._clear, self._afresh, self._fresh, self._previous_lab, self._seen)
        reading = self._read_at(image, location, t0)
        followed = follow_lines(self.geometry, location.homography, location.lens, [(image, reading.symbols)])
        if followed is not location.homography:
            self._clear, self._afresh, self._fresh, self._previous_lab, self._seen = state
            reading = self._read_at(image, dataclasses.replace(location, homography=followed), t0)
        self._location = (
            location if reading.occluded else dataclasses.replace(location, homography=followed, followed=True)
        )
        return reading

    def _read_at(self, image: np.ndarray, location: Location, t0: float) -> FrameReading:
        self._location = location
        points = self._points_of(location.homography, image)
        t1 = time.perf_counter()
        features = self.view.features(self.view.warp(image, location.homography, location.lens))
        seen = self.view.sample(features, points[:, None, :] + self.offsets[None, :, :])
        t2 = time.perf_counter()
        rim = _rim(self.model, len(self.ring))
        ring = None if rim is None else (rim, self.view.sample(features, self.ring)[:, :3].astype(np.float64))
        decided = self._decide(features, seen, points, location, ring, self._clear)
        afresh_read, fresh = None, None
        if location.confirmed and self._beyond_followed(decided):
            # the light moved further than a warm fit follows it (a lamp switched on or off): the warm reading
            # may be any that some light explains, and a first frame's is the one to go by, covered or not
            decided = self._decide(features, seen, points, location, ring, None)
        elif decided.occluded and self._clear is not None and location.confirmed:
            # the earlier light may be what fails (a lamp switched on, daylight gone): read afresh, as a first
            # frame is read. A fresh light is free to bend towards a hand and explain it away, so one frame
            # cannot tell a lamp from a hand; a lamp stays and a hand moves. The fresh reading is believed when
            # the frame before, covered in its earlier light too, was read the same afresh
            afresh = self._afresh_decide(lambda start: self._decide(features, seen, points, location, ring, start))
            if afresh.occluded:
                fresh = afresh.verdicts
            else:
                afresh_read = (afresh.symbols, afresh.counts)
                if afresh_read == self._afresh:
                    decided = afresh
        self._afresh, self._fresh = afresh_read, fresh
        verdicts, symbols, counts, covered, occluded = decided
        self._seen = self.judge.calibration_look(seen[np.arange(len(points)), verdicts.found], verdicts.light)
        if not occluded:
            self._clear = verdicts
        t3 = time.perf_counter()
        lab = _lab(seen[:, 0, :3])
        change = 0.0 if self._previous_lab is None else float(np.sqrt(((lab - self._previous_lab) ** 2).sum(1)).max())
        self._previous_lab = lab
        looked = points + verdicts.offsets
        return FrameReading(
            symbols=symbols,
            confidence=verdicts.confidence,
            counts=counts,
            occluded=occluded,
            located=True,
            change=change,
            stage_ms={"locate": (t1 - t0) * 1000.0, "measure": (t2 - t1) * 1000.0, "classify": (t3 - t2) * 1000.0},
            looked=tuple((float(x), float(y)) for x, y in looked),
            unexplained=tuple(int(i) for i in covered),
        )

    def _decide(
        self,
        features: np.ndarray,
        seen: np.ndarray,
        points: np.ndarray,
        location: Location,
        ring: tuple[np.ndarray, np.ndarray] | None,
        earlier: CellVerdicts | None,
    ) -> _Decided:
        """Every cell of a frame decided from an ``earlier`` clear frame's light and settled classes (None to read
        the frame cold), and whether something covers the board; ``ring``: calibration's ring around the board and
        what this frame shows there (each M×3 log), None when the model has none."""
        # the board between the cells: the light's shape when a frame is seen cold, before any cell is read; and
        # on a board of points, the bare board beside each point, which the frame's own look starts from as well
        beside = self.geometry.layout is Layout.POINT
        between = self._between(features) if earlier is None or beside else None
        light, previous = (None, None) if earlier is None else (earlier.light, earlier.classes)
        verdicts = self.judge.judge(seen, points, light, between, beside, previous)
        symbols, counts = verdicts.symbols, None
        if self.geometry.kind == "grid":
            symbols, counts = count_balls(verdicts, self.judge, seen)
        crossed = False
        if ring is not None:
            rim, around = ring
            # the field only: the cells' contrast says nothing of how the rim, another surface, answers a lamp
            crossed = crossed_ring(
                around,
                rim,
                self.ring_terms @ verdicts.light.field,
                self.ring_terms,
                self.config.border_hue,
                # beside a piece by calibration's looks: a hand the frame's own look reads as stones still counts
                free_patches(self.ring_cells, np.isin(np.array(verdicts.calibrated), (".", "?"))),
            )
        covered = covered_cells(
            verdicts.distance,
            self.geometry.neighbours_ix,
            self.config.odd,
            self.config.odd_group,
        )
        occluded = (not location.confirmed) or bool(covered.size) or crossed
        return _Decided(verdicts, symbols, counts, covered, occluded)

    def _between(self, features: np.ndarray) -> np.ndarray:
        """The log colour (N×3) the bare board shows between each cell and its neighbours: the median over the
        cell's corners on the playing area, NaN for a cell with none."""
        shown = self.view.sample(features, self.corners)[:, :, :3]
        between = np.full((len(shown), 3), np.nan)
        for cells, corners in self._corner_groups:
            between[cells] = median(shown[cells[:, None], corners], axis=1)
        return between

    def _afresh_decide(self, decide: Callable[[CellVerdicts | None], _Decided]) -> _Decided:
        """A covered frame read afresh: from the light the frame before's fresh look found, when that look found
        a hand too and this frame's light lies within what a warm fit follows from it (a hand stays a while, and
        the search for a light from nothing takes several times a warm frame's time), else from nothing. A
        fresh look that found the frame before clear is compared with one from nothing, as it was read.
        ``decide``: this frame decided from an earlier look's light and classes (None: from nothing)."""
        if self._fresh is not None:
            decided = decide(self._fresh)
            if self._followed(decided, self._fresh):
                return decided
        return decide(None)

    def _beyond_followed(self, decided: _Decided) -> bool:
        """Whether a frame read warm, and found clear, moved its light further from the frame before's than a
        warm fit follows (``FOLLOWED``)."""
        if decided.occluded or self._clear is None:
            return False
        return not self._followed(decided, self._clear)

    def _followed(self, decided: _Decided, earlier: CellVerdicts) -> bool:
        """Whether a frame decided from ``earlier``'s light kept its light within what a warm fit follows
        (``FOLLOWED``) of that light."""
        return decided.verdicts.light.moved_from(earlier.light, self.judge.terms) <= FOLLOWED * LIGHT_SPREAD

    def _points_of(self, homography: np.ndarray, image: np.ndarray) -> np.ndarray:
        """Each cell's point, where its piece's top appears for this camera (kept while the homography holds)."""
        if self._points is None or self._points_for is None or not np.array_equal(self._points_for, homography):
            pose = CameraPose.from_homography(homography, (image.shape[1], image.shape[0]))
            self._points = pose.tops(self.centres, self.model.height)
            self._points_for = np.array(homography, copy=True)
        return self._points


def cell_corners(geometry: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's corners (N×V×2, board units): the bare board between it and its neighbours, where no piece
    lies; and which of them lie on the playing area (N×V). On a board of points the outer corners of the
    edge points lie beyond the edge lines, on the board's margin or past its edge: another surface."""
    corners = np.array([geometry.polygon(cell) for cell in geometry.cells], dtype=np.float64)
    if geometry.layout is not Layout.POINT:
        return corners, np.ones(corners.shape[:2], dtype=bool)
    centres = np.array(geometry.centres, dtype=np.float64)
    low, high = centres.min(axis=0), centres.max(axis=0)
    return corners, ((corners >= low) & (corners <= high)).all(axis=2)


def _corner_groups(on_board: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """The cells (indices) with the same number of corners on the playing area, each group with those corners'
    indices (cells × count): a median over each group at once."""
    counts = on_board.sum(axis=1)
    groups = []
    for count in sorted(set(counts.tolist()) - {0}):
        cells = np.flatnonzero(counts == count)
        corners = np.array([np.flatnonzero(on_board[c]) for c in cells], dtype=np.intp).reshape(len(cells), count)
        groups.append((cells, corners))
    return tuple(groups)


def _rim(model: BoardModel, patches: int) -> np.ndarray | None:
    """The model's ring around the board (M×3 log colours, NaN where unknown), or None when it has none for this
    ring."""
    if model.border is None or len(model.border) != patches:
        return None
    return np.array([(np.nan,) * 3 if c is None else c for c in model.border], dtype=np.float64)


def _lab(log_colour: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0..100) of log colours (N×3)."""
    bgr = colour_of_log(log_colour).astype(np.float32).reshape(-1, 1, 3)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3)
