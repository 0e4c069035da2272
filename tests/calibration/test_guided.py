"""The guided calibration, scripted against the simulated table: a newcomer's mistakes, plain problems, a
working profile in under two minutes of simulated time."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest

from calibration.guided import STEPS, GuidedCalibration, GuidedCalibrationError, GuidedConfig, choose_cells
from calibration.profile import load_profile
from calibration.ready import load_ready_profile, row_major_leds, stones_in_play
from calibration.scenarios import read_game
from calibration.simtable import CalibrationTable, run_on_table
from calibration.terminal import run_guided
from referee.geometry import parse_geometry

TWO_MINUTES_S = 120.0


@pytest.mark.parametrize(("spec", "seed"), [("diamond:8", 3), ("hex-diamond:8", 4), ("trapezoid:8,8", 5)])
def test_a_newcomer_with_every_usual_mistake_gets_a_working_profile_in_two_minutes(spec: str, seed: int) -> None:
    geometry = parse_geometry(spec)
    table = CalibrationTable(geometry, seed=seed, mistakes=True)
    run = run_on_table(GuidedCalibration(geometry, start=load_ready_profile(spec)), table, limit_s=300.0)
    assert run.flow.done, f"stuck at {run.flow.step.name}: {run.problems}"
    assert run.seconds < TWO_MINUTES_S
    said = "\n".join(run.problems)
    assert "the picture is too dark: turn on a light" in said
    assert "marker 2 (bottom right) not visible: move the camera or the board" in said
    assert f"glare on cells {geometry.cells[table._far_cell(1)].name}" in said or "glare on cell" in said
    assert f"a stone lies on cell {geometry.cells[table._far_cell()].name}: clear the board" in said
    assert "no stone found on cell" in said and "stone there, in the middle of the cell" in said
    assert read_game(run.flow.profile, table.renderer, table.light, plies=12, seed=seed) == []


def test_the_terminal_flow_prints_each_step_and_problem_and_saves_the_profile(tmp_path: Path) -> None:
    lines: list[str] = []
    lit: list[dict[int, str]] = []
    output = tmp_path / "board.json"
    args = argparse.Namespace(
        geometry="diamond:8", camera="sim:", start=None, overlay=None, output=str(output), sim_wiring="serpentine"
    )
    assert run_guided(args, say=lines.append, ask=lambda _: "y", light=lit.append) == 0
    text = "\n".join(lines)
    for title in ("== Find the board ==", "== Check the grid ==", "== Empty board ==", "== Read it back =="):
        assert title in text
    assert "  ! the picture is too dark: turn on a light over the board" in text
    simulated = float(text.split("simulated time: ")[1].split(" s")[0])
    assert simulated < TWO_MINUTES_S
    profile = load_profile(output)
    assert "== LED map ==" in text and "  ok: 64 cells, each with its own LED" in text
    assert profile.led_map == row_major_leds(parse_geometry("diamond:8"), serpentine=True)
    assert profile.led_map != load_ready_profile("diamond:8").led_map
    assert set(profile.colour_model.classes) == {"o", "x", "="}
    stones = [cells for cells in lit if cells]
    assert len(stones) == 2 and len(stones[0]) == 6
    assert lit[-1] == {}
    assert (tmp_path / "board.grid.png").is_file()


def test_saying_no_to_the_grid_finds_the_board_again() -> None:
    geometry = parse_geometry("diamond:8")
    table = CalibrationTable(geometry, seed=2, mistakes=False)
    flow = GuidedCalibration(geometry)
    while not flow.step.asks:
        flow.offer(table.grab())
    assert flow.answer(False).name == "locate"
    assert flow.homography is None
    while not flow.step.asks:
        flow.offer(table.grab())
    assert flow.answer(True).name == "empty"


def test_steps_out_of_order_are_refused() -> None:
    flow = GuidedCalibration(parse_geometry("grid:6x6"))
    assert flow.step.name == STEPS[0]
    with pytest.raises(GuidedCalibrationError, match="no question is asked"):
        flow.answer(True)
    with pytest.raises(GuidedCalibrationError, match="finish it first"):
        _ = flow.profile
    with pytest.raises(GuidedCalibrationError, match="not been captured"):
        flow.again()
    with pytest.raises(GuidedCalibrationError, match="not been found"):
        flow.overlay(np.zeros((10, 10, 3), np.uint8))


@pytest.mark.parametrize("spec", ["diamond:8", "hex-diamond:8", "trapezoid:8,8", "grid:6x6", "diamond:3"])
def test_asked_cells_are_distinct_and_cover_every_colour(spec: str) -> None:
    geometry = parse_geometry(spec)
    stones = stones_in_play(geometry)
    asked = choose_cells(geometry, stones, 2)
    assert len(asked) == min(len(geometry.cells), 2 * len(stones))
    assert set(asked.values()) == set(stones)
    flow = GuidedCalibration(geometry)
    assert set(flow.moved) == set(flow.asked)
    assert all(flow.moved[c] != flow.asked[c] for c in flow.asked)


def test_bench_calibration_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from companion.cli import main

    args = ["bench", "calibration", "--boards", "grid:6x6", "--parts", "ledmap,drift", "--plies", "2", "--json"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert {row["wiring"] for row in figures["ledmap"]} == {"row-major", "serpentine", "reversed (rotated 180)"}
    assert all(row["exact"] and row["frames"] == 14 for row in figures["ledmap"])
    assert figures["guided"] == [] and len(figures["drift"]) == 4
    assert main(["bench", "calibration", "--parts", "speed"]) == 2
    assert "choose among guided, ledmap, drift" in capsys.readouterr().err


def test_a_checkerboard_found_once_is_kept_as_fixed_corners() -> None:
    from vision.locate import CheckerboardLocator, CornerLocator

    geometry = parse_geometry("diamond:8")
    table = CalibrationTable(geometry, seed=6, mistakes=False)
    run = run_on_table(GuidedCalibration(geometry, locator=CheckerboardLocator()), table, limit_s=200.0)
    assert run.flow.done and run.seconds < TWO_MINUTES_S
    assert isinstance(run.flow.profile.locator, CornerLocator)
    assert read_game(run.flow.profile, table.renderer, table.light, plies=8, seed=6) == []


@pytest.mark.parametrize(
    ("level", "said"),
    [(10, "the picture is too dark: turn on a light"), (255, "the picture is too bright: lower the camera's exposure")],
)
def test_a_picture_too_dark_or_too_bright_is_named_before_anything_else(level: int, said: str) -> None:
    flow = GuidedCalibration(parse_geometry("diamond:8"))
    check = flow.offer(np.full((540, 960, 3), level, np.uint8))
    assert not check.passed and str(check.problems[0]).startswith(said)
    page = check.to_dict(flow.geometry)
    assert page["step"] == "locate" and page["problems"][0]["fix"]


def test_a_board_far_away_is_too_small() -> None:
    import cv2

    geometry = parse_geometry("diamond:8")
    table = CalibrationTable(geometry, seed=2, mistakes=False)
    image = table.grab()
    small = np.full_like(image, 90)
    small[:270, :480] = cv2.resize(image, (480, 270), interpolation=cv2.INTER_AREA)
    check = GuidedCalibration(geometry, config=GuidedConfig(min_pitch_px=30.0)).offer(small)
    assert "the board is too small in the picture: move the camera closer to the board" in [
        str(p) for p in check.problems
    ]


def _advance_to(flow: GuidedCalibration, table: CalibrationTable, step: str) -> None:
    while flow.step.name != step:
        if flow.step.asks:
            flow.answer(True)
        else:
            flow.offer(table.grab())


def test_without_a_starting_profile_a_stone_left_on_the_empty_board_is_named() -> None:
    geometry = parse_geometry("hex-diamond:8")
    table = CalibrationTable(geometry, seed=2, mistakes=False)
    flow = GuidedCalibration(geometry)
    _advance_to(flow, table, "empty")
    cell = geometry.index("n9")
    table.board[cell] = "x"
    checks = [flow.offer(table.grab()) for _ in range(3)]
    assert [str(p) for p in checks[-1].problems] == ["a stone lies on cell n9: clear the board: take every stone off"]
    assert checks[-1].problems[0].cells == (cell,)
    table.board[cell] = "."
    _advance_to(flow, table, "stones")


def test_a_stone_of_the_wrong_colour_and_one_where_none_was_asked_are_named() -> None:
    geometry = parse_geometry("diamond:8")
    table = CalibrationTable(geometry, seed=2, mistakes=False)
    flow = GuidedCalibration(geometry, start=load_ready_profile("diamond:8"))
    _advance_to(flow, table, "stones")
    white = next(cell for cell, symbol in flow.asked.items() if symbol == "o")
    for cell, symbol in flow.asked.items():
        table.board[cell] = "x" if cell == white else symbol
    checks = [flow.offer(table.grab()) for _ in range(3)]
    name = geometry.cells[white].name
    assert [str(p) for p in checks[-1].problems] == [
        f"the stone on {name} looks black, not white: put a white stone on {name}"
    ]
    table.board[white] = "o"
    stray = next(i for i in range(len(geometry.cells)) if i not in flow.asked)
    table.board[stray] = "="
    checks = [flow.offer(table.grab()) for _ in range(3)]
    said = [str(p) for p in checks[-1].problems]
    assert said == [
        f"something lies on cell {geometry.cells[stray].name}, which should stay empty: take it away "
        "(and keep hands off the board)"
    ]
    table.board[stray] = "."
    _advance_to(flow, table, "verify")


def test_a_change_of_light_since_the_empty_board_is_no_stone() -> None:
    from calibration.problems import changed

    rng = np.random.default_rng(4)
    empty = np.log(rng.uniform(0.2, 0.7, (40, 3)) + 0.06)
    brighter = empty + np.log([1.4, 1.5, 1.6])
    brighter[7] = np.log(np.array([0.95, 0.95, 0.95]) + 0.06)
    still = np.ones(40, dtype=bool)
    still[7] = False
    distance = changed(empty, brighter, still)
    assert np.flatnonzero(distance > 14.0).tolist() == [7]
    assert distance[still].max() < 1e-6
