"""Scripted games: what two players physically do at the board, step by step.

A scenario is a list of :class:`Step` values: the board as the camera should
see it after each thing the players do (drop a stone, place a few cascade
stones, carry out an overflow wave, fix a mistake), whether a hand covers the
board while they do it, and any button they press. The demo and the tests
render it with the synthetic camera and feed it through the real live game.

:func:`script_game` makes one from a seeded random game of any of the three
rule sets, with an optional *mistake*: in one move a stone of the wrong colour
(or a Kaskade cell with the wrong count) that the companion must catch, and
the fix that follows once the players see the alert.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from referee.rules import Cascaded, Move, Placed, Position, Removed, Wave
from referee.symbols import BLACK, EMPTY, RED, WHITE

GROUP_SIZE = 3


@dataclass(frozen=True)
class Step:
    """One action of the players: the board after it (one token per cell), a hand, a button."""

    board: tuple[str, ...]
    hand: bool = True
    button: str | None = None
    note: str = ""
    move: int = 0


@dataclass(frozen=True)
class Script:
    """A scripted game: its start, the steps, the moves the referee should accept, the mistake's step."""

    start: Position
    steps: tuple[Step, ...]
    moves: tuple[Move, ...]
    mistake_step: int | None

    @property
    def final(self) -> Position:
        """The position after the last move."""
        return self.moves[-1].position if self.moves else self.start


def random_moves(start: Position, seed: int, max_plies: int | None = None) -> list[Move]:
    """A seeded random game from ``start`` (no resignations; passes only when nothing else is legal)."""
    rng = random.Random(seed)
    moves: list[Move] = []
    position = start
    while not position.is_over and (max_plies is None or len(moves) < max_plies):
        plies = [p for p in position.legal_plies() if not p.passes and not p.resigns]
        if not plies:
            plies = [p for p in position.legal_plies() if p.passes]
        if not plies:
            break
        if position.rules.game == "cascade":
            plies = [p for p in plies if p.colour == position.mover_colour or rng.random() < 0.3] or plies
        move = position.play(rng.choice(plies))
        moves.append(move)
        position = move.position
    return moves


def _wrong(symbol: str) -> str:
    if len(symbol) > 1:  # Kaskade: a wrong ball count
        return symbol[0] + str(int(symbol[1:]) + 1)
    return {WHITE: BLACK, BLACK: RED, RED: WHITE}.get(symbol, WHITE)


def move_steps(move: Move, index: int) -> list[tuple[tuple[str, ...], str]]:
    """The boards of one move as players carry it out, each with a note."""
    geometry = move.before.geometry
    board = list(move.before.symbols())
    boards: list[tuple[tuple[str, ...], str]] = []
    group: list[str] = []

    def flush() -> None:
        if group:
            boards.append((tuple(board), ", ".join(group)))
            group.clear()

    for event in move.events:
        if isinstance(event, Placed):
            flush()
            i = geometry.index(event.cell)
            if move.before.rules.game == "kaskade":
                count = int(board[i][1:]) + 1 if board[i] != EMPTY else 1
                board[i] = f"{event.symbol}{count}"
            else:
                board[i] = event.symbol
            boards.append((tuple(board), f"{event.symbol} on {event.cell.name}"))
        elif isinstance(event, Cascaded):
            board[geometry.index(event.cell)] = event.symbol
            group.append(f"{event.symbol} on {event.cell.name}")
            if len(group) >= GROUP_SIZE:
                flush()
        elif isinstance(event, Removed):
            flush()
            board[geometry.index(event.cell)] = EMPTY
            boards.append((tuple(board), f"off {event.cell.name}"))
        elif isinstance(event, Wave):
            board = list(event.after)
            boards.append((tuple(board), f"wave {event.number}"))
    flush()
    final = move.position.symbols()
    if not boards or boards[-1][0] != final:
        boards.append((final, "done"))
    return boards


def _with_mistake(move: Move, boards: list[tuple[tuple[str, ...], str]]) -> list[tuple[tuple[str, ...], str]] | None:
    """The boards of a move with a mistake the referee must catch, and its fix; None if this move cannot hold one.

    Cascade: a cascade stone of the wrong colour. Kaskade: a wave leaving a
    wrong ball count. Cascades: a stone where no stone may go, taken away again.
    """
    geometry = move.before.geometry
    game = move.before.rules.game
    if game == "cascades":
        position = move.before
        allowed = set(position.placements(0)) | set(position.placements(1))  # type: ignore[attr-defined]
        first = list(boards[0][0])
        spots = [i for i, s in enumerate(first) if s == EMPTY and i not in allowed]
        if not spots:
            return None
        cell = spots[len(spots) // 2]
        wrong = list(first)
        wrong[cell] = position.mover_colour
        name = geometry.cells[cell].name
        return [boards[0], (tuple(wrong), f"mistake on {name}"), (tuple(first), f"fixed {name}"), *boards[1:]]
    if not any(isinstance(e, Cascaded | Wave) for e in move.events) or len(boards) < 2:
        return None
    board, _ = boards[-1]
    drop = {geometry.index(c) for c in move.ply.cells}
    changed = [i for i, (a, b) in enumerate(zip(move.before.symbols(), board, strict=True)) if a != b and i not in drop]
    if not changed or board[changed[-1]] == EMPTY:
        return None
    cell = changed[-1]
    wrong = list(board)
    wrong[cell] = _wrong(board[cell])
    name = geometry.cells[cell].name
    return [*boards[:-1], (tuple(wrong), f"mistake on {name}"), (board, f"fixed {name}")]


def script_game(start: Position, seed: int = 1, max_plies: int | None = None, mistake_at: int | None = None) -> Script:
    """A scripted game (see the module docstring); ``mistake_at``: the move from which to make the mistake."""
    moves = random_moves(start, seed, max_plies)
    steps: list[Step] = [Step(start.symbols(), hand=False, note="the board at the start")]
    mistake_step: int | None = None
    for index, move in enumerate(moves):
        boards = move_steps(move, index)
        if mistake_at is not None and mistake_step is None and index >= mistake_at:
            changed = _with_mistake(move, boards)
            if changed is not None:
                boards = changed
                mistake_step = len(steps) + next(i for i, (_, note) in enumerate(boards) if note.startswith("mistake"))
        for board, note in boards:
            steps.append(Step(board, hand=True, note=note, move=index + 1))
        if start.rules.game == "cascades" and could_continue(move) and index + 1 < len(moves):
            steps.append(Step(move.position.symbols(), hand=False, button="END_TURN", note="end turn", move=index + 1))
    return Script(start, tuple(steps), tuple(moves), mistake_step)


def could_continue(move: Move) -> bool:
    """True for a one-stone Cascades turn that could have taken a second stone (so it needs End turn)."""
    if len(move.ply.cells) != 1:
        return False
    return any(len(p.cells) == 2 and p.cells[0] == move.ply.cells[0] for p in move.before.legal_plies())
