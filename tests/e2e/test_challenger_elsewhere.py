"""The challenger reads help, or starts on another challenge, while they
wait: when the first challenge is accepted, their screen goes to the game
(they hold the seat, so the game must be in front of them), and when they
hang up the game waits for them as after any drop."""
import pytest

from .test_two_callers import alice_sends_challenge, two_in_lobby


@pytest.mark.parametrize("key, screen", [("?", "THE LOBBY"), ("p", "Choose a door")])
async def test_a_challenger_on_another_screen_is_taken_to_the_game(app, key, screen):
    alice, bob = await two_in_lobby(app)
    await alice_sends_challenge(alice, bob)
    alice.send(key)
    await alice.expect(screen)
    bob.send("y")
    await bob.expect("Alice to move")
    await alice.expect("Your turn")
    assert screen not in alice.text()
    assert "suspended" not in bob.text()
    await alice.close()                                   # the seat is left as after a drop
    await bob.expect("Alice left: the game is suspended")
    await bob.expect("Waiting for Alice to return (forfeit in")
    await bob.close()
