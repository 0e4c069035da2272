"""What can be wrong with a frame of the guided calibration, in plain words, each with its fix.

Every check is a function of what the frame showed (the picture, the
colours of its cells, a reading) and returns :class:`Problem` values for
:mod:`calibration.guided` to show. Colours are the reader's log colours
(see :mod:`vision.board_image`); distances between them are taken in Lab
(:func:`calibration.cellview.lab`), where one threshold means about the same
on dark and light cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.cellview import disk_means, lab
from referee.geometry import Geometry
from vision.board_image import BoardView
from vision.locate import MarkerLocator

COLOUR_WORDS = {"o": "white", "x": "black", "=": "red", ".": "empty"}
MARKER_PLACES = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}


@dataclass(frozen=True)
class Problem:
    """What is wrong with the picture, in plain words, and how to fix it; ``cells`` it concerns (indices)."""

    what: str
    fix: str
    cells: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"{self.what}: {self.fix}"


def exposure(image: np.ndarray, dark_level: float, bright_level: float) -> list[Problem]:
    """A picture too dark (median grey below ``dark_level``) or too bright (a share above ``bright_level`` of
    its pixels blown out)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if float(np.median(grey)) < dark_level:
        return [Problem("the picture is too dark", "turn on a light over the board or raise the camera's exposure")]
    if float((grey >= 250).mean()) > bright_level:
        return [Problem("the picture is too bright", "lower the camera's exposure or move the lamp away")]
    return []


def markers_hidden(locator: MarkerLocator, seen: Sequence[int]) -> list[Problem]:
    """The markers of ``locator`` not among those ``seen``, named by their place."""
    missing = [m.id for m in locator.markers if m.id not in seen]
    if not missing:
        return []
    places = ", ".join(f"{i} ({MARKER_PLACES.get(i, 'extra')})" for i in missing)
    which = "marker" if len(missing) == 1 else "markers"
    return [
        Problem(
            f"{which} {places} not visible",
            "move the camera or the board so that all four markers are in view, flat and not covered",
        )
    ]


def glare(view: BoardView, flat: np.ndarray, share: float) -> list[Problem]:
    """Cells whose middle is blown out (a share above ``share`` of its pixels) on the flat board ``flat``."""
    geometry = view.geometry
    blown = (flat.max(axis=2) >= 250).astype(np.float32)
    covered = disk_means(view, blown, np.array(geometry.centres, dtype=np.float64))
    cells = tuple(int(i) for i in np.flatnonzero(covered > share))
    if not cells:
        return []
    where = names(geometry, cells)
    return [Problem(f"glare on {where}", "move the lamp or tilt the camera so its reflection leaves the board", cells)]


def unlike_their_surface(view: BoardView, features: np.ndarray, stray_lab: float) -> set[int]:
    """Cells whose centre differs from their own surface near their corners by ``stray_lab`` (Lab) and four
    spreads more than the other cells' do: a stone on an empty board, found without any model."""
    geometry = view.geometry
    centres = np.array(geometry.centres, dtype=np.float64)
    corners = np.array([geometry.polygon(cell) for cell in geometry.cells], dtype=np.float64)
    near = centres[:, None, :] + 0.85 * (corners - centres[:, None, :])
    surface = lab(np.median(view.sample(features, near)[..., :3], axis=1))
    gap = np.sqrt(((lab(view.sample(features, centres)[:, :3]) - surface) ** 2).sum(axis=1))
    middle = float(np.median(gap))
    spread = 1.4826 * float(np.median(np.abs(gap - middle)))
    return {int(i) for i in np.flatnonzero(gap > middle + max(stray_lab, 4.0 * spread))}


def stray_stones(geometry: Geometry, cells: Sequence[int]) -> list[Problem]:
    """Stones left on the board that should be empty."""
    if not cells:
        return []
    return [Problem(f"a stone lies on {names(geometry, cells)}", "clear the board: take every stone off", tuple(cells))]


def changed(empty: np.ndarray, colour: np.ndarray, still: np.ndarray) -> np.ndarray:
    """How much each cell's colour (N×3 log colour) changed from the empty board's (Lab distance), the change
    of light taken out: the median change of the ``still`` cells (those that should not have changed), a shift
    in log colour."""
    change = colour - empty
    if still.any():
        change = change - np.median(change[still], axis=0)
    return np.sqrt(((lab(empty + change) - lab(empty)) ** 2).sum(axis=1))


def placing(geometry: Geometry, stones: Sequence[str], wanted: dict[int, str], placed: np.ndarray) -> list[Problem]:
    """Cells asked for a stone (``wanted``) where none is ``placed``, by colour, and cells not asked where
    something is."""
    problems = []
    missing = tuple(i for i in wanted if not placed[i])
    for symbol in stones:
        cells = tuple(i for i in missing if wanted[i] == symbol)
        if cells:
            problems.append(
                Problem(
                    f"no stone found on {names(geometry, cells)}",
                    f"put a {COLOUR_WORDS[symbol]} stone there, in the middle of the cell",
                    cells,
                )
            )
    stray = tuple(int(i) for i in np.flatnonzero(placed) if int(i) not in wanted)
    if stray:
        problems.append(
            Problem(
                f"something lies on {names(geometry, stray)}, which should stay empty",
                "take it away (and keep hands off the board)",
                stray,
            )
        )
    return problems


def wrong_colours(
    geometry: Geometry, stones: Sequence[str], wanted: dict[int, str], symbols: Sequence[str]
) -> list[Problem]:
    """Asked cells read (``symbols``) as another stone colour in play."""
    problems = []
    for i, symbol in wanted.items():
        read = symbols[i]
        if read != symbol and read in stones:
            name = geometry.cells[i].name
            problems.append(
                Problem(
                    f"the stone on {name} looks {COLOUR_WORDS[read]}, not {COLOUR_WORDS[symbol]}",
                    f"put a {COLOUR_WORDS[symbol]} stone on {name}",
                    (i,),
                )
            )
    return problems


def misread(geometry: Geometry, wanted: dict[int, str], symbols: Sequence[str]) -> list[Problem]:
    """Cells read back (``symbols``) otherwise than the layout asked for (``wanted``, empty elsewhere)."""
    problems = []
    for i, symbol in enumerate(symbols):
        expected = wanted.get(i, ".")
        if symbol != expected:
            name = geometry.cells[i].name
            got = "cannot be read" if symbol == "?" else f"reads {COLOUR_WORDS[symbol]}"
            fix = (
                "take away what lies there; if nothing does, something lay there when the empty board was "
                "captured: capture it again"
                if expected == "."
                else "make the light even (no strong shadow or reflection on it) and check the stone sits "
                "in the middle of the cell"
            )
            problems.append(Problem(f"cell {name} {got}, expected {COLOUR_WORDS[expected]}", fix, (i,)))
    return problems


def names(geometry: Geometry, cells: Sequence[int]) -> str:
    """The cells named for a sentence: "cell d4", "cells d4 and e5", "cells ... and 3 more"."""
    found = [geometry.cells[i].name for i in cells]
    if len(found) == 1:
        return f"cell {found[0]}"
    if len(found) > 6:
        return "cells " + ", ".join(found[:6]) + f" and {len(found) - 6} more"
    return "cells " + ", ".join(found[:-1]) + " and " + found[-1]
