"""Every setting of the board reader, in one frozen object with defaults.

Distances on the board are in board units (one cell pitch, see
:mod:`referee.geometry`); sizes of the flat board image in pixels per board
unit. ``vision/README.md`` gives the figure on real photos behind each
setting.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class VisionConfig:
    """Settings for locating, seeing and deciding the cells (see :mod:`vision.cells`).

    Seeing (:mod:`vision.board_image`)
        ``cell_px``: pixels per board unit of the flat board (``ball_cell_px``
        on Kaskade boards, whose balls are small).
        ``margin``: board units kept around the cells, for the tops of tall
        pieces on the edge cells.
        ``window``: side of the median window a colour is read over, as a
        share of a piece's diameter (about half a stone).
        ``top`` and ``rim``: radius of a piece's top, and inner and outer
        radius of the ring of its outline, as shares of a piece's radius.
        ``search``: how far (as a share of the board unit) from a cell's point
        a stone is looked for; ``search_step`` the spacing of the points
        looked at.
        ``max_height``: the tallest piece calibration looks for (board units).

    Deciding (:mod:`vision.cells`)
        ``spread_floor``: the least spread of a colour (a share of light, in
        log colour) beyond what calibration measured.
        ``min_confidence``: below this posterior a cell reads ``?``.
        ``outlier``: a cell further than this (in spreads) from every class
        is unexplained: its read is no sure example of its class.
        ``odd`` and ``odd_group``: something covers ``odd_group`` or more
        neighbouring cells each further than ``odd`` (see :mod:`vision.cover`).

    Covered (:mod:`vision.cover`)
        ``border_out``: the ring of patches around the board lies this many
        board units beyond the playing area's bounding box (the squares, or
        the lines of a board of points), one patch every
        ``border_step``; ``border_hue``: a patch whose channels change against
        each other by more than this (log colour) beyond the light is crossed.

    Locating (:mod:`vision.locate`)
        ``marker_check_ncc``: a tracked marker whose patch still correlates
        at least this much with its patch at detection is reused without a
        new ArUco detection; ``marker_patch_px``: side of the sampled patch;
        ``min_markers``: fewest markers for a new homography.
    """

    cell_px: int = 16
    ball_cell_px: int = 32
    margin: float = 1.0
    window: float = 0.45
    top: float = 0.5
    rim: tuple[float, float] = (0.3, 0.6)
    search: float = 0.3
    search_step: float = 0.15
    max_height: float = 1.0
    spread_floor: float = 0.05
    min_confidence: float = 0.6
    outlier: float = 4.0
    odd: float = 3.0
    odd_group: int = 3
    border_out: float = 0.3
    border_step: float = 0.5
    border_hue: float = 0.23
    marker_check_ncc: float = 0.8
    marker_patch_px: int = 24
    min_markers: int = 2
