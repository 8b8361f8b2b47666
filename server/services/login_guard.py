"""Password guessing, slowed and seen: per-account and per-address back-off.

Each failed login doubles the wait before the next password is checked for
that account (from anywhere) and from that address (for any account):
BASE, 2*BASE, 4*BASE ... capped, so an attacker cannot lock the real user
out for long (ACCOUNT_CAP), while one address guessing at many accounts
slows to one guess per ADDRESS_CAP. A success clears the account's count;
counts are forgotten after FORGET seconds without a failure. Every failure
is logged with the address and the handle; the sysop console shows counts.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable

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

    def __init__(self, clock: Callable[[], float] = time.monotonic, base: float | None = None):
        self.clock = clock
        if base is not None:
            self.BASE = base
        self._accounts: dict[str, _Record] = {}
        self._addresses: dict[str, _Record] = {}
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
        wait = max(self._wait(self._accounts, handle.casefold(), self.ACCOUNT_CAP, now),
                   self._wait(self._addresses, address, self.ADDRESS_CAP, now))
        if wait > 0:
            self.refused_total += 1
        return wait

    # ----- telling ----------------------------------------------------------
    def failed(self, address: str, handle: str) -> None:
        now = self.clock()
        for table, key in ((self._accounts, handle.casefold()), (self._addresses, address)):
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
                    self._addresses[address].count)

    def succeeded(self, address: str, handle: str) -> None:
        self._accounts.pop(handle.casefold(), None)

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
