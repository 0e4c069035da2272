"""The game store: schema, migrations, durability order, listing, export, bad files."""

from __future__ import annotations

import sqlite3

import pytest

from companion.cli import main
from companion.errors import StoreError, StoreNotFoundError, StoreWriteError, UnknownGameError
from companion.store import MIGRATIONS, SCHEMA_VERSION, Store, export_record, format_record
from referee.records import read_record


def test_a_new_store_has_the_latest_schema_and_wal(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_plies_are_kept_in_order_and_the_open_game_is_found(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        first = store.new_game("cascade", "diamond:8", {"Size": "8"})
        store.add_ply(first, "o d5", "diagram 1")
        store.add_ply(first, "x f5 =", "diagram 2")
        store.end_game(first, "1-0")
        second = store.new_game("kaskade", "grid:6x6", {"Width": "6", "Height": "6"})
        store.add_ply(second, "c3", jpeg=b"\xff\xd8jpeg")
    with Store(path) as store:
        found = store.open_game()
        assert found is not None and found.id == second and found.ply_count == 1
        assert [p.ply for p in store.plies(first)] == ["o d5", "x f5 ="]
        assert store.plies(first)[1].diagram == "diagram 2"
        assert store.image(second, 1) == b"\xff\xd8jpeg"
        assert store.image(first, 1) is None
        assert [g.id for g in store.games()] == [first, second]
        assert store.game(first).result == "1-0" and not store.game(first).is_open


def test_take_back_removes_the_last_plies(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game = store.new_game("cascades", "trapezoid:8,8")
        for ply in ("c2", "d2,e3", "pass"):
            store.add_ply(game, ply)
        assert store.take_back(game, 2) == 2
        assert [p.ply for p in store.plies(game)] == ["c2"]
        assert store.add_ply(game, "e2") == 2


def test_an_ended_game_takes_no_more_plies(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game = store.new_game("cascade", "diamond:2")
        store.end_game(game, "1/2-1/2")
        with pytest.raises(StoreError, match="has ended"):
            store.add_ply(game, "o a2")
        with pytest.raises(UnknownGameError, match="cascade games"):
            store.add_ply(99, "o a2")


def test_an_old_file_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA application_id = 1128354627")
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO games (game, geometry, headers, started_at) VALUES ('cascade', 'diamond:8', '{}', 'x')")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        number = store.add_ply(1, "o d5", jpeg=b"jpeg")
        assert store.image(1, number) == b"jpeg"


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are my notes, not a database" * 100)
    with pytest.raises(StoreError, match="not a readable game store"):
        Store(path)


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "other.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE accounts (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="another program"):
        Store(path)


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer version"):
        Store(path)


def test_format_record_numbers_moves_of_two_plies():
    text = format_record([("Game", "cascade"), ("Size", "8")], ["o d5", "x f5 =", "= c6 =", "x h5 xox", "o g4"])
    assert text.splitlines() == [
        '[Game "cascade"]',
        '[Size "8"]',
        "1. o d5  x f5 =",
        "2. = c6 =  x h5 xox",
        "3. o g4",
    ]


def test_export_puts_the_game_header_first(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game = store.new_game("kaskade", "grid:6x6", {"Height": "6", "Width": "6"})
        store.add_ply(game, "c3")
        store.add_ply(game, "resigns")
        store.end_game(game, "1-0")
        lines = export_record(store, game).splitlines()
    assert lines[0] == '[Game "kaskade"]'
    assert lines[1:3] == ['[Width "6"]', '[Height "6"]']
    assert '[Result "1-0"]' in lines
    assert lines[-1] == "1. c3  resigns"


def test_games_and_export_commands(tmp_path, capsys):
    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        game = store.new_game("cascade", "diamond:8", {"Size": "8"})
        store.add_ply(game, "o d5")
    assert main(["games", "--store", str(path)]) == 0
    listing = capsys.readouterr().out
    assert "cascade" in listing and "diamond:8" in listing and "open" in listing
    assert main(["export", str(game), "--store", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1. o d5"
    assert main(["export", "7", "--store", str(path)]) == 2
    assert "no game 7" in capsys.readouterr().err


def test_games_command_on_a_broken_file_prints_one_line(tmp_path, capsys):
    path = tmp_path / "broken.sqlite3"
    path.write_bytes(b"\x00garbage" * 512)
    assert main(["games", "--store", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--store" in err


def test_a_reader_sees_what_the_writer_commits_and_writes_nothing(tmp_path):
    path = tmp_path / "s.sqlite3"
    with Store(path) as writer:
        game = writer.new_game("cascade", "diamond:8", {"Size": "8"})
        with Store(path, read_only=True) as reader:
            assert reader.plies(game) == []
            writer.add_ply(game, "o d5")
            assert [p.ply for p in reader.plies(game)] == ["o d5"]
            with pytest.raises(StoreWriteError, match="opened to read only"):
                reader.add_ply(game, "x f5 =")
        assert [p.ply for p in writer.plies(game)] == ["o d5"]


def test_a_reader_never_creates_a_store(tmp_path):
    with pytest.raises(StoreNotFoundError, match="there is no game store at"):
        Store(tmp_path / "missing" / "s.sqlite3", read_only=True)
    assert not (tmp_path / "missing").exists()
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    with Store(empty, read_only=True) as store:
        assert store.games() == [] and store.open_game() is None and store.check() == ()
    assert empty.stat().st_size == 0


def test_headers_with_quotes_are_exported_escaped(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game = store.new_game("cascade", "diamond:8", {"Size": "8", "White": 'Ann "x"] [Result "0-1', "Black": "B\nC"})
        store.add_ply(game, "o d5")
        text = export_record(store, game)
    assert '[White "Ann \\"x\\"] [Result \\"0-1"]' in text.splitlines()
    assert '[Black "B C"]' in text.splitlines()
    assert "Result" not in dict(read_record(text).headers)
