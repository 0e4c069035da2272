"""Timing of the blink patterns, the display colours, and the single-colour code.

Drivers that animate on the host (the GPIO drivers) step through a cycle of
:data:`CYCLE_TICKS` ticks of :data:`TICK_S` seconds. On a colour LED a cell
is either showing its colour or dark at each tick (:func:`lit`).

A single-colour matrix (MAX7219) cannot show colours, so each colour is a
blink code of its own during the first half of the cycle, and the pattern
decides the second half: the code again (steady), dark (blink) or a fast
flicker (fast). :func:`mono_sequence` gives the on/off sequence and
:func:`legend` the lines to show on the page.
"""

from __future__ import annotations

from hardware.frame import CellLight, Colour, Pattern

TICK_S = 0.125
"""Length of one animation tick, seconds."""
CYCLE_TICKS = 16
"""Ticks in one animation cycle (2 s)."""

RGB: dict[Colour, tuple[int, int, int]] = {
    Colour.WHITE: (255, 255, 255),
    Colour.BLACK: (0, 0, 255),
    Colour.RED: (255, 0, 0),
    Colour.LAST: (0, 255, 0),
    Colour.WINNER: (255, 255, 0),
    Colour.REMOVE: (255, 0, 255),
    Colour.LEGAL: (0, 255, 255),
}
"""The colour each LED colour is shown in on a colour LED. Black stones show
blue (a black LED would be dark); a cell a stone may go on shows cyan, the
one mix of full channels left (an RGB LED switched channel by channel has
seven colours)."""

RGB_NAMES = {
    Colour.WHITE: "white",
    Colour.BLACK: "blue",
    Colour.RED: "red",
    Colour.LAST: "green",
    Colour.WINNER: "yellow",
    Colour.REMOVE: "magenta",
    Colour.LEGAL: "cyan",
}
"""Plain names of :data:`RGB`, for legends."""


def lit(pattern: Pattern, tick: int) -> bool:
    """Whether a cell with ``pattern`` shows its colour at ``tick`` (any integer).

    Steady: always; blink: 0.5 s on, 0.5 s off; fast: 125 ms on, 125 ms off.
    """
    t = tick % CYCLE_TICKS
    if pattern is Pattern.STEADY:
        return True
    if pattern is Pattern.BLINK:
        return t % 8 < 4
    return t % 2 == 0


_MONO_CODES: dict[Colour, str] = {
    Colour.WHITE: "########",
    Colour.BLACK: "######..",
    Colour.RED: "##.##...",
    Colour.LAST: "#.......",
    Colour.WINNER: "####....",
    Colour.REMOVE: "##..##..",
    Colour.LEGAL: "#.#.#...",
}
_MONO_SECOND_HALF = {Pattern.BLINK: "........", Pattern.FAST: "#.#.#.#."}
_MONO_WORDS = {
    Colour.WHITE: "steady",
    Colour.BLACK: "long on, short off",
    Colour.RED: "two flashes",
    Colour.LAST: "one short flash",
    Colour.WINNER: "one long flash",
    Colour.REMOVE: "two long flashes",
    Colour.LEGAL: "three short flashes",
}


def mono_code(colour: Colour) -> str:
    """The half-cycle code of a colour on a single-colour matrix (``#`` on, ``.`` off per tick)."""
    return _MONO_CODES[colour]


def mono_sequence(light: CellLight) -> str:
    """The on/off sequence of one cycle for a cell on a single-colour matrix."""
    code = _MONO_CODES[light.colour]
    return code + _MONO_SECOND_HALF.get(light.pattern, code)


def mono_lit(light: CellLight, tick: int) -> bool:
    """Whether a single-colour LED showing ``light`` is on at ``tick``."""
    return mono_sequence(light)[tick % CYCLE_TICKS] == "#"


def mono_decode(sequence: str) -> CellLight | None:
    """The light whose single-colour sequence is ``sequence`` (None for all dark or unknown)."""
    return _MONO_INVERSE.get(sequence)


_MONO_INVERSE = {mono_sequence(CellLight(c, p)): CellLight(c, p) for c in Colour for p in Pattern}
assert len(_MONO_INVERSE) == len(Colour) * len(Pattern), "single-colour codes must be distinct"


def legend(single_colour: bool = False) -> tuple[str, ...]:
    """Lines explaining what the LEDs show, for the page or the terminal."""
    patterns = (
        "blinking slowly means a stone of that colour is needed there; fast blinking magenta means remove the stone"
    )
    if not single_colour:
        lines = [f"{RGB_NAMES[c]}: {_meaning(c)}" for c in Colour]
        names = [RGB_NAMES[c] for c in Colour if c.is_stone]
        stones = ", ".join(names[:-1]) + " or " + names[-1]
        return (*lines, patterns, f"{stones} blinking fast: {COMPUTER_WORDS}")
    lines = [f"{_MONO_WORDS[c]} ({_MONO_CODES[c]}): {_meaning(c)}" for c in Colour]
    return (
        *lines,
        "each code fills the first second of a two-second cycle; in the second second the code repeats "
        "(a cell to fill, or where a stone may go), goes dark (a cell that needs that colour) or flickers "
        "(a stone to remove, "
        f"or, after a stone colour's code, {COMPUTER_WORDS})",
    )


COMPUTER_WORDS = (
    "the computer plays there: place a stone of that colour for it (a hint you asked for shows the same way)"
)
"""The legend's words for a ply to place (:data:`hardware.highlight.SUGGESTED`), the page's words too."""


def _meaning(colour: Colour) -> str:
    return {
        Colour.WHITE: "place a white stone (o)",
        Colour.BLACK: "place a black stone (x)",
        Colour.RED: "place a red stone (=)",
        Colour.LAST: "the last move",
        Colour.WINNER: "the winner's stones",
        Colour.REMOVE: "take this stone away",
        Colour.LEGAL: "the teaching mode: the player to move may place a stone here",
    }[colour]
