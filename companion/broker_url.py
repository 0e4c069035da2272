"""Where a board publishes its game, and where a hub listens: ``mqtt://HOST[:PORT]/EVENT[/BOARD]``.

The event and the board are single topic levels of letters, digits, ``-`` and
``_`` (a club night ``club-2024-05``, a board ``7`` or ``table-3``), so that
no name can reach into another event's topics. The port defaults to MQTT's
1883. Parsing is pure; nothing is opened here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from companion.errors import CompanionError
from referee.quoting import shown

DEFAULT_PORT = 1883
NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
EXAMPLE = "mqtt://192.168.1.10/club-night/7"


class BrokerUrlError(CompanionError, ValueError):
    """A broker address that cannot be used; the message shows the form to write."""


@dataclass(frozen=True)
class BrokerUrl:
    """A broker's host and port, the event, and (for a board) the board's name."""

    host: str
    port: int
    event: str
    board: str = ""

    @property
    def address(self) -> str:
        """``host:port``, for messages."""
        return f"{self.host}:{self.port}"

    def __str__(self) -> str:
        tail = f"/{self.board}" if self.board else ""
        return f"mqtt://{self.address}/{self.event}{tail}"


def parse_broker_url(text: str, board: bool = True) -> BrokerUrl:
    """Read ``mqtt://HOST[:PORT]/EVENT/BOARD`` (``board=False``: ``mqtt://HOST[:PORT]/EVENT``).

    Raises BrokerUrlError saying what is wrong and the form to write.
    """
    form = "mqtt://HOST[:PORT]/EVENT/BOARD" if board else "mqtt://HOST[:PORT]/EVENT"
    example = EXAMPLE if board else EXAMPLE.rsplit("/", 1)[0]
    raw = str(text).strip()
    if len(raw) > 300:
        raise BrokerUrlError(f"the broker address is {len(raw)} characters long: write {form}, like {example}")
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        raise BrokerUrlError(f"{shown(raw)} has a port that is not one from 1 to 65535: write {form}") from None
    if parts.scheme != "mqtt":
        raise BrokerUrlError(f"{shown(raw)} is not an MQTT address: write {form}, like {example}")
    if not parts.hostname:
        raise BrokerUrlError(f"{shown(raw)} names no broker host: write {form}, like {example}")
    if port == 0:
        raise BrokerUrlError(f"{shown(raw)} has port 0: give the broker's port (1883 unless it says otherwise)")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise BrokerUrlError(f"{shown(raw)} has parts an address of this form has not: write {form}")
    levels = parts.path.strip("/").split("/") if parts.path.strip("/") else []
    wanted = 2 if board else 1
    if len(levels) != wanted:
        raise BrokerUrlError(f"{shown(raw)} should end in {'/EVENT/BOARD' if board else '/EVENT'}: write {form}")
    for level in levels:
        if not NAME.fullmatch(level):
            raise BrokerUrlError(
                f"{shown(level)} in {shown(raw)} must be 1 to 40 letters, digits, - or _ (it is a topic level)"
            )
    return BrokerUrl(parts.hostname, port or DEFAULT_PORT, levels[0], levels[1] if board else "")
