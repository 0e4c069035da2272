"""Games: a start position and the moves played so far, with undo; and the rule-set factory."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.cascade import FILL_ABOVE, CascadePosition, CascadeRules
from referee.cascades import HEXAGON, CascadesPosition, CascadesRules
from referee.errors import DiagramError, GameOptionError, IllegalMoveError
from referee.geometry import parse_geometry
from referee.kaskade import KaskadePosition, KaskadeRules
from referee.plies import Ply
from referee.rules import Move, Position, Rules, Score
from referee.symbols import CODE_OF, EMPTY, EMPTY_CODE, UNKNOWN

GAMES = ("cascade", "cascades", "kaskade")
DEFAULT_BOARD = {"cascade": "diamond:8", "cascades": "trapezoid:8,8", "kaskade": "grid:6x6"}


def game_on(board: str | None) -> str:
    """The game played on ``board`` (a geometry spec, or None): Cascades on a trapezoid or hexagon, Kaskade
    on a grid, otherwise Cascade."""
    kind = (board or "").strip().partition(":")[0]
    return {"trapezoid": "cascades", "hexagon": "cascades", "grid": "kaskade"}.get(kind, "cascade")


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


def position_from(rules: Rules, symbols: Sequence[str], to_move: int = 0, plies: int | None = None) -> Position:
    """A position of ``rules`` showing ``symbols`` (one token per cell), ``to_move`` to play.

    ``plies`` defaults to a count consistent with the stones shown (it
    matters for Kaskade's win and Cascades' first turn). The position is
    taken as given: build only positions that are closed under the rules.
    """
    g = rules.geometry
    if len(symbols) != len(g):
        raise DiagramError(f"{len(symbols)} symbols for the {len(g)} cells of {g.spec}")
    if any(t.endswith(UNKNOWN) for t in symbols):
        raise DiagramError("a position cannot hold unreadable cells (?)")
    if isinstance(rules, KaskadeRules):
        owners = bytes(CODE_OF[t[0]] for t in symbols)
        counts = bytes(0 if t == EMPTY else int(t[1:]) for t in symbols)
        if plies is None:
            has = {o for o in owners if o != EMPTY_CODE}
            plies = 0 if not has else (1 if to_move == 1 and has == {0} else 2)
        return KaskadePosition(rules, owners, to_move, plies, None, counts)
    board = bytes(CODE_OF[s] for s in symbols)
    if isinstance(rules, CascadeRules):
        filled = len(board) - board.count(EMPTY_CODE)
        return CascadePosition(rules, board, to_move, filled if plies is None else plies)
    if isinstance(rules, CascadesRules):
        if plies is None:
            plies = 0 if board == rules.start().board else 2 - (to_move == 1)
        return CascadesPosition(rules, board, to_move, plies)
    raise DiagramError(f"no positions for {rules!r}")
