"""Guided calibration: a step machine that walks a newcomer through calibrating a board, frame by frame.

The steps, in order (:data:`STEPS`):

1. ``locate``: find the board by its markers (or the checkerboard) and hold
   the camera still;
2. ``confirm``: show the found grid over the live picture (:meth:`overlay`)
   and ask whether it sits on the cells;
3. ``empty``: capture the empty board;
4. ``stones``: light (or list) a few cells and ask for one stone of each
   colour in play there; they give the stone colours;
5. ``verify``: ask for the same stones moved to other cells of the set and
   read the board back with the new profile;
6. ``done``: the profile is ready (:attr:`GuidedCalibration.profile`).

Each frame goes to :meth:`GuidedCalibration.offer`, which checks it for the
current step and returns a :class:`Check`: whether the frame passes, and the
problems in plain words, each with its fix (a marker not visible, too dark,
glare on cell e6, no stone found on d4, a stone that looks black where a white
one was asked). A step moves on after ``still_frames`` passing frames in a
row with nothing moving. The machine never opens a camera or an LED: a
driver (the terminal in :mod:`calibration.terminal`, the page) feeds frames,
shows :attr:`GuidedCalibration.step` and lights :attr:`Step.lit`.

How the checks see the board. Every frame is seen as the reader sees it
(:func:`vision.pipeline.make_view`): warped flat, each cell's colour taken
at its centre (:mod:`calibration.cellview`); the checks themselves, each
problem with its fix, are in :mod:`calibration.problems`.

- *Is a stone where one was asked, and nowhere else?* Until the stones are
  captured there are no stone colours to read with, so each cell is compared
  with what the captured empty board showed there: its colour change in Lab,
  after taking out the change of light since the capture (the median change
  over the cells that should stay empty, in the reader's log colour, where a
  change of light is a shift). This needs no model, works on any board and
  stone colours the camera can tell apart, and cannot be fooled by a stone
  left on the board when it was captured (that cell then changes when it is
  taken away, and is named).
- *A stone left on the empty board:* with a starting profile that knows
  this board (it reads most of the cells that should be empty as empty), the
  cells it reads as stones; otherwise the cells whose centre differs from
  their own surface near their corners far more than the other cells' do
  (no capture to compare with yet).
- *Does the stone look like the colour asked?* With a starting profile that
  knows this board, an asked cell that it reads as another stone colour.
- *Read it back:* the model learned from the captures so far (the empty
  board and the stones, :func:`vision.learn.fit_colour_model`) reads the
  moved stones with the reader itself, exactly as a game will be read.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from calibration import problems as check
from calibration.cellview import lab
from calibration.problems import COLOUR_WORDS, Problem
from calibration.profile import Profile
from calibration.ready import stones_in_play
from referee.geometry import Geometry
from vision.config import VisionConfig
from vision.errors import BoardNotFoundError, ColourModelError, VisionError
from vision.learn import CalibrationPhoto, fit_colour_model
from vision.lens import Lens
from vision.lines import locate_through_lens
from vision.locate import CheckerboardLocator, CornerLocator, Locator, MarkerLocator, detect_markers, locate
from vision.model import BoardModel
from vision.pipeline import BoardReader, make_view

STEPS = ("locate", "confirm", "empty", "stones", "verify", "done")


class GuidedCalibrationError(VisionError, ValueError):
    """The guided calibration was used out of order (an answer when none is asked, a profile before the end)."""


@dataclass(frozen=True)
class Step:
    """One step of the flow: its name, what to do, the cells to light (index -> stone wanted) and whether an
    answer (yes/no) is awaited."""

    name: str
    title: str
    instructions: str
    lit: dict[int, str] = field(default_factory=dict)
    asks: bool = False

    def to_dict(self, geometry: Geometry) -> dict[str, Any]:
        """JSON-ready form for the page (cells by name)."""
        return {
            "name": self.name,
            "title": self.title,
            "instructions": self.instructions,
            "lit": {geometry.cells[i].name: s for i, s in self.lit.items()},
            "asks": self.asks,
        }


@dataclass(frozen=True)
class Check:
    """The verdict on one frame: the step it was checked for, whether it passes, the problems, and whether the
    flow moved to the next step with it."""

    step: str
    passed: bool
    problems: tuple[Problem, ...] = ()
    advanced: bool = False

    def to_dict(self, geometry: Geometry) -> dict[str, Any]:
        """JSON-ready form for the page."""
        return {
            "step": self.step,
            "passed": self.passed,
            "advanced": self.advanced,
            "problems": [
                {"what": p.what, "fix": p.fix, "cells": [geometry.cells[i].name for i in p.cells]}
                for p in self.problems
            ],
        }


@dataclass(frozen=True)
class GuidedConfig:
    """Thresholds of the guided flow.

    ``still_frames``: passing frames in a row before a step moves on.
    ``still_lab``: largest change of any cell's colour (Lab units) between two frames still counted as still.
    ``dark_level``, ``bright_level``: median grey of the picture (0..255) below which it is too dark,
    and share of blown-out pixels above which it is too bright. ``glare_share``: share of blown-out pixels
    in the middle of a cell (see :mod:`calibration.cellview`) that counts as glare. ``min_pitch_px``:
    smallest cell pitch in the picture. ``stone_lab``: smallest colour change (Lab units) from the captured
    empty cell that counts as a stone. ``stray_lab``: how much more than the other cells an empty cell's
    centre may differ from its corners before it counts as holding a stone. ``per_colour``: cells asked for
    each stone colour.
    """

    still_frames: int = 3
    still_lab: float = 6.0
    dark_level: float = 45.0
    bright_level: float = 0.25
    glare_share: float = 0.2
    min_pitch_px: float = 12.0
    stone_lab: float = 14.0
    stray_lab: float = 12.0
    per_colour: int = 2


class GuidedCalibration:
    """The guided calibration of one board (see the module docstring).

    ``locator`` defaults to the four default markers; ``start`` (a ready
    profile, say) gives its stone colours to check stones against; ``stones``
    defaults to the colours in play on the board.
    """

    def __init__(
        self,
        geometry: Geometry,
        locator: Locator | None = None,
        start: Profile | None = None,
        stones: tuple[str, ...] | None = None,
        config: GuidedConfig | None = None,
        vision: VisionConfig | None = None,
    ) -> None:
        self.geometry = geometry
        self.locator: Locator = locator or (
            start.locator if start and start.locator else MarkerLocator.default(geometry)
        )
        self.start = start
        self.stones = stones or stones_in_play(geometry)
        self.config = config or GuidedConfig()
        self.vision = vision or VisionConfig()
        self.view = make_view(geometry, self.vision)
        self.centres = np.array(geometry.centres, dtype=np.float64)
        self.asked = choose_cells(geometry, self.stones, self.config.per_colour)
        self.moved = _moved(self.asked, self.stones)
        self._start_reader = (
            BoardReader(geometry, None, start.colour_model, self.vision)
            if start is not None and start.geometry == geometry.spec
            else None
        )
        self._step = 0
        self._run = 0
        self._previous: np.ndarray | None = None
        self._homography: np.ndarray | None = None
        self._empty: CalibrationPhoto | None = None
        self._empty_colour: np.ndarray | None = None
        self._known: list[CalibrationPhoto] = []
        self._reader: BoardReader | None = None
        self._profile: Profile | None = None

    # --- state -------------------------------------------------------------------------------------------

    @property
    def step(self) -> Step:
        """The current step, with its instructions and cells to light."""
        return self._describe(STEPS[self._step])

    @property
    def done(self) -> bool:
        """True once the profile is made and verified."""
        return STEPS[self._step] == "done"

    @property
    def profile(self) -> Profile:
        """The verified profile; raises GuidedCalibrationError before the flow is done."""
        if self._profile is None:
            raise GuidedCalibrationError(f"the calibration is at step '{STEPS[self._step]}': finish it first")
        return self._profile

    @property
    def homography(self) -> np.ndarray | None:
        """The board-plane-to-picture homography found by the ``locate`` step (None before)."""
        return self._homography

    def _describe(self, name: str) -> Step:
        g = self.geometry
        if name == "locate":
            how = (
                "all four printed markers are"
                if isinstance(self.locator, MarkerLocator)
                else "the whole empty checkerboard is"
                if isinstance(self.locator, CheckerboardLocator)
                else "the board is"
            )
            return Step(name, "Find the board", f"Point the camera at the board so that {how} in view; hold it still.")
        if name == "confirm":
            return Step(
                name,
                "Check the grid",
                "The picture shows the cells found. Does the grid sit on the board's cells? Answer yes or no.",
                asks=True,
            )
        if name == "empty":
            return Step(
                name, "Empty board", "Clear the board and its rim: take every stone off, and keep hands and cups away."
            )
        if name == "stones":
            return Step(name, "One stone of each colour", _placing(g, self.asked, "Put"), lit=dict(self.asked))
        if name == "verify":
            return Step(name, "Read it back", _placing(g, self.moved, "Now move the stones:"), lit=dict(self.moved))
        return Step(name, "Done", "The profile is ready: save it.")

    # --- frames ------------------------------------------------------------------------------------------

    def offer(self, image: np.ndarray) -> Check:
        """Check one camera frame (BGR) for the current step; move on when it has passed long enough."""
        name = STEPS[self._step]
        if name in ("confirm", "done"):
            return Check(name, passed=True)
        problems = check.exposure(image, self.config.dark_level, self.config.bright_level)
        location = None
        if not problems or name != "locate":
            try:
                location = locate(image, self.geometry, self.locator, config=self.vision)
            except BoardNotFoundError as error:
                problems.append(self._not_found(image, error))
        if location is None:
            return self._verdict(name, problems, moved=True)
        homography = location.homography
        if _pitch_px(self.geometry, homography) < self.config.min_pitch_px:
            problems.append(Problem("the board is too small in the picture", "move the camera closer to the board"))
        flat = self.view.warp(image, homography)
        features = self.view.features(flat)
        colour = self.view.sample(features, self.centres)[:, :3].astype(np.float64)
        seen = lab(colour)
        moved = self._previous is None or float(np.abs(seen - self._previous).max()) > self.config.still_lab
        self._previous = seen
        if name == "locate":
            if self._homography is not None and _shift(self.geometry, homography, self._homography) > 0.1:
                moved = True
            self._homography = homography
            if isinstance(self.locator, MarkerLocator):
                problems += check.markers_hidden(self.locator, location.markers_seen)
            verdict = self._verdict(name, problems, moved)
            if verdict.advanced and isinstance(self.locator, CheckerboardLocator):
                self.locator = self._stored_locator()
            return verdict
        glare = check.glare(self.view, flat, self.config.glare_share)
        problems += glare
        if moved:
            # someone is still at work on the board: judge it once it lies still
            return self._verdict(name, problems, moved)
        if name == "empty":
            stray = self._stray_stones(image, homography, features) - {c for p in glare for c in p.cells}
            problems += check.stray_stones(self.geometry, sorted(stray))
            verdict = self._verdict(name, problems, moved)
            if verdict.advanced:
                self._empty = CalibrationPhoto(image, homography, (".",) * len(self.geometry.cells))
                self._empty_colour = colour
            return verdict
        wanted = self.asked if name == "stones" else self.moved
        assert self._empty_colour is not None
        still = np.array([i not in wanted for i in range(len(colour))])
        placed = check.changed(self._empty_colour, colour, still) > self.config.stone_lab
        problems += check.placing(self.geometry, self.stones, wanted, placed)
        symbols = self._start_reads(image, homography, still) if not problems else None
        if symbols is not None:
            problems += check.wrong_colours(self.geometry, self.stones, wanted, symbols)
        if name == "verify" and not problems:
            assert self._reader is not None
            problems += check.misread(self.geometry, wanted, self._read_back(image, homography))
        verdict = self._verdict(name, problems, moved)
        if verdict.advanced:
            layout = tuple(wanted.get(i, ".") for i in range(len(self.geometry.cells)))
            return self._capture(verdict, CalibrationPhoto(image, homography, layout))
        return verdict

    def _capture(self, verdict: Check, photo: CalibrationPhoto) -> Check:
        """Learn from the frame that passed its step: the model to read back with, or the profile."""
        try:
            model = self._fit([*self._known, photo])
        except ColourModelError as error:
            self._step -= 1
            return Check(verdict.step, passed=False, problems=(Problem("the stones could not be learned", str(error)),))
        self._known.append(photo)
        if verdict.step == "stones":
            self._reader = BoardReader(self.geometry, None, model, self.vision)
        else:
            self._profile = Profile(geometry=self.geometry.spec, locator=self._stored_locator(), colour_model=model)
        return verdict

    def answer(self, yes: bool) -> Step:
        """Answer the ``confirm`` step: yes moves on, no goes back to finding the board."""
        if STEPS[self._step] != "confirm":
            raise GuidedCalibrationError(f"no question is asked at step '{STEPS[self._step]}'")
        if yes:
            self._step += 1
        else:
            self._step -= 1
            self._homography = None
        self._run = 0
        self._previous = None
        return self.step

    def again(self) -> Step:
        """Capture the empty board again (after something was left on it unnoticed); stones are asked anew."""
        if self._step < STEPS.index("empty"):
            raise GuidedCalibrationError("the empty board has not been captured yet")
        self._step = STEPS.index("empty")
        self._known.clear()
        self._reader = None
        self._profile = None
        self._run = 0
        self._previous = None
        return self.step

    def _verdict(self, name: str, problems: list[Problem], moved: bool) -> Check:
        if problems or moved:
            self._run = 0 if problems else 1
            return Check(name, passed=not problems, problems=tuple(problems))
        self._run += 1
        if self._run >= self.config.still_frames:
            self._step += 1
            self._run = 0
            self._previous = None
            return Check(name, passed=True, advanced=True)
        return Check(name, passed=True)

    # --- checks ------------------------------------------------------------------------------------------

    def _not_found(self, image: np.ndarray, error: BoardNotFoundError) -> Problem:
        if isinstance(self.locator, MarkerLocator):
            wanted = sorted(m.id for m in self.locator.markers)
            hidden = check.markers_hidden(
                self.locator, tuple(detect_markers(image, self.locator.dictionary, set(wanted)))
            )
            if hidden:
                return hidden[0]
        return Problem("the board was not found", str(error))

    def _stray_stones(self, image: np.ndarray, homography: np.ndarray, features: np.ndarray) -> set[int]:
        """Stones left on the empty board: when the starting profile knows this board, the cells it reads as
        stones; otherwise the cells unlike their own surface (see
        :func:`calibration.problems.unlike_their_surface`)."""
        symbols = self._start_reads(image, homography, np.ones(len(self.geometry.cells), dtype=bool))
        found = set() if symbols is None else {i for i, s in enumerate(symbols) if s not in ".?"}
        return found or check.unlike_their_surface(self.view, features, self.config.stray_lab)

    def _start_reads(self, image: np.ndarray, homography: np.ndarray, empty: np.ndarray) -> tuple[str, ...] | None:
        """What the starting profile reads, when it knows this board: it reads most of the cells that should
        be ``empty`` (a mask) as empty. None without a starting profile, or when it is for another board."""
        if self._start_reader is None:
            return None
        symbols = self._start_reader.read_located(image, homography).symbols
        read_empty = sum(symbols[i] == "." for i in np.flatnonzero(empty))
        return symbols if read_empty >= 0.8 * int(empty.sum()) else None

    # --- results -----------------------------------------------------------------------------------------

    def _fit(self, known: list[CalibrationPhoto]) -> BoardModel:
        """The model learned from the empty board and ``known``, through the lens their lines tell."""
        assert self._empty is not None
        photos = [self._empty, *known]
        locator = self._stored_locator()

        def located(k: int, lens: Lens) -> np.ndarray:
            if lens.straight:
                return photos[k].homography
            return locate(photos[k].image, self.geometry, locator, config=self.vision, lens=lens).homography

        shared = 0 if isinstance(locator, CornerLocator) else None
        lens, homographies = locate_through_lens(
            self.geometry, [p.image for p in photos], [p.symbols for p in photos], located, [shared] * len(photos)
        )
        through = [replace(p, homography=h) for p, h in zip(photos, homographies, strict=True)]
        return fit_colour_model(self.geometry, through, self.vision, lens)

    def _read_back(self, image: np.ndarray, homography: np.ndarray) -> tuple[str, ...]:
        """What the model learned reads in a frame located at ``homography`` (through a straight lens)."""
        assert self._reader is not None
        lens = self._reader.lens_for(image)
        if not lens.straight:
            homography = locate(image, self.geometry, self._stored_locator(), config=self.vision, lens=lens).homography
        return self._reader.read_located(image, homography).symbols

    def _stored_locator(self) -> Locator:
        if isinstance(self.locator, CheckerboardLocator):
            assert self._homography is not None
            corners = cv2.perspectiveTransform(
                np.array(self.geometry.corners, dtype=np.float64).reshape(-1, 1, 2), self._homography
            ).reshape(4, 2)
            return CornerLocator(corners=tuple((float(x), float(y)) for x, y in corners))  # type: ignore[arg-type]
        return self.locator

    def overlay(self, image: np.ndarray) -> np.ndarray:
        """``image`` with the found grid drawn over it (cell outlines and a few cell names), for ``confirm``."""
        if self._homography is None:
            raise GuidedCalibrationError("the board has not been found yet: no grid to draw")
        return draw_grid(image, self.geometry, self._homography)


# --- helpers ---------------------------------------------------------------------------------------------


def choose_cells(geometry: Geometry, stones: tuple[str, ...], per_colour: int) -> dict[int, str]:
    """Cells spread over the board, ``per_colour`` for each stone colour: cell index -> stone to place there.

    Cells are picked far from each other and from the board's edge first
    (farthest-point order from the centre), so the colours are seen in
    every part of the light.
    """
    centres = np.array(geometry.centres)
    wanted = min(len(centres), per_colour * len(stones))
    middle = centres.mean(axis=0)
    chosen = [int(np.argmin(((centres - middle) ** 2).sum(axis=1)))]
    spread = 0.8 * float(np.sqrt(((centres - middle) ** 2).sum(axis=1)).max())
    while len(chosen) < wanted:
        gap = np.min(((centres[:, None, :] - centres[chosen][None, :, :]) ** 2).sum(axis=2), axis=1)
        inside = np.sqrt(((centres - middle) ** 2).sum(axis=1)) <= spread
        gap = np.where(inside, gap, -1.0)
        gap[chosen] = -1.0
        chosen.append(int(np.argmax(gap)))
    return {cell: stones[k % len(stones)] for k, cell in enumerate(chosen)}


def _moved(asked: dict[int, str], stones: tuple[str, ...]) -> dict[int, str]:
    """The same stones, each moved to the cell of the next colour, so that every cell changes colour."""
    return {cell: stones[(stones.index(symbol) + 1) % len(stones)] for cell, symbol in asked.items()}


def _placing(geometry: Geometry, wanted: dict[int, str], verb: str) -> str:
    parts = []
    for symbol in dict.fromkeys(wanted.values()):
        cells = [i for i, s in wanted.items() if s == symbol]
        parts.append(f"a {COLOUR_WORDS[symbol]} stone on {check.names(geometry, cells)}")
    return f"{verb} " + "; ".join(parts) + " (the lit cells). Leave every other cell empty."


def _pitch_px(geometry: Geometry, homography: np.ndarray) -> float:
    corners = np.array(geometry.corners, dtype=np.float64)
    seen = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(4, 2)
    board = float(np.linalg.norm(corners[2] - corners[0]))
    return float(np.linalg.norm(seen[2] - seen[0])) / max(board, 1e-6)


def _shift(geometry: Geometry, a: np.ndarray, b: np.ndarray) -> float:
    """How far the board moved between two homographies, in cell pitches."""
    corners = np.array(geometry.corners, dtype=np.float64).reshape(-1, 1, 2)
    pa = cv2.perspectiveTransform(corners, a).reshape(4, 2)
    pb = cv2.perspectiveTransform(corners, b).reshape(4, 2)
    return float(np.linalg.norm(pa - pb, axis=1).max()) / max(_pitch_px(geometry, a), 1e-6)


def draw_grid(image: np.ndarray, geometry: Geometry, homography: np.ndarray) -> np.ndarray:
    """A copy of ``image`` with every cell outline of ``geometry`` drawn where ``homography`` puts it."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    polygons = []
    for cell in geometry.cells:
        pts = np.array(geometry.polygon(cell), dtype=np.float64).reshape(-1, 1, 2)
        polygons.append(np.round(cv2.perspectiveTransform(pts, homography) * 16).astype(np.int32))
    cv2.polylines(out, polygons, True, (0, 255, 0), 2, cv2.LINE_AA, 4)
    rows = geometry.row_cells
    for row in (rows[0], rows[len(rows) // 2], rows[-1]):
        for index in (row[0], row[-1]):
            x, y = cv2.perspectiveTransform(np.array([[geometry.centres[index]]], dtype=np.float64), homography)[0, 0]
            cv2.putText(
                out,
                geometry.cells[index].name,
                (int(x) - 8, int(y) + 5),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.45,
                (0, 255, 255),
                1,
                cv2.LINE_AA,
            )
    return out
