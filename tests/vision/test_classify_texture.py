"""Texture against glare: a lamp's reflection the light model missed lowers every edge energy of a cell, but
not the rim's against the top's, which tells an empty point from a white stone of the board's own colour."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.classify import Classifier
from vision.colour_model import ColourModel, StoneColour, TextureModel
from vision.measure import GREY_FLOOR, light_wash

# a pale Go board whose white stones are the board's colour: the texture alone tells them apart
BOARD = (76.8, -4.5, 7.8)
EMPTY_TEXTURE = (0.32, 0.63, 0.85)  # rim, top, dark share: the crossing lines give the top its edges
WHITE_TEXTURE = (0.71, 0.46, 0.83)  # a shaded rim around a smooth top
WHITE = (78.0, -2.0, 2.5)


def model() -> ColourModel:
    return ColourModel(
        geometry="points:3x3",
        empty=(BOARD,) * 9,
        empty_sigma=(2.0, 1.0, 1.5),
        classes={
            "o": StoneColour(WHITE, (2.5, 1.0, 2.0), 4),
            "x": StoneColour((15.0, 0.0, 0.0), (3.0, 1.0, 1.0), 4),
        },
        background=((0.85, 0.9, 0.9),) * 9,
        texture=TextureModel(
            empty=(EMPTY_TEXTURE,) * 9,
            spread=(0.03, 0.05, 0.08),
            stones={"o": (WHITE_TEXTURE, (0.07, 0.05, 0.08)), "x": ((3.45, 2.23, 0.44), (0.35, 0.22, 0.04))},
        ),
    )


@settings(max_examples=40, deadline=None)
@given(washed=st.floats(0.55, 1.0), white=st.booleans())
def test_a_glare_that_washes_out_a_cells_edges_leaves_an_empty_point_empty_and_a_white_stone_white(
    washed: float, white: bool
) -> None:
    """The glare scales the rim's and the top's edge energy alike (down to about half) and lifts the dark
    share towards one; the colour is the board's, so only the texture decides."""
    classifier = Classifier(model())
    rim, top, dark = WHITE_TEXTURE if white else EMPTY_TEXTURE
    texture = np.tile(
        np.array([rim * washed, top * washed, dark + (1 - dark) * (1 - washed) * 0.3], np.float32), (9, 1)
    )
    lab = np.tile(np.array([78.5, -2.0, 1.8], np.float32), (9, 1))
    result = classifier.classify(lab, texture)
    assert set(result.symbols) == {"o" if white else "."}


def test_pale_skin_over_a_point_is_unexplained_and_the_stones_and_points_are_not() -> None:
    """Skin as pale as the board lies a few spreads from the white stones' colour, and shows neither a
    stone's shaded rim nor the point's lines: no class explains it. A white stone, an empty point, and a
    washed-out empty point under a glare are all explained."""
    classifier = Classifier(model())
    skin = (66.0, 9.0, 14.0)
    cells = [
        (skin, (0.12, 0.10, 0.91)),
        ((78.0, -2.0, 2.5), WHITE_TEXTURE),
        (BOARD, EMPTY_TEXTURE),
        ((78.5, -2.0, 1.8), (0.2, 0.4, 0.9)),
    ]
    lab = np.array([c for c, _ in cells] * 2 + [BOARD], np.float32)
    texture = np.array([t for _, t in cells] * 2 + [EMPTY_TEXTURE], np.float32)
    for wash in (None, np.full(9, classifier.config.texture_wash, np.float32)):
        result = classifier.classify(lab, texture, wash=wash)
        assert list(result.unexplained[:4]) == [True, False, False, False]
    assert result.distance[0] < classifier.config.outlier_distance, "skin is no colour outlier alone"


@settings(max_examples=60, deadline=None)
@given(washed=st.floats(0.0, 0.3), clipped=st.booleans(), blur=st.floats(0.75, 1.0))
def test_a_bare_cell_a_glare_washes_flat_and_white_is_no_white_stone(washed: float, clipped: bool, blur: float) -> None:
    """In a strong spot's core the bare board clips as white as a white stone, and its lines and grain fade
    away (all of the top where the disk is clipped). A white stone there still shows its outline, weakened at
    most by blur."""
    classifier = Classifier(model())
    white = np.array(WHITE, np.float32)
    rim, top, dark = EMPTY_TEXTURE
    bare = [rim * washed, np.nan if clipped else top * washed, np.nan if clipped else 1.0 - washed * (1.0 - dark)]
    stone = [WHITE_TEXTURE[0] * blur, WHITE_TEXTURE[1] * blur, WHITE_TEXTURE[2]]
    texture = np.array([bare, stone] * 4 + [bare], np.float32)
    result = classifier.classify(np.tile(white, (9, 1)), texture)
    assert result.symbols == (".", "o") * 4 + (".",)


LINES_TEXTURE = (0.68, 1.63, 0.65)  # an empty point whose crossing lines reach its rim as well


@settings(max_examples=40, deadline=None)
@given(washed=st.floats(0.35, 0.55))
def test_an_empty_point_washed_out_as_far_as_the_light_over_it_explains_stays_empty(washed: float) -> None:
    """The flank of a lamp's spot, and a blur, weaken a point's lines to a third of their calibrated energy
    and lift the bare board's colour towards a white stone's. In proportion, rim against top, they are still
    the point's lines, and the light over the cell explains how weak they are."""
    calibrated = model()
    assert calibrated.texture is not None
    lines = dataclasses.replace(
        calibrated,
        texture=dataclasses.replace(calibrated.texture, empty=(LINES_TEXTURE,) * 9, spread=(0.07, 0.15, 0.06)),
    )
    classifier = Classifier(lines)
    rim, top, dark = LINES_TEXTURE
    point = [rim * washed, top * washed, 1.0 - washed * (1.0 - dark)]
    texture = np.array([point, WHITE_TEXTURE] * 4 + [point], np.float32)
    board = np.tile(np.array(BOARD, np.float32) + np.array([20.0, 2.0, -8.0], np.float32), (9, 1))
    stone = np.tile(np.array(WHITE, np.float32), (9, 1))
    explained = np.full(9, washed * 0.9, np.float32)
    result = classifier.classify(board, texture, stone, wash=explained)
    assert result.symbols == (".", "o") * 4 + (".",)


def test_the_light_wash_is_the_share_of_the_brightness_the_light_over_a_cell_did_not_add() -> None:
    board = np.array([[0.5, 0.5, 0.5]] * 3, np.float32)
    seen = board + np.array([[0.0], [0.25], [0.5]], np.float32)
    shade = np.array([[0.25, 0.25, 0.25]], np.float32)
    wash = light_wash(np.vstack([seen, shade]), np.vstack([board, board[:1]]))
    grey = 0.5 * 255 + GREY_FLOOR
    assert wash[:3] == pytest.approx([1.0, grey / (grey + 0.25 * 255), grey / (grey + 0.5 * 255)], rel=1e-4)
    assert wash[3] == 1.0, "a cell darker than the board (a stone, a shadow) is washed by nothing"
