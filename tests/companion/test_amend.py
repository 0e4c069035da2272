"""Correcting a ply: the later plies replayed against it, misfits and cuts, the store's journal and audit trail."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.amend import CorrectionError, amend, require_fit, save, start_of
from companion.assess import ply_text
from companion.hub_messages import JournalMessage, game_key
from companion.live import LiveGame
from companion.store import Store, export_record, format_record
from hub.recorder import Recorder
from referee import read_record, replay
from referee.game import make_rules

EXAMPLE = ("o d5", "x f5 =", "= c6 =", "x h5 xox", "o g4")  # docs/rules.md
GAMES = [("cascade", "diamond:4"), ("cascades", "trapezoid:4,4"), ("kaskade", "grid:3x3")]


def cascade_start():
    return make_rules("cascade", "diamond:8").start()


def replays(start, plies) -> list[str]:
    position, texts = start, []
    for text in plies:
        move = position.play(text)
        texts.append(ply_text(move))
        position = move.position
    return texts


def test_a_corrected_drop_works_out_the_later_cascades_again():
    amendment = amend(cascade_start(), EXAMPLE, 1, "x d5")
    assert amendment.was == "o d5" and amendment.now == "x d5"
    assert amendment.misfit is None and amendment.cut == 0
    assert amendment.plies[0] == "x d5"
    assert amendment.plies[1] == "x f5 x"  # two black parents make a black child now
    assert 2 in amendment.changed
    assert list(amendment.plies) == replays(cascade_start(), amendment.plies)
    assert "ply 1 corrected from o d5 to x d5" in amendment.words()


def test_a_later_ply_that_no_longer_fits_is_named_and_the_game_is_cut_only_when_asked():
    preview = amend(cascade_start(), EXAMPLE, 1, "o f5")
    assert preview.misfit is not None and preview.misfit.number == 2
    assert "f5" in preview.misfit.reason
    with pytest.raises(CorrectionError, match="cut the game there"):
        require_fit(preview)
    cut = amend(cascade_start(), EXAMPLE, 1, "o f5", cut=True)
    assert cut.cut == 4 and cut.plies == ("o f5",)
    require_fit(cut)
    assert "cut from ply 2" in cut.words()


@pytest.mark.parametrize(
    ("number", "text", "words"),
    [
        (0, "o d5", "no ply 0: give a number from 1 to 5"),
        (6, "o d5", "no ply 6"),
        (2, "", "say what ply 2 should be"),
        (2, "zz top", "cannot be ply 2"),
        (2, "o d5", "cannot be ply 2"),  # d5 is filled
        (1, "o  d5", "already o d5"),
    ],
)
def test_a_correction_that_cannot_be_made_says_why(number, text, words):
    with pytest.raises(CorrectionError, match=words):
        amend(cascade_start(), EXAMPLE, number, text)


def random_game(start, rng: random.Random, length: int) -> list[str]:
    position, plies = start, []
    while len(plies) < length and not position.is_over:
        choices = list(position.legal_plies())
        if not choices:
            break
        move = position.play(rng.choice(choices))
        plies.append(ply_text(move))
        position = move.position
    return plies


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(2, 12), st.data())
def test_a_cut_correction_always_leaves_a_game_the_rules_replay(game_board, seed, length, data):
    start = make_rules(*game_board).start()
    rng = random.Random(seed)
    plies = random_game(start, rng, length)
    if not plies:
        return
    number = data.draw(st.integers(1, len(plies)))
    position = start
    for text in plies[: number - 1]:
        position = position.play(text).position
    others = [p for p in position.legal_plies() if ply_text(position.play(p)) != plies[number - 1]]
    if not others:
        return
    text = str(data.draw(st.sampled_from(others)))
    amendment = amend(start, plies, number, text, cut=True)
    assert list(amendment.plies[: number - 1]) == plies[: number - 1]  # what came before never changes
    assert list(amendment.plies) == replays(start, amendment.plies)
    assert len(amendment.plies) + amendment.cut == len(plies)
    assert all(amendment.plies[n - 1] != plies[n - 1] for n in amendment.changed)


def journal_copy(store: Store, game: int, hub: Store) -> int:
    """The board's journal applied to a hub's store, as the hub does."""
    key = game_key(game, store.game(game).started_at)
    recorder = Recorder(hub, "ev")
    for entry in store.journal(game):
        message = JournalMessage("7", key, entry.seq, entry.kind, entry.body, entry.written_at)
        outcome = recorder.apply(message)[-1]
        assert outcome.status == "applied", outcome
    copied = recorder.game_id("7", key)
    assert copied is not None
    return copied


def test_a_logged_game_corrected_and_cut_reaches_the_journal_the_audit_and_the_export(tmp_path):
    with Store(tmp_path / "board.sqlite3") as store, Store(tmp_path / "hub.sqlite3", refuse_damage=False) as hub:
        game = store.new_game("cascade", "diamond:8", {"White": "Ada", "Black": "Bo"})
        for text in EXAMPLE:
            store.add_ply(game, text)
        store.end_game(game, "*")
        start = start_of("cascade", "diamond:8", dict(store.game(game).headers))
        save(store, game, amend(start, EXAMPLE, 1, "x d5"), "192.0.2.7")
        fixed = [p.ply for p in store.plies(game)]
        assert fixed[:2] == ["x d5", "x f5 x"]
        with pytest.raises(CorrectionError, match="no longer fits"):
            save(store, game, amend(start, fixed, 1, "o f5"), "192.0.2.7")
        assert [p.ply for p in store.plies(game)] == fixed  # refused: nothing changed
        save(store, game, amend(start, fixed, 1, "o f5", cut=True), "192.0.2.8")
        assert [p.ply for p in store.plies(game)] == ["o f5"]
        store.set_players(game, {"White": "Ada Lovelace", "Black": ""}, "192.0.2.9")
        store.set_result(game, "1-0", "192.0.2.9")
        trail = store.audit(game)
        assert [e.kind for e in trail] == ["correction", "correction", "players", "result"]
        assert trail[0].address == "192.0.2.7" and "ply 1 corrected from o d5 to x d5" in trail[0].words
        record = export_record(store, game)
        assert record.count("{") == 4 and "from 192.0.2.8" in record
        assert '[Result "1-0"]' in record and '[White "Ada Lovelace"]' in record and "[Black " not in record
        again = replay(read_record(record))
        assert [ply_text(m) for m in again.moves] == ["o f5"]
        copied = journal_copy(store, game, hub)
        assert [p.ply for p in hub.plies(copied)] == ["o f5"]
        assert hub.game(copied).result == "1-0"
        assert hub.game(copied).header("White") == "Ada Lovelace" and hub.game(copied).header("Table") == "7"


def test_a_correction_worked_out_on_an_old_view_of_the_game_is_refused(tmp_path):
    with Store(tmp_path / "s.sqlite3") as store:
        game = store.new_game("cascade", "diamond:8")
        for text in EXAMPLE[:3]:
            store.add_ply(game, text)
        amendment = amend(cascade_start(), EXAMPLE[:3], 1, "x d5")
        store.add_ply(game, EXAMPLE[3])
        with pytest.raises(Exception, match="changed while the correction was worked out"):
            save(store, game, amendment, "")
        assert [p.ply for p in store.plies(game)] == list(EXAMPLE[:4])


def test_the_live_game_takes_a_correction_and_expects_the_corrected_board(tmp_path):
    start = cascade_start()
    with Store(tmp_path / "s.sqlite3") as store:
        live = LiveGame.start_or_resume(start, store)
        position = start
        for text in EXAMPLE:
            position = position.play(text).position
            live.on_reading(position.symbols())
        assert [ply_text(m) for m in live.moves] == list(EXAMPLE)
        amendment = live.amend(1, "x d5", cut=False, address="192.0.2.7")
        assert [ply_text(m) for m in live.moves] == list(amendment.plies)
        assert [p.ply for p in store.plies(live.game_id)] == list(amendment.plies)
        snap = live.snapshot()
        assert snap.moves[0] == "x d5" and snap.errors  # the board still shows the old white stone on d5
        assert any(m.cell == "d5" and m.need == "x" for m in snap.errors)
        live.on_reading(live.position.symbols())  # the players set the board right
        assert not live.snapshot().errors
        with pytest.raises(CorrectionError, match="no longer fits"):
            live.amend(1, "o f5", cut=False, address="")
        live.amend(1, "o f5", cut=True, address="")
        assert [ply_text(m) for m in live.moves] == ["o f5"]
        assert live.position.to_move == 1
        assert store.open_game() is not None and store.open_game().ply_count == 1


def test_a_record_comment_is_skipped_and_an_unclosed_one_is_named():
    record = format_record([("Game", "cascade")], list(EXAMPLE[:2]))
    with_comment = record.replace("1.", "{a note\nover two lines} 1. {and one inside}")
    assert [ply_text(m) for m in replay(read_record(with_comment)).moves] == list(EXAMPLE[:2])
    with pytest.raises(Exception, match=r"line 2, column 4: a comment opened with \{ is never closed"):
        read_record('[Game "cascade"]\n1. {o d5')
