"""Cascade as the engine sees it: drops, cascades, and an evaluation of what is on the board.

A state is ``(board, mover)``: the board's colour codes (as the referee keeps
them: 0 white, 1 black, 2 red, 3 empty) and the colour code the player to
move owns. A move is ``cell index * 3 + colour code``. The cascade itself is
the referee's own code (:func:`referee.cascade.cascade_plain` and
:func:`~referee.cascade.cascade_rounds`), run on a copy of the board.

Evaluation. A stone in Cascade never changes once it is on the board, so the
stones already counted are certain: the evaluation is the margin, the
mover's stones minus the opponent's. Everything else (which colour a
half-open cell will get, who fills the last cells) is left to the search,
which sees it exactly near the end. That was measured, not assumed: a term
counting the *half-open* cells (empty, one parent filled: the triggers of
the next cascades) for the player to move, at 0.3 of a stone each, lost to
the plain margin by 7 games to 10 (3 drawn) on the standard board at 0.3 s a
move, and at -0.3 by 5 to 14 (1 drawn). The search's depth is what tells:
the same margin searched one ply deep (the greedy player's view) draws even
with the greedy player, and searched deeper beats it.

Symmetry. Swapping white and black everywhere maps the colour rule onto
itself (child = -(a + b) mod 3 commutes with x -> 1 - x), so the solver keys
a state with the mover's colour as white, and folds the board's mirror
image, which the rules cannot tell apart.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.model import Model
from referee.cascade import FILL_ABOVE, CascadePosition, CascadeRules, cascade_plain, cascade_rounds
from referee.plies import Ply
from referee.rules import Position
from referee.symbols import CODE_OF, EMPTY_CODE, SYMBOL_OF

SWAP = bytes([1, 0, 2, 3]) + bytes(range(4, 256))
"""A ``bytes.translate`` table swapping white and black."""

CascadeState = tuple[bytes, int]


def mirror_of(rules: CascadeRules) -> tuple[int, ...]:
    """For each cell index, the index of its mirror image across the board's vertical axis."""
    g = rules.geometry
    width = g.columns + 1
    return tuple(g.index_of[type(c)(c.row, width - c.col)] for c in g.cells)


class CascadeModel(Model):
    """Cascade on any diamond board, plain or fill-above."""

    def __init__(self, rules: CascadeRules) -> None:
        self.rules = rules
        self.tables = rules.tables
        self.fill_above = rules.variant == FILL_ABOVE
        self.cells = rules.geometry.cells
        self.size = len(self.cells)
        self.mirror = mirror_of(rules)

    def state_of(self, position: Position) -> CascadeState:
        """The board and the colour code of the player to move."""
        assert isinstance(position, CascadePosition)
        return position.board, CODE_OF[position.mover_colour]

    def moves(self, state: CascadeState) -> list[int]:
        """A drop of each colour on each empty cell, cells in canonical order."""
        board = state[0]
        out: list[int] = []
        for i in range(self.size):
            if board[i] == EMPTY_CODE:
                out += (3 * i, 3 * i + 1, 3 * i + 2)
        return out

    def legal(self, state: CascadeState, move: int) -> bool:
        """The cell is empty."""
        return state[0][move // 3] == EMPTY_CODE

    def play(self, state: CascadeState, move: int) -> CascadeState:
        """Drop and run the cascade."""
        board = bytearray(state[0])
        cell = move // 3
        board[cell] = move % 3
        if self.fill_above:
            cascade_rounds(board, cell, self.tables)
        else:
            cascade_plain(board, cell, self.tables)
        return bytes(board), 1 - state[1]

    def is_over(self, state: CascadeState) -> bool:
        """The board is full."""
        return EMPTY_CODE not in state[0]

    def exact(self, state: CascadeState) -> int:
        """The margin of the finished board for the mover."""
        return self.margin(state)

    def margin(self, state: CascadeState) -> int:
        """The mover's stones minus the opponent's."""
        board, mover = state
        return board.count(mover) - board.count(1 - mover)

    def evaluate(self, state: CascadeState) -> float:
        """The margin (see the module docs)."""
        board, mover = state
        return board.count(mover) - board.count(1 - mover)

    def children(self, state: CascadeState) -> list[tuple[float, int, CascadeState]]:
        """Every drop with its board, best first by the margin it leaves (one loop, for speed)."""
        board, mover = state
        other = 1 - mover
        tables = self.tables
        cascade = cascade_rounds if self.fill_above else cascade_plain
        found: list[tuple[float, int, CascadeState]] = []
        for i in range(self.size):
            if board[i] != EMPTY_CODE:
                continue
            for colour in (0, 1, 2):
                b = bytearray(board)
                b[i] = colour
                cascade(b, i, tables)
                child = bytes(b)
                found.append((child.count(mover) - child.count(other), 3 * i + colour, (child, other)))
        found.sort(key=_first, reverse=True)
        return found

    def horizon(self, state: CascadeState) -> int:
        """Each drop fills at least one cell."""
        return state[0].count(EMPTY_CODE)

    def key(self, state: CascadeState) -> Hashable:
        """The state itself: the search's table keeps a best move per entry, and a move names a colour."""
        return state

    def canonical(self, state: CascadeState) -> Hashable:
        """The board with the mover's colour as white, or its mirror image, whichever sorts first."""
        board, mover = state
        if mover:
            board = board.translate(SWAP)
        mirrored = bytes(board[j] for j in self.mirror)
        return min(board, mirrored)

    def ply(self, state: CascadeState, move: int) -> Ply:
        """The drop as the referee writes it."""
        return Ply((self.cells[move // 3],), SYMBOL_OF[move % 3])


def _first(item: tuple[float, int, CascadeState]) -> float:
    return item[0]
