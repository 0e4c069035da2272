"""Records (docs/rules.md): read, write and replay games of all three games.

A record is plain text: ``[Key "value"]`` headers, then numbered moves of one
or two plies; comments in braces, ``{...}``, may stand anywhere after the
headers (an exported game carries its corrections so) and are skipped.
Reading checks the notation and names the line and column of the first
problem (:class:`RecordError`); replaying checks every ply and every listed
cascade against the rules and stops at the first disagreement
(:class:`ReplayError`), naming the move number, the player, what the record
says and what the rules give. A Cascade ply without a cascade string lists
nothing, so only its drop is checked.

Headers understood: ``Game`` (default ``cascade``), ``Size``, ``Top``,
``Rows``, ``Width``, ``Height``, ``Board`` (a geometry spec, for example
``hex-diamond:8``), ``Variant``, ``First``, ``Result`` (``1-0`` white wins,
``0-1`` black wins, ``1/2-1/2``, ``*``); others (names, date) are kept.
A header value escapes ``"`` and ``\\`` with a backslash (``[White "Ann \\"the Rock\\""]``);
control characters cannot be kept in a one-line header and are written as
spaces (:func:`header_line`).

Input is bounded: a record longer than :data:`MAX_RECORD_CHARS` is refused
before it is parsed (a game's record is a few kilobytes), and a message never
quotes more than a few dozen characters of what it read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.errors import CellError, GameOptionError, GeometryError, IllegalMoveError, RecordError, ReplayError
from referee.game import GAMES, Game, make_rules
from referee.notation import NUMBER, RESULTS, Token, cascade_ply, cell_named, pair, tokens_of
from referee.plies import PASS, RESIGNS, Ply
from referee.quoting import shown
from referee.rules import Rules
from referee.symbols import COLOUR_NAMES

_HEADER = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\\n]|\\.)*)"\s*\]')
_HEADER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_ESCAPED = re.compile(r'\\([\\"])')
MAX_RECORD_CHARS = 1_000_000
_HEADER_DIGITS = 6


def header_line(key: str, value: str) -> str:
    """One header line, ``[Key "value"]``: the value's ``\\`` and ``"`` escaped, control characters as spaces.

    Raises RecordError for a key that is not a word (letters, digits, ``_``, starting with a letter).
    """
    if not _HEADER_KEY.fullmatch(key):
        raise RecordError(f"the header name {shown(key)} must be a word of letters, digits and _")
    clean = "".join(char if char.isprintable() else " " for char in str(value))
    escaped = clean.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{key} "{escaped}"]'


@dataclass(frozen=True)
class RecordedPly:
    """A ply of a record with its move number, player (0 first, 1 second) and place."""

    ply: Ply
    move_number: int
    player: int
    line: int
    column: int


@dataclass(frozen=True)
class Record:
    """A parsed record: its headers (in order), its rules and its plies."""

    headers: tuple[tuple[str, str], ...]
    rules: Rules
    plies: tuple[RecordedPly, ...]

    def header(self, key: str, default: str = "") -> str:
        """One header's value."""
        return dict(self.headers).get(key, default)


def _check_text(text: str) -> None:
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(
            f"the record is {len(text):,} characters long, more than the {MAX_RECORD_CHARS:,} a record may be "
            "(a game's record is a few kilobytes): is this the right file?"
        )
    if not text.strip():
        raise RecordError("the record is empty: write headers and numbered moves, like 1. o d5 x f5 =")
    for n, line in enumerate(text.split("\n"), start=1):
        for col, char in enumerate(line, start=1):
            if not char.isprintable() and char not in "\t\r":
                raise RecordError(
                    f"unexpected control character {char!r}: this does not look like a text record", n, col
                )


def _split_headers(text: str) -> tuple[list[tuple[str, str, int, int]], str, int]:
    """Headers with their places, then the move text and the line where it starts."""
    headers: list[tuple[str, str, int, int]] = []
    lines = text.split("\n")
    for n, line in enumerate(lines, start=1):
        rest = line.strip()
        if not rest.startswith("["):
            if rest:
                return headers, "\n".join(lines[n - 1 :]), n
            continue
        pos = 0
        while pos < len(line):
            if line[pos].isspace():
                pos += 1
                continue
            m = _HEADER.match(line, pos)
            if m is None:
                if line[pos] != "[":
                    raise RecordError("headers come before the moves, each on its own line", n, pos + 1)
                raise RecordError('malformed header: write [Key "value"]', n, pos + 1)
            headers.append((m.group(1), _ESCAPED.sub(r"\1", m.group(2)), n, pos + 1))
            pos = m.end()
    return headers, "", len(lines)


def _int_header(headers: dict[str, tuple[str, int, int]], key: str, default: int) -> int:
    if key not in headers:
        return default
    value, line, col = headers[key]
    digits = value.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > _HEADER_DIGITS:
        raise RecordError(f"the {key} header must be a small whole number, not {shown(value)}", line, col)
    return int(digits)


def _rules_from(headers: dict[str, tuple[str, int, int]]) -> Rules:
    game, gl, gc = headers.get("Game", ("cascade", 0, 0))
    game = game.strip().lower()
    if game not in GAMES:
        raise RecordError(f'unknown Game "{game}": use cascade, cascades or kaskade', gl, gc)
    variant = headers.get("Variant", ("", 0, 0))[0].strip() or None
    first = headers.get("First", ("white", 0, 0))[0].strip().lower()
    if "Board" in headers:
        spec = headers["Board"][0]
    elif game == "cascade":
        spec = f"diamond:{_int_header(headers, 'Size', 8)}"
    elif game == "cascades":
        spec = f"trapezoid:{_int_header(headers, 'Top', 8)},{_int_header(headers, 'Rows', 8)}"
    else:
        spec = f"grid:{_int_header(headers, 'Width', 6)}x{_int_header(headers, 'Height', 6)}"
    try:
        return make_rules(game, spec, variant, first)
    except (GeometryError, GameOptionError) as error:
        key = next((k for k in ("Board", "Size", "Top", "Width", "Variant", "First") if k in headers), "Game")
        _, line, col = headers.get(key, ("", 1, 1))
        raise RecordError(f"bad header: {error}", line, col) from error


def _without_comments(text: str, first_line: int) -> str:
    """The move text with each comment, ``{...}`` (it may span lines), blanked out: words keep their places."""
    out: list[str] = []
    opened: tuple[int, int] | None = None
    line, column = first_line, 0
    for char in text:
        column += 1
        if opened is None and char == "{":
            opened = (line, column)
        if char == "\n":
            line, column = line + 1, 0
        out.append(char if opened is None or char == "\n" else " ")
        if opened is not None and char == "}":
            opened = None
    if opened is not None:
        raise RecordError("a comment opened with { is never closed: end it with }", *opened)
    return "".join(out)


def read_record(text: str) -> Record:
    """Parse a record; raises RecordError naming the line and column of the first problem."""
    _check_text(text)
    raw, moves_text, first_line = _split_headers(text)
    moves_text = _without_comments(moves_text, first_line)
    headers = {k: (v, line, col) for k, v, line, col in raw}
    rules = _rules_from(headers)
    if "Result" in headers and headers["Result"][0].strip() not in RESULTS:
        value, line, col = headers["Result"]
        raise RecordError(f"the Result header must be 1-0, 0-1, 1/2-1/2 or *, not {shown(value)}", line, col)
    tokens = [Token(t.text, t.line + first_line - 1, t.column) for t in tokens_of(moves_text)]
    plies: list[RecordedPly] = []
    k = 0
    expected = 1
    in_move = 0  # plies read in the current move
    game = rules.game
    geometry = rules.geometry
    while k < len(tokens):
        tok = tokens[k]
        m = NUMBER.fullmatch(tok.text)
        if m:
            if m.group(1) != str(expected):
                raise RecordError(
                    f"move number {shown(m.group(1))[1:-1]} where {expected} was due", tok.line, tok.column
                )
            expected += 1
            in_move = 0
            k += 1
            continue
        if tok.text in RESULTS and k == len(tokens) - 1:
            stated = headers.get("Result", ("", 0, 0))[0].strip()
            if stated and stated != tok.text:
                raise RecordError(
                    f"the moves end with {tok.text}, but the Result header says {shown(stated)}: make them agree",
                    tok.line,
                    tok.column,
                )
            if not stated:
                raw.append(("Result", tok.text, tok.line, tok.column))  # checked against the rules as the header is
            break
        if expected == 1:
            raise RecordError(
                f"{shown(tok.text)} before the first move number: start the moves with 1.", tok.line, tok.column
            )
        if in_move == 2:
            raise RecordError(
                f"{shown(tok.text)}: a move holds at most two plies; number the next move {expected}.",
                tok.line,
                tok.column,
            )
        player = len(plies) % 2
        start = tok
        if tok.text == "resigns":
            ply = RESIGNS
            k += 1
        elif game == "cascade":
            ply, k = cascade_ply(tokens, k, geometry)
        elif game == "cascades":
            ply = PASS if tok.text == "pass" else Ply(tuple(cell_named(tok, geometry, t) for t in pair(tok)))
            k += 1
        else:
            ply = Ply((cell_named(tok, geometry),))
            k += 1
        plies.append(RecordedPly(ply, expected - 1, player, start.line, start.column))
        in_move += 1
    return Record(tuple((k_, v) for k_, v, _, _ in raw), rules, tuple(plies))


def player_name(rules: Rules, player: int) -> str:
    """``white (first player)`` and the like, for messages."""
    colour = COLOUR_NAMES[rules.player_colour(player)]
    return f"{colour} ({'first' if player == 0 else 'second'} player)"


def replay(record: Record) -> Game:
    """Play a record through the rules; raises ReplayError at the first ply that disagrees."""
    game = Game(record.rules.start(), headers=record.headers)
    for entry in record.plies:
        position = game.position
        who = player_name(record.rules, position.to_move)
        said = str(entry.ply)
        try:
            move = position.play(entry.ply)
        except (IllegalMoveError, CellError) as error:
            raise ReplayError(
                f"move {entry.move_number}, {who}: the record says {said}, but {error}",
                entry.move_number,
                who,
                said,
                str(error),
            ) from error
        listed = entry.ply.cascade
        if listed is not None and listed != move.cascade:
            ruled = str(Ply(entry.ply.cells, entry.ply.colour, move.cascade or None))
            gives = ruled if move.cascade else f"{ruled} (no cascade)"
            raise ReplayError(
                f"move {entry.move_number}, {who}: the record says {said}, the rules give {gives}",
                entry.move_number,
                who,
                said,
                ruled,
            )
        game = game.push(move)
    stated = record.header("Result").strip()
    if stated and stated != "*" and game.is_over and stated != game.result:
        raise ReplayError(
            f"the record's Result says {stated}, the rules give {game.result} ({game.score})",
            0,
            "",
            stated,
            game.result,
        )
    return game


def write_record(game: Game) -> str:
    """The record of a game: headers (rules, then the game's own), one numbered move per line."""
    headers = dict(game.rules.headers())
    for key, value in game.headers:
        if key not in ("Game", "Size", "Top", "Rows", "Width", "Height", "Board", "Variant", "First", "Result"):
            headers[key] = value
    if game.is_over:
        headers["Result"] = game.result
    lines = [header_line(k, v) for k, v in headers.items()]
    plies = [str(Ply(m.ply.cells, m.ply.colour, m.cascade or None, m.ply.passes, m.ply.resigns)) for m in game.moves]
    for n in range(0, len(plies), 2):
        lines.append(f"{n // 2 + 1}. " + "  ".join(plies[n : n + 2]))
    return "\n".join(lines) + "\n"
