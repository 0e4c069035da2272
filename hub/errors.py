"""Typed errors of the hub; each says what is wrong and what to do."""

from __future__ import annotations


class HubError(Exception):
    """Base of the hub's errors."""


class BrokerUnreachableError(HubError, ConnectionError):
    """The event's broker did not accept the hub's connection in time."""


class MosquittoMissingError(HubError, FileNotFoundError):
    """Mosquitto, the broker the tests and the benchmark start, is not installed."""
