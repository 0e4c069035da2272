"""The archive on the page: the list of games, a game's replay and downloads, corrections with the token."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.assess import ply_text
from companion.live import LiveGame
from companion.store import Store
from companion.web import create_app
from companion.web.archive import PAGE_SIZE
from companion.web.steps import steps_of
from referee import read_record, replay
from referee.game import make_rules
from tests.companion.fakes import FakeLive

TOKEN = "the-token"
EXAMPLE = ("o d5", "x f5 =", "= c6 =", "x h5 xox", "o g4")
GAMES = [("cascade", "diamond:4"), ("cascade", "hex-diamond:3"), ("cascades", "trapezoid:4,4"), ("kaskade", "grid:3x3")]


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "games.sqlite3") as opened:
        yield opened


def client_of(store, live=None):
    app = create_app({"LIVE": live or FakeLive(), "TOKEN": TOKEN, "STORE": store})
    return app.test_client()


def logged(store, plies=EXAMPLE, headers=None, game="cascade", board="diamond:8", end="*", jpeg=None) -> int:
    number = store.new_game(game, board, headers or {})
    for text in plies:
        store.add_ply(number, text, jpeg=jpeg)
    if end:
        store.end_game(number, end)
    return number


def replay_data(page: bytes) -> dict:
    found = re.search(rb'id="replay-data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def post(client, path, body, token=TOKEN):
    headers = {"X-Cascade-Token": token} if token else {}
    return client.post(path, json=body, headers=headers)


def test_the_list_shows_every_game_newest_first_with_its_players_and_result(store):
    first = logged(store, headers={"White": "Ada", "Black": "Bo"}, end="*")
    second = logged(store, plies=("c2",), game="cascades", board="trapezoid:8,8", headers={"White": "Cy"}, end="")
    page = client_of(store).get("/games")
    assert page.status_code == 200
    text = page.data.decode()
    assert text.index(f"/games/{second}") < text.index(f"/games/{first}")
    assert "Ada – Bo" in text and "Cy – ?" in text and "trapezoid:8,8" in text
    assert "2 games" in text and "open" in text


def test_the_list_filters_by_game_and_by_any_part_of_a_players_name(store):
    logged(store, headers={"White": "Ada Lovelace", "Black": "Bo"})
    logged(store, plies=("a1",), game="kaskade", board="grid:3x3", headers={"White": "Bo", "Black": "Cy"})
    client = client_of(store)
    assert "1 game found" in client.get("/games?game=kaskade").data.decode()
    assert "2 games found" in client.get("/games?player=bo").data.decode()
    assert "1 game found" in client.get("/games?player=LOVE").data.decode()
    assert "0 games found" in client.get("/games?player=Zed").data.decode()


def test_the_list_pages_back_and_forth_and_every_game_appears_once(store):
    for _ in range(PAGE_SIZE * 2 + 7):
        store.new_game("cascade", "diamond:2")
    client = client_of(store)
    seen, url, pages = [], "/games", 0
    while url:
        page = client.get(url).data.decode()
        seen += [int(n) for n in re.findall(r'<td><a href="/games/(\d+)">', page)]
        older = re.search(r'id="older" href="([^"]+)"', page)
        url = older.group(1).replace("&amp;", "&") if older else None
        pages += 1
    assert pages == 3 and seen == sorted(seen, reverse=True) == list(range(PAGE_SIZE * 2 + 7, 0, -1))
    last = client.get(f"/games?before={PAGE_SIZE + 8}").data.decode()
    newer = re.search(r'id="newer" href="([^"]+)"', last)
    assert newer is not None
    back = client.get(newer.group(1).replace("&amp;", "&")).data.decode()
    assert re.findall(r'<td><a href="/games/(\d+)">', back)[0] == str(PAGE_SIZE * 2 + 7)


def test_the_token_travels_with_the_links_only_when_it_is_right(store):
    number = logged(store)
    client = client_of(store)
    assert f"/games/{number}?token={TOKEN}" in client.get(f"/games?token={TOKEN}").data.decode()
    assert "token=" not in client.get("/games?token=wrong").data.decode()


@pytest.mark.parametrize(
    ("query", "words"),
    [("game=chess", "is not a game"), ("before=x", "before must be a game"), ("player=" + "a" * 61, "at most 60")],
)
def test_a_bad_filter_or_page_is_a_400_saying_what_to_do(store, query, words):
    answer = client_of(store).get(f"/games?{query}")
    assert answer.status_code == 400 and words in answer.data.decode()


def test_an_unknown_game_is_a_404_naming_the_archive(store):
    answer = client_of(store).get("/games/99")
    assert answer.status_code == 404 and "/games lists them" in answer.data.decode()


def test_a_games_page_steps_through_each_ply_wave_by_wave(store):
    number = logged(store, jpeg=b"\xff\xd8ply\xff\xd9")
    client = client_of(store)
    page = client.get(f"/games/{number}")
    data = replay_data(page.data)
    words = [step["words"] for step in data["steps"]]
    assert words[0] == "The start"
    assert "Ply 2, x f5 =: the drop" in words and "Ply 2, x f5 =: the cascade, 1 stone" in words
    assert data["images"] == [1, 2, 3, 4, 5]
    assert client.get(f"/games/{number}/ply/2.jpg").data == b"\xff\xd8ply\xff\xd9"
    assert client.get(f"/games/{number}/ply/9.jpg").status_code == 404
    text = page.data.decode()
    assert 'id="ply-5"' in text and "download-record" in text and 'id="edit"' in text


def test_the_timeline_tells_the_alerts_raised_during_the_game(store):
    number = logged(store, plies=EXAMPLE[:1])
    store.add_alert(number, "Two stones were dropped at once: take one back")
    text = client_of(store).get(f"/games/{number}").data.decode()
    assert "Alert after 1 ply: Two stones were dropped at once: take one back" in text


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_every_ply_ends_its_steps_on_the_position_after_it(game_board, seed):
    position = make_rules(*game_board).start()
    rng = random.Random(seed)
    moves = []
    while not position.is_over and len(moves) < 30:
        move = position.play(rng.choice(list(position.legal_plies())))
        moves.append(move)
        position = move.position
    steps = steps_of(make_rules(*game_board).start(), moves)
    for number, move in enumerate(moves, start=1):
        own = [s for s in steps if s.ply == number]
        assert own and own[-1].cells == move.position.symbols()
        assert all(s.words.startswith(f"Ply {number}") for s in own)
    assert [s.ply for s in steps] == sorted(s.ply for s in steps)


def test_the_downloads_are_the_record_and_a_self_contained_replay(store):
    number = logged(store, headers={"White": "Ada"})
    client = client_of(store)
    record = client.get(f"/games/{number}/record.txt")
    assert record.headers["Content-Disposition"] == f'attachment; filename="game-{number}.txt"'
    assert [ply_text(m) for m in replay(read_record(record.data.decode())).moves] == list(EXAMPLE)
    page = client.get(f"/games/{number}/replay.html")
    assert "attachment" in page.headers["Content-Disposition"]
    html = page.data.decode()
    assert "<style>" in html and "<script>" in html and 'src="/' not in html and 'href="/static' not in html
    assert len(replay_data(page.data)["steps"]) == len(replay_data(client.get(f"/games/{number}").data)["steps"])


def test_actions_need_the_token_and_change_nothing_without_it(store):
    number = logged(store)
    client = client_of(store)
    for path, body in (("players", {"white": "Eve"}), ("result", {"result": "1-0"}), ("correct", {"ply": "1"})):
        for token in ("", "wrong"):
            answer = post(client, f"/api/games/{number}/{path}", body, token=token)
            assert answer.status_code == 403 and "read-only" in answer.json["message"]
    assert store.game(number).header("White") == "" and store.game(number).result == "*"


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("players", {}, "give white=NAME"),
        ("players", {"white": "x" * 61}, "at most 60"),
        ("players", {"colour": "x"}, "takes only white, black"),
        ("result", {"result": "2-0"}, "one of 1-0"),
        ("correct", {"ply": "one"}, "by its number"),
        ("correct", {"ply": "9", "text": "o a1"}, "no ply 9: give a number from 1 to 5"),
        ("correct", {"ply": "2", "text": "o z99"}, "cannot be ply 2"),
        ("correct", {"ply": "2", "text": "x f5", "cut": "maybe"}, "cut is yes or no"),
        ("correct", {"ply": "1", "text": "o f5"}, "cut the game there"),
    ],
)
def test_bad_actions_are_a_400_in_one_line_and_change_nothing(store, path, body, words):
    number = logged(store)
    journal = len(store.journal(number))
    answer = post(client_of(store), f"/api/games/{number}/{path}", body)
    assert answer.status_code == 400 and words in answer.json["message"]
    assert "\n" not in answer.json["message"] and "Traceback" not in answer.json["message"]
    assert len(store.journal(number)) == journal and [p.ply for p in store.plies(number)] == list(EXAMPLE)


def test_a_body_that_is_not_a_json_object_is_refused(store):
    number = logged(store)
    answer = client_of(store).post(
        f"/api/games/{number}/players", data="[1]", content_type="application/json", headers={"X-Cascade-Token": TOKEN}
    )
    assert answer.status_code == 400 and "JSON object" in answer.json["message"]


def test_names_result_and_a_correction_made_on_the_page_reach_the_audit_trail_and_the_page(store):
    number = logged(store)
    client = client_of(store)
    assert post(client, f"/api/games/{number}/players", {"white": " Ada  Lovelace ", "black": "Bo"}).json["ok"]
    assert post(client, f"/api/games/{number}/result", {"result": "1/2-1/2"}).json["ok"]
    check = post(client, f"/api/games/{number}/correct", {"ply": "1", "text": "o f5", "check": "yes"}).json
    assert check["misfit"]["number"] == 2 and "cut the game there" in check["message"]
    assert [p.ply for p in store.plies(number)] == list(EXAMPLE)  # a check changes nothing
    done = post(client, f"/api/games/{number}/correct", {"ply": "1", "text": "x d5"}).json
    assert done["ok"] and done["changed"][:2] == [1, 2]
    assert store.game(number).header("White") == "Ada Lovelace" and store.game(number).result == "1/2-1/2"
    page = client.get(f"/games/{number}").data.decode()
    assert "ply 1 corrected from o d5 to x d5" in page and "from 127.0.0.1" in page
    assert "Ply 2 corrected to x f5 x" in page  # the timeline, from the journal


def test_the_result_of_a_game_the_rules_decided_or_of_an_open_game_cannot_be_set(store):
    decided = logged(store, plies=("o a2", "x b1", "o b3", "x c2"), board="diamond:2", end="")
    open_game = logged(store, end="")
    client = client_of(store)
    assert "the rules decided" in post(client, f"/api/games/{decided}/result", {"result": "0-1"}).json["message"]
    assert "still being played" in post(client, f"/api/games/{open_game}/result", {"result": "0-1"}).json["message"]


def test_a_correction_of_the_game_being_played_goes_through_the_live_game(store):
    start = make_rules("cascade", "diamond:8").start()
    live = LiveGame.start_or_resume(start, store)
    position = start
    for text in EXAMPLE:
        position = position.play(text).position
        live.on_reading(position.symbols())
    client = client_of(store, live)
    assert "playing now" in client.get("/games").data.decode()
    answer = post(client, f"/api/games/{live.game_id}/correct", {"ply": "5", "text": "o k6"})
    assert answer.status_code == 200, answer.json
    assert ply_text(live.moves[-1]) == "o k6" and store.plies(live.game_id)[-1].ply == "o k6"
    assert any(m.cell == "k6" for m in live.snapshot().errors)  # the board must now show the stone on k6


def test_bench_page_prints_the_archives_figures(capsys):
    from companion.cli import main

    assert main(["bench", "page", "--games", "40", "--requests", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 40 and figures["plies"] > 40
    assert set(figures["pages"]) >= {"/games", "/games?player=ada"} and figures["median_ms"] > 0
    assert main(["bench", "page", "--games", "0"]) == 2
    assert "--games from 1" in capsys.readouterr().err
