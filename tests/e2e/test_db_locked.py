"""Another program holds the database locked during play: the caller is
told "saving... retrying", the move is retried until stored, and it is
never shown as made before it is on disk."""
import sqlite3

from .harness import (
    DOWN,
    ENTER,
    RIGHT,
    Caller,
    active_game,
    door_digit,
    game_state,
    moves_of,
    start_app,
    wait_until,
)


def stored(con: sqlite3.Connection, game_id: int) -> int:
    return con.execute("SELECT COUNT(*) FROM moves WHERE game_id=?", (game_id,)).fetchone()[0]


def retries(caplog) -> int:
    return sum("database busy" in record.getMessage() for record in caplog.records)


async def test_a_locked_database_delays_the_move_and_loses_nothing(tmp_path, caplog):
    # a write gives up on a lock quickly (then retries): several retries in a short test
    app = await start_app(tmp_path / "gatehouse.db", timing={"store_busy_seconds": 0.05})
    try:
        await play_through_a_lock(app, caplog)
    finally:
        await app.stop()


async def play_through_a_lock(app, caplog) -> None:
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
    game = active_game(app, "Alice")
    assert game is not None
    game_id = game[0]
    assert 0 in game_state(app, game_id).to_move()
    other = sqlite3.connect(app.config.store.database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")           # another program holds the write lock
    try:
        on_disk = stored(other, game_id)
        assert on_disk == 0 and "Cursor: d4" in caller.text()
        caller.send(ENTER)                     # a tower at d4, where the cursor starts
        await caller.expect("Saving... the database is busy, retrying.")
        await wait_until(lambda: retries(caplog) >= 3, what="several retries")
        assert "Last: d4" not in caller.text()             # not shown as made before it is stored
        assert "Your turn:" in caller.text()
        assert stored(other, game_id) == on_disk
        assert "Sorry, that went wrong" not in caller.text()
    finally:
        other.execute("COMMIT")
        other.close()
    await caller.expect("Saved.")
    await wait_until(lambda: len(moves_of(app, game_id)) >= 2, what="the move stored, and the reply")
    assert moves_of(app, game_id)[0] == (0, "d4")           # stored once, first
    # what the screen shows is what is on disk: the reply, and my turn again
    reply = moves_of(app, game_id)[1][1]
    await caller.expect(f"Last: {reply}")
    await caller.expect("Your turn:")
    assert len(moves_of(app, game_id)) == 2
    await caller.close()
