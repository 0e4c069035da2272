"""``cascade demo``: the whole companion on simulated hardware, with a page to watch.

The synthetic camera films two players going through a scripted game: hands
come and go, stones are dropped and cascades filled in, and once one player
places a stone of the wrong colour; the companion catches it, the LEDs (the
``emu:`` device, real protocol) and the page show what to fix, and the
players fix it. With ``--opponent engine[:LEVEL]`` a scripted player plays
against the computer instead (thinking up to a second per ply, or
``--engine-seconds``): the LEDs light the computer's plies, the player places
them for it (once, first on a wrong cell). When a game ends another begins.
The store is a temporary file. Stops after ``--duration`` seconds, or on
Ctrl-C, cleanly.
"""

from __future__ import annotations

import argparse
import sys

from companion.options import add_opponent_options, board_broker, port, positive_number, positive_seconds

GAMES = ("cascade", "cascades", "kaskade")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``demo``."""
    parser = sub.add_parser(
        "demo", help="run a live game on simulated hardware and serve its page", description=__doc__
    )
    parser.add_argument("--port", type=port, default=8000, help="port of the page (default 8000; 0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve the page on (default 127.0.0.1)")
    parser.add_argument("--duration", type=positive_seconds, default=None, metavar="S", help="stop after S seconds")
    parser.add_argument("--game", choices=GAMES, default="cascade", help="which game to play (default cascade)")
    parser.add_argument("--board", default=None, help="board geometry (default: the game's standard board)")
    parser.add_argument("--fps", type=positive_number, default=8.0, help="camera frames per second (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the scripted games (default 1)")
    parser.add_argument("--leds", default="emu:", help="LED spec (default emu:, the device emulator)")
    parser.add_argument(
        "--no-camera",
        action="store_true",
        help="feed the table's boards straight to the referee instead of filming them (for a slow machine)",
    )
    parser.add_argument(
        "--publish",
        type=board_broker,
        metavar="mqtt://HOST[:PORT]/EVENT/BOARD",
        help="publish the games to the event's hub through this MQTT broker (docs/hub.md)",
    )
    add_opponent_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the demo until the time is up or a signal stops it."""
    if args.duration is not None and args.duration <= 0:
        print("cascade demo: --duration must be a positive number of seconds", file=sys.stderr)
        return 2
    if args.fps <= 0:
        print("cascade demo: --fps must be a positive number", file=sys.stderr)
        return 2
    import tempfile

    from companion.commands.run import report_unsaved
    from companion.demo_game import start_demo

    with tempfile.TemporaryDirectory(prefix="cascade-demo-") as folder:
        session = start_demo(
            folder,
            game=args.game,
            board=args.board,
            seed=args.seed,
            fps=args.fps,
            leds_spec=args.leds,
            host=args.host,
            port=args.port,
            camera=False if args.no_camera else None,
            publish=args.publish,
            opponent=args.opponent,
            engine_plays=args.engine_plays,
            engine_seconds=args.engine_seconds,
        )
        urls = session.urls
        how = "filmed by the synthetic camera" if session.filmed else "boards fed straight to the referee, no camera"
        print(f"The board companion demo: {args.game} on {session.live.position.rules.spec}, {how}", flush=True)
        print(f"  watch the game:      {urls.page}", flush=True)
        print(f"  with the controls:   {urls.control}", flush=True)
        print(f"  action token:        {urls.token}", flush=True)
        if session.publisher is not None:
            print(f"  publishing to:       {session.publisher.destination}", flush=True)
        if session.live.advice.computer is not None:
            from companion.computer import side_words

            print(f"  the computer:        {side_words(session.live.position.rules, session.live.advice.computer)}")
        print("Press Ctrl-C to stop.", flush=True)
        try:
            reason = session.wait(args.duration)
            plies = len(session.live.moves)
            games = len(session.store.games())
        finally:
            session.close()
        if session.worker_error is not None:
            raise session.worker_error
    print(f"Demo stopped ({reason}): {games} game(s), {plies} ply(ies) in the current one.", flush=True)
    return report_unsaved("cascade demo", session.live.unsaved_plies())
