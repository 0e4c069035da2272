"""The console drawing and the spec strings of open_leds."""

from __future__ import annotations

import io

import pytest

from hardware import CellFrame, CellLight, Colour, LedSpecError, Pattern, open_leds
from hardware.console import draw


def test_a_terminal_gets_colours_and_redraws_in_place() -> None:
    stream = io.StringIO()
    with open_leds("console:?ansi=yes", "grid:2x2", stream=stream) as leds:
        leds.show(CellFrame({0: CellLight(Colour.BLACK, Pattern.BLINK)}))
        leds.show(CellFrame({3: CellLight(Colour.RED)}))
    text = stream.getvalue()
    assert "\x1b[94;5mx!\x1b[0m" in text  # black stones show blue, blinking
    assert "\x1b[2F" in text  # the second drawing goes over the first (two lines up)
    assert "\x1b[91m=\x1b[0m" in text


def test_plain_drawings_follow_the_board_shapes() -> None:
    from referee.geometry import parse_geometry

    hexagon = parse_geometry("hex-diamond:2")
    assert draw(hexagon, CellFrame({0: CellLight(Colour.WHITE)})) == ["  o", ".   .", "  ."]
    trapezoid = parse_geometry("trapezoid:2,2")
    assert draw(trapezoid, CellFrame({4: CellLight(Colour.LAST, Pattern.FAST)})) == ["  .   .", ".   .   +!!"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("none:?x=1", "takes no option 'x'"),
        ("console:?ansi=maybe", "ansi must be true or false"),
        ("emu:fast", "write emu: alone"),
        ("serial:", "needs a port"),
        ("gpio:max7219?chips", "name=value pairs"),
        ("leds", "is not an LED spec"),
    ],
)
def test_bad_led_specs(spec: str, message: str) -> None:
    with pytest.raises(LedSpecError, match=message):
        open_leds(spec, "diamond:8")
