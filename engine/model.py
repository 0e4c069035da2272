"""A game as the search sees it: states, moves, the end and an evaluation.

The referee's positions are values made for checking and explaining plies;
the search needs something leaner. A :class:`Model` wraps one rule set and
works on its own small state values (tuples of bytes and numbers), with
moves as small ints or tuples. It turns a referee position into a state and a
move back into a :class:`~referee.plies.Ply`, and the tests check, game by
game, that its moves are exactly the referee's legal plies and that playing
one gives the referee's position.

Every score is from the view of the player to move in the state it is
computed for (negamax), in the game's own units: stones of margin for
Cascade and Cascades, and for Kaskade cells with a win worth :data:`WIN`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from referee.plies import Ply
from referee.rules import Position

WIN = 100_000.0
"""A score beyond any evaluation: a won game (less the plies it takes, so a quicker win scores more)."""

State = Any
Move = Any


class Model:
    """One rule set, seen by the search. Subclasses implement every method.

    ``beam`` limits the moves searched at a node that is not a frontier node
    (None: every move); the frontier always looks at every move.
    """

    beam: int | None = None

    def state_of(self, position: Position) -> State:
        """The state of a referee position (assumed not over)."""
        raise NotImplementedError

    def moves(self, state: State) -> list[Move]:
        """Every legal move of the player to move, in a fixed order (empty when the game is over)."""
        raise NotImplementedError

    def legal(self, state: State, move: Move) -> bool:
        """True when ``move`` (a move of some state of this game) may be played in ``state``."""
        return move in self.moves(state)

    def play(self, state: State, move: Move) -> State:
        """The state after a legal move."""
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        """True when the game has ended."""
        raise NotImplementedError

    def exact(self, state: State) -> int:
        """The value of a finished game for the player to move: the margin, or for Kaskade +1 or -1."""
        raise NotImplementedError

    def margin(self, state: State) -> int:
        """The game's current score for the player to move: own count minus the opponent's.

        What a greedy player maximises; for Kaskade the cells owned, a win
        counting as every cell of the board.
        """
        raise NotImplementedError

    def evaluate(self, state: State) -> float:
        """A guess at the final margin for the player to move (exact when the game is over)."""
        raise NotImplementedError

    def horizon(self, state: State) -> int:
        """At least the number of plies the game can still last (a search this deep sees every end)."""
        raise NotImplementedError

    def key(self, state: State) -> Hashable:
        """A key equal for states that play alike (for the search's table of known positions)."""
        raise NotImplementedError

    def canonical(self, state: State) -> Hashable:
        """Like :meth:`key`, but also equal for states that mirror each other (for the solver)."""
        return self.key(state)

    def ply(self, state: State, move: Move) -> Ply:
        """The referee's ply for a move."""
        raise NotImplementedError

    def children(self, state: State) -> list[tuple[float, Move, State]]:
        """Every move with the state it leads to and its score for the mover, best first.

        The score is the negated evaluation of the state after the move; the
        order is stable, so equal scores keep the order of :meth:`moves`.
        """
        evaluate = self.evaluate
        play = self.play
        found = []
        for move in self.moves(state):
            child = play(state, move)
            found.append((-evaluate(child), move, child))
        found.sort(key=_first, reverse=True)
        return found


def _first(item: tuple[float, Move, State]) -> float:
    return item[0]
