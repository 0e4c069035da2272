"""LED matrices, the cell-to-LED map, highlight patterns, buttons and buzzer.

The live game drives the LEDs through one interface::

    from hardware import open_leds, highlight

    with open_leds("console:", "diamond:8") as leds:          # or "emu:", "serial:/dev/ttyACM0",
        leds.show(highlight.guidance(                         # "gpio:max7219?chips=1", "gpio:hc595?..."
            pending_cells={20: "x", 27: "="},
            error_cells={12: "o", 13: None},                  # None: the stone must go away
            last=[5],
        ))
        leds.shown()                                          # the frame on display, for the page

A frame (:class:`CellFrame`) maps cell indices (the board's canonical order)
to a :class:`CellLight` (a :class:`Colour` and a :class:`Pattern`). How the
LEDs sit under the cells is a :class:`LedMap`, usually read from the
calibration profile. Buttons come from :func:`open_buttons` and deliver
:class:`ButtonEvent` values.

A live game never waits for its LEDs: it wraps them in a :class:`KeptMatrix`
(``KeptMatrix(open_leds(...), on_change=...)``), whose ``show`` returns at
once and whose own thread keeps the controller showing the latest frame,
reconnecting by itself when it comes and goes; its :class:`LinkState` says
"LEDs disconnected since 20:31, retrying" while it is away.

Nothing here imports gpiozero until a GPIO driver is chosen, and the
firmware bridge (with pyserial) is imported only by the serial drivers.
"""

from __future__ import annotations

from hardware import highlight
from hardware.blink import legend
from hardware.buttons import ButtonEvent, Buttons, KeyboardButtons, NullButtons, WebButtons
from hardware.drivers import open_buttons, open_leds
from hardware.errors import (
    ButtonError,
    DeviceClosedError,
    FrameError,
    GpioError,
    HardwareError,
    LedMapError,
    LedsNotShownError,
    LedSpecError,
)
from hardware.frame import EMPTY, CellFrame, CellLight, Colour, Pattern
from hardware.kept import KeptMatrix, LinkState
from hardware.ledmap import LedLayout, LedMap, Wiring
from hardware.matrix import LedMatrix, NullMatrix

__all__ = [
    "EMPTY",
    "ButtonError",
    "ButtonEvent",
    "Buttons",
    "CellFrame",
    "CellLight",
    "Colour",
    "DeviceClosedError",
    "FrameError",
    "GpioError",
    "HardwareError",
    "KeptMatrix",
    "KeyboardButtons",
    "LedLayout",
    "LedMap",
    "LedMapError",
    "LedMatrix",
    "LedSpecError",
    "LedsNotShownError",
    "LinkState",
    "NullButtons",
    "NullMatrix",
    "Pattern",
    "WebButtons",
    "Wiring",
    "highlight",
    "legend",
    "open_buttons",
    "open_leds",
]
