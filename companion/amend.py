"""Correcting a ply of a game: the corrected ply, then every later ply replayed against it.

A ply recorded wrongly (a misread colour, a drop on the neighbouring cell)
is corrected in place: a correction replaces, it never branches. The referee
plays the corrected ply where the old one stood and then replays every later
ply by what its player chose (the drop and its colour, the cells placed, a
pass), working out again what each one caused: a Cascade ply's cascade may
change, and its record text with it. A later ply that no longer fits (its
cell is filled now, it is no longer allowed, the game ended before it) is a
*misfit*: the correction can then only be made by cutting the game before it.

:func:`amend` is pure: positions in, an :class:`Amendment` out. :func:`save`
writes one to the store; the live game takes one for the game being played
(:meth:`companion.live.LiveGame.amend`), so its expected board follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.assess import ply_text
from companion.errors import CompanionError
from companion.store import Store
from referee.errors import RefereeError
from referee.game import make_rules
from referee.quoting import shown
from referee.rules import Move, Position

SHOWN_CHARS = 24


class CorrectionError(CompanionError, ValueError):
    """A correction that cannot be made as asked; says why and what to do. Nothing changes."""


@dataclass(frozen=True)
class Misfit:
    """A later ply that no longer fits after a correction: its number, its record text and why."""

    number: int
    ply: str
    reason: str

    def __str__(self) -> str:
        return f"ply {self.number} ({self.ply}) no longer fits: {self.reason}"


@dataclass(frozen=True)
class Amendment:
    """A correction worked out: ply ``number`` was ``was`` and becomes ``now``.

    ``before`` holds the record texts of the game's plies as they were;
    ``moves`` the corrected game up to the misfit, if there is one (``cut``:
    how many plies the correction cuts off; 0 with a misfit: only a preview,
    see :func:`require_fit`); ``changed`` the numbers of the kept plies whose record text
    changes (the corrected ply and any later ply whose cascade changed).
    """

    number: int
    was: str
    now: str
    before: tuple[str, ...]
    moves: tuple[Move, ...]
    changed: tuple[int, ...]
    misfit: Misfit | None
    cut: int

    @property
    def plies(self) -> tuple[str, ...]:
        """The record texts of the corrected game's plies."""
        return tuple(ply_text(move) for move in self.moves)

    @property
    def final(self) -> Position | None:
        """The position after the corrected game's last ply (None: no ply is left)."""
        return self.moves[-1].position if self.moves else None

    def words(self) -> str:
        """The correction in plain words, as the audit trail and the record's comments keep it."""
        text = f"ply {self.number} corrected from {self.was} to {self.now}"
        later = [n for n in self.changed if n != self.number]
        if later:
            text += f"; the cascade of ply {', '.join(str(n) for n in later)} follows"
        if self.cut and self.misfit is not None:
            text += f"; cut from ply {self.misfit.number} on ({self.cut} removed: {self.misfit})"
        return text


def start_of(game: str, geometry: str, headers: dict[str, str]) -> Position:
    """The start position of a stored game, from its rules, board and headers; raises CorrectionError."""
    try:
        rules = make_rules(game, geometry, headers.get("Variant") or None, headers.get("First", "white").lower())
    except RefereeError as error:
        raise CorrectionError(f"the game's rules cannot be set up from its headers: {error}") from None
    return rules.start()


def amend(start: Position, plies: Sequence[str], number: int, text: str, cut: bool = False) -> Amendment:
    """Correct ply ``number`` (from 1) of the game ``plies`` played from ``start`` to ``text``.

    Raises CorrectionError when there is no such ply, when ``text`` is not a
    ply the rules allow there, or when it is what the ply already is. A later
    ply that no longer fits is named in :attr:`Amendment.misfit`; with ``cut``
    the game is cut before it, otherwise the amendment is only a preview (:func:`require_fit` refuses to apply it).
    """
    before = tuple(str(p) for p in plies)
    if not before:
        raise CorrectionError("this game has no ply yet: there is nothing to correct")
    if not 1 <= number <= len(before):
        raise CorrectionError(f"this game has no ply {number}: give a number from 1 to {len(before)}")
    moves: list[Move] = []
    position = start
    for index, stored in enumerate(before[: number - 1], start=1):
        try:
            move = position.play(stored)
        except RefereeError as error:
            raise CorrectionError(
                f"ply {index} of the stored game does not replay ({error}); export it first"
            ) from None
        moves.append(move)
        position = move.position
    clean = " ".join(text.split())
    if not clean:
        raise CorrectionError(f"say what ply {number} should be, in record notation (for example o d5)")
    try:
        corrected = position.play(clean)
    except RefereeError as error:
        raise CorrectionError(f"{shown(clean, SHOWN_CHARS)} cannot be ply {number}: {error}") from None
    was, now = before[number - 1], ply_text(corrected)
    if now == was:
        raise CorrectionError(f"ply {number} is already {now}: nothing to correct")
    moves.append(corrected)
    misfit = _replay_later(moves, before, number)
    kept = len(moves)
    changed = tuple(n for n, move in enumerate(moves, start=1) if n >= number and ply_text(move) != before[n - 1])
    cut_count = len(before) - kept if misfit is not None and cut else 0
    return Amendment(number, was, now, before, tuple(moves), changed, misfit, cut_count)


def _replay_later(moves: list[Move], before: tuple[str, ...], number: int) -> Misfit | None:
    """Play the plies after ``number`` against the corrected one (appending to ``moves``); the first misfit."""
    for later in range(number + 1, len(before) + 1):
        stored = before[later - 1]
        position = moves[-1].position
        if position.is_over:
            return Misfit(later, stored, f"the game now ends after ply {later - 1} ({position.result})")
        try:
            ply = replace(position.parse_ply(stored), cascade=None)  # its consequences are worked out again
            moves.append(position.play(ply))
        except RefereeError as error:
            return Misfit(later, stored, str(error))
    return None


def require_fit(amendment: Amendment) -> None:
    """Raise CorrectionError, naming the misfit and offering the cut, when ``amendment`` cannot be applied."""
    misfit = amendment.misfit
    if misfit is not None and not amendment.cut:
        raise CorrectionError(
            f"{misfit}; correct that ply too, or cut the game there (plies {misfit.number} to "
            f"{len(amendment.before)} are removed)"
        )


def save(store: Store, game_id: int, amendment: Amendment, address: str) -> None:
    """Write an amendment to ``store`` (the one part of this module that is not pure); raises CorrectionError.

    Every changed ply, the cut and an ended game's new result go through the
    store's journal (so a hub follows) in one transaction, with the audit
    entry. An ended game cut short of its end by the rules is left unfinished
    (``*``); one the rules still end gets their result.
    """
    require_fit(amendment)
    final = amendment.final
    if final is not None and final.is_over:
        result: str | None = final.result
    else:
        result = "*" if amendment.cut else None
    changes = {
        n: (ply_text(amendment.moves[n - 1]), amendment.moves[n - 1].position.diagram()) for n in amendment.changed
    }
    keep = len(amendment.before) - amendment.cut
    store.amend(game_id, amendment.before, changes, keep, result, amendment.words(), address)
