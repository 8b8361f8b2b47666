"""The sysop console: ``gatehouse sysop`` attaches to the running server over
a local Unix socket and becomes a session like any caller's, marked
``is_sysop`` and opening on ``SysopScreen`` instead of the login.

The local client (``server.sysop_client``) is thin: it sends one JSON line
``{"term": ..., "cols": N, "rows": N}``, then raw key bytes, and resizes
in-band with the RLogin window-size message; the server draws the console
like any other screen.

Split-screen chat (``SplitChatScreen``) opens on both sessions: on the
sysop's by a push, on the caller's through its inbox (``E.PushScreen``).
The two screens talk only through inbox events (``SplitLine``,
``SplitEnd``).
"""
from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import logging
import os
import socket
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ansi import keys as K
from ansi.canvas import BLACK, BLUE, BRIGHT_CYAN, BRIGHT_GREEN, BRIGHT_RED, CYAN, DARK_GREY, GREY, WHITE, YELLOW, Canvas
from ansi.widgets import ChatPane, LineInput
from server.net.rlogin import RloginInputFilter
from server.net.streams import StreamConnection
from server.net.terminal import charset_for_term
from server.screens.base import Pop, Push, Quit, Replace, Screen, Transition
from server.screens.challenge import ChallengeScreen
from server.screens.lobby import Challenge, answer_challenge, challenge_news, idle_text, send_challenge
from server.services import events as E
from server.services.chat import clean_chat

if TYPE_CHECKING:
    from server.app import App
    from server.screens.session import Session

__all__ = ["start_sysop_listener", "stop_sysop_listener", "open_console", "SysopScreen",
           "SplitChatScreen", "SplitLine", "SplitEnd", "CONSOLE"]

log = logging.getLogger("gatehouse.sysop")

CONSOLE = "sysop console"          # the console's location (see lobby.TAKES_CHALLENGES)
HEADER_LIMIT = 1024
HINTS = ("c chat  m msg  M all  k kick  w watch  p challenge  y/n answer  "
         "a avail  g play  q quit")


# ----- the socket ------------------------------------------------------------

def _remove_stale(path: Path) -> None:
    """Remove a socket file left by a server that is gone; refuse to touch
    anything else, or a socket a live server still answers on."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise OSError(f"{path} exists and is not a socket")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        path.unlink(missing_ok=True)       # nobody listening: stale
        return
    finally:
        probe.close()
    raise OSError(f"{path}: another Gatehouse server is listening there")


async def start_sysop_listener(app: App) -> asyncio.base_events.Server:
    """Listen on ``config.sysop_socket``, owner-only (0600 before anyone can
    connect: the socket is bound, chmod'ed, and only then listens)."""
    path = Path(app.config.sysop_socket)
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        os.chmod(path, 0o600)
    except OSError:
        sock.close()
        raise

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                line = await asyncio.wait_for(reader.readline(), 10)
                header = json.loads(line[:HEADER_LIMIT] or b"{}")
                if not isinstance(header, dict):
                    raise ValueError("not an object")
                term = clean_chat(str(header.get("term") or "xterm"))[:40] or "xterm"
                cols = max(0, min(1000, int(header.get("cols") or 80)))
                rows = max(0, min(1000, int(header.get("rows") or 24)))
            except (TimeoutError, ValueError, TypeError) as exc:
                writer.write(f"Gatehouse: bad console header ({exc}).\r\n".encode())
                await writer.drain()
                return
            conn = StreamConnection(reader, writer, term, cols, rows, peer="local",
                                    input_filter=RloginInputFilter())
            log.info("sysop console attached (%s %sx%s)", term, cols, rows)
            await app.handle_connection(conn, origin="sysop", first_screen=open_console)
        except Exception:
            log.exception("sysop console failed")
        finally:
            writer.close()

    try:
        return await asyncio.start_unix_server(client, sock=sock)
    except OSError:
        sock.close()
        raise


def stop_sysop_listener(app: App, server: asyncio.base_events.Server) -> None:
    server.close()
    try:
        Path(app.config.sysop_socket).unlink()
    except OSError:
        pass


async def open_console(session: Session) -> Screen:
    """The first screen of a console session: log in as the sysop (a second
    console is "Sysop#2", so handles stay unique) and open the console."""
    from server.screens.login import enter_as
    app = session.app
    session.is_sysop = True
    session.idle_limit = float("inf")    # the console is never logged off for idling
    name = app.config.sysop_name
    await enter_as(session, name, kind="sysop")   # the user row, handle, charset
    taken = {s.handle.casefold() for s in app.online() if s is not session}
    handle = next(h for h in itertools.chain([name], (f"{name}#{n}" for n in itertools.count(2)))
                  if h.casefold() not in taken)
    session.handle = handle
    own = charset_for_term(session.conn.term)
    if session.charset != own:             # the console's terminal, not the stored choice
        session.set_charset(own)
    return SysopScreen(session)


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

    def __init__(self, session: Session):
        super().__init__(session)
        self.selected = ""                 # handle of the selected node
        self.input: LineInput | None = None
        self.mode = ""                     # what the input line is for: message/all/kick
        self.message = ""

    # ----- nodes ----------------------------------------------------------------
    def _nodes(self) -> list[Session]:
        return self.session.app.online()

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
        me = self.session.handle
        return [c for c in self.session.app.challenges.values()
                if c.target == me and c.state == "open"]

    # ----- keys -----------------------------------------------------------------
    async def on_key(self, key: str) -> Transition:
        if self.input is not None:
            return self._typed(key)
        self.message = ""
        app = self.session.app
        if key in (K.UP, K.DOWN):
            nodes = self._nodes()
            if nodes:
                current = self._target()
                i = nodes.index(current) if current in nodes else 0
                self.selected = nodes[(i + (1 if key == K.DOWN else -1)) % len(nodes)].handle
        elif key in ("q", "Q"):
            return Quit("Console detached.")
        elif key == "a":
            app.sysop_available = not app.sysop_available
            app.nodes_changed()               # lobbies redraw "Sysop: ..."
        elif key == "M":
            self.input, self.mode = LineInput(70), "all"
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
                if caller.location != "lobby":
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
        if self.mode == "all":
            if text:
                for other in self.session.app.online():
                    if other is not self.session:
                        other.send(E.Notice(f"Sysop: {text}"))
                self.message = "Message sent to everybody."
            return None
        caller = self._caller()
        if caller is None:
            return None
        if self.mode == "message" and text:
            caller.send(E.Notice(f"Sysop: {text}"))
            self.message = f"Message sent to {caller.handle}."
        elif self.mode == "kick":
            caller.send(E.Kick(text or "no reason given"))
            self.message = f"{caller.handle} disconnected."
        return None

    def _watch(self, caller: Session) -> Transition:
        from server.screens.match_screen import MatchScreen
        match = next((m for m in self.session.app.matches.playing()
                      if m.seat_of(caller) is not None), None)
        if match is None:
            self.message = f"{caller.handle} is not playing."
            return None
        match.spectators.add(self.session)
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
        if isinstance(result, Challenge):
            self.message = send_challenge(self.session, result)
        elif isinstance(result, str):
            self.message = result
        return None

    async def on_close(self) -> None:
        app = self.session.app
        if not any(s is not self.session for s in app.sysop_sessions()):
            app.sysop_available = False      # nobody left at a console

    # ----- drawing ----------------------------------------------------------------
    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        app = self.session.app
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        canvas.text(1, 0, "GATEHOUSE", YELLOW, BLUE)
        canvas.text(11, 0, "· Sysop console", WHITE, BLUE)
        avail = "available" if app.sysop_available else "not available"
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
            canvas.text(1, 2 + i, line[:78], fg, BLUE if sel else BLACK)
        if len(nodes) > 10:
            canvas.text(1, 12, f" and {len(nodes) - 10} more ", DARK_GREY)
        canvas.text(24, 12, app.login_guard.summary()[:55], DARK_GREY)
        if target is not None:
            on = idle_text(mono - target.connected_at)
            detail = (f"Node {target.node} {target.handle}: {target.origin} from "
                      f"{target.conn.peer}, {target.conn.term} {target.conn.cols}x"
                      f"{target.conn.rows} {target.charset}, on for {on}")
            canvas.text(1, 13, detail[:78], BRIGHT_CYAN)
        for ch in self._incoming()[:1]:
            text = f" {ch.challenger} challenges you to {ch.describe()}  y accept · n decline "
            canvas.text(0, 14, text[:80], WHITE, BLUE)
        canvas.box(0, 15, 80, 7, CYAN, title="Pages")
        for i, page in enumerate(reversed(app.pages[-5:])):
            when = time.strftime("%H:%M:%S", time.localtime(page.at))
            canvas.text(2, 16 + i, f"{when} {page.handle}: {page.reason}"[:76],
                        YELLOW if i == 0 else GREY)
        if not app.pages:
            canvas.text(2, 16, "No pages.", DARK_GREY)
        canvas.text(1, 22, self.message[:78], BRIGHT_RED)
        if self.input is not None:
            label = {"all": "Message to all: ", "message": "Message: ",
                     "kick": "Kick, reason: "}[self.mode]
            canvas.text(0, 23, label, YELLOW)
            return self.input.draw(canvas, len(label), 23, 79 - len(label), WHITE, 0)
        canvas.text(1, 23, HINTS[:78], DARK_GREY)
        return None


# ----- split-screen chat ----------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class SplitLine:
    """A line typed in split-screen chat ``chat`` by the other side."""
    chat: int
    text: str


@dataclasses.dataclass(frozen=True)
class SplitEnd:
    """The sysop ended split-screen chat ``chat`` (or left)."""
    chat: int


_chat_ids = itertools.count(1)


def open_split_chat(sysop: Session, caller: Session) -> SplitChatScreen:
    """Open the chat on the caller's side (through its inbox); returns the
    sysop's side, to push."""
    chat = next(_chat_ids)
    caller.send(E.PushScreen(lambda s: SplitChatScreen(s, sysop, chat, sysop_side=False)))
    return SplitChatScreen(sysop, caller, chat, sysop_side=True)


class SplitChatScreen(Screen):
    """The sysop's lines in the top half, the caller's in the bottom half;
    each side types on its own input line. ESC on the sysop's side ends it
    for both. Events for the screen underneath still reach it (so a game or
    the lobby stays up to date); a screen it wants to open opens when the
    chat ends."""

    def __init__(self, session: Session, peer: Session, chat: int, sysop_side: bool):
        super().__init__(session)
        self.peer = peer
        self.chat = chat
        self.sysop_side = sysop_side
        self.sysop_name = session.handle if sysop_side else peer.handle
        self.caller_name = peer.handle if sysop_side else session.handle
        self.top = ChatPane(8)             # the sysop's lines
        self.bottom = ChatPane(8)          # the caller's lines
        self.input = LineInput(70)
        self.later: Screen | None = None   # opened by the screen below meanwhile
        self.message = ""
        self.ended = False
        self.location = (f"chat with {peer.handle}" if sysop_side else "chat with the sysop")

    def _mine(self) -> ChatPane:
        return self.top if self.sysop_side else self.bottom

    def _theirs(self) -> ChatPane:
        return self.bottom if self.sysop_side else self.top

    def _done(self) -> Transition:
        self.ended = True
        return Replace(self.later) if self.later is not None else Pop(None)

    async def on_key(self, key: str) -> Transition:
        if key == K.ESC and self.sysop_side:
            self.peer.send(SplitEnd(self.chat))
            return self._done()
        text = self.input.handle(key)
        if key == K.ESC and not self.sysop_side:
            self.message = "The sysop ends the chat."
        if text:
            text = clean_chat(text)
            if text and not self.peer.closed:
                self._mine().add(self.session.handle, text)
                self.peer.send(SplitLine(self.chat, text))
        return None

    async def on_event(self, event: Any) -> Transition:
        if isinstance(event, SplitLine):
            if event.chat == self.chat:
                self._theirs().add(self.peer.handle, event.text)
            return None
        if isinstance(event, SplitEnd):
            return self._done() if event.chat == self.chat else None
        if self.peer.closed and not self.message:
            self.message = f"{self.peer.handle} has gone. ESC closes the chat." \
                if self.sysop_side else "The sysop has gone."
            if not self.sysop_side:
                return self._done()
        below = self._below()
        if below is not None:
            transition = await below.on_event(event)
            if isinstance(transition, (Push, Replace)) and self.later is None:
                self.later = transition.screen
        return None

    def _below(self) -> Screen | None:
        screens = self.session.screens
        i = next((n for n, s in enumerate(screens) if s is self), 0)
        return screens[i - 1] if i > 0 else None

    async def on_close(self) -> None:
        if self.sysop_side and not self.ended:
            self.peer.send(SplitEnd(self.chat))

    def draw(self, canvas: Canvas, now: float) -> tuple[int, int] | None:
        canvas.fill(0, 0, 80, 1, " ", WHITE, BLUE)
        title = (f"Chat with {self.caller_name}" if self.sysop_side
                 else "The sysop is chatting with you")
        canvas.text(1, 0, f"GATEHOUSE · {title}", YELLOW, BLUE)
        canvas.fill(0, 1, 80, 1, "─", CYAN)
        canvas.text(2, 1, f" {self.sysop_name} (sysop) ", YELLOW)
        self.top.draw(canvas.region(1, 2, 78, 8))
        canvas.fill(0, 11, 80, 1, "─", CYAN)
        canvas.text(2, 11, f" {self.caller_name} ", BRIGHT_GREEN)
        self.bottom.draw(canvas.region(1, 12, 78, 8))
        if self.message:
            canvas.text(1, 21, self.message[:78], BRIGHT_RED)
        y = 10 if self.sysop_side else 20
        canvas.text(0, y, "> ", YELLOW)
        cursor = self.input.draw(canvas, 2, y, 77, WHITE, BLUE)
        hint = ("ENTER sends · ESC ends the chat" if self.sysop_side
                else "ENTER sends · the sysop ends the chat")
        canvas.text(1, 23, hint, DARK_GREY)
        return cursor
