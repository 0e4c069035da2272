"""A light tilted far across the board may be a lamp's reflection taken for light: the bare board shows it, the
stones do not, so a stone's lightness is held more loosely where the fitted light lies far from the board's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.classify import Classifier
from vision.colour_model import ColourModel, StoneColour, TextureModel
from vision.light import light_doubt
from vision.measure import bgr_to_lab, lab_to_bgr
from vision.synth import Renderer, make_scene, preset, scene_reader

GAINS = arrays(np.float32, (12, 3), elements=st.floats(0.25, 3.0, width=32))


@settings(max_examples=60, deadline=None)
@given(gain=GAINS, scale=st.floats(0.3, 3.0), free=st.floats(0.0, 0.3))
def test_the_doubt_is_the_same_in_any_overall_light_and_never_negative(
    gain: np.ndarray, scale: float, free: float
) -> None:
    doubt = light_doubt(gain, free)
    assert doubt.shape == (12,)
    assert (doubt >= 0).all()
    assert np.allclose(light_doubt(gain * np.float32(scale), free), doubt, atol=1e-4)


def test_an_evenly_lit_board_leaves_no_doubt_and_a_steep_tilt_leaves_it_at_its_ends() -> None:
    even = np.full((9, 3), 0.8, np.float32)
    assert not light_doubt(even, 0.1).any()
    tilt = np.repeat(np.linspace(0.6, 1.5, 9, dtype=np.float32)[:, None], 3, axis=1)
    doubt = light_doubt(tilt, 0.1)
    middle = np.log(np.median(tilt[:, 0]))
    assert doubt[4] == 0.0
    assert doubt[-1] == pytest.approx(np.log(1.5) - middle - 0.1, abs=1e-5)
    assert doubt[0] == pytest.approx(middle - np.log(0.6) - 0.1, abs=1e-5)


# a board of light grey cells whose lightness varies from cell to cell, white stones brighter still: only
# their shaded rims around smooth tops tell them from bare cells when they read darker than they are
BOARD = (72.0, -1.3, 6.0)
WHITE_TEXTURE = (0.87, 0.44, 0.83)
BLACK_TEXTURE = (3.06, 2.37, 0.41)


def model() -> ColourModel:
    return ColourModel(
        geometry="grid:3x3",
        empty=(BOARD,) * 9,
        empty_sigma=(8.4, 1.0, 1.0),
        classes={
            "o": StoneColour((90.4, -2.7, 3.1), (2.0, 1.0, 1.0), 4),
            "x": StoneColour((21.9, 0.8, 2.0), (2.0, 1.0, 1.0), 4),
        },
        background=((0.4, 0.42, 0.43),) * 9,
        texture=TextureModel(
            empty=((0.17, 0.11, 0.93),) * 9,
            spread=(0.05, 0.03, 0.09),
            stones={"o": (WHITE_TEXTURE, (0.09, 0.06, 0.08)), "x": (BLACK_TEXTURE, (0.42, 0.24, 0.04))},
        ),
    )


def _darker(lab: np.ndarray, ratio: float) -> np.ndarray:
    """``lab`` (a Lab colour) seen under ``ratio`` times less light than the model thinks."""
    return bgr_to_lab(lab_to_bgr(np.asarray(lab, np.float32)[None]) / np.float32(ratio))[0]


@pytest.mark.parametrize("ratio", [1.5, 2.0, 3.0])
def test_a_white_stone_the_light_model_overlit_reads_white_where_the_light_is_in_doubt(ratio: float) -> None:
    """A white stone on a light board, its shaded rim around a smooth top, reads as much darker as the light
    taken for the board's is brighter than the stone's. Where the cell's light is in doubt by that log ratio,
    the stone reads white; held to its calibrated lightness, it reads as bare board."""
    classifier = Classifier(model())
    lab = np.tile(_darker(classifier.means[0], ratio), (9, 1))
    texture = np.tile(np.array(WHITE_TEXTURE, np.float32), (9, 1))
    assert set(classifier.classify(lab, texture).symbols) == {"."}, "the colour alone no longer decides"
    doubt = np.full(9, np.log(ratio), np.float32)
    assert set(classifier.classify(lab, texture, light_doubt=doubt).symbols) == {"o"}


@settings(max_examples=40, deadline=None)
@given(doubt=st.floats(0.0, 1.2), ratio=st.floats(0.5, 2.0))
def test_doubt_about_the_light_never_turns_a_black_stone_white_or_a_white_one_black(doubt: float, ratio: float) -> None:
    """The doubt widens every stone's lightness alike: the ordering of black and white stays."""
    classifier = Classifier(model())
    white, black = classifier.means[0], classifier.means[1]
    lab = np.array([_darker(white, ratio)] * 5 + [_darker(black, ratio)] * 4, np.float32)
    texture = np.array([WHITE_TEXTURE] * 5 + [BLACK_TEXTURE] * 4, np.float32)
    symbols = classifier.classify(lab, texture, light_doubt=np.full(9, doubt, np.float32)).symbols
    assert "x" not in symbols[:5]
    assert "o" not in symbols[5:]


def test_no_doubt_reads_as_without_it() -> None:
    classifier = Classifier(model())
    rng = np.random.default_rng(5)
    lab = rng.uniform([10, -10, -10], [95, 10, 10], (9, 3)).astype(np.float32)
    texture = rng.uniform(0.1, 1.0, (9, 3)).astype(np.float32)
    plain = classifier.classify(lab, texture)
    none = classifier.classify(lab, texture, light_doubt=np.zeros(9, np.float32))
    assert plain.symbols == none.symbols
    assert np.allclose(plain.confidence, none.confidence)


@pytest.mark.parametrize(
    ("spec", "condition", "scene", "seed", "position"),
    [
        ("hexagon:4,4", "hard", 5, 6, ".x.xxxx..xoo=xx==oxx=.ox.=o..oo.=oo=."),
        ("hex-diamond:6", "glare", 13, 1, ".=xoxo.xo.x.=o..=x.==x..=o.xoxo.=xoo"),
    ],
)
def test_white_stones_in_a_lamps_reflection_the_light_model_took_for_light_read_white(
    spec: str, condition: str, scene: int, seed: int, position: str
) -> None:
    """The bench's frames where a lamp's reflection over a crowded board tilted the fitted light across it
    (more than twice as bright at one end as at the other), so that white stones there read darker than bare
    board: they read white."""
    renderer = Renderer(make_scene(spec, scene, preset(condition), (1280, 720)))
    reader = scene_reader(renderer)
    reading = reader.read(renderer.render(tuple(position), seed=seed).image)
    assert not reading.occluded
    assert "".join(reading.symbols) == position
