"""Board geometries: cells, their names, relations and board-plane coordinates.

Every board the companion knows is one :class:`Geometry`, named by a spec
string (see docs/rules.md, "Boards and coordinates"):

- ``diamond:N``      Cascade on an N×N checkerboard turned 45° (N = 2..13)
- ``hex-diamond:N``  Cascade on a rhombus of hexagons, N cells a side
- ``trapezoid:T,R``  Cascades: T cells in the top row, R rows, one more each row
- ``hexagon:T,R``    the trapezoid continued by R-1 rows that narrow by one,
                     for the Cascades ``hexagon`` variant
- ``grid:WxH``       Kaskade, W columns by H rows
- ``points:WxH``     a plain lattice of sample points (Go-style boards)

Cells are named as in docs/rules.md: column letter and row number from the top
(``h1``). Canonical order is by row from the top, then by column from the left.

Board-plane coordinates are in units of one cell pitch (the distance between
the centres of two neighbouring cells), x to the right, y down:

- square layouts (``diamond``, ``grid``): the physical board's own frame. For
  ``diamond:N`` that is the untilted checkerboard with square (i, j) at
  x = j + 0.5, y = i + 0.5 and (0, 0) the square of the top corner cell; its
  four corners, clockwise from (0, 0), are the diamond's top, right, bottom
  and left corners.
- hex layouts (``hex-diamond``, ``trapezoid``, ``hexagon``): pointy-top
  hexagons in horizontal rows, row spacing sqrt(3)/2, the top of the top row
  at y = 0 and the leftmost edge at x = 0.
- ``points``: lattice nodes at integer coordinates, the top-left node at (0, 0).

``corners`` gives four reference points of each board, clockwise from the top
left as a person facing the board sees them; these are the points a user
clicks (or passes with ``--corners``) to locate a board in a camera image.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from referee.errors import CellError, GeometryError
from referee.quoting import shown

LETTERS = "abcdefghijklmnopqrstuvwxyz"
SQRT3 = math.sqrt(3.0)
HEX_ROW_SPACING = SQRT3 / 2.0
HEX_CIRCUMRADIUS = 1.0 / SQRT3

Point = tuple[float, float]


class Layout(Enum):
    """The physical shape of a board's cells."""

    SQUARE = "square"
    HEX = "hex"
    POINT = "point"


@dataclass(frozen=True, order=True)
class Cell:
    """A cell, by row (1 = top) and column (1 = letter ``a``).

    Ordering cells sorts them canonically: by row, then by column.
    """

    row: int
    col: int

    @property
    def name(self) -> str:
        """The cell's name in records and diagrams, for example ``h1``."""
        return f"{LETTERS[self.col - 1]}{self.row}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, name: str) -> Cell:
        """Parse a name like ``h13`` into a cell (without checking a board)."""
        match = _CELL_NAME.fullmatch(name.strip())
        if match is None:
            raise CellError(f"{shown(name)} is not a cell name: write a column letter a-z and a row number, like h13")
        col = LETTERS.index(match.group(1).lower()) + 1
        return cls(row=int(match.group(2)), col=col)


_CELL_NAME = re.compile(r"([a-zA-Z])([1-9][0-9]?)")


@dataclass(frozen=True)
class Geometry:
    """One board: its cells in canonical order, their relations and positions.

    Relations are given both as cells and, for fast rules code, as tuples of
    cell indices (``parents_ix[i]`` are the indices of the parents of
    ``cells[i]``). ``parents`` are the cells touching a cell from above (for
    the Cascades boards: the cells whose two cells below include it),
    ``children`` the cells below it; both are empty for ``grid`` and
    ``points``. ``neighbours`` are the physically adjacent cells.
    """

    spec: str
    kind: str
    layout: Layout
    cells: tuple[Cell, ...]
    centres: tuple[Point, ...]
    corners: tuple[Point, Point, Point, Point]
    width: float
    height: float
    rows: int
    columns: int
    row_cells: tuple[tuple[int, ...], ...]
    parents_ix: tuple[tuple[int, ...], ...]
    children_ix: tuple[tuple[int, ...], ...]
    neighbours_ix: tuple[tuple[int, ...], ...]
    index_of: dict[Cell, int] = field(compare=False, repr=False)
    index_by_name: dict[str, int] = field(compare=False, repr=False)

    def __repr__(self) -> str:
        return f"parse_geometry({self.spec!r})"

    def __len__(self) -> int:
        return len(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self.index_of

    def index(self, cell: Cell | str) -> int:
        """Index of a cell (or cell name) in ``cells``; raises CellError."""
        if isinstance(cell, str):
            found = self.index_by_name.get(cell.strip().lower())
            if found is None:
                Cell.parse(cell)  # raises a clear error for malformed names
                raise CellError(f"{cell.strip()} is not a cell of the {self.spec} board")
            return found
        found = self.index_of.get(cell)
        if found is None:
            raise CellError(f"{cell.name} is not a cell of the {self.spec} board")
        return found

    def cell(self, name: str) -> Cell:
        """The cell named ``name`` on this board; raises CellError."""
        return self.cells[self.index(name)]

    def centre(self, cell: Cell | str) -> Point:
        """Board-plane coordinates of the centre of a cell."""
        return self.centres[self.index(cell)]

    def parents(self, cell: Cell | str) -> tuple[Cell, ...]:
        """The cells touching ``cell`` from above."""
        return tuple(self.cells[i] for i in self.parents_ix[self.index(cell)])

    def children(self, cell: Cell | str) -> tuple[Cell, ...]:
        """The cells touching ``cell`` from below."""
        return tuple(self.cells[i] for i in self.children_ix[self.index(cell)])

    def neighbours(self, cell: Cell | str) -> tuple[Cell, ...]:
        """The cells physically adjacent to ``cell``."""
        return tuple(self.cells[i] for i in self.neighbours_ix[self.index(cell)])

    def polygon(self, cell: Cell | str) -> tuple[Point, ...]:
        """Outline of a cell in the board plane, clockwise.

        A unit square for square layouts and for lattice points (their
        Voronoi cell), a pointy-top hexagon with unit width for hex layouts.
        """
        x, y = self.centre(cell)
        if self.layout is Layout.HEX:
            r = HEX_CIRCUMRADIUS
            return tuple(
                (x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
                for a in (-90, -30, 30, 90, 150, 210)
            )
        return ((x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5))

    @property
    def stone_radius(self) -> float:
        """Radius of the largest stone that fits a cell, in board units."""
        return 0.5


def _build(
    spec: str,
    kind: str,
    layout: Layout,
    placed: list[tuple[Cell, Point]],
    corners: tuple[Point, Point, Point, Point],
    width: float,
    height: float,
    parents_of: dict[Cell, list[Cell]],
    neighbours_of: dict[Cell, list[Cell]],
) -> Geometry:
    placed.sort(key=lambda item: item[0])
    cells = tuple(c for c, _ in placed)
    index_of = {c: i for i, c in enumerate(cells)}
    children: dict[Cell, list[Cell]] = {c: [] for c in cells}
    for c in cells:
        for p in parents_of.get(c, []):
            children[p].append(c)
    rows = max(c.row for c in cells)
    row_cells = tuple(tuple(i for i, c in enumerate(cells) if c.row == r) for r in range(1, rows + 1))

    def ix(cs: list[Cell]) -> tuple[int, ...]:
        return tuple(sorted(index_of[c] for c in cs))

    return Geometry(
        spec=spec,
        kind=kind,
        layout=layout,
        cells=cells,
        centres=tuple(p for _, p in placed),
        corners=corners,
        width=width,
        height=height,
        rows=rows,
        columns=max(c.col for c in cells),
        row_cells=row_cells,
        parents_ix=tuple(ix(parents_of.get(c, [])) for c in cells),
        children_ix=tuple(ix(children[c]) for c in cells),
        neighbours_ix=tuple(ix(neighbours_of.get(c, [])) for c in cells),
        index_of=index_of,
        index_by_name={c.name: i for i, c in enumerate(cells)},
    )


def _hex_y(row: int) -> float:
    return (row - 1) * HEX_ROW_SPACING + HEX_CIRCUMRADIUS


def _diamond(n: int, hexagonal: bool) -> Geometry:
    spec = f"{'hex-diamond' if hexagonal else 'diamond'}:{n}"
    present = {
        Cell(r, c)
        for r in range(1, 2 * n)
        for c in range(1, 2 * n)
        if (c + r) % 2 == (n + 1) % 2 and abs(c - n) + abs(r - n) <= n - 1
    }
    placed: list[tuple[Cell, Point]] = []
    for cell in present:
        if hexagonal:
            point = ((cell.col - 1) * 0.5 + 0.5, _hex_y(cell.row))
        else:
            j = (cell.row - 1 + cell.col - n) // 2
            i = (cell.row - 1 - cell.col + n) // 2
            point = (j + 0.5, i + 0.5)
        placed.append((cell, point))
    parents = {
        cell: [p for p in (Cell(cell.row - 1, cell.col - 1), Cell(cell.row - 1, cell.col + 1)) if p in present]
        for cell in present
    }
    steps = [(-1, -1), (-1, 1), (1, -1), (1, 1)] + ([(0, -2), (0, 2)] if hexagonal else [])
    neighbours = {
        cell: [Cell(cell.row + dr, cell.col + dc) for dr, dc in steps if Cell(cell.row + dr, cell.col + dc) in present]
        for cell in present
    }
    if hexagonal:
        pos = dict(placed)
        corner_cells = (Cell(1, n), Cell(n, 2 * n - 1), Cell(2 * n - 1, n), Cell(n, 1))
        corners = tuple(pos[c] for c in corner_cells)
        width, height = float(n), _hex_y(2 * n - 1) + HEX_CIRCUMRADIUS
    else:
        fn = float(n)
        corners = ((0.0, 0.0), (fn, 0.0), (fn, fn), (0.0, fn))
        width = height = fn
    return _build(
        spec,
        "hex-diamond" if hexagonal else "diamond",
        Layout.HEX if hexagonal else Layout.SQUARE,
        placed,
        corners,  # type: ignore[arg-type]
        width,
        height,
        parents,
        neighbours,
    )


def _trapezoid(top: int, rows: int, hexagon: bool) -> Geometry:
    spec = f"{'hexagon' if hexagon else 'trapezoid'}:{top},{rows}"
    total_rows = 2 * rows - 1 if hexagon else rows
    widest = top + rows - 1

    def width_of(r: int) -> int:
        return top + r - 1 if r <= rows else widest - (r - rows)

    def x_of(cell: Cell) -> float:
        return (cell.col - 1) + 0.5 * abs(rows - cell.row) + 0.5

    present = {Cell(r, k) for r in range(1, total_rows + 1) for k in range(1, width_of(r) + 1)}
    placed = [(cell, (x_of(cell), _hex_y(cell.row))) for cell in present]

    def below(cell: Cell) -> list[Cell]:
        if cell.row < rows:
            cands = [Cell(cell.row + 1, cell.col), Cell(cell.row + 1, cell.col + 1)]
        else:
            cands = [Cell(cell.row + 1, cell.col - 1), Cell(cell.row + 1, cell.col)]
        return [c for c in cands if c in present]

    parents: dict[Cell, list[Cell]] = {cell: [] for cell in present}
    for cell in present:
        for child in below(cell):
            parents[child].append(cell)
    neighbours: dict[Cell, list[Cell]] = {cell: [] for cell in present}
    for cell in present:
        sideways = [Cell(cell.row, cell.col - 1), Cell(cell.row, cell.col + 1)]
        for other in below(cell) + parents[cell] + [c for c in sideways if c in present]:
            neighbours[cell].append(other)
    pos = dict(placed)
    last = total_rows
    corners = (
        pos[Cell(1, 1)],
        pos[Cell(1, top)],
        pos[Cell(last, width_of(last))],
        pos[Cell(last, 1)],
    )
    height = _hex_y(total_rows) + HEX_CIRCUMRADIUS
    return _build(
        spec,
        "hexagon" if hexagon else "trapezoid",
        Layout.HEX,
        placed,
        corners,
        float(widest),
        height,
        parents,
        neighbours,
    )


def _grid(w: int, h: int, points: bool) -> Geometry:
    spec = f"{'points' if points else 'grid'}:{w}x{h}"
    present = {Cell(r, c) for r in range(1, h + 1) for c in range(1, w + 1)}
    if points:
        placed = [(cell, (float(cell.col - 1), float(cell.row - 1))) for cell in present]
        fw, fh = float(w - 1), float(h - 1)
    else:
        placed = [(cell, (cell.col - 0.5, cell.row - 0.5)) for cell in present]
        fw, fh = float(w), float(h)
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    neighbours = {
        cell: [Cell(cell.row + dr, cell.col + dc) for dr, dc in steps if Cell(cell.row + dr, cell.col + dc) in present]
        for cell in present
    }
    corners = ((0.0, 0.0), (fw, 0.0), (fw, fh), (0.0, fh))
    return _build(
        spec,
        "points" if points else "grid",
        Layout.POINT if points else Layout.SQUARE,
        placed,
        corners,
        fw,
        fh,
        {},
        neighbours,
    )


_SPEC = re.compile(r"\s*([a-z-]+)\s*:\s*([0-9]{1,6})\s*(?:([x,])\s*([0-9]{1,6}))?\s*")
_FORMS = "diamond:N, hex-diamond:N, trapezoid:T,R, hexagon:T,R, grid:WxH or points:WxH"


def _check(value: int, low: int, high: int, what: str, spec: str) -> None:
    if not low <= value <= high:
        raise GeometryError(f"{spec}: {what} must be from {low} to {high}, not {value}")


@cache
def parse_geometry(spec: str) -> Geometry:
    """The geometry named by a spec string such as ``diamond:8``.

    Raises GeometryError, naming the accepted forms, for anything else.
    """
    match = _SPEC.fullmatch(spec)
    if match is None:
        raise GeometryError(f"{shown(spec)} is not a board: write one of {_FORMS}")
    kind, first, sep, second = match.group(1), int(match.group(2)), match.group(3), match.group(4)
    if kind in ("diamond", "hex-diamond") and sep is None:
        _check(first, 2, 13, "N", spec)
        return _diamond(first, kind == "hex-diamond")
    if kind in ("trapezoid", "hexagon") and sep == ",":
        top, rows = first, int(second)
        _check(top, 1, 26, "T (cells in the top row)", spec)
        _check(rows, 1, 26, "R (rows)", spec)
        if top + rows - 1 > 26:
            raise GeometryError(f"{spec}: the widest row, T + R - 1, must be at most 26 cells")
        return _trapezoid(top, rows, kind == "hexagon")
    if kind in ("grid", "points") and sep == "x":
        w, h = first, int(second)
        _check(w, 2, 26, "the width", spec)
        _check(h, 2, 26, "the height", spec)
        return _grid(w, h, kind == "points")
    raise GeometryError(f"'{spec}' is not a board: write one of {_FORMS}")
