"""The journal: every change of every stored game, numbered within its game, written with the change itself.

A game's plies say where it stands; its journal says how it got there: the
start, each accepted ply, each undo, each correction of a ply, the result,
any players' names set afterwards and each error the board showed,
numbered 1, 2, 3… within the game. The store writes a journal entry in the
same SQLite transaction as the change it tells of, so a crash can never keep
one without the other. A board that publishes its games to a hub sends its
journal, in order, and remembers (per destination) how far the broker has
acknowledged it; a hub that applies each entry once, in order, to its own
store ends with the same journal, entry for entry.

This module holds the entry value and the SQL the store runs inside its
transactions; :class:`companion.store.Store` is the one that calls it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

KINDS = ("start", "ply", "undo", "correction", "result", "headers", "alert")
"""What a journal entry can tell: a game started, a ply accepted, plies taken back, a ply corrected, the end
(or a result set afterwards), headers set afterwards (the players' names), an error the board showed."""

SCHEMA = """
CREATE TABLE journal (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    written_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE journal_sent (
    destination TEXT NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    PRIMARY KEY (destination, game_id)
);
INSERT INTO journal (game_id, seq, kind, body, written_at)
    SELECT id, 1, 'start', json_object('game', game, 'geometry', geometry,
        'headers', json(CASE WHEN json_valid(headers) THEN headers ELSE '{}' END),
        'started_at', started_at), started_at FROM games;
INSERT INTO journal (game_id, seq, kind, body, written_at)
    SELECT game_id, number + 1, 'ply', json_object('number', number, 'ply', ply, 'diagram', diagram),
        committed_at FROM plies;
INSERT INTO journal (game_id, seq, kind, body, written_at)
    SELECT g.id, (SELECT count(*) FROM plies p WHERE p.game_id = g.id) + 2, 'result',
        json_object('result', g.result), g.ended_at FROM games g WHERE g.ended_at IS NOT NULL
"""
"""Migration 3 of the store: the journal, the destinations' acknowledged marks, and the journal of the games
stored before (told as their start, their plies and their result)."""


@dataclass(frozen=True)
class Entry:
    """One journal entry: the game (its number in this store), its number within the game, what it tells.

    ``body`` holds the change: for ``start`` the game, geometry, headers and
    start time; for ``ply`` and ``correction`` the ply's number, its text and
    the diagram after it; for ``undo`` how many plies were taken back and how
    many are left; for ``result`` the result; for ``headers`` the headers
    set (an empty value removes one); for ``alert`` the error the board
    showed, in the words the players saw, and how many plies stood then.
    """

    game_id: int
    seq: int
    kind: str
    body: Mapping[str, Any]
    written_at: str


def write(db: sqlite3.Connection, game_id: int, kind: str, body: Mapping[str, Any], at: str) -> int:
    """Append an entry to a game's journal inside the caller's transaction; returns its number."""
    last = db.execute("SELECT max(seq) FROM journal WHERE game_id = ?", (game_id,)).fetchone()[0]
    seq = int(last or 0) + 1
    db.execute(
        "INSERT INTO journal (game_id, seq, kind, body, written_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, seq, kind, json.dumps(dict(body), separators=(",", ":")), at),
    )
    return seq


def entries(db: sqlite3.Connection, game_id: int, after: int = 0, limit: int = -1) -> list[Entry]:
    """A game's entries numbered above ``after``, in order (at most ``limit``; -1: all)."""
    rows = db.execute(
        "SELECT game_id, seq, kind, body, written_at FROM journal WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
        (game_id, after, limit),
    ).fetchall()
    return [_entry(row) for row in rows]


def last_seq(db: sqlite3.Connection, game_id: int) -> int:
    """The number of a game's latest entry (0: none)."""
    return int(db.execute("SELECT max(seq) FROM journal WHERE game_id = ?", (game_id,)).fetchone()[0] or 0)


def unsent(db: sqlite3.Connection, destination: str, after: tuple[int, int], limit: int) -> list[Entry]:
    """Entries after ``(game_id, seq)`` not yet acknowledged by ``destination``, in game then seq order."""
    game_id, seq = after
    rows = db.execute(
        "SELECT j.game_id, j.seq, j.kind, j.body, j.written_at FROM journal j "
        "LEFT JOIN journal_sent s ON s.destination = ? AND s.game_id = j.game_id "
        "WHERE j.seq > coalesce(s.seq, 0) AND (j.game_id > ? OR (j.game_id = ? AND j.seq > ?)) "
        "ORDER BY j.game_id, j.seq LIMIT ?",
        (destination, game_id, game_id, seq, limit),
    ).fetchall()
    return [_entry(row) for row in rows]


def sent_marks(db: sqlite3.Connection, destination: str) -> dict[int, int]:
    """How far ``destination`` has acknowledged each game's journal: game number -> last entry number."""
    rows = db.execute("SELECT game_id, seq FROM journal_sent WHERE destination = ?", (destination,)).fetchall()
    return {int(game): int(seq) for game, seq in rows}


def mark_sent(db: sqlite3.Connection, destination: str, marks: Mapping[int, int]) -> None:
    """Record that ``destination`` acknowledged each game's journal up to the entry given (never moving back)."""
    for game_id, seq in marks.items():
        db.execute(
            "INSERT INTO journal_sent (destination, game_id, seq) VALUES (?, ?, ?) "
            "ON CONFLICT (destination, game_id) DO UPDATE SET seq = max(seq, excluded.seq)",
            (destination, game_id, seq),
        )


def _entry(row: Sequence[Any]) -> Entry:
    try:
        body = json.loads(row[3])
    except (ValueError, RecursionError):
        body = {}
    return Entry(int(row[0]), int(row[1]), str(row[2]), body if isinstance(body, dict) else {}, str(row[4]))
