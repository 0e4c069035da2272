"""``cascade bench vision``: the figures it prints, how it judges frames, and its one-line option errors."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from vision.bench import _read, _Tally, _truth, parse_size
from vision.pipeline import FrameReading

TRUTH = ("o", ".", "x", "=")


def reading(symbols, occluded=False, counts=None) -> FrameReading:
    return FrameReading(
        symbols=tuple(symbols),
        confidence=(1.0,) * len(symbols),
        counts=counts,
        occluded=occluded,
        located=True,
        change=0.0,
        stage_ms={"locate": 1.0, "measure": 2.0, "classify": 3.0},
    )


def test_the_json_figures_of_a_small_set(capsys):
    assert main(["bench", "vision", "--frames", "12", "--size", "640x360", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["frames"] == 12 and figures["size"] == "640x360"
    for key in ("cell_accuracy", "frame_accuracy"):
        assert 0.0 <= figures[key] <= 1.0
    assert figures["ms_per_frame_median"] > 0
    assert set(figures["stage_ms_median"]) >= {"locate", "measure", "classify"}
    assert figures["hand_over_board_frames"] == figures["hand_frames_flagged"] + figures["occluded_not_flagged"]
    assert sum(c["frames"] for c in figures["by_condition"].values()) == 12
    assert sum(c["frames"] for c in figures["by_board"].values()) == 12


def test_one_board_meets_every_condition(capsys):
    args = ["bench", "vision", "--geometry", "diamond:4", "--frames", "60", "--size", "640x360", "--json"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures["by_board"]) == {"diamond:4"}
    assert len(figures["by_condition"]) == 6


def test_a_board_that_is_not_a_geometry_is_a_one_line_error(capsys):
    assert main(["bench", "vision", "--geometry", "octagon:3", "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert "--geometry octagon:3" in err and "Traceback" not in err


def test_the_text_report_names_the_figures(capsys):
    assert main(["bench", "vision", "--frames", "3", "--size", "640x360"]) == 0
    out = capsys.readouterr().out
    for words in ("cell accuracy", "frames fully correct", "ms per frame", "frames with a hand"):
        assert words in out


def test_a_hand_over_the_board_is_right_only_when_flagged():
    tally = _Tally()
    tally.add(("hands", "diamond:2"), TRUTH, True, True, reading(TRUTH, occluded=True), 5.0)
    tally.add(("hands", "diamond:2"), TRUTH, True, True, reading(TRUTH), 5.0)
    tally.add(("typical", "diamond:2"), TRUTH, False, False, reading(("o", ".", "x", "?")), 7.0)
    tally.add(("typical", "diamond:2"), TRUTH, False, True, reading(TRUTH), 9.0)
    figures = tally.figures((320, 240), 0, 1)
    assert figures["frame_accuracy"] == 0.5
    assert figures["cell_accuracy"] == 7 / 8, "only frames without a hand over the board count cells"
    assert (figures["hand_frames"], figures["hand_over_board_frames"]) == (3, 2)
    assert (figures["hand_frames_flagged"], figures["occluded_not_flagged"]) == (1, 1)
    assert figures["ms_per_frame_median"] == 6.0
    assert figures["stage_ms_median"] == {"classify": 3.0, "locate": 1.0, "measure": 2.0}
    assert figures["by_condition"]["hands"]["frame_accuracy"] == 0.5
    assert figures["by_condition"]["typical"]["clear_frames_flagged"] == 0
    tally.add(("glare", "diamond:2"), TRUTH, False, False, reading(TRUTH, occluded=True), 4.0)
    assert tally.figures((320, 240), 0, 1)["by_condition"]["glare"]["clear_frames_flagged"] == 1


@pytest.mark.parametrize(
    ("option", "message"), [(["--frames", "0"], "--frames must be 1 or more"), (["--size", "big"], "WIDTHxHEIGHT")]
)
def test_bad_options_get_one_line(capsys, option, message):
    assert main(["bench", "vision", *option]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_parse_size():
    assert parse_size("1280x720") == (1280, 720)
    with pytest.raises(ValueError, match="at least 160x120"):
        parse_size("100x100")


def test_a_kaskade_cell_is_right_only_with_its_colour_and_its_count():
    class Frame:
        symbols = ("o", ".", "x", "=")

    truth = _truth(Frame(), (2, 0, 1, 3))
    assert truth == ("o2", ".", "x1", "=3")
    assert _truth(Frame(), None) == Frame.symbols, "other boards compare symbols only"
    tally = _Tally()
    tally.add(("typical", "grid:2x2"), truth, False, False, _read(reading(Frame.symbols, counts=(2, 0, 1, 3))), 5.0)
    tally.add(("typical", "grid:2x2"), truth, False, False, _read(reading(Frame.symbols, counts=(2, 0, 2, 3))), 5.0)
    tally.add(
        ("typical", "grid:2x2"), truth, False, False, _read(reading(("o", ".", "?", "="), counts=(2, 0, 1, 3))), 5.0
    )
    figures = tally.figures((320, 240), 0, 1)
    assert figures["frame_accuracy"] == pytest.approx(1 / 3, abs=1e-5)
    assert figures["cell_accuracy"] == pytest.approx(10 / 12, abs=1e-5)
