"""Frame sources chosen by spec string: cameras, video files, image folders, MJPEG streams, the synthetic camera.

:func:`open_source` takes the camera spec of the configuration or the
command line and returns a :class:`FrameSource`: iterate it for
:class:`Frame` values (``.image`` is a BGR picture), and ``close()`` it (or
use it in a ``with`` block) when done. Specs:

- ``0``, ``1``, ... or ``/dev/video0``: an OpenCV capture device;
- ``file:game.mp4``: a video file, frame by frame, to its end (a bare path
  to an existing file works too);
- ``dir:frames/``: the pictures of a folder (png, jpg, bmp, tif, webp) in
  name order (or a bare path to an existing folder);
- ``http://...`` or ``https://...``: an MJPEG stream (``multipart/x-mixed-replace``),
  or a snapshot URL that answers one JPEG per request;
- ``synth:`` or ``synth:?board=diamond:8&seed=1&conditions=typical&size=1280x720&moves=20``:
  rendered frames of a scripted game (:mod:`vision.synth.game`), each with its
  ground truth (``truth``, ``occluded``, ``hand_visible``).

A camera that is not plugged in, a missing file or folder, an unreachable
URL or a bad spec raise a :class:`SourceError` subclass whose message says
what to do; they also subclass the matching built-in error. A stream is
bounded: a frame claiming (or growing) beyond :data:`MAX_FRAME_BYTES` stops
the source with a clear error instead of filling memory while no frame comes.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import cv2
import numpy as np

from vision.errors import VisionError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
URL_TIMEOUT_S = 5.0
MAX_FRAME_BYTES = 32 * 1024 * 1024  # a camera's JPEG is a few megabytes at most
MAX_CAMERA_INDEX = 9999
_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*([0-9]+)", re.IGNORECASE)
_KEPT_BYTES = 512  # of a buffer without a frame start: enough for a part's header split between reads
SPEC_FORMS = "0, /dev/video0, file:game.mp4, dir:frames/, http://host/stream.mjpg or synth:"


class SourceError(VisionError):
    """A frame source could not be opened or stopped giving frames."""


class SourceSpecError(SourceError, ValueError):
    """A camera spec that names no kind of frame source, or has bad options."""


class SourceNotFoundError(SourceError, FileNotFoundError):
    """A video file, image folder or capture device that does not exist or cannot be opened."""


class SourceUnreachableError(SourceError, ConnectionError):
    """A stream URL that does not answer, or answers something other than JPEG frames."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture from a source: the BGR ``image``, its number from 0, and the truth when the source knows it.

    ``truth`` (one symbol per cell), ``occluded`` (a hand covers cells) and
    ``hand_visible`` are set by the synthetic camera only; None elsewhere.
    """

    image: np.ndarray
    index: int
    truth: tuple[str, ...] | None = None
    occluded: bool | None = None
    hand_visible: bool | None = None


class FrameSource:
    """Frames from somewhere: iterate for :class:`Frame` values; ``close()`` releases the device or stream."""

    description = "frame source"

    def __iter__(self) -> Iterator[Frame]:
        for index, image in enumerate(self._images()):
            yield Frame(image, index)

    def _images(self) -> Iterator[np.ndarray]:
        raise NotImplementedError

    def close(self) -> None:
        """Release whatever the source holds open (safe to call twice)."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CaptureSource(FrameSource):
    """An OpenCV ``VideoCapture``: a camera by index or device path, or a video file."""

    def __init__(self, target: int | str, is_file: bool) -> None:
        self.target = target
        self.is_file = is_file
        self.description = f"video file {target}" if is_file else f"camera {target}"
        if is_file and not Path(str(target)).is_file():
            raise SourceNotFoundError(f"no video file at {target}: check the path (file:PATH)")
        try:
            self._capture: Any = _quiet_capture(target)
        except cv2.error:
            raise SourceNotFoundError(f"{self.description} cannot be opened by OpenCV: check the spec") from None
        if not self._capture.isOpened():
            self._capture.release()
            if is_file:
                raise SourceNotFoundError(f"{target} cannot be read as a video: give an mp4, avi or mkv file")
            raise SourceNotFoundError(
                f"camera {target} cannot be opened: plug it in (or choose another index; "
                "`ls /dev/video*` lists the cameras), and close any other program using it"
            )

    def _images(self) -> Iterator[np.ndarray]:
        while self._capture is not None:
            ok, image = self._capture.read()
            if not ok or image is None:
                if self.is_file:
                    return
                raise SourceNotFoundError(
                    f"camera {self.target} stopped giving frames: check its cable, then start again"
                )
            yield image

    def close(self) -> None:
        """Release the device or file."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def _quiet_capture(target: int | str) -> Any:
    """``cv2.VideoCapture(target)`` without OpenCV's own warnings: a failure gets our one clear line instead."""
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_ERROR)
    try:
        return cv2.VideoCapture(target)
    finally:
        logging.setLogLevel(level)


class FolderSource(FrameSource):
    """The pictures of a folder, in name order."""

    def __init__(self, folder: str) -> None:
        path = Path(folder).expanduser()
        self.description = f"image folder {folder}"
        if not path.is_dir():
            raise SourceNotFoundError(f"no folder at {folder}: check the path (dir:FOLDER)")
        self.paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.paths:
            raise SourceNotFoundError(
                f"the folder {folder} holds no pictures: put {', '.join(IMAGE_SUFFIXES)} files in it"
            )

    def _images(self) -> Iterator[np.ndarray]:
        for path in self.paths:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceNotFoundError(f"{path} cannot be read as a picture: remove it or replace it")
            yield image


class MjpegSource(FrameSource):
    """JPEG frames over HTTP: an MJPEG stream, or a snapshot URL fetched again for every frame."""

    chunk_bytes = 65536

    def __init__(self, url: str, timeout_s: float = URL_TIMEOUT_S) -> None:
        self.url = url
        self.timeout_s = timeout_s
        self.description = f"stream {url}"
        self._response: Any = self._open()
        self.content_type = str(self._response.headers.get("Content-Type", "")).lower()
        if not (self.content_type.startswith("multipart/") or self.content_type.startswith("image/jpeg")):
            self.close()
            raise SourceUnreachableError(
                f"{url} answers {self.content_type or 'no content type'}, not JPEG frames: "
                "give the camera's MJPEG stream URL"
            )

    def _open(self) -> Any:
        try:
            return urllib.request.urlopen(self.url, timeout=self.timeout_s)
        except (urllib.error.URLError, OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            raise SourceUnreachableError(
                f"{self.url} cannot be reached ({reason}): check the address, that the camera is on and on this network"
            ) from None

    def _images(self) -> Iterator[np.ndarray]:
        if self.content_type.startswith("image/jpeg"):
            while self._response is not None:
                self._check_length(str(self._response.headers.get("Content-Length", "")).encode())
                data = self._response.read(MAX_FRAME_BYTES + 1)
                if len(data) > MAX_FRAME_BYTES:
                    raise self._too_large(f"sent a frame of more than {len(data) - 1:,} bytes")
                image = _decode(data, self.url)
                self._response.close()
                yield image
                self._response = self._open()
            return
        buffer = bytearray()
        searched = 0  # bytes after the frame start already searched for its end
        while self._response is not None:
            try:
                chunk = self._response.read1(self.chunk_bytes)
            except OSError as error:
                raise SourceUnreachableError(f"{self.url} stopped sending ({error}): check the camera") from None
            if not chunk:
                return
            buffer += chunk
            while True:
                start = buffer.find(b"\xff\xd8")
                self._check_length(bytes(buffer[:start] if start >= 0 else buffer))
                if start < 0:
                    del buffer[:-_KEPT_BYTES]
                    searched = 0
                    break
                if start > 0:
                    del buffer[:start]
                    searched = 0
                end = buffer.find(b"\xff\xd9", max(2, searched - 1))
                if end < 0:
                    searched = len(buffer)
                    if len(buffer) > MAX_FRAME_BYTES:
                        raise self._too_large(f"sent {len(buffer):,} bytes without a complete frame")
                    break
                data = bytes(buffer[: end + 2])
                del buffer[: end + 2]
                searched = 0
                yield _decode(data, self.url)

    def _check_length(self, headers: bytes) -> None:
        """Refuse a part whose header claims a frame larger than any camera sends."""
        for match in _CONTENT_LENGTH.finditer(headers):
            digits = match.group(1)
            if len(digits) > 18 or int(digits) > MAX_FRAME_BYTES:
                size = f"{int(digits):,}" if len(digits) <= 18 else f"a {len(digits)}-digit number of"
                raise self._too_large(f"announced a frame of {size} bytes")

    def _too_large(self, what: str) -> SourceUnreachableError:
        self.close()
        return SourceUnreachableError(
            f"{self.url} {what}, more than the {MAX_FRAME_BYTES // 2**20} MB a camera's JPEG can be: "
            "this is not a camera's stream; check the URL"
        )

    def close(self) -> None:
        """Close the connection."""
        if self._response is not None:
            self._response.close()
            self._response = None


def _decode(data: bytes, url: str) -> np.ndarray:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise SourceUnreachableError(f"{url} sent a frame that is not a JPEG picture: check the stream URL")
    return image


class SynthSource(FrameSource):
    """Rendered frames of a scripted game (:func:`vision.synth.render_game`), each with its truth."""

    OPTIONS = ("board", "seed", "conditions", "size", "moves")

    def __init__(self, options: dict[str, str], spec: str) -> None:
        from referee.errors import GeometryError
        from referee.geometry import parse_geometry
        from vision.synth import preset, scripted_game
        from vision.synth.conditions import SynthError

        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            raise SourceSpecError(f"'{spec}': the synthetic camera takes {', '.join(self.OPTIONS)}, not {unknown[0]}")
        try:
            self.geometry = parse_geometry(options.get("board", "diamond:8"))
            self.conditions = preset(options.get("conditions", "typical"))
        except (GeometryError, SynthError) as error:
            raise SourceSpecError(f"'{spec}': {error}") from None
        self.seed = _whole(options, "seed", 1, spec)
        self.size = _size(options.get("size", "1280x720"), spec)
        moves = _whole(options, "moves", len(self.geometry.cells) // 2, spec)
        self.positions = scripted_game(self.geometry, self.seed, moves)
        self.description = f"synthetic camera ({self.geometry.spec}, seed {self.seed})"

    def __iter__(self) -> Iterator[Frame]:
        from vision.synth import render_game

        for shot in render_game(self.geometry, self.positions, self.seed, self.conditions, self.size):
            yield Frame(shot.image, shot.index, shot.symbols, shot.occluded, shot.hand_visible)


def _whole(options: dict[str, str], key: str, default: int, spec: str) -> int:
    text = options.get(key)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise SourceSpecError(f"'{spec}': {key} must be a whole number of at least 0, not '{text}'")
    return value


def _size(text: str, spec: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    if sep and width.isdigit() and height.isdigit() and int(width) >= 160 and int(height) >= 120:
        return int(width), int(height)
    raise SourceSpecError(f"'{spec}': size must be WIDTHxHEIGHT of at least 160x120, like 1280x720, not '{text}'")


def open_source(spec: str | int) -> FrameSource:
    """Open the frame source named by ``spec`` (see the module docstring)."""
    text = str(spec).strip()
    if not text:
        raise SourceSpecError(f"no camera given: use one of {SPEC_FORMS}")
    if text.isascii() and text.isdigit():
        if len(text) > len(str(MAX_CAMERA_INDEX)):
            raise SourceSpecError(
                f"'{text[:20]}{'…' if len(text) > 20 else ''}' is too large for a camera number: cameras are "
                "numbered 0, 1, 2, ... (`ls /dev/video*` lists them)"
            )
        return CaptureSource(int(text), is_file=False)
    if text.startswith("/dev/"):
        if not Path(text).exists():
            raise SourceNotFoundError(f"no camera at {text}: plug it in, or pick one that `ls /dev/video*` lists")
        return CaptureSource(text, is_file=False)
    path = Path(text).expanduser()
    if path.is_dir():
        return FolderSource(text)
    if path.is_file():
        return CaptureSource(text, is_file=True)
    kind, sep, rest = text.partition(":")
    kind = kind.lower()
    if sep and kind == "file":
        return CaptureSource(rest, is_file=True)
    if sep and kind == "dir":
        return FolderSource(rest)
    if sep and kind in ("http", "https"):
        return MjpegSource(text)
    if sep and kind == "synth":
        query = rest.lstrip("?")
        try:
            options = dict(parse_qsl(query, strict_parsing=bool(query)))
        except ValueError:
            raise SourceSpecError(
                f"'{text}': write options as name=value pairs joined by &, like synth:?board=diamond:6&seed=3"
            ) from None
        return SynthSource(options, text)
    raise SourceSpecError(f"'{text}' is not a camera spec: use one of {SPEC_FORMS}")
