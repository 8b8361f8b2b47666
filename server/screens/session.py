"""One caller's session: its inbox, its terminal and its screen stack; the
``Screen`` base and its transitions; and ``Services``, what screens may call.

The loop waits on the inbox (keys from the reader task, events from other
sessions and matches), lets the top screen handle each item, then draws the
top screen into a fresh canvas and hands it to the terminal, which sends the
difference. Whatever happens, the session ends by closing every screen and
freeing its node.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import textwrap
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, assert_never

from ansi import keys as K
from ansi.canvas import RED, WHITE, YELLOW, Canvas, Row, shorten
from ansi.render import CHARSET_PROBE, charset_from_probe
from server.config import Config
from server.net.flood import ResizeRate, TypingRate
from server.net.terminal import (
    MIN_COLS,
    MIN_ROWS,
    PAUSE,
    RESUME,
    KeyDecoder,
    Pushes,
    Terminal,
    charset_for_term,
    charset_is_sure,
    clamp_size,
    is_bbs_term,
    is_plain_term,
    small_canvas_size,
)
from server.screens.call_clock import CallClock
from server.screens.challenge_lines import ended_line
from server.screens.inbox import Inbox
from server.services import events as E
from server.services.accounts import Accounts
from server.services.board import ChallengeBoard, ChallengeEvent
from server.services.ids import GameId, NodeId
from server.services.jobs import DoorJobs
from server.services.limits import AbuseLimits
from server.services.lobby import LobbyChat
from server.services.login_guard import LoginGuard
from server.services.matches import MatchManager
from server.services.messages import CallerMessages
from server.services.nodes import NodeRegistry, Origin
from server.services.ratings import RatingBook
from server.services.store import Store, WriteFailed

if TYPE_CHECKING:
    from server.net.terminal import Connection
    from server.services.store import UserRow

__all__ = ["Services", "Session", "Screen", "Push", "Pop", "Replace", "Quit", "Transition", "PushScreen",
           "SessionEvent"]

log = logging.getLogger("gatehouse.session")

NOTICE_SECONDS = 8.0
READ_SECONDS = 3.0      # a sysop message stays until a key comes at least this long after it
PROBE_SECONDS = 1.5     # the most a silent terminal makes a caller wait for the title screen
# what blanks the probe on a terminal that printed it (up to "^[[6n" and its three bytes), then a new line
PROBE_WIPE = b"\r" + b" " * 12 + b"\r\n"
BATCH = 64            # inbox items handled before the screen is drawn again
KEY_BACKLOG = 256     # queued items beyond which the caller's bytes are not read
LINGER_SECONDS = 0.3  # after the goodbye line, before the connection closes
GOODBYE_MARK = b"\x1bPgatehouse-goodbye;%s\x1b\\"   # (DCS, ignored by terminals) the console client prints it


@dataclasses.dataclass(frozen=True)
class Services:
    """What screens may call: each service owns its state (the composition
    root, ``server.app``, builds them)."""
    config: Config
    store: Store
    nodes: NodeRegistry[Session]
    board: ChallengeBoard[Session]
    lobby: LobbyChat[Session]
    matches: MatchManager
    ratings: RatingBook
    login_guard: LoginGuard
    jobs: DoorJobs
    limits: AbuseLimits
    accounts: Accounts[Session]
    messages: CallerMessages[Session]
    shutdown: Callable[[str], None] = lambda message: None   # stop the server (the console's S)


@dataclasses.dataclass(frozen=True)
class Push:
    screen: Screen


@dataclasses.dataclass(frozen=True)
class Pop:
    result: object = None     # for the screen below's ``on_result``, which knows what it pushed


@dataclasses.dataclass(frozen=True)
class Replace:
    screen: Screen


@dataclasses.dataclass(frozen=True)
class Quit:
    message: str = "Goodbye."


Transition = Push | Pop | Replace | Quit | None


@dataclasses.dataclass(frozen=True)
class PushScreen:
    """Open a screen on top of whatever the session shows (the sysop's
    split-screen chat); ``factory(session)`` builds it in the receiving
    session. When it closes, the previous screen is drawn again from its
    own state."""
    factory: Callable[[Session], Screen]


# Everything a session's inbox holds: what the services send (``events.Event``)
# and what one screen sends another session.
SessionEvent = E.Event | PushScreen


class Screen:
    """Base screen. ``location`` is what the who-list shows for the caller."""

    location = "lobby"
    # seconds between redraws for what changes by itself (idle times, the
    # clock); None: only events and frame_due redraw the screen
    refresh_every: float | None = None
    # shows who is online: redrawn when the node list changes (other screens
    # do not even hear of it)
    shows_nodes = False
    hears_challenges = False      # says how a challenge ended itself (else the session's notice does)
    passes_events = False         # only read over the screen beneath (help): its news goes there

    def __init__(self, session: Session):
        self.session = session

    @property
    def waiting_on_others(self) -> bool:
        """True while the caller waits for someone else (an opponent's move,
        a player's return): the idle limit does not run."""
        return False

    async def on_start(self) -> Transition:
        return None

    async def on_key(self, key: str) -> Transition:
        return None

    async def on_event(self, event: SessionEvent) -> Transition:
        return None

    async def on_result(self, result: object) -> Transition:
        """A screen pushed by this one has popped with ``result``."""
        return None

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        """Draw; return where the cursor should rest, or None."""
        return None

    def draw_rows(self) -> bool:
        """Instead of ``draw``, when the screen can tell which rows of its
        last frame changed and nothing else did: send those rows alone
        (``Session.show_rows``) and return True. False: ``draw`` is called."""
        return False

    def frame_due(self, now: float) -> float | None:
        return None

    def shows_game(self, game: GameId) -> bool:
        """Whether this screen is the board of game ``game``."""
        return False

    def hold_clock(self, held: bool) -> None:
        """A screen over this one keeps the caller from it (the sysop's
        chat): a game's time per move stands still while ``held``."""

    async def on_close(self) -> None:
        """The session is ending (dropped or quit) while this screen is open."""


# put in the inbox when the loop's deadline comes (see ``_next_item``): told
# apart from any other Tick by identity
_DUE = E.Tick()


def too_small_lines(farewell: str, cols: int, rows: int, width: int, height: int) -> list[str]:
    """What a window too small for the screens says, wrapped to fit in it
    (short of its last column, where a terminal may wrap): the farewell if
    one is due, else the longest telling that fits."""
    tellings = [farewell] if farewell else [
        f"Your window is {cols}x{rows}. Gatehouse needs at least {MIN_COLS}x{MIN_ROWS}: please enlarge it.",
        f"Window {cols}x{rows}: enlarge it to {MIN_COLS}x{MIN_ROWS}.",
        f"Need {MIN_COLS}x{MIN_ROWS}"]
    step = max(1, width - 1)
    for text in tellings:
        lines = textwrap.wrap(text, step)
        if len(lines) <= height:
            return lines
    return lines[:height]


class Session:
    __slots__ = ("services", "conn", "node", "origin", "inbox", "user", "handle", "is_sysop",
                 "idle_limit", "decoder", "terminal", "screens", "connected_at", "last_key",
                 "notice", "closed", "_idle_warned", "_quit_message", "_held", "_typing",
                 "charset_locked", "charset_unsure", "_cursor_report", "pinned", "messages", "hooks",
                 "_pushes", "_resizes", "_resize_due", "_linger", "clock", "leaving_why", "_shown")

    def __init__(self, services: Services, conn: Connection, node: NodeId, origin: Origin = Origin.TELNET):
        self.services = services
        self.conn = conn
        self.node = node
        self.origin = origin
        self.inbox: Inbox[SessionEvent] = Inbox()
        self.user: UserRow | None = None
        self.handle = ""
        self.is_sysop = False
        self.idle_limit = services.config.server.idle_seconds   # the sysop console: never
        charset = charset_for_term(conn.term)
        # A BBS says which charset its caller's terminal takes (the RLogin
        # terminal type; door mode's flag): a choice saved on another call
        # would double-encode behind a BBS that converts CP437 itself. A
        # browser is always UTF-8.
        self.charset_locked = origin in (Origin.RLOGIN, Origin.WEB)
        self.decoder = KeyDecoder(charset, del_is_delete=is_bbs_term(conn.term))
        plain = is_plain_term(conn.term)      # no ANSI: plain text, never an escape byte
        self.terminal = Terminal(conn, charset, plain)
        self.charset_unsure = not plain and not charset_is_sure(conn.term)   # probed before the first screen
        self._cursor_report: asyncio.Future[tuple[int, int]] | None = None
        self.screens: list[Screen] = []
        self.connected_at = time.monotonic()
        self.last_key = time.monotonic()
        self.notice: tuple[str, float] | None = None
        self.pinned: tuple[str, float] | None = None   # a sysop message until read: (text, since)
        self.messages: list[tuple[str, str]] = []      # sysop messages this call, for the screens' logs
        # called with every inbox item before the top screen sees it (the
        # sysop console's news line in games)
        self.hooks: list[Callable[[SessionEvent], None]] = []
        self.closed = False
        self._idle_warned = False
        self._quit_message = ""
        self._held: asyncio.Future[None] | None = None   # set while the reader may not queue more keys
        self._typing = TypingRate()
        self._pushes: Pushes | None = None  # a connection that hands its input over (no reading task)
        # how long the call may last (the caller's time on their BBS; the
        # sysop's cap on a telnet call), and why the caller left, for their opponent
        self.clock = CallClock(services.config.timing.minute_seconds)
        self.leaving_why = ""
        # (the screen, the renderer's frame count) when the frame on the
        # caller's screen is the one that screen drew last: it may send
        # changed rows alone (``show_rows``)
        self._shown: tuple[Screen, int] | None = None
        if origin == Origin.TELNET:
            self.clock.cap(self.connected_at, services.config.server.telnet_timeout_minutes)
        self._resizes = ResizeRate()
        self._resize_due = False
        self._linger = LINGER_SECONDS     # the line stays open this long after the goodbye
        conn.on_resize = lambda: self.inbox.put_nowait(E.Resized())

    # ----- what others see --------------------------------------------------
    @property
    def own_address(self) -> str | None:
        """The caller's own network address, for the limits kept per
        address; None for a BBS caller (the connection is their BBS's,
        shared by all its callers)."""
        return None if self.origin == Origin.RLOGIN else self.conn.peer

    @property
    def location(self) -> str:
        return self.screens[-1].location if self.screens else "login"

    def _resized_later(self) -> None:
        self._resize_due = False
        self.inbox.put_nowait(E.Resized())

    def idle_seconds(self, now: float | None = None) -> float:
        return (time.monotonic() if now is None else now) - self.last_key

    def send(self, event: SessionEvent) -> None:
        """Put an event in this session's inbox (the only way in). News of
        the node list reaches only a screen that shows it, or a session with
        hooks (the sysop's news line hears who logs on in any screen)."""
        if self.closed or (isinstance(event, E.NodesChanged) and not self.hooks
                           and not (self.screens and self.screens[-1].shows_nodes)):
            return
        self.inbox.put_nowait(event)

    def show_notice(self, text: str) -> None:
        self.notice = (text, time.monotonic() + NOTICE_SECONDS)

    def flash(self, text: str) -> None:
        """Show a notice now, even while this session's loop waits on
        something (a move being saved to a locked database)."""
        if not self.closed:
            self.show_notice(text)
            self._draw()

    def draw_now(self) -> None:
        """Draw the top screen now, from outside the loop (a screen's own
        timer: the lobby's clock, ``ticks``)."""
        if not self.closed and self.screens:
            self._draw()

    def show_rows(self, changes: dict[int, tuple[Row, Row]]) -> bool:
        """The top screen changed only these rows of its last frame, each
        ``y: (old, new)``, and its cursor rests as before (none): send that
        change alone, with no canvas drawn (``Screen.draw_rows``: the
        lobby's minute and who-list). False when it can't be (a notice over
        the screen, a small window, the last frame differs there)."""
        if self.closed or not self.screens or self.notice or self.pinned or self.terminal.too_small():
            return False
        renderer = self.terminal.renderer
        if (renderer.width, renderer.height) != (MIN_COLS, MIN_ROWS) or \
                self._shown != (self.screens[-1], renderer.frames):
            return False                  # the caller's screen shows another frame
        if changes and not self.terminal.show_rows(changes, None):
            return False
        self._shown = (self.screens[-1], renderer.frames)
        return True

    def sign_in(self, user: UserRow, handle: str | None = None) -> Session | None:
        """This session is ``user``'s now, under ``handle`` (a second sysop
        console is "Sysop#2"); the who-lists hear of it. If another session
        holds that handle, nothing changes and that session is returned
        (the node registry's claim: one session per handle)."""
        holder = self.services.nodes.claim(handle or user.handle, self)
        if holder is not None:
            return holder
        self.user = user
        self.handle = handle or user.handle
        if user.charset and user.charset != self.charset and not self.charset_locked:
            self.set_charset(user.charset)
        self.services.nodes.changed()
        return None

    def attach_console(self) -> None:
        """This session is a sysop console: marked, and never logged off for idling."""
        self.is_sysop = True
        self.idle_limit = float("inf")

    @property
    def charset(self) -> str:
        return self.terminal.charset

    def set_charset(self, charset: str) -> None:
        self.terminal.charset = charset
        self.decoder.charset = charset
        self.charset_unsure = False
        self.terminal.redraw()

    async def _probe_charset(self) -> None:
        """Ask the terminal which charset it decodes (see ``CHARSET_PROBE``);
        no answer in ``PROBE_SECONDS``: the title screen lets the caller choose."""
        self._cursor_report = asyncio.get_running_loop().create_future()
        self.conn.write(CHARSET_PROBE)
        try:
            _row, col = await asyncio.wait_for(self._cursor_report, PROBE_SECONDS)
        except TimeoutError:
            if self.conn.term.strip().lower() in ("", "unknown"):
                self.terminal.set_plain(True)   # says nothing of itself, answers nothing: no ANSI
                self.charset_unsure = False
                self.conn.write(PROBE_WIPE)     # the probe as printed, blanked: plain text starts clean
            return
        finally:
            self._cursor_report = None
        found = charset_from_probe(col)
        if found is not None:
            self.set_charset(found)

    # ----- the loop ---------------------------------------------------------
    async def run(self, first: Screen) -> None:
        if isinstance(self.conn, Pushes) and self.conn.listen(self._received, self._ended):
            self._pushes, reader = self.conn, None
        else:
            reader = asyncio.create_task(self._read_keys())
        try:
            if self.charset_unsure and self.user is None:
                await self._probe_charset()
            await self._apply(Push(first))
            while self.screens and not self.closed:
                self._draw()
                await self._handle(await self._next_item())
                self._check_clock(time.monotonic())
                # handle whatever else is already queued before drawing again
                for _ in range(BATCH):
                    if self.inbox.empty() or self.closed or not self.screens:
                        break
                    await self._handle(self.inbox.get_nowait())
                if self._held is not None and self.inbox.qsize() <= KEY_BACKLOG // 2:
                    if not self._held.done():     # (a cancelled reader cancels it)
                        self._held.set_result(None)   # the reader may read on
                    self._held = None
                    if self._pushes is not None:
                        self._pushes.resume_reading()
            if self._quit_message and not self.conn.is_closing():
                await self._say_goodbye(self._quit_message)
        finally:
            self.closed = True
            if reader is not None:
                reader.cancel()
            for screen in reversed(self.screens):
                try:
                    await screen.on_close()
                except Exception:
                    log.exception("closing screen %r", screen)
            self.screens.clear()
            self.services.matches.leave(self, self.leaving_why)   # a seat no screen had opened yet
            await self.terminal.stop()

    async def _say_goodbye(self, text: str) -> None:
        """The goodbye on the bottom line, then CR LF (the client's own
        "Connection closed" starts a line of its own), and the line kept
        open a moment (``_linger``) to be read."""
        self._draw(text)
        tail = self.terminal.renderer.release()
        if self.is_sysop:
            tail += GOODBYE_MARK % text.encode("utf-8", "replace")
        await self.terminal.finish(tail)
        await asyncio.sleep(self._linger)

    def _received(self, data: bytes) -> None:
        """Bytes from the caller: keys into the inbox; CTRL-S/CTRL-Q act at
        once; a caller typing faster than the keys are handled is held back."""
        keys = self.decoder.feed(data)
        if self.decoder.cursor_reports:
            report = self.decoder.cursor_reports.pop()
            self.decoder.cursor_reports.clear()
            if self._cursor_report is not None and not self._cursor_report.done():
                self._cursor_report.set_result(report)
        allowed = self._typing.take(len(keys))
        for i, key in enumerate(keys):
            if key == PAUSE:          # flow control acts at once, not behind
                self.terminal.pause()  # queued keys, and is never dropped
            elif key == RESUME:
                self.terminal.resume()
            elif i < allowed:
                self.inbox.put_nowait(E.Key(key))
        if self.decoder.pending_deadline() is not None:
            self.inbox.put_nowait(E.Tick())   # wake the loop: a lone ESC is due soon
        if self._held is None and self.inbox.qsize() > KEY_BACKLOG:   # (a flood)
            # read no more until it is worked off
            self._held = asyncio.get_running_loop().create_future()
            if self._pushes is not None:
                self._pushes.pause_reading()

    def _ended(self) -> None:
        self.inbox.put_nowait(E.Closed())

    async def _read_keys(self) -> None:
        """For a connection that can't ``listen``: read, and hand over."""
        try:
            while True:
                data = await self.conn.read()
                if not data:
                    break
                self._received(data)
                if self._held is not None:
                    await self._held
        finally:
            self._ended()

    def _check_clock(self, now: float) -> None:
        """A notice as the call's time runs out; at its end, goodbye (a game
        in play is suspended as after a dropped line)."""
        tell = self.clock.check(now)
        if tell is None or self.closed:
            return
        if tell.end:
            self._quit_message = tell.text
            self.leaving_why = self.clock.why
            self.closed = True
        else:
            self.show_notice(tell.text)

    def _deadline(self, now: float) -> float:
        due = [self.last_key + self.idle_limit - (0 if self._idle_warned else 60)]
        clock = self.clock.next_due()
        if clock is not None:
            due.append(clock)
        every = self.screens[-1].refresh_every if self.screens else None
        if every:   # spread over time, so two thousand lobbies don't redraw at once
            due.append(now + every * (0.75 + 0.5 * random.random()))
        for extra in (self.decoder.pending_deadline(),
                      self.screens[-1].frame_due(now) if self.screens else None,
                      self.notice[1] if self.notice else None):
            if extra is not None:
                due.append(extra)
        return min(due)

    async def _next_item(self) -> SessionEvent:
        """The next inbox item, or a Tick when the deadline comes first (a
        timer puts a marker in the inbox: no task per wait)."""
        if self.inbox.empty():
            now = time.monotonic()
            timer = asyncio.get_running_loop().call_later(
                max(0.0, self._deadline(now) - now), self.inbox.put_nowait, _DUE)
            try:
                item = await self.inbox.get()
            finally:
                timer.cancel()
        else:
            await asyncio.sleep(0)          # a batch is done: let the other sessions run
            item = self.inbox.get_nowait()
        if item is _DUE:
            now = time.monotonic()
            for key in self.decoder.flush(now):
                self.inbox.put_nowait(E.Key(key))
            if self.notice and now >= self.notice[1]:
                self.notice = None
            if self.screens and self.screens[-1].waiting_on_others:
                self.last_key = now             # waiting for another's move is not idling
                self._idle_warned = False
            idle = self.idle_seconds(now)
            limit = self.idle_limit
            if idle >= limit:
                self._quit_message = "You were idle too long. Goodbye."
                self.closed = True
            elif idle >= limit - 60 and not self._idle_warned:
                self._idle_warned = True
                self.show_notice("Are you there? You will be logged off in 60 s for idling.")
            return E.Tick()
        return item

    async def _handle(self, item: SessionEvent) -> None:
        """Handle one inbox item; a failing screen is logged and the caller
        told, and the session (and everyone else's) goes on."""
        try:
            await self._dispatch(item)
        except WriteFailed as exc:       # the store logged it (once a minute) and the console shows it
            self.show_notice(f"That was NOT saved: {exc.why}. Nothing changed; try again later.")
            self.terminal.redraw()
        except Exception:
            log.exception("session %s (%s) failed on %r", self.node, self.handle or "-", item)
            self.show_notice("Sorry, that went wrong (the sysop can see why in the log).")
            self.terminal.redraw()

    def _challenge_ended(self, item: ChallengeEvent) -> None:
        """How a challenge ended, on the notice line of a screen that does
        not say it itself (help, the new-game screen, a game)."""
        ended = ended_line(item.challenge, self.handle)
        if ended is not None:
            self.show_notice(ended)

    async def _dispatch(self, item: SessionEvent) -> None:
        if item is _DUE:             # a deadline that came with other items: they woke the loop
            return
        top = self.screens[-1]
        for hook in self.hooks:
            hook(item)
        match item:
            case E.Key(name=key):
                self.last_key = time.monotonic()
                if self.pinned is not None and self.last_key - self.pinned[1] >= READ_SECONDS:
                    self.pinned = None          # read: it stays in the screen's log
                self._idle_warned = False
                if key == K.CTRL_L:
                    self.terminal.redraw()
                await self._apply(await top.on_key(key))
            case E.Closed():
                self.closed = True
            case E.Resized():
                if self._resizes.allow():
                    self.terminal.redraw()
                elif not self._resize_due:      # one redraw later, at the size it comes to
                    self._resize_due = True
                    asyncio.get_running_loop().call_later(self._resizes.wait(), self._resized_later)
            case E.Kick(reason=reason):
                self._quit_message = f"Disconnected by the sysop: {reason}"
                self.closed = True
            case E.Shutdown(text=text, grace=grace):
                self._quit_message = text
                self._linger = grace
                self.closed = True
            case E.TakenOver(node=node):
                self._quit_message = (f"You logged in again on node {node}: this connection "
                                      "is closed. Goodbye.")
                self.closed = True
            case E.Notice(text=text):
                self.show_notice(text)
            case E.SysopMessage(who=who, text=text):      # (and a caller's message)
                self.messages.append((who, text))    # the sysop's: few, kept for this call
                self.pinned = (f"{who}: {text}", time.monotonic())
                self.terminal.bell()
                await self._apply(await top.on_event(item))
            case PushScreen(factory=factory):
                await self._apply(Push(factory(self)))
            case E.ChallengeEvent() if not top.hears_challenges:
                self._challenge_ended(item)
                await self._apply(await top.on_event(item))
            case E.MatchEvent(kind=E.News.START) if not top.hears_challenges:
                await self._to_started_game(item)
            case E.MatchEvent() | E.Chat() if top.passes_events and len(self.screens) > 1:
                await self._beneath(item)
            case (E.Tick() | E.Chat() | E.ChatCleared() | E.NodesChanged() | E.Page() | E.MatchEvent()
                  | E.SplitLine() | E.SplitEnd() | E.ChallengeEvent()):
                await self._apply(await top.on_event(item))
            case _:
                assert_never(item)

    async def _beneath(self, item: E.MatchEvent | E.Chat) -> None:
        """A screen that is only read over another (help) passes a game's
        news and chat to the screen beneath, which keeps them for when it
        is shown again; a change of screen they bring closes the help first."""
        transition = await self.screens[-2].on_event(item)
        if transition is not None:
            await self.screens.pop().on_close()
            await self._apply(transition)

    async def _to_started_game(self, item: E.MatchEvent) -> None:
        """A game this caller holds a seat in started (their challenge was
        accepted) while a screen over the lobby was shown (help, the
        new-game screen): back to the lobby or console, which opens it.
        With no such screen below, the seat is left: the game waits for
        them as after a drop."""
        match = self.services.matches.live.get(item.game)
        if match is None or match.seat_of(self) is None or any(s.shows_game(item.game) for s in self.screens):
            await self._apply(await self.screens[-1].on_event(item))
            return
        below = next((i for i in range(len(self.screens) - 1, -1, -1)
                      if self.screens[i].hears_challenges), None)
        if below is None:
            match.detach(self)
            return
        while len(self.screens) > below + 1:
            await self.screens.pop().on_close()
        self.services.nodes.changed()
        await self._apply(await self.screens[-1].on_event(item))

    async def _apply(self, transition: Transition) -> None:
        while transition is not None:
            if isinstance(transition, Push):
                self.screens.append(transition.screen)
                self.services.nodes.changed()
                transition = await transition.screen.on_start()
            elif isinstance(transition, Replace):
                if self.screens:
                    self.screens.pop()
                self.screens.append(transition.screen)
                self.services.nodes.changed()
                transition = await transition.screen.on_start()
            elif isinstance(transition, Pop):
                if self.screens:
                    self.screens.pop()
                self.services.nodes.changed()
                transition = await self.screens[-1].on_result(transition.result) if self.screens else None
            elif isinstance(transition, Quit):
                self._quit_message = transition.message
                self.closed = True
                transition = None

    # ----- drawing ----------------------------------------------------------
    def _draw(self, farewell: str = "") -> None:
        if not farewell and self.screens and self.screens[-1].draw_rows():
            return                  # the few rows that changed are sent: no canvas
        self._shown = None
        now = time.monotonic()
        if self.terminal.too_small():
            cols, rows = clamp_size(self.conn.cols, self.conn.rows)
            width, height = small_canvas_size(cols, rows)
            if (self.terminal.renderer.width, self.terminal.renderer.height) != (width, height):
                self.terminal.renderer.resize(width, height)
            canvas = Canvas(width, height)
            for y, line in enumerate(too_small_lines(farewell, cols, rows, width, height)):
                canvas.text(0, y, line, YELLOW)
            self.terminal.show(canvas, None)
            return
        if (self.terminal.renderer.width, self.terminal.renderer.height) != (MIN_COLS, MIN_ROWS):
            self.terminal.renderer.resize(MIN_COLS, MIN_ROWS)
        canvas = Canvas(MIN_COLS, MIN_ROWS)
        cursor = None
        own = bool(self.screens) and not (farewell or self.notice or self.pinned)   # the screen's own frame
        if self.screens:
            try:
                cursor = self.screens[-1].draw(canvas, now)
            except Exception:
                own = False
                log.exception("drawing %r", self.screens[-1])
                canvas.clear()
                canvas.text(0, 0, "Sorry, this screen failed to draw. Press ESC.", RED)
        if farewell:
            lines = textwrap.wrap(farewell, 78)[:2] or [""]
            for i, line in enumerate(lines):
                y = MIN_ROWS - len(lines) + i
                canvas.fill(0, y, MIN_COLS, 1)
                canvas.text(1, y, line, WHITE)
            cursor = None
        elif self.notice or self.pinned:
            text = self.notice[0] if self.notice else self.pinned[0] if self.pinned else ""
            canvas.fill(0, 0, 80, 1, " ", WHITE, RED)
            canvas.text(1, 0, shorten(text, 78), YELLOW, RED)
        if self.terminal.show(canvas, cursor) and own:
            self._shown = (self.screens[-1], self.terminal.renderer.frames)
