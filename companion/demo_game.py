"""The demo's set-up: a scripted table filmed by the synthetic camera, driving a real session.

:func:`start_demo` builds everything ``cascade demo`` runs: the store in a
folder, the LEDs (``emu:`` by default), the live game, the page, and a worker
that plays scripted games one after another through the camera loop — each
game with one mistake the players fix once the companion points it out.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from companion.live import LiveGame
from companion.runner import CameraLoop, Steadier
from companion.scenario import script_game
from companion.session import Session
from companion.store import Store
from companion.table import ScriptedTable, TableFrame
from referee.game import make_rules
from vision.pipeline import BoardReader

MISTAKE_AT = 2
PAUSE_BETWEEN_GAMES_S = 4.0


def open_steadier(geometry_size: int) -> Steadier:
    """The vision pipeline's temporal stabiliser for a board of ``geometry_size`` cells."""
    from vision.stabilise import Stabiliser

    return Stabiliser()


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
) -> Session:
    """Start a demo session in ``folder`` (the store goes there); ``games``: stop after that many."""
    from hardware import open_leds

    rules = make_rules(game, board)
    geometry = rules.geometry
    table = ScriptedTable(geometry, seed=seed + 6)
    profile = table.calibrate()
    store = Store(Path(folder) / "demo-games.sqlite3")
    leds = open_leds(leds_spec, geometry)
    try:
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds, headers={"White": "Ada", "Black": "Bo"})
        session = Session(live, store, leds, host, port)
    except BaseException:
        leds.close()
        store.close()
        raise
    reader = BoardReader(geometry, profile.locator, profile.colour_model)
    loop = CameraLoop(live, reader, open_steadier(len(geometry)))

    def play(stop: threading.Event) -> None:
        number = 0
        while not stop.is_set() and (games is None or number < games):
            script = script_game(rules.start(), seed=seed + number, mistake_at=MISTAKE_AT)
            loop.run(
                table.frames(script),
                stop,
                fps=fps,
                image_of=_image,
                buttons_of=_buttons,
            )
            number += 1
            if stop.is_set() or (games is not None and number >= games):
                break
            if fps and stop.wait(PAUSE_BETWEEN_GAMES_S):
                break
            live.perform("new_game", {})

    session.start_worker("demo-camera", play)
    session.camera_loop = loop  # type: ignore[attr-defined]
    return session


def _image(frame: TableFrame) -> np.ndarray:
    return frame.image


def _buttons(frame: TableFrame) -> tuple[str, ...]:
    return (frame.button,) if frame.button else ()
