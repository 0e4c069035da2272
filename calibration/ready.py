"""Ready profiles for the standard boards, usable before any camera is set up.

A ready profile (``calibration/profiles/*.json``) holds what can be known
without the user's camera:

- the board geometry;
- the marker layout of the printed sheet (``cascade print-markers``), so the
  board is found wherever the camera stands;
- a board model fitted the way a user calibrates (``cascade calibrate``
  with an empty board and known layouts of every stone colour of the game,
  see :mod:`calibration.fit`), on the printed ``board`` sheet as the
  synthetic camera sees it from above in even white light. The reader fits
  every frame's light over the board (see :mod:`vision.cells`), so the model
  also serves a camera at an angle, a tinted or uneven light;
- the LED map of the standard wiring: LEDs row by row from the top, left to
  right in each row (an 8×8 matrix under the square board, a strip under a
  hex board).

What the user still does: print the sheet (or place the markers as on it),
and, for their own board or stones, run ``cascade calibrate --guided``
starting from the ready profile, which measures their board and stones; with
LEDs wired another way, run the automatic LED map. :func:`write_ready_profiles`
regenerates the files.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from calibration.fit import Photo, fit_profile
from calibration.printed import printed_board_renderer
from calibration.profile import Profile, load_profile, save_profile
from referee.geometry import Geometry, Layout, parse_geometry
from vision.locate import MarkerLocator
from vision.synth import CLEAN
from vision.synth.fit import known_layouts as synth_layouts

PROFILES = Path(__file__).resolve().parent / "profiles"
"""The folder of the ready profiles."""

READY: dict[str, str] = {
    "diamond:8": "diamond-8.json",
    "hex-diamond:8": "hex-diamond-8.json",
    "trapezoid:8,8": "trapezoid-8-8.json",
    "grid:6x6": "grid-6x6.json",
}
"""The standard boards and the file of each one's ready profile."""

FIT_SEED = 1


def stones_in_play(geometry: Geometry) -> tuple[str, ...]:
    """The stone colours of the game played on ``geometry``: three for Cascade, white and black otherwise."""
    return ("o", "x", "=") if geometry.kind in ("diamond", "hex-diamond") else ("o", "x")


def known_layouts(geometry: Geometry) -> tuple[tuple[str, ...], ...]:
    """Layouts to calibrate from that show every stone colour in play on every cell, and every cell empty
    (:func:`vision.synth.fit.known_layouts`, one layout more than the colours)."""
    colours = stones_in_play(geometry)
    return tuple(synth_layouts(geometry, colours, shifts=len(colours) + 1))


class ReadyProfileError(LookupError):
    """No ready profile exists for a board; the message lists the boards that have one."""


def ready_profile_path(spec: str) -> Path:
    """The file of the ready profile for the board ``spec``; raises ReadyProfileError."""
    geometry = parse_geometry(spec)
    name = READY.get(geometry.spec)
    if name is None:
        raise ReadyProfileError(
            f"there is no ready profile for {geometry.spec}: boards with one are {', '.join(READY)}; "
            "calibrate the others with cascade calibrate --guided"
        )
    return PROFILES / name


def load_ready_profile(spec: str) -> Profile:
    """The ready profile of the board ``spec`` (see :data:`READY`)."""
    return load_profile(ready_profile_path(spec))


def row_major_leds(geometry: Geometry, serpentine: bool = False) -> tuple[int, ...]:
    """The LED of every cell (canonical order) when LEDs run row by row from the top, each row left to right
    (with ``serpentine``, every second row right to left: a zig-zag strip).

    Rows are the board's physical rows: the squares of a square board (so
    ``diamond:8`` is an 8×8 matrix under the untilted checkerboard), the
    rows of a hex board, the lines of a point lattice.
    """

    def row(index: int) -> int:
        y = geometry.centres[index][1]
        if geometry.layout is Layout.SQUARE:
            return int(y)
        if geometry.layout is Layout.HEX:
            return geometry.cells[index].row
        return round(y)

    rows = sorted({row(i) for i in range(len(geometry.cells))})
    rank = {r: k for k, r in enumerate(rows)}

    def place(index: int) -> tuple[int, float]:
        x = geometry.centres[index][0]
        k = rank[row(index)]
        return (k, -x if serpentine and k % 2 == 1 else x)

    order = sorted(range(len(geometry.cells)), key=place)
    leds = [0] * len(order)
    for led, cell in enumerate(order):
        leds[cell] = led
    return tuple(leds)


def make_ready_profile(spec: str, seed: int = FIT_SEED) -> Profile:
    """Fit the ready profile of ``spec`` on the printed board under the synthetic camera (see the module docstring)."""
    geometry = parse_geometry(spec)
    renderer = printed_board_renderer(geometry, seed, CLEAN)
    n = len(geometry.cells)
    empty = Photo(renderer.render("." * n, seed=1).image, None, None, "empty board")
    known = []
    for shift, layout in enumerate(known_layouts(geometry)):
        known.append(Photo(renderer.render(layout, seed=2 + shift).image, None, layout, f"layout {shift + 1}"))
    profile = fit_profile(geometry, MarkerLocator.default(geometry), empty, known)
    return replace(profile, led_map=row_major_leds(geometry))


def write_ready_profiles(folder: Path = PROFILES) -> list[Path]:
    """Fit and write every ready profile of :data:`READY` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for spec, name in READY.items():
        path = folder / name
        save_profile(make_ready_profile(spec), path)
        written.append(path)
    return written
