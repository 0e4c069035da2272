"""Opening an LED matrix or a set of buttons from a spec string.

LED specs: ``serial:URL`` (any pyserial URL or device path), ``emu:``,
``sim:``, ``gpio:max7219?OPTIONS``, ``gpio:hc595?OPTIONS``, ``console:``,
``none:``. Options after ``?`` are ``name=value`` pairs joined by ``&``;
keyword options given to :func:`open_leds` win over them.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from hardware.buttons import KEYS, ButtonEvent, Buttons, KeyboardButtons, NullButtons, WebButtons
from hardware.errors import ButtonError, LedSpecError
from hardware.ledmap import LedMap
from hardware.matrix import LedMatrix, NullMatrix
from hardware.options import parse_flag
from referee.geometry import Geometry, parse_geometry

LED_FORMS = "serial:URL, emu:, sim:, gpio:max7219?..., gpio:hc595?..., console: or none:"
BUTTON_FORMS = "gpio:end_turn=5&pass=6&confirm=13&undo=19, keyboard:, web: or none:"


def split_spec(spec: str, what: str = "LEDs") -> tuple[str, str, dict[str, str]]:
    """(kind, rest, options) of ``kind:rest?a=1&b=2``."""
    kind, sep, rest = spec.strip().partition(":")
    if not sep:
        kind_of = "an LED spec" if what == "LEDs" else "a buttons spec"
        forms = LED_FORMS if what == "LEDs" else BUTTON_FORMS
        raise LedSpecError(f"'{spec}' is not {kind_of}: write one of {forms}")
    body, _, query = rest.partition("?")
    try:
        options = dict(parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)))
    except ValueError:
        raise LedSpecError(f"'{spec}': write options as name=value pairs joined by &, like ?chips=2&select=8") from None
    return kind.strip().lower(), body.strip(), options


def open_leds(spec: str, geometry: Geometry | str, led_map: LedMap | None = None, **options: Any) -> LedMatrix:
    """Open the LED matrix named by ``spec`` for the board ``geometry`` (a Geometry or its spec).

    ``led_map`` is how the LEDs are wired (row-major, one LED per cell, when
    not given). Raises LedSpecError for a malformed spec, LedMapError when the
    map does not fit, GpioError when the pins cannot be reached, and the
    firmware bridge's LinkError family when a controller cannot be opened.
    """
    board = parse_geometry(geometry) if isinstance(geometry, str) else geometry
    if spec.strip().lower().startswith("serial:"):
        from hardware.bridge import BridgeMatrix

        url = spec.strip()[len("serial:") :].strip()
        if not url:
            raise LedSpecError("serial: needs a port, like serial:/dev/ttyACM0 or serial:socket://host:7000")
        return BridgeMatrix(board, led_map, spec=f"serial:{url}", **options)
    kind, body, query = split_spec(spec)
    merged: dict[str, Any] = {**query, **options}
    if kind == "none":
        _no_options(spec, merged)
        return NullMatrix(board, led_map)
    if kind == "console":
        from hardware.console import ConsoleMatrix

        stream = merged.pop("stream", None)
        ansi = merged.pop("ansi", None)
        _no_options(spec, merged)
        return ConsoleMatrix(board, led_map, stream=stream, ansi=None if ansi is None else parse_flag(ansi, "ansi"))
    if kind in ("emu", "sim"):
        from hardware.bridge import BridgeMatrix

        if body:
            raise LedSpecError(f"'{spec}': write {kind}: alone, with options after ?, like {kind}:?leds=64")
        return BridgeMatrix(board, led_map, spec=f"{kind}:", **merged)
    if kind == "gpio":
        if body == "max7219":
            from hardware.max7219 import Max7219Matrix

            return Max7219Matrix(board, led_map, **merged)
        if body == "hc595":
            from hardware.hc595 import Hc595Matrix

            return Hc595Matrix(board, led_map, **merged)
        raise LedSpecError(f"'{spec}': the GPIO LED drivers are gpio:max7219?... and gpio:hc595?...")
    raise LedSpecError(f"'{spec}' is not an LED spec: write one of {LED_FORMS}")


def _no_options(spec: str, options: dict[str, Any]) -> None:
    if options:
        raise LedSpecError(f"'{spec}' takes no option {sorted(options)[0]!r}")


def open_buttons(spec: str, **options: Any) -> Buttons:
    """Open the buttons named by ``spec``: ``gpio:...``, ``keyboard:``, ``web:`` or ``none:``.

    ``on_press`` (a function of a ButtonEvent) may be given for every kind;
    see the module docstring for each kind's options.
    """
    kind, body, query = split_spec(spec, "buttons")
    if kind == "gpio":
        from hardware.gpio_buttons import GpioButtons

        if "=" in body:
            _, _, query_text = spec.partition(":")
            kind, body, query = split_spec(f"gpio:?{query_text.replace('?', '&')}", "buttons")
        elif body:
            raise ButtonError(f"'{spec}': write the pins as gpio:end_turn=5&pass=6&confirm=13&undo=19")
        return GpioButtons(**{**query, **options})
    if body or (query and kind != "keyboard"):
        raise ButtonError(f"'{spec}': {kind}: takes no settings in the spec")
    if kind == "none":
        return NullButtons(**options)
    if kind == "web":
        return WebButtons(**options)
    if kind == "keyboard":
        keys = {key: ButtonEvent.parse(name) for name, key in query.items()} if query else None
        if keys is not None:
            keys = {**{k: e for k, e in KEYS.items() if e not in keys.values()}, **keys}
        return KeyboardButtons(keys=keys, **options)
    raise ButtonError(f"'{spec}' is not a buttons spec: write gpio:..., keyboard:, web: or none:")
