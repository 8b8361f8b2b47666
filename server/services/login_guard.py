"""Password guessing, slowed and seen: per-account and per-address back-off.

Each failed login doubles the wait before the next password is checked for
that account (from anywhere) and from that address (for any account):
BASE, 2*BASE, 4*BASE ... capped (ACCOUNT_CAP), while one address guessing
at many accounts slows to one guess per ADDRESS_CAP. A success clears the
account's count; counts are forgotten after FORGET seconds without a
failure. Every failure is logged with the address and the handle; the
sysop console shows counts.

An attacker who guesses once a minute from ever new addresses would keep
an account's wait up for good, so the account's wait does not bind at an
address the account has logged in from before (up to KNOWN_PER_ACCOUNT of
them, the newest kept): the real user at home gets in at once, while that
address's own back-off still slows anyone guessing from it. Addresses are
counted as ``addresses.address_key`` says (an IPv6 caller by its /64).
The known addresses are kept in the store (``load`` at start,
``logged_in``), so a restart does not lock a regular caller behind a
stranger's guesses; the back-off counts live in memory only.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .addresses import address_key

if TYPE_CHECKING:
    from .store import Store

__all__ = ["LoginGuard"]

log = logging.getLogger("gatehouse.login")


class _Record:
    __slots__ = ("count", "last")

    def __init__(self) -> None:
        self.count = 0
        self.last = 0.0


class LoginGuard:
    BASE = 1.0           # seconds after the first failure
    ACCOUNT_CAP = 60.0   # the longest an account waits (the real user too)
    ADDRESS_CAP = 600.0  # the longest an address waits
    FORGET = 3600.0      # a count is forgotten this long after its last failure
    MAX_ENTRIES = 50_000
    KNOWN_PER_ACCOUNT = 8  # addresses remembered per account where it logged in

    def __init__(self, clock: Callable[[], float] = time.monotonic, base: float | None = None,
                 store: Store | None = None):
        self.clock = clock
        self._store = store
        if base is not None:
            self.BASE = base
        self._accounts: dict[str, _Record] = {}
        self._addresses: dict[str, _Record] = {}
        self._known: dict[str, list[str]] = {}      # account: its addresses, oldest first
        self.failures_total = 0
        self.refused_total = 0      # attempts turned away while waiting
        self._recent: list[float] = []

    # ----- asking -----------------------------------------------------------
    def _wait(self, table: dict[str, _Record], key: str, cap: float, now: float) -> float:
        rec = table.get(key)
        if rec is None or rec.count == 0:
            return 0.0
        if now - rec.last >= self.FORGET:
            del table[key]
            return 0.0
        delay = min(cap, self.BASE * 2 ** (rec.count - 1))
        return float(max(0.0, rec.last + delay - now))

    def wait_for(self, address: str, handle: str) -> float:
        """Seconds before a password for ``handle`` from ``address`` may be checked."""
        now = self.clock()
        account, address = handle.casefold(), address_key(address)
        wait = self._wait(self._addresses, address, self.ADDRESS_CAP, now)
        if address not in self._known.get(account, ()):
            wait = max(wait, self._wait(self._accounts, account, self.ACCOUNT_CAP, now))
        if wait > 0:
            self.refused_total += 1
        return wait

    # ----- telling ----------------------------------------------------------
    def failed(self, address: str, handle: str) -> None:
        now = self.clock()
        key_of_address = address_key(address)
        for table, key in ((self._accounts, handle.casefold()), (self._addresses, key_of_address)):
            rec = table.get(key)
            if rec is None:
                if len(table) >= self.MAX_ENTRIES:
                    self._prune(table, now)
                rec = table[key] = _Record()
            rec.count += 1
            rec.last = now
        self.failures_total += 1
        self._recent = [t for t in self._recent if now - t < 3600] + [now]
        log.warning("failed login for %r from %s (%d in a row on this account, %d from this "
                    "address)", handle, address, self._accounts[handle.casefold()].count,
                    self._addresses[key_of_address].count)

    def succeeded(self, address: str, handle: str) -> None:
        account, address = handle.casefold(), address_key(address)
        self._accounts.pop(account, None)
        known = self._known.get(account)
        if known is None:
            if len(self._known) >= self.MAX_ENTRIES:
                del self._known[next(iter(self._known))]     # the account remembered longest ago
            known = self._known[account] = []
        if address in known:
            known.remove(address)
        known.append(address)
        del known[:-self.KNOWN_PER_ACCOUNT]

    async def load(self) -> None:
        """The known addresses kept in the store (at start)."""
        if self._store is not None:
            known = await self._store.known_addresses()
            self._known = {account: addresses[-self.KNOWN_PER_ACCOUNT:]
                           for account, addresses in list(known.items())[-self.MAX_ENTRIES:]}

    async def logged_in(self, address: str, handle: str) -> None:
        """``succeeded``, and the address kept in the store."""
        self.succeeded(address, handle)
        if self._store is not None:
            await self._store.remember_address(handle.casefold(), address_key(address),
                                               self.KNOWN_PER_ACCOUNT)

    def _prune(self, table: dict[str, _Record], now: float) -> None:
        for key in [k for k, r in table.items() if now - r.last >= self.FORGET]:
            del table[key]
        while len(table) >= self.MAX_ENTRIES:     # still full: drop the oldest
            del table[min(table, key=lambda k: table[k].last)]

    # ----- for the sysop ----------------------------------------------------
    def summary(self) -> str:
        """One line for the sysop console."""
        now = self.clock()
        last_hour = sum(1 for t in self._recent if now - t < 3600)
        waiting = sum(1 for k in self._addresses
                      if self._wait(self._addresses, k, self.ADDRESS_CAP, now) > 0)
        return (f"Failed logins: {self.failures_total} ({last_hour} in the last hour), "
                f"{waiting} address(es) slowed")
