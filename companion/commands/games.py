"""``cascade games``: list the games in the store."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``games``."""
    parser = sub.add_parser("games", help="list the games in the store", description=__doc__)
    parser.add_argument("--store", help="the game store file (default: $CASCADE_STORE or ~/.local/share/cascade)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print one line per game: number, game, board, plies, start, state."""
    from companion.store import Store, default_store_path

    path = args.store or default_store_path()
    with Store(path) as store:
        rows = store.games()
    if not rows:
        print(f"no games yet in {path}")
        return 0
    out = sys.stdout
    out.write(f"{'game':>5}  {'rules':<9} {'board':<15} {'plies':>5}  {'started (UTC)':<19}  state\n")
    for row in rows:
        state = "open" if row.is_open else f"ended {row.result or ''}".rstrip()
        out.write(
            f"{row.id:>5}  {row.game:<9} {row.geometry:<15} {row.ply_count:>5}  {row.started_at[:19]:<19}  {state}\n"
        )
    return 0
