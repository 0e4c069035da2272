"""The ``cascade`` command.

Every sub-command lives in its own module under :mod:`companion.commands`;
each module has a ``register(subparsers)`` function that adds its parser and
sets ``run`` (a function of the parsed arguments returning the exit status).
Modules must keep their top level light (no OpenCV, no Flask) so that
``cascade --help`` stays fast: heavy imports go inside ``run``.

No traceback reaches a user: errors of the project's own packages print their
message; anything unexpected prints a one-line report and a hint
(``CASCADE_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import traceback
from collections.abc import Callable, Sequence

import companion.commands

OUR_PACKAGES = ("referee", "vision", "hardware", "firmware_bridge", "calibration", "companion")
USER_ERROR_STATUS = 2
INTERNAL_ERROR_STATUS = 70


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="cascade",
        description="The board companion: referee, camera, LEDs and page for the cascade games.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    names = sorted(m.name for m in pkgutil.iter_modules(companion.commands.__path__))
    for name in names:
        if name.startswith("_"):
            continue
        module = importlib.import_module(f"companion.commands.{name}")
        module.register(sub)
    return parser


def is_user_error(error: BaseException) -> bool:
    """True for the project's own typed errors and for file-system errors."""
    module = type(error).__module__.split(".")[0]
    return module in OUR_PACKAGES or isinstance(error, OSError)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cascade`` command and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return int(run(args) or 0)
    except KeyboardInterrupt:
        print("cascade: stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # the one place that keeps tracebacks from users
        if os.environ.get("CASCADE_DEBUG"):
            traceback.print_exc()
        if is_user_error(error):
            print(f"cascade {args.command}: {error}", file=sys.stderr)
            return USER_ERROR_STATUS
        print(
            f"cascade {args.command}: internal error ({type(error).__name__}: {error}). "
            "Run again with CASCADE_DEBUG=1 to see the details, and please report it.",
            file=sys.stderr,
        )
        return INTERNAL_ERROR_STATUS


if __name__ == "__main__":
    sys.exit(main())
