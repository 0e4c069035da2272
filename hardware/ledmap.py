"""The cell-to-LED map: which LEDs sit under which cell.

A :class:`LedMap` is a small frozen value that describes how the LEDs are
wired under a board, independent of the board itself; :meth:`LedMap.layout`
applies it to a :class:`~referee.geometry.Geometry` and gives a
:class:`LedLayout`, the LED indices of every cell. The map is JSON-friendly
(:meth:`LedMap.to_dict` / :meth:`LedMap.from_dict`) so that the calibration
profile can embed it.

How cells are laid out before wiring: every board is a lattice of rows and
columns. Square boards use their physical squares (``diamond:N`` its untilted
N×N checkerboard, ``grid`` its grid), hex boards their rows with columns in
half-cell steps, ``points`` its nodes. The lattice is then rotated clockwise by
``rotation`` degrees and, if ``mirror``, flipped left to right, as seen from
the side the LEDs are wired from.

Wiring: ``rows`` runs every lattice row left to right, top row first;
``serpentine`` reverses every second row (a zig-zag strip). Without a
``stride`` the LEDs form a strip with LEDs only under cells (hex boards,
trapezoids); with ``stride`` they form a full matrix of ``stride`` LEDs per
row (an 8×8 module under a 6×6 grid), and LEDs at lattice places without a
cell stay unused. ``offset`` LEDs come before the first one used,
``leds_per_cell`` consecutive LEDs light each cell, and on a strip the LED
indices in ``skip`` are passed over (LEDs hidden under the frame between rows).

A calibration can instead give an explicit ``table`` of cell name to LED
indices (found by lighting LEDs one at a time and watching with the camera);
then that table is the map, and cells it leaves out have no LED.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from hardware.errors import LedMapError
from referee.errors import CellError
from referee.geometry import Geometry, Layout


class Wiring(Enum):
    """The order in which LEDs follow the lattice rows."""

    ROWS = "rows"
    SERPENTINE = "serpentine"


ROTATIONS = (0, 90, 180, 270)
_KEYS = ("wiring", "rotation", "mirror", "offset", "leds_per_cell", "stride", "skip", "led_count", "table")


@dataclass(frozen=True)
class LedLayout:
    """A :class:`LedMap` applied to one board: the LED indices of every cell.

    ``cell_leds[i]`` are the LEDs of cell ``i`` (canonical order; empty when a
    table leaves the cell out); ``led_count`` is the number of LEDs driven.
    """

    geometry: Geometry
    cell_leds: tuple[tuple[int, ...], ...]
    led_count: int

    def leds(self, cell: int) -> tuple[int, ...]:
        """The LED indices under cell index ``cell``."""
        return self.cell_leds[cell]

    @property
    def led_cells(self) -> dict[int, int]:
        """For every LED in use, the index of its cell."""
        return {led: cell for cell, leds in enumerate(self.cell_leds) for led in leds}

    @property
    def unlit_cells(self) -> tuple[int, ...]:
        """Cells that have no LED (left out of an explicit table)."""
        return tuple(i for i, leds in enumerate(self.cell_leds) if not leds)

    @classmethod
    def probe(cls, geometry: Geometry, leds: frozenset[int], led_count: int) -> LedLayout:
        """A layout that puts the raw LED indices ``leds`` under the first cell and no LED under the others.

        A driver shown the first cell through it lights exactly ``leds``, whatever the board's wiring: this is
        how :meth:`hardware.matrix.LedMatrix.show_leds` reaches single LEDs through every driver's own way
        of turning cells into LED states.
        """
        cell_leds: list[tuple[int, ...]] = [()] * len(geometry)
        cell_leds[0] = tuple(sorted(leds))
        return cls(geometry, tuple(cell_leds), led_count)


@dataclass(frozen=True)
class LedMap:
    """How the LEDs are wired under a board; see the module docstring.

    Invalid values raise :class:`~hardware.errors.LedMapError` on
    construction, and :meth:`layout` raises it when the map does not fit a
    board (a ``stride`` narrower than the board, more LEDs than ``led_count``).
    """

    wiring: Wiring = Wiring.ROWS
    rotation: int = 0
    mirror: bool = False
    offset: int = 0
    leds_per_cell: int = 1
    stride: int | None = None
    skip: tuple[int, ...] = ()
    led_count: int | None = None
    table: tuple[tuple[str, tuple[int, ...]], ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.wiring, Wiring):
            object.__setattr__(self, "wiring", _parse_wiring(self.wiring))
        if self.rotation not in ROTATIONS:
            raise LedMapError(f"LED map: rotation must be 0, 90, 180 or 270 degrees, not {self.rotation!r}")
        if not isinstance(self.mirror, bool):
            raise LedMapError(f"LED map: mirror must be true or false, not {self.mirror!r}")
        _natural("offset", self.offset, 0)
        _natural("leds_per_cell", self.leds_per_cell, 1)
        if self.stride is not None:
            _natural("stride", self.stride, 1)
            if self.skip:
                raise LedMapError("LED map: skip is for strips; a matrix with a stride leaves unused places dark")
        if self.led_count is not None:
            _natural("led_count", self.led_count, 1)
        object.__setattr__(self, "skip", tuple(sorted(set(self.skip))))
        for led in self.skip:
            _natural("an LED index in skip", led, 0)
        table = tuple((str(name).strip().lower(), tuple(leds)) for name, leds in self.table)
        seen: dict[int, str] = {}
        for name, leds in table:
            if not leds:
                raise LedMapError(f"LED map: cell {name} in the table has no LEDs; leave it out instead")
            for led in leds:
                _natural(f"an LED index of cell {name}", led, 0)
                if led in seen and seen[led] != name:
                    raise LedMapError(
                        f"LED map: LED {led} is given to both {seen[led]} and {name}; give it to one cell"
                    )
                seen[led] = name
        if len({name for name, _ in table}) != len(table):
            raise LedMapError("LED map: a cell appears twice in the table; list each cell once")
        object.__setattr__(self, "table", table)

    @classmethod
    def from_table(cls, table: Mapping[str, tuple[int, ...] | list[int] | int], led_count: int | None = None) -> LedMap:
        """An explicit map from cell names to LED indices (one index or several)."""
        rows = tuple((name, (leds,) if isinstance(leds, int) else tuple(leds)) for name, leds in table.items())
        return cls(table=rows, led_count=led_count)

    def layout(self, geometry: Geometry) -> LedLayout:
        """The LED indices of every cell of ``geometry``; raises LedMapError when the map does not fit."""
        cell_leds = self._from_table(geometry) if self.table else self._from_wiring(geometry)
        used = max((led for leds in cell_leds for led in leds), default=-1) + 1
        count = used if self.led_count is None else self.led_count
        if used > count:
            raise LedMapError(
                f"LED map: the {geometry.spec} board needs LEDs up to index {used - 1}, "
                f"but led_count is {count}; raise led_count or lower offset/leds_per_cell"
            )
        return LedLayout(geometry=geometry, cell_leds=cell_leds, led_count=max(count, 1))

    def _from_table(self, geometry: Geometry) -> tuple[tuple[int, ...], ...]:
        cell_leds: list[tuple[int, ...]] = [() for _ in geometry.cells]
        for name, leds in self.table:
            try:
                index = geometry.index(name)
            except CellError as error:
                raise LedMapError(f"LED map table: {error}") from error
            cell_leds[index] = leds
        return tuple(cell_leds)

    def _from_wiring(self, geometry: Geometry) -> tuple[tuple[int, ...], ...]:
        places = _oriented_places(geometry, self.rotation, self.mirror)
        rows = sorted({r for r, _ in places})
        row_rank = {r: k for k, r in enumerate(rows)}
        width = max(c for _, c in places) + 1
        k = self.leds_per_cell
        cell_leds: list[tuple[int, ...]] = [() for _ in geometry.cells]
        if self.stride is not None:
            if width > self.stride:
                raise LedMapError(
                    f"LED map: the {geometry.spec} board is {width} LEDs wide after rotation, "
                    f"wider than the stride of {self.stride}; use a wider stride or rotate the map"
                )
            for cell, (r, c) in enumerate(places):
                if self.wiring is Wiring.SERPENTINE and r % 2 == 1:
                    c = self.stride - 1 - c
                first = self.offset + (r * self.stride + c) * k
                cell_leds[cell] = tuple(range(first, first + k))
            return tuple(cell_leds)

        def order(cell: int) -> tuple[int, int]:
            r, c = places[cell]
            reverse = self.wiring is Wiring.SERPENTINE and row_rank[r] % 2 == 1
            return (r, -c if reverse else c)

        skip = set(self.skip)
        led = self.offset
        for cell in sorted(range(len(places)), key=order):
            leds: list[int] = []
            while len(leds) < k:
                if led not in skip:
                    leds.append(led)
                led += 1
            cell_leds[cell] = tuple(leds)
        return tuple(cell_leds)

    def to_dict(self) -> dict[str, Any]:
        """The map as a JSON-friendly dict (read back with :meth:`from_dict`)."""
        return {
            "wiring": self.wiring.value,
            "rotation": self.rotation,
            "mirror": self.mirror,
            "offset": self.offset,
            "leds_per_cell": self.leds_per_cell,
            "stride": self.stride,
            "skip": list(self.skip),
            "led_count": self.led_count,
            "table": {name: list(leds) for name, leds in self.table},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LedMap:
        """A map from a dict as written by :meth:`to_dict`; missing keys take their defaults.

        Raises LedMapError naming an unknown key or a value of the wrong type.
        """
        if not isinstance(data, Mapping):
            raise LedMapError(f"LED map: expected an object with keys {', '.join(_KEYS)}, got {type(data).__name__}")
        unknown = sorted(set(data) - set(_KEYS))
        if unknown:
            raise LedMapError(f"LED map: unknown key {unknown[0]!r}; the keys are {', '.join(_KEYS)}")
        kwargs: dict[str, Any] = {}
        for key in ("rotation", "offset", "leds_per_cell", "stride", "led_count"):
            if data.get(key) is not None:
                kwargs[key] = _int(key, data[key])
        if "wiring" in data:
            kwargs["wiring"] = _parse_wiring(data["wiring"])
        if "mirror" in data:
            kwargs["mirror"] = data["mirror"]
        if data.get("skip"):
            if not isinstance(data["skip"], list | tuple):
                raise LedMapError("LED map: skip must be a list of LED indices")
            kwargs["skip"] = tuple(_int("skip", v) for v in data["skip"])
        if data.get("table"):
            table = data["table"]
            if not isinstance(table, Mapping):
                raise LedMapError('LED map: table must map cell names to LED indices, like {"h1": [0], "g2": [1]}')
            rows = []
            for name, leds in table.items():
                leds = [leds] if isinstance(leds, int) else leds
                if not isinstance(leds, list | tuple):
                    raise LedMapError(f"LED map table: cell {name} must map to an LED index or a list of them")
                rows.append((str(name), tuple(_int(f"table[{name}]", v) for v in leds)))
            kwargs["table"] = tuple(rows)
        return cls(**kwargs)


def _parse_wiring(value: object) -> Wiring:
    try:
        return Wiring(str(value).strip().lower())
    except ValueError:
        raise LedMapError(f"LED map: wiring must be 'rows' or 'serpentine', not {value!r}") from None


def _int(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LedMapError(f"LED map: {key} must be a whole number, not {value!r}")
    return value


def _natural(what: str, value: object, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise LedMapError(f"LED map: {what} must be a whole number from {low} up, not {value!r}")


def lattice_places(geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """The (row, column) lattice place of every cell, before rotation, from (0, 0).

    Square boards use their physical squares, hex boards their rows with
    columns in half-cell steps, point lattices their nodes.
    """
    raw: list[tuple[int, int]] = []
    for x, y in geometry.centres:
        if geometry.layout is Layout.SQUARE:
            raw.append((round(y - 0.5), round(x - 0.5)))
        elif geometry.layout is Layout.POINT:
            raw.append((round(y), round(x)))
        else:
            raw.append((0, round(2 * x)))
    if geometry.layout is Layout.HEX:
        raw = [(cell.row - 1, c) for cell, (_, c) in zip(geometry.cells, raw, strict=True)]
    top = min(r for r, _ in raw)
    left = min(c for _, c in raw)
    return tuple((r - top, c - left) for r, c in raw)


def _oriented_places(geometry: Geometry, rotation: int, mirror: bool) -> tuple[tuple[int, int], ...]:
    places = lattice_places(geometry)
    height = max(r for r, _ in places) + 1
    width = max(c for _, c in places) + 1
    turned: list[tuple[int, int]] = []
    for r, c in places:
        if rotation == 90:
            r, c = c, height - 1 - r
        elif rotation == 180:
            r, c = height - 1 - r, width - 1 - c
        elif rotation == 270:
            r, c = width - 1 - c, r
        turned.append((r, c))
    if mirror:
        right = max(c for _, c in turned)
        turned = [(r, right - c) for r, c in turned]
    return tuple(turned)


def led_map_of(value: Any, geometry: Geometry, where: str = "the profile's led_map") -> LedMap | None:
    """The map a profile's ``led_map`` value describes on ``geometry``: None (the standard wiring), a list of
    one LED number per cell, or a wiring description (see :meth:`LedMap.from_dict`). Raises LedMapError,
    naming ``where``, for anything else."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return LedMap.from_dict(value)
    if not isinstance(value, (list, tuple)):
        raise LedMapError(f"{where} must be a list of LED numbers or a wiring description, not {type(value).__name__}")
    if len(value) != len(geometry):
        raise LedMapError(
            f"{where} lists {len(value)} LEDs, the {geometry.spec} board has {len(geometry)} cells; "
            "give the profile's board or fix the map"
        )
    return LedMap.from_table({cell.name: led for cell, led in zip(geometry.cells, value, strict=True)})
