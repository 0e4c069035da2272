"""The synthetic camera: board positions rendered as a webcam would see them, with their ground truth.

Product code, used by the tests, the ``synth:`` frame source, the demo and
``cascade bench vision``. Any geometry is drawn (checkerboards in several
colour schemes, hex cells, Go-style lines, Kaskade grids with balls) with
stones that have height, shading, highlights and shadows, under a random
camera pose with lens distortion, an uneven and tinted light, glare, sensor
noise, motion blur, JPEG compression, off-centre stones and hands entering the
picture. Everything is deterministic by seed.

Public API:

- :class:`SynthConditions` and the presets in :data:`PRESETS` (``clean``,
  ``typical``, ``pale-board``, ``warm-light``, ``glare``, ``hands``, ``hard``).
- :func:`render_frame` (geometry, symbols, seed, conditions, size) ->
  :class:`SynthFrame` (image, symbols, counts, corners_px, homography,
  occluded, hand_visible, pose, markers_px).
- :func:`make_scene` and :class:`Renderer`: one camera set-up, many frames
  (cached board and lens).
- :func:`render_game` (geometry, positions, seed, ...) -> frames of a
  scripted game: hands come in, place stones, leave (sometimes linger), with
  the truth per frame (:class:`GameFrame`); :func:`scripted_game` makes a
  plausible sequence of positions for any board.
- :func:`fit_scene` and :func:`scene_reader`: calibrate the pipeline on a
  scene from rendered pictures of the empty board and known layouts.
"""

from vision.synth.conditions import (
    CLEAN,
    GLARE,
    HANDS,
    HARD,
    PALE_BOARD,
    PRESETS,
    TYPICAL,
    WARM_LIGHT,
    SynthConditions,
    SynthError,
    preset,
)
from vision.synth.fit import fit_scene, scene_reader
from vision.synth.game import GameFrame, render_game, scripted_game
from vision.synth.render import Renderer, Scene, SynthFrame, make_scene, render_frame

__all__ = [
    "CLEAN",
    "GLARE",
    "HANDS",
    "HARD",
    "PALE_BOARD",
    "PRESETS",
    "TYPICAL",
    "WARM_LIGHT",
    "GameFrame",
    "Renderer",
    "Scene",
    "SynthConditions",
    "SynthError",
    "SynthFrame",
    "fit_scene",
    "make_scene",
    "preset",
    "render_frame",
    "render_game",
    "scene_reader",
    "scripted_game",
]
