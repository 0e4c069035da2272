"""``cascade replay FILE``: check a record against the rules, print the final diagram and score.

Exit status 0 when every ply and listed cascade agrees with the rules; 1 with
the first disagreement (move number, player, what the record says, what the
rules give); 2 when the file cannot be read or parsed (with line and column).
At most :data:`referee.records.MAX_RECORD_CHARS` bytes are read: a larger
file (or ``/dev/zero``) is refused at once, in one line.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.records import Record


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``replay`` command."""
    parser = sub.add_parser(
        "replay",
        help="check a game record against the rules and print the final position",
        description=(
            "Replay a record (the format of docs/rules.md) through the rules, checking every ply and every "
            "listed cascade; print the final diagram and the score. Exit status 0: consistent; 1: a ply "
            "disagrees with the rules; 2: the file cannot be read or parsed."
        ),
    )
    parser.add_argument("file", metavar="FILE", help="the record to replay")
    parser.set_defaults(run=run)


def read_text(path: str) -> str:
    """The text of a record file; raises RecordError for a file that is too large or not UTF-8 text."""
    from referee.errors import RecordError
    from referee.records import MAX_RECORD_CHARS

    with open(path, "rb") as handle:
        data = handle.read(MAX_RECORD_CHARS + 1)
    if len(data) > MAX_RECORD_CHARS:
        raise RecordError(
            f"the file is larger than the {MAX_RECORD_CHARS:,} bytes a record may be "
            "(a game's record is a few kilobytes): is this the right file?"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise RecordError("this is not a text record (bytes that are not UTF-8 text)", line, column) from error


def load_record(path: str) -> Record:
    """The record in the file ``path``; raises RecordError saying, in one line, what is wrong with the file
    (missing, a folder, unreadable, too large, not text) or with the record it holds."""
    from referee.errors import RecordError
    from referee.records import read_record

    try:
        text = read_text(path)
    except FileNotFoundError:
        raise RecordError("no such file: give the path of a record") from None
    except IsADirectoryError:
        raise RecordError("this is a folder, not a record file") from None
    except OSError as error:
        raise RecordError(f"cannot read it ({error.strerror})") from None
    return read_record(text)


def run(args: argparse.Namespace) -> int:
    """Replay the record; print the diagram and score, or the first problem."""
    from companion.cli import one_line
    from referee.errors import RefereeError, ReplayError
    from referee.records import replay

    def fail(message: str, status: int) -> int:
        print(one_line(f"cascade replay: {args.file}: {message}"), file=sys.stderr)
        return status

    try:
        record = load_record(args.file)
    except RefereeError as error:
        return fail(str(error), 2)
    try:
        game = replay(record)
    except ReplayError as error:
        return fail(str(error), 1)
    print(game.position.diagram(), end="")
    from referee.symbols import colour_name

    state = f"result {game.result}" if game.is_over else f"{colour_name(game.position.mover_colour)} to play"
    print(f"score: {game.score}; {state}")
    return 0
