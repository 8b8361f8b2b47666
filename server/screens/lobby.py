"""The lobby: who is online, the doors, challenges and the lobby chat."""
from __future__ import annotations

import enum
import functools
import time
import weakref
from typing import NamedTuple

from ansi import keys as K
from ansi.canvas import (
    BLACK,
    BLUE,
    BOX_DOUBLE,
    BOX_SINGLE,
    BRIGHT_BLUE,
    BRIGHT_CYAN,
    BRIGHT_GREEN,
    BRIGHT_RED,
    CYAN,
    DARK_GREY,
    GREY,
    WHITE,
    YELLOW,
    Canvas,
    Row,
    cell,
    shorten,
)
from ansi.widgets import ChatPane, LineInput
from doors import registry
from server.screens import ticks
from server.screens.challenge import ChallengeOffer, ChallengeScreen
from server.screens.challenge_lines import ended_line
from server.screens.hall_screen import HallOfFameScreen
from server.screens.history_screen import MyGamesScreen
from server.screens.keytable import KeySpec, KeyTable
from server.screens.match_screen import MatchScreen, start_match
from server.screens.pager import PagerScreen
from server.screens.resume import ResumeScreen
from server.screens.session import NOTICE_SECONDS, Push, Quit, Screen, Session, SessionEvent, Transition
from server.screens.settings import SettingsScreen
from server.screens.turns import TurnsScreen, turns_line
from server.screens.watch_list import WatchListScreen
from server.services import events as E
from server.services.board import Challenge, ChallengeEvent, ChallengeState
from server.services.ids import NodeId
from server.services.match import MatchEvent, News
from server.services.messages import MAX_MESSAGE
from server.services.nodes import LOBBY, NodeRegistry, Origin
from server.services.seats import Seat, SeatKind

__all__ = ["LobbyScreen", "idle_text", "idle_minutes", "offer_challenge", "answer_challenge", "challenge_news",
           "plain_lobby_lines"]


class Seen(enum.Enum):
    """What the lobby's keys may do (a challenge to answer, one to withdraw,
    a game to resume)."""
    LOBBY = "lobby"
    CHALLENGED = "challenged"          # a challenge waits for this caller's answer


ANY = frozenset(Seen)

# each key once: the key line (in this order), the ? page, the dispatch
KEYS: KeyTable[Seen] = KeyTable([
    KeySpec(("p", "P"), "p play", "play: a door, an opponent and options; sends the challenge",
            ANY, "_play"),
    KeySpec(("y", "Y"), "", "accept the challenge sent to you", frozenset({Seen.CHALLENGED}), "_answer",
            label="y/n"),
    KeySpec(("n", "N"), "", "", frozenset({Seen.CHALLENGED}), "_answer"),
    KeySpec(("x", "X"), "", "withdraw the challenge you sent", ANY, "_withdraw", when="outgoing"),
    KeySpec(("c", "C", K.ENTER), "c chat", "chat with everybody in the lobby (ENTER sends; ESC closes)",
            ANY, "_chat"),
    KeySpec(("u", "U"), "u resume", "resume an unfinished game (also offered when you log in)",
            ANY, "_resume", when="pending"),
    KeySpec(("t", "T"), "t turns", "my games by turns: whose turn in each; open one to move",
            ANY, "_turns"),
    KeySpec(("h", "H"), "h fame", "hall of fame: top rated, most games, streaks, your record",
            ANY, "_fame"),
    KeySpec(("m", "M"), "m games", "my games: finished games, rating changes; ENTER replays",
            ANY, "_games"),
    KeySpec(("w", "W"), "w watch", "watch a game between two callers (what both players may see)",
            ANY, "_watch"),
    KeySpec(("l", "L"), "l msg", "a line to a caller: on their screen now, else at their next call",
            ANY, "_message_caller", spare=True),
    KeySpec(("!",), "! sysop", "page the sysop, with a short reason", ANY, "_page_sysop", spare=True),
    KeySpec(("s", "S"), "s settings", "settings: character set (CP437 for BBS terminals, or UTF-8)",
            ANY, "_settings", spare=True),
    KeySpec(("?",), "? help", "this help", ANY, "_help"),
    KeySpec(("g", "G"), "g bye", "goodbye (log off, asks y/n first)", ANY, "_bye"),
    KeySpec(("r", "R"), "", "redraw the screen (CTRL-L too)", ANY, "_redraw"),
    KeySpec((K.PGUP, K.PGDN), "", "page through the chat and the sysop's messages", ANY, "_page",
            label="PGUP/PGDN"),
])

LOBBY_NOTES = """\
In every game:
  c chat   r or CTRL-L redraw   ? help   Q resign   = offer or accept a draw
  PGUP/PGDN page through the chat and the sysop's messages
  CTRL-S pauses the screen, CTRL-Q sends it again as it is now.
If your connection drops during a game, log in again to resume it.

By turns: p, a door, then "By turns with a caller": type any caller's
handle (on or not) and choose a time per move (1, 3 or 7 days). The
challenge waits for their next call. Each of you moves whenever you call
(t), then leaves: the game waits. Whoever lets the time per move run out
loses on time. You may play several games by turns at once."""


def challenge_text(lead: str, ch: Challenge, width: int) -> str:
    """``lead`` and the challenge in ``width`` columns: the door and its pace
    kept whole as long as they fit, the options shortened first."""
    text = lead + ch.describe()
    if len(text) <= width:
        return text
    head = lead + ch.headline()
    room = width - len(head) - 3            # " (" and ")"
    if ch.options_text() and room >= 2:
        return f"{head} ({shorten(ch.options_text(), room)})"
    return shorten(head, width)


def door_marks() -> dict[str, str]:
    """Two letters per door, as the who list names the door of a rating
    and the Doors box explains them: a title's initials ("ST"), else its
    first letter and the next one no other door has taken ("Aw", "Sr")."""
    return _marks(tuple((key, info.title) for key, info in registry().items()))


@functools.cache
def _marks(doors: tuple[tuple[str, str], ...]) -> dict[str, str]:
    marks: dict[str, str] = {}
    for key, title in sorted(doors, key=lambda door: len(door[1].split()) == 1):
        words = title.split()
        tries = ["".join(w[0] for w in words).upper()[:2]] if len(words) > 1 else []
        tries += [title[0] + c for c in title[1:] if c.isalpha()]
        taken = {m.casefold() for m in marks.values()}
        marks[key] = next((t for t in tries if t.casefold() not in taken), key[:2])
    return {key: marks[key] for key, _ in doors}


def shown_rating(session: Session) -> str:
    """The who list's rating with its door ("1562 Aw"): the one of the game
    the caller is in, else their best over the doors; "-" before their
    first rated game."""
    ratings = session.services.ratings
    match = getattr(session.screens[-1], "match", None) if session.screens else None
    if match is not None:
        rating = ratings.get(session.handle, match.info.key)
        return f"{rating.rating:.0f} {door_marks()[match.info.key]}" if rating else "-"
    best = ratings.best(session.handle)
    return f"{best[1].rating:.0f} {door_marks().get(best[0], '')}".rstrip() if best else "-"


def idle_minutes(seconds: float) -> str:
    """Idle time in whole minutes ("0m", "12m", "1h05"), as the who-list shows it."""
    minutes = int(seconds // 60)
    return f"{minutes}m" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}"


def idle_text(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}"


def plain_lobby_lines(parts: Backdrop, withdraw: str) -> list[str]:
    """The plain-text lobby's lines above its chat: no clock and no idle
    minutes, which would have every line printed again each minute."""
    return [f"Lobby: {parts.header.rsplit(' · ', 1)[0]}", f"Who's online ({parts.online}):",
            *(f" {text[:-IDLE_WIDTH].rstrip()}" for text, _ in parts.who),
            "Doors (p to play): " + ", ".join(info.title for info in registry().values()),
            *([f"{parts.turns} (t)"] if parts.turns else []),
            f"Sysop: {'available' if parts.sysop else 'not available'}",
            *(text + hint for text, hint in parts.offers), *(text + withdraw for text in parts.waiting),
            "Lobby chat (c to talk):"]


class Backdrop(NamedTuple):
    """What the lobby shows above its bottom line, as text (see ``LobbyScreen.draw``)."""
    header: str
    who: tuple[tuple[str, int], ...]        # (row, colour)
    online: int                             # callers online
    turns: str
    sysop: bool
    offers: tuple[tuple[str, str], ...]     # (challenge to me, its key hint)
    waiting: tuple[str, ...]                # my challenge
    chat: tuple[int, int]                   # the chat pane's lines added, scroll


WhoRows = tuple[tuple[NodeId, str], ...]
# Per node list: its who-list rows as of (generation, minute). Every lobby
# shows the same rows (each its own in colour), and when someone logs on
# every lobby redraws: the rows are made once for all of them.
_WHO_ROWS: weakref.WeakKeyDictionary[NodeRegistry[Session], tuple[tuple[int, str], WhoRows, int]] = \
    weakref.WeakKeyDictionary()


def who_rows(nodes: NodeRegistry[Session], rows: int, minute_began: float, clock: str) -> tuple[WhoRows, int]:
    """The first ``rows`` callers online as the who-list shows them (node,
    handle, where, rating, idle as of the clock's minute), and how many are on."""
    as_of = (nodes.generation, clock)
    kept = _WHO_ROWS.get(nodes)
    if kept is None or kept[0] != as_of:
        people, count = nodes.first_online(rows)
        kept = _WHO_ROWS[nodes] = (as_of, tuple(
            (other.node, f"{other.node:>3} {other.handle[:20]:<20} {shorten(other.location, 8):<8} "
                         f"{shown_rating(other):<7} "
                         f"{idle_minutes(max(0.0, minute_began - other.last_key)):>{IDLE_WIDTH - 1}}")
            for other in people), count)
    return kept[1], kept[2]


IDLE_WIDTH = 5        # the who-list's last column: a space and the idle time

_CLOCK: list[tuple[int, str]] = [(-1, "")]    # (the wall's minute, its clock): one for every lobby


def clock_text(wall: float) -> str:
    """The lobby's clock ("14:05", local time) at ``wall``."""
    minute = int(wall // 60)
    if _CLOCK[0][0] != minute:
        _CLOCK[0] = (minute, time.strftime('%H:%M', time.localtime(minute * 60)))
    return _CLOCK[0][1]


class _Grey:
    """The who-list's rows last coloured for a lobby not in them (one
    shared tuple, so lobbies that show the same rows share their colours)."""
    rows: WhoRows | None = None
    coloured: tuple[tuple[str, int], ...] = ()


def coloured(rows: WhoRows, node: NodeId) -> tuple[tuple[str, int], ...]:
    """The who-list's rows in colour for the lobby of ``node`` (its own row
    yellow): one shared tuple for every lobby whose caller is not in them."""
    if any(n == node for n, _text in rows):
        return tuple((text, YELLOW if n == node else GREY) for n, text in rows)
    if _Grey.rows is not rows:
        _Grey.rows, _Grey.coloured = rows, tuple((text, GREY) for _n, text in rows)
    return _Grey.coloured


# The lobby's rows 1-11 (the who-list and the doors box) by what they show:
# every lobby whose caller is not named in the who-list and has no game by
# turns waiting shows the same rows, drawn once a minute for all of them.
_BOXES: dict[tuple[object, ...], tuple[Row, ...]] = {}
BOXES_KEPT = 64


def _boxes_key(parts: Backdrop) -> tuple[object, ...]:
    """What rows 1-11 show: the who-list, the count, the turns waiting, the
    sysop, and the doors (a door added while the program runs is shown)."""
    return parts.who, parts.online, parts.turns, parts.sysop, tuple(registry())


async def answer_challenge(session: Session, ch: Challenge,
                           accept: bool) -> tuple[str, Screen | None]:
    """``session`` accepts or declines ``ch`` on the board: (what to tell
    it, its match screen if a match started). The lobby and the sysop
    console share this."""
    board = session.services.board
    if not accept:
        return await board.decline(ch.id, by=session.handle), None
    accepted, reason = await board.accept(ch.id, by=session.handle)
    challenger = session.services.nodes.find(accepted.challenger) if accepted is not None else None
    if accepted is not None and accepted.by_turns:
        seats = [Seat(0, SeatKind.HUMAN, accepted.challenger), Seat(1, SeatKind.HUMAN, session.handle)]
        try:
            screen = await start_match(session, registry()[accepted.door], dict(accepted.options), seats,
                                       {1: session}, move_seconds=accepted.move_seconds, settles=accepted.id)
        except Exception:            # no game stored: the challenge still waits, in the store too
            board.reopen(accepted)
            raise
        board.started(accepted)
        return "", screen
    if accepted is None or challenger is None:
        return reason or f"{ch.challenger} is no longer in the lobby.", None
    seats = [Seat(0, SeatKind.HUMAN, challenger.handle), Seat(1, SeatKind.HUMAN, session.handle)]
    screen = await start_match(session, registry()[accepted.door], dict(accepted.options), seats,
                               {0: challenger, 1: session})
    return "", screen


async def offer_challenge(session: Session, offer: ChallengeOffer) -> str:
    """Put ``session``'s challenge on the board; returns what to tell it."""
    _challenge, message = await session.services.board.offer(
        session.handle, offer.target, offer.door, offer.options, offer.move_seconds)
    return message


def challenge_news(session: Session, event: SessionEvent) -> tuple[str | None, Transition]:
    """What a screen that takes challenges (the lobby, the sysop console)
    does with challenge news and a match that starts: (message, transition)."""
    if isinstance(event, ChallengeEvent):
        ch = event.challenge
        if ch.target == session.handle and ch.state == ChallengeState.OPEN:
            session.terminal.bell()           # someone wants to play
        return ended_line(ch, session.handle), None
    elif isinstance(event, MatchEvent) and event.kind == News.START:
        match = session.services.matches.live.get(event.game)
        player = match.seat_of(session) if match is not None else None
        if match is not None and player is not None:
            return None, Push(MatchScreen(session, match, player))
    return None, None


class LobbyScreen(Screen):
    """What changes by itself here is the clock and the who-list's idle
    times, both in minutes; idle times are shown as of the clock's minute,
    so an idle lobby changes once a minute, as the minute turns. The minute
    comes by ``ticks`` (one timer for every lobby, which tells them a few
    at a time between the loop's other work), not by each session's own
    loop; a lobby that shows nothing but its backdrop and key line sends
    the rows that changed (``draw_rows``) without drawing a canvas."""
    location = LOBBY
    shows_nodes = True
    hears_challenges = True
    WHO_ROWS = 8
    # seconds after the minute turns that the lobbies are told (the loop's
    # clock and the wall clock's minute may differ by a hair)
    MINUTE_LATE = 0.05

    def __init__(self, session: Session):
        super().__init__(session)
        self._refresh_at = 0.0
        # the last frame's bottom line was the key line (of the offers and
        # waiting challenge its backdrop shows), with or without "u resume":
        # which; None: another bottom line
        self._keys_pending: bool | None = None
        self.chat = ChatPane(session.services.lobby.HISTORY)
        for who, text in session.services.lobby.log.lines:
            self.chat.add(who, text)
        self.messages_shown = len(session.messages)   # sysop messages in the pane so far
        self.chat_input: LineInput | None = None
        self.input_mode = "chat"          # or "page", "to", "message": what the input line is for
        self.message_to = ""              # the caller a message goes to
        self._message = ""
        self.message_until = 0.0          # a message fades after a while
        self.confirm_bye = False
        self._backdrop: tuple[Backdrop, tuple[Row, ...]] | None = None   # (parts, its drawing)
        self._who: tuple[WhoRows | None, tuple[tuple[str, int], ...]] = (None, ())   # (who_rows' rows, in colour)

    @property
    def message(self) -> str:
        return self._message if time.monotonic() < self.message_until else ""

    @message.setter
    def message(self, text: str) -> None:
        self._message = text
        self.message_until = time.monotonic() + NOTICE_SECONDS

    def frame_due(self, now: float) -> float | None:
        """The next redraw for a message fading (the clock's minute comes by ``tick``)."""
        return self.message_until if self._message and now < self.message_until else None

    def tick(self) -> None:
        """The clock's minute (``ticks``): redraw, if this screen is still shown."""
        session = self.session
        if session.screens and session.screens[-1] is self:
            session.draw_now()

    def draw_rows(self) -> bool:
        """The minute's change, or the who-list's, alone if that is all
        there is: the backdrop as last drawn but for the clock and the
        who-list's rows, the same key line under it (it follows the
        challenges the backdrop shows, and whether a game waits to be
        resumed) and nothing over it. The clock's five cells and rows 1-11
        as another lobby drew them (``_BOXES``) are sent as changed rows
        (``Session.show_rows``), with no canvas. False when the whole
        screen is to be drawn (``draw``)."""
        kept = self._backdrop
        if (kept is None or self._keys_pending is None or self.chat_input is not None
                or self.confirm_bye or self.message):
            return False
        before, rows = kept
        parts = self._backdrop_parts(time.monotonic())
        if (parts.header[:-5] != before.header[:-5] or parts[3:] != before[3:]
                or self._keys_pending != self._test("pending")):
            return False
        new = list(rows)
        if parts.header != before.header:
            new[0] = rows[0][:74] + tuple(cell(ch, BRIGHT_CYAN, BLUE) for ch in parts.header[-5:]) + rows[0][79:]
        if parts.who != before.who or parts.online != before.online:
            boxes = _BOXES.get(_boxes_key(parts))
            if boxes is None:
                return False               # this lobby draws them, for the others
            new[1:12] = boxes
        changes = {y: (rows[y], new[y]) for y in range(12) if new[y] is not rows[y]}
        if not self.session.show_rows(changes):   # (none changed: checks the frame is still this one)
            return False
        self._backdrop = (parts, tuple(new))
        return True

    # ----- challenges addressed to or sent by me ----------------------------
    def _incoming(self) -> list[Challenge]:
        return self.session.services.board.incoming(self.session.handle)

    def _outgoing(self) -> list[Challenge]:
        return self.session.services.board.outgoing(self.session.handle)

    async def on_key(self, key: str) -> Transition:
        app = self.session.services
        if self.chat_input is not None:
            text = self.chat_input.handle(key)
            if text is not None and self.input_mode == "page":
                self.message = (app.lobby.page_sysop(self.session.handle, text, self.session.own_address)
                                if text.strip() else "")
                self.chat_input = None
            elif text is not None and self.input_mode in ("to", "message"):
                await self._message_to(text)
            elif text is not None and not text.strip():
                self.chat_input = None            # an empty ENTER closes the chat line
            elif text is not None:
                self.message = app.lobby.post(self.session.handle, text, self.session.own_address) or ""
                # refused: close the line so the reason shows where the prompt was
                self.chat_input = None if self.message else LineInput(120)
            elif self.chat_input.cancelled:
                self.chat_input = None
            return None
        self.message = ""
        if self.confirm_bye:
            self.confirm_bye = False
            if key in ("y", "Y"):
                return Quit("Thanks for calling Gatehouse. Goodbye!")
            self.message = "You stay."
            return None
        spec = KEYS.find(key, self.seen, self._test)
        if spec is None:
            return None
        result: Transition = await getattr(self, spec.action)(key)
        return result

    @property
    def seen(self) -> Seen:
        return Seen.CHALLENGED if self._incoming() else Seen.LOBBY

    def _test(self, name: str) -> bool:
        if name == "pending":
            return bool(self.session.services.matches.pending_for(self.session.handle))
        return name == "outgoing" and bool(self._outgoing())

    async def _page(self, key: str) -> Transition:
        self.chat.scroll(1 if key == K.PGUP else -1)
        return None

    async def _redraw(self, key: str) -> Transition:
        self.session.terminal.redraw()
        return None

    async def _chat(self, key: str) -> Transition:
        self.chat_input, self.input_mode = LineInput(120), "chat"
        return None

    async def _page_sysop(self, key: str) -> Transition:
        self.chat_input, self.input_mode = LineInput(60), "page"
        return None

    async def _message_caller(self, key: str) -> Transition:
        self.chat_input, self.input_mode = LineInput(20), "to"
        return None

    async def _watch(self, key: str) -> Transition:
        return Push(WatchListScreen(self.session))

    async def _play(self, key: str) -> Transition:
        return Push(ChallengeScreen(self.session))

    async def _withdraw(self, key: str) -> Transition:
        for ch in self._outgoing():
            self.message = await self.session.services.board.withdraw(ch.id, by=self.session.handle)
        return None

    async def _resume(self, key: str) -> Transition:
        return Push(ResumeScreen(self.session, self.session.services.matches.pending_for(self.session.handle)))

    async def _turns(self, key: str) -> Transition:
        return Push(TurnsScreen(self.session))

    async def _fame(self, key: str) -> Transition:
        return Push(HallOfFameScreen(self.session))

    async def _games(self, key: str) -> Transition:
        return Push(MyGamesScreen(self.session))

    async def _settings(self, key: str) -> Transition:
        return Push(SettingsScreen(self.session))

    async def _help(self, key: str) -> Transition:
        text = "\n".join(["THE LOBBY", "", *KEYS.help_lines(Seen, lambda name: True), "", LOBBY_NOTES])
        return Push(PagerScreen(self.session, text, "Help"))

    async def _bye(self, key: str) -> Transition:
        self.confirm_bye = True
        return None

    async def _answer(self, key: str) -> Transition:
        self.message, screen = await answer_challenge(self.session, self._incoming()[0], key in ("y", "Y"))
        return Push(screen) if screen is not None else None

    async def _message_to(self, text: str) -> None:
        """A line to a caller: first whom (checked), then the line."""
        messages, me = self.session.services.messages, self.session.handle
        self.chat_input = None
        if not text.strip():
            return
        if self.input_mode == "to":
            name, why = await messages.recipient(me, text)
            if name is None:
                self.message = why
                return
            self.message_to = name
            self.chat_input, self.input_mode = LineInput(MAX_MESSAGE), "message"
            return
        self.message = await messages.send(me, self.message_to, text, self.session.own_address)


    def _new_messages(self) -> None:
        """Sysop messages that came while another screen was open join the pane."""
        for who, text in self.session.messages[self.messages_shown:]:
            self.chat.add(who, text)
        self.messages_shown = len(self.session.messages)

    async def on_result(self, result: object) -> Transition:
        """The challenge screen returned (or a game ended)."""
        self._new_messages()
        if isinstance(result, ChallengeOffer):
            self.message = await offer_challenge(self.session, result)
        elif isinstance(result, str):
            self.message = result
        return None

    async def on_event(self, event: SessionEvent) -> Transition:
        if isinstance(event, E.Chat) and event.channel == "lobby":
            self.chat.add(event.who, event.text)
        elif isinstance(event, E.ChatCleared):
            self.chat = ChatPane(self.session.services.lobby.HISTORY)
        elif isinstance(event, E.SysopMessage):
            self._new_messages()                      # kept in the log, as in a game
        else:
            message, transition = challenge_news(self.session, event)
            # a game opening ends what the line said before ("Challenge sent to ...")
            self.message = message or ("" if transition is not None else self.message)
            return transition
        return None

    # ----- drawing ----------------------------------------------------------
    def _backdrop_parts(self, now: float) -> Backdrop:
        """Everything the screen shows above its bottom line, as text: while
        it is unchanged (most keys only touch the bottom line), the drawing
        is taken from the last frame instead of drawn again."""
        app = self.session.services
        wall = app.matches.clock.wall()
        into_minute = wall % 60
        clock = clock_text(wall)
        header = f"{self.session.handle} · node {self.session.node} · {clock}"
        rows, count = who_rows(app.nodes, self.WHO_ROWS, now - into_minute, clock)
        if self._who[0] is not rows:
            self._who = (rows, coloured(rows, self.session.node))
        who = self._who[1]
        self._refresh_at = now + 60.0 - into_minute + self.MINUTE_LATE      # the clock's next minute
        try:
            ticks.at(self._refresh_at, self)
        except RuntimeError:
            pass                   # drawn with no event loop (a test's canvas): nothing to wake
        incoming = self._incoming()
        offers = []
        for ch in incoming[:1]:
            more = f" (+{len(incoming) - 1})" if len(incoming) > 1 else ""
            lead = f" {ch.challenger} challenges you to "
            hint = f"{more}  y accept · n decline "
            if len(lead + ch.headline()) + 5 > 80 - len(hint):     # the door and pace come first
                hint = f"{more}  y/n "
            offers.append((challenge_text(lead, ch, 80 - len(hint)), hint))
        waiting = tuple(challenge_text(f"Waiting for {ch.target} to answer: ", ch, 78 - len(self.WITHDRAW))
                        for ch in self._outgoing()[:1])
        return Backdrop(header, who, count, turns_line(app.matches.turns_waiting(self.session.handle)),
                        app.nodes.sysop_available, tuple(offers), waiting, (self.chat.added, self.chat.back))

    WITHDRAW = "  (x withdraws)"

    def _draw_backdrop(self, canvas: Canvas, parts: Backdrop, before: Backdrop | None = None) -> None:
        """Draw ``parts``; on a canvas that holds the drawing of ``before``
        (the last frame's backdrop, restored), only the parts that differ:
        the clock's minute touches the header and the who-list, not the
        chat; rows 1-11 come from ``_BOXES`` when another lobby drew them."""
        def changed(*fields: str) -> bool:
            if before is None:
                return True
            if any(getattr(parts, f) != getattr(before, f) for f in fields):
                canvas.fill(*self._AREAS[fields[0]])
                return True
            return False
        if before is not None and before.header[:-5] == parts.header[:-5]:
            if before.header != parts.header:     # the clock's minute alone: its five cells
                canvas.text(74, 0, parts.header[-5:], BRIGHT_CYAN, BLUE)
        elif changed("header"):
            canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
            canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
            canvas.text(11, 0, "· Lobby", WHITE, BLUE)
            canvas.text(79 - len(parts.header), 0, parts.header, BRIGHT_CYAN, BLUE)
        boxes = _boxes_key(parts)
        shared = canvas.whole and canvas.width == 80 and canvas.height > 11
        if before is None or boxes != _boxes_key(before):
            rows = _BOXES.get(boxes) if shared else None
            if rows is not None:
                canvas.put_rows(1, rows)
            else:
                if before is not None:
                    canvas.fill(0, 1, 80, 11)
                self._draw_boxes(canvas, parts)
                if shared:
                    if len(_BOXES) >= BOXES_KEPT:
                        _BOXES.clear()
                    _BOXES[boxes] = canvas.take_rows(1, 11)
        if changed("offers", "waiting"):
            row = 12
            for text, hint in parts.offers:
                canvas.fill(0, row, 80, 1, " ", WHITE, BLUE)
                x = canvas.text(0, row, text, WHITE, BLUE)
                canvas.text(x, row, hint, YELLOW, BLUE)
                row += 1
            for text in parts.waiting:
                x = canvas.text(1, row, text, BRIGHT_CYAN)
                canvas.text(x, row, self.WITHDRAW, BRIGHT_CYAN)
                row += 1
        if changed("chat"):
            canvas.box(0, 14, 80, 9, BRIGHT_BLUE, style=BOX_DOUBLE, title="Lobby chat")
            self.chat.draw(canvas.region(2, 15, 76, 7))

    def _draw_boxes(self, canvas: Canvas, parts: Backdrop) -> None:
        """Rows 1-11: the who-list and the doors box."""
        canvas.box(0, 1, 50, 11, CYAN, title="Who's online")
        canvas.text(2, 2, "No. Handle               Where    Rating  Idle", DARK_GREY)
        for i, (line, colour) in enumerate(parts.who):
            canvas.text(2, 3 + i, line, colour)
        self._draw_count(canvas, parts.online)
        canvas.box(50, 1, 30, 11, CYAN, title="Doors")
        marks = door_marks()
        for i, (key, info) in enumerate(registry().items()):
            canvas.text(52, 3 + i, shorten(info.title, 22), BRIGHT_GREEN)
            canvas.text(76, 3 + i, marks[key], DARK_GREY)
        if parts.turns:              # by turns: the games waiting for this caller's move
            canvas.text(52, 9, shorten(f"{parts.turns} (t)", 27), BRIGHT_GREEN)
        canvas.text(52, 10, f"Sysop: {'available' if parts.sysop else 'not available'}", DARK_GREY)

    def _draw_count(self, canvas: Canvas, online: int) -> None:
        """The who-list's bottom edge, with how many more are on than it names."""
        canvas.text(0, 11, BOX_SINGLE[2] + BOX_SINGLE[4] * 48 + BOX_SINGLE[3], CYAN)
        if online > self.WHO_ROWS:
            canvas.text(2, 11, f" and {online - self.WHO_ROWS} more ", DARK_GREY)

    # where each part of the backdrop is drawn (x, y, width, height), cleared before it is drawn again
    _AREAS = {"header": (0, 0, 80, 1), "offers": (0, 12, 80, 2), "chat": (0, 14, 80, 9)}

    PLAIN_CHAT = 4      # chat lines the plain lobby shows

    def _draw_plain(self, canvas: Canvas, parts: Backdrop) -> None:
        """The lobby as a short list of lines, no boxes (plain text: a screen
        reader reads each line once; a new chat line changes few lines)."""
        lines = plain_lobby_lines(parts, self.WITHDRAW)
        for y, line in enumerate(lines[:23 - self.PLAIN_CHAT]):
            canvas.text(0, y, shorten(line, 79), GREY)
        self.chat.draw(canvas.region(2, min(len(lines), 23 - self.PLAIN_CHAT), 77, self.PLAIN_CHAT))

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        parts = self._backdrop_parts(now)
        kept = self._backdrop
        if self.session.terminal.plain:          # no cached full-screen drawing: a short list
            self._backdrop = None
            self._draw_plain(canvas, parts)
        elif kept is not None and canvas.fits(kept[1]):
            canvas.restore(kept[1])
            if kept[0] != parts:              # redraw what changed
                self._draw_backdrop(canvas, parts, kept[0])
                self._backdrop = (parts, canvas.snapshot(like=kept[1]))
        else:
            self._draw_backdrop(canvas, parts)
            self._backdrop = (parts, canvas.snapshot(like=kept[1] if kept else None)) if canvas.whole else None
        cursor = None
        self._keys_pending = None
        if self.chat.scrolled:
            canvas.text(60, 22, " PGDN: newer ", BLACK, CYAN)
        if self.chat_input is not None:
            label = {"chat": "Say: ", "page": "Page the sysop, reason: ", "to": "Message to (handle): ",
                     "message": f"Message to {self.message_to}: "}[self.input_mode]
            canvas.text(0, 23, label, YELLOW)
            cursor = self.chat_input.draw(canvas, len(label), 23, 79 - len(label), WHITE, 0)
            if not self.chat_input.text:
                hint = ("(ENTER sends; ENTER on an empty line or ESC closes)" if self.input_mode == "chat"
                        else "(ENTER sends, ESC cancels)")
                canvas.text(len(label) + 1, 23, hint, DARK_GREY)
        elif self.confirm_bye:
            question = "Back to the BBS? (y/n)" if self.session.origin == Origin.RLOGIN else "Log off? (y/n)"
            canvas.text(1, 23, question, BLACK, BRIGHT_RED & 7)
        elif self.message:
            canvas.text(1, 23, shorten(self.message, 78), BRIGHT_RED)
        else:
            canvas.text(1, 23, KEYS.line(self.seen, self._test, 78), DARK_GREY)
            self._keys_pending = self._test("pending")
        return cursor
