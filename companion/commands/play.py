"""``cascade play``: a text game in the terminal, plies typed in record notation.

The diagram is printed after each ply; ``undo`` takes the last ply back,
``quit`` (or the end of the input) ends the game. The record is written at
the end, to the file given with ``-o`` or on standard output; Ctrl-C ends the
game the same way (the record of the plies so far is written, and the
command says so). ``-o`` is checked before the game starts, and should the
file still fail at the end, the record is printed instead of being lost.
Players' names are escaped in the record's headers. Works with scripted input
(stdin not a terminal).

With ``--opponent engine[:LEVEL]`` the computer plays one side (the second
player unless ``--engine-plays`` says otherwise) and prints its plies;
``hint`` asks it for the best ply of the player to move, and ``undo`` takes
back the computer's reply with the player's ply. Both think up to a second,
or as long as ``--engine-seconds`` says.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.options import add_opponent_options, output_path, whole_number

if TYPE_CHECKING:
    from companion.computer import Computer
    from referee.game import Game

HELP = "type a ply in record notation ({example}), 'undo', 'resigns', 'quit' or 'help'"
HELP_AGAINST = "type a ply in record notation ({example}), 'hint', 'undo', 'resigns', 'quit' or 'help'"
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
    parser.add_argument("--size", type=whole_number(2, 13), help="Cascade: N of the diamond:N board (2-13)")
    parser.add_argument("--top", type=whole_number(1, 26), help="Cascades: cells in the top row (T, 1-26)")
    parser.add_argument("--rows", type=whole_number(1, 26), help="Cascades: rows of the trapezoid (R, 1-26)")
    parser.add_argument("--width", type=whole_number(2, 26), help="Kaskade: columns (2-26)")
    parser.add_argument("--height", type=whole_number(2, 26), help="Kaskade: rows (2-26)")
    parser.add_argument("--variant", help="fill-above (Cascade); territory, hexagon, free-drop (Cascades)")
    parser.add_argument("--first", choices=("white", "black"), default="white", help="Cascade: first player's colour")
    parser.add_argument("--white", help="name of the white player")
    parser.add_argument("--black", help="name of the black player")
    parser.add_argument(
        "-o", "--output", type=output_path, metavar="FILE", help="write the record to FILE (default: print it)"
    )
    add_opponent_options(parser)
    parser.set_defaults(run=run)


def board_spec(args: argparse.Namespace) -> str | None:
    """The geometry spec from ``--board`` or the size options (None: the standard board)."""
    from companion.errors import SetupError

    given = {
        "--size": args.size,
        "--top": args.top,
        "--rows": args.rows,
        "--width": args.width,
        "--height": args.height,
    }
    mine = {"cascade": ("--size",), "cascades": ("--top", "--rows"), "kaskade": ("--width", "--height")}[args.game]
    stray = [name for name, value in given.items() if value is not None and (name not in mine or args.board)]
    if stray:
        instead = "--board" if args.board else " and ".join(mine)
        raise SetupError(f"{stray[0]} does not size a {args.game} board here: use {instead}")
    if args.board:
        return str(args.board)
    if args.game == "cascade" and args.size is not None:
        return f"diamond:{args.size}"
    if args.game == "cascades" and (args.top is not None or args.rows is not None):
        kind = "hexagon" if args.variant == "hexagon" else "trapezoid"
        return f"{kind}:{args.top or 8},{args.rows or 8}"
    if args.game == "kaskade" and (args.width is not None or args.height is not None):
        return f"grid:{args.width or 6}x{args.height or 6}"
    return None


def check_output(path: str) -> None:
    """Refuse, before the game starts, a record file that cannot be written (raises SetupError)."""
    from companion.errors import SetupError

    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise SetupError(f"-o {path}: there is no folder {folder}; make it first, or choose another file")
    if target.is_dir():
        raise SetupError(f"-o {path} is a folder: give a file name for the record")
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise SetupError(
            f"-o {path} cannot be written ({error.strerror or error}): choose a file in a folder you can write to"
        ) from error
    if not existed:
        os.unlink(target)


def save_record(record: str, path: str | None) -> bool:
    """Write the record to ``path`` (or print it); when the file fails, print the record instead. True if saved."""
    if not path:
        print(record, end="")
        return True
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(record)
    except OSError as error:
        print(f"cascade play: cannot write {path} ({error.strerror or error}); the record follows", file=sys.stderr)
        print(record, end="")
        return False
    print(f"record written to {path}")
    return True


def run(args: argparse.Namespace) -> int:
    """Play until the game ends, ``quit``, the end of the input or Ctrl-C; then write the record."""
    from companion.advice import advice_for
    from companion.computer import record_names, side_words
    from referee.game import new_game
    from referee.records import write_record

    spec = board_spec(args)
    if args.output:
        check_output(args.output)
    game = new_game(args.game, spec, args.variant, args.first)
    computer = advice_for(args.opponent, args.engine_plays, game.rules, args.engine_seconds, seed=0).computer
    names = {k: v for k, v in (("White", args.white), ("Black", args.black)) if v}
    names = {**record_names(game.rules, computer), **names}
    game = game.with_headers(**names)
    helptext = (HELP if computer is None else HELP_AGAINST).format(example=EXAMPLES[args.game])
    if computer is not None:
        print(f"playing against the computer: {side_words(game.rules, computer)}")
    print(f"{args.game} on {game.rules.spec}{' (' + args.variant + ')' if args.variant else ''}; {helptext}")
    print(game.position.diagram(), end="", flush=True)
    latest = [game]
    interrupted = False
    try:
        play_out(helptext, latest, computer)
    except KeyboardInterrupt:
        interrupted = True
        print()
    game = latest[0]
    print(f"score: {game.score}; " + (f"result {game.result}" if game.is_over else "game not finished"))
    if interrupted:
        plies = "ply" if len(game.moves) == 1 else "plies"
        where = f"to {args.output}" if args.output else "below"
        print(f"cascade play: stopped by Ctrl-C; the record of the {len(game.moves)} {plies} so far is written {where}")
    saved = save_record(write_record(game), args.output)
    if interrupted:
        return 130
    return 0 if saved else 2


def play_out(helptext: str, latest: list[Game], computer: Computer | None = None) -> None:
    """Read and play plies until the game ends, ``quit`` or the end of the input; ``latest[0]`` is kept current.

    With a ``computer``, it plays its side as soon as it is to move.
    """
    from engine import analyse, hint
    from referee.errors import RefereeError
    from referee.records import player_name

    out = sys.stdout
    game = latest[0]
    while not game.is_over:
        if computer is not None and computer.plays(game.position):
            ply = analyse(game.position, computer.opponent.level, computer.budget_s, computer.seed).ply
            game = latest[0] = game.play(ply)
            print(f"the computer plays {_played(game)}")
            print(game.position.diagram(), end="", flush=True)
            continue
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
                game = latest[0] = game.undo()
                while computer is not None and computer.plays(game.position) and game.moves:
                    game = latest[0] = game.undo()  # the computer's reply goes back with the player's ply
            except RefereeError as error:
                print(f"cannot undo: {error}")
                continue
            print(game.position.diagram(), end="")
            continue
        if text == "hint" and computer is not None:
            advice = hint(game.position, computer.budget_s)
            print(f"hint: {advice.ply} (the engine expects {' '.join(str(p) for p in advice.line)})")
            continue
        try:
            game = latest[0] = game.play(text)
        except RefereeError as error:
            print(f"not played: {error}")
            continue
        print(f"played {_played(game)}")
        print(game.position.diagram(), end="", flush=True)


def _played(game: Game) -> str:
    """The last ply with what it caused: ``x f5 cascade =o``, ``c3 2 overflow waves``."""
    move = game.moves[-1]
    extra = f" cascade {move.cascade}" if move.cascade else ""
    if move.waves:
        extra = f" {len(move.waves)} overflow wave{'s' if len(move.waves) > 1 else ''}"
    return f"{move.ply}{extra}"
