"""``cascade run``: watch a real board, referee the game, light the LEDs, serve the page, log every ply.

Resumes the open game in the store when it is the same game on the same
board (after a crash or a power cut nothing is lost); otherwise starts one.
The page binds to 127.0.0.1 unless ``--host`` says otherwise; actions on it
need the token printed at start. Each accepted ply is printed as it is
committed. Stops on Ctrl-C or SIGTERM, or when the camera's frames end.

The game never waits for the LEDs: when their controller stops answering the
page and the terminal say "LEDs disconnected since 20:31, retrying", the game
goes on, and the LEDs show it again as soon as the controller is back. When
the store cannot be written (a full disk) the game goes on in memory and the
page says what to do; the plies are saved as soon as the store takes them.
With ``--publish`` the game also goes to the event's hub (docs/hub.md); a
broker that cannot be reached costs the game nothing but a line on the page.
With ``--opponent engine[:LEVEL]`` the computer plays one side (the second
player unless ``--engine-plays`` says white or black): its ply blinks fast
on the LEDs in the colour to place, the player places it for it, and the
companion checks it like any ply (docs/engine.md). It thinks up to a second
per ply, or as long as ``--engine-seconds`` says; a hint takes as long.
"""

from __future__ import annotations

import argparse
import sys

from companion.options import add_opponent_options, board_broker, port, positive_number, store_path

GAMES = ("cascade", "cascades", "kaskade")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``run``."""
    parser = sub.add_parser(
        "run", help="referee a game on a real board (camera, LEDs, buttons, page)", description=__doc__
    )
    parser.add_argument(
        "--camera",
        required=True,
        help="camera spec: 0, /dev/video0, file:..., dir:..., http://..., synth:, table:?seed=N",
    )
    parser.add_argument(
        "--leds", default="none:", help="LED spec: serial:PORT, emu:, sim:, gpio:..., console:, none: (default)"
    )
    parser.add_argument("--buttons", default="none:", help="buttons spec: gpio:..., keyboard:, web:, none: (default)")
    parser.add_argument("--profile", help="calibration profile file (a table: camera calibrates itself without one)")
    parser.add_argument(
        "--game",
        choices=GAMES,
        help="which game (default: the one played on the board of --board or the profile; cascade)",
    )
    parser.add_argument("--board", help="board geometry (default: the profile's board, else the game's standard one)")
    parser.add_argument("--variant", help="rule variant (fill-above; territory, hexagon, free-drop)")
    parser.add_argument(
        "--first", choices=("white", "black"), default="white", help="Cascade: the colour the first player owns"
    )
    parser.add_argument(
        "--store", type=store_path, help="game store file (default: $CASCADE_STORE or ~/.local/share/cascade)"
    )
    parser.add_argument("--port", type=port, default=8000, help="port of the page (default 8000; 0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve the page on (default 127.0.0.1)")
    parser.add_argument(
        "--fps",
        type=positive_number,
        default=None,
        help="frames per second to take from the camera (default: as they come)",
    )
    parser.add_argument("--jpeg", action="store_true", help="keep a JPEG of the board with every accepted ply")
    parser.add_argument(
        "--publish",
        type=board_broker,
        metavar="mqtt://HOST[:PORT]/EVENT/BOARD",
        help="publish the game to the event's hub through this MQTT broker (docs/hub.md)",
    )
    parser.add_argument("--white", default="", help="the name of the player of white (for the event's standings)")
    parser.add_argument("--black", default="", help="the name of the player of black")
    add_opponent_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run until stopped."""
    from companion.running import start_run

    session = start_run(args)
    urls = session.urls
    live = session.live
    state = "resuming" if live.moves else "starting"
    print(
        f"cascade run: {state} game {live.game_id} ({live.position.rules.game} on {live.position.rules.spec}), "
        f"{len(live.moves)} plies so far",
        flush=True,
    )
    left = live.left_unfinished
    if left is not None:
        print(
            f"cascade run: game {left.id} ({left.game} on {left.geometry}, {left.ply_count} plies) was still open; "
            f"it is kept, unfinished (cascade export {left.id} writes it)",
            flush=True,
        )
    print(f"  page:          {urls.page}", flush=True)
    print(f"  with controls: {urls.control}", flush=True)
    print(f"  action token:  {urls.token}", flush=True)
    if session.publisher is not None:
        print(f"  publishing to: {session.publisher.destination}", flush=True)
    computer = live.advice.computer
    if computer is not None:
        from companion.computer import side_words

        print(f"  the computer:  {side_words(live.position.rules, computer)}", flush=True)
    try:
        reason = session.wait()
    finally:
        session.close()
    if session.worker_error is not None:
        raise session.worker_error
    print(
        f"cascade run: stopped ({reason}); game {live.game_id} has {len(live.moves)} plies, "
        f"result {live.position.result}",
        file=sys.stderr,
        flush=True,
    )
    return report_unsaved("cascade run", live.unsaved_plies())


def report_unsaved(command: str, plies: list[str]) -> int:
    """Name the plies the store never took (it could not be written); 1 if there are any, else 0."""
    if not plies:
        return 0
    print(
        f"{command}: the game store could not be written, so the last {len(plies)} "
        f"{'ply was' if len(plies) == 1 else 'plies were'} not saved: {'; '.join(plies)}. "
        "Write them down; free disk space or make the store writable before the next game.",
        file=sys.stderr,
        flush=True,
    )
    return 1
