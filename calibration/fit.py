"""Calibrating from photos, and reading photos, exactly as ``cascade calibrate`` and ``cascade read`` do.

A photo is located by its own corners when it brings them (``NAME.corners``
beside it, see :mod:`vision.sidecar`), and otherwise by the way the profile
locates the board (fixed corners, markers, or the checkerboard found once).
Calibration needs photos with known layouts (a game under way is fine) and,
when there is one, a photo of the empty board: see :mod:`vision.learn`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.errors import ProfileError
from calibration.profile import Profile
from referee.geometry import Geometry
from vision.config import VisionConfig
from vision.errors import BoardNotFoundError, ColourModelError
from vision.images import read_image
from vision.layout import parse_layout
from vision.learn import CalibrationPhoto, fit_colour_model
from vision.lens import STRAIGHT, Lens
from vision.lines import locate_through_lens
from vision.locate import (
    CheckerboardLocator,
    CornerLocator,
    Locator,
    Quad,
    corner_homography,
    find_checkerboard,
    locate,
)
from vision.model import BoardModel
from vision.pipeline import BoardReader, FrameReading
from vision.sidecar import corners_beside

MAX_LAYOUT_BYTES = 1_000_000
"""A layout file is a few rows of symbols; no more than this is read of one."""


@dataclass(frozen=True, eq=False)
class Photo:
    """A photo to calibrate from: its pixels, its own corners (None: the profile's locator finds the board), and
    its layout (None for the empty board)."""

    image: np.ndarray
    corners: Quad | None
    symbols: tuple[str, ...] | None
    name: str


def load_photo(path: str | Path, geometry: Geometry, layout: str | Path | None = None) -> Photo:
    """The photo at ``path`` with its sidecar corners, if any, and its ``layout`` file (None: the empty board).
    Raises ImageReadError, CornersError or LayoutError saying what is wrong."""
    path = Path(path)
    symbols = None
    if layout is not None:
        layout = Path(layout)
        try:
            text = layout.read_bytes()[:MAX_LAYOUT_BYTES].decode("utf-8")
        except OSError as error:
            raise ProfileError(f"cannot read the layout {layout} ({error.strerror or error})") from None
        symbols = parse_layout(text, geometry)
    image = read_image(path)
    corners = corners_beside(path)
    if corners is not None:
        corner_homography(geometry, corners)  # four corners that enclose the board, or BoardNotFoundError now
    return Photo(image=image, corners=corners, symbols=symbols, name=str(path))


def fit_profile(
    geometry: Geometry,
    locator: Locator | None,
    empty: Photo | None,
    known: Sequence[Photo],
    config: VisionConfig | None = None,
) -> Profile:
    """Fit a profile from photos with known layouts and, when given, the empty board (see the module docstring).

    A :class:`~vision.locate.CheckerboardLocator` is resolved on the empty
    photo (or the first one without its own corners) and stored as fixed
    corners; with no locator, every photo must bring its corners, and so must
    every photo read with the profile. Raises ProfileError when the photos
    cannot give a usable model.
    """
    photos = ([] if empty is None else [empty]) + list(known)
    if not known:
        raise ProfileError(
            "give at least one photo with a known layout (--known IMG=LAYOUT) showing every stone colour in play"
        )
    bare = next((p for p in photos if p.corners is None), None)
    found_by_pattern = isinstance(locator, CheckerboardLocator) and bare is not None
    if isinstance(locator, CheckerboardLocator):
        locator = None if bare is None else _checkerboard(bare, geometry, STRAIGHT)
    symbols = [p.symbols if p.symbols is not None else ("." * len(geometry.cells)) for p in photos]

    def located(k: int, lens: Lens) -> np.ndarray:
        nonlocal locator
        if found_by_pattern and bare is not None and not lens.straight and k == 0:
            # the checkerboard's outer corners, extended from its inner ones through the lens
            locator = _checkerboard(bare, geometry, lens)
        return _located(geometry, locator, photos[k], lens, config)

    # photos placed by corners (their own, or the profile's fixed ones) are moved onto the board's own lines
    positions = [
        k + 1 if p.corners is not None else 0 if isinstance(locator, CornerLocator) else None
        for k, p in enumerate(photos)
    ]
    lens, homographies = locate_through_lens(geometry, [p.image for p in photos], symbols, located, positions)
    calibration = [
        CalibrationPhoto(image=p.image, homography=h, symbols=tuple(s))
        for p, h, s in zip(photos, homographies, symbols, strict=True)
    ]
    try:
        model = fit_colour_model(geometry, calibration, config, lens)
    except ColourModelError as error:
        raise ProfileError(str(error)) from None
    return Profile(geometry=geometry.spec, locator=locator, colour_model=model)


def _checkerboard(photo: Photo, geometry: Geometry, lens: Lens) -> CornerLocator:
    """The corners of the checkerboard ``photo`` shows, found through ``lens``; raises ProfileError when it shows
    none."""
    try:
        return find_checkerboard(photo.image, geometry, lens.for_size((photo.image.shape[1], photo.image.shape[0])))
    except BoardNotFoundError as error:
        raise ProfileError(f"{photo.name}: {error}") from None


def _located(
    geometry: Geometry, locator: Locator | None, photo: Photo, lens: Lens, config: VisionConfig | None
) -> np.ndarray:
    """The photo's homography (board plane to the picture as a straight lens shows it) through ``lens``: by its own
    corners, or else by ``locator``; raises ProfileError when neither locates it."""
    if photo.corners is not None:
        return corner_homography(geometry, photo.corners, lens)
    if locator is None:
        raise ProfileError(
            f"{photo.name} has no corners file beside it: give the board's corners with --corners, "
            "--markers or --checkerboard, or a file NAME.corners beside the photo"
        )
    try:
        return locate(photo.image, geometry, locator, config=config, lens=lens).homography
    except BoardNotFoundError as error:
        raise ProfileError(f"{photo.name}: {error}") from None


GREY_TOLERANCE = 0.05
"""How far (log colour) the channels of a model's colours may lie apart for it to count as learned from greyscale
photos: on go-sequence-1280, a model learned from its photos turned grey keeps them exactly equal (0.00), the
model learned in colour has them up to 0.30 apart."""


def _grey(image: np.ndarray) -> bool:
    """Whether a BGR picture has no colour at all (a greyscale file, decoded to three equal channels)."""
    return bool(np.array_equal(image[..., 0], image[..., 1]) and np.array_equal(image[..., 1], image[..., 2]))


def _grey_model(model: BoardModel) -> bool:
    """Whether a board model was learned from greyscale photos: every colour it holds has equal channels."""
    colours = [np.asarray(model.empty, dtype=np.float64)[:, :3]]
    colours += [np.asarray(look.mean, dtype=np.float64)[None, :3] for look in model.stones.values()]
    return all(bool(np.allclose(c, c[:, :1], atol=GREY_TOLERANCE)) for c in colours)


def read_photo(reader: BoardReader, path: str | Path) -> tuple[np.ndarray, FrameReading]:
    """Read the photo at ``path`` with ``reader``, by its own corners when it brings them; returns the picture
    and the reading. Raises ImageReadError or CornersError for a photo that cannot be used, and ProfileError
    for a photo without corners when the profile holds no board location."""
    corners = corners_beside(path)
    if corners is None and reader.locator is None:
        raise ProfileError(
            f"{path} has no corners file beside it ({Path(path).stem}.corners), and the profile holds no board "
            "location: give the photo its corners, or calibrate with --corners or --markers"
        )
    image = read_image(path)
    if _grey(image) and not _grey_model(reader.model):
        raise ProfileError(
            f"{path} is a greyscale photo, and the profile was calibrated from colour photos: the pieces are told "
            "apart by colour, so give a colour photo"
        )
    if corners is not None:
        return image, reader.read_located(image, corner_homography(reader.geometry, corners, reader.lens_for(image)))
    return image, reader.read(image)
