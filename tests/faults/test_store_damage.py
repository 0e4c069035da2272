"""A damaged store is named as such: which game, which ply, what is wrong, and what to do."""

from __future__ import annotations

import sqlite3

import pytest

from companion.cli import main
from companion.errors import StoreDamagedError
from companion.store import Store, export_record

PLIES = ("o d5", "x f5 =", "= c6 =", "x h5 xox")


def make_store(path, plies=PLIES):
    """A store with an ended game 1 and an open game 2 holding ``plies``."""
    with Store(path) as store:
        ended = store.new_game("kaskade", "grid:6x6", {"Width": "6", "Height": "6"})
        store.add_ply(ended, "c3")
        store.end_game(ended, "1-0")
        game = store.new_game("cascade", "diamond:8", {"Size": "8"})
        for ply in plies:
            store.add_ply(game, ply)
    return game


def edit(path, sql, *args):
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


def run_status(path, capsys):
    status = main(["run", "--camera", "table:", "--store", str(path), "--port", "0"])
    return status, capsys.readouterr().err.strip()


DAMAGE = [
    ("UPDATE games SET headers = '{not json' WHERE id = 2", "game 2: its headers '{not json' are not a JSON object"),
    ("UPDATE games SET headers = '[1, 2]' WHERE id = 2", "game 2: its headers '[1, 2]' are not a JSON object"),
    ("UPDATE games SET headers = '" + "[" * 100_000 + "' WHERE id = 2", "game 2: its headers"),
    ("UPDATE plies SET ply = 'o 9z' WHERE game_id = 2 AND number = 3", "game 2, ply 3: 'o 9z' is not a ply"),
    ("UPDATE plies SET ply = 'o z99' WHERE game_id = 2 AND number = 3", "game 2, ply 3: 'o z99' cannot be played"),
    ("UPDATE plies SET ply = 'o d5' WHERE game_id = 2 AND number = 3", "game 2, ply 3: 'o d5' cannot be played"),
    ("DELETE FROM plies WHERE game_id = 2 AND number = 2", "game 2, ply 2: ply 2 is missing"),
    ("UPDATE plies SET number = 'two' WHERE game_id = 2 AND number = 2", "game 2: a ply's number 'two' is not a whole"),
    ("UPDATE games SET geometry = 'diamond:99' WHERE id = 2", "game 2: its board 'diamond:99' is not a board"),
    ("UPDATE games SET game = 'chess' WHERE id = 1", "game 1: its game 'chess' is not one of"),
]


@pytest.mark.parametrize(("sql", "words"), DAMAGE, ids=[words.split(":")[1].strip()[:20] for _, words in DAMAGE])
def test_run_refuses_a_damaged_store_naming_game_and_ply(tmp_path, capsys, sql, words):
    path = tmp_path / "games.sqlite3"
    make_store(path)
    edit(path, sql)
    status, err = run_status(path, capsys)
    assert status == 2
    assert len(err.splitlines()) == 1
    assert f"the game store {path} is damaged: {words}" in err
    assert "cascade games" in err and "--store" in err  # what to do
    with pytest.raises(StoreDamagedError):
        Store(path)
    with Store(path, read_only=True) as store:  # nothing was resumed, nothing was written
        assert len(store.games()) == 2


def test_games_lists_a_damaged_game_and_export_still_writes_the_others(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    game = make_store(path)
    edit(path, "UPDATE games SET headers = '{oops' WHERE id = ?", game)
    assert main(["games", "--store", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "DAMAGED" in out.splitlines()[2] and "ended 1-0" in out.splitlines()[1]
    assert err.strip() == (
        "cascade games: game 2: its headers '{oops' are not a JSON object of names and values; "
        "`cascade export` writes the other games"
    )
    assert main(["export", "1", "--store", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1. c3"
    assert main(["export", str(game), "--store", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"game {game} in the game store {path} is damaged" in err


def test_export_names_the_ply_of_a_damaged_ended_game(tmp_path):
    path = tmp_path / "games.sqlite3"
    make_store(path)
    edit(path, "UPDATE plies SET ply = 'z9' WHERE game_id = 1")
    with Store(path, read_only=True) as store, pytest.raises(StoreDamagedError, match="damaged at ply 1: 'z9'"):
        export_record(store, 1)


def test_a_truncated_file_is_named_damaged(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    make_store(path)
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\xff" * (len(data) - 100))
    status = main(["games", "--store", str(path)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1
    assert "damaged" in err or "not a readable game store" in err
