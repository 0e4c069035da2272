"""A stand-in live source for page tests: fixed snapshots, recorded actions."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping

from companion.errors import LiveGameError
from companion.snapshot import CellMark, Snapshot
from companion.web.broadcast import Broadcaster, encode_event
from referee.geometry import parse_geometry


def make_snapshot(spec: str = "diamond:3", seq: int = 1, **changes) -> Snapshot:
    geometry = parse_geometry(spec)
    values = dict(
        seq=seq,
        game="cascade",
        geometry=spec,
        game_id=1,
        diagram="  .\n . .\n. . .\n . .\n  .",
        cells=tuple("." for _ in geometry.cells),
        observed=tuple("." for _ in geometry.cells),
        score=(("white", 0), ("black", 0)),
        turn="white to move",
    )
    values.update(changes)
    return Snapshot(**values)  # type: ignore[arg-type]


class FakeLive:
    """Offers one snapshot at a time; records every action."""

    def __init__(self, snap: Snapshot | None = None) -> None:
        self.broadcaster = Broadcaster()
        self.current = snap or make_snapshot()
        self.actions: list[tuple[str, dict[str, str]]] = []
        self.frames: list[bytes] = [b"\xff\xd8frame1\xff\xd9"]
        self._lock = threading.Lock()

    def snapshot(self) -> Snapshot:
        return self.current

    def publish(self, snap: Snapshot) -> None:
        self.current = snap
        self.broadcaster.publish(encode_event(json.dumps(snap.to_json()), "snapshot"))

    def perform(self, action: str, params: Mapping[str, str]) -> str:
        if action == "correct" and "cell" not in params:
            raise LiveGameError("say which cell to correct")
        self.actions.append((action, dict(params)))
        return f"done: {action}"

    def camera_jpeg(self, after: int, timeout_s: float) -> tuple[int, bytes] | None:
        if after + 1 < len(self.frames):
            return after + 1, self.frames[after + 1]
        return None


__all__ = ["CellMark", "FakeLive", "make_snapshot"]
