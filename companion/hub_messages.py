"""What a board and a hub say to each other through the broker: topics and JSON messages.

Under ``cascade/EVENT/BOARD/`` a board publishes

- ``state`` (retained): the board now: game, board, players, position, score,
  turn, alerts, result, and ``seq``, the number of the game's latest journal
  entry the board has sent, so a hub that has less knows it missed some
  (``recent`` says the same of the board's last few earlier games);
- ``journal``: one message per journal entry (:mod:`companion.journal`):
  the start, each accepted ply, each undo, each correction, the result, each
  numbered within its game (``seq`` from 1);

and listens on ``resend``, where a hub asks for a game's entries again from a
number on (:class:`ResendRequest`). A game is named across the event by
``board`` and ``game``, a key made by the board (:func:`game_key`) that stays
the same when the board is restarted and resumes the game.

Encoding is pure: values in, bytes out, and back; a message that is not one
of these raises :class:`MessageError`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError
from companion.journal import KINDS

ROOT = "cascade"
VERSION = 1
MAX_MESSAGE_BYTES = 256 * 1024


class MessageError(CompanionError, ValueError):
    """A broker message that is not one a board or a hub sends (it is ignored, and counted)."""


def state_topic(event: str, board: str) -> str:
    """The topic of a board's retained state."""
    return f"{ROOT}/{event}/{board}/state"


def journal_topic(event: str, board: str) -> str:
    """The topic of a board's journal entries."""
    return f"{ROOT}/{event}/{board}/journal"


def resend_topic(event: str, board: str) -> str:
    """The topic where a hub asks a board to send a game's entries again."""
    return f"{ROOT}/{event}/{board}/resend"


def event_topics(event: str) -> tuple[str, str]:
    """The subscriptions of a hub: every board's state and journal of the event."""
    return f"{ROOT}/{event}/+/state", f"{ROOT}/{event}/+/journal"


def game_key(game_id: int, started_at: str) -> str:
    """The key of a board's game across the event: its number in the board's store and when it started."""
    return f"{game_id}@{started_at}"


@dataclass(frozen=True)
class JournalMessage:
    """One journal entry of a board's game (see :class:`companion.journal.Entry` for ``body``)."""

    board: str
    game: str
    seq: int
    kind: str
    body: Mapping[str, Any] = field(default_factory=dict, hash=False)
    at: str = ""


@dataclass(frozen=True)
class BoardState:
    """A board as it is now (the retained message); ``seq``: the latest journal entry of ``game`` sent."""

    board: str
    game: str
    rules: str
    geometry: str
    seq: int
    white: str = ""
    black: str = ""
    cells: tuple[str, ...] = ()
    score: tuple[tuple[str, int], ...] = ()
    turn: str = ""
    alerts: tuple[str, ...] = ()
    message: str = ""
    result: str | None = None
    plies: int = 0
    link: str = ""
    sent_at: float = 0.0
    recent: tuple[tuple[str, int], ...] = ()
    """The board's earlier games (key, latest entry sent), newest first: a hub checks it holds them whole."""


@dataclass(frozen=True)
class ResendRequest:
    """A hub asks a board for a game's journal entries again, from entry ``start`` on."""

    board: str
    game: str
    start: int


Message = JournalMessage | BoardState | ResendRequest


def encode(message: Message) -> bytes:
    """The JSON bytes of a message."""
    if isinstance(message, JournalMessage):
        data: dict[str, Any] = {
            "v": VERSION,
            "board": message.board,
            "game": message.game,
            "seq": message.seq,
            "kind": message.kind,
            "body": dict(message.body),
            "at": message.at,
        }
    elif isinstance(message, BoardState):
        data = {
            "v": VERSION,
            "board": message.board,
            "game": message.game,
            "rules": message.rules,
            "geometry": message.geometry,
            "seq": message.seq,
            "players": {"White": message.white, "Black": message.black},
            "cells": list(message.cells),
            "score": dict(message.score),
            "turn": message.turn,
            "alerts": list(message.alerts),
            "message": message.message,
            "result": message.result,
            "plies": message.plies,
            "link": message.link,
            "sent_at": message.sent_at,
            "recent": [[key, seq] for key, seq in message.recent],
        }
    else:
        data = {"v": VERSION, "board": message.board, "game": message.game, "from": message.start}
    return json.dumps(data, separators=(",", ":")).encode()


def decode(topic: str, payload: bytes) -> Message:
    """The message on ``topic`` (state, journal or resend); raises MessageError."""
    kind = topic.rsplit("/", 1)[-1]
    if len(payload) > MAX_MESSAGE_BYTES:
        raise MessageError(f"a message of {len(payload)} bytes on {topic} is larger than any a board sends")
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        raise MessageError(f"the message on {topic} is not JSON") from None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise MessageError(f"the message on {topic} is not a version-{VERSION} message of a board or hub")
    board = _text(data, "board")
    game = _text(data, "game")
    if kind == "journal":
        entry = _text(data, "kind")
        if entry not in KINDS:
            raise MessageError(f"the journal message on {topic} tells of {entry[:20]!r}, not one of {KINDS}")
        body = data.get("body")
        if not isinstance(body, dict):
            raise MessageError(f"the journal message on {topic} has no body")
        return JournalMessage(board, game, _count(data, "seq", 1), entry, body, _text(data, "at", ""))
    if kind == "state":
        players = data.get("players") if isinstance(data.get("players"), dict) else {}
        score = data.get("score") if isinstance(data.get("score"), dict) else {}
        assert isinstance(players, dict) and isinstance(score, dict)
        result = data.get("result")
        return BoardState(
            board=board,
            game=game,
            rules=_text(data, "rules"),
            geometry=_text(data, "geometry"),
            seq=_count(data, "seq", 0),
            white=str(players.get("White", ""))[:80],
            black=str(players.get("Black", ""))[:80],
            cells=tuple(str(c)[:4] for c in _list(data, "cells")),
            score=tuple((str(k)[:20], int(v)) for k, v in score.items() if isinstance(v, int) and abs(v) < 10**9),
            turn=_text(data, "turn", ""),
            alerts=tuple(str(a)[:300] for a in _list(data, "alerts")),
            message=_text(data, "message", ""),
            result=None if result is None else str(result)[:20],
            plies=_count(data, "plies", 0),
            link=_text(data, "link", ""),
            sent_at=_seconds(data.get("sent_at")),
            recent=tuple(
                (item[0][:100], item[1])
                for item in _list(data, "recent")[:20]
                if isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], str)
                and isinstance(item[1], int)
                and not isinstance(item[1], bool)
                and item[1] >= 0
            ),
        )
    if kind == "resend":
        return ResendRequest(board, game, _count(data, "from", 1))
    raise MessageError(f"{topic} is not a topic of a board or hub")


def _text(data: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > 1000:
        raise MessageError(f"the message's {key!r} is missing or not a short text")
    return value


def _count(data: Mapping[str, Any], key: str, low: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise MessageError(f"the message's {key!r} is not a whole number of at least {low}")
    return value


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e12:
        return 0.0
    return float(value)


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > 10_000:
        raise MessageError(f"the message's {key!r} is not a list")
    return value
