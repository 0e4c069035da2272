"""Load: 200 Server-Sent-Event viewers for 30 seconds on loopback; none of them stalls the live game."""

from __future__ import annotations

import pytest

from companion.demo_game import start_demo
from companion.web.viewers import SseViewers

VIEWERS = 200
STALLED = 5
DURATION_S = 30.0


@pytest.mark.slow
def test_200_viewers_for_30_seconds_do_not_stall_the_game(tmp_path):
    session = start_demo(tmp_path, fps=8.0, leds_spec="emu:", port=0, camera=True)
    live = session.live
    crowd = stalled = None
    try:
        crowd = SseViewers("127.0.0.1", session.server.port, VIEWERS)
        stalled = SseViewers("127.0.0.1", session.server.port, STALLED, reading=False)
        assert crowd.wait_for_seq(1, 30.0), "not every viewer got its first snapshot"
        plies_before = sum(g.ply_count for g in session.store.games())
        frames_before = live.snapshot().frames
        assert session.wait(DURATION_S) == "time is up"
        assert session.worker_error is None
        plies_after = sum(g.ply_count for g in session.store.games())
        frames_after = live.snapshot().frames
        session.stop_workers()
        assert crowd.wait_for_seq(live.snapshot().seq, 30.0), "a viewer fell behind the live game"
    finally:
        for viewers in (crowd, stalled):
            if viewers is not None:
                viewers.close()
        session.close()
    assert plies_after >= plies_before + 5, "the game did not move on while the viewers watched"
    assert frames_after > frames_before
    assert min(crowd.events) >= 5
