"""The demo's set-up: a scripted table filmed by the synthetic camera, driving a real session.

:func:`start_demo` builds everything ``cascade demo`` runs: the store in a
folder, the LEDs (``emu:`` by default, kept beside the game so that their
controller may come and go), the live game, the page, and a worker
that plays scripted games one after another — each game with one mistake the
players fix once the companion points it out.

With an ``opponent`` the scripted player of white (or of the side the
computer does not play) plays against the computer
(:mod:`companion.versus`): the LEDs light each of the computer's plies, the
player places it for it, and once, in the first game, first on a wrong cell.

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

from companion.advice import advice_for
from companion.broker_url import BrokerUrl
from companion.computer import Opponent, record_names
from companion.live import LiveGame
from companion.runner import CameraLoop, Steadier
from companion.scenario import Script, Step, script_game
from companion.session import Session
from companion.store import Store
from companion.table import ScriptedTable, TableFrame
from companion.versus import Turn, random_player, versus_steps
from referee.game import make_rules
from referee.rules import Position

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
    opponent: Opponent | None = None,
    engine_plays: str | None = None,
    engine_seconds: float | None = None,
) -> Session:
    """Start a demo session in ``folder`` (the store goes there); ``games``: stop after that many.

    ``camera``: film the table (True), feed its boards directly (False), or
    film it when the vision package can (None). ``publish``: also send the
    games to the event's hub through this broker. ``opponent``: the computer
    plays one side (``engine_plays``, default the second player) against a
    scripted player, ``engine_seconds`` per ply (default 1).
    """
    from hardware import KeptMatrix
    from hardware.awaited import open_leds_awaiting

    filmed = camera_available() if camera is None else camera
    rules = make_rules(game, board)
    advice = advice_for(opponent, engine_plays, rules, engine_seconds, seed=seed)
    geometry = rules.geometry
    table = ScriptedTable(geometry, seed=seed + 6) if filmed else None
    store = Store(Path(folder) / "demo-games.sqlite3")
    leds = KeptMatrix(open_leds_awaiting(leds_spec, geometry, say=_say_demo))
    try:
        names = {"White": "Ada", "Black": "Bo", **record_names(rules, advice.computer)}
        live = LiveGame.start_or_resume(rules.start(), store, leds=leds, headers=names)
        session = Session(live, store, leds, host, port, say=_say_demo)
        live.play_against(advice)
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
            if advice.computer is not None:
                _play_versus(live, play_script, seed + number, MISTAKE_AT if number == 0 else None, stop, fps)
            else:
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


def _play_versus(
    live: LiveGame, play_script: Player, seed: int, mistake_at: int | None, stop: threading.Event, fps: float | None
) -> None:
    """One game of the scripted player against the computer, move by move, while the camera (if any) films."""

    def wait(idle: threading.Event) -> None:
        still = Step(live.position.symbols(), hand=False)
        while not idle.is_set() and not stop.is_set():  # the board lies still while the computer thinks
            play_script(Script(live.position, (still,), (), None), stop)
            idle.wait(1.0 / fps if fps else 0.05)

    for turn in versus_steps(live, random_player(seed), mistake_at, wait):
        if stop.is_set():
            return
        before = live.position
        play_script(_turn_script(live.position, turn), stop)
        if live.position is before and not stop.is_set():
            return  # the board did not show what the script meant: start the next game


def _turn_script(position: Position, turn: Turn) -> Script:
    """One turn as a script starting from the board as it lies (the table films from there)."""
    return Script(position, (Step(position.symbols(), hand=False), *turn.steps), (), None)


def _say_demo(words: str) -> None:
    print(f"cascade demo: {words}", file=sys.stderr, flush=True)


def _image(frame: TableFrame) -> np.ndarray:
    return frame.image


def _buttons(frame: TableFrame) -> tuple[str, ...]:
    return (frame.button,) if frame.button else ()
