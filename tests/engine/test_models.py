"""The engine's models agree with the referee: the same moves, the same positions after them, the same end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import choose
from engine.games import model_of
from referee import IllegalMoveError, KaskadePosition, Position, make_rules

from .helpers import SETUPS, random_position, setup_id

RANDOMS = st.randoms(use_true_random=False)


def same(model, state, position: Position) -> bool:
    """True when the model's state is the one it makes of the referee's position."""
    return model.key(state) == model.key(model.state_of(position)) and model.is_over(state) == position.is_over


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(rng=RANDOMS, plies=st.integers(0, 40))
def test_the_models_moves_are_the_referees_plies_and_lead_to_its_positions(setup, rng, plies):
    position = random_position(rng, setup, plies)
    model = model_of(position.rules)
    state = model.state_of(position)
    assert model.is_over(state) == position.is_over
    if position.is_over:
        assert model.moves(state) == []
        return
    referee_after = {}
    for ply in position.legal_plies():
        after = position.play(ply).position
        referee_after[model.key(model.state_of(after))] = after
    engine_after = {}
    for move in model.moves(state):
        ply = model.ply(state, move)
        after = position.play(ply).position  # raises if the model offers an illegal ply
        child = model.play(state, move)
        assert same(model, child, after), f"{ply} gives another position"
        assert model.legal(state, move)
        engine_after[model.key(child)] = child
    assert set(engine_after) == set(referee_after), "the model offers other turns than the referee"


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
@settings(max_examples=15, deadline=None, derandomize=True)
@given(rng=RANDOMS, plies=st.integers(0, 60))
def test_the_models_margin_is_the_referees_score(setup, rng, plies):
    position = random_position(rng, setup, plies)
    model = model_of(position.rules)
    state = model.state_of(position)
    score = position.score
    mine, theirs = (score.white, score.black) if position.mover_colour == "o" else (score.black, score.white)
    if isinstance(position, KaskadePosition) and position.is_over:
        assert model.margin(state) == -len(position.geometry) and model.exact(state) == -1
    else:
        assert model.margin(state) == mine - theirs
    if position.is_over and not isinstance(position, KaskadePosition):
        assert model.exact(state) == mine - theirs == model.evaluate(state)


@pytest.mark.parametrize("setup", [s for s in SETUPS if s[2] != "free-drop"], ids=setup_id)
@settings(max_examples=15, deadline=None, derandomize=True)
@given(rng=RANDOMS, plies=st.integers(0, 30))
def test_a_game_ends_within_the_horizon_of_any_of_its_positions(setup, rng, plies):
    position = random_position(rng, setup, plies)
    model = model_of(position.rules)
    horizon = model.horizon(model.state_of(position))
    start = position.plies
    while not position.is_over:
        legal = list(position.legal_plies())
        position = position.play(legal[rng.randrange(len(legal))]).position
    assert position.plies - start <= horizon


def test_cascade_where_the_first_player_owns_black_counts_for_the_right_colour():
    position = make_rules("cascade", "diamond:3", None, "black").start()
    model = model_of(position.rules)
    after = position.play("x b2").position  # the first player drops their own colour
    assert model.margin(model.state_of(after)) == -1  # the second player (white) is a stone behind
    assert choose(after, "club", 30.0, 1) in set(after.legal_plies())


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
@settings(max_examples=15, deadline=None, derandomize=True)
@given(rng=RANDOMS, plies=st.integers(0, 30), other=st.integers(0, 30))
def test_a_move_is_legal_to_the_model_exactly_when_the_referee_accepts_its_ply(setup, rng, plies, other):
    position = random_position(rng, setup, plies)
    elsewhere = random_position(rng, setup, other)  # the search tries moves it met in other positions
    model = model_of(position.rules)
    state = model.state_of(position)
    for move in model.moves(model.state_of(elsewhere))[:60]:
        try:
            position.play(model.ply(state, move))
            accepted = True
        except IllegalMoveError:
            accepted = False
        assert model.legal(state, move) == accepted, model.ply(state, move)
