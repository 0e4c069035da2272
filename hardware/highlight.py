"""Highlight patterns: the meaning of every lit cell, the same on every driver.

- *pending* cascade cells: steady, in the colour the players must place;
- an *error* cell: blinking in the colour it needs, or, where a stone must go
  away, blinking fast in the ``remove`` signal colour;
- a *ply to place* (the computer's, or a hint asked for): blinking fast in
  the colour to place, a pattern of its own (errors blink slowly in a stone
  colour, and fast only in the ``remove`` colour);
- the *last move*: steady in the ``last`` signal colour;
- the *winner*: the winner's stones blinking in the ``win`` signal colour;
- a *legal cell* in the teaching mode (a cell the player to move may place a
  stone on): steady in the ``legal`` signal colour, a colour no other meaning
  uses, so it never reads as a cell to fill.

Each function builds a :class:`~hardware.frame.CellFrame` from cell indices;
:func:`guidance` combines them with a fixed priority (errors over pending
cells over a ply to place over the last move over the winner over the legal
cells), so a cell never shows two meanings at once, and the teaching mode
never hides what the game needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hardware.errors import FrameError
from hardware.frame import EMPTY, CellFrame, CellLight, Colour, Pattern

PENDING = Pattern.STEADY
"""Pattern of a pending cascade cell (in the colour to place)."""
NEEDS = Pattern.BLINK
"""Pattern of an error cell that needs a stone of a given colour."""
SUGGESTED = Pattern.FAST
"""Pattern of a cell of a ply to place, the computer's or a hint (in the colour to place)."""
REMOVE = CellLight(Colour.REMOVE, Pattern.FAST)
"""An error cell whose stone must go away."""
LAST_MOVE = CellLight(Colour.LAST, Pattern.STEADY)
"""The cells of the last move."""
WINNER = CellLight(Colour.WINNER, Pattern.BLINK)
"""The winner's stones at the end of a game."""
LEGAL = CellLight(Colour.LEGAL, Pattern.STEADY)
"""A cell the player to move may place a stone on, in the teaching mode."""


def _colour(value: str | Colour) -> Colour:
    return value if isinstance(value, Colour) else Colour.parse(value)


def pending(cells: Mapping[int, str | Colour]) -> CellFrame:
    """Pending cascade cells, each steady in the colour to place (``{cell: "x"}``)."""
    return CellFrame({cell: CellLight(_colour(colour), PENDING) for cell, colour in cells.items()})


def errors(cells: Mapping[int, str | Colour | None]) -> CellFrame:
    """Error cells: each blinks in the colour it needs, or, for ``None`` or ``"."`` (the stone
    must go away), blinks fast in the ``remove`` colour."""
    lights = {}
    for cell, needs in cells.items():
        if needs is None or needs == ".":
            lights[cell] = REMOVE
        else:
            lights[cell] = CellLight(_colour(needs), NEEDS)
    return CellFrame(lights)


def suggested(cells: Mapping[int, str | Colour]) -> CellFrame:
    """The cells of a ply to place (the computer's, or a hint), each blinking fast in the colour to place."""
    lights = {}
    for cell, colour in cells.items():
        found = _colour(colour)
        if not found.is_stone:
            raise FrameError(f"a ply to place is lit in a stone colour (o, x or =), not {colour!r}")
        lights[cell] = CellLight(found, SUGGESTED)
    return CellFrame(lights)


def last_move(cells: Iterable[int]) -> CellFrame:
    """The cells of the last move (the drop, or both stones of a Cascades turn)."""
    return CellFrame({cell: LAST_MOVE for cell in cells})


def winner(cells: Iterable[int]) -> CellFrame:
    """The winner's stones (or the winning bottom-row cells) at the end of a game."""
    return CellFrame({cell: WINNER for cell in cells})


def legal(cells: Iterable[int]) -> CellFrame:
    """The cells the player to move may place a stone on (the teaching mode)."""
    return CellFrame({cell: LEGAL for cell in cells})


def guidance(
    *,
    pending_cells: Mapping[int, str | Colour] | None = None,
    error_cells: Mapping[int, str | Colour | None] | None = None,
    last: Iterable[int] = (),
    winning: Iterable[int] = (),
    suggested_cells: Mapping[int, str | Colour] | None = None,
    legal_cells: Iterable[int] = (),
) -> CellFrame:
    """One frame from every meaning at once: errors win over pending cells, which win over
    a ply to place, which wins over the last move, which wins over the winner's stones,
    which win over the legal cells of the teaching mode."""
    frame = EMPTY
    frame = frame | legal(legal_cells)
    frame = frame | winner(winning)
    frame = frame | last_move(last)
    frame = frame | suggested(suggested_cells or {})
    frame = frame | pending(pending_cells or {})
    return frame | errors(error_cells or {})
