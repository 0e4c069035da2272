"""Diagrams (docs/rules.md), written from positions and read back (observed boards too).

- Cascade (``diamond:N``, ``hex-diamond:N``): one line per row, 2N-1
  characters wide, each symbol at its column, spaces where no cell exists.
- Cascades: one line per row, symbols separated by one space, row r indented
  by |R - r| spaces (the hexagon's narrowing rows indent again).
- Kaskade: one line per row, tokens ``.`` or colour and count (``o2``)
  separated by spaces.

Readers accept ``?`` for an unreadable cell and ignore the left margin a
document may add (the common indentation is removed).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from referee.errors import DiagramError, GeometryError
from referee.geometry import Geometry, parse_geometry
from referee.symbols import EMPTY, SYMBOLS, UNKNOWN

CELL_SYMBOLS = frozenset((*SYMBOLS, UNKNOWN))
_KASKADE_TOKEN = re.compile(r"\.|\?|[ox]\?|[ox][1-9][0-9]?")


@dataclass(frozen=True)
class Diagram:
    """A board read from a diagram: its geometry and one token per cell, canonical order."""

    geometry: Geometry
    symbols: tuple[str, ...]


def diagram_of(game: str, geometry: Geometry, symbols: Sequence[str]) -> str:
    """The diagram of any tokens (including ``?``) on a board of ``game``."""
    if len(symbols) != len(geometry):
        raise DiagramError(f"{len(symbols)} symbols for the {len(geometry)} cells of {geometry.spec}")
    lines = []
    if game == "cascade":
        width = geometry.columns
        for row in geometry.row_cells:
            chars = [" "] * width
            for i in row:
                chars[geometry.cells[i].col - 1] = symbols[i]
            lines.append("".join(chars))
    elif game == "cascades":
        rows = int(geometry.spec.split(",")[1])
        for r, row in enumerate(geometry.row_cells, start=1):
            lines.append(" " * abs(rows - r) + " ".join(symbols[i] for i in row))
    else:
        lines = [" ".join(symbols[i] for i in row) for row in geometry.row_cells]
    return "\n".join(lines) + "\n"


def _lines(text: str) -> list[str]:
    lines = textwrap.dedent(text.expandtabs()).split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise DiagramError("the diagram is empty: give one line per row of the board")
    return [line.rstrip() for line in lines]


def read_diagram(text: str, game: str) -> Diagram:
    """Read a diagram of ``game`` (``cascade``, ``cascades`` or ``kaskade``); the board size follows from it."""
    lines = _lines(text)
    if game == "cascade":
        return _read_cascade(lines)
    if game == "cascades":
        return _read_cascades(lines)
    if game == "kaskade":
        return _read_kaskade(lines)
    raise DiagramError(f"unknown game '{game}': use cascade, cascades or kaskade")


def _read_cascade(lines: list[str]) -> Diagram:
    if len(lines) % 2 == 0:
        raise DiagramError(f"a Cascade diagram has 2N-1 lines (an odd number), not {len(lines)}")
    n = (len(lines) + 1) // 2
    try:
        geometry = parse_geometry(f"diamond:{n}")
    except GeometryError as error:
        raise DiagramError(f"a Cascade diagram of {len(lines)} lines: {error}") from error
    symbols = []
    for r, (line, row) in enumerate(zip(lines, geometry.row_cells, strict=True), start=1):
        wanted = {geometry.cells[i].col - 1 for i in row}
        for pos, char in enumerate(line):
            if pos not in wanted and char != " ":
                raise DiagramError(f"line {r}, column {pos + 1}: '{char}' where row {r} has no cell")
        for i in row:
            pos = geometry.cells[i].col - 1
            char = line[pos] if pos < len(line) else " "
            if char not in CELL_SYMBOLS:
                raise DiagramError(
                    f"line {r}, column {pos + 1}: '{char}' for {geometry.cells[i].name}; use o, x, =, . or ?"
                )
            symbols.append(char)
    return Diagram(geometry, tuple(symbols))


def _read_cascades(lines: list[str]) -> Diagram:
    rows = [line.split() for line in lines]
    widths = [len(r) for r in rows]
    top = widths[0]
    widest = max(widths)
    grow = widest - top + 1
    if widths[:grow] != list(range(top, widest + 1)):
        raise DiagramError(f"a Cascades diagram's rows grow by one cell each; these rows have {widths} cells")
    rest = widths[grow:]
    if rest and rest != list(range(widest - 1, widest - 1 - len(rest), -1)):
        raise DiagramError(f"the rows below the widest row must narrow by one cell each; these have {widths} cells")
    if rest and len(rest) != grow - 1:
        raise DiagramError(f"a hexagon board narrows for R-1 = {grow - 1} rows, not {len(rest)}")
    spec = f"{'hexagon' if rest else 'trapezoid'}:{top},{grow}"
    try:
        geometry = parse_geometry(spec)
    except GeometryError as error:
        raise DiagramError(str(error)) from error
    symbols = []
    for r, row in enumerate(rows, start=1):
        for token in row:
            if token not in CELL_SYMBOLS - {"="}:
                raise DiagramError(f"line {r}: '{token}' is not a Cascades symbol; use o, x, . or ?")
            symbols.append(token)
    return Diagram(geometry, tuple(symbols))


def _read_kaskade(lines: list[str]) -> Diagram:
    rows = [line.split() for line in lines]
    width = len(rows[0])
    for r, row in enumerate(rows, start=1):
        if len(row) != width:
            raise DiagramError(f"line {r} has {len(row)} cells, the first line {width}: every row has W cells")
        for token in row:
            if not _KASKADE_TOKEN.fullmatch(token):
                raise DiagramError(
                    f"line {r}: '{token}' is not a Kaskade cell: write ., ?, o2, x1 or o? (count unreadable)"
                )
    try:
        geometry = parse_geometry(f"grid:{width}x{len(rows)}")
    except GeometryError as error:
        raise DiagramError(str(error)) from error
    return Diagram(geometry, tuple(t for row in rows for t in row))


def blank(geometry: Geometry) -> tuple[str, ...]:
    """An all-empty board's tokens."""
    return (EMPTY,) * len(geometry)
