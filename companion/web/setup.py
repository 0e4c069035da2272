"""The set-up page: a new game's options and the guided calibration, from a phone at the table.

- ``GET /setup``                 the page: a new game on this board (variant, who plays first, players) and the
                                 calibration (each step's instruction, what went wrong, the camera preview)
- ``GET /api/setup``             what the page shows, as JSON (the page asks for it every second or so)
- ``GET /setup/preview.jpg``     the camera picture with the found grid and the cells asked for drawn over it
- ``POST /api/setup/<action>``   with the token: ``new_game`` (``variant``, ``first``, ``white``, ``black``),
                                 ``calibrate``, ``answer`` (``yes``: yes or no), ``again``, ``map_leds``, ``save``

The app's ``SETUP`` is a :class:`companion.table_setup.TableSetup`; without one
(a page with no camera of its own) the set-up is not offered. Refused
requests are answered 400 (403 without the token) with one line saying what
to do, and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from companion.errors import CompanionError
from companion.web.bodies import READ_ONLY, action_token, request_params, token_ok
from referee.errors import RefereeError
from referee.quoting import shown

bp = Blueprint("setup", __name__)


class SetupRequestError(CompanionError, ValueError):
    """A set-up request that does not fit (a stray field, no calibration under way, a bad answer); answered 400."""


class Calibration(Protocol):
    """What the page needs of a calibration under way (:class:`companion.table_setup.PageCalibration`)."""

    def preview(self) -> bytes | None:
        """The latest camera preview as JPEG."""

    def answer(self, yes: bool) -> str:
        """Answer the grid question."""

    def again(self) -> str:
        """Capture the empty board again."""

    def map_leds(self) -> str:
        """Start mapping the LEDs."""


class Setup(Protocol):
    """What the page needs of the companion's set-up (:class:`companion.table_setup.TableSetup`)."""

    @property
    def calibration(self) -> Calibration | None:
        """The calibration under way, if any."""

    def state(self) -> dict[str, Any]:
        """What the page shows."""

    def calibrate(self) -> str:
        """Start the guided calibration."""

    def save(self) -> str:
        """Save the finished calibration's profile."""

    def new_game(self, params: Mapping[str, str]) -> str:
        """Start a new game with these options."""


ACTIONS: dict[str, tuple[str, ...]] = {
    "new_game": ("game", "board", "variant", "first", "white", "black"),
    "calibrate": (),
    "answer": ("yes",),
    "again": (),
    "map_leds": (),
    "save": (),
}


def _setup() -> Setup:
    setup: Setup | None = current_app.config.get("SETUP")
    if setup is None:
        abort(404, description="this companion has no camera of its own to set up: cascade run has one")
    return setup


@bp.get("/setup")
def page() -> str:
    """The set-up page."""
    setup = _setup()
    given = request.args.get("token")
    return render_template("setup.html", state=setup.state(), token=given if token_ok(given) else None)


@bp.get("/api/setup")
def state() -> Response:
    """What the set-up page shows, as JSON."""
    return jsonify(_setup().state())


@bp.get("/setup/preview.jpg")
def preview() -> Response:
    """The latest camera preview of the calibration under way."""
    calibration = _setup().calibration
    jpeg = calibration.preview() if calibration is not None else None
    if not jpeg:
        abort(404, description="no calibration picture yet: start the calibration and point the camera at the board")
    response = Response(jpeg, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/api/setup/<name>")
def action(name: str) -> tuple[Response, int]:
    """Carry out a set-up action; needs the token."""
    if not token_ok(action_token()):
        abort(403, description=READ_ONLY)
    if name not in ACTIONS:
        abort(404, description=f"{shown(name, 20)} is not a set-up action: use one of {', '.join(ACTIONS)}")
    setup = _setup()
    params = request_params()
    stray = [k for k in params if k not in ACTIONS[name]]
    if stray:
        takes = f"takes only {', '.join(ACTIONS[name])}" if ACTIONS[name] else "takes no parameters"
        raise SetupRequestError(f"{name} {takes}, not {shown(stray[0], 20)}")
    handlers: dict[str, Callable[[], str]] = {
        "new_game": lambda: setup.new_game(params),
        "calibrate": setup.calibrate,
        "answer": lambda: _calibration(setup).answer(_yes(params.get("yes", ""))),
        "again": lambda: _calibration(setup).again(),
        "map_leds": lambda: _calibration(setup).map_leds(),
        "save": setup.save,
    }
    return jsonify({"ok": True, "message": handlers[name](), "state": setup.state()}), 200


def _calibration(setup: Setup) -> Calibration:
    calibration = setup.calibration
    if calibration is None:
        raise SetupRequestError("no calibration is under way: start one with Calibrate the board")
    return calibration


def _yes(value: str) -> bool:
    words = value.strip().lower()
    if words in ("yes", "y", "1", "true"):
        return True
    if words in ("no", "n", "0", "false"):
        return False
    raise SetupRequestError("answer yes or no: does the green grid sit on the board's cells?")


@bp.errorhandler(CompanionError)
@bp.errorhandler(RefereeError)
def _refused(error: Exception) -> tuple[Response, int]:
    """A refused set-up request in plain words; nothing changed."""
    return jsonify({"ok": False, "message": str(error)}), 400
