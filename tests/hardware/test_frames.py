"""Frames, colours, patterns and the highlight meanings."""

from __future__ import annotations

import pytest

from hardware import EMPTY, CellFrame, CellLight, Colour, FrameError, Pattern, highlight, legend
from hardware.blink import CYCLE_TICKS, mono_decode, mono_sequence
from referee.errors import CellError
from referee.geometry import parse_geometry

DIAMOND = parse_geometry("diamond:8")


def test_parse_and_describe_cells() -> None:
    frame = CellFrame.parse(DIAMOND, "h1=o g2=x! c6== d5=remove!! e6=+ f7=win g8=legal i8=:")
    assert frame[DIAMOND.index("g2")] == CellLight(Colour.BLACK, Pattern.BLINK)
    assert frame[DIAMOND.index("g8")] == frame[DIAMOND.index("i8")] == highlight.LEGAL
    assert frame[DIAMOND.index("c6")] == CellLight(Colour.RED)
    assert frame[DIAMOND.index("d5")] == CellLight(Colour.REMOVE, Pattern.FAST)
    assert frame[DIAMOND.index("e6")].colour is Colour.LAST
    assert CellFrame.parse(DIAMOND, frame.describe(DIAMOND)) == frame


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("h1", FrameError, "write CELL=COLOUR"),
        ("h1=q", FrameError, "'q' is not an LED colour"),
        ("z1=o", CellError, "not a cell of the diamond:8 board"),
        ("h1=", FrameError, "write CELL=COLOUR"),
    ],
)
def test_bad_cells_text(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        CellFrame.parse(DIAMOND, text)


def test_frames_are_values() -> None:
    a = CellFrame({1: CellLight(Colour.WHITE), 2: CellLight("x")})  # type: ignore[arg-type]
    b = CellFrame({2: CellLight(Colour.RED)})
    assert (a | b)[2].colour is Colour.RED and (a | b)[1].colour == "o"
    assert hash(a) == hash(CellFrame({2: CellLight(Colour.BLACK), 1: CellLight(Colour.WHITE)}))
    assert CellFrame() == EMPTY and len(EMPTY) == 0
    with pytest.raises(FrameError, match="not a cell index"):
        CellFrame({-1: CellLight(Colour.WHITE)})
    with pytest.raises(FrameError, match="not a CellLight"):
        CellFrame({1: "o"})  # type: ignore[dict-item]


def test_highlight_meanings_and_priority() -> None:
    frame = highlight.guidance(
        pending_cells={1: "x", 2: "="},
        error_cells={2: "o", 3: None, 4: "."},
        last=[1, 5],
        winning=[5, 6],
    )
    assert frame == CellFrame(
        {
            1: CellLight(Colour.BLACK, Pattern.STEADY),
            2: CellLight(Colour.WHITE, Pattern.BLINK),
            3: CellLight(Colour.REMOVE, Pattern.FAST),
            4: CellLight(Colour.REMOVE, Pattern.FAST),
            5: CellLight(Colour.LAST, Pattern.STEADY),
            6: CellLight(Colour.WINNER, Pattern.BLINK),
        }
    )


def test_single_colour_codes_are_distinct_and_decodable() -> None:
    for colour in Colour:
        for pattern in Pattern:
            light = CellLight(colour, pattern)
            sequence = mono_sequence(light)
            assert len(sequence) == CYCLE_TICKS
            assert mono_decode(sequence) == light
    assert mono_decode("." * CYCLE_TICKS) is None


def test_legends_name_every_colour() -> None:
    for single in (False, True):
        text = "\n".join(legend(single_colour=single))
        for word in ("white", "black", "red", "last move", "winner", "take this stone away", "teaching mode"):
            assert word in text
