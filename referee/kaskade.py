"""Kaskade: chain reactions on a W×H grid (docs/rules.md).

A position holds, per cell, its owner code (0 white, 1 black, 3 nobody) and
its ball count. A cell's capacity is its number of orthogonal neighbours.
Overflows run in waves **(decision, docs/rules.md)**: every cell at or above
capacity overflows at once, gives one ball to each neighbour (which passes to
the mover) and keeps what is left over. After each wave the win is checked:
once both players have placed a ball, the mover wins as soon as the opponent
owns no cell, and the chain stops there.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from referee.errors import GameOptionError, IllegalMoveError, RefereeError
from referee.geometry import Geometry, parse_geometry
from referee.plies import Ply
from referee.rules import BLACK_WINS, WHITE_WINS, Move, Placed, Position, Rules, Score, Wave
from referee.symbols import COLOUR_NAMES, EMPTY, EMPTY_CODE, SYMBOL_OF

MAX_WAVES = 100_000


@cache
def _capacities(geometry: Geometry) -> bytes:
    return bytes(len(n) for n in geometry.neighbours_ix)


def cell_token(owner: int, count: int) -> str:
    """The diagram token of a cell: ``.`` or colour letter and count (``o2``)."""
    return EMPTY if owner == EMPTY_CODE or count == 0 else f"{SYMBOL_OF[owner]}{count}"


def tokens(owners: bytes | bytearray, counts: bytes | bytearray) -> tuple[str, ...]:
    """One token per cell for owner and count arrays."""
    return tuple(cell_token(o, c) for o, c in zip(owners, counts, strict=True))


@dataclass(frozen=True)
class KaskadeRules(Rules):
    """Kaskade on ``grid:WxH``. Player A (white, ``o``) moves first."""

    game = "kaskade"
    variants = ()
    capacity: bytes = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.geometry.kind != "grid":
            raise GameOptionError(f"Kaskade is played on grid:WxH, not {self.geometry.spec}")
        if self.variant:
            raise GameOptionError(f"Kaskade has no variant '{self.variant}'; leave the variant out")
        object.__setattr__(self, "capacity", _capacities(self.geometry))

    def start(self) -> KaskadePosition:
        """The empty grid, white to move."""
        n = len(self.geometry)
        return KaskadePosition(self, bytes([EMPTY_CODE]) * n, counts=bytes(n))

    def headers(self) -> dict[str, str]:
        """Record headers naming this rule set."""
        w, h = self.geometry.spec.split(":")[1].split("x")
        return {"Game": "kaskade", "Width": w, "Height": h}


def kaskade_rules(width: int = 6, height: int = 6) -> KaskadeRules:
    """Kaskade rules for a W×H grid."""
    return KaskadeRules(parse_geometry(f"grid:{width}x{height}"))


@dataclass(frozen=True)
class KaskadePosition(Position):
    """A Kaskade position: ``board`` holds owner codes, ``counts`` the balls per cell.

    ``won`` is the colour code of the player who emptied the opponent's cells.
    """

    rules: KaskadeRules
    counts: bytes = b""
    won: int | None = None

    @property
    def is_over(self) -> bool:
        """Someone won or resigned."""
        return self.won is not None or self.resigned is not None

    @property
    def score(self) -> Score:
        """Cells owned by each colour."""
        return Score(self.board.count(0), self.board.count(1))

    @property
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``*`` (Kaskade has no draw)."""
        if self.won is not None:
            return WHITE_WINS if self.won == 0 else BLACK_WINS
        return super().result if self.resigned is not None else "*"

    def balls(self, colour_code: int) -> int:
        """Balls of one colour on the board."""
        return sum(c for o, c in zip(self.board, self.counts, strict=True) if o == colour_code)

    def symbols(self) -> tuple[str, ...]:
        """One token per cell: ``.`` or colour and count."""
        return tokens(self.board, self.counts)

    def legal_plies(self) -> Iterator[Ply]:
        """A ball on each empty cell or cell of the mover."""
        cells = self.geometry.cells
        mover = self.to_move
        for i, owner in enumerate(self.board):
            if owner in (EMPTY_CODE, mover):
                yield Ply((cells[i],))

    def check(self, ply: Ply) -> None:
        """A Kaskade ply adds a ball to an empty cell or one the mover owns."""
        if ply.passes or len(ply.cells) != 1 or ply.colour is not None:
            raise IllegalMoveError(f"'{ply}' is not a Kaskade ply: write one cell, like c3, or resigns")
        ix = self.geometry.index(ply.cells[0])
        owner = self.board[ix]
        if owner != EMPTY_CODE and owner != self.to_move:
            raise IllegalMoveError(
                f"{ply.cells[0].name} belongs to {COLOUR_NAMES[SYMBOL_OF[owner]]}: "
                "add a ball to an empty cell or one of yours"
            )

    def apply(self, ply: Ply) -> Move:
        """Add the ball and run the overflow waves."""
        return self.add_ball(self.geometry.index(ply.cells[0]), ply)

    def add_ball(self, ix: int, ply: Ply | None = None) -> Move:
        """Add a ball of the mover to the cell with index ``ix`` (trusted) and run the waves."""
        rules = self.rules
        cap = rules.capacity
        nbrs = rules.geometry.neighbours_ix
        cells = rules.geometry.cells
        mover = self.to_move
        opponent = 1 - mover
        both_placed = self.plies >= 1
        owners = bytearray(self.board)
        counts = bytearray(self.counts)
        counts[ix] += 1
        owners[ix] = mover
        events: list[Placed | Wave] = [Placed(cells[ix], SYMBOL_OF[mover])]
        over = [ix] if counts[ix] >= cap[ix] else []
        won = None
        number = 0
        while over:
            number += 1
            if number > MAX_WAVES:
                raise RefereeError("the overflow chain does not end; please report this position")
            spilled = over
            over = overflow_wave(owners, counts, spilled, cap, nbrs, mover)
            events.append(Wave(number, tuple(cells[c] for c in spilled), tokens(owners, counts)))
            if both_placed and opponent not in owners:
                won = mover
                break
        after = KaskadePosition(rules, bytes(owners), 1 - mover, self.plies + 1, None, bytes(counts), won)
        return Move(ply or Ply((cells[ix],)), self, after, tuple(events))


def overflow_wave(
    owners: bytearray,
    counts: bytearray,
    over: list[int],
    capacity: Sequence[int],
    neighbours: Sequence[Sequence[int]],
    mover: int,
) -> list[int]:
    """One wave: every cell of ``over`` overflows at once, a ball to each neighbour, which the mover then owns;
    a cell left without balls is empty. Changes ``owners`` and ``counts`` in place and returns the cells
    at capacity after it (sorted by index): the next wave's."""
    for c in over:
        counts[c] -= capacity[c]
    for c in over:
        for n in neighbours[c]:
            counts[n] += 1
            owners[n] = mover
    for c in over:
        if counts[c] == 0:
            owners[c] = EMPTY_CODE
    near = set(over)
    for c in over:
        near.update(neighbours[c])
    return sorted(c for c in near if counts[c] >= capacity[c])


def settle(
    rules: KaskadeRules, owners: bytearray, counts: bytearray, order: list[int], mover: int, max_steps: int = MAX_WAVES
) -> bool:
    """Overflow cells one at a time, in the order ``order`` chooses, until none is at capacity.

    ``order`` is consumed as a source of choices: each step overflows the
    over-full cell at position ``order[k] % len(over-full cells)``. Used to
    check that waves and any order of overflows give the same end when the
    chain ends by itself. Changes ``owners`` and ``counts`` in place; returns
    True when the chain ended by itself within ``max_steps`` overflows.
    """
    cap = rules.capacity
    nbrs = rules.geometry.neighbours_ix
    for k in range(max_steps):
        full = [c for c in range(len(counts)) if counts[c] >= cap[c]]
        if not full:
            return True
        c = full[order[k % len(order)] % len(full)] if order else full[0]
        counts[c] -= cap[c]
        if counts[c] == 0:
            owners[c] = EMPTY_CODE
        for n in nbrs[c]:
            counts[n] += 1
            owners[n] = mover
    return False
