"""Building a ``cascade run`` session from its command-line options."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.advice import advice_for
from companion.cameras import open_camera, table_profile
from companion.computer import record_names
from companion.errors import SetupError
from companion.live import LiveGame
from companion.runner import CameraLoop, Steadier
from companion.session import Session
from companion.store import Store, default_store_path
from companion.table_setup import LedCount, LightLeds, SetupRefusedError, TableSetup
from referee.game import game_on, make_rules
from referee.geometry import Geometry

if TYPE_CHECKING:
    from hardware import KeptMatrix, LedMap


def _profile(args: argparse.Namespace) -> object | None:
    if not args.profile:
        return None
    from calibration.profile import load_profile

    try:
        return load_profile(args.profile)
    except OSError as error:
        raise SetupError(
            f"cannot read the profile {args.profile} ({error.strerror or error}): give the file cascade calibrate wrote"
        ) from error


def profile_led_map(profile: object, geometry: Geometry) -> LedMap | None:
    """The cell-to-LED map of a profile (one LED per cell, or a wiring description), or None for the standard
    wiring; raises LedMapError saying what is wrong with it."""
    from hardware.ledmap import led_map_of

    return led_map_of(getattr(profile, "led_map", None), geometry)


def _check_profile(profile: object, geometry: Geometry) -> None:
    """Raise SetupError when a profile cannot read this board from a camera's frames."""
    if getattr(profile, "locator", None) is None:
        raise SetupError(
            "this profile finds the board only by each photo's own corners (NAME.corners), which a camera's "
            "frames do not bring: calibrate again with --markers, or with --corners for a camera that stays put"
        )
    if profile.geometry != geometry.spec:  # type: ignore[attr-defined]
        raise SetupError(
            f"the profile is for the {profile.geometry} board, the game is on {geometry.spec}: "  # type: ignore[attr-defined]
            "give the matching --board or another --profile"
        )


def page_profile_path(store: Path, geometry: Geometry) -> Path:
    """Where the page saves a board's calibration when ``cascade run`` was given no profile: beside the store."""
    name = "".join(c if c.isalnum() else "-" for c in geometry.spec)
    return store.parent / "profiles" / f"{name}.json"


def start_run(args: argparse.Namespace) -> Session:
    """Open the store, LEDs, buttons and camera; resume or start the game; serve the page; start the camera loop.

    The LEDs are kept beside the game (:class:`hardware.KeptMatrix`): once
    open, their controller may come and go without the game waiting for it.
    """
    from hardware import KeptMatrix, open_buttons
    from hardware.awaited import open_leds_awaiting
    from hardware.errors import HardwareError
    from vision.pipeline import BoardReader

    profile = _profile(args)
    board = args.board or (getattr(profile, "geometry", None) if profile is not None else None)
    hexagon = (board or "").strip().startswith("hexagon:")
    rules = make_rules(args.game or game_on(board), board, args.variant or ("hexagon" if hexagon else None), args.first)
    advice = advice_for(args.opponent, args.engine_plays, rules, args.engine_seconds)
    geometry = rules.geometry
    table = args.camera.strip().startswith("table:")
    store_file = Path(args.store or default_store_path())
    profile_file = Path(args.profile) if args.profile else page_profile_path(store_file, geometry)
    if profile is None and table:
        profile = table_profile(rules.start(), _table_seed(args.camera))
    elif profile is None and profile_file.exists():
        args.profile = str(profile_file)
        profile = _profile(args)
        _say_run(f"reading the board with the profile calibrated on the page, {profile_file}")
    if profile is not None:
        _check_profile(profile, geometry)
    store = Store(store_file)
    leds = buttons = camera = None
    try:
        leds = KeptMatrix(open_leds_awaiting(args.leds, geometry, profile_led_map(profile, geometry), say=_say_run))
        buttons = open_buttons(args.buttons)
        players = {key: name for key, name in (("White", args.white), ("Black", args.black)) if name}
        live = LiveGame.start_or_resume(
            rules.start(), store, leds=leds, headers={**record_names(rules, advice.computer), **players}
        )
        live.keep_jpeg = bool(args.jpeg)
        live.on_ply = _say_ply
        camera = open_camera(args.camera, live.position, args.fps)
        loops: list[CameraLoop] = []

        def install(chosen: object, calibrated_here: bool = True) -> None:
            """Read the board with a profile (the one given, or one just calibrated on the page)."""
            _check_profile(chosen, geometry)
            reader = BoardReader(geometry, chosen.locator, chosen.colour_model)  # type: ignore[attr-defined]
            if calibrated_here and leds is not None:  # a map measured on the page lights the LEDs at once
                try:
                    measured = profile_led_map(chosen, geometry)
                    if measured is not None:
                        leds.use_map(measured)
                except HardwareError as error:
                    raise SetupRefusedError(
                        f"the profile is saved, but its LED map does not fit these LEDs ({error}); "
                        "restart cascade run with it"
                    ) from None
            if loops:
                loops[0].reader, loops[0].steadier = reader, open_steadier()
            else:
                loops.append(CameraLoop(live, reader, open_steadier(), buttons))

        if profile is not None:
            install(profile, calibrated_here=False)
        setup = table_setup(
            live,
            geometry,
            profile_file,
            install,
            leds,
            calibrated=profile is not None,
            single=single_leds(args.leds, leds),
        )
        session = Session(live, store, leds, args.host, args.port, say=_say_run, setup=setup)
        live.play_against(advice)
    except BaseException:
        for part in (camera, buttons, leds):
            if part is not None:
                part.close()
        store.close()
        raise
    session.extra_closers.append(buttons.close)
    session.extra_closers.append(camera.close)
    if args.publish is not None:
        session.publish_to(args.publish)

    if not setup.calibrated:
        _say_run(
            f"the {geometry.spec} board has no calibration profile yet: calibrate it on the page, "
            f"{session.server.url('/setup')}?token={session.token} (it is saved to {profile_file})"
        )

    def watch(stop: threading.Event) -> None:
        frames = iter(camera.frames)
        while not loops:  # no profile yet: every frame goes to the calibration on the page
            frame = next(frames, None)
            if frame is None or stop.is_set():
                return
            setup.feed(camera.image_of(frame))
        loops[0].divert = setup.feed
        loops[0].run(frames, stop, fps=camera.fps, image_of=camera.image_of, buttons_of=camera.buttons_of)

    session.start_worker("camera", watch)
    return session


def single_leds(spec: str, leds: KeptMatrix) -> tuple[LedCount, LightLeds] | None:
    """What the page's LED map needs of the companion's LEDs, or None when they light nothing under the board
    (``none:``, and ``console:``, a drawing in the terminal).

    The count is asked of the LEDs when the mapping starts: every LED the
    controller drives, which a controller plugged in after the companion
    started says only then. ``light`` returns once the LEDs asked are on, and
    fails saying why when the controller is away.
    """
    if spec.strip().partition(":")[0].strip().lower() in ("none", "console"):
        return None
    return (lambda: leds.led_count), leds.show_leds_and_wait


def table_setup(
    live: LiveGame,
    geometry: Geometry,
    profile_file: Path,
    install: Callable[[Any], None],
    leds: Any,
    calibrated: bool,
    single: tuple[LedCount, LightLeds] | None = None,
) -> TableSetup:
    """The page's set-up of this companion: the guided calibration of ``geometry`` (checked against its ready
    profile when there is one), its stones lit on the LEDs, the profile saved to ``profile_file``; with
    ``single`` (see :func:`single_leds`) the LEDs can be mapped on the page."""
    from calibration.guided import GuidedCalibration
    from calibration.ready import READY, load_ready_profile
    from hardware import highlight

    def make_flow() -> GuidedCalibration:
        return GuidedCalibration(geometry, start=load_ready_profile(geometry.spec) if geometry.spec in READY else None)

    def light_cells(lit: dict[int, str]) -> None:
        if leds is not None:
            leds.show(highlight.guidance(pending_cells=lit))

    try:
        profile_file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SetupError(
            f"cannot make the folder {profile_file.parent} for the calibration ({error.strerror or error}): "
            "give a --profile file in a folder that can be written"
        ) from None
    return TableSetup(
        live, profile_file, make_flow, install, leds=single, light_cells=light_cells, calibrated=calibrated
    )


def open_steadier() -> Steadier:
    """The vision pipeline's temporal stabiliser."""
    from vision.stabilise import Stabiliser

    return Stabiliser()


def _table_seed(spec: str) -> int:
    from urllib.parse import parse_qsl

    options = dict(parse_qsl(spec.partition("?")[2]))
    try:
        return int(options.get("seed", "1"))
    except ValueError:
        raise SetupError(f"'{spec}': seed must be a whole number") from None


def _say_ply(number: int, text: str) -> None:
    """Print an accepted ply on standard output. Output closed by its reader (``cascade run | head``) is
    let go of: the game, its page and its store go on, and later plies are printed nowhere."""
    try:
        print(f"ply {number}: {text}", flush=True)
    except OSError:  # a broken pipe: from now on standard output leads nowhere
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _say_run(words: str) -> None:
    print(f"cascade run: {words}", file=sys.stderr, flush=True)
