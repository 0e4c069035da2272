"""The camera loop: frames in, stable readings to the live game, the camera view out to the page.

:class:`CameraLoop` reads each frame with the vision pipeline's
:class:`~vision.pipeline.BoardReader`, lets the temporal stabiliser decide
when the board is still and uncovered, feeds those readings (and button
presses) to the :class:`~companion.live.LiveGame`, and now and then draws the
detected cells over the frame for the page's camera view.

A frame the reader cannot take (a corrupt picture from a failing camera) is
skipped and counted; the terminal hears of it once per run of such frames,
and the game goes on with the next good one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from companion.live import LiveGame
from referee.symbols import EMPTY
from vision.pipeline import BoardReader, FrameReading

VIEW_WIDTH_PX = 640
JPEG_QUALITY = 70
SYMBOL_BGR = {"o": (245, 245, 245), "x": (30, 30, 30), "=": (40, 40, 220), ".": (120, 200, 120), "?": (0, 200, 255)}


class Steadier(Protocol):
    """The temporal stabiliser: a reading when the board has been still and uncovered, else None."""

    def update(self, reading: FrameReading) -> FrameReading | None:
        """Feed one frame's reading."""


class Buttons(Protocol):
    """The players' buttons (``hardware.open_buttons``)."""

    def drain(self) -> list[Any]:
        """The presses waiting, oldest first (ButtonEvent values; their ``name`` is the button)."""

    def buzz(self, wait: bool = False) -> None:
        """Sound the error alert."""


def reading_tokens(reading: FrameReading) -> tuple[str, ...]:
    """Board tokens of a reading: the symbols, with ball counts on Kaskade boards (``o2``)."""
    if reading.counts is None:
        return reading.symbols
    return tuple(s if s in (EMPTY, "?") else f"{s}{c}" for s, c in zip(reading.symbols, reading.counts, strict=True))


@dataclass
class LoopStats:
    """What the loop did: frames read, stable readings fed, frames it could not read, seconds spent per frame."""

    frames: int = 0
    stable: int = 0
    occluded: int = 0
    unreadable: int = 0
    frame_s: list[float] = field(default_factory=list)


class CameraLoop:
    """Drives a live game from a stream of frames (see the module docstring)."""

    def __init__(
        self,
        live: LiveGame,
        reader: BoardReader,
        steadier: Steadier,
        buttons: Buttons | None = None,
        view_every: int = 3,
    ) -> None:
        self.live = live
        self.reader = reader
        self.steadier = steadier
        self.buttons = buttons
        self.view_every = max(1, view_every)
        self.stats = LoopStats()
        self._was_occluded = False
        self._had_errors = False
        self._unreadable = False
        self.divert: Callable[[np.ndarray], bool] | None = None
        """Offered every frame first; a frame it takes (True) is not read (the page's calibration under way)."""

    def step(self, image: np.ndarray, pressed: Iterable[str] = ()) -> FrameReading | None:
        """Process one frame (and any buttons pressed with it); None for a frame that could not be read."""
        if self.divert is not None and self.divert(image):
            return None
        started = time.perf_counter()
        try:
            reading: FrameReading | None = self.reader.read(image)
        except Exception as error:  # a corrupt frame must not end the game: skip it, say so once
            reading = None
            self.stats.unreadable += 1
            if not self._unreadable and self.live.on_notice is not None:
                self.live.on_notice(f"a camera frame could not be read ({error}); check the camera and its cable")
        self._unreadable = reading is None
        stable = self.steadier.update(reading) if reading is not None else None
        if stable is not None:
            self.stats.stable += 1
            self.live.on_reading(reading_tokens(stable), occluded=False)
            self._was_occluded = False
        elif reading is not None and reading.occluded and not self._was_occluded:
            self.stats.occluded += 1
            self.live.on_reading((), occluded=True)
            self._was_occluded = True
        presses = [*pressed, *(e.name for e in self.buttons.drain())] if self.buttons is not None else list(pressed)
        for name in presses:
            self.live.on_button(name)
        errors = bool(self.live.snapshot().errors)
        if errors and not self._had_errors and self.buttons is not None:
            self.buttons.buzz()
        self._had_errors = errors
        if reading is not None and self.stats.frames % self.view_every == 0:
            self.live.show_camera(self.camera_view(image, reading))
        self.stats.frames += 1
        self.stats.frame_s.append(time.perf_counter() - started)
        return reading

    def run(
        self,
        frames: Iterable[Any],
        stop: threading.Event,
        fps: float | None = None,
        image_of: Callable[[Any], np.ndarray] = lambda f: f,
        buttons_of: Callable[[Any], Iterable[str]] = lambda f: (),
    ) -> LoopStats:
        """Process frames until they end or ``stop`` is set; paced to ``fps`` when given."""
        period = 1.0 / fps if fps else 0.0
        next_at = time.monotonic()
        for frame in frames:
            if stop.is_set():
                break
            self.step(image_of(frame), buttons_of(frame))
            if period:
                next_at += period
                if stop.wait(max(0.0, next_at - time.monotonic())):
                    break
        return self.stats

    def camera_view(self, image: np.ndarray, reading: FrameReading) -> bytes:
        """The frame, scaled down, with each detected cell drawn over it; as JPEG."""
        scale = VIEW_WIDTH_PX / image.shape[1]
        view = cv2.resize(image, (VIEW_WIDTH_PX, round(image.shape[0] * scale)), interpolation=cv2.INTER_AREA)
        location = self.reader.location
        if location is not None and reading.located:
            geometry = self.reader.geometry
            centres = location.project(np.array(geometry.centres, dtype=np.float64)) * scale
            edge = location.project(
                np.array([geometry.centres[0], (geometry.centres[0][0] + 0.5, geometry.centres[0][1])])
            )
            radius = max(3, int(np.linalg.norm(edge[1] - edge[0]) * scale * 0.6))
            snap = self.live.snapshot()
            marked = {m.cell: (0, 0, 255) for m in snap.errors} | {m.cell: (255, 160, 0) for m in snap.pending}
            for cell, (x, y), symbol in zip(geometry.cells, centres, reading.symbols, strict=True):
                centre = (round(float(x)), round(float(y)))
                colour = marked.get(cell.name, SYMBOL_BGR.get(symbol, (0, 200, 255)))
                thickness = 3 if cell.name in marked else 1
                cv2.circle(view, centre, radius, colour, thickness, cv2.LINE_AA)
        if reading.occluded:
            cv2.putText(view, "hands over the board", (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 200, 255), 2)
        ok, data = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        return data.tobytes() if ok else b""
