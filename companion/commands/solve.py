"""``cascade solve``: the value of a game's start position under best play, on a small board.

Prints the first player's final margin when both sides play to maximise
their own (Kaskade: win or loss), the positions the solver stored and the
seconds it took; ``--json`` prints ``{"value", "result", "positions",
"seconds"}``. A board too large to finish, a variant whose games need not end
(Cascades free-drop), or a search that runs past ``--limit`` is refused in
one line with exit status 2, as is any unknown game, board or variant.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.options import positive_seconds

DEFAULT_LIMIT_S = 900.0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``solve`` command."""
    parser = sub.add_parser(
        "solve",
        help="the value of a small board's start position under best play",
        description=(
            "Solve a game exactly from its start: print the first player's final margin under best play "
            "(both sides maximising their own margin; Kaskade: win or loss). Small boards only: Cascade up to "
            "16 cells (diamond:4), Cascades up to 40 (trapezoid:3,6 takes a minute or two), Kaskade up to 12 "
            "(grid:3x4). docs/engine.md lists the values found."
        ),
    )
    parser.add_argument(
        "--game", choices=("cascade", "cascades", "kaskade"), help="the game (default: the one played on --board)"
    )
    parser.add_argument(
        "--board", metavar="SPEC", required=True, help="geometry spec: diamond:3, trapezoid:3,3, grid:3x3"
    )
    parser.add_argument("--variant", help="fill-above (Cascade); territory, hexagon (Cascades)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument(
        "--limit",
        type=positive_seconds,
        default=DEFAULT_LIMIT_S,
        metavar="SECONDS",
        help=f"give up after this many seconds (default {DEFAULT_LIMIT_S:g})",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Solve and print the value, or say in one line why not."""
    from companion.cli import one_line
    from engine.errors import EngineError
    from engine.solve import solve
    from referee.errors import RefereeError
    from referee.game import game_on, make_rules

    try:
        rules = make_rules(args.game or game_on(args.board), args.board, args.variant)
        solution = solve(rules, args.limit)
    except (RefereeError, EngineError) as error:
        print(one_line(f"cascade solve: {error}"), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(solution.as_json()))
        return 0
    variant = f" ({solution.variant})" if solution.variant else ""
    if solution.game == "kaskade":
        value = "the first player (white) wins" if solution.value > 0 else "the first player (white) loses"
    else:
        first = rules.player_colour(0)
        colour = "white" if first == "o" else "black"
        value = f"{solution.value:+d} for the first player ({colour}): a {solution.result}"
    print(f"{solution.game} on {solution.board}{variant}: {value} under best play")
    print(f"best first ply: {solution.best}; {solution.positions:,} positions in {solution.seconds:.2f} s")
    return 0
