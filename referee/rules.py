"""What every game shares: events, moves, scores, rules and positions (plies: :mod:`referee.plies`).

A :class:`Position` is an immutable value; :meth:`Position.play` checks a ply
and returns a :class:`Move`: the new position and the ordered events the ply
caused (the player's stones or ball, cascade stones in canonical order,
removals, overflow waves). Validation and application are separate:
``play`` checks, ``apply`` trusts its caller.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from referee.diagrams import diagram_of
from referee.errors import IllegalMoveError
from referee.geometry import Cell, Geometry
from referee.notation import parse_ply
from referee.plies import Ply
from referee.symbols import BLACK, EMPTY, WHITE

WHITE_WINS = "1-0"
BLACK_WINS = "0-1"
DRAW = "1/2-1/2"
UNFINISHED = "*"


class Placed(NamedTuple):
    """The player's own stone (or ball) on ``cell``."""

    cell: Cell
    symbol: str


class Cascaded(NamedTuple):
    """A cascade stone the rules demand on ``cell``, created in round ``round`` (from 1)."""

    cell: Cell
    symbol: str
    round: int


class Removed(NamedTuple):
    """A stone taken off ``cell`` (Cascades free-drop: no path to the top row)."""

    cell: Cell
    symbol: str


class Wave(NamedTuple):
    """One Kaskade overflow wave: the cells that overflow at once and the board after it.

    ``after`` holds one token per cell in canonical order (``.``, ``o2``, ``x1``).
    """

    number: int
    cells: tuple[Cell, ...]
    after: tuple[str, ...]


Event = Placed | Cascaded | Removed | Wave


@dataclass(frozen=True)
class Score:
    """Stones (Cascade, Cascades) or occupied cells (Kaskade) counted for each colour."""

    white: int
    black: int

    def __str__(self) -> str:
        return f"white {self.white}, black {self.black}"


@dataclass(frozen=True)
class Rules:
    """A rule set: game name, board geometry and variant. Makes the start position."""

    game: ClassVar[str] = ""
    variants: ClassVar[tuple[str, ...]] = ()
    geometry: Geometry
    variant: str | None = None

    @property
    def spec(self) -> str:
        """The board's geometry spec string."""
        return self.geometry.spec

    def start(self) -> Position:
        """The position before the first ply."""
        raise NotImplementedError

    def player_colour(self, player: int) -> str:
        """The colour symbol owned by player 0 (first) or 1 (second)."""
        return WHITE if player == 0 else BLACK

    def headers(self) -> dict[str, str]:
        """The record headers that name this rule set."""
        raise NotImplementedError


@dataclass(frozen=True)
class Position:
    """An immutable position of one of the games: the board and whose turn it is.

    ``to_move`` is 0 for the first player and 1 for the second; ``plies`` the
    number of plies played; ``resigned`` the player who resigned, if any.
    """

    rules: Rules
    board: bytes
    to_move: int = 0
    plies: int = 0
    resigned: int | None = field(default=None)

    # -- what every game answers -------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        """The board geometry."""
        return self.rules.geometry

    @property
    def mover_colour(self) -> str:
        """The colour symbol owned by the player to move."""
        return self.rules.player_colour(self.to_move)

    @property
    def is_over(self) -> bool:
        """True when the game has ended (board full, win, passes, resignation)."""
        raise NotImplementedError

    @property
    def score(self) -> Score:
        """The current count for each colour, as the game scores it."""
        raise NotImplementedError

    @property
    def result(self) -> str:
        """``1-0`` (white wins), ``0-1`` (black wins), ``1/2-1/2`` or ``*`` while playing."""
        if self.resigned is not None:
            return BLACK_WINS if self.rules.player_colour(self.resigned) == WHITE else WHITE_WINS
        if not self.is_over:
            return UNFINISHED
        s = self.score
        if s.white > s.black:
            return WHITE_WINS
        if s.black > s.white:
            return BLACK_WINS
        return DRAW

    @property
    def winner(self) -> str | None:
        """The winning colour symbol, or None for a draw or an unfinished game."""
        return {WHITE_WINS: WHITE, BLACK_WINS: BLACK}.get(self.result)

    def symbols(self) -> tuple[str, ...]:
        """One token per cell, canonical order: the diagram symbol (Kaskade: ``o2``)."""
        raise NotImplementedError

    def symbol(self, cell: Cell | str) -> str:
        """The token of one cell."""
        return self.symbols()[self.geometry.index(cell)]

    def empty_cells(self) -> tuple[Cell, ...]:
        """The empty cells, canonical order."""
        return tuple(c for c, s in zip(self.geometry.cells, self.symbols(), strict=True) if s == EMPTY)

    def legal_plies(self) -> Iterator[Ply]:
        """Every legal ply except resignation, in a fixed order."""
        raise NotImplementedError

    def parse_ply(self, text: str) -> Ply:
        """Read one ply in record notation for this game (raises RecordError)."""
        return parse_ply(text, self.rules.game, self.geometry)

    def play(self, ply: Ply | str) -> Move:
        """Check ``ply`` (a Ply or record notation) and play it; raises IllegalMoveError."""
        if isinstance(ply, str):
            ply = self.parse_ply(ply)
        if self.is_over:
            raise IllegalMoveError(f"the game is over ({self.result}); start a new game or undo")
        if ply.resigns:
            return Move(ply, self, self._resign(), ())
        for cell in ply.cells:
            if cell not in self.geometry:
                raise IllegalMoveError(
                    f"{cell} is not a cell of the {self.geometry.spec} board: choose a cell of this board"
                )
        self.check(ply)
        return self.apply(ply)

    def _resign(self) -> Position:
        from dataclasses import replace

        return replace(self, resigned=self.to_move, plies=self.plies + 1, to_move=1 - self.to_move)

    def check(self, ply: Ply) -> None:
        """Raise IllegalMoveError, saying why and what to do, if ``ply`` is illegal here."""
        raise NotImplementedError

    def apply(self, ply: Ply) -> Move:
        """Play a ply already known to be legal."""
        raise NotImplementedError

    def diagram(self) -> str:
        """The position as a diagram (see :mod:`referee.diagrams`)."""
        return diagram_of(self.rules.game, self.geometry, self.symbols())

    def __str__(self) -> str:
        return self.diagram()


@dataclass(frozen=True)
class Move:
    """What a ply did: the ply, the positions before and after, and the ordered events."""

    ply: Ply
    before: Position
    position: Position
    events: tuple[Event, ...]

    @property
    def cascade(self) -> str:
        """The colours of the cascade stones in canonical order (the record's cascade string)."""
        return "".join(e.symbol for e in self.events if isinstance(e, Cascaded))

    @property
    def waves(self) -> tuple[Wave, ...]:
        """The Kaskade overflow waves, in order."""
        return tuple(e for e in self.events if isinstance(e, Wave))
