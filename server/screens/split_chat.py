"""Split-screen chat between the sysop and one caller. It opens on both
sessions: on the sysop's by a push, on the caller's through its inbox
(``session.PushScreen``). The two screens talk only through inbox events
(``SplitLine``, ``SplitEnd``)."""
from __future__ import annotations

import itertools

from ansi import keys as K
from ansi.canvas import BLUE, BRIGHT_GREEN, BRIGHT_RED, CYAN, DARK_GREY, WHITE, YELLOW, Canvas, shorten
from ansi.widgets import ChatPane, LineInput
from server.screens.session import Pop, Push, PushScreen, Replace, Screen, Session, SessionEvent, Transition
from server.services.chat import clean_chat
from server.services.events import SplitEnd, SplitLine

__all__ = ["SplitChatScreen", "SplitLine", "SplitEnd", "open_split_chat"]


_chat_ids = itertools.count(1)


def open_split_chat(sysop: Session, caller: Session) -> SplitChatScreen:
    """Open the chat on the caller's side (through its inbox); returns the
    sysop's side, to push."""
    chat = next(_chat_ids)
    caller.send(PushScreen(lambda s: SplitChatScreen(s, sysop, chat, sysop_side=False)))
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
        self._holding: Screen | None = None     # the caller's screen beneath, its game clock held

    async def on_start(self) -> Transition:
        if not self.sysop_side:           # the caller cannot play while the sysop talks: no clock runs
            self._holding = self._below()
            if self._holding is not None:
                self._holding.hold_clock(True)
        return None

    def _let_go(self) -> None:
        if self._holding is not None:
            self._holding.hold_clock(False)
            self._holding = None

    def _mine(self) -> ChatPane:
        return self.top if self.sysop_side else self.bottom

    def _theirs(self) -> ChatPane:
        return self.bottom if self.sysop_side else self.top

    def _done(self) -> Transition:
        self.ended = True
        self._let_go()
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

    async def on_event(self, event: SessionEvent) -> Transition:
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
        self._let_go()
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
            canvas.text(1, 21, shorten(self.message, 78), BRIGHT_RED)
        y = 10 if self.sysop_side else 20
        canvas.text(0, y, "> ", YELLOW)
        cursor = self.input.draw(canvas, 2, y, 77, WHITE, BLUE)
        hint = ("ENTER sends · ESC ends the chat" if self.sysop_side
                else "ENTER sends · the sysop ends the chat")
        canvas.text(1, 23, hint, DARK_GREY)
        return cursor
