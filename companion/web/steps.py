"""The steps of a game's replay: each ply as the players saw it happen, one wave at a time.

A ply is shown in the order its events happened (:class:`referee.rules.Move`):
the player's drop (or stones, or ball), then each round of its cascade
(Cascade), the stones taken off (Cascades free-drop) or each overflow wave
(Kaskade). Every step holds the whole board, so the page only paints it; the
last step of each ply is the position after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.assess import ply_text
from referee.rules import Cascaded, Move, Placed, Position, Removed, Wave
from referee.symbols import EMPTY


@dataclass(frozen=True)
class Step:
    """One step of a replay: the ply it belongs to (0: the start), what happened, the board, the cells changed."""

    ply: int
    words: str
    cells: tuple[str, ...]
    changed: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The step for the page's script."""
        return {"ply": self.ply, "words": self.words, "cells": list(self.cells), "changed": list(self.changed)}


def steps_of(start: Position, moves: Sequence[Move]) -> tuple[Step, ...]:
    """The start, then the steps of every ply in order."""
    steps = [Step(0, "The start", start.symbols(), ())]
    for number, move in enumerate(moves, start=1):
        steps.extend(_ply_steps(number, move))
    return tuple(steps)


def _ply_steps(number: int, move: Move) -> list[Step]:
    geometry = move.before.geometry
    board = list(move.before.symbols())
    text = ply_text(move)
    head = f"Ply {number}, {text}"
    steps: list[Step] = []
    placed: list[str] = []
    rounds: dict[int, list[Cascaded]] = {}
    for event in move.events:
        if isinstance(event, Placed):
            index = geometry.index(event.cell)
            board[index] = _added(board[index], event.symbol, move.before.rules.game)
            placed.append(event.cell.name)
        elif isinstance(event, Cascaded):
            rounds.setdefault(event.round, []).append(event)
    if placed:
        what = "the stones" if len(placed) > 1 else _PLACED.get(move.before.rules.game, "the drop")
        steps.append(Step(number, f"{head}: {what}", tuple(board), tuple(placed)))
    for round_number in sorted(rounds):
        stones = rounds[round_number]
        for stone in stones:
            board[geometry.index(stone.cell)] = stone.symbol
        which = f" round {round_number}" if len(rounds) > 1 else ""
        count = f"{len(stones)} stone{'s' if len(stones) > 1 else ''}"
        steps.append(
            Step(number, f"{head}: the cascade{which}, {count}", tuple(board), tuple(s.cell.name for s in stones))
        )
    removed = [e for e in move.events if isinstance(e, Removed)]
    if removed:
        for taken in removed:
            board[geometry.index(taken.cell)] = EMPTY
        steps.append(Step(number, f"{head}: stones taken off", tuple(board), tuple(e.cell.name for e in removed)))
    for wave in (e for e in move.events if isinstance(e, Wave)):
        steps.append(
            Step(number, f"{head}: overflow wave {wave.number}", tuple(wave.after), tuple(c.name for c in wave.cells))
        )
    final = move.position.symbols()
    if not steps:
        words = {"pass": "passes", "resigns": "resigns"}.get(text, text)
        steps.append(Step(number, f"Ply {number}: {words}", final, ()))
    elif steps[-1].cells != final:  # whatever the events leave unsaid (a capture), the ply ends on its position
        steps.append(Step(number, f"{head}: after it", final, ()))
    return steps


_PLACED = {"cascade": "the drop", "cascades": "the stone", "kaskade": "the ball"}


def _added(token: str, colour: str, game: str) -> str:
    """The cell's token after the player's stone (Kaskade: one more ball of the mover's colour)."""
    if game != "kaskade":
        return colour
    balls = int(token[1:]) if token != EMPTY and token[1:].isdigit() else 0
    return f"{colour}{balls + 1}"
