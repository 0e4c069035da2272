"""``cascade export GAME``: write a stored game's record in the format of docs/rules.md.

The store is opened to read only (it works beside a running companion, and a
mistyped ``--store`` path is reported, never created); the game is checked by
replaying it, and a damaged one is named with its ply.
"""

from __future__ import annotations

import argparse
import sys

from companion.options import game_number, output_path, store_path


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``export``."""
    parser = sub.add_parser("export", help="write the record of a stored game", description=__doc__)
    parser.add_argument("game", type=game_number, metavar="GAME", help="the game's number (see `cascade games`)")
    parser.add_argument(
        "--store", type=store_path, help="the game store file (default: $CASCADE_STORE or ~/.local/share/cascade)"
    )
    parser.add_argument("-o", "--output", type=output_path, help="write to this file instead of standard output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print (or write) the record."""
    from companion.store import Store, default_store_path, export_record

    with Store(args.store or default_store_path(), read_only=True) as store:
        text = export_record(store, args.game)
    if not args.output:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        print(
            f"cascade export: cannot write {args.output} ({error.strerror or error}): check the folder exists "
            "and can be written; the game is still in the store",
            file=sys.stderr,
        )
        return 2
    return 0
