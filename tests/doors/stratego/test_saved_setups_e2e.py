"""A Stratego setup saved and loaded again through a real server (the
door's save and load requests, answered by the server), seen only through
the caller's screen and the database file."""
from __future__ import annotations

from tests.e2e.harness import ENTER, Caller, db_rows, moves_of, start_app, start_vs_computer, wait_until


def fills(app, game_id: int, player: int) -> list[frozenset[str]]:
    """Each whole-setup action of ``player``, as its set of ``square=rank`` words."""
    return [frozenset(text.split()[1:]) for p, text in moves_of(app, game_id)
            if p == player and text.startswith("fill ")]


async def test_a_caller_saves_a_setup_and_loads_it_back(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db")
    try:
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        game_id, _level = await start_vs_computer(alice, app, "Alice", "Stratego")
        await alice.expect("SETUP")
        alice.send("R")                                   # a random setup, all 40 pieces
        await wait_until(lambda: len(fills(app, game_id, 0)) == 1, what="the random setup stored")
        await alice.expect("You: 40/40")                  # the screen shows it placed
        alice.send("W")
        await alice.expect("Name for this setup")
        alice.send("wall" + ENTER)
        await alice.expect("Setup saved as wall.")
        rows = db_rows(app, "SELECT name, data FROM setups WHERE door = 'stratego'")
        assert [name for name, _ in rows] == ["wall"] and rows[0][1]

        alice.send("R")                                   # another setup, then the saved one back
        await wait_until(lambda: len(fills(app, game_id, 0)) == 2, what="the second setup stored")
        alice.send("L")
        await alice.expect("Load which setup?")
        alice.send(ENTER)
        await alice.expect("Loaded setup 'wall'.")
        await wait_until(lambda: len(fills(app, game_id, 0)) == 3, what="the loaded setup stored")
        first, _second, loaded = fills(app, game_id, 0)
        assert loaded == first and len(loaded) == 40
        await alice.close()
    finally:
        await app.stop()
