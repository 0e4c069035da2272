"""Stone symbols and their numeric codes, shared by every game.

Symbols (docs/rules.md): ``o`` white, ``x`` black, ``=`` red (neutral), ``.`` an
empty cell; observations may also hold ``?`` for a cell that could not be read.

Positions store cells as bytes of codes: white 0, black 1, red 2, empty 3.
With colours numbered this way the Cascade colour rule is linear:
``child = -(a + b) mod 3``.
"""

from __future__ import annotations

WHITE = "o"
BLACK = "x"
RED = "="
EMPTY = "."
UNKNOWN = "?"

COLOURS = (WHITE, BLACK, RED)
SYMBOLS = (WHITE, BLACK, RED, EMPTY)

WHITE_CODE = 0
BLACK_CODE = 1
RED_CODE = 2
EMPTY_CODE = 3

CODE_OF = {WHITE: WHITE_CODE, BLACK: BLACK_CODE, RED: RED_CODE, EMPTY: EMPTY_CODE}
SYMBOL_OF = (WHITE, BLACK, RED, EMPTY)
COLOUR_NAMES = {WHITE: "white", BLACK: "black", RED: "red", EMPTY: "empty"}
CODE_BY_NAME = {"white": WHITE_CODE, "black": BLACK_CODE}

# bytes.translate table: codes -> symbol characters (for fast diagrams)
TO_SYMBOL_BYTES = bytes(ord(SYMBOL_OF[i]) if i < 4 else ord(UNKNOWN) for i in range(256))


def mix(a: int, b: int) -> int:
    """The colour code of a cascade stone under parents (or children) ``a`` and ``b``.

    Equal colours give that colour, different ones the third: -(a + b) mod 3.
    """
    return -(a + b) % 3


def other(code: int) -> int:
    """The other player's colour code (white <-> black)."""
    return 1 - code


def colour_name(symbol: str) -> str:
    """``white``, ``black``, ``red`` or ``empty`` for a symbol."""
    return COLOUR_NAMES.get(symbol, "unreadable")
