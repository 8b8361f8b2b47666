"""The store's core: the one connection to the sqlite record and the one
way to use it. Every statement of the store layer (``store_*.py``, put
together as ``store.Store``) runs here: a write in ``transaction`` (one at a
time, ``BEGIN IMMEDIATE`` under a lock), a read in ``_rows``/``_row`` (under
the same lock, so it never sees another transaction's unfinished writes).

WAL journal; a schema version with ordered migrations (``schema.py``);
every move is committed before the match offers the next turn, so killing
the server at any moment loses no completed move.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Self

import aiosqlite

from server.services.schema import MIGRATIONS
from server.services.store_schema import schema_gap

__all__ = ["StoreCore", "StoreError", "WriteFailed", "Statements", "Params", "JSONObject", "read_object"]

log = logging.getLogger("gatehouse.store")

# A JSON object as the store keeps it (a game's options, its outcome): any
# JSON value may sit under a key, and only its reader knows which.
JSONObject = dict[str, Any]
Params = Iterable[object]                 # a statement's parameters, for its ? marks
Statements = list[tuple[str, Params]]


class StoreError(Exception):
    """The database cannot be used; ``str(err)`` is one line for the sysop."""


class WriteFailed(sqlite3.OperationalError):
    """A write that did not happen (nothing of it was stored) because the
    database cannot be written now: the disk is full or failing, the file
    is read-only, or another program kept it locked past the retry time.
    ``kind`` says which, ``why`` in a caller's words."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind

    @property
    def why(self) -> str:
        return WHY.get(self.kind, "the server cannot write its records")


WHY = {"disk full": "the server's disk is full",
       "disk error": "the server's disk is failing",
       "read-only": "the server's database is read-only",
       "locked": "another program holds the database"}
REPORT_EVERY = 60.0        # seconds between two log lines of one kind of write failure


def read_object(text: object, what: str) -> JSONObject | None:
    """A JSON object from a column (options, an outcome); None, logged, if
    the text is not one (a record damaged by hand or by a tool): one bad
    value costs its own row, never the server's start or a command."""
    try:
        value = json.loads(text) if isinstance(text, (str, bytes)) else None
    except ValueError:
        value = None
    if not isinstance(value, dict):
        log.warning("%s in the database cannot be read: %.60r", what, text)
        return None
    return value


def _failure_kind(exc: sqlite3.Error) -> str | None:
    """What kind of write failure ``exc`` is; None for a refusal by the
    schema (a taken handle: the caller's code expects that one)."""
    if isinstance(exc, sqlite3.IntegrityError):
        return None
    text = str(exc).lower()
    if "full" in text:
        return "disk full"
    if "i/o" in text or "disk" in text:
        return "disk error"
    if "readonly" in text or "read-only" in text:
        return "read-only"
    if "locked" in text or "busy" in text:
        return "locked"
    return None


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


class StoreCore:
    RETRY_FOR = 120.0    # seconds a write keeps retrying while the database is locked

    def __init__(self, path: str | Path, busy_seconds: float = 5.0):
        self.path = str(path)
        self.busy_seconds = busy_seconds   # sqlite's own wait on a lock before a write is retried
        self.db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()        # one transaction or read at a time
        self.write_trouble: str | None = None      # the last write failure, until a write succeeds
        self._reported: dict[str, tuple[float, int]] = {}   # kind -> (last logged, failures since)

    async def open(self) -> Self:
        """Open (creating it 0600 if new), check and migrate the database;
        StoreError (one line) if it cannot be used, with nothing left open."""
        if self.path != ":memory:":
            _prepare_file(Path(self.path))
        try:
            self.db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_seconds)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the database ({exc})") from None
        try:
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA synchronous=FULL")
            await self.db.execute("PRAGMA foreign_keys=ON")
            await self._check()
            await self._migrate()
            gap = await schema_gap(self.db)
            if gap is not None:
                raise StoreError(f"{self.path}: the database is damaged ({gap}): restore it "
                                 "from a backup")
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(_explain(self.path, exc)) from None
            raise
        return self

    async def open_readonly(self) -> Self:
        """Open an existing database for reading only (a read-only command
        never creates or migrates one); StoreError (one line) if there is
        none, it cannot be read, or it is not of this Gatehouse's schema."""
        path = Path(self.path)
        if not path.is_file():
            raise StoreError(f"{path}: there is no database here (nothing was created): "
                             "give the server's database with --db or --config")
        try:
            self.db = await aiosqlite.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                              isolation_level=None)
            version = await self.schema_version()
            await self._refuse_damage()
        except (sqlite3.Error, StoreError) as exc:
            await self.close()
            if isinstance(exc, StoreError):
                raise
            raise StoreError(_explain(str(path), exc)) from None
        if version != len(MIGRATIONS):
            await self.close()
            older = version < len(MIGRATIONS)
            raise StoreError(f"{path}: the database is from {'an older' if older else 'a newer'} "
                             f"Gatehouse (schema {version}, this one uses {len(MIGRATIONS)}): "
                             + ("start the server once to upgrade it" if older else "upgrade Gatehouse"))
        return self

    async def _refuse_damage(self) -> None:
        """StoreError if sqlite's quick_check finds the database damaged."""
        row = await self._row("PRAGMA quick_check(1)")
        assert row is not None            # (a pragma always answers)
        (result,) = row
        if result != "ok":
            result = " ".join(str(result).replace("*** in database main ***", "").split())
            raise StoreError(f"{self.path}: the database is damaged (quick_check: {result}): "
                             "restore it from a backup")

    async def _check(self) -> None:
        """Refuse a damaged database or one from a newer Gatehouse."""
        await self._refuse_damage()
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
        version = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            await self.db.executescript(f"BEGIN;{script};PRAGMA user_version={number};COMMIT;")

    async def schema_version(self) -> int:
        row = await self._row("PRAGMA user_version")
        assert row is not None            # (a pragma always answers)
        return int(row[0])

    # ----- the one way to the connection ----------------------------------------
    async def _execute(self, sql: str, args: Params = ()) -> aiosqlite.Cursor:
        """One statement on the connection (every statement goes through here)."""
        assert self.db is not None
        return await self.db.execute(sql, args)

    async def _write(self, sql: str, args: Params = (),
                     on_retry: Callable[[], None] | None = None) -> aiosqlite.Cursor:
        """Execute one write and commit it (see ``transaction``)."""
        return await self.transaction([(sql, args)], on_retry)

    async def transaction(self, statements: Statements,
                          on_retry: Callable[[], None] | None = None) -> aiosqlite.Cursor:
        """Execute writes and commit them together; returns the last cursor.

        One transaction at a time holds the connection (``BEGIN IMMEDIATE``
        under the store's lock, first come first served), so a transaction
        that fails is rolled back whole and touches no other one's writes.
        While another program holds the database locked beyond the busy
        timeout, roll back, tell ``on_retry`` and try again (up to RETRY_FOR
        seconds, the connection free for others meanwhile), so nothing is lost."""
        delay, waited = 0.1, 0.0
        while True:
            try:
                # shielded: a cancelled caller never leaves a transaction half open
                cur = await asyncio.shield(self._attempt(statements))
            except sqlite3.Error as exc:
                busy = isinstance(exc, sqlite3.OperationalError) and (
                    "locked" in str(exc) or "busy" in str(exc))
                if not busy or waited >= self.RETRY_FOR:
                    raise self._failed(exc) from None
                log.warning("database busy (%s): retrying in %.1f s", exc, delay)
                if on_retry is not None:
                    on_retry()
                await asyncio.sleep(delay)
                waited += delay
                delay = min(delay * 2, 2.0)
            else:
                if self.write_trouble is not None:
                    log.warning("database writes succeed again (after: %s)", self.write_trouble)
                    self.write_trouble = None
                    self._reported.clear()
                return cur

    def _failed(self, exc: sqlite3.Error) -> sqlite3.Error:
        """The error to raise for a failed write: a ``WriteFailed`` if the
        database cannot be written now (kept for the sysop's console until a
        write succeeds, and logged once a minute per kind), else ``exc``."""
        kind = _failure_kind(exc)
        if kind is None:
            return exc
        self.write_trouble = f"{kind}: {' '.join(str(exc).split())}"
        now = time.monotonic()
        last, since = self._reported.get(kind, (-REPORT_EVERY, 0))
        if now - last >= REPORT_EVERY:
            more = f" ({since} more since the last report)" if since else ""
            log.error("database write failed, nothing of it stored (%s)%s", self.write_trouble, more)
            self._reported[kind] = (now, 0)
        else:
            self._reported[kind] = (last, since + 1)
        return WriteFailed(kind, str(exc))

    async def _attempt(self, statements: Statements) -> aiosqlite.Cursor:
        assert self.db is not None
        async with self._lock:
            try:
                cur = await self._execute("BEGIN IMMEDIATE")
                for sql, args in statements:
                    cur = await self._execute(sql, args)
                await self._execute("COMMIT")
                return cur
            except BaseException:
                if self.db.in_transaction:
                    try:
                        await self.db.execute("ROLLBACK")    # none of the writes stays half done
                    except sqlite3.Error:
                        pass
                raise

    async def _rows(self, sql: str, args: Params = ()) -> list[sqlite3.Row]:
        """A query's rows; under the lock, so a read never sees a transaction
        that is still under way."""
        async with self._lock:
            cur = await self._execute(sql, args)
            try:
                return list(await cur.fetchall())
            finally:
                await cur.close()

    async def _row(self, sql: str, args: Params = ()) -> sqlite3.Row | None:
        rows = await self._rows(sql, args)
        return rows[0] if rows else None
