"""Messages between callers: one line to a caller who is online (a node
message: on their screen at once, whatever screen it is) or not (kept in
the store and shown at their next login). Typed text is cleaned of control
and escape characters before anyone else sees it."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Generic

from server.services import events as E
from server.services.chat import clean_chat
from server.services.limits import AbuseLimits
from server.services.nodes import N, Node, NodeRegistry
from server.services.store import AccountKind, Store, handle_key
from server.services.store_accounts import KeptMessage

__all__ = ["CallerMessages", "MAX_MESSAGE", "MAX_KEPT", "NEWS_SENDER"]

log = logging.getLogger("gatehouse.messages")
MAX_MESSAGE = 120
MAX_KEPT = 20          # messages kept for one caller who is away
NEWS_SENDER = "Gatehouse"     # the server's own news (a reserved handle)


class CallerMessages(Generic[N]):
    def __init__(self, store: Store, nodes: NodeRegistry[N], limits: AbuseLimits | None = None):
        self.store = store
        self._nodes = nodes
        self._limits = limits if limits is not None else AbuseLimits()
        self._keeping: set[asyncio.Task[None]] = set()      # news being kept for callers away

    async def recipient(self, sender: str, to: str) -> tuple[str | None, str]:
        """(the receiver's handle as stored, "") or (None, why not)."""
        user = await self.store.get_user(" ".join(to.split()))
        if user is None or user.kind == AccountKind.RESERVED:
            return None, f"There is no caller called {clean_chat(to)[:20]}."
        if handle_key(user.handle) == handle_key(sender):
            return None, "That is you."
        return user.handle, ""

    async def send(self, sender: str, to: str, text: str, address: str | None = "") -> str:
        """Send ``text`` from ``sender`` (at ``address``) to ``to``; returns
        what to tell the sender."""
        text = clean_chat(text)[:MAX_MESSAGE]
        if not text:
            return "Nothing sent."
        name, why = await self.recipient(sender, to)
        if name is None:
            return why
        refused = self._limits.chat(sender, address)
        if refused is not None:
            return refused
        session = self._nodes.find(name)
        if session is not None:
            session.send(E.CallerMessage(f"Message from {sender}", text))
            return f"Message sent to {name}."
        key = handle_key(name)
        if await self.store.kept_count(key) >= MAX_KEPT:
            return f"{name} has too many messages waiting already."
        await self.store.keep_message(key, KeptMessage(sender, text, time.time()))
        log.info("message from %s kept for %s", sender, name)
        return f"{name} is not on: the message is kept for their next call."

    def news(self, handle: str, text: str, keep: bool = False) -> None:
        """The server's news for a caller: on their screen if they are on;
        else, with ``keep`` (a game's end, a challenge declined), kept for
        their next call as a message from Gatehouse."""
        session = self._nodes.find(handle)
        if session is not None:
            session.send(E.Notice(text))
        elif keep:
            task = asyncio.create_task(self._keep_news(handle, text))
            self._keeping.add(task)
            task.add_done_callback(self._keeping.discard)

    async def _keep_news(self, handle: str, text: str) -> None:
        key = handle_key(handle)
        try:
            if await self.store.kept_count(key) >= MAX_KEPT:
                log.info("news for %s not kept (%d messages wait): %s", handle, MAX_KEPT, text)
                return
            await self.store.keep_message(key, KeptMessage(NEWS_SENDER, text, time.time()))
        except Exception as exc:        # the record of the game holds it anyway
            log.warning("news for %s not kept: %s (%s)", handle, text, exc)

    async def deliver_kept(self, session: Node) -> int:
        """At login: the messages kept for ``session``'s caller, into its inbox."""
        kept = await self.store.take_messages(handle_key(session.handle))
        for message in kept:
            when = time.strftime("%m-%d %H:%M", time.localtime(message.at))
            session.send(E.CallerMessage(f"Message from {message.sender} ({when})", message.text))
        return len(kept)
