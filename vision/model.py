"""What calibration learns about one board and its pieces: the :class:`BoardModel`.

A cell is seen as a vector of *features* (:meth:`vision.board_image.BoardView.features`):
its colour in the reader's log space, in the light of calibration, then its
texture. In it:

- ``height``: how far above the board (board units) the reader looks for a
  piece, learned from the calibration photos: the height at which the
  known pieces look most like themselves and least like the board (see
  :mod:`vision.learn`). The camera's pose turns it into a board point per
  cell (:mod:`vision.pose`).
- ``empty``: each cell's own empty look, seen there or, for a cell never
  seen empty, learned from the cells like it (``empty_seen``).
- ``empty_spread``: how much an empty cell's look varies (covariance);
  ``like_spread`` how much a cell differs from the cells like it, added for
  a cell never seen empty.
- ``stones``: for each stone colour shown during calibration, its mean and
  covariance (a stone looks the same wherever it lies).
- ``border``: the colours of a ring of patches around the board, where an
  arm reaching in crosses (see :mod:`vision.cover`), or None; a patch that
  calibration never saw free (beside an empty cell) is None.
- ``empty_around``: on Kaskade boards, each cell's bare look at every point
  a ball is looked for (see :mod:`vision.balls`); None on other boards.
- ``ball_looks``: on Kaskade boards, each ball colour's look on each
  colour of square (:func:`like_groups`), where calibration showed enough
  balls of it there; None on other boards. A ball is small: the square
  shows all round it, and its outline is as sharp as the square is unlike
  it (a black ball on a dark square shows hardly any).
- ``lens``: how the camera's lens bends the board's lines (see
  :mod:`vision.lens`), fitted to them at calibration; straight when the
  photos showed too few of them.

A stone colour never shown during calibration is not in the model and is
never read. The model is a frozen value, stored as plain JSON in the
profile (:meth:`BoardModel.to_dict`, :meth:`BoardModel.from_dict`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from referee.geometry import Geometry, Layout
from vision.board_image import feature_count
from vision.errors import ColourModelError
from vision.lens import STRAIGHT, Lens

STONES = ("o", "x", "=")
SYMBOLS = (".", *STONES)
Vector = tuple[float, ...]
Matrix = tuple[Vector, ...]


@dataclass(frozen=True)
class StoneLook:
    """One stone colour: mean features, their covariance, and how many stones it was learned from."""

    mean: Vector
    spread: Matrix
    count: int


@dataclass(frozen=True)
class BoardModel:
    """The calibrated look of one board and its stones (see the module docstring)."""

    geometry: str
    height: float
    empty: tuple[Vector, ...]
    empty_seen: tuple[bool, ...]
    empty_spread: Matrix
    like_spread: Matrix
    stones: dict[str, StoneLook]
    border: tuple[Vector | None, ...] | None = None
    empty_around: tuple[tuple[Vector, ...], ...] | None = None
    lens: Lens = STRAIGHT
    ball_looks: tuple[dict[str, StoneLook], ...] | None = None

    @property
    def features(self) -> int:
        """How many features a cell is seen with."""
        return len(self.empty[0]) if self.empty else 0

    @property
    def classes(self) -> dict[str, StoneLook]:
        """The stone colours of the model, by symbol (the ones the reader can read)."""
        return self.stones

    def check_fits(self, geometry: Geometry) -> None:
        """Raise ColourModelError unless this model was learned for ``geometry``."""
        if self.geometry != geometry.spec or len(self.empty) != len(geometry.cells):
            raise ColourModelError(
                f"the colour model is for {self.geometry} ({len(self.empty)} cells), not {geometry.spec}: "
                "calibrate again for this board"
            )
        if self.features != feature_count(geometry):
            raise ColourModelError(
                f"the colour model sees each cell with {self.features} features, this reader with "
                f"{feature_count(geometry)}: it was calibrated by an earlier version; calibrate again"
            )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (colours rounded to 0.0001)."""
        data: dict[str, Any] = {
            "kind": "board-look",
            "geometry": self.geometry,
            "height": round(self.height, 4),
            "empty": [[round(v, 4) for v in c] for c in self.empty],
            "empty_seen": [int(s) for s in self.empty_seen],
            "empty_spread": _matrix_out(self.empty_spread),
            "like_spread": _matrix_out(self.like_spread),
            "stones": {s: _look_out(look) for s, look in self.stones.items()},
        }
        if self.border is not None:
            data["border"] = [None if c is None else [round(v, 4) for v in c] for c in self.border]
        if self.empty_around is not None:
            data["empty_around"] = [[[round(v, 3) for v in c] for c in cell] for cell in self.empty_around]
        if not self.lens.straight:
            data["lens"] = self.lens.to_dict()
        if self.ball_looks is not None:
            data["ball_looks"] = [{s: _look_out(look) for s, look in looks.items()} for looks in self.ball_looks]
        return data

    @classmethod
    def from_dict(cls, data: Any) -> BoardModel:
        """The model described by ``data`` (as made by :meth:`to_dict`); raises ColourModelError naming the
        field that is wrong."""
        if not isinstance(data, dict) or data.get("kind") != "board-look":
            raise ColourModelError("the colour model is of an older kind: calibrate this board again")
        try:
            geometry = data["geometry"]
            if not isinstance(geometry, str):
                raise ColourModelError("colour model: geometry must be a spec string like diamond:8")
            height = _number(data["height"], "height")
            if not 0.0 <= height <= 5.0:
                raise ColourModelError("colour model: height must lie between 0 and 5 board units")
            empty = tuple(_vector(v, "empty[]") for v in _list(data["empty"], "empty"))
            width = len(empty[0]) if empty else 0
            if width < 3 or any(len(v) != width for v in empty):
                raise ColourModelError("colour model: every cell's empty look must hold the same features, 3 or more")
            seen = _list(data["empty_seen"], "empty_seen")
            if len(seen) != len(empty) or not all(v in (0, 1, True, False) for v in seen):
                raise ColourModelError("colour model: empty_seen must hold 0 or 1 for each cell")
            stones = _looks_in(data["stones"], "stones", width)
            ball_looks = data.get("ball_looks")
            if ball_looks is not None:
                ball_looks = tuple(
                    _looks_in(looks, f"ball_looks[{k}]", width)
                    for k, looks in enumerate(_list(ball_looks, "ball_looks"))
                )
            border = data.get("border")
            if border is not None:
                border = tuple(None if v is None else _vector(v, "border[]", 3) for v in _list(border, "border"))
            around = data.get("empty_around")
            if around is not None:
                around = tuple(
                    tuple(_vector(v, "empty_around[][]", width) for v in _list(cell, "empty_around[]"))
                    for cell in _list(around, "empty_around")
                )
                if len(around) != len(empty) or len({len(cell) for cell in around}) != 1:
                    raise ColourModelError("colour model: empty_around must hold as many looks for every cell")
            return cls(
                geometry=geometry,
                height=height,
                empty=empty,
                empty_seen=tuple(bool(v) for v in seen),
                empty_spread=_matrix(data["empty_spread"], "empty_spread", width),
                like_spread=_matrix(data["like_spread"], "like_spread", width, definite=False),
                stones=stones,
                border=border,
                empty_around=around,
                lens=Lens() if data.get("lens") is None else Lens.from_dict(data["lens"]),
                ball_looks=ball_looks,
            )
        except KeyError as missing:
            raise ColourModelError(f"colour model: the field {missing} is missing") from None
        except (TypeError, ValueError, AttributeError) as bad:
            if isinstance(bad, ColourModelError):
                raise
            raise ColourModelError(f"colour model: malformed value ({bad})") from None


def like_groups(geometry: Geometry) -> np.ndarray:
    """Which cells are alike when empty (N ints): the two square colours of a checkerboard, one group otherwise."""
    if geometry.layout is not Layout.SQUARE:
        return np.zeros(len(geometry.cells), dtype=np.intp)
    centres = np.floor(np.array(geometry.centres)).astype(np.intp)
    return (centres[:, 0] + centres[:, 1]) % 2


def _look_out(look: StoneLook) -> dict[str, Any]:
    """A stone look as JSON-ready data."""
    return {"mean": [round(v, 4) for v in look.mean], "spread": _matrix_out(look.spread), "count": look.count}


def _looks_in(data: Any, name: str, width: int) -> dict[str, StoneLook]:
    """The stone looks (by symbol) described by ``data``; raises ColourModelError naming the field that is wrong."""
    if not isinstance(data, dict):
        raise ColourModelError(f"colour model: {name} must map stone symbols to looks")
    looks = {}
    for symbol, look in data.items():
        if symbol not in STONES:
            raise ColourModelError(f"colour model: {name} has '{symbol}', expected one of {' '.join(STONES)}")
        count = look["count"]
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ColourModelError(f"colour model: {name}.{symbol}.count must be a whole number of stones")
        looks[symbol] = StoneLook(
            mean=_vector(look["mean"], f"{name}.{symbol}.mean", width),
            spread=_matrix(look["spread"], f"{name}.{symbol}.spread", width),
            count=count,
        )
    return looks


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ColourModelError(f"colour model: {name} must be a list")
    return value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ColourModelError(f"colour model: {name} must be a finite number")
    return float(value)


def _vector(value: Any, name: str, width: int | None = None) -> Vector:
    if not isinstance(value, (list, tuple)) or not value or len(value) > 64 or (width and len(value) != width):
        shape = f"{width} numbers" if width else "numbers"
        raise ColourModelError(f"colour model: {name} must be a list of {shape}")
    out = tuple(_number(v, name) for v in value)
    if max(abs(v) for v in out) > 100.0:
        raise ColourModelError(f"colour model: {name} holds a number out of range")
    return out


def _matrix(value: Any, name: str, width: int, definite: bool = True) -> Matrix:
    if not isinstance(value, (list, tuple)) or len(value) != width:
        raise ColourModelError(f"colour model: {name} must be {width} rows of {width} numbers")
    rows = tuple(_vector(r, name, width) for r in value)
    m = np.array(rows)
    values = np.linalg.eigvalsh((m + m.T) / 2.0)
    least = values.min()
    # stored to 8 decimals: a spread that is zero along some direction may come back a hair below it
    if not np.allclose(m, m.T, atol=1e-5) or least < -max(1e-6 * values.max(), 1e-7) or (definite and least <= 0.0):
        kind = "definite" if definite else "semidefinite"
        raise ColourModelError(f"colour model: {name} must be a symmetric positive {kind} matrix")
    return rows


def _matrix_out(m: Matrix) -> list[list[float]]:
    return [[round(v, 8) for v in row] for row in m]


def as_vector(values: np.ndarray) -> Vector:
    """An array of numbers as a model vector (a tuple)."""
    return tuple(float(v) for v in np.asarray(values, dtype=np.float64).ravel())


def as_matrix(m: np.ndarray) -> Matrix:
    """A square array as a model matrix (tuples), made exactly symmetric."""
    a = np.asarray(m, dtype=np.float64)
    return tuple(as_vector(row) for row in (a + a.T) / 2.0)
