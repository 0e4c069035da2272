"""The parameters and the token of a request to the page: a form, or a small JSON object of names and values.

An action's body that is not a JSON object of text and numbers is refused
with one line saying what to send (:class:`BodyError`, answered 400). An
action needs the token (header ``X-Cascade-Token`` or form field ``token``);
:func:`token_ok` compares it in constant time.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

from flask import current_app, request

from companion.errors import CompanionError
from referee.quoting import shown

SHOWN_CHARS = 20


class BodyError(CompanionError, ValueError):
    """A request body that is not a form or a small JSON object of names and values; nothing changes."""


def request_params() -> dict[str, str]:
    """The action's parameters from the form or a JSON object (without the token); raises BodyError."""
    params = {k: v for k, v in request.form.items() if k != "token"}
    if not request.is_json:
        return params
    raw = request.get_data(cache=True)
    if not raw.strip():
        return params
    try:
        body: Any = json.loads(raw)
    except (ValueError, RecursionError):
        raise BodyError(
            'the body is not JSON: send a JSON object of names and values, like {"cell": "e6", "symbol": "x"}'
        ) from None
    if not isinstance(body, dict):
        raise BodyError(
            'the body must be a JSON object of names and values, like {"cell": "e6", "symbol": "x"}, '
            f"not a JSON {type(body).__name__}"
        )
    for key, value in body.items():
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise BodyError(f"the value of {shown(str(key), SHOWN_CHARS)} must be text or a number")
        params[str(key)] = str(value)
    return params


READ_ONLY = "this page is read-only: open the link with the token printed at start"
"""What a request without the right token is told (answered 403)."""


def token_ok(given: str | None) -> bool:
    """True when ``given`` is the app's token (there is one, and it matches)."""
    token = current_app.config.get("TOKEN")
    return bool(token) and bool(given) and hmac.compare_digest(str(token), str(given))


def action_token() -> str:
    """The token an action request carries (header, else form field; empty when none)."""
    return request.headers.get("X-Cascade-Token") or request.form.get("token") or ""
