"""The archive in a real browser (Debian's headless Chromium), at a desktop's width and a 390 px phone's.

A person at the table opens the list of games, finds one by a player's name,
steps through it with the buttons and the arrow keys, downloads it, and with
the token corrects a ply (checked first, the later ply that no longer fits
named, the game cut) and a ply of the game being played, which the live page
then asks the players to set right. Screenshots of every step are kept in
``test-artifacts/archive/``.
"""

from __future__ import annotations

import pytest

from companion.live import LiveGame
from companion.store import Store
from companion.web import create_app, serve
from referee.game import make_rules
from tests.companion.test_browser import browser, policy_violations  # noqa: F401 - the browser fixture

TOKEN = "table-token"
EXAMPLE = ("o d5", "x f5 =", "= c6 =", "x h5 xox", "o g4")
WIDTHS = {"desktop": (1100, 1300), "phone": (390, 844)}


@pytest.fixture
def table(tmp_path):
    """A store of logged games and a live game being played, served with the token."""
    import cv2
    import numpy as np

    picture = np.full((90, 120, 3), (60, 120, 180), np.uint8)
    jpeg = cv2.imencode(".jpg", picture)[1].tobytes()
    store = Store(tmp_path / "games.sqlite3")
    for number in range(12):
        game = store.new_game("cascade", "diamond:8", {"White": f"Player {number}", "Black": "Bo"})
        for text in EXAMPLE:
            store.add_ply(game, text, jpeg=jpeg)
        store.end_game(game, "*")
    kaskade = store.new_game("kaskade", "grid:3x3", {"White": "Ada", "Black": "Cy"})
    for text in ("a1", "c3", "a2", "b3", "a1"):
        store.add_ply(kaskade, text)
    store.end_game(kaskade, "*")
    start = make_rules("cascade", "diamond:8").start()
    live = LiveGame.start_or_resume(start, store, headers={"White": "Dee", "Black": "Eli"})
    position = start
    for text in EXAMPLE[:3]:
        position = position.play(text).position
        live.on_reading(position.symbols())
    server = serve(create_app({"LIVE": live, "TOKEN": TOKEN}), "127.0.0.1", 0)
    try:
        yield server, store, live, kaskade
    finally:
        live.close()
        server.stop()
        store.close()


def fits_the_width(driver) -> bool:
    """Nothing on the page is wider than the window (no sideways scrolling on a phone)."""
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.browser
@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_archive_lists_finds_and_replays_games(browser, table, artifacts, width):  # noqa: F811
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    server = table[0]
    shots = artifacts / "archive"
    shots.mkdir(exist_ok=True)
    browser.set_window_size(*WIDTHS[width])
    wait = WebDriverWait(browser, 30, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
    browser.get(server.url("/games"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    assert len(rows) == 14 and "playing now" in rows[0].text
    assert fits_the_width(browser)
    browser.save_screenshot(str(shots / f"{width}-1-list.png"))
    browser.find_element(By.ID, "filter-player").send_keys("ada", Keys.ENTER)
    wait.until(lambda driver: "player=ada" in driver.current_url)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")) == 1
    browser.save_screenshot(str(shots / f"{width}-2-found.png"))
    browser.find_element(By.CSS_SELECTOR, "#games tbody a").click()
    wait.until(lambda driver: driver.find_elements(By.ID, "step-words"))
    words = browser.find_element(By.ID, "step-words")
    assert words.text == "The start"
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(5):
        body.send_keys(Keys.ARROW_RIGHT)
    assert words.text == "Ply 5, a1: the ball"
    body.send_keys(Keys.ARROW_RIGHT)
    assert words.text == "Ply 5, a1: overflow wave 1"
    assert browser.find_element(By.ID, "step-count").text == "7 / 7"
    assert "current" in browser.find_element(By.ID, "ply-5").get_attribute("class")
    assert fits_the_width(browser)
    browser.save_screenshot(str(shots / f"{width}-3-kaskade-wave.png"))
    browser.find_element(By.ID, "step-first").click()
    assert words.text == "The start"
    assert not browser.find_element(By.ID, "edit").is_displayed()  # read-only without the token

    browser.get(server.url("/games/1"))
    words = browser.find_element(By.ID, "step-words")
    browser.find_element(By.ID, "ply-2").click()
    assert words.text == "Ply 2, x f5 =: the cascade, 1 stone"
    assert browser.find_elements(By.CSS_SELECTOR, "#cell-e6.s-r.last")  # the cascade stone, red, marked
    picture = browser.find_element(By.ID, "ply-picture")
    wait.until(
        lambda driver: picture.is_displayed() and driver.execute_script("return arguments[0].naturalWidth", picture)
    )
    browser.find_element(By.ID, "step-prev").click()
    assert words.text == "Ply 2, x f5 =: the drop" and not browser.find_elements(By.CSS_SELECTOR, "#cell-e6.s-r")
    assert browser.find_element(By.ID, "download-record").get_attribute("href").endswith("/games/1/record.txt")
    assert fits_the_width(browser)
    browser.save_screenshot(str(shots / f"{width}-4-cascade-step.png"))
    assert policy_violations(browser) == []


@pytest.mark.browser
@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_ply_is_corrected_on_the_page_and_the_live_game_follows(browser, table, artifacts, width):  # noqa: F811
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    server, store, live, _ = table
    shots = artifacts / "archive"
    shots.mkdir(exist_ok=True)
    browser.set_window_size(*WIDTHS[width])
    wait = WebDriverWait(browser, 30, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
    browser.get(server.url(f"/games?token={TOKEN}"))
    browser.find_element(By.CSS_SELECTOR, "#games tbody tr:last-child a").click()
    wait.until(lambda driver: driver.find_elements(By.ID, "edit"))
    edit = browser.find_element(By.ID, "edit")
    assert edit.is_displayed() and "token=" in browser.current_url
    white = browser.find_element(By.ID, "edit-white")
    white.clear()
    white.send_keys("Ada Lovelace")
    browser.find_element(By.ID, "save-players").click()
    wait.until(lambda driver: driver.find_element(By.ID, "white-name").text == "Ada Lovelace")

    Select(browser.find_element(By.ID, "correct-ply")).select_by_value("1")
    text = browser.find_element(By.ID, "correct-text")
    assert text.get_attribute("value") == "o d5"
    text.clear()
    text.send_keys("o f5")
    browser.find_element(By.ID, "correct-check").click()
    message = browser.find_element(By.ID, "edit-message")
    wait.until(lambda driver: "no longer fits" in message.text)
    assert "ply 2 (x f5 =)" in message.text
    cut = browser.find_element(By.ID, "correct-cut")
    assert cut.is_displayed()
    browser.save_screenshot(str(shots / f"{width}-5-correction-checked.png"))
    cut.click()
    wait.until(lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#ply-list li")) == 1)
    audit = browser.find_element(By.ID, "audit").text
    assert "ply 1 corrected from o d5 to o f5" in audit and "from 127.0.0.1" in audit
    assert fits_the_width(browser)
    browser.save_screenshot(str(shots / f"{width}-6-corrected-and-cut.png"))

    browser.get(server.url(f"/games/{live.game_id}?token={TOKEN}"))
    Select(browser.find_element(By.ID, "correct-ply")).select_by_value("3")
    text = browser.find_element(By.ID, "correct-text")
    text.clear()
    text.send_keys("o k6")
    browser.find_element(By.ID, "correct-save").click()
    wait.until(lambda driver: "Ply 3 corrected to o k6" in driver.find_element(By.ID, "timeline").text)
    assert store.plies(live.game_id)[-1].ply == "o k6"
    browser.get(server.url(f"/?token={TOKEN}"))
    wait.until(lambda driver: driver.find_elements(By.CSS_SELECTOR, "#board .cell.error"))
    assert browser.find_elements(By.CSS_SELECTOR, "#cell-k6.error")  # the stone the correction asks for
    assert browser.find_element(By.ID, "archive-link").get_attribute("href").endswith(f"/games?token={TOKEN}")
    browser.save_screenshot(str(shots / f"{width}-7-live-page-after-correction.png"))
    assert policy_violations(browser) == []
