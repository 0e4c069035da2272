"""The set-up page in a real browser (Debian's headless Chromium), at a desktop's width and a 390 px phone's.

A simulated table (:class:`calibration.simtable.CalibrationTable`, a person
who makes the usual mistakes and follows what the page says) gives the
camera's frames; the browser shows each step, its problems in plain words and
the preview with the found grid, answers the grid question, maps the LEDs,
saves the profile and starts a new game. Screenshots in ``test-artifacts/setup/``.
"""

from __future__ import annotations

import threading

import pytest

from calibration.guided import GuidedCalibration
from calibration.ready import row_major_leds
from calibration.simtable import CalibrationTable
from companion.live import LiveGame
from companion.store import Store
from companion.table_setup import TableSetup
from companion.web import create_app, serve
from referee.game import make_rules
from tests.companion.test_browser import browser, policy_violations  # noqa: F401 - the browser fixture
from tests.companion.test_browser_archive import WIDTHS, fits_the_width

TOKEN = "setup-token"
FRAME_S = 0.03  # the simulated camera's pace


@pytest.fixture
def table(tmp_path):
    start = make_rules("cascade", "diamond:4").start()
    simulated = CalibrationTable(start.geometry, led_wiring=row_major_leds(start.geometry))
    store = Store(tmp_path / "games.sqlite3")
    live = LiveGame.start_or_resume(start, store)
    installed: list = []
    setup = TableSetup(
        live,
        tmp_path / "diamond-4.json",
        lambda: GuidedCalibration(start.geometry),
        installed.append,
        leds=(len(simulated.led_wiring), simulated.light_leds),
        see=simulated.see,
        calibrated=False,
    )
    stop = threading.Event()

    def camera() -> None:
        while not stop.wait(FRAME_S):
            setup.feed(simulated.grab())

    feeder = threading.Thread(target=camera, name="simulated camera", daemon=True)
    feeder.start()
    server = serve(create_app({"LIVE": live, "TOKEN": TOKEN, "SETUP": setup}), "127.0.0.1", 0)
    try:
        yield server, setup, store, installed
    finally:
        stop.set()
        feeder.join(timeout=10)
        live.close()
        server.stop()
        store.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_board_is_calibrated_and_a_game_set_up_from_the_page(browser, table, artifacts, width):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    server, _, store, installed = table
    shots = artifacts / "setup"
    shots.mkdir(exist_ok=True)
    browser.set_window_size(*WIDTHS[width])
    wait = WebDriverWait(browser, 120, poll_frequency=0.1)
    browser.get(server.url(f"/setup?token={TOKEN}"))
    title = browser.find_element(By.ID, "step-title")
    wait.until(lambda driver: title.text == "Find the board")
    wait.until(lambda driver: driver.find_elements(By.CSS_SELECTOR, "#problems li"))
    assert ":" in browser.find_element(By.CSS_SELECTOR, "#problems li").text  # what went wrong: what to do
    browser.save_screenshot(str(shots / f"{width}-1-find-the-board.png"))
    yes = browser.find_element(By.ID, "grid-yes")
    wait.until(lambda driver: yes.is_displayed())
    preview = browser.find_element(By.ID, "preview")
    wait.until(lambda driver: driver.execute_script("return arguments[0].naturalWidth", preview) == 640)
    assert fits_the_width(browser)
    browser.save_screenshot(str(shots / f"{width}-2-grid-question.png"))
    yes.click()
    wait.until(lambda driver: title.text == "One stone of each colour")
    wait.until(lambda driver: driver.execute_script("return arguments[0].naturalWidth", preview) == 640)
    browser.save_screenshot(str(shots / f"{width}-3-stones.png"))
    map_leds = browser.find_element(By.ID, "map-leds")
    wait.until(lambda driver: map_leds.is_displayed())
    assert title.text == "Done"
    browser.save_screenshot(str(shots / f"{width}-4-done.png"))
    map_leds.click()
    words = browser.find_element(By.ID, "leds-words")
    wait.until(lambda driver: words.text.startswith("LEDs mapped"))
    browser.save_screenshot(str(shots / f"{width}-5-leds-mapped.png"))
    browser.find_element(By.ID, "save-profile").click()
    status = browser.find_element(By.ID, "calibration-status")
    wait.until(lambda driver: "profile saved to" in status.text)
    assert installed and installed[0].led_map is not None
    browser.save_screenshot(str(shots / f"{width}-6-saved.png"))

    Select(browser.find_element(By.ID, "new-first")).select_by_value("black")
    browser.find_element(By.ID, "new-white").send_keys("Ada")
    browser.find_element(By.ID, "new-black").send_keys("Bo")
    browser.find_element(By.ID, "new-game").click()
    message = browser.find_element(By.ID, "setup-message")
    wait.until(lambda driver: message.text.startswith("New game"))
    latest = store.games()[-1]
    assert latest.header("First") == "black" and latest.header("White") == "Ada" and latest.header("Black") == "Bo"
    assert fits_the_width(browser)
    browser.save_screenshot(str(shots / f"{width}-7-new-game.png"))
    assert policy_violations(browser) == []


@pytest.mark.browser
def test_the_setup_page_is_read_only_without_the_token(browser, table):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    server = table[0]
    browser.get(server.url("/setup"))
    WebDriverWait(browser, 30).until(lambda driver: driver.find_element(By.ID, "step-title").text)
    assert not browser.find_element(By.ID, "new-game").is_displayed()
    assert not browser.find_element(By.ID, "grid-yes").is_displayed()
    assert browser.find_element(By.ID, "read-only").is_displayed()
