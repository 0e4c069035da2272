"""The public feed: each game's record (the format of docs/rules.md) as it stands, optionally some minutes late.

Pure: a stored game and its plies in, record text out. A record is written
from the plies as they are, never replayed, so a ply the rules refuse (or a
corrected one) never stops a game's feed; a correction replaces its ply in
place. With a delay, a ply shows once it has been on the hub for that long,
and the result once the game has been over for that long (``*`` until then).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from companion.store import GameRow, StoredPly, format_record

FIRST_HEADERS = ("Game", "Event", "Table", "Board", "White", "Black", "Date")
HIDDEN_HEADERS = ("Origin",)


@dataclass(frozen=True)
class FeedGame:
    """A game as the feed shows it now: the hub's number, its board, the plies shown and its result."""

    game_id: int
    board: str
    white: str
    black: str
    plies: tuple[str, ...]
    result: str
    record: str


def shown_until(now: datetime, delay_min: float) -> str:
    """The latest store time (ISO, UTC) that the feed shows with a delay of ``delay_min`` minutes."""
    return (now - timedelta(minutes=delay_min)).isoformat(timespec="milliseconds")


def feed_game(row: GameRow, plies: Sequence[StoredPly], until: str | None = None) -> FeedGame:
    """The game as the feed shows it: only what the hub had at ``until`` (an ISO time; None: everything)."""
    shown = [p.ply for p in plies if until is None or p.committed_at <= until]
    ended = row.ended_at is not None and (until is None or row.ended_at <= until)
    result = (row.result or "*") if ended else "*"
    headers = dict(row.headers)
    headers.setdefault("Game", row.game)
    headers.setdefault("Date", row.started_at[:10].replace("-", "."))
    for key in HIDDEN_HEADERS:
        headers.pop(key, None)
    headers.pop("Result", None)
    ordered = [(k, headers.pop(k)) for k in FIRST_HEADERS if k in headers]
    ordered += sorted(headers.items())
    ordered.append(("Result", result))
    record = format_record(ordered, shown)
    return FeedGame(row.id, row.header("Table"), row.header("White"), row.header("Black"), tuple(shown), result, record)
