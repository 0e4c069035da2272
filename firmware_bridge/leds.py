"""What the LEDs should show: frames, blink modes, palettes, device identity.

These are plain values shared by the host link, the emulator and the tests.
A frame holds, per LED, a palette index (0 is off) and a blink mode; the
device turns it into colours with its palette, the brightness and the blink
phases. :func:`render` is that rule, written once, so the emulator and the
tests agree with the firmware (which implements the same rule in C).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

RGB = tuple[int, int, int]

MAX_LEDS = 256
MAX_PALETTE = 16
OFF = 0

# The firmware's palette, in order; index 0 is always off.
DEFAULT_PALETTE: tuple[RGB, ...] = (
    (0, 0, 0),  # 0 off
    (255, 255, 255),  # 1 white
    (255, 0, 0),  # 2 red
    (0, 255, 0),  # 3 green
    (0, 0, 255),  # 4 blue
    (255, 160, 0),  # 5 yellow
    (0, 255, 255),  # 6 cyan
    (255, 0, 255),  # 7 magenta
    (255, 64, 0),  # 8 orange
    (128, 0, 255),  # 9 purple
    (255, 96, 128),  # 10 pink
    (48, 48, 48),  # 11 dim white
)
PALETTE_NAMES: tuple[str, ...] = (
    "off",
    "white",
    "red",
    "green",
    "blue",
    "yellow",
    "cyan",
    "magenta",
    "orange",
    "purple",
    "pink",
    "dim-white",
)

# The "disconnected" pattern: every fourth LED blinks slowly in this colour.
DISCONNECTED_COLOUR = 4
DISCONNECTED_EVERY = 4

DEFAULT_BRIGHTNESS = 64
DEFAULT_SLOW_PERIOD_MS = 1000
DEFAULT_FAST_PERIOD_MS = 250
MIN_PERIOD_MS = 20
MAX_PERIOD_MS = 60000


class Blink(enum.IntEnum):
    """How one LED blinks. ``*_ALT`` is lit while the plain mode is dark (two colours by turns)."""

    STEADY = 0
    SLOW = 1
    SLOW_ALT = 2
    FAST = 3
    FAST_ALT = 4


class Capability(enum.IntFlag):
    """What a device announces it can do."""

    NONE = 0
    BLINK = 0x01
    BRIGHTNESS = 0x02
    WATCHDOG = 0x04  # shows the "disconnected" pattern when the host's heartbeat stops
    RGB = 0x08  # full-colour LEDs (a single-colour matrix leaves this out and uses blink for colour)


@dataclass(frozen=True)
class DeviceInfo:
    """What the device announced about itself on boot or in answer to a hello."""

    protocol_version: int
    firmware_version: tuple[int, int, int]
    led_count: int
    palette: tuple[RGB, ...]
    capabilities: Capability


@dataclass(frozen=True)
class BlinkTiming:
    """The full periods of the slow and fast blink; each is lit for the first half of its period."""

    slow_period_ms: int = DEFAULT_SLOW_PERIOD_MS
    fast_period_ms: int = DEFAULT_FAST_PERIOD_MS

    def __post_init__(self) -> None:
        for name, value in (("slow", self.slow_period_ms), ("fast", self.fast_period_ms)):
            if not MIN_PERIOD_MS <= value <= MAX_PERIOD_MS:
                raise ValueError(f"the {name} blink period must be {MIN_PERIOD_MS}..{MAX_PERIOD_MS} ms, not {value}")


@dataclass(frozen=True)
class LedFrame:
    """The whole desired state of the LEDs: a palette index and a blink mode per LED.

    Build one with :meth:`from_lists` or :meth:`off`; it is checked on
    construction, so a frame that exists can be sent.
    """

    colours: tuple[int, ...]
    blinks: tuple[Blink, ...]

    def __post_init__(self) -> None:
        if len(self.colours) != len(self.blinks):
            raise ValueError(
                f"a frame needs one blink mode per LED: {len(self.colours)} colours, {len(self.blinks)} modes"
            )
        if not 1 <= len(self.colours) <= MAX_LEDS:
            raise ValueError(f"a frame holds 1..{MAX_LEDS} LEDs, not {len(self.colours)}")
        for i, colour in enumerate(self.colours):
            if not 0 <= colour < MAX_PALETTE:
                raise ValueError(f"LED {i}: palette index {colour} is outside 0..{MAX_PALETTE - 1}")
        for i, blink in enumerate(self.blinks):
            if not isinstance(blink, Blink):
                raise ValueError(f"LED {i}: blink mode {blink!r} is not a Blink")

    @classmethod
    def from_lists(cls, colours: Sequence[int], blinks: Sequence[Blink | int] | None = None) -> LedFrame:
        """A frame from a list of palette indices and an optional list of blink modes (default steady)."""
        modes = [Blink.STEADY] * len(colours) if blinks is None else [Blink(b) for b in blinks]
        return cls(tuple(int(c) for c in colours), tuple(modes))

    @classmethod
    def off(cls, led_count: int) -> LedFrame:
        """All LEDs off."""
        return cls.from_lists([OFF] * led_count)

    def __len__(self) -> int:
        return len(self.colours)


def disconnected_pattern(led_count: int) -> LedFrame:
    """The frame a device shows when the host's heartbeat stopped: every fourth LED blinks slowly in blue."""
    colours = [DISCONNECTED_COLOUR if i % DISCONNECTED_EVERY == 0 else OFF for i in range(led_count)]
    return LedFrame.from_lists(colours, [Blink.SLOW] * led_count)


def scale(value: int, brightness: int) -> int:
    """One colour channel at a brightness 0..255 (255 leaves it unchanged); the firmware's exact rule."""
    return (value * (brightness + 1)) >> 8


def is_lit(blink: Blink, slow_on: bool, fast_on: bool) -> bool:
    """Whether an LED with this blink mode is lit in the given phases."""
    if blink == Blink.SLOW:
        return slow_on
    if blink == Blink.SLOW_ALT:
        return not slow_on
    if blink == Blink.FAST:
        return fast_on
    if blink == Blink.FAST_ALT:
        return not fast_on
    return True


def render(frame: LedFrame, palette: Sequence[RGB], brightness: int, slow_on: bool, fast_on: bool) -> tuple[RGB, ...]:
    """The colours the LEDs show for a frame, in the given blink phases."""
    shown: list[RGB] = []
    for colour, blink in zip(frame.colours, frame.blinks, strict=True):
        if colour == OFF or colour >= len(palette) or not is_lit(blink, slow_on, fast_on):
            shown.append((0, 0, 0))
        else:
            r, g, b = palette[colour]
            shown.append((scale(r, brightness), scale(g, brightness), scale(b, brightness)))
    return tuple(shown)


def phases(now_ms: float, timing: BlinkTiming) -> tuple[bool, bool]:
    """(slow lit, fast lit) at a time in milliseconds of the device clock."""
    slow = now_ms % timing.slow_period_ms < timing.slow_period_ms / 2
    fast = now_ms % timing.fast_period_ms < timing.fast_period_ms / 2
    return slow, fast
