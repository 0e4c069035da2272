"""The live game: the one place where readings, the referee, the store, the LEDs and the page meet.

:class:`LiveGame` holds the expected position P (always closed under the
rules) and the accepted moves. It is fed stable, unoccluded readings of the
board (:meth:`LiveGame.on_reading`), button presses (:meth:`LiveGame.on_button`)
and actions from the page (:meth:`LiveGame.perform`), and after each one it

1. asks the referee (:func:`companion.assess.assess`, around ``judge``) what
   the board shows: nothing new, a drop with its cascade still *pending*,
   a complete ply, or *errors* naming the cells to fix;
2. commits an accepted ply to the store (SQLite, durable) **before** the
   LEDs change, so whatever the players were shown is on disk;
3. shows the guidance on the LEDs (pending cells in the colour to place,
   errors blinking, the last move, the winner);
4. publishes a frozen :class:`~companion.snapshot.Snapshot` for the page.

A board equal to an earlier position offers an undo, confirmed on the page or
with a button. A misread cell can be corrected from the page: the correction
holds while the camera keeps reading that cell the same way. A misrecorded
ply can be corrected too (:meth:`LiveGame.amend`): later plies are replayed
against it and the expected board follows.

Cascades turns of one or two stones end with a second stone, the End-turn
button (or the page), or the opponent's next stone.

With a computer opponent (:attr:`LiveGame.advice`, :mod:`companion.advice`)
the engine chooses its ply on its own thread when it is to move; the live
game lights it (blinking fast in the colour to place), the player places it
for the computer, and only that ply passes (:func:`companion.coach.against_computer`).
Hints (the ``hint`` action or button) light the best ply for a few seconds;
the teaching mode (``teach``) puts the legal cells on the page, and in
Cascades on the LEDs (steady cyan, under every other light).

Nothing outside the game stops it. The LEDs are handed each frame and never
waited for (``hardware.KeptMatrix`` drives them from its own thread); their
controller's state reaches the page through :meth:`LiveGame.set_link`. A
store that cannot be written (a full disk) does not stop the game either:
the writes wait in a :class:`~companion.backlog.Backlog`, the page and
``on_notice`` say what happened and what to do, and they are saved as soon
as the store takes them; what was committed before is never touched.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.advice import Advice
from companion.amend import Amendment, CorrectionError, amend, save
from companion.assess import Assessment, Kind, assess, ply_text
from companion.backlog import Backlog
from companion.coach import against_computer, lights_legal_cells, preview
from companion.errors import LiveGameError
from companion.snapshot import CellMark, Snapshot
from companion.store import GameRow, Store
from companion.web.broadcast import Broadcaster, encode_event
from referee.plies import Ply
from referee.rules import Move, Position
from referee.symbols import COLOUR_NAMES, COLOURS, EMPTY

if TYPE_CHECKING:
    from engine import Hint

BUTTON_ACTIONS = {"END_TURN": "end_turn", "PASS": "pass", "CONFIRM": "confirm", "UNDO": "undo", "HINT": "hint"}
ACTIONS = ("new_game", "undo", "correct", "end_turn", "pass", "confirm", "resign", "hint", "teach")


class Leds(Protocol):
    """What the live game needs of an LED matrix (``hardware.open_leds``)."""

    def show(self, frame: Any) -> None:
        """Show a CellFrame (returns once the device has it)."""


@dataclass(frozen=True)
class Correction:
    """A cell the camera misreads: while it reads ``seen`` there, the board holds ``actual``."""

    seen: str
    actual: str


class LiveGame:
    """The state machine of docs/architecture.md "The live game" (see the module docstring). Thread-safe."""

    def __init__(
        self,
        start: Position,
        store: Store,
        game_id: int | None,
        leds: Leds | None = None,
        moves: Sequence[Move] = (),
        broadcaster: Broadcaster | None = None,
        backlog: Backlog | None = None,
    ) -> None:
        self._lock = threading.RLock()
        self.store = store
        self.game_id: int | None = game_id
        self.leds = leds
        self.backlog = backlog or Backlog(store)
        self.backlog.on_ply = self._committed
        self.backlog.on_problem = self._store_problem
        self.broadcaster = broadcaster or Broadcaster()
        self._start = start
        self._moves: list[Move] = list(moves)
        self._observed: tuple[str, ...] | None = None
        self._raw: tuple[str, ...] | None = None
        self._occluded = False
        self._assessment = Assessment(Kind.SAME)
        self._alerted = ""
        self._tentative: Move | None = None
        self._undo_to: int | None = None
        self._corrections: dict[int, Correction] = {}
        self._retracted: tuple[str, ...] | None = None
        self._retracted_words = ""
        self._note = ""
        self._seq = 0
        self._frames = 0
        self._leds_shown: tuple[str, ...] = ()
        self._camera: tuple[int, bytes] | None = None
        self._camera_cond = threading.Condition()
        self._link = ""
        self._hub = ""
        self.on_snapshot: Callable[[Snapshot], None] | None = None
        """Called with every new snapshot (a publisher to a hub follows the game by it); it must not block."""
        self.keep_jpeg = False
        self.on_ply: Callable[[int, str], None] | None = None
        self.players: dict[str, str] = {}
        """Headers every new game of this board starts with (the players' names)."""
        self.left_unfinished: GameRow | None = None
        """The store's open game of other rules, closed unfinished when this one started (None: there was none)."""
        self.on_notice: Callable[[str], None] | None = None
        self.advice = Advice()
        """The computer opponent (none unless :meth:`play_against` gives one), hints and the teaching mode."""
        self._snapshot = self._build_snapshot()
        self._refresh(show_leds=True)

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def start_or_resume(
        cls,
        start: Position,
        store: Store,
        leds: Leds | None = None,
        headers: Mapping[str, str] | None = None,
        broadcaster: Broadcaster | None = None,
    ) -> LiveGame:
        """Resume the store's open game if it is this game on this board, else start a new one."""
        rules = start.rules
        backlog = Backlog(store)
        open_game = store.open_game()
        if open_game is not None and open_game.game == rules.game and open_game.geometry == rules.spec:
            moves: list[Move] = []
            position = start
            for stored in store.plies(open_game.id):
                move = position.play(stored.ply)
                moves.append(move)
                position = move.position
            resumed = cls(start, store, open_game.id, leds, moves, broadcaster, backlog)
            resumed.players = dict(headers or {})
            return resumed
        if open_game is not None:
            backlog.end_game(open_game.id, "*")
        all_headers = {**rules.headers(), **dict(headers or {})}
        game_id = backlog.new_game(rules.game, rules.spec, all_headers)
        live = cls(start, store, game_id, leds, (), broadcaster, backlog)
        live.left_unfinished = open_game
        live.players = dict(headers or {})
        return live

    # -- what the game is --------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The expected position P: the start and every accepted ply."""
        with self._lock:
            return self._moves[-1].position if self._moves else self._start

    @property
    def moves(self) -> tuple[Move, ...]:
        """The accepted moves, in order."""
        with self._lock:
            return tuple(self._moves)

    @property
    def positions(self) -> tuple[Position, ...]:
        """The start and the position after every accepted move."""
        with self._lock:
            return (self._start, *(m.position for m in self._moves))

    def play_against(self, advice: Advice) -> None:
        """Give the game its computer opponent (and hints); it starts thinking if it is to move."""
        with self._lock:
            self.advice = advice
            self._refresh(show_leds=True)

    # -- inputs ----------------------------------------------------------------------------------

    def on_reading(self, symbols: Sequence[str], occluded: bool = False) -> Snapshot:
        """A stable reading of the board (one token per cell, ``?`` for unreadable cells)."""
        with self._lock:
            self._frames += 1
            self._occluded = occluded
            if occluded:
                return self._publish()
            raw = tuple(symbols)
            if len(raw) != len(self._start.geometry.cells):
                raise LiveGameError(
                    f"a reading of {len(raw)} cells does not fit the {self._start.geometry.spec} board "
                    f"({len(self._start.geometry.cells)} cells); check the calibration profile"
                )
            self._raw = raw
            self._observed = self._corrected(raw)
            self._note = ""
            self._save_waiting()
            self._judge()
            return self._snapshot

    def on_button(self, name: str) -> str:
        """A button press (``END_TURN``, ``PASS``, ``CONFIRM``, ``UNDO``)."""
        action = BUTTON_ACTIONS.get(str(name).upper().replace("-", "_"))
        if action is None:
            raise LiveGameError(f"'{name}' is not a button: use one of {', '.join(BUTTON_ACTIONS)}")
        try:
            return self.perform(action, {})
        except LiveGameError as error:  # a button has no page to answer on: show it as the message
            with self._lock:
                self._note = str(error)[:1].upper() + str(error)[1:]
                self._publish()
            return self._note

    def perform(self, action: str, params: Mapping[str, str]) -> str:
        """An action from the page or a button; returns a message in plain words."""
        handler = {
            "new_game": self._new_game,
            "undo": self._undo,
            "confirm": self._confirm,
            "correct": self._correct,
            "end_turn": self._end_turn,
            "pass": self._pass,
            "resign": self._resign,
            "hint": self._hint,
            "teach": self._teach,
        }.get(action)
        if handler is None:
            raise LiveGameError(f"'{action}' is not an action: use one of {', '.join(ACTIONS)}")
        with self._lock:
            message = handler(dict(params))
            self._note = message
            self._show()
            return message

    # -- the decision ------------------------------------------------------------------------------

    def _show(self) -> None:
        """After an action: judge the board as last seen against the game, or, before any reading, show the
        game as it stands (page and LEDs)."""
        if self._observed is not None:
            self._judge()
        else:
            self._refresh(show_leds=True)

    def _judge(self) -> None:
        observed = self._observed
        assert observed is not None
        position = self.position
        if position.is_over:
            self._assessment = Assessment(Kind.SAME)
            self._refresh(show_leds=True)
            return
        if self._retracted is not None and observed != self._retracted:
            self._retracted = None
        if self._retracted is not None:
            self._assessment = _undo_left(position, observed, self._retracted_words)
            self._refresh(show_leds=True)
            return
        found = assess(position, observed)
        if self.advice.computer_to_move(position):
            found = against_computer(position, observed, found, self.advice.computer_ply(position))
        if self._tentative is not None:
            found = self._follow_tentative(position, observed, found)
        self._assessment = found
        self._undo_to = self._earlier_position(observed) if found.kind is Kind.ERROR else None
        if found.kind is Kind.COMPLETE and found.move is not None:
            if found.may_continue:
                self._tentative = found.move
            else:
                self._tentative = None
                self._accept(found.move)
                self._assessment = (
                    assess(self.position, observed) if not self.position.is_over else Assessment(Kind.SAME)
                )
        elif found.kind is Kind.SAME:
            self._tentative = None
        self._refresh(show_leds=True)

    def _follow_tentative(self, position: Position, observed: tuple[str, ...], found: Assessment) -> Assessment:
        """A Cascades turn waits for its second stone; the opponent's stone ends it."""
        tentative = self._tentative
        assert tentative is not None
        if found.kind is Kind.COMPLETE and found.move is not None and found.move.ply == tentative.ply:
            return found
        if found.kind in (Kind.COMPLETE, Kind.SAME):
            return found
        after = assess(tentative.position, observed)
        if after.kind in (Kind.SAME, Kind.COMPLETE, Kind.PARTIAL):
            self._tentative = None
            self._accept(tentative)
            return after
        return found

    def _accept(self, move: Move) -> None:
        """Commit a ply (store first), then let the LEDs and the page follow."""
        jpeg = self._camera[1] if self.keep_jpeg and self._camera is not None else None
        self.backlog.add_ply(self.game_id, ply_text(move), move.position.diagram(), jpeg=jpeg)
        self._moves.append(move)
        self._undo_to = None
        if move.position.is_over:
            self.backlog.end_game(self.game_id, move.position.result)

    def _committed(self, number: int, text: str) -> None:
        """A ply is in the store now."""
        if self.on_ply is not None:
            self.on_ply(number, text)

    def _store_problem(self, words: str) -> None:
        """The store stopped (or started again) taking writes: tell the terminal; the page shows it too."""
        self.game_id = self.backlog.game_id(self.game_id)
        if self.on_notice is not None:
            self.on_notice(words or "The game store can be written again: every ply is saved")

    def _save_waiting(self, force: bool = False) -> None:
        """Try the store again with the writes that wait for it."""
        if self.backlog.waiting:
            self.backlog.retry(force)
            self.game_id = self.backlog.game_id(self.game_id)

    def _earlier_position(self, observed: tuple[str, ...]) -> int | None:
        positions = self.positions
        for index in range(len(positions) - 2, -1, -1):
            if positions[index].symbols() == observed:
                return index
        return None

    def _corrected(self, raw: tuple[str, ...]) -> tuple[str, ...]:
        board = list(raw)
        for index, correction in list(self._corrections.items()):
            if raw[index] == correction.seen:
                board[index] = correction.actual
            else:
                del self._corrections[index]
        return tuple(board)

    # -- actions -----------------------------------------------------------------------------------

    def _new_game(self, params: dict[str, str]) -> str:
        if self.position.result == "*" and self._moves:
            self.backlog.end_game(self.game_id, "*")
        elif not self.position.is_over and not self._moves:
            return "A new game is already open: make the first move"
        return self._open_game()

    def _open_game(self) -> str:
        """Start the store's next game of these rules and players; the board must be set to the start."""
        rules = self._start.rules
        self.game_id = self.backlog.new_game(rules.game, rules.spec, {**rules.headers(), **self.players})
        self._moves = []
        self._tentative = None
        self._undo_to = None
        if self._observed is not None and self._observed != self._start.symbols():
            self._retracted = self._observed
            self._retracted_words = "New game"
        return "New game: set the board to its start position"

    def _undo(self, params: dict[str, str]) -> str:
        if self._undo_to is not None:
            return self._confirm(params)
        if self._tentative is not None:
            self._tentative = None
            return "Take back the stone of this turn"
        if not self._moves:
            raise LiveGameError("there is nothing to undo: no ply has been played")
        return self._take_back(len(self._moves) - 1)

    def _confirm(self, params: dict[str, str]) -> str:
        if self._undo_to is None:
            raise LiveGameError("there is no undo to confirm: the board does not show an earlier position")
        return self._take_back(self._undo_to)

    def _take_back(self, keep: int) -> str:
        count = len(self._moves) - keep
        if self.position.is_over:
            raise LiveGameError("the game has ended; start a new game")
        self.backlog.take_back(self.game_id, count)
        if self._observed is not None and self._observed == self.position.symbols():
            self._retracted = self._observed  # the board still shows the plies taken back
            self._retracted_words = "Undone"
        del self._moves[keep:]
        self._undo_to = None
        self._tentative = None
        plies = "ply" if count == 1 else "plies"
        return f"Took back {count} {plies}: {self.turn_text()}"

    def _correct(self, params: dict[str, str]) -> str:
        name = params.get("cell", "").strip()
        symbol = params.get("symbol", "").strip() or EMPTY
        if not name:
            raise LiveGameError("say which cell to correct, for example cell=e6 symbol=x")
        geometry = self._start.geometry
        index = geometry.index(name)
        if self._raw is None:
            raise LiveGameError("nothing has been read yet: wait for the camera to see the board")
        self._corrections[index] = Correction(self._raw[index], symbol)
        self._observed = self._corrected(self._raw)
        what = COLOUR_NAMES.get(symbol[:1], symbol)
        return f"Reading {geometry.cells[index].name} as {what}"

    def _end_turn(self, params: dict[str, str]) -> str:
        if self._tentative is None:
            raise LiveGameError("there is no turn to end: place a stone first")
        move = self._tentative
        self._tentative = None
        self._accept(move)
        return f"Turn ended: {ply_text(move)}"

    def _hint(self, params: dict[str, str]) -> str:
        words = self.advice.ask_hint(self.position, self._hint_ready, self._hint_over)
        shown = self.advice.hint_ply(self.position)
        return f"Hint: {shown}" if shown is not None else words

    def _hint_ready(self, position: Position, hint: Hint) -> None:
        """A hint was chosen (on the adviser's thread): light it if the game is still there."""
        with self._lock:
            if position is not self.position or self.broadcaster.closed:
                return
            self.advice.hint_ready(position, hint, self._hint_over)
            self._note = f"Hint: {hint.ply}"
            self._refresh(show_leds=True)

    def _hint_over(self) -> None:
        """The hint's time is up: put it out."""
        with self._lock:
            self._refresh(show_leds=True)

    def _teach(self, params: dict[str, str]) -> str:
        self.advice.teaching = not self.advice.teaching
        if self.advice.teaching:
            where = "the page and the LEDs (cyan) show" if lights_legal_cells(self.position.rules) else "the page shows"
            return f"Teaching: {where} where a stone may go; point at a cell to see what it would cause"
        return "Teaching off"

    def preview(self, cell: str, colour: str | None = None) -> tuple[CellMark, ...]:
        """What dropping on ``cell`` would cause now (every cell that changes); raises CellError for a bad name."""
        with self._lock:
            return preview(self.position, cell, colour, self._first_stone())

    def _computer_ready(self, position: Position, hint: Hint) -> None:
        """The computer chose its ply (on its own thread): light it, or pass for it."""
        with self._lock:
            if position is not self.position or self.broadcaster.closed:
                return  # the game moved on (an undo, a new game) or was closed while it thought
            if hint.ply.passes:
                self._accept(position.play(hint.ply))
                self._note = "The computer passes"
            self._show()

    def _pass(self, params: dict[str, str]) -> str:
        return self._play_text("pass")

    def _resign(self, params: dict[str, str]) -> str:
        return self._play_text("resigns")

    def _play_text(self, text: str) -> str:
        if self._tentative is not None:
            raise LiveGameError("a stone of this turn is on the board: end the turn or take it back first")
        who = self.turn_player()
        move = self.position.play(text)
        self._accept(move)
        return f"{who} {'passes' if text == 'pass' else 'resigns'}"

    def restart(self, start: Position, players: Mapping[str, str]) -> str:
        """A new game on the same board with other rules (a variant, who plays first) and players; the game
        under way is kept, unfinished. Raises LiveGameError for another board (the camera reads this one)."""
        with self._lock:
            if start.geometry.spec != self._start.geometry.spec:
                raise LiveGameError(
                    f"this companion reads the {self._start.geometry.spec} board, not {start.geometry.spec}"
                )
            if not self.position.is_over:
                self.backlog.end_game(self.game_id, "*")
            self._start = start
            self.players = dict(players)
            message = self._open_game()
            self._note = message
            self._show()
            return message

    def amend(self, number: int, text: str, cut: bool, address: str) -> Amendment:
        """Correct ply ``number`` of this game (see :mod:`companion.amend`): the store first, then the expected
        position, the LEDs and the page follow. A correction that leaves a later ply unfit is refused (nothing
        changes) unless ``cut``. Raises CorrectionError."""
        with self._lock:
            if self.game_id is None or self.backlog.waiting:
                raise CorrectionError("the game store cannot be written now: correct the ply once every ply is saved")
            if self._tentative is not None:
                raise CorrectionError("a stone of this turn is on the board: end the turn or take it back first")
            was_over = self.position.is_over
            amendment = amend(self._start, tuple(ply_text(m) for m in self._moves), number, text, cut)
            save(self.store, self.game_id, amendment, address)
            final = amendment.final
            if not was_over or (final is not None and final.is_over):
                self._moves = list(amendment.moves)
            self._undo_to = None
            self._retracted = None
            self._note = f"Corrected: {amendment.words()}"
            self._show()
            return amendment

    # -- outputs -----------------------------------------------------------------------------------

    def turn_player(self) -> str:
        """The colour name of the player to move, capitalised."""
        return COLOUR_NAMES[self.position.mover_colour].capitalize()

    def turn_text(self) -> str:
        """Whose turn it is, in plain words."""
        position = self.position
        if position.is_over:
            return f"Game over: {position.result}"
        return f"{self.turn_player()} to move"

    def _refresh(self, show_leds: bool) -> None:
        self._keep_alert()
        if show_leds:
            self._show_leds()
        self._publish()
        self.advice.consult(self.position, self._computer_ready)

    def _keep_alert(self) -> None:
        """An error the board shows goes into the game's journal once, in the words the players see, until the
        board shows another or none."""
        found = self._assessment
        message = (" ".join(found.alerts) or found.message) if found.kind is Kind.ERROR else ""
        if message and message != self._alerted:
            self.backlog.alert(self.game_id, message)
        self._alerted = message

    def _first_stone(self) -> Ply | None:
        """The first stone of a Cascades turn on the board, waiting for a second or the end of the turn."""
        return self._tentative.ply if self._tentative is not None else None

    def _show_leds(self) -> None:
        from hardware import highlight

        geometry = self._start.geometry
        found = self._assessment
        position = self.position
        winning: list[int] = []
        if position.is_over and position.winner:
            winning = [i for i, s in enumerate(position.symbols()) if s.startswith(position.winner)]
        last = [geometry.index(c) for c in _move_cells(self._tentative or (self._moves[-1] if self._moves else None))]
        stones = set(COLOURS)
        to_clear = {geometry.index(m.cell): None for m in found.pending if m.need[:1] in (EMPTY, "")}
        frame = highlight.guidance(
            pending_cells={geometry.index(m.cell): m.need[:1] for m in found.pending if m.need[:1] in stones},
            error_cells={
                **to_clear,
                **{
                    geometry.index(m.cell): (m.need[:1] if m.need[:1] in stones else None)
                    for m in found.errors
                    if m.need[:1] in stones or m.need[:1] in (EMPTY, "")
                },
            },
            last=last,
            winning=winning,
            suggested_cells={
                geometry.index(m.cell): m.need[:1] for m in self.advice.suggested(position, self._observed)
            },
            legal_cells=[geometry.index(c) for c in self.advice.lit_legal(position, self._first_stone())],
        )
        self._leds_shown = tuple(str(frame[i]) if i in frame else "" for i in range(len(geometry.cells)))
        if self.leds is not None:
            self.leds.show(frame)

    def _message(self) -> tuple[str, tuple[str, ...]]:
        position = self.position
        found = self._assessment
        if position.is_over:
            return _result_words(position), ()
        if self._occluded:
            return "Hands over the board, or something on its rim…", ()
        if self._undo_to is not None:
            back = len(self._moves) - self._undo_to
            plies = "ply" if back == 1 else "plies"
            return (
                f"The board is as it was {back} {plies} ago: confirm the undo on the page or press Confirm",
                found.alerts,
            )
        if found.kind is Kind.ERROR:
            return found.alerts[0] if found.alerts else "Something on the board is wrong", found.alerts
        if found.kind is Kind.PARTIAL:
            return found.message, ()
        computer = self.advice.computer_message(position, self._observed)
        if computer:
            return computer, ()
        if self._tentative is not None:
            return f"{self.turn_player()}: place a second stone or press End turn", ()
        if self._note:
            return self._note, ()
        return f"{self.turn_text()}: {_INVITATION.get(position.rules.game, 'your move')}", ()

    def _build_snapshot(self) -> Snapshot:
        position = self.position
        score = position.score
        message, alerts = self._message()
        if self.backlog.problem:
            alerts = (self.backlog.problem, *alerts)
        observed = self._observed or tuple("?" for _ in position.geometry.cells)
        last = _move_cells(self._tentative or (self._moves[-1] if self._moves else None))
        self._seq += 1
        return Snapshot(
            seq=self._seq,
            game=position.rules.game,
            geometry=position.rules.spec,
            game_id=self.game_id,
            diagram=position.diagram(),
            cells=(self._tentative.position if self._tentative else position).symbols(),
            observed=observed,
            score=(("White", score.white), ("Black", score.black)),
            turn=self.turn_text(),
            pending=self._assessment.pending,
            errors=self._assessment.errors,
            alerts=alerts,
            message=message,
            moves=tuple(ply_text(m) for m in self._moves)
            + ((ply_text(self._tentative) + " …",) if self._tentative else ()),
            last_move=tuple(c.name for c in last),
            leds=self._leds_shown,
            undo_offer=(len(self._moves) - self._undo_to) if self._undo_to is not None else 0,
            result=None if position.result == "*" else position.result,
            occluded=self._occluded,
            frames=self._frames,
            link=self._link,
            hub=self._hub,
            computer=self.advice.computer_line(position),
            suggested=self.advice.suggested(position, self._observed),
            legal=self.advice.legal(position, self._first_stone()),
            teaching=self.advice.teaching,
        )

    def _publish(self) -> Snapshot:
        self._snapshot = self._build_snapshot()
        self.broadcaster.publish(encode_event(json.dumps(self._snapshot.to_json()), "snapshot"))
        if self.on_snapshot is not None:
            self.on_snapshot(self._snapshot)
        return self._snapshot

    def snapshot(self) -> Snapshot:
        """The latest snapshot."""
        return self._snapshot

    def set_link(self, words: str) -> None:
        """How the LED controller is doing, in plain words for the page (empty while it answers)."""
        with self._lock:
            if words != self._link:
                self._link = words
                self._publish()

    def set_hub(self, words: str) -> None:
        """How publishing to the event's hub is doing, in plain words for the page (empty while it goes well)."""
        with self._lock:
            if words != self._hub:
                self._hub = words
                self._publish()

    def unsaved_plies(self) -> list[str]:
        """The plies the store has not taken yet (it could not be written), in order."""
        with self._lock:
            return self.backlog.unsaved_plies()

    # -- camera pictures for the page ----------------------------------------------------------

    def show_camera(self, jpeg: bytes) -> None:
        """Offer a new camera picture (JPEG, cells drawn over it) to the page's viewers."""
        with self._camera_cond:
            number = self._camera[0] + 1 if self._camera else 0
            self._camera = (number, jpeg)
            self._camera_cond.notify_all()

    def camera_jpeg(self, after: int, timeout_s: float) -> tuple[int, bytes] | None:
        """The newest picture numbered above ``after``, waiting up to ``timeout_s``."""
        with self._camera_cond:
            self._camera_cond.wait_for(lambda: self._camera is not None and self._camera[0] > after, timeout_s)
            if self._camera is not None and self._camera[0] > after:
                return self._camera
            return None

    def close(self) -> None:
        """Save what waits for the store if it can be written now; end the page's streams.

        The store and LEDs belong to the caller; :meth:`unsaved_plies` tells
        what could still not be saved.
        """
        with self._lock:
            self._save_waiting(force=True)
            self.advice.close()
        self.broadcaster.close()
        with self._camera_cond:
            self._camera_cond.notify_all()


def _undo_left(position: Position, observed: tuple[str, ...], words: str) -> Assessment:
    """The board still shows plies that were taken back: the cells to set back, as errors."""
    geometry = position.geometry
    expected = position.symbols()
    marks = tuple(
        CellMark(geometry.cells[i].name, want)
        for i, (want, seen) in enumerate(zip(expected, observed, strict=True))
        if want != seen
    )
    off = [m.cell for m in marks if m.need == EMPTY]
    if off:
        words = f"{words}: take the stone{'s' if len(off) > 1 else ''} off {', '.join(off)}"
    others = [f"{m.cell} should be {COLOUR_NAMES.get(m.need[:1], m.need)}" for m in marks if m.need != EMPTY]
    alerts = (words + ("; " + "; ".join(others) if others else ""),)
    return Assessment(Kind.ERROR, alerts[0], errors=marks, alerts=alerts)


_INVITATION = {
    "cascade": "drop a stone of any colour",
    "cascades": "place a stone below one of yours",
    "kaskade": "add a ball",
}


def _move_cells(move: Move | None) -> tuple[Any, ...]:
    if move is None:
        return ()
    return tuple(move.ply.cells)


def _result_words(position: Position) -> str:
    result = position.result
    score = position.score
    if result == "1-0":
        return f"White wins, {score.white} to {score.black}"
    if result == "0-1":
        return f"Black wins, {score.black} to {score.white}"
    return f"A draw, {score.white} to {score.black}"


__all__ = ["Correction", "LiveGame"]
