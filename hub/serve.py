"""``cascade hub`` at work: open the store, reach the broker, serve the page, run until stopped."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from companion.broker_url import BrokerUrl
from companion.mqtt_link import MqttLink
from companion.store import Store, default_store_path
from companion.web.app import Server, serve
from hub.errors import BrokerUnreachableError
from hub.service import Hub
from hub.web import create_hub_app


def hub_store_path(event: str) -> Path:
    """The default store of an event's hub: ``hub-EVENT.sqlite3`` beside the default game store."""
    return default_store_path().parent / f"hub-{event}.sqlite3"


def start_hub(
    url: BrokerUrl,
    store_path: Path,
    host: str = "127.0.0.1",
    port: int = 0,
    delay_min: float = 0.0,
    wait_s: float = 10.0,
) -> tuple[Hub, Server]:
    """Start a hub and its page; raises BrokerUnreachableError when the broker does not answer in ``wait_s``."""
    link = MqttLink(url.host, url.port, f"cascade-hub-{url.event}")
    link.start()
    if not link.wait_connected(wait_s):
        link.close()
        raise BrokerUnreachableError(
            f"the broker at {url.address} did not answer within {wait_s:g} s: start it (docs/hub.md tells how), "
            "check the address, or give --wait more seconds"
        )
    try:
        store = Store(store_path, refuse_damage=False)
    except BaseException:
        link.close()
        raise
    hub = Hub(store, url.event, link, delay_min)
    try:
        hub.start(connect=False)
        server = serve(create_hub_app(hub), host, port)
    except BaseException:
        hub.close()
        store.close()
        raise
    return hub, server


def run(args: argparse.Namespace) -> int:
    """Run the hub until SIGINT or SIGTERM."""
    url: BrokerUrl = args.broker
    hub, server = start_hub(
        url, Path(args.store or hub_store_path(url.event)), args.host, args.port, args.delay, args.wait
    )
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, on_signal)
    print(f"cascade hub: event {url.event} on the broker {url.address}, store {hub.store.path}", flush=True)
    print(f"  page: {server.url('/')}", flush=True)
    print(f"  feed: {server.url('/feed/event.json')}", flush=True)
    try:
        while not stop.wait(0.5):
            pass
    finally:
        server_stop = threading.Thread(target=server.stop, daemon=True)
        server_stop.start()
        hub.close()
        server_stop.join(timeout=5.0)
        hub.store.close()
    counts = hub.counts
    print(
        f"cascade hub: stopped; {counts['applied']} changes kept, {counts['duplicate']} duplicates dropped, "
        f"{counts['asked']} requests to send again",
        file=sys.stderr,
        flush=True,
    )
    return 0
