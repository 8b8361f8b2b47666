"""The game screen every door shares: the door's view on top, then a status
line, the match chat and a key-hint or chat-input line.

The server keeps these keys in every door: ``c`` chat, ``r``/CTRL-L redraw,
``?`` help, ``Q`` resign (after y/n), ``=`` offer or accept a draw, PGUP/PGDN
page through the chat and messages, and for the sysop ``q`` steps out to the
console (no door uses lowercase ``q``). Every other key goes to the door's
UI, whose proposals go to the match.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ansi import keys as K
from ansi.canvas import (
    BLACK,
    BLUE,
    BRIGHT_CYAN,
    BRIGHT_GREEN,
    BRIGHT_RED,
    CYAN,
    DARK_GREY,
    RED,
    WHITE,
    YELLOW,
    Canvas,
    shorten,
    wrap,
)
from ansi.widgets import ChatPane, LineInput
from doors._core.door import DOOR_ROWS, DoorInfo, Request, RequestKind, Submit
from server.screens.pager import PagerScreen
from server.screens.plain_game import PlainCommands
from server.screens.session import Pop, Push, Screen, Transition
from server.services import events as E
from server.services.match import Match, MatchEvent, News
from server.services.seats import Seat, seat_label
from server.services.store import WriteFailed

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["MatchScreen", "start_match"]

# the right end of the key line shows the ratings; PGUP/PGDN are in the help and the chat prompt
HINTS = "c chat  r redraw  ? help  Q resign  = draw"
SYSOP_HINTS = "q console  c chat  ? help  Q resign  = draw"
SAY_HINT = "(ENTER sends; ENTER on an empty line or ESC closes; PGUP older)"
# news shown in the banner as well as the log: it asks for an answer or ends the
# game (who left or came back is in the log only: once on the screen)
PROMPTED = frozenset({News.DRAW_OFFER, News.AUTO_FINISH_OFFER, News.ENDED})


async def start_match(me: Session, info: DoorInfo, chosen: dict[str, Any],
                      seats: list[Seat], sessions: dict[int, Session] | None = None,
                      move_seconds: float = 0.0) -> MatchScreen:
    """Create and start a match (by turns if ``move_seconds``); returns
    ``me``'s screen. The other human's lobby is told through its inbox and
    opens its own screen."""
    for number, session in (sessions or {}).items():
        seats[number].session = session
    options = info.resolve_options(chosen)
    match = await me.services.matches.create(info, options, seats, move_seconds)
    player = match.seat_of(me)
    if player is None:
        match.watch(me)
    for seat in seats:
        if seat.session is not None and seat.session is not me:
            seat.session.send(MatchEvent(match, News.START))
    me.services.matches.start(match)
    return MatchScreen(me, match, player)


class MatchScreen(Screen):
    def __init__(self, session: Session, match: Match, player: int | None):
        super().__init__(session)
        self.match = match
        self.me = player
        self.ui = match.info.ui_class(player, match.names(), match.state.options)
        self.ui.configure(session.services.config.door_settings(match.info.key), match.info.settings)
        self.chat = ChatPane(200)            # the log: chat, sysop messages, news
        for who, text in match.chat.lines:
            self.chat.add(who, text)
        for who, text in session.messages:
            self.chat.add(who, text)
        self.chat_input: LineInput | None = None
        self.confirm: str | None = None      # "resign"
        self.banner = ""
        self.typed = PlainCommands(self)     # the typed line, in plain text

    @property
    def location(self) -> str:  # type: ignore[override]
        other = self.match.names()[1 - self.me] if self.me is not None else " vs ".join(self.match.names())
        verb = "watching" if self.me is None else "vs"
        return f"{self.match.info.title} {verb} {other}"

    async def on_start(self) -> Transition:
        self._refresh()
        if self.match.ended:
            self.ui.outcome = self.match.outcome
        if self.match.info.saved_setups and self.session.user is not None:
            self.ui.saved_setups = await self.session.services.store.setup_names(
                self.session.user.id, self.match.info.key)
        return None

    def _refresh(self) -> None:
        self.ui.update(self.match.observation(self.me), self.match.last(), time.monotonic())

    # ----- keys -------------------------------------------------------------
    async def on_key(self, key: str) -> Transition:
        try:
            return await self._on_key(key)
        except WriteFailed as exc:      # nothing was stored, nothing changed: say so
            self.banner = ""
            self.ui.message = (f"Your move was NOT made: {exc.why}. It is kept here: "
                               "press it again to try once more.")
            return None

    async def _on_key(self, key: str) -> Transition:
        if key in (K.PGUP, K.PGDN) or (self.chat_input is not None and key in (K.UP, K.DOWN)):
            self.chat.scroll(1 if key in (K.PGUP, K.UP) else -1)
            return None
        if self.chat_input is not None:
            text = self.chat_input.handle(key)
            if text is not None and not text.strip():
                self.chat_input = None          # an empty ENTER closes the chat line
            elif text is not None:
                name = self.session.handle
                reason = await self.match.post_chat(self.me, name, text, self.session.conn.peer)
                self.banner = reason or ""
                self.chat.back = 0
                self.chat_input = LineInput(120)
            elif self.chat_input.cancelled:
                self.chat_input = None
            return None
        if self.ui.text_input and key != K.CTRL_L:
            return await self.to_door(key)      # the door is taking a name: every key is text
        if self.session.terminal.plain and self.confirm is None:
            self.banner = ""
            return await self.typed.on_key(key)  # plain text: typed commands
        if self.confirm == "resign":
            self.confirm = None
            if key in ("y", "Y") and self.me is not None:
                await self.match.resign(self.me)
            else:
                self.banner = "You play on."
            return None
        self.banner = ""
        if key == "c":
            self.chat_input = LineInput(120)
            return None
        if key in ("r", K.CTRL_L):
            self.session.terminal.redraw()
            self._refresh()
            return None
        if key == "?":
            return Push(PagerScreen(self.session, self.match.info.help_text + "\f" + _KEYS_PAGE,
                                    f"{self.match.info.title} help"))
        if self.match.ended or self.me is None:
            if key in (K.ESC, K.ENTER, "q", "Q", " "):
                return self._leave()
            return None
        if (self.match.suspended or self.match.turns is not None) and key == K.ESC:
            return self._leave()
        if key == "q" and self.session.is_sysop:
            return self._step_out()
        if key == "Q":
            self.confirm = "resign"
            return None
        if key == "=":
            self.banner = await self.match.offer_draw(self.me)
            return None
        return await self.to_door(key)

    async def to_door(self, key: str) -> Transition:
        """``key`` to the door's own screen, and what it asks of the match."""
        result = self.ui.on_key(key, time.monotonic())
        if isinstance(result, Submit) and self.me is not None:
            reason = await self.match.submit(self.me, result.action)
            if reason is not None:
                self.ui.message = reason
        elif isinstance(result, Request):
            await self._request(result)
        return None

    async def _request(self, req: Request) -> None:
        store, user, info = self.session.services.store, self.session.user, self.match.info
        door = info.key
        if self.me is None:
            return
        if req.kind == RequestKind.AUTO_FINISH and info.auto_finish:
            self.ui.message = await self.match.request_auto_finish(self.me)
        elif not info.saved_setups or user is None:
            return
        elif req.kind == RequestKind.SAVE_SETUP:
            name, data = req.data
            await store.save_setup(user.id, door, str(name)[:20], str(data))
            self.ui.saved_setups = await store.setup_names(user.id, door)
            self.ui.message = f"Setup saved as {name}."
        elif req.kind == RequestKind.LOAD_SETUP:
            data = await store.load_setup(user.id, door, str(req.data))
            if data is None:
                self.ui.message = f"There is no saved setup called {req.data}."
                return
            result = self.ui.setup_loaded(str(req.data), data)
            if isinstance(result, Submit):
                reason = await self.match.submit(self.me, result.action)
                if reason is not None:
                    self.ui.message = reason

    def _step_out(self) -> Transition:
        """The sysop goes to the console; the game waits as for a dropped caller."""
        self.match.detach(self.session, stepped_out=True)
        return Pop(f"Your game against {self.match.opponent_name(self.me or 0)} waits: u resumes it.")

    def leave_if_free(self) -> Transition:
        """Back to the lobby when leaving costs nothing (the game is over,
        waits, or is watched), as ESC does; else None."""
        if self.match.ended or self.me is None or self.match.suspended or self.match.turns is not None:
            return self._leave()
        return None

    def _leave(self) -> Transition:
        if not self.match.ended:
            self.match.detach(self.session)
            if self.match.computers_only and not self.match.watchers:
                return Pop("You stopped watching: that game is over (no result).")
        if self.match.outcome:
            return Pop(self.match.outcome.reason)
        if self.match.turns is not None:
            return Pop(f"Game {self.match.id} waits for the next move.")
        return Pop("The game is suspended.")

    # ----- events -----------------------------------------------------------
    async def on_event(self, event: Any) -> Transition:
        if isinstance(event, MatchEvent) and event.match is self.match:
            self._refresh()
            if event.kind == News.ENDED:
                self.ui.outcome = self.match.outcome
                self.session.terminal.bell()
            if event.text:      # news (left, back, an offer, the end) goes in the log
                self.chat.add("", event.text)
                if event.kind in PROMPTED:      # and, if it asks an answer or ends the game, the banner
                    self.banner = event.text
            if event.kind == News.ENDED and self.me is not None and self.match.rating is not None:
                change = self.match.rating.describe(self.me)
                self.banner = f"Your rating: {change}. {self.banner}" if change else self.banner
        elif isinstance(event, E.Chat) and event.channel == f"match:{self.match.id}":
            self.chat.add(event.who, event.text)
        elif isinstance(event, E.SysopMessage):
            self.chat.add(event.who, event.text)
        return None

    async def on_result(self, result: Any) -> Transition:
        """Back from help or a sysop chat: draw again from the match's state."""
        self._refresh()
        if self.match.ended:
            self.ui.outcome = self.match.outcome
        return None

    async def on_close(self) -> None:
        self.match.detach(self.session, why=self.session.leaving_why)

    def frame_due(self, now: float) -> float | None:
        due = self.ui.frame_due(now)
        deadline = self.match.forfeit_deadline()
        left = self.session.clock.left(now)
        if deadline is not None or (left is not None and left < 600):
            tick = now + 1.0
            due = tick if due is None else min(due, tick)
        return due

    # ----- drawing ----------------------------------------------------------
    def _turn_text(self) -> tuple[str, int]:
        m = self.match
        if m.outcome is not None:
            out = m.outcome
            who = "Draw" if out.winner is None else f"{m.names()[out.winner]} wins"
            score = f" {out.score[0]}-{out.score[1]}" if out.score else ""
            return f"GAME OVER: {who}{score} ({out.reason})", YELLOW
        if m.turns is not None:
            return self._by_turns_text()
        if m.suspended:
            deadline = m.forfeit_deadline()
            absent = ", ".join(s.name for s in m.absent())
            left = f" (forfeit in {int(max(0, deadline - time.monotonic())) // 60}:" \
                   f"{int(max(0, deadline - time.monotonic())) % 60:02d})" if deadline else ""
            return f"Waiting for {absent} to return{left}. ESC: lobby", BRIGHT_RED
        if self.ui.shows_turn:
            return "", BRIGHT_GREEN
        movers = m.state.to_move()
        if self.me is not None and self.me in movers:
            return ("Your move" if len(movers) == 1 else "Both players move now"), BRIGHT_GREEN
        if len(movers) > 1:
            return "Both players move now", BRIGHT_GREEN
        return (f"{m.names()[movers[0]]} to move" if movers else ""), BRIGHT_CYAN

    def _last_text(self, room: int) -> str:
        """The last action for the status line in ``room`` columns: with the
        mover's name if it fits, else without, else shortened."""
        last = self.match.state.last_action_text(self.me)
        if last is None or not last[1]:
            return ""
        name, action = self.match.names()[last[0]], last[1]
        for text in (f"Last: {name}: {action}", f"Last: {action}", action):
            if len(text) <= room:
                return text
        return shorten(action, max(0, room))

    def _ratings_text(self, room: int) -> str:
        """"Alice 1562 · Computer (3) 1400": each seat's rating in this door
        ("Rated 1562 vs 1400" when the names do not fit in ``room``, "" when
        neither fits)."""
        book, door = self.session.services.ratings, self.match.info.key
        names, numbers = [], []
        for seat in self.match.seats:
            label = seat_label(seat.kind, seat.name, seat.level)
            rating = book.of_label(label, door)
            numbers.append(f"{rating.rating:.0f}" if rating else "new")
            names.append(f"{seat.name} {numbers[-1]}")
        text = " · ".join(names)
        if len(text) <= room:
            return text
        short = f"Rated {numbers[0]} vs {numbers[1]}"
        return short if len(short) <= room else ""

    def _by_turns_text(self) -> tuple[str, int]:
        """By turns: whose move, the time left for it, and ESC."""
        m = self.match
        movers = m.state.to_move()
        if self.me is not None and self.me in movers:
            return f"Your move ({m.time_left_text(self.me)}). ESC: leave, the game waits", BRIGHT_GREEN
        if self.me is not None and len(movers) == 1:
            other = m.names()[movers[0]]
            return f"Waiting for {other}'s move ({m.time_left_text(movers[0])}). ESC: leave", BRIGHT_CYAN
        return " and ".join(m.names()[p] for p in movers) + " to move", BRIGHT_CYAN

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        region = canvas.region(0, 0, 80, DOOR_ROWS)
        self.ui.draw(region, now)
        # status line
        canvas.fill(0, 20, 80, 1, " ", WHITE, BLUE)
        text, colour = self._turn_text()
        last = "" if self.ui.shows_turn else self._last_text(76 - len(text))
        left = self.session.clock.left(now)
        if left is not None and left < 600:        # the caller's time on their BBS, under 10 minutes
            clock = f"Time left {int(left) // 60}:{int(left) % 60:02d} "
            text = f"{text}  {clock}" if len(text) + len(clock) < 76 else text
        x = canvas.text(1, 20, shorten(text, 78), colour if colour != BRIGHT_RED else YELLOW, BLUE)
        if last and x < 77:
            canvas.text(79 - len(last), 20, last, CYAN, BLUE)
        message = self.banner or self.ui.message
        plain = self.chat_input is None and self.confirm is None
        lines = wrap(message, 78)[-2:] if message and plain else []
        # chat pane: the log, paged with PGUP/PGDN; a two-row message takes its lower row
        self.chat.draw(canvas.region(1, 21, 78, 1 if len(lines) > 1 else 2))
        if self.chat.scrolled:
            canvas.text(62, 21, " PGDN: newer ", BLACK, CYAN)
        # message / input / hints
        cursor = None
        if self.session.terminal.plain and self.chat_input is None and self.confirm is None:
            canvas.text(0, 23 - len(lines), "> " + self.typed.line.text, WHITE)
            for i, line in enumerate(lines):
                canvas.text(1, 23 - len(lines) + 1 + i, line, YELLOW)
            if not lines:
                canvas.text(40, 23, "help: the commands", DARK_GREY)
        elif self.chat_input is not None:
            canvas.text(0, 23, "Say: ", YELLOW)
            cursor = self.chat_input.draw(canvas, 5, 23, 74, WHITE, 0)
            if not self.chat_input.text:
                canvas.text(6, 23, SAY_HINT, DARK_GREY)
        elif self.confirm == "resign":
            canvas.text(1, 23, "Resign this game? (y/n)", BLACK, RED)
        elif lines:
            for i, line in enumerate(lines):
                canvas.text(1, 24 - len(lines) + i, line, BRIGHT_RED if not self.banner else YELLOW)
        else:
            if self.me is not None and not self.match.ended:
                hints = SYSOP_HINTS if self.session.is_sysop else HINTS
            else:
                hints = "ESC back to the lobby  c chat  ? help"
            if self.match.turns is not None and self.me is not None and not self.match.ended:
                hints += "  ESC leave (the game waits)"
            canvas.text(1, 23, hints, DARK_GREY)
            ratings = self._ratings_text(78 - len(hints) - 2)
            if ratings:
                canvas.text(79 - len(ratings), 23, ratings, CYAN)
        if cursor is None:
            ui_cursor = self.ui.cursor()
            if ui_cursor is not None:
                cursor = ui_cursor
        return cursor


_KEYS_PAGE = """\
KEYS IN EVERY GAME

  c          chat with your opponent (ENTER sends; ENTER on an empty line or
             ESC closes the chat line)
  PGUP/PGDN  page back and forth through the chat, the sysop's messages and
             the game's news (UP/DOWN too while the chat line is open)
  r, CTRL-L  redraw the whole screen
  ?          this help
  Q          resign (asks y/n first)
  =          offer a draw, or accept the one offered
  CTRL-S     pause the screen; CTRL-Q sends it again as it is now
  ESC        back to the lobby once the game is over (or while it waits for
             a player who dropped; the game stays open for them)

If your connection drops, call back and log in: you will be offered to
resume the game. A player who stays away too long forfeits.

By turns: ESC leaves the game at any time and it waits for your next call
(t in the lobby). Chat lines are kept with the game. Let your time per move
run out and you lose on time."""

