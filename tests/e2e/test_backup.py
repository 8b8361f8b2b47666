"""``gatehouse backup FILE`` while callers play: the copy opens, passes
``integrity_check`` and holds every move stored before the backup began;
``gatehouse check`` says what it found, a damaged file included."""
import asyncio
import re
import sqlite3

from server.cli import main

from .harness import DOWN, ENTER, Caller, door_digit, wait_until

WATCH = "Watch the computer play itself"


def moves(db) -> list[tuple[int, int, str]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT game_id, ply, action FROM moves ORDER BY game_id, ply").fetchall()
    finally:
        con.close()


async def watch_a_game(caller: Caller, door: str) -> None:
    caller.send("p" + door_digit(door))
    await caller.expect(WATCH)
    number = int(re.search(rf"(\d+)\. {WATCH}", caller.text()).group(1))
    caller.send(DOWN * (number - 1) + ENTER)
    await caller.expect("Player 2 level")
    caller.send(ENTER)


async def test_backup_while_two_games_are_played(app, tmp_path, capsys):
    db = tmp_path / "gatehouse.db"
    callers = []
    for name in ("Wanda", "Walt"):
        caller = await Caller.connect(app.port)
        await caller.login(name)
        await watch_a_game(caller, "Stratego")
        callers.append(caller)
    await wait_until(lambda: len({g for g, _p, _a in moves(db)}) == 2 and len(moves(db)) >= 100,
                     what="both games under way")
    before = moves(db)
    copy = tmp_path / "copy.db"
    assert await asyncio.to_thread(main, ["backup", str(copy), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Backed up .* to .*copy\.db: 2 accounts, 2 games, \d+ moves; integrity check ok",
                     out), out
    await wait_until(lambda: len(moves(db)) > len(before), what="play going on after the backup")
    after = moves(db)
    con = sqlite3.connect(copy)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    held = con.execute("SELECT game_id, ply, action FROM moves ORDER BY game_id, ply").fetchall()
    con.close()
    assert set(before) <= set(held), "a move stored before the backup is missing from the copy"
    assert set(held) <= set(after)          # and nothing that was never stored
    assert copy.stat().st_mode & 0o777 == 0o600
    assert main(["check", "--db", str(copy)]) == 0
    assert "integrity check ok" in capsys.readouterr().out
    for caller in callers:
        await caller.close()


def test_check_reports_a_damaged_database(tmp_path, capsys):
    db = tmp_path / "bad.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t(x)")
    con.execute("CREATE INDEX t_x ON t(x)")
    con.executemany("INSERT INTO t VALUES (?)", [(str(n) * 50,) for n in range(2000)])
    con.commit()
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name='t_x'").fetchone()[0]
    page = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = bytearray(db.read_bytes())
    data[(root - 1) * page + 8: (root - 1) * page + 40] = b"\xff" * 32    # scribble on the index
    db.write_bytes(bytes(data))
    assert main(["check", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "the database is damaged" in err and "restore it from a backup" in err


def test_backup_with_no_database_creates_nothing(tmp_path, capsys):
    assert main(["backup", str(tmp_path / "copy.db"), "--db", str(tmp_path / "none.db")]) == 1
    assert "no database at" in capsys.readouterr().err
    assert not (tmp_path / "copy.db").exists() and not (tmp_path / "none.db").exists()
