"""Killing the server with SIGKILL loses no completed move: after a restart
the unfinished game is offered again, exactly as far as it had gone."""
import asyncio
import os
import re
import signal
import sqlite3
import sys
from pathlib import Path

from .harness import DOWN, ENTER, LEFT, RIGHT, Caller, arrows_between, door_digit, wait_until

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
        # place towers on free squares (arrows, then Enter) until a few moves are stored
        cursor = 3 * 8 + 3                    # d4: where the cursor starts
        while moves_on_disk(db) < 5:
            await wait_until(lambda: 0 in game_on_disk(db)[0].to_move(), what="our turn, as stored")
            state, moves = game_on_disk(db)
            target = state.legal_actions(0)[0].square
            caller.send(arrows_between(cursor, target, 8) + ENTER)
            cursor = target
            stored_before = len(moves)
            await wait_until(lambda n=stored_before: moves_on_disk(db) > n, what="our tower stored")
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


async def resume_after_restart(db: Path, handle: str, expect: str):
    """Start the server again, log in, accept the offered unfinished game;
    returns (process, caller, the screen with the offer)."""
    proc, port = await start_server(db)
    caller = await Caller.connect(port)
    await caller.expect("Handle")
    caller.send(handle + ENTER)
    await caller.expect("Password:")
    caller.send("secret1" + ENTER)
    offer = await caller.expect("unfinished game")
    caller.send("y")
    await caller.expect(expect)
    return proc, caller, offer


def game_on_disk(db: Path):
    """The one game's door options and stored moves, replayed."""
    import json

    from doors import registry
    from doors._core.game import replay
    con = sqlite3.connect(db)
    (gid, door, options), = con.execute("SELECT id, door, options FROM games")
    moves = [(int(p), str(a)) for p, a in
             con.execute("SELECT player, action FROM moves WHERE game_id=? ORDER BY ply", (gid,))]
    con.close()
    info = registry()[door]
    return replay(info.state_class, json.loads(options), moves), moves


async def new_computer_game(caller: Caller, door: str) -> None:
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send(door_digit(door))
    await caller.expect("choose your opponent")
    caller.send("1")                              # the computer
    await caller.expect("options")
    caller.send(DOWN * 2 + LEFT * 2 + DOWN + ENTER)   # level 1, start


async def test_sigkill_in_stratego_setup_then_resume(tmp_path):
    """Killed while the caller arranges pieces (the computer's setup and 12
    of the caller's placements stored): the restart offers the game still in
    its simultaneous setup, every stored placement kept, and play goes on."""
    from .test_stratego import RED
    db = tmp_path / "g.db"
    proc, port = await start_server(db)
    try:
        caller = await Caller.connect(port)
        await caller.login("Sten")
        await new_computer_game(caller, "Stratego")
        await caller.expect("Both players move now")
        caller.send("A")                              # the cursor steps on after each piece
        await caller.expect("cursor steps on")
        caller.send(RED[:12])                         # part of our setup
        for _ in range(600):                      # 30 s at least
            if moves_on_disk(db) >= 13:
                break
            await asyncio.sleep(0.05)
        seen = moves_on_disk(db)
        assert seen == 13                            # the computer's setup, 12 placements
        os.kill(proc.pid, signal.SIGKILL)
        await proc.wait()
        await caller.close()
    finally:
        if proc.returncode is None:
            proc.kill()
    state, stored = game_on_disk(db)
    assert sorted(p for p, _ in stored) == [0] * 12 + [1]
    assert 0 in state.to_move()                      # still our setup to finish
    proc, caller, offer = await resume_after_restart(db, "Sten", "Both players move now")
    try:
        assert "(0 moves so far)" in offer            # placements are setup, not moves
        text = await caller.expect("You: 12/40")      # our 12 placements are back
        row4 = next(line for line in text.splitlines() if line.startswith(" 4 "))
        assert row4.replace("[", " ").replace("]", " ").split()[1:11] == list(RED[:10]), row4
        assert re.search(r"Opponent: (40/40|READY)", text)     # the computer's setup kept
        caller.send("R")                              # fill the rest, then confirm
        await caller.expect("You: 40/40")
        caller.send(ENTER)
        await caller.expect("Ready? y/n")
        caller.send("y")
        for _ in range(600):                      # 30 s at least
            state, moves = game_on_disk(db)
            if state.phase == "play":
                break
            await asyncio.sleep(0.05)
        assert state.phase == "play" and state.to_move() == (0,) and not state.outcome()
        assert moves[:seen] == stored                 # what was stored before the kill
        assert sum(1 for _p, a in moves if a.startswith("ready")) == 2
        await caller.expect("Your move")
        await caller.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()


async def test_sigkill_mid_kingdom_game_then_resume(tmp_path):
    from doors.kingdom.position import Move, parse_square
    db = tmp_path / "g.db"
    proc, port = await start_server(db)
    try:
        caller = await Caller.connect(port)
        await caller.login("Kai")
        await new_computer_game(caller, "Kingdom")
        for _turn in range(2):
            text = await caller.expect("Your move")
            state, moves = game_on_disk(db)
            cur = parse_square(re.search(r"Cursor ([a-s]\d+)", text).group(1))
            move = next(m for m in state.legal_actions(0)
                        if isinstance(m, Move) and m.frm >= 0 and m.mid < 0 and not m.promo
                        and abs(m.to - m.frm) in (1, 19))       # one step: never a knight
            caller.send(arrows_between(cur, move.frm, 19) + ENTER
                        + arrows_between(move.frm, move.to, 19) + ENTER)
            for _ in range(600):                      # (30 s at least) ours and the computer's reply
                if moves_on_disk(db) >= len(moves) + 2:
                    break
                await asyncio.sleep(0.05)
            assert moves_on_disk(db) == len(moves) + 2, (move, cur, caller.text())
        await caller.expect("Your move")
        before, stored = game_on_disk(db)
        os.kill(proc.pid, signal.SIGKILL)
        await proc.wait()
        await caller.close()
    finally:
        if proc.returncode is None:
            proc.kill()
    proc, caller, offer = await resume_after_restart(db, "Kai", "Your move")
    try:
        assert f"({len(stored)} moves so far)" in offer
        after, again = game_on_disk(db)
        assert again == stored and after.to_move() == (0,)
        text = caller.text()
        cur = parse_square(re.search(r"Cursor ([a-s]\d+)", text).group(1))
        move = next(m for m in after.legal_actions(0)
                    if isinstance(m, Move) and m.frm >= 0 and m.mid < 0 and not m.promo
                        and abs(m.to - m.frm) in (1, 19))       # one step: never a knight
        caller.send(arrows_between(cur, move.frm, 19) + ENTER
                    + arrows_between(move.frm, move.to, 19) + ENTER)
        for _ in range(600):                          # (30 s at least) the resumed game goes on
            if moves_on_disk(db) > len(stored):
                break
            await asyncio.sleep(0.05)
        assert moves_on_disk(db) > len(stored)
        await caller.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()
