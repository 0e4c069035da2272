"""What the companion says about a ply before it is played: the computer's ply to place, hints, teaching.

Pure functions of positions and boards, used by :mod:`companion.live`:

- :func:`ply_marks`: the cells of a ply and what each must hold once placed
  (a drop's colour, a Kaskade ball count), for the LEDs and the page;
- :func:`against_computer`: the board judged while the computer is to move,
  so that only its ply passes: a wrong colour or cell is an error naming the
  fix ("The computer plays = e6: take the stone off d4; put a red stone on e6");
- :func:`legal_cells` and :func:`preview`: for the teaching mode, where a
  stone may go now, and what dropping one on a cell would cause;
  :func:`lights_legal_cells`: whether the LEDs show the legal cells too.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.assess import Assessment, Kind, fix_words, put_words
from companion.snapshot import CellMark
from referee.cascades import FREE_DROP
from referee.errors import RefereeError
from referee.plies import Ply
from referee.rules import Position, Rules
from referee.symbols import EMPTY, UNKNOWN
from referee.verdict import Fix, Problem


def ply_colour(position: Position, ply: Ply) -> str:
    """The colour a ply places: the drop's colour in Cascade, the mover's otherwise."""
    return ply.colour or position.mover_colour


def ply_marks(position: Position, ply: Ply) -> tuple[CellMark, ...]:
    """The cells a ply places a stone (or a ball) on, each with the token it holds just after (``e6: =``)."""
    colour = ply_colour(position, ply)
    board = position.symbols()
    geometry = position.geometry
    marks = []
    for cell in ply.cells:
        token = board[geometry.index(cell)]
        if position.rules.game == "kaskade":
            count = int(token[1:]) + 1 if token not in (EMPTY, UNKNOWN) and len(token) > 1 else 1
            marks.append(CellMark(cell.name, f"{colour}{count}"))
        else:
            marks.append(CellMark(cell.name, colour))
    return tuple(marks)


def computer_words(ply: Ply) -> str:
    """``the computer plays = e6`` (``passes`` for a pass)."""
    return "the computer passes" if ply.passes else f"the computer plays {ply}"


def _same_turn(seen: Ply, wanted: Ply, whole: bool) -> bool:
    """True when ``seen`` is the computer's ply (or, unless ``whole``, its first stone so far)."""
    if seen.colour != wanted.colour or seen.passes or seen.resigns:
        return False
    if seen.cells == wanted.cells:
        return True
    return not whole and len(seen.cells) < len(wanted.cells) and seen.cells == wanted.cells[: len(seen.cells)]


def against_computer(position: Position, observed: Sequence[str], found: Assessment, ply: Ply | None) -> Assessment:
    """The board judged on the computer's turn: its ply (``None``: not chosen yet) or an error naming the fix.

    The referee's own judgement ``found`` stands when the board shows the
    computer's ply, complete or under way (a cascade still to fill, the first
    of its two stones), and when nothing changed. The computer's turn is over
    with its ply: a lone first stone of a one-stone ply needs no End turn.
    """
    if found.kind in (Kind.SAME, Kind.WAITING):
        return found
    if ply is None:
        return _set_back(position, observed, "The computer is still thinking", ())
    if found.move is not None and _same_turn(found.move.ply, ply, whole=False):
        if found.kind is Kind.COMPLETE and found.move.ply.cells == ply.cells:
            return Assessment(found.kind, found.message, found.move, found.pending, found.errors, found.alerts, False)
        return found
    marks = ply_marks(position, ply)
    geometry = position.geometry
    placed_right = all(observed[geometry.index(m.cell)] == m.need for m in marks)
    if found.kind is Kind.ERROR and placed_right:
        return found  # the computer's stones are right; the referee names what else is wrong
    words = computer_words(ply)
    return _set_back(position, observed, words[:1].upper() + words[1:], marks)


def _set_back(position: Position, observed: Sequence[str], words: str, wanted: Sequence[CellMark]) -> Assessment:
    """An error: every changed cell set back to the position, and the computer's stones on their cells."""
    geometry = position.geometry
    expected = position.symbols()
    needs = {geometry.index(m.cell): m.need for m in wanted}
    fixes = []
    for index, (want, seen) in enumerate(zip(expected, observed, strict=True)):
        need = needs.get(index, want)
        if seen != need and seen != UNKNOWN:
            fixes.append(Fix(geometry.cells[index], need, seen, Problem.ILLEGAL))
    marks = tuple(CellMark(f.cell.name, f.needs) for f in fixes)
    removals = tuple(f for f in fixes if f.needs == EMPTY)
    puts = tuple(f for f in fixes if f.needs != EMPTY and f.shows == EMPTY)
    parts = [put_words(group) for group in (removals, puts) if group]
    parts += [fix_words(f) for f in fixes if f.needs != EMPTY and f.shows != EMPTY]
    todo = "; ".join(part[:1].lower() + part[1:] for part in parts)
    alert = f"{words}: {todo}" if todo else words
    return Assessment(Kind.ERROR, alert, errors=marks, alerts=(alert,))


def legal_cells(position: Position, placed: Ply | None = None) -> tuple[str, ...]:
    """The cells a stone (or a ball) may go on now, by name in the board's order.

    ``placed``: the first stone of a Cascades turn, already on the board; the
    cells are then those its second stone may go on.
    """
    if position.is_over:
        return ()
    before = placed.cells if placed is not None else ()
    done = len(before)
    cells = {ply.cells[done] for ply in position.legal_plies() if len(ply.cells) > done and ply.cells[:done] == before}
    return tuple(cell.name for cell in position.geometry.cells if cell in cells)


def lights_legal_cells(rules: Rules) -> bool:
    """Whether the teaching mode lights the legal cells on the LEDs, as well as on the page.

    Only where they are a rule to see at the board: in Cascades a stone must
    go below one of the mover's own. In Cascade (and Cascades' free-drop) any
    empty cell will do, and in Kaskade any empty cell or one of the mover's
    own: the LEDs would light most of the board and tell nothing the stones do
    not, and there the page's preview of a drop is the lesson.
    """
    return rules.game == "cascades" and rules.variant != FREE_DROP


def preview(
    position: Position, cell: str, colour: str | None = None, placed: Ply | None = None
) -> tuple[CellMark, ...]:
    """What dropping on ``cell`` would cause: every cell that changes, with what it holds after.

    ``colour``: the drop's colour in Cascade (default: the mover's).
    ``placed``: the first stone of a Cascades turn, already on the board
    (``cell`` is then the second). Empty when no stone may go there now.
    Raises CellError for a name not on the board.
    """
    index = position.geometry.index(cell)
    name = position.geometry.cells[index].name
    if position.is_over:
        return ()
    if position.rules.game == "cascade":
        text = f"{colour or position.mover_colour} {name}"
    else:
        text = ",".join([*(c.name for c in placed.cells), name]) if placed is not None else name
    try:
        after = position.play(text).position.symbols()
        before = position.play(placed).position.symbols() if placed is not None else position.symbols()
    except RefereeError:
        return ()
    return tuple(CellMark(c.name, a) for c, a, b in zip(position.geometry.cells, after, before, strict=True) if a != b)


__all__ = [
    "against_computer",
    "computer_words",
    "legal_cells",
    "lights_legal_cells",
    "ply_colour",
    "ply_marks",
    "preview",
]
