"""The sysop's record commands on a damaged database: each prints one clear
line and exits non-zero (no traceback), and ``backup`` never replaces the
last good copy with a damaged one."""
import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from .test_startup import make_db, one_line

GATEHOUSE = Path(sys.executable).parent / "gatehouse"


async def run(tmp: Path, *args: str) -> tuple[int, list[str], bytes]:
    cmd = [str(GATEHOUSE)] if GATEHOUSE.exists() else [sys.executable, "-m", "server.cli"]
    proc = await asyncio.create_subprocess_exec(*cmd, *args, cwd=tmp, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
    return proc.returncode or 0, lines, out


def scribble(db: Path) -> Path:
    data = bytearray(db.read_bytes())
    data[4096 * 2:4096 * 2 + 2000] = os.urandom(2000)     # scribble over a b-tree page
    db.write_bytes(bytes(data))
    return db


async def damaged(tmp: Path) -> Path:
    return scribble(await make_db(tmp / "g.db"))


@pytest.mark.parametrize("command", [["bulletin", "--format", "asc"], ["games"], ["replay", "1"]])
async def test_a_read_command_on_a_damaged_database_says_so_in_one_line(tmp_path, command):
    db = await damaged(tmp_path)
    code, lines, out = await run(tmp_path, *command, "--db", str(db))
    one_line(code, lines, str(db), "damaged", "backup")
    assert out == b""


async def test_a_backup_of_a_damaged_database_keeps_the_last_good_copy(tmp_path):
    db = await make_db(tmp_path / "g.db")
    copy = tmp_path / "nightly.db"
    code, lines, out = await run(tmp_path, "backup", str(copy), "--db", str(db))
    assert code == 0 and b"integrity check ok" in out
    good = copy.read_bytes()
    scribble(db)                              # the live database is damaged the next night
    code, lines, out = await run(tmp_path, "backup", str(copy), "--db", str(db))
    line = one_line(code, lines, str(db), "damaged", f"{copy} was left as it was")
    assert "copy" not in line.split(":")[0]
    assert copy.read_bytes() == good
    con = sqlite3.connect(copy)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 150
    con.close()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


async def test_a_first_backup_of_a_damaged_database_writes_nothing(tmp_path):
    db = await damaged(tmp_path)
    copy = tmp_path / "first.db"
    code, lines, out = await run(tmp_path, "backup", str(copy), "--db", str(db))
    one_line(code, lines, str(db), "damaged", "no copy was written")
    assert not copy.exists()
