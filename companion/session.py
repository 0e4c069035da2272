"""A running companion: the live game, its page, the camera loop and a clean stop.

Both ``cascade run`` and ``cascade demo`` build a :class:`Session`: the store,
the LEDs, the live game, the Flask page on a background server and the camera
loop on its own thread. :meth:`Session.wait` returns when the time is up, the
frames end, or a signal (Ctrl-C, SIGTERM) asks to stop; :meth:`Session.close`
then stops everything within about a second, whatever the LED controller is
doing: camera loop, page streams, server, LEDs, store. Nothing accepted is
lost at any point: every ply is already committed (or, while the store cannot
be written, waits in memory and is listed by ``live.unsaved_plies()``).

LEDs given as a :class:`~hardware.KeptMatrix` are followed: when their
controller goes away or comes back the page's ``link`` field and the terminal
(:attr:`Session.say`, once per change) say so; the store's troubles are told
the same way.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any

from companion.broker_url import BrokerUrl
from companion.live import LiveGame
from companion.mqtt_link import Link
from companion.store import Store
from companion.web.app import Server, create_app, new_token, serve
from hardware.kept import KeptMatrix, LinkState

if TYPE_CHECKING:
    from companion.publisher import Publisher


@dataclass(frozen=True)
class Urls:
    """Where the page is: read-only, and with the token for actions."""

    page: str
    control: str
    token: str


class Session:
    """The parts of a running companion and their orderly stop (see the module docstring)."""

    def __init__(
        self,
        live: LiveGame,
        store: Store,
        leds: Any = None,
        host: str = "127.0.0.1",
        port: int = 0,
        say: Callable[[str], None] | None = None,
        setup: object | None = None,
    ) -> None:
        self.live = live
        self.store = store
        self.leds = leds
        self.say: Callable[[str], None] = say or _to_stderr
        self.stop_event = threading.Event()
        self.token = new_token()
        self.app = create_app({"LIVE": live, "TOKEN": self.token, "SETUP": setup})
        self.server: Server = serve(self.app, host, port)
        self._workers: list[threading.Thread] = []
        self.worker_error: BaseException | None = None
        self.extra_closers: list[Callable[[], object]] = []
        self.filmed = True  # False when readings come straight from a script, not from camera frames
        self.publisher: Publisher | None = None
        if live.on_notice is None:
            live.on_notice = lambda words: self.say(words)
        if isinstance(leds, KeptMatrix):
            leds.on_change = self._link_changed
            live.set_link(leds.state.words)

    def publish_to(self, url: BrokerUrl, link: Link | None = None) -> Publisher:
        """Publish the game to the event's hub through the broker of ``url`` (paho-mqtt unless ``link`` is given).

        Nothing waits for the broker: it is connected to in the background, and
        while it cannot be reached the page says so and the game goes on.
        """
        from companion.publisher import Publisher, open_publisher

        publisher = open_publisher(self.store, url) if link is None else Publisher(self.store, url, link)
        publisher.on_words = self.live.set_hub
        self.live.on_snapshot = publisher.notify
        publisher.start()
        publisher.notify(self.live.snapshot())
        self.publisher = publisher
        return publisher

    def _link_changed(self, state: LinkState) -> None:
        """The LED controller went away or came back: the page and the terminal say so."""
        self.live.set_link(state.words)
        if state.connected:
            self.say("LEDs reconnected: they show the game again")
        else:
            self.say(f"{state.words} ({state.reason})")

    @property
    def urls(self) -> Urls:
        """The page's addresses."""
        page = self.server.url("/")
        return Urls(page=page, control=f"{page}?token={self.token}", token=self.token)

    def start_worker(self, name: str, target: Callable[[threading.Event], object]) -> None:
        """Run ``target(stop_event)`` on a thread; an error in it stops the session."""

        def body() -> None:
            try:
                target(self.stop_event)
            except BaseException as error:  # reported by wait(); the session must still stop cleanly
                self.worker_error = error
            finally:
                self.stop_event.set()

        thread = threading.Thread(target=body, name=name, daemon=True)
        self._workers.append(thread)
        thread.start()

    def wait(self, duration_s: float | None = None) -> str:
        """Block until the duration ends, a worker finishes, or SIGINT/SIGTERM; returns why."""
        reason = ["stopped"]

        def on_signal(signum: int, frame: FrameType | None) -> None:
            reason[0] = signal.Signals(signum).name
            self.stop_event.set()

        previous = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                previous[sig] = signal.signal(sig, on_signal)
        try:
            deadline = None if duration_s is None else time.monotonic() + duration_s
            while not self.stop_event.is_set():
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    reason[0] = "time is up"
                    break
                self.stop_event.wait(0.5 if remaining is None else min(0.5, remaining))
            else:
                if reason[0] == "stopped" and self.worker_error is None:
                    reason[0] = "the camera stopped"
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return reason[0]

    def stop_workers(self) -> None:
        """Stop the camera loop (the page keeps serving the last snapshot)."""
        self.stop_event.set()
        for thread in self._workers:
            thread.join(timeout=10.0)

    def close(self) -> None:
        """Stop the camera loop, the page and the LEDs, and close the store (within about a second)."""
        self.stop_event.set()
        server = threading.Thread(target=self.server.stop, name="page stop", daemon=True)
        server.start()  # the server notices its stop only every half second: let it, meanwhile
        self.stop_workers()
        self.live.close()
        if self.publisher is not None:
            self.live.on_snapshot = None
            with contextlib.suppress(Exception):  # a broker gone must not keep the rest open
                self.publisher.close()
        for closer in self.extra_closers:
            with contextlib.suppress(Exception):  # a device already gone must not keep the rest open
                closer()
        if self.leds is not None:
            with contextlib.suppress(Exception):  # the LEDs may already be gone (unplugged)
                self.leds.close()
        server.join()
        self.store.close()


def _to_stderr(words: str) -> None:
    print(f"cascade: {words}", file=sys.stderr, flush=True)
