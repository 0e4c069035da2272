"""The game store: every game and every accepted ply, in one SQLite file.

The store is the companion's memory across crashes and power cuts. The live
game commits each accepted ply here *before* the LEDs change, so whatever the
players were shown is on disk; ``cascade run`` resumes the game still open.

- One file, standard library :mod:`sqlite3`, WAL journal with full syncs.
- A versioned schema: ``PRAGMA application_id`` marks the file as ours and
  ``PRAGMA user_version`` holds the schema version; :data:`MIGRATIONS` brings
  an older file up to date. A file that is not ours, or is newer than this
  program, is refused with a clear :class:`StoreError`.
- Plies are kept as text in the record notation of RULES.md, so that a game's
  record is its header plus its plies (see :func:`format_record`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import StoreError, UnknownGameError

APPLICATION_ID = 0x43415343  # "CASC"
GAME_NAMES = ("cascade", "cascades", "kaskade")

MIGRATIONS: tuple[str, ...] = (
    # 1: games and their plies
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        geometry TEXT NOT NULL,
        headers TEXT NOT NULL DEFAULT '{}',
        started_at TEXT NOT NULL,
        ended_at TEXT,
        result TEXT
    );
    CREATE TABLE plies (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        ply TEXT NOT NULL,
        diagram TEXT NOT NULL DEFAULT '',
        committed_at TEXT NOT NULL,
        PRIMARY KEY (game_id, number)
    );
    """,
    # 2: an optional photograph of the board at each accepted ply
    """
    CREATE TABLE ply_images (
        game_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        jpeg BLOB NOT NULL,
        PRIMARY KEY (game_id, number),
        FOREIGN KEY (game_id, number) REFERENCES plies(game_id, number) ON DELETE CASCADE
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_store_path() -> Path:
    """``$CASCADE_STORE``, or ``games.sqlite3`` in the user's data folder."""
    chosen = os.environ.get("CASCADE_STORE")
    if chosen:
        return Path(chosen)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "cascade" / "games.sqlite3"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class GameRow:
    """One game as stored: what is played, on which board, and how it ended."""

    id: int
    game: str
    geometry: str
    headers: tuple[tuple[str, str], ...]
    started_at: str
    ended_at: str | None
    result: str | None
    ply_count: int

    @property
    def is_open(self) -> bool:
        """True while the game has not ended."""
        return self.ended_at is None

    def header(self, key: str, default: str = "") -> str:
        """The value of one header, or ``default``."""
        return dict(self.headers).get(key, default)


@dataclass(frozen=True)
class StoredPly:
    """One accepted ply: its number in the game (from 1), its record text and the diagram after it."""

    game_id: int
    number: int
    ply: str
    diagram: str
    committed_at: str


class Store:
    """The SQLite game store. Safe to share between threads (one lock)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreError(
                f"cannot open the game store {path}: {error}; check the path and its permissions"
            ) from error
        try:
            self._prepare()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise StoreError(
                f"{path} is not a readable game store ({error}); give another file with --store, or move this one away"
            ) from error
        except StoreError:
            self._db.close()
            raise

    # -- opening and migrating ---------------------------------------------------------------

    def _prepare(self) -> None:
        db = self._db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        if app_id != APPLICATION_ID and (app_id != 0 or tables or version):
            raise StoreError(
                f"{self.path} is an SQLite file of another program, not a game store; give another file with --store"
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer version of the companion (schema {version}, "
                f"this one knows {SCHEMA_VERSION}); update the companion"
            )
        if str(self.path) != ":memory:":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        for number in range(version, SCHEMA_VERSION):
            db.execute("BEGIN IMMEDIATE")
            for statement in _statements(MIGRATIONS[number]):
                db.execute(statement)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {number + 1}")
            db.execute("COMMIT")

    @property
    def schema_version(self) -> int:
        """The schema version of the open file."""
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the file (committed plies are already on disk)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------------

    def new_game(self, game: str, geometry: str, headers: Mapping[str, str] | None = None) -> int:
        """Start a game; returns its number."""
        if game not in GAME_NAMES:
            raise StoreError(f"'{game}' is not a game; use one of {', '.join(GAME_NAMES)}")
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, geometry, headers, started_at) VALUES (?, ?, ?, ?)",
                (game, geometry, json.dumps(dict(headers or {})), _now()),
            )
            return int(cursor.lastrowid or 0)

    def add_ply(self, game_id: int, ply: str, diagram: str = "", jpeg: bytes | None = None) -> int:
        """Commit one accepted ply (durably, before returning); returns its number."""
        with self._transaction() as db:
            self._require_open(db, game_id)
            last = db.execute("SELECT max(number) FROM plies WHERE game_id = ?", (game_id,)).fetchone()[0]
            number = int(last or 0) + 1
            db.execute(
                "INSERT INTO plies (game_id, number, ply, diagram, committed_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, number, ply, diagram, _now()),
            )
            if jpeg is not None:
                db.execute("INSERT INTO ply_images (game_id, number, jpeg) VALUES (?, ?, ?)", (game_id, number, jpeg))
            return number

    def take_back(self, game_id: int, count: int = 1) -> int:
        """Remove the last ``count`` plies of an open game (an undo); returns how many were removed."""
        with self._transaction() as db:
            self._require_open(db, game_id)
            rows = db.execute(
                "SELECT number FROM plies WHERE game_id = ? ORDER BY number DESC LIMIT ?", (game_id, count)
            ).fetchall()
            for (number,) in rows:
                db.execute("DELETE FROM plies WHERE game_id = ? AND number = ?", (game_id, number))
            return len(rows)

    def end_game(self, game_id: int, result: str) -> None:
        """Close a game with its result (``1-0``, ``0-1``, ``1/2-1/2`` or words)."""
        with self._transaction() as db:
            self._require_open(db, game_id)
            db.execute("UPDATE games SET ended_at = ?, result = ? WHERE id = ?", (_now(), result, game_id))

    def _require_open(self, db: sqlite3.Connection, game_id: int) -> None:
        row = db.execute("SELECT ended_at FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(f"there is no game {game_id} in {self.path}; `cascade games` lists them")
        if row[0] is not None:
            raise StoreError(f"game {game_id} has ended; start a new game")

    # -- reading ---------------------------------------------------------------------------------

    _GAME_QUERY = (
        "SELECT g.id, g.game, g.geometry, g.headers, g.started_at, g.ended_at, g.result, "
        "(SELECT count(*) FROM plies p WHERE p.game_id = g.id) FROM games g"
    )

    def games(self) -> list[GameRow]:
        """Every game, oldest first."""
        with self._lock:
            rows = self._db.execute(self._GAME_QUERY + " ORDER BY g.id").fetchall()
        return [_game_row(row) for row in rows]

    def game(self, game_id: int) -> GameRow:
        """One game; raises UnknownGameError."""
        with self._lock:
            row = self._db.execute(self._GAME_QUERY + " WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(f"there is no game {game_id} in {self.path}; `cascade games` lists them")
        return _game_row(row)

    def open_game(self) -> GameRow | None:
        """The most recent game that has not ended, if any (the one to resume)."""
        with self._lock:
            row = self._db.execute(self._GAME_QUERY + " WHERE g.ended_at IS NULL ORDER BY g.id DESC LIMIT 1").fetchone()
        return None if row is None else _game_row(row)

    def plies(self, game_id: int) -> list[StoredPly]:
        """The plies of a game, in order."""
        self.game(game_id)
        with self._lock:
            rows = self._db.execute(
                "SELECT game_id, number, ply, diagram, committed_at FROM plies WHERE game_id = ? ORDER BY number",
                (game_id,),
            ).fetchall()
        return [StoredPly(*row) for row in rows]

    def image(self, game_id: int, number: int) -> bytes | None:
        """The JPEG stored with a ply, if one was."""
        with self._lock:
            row = self._db.execute(
                "SELECT jpeg FROM ply_images WHERE game_id = ? AND number = ?", (game_id, number)
            ).fetchone()
        return None if row is None else bytes(row[0])


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


def _game_row(row: Sequence[object]) -> GameRow:
    headers = json.loads(str(row[3]) or "{}")
    return GameRow(
        id=int(row[0]),  # type: ignore[call-overload]
        game=str(row[1]),
        geometry=str(row[2]),
        headers=tuple((str(k), str(v)) for k, v in headers.items()),
        started_at=str(row[4]),
        ended_at=None if row[5] is None else str(row[5]),
        result=None if row[6] is None else str(row[6]),
        ply_count=int(row[7]),  # type: ignore[call-overload]
    )


def format_record(headers: Sequence[tuple[str, str]], plies: Sequence[str]) -> str:
    """A record in the text format of RULES.md: header lines, then numbered moves of two plies."""
    lines = [f'[{key} "{value}"]' for key, value in headers]
    for start in range(0, len(plies), 2):
        pair = plies[start : start + 2]
        lines.append(f"{start // 2 + 1}. " + "  ".join(pair))
    return "\n".join(lines) + "\n"


def export_record(store: Store, game_id: int) -> str:
    """The record of one game, checked by replaying it through the referee and written by its record writer."""
    from referee.records import read_record, replay, write_record

    row = store.game(game_id)
    headers = dict(row.headers)
    headers.setdefault("Game", row.game)
    headers.setdefault("Date", row.started_at[:10].replace("-", "."))
    ordered = [("Game", headers.pop("Game")), *sorted(headers.items(), key=lambda kv: _HEADER_ORDER.get(kv[0], 99))]
    text = format_record(ordered, [p.ply for p in store.plies(game_id)])
    return write_record(replay(read_record(text)))


_HEADER_ORDER = {
    key: i
    for i, key in enumerate(
        ("Board", "Size", "Top", "Rows", "Width", "Height", "Variant", "First", "White", "Black", "Date", "Result")
    )
}
