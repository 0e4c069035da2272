"""The host side of the LED link, over any pyserial URL.

A :class:`Link` keeps one background thread that reads the port, answers
nothing but records what arrives (acknowledgements, errors, announcements,
the device's heartbeats), sends the host's heartbeat when the line is idle,
and reopens the port after an unplug. Requests (:meth:`Link.show`,
:meth:`Link.set_brightness`, :meth:`Link.set_blink`) go one at a time: send,
wait for the acknowledgement, resend on timeout. When the device announces
itself unasked (it was reset) or the port came back, the link shakes hands
again and restores the brightness, blink timing and current frame before it
carries on.

:meth:`Link.silent_s` says how long the device has said nothing valid (it
sends a heartbeat every second), so a caller can tell a hung or garbled
controller from a quiet one; :meth:`Link.close` returns promptly whatever
state the device is in, and with ``stop_device=False`` leaves an emulator
behind the port running, so a new link can be opened to it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import serial

from firmware_bridge import protocol as p
from firmware_bridge.errors import (
    DeviceRejectedError,
    DeviceTimeoutError,
    LinkError,
    NoDeviceError,
    NotOurDeviceError,
    ProtocolError,
)
from firmware_bridge.leds import BlinkTiming, DeviceInfo, LedFrame

READ_TIMEOUT_S = 0.02
# What pyserial raises when the port fails, or was closed by the other thread in the middle of a call.
PORT_FAILURES = (serial.SerialException, OSError, TypeError, AttributeError, ValueError)


@dataclass
class LinkStats:
    """Counters of what the link had to do, for benchmarks and diagnostics."""

    sent: int = 0
    resent: int = 0
    handshakes: int = 0
    reconnects: int = 0
    device_dropped: int = 0
    device_heartbeats: int = 0
    host_dropped: int = 0
    resets: int = 0


class Link:
    """An open connection to an LED controller; a context manager.

    ``device`` is the emulator behind the port for ``emu:`` and ``sim:``
    (what its LEDs show, reset, unplug), ``None`` for real hardware; the link
    stops it when it closes unless ``owns_device`` is False.
    """

    def __init__(
        self,
        url: str,
        *,
        baudrate: int = p.BAUD_RATE,
        handshake_timeout_s: float = 5.0,
        resend_s: float = 0.5,
        heartbeat_s: float | None = 1.0,
        device: Any = None,
        owns_device: bool = True,
    ) -> None:
        self.url = url
        self.owns_device = owns_device
        self.baudrate = baudrate
        self.resend_s = resend_s
        self.heartbeat_s = heartbeat_s
        self.handshake_timeout_s = handshake_timeout_s
        self.device = device
        self.stats = LinkStats()
        self.device_disconnected = False
        self._decoder = p.FrameDecoder()
        self._cond = threading.Condition()
        self._request_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._port: serial.SerialBase | None = None
        self._port_epoch = 0  # bumped on every (re)open
        self._reset_epoch = 0  # bumped on every announcement nobody asked for
        self._session: tuple[int, int] | None = None
        self._announces: list[p.Message] = []
        self._answers: dict[int, p.Message] = {}
        self._bytes_in = 0
        self._last_sent_s = 0.0
        self._last_heard_s = time.monotonic()
        self._sequence = 0
        self._hello_sequences: set[int] = set()
        self._closed = False
        self._frame: LedFrame | None = None
        self._brightness: int | None = None
        self._timing: BlinkTiming | None = None
        self._open_port(first=True)
        self._thread = threading.Thread(target=self._run, name=f"link {url}", daemon=True)
        self._thread.start()
        try:
            with self._request_lock:
                self.info: DeviceInfo = self._handshake(time.monotonic() + handshake_timeout_s)
        except BaseException:
            self.close()
            raise
        self._keeper = threading.Thread(target=self._keep_session, name=f"link keeper {url}", daemon=True)
        self._keeper.start()

    # -- public ------------------------------------------------------------------------------

    def show(self, frame: LedFrame, timeout_s: float = 5.0) -> None:
        """Send the whole LED state; return once the device acknowledged that the LEDs show it."""
        if len(frame) != self.info.led_count:
            raise ValueError(f"the device has {self.info.led_count} LEDs; the frame has {len(frame)}")
        if max(frame.colours) >= len(self.info.palette):
            raise ValueError(
                f"palette index {max(frame.colours)} is past the device's {len(self.info.palette)} colours"
            )
        self._frame = frame  # restored after a reset even if this request cannot be sent
        with self._turn(timeout_s) as deadline:
            self._request(lambda seq: p.frame_message(seq, frame), deadline - time.monotonic())

    def set_brightness(self, level: int, timeout_s: float = 5.0) -> None:
        """Brightness 0..255 for every colour (the device starts at 64)."""
        p.brightness_message(1, level)  # validates
        self._brightness = level
        with self._turn(timeout_s) as deadline:
            self._request(lambda seq: p.brightness_message(seq, level), deadline - time.monotonic())

    def set_blink(self, slow_period_ms: int = 1000, fast_period_ms: int = 250, timeout_s: float = 5.0) -> None:
        """The full periods of the slow and fast blink (each lit for the first half)."""
        timing = BlinkTiming(slow_period_ms, fast_period_ms)
        self._timing = timing
        with self._turn(timeout_s) as deadline:
            self._request(lambda seq: p.blink_message(seq, timing), deadline - time.monotonic())

    def silent_s(self) -> float:
        """Seconds since the device last sent a valid message (a heartbeat, an answer, an announcement)."""
        return time.monotonic() - self._last_heard_s

    def close(self, stop_device: bool | None = None) -> None:
        """Stop the link, close the port, and stop the emulator behind it if there is one.

        Returns promptly even when the device hangs: a request waiting for it
        fails with :class:`LinkError`, a write stuck on a full line is cut
        short. ``stop_device`` (default: ``owns_device``) says whether to stop
        an emulator behind the port too.
        """
        if self._closed:
            return
        self._closed = True
        with self._cond:
            self._cond.notify_all()
        port = self._port
        if port is not None:
            for cancel in ("cancel_write", "cancel_read"):
                with contextlib.suppress(*PORT_FAILURES):
                    getattr(port, cancel, lambda: None)()
        for name in ("_thread", "_keeper"):
            thread = getattr(self, name, None)
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout=5)
        self._close_port()
        if self.device is not None and (self.owns_device if stop_device is None else stop_device):
            self.device.close()

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- requests ----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _turn(self, timeout_s: float) -> Iterator[float]:
        """The link for one request (others wait their turn, as does a reconnection); yields its deadline."""
        deadline = time.monotonic() + timeout_s
        if not self._request_lock.acquire(timeout=max(0.0, timeout_s)):
            if self._port is None:
                raise NoDeviceError(f"the port {self.url} went away; plug the LED controller back in")
            raise DeviceTimeoutError(
                f"the LED controller on {self.url} is still being reconnected after {timeout_s:g} s; "
                "check the cable and its power"
            )
        try:
            yield deadline
        finally:
            self._request_lock.release()

    def _next_sequence(self) -> int:
        self._sequence = self._sequence % 255 + 1  # 1..255; 0 is the device's boot announcement
        return self._sequence

    def _request(self, build: Callable[[int], p.Message], timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            if self._session != (self._port_epoch, self._reset_epoch):
                self._handshake(deadline)
                self._restore(deadline)
                continue
            if self._exchange(build(self._next_sequence()), deadline):
                return

    def _session_broken(self) -> bool:
        return self._session != (self._port_epoch, self._reset_epoch)

    def _keep_session(self) -> None:
        """After a reset or a replug, shake hands again and restore the LEDs without waiting for a request."""
        while not self._closed:
            with self._cond:
                while not self._closed and not self._session_broken():
                    self._cond.wait(1.0)
            if self._closed:
                return
            with self._request_lock:
                if self._closed or not self._session_broken():
                    continue
                try:
                    self._handshake(time.monotonic() + self.handshake_timeout_s)
                    self._restore(time.monotonic() + self.handshake_timeout_s)
                    continue
                except LinkError:
                    pass  # still unplugged or rebooting: try again
            with self._cond:
                self._cond.wait(0.5)

    def _restore(self, deadline: float) -> None:
        """After a handshake: brightness, blink timing and the current frame again."""
        for message in (
            None if self._brightness is None else (lambda s: p.brightness_message(s, self._brightness or 0)),
            None if self._timing is None else (lambda s: p.blink_message(s, self._timing or BlinkTiming())),
            None if self._frame is None else (lambda s: p.frame_message(s, self._frame or LedFrame.off(1))),
        ):
            if message is not None and not self._exchange(message(self._next_sequence()), deadline):
                return

    def _exchange(self, message: p.Message, deadline: float) -> bool:
        """Send until acknowledged; False if the session broke meanwhile (reset, replug)."""
        session = self._session
        while True:
            if self._closed:
                raise LinkError(f"the link to {self.url} was closed")
            with self._cond:
                self._answers.pop(message.sequence, None)
            if self._send(message):
                self.stats.sent += 1
            wait_until = min(deadline, time.monotonic() + self.resend_s)
            with self._cond:
                while True:
                    if self._closed:
                        raise LinkError(f"the link to {self.url} was closed")
                    if session != (self._port_epoch, self._reset_epoch):
                        return False  # the device rebooted or the port came back: its state is gone
                    answer = self._answers.pop(message.sequence, None)
                    if answer is not None and answer.type == p.MessageType.ACK:
                        return True
                    if answer is not None and answer.type == p.MessageType.ERROR:
                        code, _ = p.parse_error(answer.payload)
                        raise DeviceRejectedError(
                            f"the device refused message type {message.type:#04x}: {code!r}; "
                            "the host and firmware disagree about the protocol, update the firmware"
                        )
                    remaining = wait_until - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
            if time.monotonic() >= deadline:
                raise DeviceTimeoutError(
                    f"the LED controller on {self.url} did not acknowledge within the timeout "
                    f"(sent {self.stats.resent + 1} times); check the cable and its power"
                )
            self.stats.resent += 1

    def _handshake(self, deadline: float) -> DeviceInfo:
        """Say hello until the device announces itself; check it speaks our protocol."""
        with self._cond:
            self._announces.clear()
            start_bytes = self._bytes_in
            start_dropped = self._decoder.dropped
        while True:
            if self._closed:
                raise LinkError(f"the link to {self.url} was closed")
            epoch = self._port_epoch
            sequence = self._next_sequence()
            with self._cond:
                self._hello_sequences = {sequence}
            self._send(p.hello(sequence), flush_first=True)
            wait_until = min(deadline, time.monotonic() + self.resend_s)
            with self._cond:
                while not self._announces and not self._closed and time.monotonic() < wait_until:
                    self._cond.wait(wait_until - time.monotonic())
                announces = list(self._announces)
                self._announces.clear()
                got_bytes = self._bytes_in - start_bytes
                garbage = self._decoder.dropped - start_dropped
            for announce in announces:
                try:
                    info = p.parse_announce(announce.payload)
                except ProtocolError as error:
                    raise NotOurDeviceError(
                        f"the device on {self.url} sent a malformed announcement: {error}"
                    ) from None
                if info.protocol_version != p.PROTOCOL_VERSION:
                    raise NotOurDeviceError(
                        f"the device on {self.url} speaks LED protocol {info.protocol_version}, this program "
                        f"{p.PROTOCOL_VERSION}: flash the firmware that comes with this program"
                    )
                self._session = (epoch, self._reset_epoch)
                self.stats.handshakes += 1
                self.device_disconnected = False
                self.info = info
                return info
            if time.monotonic() >= deadline:
                if self._port is None:
                    raise NoDeviceError(f"the port {self.url} went away and did not come back")
                if got_bytes:
                    raise NotOurDeviceError(
                        f"{self.url} answered with {got_bytes} bytes ({garbage} garbled frames) but never in the "
                        "LED protocol: is this another device, or a board without the cascade firmware? "
                        "Flash it (see firmware_bridge/README.md) or pick the right port"
                    )
                raise NotOurDeviceError(
                    f"nothing on {self.url} answered the LED protocol's hello: is the cascade firmware flashed "
                    "and the baud rate right? (see firmware_bridge/README.md)"
                )

    # -- the port ----------------------------------------------------------------------------

    def _open_port(self, first: bool = False) -> bool:
        try:
            port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=READ_TIMEOUT_S, write_timeout=2)
        except (serial.SerialException, OSError, ValueError) as error:
            if first:
                raise NoDeviceError(
                    f"cannot open the LED port {self.url}: {error}; check the name, the cable and permissions "
                    "(membership of the dialout group)"
                ) from None
            return False
        with self._cond:
            self._port = port
            self._port_epoch += 1
            self._decoder = p.FrameDecoder()
            if not first:
                self.stats.reconnects += 1
            self._cond.notify_all()
        return True

    def _close_port(self) -> None:
        with self._cond:
            port, self._port = self._port, None
            self._cond.notify_all()
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _send(self, message: p.Message, flush_first: bool = False) -> bool:
        data = (b"\x00" if flush_first else b"") + p.encode(message)
        port = self._port
        if port is None:
            return False
        try:
            with self._write_lock:
                port.write(data)
                self._last_sent_s = time.monotonic()
            return True
        except PORT_FAILURES:
            self._lost_port(port)
            return False

    def _lost_port(self, port: serial.SerialBase) -> None:
        with self._cond:
            if self._port is port:
                self._port = None
                self._port_epoch += 1
                self._cond.notify_all()
        with contextlib.suppress(serial.SerialException, OSError):
            port.close()

    def _run(self) -> None:
        while not self._closed:
            port = self._port
            if port is None:
                if not self._open_port():
                    with self._cond:
                        self._cond.wait(0.1)
                continue
            try:
                data = port.read(max(1, int(getattr(port, "in_waiting", 1))))
            except PORT_FAILURES:
                self._lost_port(port)
                continue
            if data:
                self._receive(data)
            if (
                self.heartbeat_s is not None
                and self._session is not None
                and time.monotonic() - self._last_sent_s >= self.heartbeat_s
            ):
                self._send(p.heartbeat(0xFF & self._sequence))

    def _receive(self, data: bytes) -> None:
        with self._cond:
            self._bytes_in += len(data)
            for message in self._decoder.feed(data):
                self._last_heard_s = time.monotonic()
                self._dispatch(message)
            self.stats.host_dropped = self._decoder.dropped
            self._cond.notify_all()

    def _dispatch(self, message: p.Message) -> None:
        if message.type == p.MessageType.ANNOUNCE:
            if message.sequence not in self._hello_sequences:
                self._reset_epoch += 1  # the device rebooted on its own
                self.stats.resets += 1
            self._announces.append(message)
        elif message.type in (p.MessageType.ACK, p.MessageType.ERROR):
            self._answers[message.sequence] = message
        elif message.type == p.MessageType.DEVICE_HEARTBEAT:
            try:
                status = p.parse_device_heartbeat(message.payload)
            except ProtocolError:
                return
            self.stats.device_heartbeats += 1
            self.device_disconnected = status.disconnected
            self.stats.device_dropped = status.dropped
