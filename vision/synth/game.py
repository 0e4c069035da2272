"""Videos of a scripted game: hands come in, place stones, leave (sometimes linger), with the truth per frame.

:func:`render_game` films a sequence of positions in one camera set-up. For
each move a hand reaches in from the edge of the picture towards a changed
cell (the board still shows the old position), puts the stones down (the new
position appears under the hand), draws back and leaves; now and then it
lingers, hovering over the board or resting beside it. Then the board lies
still for a few frames. Every :class:`GameFrame` carries the truth: the
position on the board, whether a hand is in the picture or covers cells.

:func:`scripted_game` makes a plausible sequence of positions for any board
(stones of alternating colours dropped one by one, red now and then), for
tests and the ``synth:`` frame source.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from referee.geometry import Geometry, parse_geometry
from vision.synth.conditions import CLEAN, SynthConditions, SynthError
from vision.synth.effects import Hand, LightField
from vision.synth.render import Renderer, check_position, make_scene

APPROACH = (0.45, 0.75)
"""How far along its way to the cell the approaching hand is, frame by frame (1: at the cell)."""
RETREAT = (0.7, 0.35)
"""The same for the hand drawing back after placing."""


@dataclass(frozen=True, eq=False)
class GameFrame:
    """One frame of a filmed game and its truth.

    ``index``: the frame number. ``position``: index into the positions of the
    board shown. ``symbols``/``counts``: that position. ``hand_visible``: a hand
    is in the picture; ``occluded``: it (or its shadow) covers cells.
    ``still``: the board lies untouched with no hand in the picture.
    """

    image: np.ndarray
    index: int
    position: int
    symbols: tuple[str, ...]
    counts: tuple[int, ...]
    hand_visible: bool
    occluded: bool
    still: bool

    @property
    def truth(self) -> tuple[str, ...]:
        """The true symbol of every cell (same as ``symbols``)."""
        return self.symbols


def render_game(
    geometry: Geometry | str,
    positions: Sequence[Sequence[str] | str],
    seed: int,
    conditions: SynthConditions = CLEAN,
    size: tuple[int, int] = (640, 360),
    counts: Sequence[Sequence[int]] | None = None,
    still_frames: int = 5,
    linger_probability: float = 0.3,
    light: LightField | None = None,
) -> Iterator[GameFrame]:
    """Frames of ``positions`` played one after another on ``geometry`` (see the module docstring).

    The first position is shown still; each later one is reached by a hand.
    ``counts``: Kaskade ball counts per position (default one per stone).
    ``still_frames``: frames the board lies still after each move.
    ``linger_probability``: chance that a hand stays a few frames after a move.
    ``light``: the light over the whole game (default: the scene's own light,
    as a room's light stays put while a game is filmed).
    Deterministic by ``seed``. Raises SynthError for a position that does not
    fit the board.
    """
    geo = parse_geometry(geometry) if isinstance(geometry, str) else geometry
    if not positions:
        raise SynthError("a filmed game needs at least one position")
    if counts is not None and len(counts) != len(positions):
        raise SynthError(f"give ball counts for every position ({len(positions)}), not {len(counts)}")
    boards = [check_position(geo, p, None if counts is None else counts[k]) for k, p in enumerate(positions)]
    renderer = Renderer(make_scene(geo, seed, conditions.with_(hand_probability=0.0), size))
    rng = np.random.default_rng([seed, 0x6A3E])
    film = _Film(renderer, seed, light or renderer.scene.base_light)
    yield from film.still(boards[0], 0, still_frames)
    for k in range(1, len(boards)):
        before, after = boards[k - 1], boards[k]
        changed = [i for i, (a, b) in enumerate(zip(before[0], after[0], strict=True)) if a != b] or [
            i for i, (a, b) in enumerate(zip(before[1], after[1], strict=True)) if a != b
        ]
        target = geo.centres[changed[int(rng.integers(len(changed)))]] if changed else None
        hand = renderer.sample_hand(rng, over_board=True, reach_board=target)
        assert hand is not None  # a hand over the board always exists
        for t in APPROACH:
            yield film.frame(before, k - 1, _along(hand, t))
        yield film.frame(after, k, hand)
        for t in RETREAT:
            yield film.frame(after, k, _along(hand, t))
        if rng.random() < linger_probability:
            yield from _linger(film, renderer, rng, after, k, hand)
        yield from film.still(after, k, still_frames)


class _Film:
    """Renders frames with running frame numbers and seeds."""

    def __init__(self, renderer: Renderer, seed: int, light: LightField) -> None:
        self.renderer = renderer
        self.light = light
        self.seed = seed
        self.index = 0

    def frame(self, board: tuple[tuple[str, ...], tuple[int, ...]], position: int, hand: Hand | None) -> GameFrame:
        symbols, counts = board
        shot = self.renderer.render(
            symbols, counts, seed=self.seed * 100_003 + self.index, hand=hand, random_hand=False, light=self.light
        )
        frame = GameFrame(
            shot.image, self.index, position, symbols, counts, shot.hand_visible, shot.occluded, still=hand is None
        )
        self.index += 1
        return frame

    def still(self, board: tuple[tuple[str, ...], tuple[int, ...]], position: int, n: int) -> Iterator[GameFrame]:
        for _ in range(n):
            yield self.frame(board, position, None)


def _linger(
    film: _Film,
    renderer: Renderer,
    rng: np.random.Generator,
    board: tuple[tuple[str, ...], tuple[int, ...]],
    position: int,
    hand: Hand,
) -> Iterator[GameFrame]:
    frames = int(rng.integers(2, 6))
    if rng.random() < 0.5:
        resting = renderer.sample_hand(rng, over_board=False)
        for _ in range(frames):
            yield film.frame(board, position, resting)
        return
    pitch = hand.pitch_px
    for _ in range(frames):
        dx, dy = rng.normal(0.0, 0.4 * pitch, 2)
        hover = replace(_along(hand, float(rng.uniform(0.6, 0.9))), fingers_spread=float(rng.uniform(0.05, 0.2)))
        yield film.frame(board, position, replace(hover, reach=(hover.reach[0] + dx, hover.reach[1] + dy)))


def _along(hand: Hand, t: float) -> Hand:
    """The hand with its palm a share ``t`` of the way from its entry to its reach."""
    (ex, ey), (rx, ry) = hand.entry, hand.reach
    return replace(hand, reach=(ex + (rx - ex) * t, ey + (ry - ey) * t))


def scripted_game(geometry: Geometry | str, seed: int, moves: int | None = None) -> list[tuple[str, ...]]:
    """A plausible sequence of positions: the empty board, then one stone more per move.

    Colours alternate white and black, with a red stone now and then; cells
    are chosen at random. ``moves`` defaults to half the cells (at most the
    number of cells).
    """
    geo = parse_geometry(geometry) if isinstance(geometry, str) else geometry
    n = len(geo.cells)
    count = n // 2 if moves is None else max(0, min(int(moves), n))
    rng = np.random.default_rng([seed, 0x9A3E])
    board = ["."] * n
    positions = [tuple(board)]
    order = rng.permutation(n)
    for move in range(count):
        colour = "=" if rng.random() < 0.15 else ("o", "x")[move % 2]
        board[int(order[move])] = colour
        positions.append(tuple(board))
    return positions
