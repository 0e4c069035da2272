"""Sets of real labelled photos: what to calibrate from and what to read and score.

A set is a folder with photos (``NAME.jpg``), their layouts (``NAME.txt``,
see :mod:`vision.layout`), optional per-photo corners (``NAME.corners``, see
:mod:`vision.sidecar`) and a ``set.json`` saying how a user would calibrate
and read it (described for users in vision/README.md, "Labelled sets"):

- ``geometry``: the board spec;
- ``corners`` (optional): the board corners of every photo without its own
  corners file;
- ``empty``: the photo of the empty board, or null;
- ``known``: photos whose layouts calibration is given;
- ``read``: photos to read and score, as names or glob patterns; photos in
  ``known`` or ``empty`` are never scored;
- ``runs`` (optional): objects with their own ``name``, ``empty``, ``known``
  and ``read``, each calibrated and scored on its own; the top-level fields
  apply to every run unless the run gives its own.

:func:`load_set` turns a folder into its runs; it raises
:class:`LabelledSetError`, saying which field or file is wrong, for anything
else. :func:`bend_set` copies a set as a camera with a wider lens would have
shown it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.errors import VisionError
from vision.lens import Lens
from vision.sidecar import CornersError, Quad, corners_beside, parse_corners

SET_FILE = "set.json"
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
MAX_SET_BYTES = 1 << 20


class LabelledSetError(VisionError, ValueError):
    """A labelled set's folder or ``set.json`` is missing or malformed; the message says which part."""


@dataclass(frozen=True)
class SetRun:
    """One calibration of a set and the photos it reads.

    ``name``: the set's folder name, with ``/run`` for a set of several
    runs. ``corners``: the set's corners for photos without their own file
    (None when every photo must bring one). ``empty``: the empty-board
    photo or None. ``known``: photos given to calibration with their
    layouts. ``read``: photos to read and score, each with its layout.
    """

    name: str
    folder: Path
    geometry: str
    corners: Quad | None
    empty: Path | None
    known: tuple[Path, ...]
    read: tuple[Path, ...]

    def layout_of(self, photo: Path) -> Path:
        """The layout file of ``photo`` (``NAME.txt`` beside it)."""
        return photo.with_suffix(".txt")


def find_sets(root: Path) -> tuple[Path, ...]:
    """The set folders in ``root``: ``root`` itself when it holds a ``set.json``, else its sub-folders that do."""
    if (root / SET_FILE).is_file():
        return (root,)
    if not root.is_dir():
        raise LabelledSetError(f"{root}: no such folder of labelled photos")
    return tuple(sorted(p for p in root.iterdir() if (p / SET_FILE).is_file()))


def load_set(folder: Path) -> tuple[SetRun, ...]:
    """The runs of the set in ``folder``; raises LabelledSetError saying what is wrong."""
    path = folder / SET_FILE
    try:
        raw = path.read_bytes()[: MAX_SET_BYTES + 1]
    except OSError as error:
        raise LabelledSetError(f"{path}: cannot be read ({error.strerror or error})") from None
    if len(raw) > MAX_SET_BYTES:
        raise LabelledSetError(f"{path}: too large for a set description (over 1 MB)")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise LabelledSetError(
            f"{path}: not valid JSON text: see vision/README.md, 'Labelled sets', for its form"
        ) from None
    if not isinstance(data, dict):
        raise LabelledSetError(f"{path}: must be a JSON object with geometry, empty, known and read")
    geometry = data.get("geometry")
    if not isinstance(geometry, str) or not geometry:
        raise LabelledSetError(f"{path}: field 'geometry' must be a board spec such as \"points:19x19\"")
    corners = None
    if data.get("corners") is not None:
        if not isinstance(data["corners"], str):
            raise LabelledSetError(f"{path}: field 'corners' must be a string \"x,y x,y x,y x,y\"")
        try:
            corners = parse_corners(data["corners"], f"{path}: corners")
        except CornersError as error:
            raise LabelledSetError(str(error)) from None
    runs = data.get("runs")
    if runs is None:
        return (_run(folder, folder.name, geometry, corners, data, data, path),)
    if not isinstance(runs, list) or not runs:
        raise LabelledSetError(f"{path}: field 'runs' must be a non-empty list of objects")
    out = []
    for k, run in enumerate(runs):
        if not isinstance(run, dict):
            raise LabelledSetError(f"{path}: runs[{k}] must be an object with name, empty, known and read")
        name = run.get("name", str(k + 1))
        if not isinstance(name, str) or not name:
            raise LabelledSetError(f"{path}: runs[{k}].name must be a non-empty string")
        out.append(_run(folder, f"{folder.name}/{name}", geometry, corners, run, data, path))
    if len({r.name for r in out}) != len(out):
        raise LabelledSetError(f"{path}: two runs have the same name")
    return tuple(out)


def _run(
    folder: Path, name: str, geometry: str, corners: Quad | None, own: dict[str, Any], top: dict[str, Any], path: Path
) -> SetRun:
    def field(key: str) -> Any:
        return own[key] if key in own else top.get(key)

    empty_name = field("empty")
    if empty_name is not None and not isinstance(empty_name, str):
        raise LabelledSetError(f"{path}: {name}: field 'empty' must be a photo name or null")
    known_names = field("known") or []
    read_patterns = field("read")
    if not isinstance(known_names, list) or not all(isinstance(k, str) for k in known_names):
        raise LabelledSetError(f"{path}: {name}: field 'known' must be a list of photo names")
    if not isinstance(read_patterns, list) or not read_patterns or not all(isinstance(r, str) for r in read_patterns):
        raise LabelledSetError(f"{path}: {name}: field 'read' must be a non-empty list of photo names or patterns")
    empty = None if empty_name is None else _photo(folder, empty_name, path, name)
    known = tuple(_photo(folder, k, path, name) for k in known_names)
    for photo in known:
        if not photo.with_suffix(".txt").is_file():
            raise LabelledSetError(f"{path}: {name}: the known photo {photo.name} has no layout {photo.stem}.txt")
    skip = {p.name for p in known} | ({empty.name} if empty is not None else set())
    read: list[Path] = []
    for pattern in read_patterns:
        matched = sorted(p for p in folder.glob(pattern) if p.suffix.lower() in PHOTO_SUFFIXES and p.is_file())
        if not matched:
            raise LabelledSetError(f"{path}: {name}: no photo matches '{pattern}' in 'read'")
        read.extend(p for p in matched if p.name not in skip and p not in read)
    if not read:
        raise LabelledSetError(f"{path}: {name}: every photo to read is also given to calibration: nothing to score")
    for photo in read:
        if not photo.with_suffix(".txt").is_file():
            raise LabelledSetError(f"{path}: {name}: the photo {photo.name} has no layout {photo.stem}.txt to score")
    for photo in (*known, *read, *((empty,) if empty else ())):
        if corners is None and corners_beside(photo) is None:
            raise LabelledSetError(
                f"{path}: {name}: {photo.name} has no corners: give the set's 'corners' or a file {photo.stem}.corners"
            )
    return SetRun(
        name=name, folder=folder, geometry=geometry, corners=corners, empty=empty, known=known, read=tuple(read)
    )


def bend_set(folder: Path, lens: Lens, into: Path) -> Path:
    """A copy in ``into`` of the set in ``folder`` as a camera with ``lens`` would have shown it (``lens`` as a share
    of each picture, its size taken from each photo): every photo bent through it (see :meth:`Lens.show`), its
    corners (its own, or the set's) with it, written beside it. Raises LabelledSetError for a set that cannot be
    read, and ImageReadError for a photo that cannot."""
    import cv2

    from vision.images import read_image

    load_set(folder)
    data = json.loads((folder / SET_FILE).read_text(encoding="utf-8"))
    shared = None if data.get("corners") is None else parse_corners(data["corners"])
    into.mkdir(parents=True, exist_ok=True)
    for photo in sorted(p for p in folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES and p.is_file()):
        image = read_image(photo)
        seen = lens.for_size((image.shape[1], image.shape[0]))
        if not cv2.imwrite(str(into / photo.name), seen.show(image), [cv2.IMWRITE_JPEG_QUALITY, 95]):
            raise LabelledSetError(f"{into / photo.name}: cannot be written")
        layout = photo.with_suffix(".txt")
        if layout.is_file():
            (into / layout.name).write_bytes(layout.read_bytes())
        corners = corners_beside(photo) or shared
        if corners is not None:
            bent = seen.bend(np.array(corners, dtype=np.float64))
            text = " ".join(f"{x:.2f},{y:.2f}" for x, y in bent)
            (into / photo.with_suffix(".corners").name).write_text(text + "\n", encoding="utf-8")
    data.pop("corners", None)
    (into / SET_FILE).write_text(json.dumps(data, indent=1), encoding="utf-8")
    return into


def _photo(folder: Path, name: str, path: Path, run: str) -> Path:
    photo = folder / name
    if not photo.is_file():
        raise LabelledSetError(f"{path}: {run}: the photo {name} is not in the set's folder")
    return photo
