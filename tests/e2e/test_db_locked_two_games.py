"""Two live games against the computer while another program holds the
database locked for several seconds, then lets go: no screen ever shows a
move that is not on disk, and afterwards every move shown is stored, in
order, in its game."""
import asyncio
import sqlite3
import sys

from .harness import DOWN, ENTER, RIGHT, Caller, door_digit, wait_until

TOWERS = ("▐█▌", "«█»", "▓▓▓", "«▓»")      # each side's standing and built towers


def towers_shown(caller: Caller) -> int:
    """Towers drawn on the board (rows 0-16, the board's columns)."""
    return sum(line[:51].count(tower) for line in caller.screen.display[:17] for tower in TOWERS)


def stored(db, handle: str) -> list[int]:
    """The plies stored for ``handle``'s game, in order."""
    con = sqlite3.connect(db)
    try:
        return [p for (p,) in con.execute(
            "SELECT m.ply FROM moves m JOIN games g ON g.id = m.game_id WHERE g.player0 = ?"
            " ORDER BY m.ply", (handle,))]
    finally:
        con.close()


async def start_game(caller: Caller) -> None:
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send(door_digit("Towers"))
    await caller.expect("choose your opponent")
    caller.send("1")
    await caller.expect("Who places first")
    caller.send(RIGHT + DOWN * 3 + ENTER)      # the caller places first
    await caller.expect("Your turn")


async def test_two_games_through_a_lock_held_by_another_process(app, tmp_path):
    db = tmp_path / "gatehouse.db"
    callers = {}
    for handle in ("Ann", "Ben"):
        callers[handle] = await Caller.connect(app.port)
        await callers[handle].login(handle)
        await start_game(callers[handle])
    locker = await asyncio.create_subprocess_exec(
        sys.executable, "-c",
        "import sqlite3, sys\n"
        f"con = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
        "con.execute('BEGIN IMMEDIATE')\n"
        "print('locked', flush=True)\n"
        "sys.stdin.readline()\n"
        "con.execute('COMMIT')\n",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    try:
        assert (await asyncio.wait_for(locker.stdout.readline(), 30)).strip() == b"locked"
        for caller in callers.values():
            caller.send(ENTER)                  # a tower on d4, where the cursor starts
        waiting = set(callers)
        for _ in range(2000):                   # while locked: nothing shown that is not stored
            for handle, caller in callers.items():
                shown = towers_shown(caller)
                assert shown <= len(stored(db, handle)), f"{handle} sees a move not on disk"
                if "Saving... the database is busy" in caller.text():
                    waiting.discard(handle)
            if not waiting:
                break
            await asyncio.sleep(0.05)
        assert not waiting, "both callers told that their move waits for the database"
        assert all(stored(db, h) == [] for h in callers)
    finally:
        locker.stdin.write(b"go\n")
        await locker.stdin.drain()
        assert await locker.wait() == 0
    # "Saved." is a notice that goes after a while: watched on both screens at
    # once (one after the other, the second could be gone before it is read)
    await asyncio.gather(*(caller.expect("Saved.", timeout=30) for caller in callers.values()))
    for handle, caller in callers.items():
        await wait_until(lambda h=handle: len(stored(db, h)) >= 2, what="the computer's reply stored")
        await wait_until(lambda c=caller, h=handle: towers_shown(c) == len(stored(db, h)),
                         what="the screen and the disk agree")
        plies = stored(db, handle)
        assert plies == list(range(1, len(plies) + 1))      # every move, in order
        await caller.close()
