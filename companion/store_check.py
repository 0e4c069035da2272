"""Checking a game store's rows: say exactly which game and ply are damaged.

A store edited by hand (or written by a faulty program) can hold headers that
are not JSON, a ply the rules cannot read or play, or a gap in the ply
numbers. Resuming such a game would replay a different game than the one
played, so the store is checked when it is opened: :func:`row_damage` and
:func:`ply_damage` look at what can be seen without the rules' history
(cheap, for every game), :func:`replay_damage` plays a game's plies through
the rules (for the game a companion resumes, and for a game being exported).
Each finding is a :class:`Damage`: the game, the ply (0 for the game's own
row) and what is wrong, in plain words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

GAME_NAMES = ("cascade", "cascades", "kaskade")
HEADER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
SHOWN_CHARS = 40


@dataclass(frozen=True)
class Damage:
    """One damaged place of a store: the game, the ply (0: the game's own row) and what is wrong."""

    game_id: int
    ply: int
    what: str

    def __str__(self) -> str:
        where = f"game {self.game_id}" + (f", ply {self.ply}" if self.ply else "")
        return f"{where}: {self.what}"


def shown(value: object) -> str:
    """A stored value quoted for a message, cut short if long."""
    text = str(value)
    if len(text) > SHOWN_CHARS:
        text = text[: SHOWN_CHARS - 1] + "…"
    return repr(text)


def read_headers(text: object) -> dict[str, str] | None:
    """The headers of a game row as a dict of strings, or None when they are not a JSON object of strings."""
    try:
        value: Any = json.loads(str(text) or "{}")
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not all(isinstance(v, str | int | float) for v in value.values()):
        return None
    return {str(k): str(v) for k, v in value.items()}


def row_damage(game_id: int, game: object, geometry: object, headers: object) -> Damage | None:
    """What is wrong with a game's own row (name, board, headers), if anything."""
    from referee.errors import RefereeError
    from referee.geometry import parse_geometry

    if game not in GAME_NAMES:
        return Damage(game_id, 0, f"its game {shown(game)} is not one of {', '.join(GAME_NAMES)}")
    try:
        parse_geometry(str(geometry))
    except RefereeError:
        return Damage(game_id, 0, f"its board {shown(geometry)} is not a board spec")
    read = read_headers(headers)
    if read is None:
        return Damage(game_id, 0, f"its headers {shown(headers)} are not a JSON object of names and values")
    bad = [key for key in read if not HEADER_KEY.fullmatch(key)]
    if bad:
        return Damage(game_id, 0, f"its header name {shown(bad[0])} is not a word")
    return None


def ply_damage(game_id: int, game: str, geometry: str, plies: Sequence[tuple[object, object]]) -> Damage | None:
    """The first gap in the numbers or unreadable ply among ``(number, text)`` rows in number order."""
    from referee.errors import RefereeError
    from referee.geometry import parse_geometry
    from referee.notation import parse_ply

    board = parse_geometry(geometry)
    numbers = [number for number, _ in plies if type(number) is int]
    if len(numbers) < len(plies):
        odd = next(number for number, _ in plies if type(number) is not int)
        return Damage(game_id, 0, f"a ply's number {shown(odd)} is not a whole number")
    for expected, (number, (_, text)) in enumerate(zip(numbers, plies, strict=True), start=1):
        if number < expected:
            return Damage(game_id, 0, f"a ply is numbered {number}: plies are numbered from 1")
        if number > expected:
            return Damage(game_id, expected, f"ply {expected} is missing (the next ply stored is number {number})")
        if not isinstance(text, str):
            return Damage(game_id, number, f"{shown(text)} is not a ply in record notation")
        try:
            parse_ply(text, game, board)
        except RefereeError as error:
            return Damage(game_id, number, f"{shown(text)} is not a ply of {game}: {error}")
    return None


def replay_damage(
    game_id: int, game: str, geometry: str, headers: dict[str, str], plies: Sequence[str]
) -> Damage | None:
    """The first ply the rules refuse when a game's plies are played from the start."""
    from referee.errors import RefereeError
    from referee.game import make_rules

    try:
        rules = make_rules(game, geometry, headers.get("Variant") or None, headers.get("First", "white").lower())
    except RefereeError as error:
        return Damage(game_id, 0, f"its rules cannot be set up from its headers: {error}")
    position = rules.start()
    for number, text in enumerate(plies, start=1):
        if position.is_over:
            return Damage(game_id, number, f"{shown(text)} comes after the end of the game")
        try:
            position = position.play(text).position
        except RefereeError as error:
            return Damage(game_id, number, f"{shown(text)} cannot be played: {error}")
    return None
