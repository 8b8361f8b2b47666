"""Another program holds the database locked during play: the caller is
told "saving... retrying", the move is retried until stored, and it is
never shown as made before it is on disk."""
import sqlite3

from .harness import DOWN, ENTER, RIGHT, Caller, arrows_between, door_digit, session_of, wait_until


def stored(con: sqlite3.Connection, game_id: int) -> int:
    return con.execute("SELECT COUNT(*) FROM moves WHERE game_id=?", (game_id,)).fetchone()[0]


def retries(caplog) -> int:
    return sum("database busy" in record.getMessage() for record in caplog.records)


async def test_a_locked_database_delays_the_move_and_loses_nothing(app, caplog):
    caller = await Caller.connect(app.port)
    await caller.login("Alice")
    caller.send("p")
    await caller.expect("Choose a door")
    caller.send(door_digit("Towers"))
    await caller.expect("choose your opponent")
    caller.send("1")
    await caller.expect("Who places first")
    caller.send(RIGHT + DOWN * 3 + ENTER)      # the challenger places first
    await caller.expect("Your turn")
    session = session_of(app, "Alice")
    match = session.screens[-1].match
    await wait_until(lambda: 0 in match.state.to_move(), what="my turn")
    await app.store.db.execute("PRAGMA busy_timeout=50")     # give up on a lock quickly
    other = sqlite3.connect(app.config.store.database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")           # another program holds the write lock
    try:
        before = len(match.state.history)
        on_disk = stored(other, match.id)
        ui = session.screens[-1].ui
        action = match.state.legal_actions(0)[0]
        caller.send(arrows_between(ui.cursor_sq, action.square, 8) + ENTER)
        await caller.expect("Saving... the database is busy, retrying.")
        await wait_until(lambda: retries(caplog) >= 3, what="several retries")
        assert len(match.state.history) == before        # not made before it is stored
        assert stored(other, match.id) == on_disk
        assert "Sorry, that went wrong" not in caller.text()
    finally:
        other.execute("COMMIT")
        other.close()
    await wait_until(lambda: len(match.state.history) > before, what="the move made once stored")
    await caller.expect("Saved.")
    con = sqlite3.connect(app.config.store.database)
    assert stored(con, match.id) >= before + 1
    await wait_until(lambda: stored(con, match.id) == len(match.state.history), what="disk == game")
    con.close()
    await caller.close()
