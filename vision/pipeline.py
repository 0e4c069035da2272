"""The board reader: one camera frame in, one reading of every cell out.

:class:`BoardReader` chains the stages (locate, rectify and measure,
classify) and keeps the little state that makes consecutive frames cheap:
the last board location (so the full marker detection runs only when the
marker patches no longer match) and the last cell measures (for the change
measure that the temporal stabiliser uses).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from referee.geometry import Geometry
from vision.ball_peaks import DiskGrid
from vision.balls import EmptyPixels, ball_pixels, count_balls
from vision.classify import Classifier
from vision.colour_model import ColourModel, light_correction
from vision.config import VisionConfig
from vision.errors import BoardNotFoundError
from vision.glare import GlareSpot, clipped_glare, fit_frame_light, remove_board_light, stone_may_clip
from vision.light import (
    CLIPPED,
    covered_cells,
    crossed_border,
    design_matrix,
    edge_cells,
    hand_over_board,
    light_doubt,
    neighbour_table,
    remove_light,
)
from vision.locate import CheckerboardLocator, Location, Locator, find_checkerboard, locate
from vision.measure import CellMeasures, Rectifier, bgr_to_lab, light_wash

GLARE_ROUNDS = 3
"""Rounds of fitting the frame's gain without the glare spot, then the spot under that gain."""


@dataclass(frozen=True)
class FrameReading:
    """What one frame shows.

    ``symbols``: one of ``o x = . ?`` per cell in ``geometry.cells`` order
    (``?`` where the reader cannot decide). ``confidence``: the posterior of
    each symbol (0..1). ``counts``: Kaskade ball counts per cell (0..3, see
    :mod:`vision.balls`), or None for other boards. ``occluded``: something covers the board (a hand, an arm,
    their shadow) or the board could not be confirmed; never trust such a
    frame. ``located``: the board was found (now or by an earlier frame).
    ``change``: the largest Lab distance of any cell's measure from the
    previous frame (0 for the first frame; large while anything moves).
    ``stage_ms``: milliseconds spent per stage (``locate``, ``measure``,
    ``classify``).
    """

    symbols: tuple[str, ...]
    confidence: tuple[float, ...]
    counts: tuple[int, ...] | None
    occluded: bool
    located: bool
    change: float
    stage_ms: dict[str, float] = field(default_factory=dict)


class BoardReader:
    """Reads frames of one board with one calibration; keeps tracking state between frames.

    Not thread-safe: use one reader per camera.
    """

    def __init__(
        self,
        geometry: Geometry,
        locator: Locator,
        colour_model: ColourModel,
        config: VisionConfig | None = None,
    ) -> None:
        colour_model.check_fits(geometry)
        self.geometry = geometry
        self.locator = locator
        self.config = config or VisionConfig()
        self.rectifier = Rectifier(geometry, self.config)
        self.classifier = Classifier(colour_model, self.config)
        self.centres = np.array(geometry.centres, dtype=np.float64)
        self.design = design_matrix(self.centres)
        self.neighbours = neighbour_table(geometry.neighbours_ix)
        self.edge_cells = edge_cells(geometry.neighbours_ix)
        """Cells on the board's edge (fewer neighbours than inner cells), where an arm reaches in."""
        self.ball_area = (
            np.array(colour_model.ball_area)
            if colour_model.ball_area is not None
            else np.full((len(geometry.cells), len(colour_model.classes)), self._default_ball_area())
        )
        cell_index = self.rectifier.cell_index
        offsets = self.rectifier.cell_offsets
        radius_px = self.config.ball_radius * self.rectifier.px
        self.ball_grid = None if offsets is None else DiskGrid.of(*offsets, radius_px)
        self.empty_pixels = None if cell_index is None else EmptyPixels.of(colour_model, cell_index.shape[1])
        self._location: Location | None = None
        self.corner_reference = None if colour_model.corners is None else np.array(colour_model.corners, np.float32)
        self.border_reference = None if colour_model.border is None else np.array(colour_model.border, np.float32)
        ring = self.rectifier.border_points
        self.border_cell = np.argmin(((ring[:, None, :] - self.centres[None, :, :]) ** 2).sum(axis=2), axis=1)
        """The cell nearest each patch of the ring around the board, whose light it is judged under."""
        self.last_covered: np.ndarray = np.zeros(len(geometry.cells), dtype=bool)
        self._previous_lab: np.ndarray | None = None

    def _default_ball_area(self) -> float:
        """One ball's area in rectified pixels, for a model fitted without ball photos."""
        return float(np.pi * (self.config.ball_radius * self.config.ball_cell_px) ** 2)

    @property
    def location(self) -> Location | None:
        """The last board location, or None before the first located frame."""
        return self._location

    def read(self, image_bgr: np.ndarray) -> FrameReading:
        """Read one BGR frame."""
        n = len(self.geometry.cells)
        t0 = time.perf_counter()
        try:
            if isinstance(self.locator, CheckerboardLocator) and self._location is None:
                self.locator = find_checkerboard(image_bgr, self.geometry)
            location = locate(image_bgr, self.geometry, self.locator, self._location, self.config)
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
        self._location = location
        t1 = time.perf_counter()
        measures = self.rectifier.measure(image_bgr, location.homography)
        t2 = time.perf_counter()
        gain, glare = light_correction(measures, self.classifier.reference, self.design, self.config, self.neighbours)
        corner_glare = glare[:, None]
        spot = None
        if self._spots_possible(measures):
            assert measures.corners is not None and self.corner_reference is not None
            light = fit_frame_light(
                measures.corners,
                self.corner_reference,
                self.rectifier.corner_points,
                measures.background,
                self.classifier.reference,
                self.design,
                gain,
                GLARE_ROUNDS,
                self.config,
            )
            gain, spot = light.gain, light.spot
        if spot is not None:
            glare, corner_glare = spot.at(self.centres), spot.at(self.rectifier.corner_points)
        seen_lab = bgr_to_lab(remove_board_light(measures.disk, gain, glare, self.classifier.empty_bgr))
        lab = self._board_lab(seen_lab, measures.disk, gain, glare)
        stone_lab = bgr_to_lab(remove_light(measures.disk, gain, glare * self.config.stone_glare))
        texture = measures.texture
        if texture is not None:
            # a disk the camera clipped all over shows no top texture: bare board under glare, or nothing to tell.
            # Its rim still shows a stone's outline, or none, unless a stone clips there too (a lamp too bright):
            # its outline then fades into the clipped board
            blind = np.all(measures.disk >= CLIPPED, axis=1)
            stone_blind = stone_may_clip(
                measures.disk, gain, glare, self.classifier.stones_bgr, self.config.stone_glare, spread=0.0
            )
            texture = texture.copy()
            texture[blind, 1:] = np.nan
            texture[blind & stone_blind, 0] = np.nan
        # the bare board's texture may be washed out as far as the light over it explains, and a blur more
        wash = light_wash(measures.disk, gain * self.classifier.empty_bgr) * self.config.texture_wash
        classes = self.classifier.classify(
            lab, texture, stone_lab, wash, light_doubt(gain, self.config.light_doubt_free)
        )
        symbols, confidence, counts = classes.symbols, classes.confidence, None
        if measures.pixels is not None and self.ball_grid is not None:
            balls = count_balls(
                ball_pixels(
                    measures.pixels,
                    gain,
                    glare,
                    self.classifier,
                    self.config,
                    self.empty_pixels,
                    None if spot is None or self.rectifier.cell_points is None else spot.at(self.rectifier.cell_points),
                ),
                self.ball_area,
                self.classifier,
                self.ball_grid,
                self.config.ball_need,
            )
            counts = balls.counts
            symbols = tuple(
                s if c >= self.config.min_confidence else "?"
                for s, c in zip(balls.symbols, balls.confidence, strict=True)
            )
            confidence = balls.confidence
        t3 = time.perf_counter()
        # the change of what the camera sees, whichever glare each cell was read under
        change = 0.0 if self._previous_lab is None else _change(seen_lab, self._previous_lab)
        self._previous_lab = seen_lab
        corners = measures.corners if measures.corners is not None else measures.background[:, None, :]
        if self.corner_reference is not None and self.corner_reference.shape[:2] == corners.shape[:2]:
            covered = covered_cells(corners, self.corner_reference, gain, corner_glare, self.config)
        else:
            covered = covered_cells(
                measures.background[:, None, :], self.classifier.reference, gain, glare, self.config
            )
        self.last_covered = covered
        occluded = (
            (not location.confirmed)
            or int(classes.unexplained.sum()) >= self.config.occluded_min_cells
            or hand_over_board(covered, self._open_edge(classes.distance), self.config.occluded_min_covered)
            or self._crossed_border(measures, gain, spot, glare)
        )
        return FrameReading(
            symbols=symbols,
            confidence=confidence,
            counts=counts,
            occluded=bool(occluded),
            located=True,
            change=change,
            stage_ms={"locate": (t1 - t0) * 1000.0, "measure": (t2 - t1) * 1000.0, "classify": (t3 - t2) * 1000.0},
        )

    def _board_lab(self, lab: np.ndarray, disk: np.ndarray, gain: np.ndarray, glare: np.ndarray) -> np.ndarray:
        """The cells' disks in Lab as bare board would read (see :func:`~vision.glare.remove_board_light`),
        each under the fitted glare or the glare its own clipped disk shows (:func:`~vision.glare.clipped_glare`),
        whichever reads closer to its empty colour: a narrow spot's peak lies between the patches it is fitted
        from, so the fit misses it."""
        empty_bgr = self.classifier.empty_bgr
        more = clipped_glare(disk, gain, glare, empty_bgr, self.classifier.stones_bgr, self.config.stone_glare)
        if not np.any(more > glare):
            return lab
        alt = bgr_to_lab(remove_board_light(disk, gain, more, empty_bgr))
        closer = self.classifier.empty_distances(alt) < self.classifier.empty_distances(lab)
        return np.where(closer[:, None], alt, lab)

    def _open_edge(self, distance: np.ndarray) -> np.ndarray:
        """The edge cells where one covered cell alone means an arm reaching in: those whose disk is not
        read closely (``config.edge_cell_match``) as one of the calibrated classes. A stone on an edge cell,
        seen at a slant, spills over every corner of it; skin over it matches no stone that closely."""
        return self.edge_cells & (distance > self.config.edge_cell_match)

    def _crossed_border(
        self, measures: CellMeasures, gain: np.ndarray, spot: GlareSpot | None, glare: np.ndarray
    ) -> bool:
        """Whether an arm crosses the ring around the board (see :func:`~vision.light.crossed_border`), under
        the light of the cell nearest each patch and the spot's glare; never for models without the ring."""
        if self.border_reference is None or measures.border is None:
            return False
        if self.border_reference.shape != measures.border.shape:
            return False
        points = self.rectifier.border_points
        added = spot.at(points) if spot is not None else glare[self.border_cell]
        return crossed_border(measures.border, self.border_reference, gain[self.border_cell], added, self.config)

    def _spots_possible(self, measures: CellMeasures) -> bool:
        """Whether this reader fits glare spots (see :mod:`vision.glare`): it needs each patch's own reference."""
        return (
            self.config.glare_spot
            and self.config.normalise_light
            and measures.corners is not None
            and self.corner_reference is not None
            and self.corner_reference.shape[:2] == measures.corners.shape[:2]
        )


def _change(lab: np.ndarray, previous: np.ndarray) -> float:
    return float(np.sqrt(((lab - previous) ** 2).sum(axis=1)).max())
