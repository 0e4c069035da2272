"""A property-based fuzz of the command line: any option value, any file, any typed input.

Whatever hypothesis generates, ``cascade`` answers with at most one line on
standard error, an exit status that says what happened (0 done, 1 a record or
store that disagrees, 2 bad input, 130 stopped) and never a traceback; the
values it accepts are ones it can use (a port that exists, a finite number of
seconds, a store path that is not empty).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import sqlite3
import sys
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import build_parser, main
from companion.store import Store

# Placeholders that satisfy each command's required arguments, so the fuzzed option is the one judged.
BASE: dict[tuple[str, ...], list[str]] = {
    ("bench", "referee"): [],
    ("bench", "engine"): [],
    ("bench", "vision"): [],
    ("bench", "link"): [],
    ("bench", "leds"): [],
    ("bench", "live"): [],
    ("bench", "calibration"): [],
    ("bench", "real"): [],
    ("bench", "hub"): [],
    ("bench", "page"): [],
    ("hub",): ["--broker", "mqtt://127.0.0.1/ev"],
    ("calibrate",): ["--geometry", "diamond:8", "-o", "p.json"],
    ("demo",): [],
    ("diagram",): ["game.rec"],
    ("export",): ["1"],
    ("games",): [],
    ("leds", "test"): ["--leds", "none:"],
    ("leds", "show"): ["--leds", "none:", "--cells", "h1=o"],
    ("leds", "legend"): [],
    ("link", "emu"): [],
    ("link", "sim"): [],
    ("link", "info"): ["emu:"],
    ("play",): [],
    ("print-markers",): ["--geometry", "diamond:8", "-o", "m.png"],
    ("read",): ["--profile", "p.json", "photo.png"],
    ("replay",): ["game.rec"],
    ("run",): ["--camera", "table:"],
    ("solve",): ["--board", "diamond:2"],
}
# Commands of the board companion proper whose accepted values must also make sense (see sensible()).
CHECKED = {
    *{("run",), ("demo",), ("play",), ("export",), ("games",), ("replay",), ("diagram",), ("print-markers",)},
    ("hub",),
    ("solve",),
    ("leds", "test"),
}

AWKWARD = st.sampled_from(
    [
        *("nan", "NaN", "inf", "-inf", "-1", "0", "1", "65535", "65536", "80000", "1e30", "-0", "+5", "1.5", "0x10"),
        *("1_000", "٣", "²", "9" * 30, "9" * 5000, "", " ", "\t", "-", "--", "é", "</script>", "a\nb", "\x1b[31m"),
    ]
)
VALUES = st.one_of(AWKWARD, st.text(max_size=40), st.integers(-(10**9), 10**9).map(str), st.floats().map(repr))


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))
            return
    yield path, parser


PARSER = build_parser()
COMMANDS = dict(commands(PARSER))
OPTIONS = sorted(
    (path, action.option_strings[-1])
    for path, parser in COMMANDS.items()
    for action in parser._actions
    if action.option_strings and action.nargs != 0 and not isinstance(action, argparse._HelpAction)
)


@contextlib.contextmanager
def captured(stdin: str = "") -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            yield out, err
    finally:
        sys.stdin = saved


def assert_one_clear_line(err: str) -> None:
    assert "Traceback" not in err
    assert len(err.splitlines()) <= 1, err
    assert len(err) <= 1200


def sensible(args: argparse.Namespace) -> None:
    """Values a command accepted are values it can use."""
    for name, value in vars(args).items():
        if isinstance(value, float):
            assert math.isfinite(value), (name, value)
        if name == "port" and value is not None:
            assert 0 <= value <= 65535
        if name in ("store", "output") and value is not None:
            assert value.strip()
        if name in ("size", "top", "rows", "width", "height") and value is not None:
            assert 1 <= value <= 26
        if name == "game" and isinstance(value, int):
            assert value >= 1
        if name == "engine_seconds" and value is not None:
            assert value > 0


def test_every_command_is_fuzzed():
    assert set(COMMANDS) == set(BASE)


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.sampled_from(OPTIONS), VALUES)
def test_any_option_value_is_accepted_sensibly_or_refused_in_one_line(option, value):
    path, flag = option
    argv = [*path, *BASE[path], f"{flag}={value}" if flag.startswith("--") else f"{flag}{value}"]
    with captured() as (_, err):
        try:
            args = PARSER.parse_args(argv)
        except SystemExit as stop:
            assert stop.code == 2
            assert err.getvalue().startswith(f"cascade {' '.join(path)}: ")
            assert err.getvalue().count("\n") == 1
            assert_one_clear_line(err.getvalue())
            return
    assert err.getvalue() == ""
    if path in CHECKED:
        sensible(args)


RECORD_WORDS = st.sampled_from(
    [
        *(
            '[Game "cascade"]',
            '[Game "kaskade"]',
            '[Game "cascades"]',
            '[Size "8"]',
            '[Size "x"]',
            '[Board "grid:3x3"]',
        ),
        *("1.", "2.", "3.", "o", "x", "=", "d5", "f5", "c6", "h5", "c3", "c2,d3", "pass", "resigns", "xox", "1-0", "*"),
        *('[White "a \\" b"]', "[", "]", '"', "\\", "\t", "\x00", "\x1b", "é", "99999999999999999999"),
    ]
)
RECORDS = st.one_of(
    st.lists(st.one_of(RECORD_WORDS, st.text(max_size=8)), max_size=40).map(" ".join),
    st.lists(RECORD_WORDS, max_size=40).map("\n".join),
    st.binary(max_size=200),
)


@settings(
    max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(RECORDS)
def test_replay_of_any_file_is_one_line_and_a_sensible_status(tmp_path, content):
    path = tmp_path / "game.rec"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
    with captured() as (_, err):
        status = main(["replay", str(path)])
    assert status in (0, 1, 2)
    assert_one_clear_line(err.getvalue())
    assert (status == 0) == (err.getvalue() == "")


ROW_VALUES = st.one_of(st.text(max_size=12), st.integers(-5, 5), st.none(), st.binary(max_size=6), st.just("{}"))


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["headers", "game", "geometry", "ply", "number", "ended_at"]),
    ROW_VALUES,
    st.booleans(),
)
def test_games_and_export_on_a_hand_edited_store(tmp_path, column, value, ended):
    path = tmp_path / "games.sqlite3"
    for leftover in tmp_path.glob("games.sqlite3*"):
        leftover.unlink()
    with Store(path) as store:
        game = store.new_game("cascade", "diamond:8", {"Size": "8", "White": "Ann"})
        for ply in ("o d5", "x f5 =", "= c6 ="):
            store.add_ply(game, ply)
        if ended:
            store.end_game(game, "*")
    db = sqlite3.connect(path)
    table, where = ("plies", "game_id = 1 AND number = 2") if column in ("ply", "number") else ("games", "id = 1")
    with contextlib.suppress(sqlite3.IntegrityError):  # a NOT NULL column keeps its value
        db.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (value,))
    db.commit()
    db.close()
    for argv in (["games"], ["export", "1"], ["export", "2"]):
        with captured() as (_, err):
            status = main([*argv, "--store", str(path)])
        assert status in (0, 1, 2), argv
        assert_one_clear_line(err.getvalue())


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from(["cascade", "cascades", "kaskade"]),
    st.lists(
        st.sampled_from(
            ["--size", "--top", "--rows", "--width", "--height", "--board", "--white", "--variant"]
        ).flatmap(lambda flag: VALUES.map(lambda value: f"{flag}={value}")),
        max_size=2,
    ),
    st.lists(
        st.one_of(RECORD_WORDS, st.text(max_size=10), st.sampled_from(["undo", "quit", "help", "# note"])), max_size=12
    ),
)
def test_play_with_any_options_and_any_typed_plies(tmp_path, game, options, typed):
    record = tmp_path / "game.rec"
    with captured("\n".join(typed) + "\n") as (_, err):
        status = main(["play", "--game", game, *options, "-o", str(record)])
    assert status in (0, 2)
    assert_one_clear_line(err.getvalue())
    if status == 0:
        text = record.read_text(encoding="utf-8")
        from referee import read_record, replay

        replay(read_record(text))  # what play writes, replay reads back
