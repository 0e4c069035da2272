"""One store, one writer: a second companion is refused, naming the process that holds the store."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from companion.cli import main
from companion.errors import StoreLockedError
from companion.store import Store
from companion.store_lock import lock_path

HOLD = """
import sys
from companion.store import Store
store = Store(sys.argv[1])
print("holding", flush=True)
sys.stdin.readline()
store.close()
"""


def test_a_second_writer_in_the_same_process_is_refused(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as first:
        game = first.new_game("cascade", "diamond:8")
        with pytest.raises(StoreLockedError) as refused:
            Store(path)
        message = str(refused.value)
        assert f"process {os.getpid()}" in message and "--store" in message
        first.add_ply(game, "o d5")  # the holder goes on writing
    with Store(path) as again:  # closed: the lock is free, and nothing was lost
        assert [p.ply for p in again.plies(game)] == ["o d5"]
    assert not lock_path(path).exists()


def test_a_second_companion_is_refused_in_one_line_naming_the_holder(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        status = main(["run", "--camera", "table:", "--store", str(path), "--port", "0"])
        err = capsys.readouterr().err.strip()
        assert status == 2
        assert len(err.splitlines()) == 1
        assert f"in use by process {holder.pid}" in err and "-c" in err
        assert main(["games", "--store", str(path)]) == 0  # reading beside the writer is fine
        assert "no games yet" in capsys.readouterr().out
    finally:
        holder.communicate("\n", timeout=30)
    assert holder.returncode == 0


def test_a_killed_writer_leaves_no_lock_behind(tmp_path):
    path = tmp_path / "games.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
    holder.kill()
    holder.wait(timeout=30)
    assert lock_path(path).exists()  # the file stays, but the kernel freed its lock
    with Store(path) as store:
        assert store.games() == []
