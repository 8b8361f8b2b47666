"""A player reading the game's help (?) misses nothing: the opponent's
chat, a draw offer and the end of the game reach the board beneath, and
are there when the help closes."""
from .harness import ENTER, ESC, Caller
from .test_two_callers import alice_challenges_bob, two_in_lobby


async def heard_while_reading(carol, bob) -> None:
    """Carol, in the lobby, sends Bob a line: it shows over his help once his
    session has taken in every event sent to it before (one inbox, in order)."""
    carol.send("l")
    await carol.expect("Message to (handle):")
    carol.send("Bob" + ENTER)
    await carol.expect("Message to Bob:")
    carol.send("are you there" + ENTER)
    await bob.expect("Message from Carol: are you there")
    await bob.expect("ESC close")                  # still reading the help


async def bob_reads_help_in_a_game(app):
    """Alice and Bob in a game of Towers, Bob reading its help, Carol in the
    lobby: (alice, bob, carol)."""
    alice, bob = await two_in_lobby(app)
    carol = await Caller.connect(app.port)
    await carol.login("Carol")
    await alice_challenges_bob(app, alice, bob)
    bob.send("?")
    await bob.expect("ESC close")
    return alice, bob, carol


async def test_chat_and_a_draw_offer_sent_while_help_is_read_are_on_the_board_after(app):
    alice, bob, carol = await bob_reads_help_in_a_game(app)
    alice.send("c" + "hello bob" + ENTER + ESC)
    await alice.expect("Alice: hello bob")
    await heard_while_reading(carol, bob)
    bob.send(ESC)
    await bob.expect("Alice: hello bob")
    bob.send("?")
    await bob.expect("ESC close")
    alice.send("=")
    await alice.expect("Draw offered")
    await heard_while_reading(carol, bob)
    bob.send(ESC)
    await bob.expect("Alice offers a draw: press = to accept.")
    for caller in (alice, bob, carol):
        await caller.close()


async def test_a_game_that_ends_while_help_is_read_shows_its_whole_end(app):
    alice, bob, carol = await bob_reads_help_in_a_game(app)
    alice.send("Qy")
    text = await alice.expect("Not rated")
    await heard_while_reading(carol, bob)
    bob.send(ESC)
    text = await bob.expect("Not rated")
    assert "GAME OVER" in text, text
    for caller in (alice, bob, carol):
        await caller.close()
