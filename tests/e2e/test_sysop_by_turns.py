"""The sysop plays by turns from the console, as completely as a caller:
``p`` on a selected caller goes from the door straight to the options
(whose "Play" row says live or by turns), ``g`` offers "By turns with a
caller", the console says when a game waits for the sysop's move, ``t``
lists them and ENTER opens one to move. Driven through the sysop socket
(``gatehouse sysop`` on a pty) and telnet callers; only screens and the
database file are read."""
from __future__ import annotations

import re

import pytest

from tests.server.sysop_harness import Console

from .harness import DOWN, ENTER, ESC, RIGHT, UP, Caller, db_rows, door_digit, start_app, wait_until

BY_NAME = "By turns with a caller (type a handle)"


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "gatehouse.db", sysop={"socket": str(tmp_path / "run" / "sysop.sock")})
    yield app
    await app.stop()


@pytest.fixture
async def console(tmp_path, app):
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
    console = Console(config)
    await console.expect("Sysop console")
    yield console
    await console.close()


def moves(app) -> list[tuple[int, str]]:
    return db_rows(app, "SELECT player, action FROM moves ORDER BY game_id, ply")


async def caller_moves_first_if_it_is_theirs(app, caller: Caller) -> None:
    """The options say who begins: if it is the caller, a hole, so that the sysop's move waits."""
    await wait_until(lambda: "Your move (" in caller.text() or "Waiting for Sysop's move" in caller.text(),
                     what="the by-turns game on the caller's screen")
    if "Your move (" in caller.text():
        caller.send("1")
        await wait_until(lambda: len(moves(app)) == 1, what="the caller's move stored")
    await caller.expect("Waiting for Sysop's move")


async def sysop_moves_in_the_waiting_game(app, console: Console) -> None:
    """The console says a game waits for the sysop's move; t, ENTER, a hole, ESC twice."""
    await console.expect("Your turn in 1 game by turns: t shows them.")
    assert "t by turns" in console.line(23)
    console.send("t")
    text = await console.expect("YOUR TURN")
    assert "My games by turns" in text and "ESC console" in console.line(23)
    before = len(moves(app))
    console.send(ENTER)
    await console.expect("Your move (")
    assert "q console" not in console.line(23)      # by turns: ESC leaves, the game waits
    console.send("1")                               # Awari: a digit sows that hole
    await wait_until(lambda: len(moves(app)) == before + 1, what="the sysop's move stored")
    await console.expect("Waiting for")
    console.send(ESC)
    await console.expect("My games by turns")
    console.send(ESC)
    await console.expect("Sysop console")
    await console.expect_gone("Your turn in 1 game")


async def test_p_on_a_selected_caller_asks_the_door_then_live_or_by_turns(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    await console.expect("Alice")
    console.send("p")
    await console.expect("Choose a door")
    console.send(door_digit("Awari"))
    text = await console.expect("Awari against Alice: options")      # no second question for the opponent
    assert "choose your opponent" not in text and "live, now" in text
    console.send(ESC)                               # back goes to the doors, not to an opponent list
    await console.expect("Choose a door")
    console.send(door_digit("Awari"))
    await console.expect("Awari against Alice: options")
    console.send(UP * 2 + RIGHT)                    # UP wraps: the row above "Send challenge", Play
    await console.expect("by turns, 1 day a move")
    await console.expect("Awari against Alice by turns: options")
    console.send(ENTER)
    await console.expect("Challenge sent to Alice: it waits for their next call")
    await alice.expect("Sysop challenges you to Awari")
    alice.send("y")
    await caller_moves_first_if_it_is_theirs(app, alice)
    assert db_rows(app, "SELECT door, player0, player1, status FROM games") == [
        ("awari", "Sysop", "Alice", "active")]
    await sysop_moves_in_the_waiting_game(app, console)
    await alice.expect("Your move (")               # Alice, still at the board, sees the sysop's move
    assert moves(app)[-1][0] == 0                   # the sysop's seat
    await alice.close()


async def test_the_sysops_new_game_offers_by_turns_with_a_caller_who_is_away(app, console):
    bob = await Caller.connect(app.port)
    await bob.login("Bob")
    bob.send("g")
    await bob.expect("Log off? (y/n)")
    bob.send("y")
    await wait_until(lambda: bob.closed, what="Bob hung up")
    await bob.close()
    await console.expect_gone("Bob")
    console.send("g")
    await console.expect("Choose a door")
    console.send(door_digit("Awari"))
    text = await console.expect("choose your opponent")
    number = re.search(rf"(\d+)\. {re.escape(BY_NAME)}", text)
    assert number, text
    console.send(number.group(1))
    await console.expect("Handle:")
    console.send("Bob" + ENTER)
    text = await console.expect("Awari against Bob by turns: options")
    assert "3 days a move" in text
    console.send(DOWN * 20 + ENTER)                 # "Send challenge", the last row: any row sends
    await console.expect("Challenge sent to Bob: it waits for their next call")
    bob = await Caller.connect(app.port)
    await bob.login("Bob", new=False)
    await bob.expect("Sysop challenges you to Awari")
    bob.send("y")
    await caller_moves_first_if_it_is_theirs(app, bob)
    await sysop_moves_in_the_waiting_game(app, console)
    await bob.expect("Your move (")
    await bob.close()


async def test_p_on_a_caller_in_a_game_offers_by_turns_only(app, console):
    alice = await Caller.connect(app.port)
    await alice.login("Alice")
    alice.send("p" + door_digit("Awari"))
    text = await alice.expect("choose your opponent")
    number = re.search(r"(\d+)\. The computer", text)
    assert number, text
    alice.send(number.group(1))
    await alice.expect("Start game")
    alice.send(DOWN * 20 + ENTER)
    await alice.expect("Q resign")
    await console.expect("Awari vs")                  # her row on the console: in a game
    console.send("p")
    await console.expect("Choose a door")
    console.send(door_digit("Awari"))
    text = await console.expect("Awari against Alice by turns: options")
    assert "3 days a move" in text and "live, now" not in text
    console.send(UP * 2)                            # UP wraps: the Play row
    for days in ("7 days a move", "1 day a move", "3 days a move"):   # RIGHT goes round: never live
        console.send(RIGHT)
        text = await console.expect(days)
        assert "live, now" not in text
    console.send(ENTER)
    await console.expect("Challenge sent to Alice: it waits for their next call")
    alice.send("Qy")
    await alice.expect("GAME OVER")
    alice.send(ESC)
    await alice.expect("Sysop challenges you to Awari by turns")
    await alice.close()
