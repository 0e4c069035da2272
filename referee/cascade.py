"""Cascade: three colours on a diamond board (docs/rules.md), plain and fill-above.

Positions are always closed under the rules, so after a drop only cells
reachable from the drop cell can change; the cascade runs incrementally from
the drop with precomputed index tables:

- plain game: one downward sweep, row by row; a child is filled when its
  other parent holds a stone. Cells are created in canonical order.
- ``fill-above`` **(decision, docs/rules.md)**: rounds; in each round every empty
  cell next to a cell filled in the previous round that has two filled
  parents or two filled children is filled at once, the parents' colour
  winning where both apply.

Scoring: each player's colour is counted when the board is full; the first
player owns white unless ``first="black"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from referee.errors import GameOptionError, IllegalMoveError
from referee.geometry import Geometry, parse_geometry
from referee.plies import Ply
from referee.rules import Cascaded, Move, Placed, Position, Rules, Score
from referee.symbols import (
    BLACK,
    BLACK_CODE,
    CODE_OF,
    COLOURS,
    EMPTY_CODE,
    SYMBOL_OF,
    TO_SYMBOL_BYTES,
    WHITE,
    WHITE_CODE,
)

FILL_ABOVE = "fill-above"


@dataclass(frozen=True)
class CascadeTables:
    """Index tables of a diamond board for the cascade loops."""

    below: tuple[tuple[tuple[int, int], ...], ...]  # per cell: (child, the child's other parent)
    around: tuple[tuple[int, ...], ...]  # per cell: its parents and children
    parent_pair: tuple[tuple[int, ...], ...]  # per cell: its two parents, or ()
    child_pair: tuple[tuple[int, ...], ...]  # per cell: its two children, or ()


@cache
def cascade_tables(geometry: Geometry) -> CascadeTables:
    """The tables for ``geometry`` (computed once per board)."""
    below = []
    for i, kids in enumerate(geometry.children_ix):
        pairs = []
        for c in kids:
            ps = geometry.parents_ix[c]
            if len(ps) == 2:
                pairs.append((c, ps[0] if ps[1] == i else ps[1]))
        below.append(tuple(pairs))
    return CascadeTables(
        below=tuple(below),
        around=tuple(geometry.parents_ix[i] + geometry.children_ix[i] for i in range(len(geometry))),
        parent_pair=tuple(p if len(p) == 2 else () for p in geometry.parents_ix),
        child_pair=tuple(c if len(c) == 2 else () for c in geometry.children_ix),
    )


def cascade_plain(board: bytearray, drop: int, tables: CascadeTables) -> list[int]:
    """Run the plain cascade after a drop on ``board`` (changed in place).

    Returns the filled cell indices in canonical order.
    """
    below = tables.below
    filled: list[int] = []
    frontier = [drop]
    while frontier:
        nxt = []
        for p in frontier:
            a = board[p]
            for c, q in below[p]:
                if board[c] == 3:
                    b = board[q]
                    if b != 3:
                        board[c] = -(a + b) % 3
                        nxt.append(c)
        filled += nxt
        frontier = nxt
    return filled


def cascade_rounds(board: bytearray, drop: int, tables: CascadeTables) -> list[list[int]]:
    """Run the fill-above cascade after a drop (``board`` changed in place).

    Returns the filled cell indices round by round, each round in canonical order.
    """
    around, parent_pair, child_pair = tables.around, tables.parent_pair, tables.child_pair
    rounds: list[list[int]] = []
    frontier = [drop]
    while frontier:
        candidates = sorted({n for f in frontier for n in around[f] if board[n] == 3})
        new: list[tuple[int, int]] = []
        for c in candidates:
            pp = parent_pair[c]
            if pp and board[pp[0]] != 3 and board[pp[1]] != 3:
                new.append((c, -(board[pp[0]] + board[pp[1]]) % 3))
                continue
            cp = child_pair[c]
            if cp and board[cp[0]] != 3 and board[cp[1]] != 3:
                new.append((c, -(board[cp[0]] + board[cp[1]]) % 3))
        for c, colour in new:
            board[c] = colour
        frontier = [c for c, _ in new]
        if frontier:
            rounds.append(frontier)
    return rounds


@dataclass(frozen=True)
class CascadeRules(Rules):
    """Cascade on ``diamond:N`` or ``hex-diamond:N``; variant None or ``fill-above``.

    ``first`` is the colour the first player owns (``white`` by default).
    """

    game = "cascade"
    variants = (FILL_ABOVE,)
    first: str = "white"
    tables: CascadeTables = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.geometry.kind not in ("diamond", "hex-diamond"):
            raise GameOptionError(f"Cascade is played on diamond:N or hex-diamond:N, not {self.geometry.spec}")
        object.__setattr__(self, "tables", cascade_tables(self.geometry))

    def start(self) -> CascadePosition:
        """The empty board, first player to move."""
        return CascadePosition(self, bytes([EMPTY_CODE]) * len(self.geometry))

    def player_colour(self, player: int) -> str:
        """The colour symbol player 0 (first) or 1 (second) owns."""
        first = WHITE if self.first == "white" else BLACK
        return first if player == 0 else (BLACK if first == WHITE else WHITE)

    def headers(self) -> dict[str, str]:
        """Record headers naming this rule set."""
        size = self.geometry.spec.split(":")[1]
        h = {"Game": "cascade", "Size": size}
        if self.geometry.kind == "hex-diamond":
            h["Board"] = self.geometry.spec
        if self.variant:
            h["Variant"] = self.variant
        if self.first != "white":
            h["First"] = self.first
        return h


def cascade_rules(
    size: int = 8, variant: str | None = None, first: str = "white", hexagonal: bool = False
) -> CascadeRules:
    """Cascade rules for an N×N diamond (or hex rhombus) board."""
    return CascadeRules(parse_geometry(f"{'hex-diamond' if hexagonal else 'diamond'}:{size}"), variant, first)


@dataclass(frozen=True)
class CascadePosition(Position):
    """A Cascade position: a colour code (0 white, 1 black, 2 red, 3 empty) per cell."""

    rules: CascadeRules

    @property
    def is_over(self) -> bool:
        """The board is full, or someone resigned."""
        return self.resigned is not None or 3 not in self.board

    @property
    def score(self) -> Score:
        """Stones of each player's colour on the board."""
        return Score(self.board.count(WHITE_CODE), self.board.count(BLACK_CODE))

    def symbols(self) -> tuple[str, ...]:
        """One symbol per cell, canonical order."""
        return tuple(self.board.translate(TO_SYMBOL_BYTES).decode())

    def legal_plies(self) -> Iterator[Ply]:
        """A drop of each colour on each empty cell."""
        cells = self.geometry.cells
        for i, code in enumerate(self.board):
            if code == EMPTY_CODE:
                for colour in COLOURS:
                    yield Ply((cells[i],), colour)

    def check(self, ply: Ply) -> None:
        """A Cascade ply drops one stone of any colour on an empty cell."""
        if ply.passes:
            raise IllegalMoveError("Cascade has no pass: drop a stone of any colour on an empty cell")
        if len(ply.cells) != 1 or ply.colour not in COLOURS:
            raise IllegalMoveError(f"'{ply}' is not a Cascade drop: write a colour (o, x, =) and a cell, like o d5")
        ix = self.geometry.index(ply.cells[0])
        if self.board[ix] != EMPTY_CODE:
            raise IllegalMoveError(
                f"{ply.cells[0].name} is already filled ({SYMBOL_OF[self.board[ix]]}): drop on an empty cell"
            )

    def apply(self, ply: Ply) -> Move:
        """Drop the stone and run the cascade."""
        return self.drop(self.geometry.index(ply.cells[0]), CODE_OF[ply.colour or ""], ply)

    def drop(self, ix: int, code: int, ply: Ply | None = None) -> Move:
        """Drop colour ``code`` on the empty cell with index ``ix`` (trusted) and cascade."""
        board = bytearray(self.board)
        board[ix] = code
        cells = self.geometry.cells
        rules = self.rules
        events: list[Cascaded | Placed] = [Placed(cells[ix], SYMBOL_OF[code])]
        if rules.variant == FILL_ABOVE:
            for r, filled in enumerate(cascade_rounds(board, ix, rules.tables), start=1):
                events += [Cascaded(cells[c], SYMBOL_OF[board[c]], r) for c in filled]
        else:
            events += [Cascaded(cells[c], SYMBOL_OF[board[c]], 1) for c in cascade_plain(board, ix, rules.tables)]
        after = CascadePosition(rules, bytes(board), 1 - self.to_move, self.plies + 1)
        if ply is None:
            ply = Ply((cells[ix],), SYMBOL_OF[code])
        return Move(ply, self, after, tuple(events))
