"""A long simulated session with the LED controller, the camera and the store failing at random moments.

Two players go through one scripted game after another (a mistake in each,
fixed once the companion points at it) in front of a camera loop; three
seeded troublemakers meanwhile break the LED controller (every fault of
``test_link_faults``), the camera (stalls, a lost board, corrupt frames) and
the store (writes refused as on a full disk), each for a while, again and
again. The players wait, as real ones do, until the companion has seen each
step before the next. At the end the store holds exactly the plies the game
accepted, game by game, and the LEDs show the companion's state.

``CASCADE_SOAK_S`` sets how long it runs (default 90 seconds);
``CASCADE_SOAK_LEDS`` the controller (``emu:``, the default, or ``sim:``).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.assess import ply_text
from companion.errors import StoreWriteError
from companion.live import LiveGame
from companion.runner import CameraLoop
from companion.scenario import Script, script_game
from companion.store import Store
from firmware_bridge import render
from firmware_bridge.leds import DEFAULT_BRIGHTNESS
from hardware import KeptMatrix, open_leds
from referee.game import make_rules
from tests.faults.test_link_faults import CONTROLLER_LEDS, FAULTS
from tests.firmware_bridge.conftest import require_toolchain
from vision.pipeline import FrameReading
from vision.stabilise import Stabiliser

SOAK_S = float(os.environ.get("CASCADE_SOAK_S", "90"))
LEDS_SPEC = os.environ.get("CASCADE_SOAK_LEDS", "emu:")
SEED = 20240531
BOARD = "diamond:5"
FRAME_S = 1 / 40
HAND_FRAMES = 2
STILL_FRAMES = 5
WAIT_S = 30.0
CAMERA_FAULTS = ("stall", "lost", "corrupt")


class FlakyStore(Store):
    """A store whose writes fail as on a full disk while ``failing`` is set (nothing is written then)."""

    failing = False
    refused = 0

    def _refuse(self) -> None:
        if self.failing:
            self.refused += 1
            raise StoreWriteError("cannot write the game store (database or disk is full)")

    def new_game(self, *args: Any, **kwargs: Any) -> int:
        self._refuse()
        return super().new_game(*args, **kwargs)

    def add_ply(self, *args: Any, **kwargs: Any) -> int:
        self._refuse()
        return super().add_ply(*args, **kwargs)

    def take_back(self, *args: Any, **kwargs: Any) -> int:
        self._refuse()
        return super().take_back(*args, **kwargs)

    def end_game(self, *args: Any, **kwargs: Any) -> None:
        self._refuse()
        super().end_game(*args, **kwargs)


class FlakyCamera:
    """The reader of a camera that films the table, unless it stalls, loses the board or garbles a frame."""

    def __init__(self, geometry: Any) -> None:
        self.geometry = geometry
        self.location = None
        self.fault: str | None = None
        self.faults = 0
        self.showing: tuple[str, ...] = ()
        self.hand = False

    def read(self, image: np.ndarray) -> FrameReading:
        n = len(self.showing)
        if self.fault == "corrupt":
            raise ValueError("the picture is cut short")
        located = self.fault != "lost"
        return FrameReading(self.showing, (1.0,) * n, None, self.hand or not located, located, 0.0)


class Troublemaker:
    """Breaks one part again and again at seeded random moments, each time for a while, until stopped."""

    def __init__(
        self,
        name: str,
        seed: int,
        faults: tuple[str, ...],
        inject: Callable[[str], None],
        heal: Callable[[str], None],
        stop: threading.Event,
    ) -> None:
        self.name = name
        self.random = random.Random(seed)
        self.faults = faults
        self.inject = inject
        self.heal = heal
        self.stop = stop
        self.done: list[str] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name=f"{name} troublemaker", daemon=True)

    def _run(self) -> None:
        try:
            while not self.stop.wait(self.random.uniform(1.0, 5.0)):
                fault = self.random.choice(self.faults)
                self.inject(fault)
                self.done.append(fault)
                self.stop.wait(self.random.uniform(0.5, 4.0))
                self.heal(fault)
        except BaseException as error:  # reported by the test
            self.error = error


@pytest.mark.slow
def test_a_long_session_through_random_faults_ends_with_every_accepted_ply_stored(tmp_path: Path) -> None:
    if LEDS_SPEC.startswith("sim:"):
        require_toolchain()
    rules = make_rules("cascade", BOARD)
    inner: Any = open_leds(LEDS_SPEC, rules.geometry, leds=CONTROLLER_LEDS)
    device = inner.device
    leds = KeptMatrix(inner)
    store = FlakyStore(tmp_path / "games.sqlite3")
    live = LiveGame.start_or_resume(rules.start(), store, leds=leds)
    leds.on_change = lambda state: live.set_link(state.words)
    camera = FlakyCamera(rules.geometry)
    loop = CameraLoop(live, camera, Stabiliser(), view_every=10**9)
    image = np.zeros((8, 8, 3), np.uint8)
    stop = threading.Event()
    pause = threading.Event()  # never set: a frame's time passing, not a wait for anything

    def controller_fault(fault: str) -> None:
        if fault == "killed":
            device.kill()
        elif fault == "frozen":
            device.freeze()
        elif fault == "unplugged":
            device.unplug()
        else:
            device.misbehave(fault)

    def controller_heal(fault: str) -> None:
        if fault == "frozen":
            device.thaw()
        elif fault == "unplugged":
            device.replug()
        elif fault != "killed":  # a killed emulator is restarted by the companion itself
            device.misbehave(None)

    def camera_fault(fault: str) -> None:
        camera.fault = fault
        camera.faults += 1

    def camera_heal(fault: str) -> None:
        camera.fault = None

    def store_fault(fault: str) -> None:
        store.failing = True

    def store_heal(fault: str) -> None:
        store.failing = False

    makers = [
        Troublemaker("controller", SEED, tuple(FAULTS), controller_fault, controller_heal, stop),
        Troublemaker("camera", SEED + 1, CAMERA_FAULTS, camera_fault, camera_heal, stop),
        Troublemaker("store", SEED + 2, ("full",), store_fault, store_heal, stop),
    ]

    def frame(button: str | None = None) -> None:
        if camera.fault == "stall":  # no frame comes at all for now
            pause.wait(FRAME_S)
            return
        loop.step(image, (button,) if button else ())
        pause.wait(FRAME_S)

    def play(script: Script) -> None:
        for step in script.steps:
            if step.hand:
                camera.showing, camera.hand = live.snapshot().observed, True
                for _ in range(HAND_FRAMES):
                    frame()
            camera.showing, camera.hand = step.board, False
            waited = time.monotonic()
            shown = 0
            while shown < STILL_FRAMES or live.snapshot().observed != step.board:  # players wait to be seen
                assert time.monotonic() - waited < WAIT_S, f"the companion never read the board of step {step.note}"
                frame(step.button if shown == STILL_FRAMES - 1 else None)
                shown += 1

    games: list[list[str]] = []
    for maker in makers:
        maker.thread.start()
    deadline = time.monotonic() + SOAK_S
    try:
        number = 0
        while time.monotonic() < deadline:
            script = script_game(rules.start(), seed=SEED + number, mistake_at=2)
            play(script)
            assert [ply_text(m) for m in live.moves] == [ply_text(m) for m in script.moves]
            games.append([ply_text(m) for m in live.moves])
            live.perform("new_game", {})
            number += 1
        games.append([ply_text(m) for m in live.moves])
    finally:
        stop.set()
        for maker in makers:
            maker.thread.join(WAIT_S)
    for maker in makers:
        assert maker.error is None, f"the {maker.name} troublemaker failed: {maker.error!r}"
    assert not store.failing and camera.fault is None, "every troublemaker heals what it broke before it stops"

    def shown(colours: Any) -> bool:
        frame_now = inner.led_frame(leds.shown())
        palette = inner.link.info.palette
        wanted = {render(frame_now, palette, DEFAULT_BRIGHTNESS, s, f) for s in (True, False) for f in (True, False)}
        return leds.settled and colours in wanted

    try:
        device.wait_for(shown, WAIT_S, "the companion's state once the troubles are over")
        live.close()
        assert live.unsaved_plies() == []
        stored = [[p.ply for p in store.plies(game.id)] for game in store.games()]
    finally:
        leds.close()
        store.close()
    print(
        f"soak of {SOAK_S:g} s: {len(games)} games, {sum(map(len, games))} plies; faults: "
        + ", ".join(f"{m.name} {len(m.done)}" for m in makers)
        + f"; controller lost {leds.failures} times, {store.refused} store writes refused, "
        f"{loop.stats.unreadable} frames unreadable"
    )
    assert stored == games, "the store does not hold exactly the plies the game accepted"
    assert len(games) >= 3 and sum(map(len, games)) >= 40, "too little was played to prove anything"
    assert store.refused > 0 and leds.failures > 0 and camera.faults > 0 and loop.stats.unreadable > 0
    for maker in makers:
        assert maker.done, f"the {maker.name} never failed: the soak proved nothing about it"
