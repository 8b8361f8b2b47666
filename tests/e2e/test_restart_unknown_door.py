"""A database written by a release with a door this one does not have (a
downgrade): its unfinished games and waiting challenges are kept, neither
shown nor played, and the sysop's log says so once at start."""
import logging
import sqlite3

from .harness import Caller, registered, start_app

FINISHED = '{"winner": 0, "termination": "resign", "reason": "Bob resigned"}'


async def test_games_and_challenges_for_a_missing_door_are_kept_and_named_in_the_log(tmp_path, caplog):
    db = tmp_path / "gatehouse.db"
    app = await start_app(db)
    try:
        await registered(app, "Bob")
    finally:
        await app.stop()
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO games(id, door, options, player0, player1, created)"
                    " VALUES (7, 'chess', '{}', 'Alice', 'Bob', 0)")
        con.execute("INSERT INTO games(id, door, options, player0, player1, status, outcome, created, ended)"
                    " VALUES (8, 'chess', '{}', 'Alice', 'Bob', 'finished', ?, 0, 1)", (FINISHED,))
        con.execute("INSERT INTO waiting_challenges(id, challenger, target, door, options, move_seconds, made)"
                    " VALUES (3, 'Alice', 'Bob', 'chess', '{}', 86400, 0)")
    caplog.set_level(logging.WARNING)
    app = await start_app(db)
    try:
        said = [r.getMessage() for r in caplog.records]
        assert any("games kept but not played" in m and "7 (chess)" in m for m in said), said
        assert any("challenges kept but not shown" in m and "3 (chess)" in m for m in said), said
        bob = await Caller.connect(app.port)
        await bob.login("Bob", new=False)
        text = bob.text()
        assert "challenges you" not in text and "went wrong" not in text
        bob.send("m")                                # his games: that one is listed, not replayed
        text = await bob.expect("My games")
        assert "chess" in text and "Alice" in text
        bob.send("\r")
        await bob.expect("Game 8 cannot be replayed here.")
        bob.send("\x1b")
        await bob.expect("Who's online")
        await bob.log_off()
    finally:
        await app.stop()
    with sqlite3.connect(db) as con:                 # nothing of it was lost
        assert con.execute("SELECT status FROM games WHERE id=7").fetchall() == [("active",)]
        assert con.execute("SELECT COUNT(*) FROM waiting_challenges WHERE id=3").fetchone() == (1,)
