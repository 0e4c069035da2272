"""The hub's store fed with a board's journal: each entry once, in order, whatever the broker did to them."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hub_messages import JournalMessage, game_key
from companion.store import Store
from hub.recorder import Recorder

PLIES = ["o d5", "x f5", "o c4", "x e4", "o b3", "x g3"]


def board_journal(store: Store, operations) -> list[JournalMessage]:
    """Play ``operations`` on a board's store; its journal as the board publishes it."""
    game = store.new_game("cascade", "diamond:8", {"White": "Ada", "Black": "Bo"})
    for kind, value in operations:
        if kind == "ply":
            store.add_ply(game, value)
        elif kind == "undo":
            store.take_back(game, value)
        elif store.plies(game):
            store.replace_ply(game, len(store.plies(game)), value)
    store.end_game(game, "1-0")
    key = game_key(game, store.game(game).started_at)
    return [JournalMessage("7", key, e.seq, e.kind, e.body, e.written_at) for e in store.journal(game)]


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("ply"), st.sampled_from(PLIES)),
        st.tuples(st.just("undo"), st.integers(1, 2)),
        st.tuples(st.just("correct"), st.sampled_from(PLIES)),
    ),
    max_size=20,
)


@settings(max_examples=40, deadline=None)
@given(OPERATIONS, st.integers(0, 2**32), st.integers(0, 5))
def test_shuffled_and_repeated_messages_make_the_boards_journal_exactly(tmp_path_factory, operations, seed, repeats):
    folder = tmp_path_factory.mktemp("hub")
    with (
        Store(folder / "board.sqlite3", refuse_damage=False) as board,
        Store(folder / "hub.sqlite3", refuse_damage=False) as store,
    ):
        messages = board_journal(board, operations)
        rng = random.Random(seed)
        arriving = messages + [rng.choice(messages) for _ in range(repeats)]
        rng.shuffle(arriving)
        recorder = Recorder(store, "ev")
        statuses = [o.status for m in arriving for o in recorder.apply(m)]
        missing = recorder.missing("7", messages[0].game)
        assert missing is None
        assert statuses.count("applied") == len(messages)
        game = recorder.game_id("7", messages[0].game)
        assert game is not None
        hub_journal = [(e.seq, e.kind, dict(e.body)) for e in store.journal(game) if e.kind != "start"]
        assert hub_journal == [(m.seq, m.kind, dict(m.body)) for m in messages if m.kind != "start"]
        assert [p.ply for p in store.plies(game)] == [p.ply for p in board.plies(1)]
        row = store.game(game)
        assert (row.result, row.header("Event"), row.header("Table"), row.header("White")) == ("1-0", "ev", "7", "Ada")


def test_a_gap_is_named_and_filled_and_a_hub_started_again_knows_where_it_was(tmp_path):
    with Store(tmp_path / "board.sqlite3") as board:
        messages = board_journal(board, [("ply", p) for p in PLIES[:4]])
    with Store(tmp_path / "hub.sqlite3", refuse_damage=False) as store:
        recorder = Recorder(store, "ev")
        key = messages[0].game
        assert [o.status for o in recorder.apply(messages[0])] == ["applied"]
        assert [o.status for o in recorder.apply(messages[2])] == ["early"]
        assert recorder.missing("7", key) == 2
        assert [o.status for o in recorder.apply(messages[1])] == ["applied", "applied"]
        assert recorder.missing("7", key) is None
        assert recorder.missing("7", key, known=5) == 4  # the board's state says it sent more
    with Store(tmp_path / "hub.sqlite3", refuse_damage=False) as store:
        again = Recorder(store, "ev")
        assert again.next_seq("7", key) == 4
        assert [o.status for o in again.apply(messages[1])] == ["duplicate"]
        assert [o.status for o in again.apply(messages[3])] == ["applied"]


def test_a_correction_replaces_its_ply_and_never_branches(tmp_path):
    with Store(tmp_path / "hub.sqlite3", refuse_damage=False) as store:
        recorder = Recorder(store, "ev")
        start = {"game": "cascade", "geometry": "diamond:8", "headers": {}, "started_at": "t"}
        hand_made = [
            JournalMessage("3", "1@t", 1, "start", start),
            JournalMessage("3", "1@t", 2, "ply", {"number": 1, "ply": "o d5", "diagram": ""}),
            JournalMessage("3", "1@t", 3, "ply", {"number": 2, "ply": "x f5", "diagram": ""}),
            JournalMessage("3", "1@t", 4, "correction", {"number": 1, "ply": "o d4", "diagram": ""}),
            JournalMessage("3", "1@t", 5, "ply", {"number": 3, "ply": "o c4", "diagram": ""}),
            JournalMessage("3", "1@t", 6, "alert", {"message": "Two stones were dropped", "plies": 3}),
        ]
        for message in hand_made:
            assert [o.status for o in recorder.apply(message)] == ["applied"]
        game = recorder.game_id("3", "1@t")
        assert [p.ply for p in store.plies(game)] == ["o d4", "x f5", "o c4"]
        assert [e.kind for e in store.journal(game)] == ["start", "ply", "ply", "correction", "ply", "alert"]
        assert store.journal(game)[-1].body == {"message": "Two stones were dropped", "plies": 3}


def test_a_game_whose_start_never_came_waits_and_one_that_cannot_be_kept_is_named(tmp_path):
    with Store(tmp_path / "hub.sqlite3", refuse_damage=False) as store:
        recorder = Recorder(store, "ev")
        ply = JournalMessage("4", "2@t", 2, "ply", {"number": 1, "ply": "o d5"})
        assert [o.status for o in recorder.apply(ply)] == ["early"]
        assert recorder.missing("4", "2@t") == 1
        bad_start = JournalMessage("4", "2@t", 1, "start", {"game": "chess", "geometry": "diamond:8"})
        assert [o.status for o in recorder.apply(bad_start)] == ["refused"]
        assert "not a game" in recorder.refused("4", "2@t")
        assert recorder.missing("4", "2@t") is None
        assert [o.status for o in recorder.apply(ply)] == ["refused"]
