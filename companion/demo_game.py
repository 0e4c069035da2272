"""The demo's set-up: a scripted table filmed by the synthetic camera, driving a real session.

:func:`start_demo` builds everything ``cascade demo`` runs: the store in a
folder, the LEDs (``emu:`` by default, kept beside the game so that their
controller may come and go), the live game, the page, and a worker
that plays scripted games one after another — each game with one mistake the
players fix once the companion points it out.

With ``camera=True`` the synthetic camera films the table and every frame goes
through the vision pipeline (locate, measure, classify, stabilise); with
``camera=False`` the table's boards go straight to the referee as readings
(hands over the board as occluded readings), for a machine too slow to render
and read frames, or a vision package without its stabiliser.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from companion.broker_url import BrokerUrl
from companion.live import LiveGame
from companion.runner import CameraLoop, Steadier
from companion.scenario import Script, script_game
from companion.session import Session
from companion.store import Store
from companion.table import ScriptedTable, TableFrame
from referee.game import make_rules

MISTAKE_AT = 2
PAUSE_BETWEEN_GAMES_S = 4.0
FRAMES_PER_STEP = 6

Player = Callable[[Script, threading.Event], None]


def open_steadier(geometry_size: int) -> Steadier:
    """The vision pipeline's temporal stabiliser for a board of ``geometry_size`` cells."""
    from vision.stabilise import Stabiliser

    return Stabiliser()


def camera_available() -> bool:
    """True when the vision package offers everything the filmed demo needs (its stabiliser)."""
    try:
        return importlib.util.find_spec("vision.stabilise") is not None
    except (ModuleNotFoundError, ValueError):
        return "vision.stabilise" in sys.modules


def start_demo(
    folder: str | Path,
    game: str = "cascade",
    board: str | None = None,
    seed: int = 1,
    fps: float | None = 8.0,
    leds_spec: str = "emu:",
    host: str = "127.0.0.1",
    port: int = 0,
    games: int | None = None,
    camera: bool | None = None,
    publish: BrokerUrl | None = None,
) -> Session:
    """Start a demo session in ``folder`` (the store goes there); ``games``: stop after that many.

    ``camera``: film the table (True), feed its boards directly (False), or
    film it when the vision package can (None). ``publish``: also send the
    games to the event's hub through this broker.
    """
    from hardware import KeptMatrix
    from hardware.awaited import open_leds_awaiting

    filmed = camera_available() if camera is None else camera
    rules = make_rules(game, board)
    geometry = rules.geometry
    table = ScriptedTable(geometry, seed=seed + 6) if filmed else None
    store = Store(Path(folder) / "demo-games.sqlite3")
    leds = KeptMatrix(open_leds_awaiting(leds_spec, geometry, say=_say_demo))
    try:
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds, headers={"White": "Ada", "Black": "Bo"})
        session = Session(live, store, leds, host, port, say=_say_demo)
    except BaseException:
        leds.close()
        store.close()
        raise
    session.filmed = filmed
    if publish is not None:
        session.publish_to(publish)
    play_script = _filmed(live, table, fps) if table is not None else _direct(live, fps)

    def play(stop: threading.Event) -> None:
        number = 0
        while not stop.is_set() and (games is None or number < games):
            play_script(script_game(rules.start(), seed=seed + number, mistake_at=MISTAKE_AT), stop)
            number += 1
            if stop.is_set() or (games is not None and number >= games):
                break
            if fps and stop.wait(PAUSE_BETWEEN_GAMES_S):
                break
            live.perform("new_game", {})

    session.start_worker("demo-table", play)
    return session


def _filmed(live: LiveGame, table: ScriptedTable, fps: float | None) -> Player:
    from vision.pipeline import BoardReader

    profile = table.calibrate()
    geometry = table.geometry
    loop = CameraLoop(live, BoardReader(geometry, profile.locator, profile.colour_model), open_steadier(len(geometry)))

    def play(script: Script, stop: threading.Event) -> None:
        loop.run(table.frames(script), stop, fps=fps, image_of=_image, buttons_of=_buttons)

    return play


def _direct(live: LiveGame, fps: float | None) -> Player:
    step_s = FRAMES_PER_STEP / fps if fps else 0.0

    def play(script: Script, stop: threading.Event) -> None:
        for step in script.steps:
            if stop.is_set():
                return
            if step.hand:
                live.on_reading((), occluded=True)
                if step_s and stop.wait(step_s / 3):
                    return
            live.on_reading(step.board)
            if step.button:
                live.on_button(step.button)
            if step_s and stop.wait(step_s):
                return

    return play


def _say_demo(words: str) -> None:
    print(f"cascade demo: {words}", file=sys.stderr, flush=True)


def _image(frame: TableFrame) -> np.ndarray:
    return frame.image


def _buttons(frame: TableFrame) -> tuple[str, ...]:
    return (frame.button,) if frame.button else ()
