"""The game screen every door shares: the door's view on top, then a status
line, the match chat and a key-hint or chat-input line.

The server keeps these keys in every door: ``c`` chat, ``r``/CTRL-L redraw,
``?`` help, ``Q`` resign (after y/n), ``=`` offer or accept a draw, PGUP/PGDN
page through the chat and messages, and for the sysop ``q`` steps out to the
console (no door uses lowercase ``q``). Every other key goes to the door's
UI, whose proposals go to the match.
"""
from __future__ import annotations

import enum
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

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
    clean_text,
    shorten,
    wrap,
)
from ansi.widgets import ChatPane, LineInput
from doors._core.door import DOOR_ROWS, DoorInfo, Request, RequestKind, Submit
from doors._core.game import Termination
from server.screens.history_screen import ReplayScreen
from server.screens.keytable import KeySpec, KeyTable
from server.screens.pager import PagerScreen
from server.screens.plain_game import PlainCommands
from server.screens.session import Pop, Push, Screen, SessionEvent, Transition
from server.services import events as E
from server.services.ids import GameId
from server.services.match import Match, MatchEvent, News
from server.services.move_clock import WARN_AT, clock_text
from server.services.seats import Seat, seat_label
from server.services.store import WriteFailed

if TYPE_CHECKING:
    from server.screens.session import Session

__all__ = ["MatchScreen", "start_match", "countdown_text"]

SAY_HINT = "(ENTER sends; ENTER on an empty line or ESC closes; PGUP older)"
# news shown in the banner as well as the log: it asks for an answer (who left
# or came back is in the log only: once on the screen; the end has its own rows)
# news that asks the other player for an answer, and the key that gives it: the
# match says only what happened; the key is this screen's, shown on the banner
# while the question stands (never in the log, where it would go stale)
PROMPTED = {News.DRAW_OFFER: "press = to accept", News.AUTO_FINISH_OFFER: "press a to agree"}
_WAITS_FOR = "The game is suspended until"     # a move refused while a player is away


class Seen(enum.Enum):
    """What the game screen shows, which decides the keys that work."""
    PLAYING = "playing"          # a live game, this caller has a seat
    BY_TURNS = "by turns"        # a by-turns game, this caller has a seat
    WAITING = "waiting"          # a live game suspended: a player dropped
    OVER = "over"                # the game has ended (player or watcher)
    WATCHING = "watching"        # a game in progress, watched


ALL = frozenset(Seen)
SEATED = frozenset({Seen.PLAYING, Seen.BY_TURNS, Seen.WAITING})
AWAY = frozenset({Seen.BY_TURNS, Seen.WAITING, Seen.OVER, Seen.WATCHING})

KEYS: KeyTable[Seen] = KeyTable([
    KeySpec(("q",), "q console", "step out to the console; u there resumes (sysop)",
            frozenset({Seen.PLAYING, Seen.WAITING}), "_step_out", when="sysop"),
    KeySpec((K.ESC, K.ENTER, " ", "q", "Q"), "ESC console", "back to the console",
            frozenset({Seen.OVER, Seen.WATCHING}), "_leave", when="sysop"),
    KeySpec((K.ESC, K.ENTER, " ", "q", "Q"), "ESC lobby", "back to the lobby",
            frozenset({Seen.OVER, Seen.WATCHING}), "_leave", when="caller"),
    KeySpec((K.ESC,), "ESC leave, the game waits", "leave: the game waits for your next call",
            frozenset({Seen.BY_TURNS}), "_leave"),
    KeySpec((K.ESC,), "ESC lobby", "back to the lobby; the game waits for the player who dropped",
            frozenset({Seen.WAITING}), "_leave", when="caller"),
    KeySpec((K.ESC,), "ESC console", "back to the console; the game waits for the player who dropped",
            frozenset({Seen.WAITING}), "_leave", when="sysop"),
    KeySpec(("v",), "v review", "review the game move by move", frozenset({Seen.OVER}), "_review"),
    KeySpec(("c",), "c chat", "chat (ENTER sends; ENTER on an empty line or ESC closes)",
            ALL, "_open_chat", when="may_chat"),
    KeySpec(("r", K.CTRL_L), "r redraw", "redraw the whole screen", ALL, "_redraw", label="r, CTRL-L"),
    KeySpec(("?",), "? help", "this help", ALL, "_help"),
    KeySpec(("Q",), "Q resign", "resign (asks y/n first)", SEATED, "_ask_resign"),
    KeySpec(("=",), "= draw", "offer a draw, or accept the one offered", SEATED, "_offer_draw"),
    KeySpec((K.PGUP, K.PGDN), "", "page through the chat, the sysop's messages and the news",
            ALL, "_page", label="PGUP/PGDN"),
])


async def start_match(me: Session, info: DoorInfo, chosen: Mapping[str, object],
                      seats: list[Seat], sessions: dict[int, Session] | None = None,
                      move_seconds: float = 0.0, settles: int | None = None) -> MatchScreen:
    """Create and start a match (by turns if ``move_seconds``; ``settles``:
    the waiting challenge it answers); returns ``me``'s screen. The other
    human's lobby is told through its inbox and opens its own screen."""
    for number, session in (sessions or {}).items():
        seats[number].session = session
    info = me.services.matches.doors.get(info.key, info)     # the door as this server runs it
    options = info.resolve_options(chosen)
    match = await me.services.matches.create(info, options, seats, move_seconds, settles)
    player = match.seat_of(me)
    if player is None:
        match.watch(me)
    for seat in seats:
        if seat.session is not None and seat.session is not me:
            seat.session.send(MatchEvent(match.id, News.START))
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
        self.chat_input: LineInput | None = None
        self.confirm: str | None = None      # "resign"
        self.banner = ""
        self.end_news = ""                   # the end's news text: its reason (+ "Not rated: ...")
        self._warned: set[tuple[float | None, float]] = set()   # (turn start, warning) rung
        self._prompt = ""                    # the last question the other side asked (a draw, auto finish)
        self.typed = PlainCommands(self)     # the typed line, in plain text
        self._standing_offer()

    def _standing_offer(self) -> None:
        """An offer the other side made before this screen opened (by turns,
        or before a drop) still waits for this caller's answer."""
        if self.me is None:
            return
        other = self.match.names()[1 - self.me]
        if self.match.draw_offer == 1 - self.me:
            asked = f"{other} offers a draw: {PROMPTED[News.DRAW_OFFER]}."
        elif self.match.auto_offer == 1 - self.me:
            asked = f"{other} asks for auto finish: {PROMPTED[News.AUTO_FINISH_OFFER]}."
        else:
            return
        self.banner = self._prompt = asked

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
        if self.match.ended:
            self.ui.outcome = self.match.outcome

    # ----- keys -------------------------------------------------------------
    @property
    def seen(self) -> Seen:
        m = self.match
        if m.ended:
            return Seen.OVER
        if self.me is None:
            return Seen.WATCHING
        if m.turns is not None:
            return Seen.BY_TURNS
        return Seen.WAITING if m.suspended else Seen.PLAYING

    @property
    def waiting_on_others(self) -> bool:
        """A player waits while the other is to move or away (their own turn
        has the move clock, if the door has one)."""
        m = self.match
        if self.me is None or m.ended:
            return False
        if m.suspended or self.me not in m.state.to_move():
            return True
        return m.turns is None and m.clock.on

    def _test(self, name: str) -> bool:
        if name == "may_chat":
            return self.me is not None or self.match.hears_watcher(self.session.is_sysop)
        return self.session.is_sysop if name == "sysop" else not self.session.is_sysop

    async def on_key(self, key: str) -> Transition:
        try:
            return await self._on_key(key)
        except WriteFailed as exc:      # nothing was stored, nothing changed: say so
            self.banner = ""
            self.ui.message = (f"Your move was NOT made: {exc.why}. It is kept here: "
                               "press it again to try once more.")
            return None

    async def _on_key(self, key: str) -> Transition:
        if self.chat_input is not None:
            return await self._chat_key(key)
        if self.ui.text_input and key != K.CTRL_L:
            return await self.to_door(key)      # the door is taking a name: every key is text
        if self.session.terminal.plain and self.confirm is None:
            self.banner = ""
            return await self.typed.on_key(key)  # plain text: typed commands
        if self.confirm == "resign":
            self.confirm = None
            if key in ("y", "Y") and self.me is not None and not self.match.ended:
                await self.match.resign(self.me)
            else:
                self.banner = "You play on."
            return None
        self.banner = ""
        spec = KEYS.find(key, self.seen, self._test)
        if spec is not None:
            result: Transition = await getattr(self, spec.action)(key)
            return result
        if self.seen in (Seen.PLAYING, Seen.BY_TURNS):
            return await self.to_door(key)
        return None

    async def _chat_key(self, key: str) -> Transition:
        assert self.chat_input is not None
        if key in (K.PGUP, K.PGDN, K.UP, K.DOWN):
            self.chat.scroll(1 if key in (K.PGUP, K.UP) else -1)
            return None
        text = self.chat_input.handle(key)
        if text is not None and not text.strip():
            self.chat_input = None          # an empty ENTER closes the chat line
        elif text is not None:
            reason = await self.match.post_chat(self.me, self.session.handle, text, self.session.own_address)
            self.banner = reason or ""
            self.chat.back = 0
            self.chat_input = LineInput(120)
        elif self.chat_input.cancelled:
            self.chat_input = None
        return None

    async def _page(self, key: str) -> Transition:
        self.chat.scroll(1 if key == K.PGUP else -1)
        return None

    async def _open_chat(self, key: str) -> Transition:
        self.chat_input = LineInput(120)
        return None

    async def _redraw(self, key: str) -> Transition:
        self.session.terminal.redraw()
        self._refresh()
        return None

    async def _help(self, key: str) -> Transition:
        return Push(PagerScreen(self.session, self.match.info.help_text + "\f" + self._keys_page(),
                                f"{self.match.info.title} help"))

    def _keys_page(self) -> str:
        # the keys that work in the state the game is in now (a finished game: no resign)
        lines = ["THE GAME'S KEYS NOW", "", *KEYS.help_lines({self.seen}, self._test),
                 "  CTRL-S     pause the screen; CTRL-Q sends it again as it is now", "", _KEYS_NOTES]
        return "\n".join(lines)

    async def _ask_resign(self, key: str) -> Transition:
        self.confirm = "resign"
        return None

    async def _offer_draw(self, key: str) -> Transition:
        assert self.me is not None
        self.banner = await self.match.offer_draw(self.me)
        return None

    async def _review(self, key: str) -> Transition:
        store = self.session.services.store
        game = await store.get_game(self.match.id)
        if game is None:
            self.banner = "This game's record is not there to review."
            return None
        try:
            return Push(ReplayScreen(self.session, game, await store.moves(self.match.id)))
        except Exception:
            self.banner = "This game's record cannot be replayed."
            return None

    @property
    def door_asks(self) -> bool:
        """Whether the door's screen asks something that takes every key (a name)."""
        return self.ui.text_input

    async def to_door(self, key: str) -> Transition:
        """``key`` to the door's own screen, and what it asks of the match."""
        result = self.ui.on_key(key, time.monotonic())
        if isinstance(result, Submit) and self.me is not None:
            reason = await self.match.submit(self.me, result.action)
            if reason is None:
                self._refresh()     # the next key typed ahead is judged on the board this one made
            elif reason.startswith(_WAITS_FOR):
                self.banner = reason             # the server's: gone when the player is back
            elif reason is not None:
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
            await store.save_setup(user.id, door, req.name[:20], req.text)
            self.ui.saved_setups = await store.setup_names(user.id, door)
            self.ui.message = f"Setup saved as {req.name}."
        elif req.kind == RequestKind.LOAD_SETUP:
            data = await store.load_setup(user.id, door, req.name)
            if data is None:
                self.ui.message = f"There is no saved setup called {req.name}."
                return
            result = self.ui.setup_loaded(req.name, data)
            if isinstance(result, Submit):
                reason = await self.match.submit(self.me, result.action)
                if reason is not None:
                    self.ui.message = reason

    async def _step_out(self, key: str = "q") -> Transition:
        """The sysop goes to the console; the game waits as for a dropped caller."""
        self.match.detach(self.session, stepped_out=True)
        return Pop(f"Your game against {self.match.opponent_name(self.me or 0)} waits: u resumes it.")

    def leave_if_free(self) -> Transition:
        """Back to the lobby when leaving costs nothing (the game is over,
        waits, or is watched), as ESC does; else None."""
        if self.match.ended or self.me is None or self.match.suspended or self.match.turns is not None:
            return self._leave_now()
        return None

    async def _leave(self, key: str = K.ESC) -> Transition:
        return self._leave_now()

    def _leave_now(self) -> Transition:
        if not self.match.ended:
            self.match.detach(self.session)
            if self.match.computers_only and not self.match.watchers:
                return Pop("You stopped watching: that game is over (no result).")
        if self.match.outcome:
            return Pop(None)          # the end was on the game's screen: the lobby keeps its key line
        if self.match.turns is not None:
            return Pop(f"Game {self.match.id} waits for the next move.")
        return Pop("The game is suspended.")

    # ----- events -----------------------------------------------------------
    async def on_event(self, event: SessionEvent) -> Transition:
        if isinstance(event, MatchEvent) and event.game == self.match.id:
            self._refresh()
            if event.kind == News.ENDED:
                self.session.terminal.bell()
                self.end_news = event.text      # the reason (and "Not rated: ..."): the end's own row
                self.banner = ""
            elif event.text:    # news (left, back, an offer) goes in the log
                m = self.match
                own = ((event.kind == News.DRAW_OFFER and m.draw_offer == self.me)
                       or (event.kind == News.AUTO_FINISH_OFFER and m.auto_offer == self.me))
                if not own:     # "X asks for auto finish" is not for X (their own row says it)
                    self.chat.add("", event.text)
                if event.kind in PROMPTED and not own and self.me is not None:   # it asks this caller
                    self.banner = self._prompt = f"{event.text.rstrip('.')}: {PROMPTED[event.kind]}."
                elif event.kind not in PROMPTED:            # an answer or a move: the question is gone
                    stays = (News.SUSPENDED, News.RESUMED)      # a drop or a return answers nothing
                    if self.banner and (self.banner == self._prompt and event.kind not in stays
                                        or self.banner.startswith(_WAITS_FOR) and event.kind != News.SUSPENDED):
                        self.banner = ""
                    if m.autoplay:
                        self.ui.message = ""
        elif isinstance(event, E.Chat) and event.channel == f"match:{self.match.id}":
            self.chat.add(event.who, event.text)
        elif isinstance(event, E.SysopMessage):
            self.chat.add(event.who, event.text)
        elif isinstance(event, E.Tick):
            self._clock_bell()
        return None

    def _clock_left(self) -> tuple[int, float] | None:
        """The side (this caller first) whose move clock is in its last
        minute, and its seconds left; None when no clock is that low."""
        m = self.match
        if m.ended or m.turns is not None or m.suspended:
            return None
        for p in sorted(m.state.to_move(), key=lambda p: p != self.me):
            left = m.move_time_left(p)
            if left is not None and left <= WARN_AT[0]:
                return p, left
        return None

    def _clock_bell(self) -> None:
        """A bell for the player to move as their clock passes each warning."""
        low = self._clock_left()
        if low is None or low[0] != self.me:
            return
        start = self.match.clock.started[low[0]]
        for mark in WARN_AT:
            if low[1] <= mark and (start, mark) not in self._warned:
                self._warned.add((start, mark))
                self.session.terminal.bell()

    async def on_result(self, result: object) -> Transition:
        """Back from help or a sysop chat: draw again from the match's state."""
        self._refresh()
        if self.match.ended:
            self.ui.outcome = self.match.outcome
        return None

    def shows_game(self, game: GameId) -> bool:
        return self.match.id == game

    def hold_clock(self, held: bool) -> None:
        if self.me is not None:
            self.match.hold(self.me, held)

    async def on_close(self) -> None:
        self.match.detach(self.session, why=self.session.leaving_why)

    def frame_due(self, now: float) -> float | None:
        due = self.ui.frame_due(now)
        deadline = self.match.forfeit_deadline()
        left = self.session.clock.left(now)
        if deadline is not None or self._clock_left() is not None or (left is not None and left < 600):
            tick = now + 1.0
            due = tick if due is None else min(due, tick)
        else:
            clock = self.match.clock
            ends = [s + clock.seconds - WARN_AT[0] for s in clock.started if s is not None]
            if ends and not self.match.ended:       # the clock's last minute: shown from then on
                due = min(ends) if due is None else min(due, min(ends))
        return due

    # ----- drawing ----------------------------------------------------------
    def _span(self, seconds: float, up: bool = True) -> str:
        return countdown_text(seconds, self.session.terminal.plain, up)

    def _turn_text(self) -> tuple[str, int]:
        m = self.match
        if m.outcome is not None:
            return self._result_text(), YELLOW
        if m.turns is not None:
            return self._by_turns_text()
        low = self._clock_left()
        if low is not None:
            who = "You have" if low[0] == self.me else f"{m.names()[low[0]]} has"
            return f"{who} {self._span(low[1])} left for this move", BRIGHT_RED
        if m.suspended:
            deadline = m.forfeit_deadline()
            absent = ", ".join(s.name for s in m.absent())
            left = f" (forfeit in {self._span(deadline - time.monotonic())})" if deadline else ""
            return f"Waiting for {absent} to return{left}", BRIGHT_RED
        if self.ui.shows_turn:
            return "", BRIGHT_GREEN
        movers = m.state.to_move()
        if self.me is not None and self.me in movers:
            return ("Your move" if len(movers) == 1 else "Both players move now"), BRIGHT_GREEN
        if len(movers) > 1:
            return "Both players move now", BRIGHT_GREEN
        return (f"{m.names()[movers[0]]} to move" if movers else ""), BRIGHT_CYAN

    def _result_text(self) -> str:
        """The header of a finished game: the result, once ("GAME OVER: you
        won 3-2"); the reason is on the end's own row."""
        m, out = self.match, self.match.outcome
        assert out is not None
        if out.winner is None:
            who = "no result" if out.termination == Termination.ABORTED else "a draw"
        elif self.me is not None:
            who = "you won" if out.winner == self.me else "you lost"
        else:
            who = f"{m.names()[out.winner]} won"
        score = f"{out.score[0]}-{out.score[1]}" if out.score else ""
        if score and score not in out.reason:     # said once: in the reason if it has it
            return f"GAME OVER: {who} {score}"
        return f"GAME OVER: {who}"

    def _end_text(self) -> str:
        """The end's own row: the reason, then what the game did to this
        caller's rating ("Not rated: ..." when the news says so)."""
        m, out = self.match, self.match.outcome
        assert out is not None
        reason = clean_text(self.end_news or out.reason).strip().rstrip(".")
        reason = reason[:1].upper() + reason[1:]
        parts = [reason] if reason else []
        if self.me is not None and m.rating is not None:
            change = m.rating.describe(self.me)
            if change:
                parts.append(f"Your rating: {change}")
        return ". ".join(parts) + "." if parts else ""

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

    @staticmethod
    def _spare_rows(canvas: Canvas, most: int = 3) -> int:
        """How many rows at the bottom of the door's area the door left
        blank (at most ``most``): the chat strip may take them."""
        spare = 0
        while spare < most and all(c.char == " " and c.bg == BLACK
                                   for c in canvas.row_cells(DOOR_ROWS - 1 - spare)):
            spare += 1
        return spare

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        region = canvas.region(0, 0, 80, DOOR_ROWS)
        self.ui.draw(region, now)
        seen = self.seen
        # the message rows (the end, the server's banner, the door's message)
        # take the strip's lower rows; the key line stays on the bottom row
        if seen is Seen.OVER:
            message, message_colour = self.banner or self._end_text(), YELLOW
        else:
            message = self.banner or self.ui.message
            message_colour = YELLOW if self.banner else BRIGHT_RED
        lines = wrap(clean_text(message), 78)[-2:] if message else []
        # the strip grows up into rows the door leaves blank, as far as its
        # newest two lines need (a reply of two rows keeps the line before it)
        spare = self._spare_rows(canvas)
        need = self.chat.rows_for(2, 78) - (2 - len(lines))
        grow = spare if self.chat.scrolled else min(spare, max(0, need))
        top = 20 - grow                      # the status line
        canvas.fill(0, top, 80, 1, " ", WHITE, BLUE)
        text, colour = self._turn_text()
        last = "" if self.ui.shows_turn or seen is Seen.OVER else self._last_text(76 - len(text))
        left = self.session.clock.left(now)
        if left is not None and left < 600:        # the caller's time on their BBS, under 10 minutes
            clock = f"Time left {self._span(left, up=False)} "
            text = f"{text}  {clock}" if len(text) + len(clock) < 76 else text
        x = canvas.text(1, top, shorten(text, 78), colour if colour != BRIGHT_RED else YELLOW, BLUE)
        if last and x < 77:
            canvas.text(79 - len(last), top, last, CYAN, BLUE)
        self.chat.draw(canvas.region(1, top + 1, 78, 2 + grow - len(lines)))
        for i, line in enumerate(lines):
            canvas.text(1, 23 - len(lines) + i, line, message_colour)
        if self.chat.scrolled and len(lines) < 2 + grow:
            canvas.text(62, top + 1, " PGDN: newer ", BLACK, CYAN)
        # input / confirmation / keys
        cursor = None
        if self.session.terminal.plain and self.chat_input is None and self.confirm is None:
            typed = self.typed.line.text
            canvas.text(0, 23, "> " + typed, WHITE)     # the messages: the rows above
            if not typed:
                canvas.text(40, 23, "help: the commands", DARK_GREY)
            cursor = (2 + len(typed), 23)       # where the caller types: each key echoed, not the line again
        elif self.chat_input is not None:
            canvas.text(0, 23, "Say: ", YELLOW)
            cursor = self.chat_input.draw(canvas, 5, 23, 74, WHITE, 0)
            if not self.chat_input.text:
                canvas.text(6, 23, SAY_HINT, DARK_GREY)
        elif self.confirm == "resign":
            canvas.text(1, 23, "Resign this game? (y/n)", BLACK, RED)
        else:
            hints = KEYS.line(seen, self._test, 78)
            canvas.text(1, 23, hints, DARK_GREY)
            ratings = self._ratings_text(78 - len(hints) - 2) if seen is not Seen.OVER else ""
            if ratings:
                canvas.text(79 - len(ratings), 23, ratings, CYAN)
        if cursor is None and seen is not Seen.OVER:
            cursor = self.ui.cursor()
        return cursor


def countdown_text(seconds: float, plain: bool, up: bool = True) -> str:
    """A countdown: "4:59" on a screen (``up``: rounded up); in plain text,
    where a line that changes is printed again, whole minutes ("5 min",
    then "under a minute")."""
    seconds = max(0.0, seconds)
    if not plain:
        return clock_text(seconds) if up else f"{int(seconds) // 60}:{int(seconds) % 60:02d}"
    return f"{int(seconds + 59.999) // 60} min" if seconds >= 60 else "under a minute"


_KEYS_NOTES = """\
If your connection drops, call back and log in: you will be offered to
resume the game. A player who stays away too long forfeits.

By turns: ESC leaves the game at any time and it waits for your next call
(t in the lobby). Chat lines are kept with the game. Let your time per move
run out and you lose on time."""
