"""The solver is exact: it agrees with a plain brute force over the referee's own plies on small positions."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from engine.games import model_of
from engine.solve import Solver, solve
from referee import KaskadePosition, Position, make_rules

from .helpers import random_position, setup_id

RANDOMS = st.randoms(use_true_random=False)


def brute_force(position: Position) -> int:
    """The value of ``position`` for the player to move, by trying every ply to every end (no memory, no pruning).

    A finished game is worth the mover's scoring stones minus the opponent's;
    a finished Kaskade game is lost by the player to move (-1).
    """
    if position.is_over:
        if isinstance(position, KaskadePosition):
            return -1
        score = position.score
        mine, theirs = (score.white, score.black) if position.mover_colour == "o" else (score.black, score.white)
        return mine - theirs
    return max(-brute_force(position.play(ply).position) for ply in position.legal_plies())


SMALLEST = [
    ("cascade", "diamond:2", None),
    ("cascade", "hex-diamond:2", None),
    ("cascade", "diamond:2", "fill-above"),
    ("cascades", "trapezoid:2,2", None),
    ("cascades", "trapezoid:1,3", None),
    ("cascades", "trapezoid:2,2", "territory"),
    ("cascades", "hexagon:2,2", "hexagon"),
    ("kaskade", "grid:2x2", None),
]


@pytest.mark.parametrize("setup", SMALLEST, ids=setup_id)
def test_the_value_of_the_smallest_boards_is_the_brute_forces(setup):
    rules = make_rules(*setup)
    solution = solve(rules)
    assert solution.value == brute_force(rules.start())
    assert solution.result == ("win" if solution.value > 0 else "loss" if solution.value < 0 else "draw")
    assert solution.positions > 0
    assert solution.best is not None
    after = rules.start().play(solution.best).position  # the best first ply is legal and keeps the value
    assert -brute_force(after) == solution.value


LATE = [
    ("cascade", "diamond:4", None, 5),
    ("cascade", "diamond:6", None, 5),
    ("cascade", "diamond:5", "fill-above", 5),
    ("cascades", "trapezoid:3,4", None, 8),
    ("cascades", "trapezoid:4,4", "territory", 8),
    ("cascades", "hexagon:3,3", "hexagon", 8),
    ("kaskade", "grid:3x3", None, 5),
    ("kaskade", "grid:2x4", None, 5),
]
"""Setups, and how many plies at most the games may still last when they are solved both ways."""


def late_position(rng, setup, horizon: int) -> Position:
    """A position of a random game that can last at most ``horizon`` plies more."""
    position = random_position(rng, setup, 0)
    model = model_of(position.rules)
    while not position.is_over and model.horizon(model.state_of(position)) > horizon:
        legal = list(position.legal_plies())
        position = position.play(legal[rng.randrange(len(legal))]).position
    return position


@pytest.mark.parametrize("setup", LATE, ids=lambda s: setup_id(s[:3]))
@settings(max_examples=15, deadline=None, derandomize=True)
@given(rng=RANDOMS)
def test_the_solver_agrees_with_the_brute_force_late_in_random_games(setup, rng):
    game, board, variant, horizon = setup
    position = late_position(rng, (game, board, variant), horizon)
    model = model_of(position.rules)
    value, best = Solver(model).solve(model.state_of(position))
    assert value == brute_force(position)
    if best is not None:
        assert -brute_force(position.play(best).position) == value


def test_solve_prints_the_four_figures_as_json(capsys):
    assert main(["solve", "--game", "cascade", "--board", "diamond:3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"value", "result", "positions", "seconds"}
    assert figures["value"] == 0 and figures["result"] == "draw" and figures["positions"] > 0


def test_solve_names_the_value_and_the_best_first_ply(capsys):
    assert main(["solve", "--board", "grid:2x3"]) == 0
    out = capsys.readouterr().out
    assert "kaskade on grid:2x3: the first player (white) wins under best play" in out
    assert "best first ply:" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--game", "cascade", "--board", "diamond:8"], "has 64 cells"),
        (["--board", "diamond:5"], "has 25 cells; the solver takes at most 16 for cascade"),
        (["--board", "grid:4x4"], "has 16 cells; the solver takes at most 12 for kaskade"),
        (["--board", "trapezoid:3,3", "--variant", "free-drop"], "need not end"),
        (["--game", "go", "--board", "diamond:3"], "invalid choice"),
        (["--board", "diamond:3", "--variant", "sideways"], "no variant 'sideways'"),
        (["--board", "star:5"], "is not a board"),
        (["--game", "kaskade", "--board", "diamond:3"], "Kaskade is played on grid"),
        (["--board", "diamond:4", "--limit", "0.05"], "not solved within 0.05 s"),
        (["--board", "diamond:3", "--limit", "soon"], "must be a number of seconds"),
        (["--game", "cascade"], "required: --board"),
    ],
)
def test_solve_refuses_what_it_cannot_do_in_one_line(capsys, args, says):
    assert main(["solve", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err
