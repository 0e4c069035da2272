"""``cascade bench hub``: an event's round on loopback, measured from the boards' stores to the hub's page.

A Mosquitto broker, the hub (``cascade hub``, its own process) and N
simulated boards (:mod:`hub.tables`, one process; one more board alone in a
process of its own) play a round of short games on loopback, through the
faults of the hub's tests: one board's link is cut for ``--cut-s`` seconds
(a full minute by default), the broker is killed and started again, the lone
board's process is killed and started again on its store.

- latency: from a ply's commit in its board's store (the journal entry's
  time) to the first ``board`` event on the hub's page stream that shows it
  applied; median and 99th percentile over the plies whose path was up
  (``latency_ms_*``), and the 99th percentile over every ply
  (``latency_ms_p99_all``: the plies held back by a fault wait for it);
- lost and duplicated: every board's journal against the hub's, entry by
  entry, at the end;
- the hub's CPU per board: its process's CPU seconds over the round, per
  second and per board, in percent of one core;
- messages per second: before the round, the benchmark publishes a burst of
  games (as N boards would, but as fast as it can) and times the hub
  applying them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EVENT = "bench"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cascade bench hub``."""
    parser.add_argument("--boards", type=int, default=50, help="boards of the round (50)")
    parser.add_argument("--games", type=int, default=4, help="games each board plays (4)")
    parser.add_argument("--step-ms", type=float, default=500.0, help="milliseconds between the players' steps (500)")
    parser.add_argument("--cut-s", type=float, default=60.0, help="seconds one board's link is cut (60; 0: no cut)")
    parser.add_argument("--no-faults", action="store_true", help="no cut, no broker or board killed")
    parser.add_argument("--burst-games", type=int, default=2, help="games per board in the burst (2)")


class PageWatcher:
    """Reads the hub's page stream; notes when each board's game was first shown with each entry applied."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.shown: dict[tuple[str, str], list[tuple[int, float]]] = {}
        self.events = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="page-watcher", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with urllib.request.urlopen(self.url, timeout=30) as stream:
                    data = ""
                    for raw in stream:
                        line = raw.decode("utf-8").rstrip("\n")
                        if line.startswith("event: "):
                            data = ""
                        elif line.startswith("data: "):
                            data += line[6:]
                        elif not line and data:
                            self._take(json.loads(data), time.time())
                            data = ""
                        if self._stop.is_set():
                            return
            except (OSError, ValueError):
                time.sleep(0.2)

    def _take(self, view: dict[str, Any], now: float) -> None:
        self.events += 1
        seen = self.shown.setdefault((view["board"], view["game"]), [])
        if not seen or view["applied"] > seen[-1][0]:
            seen.append((int(view["applied"]), now))

    def first_shown(self, board: str, game: str, seq: int) -> float | None:
        """When the page first showed entry ``seq`` of a board's game applied."""
        for applied, at in self.shown.get((board, game), []):
            if applied >= seq:
                return at
        return None

    def close(self) -> None:
        """Stop reading."""
        self._stop.set()


def _journals(path: Path, board: str = "") -> dict[tuple[str, str], list[tuple[int, str, str, str]]]:
    from companion.store import Store

    with Store(path, read_only=True) as store:
        found = {}
        for row in store.games():
            key = (row.header("Table"), row.header("Origin")) if not board else (board, f"{row.id}@{row.started_at}")
            found[key] = [
                (e.seq, e.kind, "" if e.kind == "start" else json.dumps(dict(e.body), sort_keys=True), e.written_at)
                for e in store.journal(row.id)
            ]
        return found


def _hub_options(folder: Path) -> list[str]:
    """The hub's store and port options for a round in ``folder``."""
    return ["--store", str(folder / "hub.sqlite3"), "--port", "0"]


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tables(url: str, boards: str, folder: Path, args: argparse.Namespace, *extra: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "hub.tables", "--broker", url, "--boards", boards, "--folder", str(folder)]
    command += ["--games", str(args.games), "--step-ms", str(args.step_ms), "--board-spec", "diamond:5", *extra]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _burst(broker_port: int, boards: int, games: int, watcher: PageWatcher) -> tuple[int, float]:
    """Publish every entry of ``games`` scripted games per board as fast as paho sends; the hub's rate of applying."""
    from companion.hub_messages import JournalMessage, encode, journal_topic
    from companion.mqtt_link import MqttLink
    from companion.scenario import random_moves
    from referee.game import make_rules

    rules = make_rules("cascade", "diamond:5")
    link = MqttLink("127.0.0.1", broker_port, "cascade-bench-burst")
    link.start()
    if not link.wait_connected(10):
        raise RuntimeError("the broker did not accept the burst's connection")
    messages: list[tuple[str, JournalMessage]] = []
    for board in range(1, boards + 1):
        name = f"burst-{board}"
        for number in range(1, games + 1):
            key = f"{number}@burst"
            moves = random_moves(rules.start(), seed=board * 100 + number)
            body: dict[str, Any] = {"game": "cascade", "geometry": "diamond:5", "headers": {}, "started_at": "burst"}
            entries: list[tuple[str, dict[str, Any]]] = [("start", body)]
            entries += [("ply", {"number": i, "ply": str(m.ply), "diagram": ""}) for i, m in enumerate(moves, 1)]
            entries.append(("result", {"result": moves[-1].position.result}))
            for seq, (kind, entry) in enumerate(entries, start=1):
                messages.append((name, JournalMessage(name, key, seq, kind, entry, "")))
    started = time.time()
    for name, message in messages:
        link.publish(journal_topic(EVENT, name), encode(message))
    last = {(m.board, m.game): m.seq for _, m in messages}
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        done = [watcher.first_shown(board, game, seq) for (board, game), seq in last.items()]
        if all(at is not None for at in done):
            link.close()
            return len(messages), len(messages) / max(1e-6, max(a for a in done if a is not None) - started)
        time.sleep(0.1)
    link.close()
    raise RuntimeError("the hub did not apply the burst within 300 s")


def _at(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def run(args: argparse.Namespace) -> int:
    """Run the round and print the figures."""
    if args.boards < 2 or args.games < 1 or args.step_ms <= 0 or args.cut_s < 0:
        print("cascade bench hub: --boards must be 2 or more, --games 1 or more, --step-ms above 0, --cut-s 0 or more")
        return 2
    from hub.cutter import CuttableRelay
    from hub.mosquitto import Mosquitto

    with tempfile.TemporaryDirectory(prefix="cascade-bench-hub-") as tmp:
        folder = Path(tmp)
        broker = Mosquitto(folder / "broker")
        broker.start()
        hub = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "hub", "--broker", f"{broker.url}/{EVENT}", *_hub_options(folder)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        relay = CuttableRelay(broker.port)
        processes: list[subprocess.Popen[str]] = [hub]
        try:
            page = _page_url(hub)
            watcher = PageWatcher(page + "events")
            burst_count, rate = _burst(broker.port, args.boards, args.burst_games, watcher)
            figures = _round(args, folder, broker, relay, hub, watcher, processes)
            figures.update({"burst_messages": burst_count, "messages_per_s": round(rate, 1)})
            watcher.close()
        finally:
            for process in processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
                    try:
                        process.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        process.kill()
            relay.close()
            broker.stop()
    return _report(args, figures)


def _page_url(hub: subprocess.Popen[str]) -> str:
    assert hub.stdout is not None
    for line in hub.stdout:
        if line.strip().startswith("page:"):
            return line.split()[-1]
    raise RuntimeError(f"the hub did not start: {hub.stderr.read() if hub.stderr else ''}")


def _round(
    args: argparse.Namespace,
    folder: Path,
    broker: Any,
    relay: Any,
    hub: subprocess.Popen[str],
    watcher: PageWatcher,
    processes: list[subprocess.Popen[str]],
) -> dict[str, Any]:
    boards_folder = folder / "boards"
    boards_folder.mkdir()
    url = f"{broker.url}/{EVENT}"
    lone, cut = str(args.boards), "7"
    faults = not args.no_faults
    cpu_before, started = _cpu_s(hub.pid), time.monotonic()
    started_wall = time.time()
    extra = ("--port-of", f"{cut}={relay.port}") if faults and args.cut_s else ()
    many = _tables(url, f"1-{args.boards - 1}", boards_folder, args, *extra)
    alone = _tables(url, lone, boards_folder, args)
    processes += [many, alone]
    windows: list[tuple[str, float, float]] = []  # (board or "*", from, to) in wall time: plies held by a fault
    lone_process = [alone]
    if faults:

        def kill_lone() -> None:
            lone_process[0].send_signal(signal.SIGKILL)
            lone_process[0].wait(timeout=10)

        def start_lone() -> None:
            lone_process[0] = _tables(url, lone, boards_folder, args)
            processes.append(lone_process[0])

        plan = [
            (5.0, "cut", relay.cut),
            (5.0 + args.cut_s, "mend", relay.mend),
            (15.0, "broker-kill", broker.kill),
            (18.0, "broker-start", broker.start),
            (25.0, "board-kill", kill_lone),
            (28.0, "board-start", start_lone),
        ]
        if not args.cut_s:
            plan = [p for p in plan if p[1] not in ("cut", "mend")]
        times: dict[str, float] = {}
        for at, name, fault in sorted(plan, key=lambda p: p[0]):
            time.sleep(max(0.0, started + at - time.monotonic()))
            fault()
            times[name] = time.time()
        alone = lone_process[0]
        if "cut" in times:
            windows.append((cut, times["cut"], times["mend"] + 5.0))
        windows.append(("*", times["broker-kill"], times["broker-start"] + 5.0))
        windows.append((lone, times["board-kill"] - 1.0, times["board-start"] + 5.0))
    for process in (many, alone):
        process.communicate(timeout=900)
    elapsed = time.monotonic() - started
    boards = {}
    for path in sorted(boards_folder.glob("board-*.sqlite3")):
        name = path.stem.removeprefix("board-")
        boards.update(_journals(path, name))
    wanted = {key: entries[-1][0] for key, entries in boards.items()}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if all(watcher.first_shown(board, game, seq) is not None for (board, game), seq in wanted.items()):
            break
        time.sleep(0.2)
    cpu = _cpu_s(hub.pid) - cpu_before
    held = _journals(folder / "hub.sqlite3")
    lost = duplicated = 0
    clean: list[float] = []
    every: list[float] = []
    for key, entries in boards.items():
        mine = [e[:3] for e in held.get(key, [])]
        theirs = [e[:3] for e in entries]
        matched = sum(1 for a, b in zip(mine, theirs, strict=False) if a == b)
        lost += len(theirs) - matched
        duplicated += max(0, len(mine) - matched)
        for seq, kind, _, written in entries:
            shown = watcher.first_shown(key[0], key[1], seq)
            if kind != "ply" or shown is None:
                continue
            at = _at(written)
            ms = max(0.0, (shown - at) * 1000.0)
            every.append(ms)
            if not any(board in ("*", key[0]) and start <= at <= end for board, start, end in windows):
                clean.append(ms)
    return {
        "boards": args.boards,
        "games": len(boards),
        "plies": len(every),
        "round_s": round(elapsed, 1),
        "latency_ms_median": round(statistics.median(clean), 1) if clean else None,
        "latency_ms_p99": round(_percentile(clean, 99), 1) if clean else None,
        "latency_ms_p99_all": round(_percentile(every, 99), 1) if every else None,
        "latency_ms_max_all": round(max(every), 1) if every else None,
        "plies_held_by_faults": len(every) - len(clean),
        "lost": lost,
        "duplicated": duplicated,
        "hub_cpu_percent_per_board": round(cpu / elapsed / args.boards * 100.0, 3),
        "hub_cpu_s": round(cpu, 2),
        "faults": ["cut-link", "broker-killed", "board-killed"] if faults else [],
        "cut_s": args.cut_s if faults else 0,
        "started": started_wall,
    }


def _percentile(values: list[float], percent: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(percent / 100.0 * len(ordered) + 0.5) - 1))
    return ordered[index]


def _report(args: argparse.Namespace, figures: dict[str, Any]) -> int:
    figures.pop("started", None)
    if args.json:
        print(json.dumps(figures))
        return 0 if figures["lost"] == 0 and figures["duplicated"] == 0 else 1
    print(
        f"hub: {figures['boards']} boards, {figures['games']} games, {figures['plies']} plies in {figures['round_s']} s"
    )
    print(f"  faults: {', '.join(figures['faults']) or 'none'} (link cut for {figures['cut_s']:g} s)")
    print(
        f"  ply on a board to shown on the hub's page: median {figures['latency_ms_median']} ms, "
        f"p99 {figures['latency_ms_p99']} ms ({figures['plies_held_by_faults']} plies held by a fault left out; "
        f"with them p99 {figures['latency_ms_p99_all']} ms)"
    )
    print(f"  lost {figures['lost']}, duplicated {figures['duplicated']}")
    print(f"  hub CPU: {figures['hub_cpu_percent_per_board']} % of a core per board ({figures['hub_cpu_s']} s)")
    print(f"  messages per second the hub applies: {figures['messages_per_s']} (burst of {figures['burst_messages']})")
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    return 0 if figures["lost"] == 0 and figures["duplicated"] == 0 else 1


__all__ = ["add_arguments", "run"]
