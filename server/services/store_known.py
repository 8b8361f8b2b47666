"""The store's record of where each account logged in from: the login
guard's known addresses (``login_guard.LoginGuard``), kept across restarts.
A part of ``store.Store`` (its schema is in ``schema.MIGRATIONS``)."""
from __future__ import annotations

import time

from server.services.store_core import StoreCore

__all__ = ["KnownAddressesRecord"]


class KnownAddressesRecord(StoreCore):
    async def known_addresses(self) -> dict[str, list[str]]:
        """Account (casefolded handle) -> its addresses, oldest first."""
        rows = await self._rows("SELECT account, address FROM known_addresses ORDER BY last, rowid")
        out: dict[str, list[str]] = {}
        for account, address in rows:
            out.setdefault(str(account), []).append(str(address))
        return out

    async def remember_address(self, account: str, address: str, keep: int) -> None:
        """``account`` logged in from ``address`` now; only its ``keep`` newest stay."""
        await self.transaction([
            ("INSERT OR REPLACE INTO known_addresses(account, address, last) VALUES (?,?,?)",
             (account, address, time.time())),
            ("DELETE FROM known_addresses WHERE account=? AND address NOT IN (SELECT address FROM"
             " known_addresses WHERE account=? ORDER BY last DESC, rowid DESC LIMIT ?)",
             (account, account, keep))])
