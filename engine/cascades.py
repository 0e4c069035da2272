"""Cascades as the engine sees it: turns of one or two stones, passes, and a race to the scoring row.

A state is ``(board, mover, first, passes)``: the referee's colour codes per
cell (0 white, 1 black, 3 empty), the colour code of the player to move,
whether this is the game's first turn (one stone only) and how many passes
were just played in succession. A move is a tuple of one or two cell indices,
or ``()`` for a pass. Two stones that could be placed in either order are
offered once.

Evaluation: a race to the cells that score. For each colour, the number of
stones it still needs to reach each empty cell is counted row by row from
the top (a cell is one stone further than the nearer of the cells above it
that the colour holds or can reach; the opponent's stones block). A scoring
cell already filled counts for its owner; an empty one counts for the colour
that needs fewer stones to reach it, as much as a stone already there
(``reach``), and an empty one both reach with as many stones counts half for
the player to move, who gets there first (``tie``). This is what a greedy
player lacks: until stones reach the scoring row, the plain count is zero for
every move.

The weights were measured by matches between evaluations on the standard
board (20 or 40 games each, sides alternating, same search budget): a reach
weight of 1 beat 0.6 by 14 games to 6, 1.5 by 13 to 7 and 2.5 by 14 to 6;
without the race (weight 0) the evaluation lost all 20 games to weight 0.6.
Giving ties half a cell to the mover beat giving them nothing by 36 games
to 24, and giving them to the opponent lost 6 to 14.
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.model import Model
from referee.cascades import FREE_DROP, HEXAGON, TERRITORY, CascadesPosition, CascadesRules, unconnected
from referee.plies import PASS, Ply
from referee.rules import Position
from referee.symbols import EMPTY_CODE

SWAP = bytes([1, 0, 2, 3]) + bytes(range(4, 256))
FAR = 99
"""More stones than any board needs: a cell a colour cannot reach."""

CascadesState = tuple[bytes, int, bool, int]
CascadesMove = tuple[int, ...]


class CascadesModel(Model):
    """Cascades on a trapezoid or hexagon board, every variant."""

    beam: int | None = 12

    def __init__(self, rules: CascadesRules, reach: float = 1.0, tie: float = 0.5) -> None:
        self.rules = rules
        t = rules.tables
        g = rules.geometry
        self.cells = g.cells
        self.size = len(g)
        self.parents = t.parents
        self.children_of = t.children
        self.locked = t.locked
        self.bottom = t.trapezoid_bottom
        self.free = rules.variant == FREE_DROP
        self.hexagon = rules.variant == HEXAGON
        self.territory = rules.variant == TERRITORY
        self.rows = g.row_cells
        self.trapezoid_rows = rules.rows
        self.tables = t
        self.reach = reach
        self.tie = tie
        width = {r: len(cells) for r, cells in enumerate(g.row_cells, start=1)}
        self.mirror = tuple(g.index_of[type(c)(c.row, width[c.row] + 1 - c.col)] for c in g.cells)

    # -- the rules -----------------------------------------------------------------
    def state_of(self, position: Position) -> CascadesState:
        """Board, mover, first turn, passes."""
        assert isinstance(position, CascadesPosition)
        return position.board, position.to_move, position.plies == 0, position.passes

    def _open(self, board: bytes | bytearray) -> bool:
        """True when the locked rows below the trapezoid may be played (its bottom row is full)."""
        return not self.locked or all(board[i] != EMPTY_CODE for i in self.bottom)

    def placements(self, board: bytes | bytearray, code: int) -> list[int]:
        """Cells where colour ``code`` may place a stone, canonical order."""
        if self.free:
            cells = [i for i in range(self.size) if board[i] == EMPTY_CODE]
        else:
            children = self.children_of
            cells = sorted({c for i in range(self.size) if board[i] == code for c in children[i] if board[c] == 3})
        if self.locked and not self._open(board):
            locked = self.locked
            cells = [c for c in cells if c not in locked]
        return cells

    def moves(self, state: CascadesState) -> list[CascadesMove]:
        """Single stones, then pairs (not on the first turn), then the pass (not on the first turn)."""
        if self.is_over(state):
            return []
        board, mover, first, _ = state
        firsts = self.placements(board, mover)
        out: list[CascadesMove] = [(i,) for i in firsts]
        if first:
            return out
        placeable = set(firsts)
        simple = not self.free and not self.locked
        children = self.children_of
        for i in firsts:
            if simple:
                seconds = sorted(placeable.union(c for c in children[i] if board[c] == EMPTY_CODE) - {i})
            else:
                b = bytearray(board)
                b[i] = mover
                seconds = self.placements(b, mover)
            for j in seconds:
                if j in placeable and j < i:
                    continue  # (j, i) gives the same board and is offered
                out.append((i, j))
        out.append(())
        return out

    def legal(self, state: CascadesState, move: CascadesMove) -> bool:
        """Each stone on an empty cell below one of the mover's (the second may stand on the first), or a pass."""
        board, mover, first, passes = state
        if passes >= 2:
            return False
        if not move:
            return not first and not self.is_over(state)
        if first and len(move) > 1:
            return False
        b = bytearray(board)
        for i in move:
            if b[i] != EMPTY_CODE or (i in self.locked and not self._open(b)):
                return False
            if not self.free and all(b[p] != mover for p in self.parents[i]):
                return False
            b[i] = mover
        return True

    def play(self, state: CascadesState, move: CascadesMove) -> CascadesState:
        """Place the stones (removing unconnected ones in free-drop), or pass."""
        board, mover, _, passes = state
        if not move:
            return board, 1 - mover, False, passes + 1
        b = bytearray(board)
        for i in move:
            b[i] = mover
        if self.free:
            for i in unconnected(b, self.tables):
                b[i] = EMPTY_CODE
        return bytes(b), 1 - mover, False, 0

    def is_over(self, state: CascadesState) -> bool:
        """Two passes in succession, or no placement for either colour."""
        board, mover, _, passes = state
        if passes >= 2:
            return True
        return not self.placements(board, mover) and not self.placements(board, 1 - mover)

    def scoring(self, board: bytes) -> tuple[int, ...]:
        """The cells that count (see :mod:`referee.cascades`)."""
        if self.territory:
            return tuple(range(self.size))
        if self.hexagon:
            for row in reversed(self.rows):
                if any(board[i] != EMPTY_CODE for i in row):
                    return row
        return self.rows[self.trapezoid_rows - 1]

    def margin(self, state: CascadesState) -> int:
        """The mover's scoring stones minus the opponent's."""
        board, mover = state[0], state[1]
        values = bytes(board[i] for i in self.scoring(board))
        return values.count(mover) - values.count(1 - mover)

    def exact(self, state: CascadesState) -> int:
        """The margin of the finished game for the mover."""
        return self.margin(state)

    # -- the engine's judgement -------------------------------------------------
    def distances(self, board: bytes, code: int) -> list[int]:
        """Stones colour ``code`` needs to fill each cell (0: holds it; :data:`FAR`: cannot)."""
        parents = self.parents
        other = 1 - code
        dist = [FAR] * self.size
        for i in range(self.size):
            v = board[i]
            if v == code:
                dist[i] = 0
            elif v != other:
                ps = parents[i]
                if ps:
                    d = dist[ps[0]]
                    if len(ps) == 2 and dist[ps[1]] < d:
                        d = dist[ps[1]]
                    if d < FAR:
                        dist[i] = d + 1
        return dist

    def evaluate(self, state: CascadesState) -> float:
        """Scoring stones held, and the scoring cells each colour reaches first (see the module docs)."""
        if self.is_over(state):
            return self.margin(state)
        board, mover = state[0], state[1]
        mine = self.distances(board, mover)
        theirs = self.distances(board, 1 - mover)
        held = 0
        ahead = 0
        even = 0
        for i in self.scoring(board):
            v = board[i]
            if v == mover:
                held += 1
            elif v != EMPTY_CODE:
                held -= 1
            elif mine[i] < theirs[i]:
                ahead += 1
            elif theirs[i] < mine[i]:
                ahead -= 1
            elif mine[i] < FAR:
                even += 1
        return held + self.reach * ahead + self.tie * even

    def horizon(self, state: CascadesState) -> int:
        """Every second ply at least fills a cell, or the game ends; free-drop games need not end."""
        if self.free:
            return 1_000_000
        return 2 * state[0].count(EMPTY_CODE) + 2

    def key(self, state: CascadesState) -> Hashable:
        """The state with the mover's colour as white."""
        return self._key(state)

    def _key(self, state: CascadesState) -> tuple[bytes, bool, int]:
        board, mover, first, passes = state
        return (board if mover == 0 else board.translate(SWAP)), first, passes

    def canonical(self, state: CascadesState) -> Hashable:
        """The key or that of its mirror image, whichever sorts first."""
        board, first, passes = self._key(state)
        mirrored = bytes(board[j] for j in self.mirror)
        return min(board, mirrored), first, passes

    def ply(self, state: CascadesState, move: CascadesMove) -> Ply:
        """The stones as the referee writes them, or ``pass``."""
        if not move:
            return PASS
        return Ply(tuple(self.cells[i] for i in move))
