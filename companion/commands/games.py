"""``cascade games``: list the games in the store.

The store is opened to read only: the listing works beside a running
companion, and a mistyped ``--store`` path is reported, never created. A game
whose rows are damaged is listed as such, with the ply and what is wrong;
the exit status is then 1.
"""

from __future__ import annotations

import argparse
import os
import sys

from companion.options import store_path


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``games``."""
    parser = sub.add_parser("games", help="list the games in the store", description=__doc__)
    parser.add_argument(
        "--store", type=store_path, help="the game store file (default: $CASCADE_STORE or ~/.local/share/cascade)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print one line per game: number, game, board, plies, start, state; then any damage."""
    from companion.errors import StoreNotFoundError
    from companion.store import Store, default_store_path

    path = args.store or default_store_path()
    try:
        store = Store(path, read_only=True)
    except StoreNotFoundError:
        if args.store or os.environ.get("CASCADE_STORE"):
            raise
        print(f"no games yet: there is no store at {path} (cascade run makes it)")
        return 0
    with store:
        rows = store.games()
        damage = {d.game_id: d for d in store.check()}
    if not rows:
        print(f"no games yet in {path}")
        return 0
    out = sys.stdout
    out.write(f"{'game':>5}  {'rules':<9} {'board':<15} {'plies':>5}  {'started (UTC)':<19}  state\n")
    for row in rows:
        state = "open" if row.is_open else f"ended {row.result or ''}".rstrip()
        if row.id in damage:
            state = "DAMAGED"
        out.write(
            f"{row.id:>5}  {row.game[:9]:<9} {row.geometry[:15]:<15} {row.ply_count:>5}  "
            f"{row.started_at[:19]:<19}  {state}\n"
        )
    for found in damage.values():
        print(f"cascade games: {found}; `cascade export` writes the other games", file=sys.stderr)
    return 1 if damage else 0
