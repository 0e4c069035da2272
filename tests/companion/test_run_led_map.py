"""``cascade run`` lights the LEDs through the profile's calibrated LED map, and maps them on the page."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.running import profile_led_map
from referee.geometry import parse_geometry


def test_a_profile_without_a_map_keeps_the_standard_wiring() -> None:
    assert profile_led_map(SimpleNamespace(led_map=None), parse_geometry("diamond:3")) is None


def test_the_profile_map_puts_each_cell_on_its_measured_led() -> None:
    geometry = parse_geometry("diamond:3")
    measured = tuple(reversed(range(len(geometry.cells))))
    led_map = profile_led_map(SimpleNamespace(led_map=measured), geometry)
    assert led_map is not None
    layout = led_map.layout(geometry)
    assert layout.cell_leds == tuple((led,) for led in measured)


def test_a_wiring_description_in_the_profile_lights_run_as_it_lights_leds_test(tmp_path) -> None:
    import json

    import pytest

    from calibration.profile import Profile
    from companion.commands.leds import board_and_map
    from hardware import LedMap, LedMapError

    root = Path(__file__).resolve().parents[2]
    ready = json.loads((root / "calibration" / "profiles" / "diamond-8.json").read_text(encoding="utf-8"))
    ready["led_map"] = {"wiring": "serpentine", "rotation": 90}
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(ready), encoding="utf-8")
    profile = Profile.from_dict(json.loads(path.read_text(encoding="utf-8")))
    geometry = profile.board
    wanted = LedMap.from_dict(ready["led_map"]).layout(geometry).cell_leds
    by_run = profile_led_map(profile, geometry)
    _, by_leds_test = board_and_map(SimpleNamespace(profile=str(path), board=None))
    assert by_run is not None and by_leds_test is not None
    assert by_run.layout(geometry).cell_leds == by_leds_test.layout(geometry).cell_leds == wanted
    assert Profile.from_dict(profile.to_dict()) == profile
    with pytest.raises(LedMapError, match="unknown key 'wirng'"):
        profile_led_map(SimpleNamespace(led_map={"wirng": "rows"}), geometry)


def lit_on(leds) -> Callable[[], frozenset[int]]:
    """What the LEDs behind a kept matrix have on now, read from their hardware side (the controller's LEDs,
    the MAX7219 chips)."""
    driver = leds.inner
    if driver.name.startswith("emu:"):
        device = driver.link.device
        return lambda: frozenset(led for led, rgb in enumerate(device.colours()) if rgb != (0, 0, 0))
    return lambda: frozenset(driver.chips.lit_leds())


@pytest.mark.parametrize("spec", ["emu:?leds=24", "gpio:max7219?factory=mock"])
def test_the_page_maps_the_leds_a_real_driver_lights_to_the_cells_the_camera_sees_them_under(spec, tmp_path) -> None:
    from calibration.guided import GuidedCalibration
    from calibration.profile import load_profile
    from calibration.simtable import CalibrationTable
    from companion.running import single_leds
    from companion.table_setup import TableSetup
    from hardware import KeptMatrix, LedMap, Wiring
    from hardware.awaited import open_leds_awaiting
    from referee.game import make_rules

    geometry = parse_geometry("diamond:4")
    wiring = LedMap(wiring=Wiring.SERPENTINE, rotation=90, offset=5).layout(geometry)
    led_wiring = tuple(leds[0] for leds in wiring.cell_leds)
    assert max(led_wiring) >= len(geometry), "the wiring uses LEDs past those the standard map uses"
    table = CalibrationTable(geometry, mistakes=False, led_wiring=led_wiring)
    leds = KeptMatrix(open_leds_awaiting(spec, geometry))  # as cascade run opens them, before any map is known
    on = lit_on(leds)

    taken = deque([table.grab()])

    def grab():
        """The camera takes a picture of the glow of the LEDs the driver has on (through the table's own wiring)
        and, like a webcam with a frame in its queue, hands over the one it took before."""
        table.light_leds(on())
        taken.append(table.grab())
        return taken.popleft()

    live = SimpleNamespace(position=make_rules("cascade", "diamond:4").start())
    installed: list = []
    setup = TableSetup(
        live,
        tmp_path / "profile.json",
        lambda: GuidedCalibration(geometry),
        installed.append,
        leds=single_leds(spec, leds),
        see=table.see,
        calibrated=False,
    )
    try:
        calibration = setup.calibration
        assert calibration is not None
        for _ in range(1500):
            state = calibration.state()
            if state["done"] and not state["mapping"] and state["leds"]:
                break
            if state["step"]["asks"]:
                calibration.answer(table.answer(calibration.flow))
            elif state["done"] and not state["mapping"]:
                calibration.map_leds()
            else:
                setup.feed(grab())
        assert calibration.state()["leds"].startswith("LEDs mapped: 16 cells"), calibration.state()
        assert on() == frozenset(), "the LEDs are left dark"
        if spec.startswith("emu:"):  # the controller's cable pulled: mapping again ends at once, in words
            leds.inner.link.device.unplug()
            assert leds.wait_until(lambda k: not k.state.connected, 20.0)
            calibration.map_leds()
            for _ in range(100):
                if not calibration.state()["mapping"]:
                    break
                setup.feed(grab())
            words = calibration.state()["leds"]
            assert words.startswith("The LEDs could not be mapped: LEDs disconnected since"), words
        setup.save()
    finally:
        leds.close()
    saved = load_profile(tmp_path / "profile.json")
    assert saved.led_map == led_wiring
    led_map = profile_led_map(saved, geometry)
    assert led_map is not None and led_map.layout(geometry).cell_leds == wiring.cell_leds
    assert [profile.led_map for profile in installed] == [led_wiring], "the companion reads the board with it"


def test_cascade_run_offers_the_led_map_only_with_leds_under_the_board(tmp_path) -> None:
    from companion.cli import build_parser
    from companion.running import start_run

    for spec, offered in (("emu:?leds=80", True), ("none:", False), ("console:", False)):
        argv = ["run", "--camera", "table:", "--store", str(tmp_path / f"{spec[:3]}.sqlite3"), "--port", "0"]
        session = start_run(build_parser().parse_args([*argv, "--leds", spec]))
        try:
            leds = session.app.config["SETUP"].leds
            assert (leds is not None) == offered, spec
            if leds is not None:
                count, _ = leds
                assert count() == 80, "every LED the controller drives is probed"
        finally:
            session.close()


def test_a_map_saved_on_the_page_lights_the_leds_at_once(tmp_path) -> None:
    from calibration.profile import Profile
    from calibration.ready import load_ready_profile
    from companion.cli import build_parser
    from companion.running import start_run
    from companion.table_setup import SetupRefusedError

    argv = ["run", "--camera", "table:", "--store", str(tmp_path / "games.sqlite3"), "--port", "0"]
    session = start_run(build_parser().parse_args([*argv, "--board", "diamond:8", "--leds", "emu:?leds=80"]))
    try:
        setup, leds = session.app.config["SETUP"], session.live.leds
        ready = load_ready_profile("diamond:8")
        geometry = ready.board
        measured = tuple(reversed(range(len(geometry.cells))))
        setup.install(Profile(ready.geometry, ready.locator, ready.colour_model, measured, ready.version))
        assert leds.layout.cell_leds == tuple((led,) for led in measured)
        assert leds.wait_until(lambda k: k.settled, 20.0)
        assert leds.inner.layout == leds.layout, "the controller's driver lights through the new map too"
        too_far = tuple(led + 80 for led in measured)
        with pytest.raises(SetupRefusedError, match="does not fit these LEDs"):
            setup.install(Profile(ready.geometry, ready.locator, ready.colour_model, too_far, ready.version))
        assert leds.layout.cell_leds == tuple((led,) for led in measured), "the map in use stays"
    finally:
        session.close()
