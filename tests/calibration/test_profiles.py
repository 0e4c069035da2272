"""Ready profiles: valid, matching the printed sheet and the standard wiring, reading a printed board."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.printed import printed_board_renderer
from calibration.profile import Profile
from calibration.ready import (
    PROFILES,
    READY,
    ReadyProfileError,
    load_ready_profile,
    make_ready_profile,
    ready_profile_path,
    row_major_leds,
    stones_in_play,
)
from hardware.ledmap import LedMap, Wiring
from referee.geometry import parse_geometry
from vision.locate import MarkerLocator
from vision.pipeline import BoardReader
from vision.synth import TYPICAL


def test_every_standard_board_has_a_ready_profile() -> None:
    assert set(READY) == {"diamond:8", "hex-diamond:8", "trapezoid:8,8", "grid:6x6"}
    assert sorted(p.name for p in PROFILES.glob("*.json")) == sorted(READY.values())


@pytest.mark.parametrize("spec", sorted(READY))
def test_ready_profile_matches_the_sheet_and_the_standard_wiring(spec: str) -> None:
    profile = load_ready_profile(spec)
    geometry = parse_geometry(spec)
    assert profile.geometry == spec
    assert isinstance(profile.locator, MarkerLocator)
    default = MarkerLocator.default(geometry)
    for stored, expected in zip(profile.locator.markers, default.markers, strict=True):
        assert stored.id == expected.id
        assert np.allclose(stored.corners, expected.corners, atol=0.01)
    assert tuple(profile.colour_model.classes) == stones_in_play(geometry)
    layout = LedMap().layout(geometry)
    assert profile.led_map == row_major_leds(geometry)
    assert profile.led_map == tuple(leds[0] for leds in layout.cell_leds)
    zigzag = LedMap(wiring=Wiring.SERPENTINE).layout(geometry)
    assert row_major_leds(geometry, serpentine=True) == tuple(leds[0] for leds in zigzag.cell_leds)


@pytest.mark.parametrize("spec", sorted(READY))
def test_ready_profile_files_are_what_the_fit_gives(spec: str) -> None:
    stored = load_ready_profile(spec).colour_model
    fitted = Profile.from_dict(make_ready_profile(spec).to_dict()).colour_model
    assert fitted.height == stored.height
    assert fitted.empty_seen == stored.empty_seen
    assert np.allclose(fitted.empty, stored.empty, atol=1e-3), "regenerate with write_ready_profiles()"
    assert fitted.stones.keys() == stored.stones.keys()
    for symbol, stone in stored.stones.items():
        assert np.allclose(fitted.stones[symbol].mean, stone.mean, atol=1e-3), symbol


@pytest.mark.parametrize("spec", ["diamond:8", "hex-diamond:8", "trapezoid:8,8"])
def test_ready_profile_reads_the_printed_board_under_another_camera_and_light(spec: str) -> None:
    profile = load_ready_profile(spec)
    geometry = profile.board
    rng = np.random.default_rng(11)
    for seed in (21, 22):
        renderer = printed_board_renderer(geometry, seed, TYPICAL)
        layout = tuple(rng.choice([".", *stones_in_play(geometry)], len(geometry.cells)))
        frame = renderer.render(layout, seed=seed)
        reading = BoardReader(geometry, profile.locator, profile.colour_model).read(frame.image)
        wrong = [geometry.cells[i].name for i, (a, b) in enumerate(zip(reading.symbols, layout, strict=True)) if a != b]
        assert wrong == [], f"seed {seed}: misread {wrong}"


def test_a_board_without_ready_profile_is_named() -> None:
    with pytest.raises(ReadyProfileError, match="boards with one are diamond:8"):
        ready_profile_path("diamond:6")


def test_kaskade_ready_profile_reads_the_empty_printed_board() -> None:
    profile = load_ready_profile("grid:6x6")
    geometry = profile.board
    for seed in (21, 22):
        frame = printed_board_renderer(geometry, seed, TYPICAL).render("." * len(geometry.cells), seed=seed)
        reading = BoardReader(geometry, profile.locator, profile.colour_model).read(frame.image)
        assert reading.located and set(reading.symbols) == {"."}


def test_kaskade_ready_profile_counts_the_balls_on_the_printed_board() -> None:
    profile = load_ready_profile("grid:6x6")
    geometry = profile.board
    rng = np.random.default_rng(3)
    for seed in (21, 22):
        symbols = tuple(str(s) for s in rng.choice([".", "o", "x"], len(geometry.cells)))
        counts = tuple(0 if s == "." else int(rng.integers(1, 4)) for s in symbols)
        frame = printed_board_renderer(geometry, seed, TYPICAL).render(symbols, counts, seed=seed)
        reading = BoardReader(geometry, profile.locator, profile.colour_model).read(frame.image)
        assert reading.symbols == symbols, f"seed {seed}"
        assert reading.counts == counts, f"seed {seed}"
