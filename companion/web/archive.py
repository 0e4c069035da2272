"""The archive on the page: every logged game, each one replayed, downloaded and corrected.

- ``GET /games``                    every game, newest first, filtered by game and player, in keyset pages
- ``GET /games/<id>``               one game: step through it on the board drawing, its moves, pictures,
                                    timeline and audit trail; with the token, its players, result and plies
                                    can be corrected
- ``GET /games/<id>/record.txt``    its record (docs/rules.md), corrections as comments
- ``GET /games/<id>/replay.html``   a replay in one self-contained file, to share
- ``GET /games/<id>/ply/<n>.jpg``   the camera's picture of ply ``n``, when it was kept (``--jpeg``)
- ``POST /api/games/<id>/players``  ``white``, ``black``: the players' names (token)
- ``POST /api/games/<id>/result``   ``result``: the result of an ended game the rules did not decide (token)
- ``POST /api/games/<id>/correct``  ``ply``, ``text``, ``cut``, ``check``: correct a ply (token); with
                                    ``check`` only say what the correction would do

The store is the app's ``STORE`` or the live game's. A correction of the game
being played goes through the live game (:meth:`companion.live.LiveGame.amend`),
so the board it expects follows; any other through the store. Bad input is
answered 400 with one line saying what to do, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, url_for

from companion.amend import Amendment, CorrectionError, amend, save, start_of
from companion.errors import CompanionError, StoreDamagedError, StoreWriteError, UnknownGameError
from companion.store import GameRow, Store, export_record
from companion.store_check import GAME_NAMES
from companion.web.board import BoardDrawing, draw_board
from companion.web.bodies import READ_ONLY, action_token, request_params, token_ok
from companion.web.steps import Step, steps_of
from referee.errors import RefereeError
from referee.geometry import parse_geometry
from referee.quoting import shown
from referee.rules import Move

PAGE_SIZE = 50
MAX_NAME_CHARS = 60
MAX_FILTER_CHARS = 60
RESULTS = (("1-0", "white wins"), ("0-1", "black wins"), ("1/2-1/2", "a draw"), ("*", "unfinished"))

bp = Blueprint("archive", __name__)


class ArchiveRequestError(CompanionError, ValueError):
    """A request to the archive that does not fit (a bad filter, page or field); answered 400."""


# -- where things are -------------------------------------------------------------------------------


def _store() -> Store:
    store = current_app.config.get("STORE") or getattr(current_app.config.get("LIVE"), "store", None)
    if not isinstance(store, Store):
        abort(404, description="this page keeps no game store, so it has no archive")
    return store


def _live_game_id() -> int | None:
    live = current_app.config.get("LIVE")
    return getattr(live, "game_id", None) if hasattr(live, "amend") else None


def _page_token() -> str | None:
    """The token of the address, when it is the right one (links then carry it on)."""
    given = request.args.get("token")
    return given if token_ok(given) else None


@dataclass(frozen=True)
class Replayed:
    """A stored game replayed: its row, moves, steps and the first ply that did not replay (0: none)."""

    row: GameRow
    moves: tuple[Move, ...]
    steps: tuple[Step, ...]
    stored: tuple[str, ...]
    broken_at: int
    broken: str


def replayed(store: Store, game_id: int) -> Replayed:
    """A stored game played through the rules, as far as its plies allow."""
    row = store.game(game_id)
    stored = tuple(p.ply for p in store.plies(game_id))
    start = start_of(row.game, row.geometry, dict(row.headers))
    moves: list[Move] = []
    position = start
    broken_at, broken = 0, ""
    for number, text in enumerate(stored, start=1):
        try:
            move = position.play(text)
        except RefereeError as error:
            broken_at, broken = number, f"ply {number} ({shown(text, 24)}) does not replay: {error}"
            break
        moves.append(move)
        position = move.position
    return Replayed(row, tuple(moves), steps_of(start, moves), stored, broken_at, broken)


def _drawing(spec: str) -> BoardDrawing:
    return draw_board(parse_geometry(spec))


# -- pages ------------------------------------------------------------------------------------------------


@bp.get("/games")
def games() -> str:
    """Every logged game, newest first, one page at a time."""
    store = _store()
    game = request.args.get("game", "").strip().lower() or None
    player = request.args.get("player", "").strip() or None
    if game is not None and game not in GAME_NAMES:
        abort(400, description=f"{shown(game, 20)} is not a game: choose one of {', '.join(GAME_NAMES)}")
    if player is not None and len(player) > MAX_FILTER_CHARS:
        abort(400, description=f"a player's name to look for is at most {MAX_FILTER_CHARS} characters")
    before, after = _mark("before"), _mark("after")
    rows = store.page(game, player, before=before, after=after, limit=PAGE_SIZE + 1)
    if after is not None:
        newer = len(rows) > PAGE_SIZE
        rows = rows[-PAGE_SIZE:]
        older = bool(rows) and bool(store.page(game, player, before=rows[-1].id, limit=1))
    else:
        older = len(rows) > PAGE_SIZE
        rows = rows[:PAGE_SIZE]
        newer = bool(rows) and bool(store.page(game, player, after=rows[0].id, limit=1))
    token = _page_token()
    keep: dict[str, Any] = {k: v for k, v in (("game", game), ("player", player), ("token", token)) if v}
    return render_template(
        "games.html",
        rows=rows,
        total=store.count(game, player),
        game=game or "",
        player=player or "",
        games=GAME_NAMES,
        newer=url_for("archive.games", after=rows[0].id, **keep) if newer and rows else None,
        older=url_for("archive.games", before=rows[-1].id, **keep) if older and rows else None,
        token=token,
        live_id=_live_game_id(),
    )


def _mark(name: str) -> int | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 18:
        abort(400, description=f"{name} must be a game's number, like {name}=120")
    return int(raw)


@bp.get("/games/<int:game_id>")
def game_page(game_id: int) -> str:
    """One game: its replay, moves, pictures, timeline and audit trail; corrections with the token."""
    store = _store()
    found = _found(store, game_id)
    row = found.row
    images = store.image_numbers(game_id)
    timeline = [e for e in store.journal(game_id) if e.kind not in ("start", "ply")]
    token = _page_token()
    data = {
        "game": game_id,
        "steps": [s.to_json() for s in found.steps],
        "images": images,
    }
    return render_template(
        "game.html",
        row=row,
        found=found,
        board=_drawing(row.geometry),
        data=data,
        plies=_ply_texts(found),
        images=images,
        timeline=timeline,
        audit=store.audit(game_id),
        token=token,
        results=RESULTS,
        is_live=_live_game_id() == game_id,
        decided=bool(found.moves) and found.moves[-1].position.is_over,
    )


@dataclass(frozen=True)
class PlyLine:
    """A ply in the move list: its number, text and the index of its last replay step."""

    number: int
    ply: str
    step: int


def _ply_texts(found: Replayed) -> list[PlyLine]:
    last: dict[int, int] = {}
    for index, step in enumerate(found.steps):
        last[step.ply] = index
    return [PlyLine(n, text, last.get(n, -1)) for n, text in enumerate(found.stored, start=1)]


def _found(store: Store, game_id: int) -> Replayed:
    try:
        return replayed(store, game_id)
    except UnknownGameError:
        abort(404, description=f"there is no game {game_id}: the archive at /games lists them")
    except CorrectionError as error:
        abort(409, description=f"game {game_id} cannot be shown: {error}")


@bp.get("/games/<int:game_id>/record.txt")
def record(game_id: int) -> Response:
    """The game's record, to download."""
    store = _store()
    try:
        text = export_record(store, game_id)
    except UnknownGameError:
        abort(404, description=f"there is no game {game_id}: the archive at /games lists them")
    except (StoreDamagedError, RefereeError) as error:
        abort(409, description=str(error))
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.txt"'
    return response


@bp.get("/games/<int:game_id>/replay.html")
def replay_file(game_id: int) -> Response:
    """The game's replay in one self-contained HTML file (its style, script and data inside), to share."""
    store = _store()
    found = _found(store, game_id)
    static = resources.files("companion.web") / "static"
    html = render_template(
        "replay.html",
        row=found.row,
        found=found,
        board=_drawing(found.row.geometry),
        plies=_ply_texts(found),
        data={"game": game_id, "steps": [s.to_json() for s in found.steps], "images": []},
        style=(static / "page.css").read_text(encoding="utf-8") + (static / "archive.css").read_text(encoding="utf-8"),
        script=(static / "archive.js").read_text(encoding="utf-8"),
    )
    response = Response(html, mimetype="text/html")
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}-replay.html"'
    return response


@bp.get("/games/<int:game_id>/ply/<int:number>.jpg")
def picture(game_id: int, number: int) -> Response:
    """The camera's picture of a ply, when it was kept."""
    jpeg = _store().image(game_id, number) if number < 2**31 else None
    if jpeg is None:
        abort(404, description=f"no picture was kept of ply {number} of game {game_id} (cascade run --jpeg keeps them)")
    return Response(jpeg, mimetype="image/jpeg")


# -- actions (token) ----------------------------------------------------------------------------------------


def _action(game_id: int, allowed: tuple[str, ...]) -> tuple[Store, dict[str, str]]:
    """The store and the checked parameters of an action; aborts 403 without the token, 400 on stray fields."""
    if not token_ok(action_token()):
        abort(403, description=READ_ONLY)
    store = _store()
    try:
        params = request_params()
    except CompanionError as error:
        raise ArchiveRequestError(str(error)) from None
    params.pop("token", None)
    stray = [k for k in params if k not in allowed]
    if stray:
        raise ArchiveRequestError(f"this action takes only {', '.join(allowed)}, not {shown(stray[0], 20)}")
    try:
        store.game(game_id)
    except UnknownGameError:
        abort(404, description=f"there is no game {game_id}: the archive at /games lists them")
    return store, params


def _address() -> str:
    return str(request.remote_addr or "")


@bp.post("/api/games/<int:game_id>/players")
def set_players(game_id: int) -> tuple[Response, int]:
    """Set the players' names."""
    store, params = _action(game_id, ("white", "black"))
    names = {}
    for key in ("white", "black"):
        if key in params:
            name = " ".join(params[key].split())
            if len(name) > MAX_NAME_CHARS or not name.isprintable():
                raise ArchiveRequestError(f"a player's name is at most {MAX_NAME_CHARS} printable characters")
            names[key.capitalize()] = name
    if not names:
        raise ArchiveRequestError("give white=NAME or black=NAME (an empty name clears it)")
    store.set_players(game_id, names, _address())
    return jsonify({"ok": True, "message": "Players saved"}), 200


@bp.post("/api/games/<int:game_id>/result")
def set_result(game_id: int) -> tuple[Response, int]:
    """Set the result of an ended game that the rules did not decide (adjourned, agreed, by the clock)."""
    store, params = _action(game_id, ("result",))
    result = params.get("result", "").strip()
    if result not in dict(RESULTS):
        raise ArchiveRequestError(f"the result is one of {', '.join(dict(RESULTS))}, not {shown(result, 20)}")
    found = replayed(store, game_id)
    if found.moves and found.moves[-1].position.is_over:
        decided = found.moves[-1].position.result
        raise ArchiveRequestError(f"the rules decided this game ({decided}): correct a ply to change it")
    if found.row.is_open:
        raise ArchiveRequestError("this game is still being played: its result comes from the board")
    store.set_result(game_id, result, _address())
    return jsonify({"ok": True, "message": f"Result saved: {result}"}), 200


@bp.post("/api/games/<int:game_id>/correct")
def correct(game_id: int) -> tuple[Response, int]:
    """Correct a ply; ``check`` only says what the correction would do."""
    store, params = _action(game_id, ("ply", "text", "cut", "check"))
    raw = params.get("ply", "").strip()
    if not raw.isdigit() or len(raw) > 6:
        raise ArchiveRequestError("say which ply to correct by its number, like ply=3")
    number, text = int(raw), params.get("text", "")
    cut = _flag(params.get("cut", ""), "cut")
    if _flag(params.get("check", ""), "check"):
        found = replayed(store, game_id)
        amendment = amend(
            start_of(found.row.game, found.row.geometry, dict(found.row.headers)), found.stored, number, text
        )
        return jsonify({"ok": True, "message": _check_words(amendment), **_amendment_json(amendment)}), 200
    live = current_app.config.get("LIVE")
    if _live_game_id() == game_id and live is not None:
        amendment = live.amend(number, text, cut, _address())
    else:
        found = replayed(store, game_id)
        amendment = amend(
            start_of(found.row.game, found.row.geometry, dict(found.row.headers)), found.stored, number, text, cut
        )
        save(store, game_id, amendment, _address())
    return jsonify({"ok": True, "message": "Corrected: " + amendment.words(), **_amendment_json(amendment)}), 200


def _flag(value: str, name: str) -> bool:
    if value.strip().lower() in ("", "0", "false", "no"):
        return False
    if value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    raise ArchiveRequestError(f"{name} is yes or no, not {shown(value, 20)}")


def _check_words(amendment: Amendment) -> str:
    words = f"Ply {amendment.number} would become {amendment.now}"
    later = [n for n in amendment.changed if n != amendment.number]
    if later:
        words += f"; the cascade of ply {', '.join(str(n) for n in later)} changes with it"
    if amendment.misfit is not None:
        rest = len(amendment.before) - amendment.misfit.number + 1
        words += f". But {amendment.misfit}: cut the game there ({rest} {'ply' if rest == 1 else 'plies'} removed)?"
    return words


def _amendment_json(amendment: Amendment) -> dict[str, Any]:
    misfit = amendment.misfit
    return {
        "number": amendment.number,
        "now": amendment.now,
        "changed": list(amendment.changed),
        "misfit": None if misfit is None else {"number": misfit.number, "ply": misfit.ply, "reason": misfit.reason},
        "cut": amendment.cut,
    }


@bp.errorhandler(CompanionError)
@bp.errorhandler(RefereeError)
def _refused(error: Exception) -> tuple[Response, int]:
    """A refused request in plain words: 503 when the store cannot be written now, else 400; nothing changed."""
    code = 503 if isinstance(error, StoreWriteError) else 400
    return jsonify({"ok": False, "message": str(error)}), code
