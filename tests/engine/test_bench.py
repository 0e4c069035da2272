"""``cascade bench engine`` prints the figures the issue asks for (a tiny run; the speed itself is the bench's)."""

from __future__ import annotations

import json

from companion.cli import main

KEYS = {"win_rate_vs_random", "win_rate_vs_greedy", "ms_per_move_median", "ms_per_move_max"}


def test_bench_engine_json_has_every_game_and_level_and_the_strongest(capsys):
    args = ["bench", "engine", "--json", "--games", "1", "--budget", "0.01", "--level", "beginner"]
    assert main([*args, "--level", "strongest"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures["games"]) == {"cascade", "cascades", "kaskade"} == set(figures["strongest"])
    for game, levels in figures["games"].items():
        assert set(levels) == {"beginner", "strongest"}
        for level in levels.values():
            assert set(level) >= KEYS
            assert 0.0 <= level["win_rate_vs_random"] <= 1.0 and level["ms_per_move_max"] >= level["ms_per_move_median"]
        assert figures["strongest"][game] == levels["strongest"]


def test_bench_engine_prints_a_table_and_refuses_zero_games(capsys):
    assert main(["bench", "engine", "--games", "1", "--budget", "0.01", "--game", "kaskade", "--level", "club"]) == 0
    out = capsys.readouterr().out
    assert "kaskade" in out and "club" in out and "vs greedy" in out
    assert main(["bench", "engine", "--games", "0"]) == 2
    assert "must be a whole number of games" in capsys.readouterr().err


def test_bench_engine_plays_the_same_games_in_worker_processes(capsys):
    args = ["bench", "engine", "--json", "--games", "2", "--game", "kaskade", "--level", "club", "--level", "beginner"]
    assert main([*args, "--jobs", "1"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "2"]) == 0
    shared = json.loads(capsys.readouterr().out)
    assert shared["jobs"] == 2 and alone["jobs"] == 1
    for level in ("club", "beginner"):
        for key in ("win_rate_vs_random", "win_rate_vs_greedy", "draw_rate_vs_random", "draw_rate_vs_greedy"):
            assert shared["games"]["kaskade"][level][key] == alone["games"]["kaskade"][level][key]
    assert main(["bench", "engine", "--jobs", "0"]) == 2
    assert "must be a whole number of processes" in capsys.readouterr().err
