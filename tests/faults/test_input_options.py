"""Options that were misread (a port wrapped around, nan seconds, an empty store) get one clear line and status 2."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.store import default_store_path

REFUSED = [
    (["demo", "--port", "80000"], "argument --port: must be a port from 0 to 65535"),
    (["demo", "--port", "-1"], "argument --port: must be a port from 0 to 65535"),
    (["run", "--camera", "table:", "--port", "80000"], "argument --port: must be a port"),
    (["demo", "--duration", "nan"], "argument --duration: must be a number of seconds above 0, not 'nan'"),
    (["demo", "--duration", "inf"], "argument --duration: must be a number of seconds above 0"),
    (["demo", "--fps", "nan"], "argument --fps: must be a number above 0"),
    (["run", "--camera", "table:", "--fps", "nan"], "argument --fps: must be a number above 0"),
    (["run", "--camera", "table:", "--store", ""], "argument --store: needs the store's file name"),
    (["games", "--store", " "], "argument --store: needs the store's file name"),
    (["export", "1", "--store", ""], "argument --store: needs the store's file name"),
    (["export", "1e30"], "argument GAME: must be a game's number, like 3"),
    (["export", "9" * 30], "argument GAME: must be a game's number"),
    (["export", "0"], "argument GAME: must be a game's number"),
    (["play", "--game", "cascades", "--top", "0"], "argument --top: must be a whole number from 1 to 26, not '0'"),
    (["play", "--size", "9" * 5000], "argument --size: must be a whole number from 2 to 13, not '99999"),
    (["play", "--top", "3"], "--top does not size a cascade board here: use --size"),
    (["play", "--board", "diamond:" + "9" * 5000], "is not a board: write one of"),
    (["leds", "test", "--leds", "none:", "--step-s", "nan"], "argument --step-s: seconds must be 0 or more"),
    (["export"], "the following arguments are required: GAME"),
    ([], "the following arguments are required: COMMAND"),
]


@pytest.mark.parametrize(("args", "words"), REFUSED, ids=[" ".join(a)[:40] for a, _ in REFUSED])
def test_a_bad_option_value_is_refused_in_one_short_line(args, words, capsys):
    status = main(args)
    out, err = capsys.readouterr()
    assert status == 2
    assert len(err.splitlines()) == 1 and len(err) < 300
    assert words in err and "Traceback" not in err
    assert out == ""


def test_a_mistyped_store_path_is_never_created(tmp_path, capsys):
    path = tmp_path / "typo" / "gmaes.sqlite3"
    assert main(["games", "--store", str(path)]) == 2
    assert main(["export", "1", "--store", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"cascade {command}: there is no game store at {path}: check the path (a store is made by cascade run)"
        for command in ("games", "export")
    ]
    assert not path.parent.exists()


def test_no_store_yet_at_the_default_place_is_no_error(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("CASCADE_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["games"]) == 0
    assert capsys.readouterr().out.startswith(f"no games yet: there is no store at {default_store_path()}")
    assert not (tmp_path / "data").exists()
