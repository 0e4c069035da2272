"""Cameras for ``cascade run``: the vision package's sources, plus the scripted table.

``--camera`` takes any spec of :func:`vision.sources.open_source` (``0``,
``/dev/video0``, ``file:game.mp4``, ``dir:frames/``, ``http://...``,
``synth:``), or ``table:?seed=N&fps=F``: the demo's scripted table, two
simulated players going through a seeded game of the chosen rules with one
mistake they fix. The table keeps its stones when the companion stops, as a
real board does: it starts at the last step that shows the position the live
game resumes from.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

import numpy as np

from companion.errors import SetupError
from companion.scenario import Script, script_game
from referee.rules import Position

TABLE_MISTAKE_AT = 2


@dataclass
class Camera:
    """Frames to read (images, with any buttons pressed with them), and how fast to take them."""

    frames: Iterator[Any]
    fps: float | None
    image_of: Any
    buttons_of: Any
    close: Any


def table_script(start: Position, seed: int) -> Script:
    """The scripted game the ``table:`` camera plays for these rules and seed."""
    return script_game(start, seed=seed, mistake_at=TABLE_MISTAKE_AT)


def resume_step(script: Script, position: Position) -> int:
    """The last step of ``script`` whose board shows ``position`` after as many plies (0 if none)."""
    symbols = position.symbols()
    found = 0
    for index, step in enumerate(script.steps):
        if step.board == symbols and step.move <= position.plies and (index == 0 or step.move == position.plies):
            found = index
    return found


def _number(options: dict[str, str], key: str, default: float, spec: str) -> float:
    text = options.pop(key, None)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise SetupError(f"'{spec[:60]}': {key} must be a number, 0 or more, not '{text[:20]}'")
    return value


def open_camera(spec: str, position: Position, fps: float | None = None) -> Camera:
    """Open the camera named by ``spec`` for a game now at ``position`` (see the module docstring)."""
    if spec.strip().startswith("table:"):
        return _open_table(spec.strip(), position, fps)
    try:
        from vision.sources import open_source
    except ImportError as error:
        raise SetupError(
            f"camera '{spec}' needs the vision package's frame sources, which this installation lacks ({error}); "
            "use the scripted table, table:?seed=1"
        ) from error
    source = open_source(spec)

    def frames() -> Iterator[np.ndarray]:
        for frame in source:
            yield frame.image

    return Camera(frames(), fps, lambda f: f, lambda f: (), getattr(source, "close", lambda: None))


def _open_table(spec: str, position: Position, fps: float | None) -> Camera:
    from companion.table import ScriptedTable, TableFrame

    _, _, query = spec.partition("?")
    try:
        options = dict(parse_qsl(query, strict_parsing=bool(query)))
    except ValueError:
        raise SetupError(f"'{spec}': write options as name=value pairs joined by &, like table:?seed=3&fps=8") from None
    seed = int(_number(options, "seed", 1, spec))
    rate = _number(options, "fps", 8.0 if fps is None else fps, spec)
    if options:
        raise SetupError(f"'{spec}': the table camera takes seed and fps, not {', '.join(options)}")
    start = position.rules.start()
    script = table_script(start, seed)
    table = ScriptedTable(start.geometry, seed=seed + 6)

    def image_of(frame: TableFrame) -> np.ndarray:
        return frame.image

    def buttons_of(frame: TableFrame) -> tuple[str, ...]:
        return (frame.button,) if frame.button else ()

    return Camera(table.frames(script, resume_step(script, position)), rate or None, image_of, buttons_of, lambda: None)


def table_profile(position: Position, seed: int) -> Any:
    """The calibration profile of the table camera (fitted the way a user calibrates)."""
    from companion.table import ScriptedTable

    return ScriptedTable(position.geometry, seed=seed + 6).calibrate()
