"""The page's help against the computer: what dropping on a cell would cause, for the teaching mode.

``GET /api/preview?cell=e6[&colour==]`` answers, for the position the live
game expects, every cell that a drop on ``cell`` would change, with what it
would hold (``{"cell": "e6", "cells": [{"cell": "e6", "need": "="}, ...]}``;
an empty list where no stone may go). ``colour`` is the drop's colour in
Cascade (default: the mover's). It needs the page's token, as the actions do:
it is help for the player at the board, not for onlookers.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, Response, current_app, jsonify, request

from companion.errors import CompanionError
from referee.errors import RefereeError
from referee.quoting import shown

bp = Blueprint("coach", __name__)

COLOURS = ("o", "x", "=")


@bp.get("/api/preview")
def preview() -> tuple[Response, int]:
    """The cells a drop on ``cell`` would change (see the module docstring); needs the token."""
    token = current_app.config.get("TOKEN")
    given = request.headers.get("X-Cascade-Token") or ""
    if not token or not hmac.compare_digest(str(token), given):
        return jsonify({"ok": False, "message": "the preview needs the page's token"}), 403
    live = current_app.config["LIVE"]
    cell = request.args.get("cell", "").strip().lower()
    colour = request.args.get("colour", "").strip() or None
    if colour is not None and colour not in COLOURS:
        return jsonify({"ok": False, "message": f"{shown(colour, 20)} is not a colour: use o, x or ="}), 400
    if not cell or len(cell) > 3:
        return jsonify({"ok": False, "message": f"{shown(cell, 20)} is not a cell: give cell=e6"}), 400
    try:
        marks = live.preview(cell, colour)
    except (CompanionError, RefereeError) as error:
        return jsonify({"ok": False, "message": str(error)}), 400
    return jsonify({"ok": True, "cell": cell, "cells": [{"cell": m.cell, "need": m.need} for m in marks]}), 200
