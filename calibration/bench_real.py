"""``cascade bench real``: how well the reader reads real labelled photos, calibrated as a user would.

Every labelled set (see :mod:`vision.labelled`) under ``../shared/data/real``
beside the repository, or in the folders given, is calibrated and read
exactly as ``cascade calibrate`` and ``cascade read`` do it
(:func:`calibration.fit.fit_profile`, :func:`calibration.fit.read_photo`):
the set's corners or each photo's own, its empty photo if it has one, its
known photos with their layouts. Each run of a set is calibrated and scored
on its own.

Figures per set (``set/run`` for a set of several runs): the cells read
right, the photos read fully right (a ``?`` is wrong), the photos reported
covered (something over the board: on a still, clear board that is a false
alarm, and the names are printed so they can be checked against the set's
README), and the median milliseconds to read one photo on one core (decoding
the file not included). ``--json`` prints one object: ``sets`` (name →
``cell_accuracy``, ``frame_accuracy``, ``flagged_covered``,
``ms_per_photo``, and the counts), ``cell_accuracy_min`` and
``frame_accuracy_min`` (the worst set's), and ``missing`` (folders asked for
that hold no set).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

DEFAULT_ROOT = Path(__file__).resolve().parents[2] / "shared" / "data" / "real"
"""Where the labelled sets are looked for by default: ``../shared/data/real`` beside the repository."""


class RealBenchError(ValueError):
    """The folders given hold no labelled set; the message says where it looked and what to give."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the real-photo benchmark (``--json`` is added by ``cascade bench``)."""
    parser.add_argument(
        "folders",
        nargs="*",
        metavar="DIR",
        help=f"labelled sets, or folders of them (default: {DEFAULT_ROOT})",
    )
    parser.add_argument(
        "--lens",
        type=float,
        metavar="K1",
        help="also read every set as a wider lens would have shown it: each photo and its corners bent by K1 "
        "(the share by which the picture's corners are drawn in, e.g. -0.08; see vision/lens.py)",
    )


def run(args: argparse.Namespace) -> int:
    """Measure and print the figures (one JSON object with ``--json``)."""
    folders = [Path(f) for f in args.folders] or [DEFAULT_ROOT]
    figures = measure(folders, args.lens)
    if getattr(args, "json", False):
        print(json.dumps(figures))
    else:
        print(report(figures))
    return 0


def measure(folders: list[Path], lens: float | None = None) -> dict[str, Any]:
    """Calibrate and read every set found in ``folders`` and return the figures (see the module docstring); with
    ``lens``, every set again as seen through a lens of that ``k1`` (:func:`vision.labelled.bend_set`), named
    ``SET through lens K1``. Raises RealBenchError when no folder holds a set, or for a lens out of range."""
    import cv2

    from vision.labelled import LabelledSetError, find_sets, load_set
    from vision.lens import Lens, LensError

    bent = None
    if lens is not None:
        try:
            bent = Lens(lens, (1, 1))
        except LensError as error:
            raise RealBenchError(f"--lens: {error}") from None

    cv2.setNumThreads(1)
    sets: dict[str, Any] = {}
    missing = []
    for folder in folders:
        try:
            found = find_sets(folder)
        except LabelledSetError:
            found = ()
        if not found:
            missing.append(str(folder))
            continue
        for set_folder in found:
            try:
                runs = load_set(set_folder)
            except LabelledSetError as error:
                sets[set_folder.name] = {"error": str(error), "cell_accuracy": 0.0, "frame_accuracy": 0.0}
                continue
            for set_run in runs:
                sets[set_run.name] = _score_run(set_run)
            if bent is not None:
                sets.update(_score_bent(set_folder, bent))
    if not sets:
        raise RealBenchError(
            f"no labelled set (a folder with a set.json) in {', '.join(missing)}: put ../shared beside the "
            "repository, or give folders of labelled photos"
        )
    return {
        "sets": sets,
        "cell_accuracy_min": min(s["cell_accuracy"] for s in sets.values()),
        "frame_accuracy_min": min(s["frame_accuracy"] for s in sets.values()),
        "missing": missing,
    }


def _score_bent(set_folder: Path, lens: Any) -> dict[str, Any]:
    """The figures of each run of the set in ``set_folder`` seen through ``lens``, named ``RUN through lens K1``."""
    import dataclasses
    import tempfile

    from vision.errors import VisionError
    from vision.labelled import bend_set, load_set

    name = f"through lens {lens.k1:+.3g}"
    with tempfile.TemporaryDirectory(prefix="cascade-lens-") as scratch:
        try:
            runs = load_set(bend_set(set_folder, lens, Path(scratch) / set_folder.name))
        except VisionError as error:
            return {f"{set_folder.name} {name}": {"error": str(error), "cell_accuracy": 0.0, "frame_accuracy": 0.0}}
        return {f"{r.name} {name}": _score_run(dataclasses.replace(r, name=f"{r.name} {name}")) for r in runs}


def _score_run(set_run: Any) -> dict[str, Any]:
    """Calibrate one run of a set as a user would, read its photos, and count what was right."""
    import numpy as np

    from calibration.errors import ProfileError
    from calibration.fit import fit_profile, load_photo
    from referee.errors import RefereeError
    from referee.geometry import parse_geometry
    from vision.errors import VisionError
    from vision.images import read_image
    from vision.layout import parse_layout
    from vision.locate import CornerLocator, corner_homography
    from vision.pipeline import BoardReader
    from vision.sidecar import corners_beside

    try:
        geometry = parse_geometry(set_run.geometry)
        locator = None if set_run.corners is None else CornerLocator(corners=set_run.corners)
        empty = None if set_run.empty is None else load_photo(set_run.empty, geometry)
        known = [load_photo(p, geometry, set_run.layout_of(p)) for p in set_run.known]
        started = time.perf_counter()
        profile = fit_profile(geometry, locator, empty, known)
        calibrate_s = time.perf_counter() - started
    except (ProfileError, VisionError, RefereeError) as error:
        return {"error": f"cannot be calibrated: {error}", "cell_accuracy": 0.0, "frame_accuracy": 0.0}
    cells = cells_right = photos_right = 0
    covered: list[str] = []
    wrong: list[str] = []
    ms: list[float] = []
    for path in set_run.read:
        truth = parse_layout(set_run.layout_of(path).read_text(encoding="utf-8"), geometry)
        image = read_image(path)
        corners = corners_beside(path)
        reader = BoardReader(geometry, profile.locator, profile.colour_model)
        started = time.perf_counter()
        if corners is not None:
            reading = reader.read_located(image, corner_homography(geometry, corners, reader.lens_for(image)))
        else:
            reading = reader.read(image)
        ms.append((time.perf_counter() - started) * 1000.0)
        right = sum(t == s for t, s in zip(truth, reading.symbols, strict=True))
        cells += len(truth)
        cells_right += right
        photos_right += right == len(truth)
        if reading.occluded:
            covered.append(path.name)
        if right < len(truth):
            wrong.append(f"{path.name}: {len(truth) - right}")
    photos = len(set_run.read)
    return {
        "cell_accuracy": round(cells_right / cells, 6),
        "frame_accuracy": round(photos_right / photos, 6),
        "flagged_covered": len(covered),
        "ms_per_photo": round(float(np.median(ms)), 2),
        "cells": cells,
        "cells_right": cells_right,
        "photos": photos,
        "photos_right": photos_right,
        "covered": covered,
        "wrong": wrong,
        "calibrate_s": round(calibrate_s, 2),
    }


def report(figures: dict[str, Any]) -> str:
    """The figures as lines of text."""
    lines = ["real photos, calibrated and read as cascade calibrate and cascade read do (one core)"]
    width = max(len(name) for name in figures["sets"])
    for name, s in figures["sets"].items():
        if "error" in s:
            lines.append(f"  {name:{width}}  {s['error']}")
            continue
        lines.append(
            f"  {name:{width}}  cells {100 * s['cell_accuracy']:6.2f} % ({s['cells'] - s['cells_right']} wrong)  "
            f"photos fully right {s['photos_right']}/{s['photos']}  reported covered {s['flagged_covered']}  "
            f"{s['ms_per_photo']:.1f} ms per photo"
        )
        if s["wrong"]:
            lines.append(f"  {'':{width}}  wrong cells: {', '.join(s['wrong'])}")
        if s["covered"]:
            lines.append(f"  {'':{width}}  reported covered: {', '.join(s['covered'])}")
    lines.append(
        f"  worst set: cells {100 * figures['cell_accuracy_min']:.2f} %, "
        f"photos fully right {100 * figures['frame_accuracy_min']:.1f} %"
    )
    for folder in figures["missing"]:
        lines.append(f"  no labelled set in {folder}")
    return "\n".join(lines)
