"""The referee's commands: cascade play (scripted input), cascade bench referee --json."""

from __future__ import annotations

import io
import json

from companion.cli import main
from referee import read_record, replay


def play(monkeypatch, capsys, script: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    status = main(["play", *args])
    return status, capsys.readouterr().out


def test_play_cascade_from_a_script_prints_diagrams_and_the_record(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, "o d5\nx f5\n= c6\nx h5\nz9\no g4\n", "--game", "cascade")
    assert status == 0
    assert "played x h5 cascade xox" in out
    assert "not played:" in out and "'z9'" in out
    record = read_record(out[out.index('[Game "cascade"]') :])
    assert [str(p.ply) for p in record.plies] == ["o d5", "x f5 =", "= c6 =", "x h5 xox", "o g4"]


def test_play_undo_and_output_file(monkeypatch, capsys, tmp_path):
    target = tmp_path / "game.rec"
    script = "a1\nc3\nundo\nb2\nquit\n"
    status, out = play(
        monkeypatch, capsys, script, "--game", "kaskade", "--width", "3", "--height", "3", "-o", str(target)
    )
    assert status == 0 and f"record written to {target}" in out
    game = replay(read_record(target.read_text(encoding="utf-8")))
    assert [str(p) for p in game.plies] == ["a1", "b2"]


def test_play_cascades_to_the_end_of_the_game(monkeypatch, capsys):
    script = "b2\nc2,c3\nd2,d3\npass\na2,a3\npass\nb3,e3\n"
    status, out = play(monkeypatch, capsys, script, "--game", "cascades", "--top", "3", "--rows", "3")
    assert status == 0
    assert "result 1-0" in out and '[Result "1-0"]' in out


def test_play_ends_cleanly_at_the_end_of_input(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, "", "--game", "cascade", "--size", "3", "--variant", "fill-above")
    assert status == 0
    assert "game not finished" in out


def test_play_with_a_bad_option_gives_one_line(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--game", "cascade", "--variant", "sideways"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no variant 'sideways'" in err


def test_bench_referee_json_has_the_figures(capsys):
    assert main(["bench", "referee", "--json", "--seconds", "0.05"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in ("cascade_8_games_per_s", "kaskade_6x6_games_per_s", "cascades_8_8_games_per_s"):
        assert figures[key] > 0
