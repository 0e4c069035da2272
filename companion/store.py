"""The game store: every game and every accepted ply, in one SQLite file.

The store is the companion's memory across crashes and power cuts. The live
game commits each accepted ply here *before* the LEDs change, so whatever the
players were shown is on disk; ``cascade run`` resumes the game still open.

- One file, standard library :mod:`sqlite3`, WAL journal with full syncs.
- A versioned schema: ``PRAGMA application_id`` marks the file as ours and
  ``PRAGMA user_version`` holds the schema version; :data:`MIGRATIONS` brings
  an older file up to date. A file that is not ours, or is newer than this
  program, is refused with a clear :class:`StoreError`.
- One writer: ``Store(path)`` takes the store's lock
  (:mod:`companion.store_lock`), so a second companion on the same store is
  refused with a :class:`StoreLockedError` naming the process that holds it.
  ``Store(path, read_only=True)`` reads beside the writer, takes no lock and
  never creates a file (:class:`StoreNotFoundError` when there is none).
- Checked on open (:mod:`companion.store_check`): a writer refuses a store
  whose rows are damaged with a :class:`StoreDamagedError` naming the game and
  ply, and a reader lists the damage (:meth:`Store.check`).
- A write that fails (read-only file, full disk) raises a
  :class:`StoreWriteError` saying what was not saved and what to do; what was
  committed before is kept. A damaged file raises a :class:`StoreDamagedError`.
- Plies are kept as text in the record notation of docs/rules.md, so that a game's
  record is its header plus its plies (see :func:`format_record`).
- Every change (a game started, a ply, an undo, a correction, a result) is also
  told in the game's journal, in the same transaction (:mod:`companion.journal`):
  what a board publishes to a hub, and how a hub's store is checked against it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from companion import audit, journal
from companion.audit import AuditEntry
from companion.errors import (
    StoreDamagedError,
    StoreError,
    StoreNotFoundError,
    StoreWriteError,
    UnknownGameError,
)
from companion.journal import Entry
from companion.store_check import GAME_NAMES, Damage, ply_damage, read_headers, replay_damage, row_damage
from companion.store_lock import WriterLock

APPLICATION_ID = 0x43415343  # "CASC"

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
    # 3: the journal of every game's changes, and how far each destination (a hub's broker) acknowledged it
    journal.SCHEMA,
    # 4: the audit trail of changes made after the fact, and an index to list one game's games quickly
    audit.SCHEMA,
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


# SQLite's primary result codes that the store tells apart (``error.sqlite_errorcode & 0xFF``)
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 3, 5, 6, 8, 10, 11, 13, 14, 26
_WRITE_CODES = (_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _FULL)


def _code(error: sqlite3.Error) -> int:
    return int(getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF


def _connect(path: str, read_only: bool) -> sqlite3.Connection:
    """The SQLite connection of a store: read-write (created when missing), or read-only on an existing file."""
    if read_only:
        return sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, check_same_thread=False, isolation_level=None)
    return sqlite3.connect(path, check_same_thread=False, isolation_level=None)


class Store:
    """The SQLite game store (see the module docstring). Safe to share between threads (one lock).

    ``Store(path)`` opens it to write (creating it, taking the writer's lock,
    refusing a damaged store); ``Store(path, read_only=True)`` opens an
    existing store to read beside a writer. ``refuse_damage=False`` opens to
    write a store whose games may not replay (a hub's, which keeps what the
    boards sent, corrections and all).
    """

    def __init__(self, path: str | os.PathLike[str], read_only: bool = False, refuse_damage: bool = True) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._lock = threading.Lock()
        self._writer: WriterLock | None = None
        self._db: sqlite3.Connection | None = None
        self._version = SCHEMA_VERSION
        memory = str(path) == ":memory:"
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a game store file; give a file with --store")
        if read_only:
            if memory or not self.path.exists():
                raise StoreNotFoundError(
                    f"there is no game store at {self.path}: check the path (a store is made by cascade run)"
                )
        elif not memory:
            self._make_folder()
            self._writer = WriterLock(self.path)
        try:
            self._db = _connect(str(path), read_only)
            self._prepare()
            if not read_only and refuse_damage:
                self._refuse_damage()
        except sqlite3.Error as error:
            self.close()
            raise self._open_failed(error) from error
        except BaseException:
            self.close()
            raise

    # -- opening and migrating ---------------------------------------------------------------

    def _make_folder(self) -> None:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreWriteError(
                f"cannot make the folder {folder} for the game store ({error.strerror or error}): "
                "make it yourself, or give another file with --store"
            ) from error

    def _prepare(self) -> None:
        db = self._connection
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
        self._version = int(version)
        if self.read_only:
            return
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
        # a store that cannot be written (read-only file, full disk) is found now, not at the first ply
        db.execute("BEGIN IMMEDIATE")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
        self._version = SCHEMA_VERSION

    def _refuse_damage(self) -> None:
        damage = self.check()
        if not damage:
            return
        more = f" (and {len(damage) - 1} more)" if len(damage) > 1 else ""
        raise StoreDamagedError(
            f"the game store {self.path} is damaged: {damage[0]}{more}; it was edited by hand or by a faulty "
            "program: `cascade games` lists its games and `cascade export` saves the sound ones (give them the "
            "same --store), then move the file away to start afresh"
        )

    def _open_failed(self, error: sqlite3.Error) -> StoreError:
        code = _code(error)
        if code in _WRITE_CODES:
            return self._write_failed(error, None)
        if code == _CANTOPEN:
            return StoreError(f"cannot open the game store {self.path} ({error}); check the path and its permissions")
        return StoreDamagedError(
            f"{self.path} is not a readable game store ({error}): it is damaged or not a store; "
            "give another file with --store, or move this one away"
        )

    def _write_failed(self, error: sqlite3.Error, what: str | None) -> StoreError:
        """The error to raise for a failed write: what happened, what was not saved, what to do."""
        code = _code(error)
        if code in (_CORRUPT, _NOTADB):
            return self._damaged(error)
        lost = f", so {what} was not saved (what was saved before is kept)" if what else ": it cannot be written"
        if code == _FULL:
            return StoreWriteError(f"the disk holding the game store {self.path} is full{lost}; free some space on it")
        if code in (_READONLY, _PERM, _CANTOPEN):
            return StoreWriteError(
                f"the game store {self.path} is read-only{lost}; make the file and its folder writable, "
                "or give another file with --store"
            )
        if code in (_BUSY, _LOCKED):
            return StoreWriteError(
                f"the game store {self.path} is busy{lost}; another program is writing to it: stop that program"
            )
        return StoreWriteError(f"writing to the game store {self.path} failed ({error}){lost}; check the disk")

    def _damaged(self, error: sqlite3.Error) -> StoreDamagedError:
        return StoreDamagedError(
            f"the game store {self.path} is damaged ({error}): move it away (or give another file with --store) "
            "and start afresh; `sqlite3 FILE .recover` may save its games"
        )

    @property
    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"the game store {self.path} is closed")
        return self._db

    @property
    def schema_version(self) -> int:
        """The schema version of the open file."""
        with self._reading() as db:
            return int(db.execute("PRAGMA user_version").fetchone()[0])

    @contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        """A write transaction; a failed write raises StoreWriteError saying that ``what`` was not saved."""
        with self._lock:
            db = self._connection
            if self.read_only:
                raise StoreWriteError(f"the game store {self.path} was opened to read only, so {what} was not saved")
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    yield db
                except BaseException:
                    self._rollback(db)
                    raise
                db.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback(db)
                raise self._write_failed(error, what) from error

    @staticmethod
    def _rollback(db: sqlite3.Connection) -> None:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back on its own (a full disk)
                db.execute("ROLLBACK")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, to read; a failed read raises StoreDamagedError or StoreError."""
        with self._lock:
            db = self._connection
            try:
                yield db
            except sqlite3.Error as error:
                if _code(error) in (_CORRUPT, _NOTADB):
                    raise self._damaged(error) from error
                raise StoreError(
                    f"reading the game store {self.path} failed ({error}); check the disk, then try again"
                ) from error

    def close(self) -> None:
        """Close the file (committed plies are already on disk) and free the writer's lock."""
        with self._lock:
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.close()
                self._db = None
            if self._writer is not None:
                self._writer.release()
                self._writer = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------------

    def new_game(self, game: str, geometry: str, headers: Mapping[str, str] | None = None) -> int:
        """Start a game; returns its number."""
        if game not in GAME_NAMES:
            raise StoreError(f"'{game}' is not a game; use one of {', '.join(GAME_NAMES)}")
        with self._transaction("the new game") as db:
            at = _now()
            cursor = db.execute(
                "INSERT INTO games (game, geometry, headers, started_at) VALUES (?, ?, ?, ?)",
                (game, geometry, json.dumps(dict(headers or {})), at),
            )
            game_id = int(cursor.lastrowid or 0)
            body = {"game": game, "geometry": geometry, "headers": dict(headers or {}), "started_at": at}
            journal.write(db, game_id, "start", body, at)
            return game_id

    def add_ply(self, game_id: int, ply: str, diagram: str = "", jpeg: bytes | None = None) -> int:
        """Commit one accepted ply (durably, before returning); returns its number."""
        with self._transaction(f"the ply {ply} of game {game_id}") as db:
            self._require_open(db, game_id)
            last = db.execute("SELECT max(number) FROM plies WHERE game_id = ?", (game_id,)).fetchone()[0]
            number = int(last or 0) + 1
            at = _now()
            db.execute(
                "INSERT INTO plies (game_id, number, ply, diagram, committed_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, number, ply, diagram, at),
            )
            if jpeg is not None:
                db.execute("INSERT INTO ply_images (game_id, number, jpeg) VALUES (?, ?, ?)", (game_id, number, jpeg))
            journal.write(db, game_id, "ply", {"number": number, "ply": ply, "diagram": diagram}, at)
            return number

    def replace_ply(self, game_id: int, number: int, ply: str, diagram: str = "") -> None:
        """Correct ply ``number`` of a game to ``ply`` in place (a correction replaces; it never branches).

        An ended game can be corrected too (a hub applies a board's corrections of logged games).
        """
        with self._transaction(f"the correction of ply {number} of game {game_id}") as db:
            self._require_game(db, game_id)
            changed = db.execute(
                "UPDATE plies SET ply = ?, diagram = ?, committed_at = ? WHERE game_id = ? AND number = ?",
                (ply, diagram, _now(), game_id, number),
            ).rowcount
            if not changed:
                raise UnknownGameError(f"game {game_id} has no ply {number} to correct; `cascade games` lists them")
            journal.write(db, game_id, "correction", {"number": number, "ply": ply, "diagram": diagram}, _now())

    def take_back(self, game_id: int, count: int = 1) -> int:
        """Remove the last ``count`` plies of a game (an undo, or a correction's cut); returns how many were removed.

        The live game takes back only plies of its open game; a correction may cut an ended one.
        """
        with self._transaction(f"the undo in game {game_id}") as db:
            self._require_game(db, game_id)
            rows = db.execute(
                "SELECT number FROM plies WHERE game_id = ? ORDER BY number DESC LIMIT ?", (game_id, count)
            ).fetchall()
            for (number,) in rows:
                db.execute("DELETE FROM plies WHERE game_id = ? AND number = ?", (game_id, number))
            if rows:
                left = _ply_count(db, game_id)
                journal.write(db, game_id, "undo", {"count": len(rows), "plies": left}, _now())
            return len(rows)

    def add_alert(self, game_id: int, message: str) -> None:
        """Keep in a game's journal an error its board showed (the words the players saw), after its plies so far."""
        with self._transaction(f"the alert in game {game_id}") as db:
            self._require_game(db, game_id)
            plies = _ply_count(db, game_id)
            journal.write(db, game_id, "alert", {"message": message, "plies": plies}, _now())

    def end_game(self, game_id: int, result: str) -> None:
        """Close a game with its result (``1-0``, ``0-1``, ``1/2-1/2`` or words); an ended game's result changes."""
        with self._transaction(f"the end of game {game_id}") as db:
            self._require_game(db, game_id)
            at = _now()
            db.execute(
                "UPDATE games SET ended_at = coalesce(ended_at, ?), result = ? WHERE id = ?", (at, result, game_id)
            )
            journal.write(db, game_id, "result", {"result": result}, at)

    def amend(
        self,
        game_id: int,
        expected: Sequence[str],
        changes: Mapping[int, tuple[str, str]],
        keep: int,
        result: str | None,
        words: str,
        address: str,
    ) -> None:
        """Apply a correction worked out by :func:`companion.amend.amend`, in one transaction.

        ``expected`` is the game's plies the correction was worked out from
        (refused with a StoreError if the game changed meanwhile); ``changes``
        maps ply numbers to their new text and diagram; plies after ``keep``
        are cut off; ``result`` is the ended game's new result (None: the game
        is open, or its result stays). The journal tells every change (so a
        hub follows) and the audit trail keeps ``words`` and ``address``.
        """
        with self._transaction(f"the correction of game {game_id}") as db:
            ended = self._require_game(db, game_id)
            stored = [
                row[0] for row in db.execute("SELECT ply FROM plies WHERE game_id = ? ORDER BY number", (game_id,))
            ]
            if stored != list(expected):
                raise StoreError(
                    f"game {game_id} changed while the correction was worked out: look again, then correct"
                )
            at = _now()
            for number, (ply, diagram) in sorted(changes.items()):
                db.execute(
                    "UPDATE plies SET ply = ?, diagram = ?, committed_at = ? WHERE game_id = ? AND number = ?",
                    (ply, diagram, at, game_id, number),
                )
                journal.write(db, game_id, "correction", {"number": number, "ply": ply, "diagram": diagram}, at)
            if keep < len(stored):
                db.execute("DELETE FROM plies WHERE game_id = ? AND number > ?", (game_id, keep))
                journal.write(db, game_id, "undo", {"count": len(stored) - keep, "plies": keep}, at)
            if ended and result is not None:
                old = db.execute("SELECT result FROM games WHERE id = ?", (game_id,)).fetchone()[0]
                if old != result:
                    db.execute("UPDATE games SET result = ? WHERE id = ?", (result, game_id))
                    journal.write(db, game_id, "result", {"result": result}, at)
            audit.write(db, game_id, "correction", words, address, at)

    def set_players(self, game_id: int, names: Mapping[str, str], address: str) -> None:
        """Set players' names (``White``, ``Black`` headers) of a game; told in the journal and the audit trail."""
        with self._transaction(f"the players' names of game {game_id}") as db:
            self._require_game(db, game_id)
            raw = db.execute("SELECT headers FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            headers = read_headers(raw) or {}
            changed = {k: v for k, v in names.items() if headers.get(k, "") != v}
            if not changed:
                return
            headers.update(changed)
            for key in [k for k, v in headers.items() if v == ""]:
                del headers[key]
            at = _now()
            db.execute("UPDATE games SET headers = ? WHERE id = ?", (json.dumps(headers), game_id))
            journal.write(db, game_id, "headers", {"headers": dict(changed)}, at)
            words = "; ".join(f"{k} set to {v!r}" if v else f"{k} cleared" for k, v in changed.items())
            audit.write(db, game_id, "players", words, address, at)

    def set_result(self, game_id: int, result: str, address: str) -> None:
        """Set the result of an ended game (an adjudication); told in the journal and the audit trail."""
        with self._transaction(f"the result of game {game_id}") as db:
            if not self._require_game(db, game_id):
                raise StoreError(f"game {game_id} is still being played: its result comes from the game")
            old = db.execute("SELECT result FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            if old == result:
                return
            at = _now()
            db.execute("UPDATE games SET result = ? WHERE id = ?", (result, game_id))
            journal.write(db, game_id, "result", {"result": result}, at)
            audit.write(db, game_id, "result", f"result set from {old or '*'} to {result}", address, at)

    def _require_game(self, db: sqlite3.Connection, game_id: int) -> bool:
        """Raise UnknownGameError when there is no such game; True when it has ended."""
        row = (
            db.execute("SELECT ended_at FROM games WHERE id = ?", (game_id,)).fetchone() if _is_rowid(game_id) else None
        )
        if row is None:
            raise UnknownGameError(f"there is no game {game_id} in {self.path}; `cascade games` lists them")
        return row[0] is not None

    def _require_open(self, db: sqlite3.Connection, game_id: int) -> None:
        if self._require_game(db, game_id):
            raise StoreError(f"game {game_id} has ended; start a new game")

    # -- reading ---------------------------------------------------------------------------------

    _GAME_QUERY = (
        "SELECT g.id, g.game, g.geometry, g.headers, g.started_at, g.ended_at, g.result, "
        "(SELECT count(*) FROM plies p WHERE p.game_id = g.id) FROM games g"
    )

    @property
    def _empty(self) -> bool:
        """True for an empty SQLite file opened to read (no tables yet: no games)."""
        return self._version == 0

    def games(self) -> list[GameRow]:
        """Every game, oldest first."""
        if self._empty:
            return []
        with self._reading() as db:
            rows = db.execute(self._GAME_QUERY + " ORDER BY g.id").fetchall()
        return [_game_row(row) for row in rows]

    def game(self, game_id: int) -> GameRow:
        """One game; raises UnknownGameError."""
        row = None
        if not self._empty and _is_rowid(game_id):
            with self._reading() as db:
                row = db.execute(self._GAME_QUERY + " WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGameError(f"there is no game {game_id} in {self.path}; `cascade games` lists them")
        return _game_row(row)

    def page(
        self,
        game: str | None = None,
        player: str | None = None,
        before: int | None = None,
        after: int | None = None,
        limit: int = 50,
    ) -> list[GameRow]:
        """One page of the archive, newest first: at most ``limit`` games numbered below ``before`` (or, going
        back towards the newest, the ``limit`` games just above ``after``), of ``game`` and with a player whose
        name holds ``player`` (any case). Keyset paging: as fast on the last page of 10,000 games as on the first.
        """
        if self._empty:
            return []
        where, args = _filters(game, player)
        if after is not None:
            where.append("g.id > ?")
            args.append(after)
        elif before is not None:
            where.append("g.id < ?")
            args.append(before)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        order = "ASC" if after is not None and before is None else "DESC"
        with self._reading() as db:
            rows = db.execute(f"{self._GAME_QUERY}{clause} ORDER BY g.id {order} LIMIT ?", (*args, limit)).fetchall()
        found = [_game_row(row) for row in rows]
        return sorted(found, key=lambda r: -r.id)

    def count(self, game: str | None = None, player: str | None = None) -> int:
        """How many games the archive holds of ``game`` and with ``player`` (see :meth:`page`)."""
        if self._empty:
            return 0
        where, args = _filters(game, player)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        with self._reading() as db:
            return int(db.execute(f"SELECT count(*) FROM games g{clause}", args).fetchone()[0])

    def audit(self, game_id: int) -> list[AuditEntry]:
        """A game's audit trail (corrections, names and results set after the fact), oldest first."""
        if self._version < 4:
            return []
        with self._reading() as db:
            return audit.entries(db, game_id)

    def open_game(self) -> GameRow | None:
        """The most recent game that has not ended, if any (the one to resume)."""
        if self._empty:
            return None
        with self._reading() as db:
            row = db.execute(self._GAME_QUERY + " WHERE g.ended_at IS NULL ORDER BY g.id DESC LIMIT 1").fetchone()
        return None if row is None else _game_row(row)

    def plies(self, game_id: int) -> list[StoredPly]:
        """The plies of a game, in order."""
        self.game(game_id)
        with self._reading() as db:
            rows = db.execute(
                "SELECT game_id, number, ply, diagram, committed_at FROM plies WHERE game_id = ? ORDER BY number",
                (game_id,),
            ).fetchall()
        return [StoredPly(*row) for row in rows]

    def image(self, game_id: int, number: int) -> bytes | None:
        """The JPEG stored with a ply, if one was."""
        if self._version < 2:
            return None
        with self._reading() as db:
            row = db.execute(
                "SELECT jpeg FROM ply_images WHERE game_id = ? AND number = ?", (game_id, number)
            ).fetchone()
        return None if row is None else bytes(row[0])

    def image_numbers(self, game_id: int) -> list[int]:
        """The numbers of a game's plies that have a JPEG stored with them."""
        if self._version < 2:
            return []
        with self._reading() as db:
            rows = db.execute("SELECT number FROM ply_images WHERE game_id = ? ORDER BY number", (game_id,)).fetchall()
        return [int(row[0]) for row in rows]

    def journal(self, game_id: int, after: int = 0, limit: int = -1) -> list[Entry]:
        """A game's journal entries numbered above ``after``, in order (at most ``limit``; -1: all)."""
        if self._version < 3:
            return []
        with self._reading() as db:
            return journal.entries(db, game_id, after, limit)

    def last_entry(self, game_id: int) -> int:
        """The number of a game's latest journal entry (0: none)."""
        if self._version < 3:
            return 0
        with self._reading() as db:
            return journal.last_seq(db, game_id)

    def unsent(self, destination: str, after: tuple[int, int] = (0, 0), limit: int = 64) -> list[Entry]:
        """Journal entries after ``(game_id, seq)`` that ``destination`` has not acknowledged, oldest game first."""
        if self._version < 3:
            return []
        with self._reading() as db:
            return journal.unsent(db, destination, after, limit)

    def sent_marks(self, destination: str) -> dict[int, int]:
        """How far ``destination`` acknowledged each game's journal (game number -> entry number)."""
        if self._version < 3:
            return {}
        with self._reading() as db:
            return journal.sent_marks(db, destination)

    def mark_sent(self, destination: str, marks: Mapping[int, int]) -> None:
        """Record how far ``destination`` acknowledged each game's journal (marks never move back)."""
        if marks:
            with self._transaction(f"what {destination} acknowledged") as db:
                journal.mark_sent(db, destination, marks)

    def check(self, game_id: int | None = None) -> tuple[Damage, ...]:
        """The damaged places of the store's rows (see :mod:`companion.store_check`), first damage of each game.

        Every game (or only ``game_id``) is checked for unreadable rows and gaps
        in its ply numbers; the open games (or ``game_id``) are also replayed
        through the rules.
        """
        if self._empty:
            return ()
        where = "" if game_id is None else " WHERE {} = ?"
        args: tuple[int, ...] = () if game_id is None else (game_id,)
        with self._reading() as db:
            db.execute("BEGIN")
            try:
                games = db.execute(
                    "SELECT id, game, geometry, headers, ended_at FROM games" + where.format("id") + " ORDER BY id",
                    args,
                ).fetchall()
                plies = db.execute(
                    "SELECT game_id, number, ply FROM plies" + where.format("game_id") + " ORDER BY game_id, number",
                    args,
                ).fetchall()
            finally:
                db.execute("COMMIT")
        by_game: dict[int, list[tuple[object, object]]] = {}
        for owner, number, text in plies:
            by_game.setdefault(owner, []).append((number, text))
        found: list[Damage] = []
        for number, game, geometry, headers, ended_at in games:
            rows = by_game.get(number, [])
            damage = row_damage(number, game, geometry, headers) or ply_damage(number, game, geometry, rows)
            if damage is None and (game_id is not None or ended_at is None):
                texts = [str(text) for _, text in rows]
                damage = replay_damage(number, game, geometry, read_headers(headers) or {}, texts)
            if damage is not None:
                found.append(damage)
        return tuple(found)


def _filters(game: str | None, player: str | None) -> tuple[list[str], list[object]]:
    """The archive's WHERE conditions and their arguments."""
    where: list[str] = []
    args: list[object] = []
    if game:
        where.append("g.game = ?")
        args.append(game)
    if player:
        names = (
            "CASE WHEN json_valid(g.headers) THEN lower(coalesce(json_extract(g.headers, '$.White'), '') || ' / ' || "
            "coalesce(json_extract(g.headers, '$.Black'), '')) ELSE '' END"
        )
        where.append(f"instr({names}, ?) > 0")
        args.append(player.lower())
    return where, args


def _ply_count(db: sqlite3.Connection, game_id: int) -> int:
    """How many plies a game holds now, inside the caller's transaction."""
    return int(db.execute("SELECT count(*) FROM plies WHERE game_id = ?", (game_id,)).fetchone()[0])


def _is_rowid(value: int) -> bool:
    return isinstance(value, int) and -(2**63) <= value < 2**63


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


def _game_row(row: Sequence[object]) -> GameRow:
    headers = read_headers(row[3]) or {}  # damaged headers read as none; Store.check names them
    return GameRow(
        id=int(row[0]),  # type: ignore[call-overload]
        game=str(row[1]),
        geometry=str(row[2]),
        headers=tuple(headers.items()),
        started_at=str(row[4]),
        ended_at=None if row[5] is None else str(row[5]),
        result=None if row[6] is None else str(row[6]),
        ply_count=int(row[7]),  # type: ignore[call-overload]
    )


def format_record(headers: Sequence[tuple[str, str]], plies: Sequence[str]) -> str:
    """A record in the text format of docs/rules.md: header lines (values escaped), then numbered moves of two plies."""
    from referee.records import header_line

    lines = [header_line(key, value) for key, value in headers]
    for start in range(0, len(plies), 2):
        pair = plies[start : start + 2]
        lines.append(f"{start // 2 + 1}. " + "  ".join(pair))
    return "\n".join(lines) + "\n"


def export_record(store: Store, game_id: int) -> str:
    """The record of one game, checked by replaying it through the referee and written by its record writer.

    A result set on the page for a game the rules did not decide is written as
    its ``Result`` header; the game's audit trail (its corrections) follows the
    headers as comments, ``{...}``, which records may hold (docs/rules.md).

    Raises StoreDamagedError naming the ply when the game's rows are damaged.
    """
    from referee.records import header_line, read_record, replay, write_record

    row = store.game(game_id)
    damage = store.check(game_id)
    if damage:
        at = f" at ply {damage[0].ply}" if damage[0].ply else ""
        raise StoreDamagedError(
            f"game {game_id} in the game store {store.path} is damaged{at}: {damage[0].what}; its record cannot be "
            "written, the store's other games are not touched (`cascade games` lists them)"
        )
    headers = dict(row.headers)
    headers.setdefault("Game", row.game)
    headers.setdefault("Date", row.started_at[:10].replace("-", "."))
    ordered = [("Game", headers.pop("Game")), *sorted(headers.items(), key=lambda kv: _HEADER_ORDER.get(kv[0], 99))]
    text = format_record(ordered, [p.ply for p in store.plies(game_id)])
    game = replay(read_record(text))
    written = write_record(game)
    extra = []
    if not game.is_over and row.result in ("1-0", "0-1", "1/2-1/2"):
        extra.append(header_line("Result", row.result))  # set on the page: an adjudicated game
    extra.extend(entry.comment() for entry in store.audit(game_id))
    if not extra:
        return written
    lines = written.split("\n")
    first_move = next((i for i, line in enumerate(lines) if not line.startswith("[")), len(lines))
    return "\n".join([*lines[:first_move], *extra, *lines[first_move:]])


_HEADER_ORDER = {
    key: i
    for i, key in enumerate(
        ("Board", "Size", "Top", "Rows", "Width", "Height", "Variant", "First", "White", "Black", "Date", "Result")
    )
}
