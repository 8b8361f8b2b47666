"""The sysop console: ``gatehouse sysop`` attaches to the running server over
a local Unix socket (``net.sysop_socket``) and becomes a session like any
caller's, marked ``is_sysop`` and opening on ``SysopScreen`` instead of the
login. The sysop is a seat like a caller: challenges go through the same
board calls (offer, withdraw, accept, decline).
"""
from __future__ import annotations

import itertools
import logging
import time
from typing import Any

from ansi import keys as K
from ansi.canvas import BLACK, BLUE, BRIGHT_CYAN, BRIGHT_RED, CYAN, DARK_GREY, GREY, RED, WHITE, YELLOW, Canvas, shorten
from ansi.widgets import LineInput
from server.net.terminal import charset_for_term
from server.screens.accounts_screen import AccountsScreen
from server.screens.challenge import ChallengeOffer, ChallengeScreen
from server.screens.lobby import answer_challenge, challenge_news, idle_text, offer_challenge
from server.screens.login import account_for
from server.screens.match_screen import MatchScreen
from server.screens.pager import PagerScreen
from server.screens.resume import ResumeScreen
from server.screens.session import Push, Quit, Screen, Session, Transition
from server.screens.split_chat import open_split_chat
from server.screens.sysop_news import CONSOLE_HELP, SysopNews
from server.services import events as E
from server.services.board import Challenge
from server.services.chat import clean_chat
from server.services.match import Match
from server.services.nodes import CONSOLE, LOBBY
from server.services.store import AccountKind

__all__ = ["open_console", "SysopScreen"]

log = logging.getLogger("gatehouse.sysop")

# the most used keys; ? shows them all (never wider than 78 columns)
HINTS = "? help  q quit  u resume  g play  p challenge  y/n answer  c chat  m msg"


async def open_console(session: Session) -> Screen:
    """The first screen of a console session: log in as the sysop (a second
    console is "Sysop#2", so handles stay unique) and open the console."""
    app = session.services
    session.attach_console()
    name = app.config.sysop.name
    user = await account_for(session, name, AccountKind.SYSOP)
    # the first handle no other session holds, claimed as it is found
    next(h for h in itertools.chain([name], (f"{name}#{n}" for n in itertools.count(2)))
         if session.sign_in(user, h) is None)
    own = charset_for_term(session.conn.term)
    if session.charset != own:             # the console's terminal, not the stored choice
        session.set_charset(own)
    screen = SysopScreen(session)
    session.hooks.append(SysopNews(session, lambda: bool(session.screens) and session.screens[-1] is screen))
    return screen


# ----- the console -------------------------------------------------------------

class _ChallengeCaller(ChallengeScreen):
    """The challenge screen with the selected caller preselected."""

    def __init__(self, session: Session, target: str):
        self.target = target
        super().__init__(session)

    def _to_opponent(self) -> None:
        super()._to_opponent()
        if self.target in self.opponents:
            self.index = self.opponents.index(self.target)


class SysopScreen(Screen):
    location = CONSOLE
    refresh_every = 5.0           # the node list: idle times
    shows_nodes = True

    def __init__(self, session: Session):
        super().__init__(session)
        self.selected = ""                 # handle of the selected node
        self.input: LineInput | None = None
        self.mode = ""                     # what the input line is for: message/all/kick/shutdown
        self.message = ""

    # ----- nodes ----------------------------------------------------------------
    def _nodes(self) -> list[Session]:
        return self.session.services.nodes.online()

    def _target(self) -> Session | None:
        nodes = self._nodes()
        current = next((s for s in nodes if s.handle == self.selected), None)
        if current is None:
            current = next((s for s in nodes if s is not self.session), None)
            self.selected = current.handle if current is not None else ""
        return current

    def _caller(self) -> Session | None:
        """The selected node if it is somebody else (else say why not)."""
        target = self._target()
        if target is None or target is self.session:
            self.message = "Select a caller first (UP/DOWN)."
            return None
        return target

    def _incoming(self) -> list[Challenge]:
        return self.session.services.board.incoming(self.session.handle)

    def _outgoing(self) -> list[Challenge]:
        return self.session.services.board.outgoing(self.session.handle)

    def _names(self) -> set[str]:
        """This console's seat names: its handle and the sysop's own name."""
        return {self.session.handle, self.session.services.config.sysop.name}

    def _pending(self) -> list[Match]:
        """Unfinished games waiting for the sysop (under either name)."""
        matches = self.session.services.matches
        found: list[Match] = []
        for name in self._names():
            found += [m for m in matches.pending_for(name) if m not in found]
        return found

    async def on_start(self) -> Transition:
        pending = self._pending()
        if pending:                  # re-attached after a drop: offer the games back
            return Push(ResumeScreen(self.session, pending, names=self._names()))
        return None

    # ----- keys -----------------------------------------------------------------
    async def on_key(self, key: str) -> Transition:
        if self.input is not None:
            return self._typed(key)
        self.message = ""
        app = self.session.services
        if key in (K.UP, K.DOWN):
            nodes = self._nodes()
            if nodes:
                current = self._target()
                i = nodes.index(current) if current in nodes else 0
                self.selected = nodes[(i + (1 if key == K.DOWN else -1)) % len(nodes)].handle
        elif key in ("q", "Q"):
            return Quit("Console detached.")
        elif key == "?":
            return Push(PagerScreen(self.session, CONSOLE_HELP, "Sysop console help"))
        elif key in ("u", "U"):
            pending = self._pending()
            if not pending:
                self.message = "You have no unfinished games."
                return None
            return Push(ResumeScreen(self.session, pending, names=self._names()))
        elif key == "a":
            app.nodes.set_sysop_available(not app.nodes.sysop_available)
        elif key in ("h", "H"):          # holidays: every by-turns clock stops, or goes on
            clock = app.matches.clock
            if clock.paused:
                await clock.resume()
                self.message = "By-turns clocks running again; the pause is not charged."
            else:
                await clock.pause()
                self.message = "By-turns clocks paused (holidays): nobody loses on time. h resumes."
            app.lobby.notice(f"Sysop: {self.message}", but=self.session)
        elif key in ("x", "X"):
            outgoing = self._outgoing()
            if not outgoing:
                self.message = "You have no open challenge to withdraw."
            for ch in outgoing:
                self.message = await app.board.withdraw(ch.id, by=self.session.handle)
        elif key == "M":
            self.input, self.mode = LineInput(70), "all"
        elif key == "A":
            return Push(AccountsScreen(self.session))
        elif key == "e":
            app.lobby.clear(self.session.handle)
            self.message = "Lobby chat cleared (the kept lines and every open lobby)."
        elif key == "S":
            self.input, self.mode = LineInput(60), "shutdown"
        elif key in ("g", "G"):
            return Push(ChallengeScreen(self.session))
        elif key in ("y", "Y", "n", "N"):
            incoming = self._incoming()
            if not incoming:
                self.message = "No challenge is waiting for you."
                return None
            self.message, screen = await answer_challenge(self.session, incoming[0],
                                                          key in ("y", "Y"))
            return Push(screen) if screen is not None else None
        elif key in ("c", "m", "k", "w", "p"):
            caller = self._caller()
            if caller is None:
                return None
            if key == "c":
                return Push(open_split_chat(self.session, caller))
            if key == "m":
                self.input, self.mode = LineInput(70), "message"
            elif key == "k":
                self.input, self.mode = LineInput(60), "kick"
            elif key == "w":
                return self._watch(caller)
            elif key == "p":
                if caller.location != LOBBY:
                    self.message = f"{caller.handle} is not in the lobby."
                    return None
                return Push(_ChallengeCaller(self.session, caller.handle))
        return None

    def _typed(self, key: str) -> Transition:
        assert self.input is not None
        text = self.input.handle(key)
        if text is None:
            if self.input.cancelled:
                self.input = None
            return None
        self.input = None
        text = clean_chat(text)
        if self.mode == "shutdown":
            log.info("%s shuts the server down: %s", self.session.handle, text or "(no reason)")
            self.session.services.shutdown(text)
            self.message = "Shutting down..."
            return None
        if self.mode == "all":
            if text:
                self.session.services.lobby.message(self.session.handle, text, but=self.session)
                self.message = "Message sent to everybody."
            return None
        caller = self._caller()
        if caller is None:
            return None
        if self.mode == "message" and text:
            self.session.services.lobby.message(self.session.handle, text, to=caller)
            self.message = f"Message sent to {caller.handle}."
        elif self.mode == "kick":
            self.session.services.nodes.kick(caller, text or "no reason given")
            self.message = f"{caller.handle} disconnected."
        return None

    def _watch(self, caller: Session) -> Transition:
        match = next((m for m in self.session.services.matches.playing()
                      if m.seat_of(caller) is not None), None)
        if match is None:
            self.message = f"{caller.handle} is not playing."
            return None
        match.watch(self.session)
        return Push(MatchScreen(self.session, match, None))

    # ----- events -----------------------------------------------------------------
    async def on_event(self, event: Any) -> Transition:
        if isinstance(event, E.Page):
            self.session.terminal.bell()
            self.message = f"Page from {event.handle}: {event.reason}"
            return None
        message, transition = challenge_news(self.session, event)
        self.message = message or self.message
        return transition

    async def on_result(self, result: Any) -> Transition:
        if isinstance(result, ChallengeOffer):
            self.message = await offer_challenge(self.session, result)
        elif isinstance(result, str):
            self.message = result
        return None

    async def on_close(self) -> None:
        app = self.session.services
        if not any(s is not self.session for s in app.nodes.sysops()):
            app.nodes.set_sysop_available(False)      # nobody left at a console

    # ----- drawing ----------------------------------------------------------------
    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        app = self.session.services
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
        canvas.text(11, 0, "· Sysop console", WHITE, BLUE)
        avail = "available" if app.nodes.sysop_available else "not available"
        right = f"{self.session.handle} · {avail} · {time.strftime('%H:%M')}"
        canvas.text(79 - len(right), 0, right, BRIGHT_CYAN, BLUE)
        canvas.text(1, 1, f"{'Node':>4} {'Handle':<16} {'Where':<25} {'Idle':>5} "
                          f"{'Term':<9} {'Size':<7} {'Cs':<5}", DARK_GREY)
        mono = time.monotonic()
        nodes = self._nodes()
        target = self._target()
        for i, s in enumerate(nodes[:10]):
            sel = s is target
            line = (f"{s.node:>4} {s.handle[:16]:<16} {s.location[:25]:<25} "
                    f"{idle_text(s.idle_seconds(mono)):>5} {s.conn.term[:9]:<9} "
                    f"{f'{s.conn.cols}x{s.conn.rows}':<7} {s.charset:<5}")
            fg = WHITE if sel else (YELLOW if s is self.session else GREY)
            canvas.fill(0, 2 + i, 80, 1, " ", fg, BLUE if sel else BLACK)
            canvas.text(1, 2 + i, line, fg, BLUE if sel else BLACK)
        if len(nodes) > 10:
            canvas.text(1, 12, f" and {len(nodes) - 10} more ", DARK_GREY)
        canvas.text(24, 12, shorten(app.login_guard.summary(), 55), DARK_GREY)
        if app.matches.clock.paused and app.matches.clock.paused_since is not None:
            since = time.strftime("%m-%d %H:%M", time.localtime(app.matches.clock.paused_since))
            canvas.text(1, 12, f"Held since {since}", YELLOW)
        trouble = app.store.write_trouble
        if trouble is not None:        # until a write succeeds again
            canvas.fill(0, 12, 80, 1, " ", WHITE, RED)
            canvas.text(1, 12, shorten(f"WARNING: the database cannot be written ({trouble}): "
                                       "moves are NOT being saved", 78), WHITE, RED)
        if target is not None:
            on = idle_text(mono - target.connected_at)
            detail = (f"Node {target.node} {target.handle}: {target.origin} from "
                      f"{target.conn.peer}, {target.conn.term} {target.conn.cols}x"
                      f"{target.conn.rows} {target.charset}, on for {on}")
            canvas.text(1, 13, shorten(detail, 78), BRIGHT_CYAN)
        for ch in self._incoming()[:1]:
            hint = "  y accept · n decline "
            canvas.fill(0, 14, 80, 1, " ", WHITE, BLUE)
            x = canvas.text(0, 14, shorten(f" {ch.challenger} challenges you to {ch.describe()}",
                                           80 - len(hint)), WHITE, BLUE)
            canvas.text(x, 14, hint, YELLOW, BLUE)
        for ch in self._outgoing()[:1]:
            if not self._incoming():
                hint = "  (x withdraws)"
                x = canvas.text(1, 14, shorten(f"Waiting for {ch.target} to answer: {ch.describe()}",
                                               78 - len(hint)), BRIGHT_CYAN)
                canvas.text(x, 14, hint, BRIGHT_CYAN)
        if not self._incoming() and not self._outgoing():
            waiting = self._pending()
            if waiting:
                m = waiting[0]
                other = next((s.name for s in m.seats if s.name not in self._names()), "?")
                hint = "  u resumes it"
                x = canvas.text(1, 14, shorten(f"Your game of {m.info.title} against {other} waits for you.",
                                               78 - len(hint)), YELLOW)
                canvas.text(x, 14, hint, YELLOW)
        canvas.box(0, 15, 80, 7, CYAN, title="Pages")
        for i, page in enumerate(reversed(app.lobby.pages[-5:])):
            when = time.strftime("%H:%M:%S", time.localtime(page.at))
            canvas.text(2, 16 + i, shorten(f"{when} {page.handle}: {page.reason}", 76),
                        YELLOW if i == 0 else GREY)
        if not app.lobby.pages:
            canvas.text(2, 16, "No pages.", DARK_GREY)
        tables = "  ".join(status.describe() for status in app.jobs.status())
        if tables:            # doors' tables: missing, building N%, ready, failed
            tables = shorten(tables, 74)
            canvas.text(max(2, 77 - len(tables)), 21, f" {tables} ", DARK_GREY)
        canvas.text(1, 22, shorten(self.message, 78), BRIGHT_RED)
        if self.input is not None:
            label = {"all": "Message to all: ", "message": "Message: ",
                     "kick": "Kick, reason: ",
                     "shutdown": "Shut down, line for callers: "}[self.mode]
            canvas.text(0, 23, label, YELLOW)
            return self.input.draw(canvas, len(label), 23, 79 - len(label), WHITE, 0)
        canvas.text(1, 23, HINTS, DARK_GREY)
        return None


