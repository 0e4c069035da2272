"""Reading image files with clear errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError


class ImageReadError(VisionError, OSError):
    """An image file is missing or cannot be decoded."""


def read_image(path: str | Path) -> np.ndarray:
    """The BGR pixels of an image file; raises ImageReadError saying what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise ImageReadError(f"{path}: no such image file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageReadError(f"{path}: not an image OpenCV can read (use PNG or JPEG)")
    return np.asarray(image)
