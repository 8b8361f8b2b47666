"""Stratego by turns between two callers who are rarely on together: each
call connects, does its part and hangs up; the server restarts in between.
The challenge waits on the board for Bob's next call, each side sets up on
its own call, the turn notices are right at each login, the chat thread is
kept with the game, Alice is told at once of Bob's move while she is on, and
the game ends with a flag capture. A sysop console pauses the clocks."""
from __future__ import annotations

from server.screens.challenge import BY_NAME
from server.screens.session import NOTICE_SECONDS

from .harness import DOWN, ENTER, ESC, RIGHT, UP, Caller, door_digit, session_of, start_app, wait_until
from .test_stratego import BLUE, RED, arrows, counts


class Wall:
    """The wall clock of by-turns games, moved by hand."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


DAY = 86400.0
# the turns screen's title shows once the login's notice ("Your turn in 1
# game: press t in the lobby.", NOTICE_SECONDS on the same line) is gone
NOTICE_WAIT = NOTICE_SECONDS + 30.0


async def call(app, handle: str, new: bool = False) -> Caller:
    caller = await Caller.connect(app.port)
    await caller.login(handle, new=new)
    return caller


async def hang_up(app, caller: Caller, handle: str) -> None:
    await caller.close()
    await wait_until(lambda: app.find_session(handle) is None, what=f"{handle} gone")


async def open_game(app, caller: Caller, handle: str, status: str):
    """From the lobby: t, the first game by turns, ENTER; waits for ``status``."""
    caller.send("t")
    await caller.expect("My games by turns", timeout=NOTICE_WAIT)
    caller.send(ENTER)
    await caller.expect(status)
    return session_of(app, handle).screens[-1]


async def set_up(app, caller: Caller, handle: str, keys: str, theirs: int | str) -> None:
    """The 40 pieces in reading order, then ready."""
    ui = session_of(app, handle).screens[-1].ui
    if getattr(ui, "auto_step", True) is False:     # where the cursor stays put: make it step on
        caller.send("A")
        await wait_until(lambda: ui.auto_step, what="the cursor steps on")
    caller.send(keys)
    await caller.expect(counts(40, theirs))
    caller.send(ENTER)
    await caller.expect("Ready? y/n")
    caller.send("y")


async def move(app, caller: Caller, screen, frm: int, to: int) -> None:
    ui, match = screen.ui, screen.match
    before = len(match.state.history)
    caller.send(arrows(ui, frm) + ENTER)
    await wait_until(lambda: ui.selected == frm, what="selected")
    caller.send(arrows(ui, to) + ENTER)
    await wait_until(lambda: len(match.state.history) > before, what=f"move {frm}-{to}")


async def test_stratego_by_turns_over_separate_calls_and_restarts_to_a_flag_capture(tmp_path):
    db, wall = tmp_path / "gatehouse.db", Wall()
    app = await start_app(db, wall=wall, stratego={"reveal_seconds": 0.2})
    try:
        bob = await call(app, "Bob", new=True)                # Bob registers and hangs up
        await hang_up(app, bob, "Bob")

        # Call 1, Alice: a by-turns challenge to Bob, who is not on
        alice = await call(app, "Alice", new=True)
        alice.send("p" + door_digit("Stratego"))
        await alice.expect("choose your opponent")
        opponents = session_of(app, "Alice").screens[-1].opponents
        alice.send(DOWN * opponents.index(BY_NAME) + ENTER)
        await alice.expect("Handle:")
        alice.send("Nobody" + ENTER)
        await alice.expect("There is no caller called Nobody.")
        alice.send("bob" + ENTER)
        await alice.expect("Stratego against Bob by turns: options")
        alice.send(DOWN * 2 + RIGHT)                        # time per move: 3 days -> 7 days
        await alice.expect("7 days a move")
        alice.send(DOWN + ENTER)
        await alice.expect("Challenge sent to Bob: it waits for their next call")
        await alice.expect("Waiting for Bob to answer: Stratego")
        await hang_up(app, alice, "Alice")
    finally:
        await app.stop()

    app = await start_app(db, wall=wall, stratego={"reveal_seconds": 0.2})     # restart
    try:
        # Call 2, Bob: the challenge waited; he accepts, sets up, writes, leaves
        bob = await call(app, "Bob")
        text = await bob.expect("Alice challenges you to Stratego")
        assert "Alice challenges you to Stratego by turns, 7 days a move (" in text
        assert "Your turn in" not in text
        bob.send("y")
        await bob.expect("Your move (7d 0h left)")
        await set_up(app, bob, "Bob", BLUE, 0)
        await bob.expect("Waiting for Alice's move (7d 0h left)")
        bob.send("c" + "Good luck, Alice" + ENTER + ESC)
        await bob.expect("Bob: Good luck, Alice")
        bob.send(ESC)                                       # leaves: the game waits
        await bob.expect("Game 1 waits for the next move.")
        assert "Your turn in" not in bob.text()
        await hang_up(app, bob, "Bob")

        # Call 3, Alice, two days later: her turn, with five days left
        wall.t += 2 * DAY
        alice = await call(app, "Alice")
        text = alice.text()
        assert "Your turn in 1 game: press t in the lobby." in text      # the login notice
        assert "Your turn in 1 game (t)" in text                          # and the lobby's
        alice.send("t")
        text = await alice.expect("My games by turns", timeout=NOTICE_WAIT)
        assert "Bob" in text and "YOUR TURN, 5d 0h left" in text
        alice.send(ENTER)
        await alice.expect("Your move (5d 0h left)")
        await alice.expect("Bob: Good luck, Alice")                  # the thread, kept with the game
        for y in range(2, 6):                            # Bob's rows 10-7: his ranks stay hidden
            assert alice.line(y).split()[1:11] == ["■"] * 10, alice.line(y)
        await set_up(app, alice, "Alice", RED, "READY")
        screen = session_of(app, "Alice").screens[-1]
        await wait_until(lambda: len(screen.match.state.history) == 82, what="both ready")
        await alice.expect("Your move (7d 0h left)")                  # play: a fresh time per move
        await move(app, alice, screen, 31, 41)
        await alice.expect("Waiting for Bob's move (7d 0h left)")
        alice.send(ESC)
        await alice.expect("Game 1 waits for the next move.")
        assert "Your turn in" not in alice.text()
        await hang_up(app, alice, "Alice")
    finally:
        await app.stop()

    app = await start_app(db, wall=wall, stratego={"reveal_seconds": 0.2})     # restart
    wall.t += DAY                                       # a day passes (while the server is up)
    try:
        # Call 4: Alice is on in the lobby when Bob calls and moves
        alice = await call(app, "Alice")
        assert "Your turn in" not in alice.text()
        bob = await call(app, "Bob")
        assert "Your turn in 1 game (t)" in bob.text()
        screen = await open_game(app, bob, "Bob", "Your move (6d 0h left)")
        await bob.expect("Last move: Red B4-B5")
        await move(app, bob, screen, 69, 59)
        await alice.expect("Bob moved in game 1 (Stratego): your turn.")      # at once
        await alice.expect("Your turn in 1 game (t)")
        bob.send(ESC)
        await bob.expect("Game 1 waits for the next move.")
        await hang_up(app, bob, "Bob")

        # Alice opens the game and her scout strikes the flag
        screen = await open_game(app, alice, "Alice", "Your move (7d 0h left)")
        await move(app, alice, screen, 30, 60)
        await alice.expect("GAME OVER: Alice wins")
        match = screen.match
        assert "flag" in match.outcome.reason.lower()
        assert len(await app.store.moves(match.id)) == 80 + 2 + 3
        row = await app.store.get_game(match.id)
        assert row.status == "finished" and row.outcome["winner"] == 0
        alice.send(ESC)
        alice.send("t")
        await alice.expect("You have no game by turns.")
        await hang_up(app, alice, "Alice")
        bob = await call(app, "Bob")
        assert "Your turn in" not in bob.text()
        await hang_up(app, bob, "Bob")
    finally:
        await app.stop()


async def test_the_sysop_pauses_every_by_turns_clock_from_the_console(tmp_path):
    """h on the console holds every clock (holidays): a caller's time left
    stands still and the pause is not charged when h lets them run again."""
    from tests.server.sysop_harness import Console
    db, wall = tmp_path / "gatehouse.db", Wall()
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{tmp_path / "sysop.sock"}"\n')
    app = await start_app(db, wall=wall, sysop={"socket": str(tmp_path / "sysop.sock")})
    console = None
    try:
        bob = await call(app, "Bob", new=True)
        await hang_up(app, bob, "Bob")
        alice = await call(app, "Alice", new=True)
        alice.send("p" + door_digit("Stratego"))
        await alice.expect("choose your opponent")
        opponents = session_of(app, "Alice").screens[-1].opponents
        alice.send(DOWN * opponents.index(BY_NAME) + ENTER + "Bob" + ENTER)
        await alice.expect("3 days a move")
        alice.send(DOWN * 3 + ENTER)
        await alice.expect("Challenge sent to Bob")
        bob = await call(app, "Bob")
        bob.send("y")
        await bob.expect("Your move (3d 0h left)")
        bob.send(ESC)
        await bob.expect("Game 1 waits")
        console = Console(config)
        await console.expect("Sysop console")
        console.send("h")
        await console.expect("By-turns clocks paused")
        await alice.expect("Sysop: By-turns clocks paused (holidays)")
        wall.t += 10 * DAY                                  # ten days of holidays
        assert await app.matches.check_clocks() == []
        bob.send("t")
        await bob.expect("YOUR TURN, 3d 0h left")
        await bob.expect("clocks paused by the sysop")
        console.send("h")
        await console.expect("By-turns clocks running again")
        wall.t += DAY
        bob.send(ESC + "t")
        await bob.expect("YOUR TURN, 2d 0h left")             # only the day after the pause counts
        await bob.expect_gone("clocks paused by the sysop")
        wall.t += 2 * DAY
        assert [m.id for m in await app.matches.check_clocks()] == [1]
        await alice.expect("Game 1 (Stratego) is over: neither side moved in time")
    finally:
        if console is not None:
            await console.close()
        await app.stop()


async def test_a_clock_that_would_have_run_out_while_the_server_was_stopped_is_still_on(tmp_path):
    """Downtime is nobody's time: Bob's three days a move stand still for
    the five days the server is stopped; after the restart the game is on
    and his time left is what it was."""
    db, wall = tmp_path / "gatehouse.db", Wall()
    app = await start_app(db, wall=wall)
    try:
        bob = await call(app, "Bob", new=True)
        await hang_up(app, bob, "Bob")
        alice = await call(app, "Alice", new=True)
        alice.send("p" + door_digit("Stratego"))
        await alice.expect(BY_NAME)
        alice.send(UP * 2 + ENTER + "Bob" + ENTER)          # (second to last, above the watching)
        await alice.expect("3 days a move")
        alice.send(DOWN * 3 + ENTER)
        await alice.expect("Challenge sent to Bob")
        await hang_up(app, alice, "Alice")
        bob = await call(app, "Bob")
        bob.send("y")
        await bob.expect("Your move (3d 0h left)")
        wall.t += DAY                                       # a day of his time, the server up
        bob.send(ESC)
        await bob.expect("Game 1 waits")
        await hang_up(app, bob, "Bob")
    finally:
        await app.stop()
    wall.t += 5 * DAY                                       # stopped for five days
    app = await start_app(db, wall=wall)
    try:
        bob = await call(app, "Bob")
        assert "Your turn in 1 game" in bob.text()
        bob.send("t")
        await bob.expect("YOUR TURN, 2d 0h left", timeout=NOTICE_WAIT)
        await hang_up(app, bob, "Bob")
    finally:
        await app.stop()
