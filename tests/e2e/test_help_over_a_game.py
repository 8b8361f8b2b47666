"""A player reading the game's help (?) misses nothing: the opponent's
chat, a draw offer and the end of the game reach the board beneath, and
are there when the help closes."""
from .harness import ENTER, ESC, wait_until
from .test_two_callers import alice_challenges_bob, two_in_lobby


async def heard_while_reading(app, handle: str) -> None:
    """Wait until the caller's session has taken in every event sent to it
    (the help still open): what follows is read from the screen."""
    session = app.find_session(handle)
    await wait_until(lambda: session.inbox.empty() and type(session.screens[-1]).__name__ == "PagerScreen",
                     what=f"{handle}'s session idle under the help")


async def test_chat_and_a_draw_offer_sent_while_help_is_read_are_on_the_board_after(app):
    alice, bob = await two_in_lobby(app)
    await alice_challenges_bob(app, alice, bob)
    bob.send("?")
    await bob.expect("ESC close")
    alice.send("c" + "hello bob" + ENTER + ESC)
    await alice.expect("Alice: hello bob")
    await heard_while_reading(app, "Bob")
    bob.send(ESC)
    await bob.expect("Alice: hello bob")
    bob.send("?")
    await bob.expect("ESC close")
    alice.send("=")
    await alice.expect("Draw offered")
    await heard_while_reading(app, "Bob")
    bob.send(ESC)
    await bob.expect("Alice offers a draw: press = to accept.")
    await alice.close()
    await bob.close()


async def test_a_game_that_ends_while_help_is_read_shows_its_whole_end(app):
    alice, bob = await two_in_lobby(app)
    await alice_challenges_bob(app, alice, bob)
    bob.send("?")
    await bob.expect("ESC close")
    alice.send("Qy")
    text = await alice.expect("Not rated")
    await heard_while_reading(app, "Bob")
    bob.send(ESC)
    text = await bob.expect("Not rated")
    assert "GAME OVER" in text, text
    await alice.close()
    await bob.close()
