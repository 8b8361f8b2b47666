"""The rows under a game's board as callers see them: the chat strip keeps
its newest lines whole (a reply of two rows does not push the line before
it out: the strip grows into rows the door leaves blank), a sysop message
read in the lobby stays out of the next game's strip, a withdrawn challenge
is said in a line, the "suspended" line goes when the opponent is back,
and the caller who asked for auto finish is not asked to agree to it.
Only screens (pyte) are read, and the database file for the moves the
computer stores as it plays out a game."""
from __future__ import annotations

import re

import pytest

from tests.server.sysop_harness import Console

from .harness import DOWN, ENTER, Caller, db_rows, door_digit, start_app, wait_while_moving
from .test_game_over import challenge, login

REPLY = ("a reply long enough to take two rows of the strip: it goes on and on about the "
         "opening, the middle game and the end")


def strip(caller: Caller) -> list[str]:
    """The rows from the status line (the first blue row from row 17 down) to the key line."""
    top = next(y for y in range(17, 21) if caller.screen.buffer[y][0].bg == "blue")
    return [caller.line(y) for y in range(top, 23)]


@pytest.fixture
async def app(tmp_path):
    app = await start_app(tmp_path / "g.db", sysop={"socket": str(tmp_path / "run" / "s.sock")})
    yield app
    await app.stop()


async def test_a_two_row_reply_keeps_the_line_before_it_whole(app):
    alice = await login(app, "Alice")
    bob = await login(app, "Bob", term="ansi-bbs")
    await alice.expect("Bob")
    await challenge(alice, bob, "Bob", "Stone Towers")
    alice.send("c" + "good luck" + ENTER + ENTER)
    await bob.expect("Alice: good luck")
    bob.send("c" + REPLY + ENTER + ENTER)
    for caller in (alice, bob):
        await caller.expect("the end")
        rows = strip(caller)
        text = "\n".join(rows)
        assert "Alice: good luck" in text, text                 # the line before the reply stays
        assert "Bob: a reply long enough" in text and "the end" in text, text
        head = next(i for i, row in enumerate(rows) if "Bob: a reply" in row)
        assert "the end" in rows[head + 1], text                 # the reply whole, its rows together
        assert len(rows) == 4, text      # the status line one row up, on the row the door left blank
        assert "Q resign" in caller.line(23)
    await alice.close()
    await bob.close()


async def test_the_rows_under_the_board_say_what_is_true_now(app, tmp_path):
    config = tmp_path / "gatehouse.toml"
    config.write_text(f'[sysop]\nsocket = "{app.config.sysop.socket}"\n')
    console = Console(config)
    try:
        await console.expect("Sysop console")
        alice = await login(app, "Alice")
        await console.expect("Alice")
        # a sysop message read in the lobby is not in the next game's strip
        console.send("m")
        await console.expect("Message:")
        console.send("the board restarts at noon" + ENTER)
        await console.expect("Message sent to Alice.")
        await alice.expect("Sysop: the board restarts at noon")
        bob = await login(app, "Bob", term="ansi-bbs")
        await alice.expect("Bob")
        # a challenge withdrawn while its target reads help: said on the top line
        await challenge_only(alice, "Towers")
        await bob.expect("challenges you to Towers")
        bob.send("?")
        await bob.expect("THE LOBBY")
        alice.send("x")
        await alice.expect("Challenge withdrawn.")
        await bob.expect("Alice withdrew the challenge to Towers.")
        bob.send("q")
        await bob.expect("Who's online")
        # in the lobby: said on its message row
        await challenge_only(alice, "Towers")
        await bob.expect("challenges you to Towers")
        alice.send("x")
        await bob.expect("Alice withdrew the challenge to Towers.")
        await bob.expect_gone("challenges you to")
        # the game: no sysop message in its strip
        await challenge(alice, bob, "Bob", "Awari")
        assert "restarts at noon" not in "\n".join(strip(alice)), alice.text()
        # Bob drops and comes back
        await bob.close()
        await alice.expect("Bob left: the game is suspended")
        bob = await Caller.connect(app.port, term="ansi-bbs")
        await bob.expect("Handle")
        bob.send("Bob" + ENTER)
        await bob.expect("Password:")
        bob.send("secret1" + ENTER)
        await bob.expect("Resume it now? (y/n)")
        bob.send("y")
        await alice.expect("Bob is back")
        await alice.expect("Your move")
        assert "Bob is back" in alice.line(22) and "suspended" not in alice.line(22) + alice.line(23), \
            alice.text()          # (the line before it is the log's: Bob left, then came back)
        await alice.expect_gone("Waiting for Bob to return")
        # auto finish: Alice asks, Bob agrees, the computer ends it
        alice.send("a")
        await alice.expect("Auto finish asked")
        await bob.expect("Alice asks for auto finish: press a to agree.")
        assert "asks for auto finish" not in alice.text(), alice.text()
        bob.send("a")
        (game_id,), = db_rows(app, "SELECT id FROM games WHERE door = 'awari'")
        for caller in (alice, bob):      # the computer plays it out: bound each move, not the game
            await wait_while_moving(app, game_id, lambda c=caller: "GAME OVER" in c.text(),
                                    what="the end on screen")
        assert "asks for auto finish" not in alice.text() and "waiting for your opponent" not in alice.text(), \
            alice.text()
        await alice.close()
        await bob.close()
    finally:
        await console.close()


async def challenge_only(challenger: Caller, door: str) -> None:
    """``challenger`` sends Bob a challenge to ``door``; it is left open."""
    challenger.send("p" + door_digit(door))
    text = await challenger.expect("choose your opponent")
    number = re.search(r"(\d+)\. Bob\b", text)
    assert number, text
    challenger.send(number.group(1))
    await challenger.expect("options")
    challenger.send(DOWN * 20 + ENTER)
    await challenger.expect("Waiting for an answer")
