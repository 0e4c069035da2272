"""Every threshold of the vision pipeline, in one frozen object with defaults.

Distances on the board are in board units (one cell pitch, see
:mod:`referee.geometry`); sizes in the rectified image in pixels per board
unit (``cell_px``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VisionConfig:
    """Thresholds and sizes for locating, rectifying, measuring and classifying.

    Rectification
        ``cell_px``: pixels per board unit in the rectified board image.
        ``margin``: board units kept around the cells' bounding box.

    Measurement
        ``disk_radius``: radius of the central disk whose colour is measured,
        as a share of the stone radius; a disk smaller than the stone keeps
        the measure right for stones that are off-centre or whose top is
        shifted by perspective.
        ``background_inset``: where the light-reference patches sit, as a
        share of the way from a cell's centre to its polygon's corners
        (square cells and lattice points); ``background_inset_hex`` the same
        for hexagons, whose corners lie in the gap between three stones.
        ``background_patch_px``: side of each light-reference patch.
        ``normalise_light``: undo each frame's light (see :mod:`vision.light`).
        ``light_tolerance``: smallest light-ratio residual still counted as
        an inlier of the light fit.

    Classification
        ``sigma_floor``: smallest per-channel spread (Lab units) a class may
        have, so that a class calibrated from a single stone is not too narrow.
        ``min_confidence``: below this a cell reads ``?``.
        ``outlier_distance``: a cell whose normalised distance to every class
        exceeds this is unexplained (a hand, an arm, a strong shadow).
        ``occluded_min_cells``: a frame with at least this many unexplained
        cells is occluded.

    Localisation
        ``marker_check_ncc``: a tracked marker whose patch still correlates
        at least this much with its patch at detection is reused without a
        new ArUco detection.
        ``marker_patch_px``: side of the sampled marker patch.
        ``min_markers``: fewest markers for a new homography.
    """

    cell_px: int = 16
    margin: float = 0.5
    disk_radius: float = 0.55
    background_inset: float = 0.8
    background_inset_hex: float = 1.0
    background_patch_px: int = 3
    normalise_light: bool = True
    light_tolerance: float = 0.03
    sigma_floor: float = 4.0
    min_confidence: float = 0.6
    outlier_distance: float = 6.0
    occluded_min_cells: int = 1
    marker_check_ncc: float = 0.8
    marker_patch_px: int = 24
    min_markers: int = 2
