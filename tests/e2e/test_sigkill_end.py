"""A game's end and its ratings are one commit: the server killed (SIGKILL)
at many moments around a caller's resignation leaves, in the database
file and again after a restart, either the result with both the game's
rating record and the caller's new rating, or neither."""
import asyncio
import json
import os
import signal
import sqlite3
from pathlib import Path

from doors import registry
from doors._core.game import replay

from .harness import ENTER, Caller, arrows_between, wait_until
from .test_sigkill import start_server

# when to kill, after the resignation is confirmed: sampling points only
# (what is asserted holds at any moment); the last waits for game over
KILL_AFTER = (0.0, 0.003, 0.008, 0.015, 0.03, 0.06, None)


def last_game(db: Path):
    con = sqlite3.connect(db)
    gid, door, options = con.execute("SELECT id, door, options FROM games ORDER BY id DESC").fetchone()
    moves = [(int(p), str(a)) for p, a in
             con.execute("SELECT player, action FROM moves WHERE game_id=? ORDER BY ply", (gid,))]
    con.close()
    return gid, replay(registry()[door].state_class, json.loads(options), moves), moves


def records(db: Path) -> list[tuple[int, str, str, bool, bool]]:
    """Each game: (id, caller, status, has a rating record, caller has a rating)."""
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT g.id, g.player0, g.status, r.game_id IS NOT NULL,"
        " EXISTS(SELECT 1 FROM ratings WHERE player = lower(g.player0))"
        " FROM games g LEFT JOIN game_ratings r ON r.game_id = g.id ORDER BY g.id").fetchall()
    con.close()
    return [(int(a), str(b), str(c), bool(d), bool(e)) for a, b, c, d, e in rows]


def both_or_neither(db: Path) -> None:
    for gid, caller, status, rated, rating in records(db):
        if status == "finished":
            assert rated and rating, f"game {gid} of {caller} ended without its ratings"
        else:
            assert not rated and not rating, f"game {gid} of {caller} rated but not ended"


def _our_turn(db: Path) -> bool:
    state = last_game(db)[1]
    return 0 in state.to_move() and not state.outcome()


async def play_two_then_resign(caller: Caller, db: Path) -> None:
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send(str(list(registry()).index("towers") + 1))
    await caller.expect("choose your opponent")
    caller.send("1")                                  # the computer
    await caller.expect("options")
    caller.send("\x1b[C" + "\x1b[B" * 3 + ENTER)     # we place first; start
    await caller.expect("Your turn")
    cursor = 3 * 8 + 3
    for _ in range(2):
        # a bound, not a pace: each side must have moved twice before the
        # resignation, or the game is not rated (``ratings.MIN_MOVES``)
        await wait_until(lambda: _our_turn(db), 120.0, "our turn in the database")
        gid, state, moves = last_game(db)
        target = state.legal_actions(0)[0].square
        caller.send(arrows_between(cursor, target, 8) + ENTER)
        cursor = target
        want = len(moves) + 2
        await wait_until(lambda want=want: len(last_game(db)[2]) >= want, 120.0,
                         "our move and the computer's reply stored")
    await caller.expect("Your turn")
    caller.send("Q")
    await caller.expect("Resign this game?")


async def test_sigkill_around_a_games_end_keeps_result_and_ratings_together(tmp_path):
    db = tmp_path / "g.db"
    for n, delay in enumerate(KILL_AFTER):
        proc, port = await start_server(db)
        try:
            caller = await Caller.connect(port)
            await caller.login(f"Kim{n}")
            await play_two_then_resign(caller, db)
            caller.send("y")
            if delay is None:
                await caller.expect("Your rating")
            else:
                await asyncio.sleep(delay)
            os.kill(proc.pid, signal.SIGKILL)
            await proc.wait()
            await caller.close()
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        both_or_neither(db)                           # the file as the kill left it
    proc, port = await start_server(db)               # and after a restart
    try:
        caller = await Caller.connect(port)
        await caller.expect("Handle")
        both_or_neither(db)
        await caller.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        await proc.wait()
    both_or_neither(db)
    assert [r[2] for r in records(db)][-1] == "finished"     # the last one waited for the end
