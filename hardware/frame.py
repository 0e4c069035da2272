"""What the LEDs should show, in the game's words: a frame of lit cells.

A :class:`CellFrame` is a frozen mapping from cell index (the canonical order
of :class:`referee.geometry.Geometry`) to a :class:`CellLight`: a colour and a
pattern. Cells not in the frame are dark. Colours are the stone symbols of
docs/rules.md (``o`` white, ``x`` black, ``=`` red) plus four signal colours
(last move, winner, a stone to remove, a cell a stone may go on in the
teaching mode); each driver decides how to show them (a palette entry, an RGB
mix, a blink code on a single-colour matrix).

Frames are values: combine them with ``|`` (the right-hand frame wins where
both light a cell), compare them, keep them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import TYPE_CHECKING

from hardware.errors import FrameError

if TYPE_CHECKING:
    from referee.geometry import Geometry


class Colour(StrEnum):
    """A colour an LED can show, named in the game's words.

    The stone colours compare equal to their symbols (``Colour.WHITE == "o"``).
    """

    WHITE = "o"
    BLACK = "x"
    RED = "="
    LAST = "last"
    WINNER = "win"
    REMOVE = "remove"
    LEGAL = "legal"

    @classmethod
    def parse(cls, text: str) -> Colour:
        """A colour from its symbol or name (``o``, ``x``, ``=``, ``last``, ``win``, ``remove``, ``legal``,
        or the drawing symbols ``+``, ``*``, ``-``, ``:``); raises FrameError."""
        key = text.strip().lower()
        found = _COLOUR_WORDS.get(key)
        if found is None:
            raise FrameError(
                f"'{text}' is not an LED colour: write o, x or = for a stone colour, "
                "or last (+), win (*), remove (-) or legal (:) for a signal"
            )
        return found

    @property
    def symbol(self) -> str:
        """One character for drawings: the stone symbol, or ``+``, ``*``, ``-``, ``:`` for signals."""
        return _SYMBOLS[self]

    @property
    def is_stone(self) -> bool:
        """True for the three stone colours."""
        return self in (Colour.WHITE, Colour.BLACK, Colour.RED)


_SYMBOLS = {
    Colour.WHITE: "o",
    Colour.BLACK: "x",
    Colour.RED: "=",
    Colour.LAST: "+",
    Colour.WINNER: "*",
    Colour.REMOVE: "-",
    Colour.LEGAL: ":",
}
_COLOUR_WORDS: dict[str, Colour] = {
    **{c.value: c for c in Colour},
    **{s: c for c, s in _SYMBOLS.items()},
    **{c.name.lower(): c for c in Colour},
    "winner": Colour.WINNER,
}


class Pattern(Enum):
    """How a lit cell shows over time: steady, blinking, or blinking fast."""

    STEADY = "steady"
    BLINK = "blink"
    FAST = "fast"

    @property
    def mark(self) -> str:
        """The suffix used in ``--cells`` and drawings: nothing, ``!`` or ``!!``."""
        return {Pattern.STEADY: "", Pattern.BLINK: "!", Pattern.FAST: "!!"}[self]


@dataclass(frozen=True)
class CellLight:
    """How one cell is lit: a colour and a pattern."""

    colour: Colour
    pattern: Pattern = Pattern.STEADY

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            object.__setattr__(self, "colour", Colour.parse(str(self.colour)))
        if not isinstance(self.pattern, Pattern):
            raise FrameError(f"{self.pattern!r} is not a pattern: use Pattern.STEADY, BLINK or FAST")

    def __str__(self) -> str:
        return f"{self.colour.symbol}{self.pattern.mark}"


class CellFrame(Mapping[int, CellLight]):
    """A frozen mapping from cell index to :class:`CellLight`; unlisted cells are dark.

    Build one from a mapping or pairs (``CellFrame({12: CellLight(Colour.WHITE)})``),
    from cell names (:meth:`from_names`) or from the ``--cells`` text
    (:meth:`parse`). ``a | b`` lights the cells of both, ``b`` winning.
    """

    __slots__ = ("_cells", "_hash")

    def __init__(self, cells: Mapping[int, CellLight] | Iterable[tuple[int, CellLight]] = ()) -> None:
        items = cells.items() if isinstance(cells, Mapping) else cells
        checked: dict[int, CellLight] = {}
        for index, light in items:
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise FrameError(f"{index!r} is not a cell index: use the cell's index in the board's canonical order")
            if not isinstance(light, CellLight):
                raise FrameError(f"cell {index}: {light!r} is not a CellLight(colour, pattern)")
            checked[index] = light
        self._cells: dict[int, CellLight] = dict(sorted(checked.items()))
        self._hash: int | None = None

    def __getitem__(self, index: int) -> CellLight:
        return self._cells[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._cells.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CellFrame):
            return self._cells == other._cells
        return NotImplemented

    def __or__(self, other: CellFrame) -> CellFrame:
        if not isinstance(other, CellFrame):
            return NotImplemented
        return CellFrame({**self._cells, **other._cells})

    def __repr__(self) -> str:
        inner = ", ".join(f"{i}: {light!r}" for i, light in self._cells.items())
        return f"CellFrame({{{inner}}})"

    def check(self, geometry: Geometry) -> None:
        """Raise FrameError if a cell index is not a cell of ``geometry``."""
        for index in self._cells:
            if index >= len(geometry):
                raise FrameError(
                    f"cell index {index} is not on the {geometry.spec} board, which has {len(geometry)} cells"
                )

    def describe(self, geometry: Geometry) -> str:
        """The frame as ``--cells`` text with cell names, for example ``h1=o g2=x!``."""
        return " ".join(f"{geometry.cells[i].name}={light}" for i, light in self._cells.items())

    @classmethod
    def from_names(cls, geometry: Geometry, lights: Mapping[str, CellLight]) -> CellFrame:
        """A frame from cell names (``{"h1": CellLight(Colour.WHITE)}``); raises CellError for unknown names."""
        return cls({geometry.index(name): light for name, light in lights.items()})

    @classmethod
    def parse(cls, geometry: Geometry, text: str) -> CellFrame:
        """A frame from text such as ``h1=o g2=x! c6== d4=remove!!``.

        Each item is ``CELL=COLOUR`` with ``!`` after the colour to blink, ``!!``
        to blink fast. Raises FrameError or CellError saying which item is wrong.
        """
        lights: dict[int, CellLight] = {}
        for item in text.replace(",", " ").split():
            name, sep, rest = item.partition("=")
            if not sep or not name or not rest:
                raise FrameError(f"'{item}' is not a lit cell: write CELL=COLOUR, like h1=o, g2=x! or c6==")
            pattern = Pattern.STEADY
            if rest.endswith("!!"):
                pattern, rest = Pattern.FAST, rest[:-2]
            elif rest.endswith("!"):
                pattern, rest = Pattern.BLINK, rest[:-1]
            lights[geometry.index(name)] = CellLight(Colour.parse(rest), pattern)
        return cls(lights)


EMPTY = CellFrame()
"""The frame with every cell dark."""
