"""``cascade export GAME``: write a stored game's record in the format of RULES.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``export``."""
    parser = sub.add_parser("export", help="write the record of a stored game", description=__doc__)
    parser.add_argument("game", type=int, metavar="GAME", help="the game's number (see `cascade games`)")
    parser.add_argument("--store", help="the game store file (default: $CASCADE_STORE or ~/.local/share/cascade)")
    parser.add_argument("-o", "--output", help="write to this file instead of standard output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print (or write) the record."""
    from companion.store import Store, default_store_path, export_record

    with Store(args.store or default_store_path()) as store:
        text = export_record(store, args.game)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
