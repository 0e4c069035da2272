"""``cascade link``: run an LED controller emulator on a pseudo-terminal, or ask a controller who it is.

``link emu`` and ``link sim`` stop on Ctrl-C or SIGTERM and remove their port;
``--port PATH`` puts the port at a fixed path, so that a companion using
``serial:PATH`` finds the controller again after it is restarted.
"""

from __future__ import annotations

import argparse
import signal


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``link emu``, ``link sim`` and ``link info``."""
    parser = sub.add_parser("link", help="LED controller emulators and the serial link")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, summary in (
        ("emu", "run the Python LED controller on a pseudo-terminal and print its port"),
        ("sim", "run the compiled firmware in simavr on a pseudo-terminal and print its port"),
    ):
        action = actions.add_parser(name, help=summary, description=summary)
        action.add_argument("--leds", type=int, default=64, help="LEDs on the chain, 1..256 (default 64)")
        action.add_argument(
            "--port",
            metavar="PATH",
            help="put the port at this path (a link to the pseudo-terminal), so a restarted controller is found "
            "where the last one was (default: a fresh temporary path)",
        )
        action.set_defaults(run=run_emulator, kind=name)
    info = actions.add_parser("info", help="shake hands with a controller and print what it announces")
    info.add_argument("spec", help="a serial port or pyserial URL (/dev/ttyACM0, socket://host:port), emu: or sim:")
    info.set_defaults(run=run_info)


def run_emulator(args: argparse.Namespace) -> int:
    """Keep an emulator running until Ctrl-C; its port can be opened by ``cascade`` or any serial tool."""
    import threading

    from firmware_bridge.emulator import EmulatedDevice
    from firmware_bridge.sim import SimulatedDevice

    device: EmulatedDevice | SimulatedDevice
    if args.kind == "emu":
        device = EmulatedDevice(leds=args.leds, port_path=args.port)
    else:
        device = SimulatedDevice(leds=args.leds, port_path=args.port)
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    try:
        print(
            f"{args.kind}: {args.leds} LEDs on {device.port} (LED spec serial:{device.port}; Ctrl-C stops)",
            flush=True,
        )
        while not stop.wait(0.5):
            pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        device.close()
    return 0


def run_info(args: argparse.Namespace) -> int:
    """Print the device's announcement."""
    from firmware_bridge import PALETTE_NAMES, open_device

    with open_device(args.spec) as link:
        info = link.info
        major, minor, patch = info.firmware_version
        print(f"protocol {info.protocol_version}, firmware {major}.{minor}.{patch}, {info.led_count} LEDs")
        print(f"capabilities: {info.capabilities!r}")
        for index, rgb in enumerate(info.palette):
            name = PALETTE_NAMES[index] if index < len(PALETTE_NAMES) and rgb else ""
            print(f"  colour {index:2}: #{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x} {name}")
    return 0
