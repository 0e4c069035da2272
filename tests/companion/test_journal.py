"""The store's journal: every change told once, numbered within its game, in the change's own transaction."""

from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.store import MIGRATIONS, Store

PLIES = ["o d5", "x f5", "o c4", "x e4", "o b3", "x g3"]


def kinds(store: Store, game: int) -> list[tuple[int, str]]:
    return [(e.seq, e.kind) for e in store.journal(game)]


def test_each_change_is_one_numbered_entry(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game = store.new_game("cascade", "diamond:8", {"White": "Ada"})
        store.add_ply(game, "o d5", "d1")
        store.add_ply(game, "x f5", "d2")
        assert store.take_back(game, 1) == 1
        assert store.take_back(game, 0) == 0  # nothing taken back: nothing told
        store.replace_ply(game, 1, "o d4", "d1'")
        store.add_alert(game, "Two stones were dropped")
        store.end_game(game, "1-0")
        assert kinds(store, game) == [
            (1, "start"),
            (2, "ply"),
            (3, "ply"),
            (4, "undo"),
            (5, "correction"),
            (6, "alert"),
            (7, "result"),
        ]
        entries = store.journal(game)
        assert entries[0].body["headers"] == {"White": "Ada"} and entries[0].body["game"] == "cascade"
        assert entries[2].body == {"number": 2, "ply": "x f5", "diagram": "d2"}
        assert entries[3].body == {"count": 1, "plies": 1}
        assert entries[4].body == {"number": 1, "ply": "o d4", "diagram": "d1'"}
        assert entries[5].body == {"message": "Two stones were dropped", "plies": 1}
        assert [p.ply for p in store.plies(game)] == ["o d4"]
        assert store.last_entry(game) == 7
        assert [e.seq for e in store.journal(game, after=4)] == [5, 6, 7]


def test_a_correction_of_a_ply_that_is_not_there_is_refused_and_told_nowhere(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game = store.new_game("cascade", "diamond:8")
        try:
            store.replace_ply(game, 3, "o d5")
        except LookupError as error:
            assert "no ply 3" in str(error)
        else:
            raise AssertionError("a missing ply was corrected")
        assert kinds(store, game) == [(1, "start")]


def test_a_store_of_schema_2_gets_the_journal_of_its_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    for script in MIGRATIONS[:2]:
        db.executescript(script)
    db.execute("PRAGMA application_id = 1128354627")
    db.execute("PRAGMA user_version = 2")
    db.execute(
        "INSERT INTO games (game, geometry, headers, started_at, ended_at, result) "
        "VALUES ('cascade', 'diamond:8', '{\"White\": \"Bo\"}', 't0', 't9', '0-1')"
    )
    db.execute("INSERT INTO games (game, geometry, headers, started_at) VALUES ('cascade', 'diamond:8', '{}', 't1')")
    for number, ply in enumerate(PLIES[:2], start=1):
        db.execute("INSERT INTO plies VALUES (1, ?, ?, '', 't')", (number, ply))
    db.commit()
    db.close()
    with Store(path) as store:
        assert kinds(store, 1) == [(1, "start"), (2, "ply"), (3, "ply"), (4, "result")]
        assert store.journal(1)[0].body["headers"] == {"White": "Bo"}
        assert store.journal(1)[3].body == {"result": "0-1"}
        assert kinds(store, 2) == [(1, "start")]
        store.add_ply(2, "o d5")
        assert kinds(store, 2) == [(1, "start"), (2, "ply")]


def test_what_a_destination_acknowledged_is_kept_and_never_moves_back(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        one = store.new_game("cascade", "diamond:8")
        for ply in PLIES[:3]:
            store.add_ply(one, ply)
        store.end_game(one, "*")
        two = store.new_game("cascade", "diamond:8")
        store.add_ply(two, PLIES[0])
        assert [(e.game_id, e.seq) for e in store.unsent("hub")] == [(one, s) for s in range(1, 6)] + [
            (two, 1),
            (two, 2),
        ]
        store.mark_sent("hub", {one: 3})
        store.mark_sent("hub", {one: 2})
        assert store.sent_marks("hub") == {one: 3}
        assert [(e.game_id, e.seq) for e in store.unsent("hub", limit=3)] == [(one, 4), (one, 5), (two, 1)]
        assert [(e.game_id, e.seq) for e in store.unsent("hub", after=(two, 1))] == [(two, 2)]
        assert store.sent_marks("elsewhere") == {}


OPERATION = st.one_of(
    st.tuples(st.just("ply"), st.sampled_from(PLIES)),
    st.tuples(st.just("undo"), st.integers(1, 3)),
    st.tuples(st.just("correct"), st.sampled_from(PLIES)),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(OPERATION, max_size=25))
def test_the_journal_played_into_an_empty_store_gives_the_same_plies(tmp_path_factory, operations):
    folder = tmp_path_factory.mktemp("journal")
    with Store(folder / "board.sqlite3", refuse_damage=False) as board, Store(folder / "copy.sqlite3") as copy:
        game = board.new_game("cascade", "diamond:8")
        for kind, value in operations:
            count = len(board.plies(game))
            if kind == "ply":
                board.add_ply(game, str(value))
            elif kind == "undo":
                board.take_back(game, int(value))
            elif count:
                board.replace_ply(game, count, str(value))
        board.end_game(game, "1/2-1/2")
        copied = None
        for entry in board.journal(game):
            body = entry.body
            if entry.kind == "start":
                copied = copy.new_game(body["game"], body["geometry"], body["headers"])
            elif entry.kind == "ply":
                assert copy.add_ply(copied, body["ply"], body["diagram"]) == body["number"]
            elif entry.kind == "undo":
                copy.take_back(copied, body["count"])
                assert len(copy.plies(copied)) == body["plies"]
            elif entry.kind == "correction":
                copy.replace_ply(copied, body["number"], body["ply"], body["diagram"])
            else:
                copy.end_game(copied, body["result"])
        assert [p.ply for p in copy.plies(copied)] == [p.ply for p in board.plies(game)]
        told = [(e.seq, e.kind, dict(e.body)) for e in board.journal(game) if e.kind != "start"]
        assert [(e.seq, e.kind, dict(e.body)) for e in copy.journal(copied) if e.kind != "start"] == told
