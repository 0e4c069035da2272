"""What the board shows, as the live game uses it: the referee's ``judge`` in the page's terms.

:func:`assess` calls :func:`referee.judge` and turns its
:class:`~referee.Verdict` into an :class:`Assessment`: cell marks by name
(what each pending or wrong cell needs) and alerts in plain words, one per
cell to fix ("The stone on f7 should be black", "Take the stone off d4",
"Two stones were dropped: take one back").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.snapshot import CellMark
from referee import judge
from referee.plies import Ply
from referee.rules import Move, Position
from referee.symbols import EMPTY, UNKNOWN
from referee.verdict import Fix, Problem, Verdict, VerdictKind, token_words


class Kind(Enum):
    """What the live game does with a board: nothing, show pending cells, accept, show errors, wait."""

    SAME = "same"
    PARTIAL = "partial"
    COMPLETE = "complete"
    ERROR = "error"
    WAITING = "waiting"


_KINDS = {
    VerdictKind.NOTHING: Kind.SAME,
    VerdictKind.PENDING: Kind.PARTIAL,
    VerdictKind.COMPLETE: Kind.COMPLETE,
    VerdictKind.ERROR: Kind.ERROR,
    VerdictKind.WAITING: Kind.WAITING,
}


@dataclass(frozen=True)
class Assessment:
    """The verdict as the live game uses it (see the module docstring)."""

    kind: Kind
    message: str = ""
    move: Move | None = None
    pending: tuple[CellMark, ...] = ()
    errors: tuple[CellMark, ...] = ()
    alerts: tuple[str, ...] = ()
    may_continue: bool = False


def assess(position: Position, observed: tuple[str, ...]) -> Assessment:
    """Judge ``observed`` against the expected ``position``."""
    verdict = judge(position, observed)
    return from_verdict(verdict)


def from_verdict(verdict: Verdict) -> Assessment:
    """An Assessment from a referee Verdict."""
    kind = _KINDS[verdict.kind]
    pending = tuple(CellMark(f.cell.name, f.needs) for f in verdict.pending)
    errors = tuple(CellMark(f.cell.name, f.needs) for f in verdict.errors)
    alerts: tuple[str, ...] = ()
    message = verdict.message
    if kind is Kind.ERROR:
        alerts = _alerts(verdict)
    elif kind is Kind.PARTIAL and pending:
        message = put_words(verdict.pending)
    elif kind is Kind.WAITING:
        alerts = (verdict.message,)
    return Assessment(
        kind=kind,
        message=message,
        move=verdict.move,
        pending=pending,
        errors=errors,
        alerts=alerts,
        may_continue=verdict.more_allowed,
    )


def put_words(fixes: tuple[Fix, ...]) -> str:
    """``Put a red stone on e6``, ``Put white stones on c3 and d4, and a red stone on e5``."""
    by_need: dict[str, list[str]] = {}
    for fix in fixes:
        by_need.setdefault(fix.needs, []).append(fix.cell.name)
    parts: list[str] = []
    removals: list[str] = []
    for need, cells in by_need.items():
        if need == EMPTY:
            removals.extend(cells)
            continue
        if len(need) > 1:
            parts.append(f"make {_and(cells)} {token_words(need)}")
            continue
        colour = token_words(need)
        noun = "a " + colour + " stone" if len(cells) == 1 else colour + " stones"
        parts.append(f"put {noun} on {_and(cells)}")
    if removals:
        parts.append(f"take the stone{'s' if len(removals) > 1 else ''} off {_and(removals)}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _alerts(verdict: Verdict) -> tuple[str, ...]:
    alerts: list[str] = []
    two_drops = [f for f in verdict.errors if f.problem is Problem.TWO_DROPS]
    if two_drops:
        alerts.append(f"Two stones were dropped ({_and([f.cell.name for f in two_drops])}): take one back")
    for fix in verdict.errors:
        if fix.problem is Problem.TWO_DROPS:
            continue
        alerts.append(fix_words(fix))
    if not alerts:
        alerts.append(verdict.message)
    return tuple(alerts)


def fix_words(fix: Fix) -> str:
    """One cell to fix in plain words."""
    name = fix.cell.name
    if fix.shows == UNKNOWN:
        return f"The camera cannot read {name}: check it, or correct it on the page"
    if fix.needs == EMPTY:
        return f"Take the stone off {name}" if len(fix.shows) <= 1 else f"Take the balls off {name}"
    if len(fix.needs) > 1 or len(fix.shows) > 1:
        return f"{name} should hold {token_words(fix.needs)}, it shows {token_words(fix.shows)}"
    if fix.shows == EMPTY:
        return f"Put back the {token_words(fix.needs)} stone on {name}"
    return f"The stone on {name} should be {token_words(fix.needs)}"


def ply_text(move: Move) -> str:
    """A ply in record notation with its cascade (``x f5 =``, ``c2,d3``, ``pass``)."""
    ply = move.ply
    return str(Ply(ply.cells, ply.colour, move.cascade or None, ply.passes, ply.resigns))
