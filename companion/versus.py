"""A scripted player against the computer: the steps at the board, decided as the game goes.

A game against the computer cannot be scripted ahead like
:func:`companion.scenario.script_game`: the computer's plies are known only
when it has chosen them. :func:`versus_steps` therefore yields the steps of
one move at a time, reading the live game between moves:

- on the player's turn, the player's ply (a seeded random one by default,
  as :func:`companion.scenario.random_moves` plays);
- on the computer's turn, it waits for the computer's ply and places what the
  live game lights for it (the snapshot's ``suggested`` cells, the LED
  mirror's cells blinking fast), then the cascade or waves it causes;
- with ``mistake_at``, the computer's move of that number is first placed on
  a wrong cell, and set right once the companion has said what to fix.

The demo (``cascade demo --opponent engine``) films these steps with the
synthetic camera, and the tests drive the live game with them.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from companion.live import LiveGame
from companion.scenario import Step, could_continue, move_steps
from referee.geometry import Cell
from referee.plies import Ply
from referee.rules import Move, Position
from referee.symbols import EMPTY

THINK_WAIT_S = 60.0
"""The longest the scripted player waits for the computer's ply before giving up on the game."""

Chooser = Callable[[Position], Ply]


class ComputerSilentError(RuntimeError):
    """The computer did not choose a ply in time (or could not): the scripted game cannot go on."""


@dataclass(frozen=True)
class Turn:
    """One move at the board: its steps, whose it was, and whether its first step is a planned mistake."""

    steps: tuple[Step, ...]
    by_computer: bool
    mistake: bool = False


def random_player(seed: int) -> Chooser:
    """A seeded player of random legal plies (in Cascade mostly of its own colour), never resigning."""
    rng = random.Random(seed)

    def choose(position: Position) -> Ply:
        plies = [p for p in position.legal_plies() if not p.passes and not p.resigns]
        if not plies:
            return Ply(passes=True)
        if position.rules.game == "cascade":
            plies = [p for p in plies if p.colour == position.mover_colour or rng.random() < 0.3] or plies
        return rng.choice(plies)

    return choose


def placed_ply(position: Position, live: LiveGame) -> Ply:
    """The ply the live game lights for the computer, read as a player reads the board's LEDs."""
    marks = live.snapshot().suggested
    cells = tuple(position.geometry.cell(m.cell) for m in marks)
    colour = marks[0].need[:1] if marks and position.rules.game == "cascade" else None
    return Ply(cells, colour)


def _steps(move: Move, number: int) -> list[Step]:
    return [Step(board, hand=True, note=note, move=number) for board, note in move_steps(move, number)]


def _wrong_cell(position: Position, ply: Ply) -> Cell | None:
    """An empty cell that is not the ply's, where the placed stone is plainly wrong."""
    empty = [c for c, s in zip(position.geometry.cells, position.symbols(), strict=True) if s == EMPTY]
    others = [c for c in empty if c not in ply.cells]
    return others[len(others) // 2] if others else None


def _mistake(position: Position, ply: Ply, number: int) -> list[Step]:
    """The computer's stone placed on a wrong cell, then taken off again."""
    cell = _wrong_cell(position, ply)
    if cell is None:
        return []
    colour = ply.colour or position.mover_colour
    board = list(position.symbols())
    board[position.geometry.index(cell)] = colour + ("1" if position.rules.game == "kaskade" else "")
    return [
        Step(tuple(board), hand=True, note=f"mistake on {cell.name}", move=number),
        Step(position.symbols(), hand=True, note=f"fixed {cell.name}", move=number),
    ]


def versus_steps(
    live: LiveGame,
    player: Chooser,
    mistake_at: int | None = None,
    wait: Callable[[threading.Event], None] | None = None,
) -> Iterator[Turn]:
    """The moves of a game against the live game's computer, one :class:`Turn` at a time (see the module docs).

    The caller carries out each turn's steps at the board (films them, or feeds
    them) before asking for the next. ``wait`` is called with the computer's
    idle event while it thinks (default: wait for it, up to
    :data:`THINK_WAIT_S`); raises ComputerSilentError when it stays silent.
    """
    computer = live.advice.computer
    if computer is None:
        raise ValueError("the live game has no computer opponent: give it one with play_against")
    computer_moves = 0
    while not live.position.is_over:
        position = live.position
        number = len(live.moves) + 1
        if computer.plays(position):
            if wait is not None:
                wait(computer.idle)
            elif not computer.idle.wait(THINK_WAIT_S):
                raise ComputerSilentError(f"the computer chose no ply in {THINK_WAIT_S:g} s")
            if live.position is not position:  # it passed: the live game played the pass itself
                continue
            if live.advice.computer_ply(position) is None:
                raise ComputerSilentError(f"the computer chose no ply ({computer.failure})")
            ply = placed_ply(position, live)
            computer_moves += 1
            wrong = _mistake(position, ply, number) if computer_moves == mistake_at else []
            yield Turn((*wrong, *_steps(position.play(ply), number)), True, bool(wrong))
            continue
        ply = player(position)
        if ply.passes:
            yield Turn((Step(position.symbols(), hand=False, button="PASS", note="pass", move=number),), False)
            continue
        move = position.play(ply)
        steps = _steps(move, number)
        if position.rules.game == "cascades" and could_continue(move):
            steps.append(Step(move.position.symbols(), hand=False, button="END_TURN", note="end turn", move=number))
        yield Turn(tuple(steps), False)


__all__ = ["THINK_WAIT_S", "ComputerSilentError", "Turn", "placed_ply", "random_player", "versus_steps"]
