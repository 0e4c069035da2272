"""The page in a real browser: headless Chromium (Debian's) watches a running demo change live."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from companion.demo_game import start_demo

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
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


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
