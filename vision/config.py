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
        ``rim_inner`` and ``rim_outer``: the ring whose edge energy tells a
        stone from an empty cell, as shares of the geometry's stone radius.
        ``top_radius``: the central disk whose edge energy and dark share
        tell a stone's smooth top from the cell's own lines and grain, as a
        share of the stone radius.
        ``ball_radius``: radius of a Kaskade ball (board units); on Kaskade
        boards the central disk is a share of it rather than of a stone.
        ``ball_reach``: radius of the disk around a Kaskade cell's centre
        that holds all its balls (board units).
        ``ball_cell_px``: ``cell_px`` for Kaskade boards, whose balls are small.
        ``ball_min_area``: fewest ball pixels one calibrated ball may show.
        ``normalise_light``: undo each frame's light (see :mod:`vision.light`).
        ``light_tolerance``: smallest light-ratio residual still counted as
        an inlier of the light fit.
        ``glare_floor``: smallest white light (0..1) added over a cell beyond
        the fitted gain that is removed as glare.
        ``glare_spot``: fit one glare spot over the whole board (see
        :mod:`vision.glare`); ``glare_lit``: a light-reference patch showing
        more added white light than this is lit by it; ``glare_min_patches``:
        fewest lit patches for a spot; ``glare_min_peak``: weakest spot worth
        modelling; ``glare_min_lit_share``: least share of the bare patches in
        a spot's core that it must light; ``glare_outlier_ratio``: a patch brighter than the spot by
        more than this factor is left out (a light stone over a dark patch);
        ``glare_envelope``: weight of patches above the fitted spot against
        those below it (in a stone's shadow, which hides the spot).
        ``stone_glare``: share of the board's glare that also shows on a
        stone (a stone hides the board's reflection; a veil of scattered light
        remains).

    Classification
        ``sigma_floor``: smallest per-channel spread (Lab units) a class may
        have, so that a class calibrated from a single stone is not too narrow.
        ``min_confidence``: below this a cell reads ``?``.
        ``texture_sigma_floor`` and ``texture_relative_floor``: smallest
        spread of a texture measure, and the same as a share of its value.
        ``texture_max_penalty``: the most (squared spreads) one texture
        measure may count against a class (a stone's rim seen weaker than
        its own counts in full, see :mod:`vision.classify`).
        ``texture_wash``: share of the bare board's edges a blur may wash
        out beyond what the light added over a cell explains (see
        :meth:`~vision.classify.Classifier.washed_empty`).
        ``light_doubt_free``: how far (a log ratio) a cell's fitted light
        may lie from the board's typical light before a stone's lightness is
        held more loosely there (see
        :meth:`~vision.classify.Classifier.stone_sigmas`): a light tilted
        further across the board may be a lamp's reflection taken for light.
        ``pixel_sigma_floor``: smallest per-channel spread (Lab units) of a
        single pixel's colour when Kaskade balls are counted pixel by pixel.
        ``ball_pixel_change``: a pixel of a Kaskade cell further than this
        (Lab distance) from the cell's empty colour belongs to a ball.
        ``ball_dark_ratio``: a pixel darker than the empty board by this share
        of it in every channel belongs to a ball too (black on a dark square).
        ``ball_colour_distance``: a ball pixel votes for the nearest ball
        colour only within this many spreads of it (shadows vote for none).
        ``ball_glare_percentile``: the glare over a Kaskade cell is this
        percentile of the white light its pixels show beyond the empty board.
        ``ball_glare_band``: each pixel of a Kaskade cell may show its own
        glare within this share of its cell's, either way (see
        :mod:`vision.balls`).
        ``ball_need``: a Kaskade ball covers at least this share of what one
        calibrated ball covers of its disc there (see :mod:`vision.ball_peaks`).
        ``outlier_distance``: a cell whose normalised distance to every class
        exceeds this is unexplained (a hand, an arm, a strong shadow).
        ``odd_colour`` and ``odd_texture``: a cell whose nearest class lies
        further than ``odd_colour`` in colour (spreads) and ``odd_texture`` in
        texture (squared spreads, summed) is unexplained too (pale skin).
        ``occluded_min_cells``: a frame with at least this many unexplained
        cells is occluded.
        ``covered_ratio``: a cell whose board surface near its corners differs
        from the calibration board, once this frame's light is undone, by more
        than this share of its expected brightness (in any channel) is covered
        (``covered_brighter``: the same for patches brighter than expected,
        where a light that clips is easily misjudged; ``covered_darker``: for
        patches darker than expected, a shadow: a cell ringed by stones has
        their shadows on all its corners, so only a shadow darker than a
        stone's counts; ``covered_hue``: the
        same for the spread of the channels' changes against the patch's
        brightest channel, as skin over a board as bright as it shows);
        ``covered_floor``: the smallest expected brightness (0..1) that share
        is taken of, so that dark channels do not count noise as change.
        ``occluded_min_covered``: a frame with at least this many covered
        cells is occluded, and so is one with a covered cell on the board's
        edge: an arm reaches in from outside the board, while a stone and
        its shadow, tilted towards the camera, can change all the corners of
        one cell inside it.
        ``edge_cell_match``: a covered edge cell alone is no arm when its own
        disk reads within this many spreads of a calibrated class (a stone
        there, at a slant, spills over all its corners).
        ``border_out``: the ring of patches around the board (see
        :attr:`~vision.measure.Rectifier.border_points`) lies this many board
        units beyond the cells' bounding box, one patch every ``border_step``.
        ``border_hue``: a ring patch whose unclipped channels change against
        each other by more than this share of its expected brightness is
        crossed (skin or a sleeve over the board's rim; glare and shadows
        move the channels alike); two crossed neighbours in the ring are an
        arm reaching in, however thin the fingers over the cells.

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
    rim_inner: float = 0.4
    rim_outer: float = 0.75
    top_radius: float = 0.45
    ball_radius: float = 0.15
    ball_reach: float = 0.42
    ball_cell_px: int = 24
    ball_min_area: float = 8.0
    normalise_light: bool = True
    light_tolerance: float = 0.03
    glare_floor: float = 0.06
    glare_spot: bool = True
    glare_lit: float = 0.05
    glare_min_patches: int = 5
    glare_min_peak: float = 0.15
    glare_min_lit_share: float = 0.3
    glare_outlier_ratio: float = 2.5
    glare_envelope: float = 0.85
    stone_glare: float = 0.1
    sigma_floor: float = 4.0
    min_confidence: float = 0.6
    texture_sigma_floor: float = 0.03
    texture_relative_floor: float = 0.1
    texture_max_penalty: float = 16.0
    texture_wash: float = 0.7
    light_doubt_free: float = 0.1
    pixel_sigma_floor: float = 8.0
    ball_pixel_change: float = 12.0
    ball_dark_ratio: float = 0.25
    ball_colour_distance: float = 2.5
    ball_glare_percentile: float = 50.0
    ball_glare_band: float = 0.4
    ball_need: float = 0.35
    outlier_distance: float = 6.0
    odd_colour: float = 2.5
    odd_texture: float = 24.0
    occluded_min_cells: int = 1
    covered_ratio: float = 0.25
    covered_floor: float = 0.15
    covered_brighter: float = 0.35
    covered_darker: float = 0.4
    covered_hue: float = 0.25
    occluded_min_covered: int = 2
    edge_cell_match: float = 1.5
    border_out: float = 0.3
    border_step: float = 0.5
    border_hue: float = 1.0
    marker_check_ncc: float = 0.8
    marker_patch_px: int = 24
    min_markers: int = 2
