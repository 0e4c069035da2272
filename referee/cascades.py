"""Cascades: two colours on a hex trapezoid (docs/rules.md) and its variants.

The top row starts with alternating white and black stones, white on ``a1``.
White moves first. A stone goes on an empty cell directly below a stone of
the mover's colour; the first turn places exactly one stone, later turns one
or two (the second may stand on the first) or pass. The game ends after two
passes in succession, or when neither player has a legal placement.

Variants:

- ``territory``: every stone on the board counts, not only the bottom row.
- ``hexagon`` (board ``hexagon:T,R``): the R-1 rows below the trapezoid's
  bottom row R become playable once row R is full. **(decision)** The row
  that scores is the lowest row of the board holding at least one stone: the
  hexagon's own bottom row once play has reached it, the trapezoid's bottom
  row while the narrowing rows are still empty.
- ``free-drop``: a stone may go on any empty cell. **(decision)** After the
  whole turn (one or two stones) every stone without a path of same-coloured
  stones to the top row (steps down or sideways) is removed, so the second
  stone of a turn can rescue the first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from referee.errors import GameOptionError, IllegalMoveError
from referee.geometry import Geometry, parse_geometry
from referee.plies import PASS, Ply
from referee.rules import Move, Placed, Position, Removed, Rules, Score
from referee.symbols import BLACK, EMPTY_CODE, SYMBOL_OF, TO_SYMBOL_BYTES, WHITE

TERRITORY = "territory"
HEXAGON = "hexagon"
FREE_DROP = "free-drop"


@dataclass(frozen=True)
class CascadesTables:
    """Index tables of a trapezoid or hexagon board."""

    parents: tuple[tuple[int, ...], ...]
    children: tuple[tuple[int, ...], ...]
    onward: tuple[tuple[int, ...], ...]  # per cell: cells below it and beside it (free-drop paths)
    top: tuple[int, ...]
    trapezoid_bottom: tuple[int, ...]  # row R
    locked: frozenset[int]  # the hexagon's narrowing rows (empty for a trapezoid)


@cache
def cascades_tables(geometry: Geometry, rows: int) -> CascadesTables:
    """Tables for a board whose trapezoid part has ``rows`` rows."""
    onward = []
    for i, cell in enumerate(geometry.cells):
        side = tuple(n for n in geometry.neighbours_ix[i] if geometry.cells[n].row == cell.row)
        onward.append(geometry.children_ix[i] + side)
    locked = frozenset(i for i, c in enumerate(geometry.cells) if c.row > rows)
    return CascadesTables(
        parents=geometry.parents_ix,
        children=geometry.children_ix,
        onward=tuple(onward),
        top=geometry.row_cells[0],
        trapezoid_bottom=geometry.row_cells[rows - 1],
        locked=locked,
    )


@dataclass(frozen=True)
class CascadesRules(Rules):
    """Cascades on ``trapezoid:T,R`` (or ``hexagon:T,R`` for the hexagon variant)."""

    game = "cascades"
    variants = (TERRITORY, HEXAGON, FREE_DROP)
    top: int = field(init=False)
    rows: int = field(init=False)
    tables: CascadesTables = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        kind = self.geometry.kind
        if self.variant not in (None, *self.variants):
            raise GameOptionError(f"Cascades has no variant '{self.variant}': use one of {', '.join(self.variants)}")
        if (kind == "hexagon") != (self.variant == HEXAGON):
            raise GameOptionError(
                "the hexagon variant is played on hexagon:T,R and the others on trapezoid:T,R, "
                f"not {self.geometry.spec}"
            )
        if kind not in ("trapezoid", "hexagon"):
            raise GameOptionError(f"Cascades is played on trapezoid:T,R, not {self.geometry.spec}")
        top, rows = (int(v) for v in self.geometry.spec.split(":")[1].split(","))
        object.__setattr__(self, "top", top)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "tables", cascades_tables(self.geometry, rows))

    def start(self) -> CascadesPosition:
        """The setup: the top row alternates white and black from a1; white to move."""
        board = bytearray([EMPTY_CODE]) * len(self.geometry)
        for k, i in enumerate(self.tables.top):
            board[i] = k % 2
        return CascadesPosition(self, bytes(board))

    def headers(self) -> dict[str, str]:
        """Record headers naming this rule set."""
        h = {"Game": "cascades", "Top": str(self.top), "Rows": str(self.rows)}
        if self.variant:
            h["Variant"] = self.variant
        return h


def cascades_rules(top: int = 8, rows: int = 8, variant: str | None = None) -> CascadesRules:
    """Cascades rules; the hexagon variant uses the ``hexagon:T,R`` board."""
    kind = "hexagon" if variant == HEXAGON else "trapezoid"
    return CascadesRules(parse_geometry(f"{kind}:{top},{rows}"), variant)


@dataclass(frozen=True)
class CascadesPosition(Position):
    """A Cascades position; ``passes`` counts the passes in succession just played."""

    rules: CascadesRules
    passes: int = 0

    def _supported(self, board: bytes | bytearray, i: int, code: int) -> bool:
        if board[i] != EMPTY_CODE:
            return False
        t = self.rules.tables
        if i in t.locked and any(board[b] == EMPTY_CODE for b in t.trapezoid_bottom):
            return False
        if self.rules.variant == FREE_DROP:
            return True
        return any(board[p] == code for p in t.parents[i])

    def placements(self, code: int, board: bytes | bytearray | None = None) -> list[int]:
        """Indices of the cells where colour ``code`` may place a stone."""
        b = self.board if board is None else board
        t = self.rules.tables
        if self.rules.variant == FREE_DROP:
            cells = [i for i, v in enumerate(b) if v == EMPTY_CODE]
        else:
            children = t.children
            cells = sorted({c for i, v in enumerate(b) if v == code for c in children[i] if b[c] == EMPTY_CODE})
        if t.locked and EMPTY_CODE in bytes(b[i] for i in t.trapezoid_bottom):
            cells = [c for c in cells if c not in t.locked]
        return cells

    def has_placement(self, code: int) -> bool:
        """True when colour ``code`` has somewhere to place a stone."""
        return bool(self.placements(code))

    @property
    def is_over(self) -> bool:
        """Two passes in succession, no placement for either player, or a resignation."""
        if self.resigned is not None or self.passes >= 2:
            return True
        return not self.has_placement(self.to_move) and not self.has_placement(1 - self.to_move)

    @property
    def scoring_cells(self) -> tuple[int, ...]:
        """The cells that count: all (territory), else the bottom row (see the module docs)."""
        g = self.geometry
        if self.rules.variant == TERRITORY:
            return tuple(range(len(g)))
        if self.rules.variant == HEXAGON:
            for row in reversed(g.row_cells):
                if any(self.board[i] != EMPTY_CODE for i in row):
                    return row
        return g.row_cells[self.rules.rows - 1]

    @property
    def score(self) -> Score:
        """Stones of each colour on the scoring cells."""
        values = [self.board[i] for i in self.scoring_cells]
        return Score(values.count(0), values.count(1))

    def symbols(self) -> tuple[str, ...]:
        """One symbol per cell, canonical order."""
        return tuple(self.board.translate(TO_SYMBOL_BYTES).decode())

    def legal_plies(self) -> Iterator[Ply]:
        """Single stones, then pairs (not on the first turn), then pass (after the first turn)."""
        cells = self.geometry.cells
        code = self.to_move
        firsts = self.placements(code)
        for i in firsts:
            yield Ply((cells[i],))
        if self.plies == 0:
            return
        for i in firsts:
            board = bytearray(self.board)
            board[i] = code
            for j in self.placements(code, board):
                yield Ply((cells[i], cells[j]))
        yield PASS

    def check(self, ply: Ply) -> None:
        """One or two stones of the mover's colour, each supported (or a pass after the first turn)."""
        colour = "white" if self.to_move == 0 else "black"
        if ply.passes:
            if self.plies == 0:
                raise IllegalMoveError("white may not pass on the first turn: place one stone below a white stone")
            return
        if ply.colour is not None or not 1 <= len(ply.cells) <= 2:
            raise IllegalMoveError(f"'{ply}' is not a Cascades ply: write a cell (c2), two cells (c2,d3) or pass")
        if self.plies == 0 and len(ply.cells) == 2:
            raise IllegalMoveError("the first turn places exactly one stone: write a single cell")
        board = bytearray(self.board)
        for cell in ply.cells:
            i = self.geometry.index(cell)
            if board[i] != EMPTY_CODE:
                raise IllegalMoveError(f"{cell.name} is already filled: place on an empty cell")
            if not self._supported(board, i, self.to_move):
                if i in self.rules.tables.locked:
                    raise IllegalMoveError(
                        f"{cell.name} is not playable yet: the rows below open once row {self.rules.rows} is full"
                    )
                raise IllegalMoveError(f"{cell.name} is not directly below a {colour} stone: {colour} must build down")
            board[i] = self.to_move

    def apply(self, ply: Ply) -> Move:
        """Place the stones (or pass), then remove unconnected stones in free-drop."""
        cells = self.geometry.cells
        if ply.passes:
            after = CascadesPosition(self.rules, self.board, 1 - self.to_move, self.plies + 1, None, self.passes + 1)
            return Move(ply, self, after, ())
        board = bytearray(self.board)
        events: list[Placed | Removed] = []
        for cell in ply.cells:
            i = self.geometry.index(cell)
            board[i] = self.to_move
            events.append(Placed(cells[i], SYMBOL_OF[self.to_move]))
        if self.rules.variant == FREE_DROP:
            for i in unconnected(board, self.rules.tables):
                events.append(Removed(cells[i], SYMBOL_OF[board[i]]))
                board[i] = EMPTY_CODE
        after = CascadesPosition(self.rules, bytes(board), 1 - self.to_move, self.plies + 1, None, 0)
        return Move(ply, self, after, tuple(events))

    @property
    def mover_colour(self) -> str:
        """White moves first in Cascades."""
        return WHITE if self.to_move == 0 else BLACK


def unconnected(board: bytes | bytearray, tables: CascadesTables) -> list[int]:
    """Stones with no same-coloured path (down or sideways steps) from the top row, canonical order."""
    reached = set(i for i in tables.top if board[i] != EMPTY_CODE)
    stack = list(reached)
    onward = tables.onward
    while stack:
        i = stack.pop()
        code = board[i]
        for n in onward[i]:
            if n not in reached and board[n] == code:
                reached.add(n)
                stack.append(n)
    return [i for i, code in enumerate(board) if code != EMPTY_CODE and i not in reached]
