"""No work for nobody: the computer playing itself stops (aborted, no
result) when its last watcher leaves, by ESC or by hanging up, and a game
of the computer against itself left over from before a restart is not
taken up again."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from .harness import ENTER, ESC, UP, Caller, door_digit, start_app, wait_until


def games(db: Path) -> list[tuple[int, str, dict | None, int]]:
    """(id, status, outcome, moves) of every game, as stored."""
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT g.id, g.status, g.outcome, (SELECT COUNT(*) FROM moves m "
                           "WHERE m.game_id = g.id) FROM games g ORDER BY g.id").fetchall()
    return [(gid, status, json.loads(outcome) if outcome else None, n) for gid, status, outcome, n in rows]


async def watch(caller: Caller) -> None:
    caller.send("p" + door_digit("Awari"))
    await caller.expect("choose your opponent")
    caller.send(UP + ENTER)                       # the last opponent: watch the computer play itself
    await caller.expect("ENTER starts the game")
    caller.send(ENTER)
    await caller.expect("Computer 1")


async def test_the_computer_stops_playing_itself_when_its_last_watcher_leaves(tmp_path):
    db = tmp_path / "g.db"
    app = await start_app(db, timing={"bot_min_delay": 0.3})
    try:
        caller = await Caller.connect(app.port)
        await caller.login("Wanda")
        await watch(caller)
        await wait_until(lambda: games(db)[-1][3] >= 2, what="the computers to move")
        caller.send(ESC)
        await caller.expect("You stopped watching: that game is over (no result).")
        await wait_until(lambda: games(db)[-1][1] == "finished", what="the game to stop")
        _gid, _status, outcome, moves = games(db)[-1]
        assert outcome is not None and outcome["termination"] == "aborted" and outcome["winner"] is None
        # once stopped it stays stopped: a later watch is a new game, and hanging up stops it too
        await watch(caller)
        await wait_until(lambda: len(games(db)) == 2 and games(db)[-1][3] >= 1, what="a second game")
        await caller.close()
        await wait_until(lambda: games(db)[-1][1] == "finished", what="the second game to stop")
        assert games(db)[-1][2]["termination"] == "aborted"
        assert games(db)[0][3] == moves              # the first game got no move after it stopped
        with sqlite3.connect(db) as con:             # no result: nothing rated
            assert con.execute("SELECT COUNT(*) FROM game_ratings WHERE rated=1").fetchone()[0] == 0
    finally:
        await app.stop()


async def test_a_computer_game_left_over_from_before_a_restart_is_stopped(tmp_path):
    db = tmp_path / "g.db"
    app = await start_app(db, timing={"bot_min_delay": 0.3})
    try:
        caller = await Caller.connect(app.port)
        await caller.login("Wanda")
        await watch(caller)
        await wait_until(lambda: games(db)[-1][3] >= 1, what="the computers to move")
    finally:
        await app.stop()
    with sqlite3.connect(db) as con:                 # as a server killed mid-game leaves it
        con.execute("UPDATE games SET status='active', outcome=NULL, ended=NULL")
    app = await start_app(db)
    try:
        assert games(db)[-1][1] == "finished" and games(db)[-1][2]["termination"] == "aborted"
    finally:
        await app.stop()
