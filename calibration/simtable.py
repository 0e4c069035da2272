"""A simulated table for the guided calibration: a printed board, a synthetic camera and a newcomer.

:class:`CalibrationTable` is the simulator of the camera *and* the person
at the table. The board is the printed sheet (:mod:`calibration.printed`)
under the synthetic camera; the newcomer reads each step and each problem
the flow shows and acts on them, taking simulated time for every action
(hands over the board while placing a stone). With ``mistakes`` the newcomer
first makes the usual ones, once each: the lamp is off, a book covers a
marker, a stone is left on the board, the lamp glares on a cell, a stone is
forgotten. With a ``led_wiring`` (the LED under each cell) the table has
LEDs, lit by :meth:`CalibrationTable.light_leds`, whose glow the camera
sees. Time is simulated: :attr:`CalibrationTable.clock_s` advances by
one frame period per :meth:`grab`, and by the time the newcomer takes to
answer a question.

Product code: ``cascade calibrate --guided --camera sim:`` runs the flow
against it, and the tests script the flow with it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.guided import Check, GuidedCalibration, Step
from calibration.ledglow import add_glow
from calibration.printed import printed_board_renderer
from referee.geometry import Geometry
from vision.markers import default_markers
from vision.synth import TYPICAL, SynthConditions
from vision.synth.effects import Hand, LightField

STONE_S = 2.0
"""Seconds the newcomer takes to place, move or take away one stone."""
READ_S = 3.0
"""Seconds the newcomer takes to read a problem and start fixing it."""
FIX_S = 4.0
"""Seconds to fix the room: switch the lamp on, move the lamp, move a book."""
ANSWER_S = 3.0
"""Seconds to look at the grid and answer."""


@dataclass(frozen=True)
class _Action:
    """Something the newcomer is doing until ``until_s``; ``cell`` is where their hand is (None: not over the
    board); ``then`` changes the table when done."""

    until_s: float
    cell: int | None
    then: str
    arg: tuple[int, str] | None = None


class CalibrationTable:
    """The simulated table (see the module docstring)."""

    def __init__(
        self,
        geometry: Geometry,
        seed: int = 1,
        conditions: SynthConditions = TYPICAL,
        size: tuple[int, int] = (960, 540),
        fps: float = 2.0,
        mistakes: bool = True,
        led_wiring: tuple[int, ...] | None = None,
    ) -> None:
        self.geometry = geometry
        self.led_wiring = led_wiring
        self.lit_leds: frozenset[int] = frozenset()
        self.renderer = printed_board_renderer(geometry, seed, conditions.with_(glare_probability=0.0), size)
        self.seed = seed
        self.fps = fps
        self.clock_s = 0.0
        self.board = ["."] * len(geometry.cells)
        self.lamp_on = not mistakes
        self.book_on_marker = mistakes
        self.glare_cell: int | None = None
        self.forget = mistakes
        self._stray = mistakes
        self._glare_pending = mistakes
        rng = np.random.default_rng([seed, 0x7AB1E])
        self.light = self._light(rng)
        self._rng = rng
        self._actions: list[_Action] = []
        self._seen_step = ""
        self._seen_problems: set[str] = set()
        self._frame = 0

    def _light(self, rng: np.random.Generator) -> LightField:
        cond = self.renderer.scene.conditions
        cc = cond.colour_cast
        cast = tuple(float(1.0 + rng.uniform(-cc, cc)) for _ in range(3))
        return LightField(
            gain=float(rng.uniform(*cond.brightness)),
            gradient=float(rng.uniform(0.0, cond.light_gradient)),
            gradient_angle=float(rng.uniform(0, 2 * np.pi)),
            cast=cast,  # type: ignore[arg-type]
        )

    # --- the camera --------------------------------------------------------------------------------------

    def grab(self) -> np.ndarray:
        """The next camera frame; advances the clock by one frame period."""
        self.clock_s += 1.0 / self.fps
        self._frame += 1
        self._finish_actions()
        hand_cell = next((a.cell for a in self._actions if a.cell is not None), None)
        hand: Hand | None = None
        if hand_cell is not None:
            rng = np.random.default_rng([self.seed, self._frame, 0x4A4D])
            hand = self.renderer.sample_hand(rng, over_board=True, reach_board=self.geometry.centres[hand_cell])
        light = self.light
        if not self.lamp_on:
            light = replace(light, gain=light.gain * 0.12)
        if self.glare_cell is not None:
            centre = self.renderer.scene.pose.project(np.array([self.geometry.centres[self.glare_cell]]))[0]
            light = replace(
                light,
                glare_centre=(float(centre[0]), float(centre[1])),
                glare_radius_px=0.5 * self.renderer.pitch_px(),
                glare_strength=1.2,
            )
        frame = self.renderer.render(tuple(self.board), seed=self._frame, light=light, hand=hand, random_hand=False)
        image = frame.image
        if self.led_wiring is not None and self.lit_leds:
            cells = [cell for cell, led in enumerate(self.led_wiring) if led in self.lit_leds]
            image = add_glow(image, self.geometry, frame.pose, cells)
        if self.book_on_marker:
            image = self._cover_marker(image, 2)
        return image

    def _cover_marker(self, image: np.ndarray, marker_id: int) -> np.ndarray:
        marker = default_markers(self.geometry)[marker_id]
        centre = np.array(marker.centre)
        quad = (np.array(marker.corners) - centre) * 1.8 + centre
        seen = self.renderer.scene.pose.project(quad)
        out = image.copy()
        cv2.fillConvexPoly(out, np.round(seen).astype(np.int32), (40, 60, 150), cv2.LINE_AA)
        return out

    def light_leds(self, leds: frozenset[int]) -> None:
        """Light exactly these LEDs under the board (``led_wiring`` says which cell each one sits under)."""
        if self.led_wiring is None:
            raise ValueError("this simulated table has no LEDs: give it a led_wiring")
        self.lit_leds = frozenset(leds)

    # --- the newcomer ------------------------------------------------------------------------------------

    def answer(self, flow: GuidedCalibration) -> bool:
        """Look at the grid the flow found and say whether it sits on the cells (takes :data:`ANSWER_S`)."""
        self.clock_s += ANSWER_S
        homography = flow.homography
        if homography is None:
            return False
        centres = np.array(self.geometry.centres, dtype=np.float64)
        found = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), homography).reshape(-1, 2)
        truth = self.renderer.scene.pose.project(centres)
        return bool(np.abs(found - truth).max() < 0.25 * self.renderer.pitch_px())

    def see(self, step: Step, check: Check | None) -> None:
        """Read the step and the latest check on the screen, and act on what is new."""
        if step.name != self._seen_step:
            self._seen_step = step.name
            self._seen_problems = set()
            self._start(step)
        if check is None or self._actions:
            return
        for problem in check.problems:
            key = problem.what
            if key in self._seen_problems:
                continue
            self._seen_problems.add(key)
            self._fix(problem.what, problem.cells, step)

    def _start(self, step: Step) -> None:
        now = self.clock_s
        if step.name == "empty" and self._stray:
            self._stray = False
            self.board[self._far_cell()] = "x"
        if step.name == "empty" and self._glare_pending:
            self._glare_pending = False
            self.glare_cell = self._far_cell(1)
        if step.name in ("stones", "verify"):
            wanted = step.lit
            t = now + READ_S
            for cell, symbol in wanted.items():
                if self.board[cell] == symbol:
                    continue
                if self.forget and step.name == "stones":
                    self.forget = False
                    continue
                t += STONE_S
                self._actions.append(_Action(t, cell, "place", (cell, symbol)))

    def _fix(self, what: str, cells: tuple[int, ...], step: Step) -> None:
        t = self.clock_s + READ_S
        if "too dark" in what:
            self._actions.append(_Action(t + FIX_S, None, "lamp on"))
        elif "marker" in what and "not visible" in what:
            self._actions.append(_Action(t + FIX_S, None, "move book"))
        elif what.startswith("glare"):
            self._actions.append(_Action(t + FIX_S, None, "move lamp"))
        elif what.startswith("a stone lies") or "should stay empty" in what:
            for cell in cells:
                t += STONE_S
                self._actions.append(_Action(t, cell, "place", (cell, ".")))
        elif what.startswith("no stone found") or what.startswith("the stone on") or what.startswith("cell "):
            for cell in cells:
                t += STONE_S
                self._actions.append(_Action(t, cell, "place", (cell, step.lit.get(cell, "."))))

    def _finish_actions(self) -> None:
        while self._actions and self._actions[0].until_s <= self.clock_s:
            action = self._actions.pop(0)
            if action.then == "lamp on":
                self.lamp_on = True
            elif action.then == "move book":
                self.book_on_marker = False
            elif action.then == "move lamp":
                self.glare_cell = None
            elif action.then == "place" and action.arg is not None:
                cell, symbol = action.arg
                self.board[cell] = symbol

    def _far_cell(self, k: int = 0) -> int:
        """A cell away from the middle (the ``k``-th of a fixed few), where a forgotten stone or glare lands."""
        centres = np.array(self.geometry.centres)
        distance = np.sqrt(((centres - centres.mean(axis=0)) ** 2).sum(axis=1))
        order = np.argsort(-distance, kind="stable")
        return int(order[len(order) // 5 + 3 * k])


@dataclass(frozen=True)
class GuidedRun:
    """What a scripted run of the flow gave: the flow, simulated seconds, frames seen and every problem shown."""

    flow: GuidedCalibration
    seconds: float
    frames: int
    problems: tuple[str, ...]


def run_on_table(flow: GuidedCalibration, table: CalibrationTable, limit_s: float = 600.0) -> GuidedRun:
    """Drive ``flow`` with ``table`` until it is done or ``limit_s`` simulated seconds pass."""
    check: Check | None = None
    frames = 0
    shown: list[str] = []
    while not flow.done and table.clock_s < limit_s:
        table.see(flow.step, check)
        if flow.step.asks:
            flow.answer(table.answer(flow))
            check = None
            continue
        check = flow.offer(table.grab())
        frames += 1
        for problem in check.problems:
            text = str(problem)
            if text not in shown:
                shown.append(text)
    return GuidedRun(flow, table.clock_s, frames, tuple(shown))
