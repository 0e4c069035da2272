"""Reading image files with clear errors.

A picture's header is read before its pixels: a PNG or JPEG that claims more
than :data:`MAX_IMAGE_PIXELS` (a file of a few bytes can claim 60000×60000)
is refused in one line instead of being decoded into gigabytes.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError

MAX_IMAGE_PIXELS = 200_000_000  # 200 megapixels: more than any camera a board is filmed with
_HEADER_BYTES = 65536
_JPEG_SIZE_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


class ImageReadError(VisionError, OSError):
    """An image file is missing or cannot be decoded."""


def claimed_size(header: bytes) -> tuple[int, int] | None:
    """(width, height) a PNG or JPEG header claims, or None for other formats and headers too short to tell."""
    if header.startswith(b"\x89PNG\r\n\x1a\n") and header[12:16] == b"IHDR" and len(header) >= 24:
        width, height = struct.unpack(">II", header[16:24])
        return int(width), int(height)
    if not header.startswith(b"\xff\xd8"):
        return None
    at = 2
    while at + 9 <= len(header):
        if header[at] != 0xFF:
            return None
        marker = header[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        length = struct.unpack(">H", header[at + 2 : at + 4])[0]
        if marker in _JPEG_SIZE_MARKERS:
            height, width = struct.unpack(">HH", header[at + 5 : at + 9])
            return int(width), int(height)
        at += 2 + length
    return None


def read_image(path: str | Path) -> np.ndarray:
    """The BGR pixels of an image file; raises ImageReadError saying what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise ImageReadError(f"{path}: no such image file")
    with open(path, "rb") as handle:
        size = claimed_size(handle.read(_HEADER_BYTES))
    if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise ImageReadError(
            f"{path}: the picture claims {size[0]}x{size[1]} pixels, more than the "
            f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels a photo of the board can need: give a camera's photo"
        )
    try:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error:
        image = None  # OpenCV refuses it (too large for its own limit, or damaged): the same clear line
    if image is None:
        raise ImageReadError(f"{path}: not an image OpenCV can read (use PNG or JPEG)")
    return np.asarray(image)
