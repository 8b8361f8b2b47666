"""A disk that refuses writes (the server's file-size limit dropped to
nothing with prlimit while a caller plays): the caller reads that the move
was NOT made and may press it again; a newcomer reads that the account
could not be created; the sysop console shows a warning line until writes
succeed again; the log has a line, not a traceback per key; once the disk
takes writes again the same key makes the move."""
import asyncio
import re
import resource
import signal
import sqlite3
import sys

from tests.server.sysop_harness import Console

from .harness import ENTER, Caller, arrows_between, door_digit, wait_until
from .test_sigkill import ROOT, game_on_disk, moves_on_disk


async def start_server(db):
    config = db.parent / "gatehouse.toml"
    config.write_text(f'[awari]\nbuild_endgame = false\n[sysop]\nsocket = "{db.parent / "sysop.sock"}"\n')
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "serve", "--port", "0", "--db", str(db),
        "--config", str(config), cwd=ROOT, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    line = await asyncio.wait_for(proc.stdout.readline(), 30)
    return proc, int(re.search(rb"telnet://127\.0\.0\.1:(\d+)", line).group(1))


async def fsize(pid: int, limit: str) -> None:
    """Set the soft file-size limit of process ``pid`` (the hard one stays),
    as ``prlimit --fsize`` does: a number of bytes, or "unlimited"."""
    _soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    soft = resource.RLIM_INFINITY if limit == "unlimited" else int(limit)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (soft, hard))


async def test_a_refused_write_is_told_and_the_key_works_once_the_disk_does(tmp_path):
    db = tmp_path / "g.db"
    proc, port = await start_server(db)
    try:
        console = Console(tmp_path / "gatehouse.toml")
        await console.expect("Sysop console")
        caller = await Caller.connect(port)
        await caller.login("Dana")
        caller.send("p" + door_digit("Towers"))
        await caller.expect("choose your opponent")
        caller.send("1")                              # the computer
        await caller.expect("options")
        caller.send("\x1b[C" + "\x1b[B" * 3 + ENTER)  # we place first; start
        await caller.expect("Your turn")
        await wait_until(lambda: 0 in game_on_disk(db)[0].to_move(), what="our turn, as stored")
        stored = moves_on_disk(db)
        await fsize(proc.pid, "1")                    # no file may grow past one byte
        state, _moves = game_on_disk(db)
        target_action = state.legal_actions(0)[0]
        target = target_action.square
        caller.send(arrows_between(3 * 8 + 3, target, 8) + ENTER)
        text = " ".join((await caller.expect("NOT made")).split())
        assert "Your move was NOT made: the server's disk is failing" in text
        assert "press it again" in text
        for _ in range(3):                            # pressed again while the disk still refuses
            caller.send(ENTER)
            await caller.expect("NOT made")
        assert moves_on_disk(db) == stored
        await console.expect("WARNING: the database cannot be written (disk error")
        newcomer = await Caller.connect(port)         # registering meanwhile
        await newcomer.expect("Handle")
        newcomer.send("Nell" + ENTER)
        await newcomer.expect("Register?")
        newcomer.send("y")
        await newcomer.expect("Choose a password")
        newcomer.send("secret1" + ENTER)
        await newcomer.expect("once more")
        newcomer.send("secret1" + ENTER)
        text = " ".join((await newcomer.expect("could not be created")).split())
        assert "Your account could not be created: the server's disk is failing" in text
        await newcomer.close()
        await fsize(proc.pid, "unlimited")            # the disk takes writes again
        caller.send(ENTER)                            # the same key, as the screen says
        await wait_until(lambda: moves_on_disk(db) > stored, what="the move stored")
        await caller.expect_gone("NOT made")
        await console.expect_gone("WARNING")          # until writes succeed again
        await caller.close()
        await console.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()
    log = (await proc.stderr.read()).decode()
    failures = [line for line in log.splitlines() if "database write failed" in line]
    assert 1 <= len(failures) <= 2, log             # one kind of failure, within a minute
    assert "Traceback" not in log, log
    assert "database writes succeed again" in log
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    con.close()
    _state, moves = game_on_disk(db)
    assert moves[stored] == (0, game_on_disk(db)[0].action_to_str(target_action))   # the key's move
