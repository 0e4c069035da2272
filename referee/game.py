"""Games: a start position and the moves played so far, with undo; and the rule-set factory."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.cascade import FILL_ABOVE, CascadeRules
from referee.cascades import HEXAGON, CascadesRules
from referee.errors import GameOptionError, IllegalMoveError
from referee.geometry import parse_geometry
from referee.kaskade import KaskadeRules
from referee.rules import Move, Ply, Position, Rules, Score

GAMES = ("cascade", "cascades", "kaskade")
DEFAULT_BOARD = {"cascade": "diamond:8", "cascades": "trapezoid:8,8", "kaskade": "grid:6x6"}


def make_rules(
    game: str,
    geometry: str | None = None,
    variant: str | None = None,
    first: str = "white",
) -> Rules:
    """The rule set for a game name, a geometry spec (default: the standard board) and a variant.

    ``first`` (Cascade only) is the colour the first player owns.
    """
    if game not in GAMES:
        raise GameOptionError(f"unknown game '{game}': use one of {', '.join(GAMES)}")
    variant = variant or None
    if geometry is None:
        geometry = DEFAULT_BOARD[game]
        if game == "cascades" and variant == HEXAGON:
            geometry = "hexagon:8,8"
    board = parse_geometry(geometry)
    if game == "cascade":
        if variant not in (None, FILL_ABOVE):
            raise GameOptionError(f"Cascade has no variant '{variant}': use {FILL_ABOVE} or none")
        if first not in ("white", "black"):
            raise GameOptionError(f"the first player owns white or black, not '{first}'")
        return CascadeRules(board, variant, first)
    if game == "cascades":
        if variant == HEXAGON and board.kind == "trapezoid":
            board = parse_geometry(board.spec.replace("trapezoid", "hexagon"))
        return CascadesRules(board, variant)
    return KaskadeRules(board, variant)


def new_game(game: str, geometry: str | None = None, variant: str | None = None, first: str = "white") -> Game:
    """A new game of ``cascade``, ``cascades`` or ``kaskade`` (see :func:`make_rules`)."""
    rules = make_rules(game, geometry, variant, first)
    return Game(rules.start())


@dataclass(frozen=True)
class Game:
    """A game value: the start position and the moves played, oldest first.

    ``play`` and ``undo`` return new games; the history keeps every position,
    so undo gives back exactly the previous one.
    """

    start: Position
    moves: tuple[Move, ...] = field(default=())
    headers: tuple[tuple[str, str], ...] = field(default=())

    @property
    def rules(self) -> Rules:
        """The rule set."""
        return self.start.rules

    @property
    def position(self) -> Position:
        """The current position."""
        return self.moves[-1].position if self.moves else self.start

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position from the start to now."""
        return (self.start, *(m.position for m in self.moves))

    @property
    def last_move(self) -> Move | None:
        """The latest move (with its events), or None at the start."""
        return self.moves[-1] if self.moves else None

    @property
    def plies(self) -> tuple[Ply, ...]:
        """The plies played, oldest first."""
        return tuple(m.ply for m in self.moves)

    def play(self, ply: Ply | str) -> Game:
        """The game after ``ply`` (checked; raises IllegalMoveError)."""
        return Game(self.start, (*self.moves, self.position.play(ply)), self.headers)

    def push(self, move: Move) -> Game:
        """The game after a move already computed from the current position."""
        if move.before is not self.position and move.before != self.position:
            raise IllegalMoveError("that move was computed from another position: play it again from this one")
        return Game(self.start, (*self.moves, move), self.headers)

    def undo(self) -> Game:
        """The game without its last move; raises IllegalMoveError at the start."""
        if not self.moves:
            raise IllegalMoveError("nothing to undo: no ply has been played")
        return Game(self.start, self.moves[:-1], self.headers)

    def earlier(self, symbols: tuple[str, ...]) -> int | None:
        """How many plies back an earlier position shows exactly ``symbols`` (None if none does)."""
        positions = self.positions
        for back in range(1, len(positions)):
            if positions[-1 - back].symbols() == tuple(symbols):
                return back
        return None

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.position.is_over

    @property
    def score(self) -> Score:
        """The current score."""
        return self.position.score

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
        return self.position.result

    def with_headers(self, **headers: str) -> Game:
        """The same game with extra record headers (names, date)."""
        merged = dict(self.headers)
        merged.update(headers)
        return Game(self.start, self.moves, tuple(merged.items()))
