"""The store's accounts: users (telnet, BBS, sysop, reserved names), their
password hashes and handles. A part of ``store.Store``."""
from __future__ import annotations

import enum
import hashlib
import hmac
import os
import sqlite3
import time
from dataclasses import dataclass

from server.services.store_core import Statements, StoreCore

__all__ = ["AccountKind", "KINDS", "UserRow", "UsersRecord", "hash_password", "check_password",
           "handle_key", "handle_skeleton"]


class AccountKind(enum.StrEnum):
    """Who an account belongs to (stored as these strings)."""
    TELNET = "telnet"        # registered by a caller over telnet, with a password
    BBS = "bbs"              # handed over by a BBS (RLogin, door mode): no password
    SYSOP = "sysop"          # the sysop at the console
    RESERVED = "reserved"    # a name nobody may take


KINDS = tuple(AccountKind)

SCRYPT = dict(n=2**14, r=8, p=1, dklen=32)


def hash_password(password: str, salt: bytes | None = None) -> tuple[bytes, bytes]:
    """(salt, scrypt hash). Blocking (~50 ms): call it in a thread."""
    salt = salt or os.urandom(16)
    return salt, hashlib.scrypt(password.encode("utf-8"), salt=salt, **SCRYPT)


def check_password(password: str, salt: bytes, expected: bytes) -> bool:
    return hmac.compare_digest(hash_password(password, salt)[1], expected)


def handle_key(handle: str) -> str:
    return " ".join(handle.split()).casefold()


_LOOKALIKE = str.maketrans({"l": "i", "1": "i", "0": "o"})


def handle_skeleton(handle: str) -> str:
    """What a handle looks like: AIice, Al1ce and Alice share one (I/l/1, O/0)."""
    return handle_key(handle).translate(_LOOKALIKE)


@dataclass(frozen=True)
class UserRow:
    id: int
    handle: str
    pw_salt: bytes
    pw_hash: bytes
    charset: str | None
    kind: str = AccountKind.TELNET


class UsersRecord(StoreCore):
    async def get_user(self, handle: str) -> UserRow | None:
        row = await self._row(
            "SELECT id, handle, pw_salt, pw_hash, charset, kind FROM users WHERE handle_key=?",
            (handle_key(handle),))
        return UserRow(*row) if row else None

    async def lookalike(self, handle: str) -> str | None:
        """An existing handle that looks like ``handle`` (I/l/1, O/0), if any."""
        row = await self._row("SELECT handle FROM users WHERE skeleton=? LIMIT 1",
                              (handle_skeleton(handle),))
        return str(row[0]) if row else None

    async def create_user(self, handle: str, salt: bytes, pw_hash: bytes,
                          charset: str | None = None, kind: str = AccountKind.TELNET,
                          bbs_key: str | None = None) -> UserRow:
        """A new account; sqlite3.IntegrityError if the handle (or ``bbs_key``) is taken."""
        assert kind in KINDS
        now = time.time()
        cur = await self._write(
            "INSERT INTO users(handle, handle_key, pw_salt, pw_hash, charset, created,"
            " last_login, kind, skeleton, bbs_key) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (handle, handle_key(handle), salt, pw_hash, charset, now, now, kind,
             handle_skeleton(handle), bbs_key))
        return UserRow(cur.lastrowid or 0, handle, salt, pw_hash, charset, kind)

    async def get_bbs_user(self, bbs_key: str) -> UserRow | None:
        """The BBS caller's account for this full alias key, if any."""
        row = await self._row(
            "SELECT id, handle, pw_salt, pw_hash, charset, kind FROM users WHERE bbs_key=?",
            (bbs_key,))
        return UserRow(*row) if row else None

    async def bbs_tags(self) -> dict[str, str]:
        """Handle key -> BBS tag (``[MYS]``, as its alias key begins; ``""``:
        none) of every BBS caller's account."""
        rows = await self._rows("SELECT handle_key, bbs_key FROM users WHERE kind=? AND bbs_key IS NOT NULL",
                                (AccountKind.BBS,))
        return {key: bbs_key.partition("\t")[0] for key, bbs_key in rows}

    async def has_bbs_key(self, user_id: int) -> bool:
        row = await self._row("SELECT bbs_key IS NOT NULL FROM users WHERE id=?", (user_id,))
        return bool(row and row[0])

    async def claim_bbs_key(self, user_id: int, bbs_key: str) -> bool:
        """Give an account made before alias keys existed its caller's key;
        False if it already has one (it is someone else's)."""
        try:
            cur = await self._write("UPDATE users SET bbs_key=? WHERE id=? AND bbs_key IS NULL",
                                    (bbs_key, user_id))
        except sqlite3.IntegrityError:
            return False
        return bool(cur.rowcount)

    async def touch_login(self, user_id: int, address: str | None = None) -> None:
        """The account logged in now; ``address`` (its address key: a
        password caller's, not a BBS's) is kept with the time, for the
        rating rules (``shared_address``)."""
        now = time.time()
        statements: Statements = [("UPDATE users SET last_login=? WHERE id=?", (now, user_id))]
        if address is not None:
            statements.append(("INSERT OR REPLACE INTO address_logins(player, address, at)"
                               " SELECT handle_key, ?, ? FROM users WHERE id=?", (address, now, user_id)))
        await self.transaction(statements)

    async def shared_address(self, a: str, b: str, since: float) -> bool:
        """Whether the accounts with handle keys ``a`` and ``b`` both logged
        in from one address since ``since``."""
        row = await self._row(
            "SELECT 1 FROM address_logins x JOIN address_logins y ON x.address = y.address"
            " WHERE x.player=? AND y.player=? AND x.at>=? AND y.at>=? LIMIT 1", (a, b, since, since))
        return row is not None

    async def set_charset(self, user_id: int, charset: str) -> None:
        await self._write("UPDATE users SET charset=? WHERE id=?", (charset, user_id))

