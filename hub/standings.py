"""The standings of a round: points per player from the games' results (a win 1, a draw ½, a loss 0).

Pure: a list of finished games in, frozen rows out, best first (points, then
wins, then name). A game without both players' names counts for the board's
sides ("board 7 White"), so an event without names still has standings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

WHITE_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"


@dataclass(frozen=True)
class Played:
    """One game as the standings see it: the board, both players and the result (``*``: not finished)."""

    board: str
    white: str
    black: str
    result: str


@dataclass(frozen=True)
class Standing:
    """One player's line: games finished, wins, draws, losses and points."""

    player: str
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def points(self) -> float:
        """A win 1, a draw ½."""
        return self.wins + self.draws / 2


def standings(games: Iterable[Played]) -> tuple[Standing, ...]:
    """The standings from every finished game (unfinished ones count for nothing), best first."""
    tally: dict[str, list[int]] = {}
    for game in games:
        if game.result not in (WHITE_WINS, BLACK_WINS, DRAW):
            continue
        white = game.white or f"board {game.board} White"
        black = game.black or f"board {game.board} Black"
        for player, outcome in ((white, _outcome(game.result, True)), (black, _outcome(game.result, False))):
            line = tally.setdefault(player, [0, 0, 0])
            line[outcome] += 1
    rows = [Standing(p, sum(t), t[0], t[1], t[2]) for p, t in tally.items()]
    return tuple(sorted(rows, key=lambda s: (-s.points, -s.wins, s.player)))


def _outcome(result: str, white: bool) -> int:
    """0 win, 1 draw, 2 loss, for the player of white (``white``) or black."""
    if result == DRAW:
        return 1
    return 0 if (result == WHITE_WINS) == white else 2
