"""``console:``: the LEDs drawn as the board in a terminal.

One text line per board row, cells where the board has them (diamonds as
diamonds, hex rows staggered, grids square), each cell as its colour symbol
(``o`` ``x`` ``=``, ``+`` last move, ``*`` winner, ``-`` remove, ``:`` a cell
a stone may go on, ``.`` dark) followed by ``!`` when it blinks and ``!!``
when it blinks fast. On a terminal the symbols are coloured with ANSI codes and each frame is drawn over
the previous one; otherwise every frame is written below the last, plain.
:func:`read_drawing` reads a plain drawing back into a frame.
"""

from __future__ import annotations

import sys
from typing import TextIO

from hardware.blink import RGB_NAMES
from hardware.errors import FrameError
from hardware.frame import CellFrame, CellLight, Colour, Pattern
from hardware.ledmap import LedMap
from hardware.matrix import PROBE, LedMatrix
from referee.geometry import Geometry

CHARS_PER_STEP = 2
"""Characters per half-cell step; a cell's token is up to three characters wide."""

_ANSI_COLOURS = {"white": "97", "blue": "94", "red": "91", "green": "92", "yellow": "93", "magenta": "95", "cyan": "96"}
_ANSI_PATTERN = {Pattern.STEADY: "", Pattern.BLINK: ";5", Pattern.FAST: ";5;6"}


def cell_places(geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """The (line, character column) of every cell in a drawing of ``geometry``."""
    steps = []
    for cell, (x, _) in zip(geometry.cells, geometry.centres, strict=True):
        if geometry.kind in ("diamond", "hex-diamond"):
            steps.append(cell.col - 1)
        elif geometry.kind in ("trapezoid", "hexagon"):
            steps.append(round(2 * x) - 1)
        else:
            steps.append(2 * (cell.col - 1))
    left = min(steps)
    return tuple((cell.row - 1, (s - left) * CHARS_PER_STEP) for cell, s in zip(geometry.cells, steps, strict=True))


def draw(geometry: Geometry, frame: CellFrame, ansi: bool = False) -> list[str]:
    """The lines of a drawing of ``frame`` on ``geometry`` (ANSI-coloured when ``ansi``)."""
    places = cell_places(geometry)
    lines: list[list[str]] = [[] for _ in range(geometry.rows)]
    widths = [0] * geometry.rows
    for index, (line, column) in enumerate(places):
        light = frame.get(index)
        token = "." if light is None else str(light)
        padding = " " * (column - widths[line])
        widths[line] = column + len(token)
        if ansi:
            code = "2" if light is None else _ANSI_COLOURS[RGB_NAMES[light.colour]] + _ANSI_PATTERN[light.pattern]
            token = f"\x1b[{code}m{token}\x1b[0m"
        text = padding + token
        lines[line].append(text)
    return ["".join(parts) for parts in lines]


def read_drawing(geometry: Geometry, lines: list[str]) -> CellFrame:
    """The frame shown by a plain drawing (the inverse of :func:`draw` without ANSI)."""
    if len(lines) != geometry.rows:
        raise FrameError(f"a drawing of the {geometry.spec} board has {geometry.rows} lines, not {len(lines)}")
    lights: dict[int, CellLight] = {}
    for index, (line, column) in enumerate(cell_places(geometry)):
        text = lines[line][column : column + 3].rstrip()
        if text.startswith("."):
            continue
        pattern = Pattern.FAST if text.endswith("!!") else Pattern.BLINK if text.endswith("!") else Pattern.STEADY
        lights[index] = CellLight(Colour.parse(text.rstrip("!")), pattern)
    return CellFrame(lights)


class ConsoleMatrix(LedMatrix):
    """``console:``: draws every frame on ``stream`` (standard output by default).

    ``ansi`` chooses coloured drawings redrawn in place; by default they are
    used when the stream is a terminal.
    """

    name = "console"

    def __init__(
        self,
        geometry: Geometry,
        led_map: LedMap | None = None,
        *,
        stream: TextIO | None = None,
        ansi: bool | None = None,
    ) -> None:
        super().__init__(geometry, led_map)
        self.stream = stream if stream is not None else sys.stdout
        self.ansi = bool(self.stream.isatty()) if ansi is None else ansi
        self._drawn_lines = 0

    def _show(self, frame: CellFrame) -> None:
        lines = draw(self.geometry, frame, self.ansi)
        if self.ansi:
            up = f"\x1b[{self._drawn_lines}F" if self._drawn_lines else ""
            self.stream.write(up + "".join(f"{line}\x1b[K\n" for line in lines))
            self._drawn_lines = len(lines)
        else:
            self.stream.write("".join(f"{line}\n" for line in lines) + "\n")
        self.stream.flush()

    def _show_leds(self, leds: frozenset[int]) -> None:
        """A drawing has cells, not LEDs: draw lit (white, steady) each cell with one of ``leds`` under it."""
        self._show(CellFrame({cell: PROBE for cell, under in enumerate(self.layout.cell_leds) if leds & set(under)}))

    def close(self) -> None:
        """Stop drawing; the last drawing stays on the terminal."""
        with self._lock:
            self._closed = True
            self._shown = CellFrame()
