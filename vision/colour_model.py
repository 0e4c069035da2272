"""The calibrated colour model: what each cell looks like empty and what each stone colour looks like.

A :class:`ColourModel` holds, in CIE Lab (L 0..100):

- ``empty``: every cell's own empty appearance (its square, wood grain,
  grid lines, the light falling on it), one Lab triple per cell;
- ``empty_sigma``: how much an empty cell varies from frame to frame;
- ``background``: the colour (BGR, 0..1) of the board surface near each
  cell's corners on the calibration image: the light reference of
  :mod:`vision.light`;
- ``classes``: for each stone symbol seen during calibration (``o``, ``x``,
  ``=``), the mean and spread of its Lab measure;
- ``corners``: the colour (BGR, 0..1) of each light-reference patch on its
  own on the calibration image (N×C), to tell a hand over a cell from a
  stone's shadow (see :func:`vision.light.covered_cells`); None in models
  fitted before it was kept;
- ``border``: the colour (BGR, 0..1) of each patch of the ring around the
  board (:attr:`~vision.measure.Rectifier.border_points`) on the calibration
  image, to see an arm cross the board's rim (see
  :func:`vision.light.crossed_border`); None in models fitted before it
  was kept;
- ``texture``: what cells look like apart from their colour (the rim and
  top edge energies and the dark share of
  :class:`~vision.measure.CellMeasures`): each cell's own empty values, how
  much they vary, and each stone colour's mean and spread; None where not
  fitted (Kaskade boards, models fitted before it was kept, which read by
  colour alone until calibrated again);
- ``ball_area``: on Kaskade boards, how many rectified pixels read as ball
  when one ball of each colour (``classes`` order) lies in each cell (see
  :mod:`vision.balls`; a white ball on a light square shows fewer ball
  pixels than on a dark one); None on other boards;
- ``empty_pixels``: on Kaskade boards, every pixel of each cell's wide disk
  (see :class:`~vision.measure.CellMeasures` ``pixels``) on the empty board,
  as 8-bit BGR bytes (N×P×3): a ball is what differs from the cell's own
  empty pixels, so a light square's wood grain is never taken for a ball;
  None on other boards and in models fitted before it was kept.

Comparing a cell with its *own* empty appearance, rather than with one
board colour, is what lets a white stone on a light square or a black stone
on a dark square read correctly. Stone colours are board-wide, because a
stone looks the same wherever it lies. A stone colour never shown during
calibration is not in the model and is never read.

The model is a frozen value, serialisable to plain JSON with
:meth:`ColourModel.to_dict` and :meth:`ColourModel.from_dict`.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from referee.geometry import Geometry
from vision.config import VisionConfig
from vision.errors import ColourModelError
from vision.light import design_matrix, glare_offset, light_gain, neighbour_table, remove_light
from vision.locate import Locator, locate
from vision.measure import CellMeasures, Rectifier, bgr_to_lab

STONES = ("o", "x", "=")
SYMBOLS = (".", *STONES)
LIKE_CELLS = 5
"""Cells shown with a ball colour, those most like a cell's square, whose median is its ball area."""
Lab = tuple[float, float, float]


@dataclass(frozen=True)
class StoneColour:
    """Lab mean and per-channel spread of one stone colour, and how many stones it was fitted from."""

    mean: Lab
    sigma: Lab
    count: int


@dataclass(frozen=True)
class TextureModel:
    """The light-independent texture measures: per-cell empty values (N×T), their spread (T), and per stone
    colour the mean and spread (T each)."""

    empty: tuple[tuple[float, ...], ...]
    spread: tuple[float, ...]
    stones: dict[str, tuple[tuple[float, ...], tuple[float, ...]]]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (numbers rounded to 0.0001)."""
        return {
            "empty": [[round(v, 4) for v in row] for row in self.empty],
            "spread": [round(v, 4) for v in self.spread],
            "stones": {
                s: {"mean": [round(v, 4) for v in mean], "sigma": [round(v, 4) for v in sigma]}
                for s, (mean, sigma) in self.stones.items()
            },
        }

    @classmethod
    def from_dict(cls, value: Any, cells: int) -> TextureModel:
        """The texture model of ``value`` (as made by :meth:`to_dict`); raises ColourModelError."""
        problem = f"colour model: texture must hold empty ({cells} rows of numbers), spread and stones among o x ="
        try:
            empty = tuple(tuple(float(v) for v in row) for row in value["empty"])
            spread = tuple(float(v) for v in value["spread"])
            stones = {
                str(s): (tuple(float(v) for v in c["mean"]), tuple(float(v) for v in c["sigma"]))
                for s, c in dict(value["stones"]).items()
            }
        except (KeyError, TypeError, ValueError):
            raise ColourModelError(problem) from None
        width = len(spread)
        numbers = [v for row in empty for v in row] + list(spread)
        numbers += [v for mean, sigma in stones.values() for v in (*mean, *sigma)]
        if (
            len(empty) != cells
            or width == 0
            or any(len(row) != width for row in empty)
            or any(len(mean) != width or len(sigma) != width for mean, sigma in stones.values())
            or set(stones) - set(STONES)
            or not all(np.isfinite(numbers))
        ):
            raise ColourModelError(problem)
        return cls(empty=empty, spread=spread, stones=stones)


@dataclass(frozen=True)
class ColourModel:
    """Per-cell empty appearance and per-colour stone statistics for one board geometry."""

    geometry: str
    empty: tuple[Lab, ...]
    empty_sigma: Lab
    classes: dict[str, StoneColour]
    background: tuple[Lab, ...]
    ball_area: tuple[tuple[float, ...], ...] | None = None
    corners: tuple[tuple[Lab, ...], ...] | None = None
    texture: TextureModel | None = None
    empty_pixels: bytes | None = None
    border: tuple[Lab, ...] | None = None

    def empty_pixel_colours(self, per_cell: int) -> np.ndarray | None:
        """``empty_pixels`` as an N×P×3 BGR array (0..1), or None without them; raises ColourModelError when
        they were kept for another number of pixels per cell (another ``ball_cell_px`` or ``ball_reach``)."""
        if self.empty_pixels is None:
            return None
        n = len(self.empty)
        if len(self.empty_pixels) != n * per_cell * 3:
            raise ColourModelError(
                "colour model: empty_pixels were kept with other vision settings: calibrate this board again"
            )
        flat = np.frombuffer(self.empty_pixels, dtype=np.uint8).astype(np.float32) * (1.0 / 255.0)
        return flat.reshape(n, per_cell, 3)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (numbers rounded to 0.01 Lab unit)."""
        data: dict[str, Any] = {
            "geometry": self.geometry,
            "empty_sigma": [round(v, 2) for v in self.empty_sigma],
            "classes": {
                s: {"mean": [round(v, 2) for v in c.mean], "sigma": [round(v, 2) for v in c.sigma], "count": c.count}
                for s, c in self.classes.items()
            },
            "empty": [[round(v, 2) for v in lab] for lab in self.empty],
            "background": [[round(v, 4) for v in bgr] for bgr in self.background],
        }
        if self.texture is not None:
            data["texture"] = self.texture.to_dict()
        if self.corners is not None:
            data["corners"] = [[[round(v, 4) for v in bgr] for bgr in cell] for cell in self.corners]
        if self.border is not None:
            data["border"] = [[round(v, 4) for v in bgr] for bgr in self.border]
        if self.ball_area is not None:
            data["ball_area"] = [[round(v, 1) for v in row] for row in self.ball_area]
        if self.empty_pixels is not None:
            data["empty_pixels"] = base64.b64encode(self.empty_pixels).decode("ascii")
        return data

    @classmethod
    def from_dict(cls, data: Any) -> ColourModel:
        """The model described by ``data`` (as made by :meth:`to_dict`); raises ColourModelError."""
        if not isinstance(data, dict):
            raise ColourModelError("the colour model must be an object with geometry, empty, empty_sigma, classes")
        try:
            geometry = data["geometry"]
            empty = tuple(_lab(v, "empty[]") for v in data["empty"])
            empty_sigma = _lab(data["empty_sigma"], "empty_sigma")
            background = tuple(_lab(v, "background[]") for v in data["background"])
            classes = {}
            for symbol, c in dict(data["classes"]).items():
                if symbol not in STONES:
                    raise ColourModelError(f"colour model: classes has '{symbol}', expected one of {' '.join(STONES)}")
                classes[symbol] = StoneColour(
                    mean=_lab(c["mean"], f"classes.{symbol}.mean"),
                    sigma=_lab(c["sigma"], f"classes.{symbol}.sigma"),
                    count=int(c["count"]),
                )
        except KeyError as missing:
            raise ColourModelError(f"colour model: the field {missing} is missing") from None
        except (TypeError, ValueError) as bad:
            if isinstance(bad, ColourModelError):
                raise
            raise ColourModelError(f"colour model: malformed value ({bad})") from None
        ball_area = _ball_area(data.get("ball_area"), len(empty), len(classes))
        texture = None if data.get("texture") is None else TextureModel.from_dict(data["texture"], len(empty))
        empty_pixels = _empty_pixels(data.get("empty_pixels"), len(empty))
        corners = data.get("corners")
        if corners is not None:
            if not isinstance(corners, list) or len(corners) != len(empty):
                raise ColourModelError("colour model: corners must hold one list of patch colours per cell")
            corners = tuple(tuple(_lab(v, "corners[][]") for v in cell) for cell in corners)
            if len({len(cell) for cell in corners}) > 1:
                raise ColourModelError("colour model: corners must hold as many patch colours for every cell")
        border = data.get("border")
        if border is not None:
            if not isinstance(border, list):
                raise ColourModelError("colour model: border must be a list of patch colours")
            border = tuple(_lab(v, "border[]") for v in border)
        if not isinstance(geometry, str):
            raise ColourModelError("colour model: geometry must be a spec string like diamond:8")
        if len(background) != len(empty):
            raise ColourModelError("colour model: empty and background must have one entry per cell")
        return cls(
            geometry=geometry,
            empty=empty,
            empty_sigma=empty_sigma,
            classes=classes,
            background=background,
            ball_area=ball_area,
            corners=corners,
            texture=texture,
            empty_pixels=empty_pixels,
            border=border,
        )

    def check_fits(self, geometry: Geometry) -> None:
        """Raise ColourModelError unless this model was fitted for ``geometry``."""
        if self.geometry != geometry.spec or len(self.empty) != len(geometry.cells):
            raise ColourModelError(
                f"the colour model is for {self.geometry} ({len(self.empty)} cells), not {geometry.spec}: "
                "calibrate again for this board"
            )


def _empty_pixels(value: Any, cells: int) -> bytes | None:
    if value is None:
        return None
    try:
        raw = base64.b64decode(value, validate=True)
    except (TypeError, ValueError):
        raise ColourModelError("colour model: empty_pixels must be base64 text") from None
    if not raw or len(raw) % (3 * cells):
        raise ColourModelError(f"colour model: empty_pixels must hold 3 bytes per pixel for each of the {cells} cells")
    return raw


def _ball_area(value: Any, cells: int, colours: int) -> tuple[tuple[float, ...], ...] | None:
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) != cells
        or not all(isinstance(row, list) and len(row) == colours for row in value)
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for row in value for v in row)
    ):
        raise ColourModelError(
            f"colour model: ball_area must hold, for each of the {cells} cells, {colours} positive pixel counts"
        )
    return tuple(tuple(float(v) for v in row) for row in value)


def _lab(value: Any, name: str) -> Lab:
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise ColourModelError(f"colour model: {name} must be a list of three numbers (L, a, b)")
    out = tuple(float(v) for v in value)
    if not all(np.isfinite(out)):
        raise ColourModelError(f"colour model: {name} must hold finite numbers")
    return out  # type: ignore[return-value]


Known = tuple[np.ndarray, Sequence[str]]


def fit_colour_model(
    geometry: Geometry,
    locator: Locator,
    empty_image: np.ndarray,
    known: Sequence[Known] = (),
    config: VisionConfig | None = None,
) -> ColourModel:
    """Fit a colour model from an image of the empty board and images with a known layout.

    ``known`` holds (image, symbols) pairs, the symbols one per cell in
    ``geometry.cells`` order (``.``, ``o``, ``x``, ``=``; ``?`` cells are
    ignored). Raises ColourModelError when the inputs do not fit the board.
    """
    config = config or VisionConfig()
    rectifier = Rectifier(geometry, config)
    empty_measures = rectifier.measure(empty_image, locate(empty_image, geometry, locator, config=config).homography)
    reference = empty_measures.background
    empty_lab = bgr_to_lab(empty_measures.disk)
    design = design_matrix(np.array(geometry.centres))
    neighbours = neighbour_table(geometry.neighbours_ix)
    n = len(geometry.cells)
    samples: dict[str, list[np.ndarray]] = {s: [] for s in SYMBOLS}
    empty_sum = empty_lab.astype(np.float64).copy()
    empty_count = np.ones(n)
    residuals: list[np.ndarray] = []
    texture_of_empty = empty_measures.texture
    texture_sum = None if texture_of_empty is None else texture_of_empty.astype(np.float64).copy()
    texture_residuals: list[np.ndarray] = []
    textures: dict[str, list[np.ndarray]] = {s: [] for s in STONES}
    seen: list[tuple[CellMeasures, Sequence[str]]] = []
    for k, (image, symbols) in enumerate(known):
        if len(symbols) != n:
            raise ColourModelError(f"known layout {k + 1} has {len(symbols)} cells, the {geometry.spec} board has {n}")
        measures = rectifier.measure(image, locate(image, geometry, locator, config=config).homography)
        lab = normalised_lab(measures, reference, design, config, neighbours)
        seen.append((measures, symbols))
        for i, s in enumerate(symbols):
            if s == "?":
                continue
            if s not in SYMBOLS:
                raise ColourModelError(f"known layout {k + 1}: '{s}' is not a cell symbol (. o x =)")
            if s == ".":
                residuals.append(lab[i] - empty_lab[i])
                empty_sum[i] += lab[i]
                empty_count[i] += 1
            else:
                samples[s].append(lab[i])
            if texture_sum is not None and texture_of_empty is not None and measures.texture is not None:
                if s == ".":
                    texture_residuals.append(measures.texture[i] - texture_of_empty[i])
                    texture_sum[i] += measures.texture[i]
                else:
                    textures[s].append(measures.texture[i])
    if residuals:
        res = np.array(residuals)
        empty_sigma = np.sqrt(np.mean(res**2, axis=0))
    else:
        empty_sigma = np.zeros(3)
    classes = {}
    for s in STONES:
        if samples[s]:
            arr = np.array(samples[s], dtype=np.float64)
            classes[s] = StoneColour(
                mean=tuple(float(v) for v in arr.mean(axis=0)),  # type: ignore[arg-type]
                sigma=tuple(float(v) for v in arr.std(axis=0)),  # type: ignore[arg-type]
                count=len(arr),
            )
    empty = empty_sum / empty_count[:, None]
    model = ColourModel(
        geometry=geometry.spec,
        empty=tuple(tuple(float(v) for v in row) for row in empty),  # type: ignore[misc]
        empty_sigma=tuple(float(v) for v in empty_sigma),  # type: ignore[arg-type]
        classes=classes,
        background=tuple(tuple(float(v) for v in row) for row in reference),  # type: ignore[misc]
        corners=None
        if empty_measures.corners is None
        else tuple(tuple(tuple(float(v) for v in bgr) for bgr in cell) for cell in empty_measures.corners),  # type: ignore[misc]
        border=None
        if empty_measures.border is None
        else tuple(tuple(float(v) for v in bgr) for bgr in empty_measures.border),  # type: ignore[misc]
    )
    if texture_sum is not None:
        width = texture_sum.shape[1]
        spread = np.sqrt(np.mean(np.square(texture_residuals), axis=0)) if texture_residuals else np.zeros(width)
        model = replace(
            model,
            texture=TextureModel(
                empty=tuple(tuple(float(v) for v in row) for row in texture_sum / empty_count[:, None]),
                spread=tuple(float(v) for v in spread),
                stones={
                    s: (tuple(float(v) for v in np.mean(v, axis=0)), tuple(float(v) for v in np.std(v, axis=0)))
                    for s, v in textures.items()
                    if v
                },
            ),
        )
    if empty_measures.pixels is not None:
        pixels = np.clip(np.rint(empty_measures.pixels * 255.0), 0, 255).astype(np.uint8)
        model = replace(model, empty_pixels=pixels.tobytes())
    if geometry.kind == "grid" and classes:
        model = replace(model, ball_area=_fit_ball_area(model, seen, design, neighbours, config))
    return model


def _fit_ball_area(
    model: ColourModel,
    seen: Sequence[tuple[CellMeasures, Sequence[str]]],
    design: np.ndarray,
    neighbours: np.ndarray,
    config: VisionConfig,
) -> tuple[tuple[float, ...], ...]:
    """Ball pixels of one Kaskade ball per cell and colour, from the calibration photos (one ball per stone).

    Each cell takes the median over the ``LIKE_CELLS`` cells shown with the
    colour whose empty colour is nearest its own (itself first, when shown):
    one photo's ball is a noisy measure, and the count multiplies its error,
    but how much of a ball shows depends on the square under it (a black
    ball on a dark square changes only its sheen and rim), so light and dark
    squares are not mixed. A cell never shown with a colour gets its area so.
    """
    from vision.balls import EmptyPixels, ball_pixels
    from vision.classify import Classifier

    classifier = Classifier(model, config)
    colours = list(model.classes)
    n = len(model.empty)
    areas: list[list[list[float]]] = [[[] for _ in colours] for _ in range(n)]
    per_cell = next((m.pixels.shape[1] for m, _ in seen if m.pixels is not None), 0)
    empty = EmptyPixels.of(model, per_cell) if per_cell else None
    for measures, symbols in seen:
        if measures.pixels is None:
            continue
        gain, glare = light_correction(measures, classifier.reference, design, config, neighbours)
        total = ball_pixels(measures.pixels, gain, glare, classifier, config, empty).votes.sum(axis=1)
        for i, s in enumerate(symbols):
            if s in model.classes:
                areas[i][colours.index(s)].append(float(total[i]))
    table = np.full((n, len(colours)), np.nan)
    for i in range(n):
        for k in range(len(colours)):
            if areas[i][k]:
                table[i, k] = np.median(areas[i][k])
    empty_lab = np.array(model.empty)
    for k in range(len(colours)):
        own = table[:, k].copy()
        shown = np.flatnonzero(np.isfinite(own))
        if shown.size == 0:
            table[:, k] = 1.0
            continue
        for cell in range(n):
            distance = np.linalg.norm(empty_lab[shown] - empty_lab[cell], axis=1)
            table[cell, k] = np.median(own[shown[np.argsort(distance, kind="stable")[:LIKE_CELLS]]])
    floor = config.ball_min_area
    return tuple(tuple(max(float(v), floor) for v in row) for row in table)


def normalised_lab(
    measures: CellMeasures,
    reference: np.ndarray,
    design: np.ndarray,
    config: VisionConfig,
    neighbours: np.ndarray | None = None,
) -> np.ndarray:
    """Each cell's disk colour in Lab, brought back to the calibration light when ``config.normalise_light``.

    ``neighbours`` (see :func:`vision.light.neighbour_table`) steadies the
    glare estimate; without it each cell's glare comes from its own corners.
    """
    gain, glare = light_correction(measures, reference, design, config, neighbours)
    return bgr_to_lab(remove_light(measures.disk, gain, glare))


def light_correction(
    measures: CellMeasures,
    reference: np.ndarray,
    design: np.ndarray,
    config: VisionConfig,
    neighbours: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """This frame's light at each cell: gain (N×3) and added glare (N), from the cells' backgrounds.

    Gain 1 and no glare when ``config.normalise_light`` is off.
    """
    n = len(measures.background)
    if not config.normalise_light:
        return np.ones((n, 3), dtype=np.float32), np.zeros(n, dtype=np.float32)
    gain = light_gain(measures.background, reference, design, config.light_tolerance)
    glare = glare_offset(measures.background, reference, gain, neighbours, config.glare_floor)
    return gain, glare
