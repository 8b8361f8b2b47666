"""The store's account records for the sysop's tools and callers' messages:
the account list, passwords set by the sysop, bans, renames, and messages
kept for a caller's next call. A part of ``store.Store`` (its schema is in
``schema.MIGRATIONS``). Handles come in with their keys already made
(``store.handle_key``), so this module needs nothing of ``store``."""
from __future__ import annotations

from dataclasses import dataclass

from server.services.store_core import StoreCore

__all__ = ["AccountsRecord", "AccountRow", "BanRow", "KeptMessage"]


@dataclass(frozen=True)
class AccountRow:
    handle: str
    kind: str
    created: float
    last_login: float | None
    banned: bool


@dataclass(frozen=True)
class BanRow:
    handle: str
    address: str | None
    reason: str
    by: str
    at: float


@dataclass(frozen=True)
class KeptMessage:
    sender: str
    text: str
    at: float


class AccountsRecord(StoreCore):
    # ----- accounts -------------------------------------------------------------
    async def accounts(self) -> list[AccountRow]:
        """Every account, by handle, and whether it is banned."""
        rows = await self._rows(
            "SELECT u.handle, u.kind, u.created, u.last_login, b.handle_key IS NOT NULL"
            " FROM users u LEFT JOIN bans b ON b.handle_key = u.handle_key ORDER BY u.handle_key")
        return [AccountRow(str(h), str(k), float(c), lo, bool(b)) for h, k, c, lo, b in rows]

    async def set_password(self, key: str, salt: bytes, pw_hash: bytes) -> bool:
        cur = await self.transaction([("UPDATE users SET pw_salt=?, pw_hash=? WHERE handle_key=?",
                                       (salt, pw_hash, key))])
        return bool(cur.rowcount)

    async def unfinished_games(self, handle: str) -> int:
        """Games not over (live, suspended or by turns) and by-turns
        challenges waiting, in which ``handle`` takes a seat."""
        rows = await self._rows(
            "SELECT (SELECT COUNT(*) FROM games WHERE status='active' AND (player0=? OR player1=?))"
            " + (SELECT COUNT(*) FROM waiting_challenges WHERE challenger=? OR target=?)",
            (handle, handle, handle, handle))
        return int(rows[0][0])

    async def rename_account(self, old: str, old_key: str, new: str, new_key: str,
                             new_skeleton: str) -> None:
        """The account, its finished games' seats, its ratings, its ban, the
        messages kept for it and the addresses it logged in from (the rating
        rule on shared addresses, the login guard's known addresses) follow
        the new handle, in one commit;
        sqlite3.IntegrityError if the new handle is taken."""
        await self.transaction([
            ("UPDATE users SET handle=?, handle_key=?, skeleton=? WHERE handle_key=?",
             (new, new_key, new_skeleton, old_key)),
            ("UPDATE games SET player0=? WHERE player0=?", (new, old)),
            ("UPDATE games SET player1=? WHERE player1=?", (new, old)),
            ("UPDATE ratings SET player=?, handle=? WHERE player=?", (new_key, new, old_key)),
            ("UPDATE bans SET handle_key=?, handle=? WHERE handle_key=?", (new_key, new, old_key)),
            ("UPDATE messages SET to_key=? WHERE to_key=?", (new_key, old_key)),
            ("UPDATE OR REPLACE address_logins SET player=? WHERE player=?", (new_key, old_key)),
            ("UPDATE OR REPLACE known_addresses SET account=? WHERE account=?", (new.casefold(), old.casefold())),
        ])

    # ----- bans -----------------------------------------------------------------
    async def add_ban(self, key: str, ban: BanRow) -> None:
        await self.transaction([(
            "INSERT OR REPLACE INTO bans(handle_key, handle, address, reason, by_whom, at)"
            " VALUES (?,?,?,?,?,?)", (key, ban.handle, ban.address, ban.reason, ban.by, ban.at))])

    async def remove_ban(self, key: str) -> bool:
        cur = await self.transaction([("DELETE FROM bans WHERE handle_key=?", (key,))])
        return bool(cur.rowcount)

    async def ban_for(self, key: str, address: str) -> BanRow | None:
        """The ban on this account, or on this address (key), if any."""
        rows = await self._rows(
            "SELECT handle, address, reason, by_whom, at FROM bans"
            " WHERE handle_key=? OR address=? ORDER BY handle_key=? DESC LIMIT 1", (key, address, key))
        return BanRow(*rows[0]) if rows else None

    # ----- messages kept for the next call ------------------------------------------
    async def keep_message(self, to_key: str, message: KeptMessage) -> None:
        await self.transaction([("INSERT INTO messages(to_key, sender, text, at) VALUES (?,?,?,?)",
                                 (to_key, message.sender, message.text, message.at))])

    async def kept_count(self, to_key: str) -> int:
        rows = await self._rows("SELECT COUNT(*) FROM messages WHERE to_key=?", (to_key,))
        return int(rows[0][0])

    async def take_messages(self, to_key: str) -> list[KeptMessage]:
        """The messages kept for this account, oldest first; they are
        removed in the same commit as they are handed over."""
        rows = await self._rows("SELECT id, sender, text, at FROM messages WHERE to_key=? ORDER BY id",
                                (to_key,))
        if rows:
            await self.transaction([(f"DELETE FROM messages WHERE id IN ({','.join('?' * len(rows))})",
                                     tuple(r[0] for r in rows))])
        return [KeptMessage(str(s), str(t), float(a)) for _i, s, t, a in rows]
