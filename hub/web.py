"""The hub's page and public feed: a Flask app around a running :class:`~hub.service.Hub`.

- ``GET /``                       every board at a glance: a small live board each, score, turn, alerts
- ``GET /board/<name>``           one board's full live view, with its moves
- ``GET /standings``              the standings of the round
- ``GET /archive``                every game of the event, with its record
- ``GET /events``                 Server-Sent Events: a ``board`` event for each changed board
- ``GET /api/boards``             every board's view as JSON
- ``GET /feed/event.json``        the feed's index: every game, its URL, plies shown, result
- ``GET /feed/event.txt``         every game's record, one after another
- ``GET /feed/game/<id>.txt``     one game's record, at a stable address
- ``GET /feed/follow``            Server-Sent Events: a ``record`` event whenever a game's record changes

The feed is as late as the hub's delay (``--delay MINUTES``); the page is live.
Every answer carries the same Content-Security-Policy as a board's page.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template

from companion.store import GameRow
from companion.web.app import SECURITY_HEADERS
from companion.web.board import BoardDrawing, draw_board
from companion.web.broadcast import encode_event
from hub.feed import FeedGame, feed_game, shown_until
from hub.service import BoardView, Hub
from hub.standings import Played, standings
from referee.errors import RefereeError
from referee.geometry import parse_geometry

FOLLOW_EVERY_S = 1.0

bp = Blueprint("hub", __name__, template_folder="templates", static_folder="static", static_url_path="/hub-static")


def _hub() -> Hub:
    hub: Hub = current_app.config["HUB"]
    return hub


def _drawing(spec: str) -> BoardDrawing | None:
    try:
        return draw_board(parse_geometry(spec)) if spec else None
    except RefereeError:
        return None


@bp.get("/")
def overview() -> str:
    """Every board at a glance."""
    hub = _hub()
    views = [view.to_json() for view in hub.views()]
    drawings = {v["board"]: _drawing(v["geometry"]) for v in views}
    return render_template("overview.html", event=hub.event, views=views, drawings=drawings)


@bp.get("/board/<name>")
def board(name: str) -> str:
    """One board's full live view."""
    view = _hub().view(name)
    if view is None:
        abort(404)
    data = view.to_json()
    return render_template("board.html", event=_hub().event, view=data, drawing=_drawing(data["geometry"]))


@bp.get("/standings")
def standings_page() -> str:
    """The standings of the round, from every finished game of the event."""
    games = [
        Played(row.header("Table"), row.header("White"), row.header("Black"), row.result or "*")
        for row in _event_games()
    ]
    return render_template("standings.html", event=_hub().event, rows=standings(games))


@bp.get("/archive")
def archive() -> str:
    """Every game of the event, newest first, with its record."""
    rows = list(reversed(_event_games()))
    return render_template("archive.html", event=_hub().event, rows=rows)


@bp.get("/events")
def events() -> Response:
    """Server-Sent Events: every board now, then one ``board`` event per change."""
    hub = _hub()
    viewer = hub.broadcaster.subscribe()
    for view in hub.views():
        viewer.offer(encode_event(json.dumps(view.to_json()), "board"))
    return _stream(hub.broadcaster.stream(viewer))


@bp.get("/api/boards")
def api_boards() -> Response:
    """Every board's view as JSON."""
    return jsonify([view.to_json() for view in _hub().views()])


@bp.get("/feed/event.json")
def feed_index() -> Response:
    """The feed's index: every game with its record's address, plies shown and result."""
    games = _feed_games()
    return jsonify(
        {
            "event": _hub().event,
            "delay_minutes": _hub().delay_min,
            "games": [
                {
                    "game": g.game_id,
                    "board": g.board,
                    "white": g.white,
                    "black": g.black,
                    "plies": len(g.plies),
                    "result": g.result,
                    "record": f"/feed/game/{g.game_id}.txt",
                }
                for g in games
            ],
        }
    )


@bp.get("/feed/event.txt")
def feed_all() -> Response:
    """Every game's record, one after another, separated by a blank line."""
    return Response("\n".join(g.record for g in _feed_games()), mimetype="text/plain")


@bp.get("/feed/game/<int:game_id>.txt")
def feed_one(game_id: int) -> Response:
    """One game's record."""
    for game in _feed_games():
        if game.game_id == game_id:
            return Response(game.record, mimetype="text/plain")
    abort(404)


@bp.get("/feed/follow")
def feed_follow() -> Response:
    """Server-Sent Events: each game's record when it changes (as late as the feed)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]

    def records() -> Iterator[str]:
        sent: dict[int, str] = {}
        hub: Hub = app.config["HUB"]
        while not hub.broadcaster.closed:
            with app.app_context():
                games = _feed_games()
            for game in games:
                if sent.get(game.game_id) != game.record:
                    sent[game.game_id] = game.record
                    yield encode_event(
                        json.dumps({"game": game.game_id, "board": game.board, "record": game.record}), "record"
                    )
            yield ": heartbeat\n\n"
            time.sleep(FOLLOW_EVERY_S)

    return _stream(records())


def _stream(body: Iterator[str]) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _event_games() -> list[GameRow]:
    hub = _hub()
    return [row for row in hub.store.games() if row.header("Event") == hub.event]


def _feed_games() -> list[FeedGame]:
    hub = _hub()
    until = shown_until(datetime.now(UTC), hub.delay_min) if hub.delay_min > 0 else None
    return [feed_game(row, hub.store.plies(row.id), until) for row in _event_games()]


def _secure(response: Response) -> Response:
    for header, value in SECURITY_HEADERS.items():
        response.headers.setdefault(header, value)
    return response


def create_hub_app(hub: Hub, config: dict[str, Any] | None = None) -> Flask:
    """A fresh app serving ``hub``'s page and feed."""
    app = Flask(__name__)
    app.config.update(config or {})
    app.config["HUB"] = hub
    app.register_blueprint(bp)
    app.after_request(_secure)
    app.jinja_env.globals["view_class"] = _view_class
    return app


def _view_class(view: dict[str, Any]) -> str:
    return "alerted" if view["alerts"] or view["behind"] else ""


__all__ = ["BoardView", "create_hub_app"]
