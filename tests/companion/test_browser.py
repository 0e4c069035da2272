"""The page in a real browser: headless Chromium (Debian's) watches a running demo change live.

The page runs under its Content-Security-Policy: any script or style the
policy blocks shows in the browser's console, and the tests look there.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from companion.demo_game import start_demo
from companion.web import create_app, serve
from tests.companion.fakes import FakeLive, make_snapshot

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1000,1400",
)

# Records, in the page itself, the first moment each thing the test looks for appears.
OBSERVER = """
window.__seen = {};
const seen = (key) => { if (!window.__seen[key]) window.__seen[key] = Date.now(); };
const score0 = document.getElementById('score').textContent;
const check = () => {
  if (document.querySelector('#board .cell.pending')) seen('pending');
  if (document.querySelector('#alerts li')) seen('alert');
  if (document.querySelector('#board .cell.s-o, #board .cell.s-x, #board .cell.s-r')) seen('stone');
  if (document.getElementById('score').textContent !== score0) seen('score');
  if (document.querySelectorAll('#moves li').length >= 3) seen('moves');
};
new MutationObserver(check).observe(document.body, {subtree: true, childList: true, attributes: true,
  characterData: true});
check();
"""


@pytest.fixture
def browser():
    for tool, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(tool).exists():
            pytest.fail(f"{tool} is missing: install Debian's {package} (scripts/test.sh does)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="cascade-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.browser
def test_the_page_follows_a_running_demo(tmp_path, browser, artifacts):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    session = start_demo(tmp_path, fps=8.0, games=1, leds_spec="emu:", port=0, camera=True)
    shots = artifacts / "browser"
    shots.mkdir(exist_ok=True)
    try:
        browser.get(session.urls.control)
        assert "Cascade" in browser.title
        cells = browser.find_elements(By.CSS_SELECTOR, "#board .cell")
        assert len(cells) == len(session.live.position.geometry.cells)
        assert browser.find_element(By.ID, "actions").is_displayed()
        browser.save_screenshot(str(shots / "0-start.png"))
        browser.execute_script(OBSERVER)
        wait = WebDriverWait(browser, 120, poll_frequency=0.05)
        for number, key in enumerate(("stone", "pending", "score", "moves", "alert"), start=1):
            wait.until(lambda driver, key=key: driver.execute_script("return window.__seen[arguments[0]]", key))
            browser.save_screenshot(str(shots / f"{number}-{key}.png"))
        moves_then = len(browser.find_elements(By.CSS_SELECTOR, "#moves li"))
        wait.until(lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#moves li")) > moves_then)
        browser.save_screenshot(str(shots / "6-more-moves.png"))
        assert browser.find_element(By.ID, "camera").get_attribute("src").endswith("/camera.mjpg")
    finally:
        session.close()


def policy_violations(driver):
    """Console messages of anything the Content-Security-Policy blocked."""
    return [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]


class QuietCamera(FakeLive):
    """A live source whose camera has no pictures: it waits for one as a real camera loop does."""

    def __init__(self) -> None:
        super().__init__()
        self.frames = []
        self._stopped = threading.Event()

    def camera_jpeg(self, after, timeout_s):
        self._stopped.wait(timeout_s)
        return None

    def stop(self) -> None:
        self._stopped.set()
        self.broadcaster.close()


@pytest.mark.browser
def test_the_led_link_shows_on_the_page_while_it_is_down(browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    live = QuietCamera()
    server = serve(create_app({"LIVE": live}), "127.0.0.1", 0)
    try:
        browser.get(server.url("/"))
        link = browser.find_element(By.ID, "link")
        assert not link.is_displayed()
        wait = WebDriverWait(browser, 30, poll_frequency=0.05)
        words = "LEDs disconnected since 20:31, retrying"
        live.publish(make_snapshot(seq=2, link=words))
        wait.until(lambda driver: link.is_displayed())
        assert link.text == words
        assert link.value_of_css_property("background-color") != "rgba(0, 0, 0, 0)"  # the page's own style applies
        live.publish(make_snapshot(seq=3, message="White to move"))
        wait.until(lambda driver: not link.is_displayed())
        assert browser.find_element(By.ID, "message").text == "White to move"
        assert policy_violations(browser) == []
    finally:
        live.stop()
        server.stop()


@pytest.mark.browser
def test_the_page_shows_the_computer_s_ply_and_teaches(tmp_path, browser, artifacts):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from companion.computer import Opponent

    session = start_demo(
        tmp_path,
        fps=8.0,
        games=1,
        leds_spec="none:",
        port=0,
        camera=False,
        opponent=Opponent("club"),
        engine_plays="white",
    )
    shots = artifacts / "browser"
    shots.mkdir(exist_ok=True)
    try:
        browser.get(session.urls.control)
        wait = WebDriverWait(browser, 120, poll_frequency=0.05)
        line = browser.find_element(By.ID, "computer")
        wait.until(lambda driver: line.is_displayed() and line.text.startswith("The computer plays "))
        wait.until(lambda driver: driver.find_elements(By.CSS_SELECTOR, "#board .cell.suggested"))
        browser.save_screenshot(str(shots / "computer-plays.png"))
        browser.find_element(By.CSS_SELECTOR, 'button[data-action="teach"]').click()
        wait.until(lambda driver: driver.find_elements(By.CSS_SELECTOR, "#board .cell.legal"))

        def pointed(driver):  # the game goes on meanwhile: point at a cell that is legal now
            legal = driver.find_elements(By.CSS_SELECTOR, "#board .cell.legal")
            if legal:
                ActionChains(driver).move_to_element(legal[len(legal) // 2]).perform()
            return driver.find_elements(By.CSS_SELECTOR, "#board .cell.preview")

        wait.until(pointed)
        browser.save_screenshot(str(shots / "teaching.png"))
        assert policy_violations(browser) == []
    finally:
        session.close()
