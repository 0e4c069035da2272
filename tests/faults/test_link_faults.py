"""The LED controller comes and goes mid-game; the game does not stop.

Every fault of a real controller (killed, frozen, silent, garbled, refusing
with ERROR, in a reset loop, unplugged and back) with every kind of
controller (``emu:``, ``sim:``, and a ``serial:`` port with an emulator on
it that the companion does not own): the live game keeps accepting plies
during the outage, the page is told, and once the controller is back its
LEDs show exactly what the companion wants.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.assess import ply_text
from companion.live import LiveGame
from companion.scenario import script_game
from companion.store import Store
from firmware_bridge import render
from firmware_bridge.emulator import EmulatedDevice
from firmware_bridge.leds import DEFAULT_BRIGHTNESS
from hardware import KeptMatrix, LinkState, open_leds
from referee.game import make_rules
from tests.firmware_bridge.conftest import require_toolchain

BOARD = "diamond:5"
CONTROLLER_LEDS = 64  # the firmware build every sim: test shares
WAIT_S = 30.0
LOST_WORDS = re.compile(r"LEDs disconnected since \d\d:\d\d, retrying")

KINDS = ["emu", pytest.param("sim", marks=pytest.mark.firmware), "serial"]
FAULTS = ["killed", "frozen", "silent", "garbage", "error", "reannounce", "unplugged"]


class Table:
    """A live game on a scripted board, its LEDs kept beside it, and the controller behind them."""

    def __init__(self, kind: str, folder: Path, seed: int = 3, game: str = "cascade", board: str = BOARD) -> None:
        self.kind = kind
        rules = make_rules(game, board)
        self.script = script_game(rules.start(), seed=seed)
        self.step = 0
        self.presses: list[str] = []
        if kind == "serial":
            self.device: Any = EmulatedDevice(leds=CONTROLLER_LEDS, port_path=folder / "ttyLED")
            inner = open_leds(f"serial:{self.device.port}", rules.geometry)
        else:
            if kind == "sim":
                require_toolchain()
            inner = open_leds(f"{kind}:", rules.geometry, leds=CONTROLLER_LEDS)
            self.device = inner.device  # type: ignore[attr-defined]
        self.driver = inner
        self.callers: set[str] = set()
        show = inner._show

        def recorded_show(frame: Any) -> None:
            self.callers.add(threading.current_thread().name)
            show(frame)

        inner._show = recorded_show  # type: ignore[method-assign]
        self.changes: list[tuple[LinkState, str]] = []
        self.leds = KeptMatrix(inner, on_change=self._changed)
        self.store = Store(folder / "games.sqlite3")
        self.live = LiveGame.start_or_resume(rules.start(), self.store, leds=self.leds)

    def _changed(self, state: LinkState) -> None:
        self.live.set_link(state.words)
        self.changes.append((state, self.live.snapshot().link))

    # -- the players ---------------------------------------------------------------------------

    def play_until(self, plies: int) -> None:
        """Carry out the script's steps until the game has accepted ``plies`` plies."""
        while len(self.live.moves) < plies:
            assert self.step < len(self.script.steps), "the script ended first"
            step = self.script.steps[self.step]
            self.step += 1
            if step.hand:
                self.live.on_reading(step.board, occluded=True)
            self.live.on_reading(step.board)
            if step.button:
                self.presses.append(self.live.on_button(step.button))

    def stored(self) -> list[str]:
        return [p.ply for p in self.store.plies(self.live.game_id)]

    def accepted(self) -> list[str]:
        return [ply_text(m) for m in self.live.moves]

    # -- the controller ------------------------------------------------------------------------

    def expected(self) -> set[tuple[tuple[int, int, int], ...]]:
        """What the controller's LEDs show for the companion's frame, in any blink phase."""
        driver = self.leds.inner
        frame = driver.led_frame(self.leds.shown())  # type: ignore[attr-defined]
        palette = driver.link.info.palette  # type: ignore[attr-defined]
        return {
            render(frame, palette, DEFAULT_BRIGHTNESS, slow, fast) for slow in (True, False) for fast in (True, False)
        }

    def wait_until_shown(self) -> None:
        """Wait until the controller answers and its LEDs show the companion's state."""

        def shown(colours: Any) -> bool:
            return self.leds.state.connected and self.leds.settled and colours in self.expected()

        self.device.wait_for(shown, WAIT_S, "the companion's state, with the controller connected")

    def inject(self, fault: str) -> None:
        if fault == "killed":
            self.device.kill()
        elif fault == "frozen":
            self.device.freeze()
        elif fault == "unplugged":
            self.device.unplug()
        else:
            self.device.misbehave(fault)

    def heal(self, fault: str) -> None:
        if fault == "killed":
            if self.kind == "serial":  # nobody but its owner starts it again
                self.device.restart()
        elif fault == "frozen":
            self.device.thaw()
        elif fault == "unplugged":
            self.device.replug()
        else:
            self.device.misbehave(None)

    def close(self) -> None:
        self.leds.close()
        self.live.close()
        self.store.close()
        if self.kind == "serial":
            self.device.close()


@pytest.fixture
def table_of(tmp_path: Path) -> Any:
    made: list[Table] = []

    def make(kind: str, **options: Any) -> Table:
        table = Table(kind, tmp_path, **options)
        made.append(table)
        return table

    yield make
    for table in made:
        table.close()


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_game_goes_on_through_the_fault_and_the_leds_catch_up(kind: str, fault: str, table_of: Any) -> None:
    table = table_of(kind)
    table.play_until(3)
    table.wait_until_shown()

    table.inject(fault)
    before = len(table.live.moves)
    table.play_until(before + 3)
    assert table.accepted() == table.stored(), "the plies of the outage were not all committed"
    noticed = table.leds.wait_until(lambda k: k.failures >= 1 and bool(table.changes), WAIT_S)
    assert noticed, f"the {fault} controller was never noticed"
    lost, page = table.changes[0]
    assert not lost.connected and lost.reason
    assert LOST_WORDS.fullmatch(lost.words) and page == lost.words, "the page was not told"

    table.heal(fault)
    table.wait_until_shown()
    assert table.live.snapshot().link == ""

    table.play_until(before + 5)
    table.wait_until_shown()
    assert table.accepted() == table.stored() == [ply_text(m) for m in table.script.moves[: before + 5]]
    assert table.callers == {table.leds._thread.name}, "the game itself talked to the controller"


def test_the_buttons_keep_working_while_the_controller_is_away(table_of: Any) -> None:
    table = table_of("emu", game="cascades", board="trapezoid:4,4")
    presses = sum(1 for step in table.script.steps if step.button)
    assert presses >= 2, "the script presses no button: the test proves nothing"
    table.play_until(1)
    table.wait_until_shown()
    table.inject("frozen")
    table.play_until(len(table.script.moves))
    assert len(table.presses) == presses and all(p.startswith("Turn ended") for p in table.presses)
    assert table.accepted() == table.stored() and len(table.stored()) == len(table.script.moves)
    assert table.live.position.symbols() == table.script.final.symbols()
    assert table.leds.wait_until(lambda k: k.failures >= 1, WAIT_S)
    table.heal("frozen")
    table.wait_until_shown()
