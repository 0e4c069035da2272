"""``cascade diagram``: a record's board drawn as SVG or PNG, every cell named."""

from __future__ import annotations

import os
import random
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.picture import Disc, board_shapes, names_shown, to_svg
from referee.records import read_record, replay

from ..referee.helpers import ALL_SETUPS, random_game

GOLDEN = Path(__file__).resolve().parent / "golden"
RECORDS = {
    "cascade": '[Game "cascade"] [Size "3"]\n1. o c1  x b2\n2. = d2\n',
    "cascades": '[Game "cascades"] [Top "2"] [Rows "3"]\n1. a2  b2,c3\n',
    "kaskade": '[Game "kaskade"] [Width "3"] [Height "2"]\n1. a1  c2\n2. a1\n',
}
UPDATE = os.environ.get("CASCADE_UPDATE_GOLDEN") == "1"


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_the_svg_of_a_small_game_matches_its_golden_file(game, tmp_path):
    record = tmp_path / f"{game}.rec"
    record.write_text(RECORDS[game], encoding="utf-8")
    out = tmp_path / f"{game}.svg"
    assert main(["diagram", str(record), "--svg", str(out), "--title", game]) == 0
    golden = GOLDEN / f"diagram-{game}.svg"
    if UPDATE:
        golden.write_text(out.read_text(encoding="utf-8"), encoding="utf-8")
    assert out.read_text(encoding="utf-8") == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs: if the change is meant, run with CASCADE_UPDATE_GOLDEN=1 and look at the picture"
    )


def test_the_png_shows_each_stone_in_its_colour_where_the_svg_puts_it(tmp_path):
    record = tmp_path / "c.rec"
    record.write_text(RECORDS["cascade"], encoding="utf-8")
    out = tmp_path / "c.png"
    assert main(["diagram", str(record), "--png", str(out)]) == 0
    image = cv2.imread(str(out))
    game = replay(read_record(RECORDS["cascade"]))
    drawing = board_shapes(game.position)
    assert image.shape[:2] == (drawing.height, drawing.width)
    discs = [s for s in drawing.shapes if isinstance(s, Disc)]
    assert len(discs) == sum(t != "." for t in game.position.symbols())
    for disc in discs:
        x, y = (round(v) for v in disc.centre)
        b, g, r = (int(v) for v in image[y, x])
        want = tuple(int(disc.fill[i : i + 2], 16) for i in (1, 3, 5))
        assert max(abs(r - want[0]), abs(g - want[1]), abs(b - want[2])) < 8, (disc, (r, g, b))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 10_000), st.sampled_from(ALL_SETUPS))
def test_every_cell_is_named_once_and_every_piece_drawn(seed, setup):
    position = random_game(random.Random(seed), *setup, max_plies=12).position
    drawing = board_shapes(position)
    names = [cell.name for cell in position.geometry.cells]
    shown = names_shown(drawing)
    assert [t for t in shown if t in set(names)] == names
    assert sum(isinstance(s, Disc) for s in drawing.shapes) == sum(t != "." for t in position.symbols())
    svg = to_svg(drawing)
    assert svg.startswith("<svg") and svg.count("<polygon") == len(names)


def test_a_chosen_ply_is_drawn_and_the_text_diagram_printed_without_an_output(tmp_path, capsys):
    record = tmp_path / "c.rec"
    record.write_text(RECORDS["cascade"], encoding="utf-8")
    assert main(["diagram", str(record), "--ply", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].strip() == "o" and set("".join(lines[1:])) <= {" ", "."}


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--ply", "9"], 2, "--ply 9: the record has 3 plies; give a number from 0 to 3"),
        (["--svg", "/nonexistent-folder/x.svg"], 2, "cannot write /nonexistent-folder/x.svg"),
        (["--ply", "x"], 2, "must be a number of plies from 0"),
    ],
)
def test_bad_choices_give_one_line(args, status, message, tmp_path, capsys):
    record = tmp_path / "c.rec"
    record.write_text(RECORDS["cascade"], encoding="utf-8")
    assert main(["diagram", str(record), *args]) == status
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_record_that_breaks_the_rules_or_cannot_be_read_is_named(tmp_path, capsys):
    bad = tmp_path / "bad.rec"
    bad.write_text('[Game "cascade"] [Size "3"]\n1. q c1\n', encoding="utf-8")
    wrong = tmp_path / "wrong.rec"
    wrong.write_text('[Game "cascade"] [Size "3"]\n1. o c1  x c1\n', encoding="utf-8")
    assert main(["diagram", str(bad), "--svg", str(tmp_path / "o.svg")]) == 2
    assert main(["diagram", str(wrong), "--svg", str(tmp_path / "o.svg")]) == 1
    assert main(["diagram", str(tmp_path / "missing.rec")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and "move 1, black" in err[1] and "no such file" in err[2]
    assert not (tmp_path / "o.svg").exists()


def test_png_and_svg_agree_on_size(tmp_path):
    record = tmp_path / "k.rec"
    record.write_text(RECORDS["kaskade"], encoding="utf-8")
    svg, png = tmp_path / "k.svg", tmp_path / "k.png"
    assert main(["diagram", str(record), "--svg", str(svg), "--png", str(png)]) == 0
    image = cv2.imread(str(png))
    text = svg.read_text(encoding="utf-8")
    assert f'width="{image.shape[1]}" height="{image.shape[0]}"' in text
    assert np.asarray(image).mean() < 255
