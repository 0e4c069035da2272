"""The page: a Flask app that shows the live game and accepts a few actions.

``create_app(config)`` builds a fresh app around a :class:`LiveSource` (the
live game, or anything that offers snapshots, actions and camera frames):

- ``GET /``               the page: score, turn, live SVG board, pending cells,
                          alerts, move list, camera view, LED mirror
- ``GET /api/state``      the current snapshot as JSON
- ``GET /events``         Server-Sent Events, one ``snapshot`` event per change
- ``GET /camera.mjpg``    the camera with the detected cells drawn over it (MJPEG)
- ``POST /api/action/<name>`` ``new_game``, ``undo``, ``correct``, ``end_turn``,
  ``pass``, ``confirm``, ``resign``, ``hint``, ``teach``: only with the token (header
  ``X-Cascade-Token`` or form field ``token``); the page is read-only without it.
  Parameters come as a form or a small JSON object and are checked against
  the game before the live game sees them (a bad one answers 400, changing
  nothing); every answer carries a Content-Security-Policy.
- ``GET /api/preview?cell=e6`` with the token: what a drop there would cause,
  for the teaching mode (:mod:`companion.web.coach`)

The archive (:mod:`companion.web.archive`) lists every logged game at
``/games`` and replays one at ``/games/<id>``, with its downloads; with the
token its players, result and plies can be corrected there.

:func:`serve` runs an app on a background thread with Werkzeug's threaded
server, bound to 127.0.0.1 unless told otherwise, and stops it cleanly.
"""

from __future__ import annotations

from companion.web.app import LiveSource, Server, create_app, serve

__all__ = ["LiveSource", "Server", "create_app", "serve"]
