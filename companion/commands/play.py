"""``cascade play``: a text game in the terminal, plies typed in record notation.

The diagram is printed after each ply; ``undo`` takes the last ply back,
``quit`` (or the end of the input) ends the game. The record is written at
the end, to the file given with ``-o`` or on standard output. Works with
scripted input (stdin not a terminal).
"""

from __future__ import annotations

import argparse
import sys

HELP = "type a ply in record notation ({example}), 'undo', 'resigns', 'quit' or 'help'"
EXAMPLES = {"cascade": "o d5", "cascades": "c2 or c2,d3 or pass", "kaskade": "c3"}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``play`` command."""
    parser = sub.add_parser(
        "play",
        help="play a game in the terminal, plies typed in record notation",
        description="Play Cascade, Cascades or Kaskade in the terminal; the record is written at the end.",
    )
    parser.add_argument("--game", choices=("cascade", "cascades", "kaskade"), default="cascade")
    parser.add_argument("--board", metavar="SPEC", help="geometry spec, e.g. diamond:8, hex-diamond:6, grid:7x5")
    parser.add_argument("--size", type=int, help="Cascade: N of the diamond:N board")
    parser.add_argument("--top", type=int, help="Cascades: cells in the top row (T)")
    parser.add_argument("--rows", type=int, help="Cascades: rows of the trapezoid (R)")
    parser.add_argument("--width", type=int, help="Kaskade: columns")
    parser.add_argument("--height", type=int, help="Kaskade: rows")
    parser.add_argument("--variant", help="fill-above (Cascade); territory, hexagon, free-drop (Cascades)")
    parser.add_argument("--first", choices=("white", "black"), default="white", help="Cascade: first player's colour")
    parser.add_argument("--white", help="name of the white player")
    parser.add_argument("--black", help="name of the black player")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the record to FILE (default: print it)")
    parser.set_defaults(run=run)


def board_spec(args: argparse.Namespace) -> str | None:
    """The geometry spec from ``--board`` or the size options (None: the standard board)."""
    if args.board:
        return str(args.board)
    if args.game == "cascade" and args.size:
        return f"diamond:{args.size}"
    if args.game == "cascades" and (args.top or args.rows):
        kind = "hexagon" if args.variant == "hexagon" else "trapezoid"
        return f"{kind}:{args.top or 8},{args.rows or 8}"
    if args.game == "kaskade" and (args.width or args.height):
        return f"grid:{args.width or 6}x{args.height or 6}"
    return None


def run(args: argparse.Namespace) -> int:
    """Play until the game ends, ``quit`` or the end of the input; then write the record."""
    from referee.errors import RefereeError
    from referee.game import new_game
    from referee.records import player_name, write_record

    game = new_game(args.game, board_spec(args), args.variant, args.first)
    names = {k: v for k, v in (("White", args.white), ("Black", args.black)) if v}
    game = game.with_headers(**names)
    out = sys.stdout
    helptext = HELP.format(example=EXAMPLES[args.game])
    print(f"{args.game} on {game.rules.spec}{' (' + args.variant + ')' if args.variant else ''}; {helptext}")
    print(game.position.diagram(), end="", flush=True)
    while not game.is_over:
        number = len(game.moves) // 2 + 1
        out.write(f"move {number}, {player_name(game.rules, game.position.to_move)}> ")
        out.flush()
        line = sys.stdin.readline()
        if not line:
            print()
            break
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text in ("quit", "exit"):
            break
        if text == "help":
            print(helptext)
            continue
        if text == "undo":
            try:
                game = game.undo()
            except RefereeError as error:
                print(f"cannot undo: {error}")
                continue
            print(game.position.diagram(), end="")
            continue
        try:
            game = game.play(text)
        except RefereeError as error:
            print(f"not played: {error}")
            continue
        move = game.moves[-1]
        extra = f" cascade {move.cascade}" if move.cascade else ""
        if move.waves:
            extra = f" {len(move.waves)} overflow wave{'s' if len(move.waves) > 1 else ''}"
        print(f"played {move.ply}{extra}")
        print(game.position.diagram(), end="", flush=True)
    print(f"score: {game.score}; " + (f"result {game.result}" if game.is_over else "game not finished"))
    record = write_record(game)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(record)
        print(f"record written to {args.output}")
    else:
        print(record, end="")
    return 0
