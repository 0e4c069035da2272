"""Layout text: a board position as rows of cell symbols.

The format is the one of the labelled photos (vision/README.md, "Labelled sets"):
one line per row of the board, first line the row at the top of the image,
symbols separated by spaces: ``.`` empty, ``o`` white, ``x`` black, ``=``
red, ``?`` undecided. For ``points`` and ``grid`` boards this is exactly
that file format. For ragged boards (diamond, hex) each line holds the cells
of one geometry row from the left, and is indented as in the diagrams of
docs/rules.md (a diamond's row by its first cell's column, a hex row so that
the rows stagger); on reading, indentation is ignored, so the rules' diagrams
with spaces between symbols read as well. Lines that are blank or start
with ``#`` are skipped when reading.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.geometry import Geometry
from vision.errors import LayoutError

CELL_SYMBOLS = frozenset(".ox=?")


def format_layout(geometry: Geometry, symbols: Sequence[str]) -> str:
    """The layout text of ``symbols`` (one per cell, ``geometry.cells`` order), without a final newline."""
    if len(symbols) != len(geometry.cells):
        raise LayoutError(f"{len(symbols)} symbols given for the {len(geometry.cells)} cells of {geometry.spec}")
    lines = []
    for row in geometry.row_cells:
        indent = _indent(geometry, row[0]) if row else 0
        lines.append(" " * indent + " ".join(symbols[i] for i in row))
    return "\n".join(lines)


def _indent(geometry: Geometry, first: int) -> int:
    if geometry.kind in ("points", "grid"):
        return 0
    if geometry.kind in ("diamond", "hex-diamond"):
        return geometry.cells[first].col - 1
    widest = max(len(r) for r in geometry.row_cells)
    return widest - len(geometry.row_cells[geometry.cells[first].row - 1])


def parse_layout(text: str, geometry: Geometry) -> tuple[str, ...]:
    """The symbols (one per cell, ``geometry.cells`` order) of a layout text; raises LayoutError."""
    rows = [line.split() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    expected = [len(r) for r in geometry.row_cells]
    if len(rows) != len(expected):
        raise LayoutError(
            f"the layout has {len(rows)} rows, the {geometry.spec} board has {len(expected)}: "
            "write one line per row, symbols separated by spaces"
        )
    symbols: list[str] = [""] * len(geometry.cells)
    for r, (tokens, row) in enumerate(zip(rows, geometry.row_cells, strict=True), start=1):
        if len(tokens) != len(row):
            raise LayoutError(
                f"row {r} of the layout has {len(tokens)} symbols, the {geometry.spec} board "
                f"has {len(row)} cells in that row"
            )
        for token, i in zip(tokens, row, strict=True):
            if token not in CELL_SYMBOLS:
                raise LayoutError(f"row {r} of the layout has '{token}': use . o x = or ?")
            symbols[i] = token
    return tuple(symbols)
