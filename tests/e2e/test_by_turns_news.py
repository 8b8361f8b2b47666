"""By turns the players are rarely on together: the news they miss while
away (a game over, a challenge declined) waits for their next call, as a
message from Gatehouse."""
from doors import registry
from server.services.seats import Seat, SeatKind

from .harness import ENTER, Caller, db_rows, game_status, start_app, wait_until
from .test_by_turns import DAY, Wall, ask_for_a_handle, clocks_checked, hang_up


async def test_a_game_lost_on_time_while_both_were_away_is_told_at_the_next_call(tmp_path):
    wall = Wall()
    app = await start_app(tmp_path / "gatehouse.db", wall=wall, timing={"clock_check_seconds": 0.05})
    try:
        for handle in ("Alice", "Bob"):
            caller = await Caller.connect(app.port)
            await caller.login(handle)
            await hang_up(app, caller, handle)
        info = registry()["towers"]
        seats = [Seat(0, SeatKind.HUMAN, "Alice"), Seat(1, SeatKind.HUMAN, "Bob")]
        match = await app.matches.create(info, info.resolve_options({"first": 0}), seats, DAY)
        wall.t += 2 * DAY                                   # Alice's day a move runs out
        await clocks_checked(app, wall)
        await wait_until(lambda: game_status(app, match.id) == "finished", what="the loss on time")
        for handle in ("Alice", "Bob"):
            caller = await Caller.connect(app.port)
            await caller.login(handle, new=False)
            text = await caller.expect("Message from Gatehouse")
            text = await caller.expect(f"Game {match.id} (Towers) is over: Alice lost on")   # (the chat pane
            assert "time (1 day a move)." in text, text                                      # wraps it)
            await hang_up(app, caller, handle)
        assert db_rows(app, "SELECT COUNT(*) FROM messages") == [(0,)]     # each shown once
    finally:
        await app.stop()


async def test_a_by_turns_challenge_declined_while_the_challenger_was_away_is_told(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db")
    try:
        bob = await Caller.connect(app.port)
        await bob.login("Bob")
        await hang_up(app, bob, "Bob")
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        await ask_for_a_handle(alice, "Towers")
        alice.send("Bob" + ENTER)
        await alice.expect("Towers against Bob by turns: options")
        alice.send("\x1b[B" * 9 + ENTER)
        await alice.expect("Challenge sent to Bob")
        await hang_up(app, alice, "Alice")
        bob = await Caller.connect(app.port)
        await bob.login("Bob", new=False)
        await bob.expect("Alice challenges you to Towers")
        bob.send("n")
        await bob.expect("You declined Alice's challenge.")
        await hang_up(app, bob, "Bob")
        alice = await Caller.connect(app.port)
        await alice.login("Alice", new=False)
        await alice.expect("Message from Gatehouse")
        await alice.expect("Bob declined your Towers challenge.")
        await hang_up(app, alice, "Alice")
    finally:
        await app.stop()
