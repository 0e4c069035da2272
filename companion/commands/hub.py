"""``cascade hub``: gather every board of an event from an MQTT broker; serve its page and public feed.

Subscribes to every board publishing to ``mqtt://HOST[:PORT]/EVENT/...``
(boards run ``cascade run --publish mqtt://HOST/EVENT/BOARD``), keeps every
game in its own store (the schema of a board's store: ``cascade games`` and
``cascade export`` work on it), and serves the event's page: every board at
a glance, each board's live view, the standings, the archive, and the public
feed of records (``--delay`` minutes late if asked). docs/hub.md tells how to
run an event. Stops on Ctrl-C or SIGTERM.

The hub itself lives in the ``hub`` package, loaded by name when the command
runs, as the benchmarks are: the companion never imports it.
"""

from __future__ import annotations

import argparse
import importlib

from companion.options import event_broker, port, seconds, store_path


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``hub``."""
    parser = sub.add_parser(
        "hub", help="gather an event's boards from an MQTT broker; serve its page and feed", description=__doc__
    )
    parser.add_argument(
        "--broker",
        required=True,
        type=event_broker,
        metavar="mqtt://HOST[:PORT]/EVENT",
        help="the event's broker and the event's name",
    )
    parser.add_argument(
        "--store",
        type=store_path,
        help="the hub's game store (default: hub-EVENT.sqlite3 beside the default game store)",
    )
    parser.add_argument("--port", type=port, default=8080, help="port of the page (default 8080; 0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve the page on (default 127.0.0.1)")
    parser.add_argument(
        "--delay",
        type=seconds,
        default=0.0,
        metavar="MINUTES",
        help="minutes the public feed runs behind the games (default 0)",
    )
    parser.add_argument(
        "--wait",
        type=seconds,
        default=10.0,
        metavar="S",
        help="seconds to wait for the broker at the start (default 10)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the hub until stopped."""
    runner = importlib.import_module("hub.serve")
    return int(runner.run(args))
