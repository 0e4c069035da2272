"""The Flask app factory, its blueprint and a background server (see the package docstring)."""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from companion.errors import CompanionError, SetupError
from companion.snapshot import Snapshot
from companion.web.board import draw_board
from companion.web.broadcast import Broadcaster, encode_event
from referee.errors import RefereeError
from referee.geometry import parse_geometry

ACTIONS = ("new_game", "undo", "correct", "end_turn", "pass", "confirm", "resign")
MJPEG_BOUNDARY = "cascadeframe"


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
    return render_template("page.html", snap=snap, board=drawing, state_json=json.dumps(snap.to_json()))


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
    params: dict[str, str] = {k: v for k, v in request.form.items() if k != "token"}
    if request.is_json:
        params.update({str(k): str(v) for k, v in (request.get_json(silent=True) or {}).items()})
    try:
        message = _live().perform(name, params)
    except (CompanionError, RefereeError) as error:
        return jsonify({"ok": False, "message": str(error)}), 400
    return jsonify({"ok": True, "message": message}), 200


def create_app(config: Mapping[str, Any]) -> Flask:
    """A fresh app. ``config`` must hold ``LIVE`` (a LiveSource); ``TOKEN`` enables actions."""
    if "LIVE" not in config:
        raise SetupError("the page needs a live game: pass {'LIVE': ...} to create_app")
    app = Flask(__name__)
    app.config.update(config)
    app.register_blueprint(bp)
    return app


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
        return int(self._server.server_port)

    @property
    def host(self) -> str:
        """The address bound."""
        return str(self._server.server_address[0])

    def url(self, path: str = "/") -> str:
        """A URL of the page on this server."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}{path}"

    def stop(self) -> None:
        """Stop accepting requests and wait for the server thread."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5.0)


class QuietRequestHandler(WSGIRequestHandler):
    """Werkzeug's handler without a log line per request (a page with 200 viewers would flood the terminal)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Requests are not logged."""


def serve(app: Flask, host: str = "127.0.0.1", port: int = 0) -> Server:
    """Serve an app on a background thread (threaded: one thread per connection)."""
    try:
        server = make_server(host, port, app, threaded=True, request_handler=QuietRequestHandler)
    except OSError as error:
        raise SetupError(f"cannot serve the page on {host}:{port} ({error}); choose another --port") from error
    server.daemon_threads = True  # type: ignore[attr-defined]
    return Server(server)
