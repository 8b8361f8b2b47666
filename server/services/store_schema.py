"""Whether a database has every table and column the code uses: what a
fresh database gets from ``MIGRATIONS`` (built in memory, so the check stays
true whoever adds a migration), compared with the file's own schema."""
from __future__ import annotations

import functools
import sqlite3

import aiosqlite

from server.services.schema import MIGRATIONS

__all__ = ["expected_schema", "schema_gap"]


def _tables(db: sqlite3.Connection) -> dict[str, set[str]]:
    names = [row[0] for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
    return {name: {row[1] for row in db.execute(f'PRAGMA table_info("{name}")')} for name in names}


def expected_schema() -> dict[str, frozenset[str]]:
    """Table -> columns, as every migration leaves them."""
    return _built(tuple(MIGRATIONS))


@functools.lru_cache(maxsize=4)
def _built(migrations: tuple[str, ...]) -> dict[str, frozenset[str]]:
    db = sqlite3.connect(":memory:")
    try:
        for script in migrations:
            db.executescript(script)
        return {name: frozenset(cols) for name, cols in _tables(db).items()}
    finally:
        db.close()


async def schema_gap(db: aiosqlite.Connection) -> str | None:
    """The first table or column missing from ``db`` (an aiosqlite
    connection), as a phrase ("no table moves", "no column kind in table
    users"); None when nothing is missing."""
    async with db.execute("SELECT name FROM sqlite_master WHERE type='table'") as cur:
        present = {row[0] for row in await cur.fetchall()}
    for table, columns in sorted(expected_schema().items()):
        if table not in present:
            return f"no table {table}"
        async with db.execute(f'PRAGMA table_info("{table}")') as cur:
            have = {row[1] for row in await cur.fetchall()}
        for column in sorted(columns - have):
            return f"no column {column} in table {table}"
    return None
