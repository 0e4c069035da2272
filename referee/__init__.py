"""The referee: rules, positions, records, diagrams and judging of the cascade games.

Standard library only. The three games of docs/rules.md:

- ``cascade``  (``diamond:N``, ``hex-diamond:N``; variant ``fill-above``)
- ``cascades`` (``trapezoid:T,R``; variants ``territory``, ``free-drop``, and
  ``hexagon`` on ``hexagon:T,R``)
- ``kaskade``  (``grid:WxH``)

Typical use::

    from referee import new_game, judge
    game = new_game("cascade", "diamond:8")
    game = game.play("o d5")            # a new Game value; game.undo() goes back
    game.position.diagram()             # the position's diagram
    verdict = judge(game.position, observed_symbols)

The decisions of docs/rules.md, where the original descriptions leave a point open:

- Cascade: the first player owns white unless ``first="black"``; fill-above
  runs in rounds, the parents' colour winning (see :mod:`referee.cascade`).
- Cascades: a1 white, white first; in the hexagon variant the row that
  scores is the lowest row holding a stone; in free-drop, unconnected stones
  are removed after the whole turn (see :mod:`referee.cascades`).
- Kaskade: overflows in waves, the win checked after each wave
  (see :mod:`referee.kaskade`).
- Records: a Cascade ply without a cascade string lists nothing (only the
  drop is checked); ``Result`` is ``1-0`` (white wins), ``0-1``, ``1/2-1/2``
  or ``*``; a ``Board`` header names other boards (``hex-diamond:8``).

For the live game: ``judge(position, observed)`` gives a :class:`Verdict`
(kind, drop, pending cells and what each needs, errors and what each needs,
unreadable cells, Kaskade wave, a plain-words message); ``game.earlier(
observed)`` says whether the board shows an earlier position (offer undo).

Positions are immutable; ``position.play(ply)`` returns a :class:`Move` with
the new position and the ordered events (``Placed``, ``Cascaded`` in canonical
order, ``Removed``, Kaskade ``Wave``). Symbols: ``o`` white, ``x`` black,
``=`` red, ``.`` empty, ``?`` unreadable.
"""

from referee.cascade import CascadePosition, CascadeRules
from referee.cascades import CascadesPosition, CascadesRules
from referee.diagrams import Diagram, diagram_of, read_diagram
from referee.errors import (
    CellError,
    DiagramError,
    GameOptionError,
    GeometryError,
    IllegalMoveError,
    RecordError,
    RefereeError,
    ReplayError,
)
from referee.game import GAMES, Game, make_rules, new_game, position_from
from referee.geometry import Cell, Geometry, parse_geometry
from referee.judge import Fix, Problem, Verdict, VerdictKind, judge
from referee.kaskade import KaskadePosition, KaskadeRules
from referee.notation import parse_ply
from referee.plies import PASS, RESIGNS, Ply
from referee.records import Record, read_record, replay, write_record
from referee.rules import (
    BLACK_WINS,
    DRAW,
    UNFINISHED,
    WHITE_WINS,
    Cascaded,
    Event,
    Move,
    Placed,
    Position,
    Removed,
    Rules,
    Score,
    Wave,
)
from referee.symbols import BLACK, COLOURS, EMPTY, RED, UNKNOWN, WHITE

__all__ = [
    "BLACK",
    "BLACK_WINS",
    "COLOURS",
    "DRAW",
    "EMPTY",
    "GAMES",
    "PASS",
    "RED",
    "RESIGNS",
    "UNFINISHED",
    "UNKNOWN",
    "WHITE",
    "WHITE_WINS",
    "CascadePosition",
    "CascadeRules",
    "Cascaded",
    "CascadesPosition",
    "CascadesRules",
    "Cell",
    "CellError",
    "Diagram",
    "DiagramError",
    "Event",
    "Fix",
    "Game",
    "GameOptionError",
    "Geometry",
    "GeometryError",
    "IllegalMoveError",
    "KaskadePosition",
    "KaskadeRules",
    "Move",
    "Placed",
    "Ply",
    "Position",
    "Problem",
    "Record",
    "RecordError",
    "RefereeError",
    "Removed",
    "ReplayError",
    "Rules",
    "Score",
    "Verdict",
    "VerdictKind",
    "Wave",
    "diagram_of",
    "judge",
    "make_rules",
    "new_game",
    "parse_geometry",
    "parse_ply",
    "position_from",
    "read_diagram",
    "read_record",
    "replay",
    "write_record",
]
