"""The search: negamax with alpha-beta, iterative deepening and a table of known positions.

The search looks ``depth`` plies ahead and scores the positions it reaches
with the model's evaluation; a position whose game is over scores exactly.
It deepens one ply at a time and stops when the clock or the node budget
runs out, when a search has seen every end of the game (the model's
``horizon``), when a win is proven, or when the next depth would not finish
in the time left (guessed from how the depths so far grew).

Move ordering is what makes alpha-beta fast: at every node the moves come
from the model best first by the evaluation of the position they lead to;
the move that was best the last time the node was searched (kept in the
table) goes first. At the frontier (one ply left) that ordering is all the
search needs: the best score among the moves is the node's score. Where the
model sets a ``beam``, nodes that are not on the frontier search only that
many of their best moves (Cascades, whose turns of two stones offer hundreds
of moves).

Clock and budget: the clock is read at every node the search expands, so a
move ends at most one expansion after its time (a few milliseconds on the
standard boards). A node budget makes the choice independent of the
machine's speed; a time budget alone does not (how deep the search got
depends on how fast the machine is).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass

from engine.model import WIN, Model, Move, State

INFINITY = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 400_000
"""Positions kept in the table before it is emptied (a few hundred megabytes at most)."""
GUESS_MARGIN = 1.5
"""How much :func:`next_iteration_s` overestimates, measured on Cascade's standard board."""
FAVOURITES = 6
"""Moves with the most refutations so far, tried early at the frontier."""


def next_iteration_s(took: list[float]) -> float:
    """How long the next depth will take, from the times of the depths searched so far.

    Odd and even depths grow differently in alpha-beta (the cost goes as b
    to the half depth, rounded up), so the next depth is guessed from the
    one before the last, scaled by how much two plies cost last time. On
    Cascade's standard board the guess runs about 1.5 times the real time
    (:data:`GUESS_MARGIN`).
    """
    if len(took) >= 3 and took[-3] > 0:
        return took[-2] * took[-1] / took[-3]
    return 4.0 * took[-1]


class Stop(Exception):
    """The clock or the node budget ran out (internal: the search unwinds to its root)."""


@dataclass(frozen=True)
class Found:
    """What a search found: the best move, its score, how deep and how much it looked.

    ``exact`` is True when the search saw every end of the game from here, so
    ``score`` is the game's value under best play (for the move found).
    """

    move: Move
    score: float
    depth: int
    nodes: int
    seconds: float
    exact: bool
    line: tuple[Move, ...] = ()


class Search:
    """One search from one state: a model, a deadline (``time.perf_counter`` seconds) and a node budget."""

    def __init__(self, model: Model, deadline: float = INFINITY, nodes: int | None = None) -> None:
        self.model = model
        self.deadline = deadline
        self.limit = nodes if nodes is not None else 1 << 62
        self.nodes = 0
        self.table: dict[Hashable, tuple[int, float, int, Move]] = {}
        self.killers: dict[int, tuple[Move, ...]] = {}
        self.history: dict[Move, int] = {}
        self.favourites: tuple[Move, ...] = ()
        self.cuts = 0
        self.pruned = False

    def expand(self, state: State) -> list[tuple[float, Move, State]]:
        """The scored children of a state, counting them and checking the clock and the budget."""
        if self.nodes >= self.limit or time.perf_counter() >= self.deadline:
            raise Stop
        children = self.model.children(state)
        self.nodes += len(children)
        return children

    def frontier(self, state: State, alpha: float, beta: float, ply: int) -> float:
        """The score of a node one ply from the search's horizon: its best move's evaluation.

        Moves are tried killers first, then the few moves that refuted most
        often so far (their history), then in the model's order; the node
        stops at the first move that reaches ``beta`` (the move above it has
        a better answer elsewhere), so a refuted move costs one child.
        """
        if self.nodes >= self.limit or time.perf_counter() >= self.deadline:
            raise Stop
        model = self.model
        play, evaluate, legal = model.play, model.evaluate, model.legal
        best = -INFINITY
        tried: list[Move] = []
        for move in (*self.killers.get(ply, ()), *self.favourites):
            if move in tried or not legal(state, move):
                continue
            tried.append(move)
            self.nodes += 1
            value = -evaluate(play(state, move))
            if value > best:
                best = value
                if value >= beta:
                    self._cut(move, ply, 1)
                    return best
        moves = model.moves(state)
        if not moves:
            return model.evaluate(state)
        for move in moves:
            if move in tried:
                continue
            self.nodes += 1
            value = -evaluate(play(state, move))
            if value > best:
                best = value
                if value >= beta:
                    self._cut(move, ply, 1)
                    break
        return best

    def _cut(self, move: Move, ply: int, depth: int) -> None:
        """Remember a move that refuted its sibling: a killer at this ply, and in the history."""
        killers = self.killers.get(ply, ())
        if move not in killers:
            self.killers[ply] = (move, *killers[:1])
        self.history[move] = self.history.get(move, 0) + depth * depth
        self.cuts += 1
        if not self.cuts % 64:
            self.favourites = tuple(sorted(self.history, key=self.history.__getitem__, reverse=True)[:FAVOURITES])

    def negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int = 1) -> float:
        """The score of ``state`` for its mover, searched ``depth`` plies, fail-soft within (alpha, beta).

        ``ply`` counts the plies from the root (killer moves are kept per ply).
        """
        if depth <= 1:
            return self.frontier(state, alpha, beta, ply)
        model = self.model
        key = model.key(state)
        entry = self.table.get(key)
        remembered = None
        if entry is not None:
            known_depth, value, flag, remembered = entry
            if known_depth >= depth and (
                flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha)
            ):
                return value
        start_alpha = alpha
        best = -INFINITY
        best_move = None
        tried: list[Move] = []
        # moves that refuted before are tried before the node is expanded: a cut then costs one child
        for move in (remembered, *self.killers.get(ply, ())):
            if move is None or move in tried or not model.legal(state, move):
                continue
            tried.append(move)
            self.nodes += 1
            value = -self.negamax(model.play(state, move), depth - 1, -beta, -max(alpha, best), ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if alpha < beta:
            children = self.expand(state)
            if not children:
                return model.evaluate(state)
            beam = model.beam
            if beam is not None and len(children) > beam:
                children = children[:beam]
                self.pruned = True
            for _, move, child in children:
                if move in tried:
                    continue
                value = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
                if value > best:
                    best, best_move = value, move
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        if best >= beta and best_move is not None:
            self._cut(best_move, ply, depth)
        flag = EXACT if start_alpha < best < beta else (LOWER if best >= beta else UPPER)
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, best, flag, best_move)
        return best

    def line(self, state: State, first: Move, length: int) -> tuple[Move, ...]:
        """The expected line of play from ``state`` starting with ``first``, from the table."""
        moves = [first]
        state = self.model.play(state, first)
        while len(moves) < length:
            entry = self.table.get(self.model.key(state))
            if entry is None or self.model.is_over(state):
                break
            moves.append(entry[3])
            state = self.model.play(state, entry[3])
        return tuple(moves)

    def deepen(
        self,
        state: State,
        max_depth: int,
        budget_s: float | None = None,
        order: list[tuple[float, Move, State]] | None = None,
    ) -> Found:
        """Iterative deepening from ``state`` up to ``max_depth`` plies (or until stopped); the best move found.

        ``order`` gives the root's moves in the order to try them (default:
        the model's order); the first one is the answer if not even one ply
        can be searched in time.
        """
        started = time.perf_counter()
        model = self.model
        children = order if order is not None else model.children(state)
        if order is None:
            self.nodes += len(children)
        if not children:
            raise ValueError("no moves: the game is over")
        best_score, best_move = children[0][0], children[0][1]
        depth_done = 1
        pruned = False
        horizon = model.horizon(state)
        scores = {move: score for score, move, _ in children}
        depth = 1
        took: list[float] = []
        while depth < max_depth and depth < horizon and abs(best_score) < WIN / 2:
            depth += 1
            iteration_started = time.perf_counter()
            ranked = sorted(children, key=lambda c: scores[c[1]], reverse=True)
            self.pruned = False
            beam = model.beam
            if beam is not None and len(ranked) > beam:
                ranked = ranked[:beam]
                self.pruned = True
            alpha = -INFINITY
            found_move, found_score = best_move, -INFINITY
            try:
                for _, move, child in ranked:
                    value = -self.negamax(child, depth - 1, -INFINITY, -alpha)
                    scores[move] = value
                    if value > alpha:
                        alpha = value
                        found_move, found_score = move, value
            except Stop:
                if found_score > -INFINITY:  # the moves searched to the end at this depth, best first
                    best_move, best_score = found_move, found_score
                break
            best_move, best_score = found_move, found_score
            depth_done = depth
            pruned = self.pruned
            for _, move, _ in ranked:  # moves that failed low keep a bound; rank them below the best
                if move != best_move:
                    scores[move] = min(scores[move], best_score - 1e-9)
            now = time.perf_counter()
            took.append(now - iteration_started)
            if budget_s is not None and now - started + next_iteration_s(took) / GUESS_MARGIN > budget_s:
                break
        exact = not pruned and (depth_done >= horizon or abs(best_score) >= WIN / 2)
        return Found(
            best_move,
            best_score,
            depth_done,
            self.nodes,
            time.perf_counter() - started,
            exact,
            self.line(state, best_move, depth_done),
        )
