"""The synthetic table: a scripted game as the synthetic camera sees it.

:class:`ScriptedTable` renders the steps of a :class:`~companion.scenario.Script`
with :mod:`vision.synth`: for every step a hand reaches over the board (the
frames are occluded, as in a real game), then the board lies still for a few
frames; button presses come with the frame after the step. It also calibrates
itself the way a user would: a picture of the empty board and pictures of
known layouts give a :class:`~calibration.profile.Profile`.

Product code: the demo and ``cascade bench live`` use it, and so do the tests.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from calibration.fit import Photo, fit_profile
from calibration.profile import Profile
from companion.scenario import Script
from referee.geometry import Geometry
from referee.symbols import EMPTY
from vision.locate import MarkerLocator
from vision.synth import Renderer, make_scene, preset

MAX_BALLS_DRAWN = 3
CLEAR_SCHEMES = ("green-cream", "wood", "blue", "grey", "maple-ebony")
"""Board styles for the table: the clearly contrasting ones (the vision tests cover the pale board)."""


@dataclass(frozen=True, eq=False)
class TableFrame:
    """One camera frame: the picture, the step it belongs to, the truth, a hand, a button pressed."""

    image: np.ndarray
    step: int
    truth: tuple[str, ...]
    hand: bool
    button: str | None = None
    first_still: bool = False


def split_tokens(tokens: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Symbols and ball counts of board tokens (``o2`` -> ``o``, 2; ``x`` -> ``x``, 1; ``.`` -> ``.``, 0)."""
    symbols = tuple(t[:1] for t in tokens)
    counts = tuple(0 if t == EMPTY else (int(t[1:]) if len(t) > 1 else 1) for t in tokens)
    return symbols, counts


class ScriptedTable:
    """Renders a scripted game, frame by frame (see the module docstring)."""

    def __init__(
        self,
        geometry: Geometry,
        seed: int = 7,
        conditions: str = "clean",
        size: tuple[int, int] = (960, 540),
        hand_frames: int = 2,
        still_frames: int = 4,
        schemes: tuple[str, ...] = CLEAR_SCHEMES,
    ) -> None:
        self.geometry = geometry
        self.seed = seed
        self.hand_frames = hand_frames
        self.still_frames = still_frames
        scene_conditions = preset(conditions).with_(board_schemes=schemes)
        self.renderer = Renderer(make_scene(geometry, seed, scene_conditions, size))
        self._frame_seed = 1000

    def render(self, tokens: Sequence[str], hand_at: int | None = None) -> np.ndarray:
        """One picture of a board (tokens per cell), with a hand reaching for cell ``hand_at`` if given."""
        symbols, counts = split_tokens(tokens)
        counts = tuple(min(c, MAX_BALLS_DRAWN) for c in counts)
        self._frame_seed += 1
        hand = None
        if hand_at is not None:
            rng = np.random.default_rng([self.seed, self._frame_seed])
            hand = self.renderer.sample_hand(rng, over_board=True, reach_board=self.geometry.centres[hand_at])
        kaskade = any(len(t) > 1 for t in tokens)
        frame = self.renderer.render(
            symbols, counts if kaskade else None, seed=self._frame_seed, hand=hand, random_hand=False
        )
        return frame.image

    def calibrate(self) -> Profile:
        """A calibration profile fitted from pictures of the empty board and of known layouts."""
        n = len(self.geometry)
        empty = Photo(self.render((EMPTY,) * n), None, None, "the empty board")
        known = []
        for shift in range(3):
            layout = tuple(("o", "x", "=", EMPTY)[(i + shift) % 4] for i in range(n))
            known.append(Photo(self.render(layout), None, layout, f"known layout {shift + 1}"))
        return fit_profile(self.geometry, MarkerLocator.default(self.geometry), empty, known)

    def frames(self, script: Script, start_step: int = 0) -> Iterator[TableFrame]:
        """The frames of a script: hands over the board for each step, then the still board."""
        previous = script.steps[start_step - 1].board if start_step > 0 else script.steps[0].board
        for index in range(start_step, len(script.steps)):
            step = script.steps[index]
            changed = [i for i, (a, b) in enumerate(zip(previous, step.board, strict=True)) if a != b]
            if step.hand and changed:
                for _ in range(self.hand_frames):
                    yield TableFrame(self.render(previous, hand_at=changed[0]), index, step.board, hand=True)
            for k in range(self.still_frames):
                yield TableFrame(
                    self.render(step.board),
                    index,
                    step.board,
                    hand=False,
                    button=step.button if k == self.still_frames - 1 else None,
                    first_still=k == 0,
                )
            previous = step.board
