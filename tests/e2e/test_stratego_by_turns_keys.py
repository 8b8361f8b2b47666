"""In a game by turns ESC leaves the game, but not from a question the
setup panel asks: ESC in "Load which setup?" or at "Ready? y/n" cancels
the question and the caller stays at the board."""
from .harness import DOWN, ENTER, ESC, Caller, registered, start_app
from .test_by_turns import ask_for_a_handle, hang_up


async def test_esc_cancels_the_setup_panels_questions_by_turns(tmp_path):
    app = await start_app(tmp_path / "g.db")
    try:
        await registered(app, "Bob")
        alice = await Caller.connect(app.port)
        await alice.login("Alice")
        await ask_for_a_handle(alice, "Stratego")
        alice.send("bob" + ENTER)
        await alice.expect("Stratego against Bob by turns: options")
        alice.send(DOWN * 3 + ENTER)
        await alice.expect("Challenge sent to Bob")
        await hang_up(app, alice, "Alice")
        bob = await Caller.connect(app.port)
        await bob.login("Bob", new=False)
        await bob.expect("Alice challenges you to Stratego")
        bob.send("y")
        await bob.expect("Your move (")
        bob.send("R")
        await bob.expect("You: 40/40")
        bob.send("W")
        await bob.expect("Name for this setup")
        bob.send("mine" + ENTER)
        await bob.expect("Setup saved as mine")
        bob.send("L")
        await bob.expect("Load which setup?")
        bob.send(ESC)
        await bob.expect_gone("Load which setup?")
        bob.send(ENTER)
        await bob.expect("Ready? y/n")
        bob.send(ESC)
        text = await bob.expect("Not ready yet.")
        assert "Who's online" not in text and "waits for the next move" not in text
        await bob.close()
    finally:
        await app.stop()
