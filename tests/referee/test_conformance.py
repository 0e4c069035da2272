"""Data-driven conformance: every case in conformance/ replays to its hand-checked result."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from referee import Cascaded, Placed, Removed, ReplayError, Wave, read_diagram, read_record, replay
from referee.rules import Event

CASES = sorted((Path(__file__).parent / "conformance").glob("*.case"))


def load_case(path: Path) -> dict[str, str]:
    """The sections of a case file, by name."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("== "):
            current = line[3:].strip()
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    return {k: "\n".join(v).strip("\n") for k, v in sections.items()}


def event_text(event: Event) -> str:
    """An event in the notation of conformance/README.md."""
    if isinstance(event, Placed):
        return f"place {event.cell.name} {event.symbol}"
    if isinstance(event, Cascaded):
        return f"cascade {event.cell.name} {event.symbol} {event.round}"
    if isinstance(event, Removed):
        return f"remove {event.cell.name} {event.symbol}"
    assert isinstance(event, Wave)
    return f"wave {event.number} " + " ".join(c.name for c in event.cells)


def test_every_game_and_variant_is_covered():
    games = set()
    for path in CASES:
        record = read_record(load_case(path)["record"])
        games.add((record.rules.game, record.rules.geometry.kind, record.rules.variant))
    assert {g for g, _, _ in games} == {"cascade", "cascades", "kaskade"}
    assert ("cascade", "diamond", "fill-above") in games
    assert ("cascade", "hex-diamond", None) in games
    for variant in (None, "territory", "hexagon", "free-drop"):
        assert any(g == "cascades" and v == variant for g, _, v in games), variant


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path):
    case = load_case(path)
    record = read_record(case["record"])
    if "error" in case:
        with pytest.raises(ReplayError) as caught:
            replay(record)
        assert case["error"] in str(caught.value)
        return
    game = replay(record)
    position = game.position
    expected = read_diagram(case["diagram"], record.rules.game)
    assert expected.geometry.rows == position.geometry.rows
    assert expected.symbols == position.symbols()
    assert diagram_lines(position.diagram()) == diagram_lines(case["diagram"])
    lines = [f"{replace(m.ply, cascade=m.cascade or None)} | " for m in game.moves]
    got = [
        f"{line}{'; '.join(event_text(e) for e in m.events)}".rstrip()
        for line, m in zip(lines, game.moves, strict=True)
    ]
    assert got == [line.rstrip() for line in case["events"].split("\n")]
    assert str(game.score) == case["score"]
    assert game.result == case["result"]


def diagram_lines(text: str) -> list[str]:
    """A diagram's lines without the document's indentation or trailing spaces."""
    return [line.rstrip() for line in textwrap.dedent(text).strip("\n").split("\n")]
