"""A ply: one player's turn as a record writes it, before any rules judge it."""

from __future__ import annotations

from dataclasses import dataclass

from referee.geometry import Cell


@dataclass(frozen=True)
class Ply:
    """One player's turn as written in a record.

    ``cells`` holds the dropped cell (Cascade, Kaskade) or one or two placed
    cells (Cascades). ``colour`` is the dropped colour in Cascade;
    ``cascade`` the cascade colours a record lists (``None``: not listed).
    A ply may instead be a pass (Cascades) or a resignation.
    """

    cells: tuple[Cell, ...] = ()
    colour: str | None = None
    cascade: str | None = None
    passes: bool = False
    resigns: bool = False

    def __str__(self) -> str:
        if self.resigns:
            return "resigns"
        if self.passes:
            return "pass"
        text = ",".join(c.name for c in self.cells)
        if self.colour is not None:
            text = f"{self.colour} {text}"
        if self.cascade:
            text = f"{text} {self.cascade}"
        return text

    @property
    def cell(self) -> Cell:
        """The first (usually only) cell of the ply."""
        return self.cells[0]


RESIGNS = Ply(resigns=True)
PASS = Ply(passes=True)
