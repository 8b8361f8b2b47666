"""The sysop's record commands on a damaged database: each prints one clear
line and exits non-zero (no traceback), and ``backup`` never replaces the
last good copy with a damaged one."""
import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from server.services.store import Store

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


async def test_unreadable_values_in_the_record_cost_their_own_game_only(tmp_path):
    """A game's options or outcome that are not JSON (edited by hand or by a
    tool), a move the rules cannot read, a door this Gatehouse lacks: the
    server still starts (the damaged game is closed as aborted, the others
    are kept), and games/bulletin/replay answer in a line, not a traceback."""
    from tests.e2e.harness import start_app
    db = tmp_path / "gatehouse.db"
    store = await Store(db).open()
    kept = await store.create_game("towers", {"first": 0}, ("Alice", "Bob"))
    bad_options = await store.create_game("towers", {"first": 0}, ("Alice", "Carol"))
    bad_outcome = await store.create_game("towers", {"first": 0}, ("Alice", "Dave"))
    await store.finish_game(bad_outcome, {"winner": 0, "termination": "resign", "reason": "Dave resigned"})
    bad_move = await store.create_game("towers", {"first": 0}, ("Alice", "Erin"))
    await store.add_move(bad_move, 1, 0, "zzz")
    gone = await store.create_game("towers", {"first": 0}, ("Alice", "Fred"))
    await store.finish_game(gone, {"winner": 1, "termination": "resign", "reason": "Alice resigned"})
    await store.close()
    con = sqlite3.connect(db)
    con.execute("UPDATE games SET options = 'not json' WHERE id = ?", (bad_options,))
    con.execute("UPDATE games SET outcome = '{bad' WHERE id = ?", (bad_outcome,))
    con.execute("UPDATE games SET door = 'nosuch' WHERE id = ?", (gone,))
    con.commit()
    con.close()

    app = await start_app(db)
    live = sorted(int(g) for g in app.matches.live)
    await app.stop()
    assert live == [kept]
    con = sqlite3.connect(db)
    status = dict(con.execute("SELECT id, status FROM games").fetchall())
    con.close()
    assert status[bad_options] == "finished" and status[bad_move] == "finished"

    code, lines, out = await run(tmp_path, "games", "--db", str(db))
    assert code == 0 and all("cannot be read" in line for line in lines), lines
    listing = out.decode()
    assert "its record in the database cannot be read" in listing and "Traceback" not in listing
    code, lines, out = await run(tmp_path, "bulletin", "--format", "asc", "--db", str(db))
    assert code == 0 and out and all("cannot be read" in line for line in lines), lines
    for game, words in ((bad_options, "its record is damaged"),
                        (gone, "'nosuch', which this Gatehouse does not have")):
        code, lines, out = await run(tmp_path, "replay", str(game), "--delay", "0", "--db", str(db))
        told = [line for line in lines if line.startswith("gatehouse:")]
        assert code == 1 and len(told) == 1 and words in told[0], lines
        assert not any("Traceback" in line for line in lines)
    code, lines, out = await run(tmp_path, "replay", "99999999999999999999", "--db", str(db))
    assert code == 1 and lines == ["There is no game 99999999999999999999."]
