"""``cascade play``: the record file is checked first, Ctrl-C keeps the game, players' names cannot break the record."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from referee import read_record, replay

ROOT = Path(__file__).resolve().parents[2]


def play(monkeypatch, args, typed):
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    return main(["play", *args])


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("no-such-folder/game.rec", "there is no folder"),
        (".", "is a folder: give a file name"),
        ("/proc/game.rec", "cannot be written"),
    ],
)
def test_an_unwritable_record_file_is_refused_before_the_game(tmp_path, monkeypatch, capsys, target, words):
    path = target if target.startswith("/") else str(tmp_path / target)
    assert play(monkeypatch, ["-o", path], "o d5\n") == 2
    out, err = capsys.readouterr()
    assert out == ""  # no board was shown, no ply was asked for
    assert len(err.splitlines()) == 1 and words in err
    assert sys.stdin.read() == "o d5\n"


def test_the_check_leaves_no_file_behind(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.rec"
    assert play(monkeypatch, ["-o", str(path)], "o d5\nquit\n") == 0
    assert path.read_text().splitlines()[-1] == "1. o d5"
    assert play(monkeypatch, ["-o", str(tmp_path / "none.rec")], "") == 0
    assert (tmp_path / "none.rec").exists()  # an empty game is still a record


def test_a_record_file_that_fails_at_the_end_is_printed_instead(monkeypatch, capsys):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    assert play(monkeypatch, ["-o", "/dev/full"], "o d5\n") == 2
    out, err = capsys.readouterr()
    assert "cannot write /dev/full" in err and "the record follows" in err
    assert out.splitlines()[-1] == "1. o d5"


def test_names_with_quotes_newlines_and_escapes_stay_in_their_header(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.rec"
    white = 'Ann "the Rock"] [Result "0-1'
    black = 'Bob\n[Result "1-0"]\x1b[31m'
    assert play(monkeypatch, ["-o", str(path), "--white", white, "--black", black], "o d5\nx f5\n") == 0
    record = read_record(path.read_text(encoding="utf-8"))
    assert record.header("White") == white
    assert record.header("Black") == 'Bob [Result "1-0"] [31m'
    assert record.header("Result") == ""
    assert len(replay(record).moves) == 2
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0


def _ctrl_c_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_writes_the_game_so_far_and_says_so(tmp_path):
    path = tmp_path / "game.rec"
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "-o", str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        text=True,
        bufsize=1,
        # Ctrl-C as a terminal delivers it, however the tests were started: a shell's background job inherits
        # SIGINT ignored, and Python then leaves it ignored
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("o d5\n")
    child.stdin.flush()
    seen = ""
    while not seen.endswith("black (second player)> "):  # o d5 is played: black is asked for a ply
        char = child.stdout.read(1)
        if not char:
            pytest.fail(f"cascade play ended before asking for the second ply: {seen!r}")
        seen += char
    child.send_signal(signal.SIGINT)
    child.wait(timeout=30)  # before communicate() closes stdin: the player stops on Ctrl-C, not at end of input
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130
    assert f"stopped by Ctrl-C; the record of the 1 ply so far is written to {path}" in out
    assert "Traceback" not in err
    assert path.read_text().splitlines()[-1] == "1. o d5"
