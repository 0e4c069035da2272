"""The referee: rules, positions, records, diagrams and judging of the cascade games.

Standard library only. The three games of RULES.md:

- ``cascade``  (``diamond:N``, ``hex-diamond:N``; variant ``fill-above``)
- ``cascades`` (``trapezoid:T,R``; variants ``territory``, ``free-drop``, and
  ``hexagon`` on ``hexagon:T,R``)
- ``kaskade``  (``grid:WxH``)

Typical use::

    from referee import new_game, judge
    game = new_game("cascade", "diamond:8")
    game = game.play("o d5")            # a new Game value; game.undo() goes back
    game.position.diagram()             # RULES.md diagram
    verdict = judge(game.position, observed_symbols)

Positions are immutable; ``position.play(ply)`` returns a :class:`Move` with
the new position and the ordered events (``Placed``, ``Cascaded`` in canonical
order, ``Removed``, Kaskade ``Wave``). Symbols: ``o`` white, ``x`` black,
``=`` red, ``.`` empty, ``?`` unreadable.
"""

from referee.cascade import CascadePosition, CascadeRules
from referee.cascades import CascadesPosition, CascadesRules
from referee.diagrams import read_diagram, write_diagram
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
from referee.game import GAMES, Game, make_rules, new_game
from referee.geometry import Cell, Geometry, parse_geometry
from referee.judge import Fix, Problem, Verdict, VerdictKind, judge
from referee.kaskade import KaskadePosition, KaskadeRules
from referee.records import Record, parse_ply, read_record, replay, write_record
from referee.rules import (
    BLACK_WINS,
    DRAW,
    PASS,
    RESIGNS,
    UNFINISHED,
    WHITE_WINS,
    Cascaded,
    Event,
    Move,
    Placed,
    Ply,
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
    "judge",
    "make_rules",
    "new_game",
    "parse_geometry",
    "parse_ply",
    "read_diagram",
    "read_record",
    "replay",
    "write_diagram",
    "write_record",
]
