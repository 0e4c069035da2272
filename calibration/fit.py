"""Fitting a calibration profile from images of the board."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from calibration.errors import ProfileError
from calibration.profile import Profile
from referee.geometry import Geometry
from vision.colour_model import fit_colour_model
from vision.config import VisionConfig
from vision.locate import CheckerboardLocator, Locator, find_checkerboard


def fit_profile(
    geometry: Geometry,
    locator: Locator,
    empty_image: np.ndarray,
    known: Sequence[tuple[np.ndarray, Sequence[str]]] = (),
    config: VisionConfig | None = None,
) -> Profile:
    """Fit a profile from the empty board and images with known layouts (symbols in ``geometry.cells`` order).

    A :class:`~vision.locate.CheckerboardLocator` is resolved on the empty
    image and stored as fixed corners. Raises ProfileError when the images
    cannot give a usable colour model.
    """
    if isinstance(locator, CheckerboardLocator):
        locator = find_checkerboard(empty_image, geometry)
    model = fit_colour_model(geometry, locator, empty_image, known, config)
    if not model.classes:
        raise ProfileError(
            "no stone was shown during calibration: add --known IMG=LAYOUT images with stones of each colour in play"
        )
    return Profile(geometry=geometry.spec, locator=locator, colour_model=model)
