"""Ply notation: the words of a record that make one ply (``o d5``, ``= h13 ox=``, ``c2,d3``, ``pass``).

Shared by records (:mod:`referee.records`), which add headers and move
numbers around plies, and by positions, which accept a ply as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.errors import CellError, RecordError
from referee.geometry import Cell, Geometry
from referee.plies import PASS, RESIGNS, Ply
from referee.quoting import SHOWN_CHARS, shown
from referee.symbols import COLOURS

NUMBER = re.compile(r"([1-9][0-9]*)\.")
"""A move number (``12.``)."""
CASCADE = re.compile(r"[ox=]+")
"""A cascade string: the cascade stones' colours in canonical order."""
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""The results a record may end with."""


@dataclass(frozen=True)
class Token:
    """A word of a record with its place (line and column from 1)."""

    text: str
    line: int
    column: int


def tokens_of(text: str) -> list[Token]:
    """The words of ``text`` with their places."""
    out = []
    for n, line in enumerate(text.split("\n"), start=1):
        for m in re.finditer(r"\S+", line):
            out.append(Token(m.group(), n, m.start() + 1))
    return out


def cell_named(token: Token, geometry: Geometry, text: str | None = None) -> Cell:
    """The cell ``token`` (or ``text``, a part of it) names; raises RecordError at its place when it is no cell
    name. A well-formed name of a cell that ``geometry`` lacks is read: playing it is what breaks the rules
    (the position says so), not writing it."""
    name = text if text is not None else token.text
    if len(name) > SHOWN_CHARS:  # no cell name is this long: do not quote it whole
        raise RecordError(f"{shown(name)} is not a cell name: write a column letter and a row number, like h13")
    try:
        return geometry.cell(name)
    except CellError:
        pass
    try:
        return Cell.parse(name)
    except CellError as error:
        raise RecordError(str(error), token.line, token.column) from error


def pair(tok: Token) -> list[str]:
    """The one or two cell names of a Cascades ply (``c2`` or ``c2,d3``)."""
    parts = tok.text.split(",")
    if len(parts) > 2 or not all(parts):
        raise RecordError(
            f"{shown(tok.text)}: a ply is one cell (c2), two joined by a comma (c2,d3) or pass", tok.line, tok.column
        )
    return parts


def cascade_ply(tokens: list[Token], k: int, geometry: Geometry) -> tuple[Ply, int]:
    """The Cascade ply starting at ``tokens[k]`` (colour, cell, maybe a cascade string) and the index after it."""
    tok = tokens[k]
    if tok.text not in COLOURS:
        if len(tok.text) == 1 and tok.text.isalpha():
            raise RecordError(
                f"unknown colour letter '{tok.text}': use o (white), x (black) or = (red)", tok.line, tok.column
            )
        raise RecordError(
            f"{shown(tok.text)}: a Cascade ply is a colour (o, x, =) and a cell, like o d5", tok.line, tok.column
        )
    if k + 1 >= len(tokens) or NUMBER.fullmatch(tokens[k + 1].text):
        raise RecordError(
            f"the colour '{tok.text}' must be followed by a cell, like {tok.text} d5", tok.line, tok.column
        )
    cell = cell_named(tokens[k + 1], geometry)
    k += 2
    cascade = None
    if k < len(tokens):
        nxt = tokens[k].text
        after = tokens[k + 1].text if k + 1 < len(tokens) else None
        # a one-letter colour starts the next ply unless what follows cannot be a cell
        ends = (
            after is None or after in ("resigns", *RESULTS) or bool(NUMBER.fullmatch(after) or CASCADE.fullmatch(after))
        )
        if CASCADE.fullmatch(nxt) and (len(nxt) > 1 or ends):
            if len(nxt) > len(geometry.cells):
                raise RecordError(
                    f"{shown(nxt)}: a cascade lists at most {len(geometry.cells)} stones on {geometry.spec}, "
                    "one per cell",
                    tokens[k].line,
                    tokens[k].column,
                )
            cascade = nxt
            k += 1
    return Ply((cell,), tok.text, cascade), k


def parse_ply(text: str, game: str, geometry: Geometry) -> Ply:
    """One ply in record notation (``o d5``, ``c2,d3``, ``pass``, ``resigns``); raises RecordError."""
    try:
        return _parse_ply(text, game, geometry)
    except RecordError as error:
        raise RecordError(error.reason) from None


def _parse_ply(text: str, game: str, geometry: Geometry) -> Ply:
    tokens = tokens_of(text)
    if not tokens:
        raise RecordError("empty ply: write a ply in record notation, like o d5, c2,d3 or c3")
    if tokens[0].text == "resigns" and len(tokens) == 1:
        return RESIGNS
    if game == "cascade":
        ply, k = cascade_ply(tokens, 0, geometry)
    elif game == "cascades":
        ply = (
            PASS
            if tokens[0].text == "pass"
            else Ply(tuple(cell_named(tokens[0], geometry, t) for t in pair(tokens[0])))
        )
        k = 1
    else:
        ply, k = Ply((cell_named(tokens[0], geometry),)), 1
    if k != len(tokens):
        raise RecordError(f"unexpected {shown(tokens[k].text)} after the ply '{ply}'")
    return ply
