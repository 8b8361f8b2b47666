"""Killing the server with SIGKILL loses no completed move: after a restart
the unfinished game is offered again, exactly as far as it had gone."""
import asyncio
import os
import re
import signal
import sqlite3
import sys
from pathlib import Path

from .harness import DOWN, ENTER, RIGHT, Caller, door_digit

ROOT = Path(__file__).resolve().parents[2]


async def start_server(db: Path):
    config = db.parent / "gatehouse.toml"
    config.write_text("[awari]\nbuild_endgame = false\n")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "serve", "--port", "0", "--db", str(db),
        "--config", str(config),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    line = await asyncio.wait_for(proc.stdout.readline(), 30)
    port = int(re.search(rb"telnet://127\.0\.0\.1:(\d+)", line).group(1))
    return proc, port


def moves_on_disk(db: Path) -> int:
    return sqlite3.connect(db).execute("SELECT COUNT(*) FROM moves").fetchone()[0]


async def test_sigkill_mid_game_then_resume(tmp_path):
    db = tmp_path / "g.db"
    proc, port = await start_server(db)
    try:
        caller = await Caller.connect(port)
        await caller.login("Kim")
        caller.send("p")
        await caller.expect("Choose a door")
        caller.send(door_digit("Towers"))
        await caller.expect("choose your opponent")
        caller.send("1")                      # the computer
        await caller.expect("options")
        caller.send(RIGHT + DOWN * 3 + ENTER)
        await caller.expect("Your turn")
        # place towers (Enter at the cursor, then one step right) until a few moves are stored
        while moves_on_disk(db) < 5:
            caller.send(ENTER)
            await asyncio.sleep(0.4)
            caller.send(RIGHT)
        seen = moves_on_disk(db)
        os.kill(proc.pid, signal.SIGKILL)     # no shutdown at all
        await proc.wait()
        await caller.close()
    finally:
        if proc.returncode is None:
            proc.kill()
    assert moves_on_disk(db) >= seen
    proc, port = await start_server(db)
    try:
        caller = await Caller.connect(port)
        await caller.expect("Handle")
        caller.send("Kim" + ENTER)
        await caller.expect("Password:")
        caller.send("secret1" + ENTER)
        text = await caller.expect("unfinished game")
        stored = moves_on_disk(db)
        assert f"({stored} moves so far)" in text
        caller.send("y")
        await caller.expect("Your turn")
        await caller.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()
