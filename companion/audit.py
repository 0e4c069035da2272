"""The audit trail: every change made to a game after the fact (a corrected ply, players' names, a result).

A game's journal (:mod:`companion.journal`) says what changed and travels to
a hub; the audit trail says who asked for it: when, from which address, in
plain words. The game's page shows it and an exported record carries it as
comments. Written by the store in the same transaction as the change.

This module holds the entry value, migration 4 of the store (the audit
table and the archive's index) and the SQL the store runs.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

KINDS = ("correction", "players", "result")
"""What an audit entry can tell: a ply corrected (perhaps the game cut), players' names set, a result set."""

SCHEMA = """
CREATE TABLE audit (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    words TEXT NOT NULL,
    address TEXT NOT NULL,
    made_at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX games_by_rules ON games (game, id)
"""
"""Migration 4 of the store: the audit trail, and an index that lists one game's games newest first."""


@dataclass(frozen=True)
class AuditEntry:
    """One change made after the fact: its game, its number in the game, its kind, plain words, when, from where."""

    game_id: int
    seq: int
    kind: str
    words: str
    address: str
    made_at: str

    def comment(self) -> str:
        """The entry as a record comment (braces cannot occur inside one, so they become parentheses)."""
        text = f"{self.made_at[:19].replace('T', ' ')} UTC, from {self.address or 'an unknown address'}: {self.words}"
        return "{" + text.replace("{", "(").replace("}", ")") + "}"


def write(db: sqlite3.Connection, game_id: int, kind: str, words: str, address: str, at: str) -> int:
    """Append an entry to a game's audit trail inside the caller's transaction; returns its number."""
    last = db.execute("SELECT max(seq) FROM audit WHERE game_id = ?", (game_id,)).fetchone()[0]
    seq = int(last or 0) + 1
    db.execute(
        "INSERT INTO audit (game_id, seq, kind, words, address, made_at) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, seq, kind, words, address, at),
    )
    return seq


def entries(db: sqlite3.Connection, game_id: int) -> list[AuditEntry]:
    """A game's audit trail, oldest first."""
    rows = db.execute(
        "SELECT game_id, seq, kind, words, address, made_at FROM audit WHERE game_id = ? ORDER BY seq", (game_id,)
    ).fetchall()
    return [AuditEntry(int(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5])) for r in rows]
