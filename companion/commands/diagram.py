"""``cascade diagram FILE``: draw the board of a record, every cell named, as SVG or PNG.

The record is replayed as ``cascade replay`` does (exit 1 when a ply
disagrees with the rules, 2 when the file cannot be read); the position
drawn is the final one, or the one after ``--ply N`` plies (0: the start).
Without ``--svg`` or ``--png`` the text diagram is printed.
"""

from __future__ import annotations

import argparse
import sys

from companion.options import output_path, whole_number


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``diagram`` command."""
    parser = sub.add_parser(
        "diagram",
        help="draw a record's board (final or after N plies) as SVG or PNG, every cell named",
        description=__doc__,
    )
    parser.add_argument("file", metavar="FILE", help="the record to draw")
    parser.add_argument(
        "--ply",
        type=whole_number(0, 999_999, "a number of plies"),
        help="draw the position after this many plies (default: the end)",
    )
    parser.add_argument("--svg", type=output_path, metavar="OUT", help="write the picture as SVG to this file")
    parser.add_argument("--png", type=output_path, metavar="OUT", help="write the picture as PNG to this file")
    parser.add_argument("--title", help="a line written above the board")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay the record and draw the chosen position."""
    from companion.cli import one_line
    from companion.commands.replay import load_record
    from companion.picture import board_shapes, to_png, to_svg
    from referee.errors import RefereeError, ReplayError
    from referee.records import replay

    def fail(message: str, status: int) -> int:
        print(one_line(f"cascade diagram: {message}"), file=sys.stderr)
        return status

    try:
        record = load_record(args.file)
    except RefereeError as error:
        return fail(f"{args.file}: {error}", 2)
    try:
        game = replay(record)
    except ReplayError as error:
        return fail(f"{args.file}: {error}", 1)
    plies = len(game.moves)
    if args.ply is not None and args.ply > plies:
        return fail(f"--ply {args.ply}: the record has {plies} plies; give a number from 0 to {plies}", 2)
    position = game.position if args.ply is None else (game.moves[args.ply - 1].position if args.ply else game.start)
    if not args.svg and not args.png:
        print(position.diagram(), end="")
        return 0
    drawing = board_shapes(position, args.title)
    outputs = [(path, to_svg(drawing).encode("utf-8")) for path in [args.svg] if path]
    outputs += [(path, to_png(drawing)) for path in [args.png] if path]
    for path, data in outputs:
        try:
            with open(path, "wb") as handle:
                handle.write(data)
        except OSError as error:
            return fail(f"cannot write {path} ({error.strerror}): choose a folder that exists and can be written", 2)
    return 0
