"""The sqlite record (aiosqlite): users, games, moves, saved setups.

WAL journal; a schema version with ordered migrations; every move is
committed before the match offers the next turn, so killing the server at
any moment loses no completed move.
"""
from __future__ import annotations

import asyncio
import enum
import hashlib
import hmac
import json
import logging
import os
import sqlite3
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import aiosqlite

from server.services.schema import MIGRATIONS
from server.services.store_accounts import AccountsRecord
from server.services.store_turns import ByTurnsRecord, Turns, WaitingChallengeRow

__all__ = ["Store", "StoreError", "UserRow", "GameRow", "WaitingChallengeRow", "hash_password",
           "check_password", "handle_skeleton"]


class AccountKind(enum.StrEnum):
    """Who an account belongs to (stored as these strings)."""
    TELNET = "telnet"        # registered by a caller over telnet, with a password
    BBS = "bbs"              # handed over by a BBS (RLogin, door mode): no password
    SYSOP = "sysop"          # the sysop at the console
    RESERVED = "reserved"    # a name nobody may take


KINDS = tuple(AccountKind)

log = logging.getLogger("gatehouse.store")

SCRYPT = dict(n=2**14, r=8, p=1, dklen=32)


def hash_password(password: str, salt: bytes | None = None) -> tuple[bytes, bytes]:
    """(salt, scrypt hash). Blocking (~50 ms): call it in a thread."""
    salt = salt or os.urandom(16)
    return salt, hashlib.scrypt(password.encode("utf-8"), salt=salt, **SCRYPT)


def check_password(password: str, salt: bytes, expected: bytes) -> bool:
    return hmac.compare_digest(hash_password(password, salt)[1], expected)


@dataclass(frozen=True)
class UserRow:
    id: int
    handle: str
    pw_salt: bytes
    pw_hash: bytes
    charset: str | None
    kind: str = AccountKind.TELNET


@dataclass(frozen=True)
class GameRow:
    id: int
    door: str
    options: dict[str, Any]
    players: tuple[str, str]
    status: str
    outcome: dict[str, Any] | None
    created: float
    ended: float | None
    moves: int = 0


class StoreError(Exception):
    """The database cannot be used; ``str(err)`` is one line for the sysop."""


def _prepare_file(path: Path) -> None:
    """Make the folder; create the file 0600 (callers' password hashes are
    in it); refuse a file that is read-only or not a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)
        mode = path.stat().st_mode
    except OSError as exc:
        raise StoreError(f"{path}: cannot open the database ({exc.strerror or exc}): "
                         "check the path and its permissions") from None
    if not stat.S_ISREG(mode):
        raise StoreError(f"{path}: not a database file: set [store] database to a file")
    if not mode & stat.S_IWUSR:
        raise StoreError(f"{path}: the database file is read-only: make it writable "
                         f"(chmod u+w {path}) or use another database")


def _explain(path: str, exc: sqlite3.Error) -> str:
    text = " ".join(str(exc).split())
    if "not a database" in text:
        return f"{path}: this file is not a Gatehouse database ({text}): set [store] database to another file"
    if "malformed" in text or "corrupt" in text:
        return f"{path}: the database is damaged ({text}): restore it from a backup"
    if "readonly" in text or "read-only" in text:
        return f"{path}: the database is read-only ({text}): make it and its folder writable"
    if "locked" in text or "busy" in text:
        return f"{path}: the database is locked by another program ({text}): stop it and start again"
    return f"{path}: the database cannot be used ({text})"


def handle_key(handle: str) -> str:
    return " ".join(handle.split()).casefold()


_LOOKALIKE = str.maketrans({"l": "i", "1": "i", "0": "o"})


def handle_skeleton(handle: str) -> str:
    """What a handle looks like: AIice, Al1ce and Alice share one (I/l/1, O/0)."""
    return handle_key(handle).translate(_LOOKALIKE)


class Store(ByTurnsRecord, AccountsRecord):
    def __init__(self, path: str | Path):
        self.path = str(path)
        self.db: aiosqlite.Connection | None = None

    async def open(self) -> Store:
        """Open (creating it 0600 if new), check and migrate the database;
        StoreError (one line) if it cannot be used, with nothing left open."""
        if self.path != ":memory:":
            _prepare_file(Path(self.path))
        try:
            self.db = await aiosqlite.connect(self.path)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the database ({exc})") from None
        try:
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA synchronous=FULL")
            await self.db.execute("PRAGMA foreign_keys=ON")
            await self._check()
            await self._migrate()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(_explain(self.path, exc)) from None
            raise
        return self

    async def _check(self) -> None:
        """Refuse a damaged database or one from a newer Gatehouse."""
        assert self.db is not None
        async with self.db.execute("PRAGMA quick_check(1)") as cur:
            (result,) = await cur.fetchone()  # type: ignore[misc]
        if result != "ok":
            result = " ".join(str(result).replace("*** in database main ***", "").split())
            raise StoreError(f"{self.path}: the database is damaged (quick_check: {result}): "
                             "restore it from a backup")
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise StoreError(f"{self.path}: the database is from a newer Gatehouse (schema "
                             f"{version}, this one knows up to {len(MIGRATIONS)}): upgrade "
                             "Gatehouse or use another database")

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def _migrate(self) -> None:
        assert self.db is not None
        async with self.db.execute("PRAGMA user_version") as cur:
            (version,) = await cur.fetchone()  # type: ignore[misc]
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            await self.db.executescript(f"BEGIN;{script};PRAGMA user_version={number};COMMIT;")

    RETRY_FOR = 120.0    # seconds a write keeps retrying while the database is locked

    async def _write(self, sql: str, args: Any = (),
                     on_retry: Callable[[], None] | None = None) -> Any:
        """Execute one write and commit it (see ``transaction``)."""
        return await self.transaction([(sql, args)], on_retry)

    async def transaction(self, statements: list[tuple[str, Any]],
                          on_retry: Callable[[], None] | None = None) -> Any:
        """Execute writes and commit them together; returns the last cursor.
        While another program holds the database locked beyond the busy
        timeout, roll back, tell ``on_retry`` and try again (up to RETRY_FOR
        seconds), so nothing is lost."""
        assert self.db is not None
        delay, waited = 0.1, 0.0
        while True:
            try:
                cur = None
                for sql, args in statements:
                    cur = await self.db.execute(sql, args)
                await self.db.commit()
                return cur
            except sqlite3.Error as exc:
                busy = isinstance(exc, sqlite3.OperationalError) and (
                    "locked" in str(exc) or "busy" in str(exc))
                try:
                    await self.db.rollback()      # none of the writes stays half done
                except sqlite3.Error:
                    pass
                if not busy or waited >= self.RETRY_FOR:
                    raise
                log.warning("database busy (%s): retrying in %.1f s", exc, delay)
                if on_retry is not None:
                    on_retry()
                await asyncio.sleep(delay)
                waited += delay
                delay = min(delay * 2, 2.0)

    async def schema_version(self) -> int:
        assert self.db is not None
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])  # type: ignore[index]

    # ----- users ------------------------------------------------------------
    async def get_user(self, handle: str) -> UserRow | None:
        assert self.db is not None
        async with self.db.execute(
                "SELECT id, handle, pw_salt, pw_hash, charset, kind FROM users WHERE handle_key=?",
                (handle_key(handle),)) as cur:
            row = await cur.fetchone()
        return UserRow(*row) if row else None

    async def lookalike(self, handle: str) -> str | None:
        """An existing handle that looks like ``handle`` (I/l/1, O/0), if any."""
        assert self.db is not None
        async with self.db.execute("SELECT handle FROM users WHERE skeleton=? LIMIT 1",
                                   (handle_skeleton(handle),)) as cur:
            row = await cur.fetchone()
        return str(row[0]) if row else None

    async def create_user(self, handle: str, salt: bytes, pw_hash: bytes,
                          charset: str | None = None, kind: str = AccountKind.TELNET,
                          bbs_key: str | None = None) -> UserRow:
        """A new account; sqlite3.IntegrityError if the handle (or ``bbs_key``) is taken."""
        assert self.db is not None and kind in KINDS
        now = time.time()
        try:
            cur = await self._write(
                "INSERT INTO users(handle, handle_key, pw_salt, pw_hash, charset, created,"
                " last_login, kind, skeleton, bbs_key) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (handle, handle_key(handle), salt, pw_hash, charset, now, now, kind,
                 handle_skeleton(handle), bbs_key))
        except sqlite3.IntegrityError:
            await self.db.rollback()
            raise
        return UserRow(cur.lastrowid or 0, handle, salt, pw_hash, charset, kind)

    async def get_bbs_user(self, bbs_key: str) -> UserRow | None:
        """The BBS caller's account for this full alias key, if any."""
        assert self.db is not None
        async with self.db.execute(
                "SELECT id, handle, pw_salt, pw_hash, charset, kind FROM users WHERE bbs_key=?",
                (bbs_key,)) as cur:
            row = await cur.fetchone()
        return UserRow(*row) if row else None

    async def has_bbs_key(self, user_id: int) -> bool:
        assert self.db is not None
        async with self.db.execute("SELECT bbs_key IS NOT NULL FROM users WHERE id=?",
                                   (user_id,)) as cur:
            row = await cur.fetchone()
        return bool(row and row[0])

    async def claim_bbs_key(self, user_id: int, bbs_key: str) -> bool:
        """Give an account made before alias keys existed its caller's key;
        False if it already has one (it is someone else's)."""
        assert self.db is not None
        try:
            cur = await self._write("UPDATE users SET bbs_key=? WHERE id=? AND bbs_key IS NULL",
                                    (bbs_key, user_id))
        except sqlite3.IntegrityError:
            await self.db.rollback()
            return False
        return bool(cur.rowcount)

    async def touch_login(self, user_id: int) -> None:
        assert self.db is not None
        await self._write("UPDATE users SET last_login=? WHERE id=?", (time.time(), user_id))

    async def set_charset(self, user_id: int, charset: str) -> None:
        assert self.db is not None
        await self._write("UPDATE users SET charset=? WHERE id=?", (charset, user_id))

    # ----- games and moves --------------------------------------------------
    async def create_game(self, door: str, options: dict[str, Any],
                          players: tuple[str, str],
                          on_retry: Callable[[], None] | None = None,
                          by_turns: tuple[float, Turns] | None = None) -> int:
        """A new game; ``by_turns`` (time per move, turn starts) makes it a
        by-turns game, in the same transaction."""
        assert self.db is not None
        statements: list[tuple[str, Any]] = [(
            "INSERT INTO games(door, options, player0, player1, created) VALUES (?,?,?,?,?)",
            (door, json.dumps(options, sort_keys=True), players[0], players[1], time.time()))]
        if by_turns is not None:
            seconds, (turn0, turn1) = by_turns
            statements.append(("INSERT INTO by_turns(game_id, move_seconds, turn0, turn1)"
                               " VALUES (last_insert_rowid(),?,?,?)", (seconds, turn0, turn1)))
        cur = await self.transaction(statements, on_retry)
        return int(cur.lastrowid or 0)     # (by_turns.game_id is its rowid: the same id)

    async def add_move(self, game_id: int, ply: int, player: int, action: str,
                       on_retry: Callable[[], None] | None = None,
                       turns: Turns | None = None) -> None:
        """Store one move and commit it before returning (retrying while the
        database is locked by another program; ``on_retry`` hears of it).
        ``turns``: a by-turns game's new turn starts, in the same commit."""
        assert self.db is not None
        statements: list[tuple[str, Any]] = [(
            "INSERT INTO moves(game_id, ply, player, action, at) VALUES (?,?,?,?,?)",
            (game_id, ply, player, action, time.time()))]
        if turns is not None:
            statements.append(("UPDATE by_turns SET turn0=?, turn1=? WHERE game_id=?",
                               (turns[0], turns[1], game_id)))
        await self.transaction(statements, on_retry)

    async def finish_game(self, game_id: int, outcome: dict[str, Any],
                          on_retry: Callable[[], None] | None = None) -> None:
        assert self.db is not None
        await self._write("UPDATE games SET status='finished', outcome=?, ended=? WHERE id=?",
                          (json.dumps(outcome), time.time(), game_id), on_retry)

    def _game(self, row: Any) -> GameRow:
        return GameRow(row[0], row[1], json.loads(row[2]), (row[3], row[4]), row[5],
                       json.loads(row[6]) if row[6] else None, row[7], row[8], row[9])

    _GAME_SQL = ("SELECT g.id, g.door, g.options, g.player0, g.player1, g.status, g.outcome,"
                 " g.created, g.ended, (SELECT COUNT(*) FROM moves m WHERE m.game_id=g.id)"
                 " FROM games g")

    async def get_game(self, game_id: int) -> GameRow | None:
        assert self.db is not None
        async with self.db.execute(self._GAME_SQL + " WHERE g.id=?", (game_id,)) as cur:
            row = await cur.fetchone()
        return self._game(row) if row else None

    async def list_games(self, status: str | None = None, limit: int = 50) -> list[GameRow]:
        assert self.db is not None
        sql, args = self._GAME_SQL, cast(tuple[str, ...], ())
        if status:
            sql, args = sql + " WHERE g.status=?", (status,)
        async with self.db.execute(sql + " ORDER BY g.id DESC LIMIT ?", (*args, limit)) as cur:
            rows = await cur.fetchall()
        return [self._game(r) for r in rows]

    async def moves(self, game_id: int) -> list[tuple[int, str]]:
        assert self.db is not None
        async with self.db.execute("SELECT player, action FROM moves WHERE game_id=? ORDER BY ply",
                                   (game_id,)) as cur:
            rows = await cur.fetchall()
        return [(int(p), str(a)) for p, a in rows]

    # ----- saved setups (DoorInfo.saved_setups)---------------------------------------
    async def save_setup(self, user_id: int, door: str, name: str, data: str) -> None:
        assert self.db is not None
        await self._write("INSERT OR REPLACE INTO setups(user_id, door, name, data) VALUES (?,?,?,?)",
                          (user_id, door, name, data))

    async def load_setup(self, user_id: int, door: str, name: str) -> str | None:
        assert self.db is not None
        async with self.db.execute("SELECT data FROM setups WHERE user_id=? AND door=? AND name=?",
                                   (user_id, door, name)) as cur:
            row = await cur.fetchone()
        return str(row[0]) if row else None

    async def setup_names(self, user_id: int, door: str) -> list[str]:
        assert self.db is not None
        async with self.db.execute("SELECT name FROM setups WHERE user_id=? AND door=? ORDER BY name",
                                   (user_id, door)) as cur:
            rows = await cur.fetchall()
        return [str(r[0]) for r in rows]
