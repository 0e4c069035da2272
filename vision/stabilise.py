"""The temporal stabiliser: a board reading counts only once the board has been still and uncovered.

A camera sees hands come in, stones put down, hands leave. Single frames in
between are not to be trusted: a hand may cover a cell, a stone may still be
rolling, the reader may flag the frame as occluded. :class:`Stabiliser` is fed
every frame's :class:`~vision.pipeline.FrameReading` and returns one only when
the board has *settled*:

- ``still_frames`` consecutive frames, each located and not occluded;
- they agree on every cell (symbols, and ball counts on Kaskade boards);
  a ``?`` must be ``?`` in all of them and stays ``?`` in the stable reading:
  the stabiliser never fills an unreadable cell from an earlier frame;
- between each of them the reader's ``change`` measure stays at most
  ``max_change`` (the first frame of the run is compared with a frame that may
  have shown a hand, so its own change is not judged).

When to return a reading: once each time the board settles into a new
reading. The run that settles gives its ``still_frames``-th frame's reading;
further still frames of the same board give None. After that, a stable
reading comes again only when

- the board settles into a *different* reading (a move was played), or
- the board was seen covered (a frame occluded or not located) and then
  settles, even into the same reading as before: a hand came and went
  without playing, and a consumer that was told of the hands learns they
  have gone.

A board that merely flickers (a frame that moves or reads differently, but
is not flagged occluded) and settles back into the reading last returned
gives nothing new: such a flicker is most often a hand the reader did not
flag, and the reading under it is not news. This is what the companion's
camera loop (:class:`companion.runner.CameraLoop`) expects: it feeds each
returned reading to the live game once, and tells the live game about the
occlusion itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.errors import VisionError
from vision.pipeline import FrameReading


class StabiliserConfigError(VisionError, ValueError):
    """A stabiliser setting out of range; the message says which and what to give."""


@dataclass(frozen=True)
class StabiliserConfig:
    """How still the board must be before its reading counts.

    ``still_frames``: consecutive unoccluded, located frames that must read the
    same. ``max_change``: the largest change measure (the reader's largest
    per-cell Lab distance from the previous frame) still counted as still.
    Four frames are half a second at 8 frames per second; sensor noise moves
    the change measure of a still board by up to about 10, a moving hand by
    tens.
    """

    still_frames: int = 4
    max_change: float = 20.0

    def __post_init__(self) -> None:
        if self.still_frames < 1:
            raise StabiliserConfigError(f"still_frames must be at least 1, not {self.still_frames}")
        if not self.max_change >= 0:
            raise StabiliserConfigError(f"max_change must be a number of at least 0, not {self.max_change}")


class Stabiliser:
    """Turns a stream of frame readings into stable readings (see the module docstring).

    One stabiliser per camera; feed every frame in order with :meth:`update`.
    """

    def __init__(self, config: StabiliserConfig | None = None) -> None:
        self.config = config or StabiliserConfig()
        self._run = 0
        self._run_reading: FrameReading | None = None
        self._emitted = False
        self._last: FrameReading | None = None

    @property
    def settled(self) -> bool:
        """True while the board stays settled since the last stable reading was returned."""
        return self._emitted

    def reset(self) -> None:
        """Forget the frames seen so far: the next settled board is returned whatever it reads."""
        self._run = 0
        self._run_reading = None
        self._emitted = False
        self._last = None

    def update(self, reading: FrameReading) -> FrameReading | None:
        """Feed one frame's reading; the stable reading when the board has just settled, else None."""
        if reading.occluded or not reading.located:
            self.reset()
            return None
        previous = self._run_reading
        still = math.isfinite(reading.change) and reading.change <= self.config.max_change
        if previous is None or not still or not _same_board(previous, reading):
            self._start_run(reading)
        else:
            self._run += 1
        if self._run >= self.config.still_frames and not self._emitted:
            self._emitted = True
            if self._last is not None and _same_board(self._last, reading):
                return None
            self._last = reading
            return reading
        return None

    def _start_run(self, reading: FrameReading) -> None:
        self._run = 1
        self._run_reading = reading
        self._emitted = False


def _same_board(a: FrameReading, b: FrameReading) -> bool:
    return a.symbols == b.symbols and a.counts == b.counts
