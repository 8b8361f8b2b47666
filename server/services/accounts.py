"""The sysop's account tools: list, reset a password, ban (an account, and
optionally an address), unban, rename; and the login's question "is this
caller banned?". The state is in the store (``store_accounts``), so the
console (in the server) and ``gatehouse user`` (another process, on the same
database) act alike; every action is logged.

A rename is refused while the caller is online or has a game not over
(live, suspended, by turns, or a by-turns challenge waiting): seats and
sessions hold the handle. Otherwise the account, its finished games, its
ratings, its ban and the messages kept for it follow the new handle.
"""
from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from typing import Generic

from server.services.addresses import address_key
from server.services.chat import clean_chat
from server.services.handles import valid_handle
from server.services.login_guard import LoginGuard
from server.services.nodes import N, NodeRegistry
from server.services.ratings import RatingBook
from server.services.store import AccountKind, Store, handle_key, handle_skeleton, hash_password
from server.services.store_accounts import AccountRow, BanRow

__all__ = ["Accounts", "AccountError", "MIN_PASSWORD", "MAX_PASSWORD"]

log = logging.getLogger("gatehouse.accounts")
MIN_PASSWORD = 6
MAX_PASSWORD = 64         # what the login line takes: a longer one could never be typed


class AccountError(Exception):
    """The action was refused; ``str(err)`` is one line saying why."""


class Accounts(Generic[N]):
    """Owner of the accounts' sysop-set state (passwords, bans, handles).
    ``nodes`` and ``ratings`` are the running server's (None from the
    command line): a banned caller online is disconnected, a rename is
    refused while they are on, and the ratings follow a rename at once."""

    def __init__(self, store: Store, nodes: NodeRegistry[N] | None = None,
                 ratings: RatingBook | None = None, sysop_name: str = "Sysop",
                 login_guard: LoginGuard | None = None):
        self.store = store
        self._nodes = nodes
        self._ratings = ratings
        self._login_guard = login_guard
        self._sysop_name = sysop_name

    async def list(self) -> list[AccountRow]:
        return await self.store.accounts()

    async def _account(self, handle: str) -> tuple[str, str]:
        """(handle as stored, its kind); AccountError if there is none."""
        user = await self.store.get_user(" ".join(handle.split()))
        if user is None:
            raise AccountError(f"There is no account called {clean_chat(handle)[:30]}.")
        return user.handle, user.kind

    async def reset_password(self, handle: str, password: str, by: str) -> str:
        name, kind = await self._account(handle)
        if kind != AccountKind.TELNET:
            raise AccountError(f"{name} is a {kind} account: it has no password here.")
        if len(password) < MIN_PASSWORD:
            raise AccountError(f"A password is at least {MIN_PASSWORD} characters.")
        if len(password) > MAX_PASSWORD or not password.isprintable():
            raise AccountError(f"A password is at most {MAX_PASSWORD} printable characters "
                               "(the most the login line takes).")
        salt, digest = await asyncio.to_thread(hash_password, password)
        await self.store.set_password(handle_key(name), salt, digest)
        log.info("password of %s reset by %s", name, by)
        return f"New password set for {name}."

    async def ban(self, handle: str, by: str, reason: str = "", address: str | None = None) -> str:
        """Ban the account (and ``address``'s key, if given: an IPv4 address,
        an IPv6 /64); a banned caller online is disconnected."""
        name, kind = await self._account(handle)
        if kind in (AccountKind.SYSOP, AccountKind.RESERVED):
            raise AccountError(f"{name} cannot be banned.")
        reason = clean_chat(reason)[:60] or "no reason given"
        where = address_key(address.strip()) if address and address.strip() else None
        await self.store.add_ban(handle_key(name), BanRow(name, where, reason, by, time.time()))
        log.info("%s banned by %s%s: %s", name, by, f" with address {where}" if where else "", reason)
        session = self._nodes.find(name) if self._nodes is not None else None
        if self._nodes is not None and session is not None:
            self._nodes.kick(session, f"banned: {reason}")
        return f"{name} is banned{f' (and {where})' if where else ''}."

    async def unban(self, handle: str, by: str) -> str:
        name, _kind = await self._account(handle)
        if not await self.store.remove_ban(handle_key(name)):
            raise AccountError(f"{name} is not banned.")
        log.info("%s unbanned by %s", name, by)
        return f"{name} may call again."

    async def rename(self, handle: str, new: str, by: str) -> str:
        name, kind = await self._account(handle)
        new = " ".join(new.split())
        if kind != AccountKind.TELNET:
            raise AccountError(f"{name} is a {kind} account: its name comes from its BBS or the settings.")
        reason = valid_handle(new, self._sysop_name)
        if reason:
            raise AccountError(reason)
        other = await self.store.lookalike(new)
        if other is not None and handle_key(other) != handle_key(name):
            raise AccountError(f"{new} is taken or looks too much like {other}.")
        if self._nodes is not None and self._nodes.find(name) is not None:
            raise AccountError(f"{name} is online: rename them after they log off.")
        if await self.store.unfinished_games(name):
            raise AccountError(f"{name} has a game that is not over: rename them after it ends.")
        try:
            await self.store.rename_account(name, handle_key(name), new, handle_key(new),
                                            handle_skeleton(new))
        except sqlite3.IntegrityError:
            raise AccountError(f"{new} is taken.") from None
        if self._ratings is not None:
            await self._ratings.load()
        if self._login_guard is not None:    # the addresses it called from: home, under the new name
            await self._login_guard.load()
        log.info("%s renamed %s by %s", name, new, by)
        return f"{name} is now {new}."

    async def refusal(self, handle: str, address: str) -> str | None:
        """One line for a banned caller (by account or by address), else None."""
        ban = await self.store.ban_for(handle_key(handle), address_key(address))
        if ban is None:
            return None
        log.info("banned caller refused: %s from %s", handle, address)
        return f"You are banned from this board ({ban.reason})."
