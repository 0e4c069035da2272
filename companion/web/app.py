"""The Flask app factory, its blueprint and a background server (see the package docstring).

Hostile requests change nothing and never reach a traceback: an action's
parameters are checked against the game before the live game sees them
(:func:`action_params`), a body that is not a small JSON object or form is
answered 400 (413 when too large), the state embedded in the page is escaped
for a ``<script>`` element, and every answer carries a Content-Security-Policy
that lets the page run only its own script and style.
"""

from __future__ import annotations

import errno
import hmac
import json
import secrets
import socket
import threading
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server, select_address_family

from companion.errors import CompanionError, SetupError
from companion.snapshot import Snapshot
from companion.web.archive import bp as archive
from companion.web.board import draw_board
from companion.web.bodies import request_params as _request_params
from companion.web.broadcast import Broadcaster, encode_event
from companion.web.coach import bp as coach_bp
from companion.web.setup import bp as setup
from referee.errors import RefereeError
from referee.geometry import parse_geometry
from referee.quoting import shown

ACTIONS = ("new_game", "undo", "correct", "end_turn", "pass", "confirm", "resign", "hint", "teach")
ACTION_PARAMS: Mapping[str, tuple[str, ...]] = {"correct": ("cell", "symbol")}
MJPEG_BOUNDARY = "cascadeframe"
MAX_BODY_BYTES = 16 * 1024
SHOWN_CHARS = 20
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",  # the controls' address holds the token
}
# What a cell can be corrected to, per game (Kaskade: a colour and a count of balls)
CORRECTIONS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "cascade": ((".", "empty"), ("o", "white"), ("x", "black"), ("=", "red")),
    "cascades": ((".", "empty"), ("o", "white"), ("x", "black")),
    "kaskade": (
        (".", "empty"),
        *((f"o{n}", f"{n} white") for n in range(1, 5)),
        *((f"x{n}", f"{n} black") for n in range(1, 5)),
    ),
}
KASKADE_MAX_BALLS = 9


class ActionRequestError(CompanionError, ValueError):
    """An action request whose body or parameters do not fit the game; answered 400, nothing changes."""


class LiveSource(Protocol):
    """What the page needs from the live game."""

    @property
    def broadcaster(self) -> Broadcaster:
        """Where snapshot events are published."""

    def snapshot(self) -> Snapshot:
        """The current snapshot."""

    def perform(self, action: str, params: Mapping[str, str]) -> str:
        """Carry out an action from the page; returns a plain-words message; raises CompanionError."""

    def camera_jpeg(self, after: int, timeout_s: float) -> tuple[int, bytes] | None:
        """The newest camera picture newer than number ``after`` (waiting up to ``timeout_s``), or None."""


bp = Blueprint("companion", __name__)


def _live() -> LiveSource:
    live: LiveSource = current_app.config["LIVE"]
    return live


@bp.get("/")
def page() -> str:
    """The page of the live game."""
    snap = _live().snapshot()
    drawing = draw_board(parse_geometry(snap.geometry))
    choices = CORRECTIONS.get(snap.game, CORRECTIONS["cascade"])
    return render_template("page.html", snap=snap, board=drawing, state=snap.to_json(), choices=choices)


@bp.get("/api/state")
def state() -> Response:
    """The current snapshot as JSON."""
    return jsonify(_live().snapshot().to_json())


@bp.get("/api/board")
def board() -> Response:
    """The drawing of the current board (cell outlines in SVG pixels)."""
    drawing = draw_board(parse_geometry(_live().snapshot().geometry))
    return jsonify(
        {
            "spec": drawing.spec,
            "view_box": drawing.view_box,
            "cells": [{"name": c.name, "points": c.points, "cx": c.cx, "cy": c.cy, "r": c.r} for c in drawing.cells],
        }
    )


@bp.get("/events")
def events() -> Response:
    """Server-Sent Events: the current snapshot, then one per change."""
    live = _live()
    first = encode_event(json.dumps(live.snapshot().to_json()), "snapshot")
    broadcaster = live.broadcaster
    viewer = broadcaster.subscribe(first)
    response = Response(broadcaster.stream(viewer), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/camera.mjpg")
def camera() -> Response:
    """The camera view with the detected cells drawn over it, as an MJPEG stream."""
    live = _live()
    limit = request.args.get("frames", type=int)

    def frames() -> Iterator[bytes]:
        seen, sent = -1, 0
        while limit is None or sent < limit:
            got = live.camera_jpeg(seen, 5.0)
            if got is None:
                if current_app_stopped(live):
                    return
                continue
            seen, jpeg = got
            sent += 1
            yield (
                f"--{MJPEG_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
                + jpeg
                + b"\r\n"
            )

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={MJPEG_BOUNDARY}")


def current_app_stopped(live: LiveSource) -> bool:
    """True when the live game has stopped (its broadcaster is closed)."""
    return live.broadcaster.closed


@bp.post("/api/action/<name>")
def action(name: str) -> tuple[Response, int]:
    """Carry out an action; needs the token."""
    token = current_app.config.get("TOKEN")
    given = request.headers.get("X-Cascade-Token") or request.form.get("token") or ""
    if not token or not hmac.compare_digest(str(token), given):
        return jsonify(
            {"ok": False, "message": "this page is read-only: open the link with the token printed at start"}
        ), 403
    if name not in ACTIONS:
        abort(404)
    live = _live()
    try:
        params = action_params(name, _request_params(), live.snapshot())
        message = live.perform(name, params)
    except (CompanionError, RefereeError) as error:
        return jsonify({"ok": False, "message": str(error)}), 400
    return jsonify({"ok": True, "message": message}), 200


def action_params(name: str, params: Mapping[str, str], snap: Snapshot) -> dict[str, str]:
    """The parameters of action ``name``, checked against the game in ``snap``; raises ActionRequestError.

    Each action takes only its own parameters (``correct``: ``cell``, a cell of
    the board, and ``symbol``, what that cell can hold in this game); the cell
    comes back with its canonical name.
    """
    allowed = ACTION_PARAMS.get(name, ())
    stray = [key for key in params if key not in allowed]
    if stray:
        takes = f"takes only {' and '.join(allowed)}" if allowed else "takes no parameters"
        raise ActionRequestError(f"{name} {takes}, not {shown(stray[0], SHOWN_CHARS)}")
    if name != "correct":
        return {}
    cell = params.get("cell", "").strip()
    if not cell:
        raise ActionRequestError("say which cell to correct, for example cell=e6 symbol=x")
    geometry = parse_geometry(snap.geometry)
    if len(cell) > 3 or cell.lower() not in {c.name for c in geometry.cells}:
        raise ActionRequestError(f"{shown(cell, SHOWN_CHARS)} is not a cell of the {snap.geometry} board")
    symbol = params.get("symbol", "").strip() or "."
    if not _can_hold(snap.game, symbol):
        choices = ", ".join(value for value, _ in CORRECTIONS.get(snap.game, CORRECTIONS["cascade"]))
        raise ActionRequestError(
            f"{shown(symbol, SHOWN_CHARS)} is not what a {snap.game} cell can hold: use one of {choices}"
        )
    return {"cell": cell.lower(), "symbol": symbol}


def _can_hold(game: str, symbol: str) -> bool:
    if game == "kaskade" and symbol != ".":
        return len(symbol) == 2 and symbol[0] in ("o", "x") and symbol[1] in "123456789"[:KASKADE_MAX_BALLS]
    return symbol in {value for value, _ in CORRECTIONS.get(game, CORRECTIONS["cascade"])}


def _json_error(error: HTTPException) -> tuple[Response, int]:
    """An HTTP error on an action as a JSON answer, never a page or a traceback."""
    return jsonify({"ok": False, "message": f"{error.name}: {error.description}"}), int(error.code or 500)


def _secure(response: Response) -> Response:
    for header, value in SECURITY_HEADERS.items():
        response.headers.setdefault(header, value)
    return response


def create_app(config: Mapping[str, Any]) -> Flask:
    """A fresh app. ``config`` must hold ``LIVE`` (a LiveSource); ``TOKEN`` enables actions."""
    if "LIVE" not in config:
        raise SetupError("the page needs a live game: pass {'LIVE': ...} to create_app")
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config.update(config)
    app.register_blueprint(bp)
    app.register_blueprint(archive)  # the logged games, from the store of config STORE or of the live game
    app.register_blueprint(setup)  # a new game's options and the calibration, with config SETUP
    app.register_blueprint(coach_bp)
    app.after_request(_secure)
    for code in (400, 403, 404, 405, 409, 413):
        app.register_error_handler(code, _json_error_for_actions)
    return app


def _json_error_for_actions(error: HTTPException) -> HTTPException | tuple[Response, int]:
    if request.path.startswith("/api/"):
        return _json_error(error)
    return error


def new_token() -> str:
    """A fresh random token for the actions."""
    return secrets.token_urlsafe(12)


class Server:
    """A running app on a background thread; ``stop()`` ends it cleanly."""

    def __init__(self, server: BaseWSGIServer) -> None:
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="page-server", daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        return int(self._server.server_address[1])

    @property
    def host(self) -> str:
        """The address bound."""
        return str(self._server.server_address[0])

    def url(self, path: str = "/") -> str:
        """A URL of the page on this server: on every interface, the address other machines reach it by (a
        phone at the table), found from the way out of this machine; 127.0.0.1 on a machine with no network."""
        host = own_address() if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}{path}"

    def stop(self) -> None:
        """Stop accepting requests and wait for the server thread."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5.0)


def own_address() -> str:
    """This machine's address on its network: the source of its route outwards (a UDP socket only chooses
    its route when connected; nothing is sent), or 127.0.0.1 when it has none."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: any route outwards will do
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


class QuietRequestHandler(WSGIRequestHandler):
    """Werkzeug's handler without a log line per request (a page with 200 viewers would flood the terminal)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Requests are not logged."""


def serve(app: Flask, host: str = "127.0.0.1", port: int = 0) -> Server:
    """Serve an app on a background thread (threaded: one thread per connection).

    Raises SetupError, saying what to do, for a port out of range, a host name
    that cannot be resolved, or an address that cannot be bound.
    """
    listening = _listen(host, port)
    try:
        server = make_server(host, port, app, threaded=True, request_handler=QuietRequestHandler, fd=listening.fileno())
    except OSError as error:
        raise SetupError(f"cannot serve the page on {host}:{port} ({error}); choose another --port") from error
    finally:
        listening.close()  # the server holds its own copy of the socket
    server.daemon_threads = True  # type: ignore[attr-defined]
    return Server(server)


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; raises SetupError in plain words (Werkzeug would exit instead)."""
    if not 0 <= port <= 65535:
        raise SetupError(f"{port} is not a port: give --port from 0 to 65535 (0: any free port)")
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        reason = error.strerror if isinstance(error, socket.gaierror) else str(error)
        raise SetupError(
            f"the host '{host[:60]}' could not be resolved ({reason}): give --host an address of this machine, "
            "such as 127.0.0.1 (this machine only) or 0.0.0.0 (every network)"
        ) from None
    family = select_address_family(host, port)
    chosen = next((entry for entry in found if entry[0] == family), found[0])
    listening = socket.socket(chosen[0], chosen[1], chosen[2])
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(chosen[4])
        listening.listen(128)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise SetupError(f"port {port} on {host} is in use by another program: choose another --port") from None
        raise SetupError(
            f"cannot serve the page on {host}:{port} ({error.strerror or error}): give --host an address of this "
            "machine (127.0.0.1 or 0.0.0.0) and a free --port"
        ) from None
    return listening
