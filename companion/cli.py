"""The ``cascade`` command.

Every sub-command lives in its own module under :mod:`companion.commands`;
each module has a ``register(subparsers)`` function that adds its parser and
sets ``run`` (a function of the parsed arguments returning the exit status).
Modules must keep their top level light (no OpenCV, no Flask) so that
``cascade --help`` stays fast: heavy imports go inside ``run``.

No traceback reaches a user, and every error is one line (:func:`one_line`:
no line breaks, never more than :data:`MAX_MESSAGE_CHARS`, so hostile input is
never echoed whole): a mistyped option names the option (exit status 2);
errors of the project's own packages and of the file system print their
message (2); input that is nested too deeply, not UTF-8 text or too large for
memory says so (2); anything else prints a one-line report and a hint (70;
``CASCADE_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import NoReturn

import companion.commands

OUR_PACKAGES = ("referee", "engine", "vision", "hardware", "firmware_bridge", "calibration", "companion", "hub")
USER_ERROR_STATUS = 2
INTERNAL_ERROR_STATUS = 70
MAX_MESSAGE_CHARS = 1000


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` as one line of at most ``limit`` characters: line breaks and control characters become spaces."""
    flat = " ".join("".join(char if char.isprintable() else " " for char in text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: the command, what is wrong, where to read more."""

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> object:
        # Python 3.11 drops a lone "--" given as an option's value (--port=--) and stores an empty list
        if action.nargs is None and action.option_strings and arg_strings == ["--"]:
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)

    def error(self, message: str) -> NoReturn:
        """Print the problem in one line and exit with status 2."""
        self.exit(USER_ERROR_STATUS, f"{self.prog}: {one_line(message)} (`{self.prog} --help` tells more)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = CommandParser(
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


def input_problem(error: BaseException) -> str | None:
    """Plain words for the errors that bad input causes in any library (deep nesting, bytes, size), else None."""
    if isinstance(error, RecursionError):
        return "an input is nested too deeply to read (a file of brackets thousands deep?): check the files given"
    if isinstance(error, UnicodeDecodeError):
        return (
            f"a file given is not UTF-8 text ({error.reason} at byte {error.start}): "
            "give the text file the option asks for"
        )
    if isinstance(error, MemoryError):
        return "an input is too large to hold in memory: check the files and values given"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cascade`` command and return its exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, or an option refused in one line
        return stop.code if isinstance(stop.code, int) else USER_ERROR_STATUS
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
        problem = input_problem(error)
        if problem is not None:
            print(f"cascade {args.command}: {problem}", file=sys.stderr)
            return USER_ERROR_STATUS
        if is_user_error(error):
            print(one_line(f"cascade {args.command}: {error}"), file=sys.stderr)
            return USER_ERROR_STATUS
        print(
            one_line(f"cascade {args.command}: internal error ({type(error).__name__}: {error}"[:300])
            + "). Run again with CASCADE_DEBUG=1 to see the details, and please report it.",
            file=sys.stderr,
        )
        return INTERNAL_ERROR_STATUS


if __name__ == "__main__":
    sys.exit(main())
