"""Fill-above's "parents win" rule never applies in play (docs/rules.md says why this is checked, not assumed).

A cell is demanded from above and from below in the same round only if, at
a round's start, it is empty with both parents and both children filled.
This checks every arrangement of filled cells a closed position can have on
the diamond boards up to N = 4 (a closed position: no empty cell under two
filled parents or over two filled children), every drop on it, and every
round of the cascade that follows: no cell is ever demanded both ways. Only
which cells are filled matters, not their colours, so this covers every
position. Cascade on ``hex-diamond:N`` has the same parents and children.
"""

from __future__ import annotations

import pytest

from referee.geometry import parse_geometry


def demanded_both_ways(n: int) -> tuple[int, int]:
    """(drops tried, cells demanded from above and below at once) over every closed arrangement of diamond:n."""
    geometry = parse_geometry(f"diamond:{n}")
    size = len(geometry)
    parents = [p for p in geometry.parents_ix]
    children = [c for c in geometry.children_ix]

    def ready(filled: int, cell: int) -> tuple[bool, bool]:
        above = len(parents[cell]) == 2 and all(filled >> p & 1 for p in parents[cell])
        below = len(children[cell]) == 2 and all(filled >> c & 1 for c in children[cell])
        return above, below

    def closed(filled: int) -> bool:
        return not any(not filled >> x & 1 and any(ready(filled, x)) for x in range(size))

    drops = both = 0
    for arrangement in filter(closed, range(1 << size)):
        for drop in range(size):
            if arrangement >> drop & 1:
                continue
            drops += 1
            filled = arrangement | 1 << drop
            while True:
                new = 0
                for cell in range(size):
                    if filled >> cell & 1:
                        continue
                    above, below = ready(filled, cell)
                    both += above and below
                    if above or below:
                        new |= 1 << cell
                if not new:
                    break
                filled |= new
    return drops, both


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_cell_is_ever_demanded_from_above_and_below_at_once(n):
    drops, both = demanded_both_ways(n)
    assert drops > 0 and both == 0
