"""judge(): drops, pending cells, errors, unreadable cells and Kaskade waves."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import Cascaded, Removed, VerdictKind, judge, new_game, read_diagram
from referee.cascade import FILL_ABOVE
from referee.game import make_rules, position_from
from referee.judge import Problem
from referee.kaskade import KaskadePosition
from referee.symbols import EMPTY, EMPTY_CODE, UNKNOWN

from .helpers import CASCADES_SETUPS, random_cascade_position, random_game

RANDOMS = st.randoms(use_true_random=False)
SYMBOLS = ("o", "x", "=", ".")


def explains(position, obs, verdict) -> bool:
    """The verdict's ply accounts for every change: its drop, correct cascade stones, the rest pending."""
    g = position.geometry
    move = verdict.move
    cascade = {g.index(e.cell): e.symbol for e in move.events if isinstance(e, Cascaded)}
    drop = g.index(verdict.drop)
    pending = set()
    for i, (before, now) in enumerate(zip(position.symbols(), obs, strict=True)):
        if i == drop:
            if now != verdict.drop_symbol:
                return False
        elif i in cascade:
            if now == EMPTY:
                pending.add(i)
            elif now != cascade[i]:
                return False
        elif now != before:
            return False
    return {g.index(f.cell) for f in verdict.pending} == pending


@settings(max_examples=150, deadline=None, derandomize=True)
@given(RANDOMS, st.integers(2, 7), st.booleans(), st.floats(0.0, 0.8), st.data())
def test_judge_finds_the_drop_and_the_pending_cells(rng, size, fill_above, fill, data):
    position = random_cascade_position(rng, size, FILL_ABOVE if fill_above else None, fill)
    empties = [i for i, v in enumerate(position.board) if v == EMPTY_CODE]
    if not empties:
        return
    drop, colour = rng.choice(empties), rng.randrange(3)
    move = position.drop(drop, colour)
    g = position.geometry
    cascade = [(g.index(e.cell), e.symbol) for e in move.events if isinstance(e, Cascaded)]
    placed = data.draw(st.sets(st.sampled_from(range(len(cascade))))) if cascade else set()
    obs = list(position.symbols())
    obs[drop] = "ox="[colour]
    for k in placed:
        i, symbol = cascade[k]
        obs[i] = symbol
    verdict = judge(position, obs)
    want_pending = {(g.cells[i], s) for k, (i, s) in enumerate(cascade) if k not in placed}
    expected_kind = VerdictKind.PENDING if want_pending else VerdictKind.COMPLETE
    assert verdict.kind is expected_kind
    assert not verdict.errors
    if verdict.drop == g.cells[drop]:
        assert {(f.cell, f.needs) for f in verdict.pending} == want_pending
        assert verdict.move == move
    else:  # the board is also exactly a (partial) drop elsewhere: both readings are right
        assert explains(position, obs, verdict)
    if expected_kind is VerdictKind.COMPLETE:
        assert verdict.move is not None and verdict.move.position.symbols() == tuple(obs)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(RANDOMS, st.integers(2, 6), st.booleans(), st.floats(0.0, 0.8), st.data())
def test_every_single_cell_corruption_of_a_result_is_named(rng, size, fill_above, fill, data):
    position = random_cascade_position(rng, size, FILL_ABOVE if fill_above else None, fill)
    empties = [i for i, v in enumerate(position.board) if v == EMPTY_CODE]
    if not empties:
        return
    drop = rng.choice(empties)
    result = position.drop(drop, rng.randrange(3)).position.symbols()
    for i in range(len(result)):
        if i == drop:
            continue  # the drop is the player's free choice: another colour is another ply
        for symbol in SYMBOLS:
            if symbol == result[i]:
                continue
            obs = list(result)
            obs[i] = symbol
            verdict = judge(position, obs)
            cell = position.geometry.cells[i]
            if verdict.kind is VerdictKind.ERROR:
                repairs = [f for f in verdict.errors if f.needs != f.shows]
                # the corrupted cell is named, or an equally small repair elsewhere explains the board
                assert cell in {f.cell for f in verdict.errors} or len(repairs) == 1
                repaired = list(obs)
                for f in repairs:
                    repaired[position.geometry.index(f.cell)] = f.needs
                assert judge(position, repaired).kind is not VerdictKind.ERROR
            else:  # a cascade stone not placed yet, or the board is a correct (partial) drop elsewhere
                assert verdict.kind in (VerdictKind.PENDING, VerdictKind.COMPLETE)
                assert explains(position, obs, verdict)


def rules_example():
    game = new_game("cascade", "diamond:8")
    for ply in ("o d5", "x f5", "= c6"):
        game = game.play(ply)
    return game.position


def observe(position, **cells: str) -> list[str]:
    obs = list(position.symbols())
    for name, symbol in cells.items():
        obs[position.geometry.index(name)] = symbol
    return obs


def test_nothing_changed_and_unreadable_cells():
    p = rules_example()
    assert judge(p, p.symbols()).kind is VerdictKind.NOTHING
    verdict = judge(p, observe(p, c10=UNKNOWN))
    assert verdict.kind is VerdictKind.WAITING
    assert verdict.message == "waiting: c10 unreadable"


def test_pending_cells_with_their_colours_and_completion():
    p = rules_example()
    verdict = judge(p, observe(p, h5="x", g6="x"))
    assert verdict.kind is VerdictKind.PENDING
    assert verdict.drop is not None and verdict.drop.name == "h5" and verdict.drop_symbol == "x"
    assert [(f.cell.name, f.needs) for f in verdict.pending] == [("f7", "o"), ("e8", "x")]
    assert verdict.lights() == {verdict.pending[0].cell: "o", verdict.pending[1].cell: "x"}
    summary = verdict.as_dict()
    assert summary["kind"] == "pending" and summary["drop"] == "h5"
    pending = summary["pending"]
    assert isinstance(pending, list)
    assert [(f["cell"], f["needs"]) for f in pending] == [("f7", "o"), ("e8", "x")]
    done = judge(p, observe(p, h5="x", g6="x", f7="o", e8="x"))
    assert done.kind is VerdictKind.COMPLETE and done.message == "ply complete: x h5 xox"


def test_an_unreadable_pending_cell_is_still_pending_and_an_unreadable_cell_blocks_completion():
    p = rules_example()
    verdict = judge(p, observe(p, h5="x", g6="x", f7=UNKNOWN))
    assert verdict.kind is VerdictKind.PENDING
    assert [c.name for c in verdict.unreadable] == ["f7"]
    verdict = judge(p, observe(p, h5="x", g6="x", f7="o", e8="x", a8=UNKNOWN))
    assert verdict.kind is VerdictKind.WAITING and "a8 unreadable" in verdict.message


def test_an_unreadable_cell_that_could_be_the_drop_is_not_guessed():
    p = rules_example()
    # g6 alone could be the drop, or the cascade of an unreadable h5
    verdict = judge(p, observe(p, g6="x", h5=UNKNOWN))
    assert verdict.kind is VerdictKind.WAITING
    assert "h5 unreadable" in verdict.message


def test_errors_name_the_cells_and_what_they_need():
    p = rules_example()
    wrong = judge(p, observe(p, h5="x", g6="o"))
    assert wrong.kind is VerdictKind.ERROR
    assert [(f.cell.name, f.needs, f.problem) for f in wrong.errors] == [("g6", "x", Problem.WRONG_COLOUR)]
    missing = judge(p, observe(p, c6=EMPTY))
    assert [(f.cell.name, f.needs, f.problem) for f in missing.errors] == [("c6", "=", Problem.MISSING)]
    changed = judge(p, observe(p, d5="x"))
    assert [(f.cell.name, f.needs, f.problem) for f in changed.errors] == [("d5", "o", Problem.WRONG_COLOUR)]
    two = judge(p, observe(p, h5="x", m8="o"))
    assert {(f.cell.name, f.problem) for f in two.errors} == {("h5", Problem.TWO_DROPS), ("m8", Problem.TWO_DROPS)}
    assert sum(f.needs == "." for f in two.errors) == 1  # one of them to take back
    assert "two drops at once" in two.message
    moved = judge(p, observe(p, h5="x", g6="x", f7="o", e8="x", d5=EMPTY, m8="o"))
    problems = {(f.cell.name, f.needs, f.problem) for f in moved.errors}
    assert problems == {("d5", "o", Problem.MOVED), ("m8", ".", Problem.MOVED)}
    assert "a stone moved" in moved.message


def test_a_stone_where_none_belongs():
    p = rules_example()
    # the whole cascade of h5, and one more stone below it that no rule asks for
    verdict = judge(p, observe(p, h5="x", g6="x", f7="o", e8="x", d9="x"))
    assert verdict.kind is VerdictKind.ERROR
    assert [(f.cell.name, f.needs, f.problem) for f in verdict.errors] == [("d9", ".", Problem.NOT_HERE)]
    # two stones side by side, neither a cascade of the other: the lower one is the stray stone
    tied = judge(p, observe(p, k6="o", j7="x"))
    assert {f.cell.name for f in tied.errors} == {"j7"}


# -- Cascades -------------------------------------------------------------------------------------


def cascades_position(variant=None, spec="trapezoid:3,3", plies=("b2", "c2")):
    game = new_game("cascades", spec, variant)
    for ply in plies:
        game = game.play(ply)
    return game.position


def test_cascades_one_and_two_stone_turns():
    p = cascades_position()
    one = judge(p, observe(p, a2="o"))
    assert one.kind is VerdictKind.COMPLETE and one.more_allowed
    two = judge(p, observe(p, a2="o", a3="o"))
    assert two.kind is VerdictKind.COMPLETE and [c.name for c in two.stones] == ["a2", "a3"]
    assert str(two.ply) == "a2,a3"
    three = judge(p, observe(p, a2="o", a3="o", b3="o"))
    assert three.kind is VerdictKind.ERROR
    assert {f.problem for f in three.errors} == {Problem.TOO_MANY}


def test_no_second_stone_is_offered_where_none_is_left():
    # free-drop on the smallest board: black's a2 fills it, so the turn is over (and a2, cut off, comes off)
    p = cascades_position("free-drop", "trapezoid:1,2", ("b2",))
    assert sorted(str(ply) for ply in p.legal_plies()) == ["a2", "pass"]
    verdict = judge(p, observe(p, a2="x"))
    assert verdict.kind is VerdictKind.PENDING and [f.cell.name for f in verdict.pending] == ["a2"]
    assert not verdict.more_allowed


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 10_000), st.sampled_from(CASCADES_SETUPS))
def test_a_second_stone_is_offered_exactly_when_a_legal_turn_has_one(seed, setup):
    game, spec, variant = setup
    position = random_game(random.Random(seed), game, spec, variant, max_plies=8).position
    if position.is_over or position.plies == 0:
        return
    plies = list(position.legal_plies())
    mover = "o" if position.to_move == 0 else "x"
    for single in (ply for ply in plies if len(ply.cells) == 1):
        cell = single.cell
        verdict = judge(position, observe(position, **{cell.name: mover}))
        if verdict.kind is not VerdictKind.COMPLETE:
            continue
        doubles = any(len(ply.cells) == 2 and cell in ply.cells for ply in plies)
        assert verdict.more_allowed == doubles, f"{spec} {variant} after {single}"


def test_cascades_turn_ended_by_the_opponents_next_stone():
    p = cascades_position()
    verdict = judge(p, observe(p, a2="o", d3="x"))
    assert verdict.kind is VerdictKind.COMPLETE
    assert str(verdict.ply) == "a2" and [c.name for c in verdict.next_turn] == ["d3"]
    assert verdict.move is not None
    assert judge(verdict.move.position, observe(p, a2="o", d3="x")).is_complete


def test_cascades_errors():
    p = cascades_position()
    unsupported = judge(p, observe(p, e3="o"))
    assert unsupported.kind is VerdictKind.ERROR and unsupported.errors[0].cell.name == "e3"
    assert unsupported.errors[0].needs == EMPTY
    wrong_player = judge(p, observe(p, d3="x"))
    assert wrong_player.kind is VerdictKind.ERROR and "white to play" in wrong_player.message


def test_cascades_free_drop_removal_is_pending():
    p = cascades_position("free-drop")
    verdict = judge(p, observe(p, e3="o"))
    assert verdict.kind is VerdictKind.PENDING
    assert [(f.cell.name, f.needs) for f in verdict.pending] == [("e3", ".")]


def test_cascades_hexagon_rows_open_when_the_bottom_row_is_full():
    p = cascades_position("hexagon", "hexagon:2,2", ("a2", "b2"))
    assert judge(p, observe(p, a3="o")).kind is VerdictKind.ERROR
    assert "not playable yet" in judge(p, observe(p, a3="o")).message


# -- Kaskade --------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, derandomize=True)
@given(RANDOMS)
def test_kaskade_judge_tells_the_wave_the_board_shows(rng):
    position = random_game(rng, "kaskade", "grid:4x4", None, max_plies=rng.randrange(2, 40)).position
    assert isinstance(position, KaskadePosition)
    if position.is_over:
        return
    plies = list(position.legal_plies())
    move = position.play(rng.choice(plies))
    g = position.geometry
    first = list(position.symbols())
    ix = g.index(move.ply.cells[0])
    first[ix] = f"{position.mover_colour}{position.counts[ix] + 1}"
    states = [tuple(first), *(w.after for w in move.waves)]
    for j, state in enumerate(states):
        verdict = judge(position, state)
        assert verdict.drop == move.ply.cells[0]
        assert verdict.wave == j and verdict.waves == len(states) - 1
        if j == len(states) - 1:
            assert verdict.kind is VerdictKind.COMPLETE
            assert verdict.move is not None and verdict.move.position == move.position
        else:
            assert verdict.kind is VerdictKind.PENDING
            nxt = states[j + 1]
            want = {(g.cells[i], nxt[i]) for i in range(len(g)) if nxt[i] != state[i]}
            assert {(f.cell, f.needs) for f in verdict.pending} == want


def test_kaskade_partial_wave_and_wrong_count():
    rules = make_rules("kaskade", "grid:3x3")
    diagram = ["o1", ".", ".", ".", ".", ".", ".", ".", "x1"]
    p = position_from(rules, diagram, to_move=0)
    # a1 reaches 2 and overflows to b1 and a2: the board shows a1 emptied and b1 filled, a2 not yet
    verdict = judge(p, [".", "o1", ".", ".", ".", ".", ".", ".", "x1"])
    assert verdict.kind is VerdictKind.PENDING and verdict.wave == 0
    assert [(f.cell.name, f.needs) for f in verdict.pending] == [("a2", "o1")]
    wrong = judge(p, [".", "o2", ".", "o1", ".", ".", ".", ".", "x1"])
    assert wrong.kind is VerdictKind.ERROR
    assert [(f.cell.name, f.needs, f.problem) for f in wrong.errors] == [("b1", "o1", Problem.WRONG_COUNT)]
    waiting = judge(p, [".", "o1", ".", "o1", ".", ".", ".", ".", UNKNOWN])
    assert waiting.kind is VerdictKind.WAITING and "c3 unreadable" in waiting.message


@settings(max_examples=60, deadline=None, derandomize=True)
@given(RANDOMS, st.sampled_from(CASCADES_SETUPS))
def test_cascades_judge_finds_each_turn_and_names_each_corruption(rng, setup):
    name, spec, variant = setup
    game = random_game(rng, name, spec, variant, max_plies=rng.randrange(1, 30))
    position = game.position
    if position.is_over:
        return
    plies = [p for p in position.legal_plies() if not p.passes]
    if not plies:
        return
    move = position.play(rng.choice(plies))
    result = move.position.symbols()
    g = position.geometry
    placed = tuple(move.ply.cells)
    shown = list(result)
    for e in move.events:  # the stones the rules take off are still on the board
        if isinstance(e, Removed):
            shown[g.index(e.cell)] = e.symbol
    verdict = judge(position, shown)
    assert set(verdict.stones) == set(placed)  # the board does not show which stone came first
    assert verdict.move is not None and verdict.move.position == move.position
    removed = {e.cell for e in move.events if isinstance(e, Removed)}
    assert {f.cell for f in verdict.pending} == removed
    assert verdict.kind is (VerdictKind.PENDING if removed else VerdictKind.COMPLETE)
    for i in range(len(g)):
        if g.cells[i] in placed or g.cells[i] in removed:
            continue
        for symbol in ("o", "x", "."):
            if symbol == shown[i]:
                continue
            obs = list(shown)
            obs[i] = symbol
            corrupted = judge(position, obs)
            if corrupted.kind is VerdictKind.ERROR:
                assert g.cells[i] in {f.cell for f in corrupted.errors}
            else:  # another legal turn (an extra stone can be the turn's second stone)
                assert corrupted.move is not None
                assert set(corrupted.stones) >= set(placed)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(RANDOMS)
def test_kaskade_corruptions_of_a_result_are_named(rng):
    position = random_game(rng, "kaskade", "grid:4x3", None, max_plies=rng.randrange(2, 30)).position
    if position.is_over:
        return
    move = position.play(rng.choice(list(position.legal_plies())))
    result = move.position.symbols()
    g = position.geometry
    for i in range(len(g)):
        for token in (".", "o1", "x1", "o2", "x2"):
            if token == result[i]:
                continue
            obs = list(result)
            obs[i] = token
            verdict = judge(position, obs)
            if verdict.kind is VerdictKind.ERROR:
                assert g.cells[i] in {f.cell for f in verdict.errors}
            else:  # the board is exactly another ball's (partial) chain
                assert verdict.kind in (VerdictKind.PENDING, VerdictKind.COMPLETE, VerdictKind.NOTHING)
                assert not verdict.errors


def test_kaskade_colour_known_count_unreadable():
    rules = make_rules("kaskade", "grid:3x3")
    p = position_from(rules, ["o1", ".", ".", ".", ".", ".", ".", ".", "x1"], to_move=0)
    waiting = judge(p, [".", "o?", ".", "o1", ".", ".", ".", ".", "x1"])
    assert waiting.kind is VerdictKind.WAITING and "b1 unreadable" in waiting.message
    assert waiting.drop is not None and waiting.drop.name == "a1"
    wrong = judge(p, [".", "x?", ".", "o1", ".", ".", ".", ".", "x1"])
    assert wrong.kind is VerdictKind.ERROR
    assert [(f.cell.name, f.needs, f.problem) for f in wrong.errors] == [("b1", "o1", Problem.WRONG_COLOUR)]
    assert "count unreadable" in wrong.errors[0].describe()
    diagram = read_diagram(". o? .\no1 . .\n. . x1\n", "kaskade")
    assert diagram.symbols[1] == "o?"
