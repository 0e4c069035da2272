"""Choosing a move: always a legal ply, the same one for the same seed, slips at the weak levels, hints."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    BEGINNER,
    CLUB,
    LEVELS,
    BudgetError,
    NoMoveError,
    UnknownLevelError,
    analyse,
    choose,
    hint,
    level_named,
)
from engine.games import model_of
from engine.opponents import greedy_ply, random_ply
from engine.solve import Solver
from referee import KaskadePosition, Position, make_rules

from .helpers import SETUPS, random_position, setup_id

RANDOMS = st.randoms(use_true_random=False)
QUICK_S = 0.05
"""A budget that keeps the tests quick; no test depends on what the clock allows."""


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
@settings(max_examples=10, deadline=None, derandomize=True)
@given(rng=RANDOMS, plies=st.integers(0, 30), level=st.sampled_from(sorted(LEVELS)), seed=st.integers(0, 99))
def test_every_level_chooses_a_legal_ply(setup, rng, plies, level, seed):
    position = random_position(rng, setup, plies)
    if position.is_over:
        with pytest.raises(NoMoveError):
            choose(position, level, QUICK_S, seed)
        return
    ply = choose(position, level, QUICK_S, seed)
    position.play(ply)  # raises IllegalMoveError for an illegal ply


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
@pytest.mark.parametrize("level", ["beginner", "casual", "club"])
def test_the_same_seed_gives_the_same_ply(setup, level):
    position = random_position(random.Random(5), setup, 4)
    first = [choose(position, level, 30.0, seed) for seed in range(4)]
    again = [choose(position, level, 30.0, seed) for seed in range(4)]
    assert first == again


def test_the_beginner_varies_with_the_seed_and_keeps_to_good_moves_mostly():
    position = random_position(random.Random(3), ("cascade", "diamond:6", None), 6)
    model = model_of(position.rules)
    state = model.state_of(position)
    scores = {model.ply(state, move): score for score, move, _ in model.children(state)}
    chosen = [choose(position, BEGINNER, 1.0, seed) for seed in range(60)]
    assert len(set(chosen)) > 10
    best = max(scores.values())
    mean_chosen = sum(scores[p] for p in chosen) / len(chosen)
    mean_all = sum(scores.values()) / len(scores)
    assert mean_all < mean_chosen <= best  # better than chance, worse than the best


def test_club_never_slips_and_beginner_always_does():
    position = random_position(random.Random(2), ("kaskade", "grid:4x4", None), 6)
    assert not analyse(position, "club", 30.0, 1).slipped
    assert analyse(position, "beginner", 30.0, 1).slipped


@pytest.mark.parametrize("setup", [s for s in SETUPS if s[2] != "free-drop"], ids=setup_id)
@settings(max_examples=8, deadline=None, derandomize=True)
@given(rng=RANDOMS)
def test_a_hint_near_the_end_is_exact_and_its_score_is_the_solvers(setup, rng):
    position = random_position(rng, setup, 0)
    model = model_of(position.rules)
    while not position.is_over and model.horizon(model.state_of(position)) > 4:
        position = position.play(random_ply(position, rng)).position
    if position.is_over:
        return
    advice = hint(position, budget_s=30.0)
    value, _ = Solver(model).solve(model.state_of(position))
    assert advice.exact and advice.line[0] == advice.ply
    if isinstance(position, KaskadePosition):
        assert (advice.score > 0) == (value > 0)
    else:
        assert advice.score == value
    assert -Solver(model).solve(model.state_of(position.play(advice.ply).position))[0] == value


def test_a_finished_game_has_no_move_and_bad_options_are_refused():
    position = make_rules("cascade", "diamond:2").start()
    while not position.is_over:
        position = position.play(next(iter(position.legal_plies()))).position
    with pytest.raises(NoMoveError, match="the game is over"):
        choose(position)
    start = make_rules("cascade", "diamond:3").start()
    with pytest.raises(UnknownLevelError, match="beginner, casual, club, strongest"):
        choose(start, "grandmaster")
    for budget in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(BudgetError):
            choose(start, budget_s=budget)
    assert level_named(" Club ") is CLUB is level_named(CLUB)
    with pytest.raises(UnknownLevelError):
        level_named(3)  # type: ignore[arg-type]


def play_out(position: Position, players, rng: random.Random) -> Position:
    """Play to the end, ``players[0]`` for the first player and ``players[1]`` for the second."""
    while not position.is_over:
        position = position.play(players[position.to_move](position, rng)).position
    return position


SMALL = [("cascade", "diamond:6", None), ("cascades", "trapezoid:4,5", None), ("kaskade", "grid:4x4", None)]


def wins_against_greedy(setup, level: str, budget_s: float, games: int = 4) -> int:
    """Games won by the engine against the greedy player, taking the first player's side in every other game."""

    def engine(position: Position, rng: random.Random):
        return choose(position, level, budget_s, rng.randrange(1000))

    wins = 0
    for game in range(games):
        rng = random.Random(game)
        me = game % 2
        players = (engine, greedy_ply) if me == 0 else (greedy_ply, engine)
        end = play_out(make_rules(*setup).start(), players, rng)
        wins += end.winner == end.rules.player_colour(me)
    return wins


@pytest.mark.parametrize("setup", SMALL, ids=setup_id)
def test_club_beats_the_greedy_player_from_either_side(setup):
    assert wins_against_greedy(setup, "club", 30.0) >= 3  # a node budget: the same games on any machine


@pytest.mark.parametrize("setup", SMALL, ids=setup_id)
def test_the_strongest_beats_the_greedy_player_even_at_a_tenth_of_a_second(setup):
    assert wins_against_greedy(setup, "strongest", 0.1) >= 3
