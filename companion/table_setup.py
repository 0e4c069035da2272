"""Setting the table up from the page: the guided calibration, the LED map and a new game's options.

:class:`PageCalibration` drives the same step machine as ``cascade calibrate
--guided`` (:class:`calibration.guided.GuidedCalibration`) with the camera
frames of a running companion instead of the terminal: every frame is offered
to the flow, and the page reads the step (title, instructions, the cells to
put a stone on), the problems of the latest frame in plain words with their
fixes, and a preview (the camera picture with the found grid and the asked
cells drawn over it). The grid question is answered on the page; when the
flow is done the LEDs can be mapped (when the companion can light single
LEDs) and the profile is saved.

While the LEDs are mapped, each pattern is judged from a frame the camera
captured after the LEDs showed it: the frames waiting when they did are
thrown away, and so are the next :data:`STALE_FRAMES`, which a camera read
without pause still hands over from before (the one it was exposing, the one
in its driver's queue).

:class:`TableSetup` is what the page holds: the calibration under way (the
camera loop gives it its frames while it runs, :meth:`TableSetup.feed`), the
profile in use, and a new game with other options on the same board. When a
profile is saved the companion starts reading the board with it
(``install``).
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from calibration.guided import Check, GuidedCalibration, Step
from calibration.profile import Profile, save_profile
from companion.errors import CompanionError
from referee.errors import RefereeError
from referee.game import make_rules
from referee.geometry import Geometry
from referee.rules import Position

PREVIEW_WIDTH_PX = 640
PREVIEW_EVERY = 2
JPEG_QUALITY = 70
LED_FRAME_TIMEOUT_S = 10.0
STALE_FRAMES = 2
"""Frames after the LEDs showed a pattern that may still have been captured before: thrown away."""
ASKED_BGR = {"o": (255, 255, 255), "x": (20, 20, 20), "=": (40, 40, 230)}

LightLeds = Callable[[frozenset[int]], None]
LedCount = int | Callable[[], int]
"""How many LEDs to map: a number, or a function asked when the mapping starts (a controller plugged in
since the companion started says then how many LEDs it drives)."""
LED_MAP_FAILURES = (CompanionError, ValueError, RuntimeError, OSError)
"""What a mapping may fail with: the camera, the LEDs (their errors subclass these) or the decoding."""
See = Callable[[Step, Check | None], None]


class SetupRefusedError(CompanionError, ValueError):
    """A set-up request that cannot be carried out now; says why and what to do. Nothing changes."""


class Game(Protocol):
    """What the set-up needs of the live game (:class:`companion.live.LiveGame`)."""

    @property
    def position(self) -> Position:
        """The expected position (its rules say the game and board)."""

    def restart(self, start: Position, players: Mapping[str, str]) -> str:
        """A new game on the same board from ``start``, with these players."""


class PageCalibration:
    """One guided calibration driven from the page (see the module docstring). Thread-safe.

    ``leds`` (an LED count and a callable that lights exactly the given LED
    indices and returns once they show) offers the LED map once the flow is
    done; ``see`` is told every step and check (a simulated person at a
    simulated table acts on them).
    """

    def __init__(
        self,
        flow: GuidedCalibration,
        leds: tuple[LedCount, LightLeds] | None = None,
        see: See | None = None,
        light_cells: Callable[[dict[int, str]], None] | None = None,
    ) -> None:
        self.flow = flow
        self.leds = leds
        self.see = see
        self.light_cells = light_cells
        self._lock = threading.Lock()
        self._check: Check | None = None
        self._preview: bytes | None = None
        self._frames = 0
        self._lit_step = ""
        self._profile: Profile | None = None
        self._mapping: queue.Queue[np.ndarray] | None = None
        self._led_words = ""

    @property
    def geometry(self) -> Geometry:
        """The board being calibrated."""
        return self.flow.geometry

    def feed(self, image: np.ndarray) -> None:
        """One camera frame (BGR): offered to the flow (or to the LED map under way); the preview follows."""
        mapping = self._mapping
        if mapping is not None:
            if not mapping.full():
                mapping.put(image)
            return
        with self._lock:
            step = self.flow.step
            if self.see is not None:
                self.see(step, self._check)
                step = self.flow.step
            if step.name != self._lit_step:
                self._lit_step = step.name
                if self.light_cells is not None:
                    self.light_cells(step.lit)
            if not step.asks and not self.flow.done:
                self._check = self.flow.offer(image)
            if self._frames % PREVIEW_EVERY == 0 or self.flow.step.asks:
                self._preview = self._draw(image)
            self._frames += 1

    def _draw(self, image: np.ndarray) -> bytes:
        """The frame with the found grid and the cells asked for drawn over it, scaled for a phone, as JPEG."""
        homography = self.flow.homography
        view = self.flow.overlay(image) if homography is not None else image
        if homography is not None:
            asked = self.flow.step.lit
            if asked:
                centres = np.array([self.geometry.centres[i] for i in asked], dtype=np.float64).reshape(-1, 1, 2)
                points = cv2.perspectiveTransform(centres, homography).reshape(-1, 2)
                for (x, y), symbol in zip(points, asked.values(), strict=True):
                    centre = (round(float(x)), round(float(y)))
                    cv2.circle(view, centre, 14, (0, 200, 255), 4, cv2.LINE_AA)
                    cv2.circle(view, centre, 8, ASKED_BGR.get(symbol, (0, 200, 255)), -1, cv2.LINE_AA)
        scale = PREVIEW_WIDTH_PX / view.shape[1]
        small = cv2.resize(view, (PREVIEW_WIDTH_PX, round(view.shape[0] * scale)), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        return data.tobytes() if ok else b""

    def preview(self) -> bytes | None:
        """The latest preview JPEG (None before the first frame)."""
        return self._preview

    def answer(self, yes: bool) -> str:
        """Answer the grid question; raises SetupRefusedError when none is asked."""
        with self._lock:
            if not self.flow.step.asks:
                raise SetupRefusedError("no question is asked now: follow the step's instructions")
            step = self.flow.answer(yes)
            self._check = None
            return step.title

    def again(self) -> str:
        """Capture the empty board again (something was left on it); the stones are asked anew."""
        with self._lock:
            try:
                step = self.flow.again()
            except ValueError as error:  # the flow's own error: the empty board was not captured yet
                raise SetupRefusedError(str(error)) from None
            self._check = None
            return step.title

    def map_leds(self) -> str:
        """Start mapping the LEDs (the flow must be done; the companion must light single LEDs)."""
        if self.leds is None:
            raise SetupRefusedError(
                "this companion cannot light single LEDs, so it cannot map them: start cascade run with the LEDs "
                "under the board (--leds serial:PORT or gpio:...) to map them here, or save the profile without a "
                "map (the standard wiring is used)"
            )
        with self._lock:
            if not self.flow.done:
                raise SetupRefusedError("finish the calibration first, then map the LEDs")
            if self._mapping is not None:
                raise SetupRefusedError("the LEDs are being mapped: keep the board empty and wait")
            self._mapping = queue.Queue(maxsize=2)
            self._led_words = "Mapping the LEDs: keep the board empty and still"
        threading.Thread(target=self._map, name="led map", daemon=True).start()
        return self._led_words

    def _map(self) -> None:
        from calibration.ledmap_auto import map_leds, with_led_map

        assert self.leds is not None and self._mapping is not None
        frames = self._mapping
        count, light = self.leds
        profile = self.flow.profile

        def grab() -> np.ndarray:
            """A frame captured after the LEDs showed the pattern just lit (see the module docstring)."""
            while not frames.empty():
                frames.get_nowait()
            try:
                for _ in range(STALE_FRAMES):
                    frames.get(timeout=LED_FRAME_TIMEOUT_S)
                return frames.get(timeout=LED_FRAME_TIMEOUT_S)
            except queue.Empty:
                raise SetupRefusedError("the camera gave no pictures while the LEDs were mapped") from None

        try:
            result = map_leds(
                profile.board,
                profile.locator,
                count() if callable(count) else count,
                light,
                grab,
                lens=profile.colour_model.lens,
            )
            mapped = with_led_map(profile, result)
        except LED_MAP_FAILURES as error:
            words = f"The LEDs could not be mapped: {error}. Check that the board is empty and try again"
        else:
            self._profile = mapped
            lit = sum(led is not None for led in result.cell_leds)
            words = f"LEDs mapped: {lit} cells, each with its own LED. Save the profile"
        finally:
            with contextlib.suppress(*LED_MAP_FAILURES):  # the LEDs may be what failed; the words say so
                light(frozenset())
        with self._lock:
            self._led_words = words
            self._mapping = None

    def save(self, path: Path) -> Profile:
        """Write the finished profile (with its LED map, when mapped) to ``path``; raises SetupRefusedError."""
        with self._lock:
            if not self.flow.done:
                raise SetupRefusedError(f"the calibration is at step '{self.flow.step.title}': finish it first")
            if self._mapping is not None:
                raise SetupRefusedError("the LEDs are being mapped: wait until they are done")
            profile = self._profile or self.flow.profile
            try:
                save_profile(profile, path)
            except OSError as error:
                raise SetupRefusedError(
                    f"cannot write the profile {path} ({error.strerror or error}): check the folder can be written"
                ) from None
            if self.light_cells is not None:
                self.light_cells({})
            return profile

    def state(self) -> dict[str, Any]:
        """What the page shows: the step, the latest problems, the LED map's progress, what can be done next."""
        with self._lock:
            step = self.flow.step
            check = self._check.to_dict(self.geometry) if self._check is not None else None
            return {
                "board": self.geometry.spec,
                "step": step.to_dict(self.geometry),
                "number": ("locate", "confirm", "empty", "stones", "verify", "done").index(step.name) + 1,
                "steps": 6,
                "problems": (check or {}).get("problems", []),
                "done": self.flow.done,
                "can_map_leds": self.leds is not None and self.flow.done,
                "mapping": self._mapping is not None,
                "leds": self._led_words,
                "frames": self._frames,
            }


class TableSetup:
    """The set-up the page holds for a running companion (see the module docstring). Thread-safe.

    ``make_flow`` makes a fresh guided calibration of the board; ``install``
    starts reading the board with a saved profile; ``profile_path`` is where
    the page saves it; ``leds`` lights single LEDs for the LED map and
    ``light_cells`` the cells each step asks for.
    """

    def __init__(
        self,
        live: Game,
        profile_path: Path,
        make_flow: Callable[[], GuidedCalibration],
        install: Callable[[Profile], None],
        leds: tuple[LedCount, LightLeds] | None = None,
        see: See | None = None,
        calibrated: bool = True,
        light_cells: Callable[[dict[int, str]], None] | None = None,
    ) -> None:
        self.live = live
        self.light_cells = light_cells
        self.profile_path = profile_path
        self.make_flow = make_flow
        self.install = install
        self.leds = leds
        self.see = see
        self.calibrated = calibrated
        self.saved = ""
        self._lock = threading.Lock()
        self.calibration: PageCalibration | None = None
        if not calibrated:
            self.calibrate()

    def calibrate(self) -> str:
        """Start (or start again) the guided calibration of the board."""
        with self._lock:
            self.calibration = PageCalibration(self.make_flow(), self.leds, self.see, self.light_cells)
            self.saved = ""
        return "Calibration started: follow the steps below"

    def feed(self, image: np.ndarray) -> bool:
        """A camera frame: True when the calibration under way took it (the game then does not read it)."""
        calibration = self.calibration
        if calibration is None:
            return False
        calibration.feed(image)
        return True

    def save(self) -> str:
        """Save the finished calibration's profile and start reading the board with it."""
        with self._lock:
            calibration = self.calibration
            if calibration is None:
                raise SetupRefusedError("no calibration is under way: start one first")
            profile = calibration.save(self.profile_path)
            self.install(profile)
            self.calibration = None
            self.calibrated = True
            self.saved = str(self.profile_path)
        return f"Profile saved to {self.profile_path}; the board is read with it now"

    def options(self) -> dict[str, Any]:
        """The new game's choices on this board: its game and board (fixed), variants, who plays first."""
        rules = self.live.position.rules
        variants = [v for v in type(rules).variants if v != "hexagon" or rules.geometry.kind == "hexagon"]
        return {"game": rules.game, "board": rules.spec, "variants": variants, "first": rules.game == "cascade"}

    def new_game(self, params: Mapping[str, str]) -> str:
        """A new game on this board with the options given (variant, first, white, black); raises
        SetupRefusedError for options this board or game does not have."""
        choices = self.options()
        game, board = params.get("game") or choices["game"], params.get("board") or choices["board"]
        if game != choices["game"] or board != choices["board"]:
            raise SetupRefusedError(
                f"this companion watches the {choices['board']} board ({choices['game']}): for another board, "
                "start cascade run with that board (without a profile it opens the calibration here)"
            )
        variant = params.get("variant", "").strip() or None
        if variant is not None and variant not in choices["variants"]:
            allowed = ", ".join(choices["variants"]) or "none"
            raise SetupRefusedError(f"{game} on {board} has no variant '{variant[:20]}': choose {allowed}")
        first = params.get("first", "").strip().lower() or "white"
        if first not in ("white", "black"):
            raise SetupRefusedError("who plays first is white or black")
        try:
            rules = make_rules(game, board, variant, first)
        except RefereeError as error:
            raise SetupRefusedError(str(error)) from None
        players = {k: " ".join(params.get(k.lower(), "").split())[:60] for k in ("White", "Black")}
        return self.live.restart(rules.start(), {k: v for k, v in players.items() if v})

    def state(self) -> dict[str, Any]:
        """What the set-up page shows."""
        calibration = self.calibration
        return {
            "calibrated": self.calibrated,
            "calibrating": calibration is not None,
            "saved": self.saved,
            "calibration": calibration.state() if calibration is not None else None,
            "options": self.options(),
        }
