"""The calibration profile: one versioned, human-readable JSON file per board and camera.

It holds everything the reader needs: the board geometry (a spec string),
how the board is located (ArUco markers, fixed image corners, or none at all
when every photo brings its own corners, see :mod:`vision.sidecar`), the
board model learned at calibration (:mod:`vision.model`), and the LED map
(None until the LED mapping fills it). Example::

    {
      "format": "cascade-profile",
      "version": 1,
      "geometry": "diamond:8",
      "locator": {"kind": "markers", "dictionary": "DICT_4X4_50",
                  "markers": [{"id": 0, "corners": [[-1.3, -1.3], [-0.5, -1.3], [-0.5, -0.5], [-1.3, -0.5]]}, ...]},
      "colour_model": {"kind": "board-look", "geometry": "diamond:8", "height": 0.3, "empty": [...], ...},
      "led_map": null
    }

``locator`` may instead be ``{"kind": "corners", "corners": [[x, y], ...]}``:
the image positions of the geometry's four corners, clockwise from top-left;
or ``{"kind": "per-photo"}``: every photo brings its own corners.
:func:`load_profile` validates every field and raises :class:`ProfileError`
naming the one that is wrong.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from calibration.errors import ProfileError
from referee.errors import RefereeError
from referee.geometry import Geometry, parse_geometry
from vision.errors import VisionError
from vision.locate import CornerLocator, Locator, MarkerLocator
from vision.markers import MarkerPlacement
from vision.model import BoardModel

MAX_COORDINATE = 1e6
"""The largest coordinate a point of a profile may have (pixels or board units)."""
FORMAT = "cascade-profile"
VERSION = 2


@dataclass(frozen=True)
class Profile:
    """A calibration: board geometry, locator, colour model and (later) the LED map."""

    geometry: str
    locator: Locator | None
    colour_model: BoardModel
    led_map: tuple[int, ...] | MappingProxyType[str, Any] | None = None
    """How the LEDs sit under the cells: one LED number per cell (what the automatic map finds), or a
    description of the wiring (``wiring``, ``rotation``, ``stride``, ... as ``hardware.LedMap.from_dict``
    reads it); None for the standard wiring."""
    version: int = VERSION

    @property
    def board(self) -> Geometry:
        """The parsed geometry."""
        return parse_geometry(self.geometry)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready content of the profile file."""
        return {
            "format": FORMAT,
            "version": self.version,
            "geometry": self.geometry,
            "locator": locator_to_dict(self.locator),
            "colour_model": self.colour_model.to_dict(),
            "led_map": None if self.led_map is None else _led_map_json(self.led_map),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Profile:
        """Validate and build a profile from a parsed JSON object; raises ProfileError."""
        if not isinstance(data, dict):
            raise ProfileError("a profile must be a JSON object with format, version, geometry, locator, colour_model")
        if data.get("format") != FORMAT:
            raise ProfileError(f"field 'format' must be \"{FORMAT}\": is this a calibration profile?")
        version = data.get("version")
        if version != VERSION:
            raise ProfileError(
                f"field 'version' is {version!r}; this program reads version {VERSION}: calibrate again "
                "(cascade calibrate, or a ready profile from calibration/profiles/)"
            )
        spec = data.get("geometry")
        if not isinstance(spec, str):
            raise ProfileError("field 'geometry' must be a board spec string like \"diamond:8\"")
        try:
            geometry = parse_geometry(spec)
        except RefereeError as error:
            raise ProfileError(f"field 'geometry': {error}") from None
        locator = locator_from_dict(data.get("locator"))
        if "colour_model" not in data:
            raise ProfileError("field 'colour_model' is missing: calibrate with cascade calibrate")
        try:
            model = BoardModel.from_dict(data["colour_model"])
            model.check_fits(geometry)
        except VisionError as error:
            raise ProfileError(f"field 'colour_model': {error}") from None
        led_map = data.get("led_map")
        if isinstance(led_map, dict):
            led_map = MappingProxyType(dict(led_map))  # a wiring description: the LED driver reads it
        elif led_map is not None:
            if not isinstance(led_map, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in led_map
            ):
                raise ProfileError(
                    "field 'led_map' must be null, a list of LED numbers (one per cell) or a wiring description "
                    "(an object with wiring, rotation, stride, ...; see docs/hardware.md)"
                )
            if len(led_map) != len(geometry.cells):
                raise ProfileError(f"field 'led_map' has {len(led_map)} entries, the board has {len(geometry.cells)}")
            led_map = tuple(led_map)
        return cls(geometry=geometry.spec, locator=locator, colour_model=model, led_map=led_map, version=version)


def _led_map_json(led_map: tuple[int, ...] | MappingProxyType[str, Any]) -> Any:
    """The JSON form of a profile's LED map."""
    return dict(led_map) if isinstance(led_map, MappingProxyType) else list(led_map)


def locator_to_dict(locator: Locator | None) -> dict[str, Any]:
    """The JSON form of a stored locator (markers or corners; None: every photo brings its corners)."""
    if locator is None:
        return {"kind": "per-photo"}
    if isinstance(locator, MarkerLocator):
        return {
            "kind": "markers",
            "dictionary": locator.dictionary,
            "markers": [{"id": m.id, "corners": [list(p) for p in m.corners]} for m in locator.markers],
        }
    if isinstance(locator, CornerLocator):
        return {"kind": "corners", "corners": [list(p) for p in locator.corners]}
    raise ProfileError("only marker and corner locators can be stored: find the checkerboard first")


def _point(value: Any, name: str) -> tuple[float, float]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    ):
        raise ProfileError(f"field '{name}' must be a point [x, y]")
    if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in value):
        raise ProfileError(f"field '{name}' holds a number that is no position: calibrate again")
    return (float(value[0]), float(value[1]))


def _quad(value: Any, name: str) -> tuple[tuple[float, float], ...]:
    if not isinstance(value, list) or len(value) != 4:
        raise ProfileError(f"field '{name}' must be a list of four points [x, y]")
    return tuple(_point(p, f"{name}[{k}]") for k, p in enumerate(value))


def locator_from_dict(data: Any) -> Locator | None:
    """A locator from its JSON form (None for "per-photo"); raises ProfileError naming the bad field."""
    if not isinstance(data, dict):
        raise ProfileError("field 'locator' must be an object with a 'kind' of \"markers\" or \"corners\"")
    kind = data.get("kind")
    if kind == "per-photo":
        return None
    if kind == "corners":
        return CornerLocator(corners=_quad(data.get("corners"), "locator.corners"))  # type: ignore[arg-type]
    if kind == "markers":
        dictionary = data.get("dictionary")
        if not isinstance(dictionary, str) or not dictionary.startswith("DICT_"):
            raise ProfileError("field 'locator.dictionary' must name an ArUco dictionary like \"DICT_4X4_50\"")
        markers = data.get("markers")
        if not isinstance(markers, list) or len(markers) < 2:
            raise ProfileError("field 'locator.markers' must list at least two markers")
        placed = []
        for k, m in enumerate(markers):
            if not isinstance(m, dict) or not isinstance(m.get("id"), int) or m["id"] < 0:
                raise ProfileError(f"field 'locator.markers[{k}].id' must be a marker id (0 or more)")
            corners = _quad(m.get("corners"), f"locator.markers[{k}].corners")
            placed.append(MarkerPlacement(id=m["id"], corners=corners))  # type: ignore[arg-type]
        if len({m.id for m in placed}) != len(placed):
            raise ProfileError("field 'locator.markers' lists a marker id twice")
        return MarkerLocator(markers=tuple(placed), dictionary=dictionary)
    raise ProfileError(f'field \'locator.kind\' is {kind!r}: use "markers", "corners" or "per-photo"')


def save_profile(profile: Profile, path: str | Path) -> None:
    """Write ``profile`` to ``path`` as indented JSON (each cell's empty colour on one line)."""
    data = profile.to_dict()
    text = json.dumps(data, indent=2)
    # keep every Lab triple and point on one line, so the file stays readable
    text = _compact_pairs(text)
    Path(path).write_text(text + "\n", encoding="utf-8")


def _compact_pairs(text: str) -> str:
    import re

    number = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"
    pattern = re.compile(r"\[\s*(" + number + r")\s*,\s*(" + number + r")(?:\s*,\s*(" + number + r"))?\s*\]")
    return pattern.sub(lambda m: "[" + ", ".join(g for g in m.groups() if g is not None) + "]", text)


def load_profile(path: str | Path) -> Profile:
    """Read and validate a profile file; raises ProfileError, saying what is wrong, for any bad file."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ProfileError(
            f"cannot read the profile {path} ({error.strerror or error}): give the file cascade calibrate wrote, "
            "or a ready one from calibration/profiles/"
        ) from None
    except json.JSONDecodeError as error:
        raise ProfileError(f"{path} is not valid JSON (line {error.lineno}): {error.msg}") from None
    except UnicodeDecodeError:
        raise ProfileError(f"{path} is not a text file: give a profile made by cascade calibrate") from None
    try:
        return Profile.from_dict(data)
    except ProfileError as error:
        raise ProfileError(f"{path}: {error}") from None
