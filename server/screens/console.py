"""The sysop console: ``gatehouse sysop`` attaches to the running server over
a local Unix socket (``net.sysop_socket``) and becomes a session like any
caller's, marked ``is_sysop`` and opening on ``SysopScreen`` instead of the
login. The sysop is a seat like a caller: challenges go through the same
board calls (offer, withdraw, accept, decline).
"""
from __future__ import annotations

import enum
import itertools
import logging
import time

from ansi import keys as K
from ansi.canvas import BLACK, BLUE, BRIGHT_CYAN, BRIGHT_RED, CYAN, DARK_GREY, GREY, RED, WHITE, YELLOW, Canvas, shorten
from ansi.widgets import LineInput
from server.net.terminal import charset_for_term
from server.screens.accounts_screen import AccountsScreen
from server.screens.challenge import ChallengeOffer, ChallengeScreen
from server.screens.keytable import KeySpec, KeyTable
from server.screens.lobby import answer_challenge, challenge_news, idle_text, offer_challenge
from server.screens.login import account_for
from server.screens.match_screen import MatchScreen
from server.screens.pager import PagerScreen
from server.screens.resume import ResumeScreen
from server.screens.session import Push, Quit, Screen, Session, SessionEvent, Transition
from server.screens.split_chat import open_split_chat
from server.screens.sysop_news import CONSOLE_HELP, SysopNews
from server.screens.turns import TurnsScreen, turns_line
from server.services import events as E
from server.services.board import Challenge
from server.services.chat import clean_chat
from server.services.match import Match
from server.services.nodes import CONSOLE, LOBBY
from server.services.store import AccountKind

__all__ = ["open_console", "SysopScreen"]

log = logging.getLogger("gatehouse.sysop")


class Mode(enum.Enum):
    """What the console's keys do now."""
    BROWSE = "browse"            # the node list: the table's keys
    MESSAGE = "message"          # typing a message to the selected caller
    ALL = "all"                  # typing a message to everybody
    KICK = "kick"                # typing the reason for a kick
    SHUTDOWN = "shutdown"        # typing the line callers read as the server stops


class Seen(enum.Enum):
    """What the key line may offer (a key that needs a caller, or a challenge,
    is not offered without one)."""
    ALONE = "alone"              # nobody else selected
    CALLER = "caller"            # a caller is selected
    CHALLENGED = "challenged"    # a challenge waits for the sysop's answer
    CHALLENGED_CALLER = "challenged, caller"


EVERY = frozenset(Seen)
WITH_CALLER = frozenset({Seen.CALLER, Seen.CHALLENGED_CALLER})
ANSWER = frozenset({Seen.CHALLENGED, Seen.CHALLENGED_CALLER})
NODE_ROWS = 10          # rows of the node list (it scrolls to keep the selected node in view)

# each key once: the key line (in this order, as many as fit), the ? page, the dispatch
KEYS: KeyTable[Seen] = KeyTable([
    KeySpec(("y", "Y"), "y accept", "accept the challenge sent to you", ANSWER, "_answer"),
    KeySpec(("n", "N"), "n decline", "decline the challenge sent to you", ANSWER, "_answer"),
    KeySpec(("?",), "? help", "this help", EVERY, "_help"),
    KeySpec(("q", "Q"), "q quit", "detach the console (the server keeps running)", EVERY, "_quit"),
    KeySpec(("u", "U"), "u resume", "your unfinished games: resume one", EVERY, "_resume", when="pending"),
    KeySpec(("t", "T"), "t by turns", "your games by turns: whose move it is; ENTER opens one to move",
            EVERY, "_turns", when="turns"),
    KeySpec(("g", "G"), "g play", "play: choose a door and an opponent", EVERY, "_play"),
    KeySpec(("c",), "c chat", "split-screen chat with the selected caller (ESC ends it)",
            WITH_CALLER, "_chat"),
    KeySpec(("m",), "m msg", "message to the selected caller (ENTER sends, ESC cancels)",
            WITH_CALLER, "_message"),
    KeySpec(("p",), "p challenge", "challenge the selected caller (door, options)", WITH_CALLER, "_challenge"),
    KeySpec(("w",), "w watch", "watch the selected caller's game (ESC back here; they are told)",
            WITH_CALLER, "_watch_key"),
    KeySpec(("k",), "k kick", "disconnect the selected caller, with a reason", WITH_CALLER, "_kick"),
    KeySpec(("M",), "M all", "message to everybody", EVERY, "_message_all"),
    KeySpec(("A",), "A accounts", "accounts: list; reset a password, ban, unban, rename",
            EVERY, "_accounts", spare=True),
    KeySpec(("e",), "e clear chat", "erase the lobby chat: the kept lines and every open lobby's pane",
            EVERY, "_clear_chat", spare=True),
    KeySpec(("x", "X"), "x withdraw", "withdraw the challenge you sent", EVERY, "_withdraw", when="outgoing"),
    KeySpec(("a",), "a avail", "available / not available for games (callers see it)", EVERY, "_available"),
    KeySpec(("h", "H"), "h hold", "hold every by-turns clock (holidays), or let them run again",
            EVERY, "_holidays"),
    KeySpec(("S",), "", "shut the server down, with a line for the callers", EVERY, "_shutdown"),
    KeySpec((K.UP, K.DOWN), "", "select a node in the list", EVERY, "_select", label="UP/DOWN"),
])
INPUT_LABELS = {Mode.ALL: "Message to all: ", Mode.MESSAGE: "Message: ", Mode.KICK: "Kick, reason: ",
                Mode.SHUTDOWN: "Shut down, line for callers: "}


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
    """The challenge screen with the selected caller preselected: a door,
    then the options, whose "Play" row says live or by turns (by turns
    only when the caller is not in the lobby)."""

    def __init__(self, session: Session, target: str, live: bool):
        super().__init__(session)
        self.target = target
        self.pace, self.live_ok, self.by_turns = True, live, not live

    def _to_opponent(self) -> None:
        """The opponent is the one chosen on the console: straight to the options."""
        self._to_options(self.target)


class SysopScreen(Screen):
    location = CONSOLE
    refresh_every = 5.0           # the node list: idle times
    shows_nodes = True
    hears_challenges = True

    def __init__(self, session: Session):
        super().__init__(session)
        self.selected = ""                 # handle of the selected node
        self.input: LineInput | None = None
        self.mode = Mode.BROWSE            # what the keys are for: the table's, or the input line
        self.message = ""
        self.addressee: Session | None = None     # the caller a message or a kick being typed is for

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
    @property
    def seen(self) -> Seen:
        target = self._target()
        caller = target is not None and target is not self.session
        if self._incoming():
            return Seen.CHALLENGED_CALLER if caller else Seen.CHALLENGED
        return Seen.CALLER if caller else Seen.ALONE

    def _test(self, name: str) -> bool:
        if name == "pending":
            return bool(self._pending())
        if name == "turns":
            return bool(self.session.services.matches.by_turns_of(self.session.handle))
        return name == "outgoing" and bool(self._outgoing())

    async def on_key(self, key: str) -> Transition:
        if self.mode is not Mode.BROWSE:
            return self._typed(key)
        self.message = ""
        spec = KEYS.find(key, self.seen, self._test)
        if spec is None:
            return None
        result: Transition = await getattr(self, spec.action)(key)
        return result

    async def _select(self, key: str) -> Transition:
        nodes = self._nodes()
        if nodes:
            current = self._target()
            i = nodes.index(current) if current in nodes else 0
            self.selected = nodes[(i + (1 if key == K.DOWN else -1)) % len(nodes)].handle
        return None

    async def _quit(self, key: str) -> Transition:
        return Quit("Console detached.")

    async def _help(self, key: str) -> Transition:
        lines = ["THE SYSOP CONSOLE", "", *KEYS.help_lines(Seen, self._all), "", CONSOLE_HELP]
        return Push(PagerScreen(self.session, "\n".join(lines), "Sysop console help"))

    @staticmethod
    def _all(name: str) -> bool:
        return True

    async def _resume(self, key: str) -> Transition:
        return Push(ResumeScreen(self.session, self._pending(), names=self._names()))

    async def _available(self, key: str) -> Transition:
        nodes = self.session.services.nodes
        nodes.set_sysop_available(not nodes.sysop_available)
        return None

    async def _holidays(self, key: str) -> Transition:
        """Holidays: every by-turns clock stops, or goes on."""
        app = self.session.services
        clock = app.matches.clock
        if clock.paused:
            await clock.resume()
            self.message = "By-turns clocks running again; the pause is not charged."
        else:
            await clock.pause()
            self.message = "By-turns clocks paused (holidays): nobody loses on time. h resumes."
        app.lobby.notice(f"Sysop: {self.message}", but=self.session)
        return None

    async def _withdraw(self, key: str) -> Transition:
        for ch in self._outgoing():
            self.message = await self.session.services.board.withdraw(ch.id, by=self.session.handle)
        return None

    async def _message_all(self, key: str) -> Transition:
        self.input, self.mode = LineInput(70), Mode.ALL
        return None

    async def _accounts(self, key: str) -> Transition:
        return Push(AccountsScreen(self.session))

    async def _clear_chat(self, key: str) -> Transition:
        self.session.services.lobby.clear(self.session.handle)
        self.message = "Lobby chat cleared (the kept lines and every open lobby)."
        return None

    async def _shutdown(self, key: str) -> Transition:
        self.input, self.mode = LineInput(60), Mode.SHUTDOWN
        return None

    async def _turns(self, key: str) -> Transition:
        return Push(TurnsScreen(self.session))

    async def _play(self, key: str) -> Transition:
        return Push(ChallengeScreen(self.session))

    async def _answer(self, key: str) -> Transition:
        self.message, screen = await answer_challenge(self.session, self._incoming()[0], key in ("y", "Y"))
        return Push(screen) if screen is not None else None

    async def _chat(self, key: str) -> Transition:
        caller = self._caller()
        return Push(open_split_chat(self.session, caller)) if caller is not None else None

    async def _message(self, key: str) -> Transition:
        self.addressee = self._caller()
        if self.addressee is not None:
            self.input, self.mode = LineInput(70), Mode.MESSAGE
        return None

    async def _kick(self, key: str) -> Transition:
        self.addressee = self._caller()
        if self.addressee is not None:
            self.input, self.mode = LineInput(60), Mode.KICK
        return None

    async def _watch_key(self, key: str) -> Transition:
        caller = self._caller()
        return self._watch(caller) if caller is not None else None

    async def _challenge(self, key: str) -> Transition:
        caller = self._caller()
        if caller is None:
            return None
        user = caller.user
        if caller.location != LOBBY and (user is None or user.kind not in (AccountKind.TELNET, AccountKind.BBS)):
            self.message = f"{caller.handle} is not in the lobby."
            return None
        return Push(_ChallengeCaller(self.session, caller.handle, live=caller.location == LOBBY))

    def _typed(self, key: str) -> Transition:
        assert self.input is not None
        text = self.input.handle(key)
        if text is None:
            if self.input.cancelled:
                self.input, self.mode = None, Mode.BROWSE
            return None
        mode, self.input, self.mode = self.mode, None, Mode.BROWSE
        text = clean_chat(text)
        if mode is Mode.SHUTDOWN:
            log.info("%s shuts the server down: %s", self.session.handle, text or "(no reason)")
            self.session.services.shutdown(text)
            self.message = "Shutting down..."
            return None
        if mode is Mode.ALL:
            if text:
                self.session.services.lobby.message(self.session.handle, text, but=self.session)
                self.message = "Message sent to everybody."
            return None
        caller, self.addressee = self.addressee, None      # the one chosen as typing began, never another
        if caller is None or caller.closed or caller not in self._nodes():
            self.message = f"{caller.handle if caller else 'That caller'} has gone: nothing sent."
            return None
        if mode is Mode.MESSAGE and text:
            self.session.services.lobby.message(self.session.handle, text, to=caller)
            self.message = f"Message sent to {caller.handle}."
        elif mode is Mode.KICK:
            self.session.services.nodes.kick(caller, text or "no reason given")
            self.message = f"{caller.handle} disconnected."
        return None

    def _watch(self, caller: Session) -> Transition:
        match = next((m for m in self.session.services.matches.playing()
                      if m.seat_of(caller) is not None), None)
        if match is None:
            self.message = f"{caller.handle} is not playing."
            return None
        if match in self._pending():     # the sysop's own game, stepped out of: the seat, not a watch
            return Push(ResumeScreen(self.session, [match], names=self._names()))
        match.watch(self.session)        # which tells the players, in the game's log
        return Push(MatchScreen(self.session, match, None))

    # ----- events -----------------------------------------------------------------
    async def on_event(self, event: SessionEvent) -> Transition:
        if isinstance(event, E.Page):
            self.session.terminal.bell()
            self.message = f"Page from {event.handle}: {event.reason}"
            return None
        message, transition = challenge_news(self.session, event)
        self.message = message or self.message
        return transition

    async def on_result(self, result: object) -> Transition:
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
    def _draw_status(self, canvas: Canvas, count: int) -> None:
        """The row under the node list: the facts, " · " apart, each whole
        (the login summary shortened last, and only if it must be)."""
        app = self.session.services
        facts: list[tuple[str, int]] = []
        if count > 10:
            facts.append((f"and {count - 10} more", DARK_GREY))
        if app.matches.clock.paused and app.matches.clock.paused_since is not None:
            since = time.strftime("%m-%d %H:%M", time.localtime(app.matches.clock.paused_since))
            facts.append((f"By-turns clocks held since {since}", YELLOW))
        used = sum(len(text) + 3 for text, _ in facts)
        facts.append((shorten(app.login_guard.summary(), 78 - used), DARK_GREY))
        x = 1
        for i, (text, colour) in enumerate(facts):
            if i:
                x = canvas.text(x, 12, " · ", DARK_GREY)
            x = canvas.text(x, 12, text, colour)

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
        at = nodes.index(target) if target in nodes else 0
        first = min(max(0, at - NODE_ROWS + 1), max(0, len(nodes) - NODE_ROWS))   # the selected one in view
        for i, s in enumerate(nodes[first:first + NODE_ROWS]):
            sel = s is target
            line = (f"{s.node:>4} {s.handle[:16]:<16} {s.location[:25]:<25} "
                    f"{idle_text(s.idle_seconds(mono)):>5} {s.conn.term[:9]:<9} "
                    f"{f'{s.conn.cols}x{s.conn.rows}':<7} {s.charset:<5}")
            fg = WHITE if sel else (YELLOW if s is self.session else GREY)
            canvas.fill(0, 2 + i, 80, 1, " ", fg, BLUE if sel else BLACK)
            canvas.text(1, 2 + i, line, fg, BLUE if sel else BLACK)
        self._draw_status(canvas, len(nodes))
        trouble = app.store.write_trouble
        if trouble is not None:        # until a write succeeds again: over the status row
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
        turns = app.matches.turns_waiting(self.session.handle)
        if not self._incoming() and not self._outgoing() and not self._pending() and turns:
            canvas.text(1, 14, f"{turns_line(turns)} by turns: t shows them.", YELLOW)
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
            label = INPUT_LABELS[self.mode]
            canvas.text(0, 23, label, YELLOW)
            cursor = self.input.draw(canvas, len(label), 23, 79 - len(label), WHITE, 0)
            if not self.input.text:
                canvas.text(len(label) + 1, 23, "(ENTER sends, ESC cancels)", DARK_GREY)
            return cursor
        canvas.text(1, 23, KEYS.line(self.seen, self._test, 78), DARK_GREY)
        return None


