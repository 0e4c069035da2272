"""Simulated boards of an event: scripted tables whose games go to a broker, for tests and the benchmark.

Each :class:`SimulatedBoard` is a board companion without camera, LEDs or
page: its own store, a live game fed the boards of scripted games
(:func:`companion.scenario.script_game`, as ``cascade demo --no-camera``
plays them, one mistake per game and its fix), and a publisher to the
broker. Many run in one process on threads. A board killed and started again
on the same folder resumes its open game from its store and its script
from the move after the last one stored, as a real board resumes.

``python -m hub.tables --broker mqtt://HOST:PORT/EVENT --boards 1-49 --folder DIR``
runs boards until their games are played and sent, and prints ``done``.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from companion.broker_url import BrokerUrl, parse_broker_url
from companion.live import LiveGame
from companion.mqtt_link import Link, MqttLink
from companion.publisher import Publisher
from companion.scenario import Script, script_game
from companion.store import Store
from referee.game import make_rules

MISTAKE_AT = 2


@dataclass(frozen=True)
class TablePlan:
    """What a simulated board plays: the game and board, how many games, the seed, seconds per step."""

    game: str = "cascade"
    board: str = "diamond:5"
    games: int = 2
    seed: int = 1
    step_s: float = 0.3


class SimulatedBoard:
    """One simulated board (see the module docstring)."""

    def __init__(self, folder: Path, url: BrokerUrl, plan: TablePlan, link: Link | None = None) -> None:
        self.url = url
        self.plan = plan
        self.rules = make_rules(plan.game, plan.board)
        self.store = Store(Path(folder) / f"board-{url.board}.sqlite3")
        self.live = LiveGame.start_or_resume(
            self.rules.start(), self.store, headers={"White": f"W{url.board}", "Black": f"B{url.board}"}
        )
        link = link or MqttLink(url.host, url.port, f"cascade-{url.event}-{url.board}")
        self.publisher = Publisher(self.store, url, link)
        self.live.on_snapshot = self.publisher.notify
        self.finished = threading.Event()

    def start(self) -> None:
        """Connect the publisher (in the background)."""
        self.publisher.start()
        self.publisher.notify(self.live.snapshot())

    def play(self, stop: threading.Event) -> None:
        """Play the planned games (resuming where the store stands), then mark the board finished."""
        while not stop.is_set():
            done = [g for g in self.store.games() if not g.is_open]
            number = len(done)
            if number >= self.plan.games:
                break
            script = script_game(self.rules.start(), seed=self.plan.seed * 1000 + number, mistake_at=MISTAKE_AT)
            self._play(script, len(self.live.moves), stop)
            if stop.is_set():
                return
            if number + 1 < self.plan.games:
                self.live.perform("new_game", {})
        self.finished.set()

    def _play(self, script: Script, stored: int, stop: threading.Event) -> None:
        first = next((i for i, step in enumerate(script.steps) if step.move > stored), len(script.steps))
        for step in script.steps[first:] if stored else script.steps:
            if stop.wait(self.plan.step_s / 3 if step.hand else 0.0):
                return
            if step.hand:
                self.live.on_reading((), occluded=True)
            self.live.on_reading(step.board)
            if step.button:
                self.live.on_button(step.button)
            if stop.wait(self.plan.step_s):
                return

    def close(self, drain_s: float = 5.0) -> None:
        """Send what waits (up to ``drain_s``), disconnect, close the store."""
        self.live.on_snapshot = None
        self.publisher.close(drain_s)
        self.live.close()
        self.store.close()


def board_names(text: str) -> list[str]:
    """Board names from ``1-49``, ``7`` or ``1,3,5-8``."""
    names: list[str] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        if high:
            names += [str(n) for n in range(int(low), int(high) + 1)]
        elif low:
            names.append(low)
    return names


def run_boards(
    url: BrokerUrl, names: list[str], folder: Path, plan: TablePlan, stop: threading.Event, port_of: dict[str, int]
) -> list[SimulatedBoard]:
    """Start and play boards named ``names`` on threads until their games end or ``stop``; returns them."""
    boards = []
    for name in names:
        board_url = BrokerUrl(url.host, port_of.get(name, url.port), url.event, name)
        seed = plan.seed * 100 + (int(name) if name.isdigit() else len(name))
        board = SimulatedBoard(folder, board_url, TablePlan(plan.game, plan.board, plan.games, seed, plan.step_s))
        board.start()
        boards.append(board)
    threads = [threading.Thread(target=b.play, args=(stop,), name=f"board-{b.url.board}", daemon=True) for b in boards]
    for thread in threads:
        thread.start()
    for thread in threads:
        while thread.is_alive() and not stop.is_set():
            thread.join(0.2)
    return boards


def main(argv: list[str] | None = None) -> int:
    """Run simulated boards from the command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m hub.tables", description=__doc__)
    parser.add_argument("--broker", required=True, help="mqtt://HOST:PORT/EVENT")
    parser.add_argument("--boards", required=True, help="board names: 1-49, or 7, or 1,3,5-8")
    parser.add_argument("--folder", required=True, help="folder of the boards' stores")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--step-ms", type=float, default=300.0)
    parser.add_argument("--board-spec", default="diamond:5")
    parser.add_argument("--port-of", action="append", default=[], help="BOARD=PORT: that board's broker port")
    args = parser.parse_args(argv)
    url = parse_broker_url(args.broker, board=False)
    ports = {name: int(port) for name, _, port in (item.partition("=") for item in args.port_of)}
    plan = TablePlan("cascade", args.board_spec, args.games, args.seed, args.step_ms / 1000.0)
    stop = threading.Event()
    boards = run_boards(url, board_names(args.boards), Path(args.folder), plan, stop, ports)
    for board in boards:
        board.close()
    print("done", flush=True)
    time.sleep(0.1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
