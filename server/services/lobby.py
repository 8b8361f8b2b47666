"""The lobby channel, sysop messages and pages to the sysop."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Generic

from server.services import events as E
from server.services.chat import ChatLog, clean_chat
from server.services.ids import WallTime
from server.services.limits import AbuseLimits
from server.services.nodes import N, Node, NodeRegistry

__all__ = ["LobbyChat"]

log = logging.getLogger("gatehouse")


class LobbyChat(Generic[N]):
    """The lobby channel and the sysop's pages: the only code that adds to
    them. Lines go to every logged-in session as ``events.Chat``; pages go to
    the sysop consoles as ``events.Page`` and are kept for a console that
    opens later."""

    HISTORY = 20      # lobby lines kept for a caller who arrives later

    def __init__(self, nodes: NodeRegistry[N], clock: Callable[[], float] = time.time,
                 limits: AbuseLimits | None = None):
        self._nodes = nodes
        self._limits = limits if limits is not None else AbuseLimits()
        self._clock = clock
        self.log = ChatLog(self.HISTORY)
        self.pages: list[E.Page] = []

    def post(self, handle: str, text: str, address: str | None = "") -> str | None:
        """Send a lobby chat line from ``handle`` at ``address``; returns a
        reason if refused (the limits count per account and per address)."""
        text = clean_chat(text)
        if not text:
            return None
        refused = self._limits.chat(handle, address)
        if refused is not None:
            return refused
        self.log.add(handle, text)
        self._nodes.broadcast(E.Chat("lobby", handle, text))
        return None

    def clear(self, by: str) -> None:
        """The sysop clears the lobby chat: the kept lines, and every open
        lobby's pane."""
        self.log.lines.clear()
        self._nodes.broadcast(E.ChatCleared("lobby"))
        log.info("lobby chat cleared by %s", by)

    def page_sysop(self, handle: str, reason: str, address: str | None = "") -> str:
        """A caller (at ``address``) pages the sysop; returns what to tell
        the caller. A few pages each, or one caller's pages ring the bell
        without end and push everyone else's out of the kept twenty."""
        refused = self._limits.page(handle, address)
        if refused is not None:
            return refused
        reason = clean_chat(reason)[:60]
        page = E.Page(handle, reason, WallTime(self._clock()))
        self.pages = (self.pages + [page])[-20:]
        consoles = self._nodes.sysops()
        for console in consoles:
            console.send(page)
        log.info("page from %s: %s", handle, reason)
        if not consoles:
            return "The sysop is not at the console; your page is kept for later."
        return "The sysop has been paged."

    def notice(self, text: str, to: Node | None = None, but: N | None = None) -> None:
        """A one-line notice: to one session, or to everybody but ``but``."""
        text = clean_chat(text)
        if to is not None:
            to.send(E.Notice(text))
        else:
            self._nodes.broadcast(E.Notice(text), but=but)

    def message(self, sysop: str, text: str, to: Node | None = None, but: N | None = None) -> None:
        """A sysop message: to one session, or to everybody but ``but``. It
        stays on the receiver's screen until read, and in its log."""
        event = E.SysopMessage(clean_chat(sysop), clean_chat(text))
        if to is not None:
            to.send(event)
        else:
            self._nodes.broadcast(event, but=but)
