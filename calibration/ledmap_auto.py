"""The automatic LED map: light the LEDs in binary-coded patterns and watch which cell each one lights.

With ``n`` LEDs, every LED gets a code: its index in binary, ``b`` bits with
``2**b >= n``. For each bit the LEDs whose code has that bit set are lit,
then the others (the complement), so each cell's brightness says the bit of
the LED under it by comparison alone, whatever the board's colour and the
room's light. Two more frames, all off and all on, tell the cells that have
an LED at all. That is ``2 b + 2`` frames (14 for 64 LEDs), not one per LED.

The procedure never touches an LED or a camera: :func:`map_leds` takes two
callables, ``light(leds)`` (light exactly these LED indices, all others
off, and return when they show) and ``grab()`` (the next camera frame),
which the command layer wires to the LED driver and the camera. The result
(:class:`LedMapResult`) gives the LED of every cell: the profile's
``led_map`` (:func:`with_led_map`), or a table of cell names for
``hardware.LedMap.from_table``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from calibration.cellview import disk_means
from calibration.profile import Profile
from referee.geometry import Geometry
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.lens import STRAIGHT, Lens
from vision.locate import Location, Locator, locate
from vision.pipeline import make_view

Light = Callable[[frozenset[int]], None]
Grab = Callable[[], np.ndarray]

MIN_GLOW = 0.04
"""Smallest brightness rise (share of full scale) of a cell with every LED on that counts as lit."""
MIN_CONTRAST = 0.35
"""Smallest difference between a bit's pattern and its complement, as a share of the cell's full glow."""


class LedMapError(VisionError, ValueError):
    """The LEDs could not be mapped to the cells; the message says which cells and what to check."""


def led_patterns(led_count: int) -> list[frozenset[int]]:
    """The LED sets to light, in order: all off, all on, then each bit's LEDs and their complement."""
    if led_count < 1:
        raise LedMapError(f"the LED count must be 1 or more, not {led_count}: is the LED controller connected?")
    bits = max(1, math.ceil(math.log2(led_count)))
    every = frozenset(range(led_count))
    patterns = [frozenset(), every]
    for bit in range(bits):
        on = frozenset(led for led in range(led_count) if led >> bit & 1)
        patterns += [on, every - on]
    return patterns


@dataclass(frozen=True)
class LedMapResult:
    """The LED under every cell (canonical order; None where no LED lights the cell), and how it was found."""

    geometry: Geometry
    cell_leds: tuple[int | None, ...]
    led_count: int
    frames: int

    def table(self) -> dict[str, int]:
        """Cell name -> LED index, for every cell with an LED (the form of ``hardware.LedMap.from_table``)."""
        return {self.geometry.cells[i].name: led for i, led in enumerate(self.cell_leds) if led is not None}

    def led_map(self) -> tuple[int, ...]:
        """The profile's ``led_map``: one LED per cell; raises LedMapError naming cells without one."""
        missing = [self.geometry.cells[i].name for i, led in enumerate(self.cell_leds) if led is None]
        if missing:
            raise LedMapError(
                f"no LED lights {', '.join(missing[:8])}{' ...' if len(missing) > 8 else ''}: check the LEDs "
                "under those cells and their wiring, then map again"
            )
        return tuple(led for led in self.cell_leds if led is not None)


def map_leds(
    geometry: Geometry,
    locator: Locator | None,
    led_count: int,
    light: Light,
    grab: Grab,
    config: VisionConfig | None = None,
    lens: Lens = STRAIGHT,
) -> LedMapResult:
    """Light the coded patterns, watch the board, and decode the LED of every cell, the board seen through the
    camera's ``lens`` (the profile's: a wide lens moves the outer cells off a straight lattice).

    Raises LedMapError when a cell's code is unclear (two LEDs under one
    cell, a neighbour's light spilling too far) or two cells claim one LED,
    and when there is no ``locator`` (a profile whose photos each brought
    their own corners cannot follow a camera).
    """
    if locator is None:
        raise LedMapError(
            "this profile holds no board location, so the camera cannot find the board while the LEDs blink: "
            "calibrate with --markers or --corners, then map the LEDs"
        )
    config = config or VisionConfig()
    view = make_view(geometry, config)
    centres = np.array(geometry.centres, dtype=np.float64)
    location: Location | None = None
    levels = []
    patterns = led_patterns(led_count)
    for leds in patterns:
        light(leds)
        image = grab()
        through = lens.for_size((image.shape[1], image.shape[0]))
        location = locate(image, geometry, locator, location, config, through)
        flat = view.warp(image, location.homography, location.lens)
        levels.append(disk_means(view, flat.mean(axis=2) / 255.0, centres))
    light(frozenset())
    off, on = levels[0], levels[1]
    glow = on - off
    lit = glow >= MIN_GLOW
    codes = np.zeros(len(geometry.cells), dtype=np.int64)
    unclear: list[int] = []
    for bit, k in enumerate(range(2, len(levels), 2)):
        contrast = levels[k] - levels[k + 1]
        codes |= (contrast > 0).astype(np.int64) << bit
        unclear += [int(i) for i in np.flatnonzero(lit & (np.abs(contrast) < MIN_CONTRAST * glow))]
    names = geometry.cells
    if unclear:
        cells = ", ".join(names[i].name for i in sorted(set(unclear))[:8])
        raise LedMapError(
            f"the light under {cells} is unclear: more than one LED may light each of them, or light spills "
            "from a neighbour; map boards with one LED per cell, with the room light steady"
        )
    owner: dict[int, int] = {}
    cell_leds: list[int | None] = []
    for i in range(len(names)):
        if not lit[i]:
            cell_leds.append(None)
            continue
        led = int(codes[i])
        if led >= led_count or led in owner:
            other = f" and {names[owner[led]].name}" if led in owner else ""
            raise LedMapError(
                f"{names[i].name}{other} answer to LED {led}, which cannot be: keep the board and camera still "
                "and the room light steady while mapping, then map again"
            )
        owner[led] = i
        cell_leds.append(led)
    return LedMapResult(geometry=geometry, cell_leds=tuple(cell_leds), led_count=led_count, frames=len(patterns))


def with_led_map(profile: Profile, result: LedMapResult) -> Profile:
    """``profile`` with the measured LED map (raises LedMapError when some cell has no LED)."""
    if result.geometry.spec != profile.geometry:
        raise LedMapError(f"the LED map is for {result.geometry.spec}, the profile for {profile.geometry}")
    return Profile(profile.geometry, profile.locator, profile.colour_model, result.led_map(), profile.version)
