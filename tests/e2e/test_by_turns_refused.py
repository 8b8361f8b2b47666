"""A by-turns challenge is answered while another program holds the
database: the caller is told nothing was saved, and the challenge still
waits, on the board and on disk, so the next try starts the game."""
import sqlite3

from .harness import DOWN, ENTER, db_rows, start_app, wait_until
from .test_by_turns import ask_for_a_handle, call, hang_up


async def test_an_accept_the_disk_refuses_leaves_the_challenge_waiting(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", timing={"store_busy_seconds": 0.05})
    app.store.RETRY_FOR = 0.5          # a lock held longer than this is a failed write
    try:
        bob = await call(app, "Bob", new=True)
        await hang_up(app, bob, "Bob")
        alice = await call(app, "Alice", new=True)
        await ask_for_a_handle(alice, "Towers")
        alice.send("Bob" + ENTER)
        await alice.expect("Towers against Bob by turns: options")
        alice.send(DOWN * 20 + ENTER)
        await alice.expect("Challenge sent to Bob: it waits for their next call")
        await hang_up(app, alice, "Alice")

        bob = await call(app, "Bob")
        await bob.expect("Alice challenges you to Towers by turns")
        other = sqlite3.connect(app.config.store.database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")               # another program holds the write lock
        try:
            bob.send("y")
            await bob.expect("That was NOT saved")
        finally:
            other.execute("COMMIT")
            other.close()
        assert db_rows(app, "SELECT challenger, target FROM waiting_challenges") == [("Alice", "Bob")]
        assert db_rows(app, "SELECT COUNT(*) FROM games") == [(0,)]
        await bob.expect("Alice challenges you to Towers by turns")     # still there to answer
        bob.send("y")
        await bob.expect(r"(Your move|Waiting for Alice's move) \(\d+d", regex=True)    # who starts: random
        await wait_until(lambda: db_rows(app, "SELECT COUNT(*) FROM by_turns") == [(1,)],
                         what="the game stored")
        assert db_rows(app, "SELECT COUNT(*) FROM waiting_challenges") == [(0,)]
        assert db_rows(app, "SELECT player0, player1 FROM games") == [("Alice", "Bob")]
        await bob.close()
    finally:
        await app.stop()
