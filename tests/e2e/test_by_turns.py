"""Stratego by turns between two callers who are rarely on together: each
call connects, does its part and hangs up; the server restarts in between.
The challenge waits on the board for Bob's next call, each side sets up on
its own call, the turn notices are right at each login, the chat thread is
kept with the game, Alice is told at once of Bob's move while she is on, and
the game ends with a flag capture. A sysop console pauses the clocks."""
from __future__ import annotations

import json

from server.screens.session import NOTICE_SECONDS

from .harness import (
    DOWN,
    ENTER,
    ESC,
    RIGHT,
    UP,
    Caller,
    active_game,
    db_rows,
    door_digit,
    game_status,
    menu_number,
    moves_of,
    start_app,
    wait_until,
)
from .test_stratego import BLUE, RED, counts, move_by_keys

BY_NAME = "By turns with a caller (type a handle)"


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


async def ask_for_a_handle(caller: Caller, door: str) -> None:
    """From the lobby: p, ``door``, "By turns with a caller": the handle's prompt."""
    caller.send("p" + door_digit(door))
    await caller.expect("choose your opponent")
    caller.send(DOWN * (menu_number(caller, BY_NAME) - 1) + ENTER)
    await caller.expect("Handle:")


async def clocks_checked(app, wall: Wall) -> None:
    """Wait until the server has checked every by-turns clock at least once
    since now: its heartbeat (the database file) reaches the wall clock
    twice, a second past it the second time (each check beats first)."""
    for _ in range(2):
        wall.t += 1.0
        await wait_until(lambda: db_rows(app, "SELECT alive FROM heartbeat") == [(wall.t,)],
                         what="a clock check")


async def hang_up(app, caller: Caller, handle: str) -> None:
    """Back to the lobby, log off, and wait until the server has hung up."""
    if "Who's online" not in caller.text():
        caller.send(ESC)
        await caller.expect("Who's online", timeout=30)
    caller.send("g")
    await caller.expect("Log off? (y/n)", timeout=30)
    caller.send("y")
    await wait_until(lambda: caller.closed, what=f"{handle}'s line hung up")
    await caller.close()


async def open_game(app, caller: Caller, handle: str, status: str):
    """From the lobby: t, the first game by turns, ENTER; waits for ``status``."""
    caller.send("t")
    await caller.expect("My games by turns", timeout=NOTICE_WAIT)
    caller.send(ENTER)
    await caller.expect(status)


async def set_up(app, caller: Caller, handle: str, keys: str, theirs: int | str) -> None:
    """The 40 pieces in reading order, then ready."""
    if "cursor stays put" in caller.text():         # make the cursor step on after each piece
        caller.send("A")
        await caller.expect("cursor steps on")
    caller.send(keys)
    await caller.expect(counts(40, theirs))
    caller.send(ENTER)
    await caller.expect("Ready? y/n")
    caller.send("y")


async def move(app, caller: Caller, handle: str, frm: int, to: int) -> None:
    game = active_game(app, handle)
    assert game is not None
    await move_by_keys(app, caller, 0 if handle == "Alice" else 1, game[0], frm, to)


async def test_stratego_by_turns_over_separate_calls_and_restarts_to_a_flag_capture(tmp_path):
    db, wall = tmp_path / "gatehouse.db", Wall()
    app = await start_app(db, wall=wall, stratego={"reveal_seconds": 0.2})
    try:
        bob = await call(app, "Bob", new=True)                # Bob registers and hangs up
        await hang_up(app, bob, "Bob")

        # Call 1, Alice: a by-turns challenge to Bob, who is not on
        alice = await call(app, "Alice", new=True)
        await ask_for_a_handle(alice, "Stratego")
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
        game = active_game(app, "Alice")
        assert game is not None
        await wait_until(lambda: len(moves_of(app, game[0])) == 82, what="both ready")
        await alice.expect("Your move (7d 0h left)")                  # play: a fresh time per move
        await move(app, alice, "Alice", 31, 41)
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
        await open_game(app, bob, "Bob", "Your move (6d 0h left)")
        await bob.expect("Last move: Red B4-B5")
        await move(app, bob, "Bob", 69, 59)
        await alice.expect("Bob moved in game 1 (Stratego): your turn.")      # at once
        await alice.expect("Your turn in 1 game (t)")
        bob.send(ESC)
        await bob.expect("Game 1 waits for the next move.")
        await hang_up(app, bob, "Bob")

        # Alice opens the game and her scout strikes the flag
        await open_game(app, alice, "Alice", "Your move (7d 0h left)")
        game_id = active_game(app, "Alice")[0]
        await move(app, alice, "Alice", 30, 60)
        await alice.expect("GAME OVER: you won")
        await wait_until(lambda: db_rows(app, "SELECT status FROM games WHERE id = ?", game_id) == [("finished",)],
                         what="the game recorded as finished")
        (outcome,), = db_rows(app, "SELECT outcome FROM games WHERE id = ?", game_id)
        assert "flag" in json.loads(outcome)["reason"].lower() and json.loads(outcome)["winner"] == 0
        assert len(moves_of(app, game_id)) == 80 + 2 + 3
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
    app = await start_app(db, wall=wall, sysop={"socket": str(tmp_path / "sysop.sock")},
                          timing={"clock_check_seconds": 0.05})
    console = None
    try:
        bob = await call(app, "Bob", new=True)
        await hang_up(app, bob, "Bob")
        alice = await call(app, "Alice", new=True)
        alice.send("p" + door_digit("Stratego"))
        await alice.expect("choose your opponent")
        alice.send(DOWN * (menu_number(alice, BY_NAME) - 1) + ENTER + "Bob" + ENTER)
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
        await clocks_checked(app, wall)
        assert game_status(app, 1) == "active"              # nobody lost on time
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
        await alice.expect("Game 1 (Stratego) is over: neither side moved in time")
        assert game_status(app, 1) != "active"
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
