"""The store's copies and checks, for the sysop's commands: ``backup``
(sqlite's online backup API: a consistent copy of the live database, safe
while the server writes to it) and ``integrity_check``. Blocking calls,
for the command line; part of the store layer."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from server.services.store_core import StoreError

__all__ = ["backup", "integrity_check", "counts"]


def _source(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise StoreError(f"{path}: there is no database here: give the server's database "
                         "with --db or --config")
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        con.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot read the database ({exc})") from None
    return con


def backup(source: str | Path, target: str | Path) -> None:
    """Copy the database ``source`` to ``target`` in one consistent step
    (other writers wait at most a moment; none is disturbed), as a single
    file (no WAL beside it), created 0600 (it holds password hashes), and
    put in place at once: a reader of ``target`` never sees half a copy.
    A copy that fails sqlite's integrity check (the database is damaged)
    is thrown away, and ``target`` keeps what it held: StoreError."""
    source, target = Path(source), Path(target)
    if source.resolve() == target.resolve():
        raise StoreError(f"{target}: that is the database itself: back it up to another file")
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    con = _source(source)
    try:
        fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        os.close(fd)
        dest = sqlite3.connect(tmp)
        try:
            con.backup(dest)                # all pages in one step: one read transaction
            dest.execute("PRAGMA journal_mode=DELETE")
            try:
                found = [str(row[0]) for row in dest.execute("PRAGMA integrity_check(100)")]
            except sqlite3.DatabaseError as exc:
                found = [" ".join(str(exc).split())]
        finally:
            dest.close()
        if found != ["ok"]:                 # a damaged copy never replaces the last good one
            tmp.unlink(missing_ok=True)
            kept = f"{target} was left as it was" if target.exists() else "no copy was written"
            detail = found[0] if len(found) == 1 else f"{len(found)} problems: {'; '.join(found[:3])}"
            raise StoreError(f"{source}: the database is damaged ({detail}): {kept}; "
                             "restore from a good backup")
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StoreError(f"{target}: cannot write the copy ({exc.strerror or exc})") from None
    except sqlite3.Error as exc:
        tmp.unlink(missing_ok=True)
        text = " ".join(str(exc).split())
        if "malformed" in text or "corrupt" in text:
            raise StoreError(f"{source}: the database is damaged ({text}): {target} was left as "
                             "it was; restore from a good backup") from None
        raise StoreError(f"{target}: the copy failed ({text})") from None
    finally:
        con.close()


def integrity_check(path: str | Path) -> list[str]:
    """``PRAGMA integrity_check``'s findings; ["ok"] for a sound database."""
    con = _source(Path(path))
    try:
        return [str(row[0]) for row in con.execute("PRAGMA integrity_check(100)")]
    except sqlite3.Error as exc:
        return [str(exc)]
    finally:
        con.close()


def counts(path: str | Path) -> tuple[int, int, int]:
    """(users, games, moves) in a database, to tell the sysop what a copy holds."""
    con = _source(Path(path))
    try:
        return tuple(int(con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])  # type: ignore[return-value]
                     for table in ("users", "games", "moves"))
    except sqlite3.Error:
        return (0, 0, 0)
    finally:
        con.close()
