"""Printable sheets: true scale, files that printers read, and found by the camera at an angle."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.photo import photograph_sheet
from calibration.sheets import Sheet, SheetError, draw_sheet, largest_cell_mm, plan_sheet, save_sheet
from companion.cli import main
from referee.geometry import parse_geometry
from vision.locate import MarkerLocator, detect_markers, locate
from vision.markers import default_markers
from vision.synth.conditions import TYPICAL

STANDARD = ("diamond:8", "hex-diamond:8", "trapezoid:8,8", "grid:6x6")


@pytest.mark.parametrize("spec", STANDARD)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_markers_print_at_the_planned_size_and_place(spec: str, paper: str) -> None:
    geometry = parse_geometry(spec)
    sheet = draw_sheet(plan_sheet(geometry, paper, kind="board"), dpi=150)
    found = detect_markers(sheet.image, "DICT_4X4_50")
    assert sorted(found) == [0, 1, 2, 3]
    to_px = sheet.board_to_px()
    for marker in default_markers(geometry):
        expected = np.array(marker.corners) @ to_px[:2, :2].T + to_px[:2, 2]
        # ArUco corners are the outer corners of the black border, at pixel edges
        assert np.abs(found[marker.id] - expected).max() < 1.5
    width_mm, height_mm = sheet.plan.paper_mm
    assert sheet.image.shape[:2] == (round(height_mm * 150 / 25.4), round(width_mm * 150 / 25.4))


def test_the_largest_pitch_is_used_and_a_larger_one_is_refused() -> None:
    geometry = parse_geometry("diamond:8")
    best, _ = largest_cell_mm(geometry, "a4")
    assert plan_sheet(geometry, "a4").cell_mm == pytest.approx(best, abs=0.1)
    assert plan_sheet(geometry, "a4", cell_mm=12.5).cell_mm == 12.5
    with pytest.raises(SheetError, match=r"largest pitch that fits is 18\.2 mm"):
        plan_sheet(geometry, "a4", cell_mm=40.0)
    with pytest.raises(SheetError, match="a4 or letter"):
        plan_sheet(geometry, "a3")


def test_wide_boards_turn_the_paper() -> None:
    plan = plan_sheet(parse_geometry("trapezoid:8,8"), "letter")
    assert plan.paper_mm == (279.4, 215.9)


def test_pdf_is_one_page_at_true_scale(tmp_path: Path) -> None:
    sheet = draw_sheet(plan_sheet(parse_geometry("hex-diamond:8"), "a4", kind="board"), dpi=60)
    data = save_sheet(sheet, tmp_path / "sheet.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.4")
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert box is not None
    assert float(box.group(1)) == pytest.approx(210 * 72 / 25.4, abs=0.01)
    assert float(box.group(2)) == pytest.approx(297 * 72 / 25.4, abs=0.01)
    # every cross-reference offset points at its object
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))  # type: ignore[union-attr]
    table = data[start:].split(b"\n")
    for number, line in enumerate(table[3:8], start=1):
        offset = int(line.split()[0])
        assert data[offset:].startswith(f"{number} 0 obj".encode())
    length = int(re.search(rb"/Length (\d+) >>\nstream\n", data).group(1))  # type: ignore[union-attr]
    begin = data.index(b"stream\n") + len(b"stream\n")
    pixels = zlib.decompress(data[begin : begin + length])
    h, w = sheet.image.shape[:2]
    assert pixels == np.ascontiguousarray(sheet.image[:, :, ::-1]).tobytes()
    assert len(pixels) == w * h * 3


def test_png_records_its_resolution(tmp_path: Path) -> None:
    sheet = draw_sheet(plan_sheet(parse_geometry("grid:6x6"), "letter"), dpi=100)
    path = save_sheet(sheet, tmp_path / "sheet.png")
    data = path.read_bytes()
    at = data.index(b"pHYs")
    per_metre_x, per_metre_y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert (per_metre_x, per_metre_y, unit) == (round(100 / 0.0254), round(100 / 0.0254), 1)
    assert np.array_equal(cv2.imread(str(path)), sheet.image)


def test_other_file_types_are_refused(tmp_path: Path) -> None:
    sheet = draw_sheet(plan_sheet(parse_geometry("grid:6x6"), "a4"), dpi=60)
    with pytest.raises(SheetError, match=r"\.pdf or \.png"):
        save_sheet(sheet, tmp_path / "sheet.jpg")


@pytest.mark.parametrize("spec", STANDARD)
def test_printed_sheet_photographed_at_an_angle_gives_the_right_board(spec: str, tmp_path: Path) -> None:
    geometry = parse_geometry(spec)
    path = tmp_path / "sheet.png"
    assert main(["print-markers", "--geometry", spec, "--board", "--dpi", "150", "-o", str(path)]) == 0
    printed = cv2.imread(str(path))
    plan = plan_sheet(geometry, "a4", kind="board")
    assert np.array_equal(printed, draw_sheet(plan, dpi=150).image)
    sheet = Sheet(plan, 150.0, printed)  # the PNG file itself goes under the camera
    centres = np.array(geometry.centres)
    for seed in range(2):
        photo = photograph_sheet(sheet, seed, TYPICAL.with_(tilt_deg=(30.0, 40.0), yaw_deg=(-30.0, 30.0)))
        location = locate(photo.image, geometry, MarkerLocator.default(geometry))
        truth = photo.project(centres)
        pitch_px = float(np.median(np.linalg.norm(np.diff(truth, axis=0), axis=1)))
        assert np.abs(location.project(centres) - truth).max() < 0.1 * pitch_px


def test_print_markers_says_what_fits(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status = main(["print-markers", "--geometry", "diamond:8", "--cell-mm", "40", "-o", str(tmp_path / "s.pdf")])
    assert status == 2
    assert "largest pitch that fits is 18.2 mm" in capsys.readouterr().err
    assert not (tmp_path / "s.pdf").exists()


def test_bad_kind_and_resolution_are_refused() -> None:
    geometry = parse_geometry("grid:6x6")
    with pytest.raises(SheetError, match="outline or board"):
        plan_sheet(geometry, "a4", kind="poster")
    with pytest.raises(SheetError, match="between 50 and 1200 dpi"):
        draw_sheet(plan_sheet(geometry, "a4"), dpi=10)
    with pytest.raises(SheetError, match="positive number of millimetres"):
        plan_sheet(geometry, "a4", cell_mm=-3.0)
