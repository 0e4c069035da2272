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
from vision.locate import CheckerboardLocator, Locator, corner_homography, find_checkerboard, locate
from vision.model import BoardModel
from vision.pipeline import BoardReader, FrameReading
from vision.sidecar import corners_beside

MAX_LAYOUT_BYTES = 1_000_000
"""A layout file is a few rows of symbols; no more than this is read of one."""


@dataclass(frozen=True, eq=False)
class Photo:
    """A photo to calibrate from: its pixels, its own corners' homography (None: the profile's locator finds the
    board), and its layout (None for the empty board)."""

    image: np.ndarray
    homography: np.ndarray | None
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
    homography = None if corners is None else corner_homography(geometry, corners)
    return Photo(image=image, homography=homography, symbols=symbols, name=str(path))


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
    if isinstance(locator, CheckerboardLocator):
        bare = next((p for p in photos if p.homography is None), None)
        locator = None if bare is None else find_checkerboard(bare.image, geometry)
    calibration = []
    for photo in photos:
        homography = photo.homography
        if homography is None:
            if locator is None:
                raise ProfileError(
                    f"{photo.name} has no corners file beside it: give the board's corners with --corners, "
                    "--markers or --checkerboard, or a file NAME.corners beside the photo"
                )
            try:
                homography = locate(photo.image, geometry, locator, config=config).homography
            except BoardNotFoundError as error:
                raise ProfileError(f"{photo.name}: {error}") from None
        symbols = photo.symbols if photo.symbols is not None else ("." * len(geometry.cells))
        calibration.append(CalibrationPhoto(image=photo.image, homography=homography, symbols=tuple(symbols)))
    try:
        model = fit_colour_model(geometry, calibration, config)
    except ColourModelError as error:
        raise ProfileError(str(error)) from None
    return Profile(geometry=geometry.spec, locator=locator, colour_model=model)


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
        return image, reader.read_located(image, corner_homography(reader.geometry, corners))
    return image, reader.read(image)
