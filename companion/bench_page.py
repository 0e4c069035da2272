"""``cascade bench page``: how fast the archive answers with a big store (10,000 games by default).

A temporary store is filled with games played by the rules (a few real
Cascade, Cascades and Kaskade games repeated, with players' names), then the
page's app answers requests in this process (Flask's test client: the time
of the page itself, without the network):

- ``/games``, the first page of the archive;
- a page in the middle of it (keyset paging: ``?before=``);
- the list filtered by a player's name and by game;
- one game's page (its replay) in the middle of the store.

For each, the median and 95th percentile in milliseconds over ``--requests``
answers. ``--json`` prints one object: ``games``, ``plies``, ``pages`` (path
-> ``median_ms``, ``p95_ms``) and the first page's ``median_ms`` and ``p95_ms``.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

NAMES = ("Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu")
KINDS = (("cascade", "diamond:8"), ("cascades", "trapezoid:8,8"), ("kaskade", "grid:6x6"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``cascade bench page``."""
    parser.add_argument("--games", type=int, default=10_000, help="games in the store (10000)")
    parser.add_argument("--requests", type=int, default=60, help="answers timed per page (60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games played")


def _played(seed: int) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """A few games played by the rules with random plies: (game, board, [(ply, diagram)])."""
    from companion.assess import ply_text
    from referee.game import make_rules

    rng = random.Random(seed)
    games = []
    for game, board in KINDS:
        for _ in range(4):
            position = make_rules(game, board).start()
            plies: list[tuple[str, str]] = []
            while not position.is_over and len(plies) < 60:
                move = position.play(rng.choice(list(position.legal_plies())))
                plies.append((ply_text(move), move.position.diagram()))
                position = move.position
            games.append((game, board, plies))
    return games


def fill(path: Path, count: int, seed: int) -> int:
    """Make a store at ``path`` holding ``count`` ended games; returns how many plies it holds."""
    from companion.store import Store

    Store(path).close()  # the schema, as the companion makes it
    rng = random.Random(seed)
    played = _played(seed)
    db = sqlite3.connect(path)
    plies = 0
    with db:
        for number in range(1, count + 1):
            game, board, moves = played[number % len(played)]
            white, black = rng.sample(NAMES, 2)
            day = f"2026-{1 + number * 11 // count:02d}-{1 + number % 28:02d}T19:{number % 60:02d}:00.000+00:00"
            headers = json.dumps({"Game": game, "White": white, "Black": black})
            cursor = db.execute(
                "INSERT INTO games (game, geometry, headers, started_at, ended_at, result) VALUES (?, ?, ?, ?, ?, ?)",
                (game, board, headers, day, day, rng.choice(("1-0", "0-1", "1/2-1/2"))),
            )
            game_id = cursor.lastrowid
            db.executemany(
                "INSERT INTO plies (game_id, number, ply, diagram, committed_at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, n, text, diagram, day) for n, (text, diagram) in enumerate(moves, start=1)],
            )
            plies += len(moves)
    db.close()
    return plies


def _timed(client: Any, path: str, requests: int) -> dict[str, float]:
    spent = []
    for _ in range(requests):
        began = time.perf_counter()
        answer = client.get(path)
        spent.append((time.perf_counter() - began) * 1000.0)
        if answer.status_code != 200:
            raise RuntimeError(f"{path} answered {answer.status_code}")
    spent.sort()
    return {
        "median_ms": round(statistics.median(spent), 2),
        "p95_ms": round(spent[min(len(spent) - 1, int(0.95 * len(spent)))], 2),
    }


def run(args: argparse.Namespace) -> int:
    """Fill a store, time the archive's pages, print the figures."""
    from companion.errors import SetupError
    from companion.store import Store
    from companion.web import create_app

    if not 1 <= args.games <= 1_000_000 or not 1 <= args.requests <= 10_000:
        raise SetupError("give --games from 1 to 1000000 and --requests from 1 to 10000")
    with tempfile.TemporaryDirectory(prefix="cascade-bench-page-") as folder:
        path = Path(folder) / "games.sqlite3"
        plies = fill(path, args.games, args.seed)
        with Store(path, read_only=True) as store:
            client = create_app({"LIVE": _NoLive(), "STORE": store}).test_client()
            middle = args.games // 2 + 1
            pages = {
                "/games": _timed(client, "/games", args.requests),
                f"/games?before={middle}": _timed(client, f"/games?before={middle}", args.requests),
                "/games?player=ada": _timed(client, "/games?player=ada", args.requests),
                "/games?game=kaskade": _timed(client, "/games?game=kaskade", args.requests),
                f"/games/{middle}": _timed(client, f"/games/{middle}", max(1, args.requests // 4)),
            }
    figures = {"games": args.games, "plies": plies, "pages": pages, **pages["/games"]}
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"archive of {args.games:,} games ({plies:,} plies), answers timed in this process:")
    for page, timing in pages.items():
        print(f"  {page:<24} median {timing['median_ms']:8.2f} ms   p95 {timing['p95_ms']:8.2f} ms")
    return 0


class _NoLive:
    """The page's live source when only the archive is timed: an empty board, no actions."""

    def __init__(self) -> None:
        from companion.web.broadcast import Broadcaster

        self.broadcaster = Broadcaster()

    def snapshot(self) -> Any:
        """Never asked for by the archive's pages."""
        raise NotImplementedError

    def perform(self, action: str, params: Any) -> str:
        """Never asked for by the archive's pages."""
        raise NotImplementedError

    def camera_jpeg(self, after: int, timeout_s: float) -> None:
        """No camera."""
        return None
