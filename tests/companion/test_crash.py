"""``cascade run`` killed with SIGKILL in the middle of a game continues the same game when started again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from companion.cameras import table_script
from companion.store import Store, export_record
from referee import read_record, replay
from referee.game import make_rules

ROOT = Path(__file__).resolve().parents[2]
CAMERA = "table:?seed=3&fps=0"
BOARD = "diamond:5"
KILL_AFTER_PLY = 7


def run_command(store: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "companion",
        "run",
        "--camera",
        CAMERA,
        "--leds",
        "emu:",
        "--game",
        "cascade",
        "--board",
        BOARD,
        "--store",
        str(store),
        "--port",
        "0",
    ]


def test_a_killed_run_resumes_the_same_game_with_nothing_lost(tmp_path):
    store_path = tmp_path / "games.sqlite3"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    first = subprocess.Popen(
        run_command(store_path), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    printed: list[str] = []
    try:
        assert first.stdout is not None
        for line in first.stdout:
            if line.startswith("ply "):
                printed.append(line.split(": ", 1)[1].strip())
                if len(printed) == KILL_AFTER_PLY:
                    first.send_signal(signal.SIGKILL)
                    break
        first.wait(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == -signal.SIGKILL
    with Store(store_path) as store:
        games = store.games()
        assert len(games) == 1 and games[0].is_open
        kept = [p.ply for p in store.plies(games[0].id)]
    assert kept[: len(printed)] == printed, "a ply printed as committed was lost"

    second = subprocess.run(run_command(store_path), cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert second.returncode == 0, second.stderr
    assert f"resuming game {games[0].id}" in second.stdout
    script = table_script(make_rules("cascade", BOARD).start(), seed=3)
    with Store(store_path) as store:
        assert len(store.games()) == 1
        game = store.game(games[0].id)
        assert not game.is_open and game.result == script.final.result
        after = [p.ply for p in store.plies(game.id)]
        record = export_record(store, game.id)
    assert after[: len(kept)] == kept, "the resumed game does not continue the plies kept before the crash"
    assert len(after) == len(script.moves)
    replayed = replay(read_record(record))
    assert replayed.position.symbols() == script.final.symbols()
