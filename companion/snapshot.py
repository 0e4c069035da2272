"""Snapshots: the frozen values the live game publishes for the page.

A :class:`Snapshot` is everything a viewer needs to draw the game at one
moment: the expected position (per cell and as a diagram of docs/rules.md), score,
whose turn it is, the pending cells and the cells in error, plain-words
alerts, the move list, the LED mirror and any offer waiting for a confirm.
``link`` says in plain words how the LED controller is doing when it is not
answering ("LEDs disconnected since 20:31, retrying"), and is empty while it
answers or when the board has no LEDs; ``hub`` likewise says when a board that publishes its game cannot
reach the broker. ``computer`` says what the computer opponent does
("the computer plays = e6", "The computer is thinking…"), ``suggested`` the
cells of the ply to place for it (or of a hint asked for), and, in the
teaching mode, ``legal`` the cells a stone may go on now. The live game
builds one after every change; the page gets it as JSON from ``GET
/api/state`` and as Server-Sent Events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class CellMark:
    """A cell the players must act on: ``need`` is the symbol it must hold (``.`` for empty)."""

    cell: str
    need: str


@dataclass(frozen=True)
class Snapshot:
    """The state of the live game at one moment (see the module docstring)."""

    seq: int
    game: str
    geometry: str
    game_id: int | None
    diagram: str
    cells: tuple[str, ...]
    observed: tuple[str, ...]
    score: tuple[tuple[str, int], ...]
    turn: str
    pending: tuple[CellMark, ...] = ()
    errors: tuple[CellMark, ...] = ()
    alerts: tuple[str, ...] = ()
    message: str = ""
    moves: tuple[str, ...] = ()
    last_move: tuple[str, ...] = ()
    leds: tuple[str, ...] = ()
    undo_offer: int = 0
    result: str | None = None
    occluded: bool = False
    frames: int = 0
    link: str = ""
    extra: tuple[tuple[str, str], ...] = field(default=())
    hub: str = ""
    computer: str = ""
    suggested: tuple[CellMark, ...] = ()
    legal: tuple[str, ...] = ()
    teaching: bool = False

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: the fields, with score as an object and marks as objects."""
        return {
            "seq": self.seq,
            "game": self.game,
            "geometry": self.geometry,
            "game_id": self.game_id,
            "diagram": self.diagram,
            "cells": list(self.cells),
            "observed": list(self.observed),
            "score": {name: value for name, value in self.score},
            "turn": self.turn,
            "pending": [{"cell": m.cell, "need": m.need} for m in self.pending],
            "errors": [{"cell": m.cell, "need": m.need} for m in self.errors],
            "alerts": list(self.alerts),
            "message": self.message,
            "moves": list(self.moves),
            "last_move": list(self.last_move),
            "leds": list(self.leds),
            "undo_offer": self.undo_offer,
            "result": self.result,
            "occluded": self.occluded,
            "frames": self.frames,
            "link": self.link,
            "extra": dict(self.extra),
            "hub": self.hub,
            "computer": self.computer,
            "suggested": [{"cell": m.cell, "need": m.need} for m in self.suggested],
            "legal": list(self.legal),
            "teaching": self.teaching,
        }
