"""A club night on loopback: fifty simulated boards, a real Mosquitto, the hub, and three faults in the round.

During the round the broker is killed (SIGKILL) and started again, one board's
process is killed (SIGKILL) and started again on its store, and one board's
network is cut (a relay that lets nothing through, as a pulled cable) for
:data:`CUT_S` seconds — shorter than the minute of the issue to keep the test
quick; ``cascade bench hub`` cuts it for the full minute. At the end the hub
holds every change of every game of every board, exactly once and in order:
its journal of each game is the board's own, entry for entry, and so are the
plies.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.broker_url import BrokerUrl
from companion.store import Store
from hub.cutter import CuttableRelay
from hub.errors import MosquittoMissingError
from hub.mosquitto import Mosquitto, mosquitto_binary
from hub.serve import start_hub

ROOT = Path(__file__).resolve().parents[2]
BOARDS = 50
KILLED = "50"
CUT = "7"
CUT_AT_S, CUT_S = 2.0, 12.0
BROKER_KILLED_AT_S, BROKER_DOWN_S = 5.0, 2.0
BOARD_KILLED_AT_S, BOARD_DOWN_S = 8.0, 2.0
TABLES = ["--games", "3", "--step-ms", "200", "--board-spec", "diamond:5", "--seed", "4"]


@pytest.fixture
def mosquitto(tmp_path):
    try:
        mosquitto_binary()
    except MosquittoMissingError as error:
        pytest.fail(str(error))
    broker = Mosquitto(tmp_path / "broker")
    broker.start()
    yield broker
    broker.stop()


def tables(broker: Mosquitto, boards: str, folder: Path, *extra: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "hub.tables", "--broker", f"{broker.url}/club", "--boards", boards]
    return subprocess.Popen(
        [*command, "--folder", str(folder), *TABLES, *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def journals(path: Path, board: str = "") -> dict[tuple[str, str], list[tuple[int, str, str]]]:
    """A store's journal of every game, by board and the game's key on its board (entries: seq, kind, body)."""
    with Store(path, read_only=True) as store:
        found = {}
        for row in store.games():
            key = (row.header("Table"), row.header("Origin")) if not board else (board, f"{row.id}@{row.started_at}")
            found[key] = [(e.seq, e.kind, repr(sorted(e.body.items()))) for e in store.journal(row.id)]
        return found


def comparable(entries: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """Entries without the start's body (the hub adds its own headers to the game)."""
    return [(seq, kind, body if kind != "start" else "") for seq, kind, body in entries]


@pytest.mark.slow
def test_fifty_boards_lose_nothing_and_duplicate_nothing_through_three_faults(tmp_path, mosquitto):
    folder = tmp_path / "boards"
    folder.mkdir()
    hub, server = start_hub(BrokerUrl("127.0.0.1", mosquitto.port, "club"), tmp_path / "hub.sqlite3")
    relay = CuttableRelay(mosquitto.port)
    processes = []
    try:
        many = tables(mosquitto, f"1-{BOARDS - 1}", folder, "--port-of", f"{CUT}={relay.port}")
        alone = tables(mosquitto, KILLED, folder)
        processes += [many, alone]
        started = time.monotonic()
        faults = [
            (CUT_AT_S, relay.cut),
            (CUT_AT_S + CUT_S, relay.mend),
            (BROKER_KILLED_AT_S, mosquitto.kill),
            (BROKER_KILLED_AT_S + BROKER_DOWN_S, mosquitto.start),
            (BOARD_KILLED_AT_S, lambda: alone.send_signal(signal.SIGKILL)),
        ]
        for at, fault in sorted(faults, key=lambda f: f[0]):
            time.sleep(max(0.0, started + at - time.monotonic()))
            fault()
        alone.wait(timeout=10)
        time.sleep(max(0.0, started + BOARD_KILLED_AT_S + BOARD_DOWN_S - time.monotonic()))
        resumed = tables(mosquitto, KILLED, folder)
        processes.append(resumed)
        for process in (many, resumed):
            out, err = process.communicate(timeout=240)
            assert process.returncode == 0 and "done" in out, err[-2000:]
        assert relay.cuts == 1 and alone.returncode == -signal.SIGKILL
        boards = {
            p.stem.removeprefix("board-"): journals(p, p.stem.removeprefix("board-"))
            for p in sorted(folder.glob("board-*.sqlite3"))
        }
        assert len(boards) == BOARDS
        wanted = sum(len(entries) for games in boards.values() for entries in games.values())
        deadline = time.monotonic() + 60
        while hub.counts["applied"] < wanted and time.monotonic() < deadline:
            time.sleep(0.2)
        held = journals(tmp_path / "hub.sqlite3")
        for name, games in boards.items():
            assert len(games) == 3, f"board {name} played {len(games)} games"
            for key, entries in games.items():
                assert key in held, f"board {name}: the hub lacks the game {key}"
                assert comparable(held[key]) == comparable(entries), f"board {name}, game {key}"
                assert entries[-1][1] == "result"
        assert hub.counts["applied"] == wanted
        with Store(tmp_path / "hub.sqlite3", read_only=True) as store:
            for row in store.games():
                board = Store(folder / f"board-{row.header('Table')}.sqlite3", read_only=True)
                with board:
                    number = int(row.header("Origin").partition("@")[0])
                    assert [p.ply for p in store.plies(row.id)] == [p.ply for p in board.plies(number)]
                    assert row.result == board.game(number).result
        print(f"hub: {dict(hub.counts)}")
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        relay.close()
        server.stop()
        hub.close()
        hub.store.close()
