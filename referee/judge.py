"""``judge(expected, observed)``: what an observed board means for the expected position.

``expected`` is the position before the ply (closed under the rules);
``observed`` one token per cell in canonical order, as in diagrams (``o``,
``x``, ``=``, ``.``, Kaskade ``o2``), ``?`` for a cell that could not be read.
Unreadable cells are never guessed into a move: a verdict that depends on one
is WAITING and names it. See :mod:`referee.verdict` for the verdict value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations, permutations
from typing import Any

from referee.cascade import CascadePosition
from referee.cascades import CascadesPosition
from referee.errors import DiagramError, IllegalMoveError
from referee.geometry import Cell
from referee.kaskade import KaskadePosition, cell_token
from referee.plies import Ply
from referee.rules import Cascaded, Move, Position, Removed
from referee.symbols import CODE_OF, COLOURS, EMPTY, UNKNOWN, colour_name
from referee.verdict import Fix, Problem, Verdict, VerdictKind, token_words, unreadable_words

__all__ = ["Fix", "Problem", "Verdict", "VerdictKind", "judge"]


def judge(expected: Position, observed: Sequence[str]) -> Verdict:
    """Compare an observed board with the expected position and say what it shows.

    ``observed`` is one token per cell in canonical order, or a diagram of
    the game as text.
    """
    if isinstance(observed, str):
        from referee.diagrams import read_diagram

        observed = read_diagram(observed, expected.rules.game).symbols
    obs = tuple(t.strip() for t in observed)
    if len(obs) != len(expected.geometry):
        raise DiagramError(
            f"{len(obs)} observed cells for the {len(expected.geometry)} cells of {expected.geometry.spec}"
        )
    if isinstance(expected, KaskadePosition):
        return _judge_kaskade(expected, obs)
    if isinstance(expected, CascadesPosition):
        return _judge_cascades(expected, obs)
    if isinstance(expected, CascadePosition):
        return _judge_cascade(expected, obs)
    raise TypeError(f"cannot judge a {type(expected).__name__}")


def _base(expected: Position, obs: tuple[str, ...]) -> tuple[tuple[str, ...], list[int], list[int], list[int]]:
    """Expected tokens, unknown cells, changed cells of the position, and new stones."""
    exp = expected.symbols()
    unknown = [i for i, t in enumerate(obs) if t == UNKNOWN]
    changed = [i for i, (e, t) in enumerate(zip(exp, obs, strict=True)) if e != EMPTY and t not in (e, UNKNOWN)]
    new = [i for i, (e, t) in enumerate(zip(exp, obs, strict=True)) if e == EMPTY and t not in (EMPTY, UNKNOWN)]
    return exp, unknown, changed, new


def _quiet(expected: Position, errors: list[Fix], unknown: list[int]) -> Verdict:
    cells = expected.geometry.cells
    if errors:
        return Verdict(
            VerdictKind.ERROR, _error_message(errors), errors=tuple(errors), unreadable=tuple(cells[i] for i in unknown)
        )
    if unknown:
        un = tuple(cells[i] for i in unknown)
        return Verdict(VerdictKind.WAITING, f"waiting: {unreadable_words(un)}", unreadable=un)
    who = colour_name(expected.mover_colour)
    return Verdict(VerdictKind.NOTHING, f"no change: {who} to play")


def _with(base: Verdict, kind: VerdictKind, message: str, **changes: Any) -> Verdict:
    return replace(base, kind=kind, message=message, **changes)


def _error_message(errors: list[Fix]) -> str:
    kinds = []
    for f in errors:
        if f.problem.value not in kinds:
            kinds.append(f.problem.value)
    cells = ", ".join(f.cell.name for f in errors)
    return f"fix the board: {'; '.join(kinds)} ({cells})"


def _changed_fixes(
    expected: Position, exp: tuple[str, ...], obs: tuple[str, ...], changed: list[int], skip: set[int]
) -> list[Fix]:
    cells = expected.geometry.cells
    out = []
    for i in changed:
        if i in skip:
            continue
        problem = Problem.MISSING if obs[i] == EMPTY else Problem.WRONG_COLOUR
        out.append(Fix(cells[i], exp[i], obs[i], problem))
    return out


def _pair_moved(exp: tuple[str, ...], obs: tuple[str, ...], changed: list[int], extra: list[int]) -> dict[int, int]:
    """Missing stones paired with a new stone of the same colour elsewhere: moved stones."""
    pairs: dict[int, int] = {}
    free = list(extra)
    for a in changed:
        if obs[a] != EMPTY:
            continue
        for b in free:
            if obs[b] == exp[a]:
                pairs[a] = b
                free.remove(b)
                break
    return pairs


# -- Cascade -----------------------------------------------------------------------------------------


def _cascade_of(move: Move) -> dict[int, str]:
    g = move.before.geometry
    return {g.index(e.cell): e.symbol for e in move.events if isinstance(e, Cascaded)}


def _judge_cascade(expected: CascadePosition, obs: tuple[str, ...]) -> Verdict:
    g = expected.geometry
    cells = g.cells
    exp, unknown, changed, new = _base(expected, obs)
    bad = [i for i in new if obs[i] not in COLOURS]
    if bad:
        raise DiagramError(f"'{obs[bad[0]]}' on {cells[bad[0]].name} is not a Cascade symbol: use o, x, =, . or ?")
    if not new:
        return _quiet(expected, _changed_fixes(expected, exp, obs, changed, set()), unknown)
    moves = {n: expected.drop(n, CODE_OF[obs[n]]) for n in new}
    cascades = {n: _cascade_of(m) for n, m in moves.items()}
    readings = {n: _reading(expected, exp, obs, changed, new, cascades, n) for n in new}

    def rank(n: int) -> tuple[int, int, int, int]:
        """Fewest errors, then most stones explained, then fewest cells pending."""
        errors, pending = readings[n]
        explained = sum(1 for i in new if i in cascades[n])
        repairs = sum(1 for f in errors if f.needs != f.shows)
        return (repairs, -explained, len(pending), n)

    drop = min(new, key=rank)
    errors, pending = readings[drop]
    move = moves[drop]
    casc = cascades[drop]
    unread = tuple(cells[i] for i in unknown)
    common = Verdict(
        VerdictKind.PENDING,
        "",
        drop=cells[drop],
        drop_symbol=obs[drop],
        stones=(cells[drop],),
        move=move,
        pending=tuple(pending),
        unreadable=unread,
    )
    said = f"{colour_name(obs[drop])} dropped on {cells[drop].name}"
    if errors:
        return _with(common, VerdictKind.ERROR, f"{said}; " + _error_message(errors), errors=tuple(errors))
    outside = [i for i in unknown if i not in casc]
    depends = [u for u in outside if exp[u] == EMPTY and _could_cause(expected, u, drop)]
    if depends:
        un = tuple(cells[i] for i in depends)
        return _with(common, VerdictKind.WAITING, f"waiting: {unreadable_words(un)} (is {cells[drop].name} the drop?)")
    if pending:
        todo = ", ".join(f"{f.cell.name} {token_words(f.needs)}" for f in pending)
        return _with(common, VerdictKind.PENDING, f"{said}: place {todo}")
    if outside:
        return _with(common, VerdictKind.WAITING, f"{said}; waiting: {unreadable_words([cells[i] for i in outside])}")
    return _with(common, VerdictKind.COMPLETE, f"ply complete: {_ply_text(move)}")


def _reading(
    expected: CascadePosition,
    exp: tuple[str, ...],
    obs: tuple[str, ...],
    changed: list[int],
    new: list[int],
    cascades: dict[int, dict[int, str]],
    drop: int,
) -> tuple[list[Fix], list[Fix]]:
    """Errors and pending cells if ``drop`` is the drop."""
    g = expected.geometry
    cells = g.cells
    casc = cascades[drop]
    extra = [i for i in new if i != drop and i not in casc]
    pairs = _pair_moved(exp, obs, changed, extra)
    errors: list[Fix] = []
    for a, b in pairs.items():
        errors.append(Fix(cells[a], exp[a], obs[a], Problem.MOVED))
        errors.append(Fix(cells[b], EMPTY, obs[b], Problem.MOVED))
    moved_to = set(pairs.values())
    errors += _changed_fixes(expected, exp, obs, changed, set(pairs))
    near = {drop, *casc}
    near.update(n for c in list(near) for n in g.neighbours_ix[c])
    for i in extra:
        if i in moved_to:
            continue
        # a stone beside the drop's cascade is a stray stone; one away from it a second drop
        second = i not in near and not any(i in cascades[m] for m in new if m != i)
        errors.append(Fix(cells[i], EMPTY, obs[i], Problem.TWO_DROPS if second else Problem.NOT_HERE))
    if any(f.problem is Problem.TWO_DROPS for f in errors):  # named too: either may be taken back
        errors.append(Fix(cells[drop], obs[drop], obs[drop], Problem.TWO_DROPS))
    pending = []
    for i, need in casc.items():
        if obs[i] == need:
            continue
        if obs[i] in (EMPTY, UNKNOWN):
            pending.append(Fix(cells[i], need, obs[i], Problem.TO_FILL))
        else:
            errors.append(Fix(cells[i], need, obs[i], Problem.WRONG_COLOUR))
    errors.sort(key=lambda f: g.index(f.cell))
    return errors, pending


def _ply_text(move: Move) -> str:
    ply = move.ply
    return str(Ply(ply.cells, ply.colour, move.cascade or None, ply.passes, ply.resigns))


def _could_cause(expected: CascadePosition, u: int, target: int) -> bool:
    return any(target in _cascade_of(expected.drop(u, code)) for code in range(3))


# -- Cascades ----------------------------------------------------------------------------------------


def _judge_cascades(expected: CascadesPosition, obs: tuple[str, ...]) -> Verdict:
    cells = expected.geometry.cells
    exp, unknown, changed, new = _base(expected, obs)
    mover = expected.mover_colour
    who = colour_name(mover)
    unread = tuple(cells[i] for i in unknown)
    if not new:
        return _quiet(expected, _changed_fixes(expected, exp, obs, changed, set()), unknown)
    errors = _changed_fixes(expected, exp, obs, changed, set())
    own = [i for i in new if obs[i] == mover]
    others = [i for i in new if obs[i] != mover]
    if own and others and not errors:
        ended = _ended_by_opponent(expected, obs, own, others)
        if ended is not None:
            return ended
    errors += [Fix(cells[i], EMPTY, obs[i], Problem.ILLEGAL) for i in others]
    limit = 1 if expected.plies == 0 else 2
    if len(own) > limit:  # every stone is named: any may be the one to take back
        keep = next(
            (
                list(c)
                for c in combinations(own, limit)
                if any(_legal(expected, Ply(tuple(cells[i] for i in order))) for order in permutations(c))
            ),
            own[:limit],
        )
        errors += [Fix(cells[i], EMPTY, obs[i], Problem.TOO_MANY) for i in own if i not in keep]
        errors += [Fix(cells[i], obs[i], obs[i], Problem.TOO_MANY) for i in keep]
        own = keep
    move = None
    reason = ""
    orders = [own] if len(own) < 2 else [own, own[::-1]]
    for order in orders:
        ply = Ply(tuple(cells[i] for i in order))
        try:
            expected.check(ply)
        except IllegalMoveError as error:
            reason = reason or str(error)
            continue
        move = expected.apply(ply)
        break
    if move is None and own:
        alone = [i for i in own if _legal(expected, Ply((cells[i],)))]
        blamed = [i for i in own if i not in alone] or own
        errors += [Fix(cells[i], EMPTY, obs[i], Problem.ILLEGAL) for i in blamed]
    errors.sort(key=lambda f: expected.geometry.index(f.cell))
    stones = tuple(cells[i] for i in own)
    common = Verdict(
        VerdictKind.PENDING,
        "",
        drop=stones[0] if stones else None,
        drop_symbol=mover if stones else None,
        stones=stones,
        move=move,
        unreadable=unread,
    )
    if errors:
        text = _error_message(errors) + (f": {reason}" if move is None and reason else "")
        if any(f.problem is Problem.ILLEGAL and f.shows != mover for f in errors):
            text += f" ({who} to play)"
        return _with(common, VerdictKind.ERROR, text, errors=tuple(errors))
    assert move is not None
    pending = tuple(
        Fix(e.cell, EMPTY, obs[expected.geometry.index(e.cell)], Problem.TO_FILL)
        for e in move.events
        if isinstance(e, Removed) and obs[expected.geometry.index(e.cell)] != EMPTY
    )
    more = len(own) == 1 and expected.plies > 0 and _second_stone_allowed(expected, own[0])
    said = f"{who} placed {', '.join(c.name for c in stones)}"
    if pending:
        return _with(
            common,
            VerdictKind.PENDING,
            f"{said}: remove {', '.join(f.cell.name for f in pending)}",
            pending=pending,
            more_allowed=more,
        )
    if unknown:
        return _with(common, VerdictKind.WAITING, f"{said}; waiting: {unreadable_words(unread)}", more_allowed=more)
    return _with(common, VerdictKind.COMPLETE, f"ply complete: {move.ply}", more_allowed=more)


def _ended_by_opponent(
    expected: CascadesPosition, obs: tuple[str, ...], own: list[int], others: list[int]
) -> Verdict | None:
    """The mover's turn followed by the first stone(s) of the opponent's: the opponent's stone ends the turn."""
    cells = expected.geometry.cells
    for order in permutations(own):
        ply = Ply(tuple(cells[i] for i in order))
        if not _legal(expected, ply):
            continue
        move = expected.apply(ply)
        after = move.position
        removed = {e.cell for e in move.events if isinstance(e, Removed)}
        if removed or not isinstance(after, CascadesPosition):
            return None
        if any(obs[i] != after.mover_colour for i in others):
            return None
        if not any(_legal(after, Ply(tuple(cells[i] for i in o))) for o in permutations(others)):
            return None
        nxt = tuple(cells[i] for i in others)
        return Verdict(
            VerdictKind.COMPLETE,
            f"ply complete: {ply}; {colour_name(after.mover_colour)} has begun the next turn "
            f"({', '.join(c.name for c in nxt)})",
            drop=ply.cells[0],
            drop_symbol=expected.mover_colour,
            stones=ply.cells,
            move=move,
            next_turn=nxt,
        )
    return None


def _second_stone_allowed(expected: CascadesPosition, first: int) -> bool:
    """Whether the mover, having placed a stone on cell ``first``, may place a second this turn: some legal
    ply places both (the board as it stands with the first stone, before free-drop takes any stone off)."""
    cells = expected.geometry.cells
    board = bytearray(expected.board)
    board[first] = expected.to_move
    return any(
        _legal(expected, Ply((cells[first], cells[c]))) or _legal(expected, Ply((cells[c], cells[first])))
        for c in expected.placements(expected.to_move, board)
        if c != first
    )


def _legal(position: Position, ply: Ply) -> bool:
    try:
        position.check(ply)
    except IllegalMoveError:
        return False
    return True


# -- Kaskade -----------------------------------------------------------------------------------------


def _states(expected: KaskadePosition, move: Move) -> list[tuple[str, ...]]:
    """The board after the ball (state 0) and after each wave."""
    ix = expected.geometry.index(move.ply.cells[0])
    first = list(expected.symbols())
    first[ix] = cell_token(expected.to_move, expected.counts[ix] + 1)
    return [tuple(first), *(w.after for w in move.waves)]


def _judge_kaskade(expected: KaskadePosition, obs: tuple[str, ...]) -> Verdict:
    g = expected.geometry
    cells = g.cells
    exp = expected.symbols()
    unknown = [i for i, t in enumerate(obs) if t.endswith(UNKNOWN)]
    unsure = set(unknown)
    unread = tuple(cells[i] for i in unknown)
    if all(_fits(t, e) for e, t in zip(exp, obs, strict=True)):
        return _quiet(expected, [], unknown)
    best: tuple[tuple[int, int, int], Move, int, list[int], list[int]] | None = None
    best_of_ball: dict[Cell, tuple[tuple[int, int], list[int]]] = {}
    for ply in expected.legal_plies():
        move = expected.apply(ply)
        states = _states(expected, move)
        for j, state in enumerate(states):
            nxt = states[j + 1] if j + 1 < len(states) else state
            wrong = []
            todo = []
            for i, t in enumerate(obs):
                at_next = _fits(t, nxt[i])
                at_state = _fits(t, state[i])
                if at_next and not (i in unsure and at_state and state[i] != nxt[i]):
                    continue
                if at_state:
                    todo.append(i)
                else:
                    wrong.append(i)
            if not todo and j + 1 < len(states):
                continue  # the board shows state j + 1 at least as well
            key = (len(wrong), len(todo), -j)
            cell = ply.cells[0]
            if cell not in best_of_ball or key[:2] < best_of_ball[cell][0]:
                best_of_ball[cell] = (key[:2], wrong)
            if best is None or key < best[0]:
                best = (key, move, j, wrong, todo)
    assert best is not None
    _, move, j, wrong, todo = best
    states = _states(expected, move)
    total = len(states) - 1
    target = states[j + 1] if j + 1 < len(states) else states[j]
    ball = move.ply.cells[0]
    mover = expected.mover_colour
    common = Verdict(
        VerdictKind.PENDING,
        "",
        drop=ball,
        drop_symbol=mover,
        stones=(ball,),
        move=move,
        unreadable=unread,
        wave=j,
        waves=total,
    )
    fixes = [Fix(cells[i], target[i], obs[i], _kaskade_problem(obs[i], target[i])) for i in wrong]
    rivals = [w for c, (key, w) in best_of_ball.items() if c != ball and key == best[0][:2]]
    if fixes and rivals:  # another ball explains the board as well: its suspect cells are named too
        named = {f.cell for f in fixes}
        for i in sorted({g.index(ball), *(i for w in rivals for i in w)}):
            if cells[i] not in named:
                fixes.append(Fix(cells[i], obs[i], obs[i], Problem.TWO_DROPS))
        fixes.sort(key=lambda f: g.index(f.cell))
    errors = tuple(fixes)
    pending = tuple(Fix(cells[i], target[i], obs[i], Problem.TO_FILL) for i in todo)
    said = f"{colour_name(mover)} added a ball on {ball.name}"
    step = "the ball placed" if j == 0 else f"wave {j} of {total} done"
    if errors:
        return _with(
            common,
            VerdictKind.ERROR,
            f"{said}, {step}; " + _error_message(list(errors)),
            errors=errors,
            pending=pending,
        )
    if j + 1 < len(states) or pending:
        wave = move.waves[j] if j < total else None
        over = ", ".join(c.name for c in wave.cells) if wave else ""
        text = f"{said}, {step}: next, wave {j + 1} overflows {over}" if wave else f"{said}: finish the board"
        return _with(common, VerdictKind.PENDING, text, pending=pending)
    if unknown:
        return _with(common, VerdictKind.WAITING, f"{said}; waiting: {unreadable_words(unread)}")
    end = " and wins" if move.position.is_over else ""
    return _with(
        common, VerdictKind.COMPLETE, f"ply complete: {ball.name}, {total} wave{'s' if total != 1 else ''}{end}"
    )


def _fits(token: str, want: str) -> bool:
    """An observed Kaskade token agrees with the wanted one (``?`` anything, ``o?`` any white count)."""
    if token in (want, UNKNOWN):
        return True
    return len(token) == 2 and token[1] == UNKNOWN and want != EMPTY and want[0] == token[0]


def _kaskade_problem(shows: str, needs: str) -> Problem:
    if shows == EMPTY:
        return Problem.MISSING
    if needs == EMPTY:
        return Problem.NOT_HERE
    if shows[0] != needs[0]:
        return Problem.WRONG_COLOUR
    return Problem.WRONG_COUNT
