"""Counting Kaskade balls: a ball is a small stone, and balls never overlap.

A Kaskade cell holds up to three balls of one colour anywhere inside it.
The reader looks at points all over the cell
(:func:`vision.pipeline.search_offsets`) and compares, at each, every ball
colour, as calibration saw it on that colour of square (a ball's outline is
as sharp as the square is unlike it), with the cell's own bare look there
(calibration learned it at every point: a square's edges and grain are no
ball), which glare may brighten but not give an outline (a pale ball on a
dark square has a strong lamp spot's colour, not its smoothness). A ball of a colour shows as
a point where that colour explains what the cell shows better than its bare
board by at least ``MIN_EVIDENCE`` (a likelihood ratio). The cell's colour
is the one with the strongest such point, and its count the number of such
points no two closer than ``APART`` ball radii (a second peak within one
ball's reach is the same ball), each at least ``LIKE_FIRST`` as clear as
the clearest (a shadow or a ball's rim beside it is no ball).
"""

from __future__ import annotations

import numpy as np

from vision.cells import CellJudge, CellVerdicts

BALL_RADIUS = 0.15
"""A Kaskade ball's radius, in board units."""
MAX_BALLS = 3
"""The most balls a Kaskade cell holds."""
APART = 2.0
"""Least distance between two balls' centres, in ball radii: closer peaks are one ball."""
LIKE_FIRST = 0.5
"""Share of the clearest ball's evidence every other ball of the cell shows: the balls of one cell are of one
colour under one light, while a shadow or a ball's rim shows far less."""
MIN_EVIDENCE = 3.0
"""How much better (log-likelihood) a ball colour must explain a point of a cell than its bare board to be a
ball there."""


def count_balls(verdicts: CellVerdicts, judge: CellJudge, seen: np.ndarray) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The symbols and ball counts of every cell of a Kaskade board: ``seen`` are its features at the search
    offsets (N×K×F), ``verdicts`` the cells as decided like stones (their light is used)."""
    n = len(verdicts.symbols)
    if len(judge.names) < 2:
        return (".",) * n, (0,) * n
    evidence = judge.evidence(seen, verdicts.light)
    strongest = evidence.max(axis=2)
    colour = strongest.argmax(axis=1)
    symbols = []
    counts = []
    apart = APART * BALL_RADIUS
    for i in range(n):
        if strongest[i, colour[i]] < MIN_EVIDENCE or verdicts.unexplained[i]:
            symbols.append("." if not verdicts.unexplained[i] else verdicts.symbols[i])
            counts.append(0)
            continue
        symbols.append(judge.names[1 + colour[i]])
        counts.append(_peaks(evidence[i, colour[i]], judge.offsets, apart))
    return tuple(symbols), tuple(counts)


def _peaks(evidence: np.ndarray, offsets: np.ndarray, apart: float) -> int:
    """How many offsets, no two closer than ``apart``, show at least ``MIN_EVIDENCE`` and ``LIKE_FIRST`` of the
    strongest's (at least one, at most ``MAX_BALLS``), taking the strongest first."""
    order = np.argsort(-evidence, kind="stable")
    need = max(MIN_EVIDENCE, LIKE_FIRST * float(evidence[order[0]]))
    taken: list[np.ndarray] = []
    for k in order:
        if evidence[k] < need or len(taken) == MAX_BALLS:
            break
        if all(np.linalg.norm(offsets[k] - t) >= apart for t in taken):
            taken.append(offsets[k])
    return max(1, len(taken))
