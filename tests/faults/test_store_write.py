"""Store writes that fail (full disk, read-only file) raise StoreWriteError saying what to do; nothing is lost.

SQLite's page limit (``PRAGMA max_page_count``) makes SQLite itself answer
SQLITE_FULL exactly as on a full disk, and ``PRAGMA query_only`` answers
SQLITE_READONLY as for a read-only file; a real read-only file is tried too.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

import companion.store as store_module
from companion.cli import main
from companion.errors import StoreDamagedError, StoreWriteError
from companion.store import Store

JPEG = b"\xff\xd8" + bytes(range(256)) * 64 + b"\xff\xd9"  # 16 kB: a ply with it needs new pages


@pytest.fixture
def connections(monkeypatch):
    """Every SQLite connection the store opens, to limit it as a full or read-only disk would."""
    opened = []
    real = store_module._connect

    def connect(path, read_only):
        db = real(path, read_only)
        opened.append(db)
        return db

    monkeypatch.setattr(store_module, "_connect", connect)
    return opened


def fill_disk(db):
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_disk_mid_game_keeps_every_committed_ply(tmp_path, connections):
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game = store.new_game("cascade", "diamond:8", {"Size": "8"})
    store.add_ply(game, "o d5", jpeg=JPEG)
    store.add_ply(game, "x f5 =", jpeg=JPEG)
    fill_disk(connections[-1])
    with pytest.raises(StoreWriteError) as failed:
        store.add_ply(game, "= c6 =", jpeg=JPEG)
    message = str(failed.value)
    assert f"the disk holding the game store {path} is full" in message
    assert "so the ply = c6 = of game 1 was not saved" in message
    assert "what was saved before is kept" in message and "free some space" in message
    assert [p.ply for p in store.plies(game)] == ["o d5", "x f5 ="]  # the store goes on reading
    connections[-1].execute("PRAGMA max_page_count = 1000000")  # space freed: writing goes on, no gap
    assert store.add_ply(game, "= c6 =", jpeg=JPEG) == 3
    store.close()
    with Store(path, read_only=True) as again:
        assert [p.ply for p in again.plies(game)] == ["o d5", "x f5 =", "= c6 ="]


def test_every_kind_of_write_says_what_was_not_saved(tmp_path, connections):
    store = Store(tmp_path / "games.sqlite3")
    game = store.new_game("cascades", "trapezoid:8,8")
    store.add_ply(game, "c2")
    connections[-1].execute("PRAGMA query_only = ON")  # the file turned read-only under the companion
    for write, what in (
        (lambda: store.add_ply(game, "d2"), "the ply d2 of game 1"),
        (lambda: store.take_back(game), "the undo in game 1"),
        (lambda: store.end_game(game, "1-0"), "the end of game 1"),
        (lambda: store.new_game("cascade", "diamond:8"), "the new game"),
    ):
        with pytest.raises(StoreWriteError, match=f"is read-only, so {what} was not saved"):
            write()
    assert [p.ply for p in store.plies(game)] == ["c2"] and store.game(game).is_open
    store.close()


def test_a_full_disk_at_start_is_not_called_damage(tmp_path, monkeypatch, capsys):
    real = store_module._connect

    def full(path, read_only):
        db = real(path, read_only)
        db.execute("PRAGMA max_page_count = 1")
        return db

    monkeypatch.setattr(store_module, "_connect", full)
    path = tmp_path / "games.sqlite3"
    with pytest.raises(StoreWriteError) as failed:
        Store(path)
    assert not isinstance(failed.value, StoreDamagedError)
    assert str(failed.value) == (
        f"the disk holding the game store {path} is full: it cannot be written; free some space on it"
    )
    assert main(["run", "--camera", "table:", "--store", str(path), "--port", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is full" in err and "damaged" not in err


def make_read_only(path):
    """Make a file read-only, even for root (the immutable flag); skip where neither works."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return lambda: path.chmod(0o644)
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("root cannot make a file read-only here (no chattr +i)")
    return lambda: subprocess.run([chattr, "-i", str(path)], check=True)


def test_a_read_only_store_file_is_refused_at_start_in_one_line(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        game = store.new_game("cascade", "diamond:8", {"Size": "8"})
        store.add_ply(game, "o d5")
    undo = make_read_only(path)
    try:
        with pytest.raises(StoreWriteError, match="is read-only: it cannot be written; make the file"):
            Store(path)
        assert main(["run", "--camera", "table:", "--store", str(path), "--port", "0"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "read-only" in err and "--store" in err
        assert main(["export", str(game), "--store", str(path)]) == 0  # reading needs no writing
        assert capsys.readouterr().out.splitlines()[-1] == "1. o d5"
    finally:
        undo()


def test_a_listener_that_fails_on_a_saved_ply_cannot_have_it_saved_twice(tmp_path):
    from companion.backlog import Backlog

    heard = []

    def closed_terminal(number, text):
        heard.append((number, text))
        if len(heard) == 1:
            raise BrokenPipeError("the terminal's reader went away")

    with Store(tmp_path / "games.sqlite3") as store:
        backlog = Backlog(store, on_ply=closed_terminal)
        game = backlog.new_game("cascade", "diamond:3", {})
        with pytest.raises(BrokenPipeError):
            backlog.add_ply(game, "o c1", "diagram")
        backlog.add_ply(game, "x b2", "diagram")
        assert [p.ply for p in store.plies(game)] == ["o c1", "x b2"]
    assert heard == [(1, "o c1"), (2, "x b2")]
