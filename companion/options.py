"""Checked option values for the ``cascade`` command: argparse ``type=`` functions.

Each function takes the text given on the command line and returns the value,
or raises :class:`argparse.ArgumentTypeError` with a message that says what
was expected; argparse then prints one line naming the option and exits with
status 2. They refuse what would otherwise be misread quietly: a port above
65535 (the socket layer wraps it around), ``nan`` seconds (never reached),
an empty store path (read as "the default"), a size of 0 (read as "the
standard board"), numbers of thousands of digits.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from referee.quoting import shown

MAX_DIGITS = 18


def _whole(text: str) -> int | None:
    """The whole number written in ``text`` (ASCII digits, optional sign), or None."""
    digits = text.strip()
    body = digits[1:] if digits[:1] in "+-" else digits
    if not (body.isascii() and body.isdigit()) or len(body) > MAX_DIGITS:
        return None
    return int(digits)


def whole_number(low: int, high: int | None = None, what: str = "a whole number") -> Callable[[str], int]:
    """A ``type=`` for a whole number from ``low`` to ``high`` (no upper bound when None)."""
    span = f"from {low} to {high}" if high is not None else f"of at least {low}"

    def parse(text: str) -> int:
        value = _whole(text)
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {what} {span}, not {shown(text)}")
        return value

    parse.__name__ = "whole number"
    return parse


def port(text: str) -> int:
    """A ``type=`` for a TCP port: 0 (any free port) to 65535."""
    value = _whole(text)
    if value is None or not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 0 to 65535 (0: any free port), not {shown(text)}")
    return value


def _number(text: str) -> float | None:
    try:
        value = float(text) if len(text) <= 64 else math.nan
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def positive_number(text: str) -> float:
    """A ``type=`` for a finite number above 0 (frames per second, a rate)."""
    value = _number(text)
    if value is None or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {shown(text)}")
    return value


def positive_seconds(text: str) -> float:
    """A ``type=`` for a finite number of seconds above 0 (a duration)."""
    value = _number(text)
    if value is None or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {shown(text)}")
    return value


def seconds(text: str) -> float:
    """A ``type=`` for a finite number of seconds, 0 or more (a pause)."""
    value = _number(text)
    if value is None or value < 0:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, 0 or more, not {shown(text)}")
    return value


def store_path(text: str) -> str:
    """A ``type=`` for the game store's file: a path that is not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "needs the store's file name, not an empty string (leave it out for the default)"
        )
    if "\0" in text:
        raise argparse.ArgumentTypeError("a file name cannot hold a NUL character")
    return text


def output_path(text: str) -> str:
    """A ``type=`` for a file to write: a path that is not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a file name, not an empty string")
    return text


def game_number(text: str) -> int:
    """A ``type=`` for a game's number in the store: a whole number from 1."""
    value = _whole(text)
    if value is None or not 1 <= value < 2**63:
        raise argparse.ArgumentTypeError(
            f"must be a game's number, like 3 (`cascade games` lists them), not {shown(text)}"
        )
    return value


def board_broker(text: str) -> object:
    """A ``type=`` for where a board publishes: ``mqtt://HOST[:PORT]/EVENT/BOARD`` (a BrokerUrl)."""
    from companion.broker_url import BrokerUrlError, parse_broker_url

    try:
        return parse_broker_url(text, board=True)
    except BrokerUrlError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def event_broker(text: str) -> object:
    """A ``type=`` for where a hub listens: ``mqtt://HOST[:PORT]/EVENT`` (a BrokerUrl)."""
    from companion.broker_url import BrokerUrlError, parse_broker_url

    try:
        return parse_broker_url(text, board=False)
    except BrokerUrlError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def opponent(text: str) -> object:
    """A ``type=`` for ``--opponent``: ``engine`` or ``engine:LEVEL`` (an :class:`~companion.computer.Opponent`)."""
    from companion.computer import OpponentError, parse_opponent

    try:
        return parse_opponent(text)
    except OpponentError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def engine_side(text: str) -> str:
    """A ``type=`` for ``--engine-plays``: white or black (or first or second)."""
    from companion.computer import OpponentError, parse_side

    try:
        return parse_side(text)
    except OpponentError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_opponent_options(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    """``--opponent engine[:LEVEL]``, ``--engine-plays white|black`` and ``--engine-seconds SECONDS``
    (``default``: the opponent unless given)."""
    parser.add_argument(
        "--opponent",
        type=opponent,
        default=None if default is None else opponent(default),
        metavar="engine[:LEVEL]",
        help="play against the computer, at a level: beginner, casual, club (the default) or strongest",
    )
    parser.add_argument(
        "--engine-plays",
        type=engine_side,
        metavar="white|black",
        help="the side the computer plays (default: the second player; first and second are understood too)",
    )
    parser.add_argument(
        "--engine-seconds",
        type=positive_seconds,
        metavar="SECONDS",
        help="the computer's time to choose each of its plies, and to choose a hint (default 1)",
    )
