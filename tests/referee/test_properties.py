"""Properties of the rules: order independence, the linear colour rule, closure, Kaskade waves."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import Cascaded, Wave
from referee.cascade import FILL_ABOVE, CascadePosition, cascade_rules
from referee.cascades import FREE_DROP, CascadesPosition, unconnected
from referee.kaskade import KaskadePosition, KaskadeRules, kaskade_rules, settle
from referee.symbols import BLACK, EMPTY_CODE, RED, WHITE, mix

from .helpers import ALL_SETUPS, random_cascade_position, random_game, random_kaskade_position

RANDOMS = st.randoms(use_true_random=False)


def naive_plain(board: bytearray, parents: tuple[tuple[int, ...], ...], rng: random.Random) -> None:
    """Fill cells with two filled parents, one at a time in a random order, until none is left."""
    while True:
        ready = [
            i
            for i, v in enumerate(board)
            if v == EMPTY_CODE and len(parents[i]) == 2 and all(board[p] != EMPTY_CODE for p in parents[i])
        ]
        if not ready:
            return
        i = rng.choice(ready)
        board[i] = -(board[parents[i][0]] + board[parents[i][1]]) % 3


def naive_rounds(board: bytearray, parents, children, rng: random.Random) -> list[list[int]]:
    """Fill-above rounds by scanning the whole board, visiting cells in a random order."""
    rounds: list[list[int]] = []
    while True:
        snapshot = bytes(board)
        order = list(range(len(board)))
        rng.shuffle(order)
        new = {}
        for i in order:
            if snapshot[i] != EMPTY_CODE:
                continue
            ps, cs = parents[i], children[i]
            if len(ps) == 2 and all(snapshot[p] != EMPTY_CODE for p in ps):
                new[i] = -(snapshot[ps[0]] + snapshot[ps[1]]) % 3
            elif len(cs) == 2 and all(snapshot[c] != EMPTY_CODE for c in cs):
                new[i] = -(snapshot[cs[0]] + snapshot[cs[1]]) % 3
        if not new:
            return rounds
        for i, v in new.items():
            board[i] = v
        rounds.append(sorted(new))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(RANDOMS, st.integers(2, 9), st.booleans(), st.floats(0.0, 0.9))
def test_a_drop_does_not_depend_on_the_fill_order(rng, size, fill_above, fill):
    variant = FILL_ABOVE if fill_above else None
    position = random_cascade_position(rng, size, variant, fill)
    empties = [i for i, v in enumerate(position.board) if v == EMPTY_CODE]
    if not empties:
        return
    drop, colour = rng.choice(empties), rng.randrange(3)
    move = position.drop(drop, colour)
    g = position.geometry
    board = bytearray(position.board)
    board[drop] = colour
    if fill_above:
        rounds = naive_rounds(board, g.parents_ix, g.children_ix, rng)
        got = [(g.index(e.cell), e.round) for e in move.events if isinstance(e, Cascaded)]
        assert got == [(i, r) for r, cells in enumerate(rounds, start=1) for i in cells]
    else:
        naive_plain(board, g.parents_ix, rng)
        cascade = [g.index(e.cell) for e in move.events if isinstance(e, Cascaded)]
        assert cascade == sorted(cascade)  # canonical order: by row, then column
    assert move.position.board == bytes(board)


def test_the_colour_rule_table():
    symbols = {WHITE: 0, BLACK: 1, RED: 2}
    third = {frozenset((WHITE, BLACK)): RED, frozenset((WHITE, RED)): BLACK, frozenset((BLACK, RED)): WHITE}
    for a, ca in symbols.items():
        for b, cb in symbols.items():
            want = a if a == b else third[frozenset((a, b))]
            assert mix(ca, cb) == symbols[want]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from([0, 1, 2]), st.data())
def test_a_triangle_of_3k_plus_1_ends_in_the_corners_mix(k, data):
    width = 3**k + 1
    size = max(width, 2)
    rules = cascade_rules(size)
    g = rules.geometry
    top = g.row_cells[size - 1][:width]  # the widest row, from its left end
    colours = data.draw(st.lists(st.integers(0, 2), min_size=width, max_size=width))
    order = data.draw(st.permutations(range(width)))
    position = rules.start()
    for j in order:
        after = position.drop(top[j], colours[j]).position
        assert isinstance(after, CascadePosition)
        position = after
    bottom = top[0]
    for _ in range(width - 1):
        bottom = max(g.children_ix[bottom])  # down and to the right: the triangle's last cell
    assert position.board[bottom] == mix(colours[0], colours[-1])


def assert_closed(position) -> None:
    """No rule would still change the position."""
    g = position.geometry
    board = position.board
    game = position.rules.game
    if game == "cascade":
        for i, v in enumerate(board):
            if v != EMPTY_CODE:
                continue
            ps, cs = g.parents_ix[i], g.children_ix[i]
            assert not (len(ps) == 2 and all(board[p] != EMPTY_CODE for p in ps)), g.cells[i]
            if position.rules.variant == FILL_ABOVE:
                assert not (len(cs) == 2 and all(board[c] != EMPTY_CODE for c in cs)), g.cells[i]
    elif game == "kaskade":
        assert isinstance(position, KaskadePosition)
        if position.won is None:
            assert all(c < cap for c, cap in zip(position.counts, position.rules.capacity, strict=True))
        assert all((o == EMPTY_CODE) == (c == 0) for o, c in zip(board, position.counts, strict=True))
    else:
        assert isinstance(position, CascadesPosition)
        if position.rules.variant == FREE_DROP:
            assert unconnected(board, position.rules.tables) == []
        else:
            top = set(g.row_cells[0])
            for i, v in enumerate(board):
                if v != EMPTY_CODE and i not in top:
                    assert any(board[p] == v for p in g.parents_ix[i]), g.cells[i]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(RANDOMS, st.sampled_from(ALL_SETUPS))
def test_every_position_after_a_move_is_closed(rng, setup):
    game = random_game(rng, *setup)
    for move in game.moves:
        assert_closed(move.position)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(RANDOMS, st.sampled_from([(3, 3), (4, 3), (5, 5), (6, 6)]), st.floats(0.1, 1.0))
def test_kaskade_waves_agree_with_any_overflow_order(rng, size, density):
    rules: KaskadeRules = kaskade_rules(*size)
    position = random_kaskade_position(rng, rules, density, plies=0)
    mover = position.to_move
    legal = [i for i, o in enumerate(position.board) if o in (EMPTY_CODE, mover)]
    if not legal:
        return
    ix = rng.choice(legal)
    owners, counts = bytearray(position.board), bytearray(position.counts)
    counts[ix] += 1
    owners[ix] = mover
    order = [rng.randrange(1000) for _ in range(50)]
    if settle(rules, owners, counts, order, mover, max_steps=3000):
        # plies=0: the win is not checked yet, so the waves run until the chain ends by itself
        after = position.add_ball(ix).position
        assert isinstance(after, KaskadePosition)
        assert (after.board, after.counts) == (bytes(owners), bytes(counts))
    else:
        playing = KaskadePosition(rules, position.board, mover, 2, None, position.counts)
        after = playing.add_ball(ix).position
        assert isinstance(after, KaskadePosition)
        assert after.won == mover
        assert 1 - mover not in after.board


@settings(max_examples=60, deadline=None, derandomize=True)
@given(RANDOMS)
def test_wave_events_replay_to_the_final_board(rng):
    game = random_game(rng, "kaskade", "grid:5x4", None, max_plies=200)
    for move in game.moves:
        waves = [e for e in move.events if isinstance(e, Wave)]
        if waves:
            assert waves[-1].after == move.position.symbols()
            assert [w.number for w in waves] == list(range(1, len(waves) + 1))
