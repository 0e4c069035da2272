"""A lamp's spot that drives the board to the camera's full scale washes its lines out: its points are bare."""

from __future__ import annotations

import numpy as np

from vision.locate import MarkerLocator
from vision.pipeline import BoardReader
from vision.synth import Renderer, fit_scene, make_scene, preset


def test_bare_points_in_a_spot_that_clips_the_board_read_bare() -> None:
    """The synthetic bench's scene 10 (`points:9x9`, hard): a pale board under a lamp's spot bright enough that
    the camera clips the board there, while the lines stay below the clip and nearly vanish. Their points once
    read as white stones, four at a time in two of twelve layouts; each layout is read by a fresh reader, as a
    first frame is."""
    renderer = Renderer(make_scene("points:9x9", 10, preset("hard"), (1280, 720)))
    geometry = renderer.geometry
    model = fit_scene(renderer)
    wrong = []
    for seed in range(12):
        reader = BoardReader(geometry, MarkerLocator.default(geometry), model)
        rng = np.random.default_rng(seed)
        symbols = tuple(
            str(rng.choice(("o", "x", "="))) if rng.random() < 0.4 else "." for _ in renderer.geometry.cells
        )
        reading = reader.read(renderer.render(symbols, None, seed=seed, random_hand=False).image)
        assert not reading.occluded
        wrong += [(seed, i, s, r) for i, (s, r) in enumerate(zip(symbols, reading.symbols, strict=True)) if s != r]
    assert not wrong, wrong
