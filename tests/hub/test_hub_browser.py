"""The hub's page in a real browser: headless Chromium watches fifty boards play, live, and nothing is blocked."""

from __future__ import annotations

import threading
import time

import pytest

from companion.broker_url import BrokerUrl
from companion.mqtt_sim import MemoryBroker
from companion.store import Store
from companion.web.app import serve
from hub.service import Hub
from hub.tables import SimulatedBoard, TablePlan
from hub.web import create_hub_app
from tests.companion.test_browser import browser, policy_violations  # noqa: F401 - the browser fixture

BOARDS = 50


def applied(driver) -> list[int]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.card')).map((c) => Number(c.dataset.applied || 0))"
    )


@pytest.mark.browser
@pytest.mark.slow
def test_the_hub_page_shows_fifty_boards_live(tmp_path, browser, artifacts):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    shots = artifacts / "hub"
    shots.mkdir(exist_ok=True)
    broker = MemoryBroker()
    store = Store(tmp_path / "hub.sqlite3", refuse_damage=False)
    hub = Hub(store, "club", broker.link("hub"))
    hub.start()
    server = serve(create_hub_app(hub), "127.0.0.1", 0)
    boards = []
    stop = threading.Event()
    try:
        for number in range(1, BOARDS + 1):
            url = BrokerUrl("127.0.0.1", 1883, "club", str(number))
            plan = TablePlan(board="diamond:4", games=1, seed=number, step_s=0.12)
            boards.append(SimulatedBoard(tmp_path, url, plan, link=broker.link(str(number))))
            boards[-1].start()
        deadline = time.monotonic() + 30
        while sum(1 for v in hub.views() if v.state is not None) < BOARDS:
            assert time.monotonic() < deadline, "the boards' states did not reach the hub"
            time.sleep(0.05)
        browser.get(server.url("/"))
        cards = browser.find_elements(By.CSS_SELECTOR, ".card")
        assert len(cards) == BOARDS
        assert len(browser.find_elements(By.CSS_SELECTOR, ".card svg.mini")) == BOARDS
        browser.save_screenshot(str(shots / "0-all-boards-before.png"))
        before = applied(browser)
        players = [threading.Thread(target=b.play, args=(stop,), daemon=True) for b in boards]
        for player in players:
            player.start()
        wait = WebDriverWait(browser, 120, poll_frequency=0.1)
        wait.until(lambda d: sum(a > b for a, b in zip(applied(d), before, strict=True)) >= BOARDS // 2)
        browser.save_screenshot(str(shots / "1-all-boards-playing.png"))
        wait.until(
            lambda d: len(d.find_elements(By.XPATH, "//p[@class='turn'][starts-with(., 'Game over')]")) == BOARDS
        )
        assert all(a > b for a, b in zip(applied(browser), before, strict=True))
        stones = browser.find_elements(By.CSS_SELECTOR, ".card .cell.s-o, .card .cell.s-x, .card .cell.s-r")
        assert len(stones) > BOARDS
        browser.save_screenshot(str(shots / "2-all-boards-over.png"))
        browser.get(server.url("/board/7"))
        assert "Board 7" in browser.find_element(By.TAG_NAME, "h2").text
        assert browser.find_elements(By.CSS_SELECTOR, ".moves li")
        browser.save_screenshot(str(shots / "3-board-7.png"))
        browser.get(server.url("/standings"))
        assert len(browser.find_elements(By.CSS_SELECTOR, "#standings tbody tr")) == 2 * BOARDS
        browser.save_screenshot(str(shots / "4-standings.png"))
        assert policy_violations(browser) == []
    finally:
        stop.set()
        for board in boards:
            board.close(0.5)
        server.stop()
        hub.close()
        store.close()
        broker.close()
